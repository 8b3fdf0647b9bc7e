//! One tick: the clock and intent events, the walk of the stack frame by frame (action,
//! events, continuation, update, cancel rules), the in-scope pass, and the wake-up that
//! says when the next tick can matter.

use std::time::Duration;

use crate::behavior::action::{ActionEnd, ActionStatus};
use crate::behavior::core::{
    Behavior, BehaviorEnd, BehaviorEvent, Behaviors, Command, Continuation, Ctx, DelegationOutcome,
    EventScope, Invariant, LifecycleState, RunnerError,
};
use crate::behavior::ids::BehaviorId;
use crate::behavior::wakeup::{Inputs, Wakeup};
use crate::intent::{IntentEvent, IntentUnion};

use super::{Hook, Runner};

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// One tick of `dt` virtual time with this tick's user `events`. Allocation-free in
    /// steady state (no stack change, no event).
    pub fn tick(&mut self, dt: Duration, events: &[E]) {
        self.tick_inner(dt, events);
        let c = &mut self.core;
        c.quiet = events.is_empty() && c.m.changes.rev == c.settled_rev;
        c.settled_rev = c.m.changes.rev;
    }

    pub(super) fn tick_inner(&mut self, dt: Duration, events: &[E]) {
        let c = &mut self.core;
        c.s.clock.advance(dt);
        c.m.world.set_clock(c.s.clock.now(), c.s.clock.tick());
        if !c.m.suppressed.is_empty() {
            // Last tick's suppressions end: the answers they changed change back.
            c.m.suppressed.clear();
            c.m.changes.stamp(Inputs::SUPPRESSION);
        }
        c.m.errors.errors.clear();
        c.s.ievents.clear();
        // Most ticks have no event: skip draining an empty buffer.
        if !c.m.intents.events().is_empty() {
            c.s.ievents.extend(c.m.intents.drain_events());
        }
        c.m.intents.update();
        if !c.m.intents.events().is_empty() {
            c.m.changes.stamp(Inputs::INTENTS);
            c.s.ievents.extend(c.m.intents.drain_events());
        }
        for e in &c.s.ievents {
            if let IntentEvent::Pending { tag, .. } = e {
                c.m.changes.touch_world();
                c.m.world
                    .intent_pending(<U as crate::union::CladUnion>::tag_name(*tag));
            }
        }
        c.m.changes.sync_world(&*c.m.world);
        let tick = c.s.clock.tick();
        if c.locking_frames > 0 || !c.m.holds.is_empty() {
            self.poll_track_locks();
        }
        let c = &mut self.core;
        if c.s.stack.is_empty() {
            let base = c.base;
            if self.view(base).wants_to_activate(base) {
                self.push(None, base, Continuation::None, events);
                self.apply(events);
            }
        }
        let mut i = 0;
        while i < self.core.s.stack.len() {
            self.step_frame(i, events);
            i += 1;
        }
        // In scope, not active. Nothing here can change the stack or the scope (only active
        // behaviors may delegate or end), so the list is stable during the pass.
        let has_events = !events.is_empty() || !self.core.s.ievents.is_empty();
        let mut j = 0;
        while let Some(&id) = self.core.in_scope_work.get(j) {
            j += 1;
            let Some(n) = self.core.s.nodes.get_mut(id.index()) else {
                continue;
            };
            if n.state != LifecycleState::InScope || n.last_update == tick as u32 {
                continue;
            }
            n.last_update = tick as u32;
            let update = n.updates_inactive;
            if has_events && !n.event_scopes.is_empty() {
                self.deliver_events(id, false, events);
            }
            if update {
                self.with_ctx(id, events, |b, c| b.update(c));
                self.apply(events);
            }
        }
    }

    /// When the behaviors may next act on their own (see [`wakeup`](crate::behavior::wakeup)), after a
    /// tick that changed nothing: the earliest of every stack frame's action
    /// ([`Action::next_wakeup`](crate::behavior::Action::next_wakeup)), class
    /// ([`Behavior::next_wakeup`]: a dispatcher counts the activation watches of the
    /// children it asks, a state machine its transitions) and `wantsToCancelSelfCondition`,
    /// and of every in-scope behavior whose class updates while inactive.
    /// [`Wakeup::EveryTick`] when the last tick (or anything since) changed an input (the
    /// world, the intent component, the stack), had user events or errors, while a
    /// continuation is ready, while the stack is empty, or while a track lock or a hold does
    /// not hold its parts yet (it retries every tick) or an action waits for them.
    ///
    /// Pure. A caller may then skip the ticks that end before the wake-up
    /// ([`skip_idle_ticks`](Self::skip_idle_ticks)) as long as no input arrives and nothing
    /// is pending in the intent component (its deadlines count its own updates).
    pub fn next_wakeup(&self) -> Wakeup {
        let c = &self.core;
        if !c.quiet
            || c.m.changes.rev != c.settled_rev
            || c.s.stack.is_empty()
            || !c.m.errors.errors.is_empty()
        {
            return Wakeup::EveryTick;
        }
        let (held, locked) = self.locked_parts();
        let (kept, held_back) = self.held_back_parts();
        if held != locked || kept != held_back {
            return Wakeup::EveryTick;
        }
        let clock = c.s.clock;
        let mut w = Wakeup::Never;
        for f in &c.s.stack {
            if f.ready.is_some() || f.awaiting_locks {
                return Wakeup::EveryTick;
            }
            if let Some(a) = &f.action {
                w = w.min(a.next_wakeup(&clock));
            }
            let v = self.view(f.id);
            if let Some(b) = self.behavior(f.id) {
                w = w.min(b.next_wakeup(&v));
            }
            if let Some(x) = &c.s.nodes[f.id.index()].cancel_when {
                w = w.min(match x.last() {
                    Some((_, false)) => x.next_change(&v.eval_cx()),
                    _ => Wakeup::EveryTick,
                });
            }
            if w == Wakeup::EveryTick {
                return w;
            }
        }
        for &id in &c.in_scope_work {
            let n = &c.s.nodes[id.index()];
            if n.state == LifecycleState::InScope && n.updates_inactive {
                if let Some(b) = self.behavior(id) {
                    w = w.min(b.next_wakeup(&self.view(id)));
                }
                if w == Wakeup::EveryTick {
                    return w;
                }
            }
        }
        w
    }

    /// Advances the clock by `ticks` ticks of `dt` without calling any hook or updating the
    /// intent component: what `ticks` calls of [`tick`](Self::tick) would do when nothing can
    /// happen in between. Only for a discrete-event caller that established it with
    /// [`next_wakeup`](Self::next_wakeup) (skipping to a tick that ends before the wake-up)
    /// after a tick that changed nothing, with nothing pending in the intent component (its
    /// deadlines count its own updates).
    pub fn skip_idle_ticks(&mut self, ticks: u64, dt: Duration) {
        let c = &mut self.core;
        c.s.clock.advance_by(ticks, dt);
        // As the last skipped tick would have: a world change made before the next tick
        // carries its time.
        c.m.world.set_clock(c.s.clock.now(), c.s.clock.tick());
    }

    /// Calls `f` on behavior `id` with a context (None for an unknown ID, which the runner's
    /// own paths never pass). The arena is split around `id`: the hook has its behavior
    /// mutably and the others shared.
    #[inline]
    pub(super) fn with_ctx<R>(
        &mut self,
        id: BehaviorId,
        events: &[E],
        f: impl FnOnce(&mut dyn Behavior<U, E>, &mut Ctx<'_, U, E>) -> R,
    ) -> Option<R> {
        let (before, rest) = self.behaviors.split_at_mut_checked(id.index())?;
        let (b, after) = rest.split_first_mut()?;
        let c = &mut self.core;
        let mut ctx = Ctx {
            me: id,
            cancel_queued: false,
            delegation_queued: false,
            end_queued: false,
            s: &c.s,
            m: &mut c.m,
            behaviors: Behaviors { before, after },
            events,
        };
        Some(f(&mut **b, &mut ctx))
    }

    pub(super) fn hook(&mut self, id: BehaviorId, hook: Hook, events: &[E]) {
        self.with_ctx(id, events, |b, c| match hook {
            Hook::Activated => b.on_activated(c),
            Hook::Update => b.update(c),
            Hook::Deactivated => b.on_deactivated(c),
            Hook::EnteredScope => b.on_entered_scope(c),
            Hook::LeftScope => b.on_left_scope(c),
        });
    }

    pub(super) fn update(&mut self, id: BehaviorId, events: &[E]) {
        let tick = self.core.s.clock.tick();
        let n = &mut self.core.s.nodes[id.index()];
        if n.last_update == tick as u32 {
            self.core
                .m
                .errors
                .push(RunnerError::Invariant(Invariant::DoubleUpdate(id)));
            return;
        }
        n.last_update = tick as u32;
        self.hook(id, Hook::Update, events);
        self.apply(events);
    }

    #[inline]
    pub(super) fn deliver(&mut self, id: BehaviorId, active: bool, events: &[E]) {
        let has_events = !events.is_empty() || !self.core.s.ievents.is_empty();
        if has_events && !self.core.s.nodes[id.index()].event_scopes.is_empty() {
            self.deliver_events(id, active, events);
        }
    }

    /// Delivers the tick's events to the scopes `id` handles.
    #[inline(never)]
    pub(super) fn deliver_events(&mut self, id: BehaviorId, active: bool, events: &[E]) {
        let scopes = self.core.s.nodes[id.index()].event_scopes;
        let s2 = if active {
            EventScope::WhileActivated
        } else {
            EventScope::WhileInScopeNotActivated
        };
        for scope in [EventScope::AlwaysInScope, s2] {
            if !scopes.contains(scope) {
                continue;
            }
            for k in 0..events.len() {
                self.with_ctx(id, events, |b, c| {
                    let evs = c.events;
                    b.handle_event(BehaviorEvent::User(&evs[k]), scope, c)
                });
                self.apply(events);
            }
            for k in 0..self.core.s.ievents.len() {
                self.with_ctx(id, events, |b, c| {
                    let evs = &c.s.ievents;
                    b.handle_event(BehaviorEvent::Intent(&evs[k]), scope, c)
                });
                self.apply(events);
            }
        }
    }

    pub(super) fn still_at(&self, i: usize, id: BehaviorId) -> bool {
        self.core.s.stack.get(i).is_some_and(|f| f.id == id)
    }

    pub(super) fn step_frame(&mut self, i: usize, events: &[E]) {
        let Some(frame) = self.core.s.stack.get(i) else {
            return;
        };
        let id = frame.id;
        // 1. the frame's action
        if frame.action.is_some() {
            self.step_action(i);
        }
        // 2. events
        self.deliver(id, true, events);
        // 3. continuation, when nothing is delegated
        if self.core.s.stack.get(i).is_some_and(|f| f.ready.is_some())
            && i + 1 == self.core.s.stack.len()
        {
            self.run_ready(i, id, events);
        }
        // 4. update
        if self.still_at(i, id) {
            self.update(id, events);
        }
        // 5. always-delegates, then the cancel condition
        if self.still_at(i, id) {
            let n = &self.core.s.nodes[id.index()];
            if n.cancel_rule || (n.always_delegates && i + 1 == self.core.s.stack.len()) {
                self.cancel_self_rules(i, id, events);
            }
        }
    }

    /// Steps the action of frame `i`; when it ends, its continuation becomes ready.
    #[inline(never)]
    pub(super) fn step_action(&mut self, i: usize) {
        let clock = self.core.s.clock;
        let Some(frame) = self.core.s.stack.get_mut(i) else {
            return;
        };
        if frame.awaiting_locks {
            return self.start_when_locked(i);
        }
        let Some(a) = frame.action.as_mut() else {
            return;
        };
        let end = match a.step(&clock) {
            ActionStatus::Running => return,
            ActionStatus::Succeeded => ActionEnd::Succeeded,
            ActionStatus::Failed => ActionEnd::Failed,
        };
        if let Some(mut a) = frame.action.take() {
            a.on_end(end);
            tracing::debug!(action = a.name(), ?end, "Behavior.Action.Ended");
        }
        if let Continuation::Call(k) = std::mem::replace(&mut frame.cont, Continuation::None) {
            frame.ready = Some((k, DelegationOutcome::Action(end)));
        }
    }

    /// Ends the behavior of frame `i` if it always delegates and is not delegating, or
    /// else if its `wantsToCancelSelfCondition` holds.
    #[inline(never)]
    pub(super) fn cancel_self_rules(&mut self, i: usize, id: BehaviorId, events: &[E]) {
        let n = &self.core.s.nodes[id.index()];
        let idle = n.always_delegates
            && i + 1 == self.core.s.stack.len()
            && self.core.s.stack[i].action.is_none()
            && self.core.s.stack[i].ready.is_none();
        let cancel = !idle
            && n.cancel_when
                .as_ref()
                .is_some_and(|c| self.view(id).eval(c));
        if cancel || idle {
            tracing::debug!(
                behavior = %n.name,
                reason = if cancel { "wantsToCancelSelfCondition" } else { "always_delegates" },
                "Behavior.CancelSelf"
            );
            self.core.m.cmds.push_back(Command::End {
                from: id,
                end: BehaviorEnd::Finished,
            });
            self.apply(events);
        }
    }

    #[inline(never)]
    pub(super) fn run_ready(&mut self, i: usize, id: BehaviorId, events: &[E]) {
        if !self.still_at(i, id) {
            return;
        }
        if let Some((k, outcome)) = self.core.s.stack[i].ready.take() {
            tracing::debug!(behavior = %self.core.s.nodes[id.index()].name, step = k, ?outcome, "Behavior.Continuation");
            self.with_ctx(id, events, |b, c| b.on_delegation_done(k, outcome, c));
            self.apply(events);
        }
    }
}
