//! The [`Behavior`] trait (the hooks) and what classes report to tools about themselves.

use std::time::Duration;

use crate::behavior::condition::Condition;
use crate::behavior::ids::BehaviorId;
use crate::behavior::wakeup::{Wakeup, Watch};

use crate::intent::IntentUnion;

use super::{
    BehaviorEvent, Ctx, DelegationOutcome, EventScope, EventScopes, OperationModifiers, View,
};

/// A behavior: the original's `ICozmoBehavior` hooks. The [`Runner`](crate::behavior::runner::Runner)
/// is the only caller; see its documentation for the guarantees. Every hook has a default,
/// so a behavior implements only what it needs.
///
/// ```
/// use robot_runtime::behavior::{Behavior, Ctx, IntentUnion, OperationModifiers, BehaviorId};
///
/// /// Ends itself after `n` updates.
/// struct Countdown { n: u32, left: u32 }
/// impl<U: IntentUnion, E: 'static> Behavior<U, E> for Countdown {
///     fn operation_modifiers(&self, m: &mut OperationModifiers, _: &dyn Fn(BehaviorId) -> OperationModifiers) {
///         m.always_delegates = false; // it runs without delegating
///     }
///     fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) { self.left = self.n; }
///     fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
///         if !ctx.is_active() { return; }
///         if self.left == 0 { let _ = ctx.cancel_self(); } else { self.left -= 1; }
///     }
/// }
/// ```
pub trait Behavior<U: IntentUnion, E: 'static = ()>: Send + 'static {
    /// Every behavior this one may delegate to, declared once when the tree is built
    /// (delegating to anything else is [`RunnerError::UndeclaredDelegate`](super::RunnerError::UndeclaredDelegate)).
    fn delegates(&self) -> Vec<BehaviorId> {
        Vec::new()
    }
    /// Behaviors that are in activatable scope whenever this one is ("linked scope":
    /// `linkScope` dispatchers, pass-throughs), so their conditions are live and they can
    /// be asked before this one is active. Each must be a declared delegate.
    fn linked_scope(&self) -> Vec<BehaviorId> {
        Vec::new()
    }
    /// The class's operation modifiers hook (see [`OperationModifiers`]): assign what the
    /// class decides; `m` holds the base defaults overlaid with the instance's JSON.
    /// `delegate` gives any declared delegate's class-hook modifiers (its hook run on the
    /// base defaults, its JSON not applied), for dispatchers that OR their children's gates.
    /// Default: nothing assigned (always-delegates stays **true**, the original's default).
    fn operation_modifiers(
        &self,
        _m: &mut OperationModifiers,
        _delegate: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
    }
    /// Whether `update` is also called while the behavior is in scope but not active
    /// (default **true**, the original's contract). A class whose `update` does nothing
    /// unless active returns false: the runner then skips the call (the tick still counts
    /// as its update for the invariants). All built-in classes return false.
    fn updates_while_inactive(&self) -> bool {
        true
    }
    /// The event scopes this behavior handles (default none).
    fn event_scopes(&self) -> EventScopes {
        EventScopes::NONE
    }
    /// Called once, when the runner is built.
    fn init(&mut self, _me: BehaviorId) {}
    /// Pure: may this behavior start now? Called only while in scope. The runner checks the
    /// activation gates, the `wantsToBeActivatedCondition` and `respondToUserIntents`
    /// before calling it (spec §0).
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    /// Became active (pushed on the stack), after its `respondToUserIntents` intent was
    /// activated for it.
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Once per tick while in scope or active.
    fn update(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Left the stack (any reason), after everything above it left and its delegates left
    /// scope; its scoped effects are undone right after this hook.
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// First entry into activatable scope (reference counted).
    fn on_entered_scope(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Last exit from activatable scope.
    fn on_left_scope(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// A delegation with [`Continuation::Call`](super::Continuation::Call) ended.
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        _ctx: &mut Ctx<'_, U, E>,
    ) {
    }
    /// One event, for one of the scopes of [`event_scopes`](Self::event_scopes). Called
    /// before `update` on the same tick.
    fn handle_event(
        &mut self,
        _event: BehaviorEvent<'_, U::Tag, E>,
        _scope: EventScope,
        _ctx: &mut Ctx<'_, U, E>,
    ) {
    }
    /// For coverage: intent tags this behavior's own logic can claim, with the state (for
    /// state machines) in which it does. `respondToUserIntents` is reported by the runner.
    fn claim_sites(&self, _out: &mut Vec<ClaimSite<U::Tag>>) {}
    /// Whether the behavior, while active, may be stopped at any moment without harm (the
    /// original's `CanBeGentlyInterruptedNow`; default false). Dispatchers answer for
    /// their delegate; state machines evaluate non-interrupting transitions while their
    /// delegate says so. A behavior that only waits says yes.
    fn can_be_gently_interrupted(&self, _view: &View<'_, U, E>) -> bool {
        false
    }
    /// A short description of the behavior's internal state for logs, tests and exports
    /// (a state machine's current state). Default none.
    fn debug_state(&self) -> Option<&str> {
        None
    }
    /// For tools: the time left before `child` may run again, when this behavior keeps
    /// per-child cooldowns (cooldown dispatchers). Default none.
    fn cooldown_remaining(&self, _child: BehaviorId, _now: Duration) -> Option<Duration> {
        None
    }
    /// For tools: the conditions this class owns (a state machine's transitions, an
    /// animation loop's end condition), each with a label.
    fn owned_conditions<'s>(&'s self, _out: &mut Vec<(String, &'s Condition<U, E>)>) {}
    /// For tools: the class's own predicate (step 7 of `WantsToBeActivated`) in words, with
    /// the inputs it reads. Default none (a class that adds nothing, or does not say).
    fn class_predicate(&self) -> Option<ClassPredicate> {
        None
    }
    /// For tools: a state machine's states in their declared order, each with the behavior
    /// it runs (None: a state without one). Default none (not a state machine).
    fn states(&self) -> Vec<(&str, Option<BehaviorId>)> {
        Vec::new()
    }
    /// The wake-up contract (see [`wakeup`](crate::behavior::wakeup)): when this behavior's own
    /// `update` may next act if no input arrives (no world change, no intent, no user
    /// event) and the stack stays as it is. Until then its `update` must change nothing,
    /// neither the runner nor the behavior. Asked of active behaviors, and of behaviors in
    /// scope whose class [updates while inactive](Self::updates_while_inactive). The
    /// runner accounts for the rest: the frame's action
    /// ([`Action::next_wakeup`](crate::behavior::Action::next_wakeup)), a ready continuation, the
    /// `wantsToCancelSelfCondition`, the delegates (each answers for itself). A dispatcher
    /// answers for what its choice waits for: the [activation
    /// watches](View::activation_watch) of the children it asks, its cooldowns.
    ///
    /// Pure (it must not evaluate conditions: that would advance stateful ones). The
    /// default, [`Wakeup::EveryTick`](crate::behavior::Wakeup::EveryTick), never lets a tick be
    /// skipped (right for a behavior that counts updates or reads the clock).
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::EveryTick
    }
    /// The caching contract (see [`wakeup`](crate::behavior::wakeup)): what the last answer of
    /// [`wants_to_be_activated`](Self::wants_to_be_activated) depends on — the
    /// [`Inputs`](crate::behavior::Inputs) it read and until when it holds if they do not change —
    /// given the state its last call left. The runner then reuses the answer instead of
    /// asking again while the watch holds, and a discrete-event caller may skip ticks until
    /// it ends. The answer must truly not change otherwise (the runner's differential test
    /// checks the built-in classes against asking every time).
    ///
    /// Pure. `None` (the default): not declared; the class is asked every time, as the
    /// original asked every tick, and a tick that asks it is never skipped.
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        None
    }
    /// The behavior as [`Any`](std::any::Any), so a class can ask another behavior of a
    /// class it knows a class-specific question through [`View::behavior`] (the original's
    /// find-by-ID-and-downcast: a reaction asks the behavior it delegates to for that
    /// behavior's own class predicate). Pure. Default none.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// What a class's own predicate decides on, for tools (`--check-tree`, the inspector):
/// [`Behavior::class_predicate`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassPredicate {
    /// The predicate in words.
    pub text: String,
    /// The inputs it reads, by the names the class library gives them.
    pub inputs: Vec<&'static str>,
    /// Of those, the ones the robot does not model (that part of the predicate is false).
    pub unmodelled: Vec<&'static str>,
}

/// A place where an intent can be claimed (coverage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimSite<T> {
    /// The tag.
    pub tag: T,
    /// The state of a state machine in which it is claimed (None: whenever active / in
    /// scope).
    pub state: Option<Box<str>>,
    /// The behavior that owns the claimed intent when it is not the one reporting the site
    /// (a state machine activates a state's intent for the state's behavior).
    pub owner: Option<BehaviorId>,
}
