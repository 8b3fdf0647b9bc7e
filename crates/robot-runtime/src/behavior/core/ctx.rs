//! [`Ctx`]: what a hook gets, and how a behavior activates an intent.

use crate::behavior::action::{Action, ActionRequest};
use crate::behavior::clock::VirtualClock;
use crate::behavior::condition::{Condition, MachineTimes};
use crate::behavior::ids::{BehaviorId, BehaviorName};
use crate::behavior::track_locks::LockId;
use crate::behavior::wakeup::Inputs;
use crate::behavior::world::{self, World};
use crate::intent::{
    ActiveIntentGuard, ClaimError, IntentComponent, IntentEvent, IntentMatcher, IntentUnion, Owner,
};

use super::{
    BehaviorEnd, Behaviors, Command, Continuation, Effect, EffectId, LifecycleState, Mutable,
    RunnerError, Shared, View,
};

/// What a hook gets: the intent component (mutable), the world, delegation, scoped effects,
/// the clock, the tick's events, the action factory. Requests that change the stack are
/// checked at once (the error is returned) and applied in order as soon as the hook
/// returns.
pub struct Ctx<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) me: BehaviorId,
    pub(crate) cancel_queued: bool,
    pub(crate) delegation_queued: bool,
    pub(crate) end_queued: bool,
    pub(crate) s: &'a Shared<U, E>,
    pub(crate) m: &'a mut Mutable<U>,
    pub(crate) behaviors: Behaviors<'a, U, E>,
    pub(crate) events: &'a [E],
}

impl<'a, U: IntentUnion, E: 'static> Ctx<'a, U, E> {
    /// The behavior whose hook this is.
    pub fn me(&self) -> BehaviorId {
        self.me
    }
    /// Its name.
    pub fn my_name(&self) -> &'a BehaviorName {
        &self.s.nodes[self.me.index()].name
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.s.clock
    }
    /// The shared view (what conditions and `wants_to_be_activated` see).
    pub fn view(&self) -> View<'_, U, E> {
        View {
            me: self.me,
            s: self.s,
            m: self.m,
            behaviors: self.behaviors,
            events: self.events,
        }
    }
    /// The intent component.
    pub fn intents(&self) -> &IntentComponent<U> {
        &self.m.intents
    }
    /// The intent component, mutably (e.g. to clear the trigger word). Prefer the scoped
    /// [`activate_intent`](Self::activate_intent) for claims.
    pub fn intents_mut(&mut self) -> &mut IntentComponent<U> {
        self.m.changes.stamp(Inputs::INTENTS);
        &mut self.m.intents
    }
    /// The world as `W` (None when it is of another type; see [`World`]).
    pub fn world<W: World>(&self) -> Option<&W> {
        world::downcast(&*self.m.world)
    }
    /// The world, whatever its type.
    pub fn dyn_world(&self) -> &dyn World {
        &*self.m.world
    }
    /// The world as `W`, mutably (a simulated effector changes the world: a put-down
    /// clears "carrying"); None when it is of another type. The fields that change are
    /// stamped when the hook returns.
    pub fn world_mut<W: World>(&mut self) -> Option<&mut W> {
        self.m.changes.touch_world();
        world::downcast_mut(&mut *self.m.world)
    }
    /// The world, mutably, whatever its type (stamped as [`world_mut`](Self::world_mut)).
    pub fn dyn_world_mut(&mut self) -> &mut dyn World {
        self.m.changes.touch_world();
        &mut *self.m.world
    }
    /// The world as `W`, mutably: a world of another type is first replaced by `make()` (a
    /// misconfigured robot keeps running on a default world instead of stopping; the
    /// caller says so, the runtime cannot know what a default means).
    pub fn world_mut_or_insert<W: World>(&mut self, make: impl FnOnce() -> W) -> &mut W {
        self.m.changes.touch_world();
        world::as_or_replace(&mut self.m.world, make)
    }
    /// This tick's user events.
    pub fn events(&self) -> &'a [E] {
        self.events
    }
    /// This tick's intent events.
    pub fn intent_events(&self) -> &'a [IntentEvent<U::Tag>] {
        &self.s.ievents
    }
    /// Evaluates a condition for this behavior.
    pub fn eval(&self, condition: &Condition<U, E>) -> bool {
        self.view().eval(condition)
    }
    /// Evaluates a condition for this behavior inside a state machine with these times.
    pub fn eval_in_machine(&self, condition: &Condition<U, E>, machine: MachineTimes<'_>) -> bool {
        self.view().eval_in_machine(condition, machine)
    }
    /// See [`View::wants_to_activate`].
    pub fn wants_to_activate(&self, id: BehaviorId) -> bool {
        self.view().wants_to_activate(id)
    }
    /// This behavior's lifecycle state.
    pub fn state(&self) -> LifecycleState {
        self.s.nodes[self.me.index()].state
    }
    /// True while this behavior is active.
    pub fn is_active(&self) -> bool {
        self.state() == LifecycleState::Active
    }
    /// Resets behavior timer `index` (of the registry's behavior-timer vocabulary) now:
    /// [`World::reset_timer`].
    pub fn reset_behavior_timer(&mut self, index: usize) {
        self.m.changes.touch_world();
        self.m.world.reset_timer(index);
    }
    /// A uniform draw from [0, 1) of the runner's seeded generator.
    pub fn random(&mut self) -> f64 {
        self.m.random()
    }
    /// Tells behavior `id` not to activate on this tick (the original's
    /// `SetDontActivateThisTick`, step 1 of `WantsToBeActivated`): until the tick ends its
    /// [`View::wants_to_activate`] is false. Coordinators call it in their update, which
    /// runs before their delegates choose (they sit lower on the stack), and again on every
    /// tick it should hold. Unknown IDs are ignored.
    pub fn suppress_this_tick(&mut self, id: BehaviorId) {
        if id.index() >= self.s.nodes.len() {
            return;
        }
        let tick = self.s.clock.tick();
        if self.m.suppressed_tick != tick {
            self.m.suppressed.clear();
            self.m.suppressed_tick = tick;
        }
        if !self.m.suppressed.contains(&id) {
            self.m.suppressed.push(id);
            self.m.changes.stamp(Inputs::SUPPRESSION);
        }
    }
    /// True when `id` was told not to activate on this tick
    /// ([`suppress_this_tick`](Self::suppress_this_tick)).
    pub fn is_suppressed(&self, id: BehaviorId) -> bool {
        self.m.is_suppressed(id, self.s.clock.tick())
    }
    /// An action for `request` from the runner's action factory (simulated by default).
    pub fn make_action(&mut self, request: &ActionRequest<'_>) -> Box<dyn Action> {
        let me = &self.s.nodes[self.me.index()].name;
        self.m.actions.make(me.as_str(), request)
    }
    /// Delegates to the action the factory makes for `request`.
    pub fn play(
        &mut self,
        request: &ActionRequest<'_>,
        cont: Continuation,
    ) -> Result<(), RunnerError> {
        let a = self.make_action(request);
        self.delegate_action(a, cont)
    }

    fn frame(&self) -> Option<usize> {
        let p = self.s.nodes.get(self.me.index())?.stack_pos;
        (p != u32::MAX).then_some(p as usize)
    }

    /// The behavior this one delegated to (the frame above), if any.
    pub fn current_delegate(&self) -> Option<BehaviorId> {
        let i = self.frame()?;
        if self.cancel_queued {
            return None;
        }
        self.s.stack.get(i + 1).map(|f| f.id)
    }

    /// True when control is delegated: a behavior above this one on the stack, or an action
    /// of this frame still running (per frame, actions included), or a delegation requested
    /// in this hook.
    pub fn is_control_delegated(&self) -> bool {
        if self.delegation_queued {
            return true;
        }
        if self.cancel_queued {
            return false;
        }
        match self.frame() {
            Some(i) => i + 1 < self.s.stack.len() || self.s.stack[i].action.is_some(),
            None => false,
        }
    }

    fn check_in_control(&self) -> Result<(), RunnerError> {
        let me = self.me;
        if self.state() != LifecycleState::Active || self.end_queued {
            return Err(RunnerError::NotActive { behavior: me });
        }
        if self.is_control_delegated() {
            return Err(RunnerError::NotInControl { behavior: me });
        }
        Ok(())
    }

    fn refuse<T>(&mut self, e: RunnerError) -> Result<T, RunnerError> {
        self.m.errors.push(e);
        Err(e)
    }

    /// Delegates to the behavior `target`: only when this behavior is active and in control
    /// (top of the stack, no running action), `target` is a declared delegate, in scope,
    /// not active, and wants to be activated this tick (asked now if it was not yet).
    /// `target` is pushed when this hook returns and gets its first `update` on this tick
    /// (the stack walk reaches it). `cont` runs when control returns.
    pub fn delegate_if_in_control(
        &mut self,
        target: BehaviorId,
        cont: Continuation,
    ) -> Result<(), RunnerError> {
        if let Err(e) = self.check_in_control() {
            return self.refuse(e);
        }
        let me = self.me;
        let Some(t) = self.s.nodes.get(target.index()) else {
            return self.refuse(RunnerError::Unknown { behavior: target });
        };
        if !self.s.nodes[me.index()].delegates.contains(&target) {
            return self.refuse(RunnerError::UndeclaredDelegate {
                from: me,
                to: target,
            });
        }
        // Restarting the delegate this hook cancels (a state machine's self-transition):
        // it is still active now; whether it wants to run is asked once it is not.
        let restart = t.state == LifecycleState::Active
            && self.cancel_queued
            && self.frame().is_some_and(|i| (t.stack_pos as usize) > i);
        match t.state {
            LifecycleState::Active if !restart => {
                return self.refuse(RunnerError::AlreadyActive { behavior: target })
            }
            LifecycleState::OutOfScope => {
                return self.refuse(RunnerError::NotInScope { behavior: target })
            }
            _ => {}
        }
        if !restart && t.wants_tick.get() != self.s.clock.tick() && !self.wants_to_activate(target)
        {
            return self.refuse(RunnerError::DoesNotWantToActivate { behavior: target });
        }
        self.delegation_queued = true;
        self.m.cmds.push_back(Command::Delegate {
            from: me,
            to: target,
            cont,
            ask_when_applied: restart,
        });
        Ok(())
    }

    /// Cancels the current delegate (without its continuation), then delegates.
    pub fn delegate_now(
        &mut self,
        target: BehaviorId,
        cont: Continuation,
    ) -> Result<(), RunnerError> {
        if self.is_control_delegated() {
            self.cancel_delegates(false)?;
        }
        self.delegate_if_in_control(target, cont)
    }

    /// Delegates to an action (same control rules as behaviors). The runner owns it until
    /// it ends; `cont` receives [`DelegationOutcome::Action`](super::DelegationOutcome::Action).
    pub fn delegate_action(
        &mut self,
        action: Box<dyn Action>,
        cont: Continuation,
    ) -> Result<(), RunnerError> {
        if let Err(e) = self.check_in_control() {
            return self.refuse(e);
        }
        self.delegation_queued = true;
        self.m.cmds.push_back(Command::Action {
            from: self.me,
            action,
            cont,
        });
        Ok(())
    }

    /// Cancels whatever this behavior delegated to (behaviors above it, its running
    /// action). With `run_continuation`, the pending continuation runs at this behavior's
    /// next update (as the original's callback) with [`BehaviorEnd::Cancelled`] /
    /// [`ActionEnd::Cancelled`](crate::behavior::ActionEnd::Cancelled); without, it is dropped. Returns whether anything was
    /// delegated.
    pub fn cancel_delegates(&mut self, run_continuation: bool) -> Result<bool, RunnerError> {
        if self.state() != LifecycleState::Active || self.end_queued {
            return self.refuse(RunnerError::NotActive { behavior: self.me });
        }
        let was = self.is_control_delegated();
        self.cancel_queued = true;
        self.delegation_queued = false;
        self.m.cmds.push_back(Command::CancelDelegates {
            from: self.me,
            run_continuation,
        });
        Ok(was)
    }

    /// Ends this behavior (and everything it delegated to) when this hook returns; the
    /// delegator's continuation gets [`BehaviorEnd::Finished`].
    pub fn cancel_self(&mut self) -> Result<(), RunnerError> {
        self.end(BehaviorEnd::Finished)
    }

    /// Ends this behavior as failed; the delegator's continuation gets
    /// [`BehaviorEnd::Failed`].
    pub fn fail(&mut self, reason: &str) -> Result<(), RunnerError> {
        tracing::warn!(behavior = %self.my_name(), reason, "Behavior.Failed");
        self.end(BehaviorEnd::Failed)
    }

    fn end(&mut self, end: BehaviorEnd) -> Result<(), RunnerError> {
        if self.state() != LifecycleState::Active || self.end_queued {
            return self.refuse(RunnerError::NotActive { behavior: self.me });
        }
        self.end_queued = true;
        self.m.cmds.push_back(Command::End { from: self.me, end });
        Ok(())
    }

    fn add_effect(&mut self, effect: Effect<U>) -> EffectId {
        self.m.next_effect += 1;
        let id = EffectId(self.m.next_effect);
        tracing::trace!(behavior = %self.my_name(), kind = effect.kind(), "Behavior.Effect.Acquired");
        self.m.effects[self.me.index()].push((id, effect));
        id
    }

    /// Activates the pending intent if it matches `matcher`, as a scoped effect (owner: this
    /// behavior). Only while active. Another active intent is superseded (the original
    /// overwrote it with a warning).
    pub fn activate_intent(
        &mut self,
        matcher: &IntentMatcher<U>,
    ) -> Result<EffectId, ClaimError<U::Tag>> {
        self.activate_intent_for(matcher, self.me)
    }

    /// Like [`activate_intent`](Self::activate_intent), owned by `owner` (a state machine
    /// activates a state's intent for the state's behavior); the effect is this behavior's.
    pub fn activate_intent_for(
        &mut self,
        matcher: &IntentMatcher<U>,
        owner: BehaviorId,
    ) -> Result<EffectId, ClaimError<U::Tag>> {
        if !self.is_active() {
            return Err(ClaimError::NotPending {
                pending: self.m.intents.pending_tag(),
            });
        }
        self.m.changes.stamp(Inputs::INTENTS);
        let guard = activate(&mut self.m.intents, matcher, owner_of(owner))?;
        Ok(self.add_effect(Effect::Intent(guard)))
    }

    /// Holds the claim timeout while this behavior is active (scoped).
    pub fn hold_timeout(&mut self) -> EffectId {
        let h = self.m.intents.hold_timeout();
        self.add_effect(Effect::TimeoutHold(h))
    }

    /// Suppresses trigger words while this behavior is active (scoped).
    pub fn suppress_trigger_word(&mut self) -> EffectId {
        let s = self.m.intents.suppress_trigger_word();
        self.add_effect(Effect::TriggerWordSuppression(s))
    }

    /// Runs `cleanup` when this behavior is deactivated (scoped).
    pub fn on_deactivation(
        &mut self,
        cleanup: impl FnOnce(&mut IntentComponent<U>) + Send + 'static,
    ) -> EffectId {
        self.add_effect(Effect::Cleanup(Box::new(cleanup)))
    }

    /// Undoes one effect now (false if it is not this behavior's or already undone).
    pub fn release_effect(&mut self, id: EffectId) -> bool {
        match self.m.effects[self.me.index()]
            .iter()
            .position(|(i, _)| *i == id)
        {
            Some(p) => {
                let (_, e) = self.m.effects[self.me.index()].remove(p);
                self.m.changes.stamp(Inputs::INTENTS);
                e.undo(&mut self.m.intents);
                true
            }
            None => false,
        }
    }

    /// Number of scoped effects this behavior holds.
    pub fn effect_count(&self) -> usize {
        self.m.effects[self.me.index()].len()
    }

    /// Holds the parts of the body `tracks` name (the original's track names: `BODY_TRACK`
    /// is the treads) from everyone, this behavior's own stack included, until
    /// [`release_hold`](Self::release_hold) or this behavior's deactivation (the runner gives
    /// back what is left at step (5)). Unlike `tracksToLockWhileActivated`, which lends its
    /// parts to the stack's own actions, a hold lends them to nobody: an action needing them
    /// (a turn) is refused and waits or fails as its class says, an animation plays without
    /// them (see [`track_locks`](crate::behavior::track_locks)). The hold never fails: it
    /// waits or preempts under the robot's policy. `None`: this behavior is not active, the
    /// runner has no [`TrackLocks`](crate::behavior::TrackLocks), or the names hold nothing.
    pub fn hold_tracks(&mut self, tracks: &[&str]) -> Option<LockId> {
        if !self.is_active() {
            return None;
        }
        let name = &self.s.nodes[self.me.index()].name;
        let hold = self.m.track_locks.as_mut()?.hold(name.as_str(), tracks)?;
        tracing::debug!(behavior = %name, ?hold, "Behavior.Hold");
        self.m.holds.push((self.me, hold));
        Some(hold)
    }

    /// Gives back a hold this behavior took ([`hold_tracks`](Self::hold_tracks)), whatever
    /// its state; false when it is not one of this behavior's live holds.
    pub fn release_hold(&mut self, hold: LockId) -> bool {
        let me = self.me;
        let Some(i) = self.m.holds.iter().position(|&h| h == (me, hold)) else {
            return false;
        };
        self.m.holds.swap_remove(i);
        if let Some(locks) = self.m.track_locks.as_mut() {
            locks.unlock(hold);
        }
        tracing::debug!(behavior = %self.s.nodes[me.index()].name, ?hold, "Behavior.HoldReleased");
        true
    }
}

pub(crate) fn owner_of(id: BehaviorId) -> Owner {
    Owner::Behavior(id)
}

/// Activates the pending intent matching `matcher` for `owner`; another active intent is
/// superseded, as the original overwrote it.
pub(crate) fn activate<U: IntentUnion>(
    intents: &mut IntentComponent<U>,
    matcher: &IntentMatcher<U>,
    owner: Owner,
) -> Result<ActiveIntentGuard<U>, ClaimError<U::Tag>> {
    match intents.activate_matching(matcher, owner.clone()) {
        Err(ClaimError::AlreadyActive { .. })
            if intents
                .pending()
                .is_some_and(|p| matcher.matches(p.intent())) =>
        {
            tracing::warn!("Behavior.ActivateIntent.SupersedingActive");
            intents.activate_replacing(matcher.target_tag(), owner)
        }
        other => other,
    }
}
