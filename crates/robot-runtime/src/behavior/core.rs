//! The behavior contract: the [`Behavior`] trait, the [`View`] its pure queries see, the
//! [`Ctx`] its hooks get, delegation outcomes, scoped effects and the runner's typed errors.

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use super::action::{Action, ActionEnd};
use super::clock::VirtualClock;
use super::condition::Condition;
use super::ids::{BehaviorId, BehaviorName};
use super::IntentUnion;
use crate::intent::{
    ActiveIntentGuard, ClaimError, IntentComponent, IntentEvent, IntentMatcher, TimeoutHold,
    TriggerWordSuppression,
};

/// Lifecycle state of a behavior (spec §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LifecycleState {
    /// Not a possible delegate of any active behavior.
    OutOfScope,
    /// A possible delegate of an active behavior (updated every tick).
    InScope,
    /// On the stack.
    Active,
}

/// Which of a behavior's event handlers an event is delivered to (the original's
/// `AlwaysHandleInScope`, `HandleWhileActivated`, `HandleWhileInScopeButNotActivated`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventScope {
    /// Delivered while in scope or active.
    AlwaysInScope,
    /// Delivered while active.
    WhileActivated,
    /// Delivered while in scope and not active.
    WhileInScopeNotActivated,
}

/// The set of [`EventScope`]s a behavior handles (a behavior that handles none costs
/// nothing per event).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EventScopes(u8);

impl EventScopes {
    /// No events.
    pub const NONE: Self = Self(0);
    /// Only `AlwaysInScope`.
    pub const ALWAYS_IN_SCOPE: Self = Self(1);
    /// Only `WhileActivated`.
    pub const WHILE_ACTIVATED: Self = Self(2);
    /// Only `WhileInScopeNotActivated`.
    pub const WHILE_IN_SCOPE_NOT_ACTIVATED: Self = Self(4);
    /// All three.
    pub const ALL: Self = Self(7);

    /// Both sets.
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
    /// True when `scope` is in the set.
    pub const fn contains(self, scope: EventScope) -> bool {
        let bit = match scope {
            EventScope::AlwaysInScope => 1,
            EventScope::WhileActivated => 2,
            EventScope::WhileInScopeNotActivated => 4,
        };
        self.0 & bit != 0
    }
    /// True when empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// One event of the tick, as a behavior's handler receives it.
#[derive(Debug)]
pub enum BehaviorEvent<'a, T, E> {
    /// A user event passed to [`Runner::tick`](super::Runner::tick).
    User(&'a E),
    /// An event of the intent component (every event since the previous tick started,
    /// including those caused by behaviors during the previous tick after it was walked).
    Intent(&'a IntentEvent<T>),
}

/// What a delegating behavior wants to happen when the delegation ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Continuation {
    /// Nothing.
    None,
    /// Call [`Behavior::on_delegation_done`] with this step number (a state machine's
    /// "decide next step" function switches on it).
    Call(u32),
}

/// How a behavior delegate ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BehaviorEnd {
    /// It ended itself (`cancel_self`, or `always_delegates` with nothing delegated, or its
    /// `wantsToCancelSelfCondition`).
    Finished,
    /// The delegator cancelled it (`cancel_delegates(true)`).
    Cancelled,
    /// It reported failure (`Ctx::fail`).
    Failed,
}

/// What a continuation receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DelegationOutcome {
    /// A delegated action ended.
    Action(ActionEnd),
    /// A delegated behavior ended.
    Behavior {
        /// The delegate.
        id: BehaviorId,
        /// How.
        end: BehaviorEnd,
    },
}

/// Identifies one scoped effect of one behavior (see [`Ctx::release_effect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectId(u64);

impl EffectId {
    pub(crate) fn new(n: u64) -> Self {
        Self(n)
    }
}

/// A cleanup closure run when its behavior is deactivated.
pub type Cleanup<U> = Box<dyn FnOnce(&mut IntentComponent<U>) + Send>;

/// Something a behavior acquired while active; undone in reverse order when it is
/// deactivated, whatever the reason.
pub enum Effect<U: IntentUnion> {
    /// An activated user intent: released (not merely dropped) so the same tick sees it.
    Intent(ActiveIntentGuard<U>),
    /// A claim-timeout hold.
    TimeoutHold(TimeoutHold),
    /// A trigger-word suppression.
    TriggerWordSuppression(TriggerWordSuppression),
    /// An arbitrary cleanup.
    Cleanup(Cleanup<U>),
}

impl<U: IntentUnion> Effect<U> {
    /// A short name for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Intent(_) => "intent",
            Self::TimeoutHold(_) => "timeout_hold",
            Self::TriggerWordSuppression(_) => "trigger_word_suppression",
            Self::Cleanup(_) => "cleanup",
        }
    }

    pub(crate) fn undo(self, intents: &mut IntentComponent<U>) {
        match self {
            Self::Intent(g) => {
                if g.is_current() {
                    if let Err(e) = g.release(intents) {
                        tracing::debug!(error = %e, "Behavior.Effect.IntentAlreadyEnded");
                    }
                }
            }
            Self::TimeoutHold(h) => drop(h),
            Self::TriggerWordSuppression(s) => drop(s),
            Self::Cleanup(f) => f(intents),
        }
    }
}

impl<U: IntentUnion> fmt::Debug for Effect<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind())
    }
}

/// A rule of the runner that a request broke, or an internal invariant that failed. Never
/// a panic: the request is refused, the error logged with `tracing` and kept in
/// [`Runner::errors`](super::Runner::errors) for the tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RunnerError {
    /// The behavior must be active for this request.
    #[error("behavior {behavior} is not active")]
    NotActive {
        /// The requester.
        behavior: BehaviorId,
    },
    /// Only the top of the stack, with no running action, may delegate.
    #[error("behavior {behavior} is not in control (not the top of the stack, or delegating)")]
    NotInControl {
        /// The requester.
        behavior: BehaviorId,
    },
    /// The target is not among the delegates the behavior declared.
    #[error("behavior {from} did not declare {to} as a delegate")]
    UndeclaredDelegate {
        /// The requester.
        from: BehaviorId,
        /// The target.
        to: BehaviorId,
    },
    /// The target's `wants_to_be_activated` was not true on this tick.
    #[error("behavior {behavior} does not want to be activated")]
    DoesNotWantToActivate {
        /// The target.
        behavior: BehaviorId,
    },
    /// The target is already active.
    #[error("behavior {behavior} is already active")]
    AlreadyActive {
        /// The target.
        behavior: BehaviorId,
    },
    /// The target is out of scope.
    #[error("behavior {behavior} is not in activatable scope")]
    NotInScope {
        /// The target.
        behavior: BehaviorId,
    },
    /// No such behavior in this tree.
    #[error("no behavior {behavior} in this tree")]
    Unknown {
        /// The ID.
        behavior: BehaviorId,
    },
    /// A stack given to `replace_stack` is not a chain of declared delegates from the base.
    #[error("invalid stack at position {position}")]
    InvalidStack {
        /// The first bad position.
        position: usize,
    },
    /// A runner invariant failed (a bug in the runner; reported, never a panic).
    #[error("runner invariant violated: {0}")]
    Invariant(Invariant),
}

/// The runner's invariants (checked by [`Runner::check_invariants`](super::Runner::check_invariants)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Invariant {
    /// A behavior was about to be updated twice in one tick (the second was skipped).
    #[error("{0} updated twice in one tick")]
    DoubleUpdate(BehaviorId),
    /// A behavior in scope or active was not updated this tick.
    #[error("{0} not updated this tick")]
    MissedUpdate(BehaviorId),
    /// A stack frame's behavior is not active, or appears twice.
    #[error("stack frame {0} is inconsistent")]
    Stack(usize),
    /// A stack frame is not a declared delegate of the frame below.
    #[error("stack frame {0} is not a declared delegate of the frame below")]
    StackEdge(usize),
    /// A behavior is active but not on the stack.
    #[error("{0} is active but not on the stack")]
    ActiveOffStack(BehaviorId),
    /// A scope reference count differs from the count the stack implies.
    #[error("{0} has a wrong scope count")]
    ScopeCount(BehaviorId),
    /// A behavior was activated without `wants_to_be_activated` being true that tick.
    #[error("{0} activated without wanting to")]
    ActivatedWithoutWants(BehaviorId),
}

/// A node of the arena: the static declaration plus the runner's bookkeeping. Only what a
/// tick reads stays inline (32 bytes, two nodes a cache line); the rest is in [`Cold`].
#[repr(C)]
pub(crate) struct Node<U: IntentUnion, E: 'static> {
    // hot
    pub state: LifecycleState,
    pub event_scopes: EventScopes,
    pub opaque: bool,
    pub always_delegates: bool,
    pub updates_inactive: bool,
    /// Not opaque, no `respondToUserIntents` and no `wantsToBeActivatedCondition`: only the
    /// class decides whether it wants to be activated.
    pub plain: bool,
    /// Has a `wantsToCancelSelfCondition`.
    pub cancel_rule: bool,
    pub last_update: u64,
    pub wants_tick: std::cell::Cell<u64>,
    /// Everything else, out of line so the node array stays dense (32 bytes a node; reads
    /// go through `Deref`).
    pub cold: Box<Cold<U, E>>,
}

/// The parts of a node not read on every tick.
pub(crate) struct Cold<U: IntentUnion, E: 'static> {
    pub scope_count: u32,
    pub scope_pos: u32,
    /// Position in the runner's list of in-scope behaviors that need a call while inactive
    /// (update or events); `u32::MAX` when not listed.
    pub work_pos: u32,
    pub activated_tick: u64,
    pub activated_wants_tick: u64,
    pub activated_at: Duration,
    pub delegates: Box<[BehaviorId]>,
    pub name: BehaviorName,
    pub class: Box<str>,
    pub label: Box<str>,
    pub respond: Box<[IntentMatcher<U>]>,
    pub wants: Option<Condition<U, E>>,
    pub cancel_when: Option<Condition<U, E>>,
    pub reset_timers: Box<[Box<str>]>,
    pub raw: Option<serde_json::Value>,
}

impl<U: IntentUnion, E: 'static> std::ops::Deref for Node<U, E> {
    type Target = Cold<U, E>;
    fn deref(&self) -> &Cold<U, E> {
        &self.cold
    }
}

impl<U: IntentUnion, E: 'static> std::ops::DerefMut for Node<U, E> {
    fn deref_mut(&mut self) -> &mut Cold<U, E> {
        &mut self.cold
    }
}

pub(crate) type Slot<U, E> = Box<dyn Behavior<U, E>>;

/// The behavior objects a hook may look at: the arena split around the behavior whose hook
/// runs (that one is mutably borrowed, so it is not here). `before` holds indices
/// `0..before.len()`, `after` indices from `before.len() + 1`; from a [`Runner`] view (no
/// hook running) `before` is the whole arena.
///
/// [`Runner`]: super::Runner
pub(crate) struct Behaviors<'a, U: IntentUnion, E: 'static> {
    pub before: &'a [Slot<U, E>],
    pub after: &'a [Slot<U, E>],
}

impl<U: IntentUnion, E: 'static> Clone for Behaviors<'_, U, E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U: IntentUnion, E: 'static> Copy for Behaviors<'_, U, E> {}

impl<'a, U: IntentUnion, E: 'static> Behaviors<'a, U, E> {
    /// The whole arena (no hook running).
    pub fn all(slots: &'a [Slot<U, E>]) -> Self {
        Self {
            before: slots,
            after: &[],
        }
    }
    /// Behavior `id`; None for an unknown ID and for the behavior whose hook runs.
    #[inline]
    pub fn get(self, id: BehaviorId) -> Option<&'a dyn Behavior<U, E>> {
        let i = id.index();
        let b = match i.checked_sub(self.before.len()) {
            None => self.before.get(i),
            // `i == before.len()` wraps to usize::MAX: the hook's own behavior.
            Some(k) => self.after.get(k.wrapping_sub(1)),
        };
        b.map(|b| &**b)
    }
}

/// A frame of the behavior stack.
pub(crate) struct Frame {
    pub id: BehaviorId,
    pub action: Option<Box<dyn Action>>,
    pub cont: Continuation,
    pub ready: Option<(u32, DelegationOutcome)>,
}

/// The runner state a hook may read (shared while it runs).
pub(crate) struct Shared<U: IntentUnion, E: 'static> {
    pub nodes: Vec<Node<U, E>>,
    pub stack: Vec<Frame>,
    /// The tick's intent events.
    pub ievents: Vec<IntentEvent<U::Tag>>,
    pub clock: VirtualClock,
}

/// The runner state a hook may change (mutably borrowed while it runs).
pub(crate) struct Mutable<U: IntentUnion> {
    pub intents: IntentComponent<U>,
    pub timers: Vec<(Box<str>, Duration)>,
    /// Scoped effects, per behavior.
    pub effects: Vec<Vec<(EffectId, Effect<U>)>>,
    pub next_effect: u64,
    pub cmds: VecDeque<Command>,
    pub errors: ErrorLog,
}

pub(crate) enum Command {
    Delegate {
        from: BehaviorId,
        to: BehaviorId,
        cont: Continuation,
    },
    Action {
        from: BehaviorId,
        action: Box<dyn Action>,
        cont: Continuation,
    },
    CancelDelegates {
        from: BehaviorId,
        run_continuation: bool,
    },
    End {
        from: BehaviorId,
        end: BehaviorEnd,
    },
}

/// Errors of one tick (bounded; the rest are counted).
pub(crate) struct ErrorLog {
    pub errors: Vec<RunnerError>,
    pub lost: u64,
}

impl ErrorLog {
    const CAP: usize = 64;
    pub fn new() -> Self {
        Self {
            errors: Vec::with_capacity(Self::CAP),
            lost: 0,
        }
    }
    pub fn push(&mut self, e: RunnerError) {
        tracing::error!(error = %e, "Behavior.RunnerError");
        if self.errors.len() < Self::CAP {
            self.errors.push(e);
        } else {
            self.lost += 1;
        }
    }
}

/// A behavior: the original's `ICozmoBehavior` hooks. The [`Runner`](super::Runner) is the
/// only caller; see its documentation for the guarantees. Every hook has a default, so a
/// behavior implements only what it needs.
///
/// ```
/// use robot_runtime::behavior::{Behavior, Ctx, IntentUnion};
///
/// /// Ends itself after `n` updates.
/// struct Countdown { n: u32, left: u32 }
/// impl<U: IntentUnion, E: 'static> Behavior<U, E> for Countdown {
///     fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) { self.left = self.n; }
///     fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
///         if !ctx.is_active() { return; }
///         if self.left == 0 { let _ = ctx.cancel_self(); } else { self.left -= 1; }
///     }
/// }
/// ```
pub trait Behavior<U: IntentUnion, E: 'static = ()>: Send + 'static {
    /// Every behavior this one may delegate to, declared once when the tree is built
    /// (delegating to anything else is [`RunnerError::UndeclaredDelegate`]).
    fn delegates(&self) -> Vec<BehaviorId> {
        Vec::new()
    }
    /// `behaviorAlwaysDelegates`: when true, the runner ends this behavior
    /// ([`BehaviorEnd::Finished`]) at the end of any of its frame steps in which it is not
    /// delegating. Default **false** (the original defaulted to true, a known surprise);
    /// the built-in dispatchers set it.
    fn always_delegates(&self) -> bool {
        false
    }
    /// Whether `update` is also called while the behavior is in scope but not active
    /// (default **true**, the original's contract). A class whose `update` does nothing
    /// unless active returns false: the runner then skips the call (the tick still counts
    /// as its update for the invariants), which is most of a tick's cost in large trees.
    /// All built-in classes return false.
    fn updates_while_inactive(&self) -> bool {
        true
    }
    /// The event scopes this behavior handles (default none).
    fn event_scopes(&self) -> EventScopes {
        EventScopes::NONE
    }
    /// Called once, when the runner is built.
    fn init(&mut self, _me: BehaviorId) {}
    /// Pure: may this behavior start now? Called only while in scope (or by a linked
    /// dispatcher). The runner checks `respondToUserIntents` and the
    /// `wantsToBeActivatedCondition` before calling it.
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    /// Became active (pushed on the stack), after its `respondToUserIntents` intent was
    /// activated for it.
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Once per tick while in scope or active.
    fn update(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Left the stack (any reason), after everything above it left; its scoped effects are
    /// undone right after this hook.
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// First entry into activatable scope (reference counted).
    fn on_entered_scope(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Last exit from activatable scope.
    fn on_left_scope(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// A delegation with [`Continuation::Call`] ended.
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
    /// original's `CanBeGentlyInterruptedNow`; default false). State machines evaluate
    /// non-interrupting transitions while their delegate says so. `Wait` says yes.
    fn can_be_gently_interrupted(&self, _view: &View<'_, U, E>) -> bool {
        false
    }
    /// A short description of the behavior's internal state for logs, tests and exports
    /// (a state machine's current state). Default none.
    fn debug_state(&self) -> Option<&str> {
        None
    }
    /// Introspection for tools (the live inspector, tests): what this behavior's own logic
    /// looks at beyond what the runner knows — children it keeps on cooldown, conditions it
    /// checks with their labels (a state machine's transitions out of its current state).
    /// Called between ticks with a [`View`] for this behavior; pure. Default: nothing. See
    /// [`Introspection`](super::Introspection).
    fn introspect(&self, _view: &View<'_, U, E>, _out: &mut super::Introspection) {}
}

/// A place where an intent can be claimed (coverage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimSite<T> {
    /// The tag.
    pub tag: T,
    /// The state of a state machine in which it is claimed (None: whenever active / in
    /// scope).
    pub state: Option<Box<str>>,
}

/// A shared, read-only view of the runner: what pure queries (`wants_to_be_activated`,
/// conditions) may look at.
pub struct View<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) me: BehaviorId,
    pub(crate) state_since: Option<Duration>,
    pub(crate) s: &'a Shared<U, E>,
    pub(crate) m: &'a Mutable<U>,
    pub(crate) behaviors: Behaviors<'a, U, E>,
    pub(crate) events: &'a [E],
}

impl<U: IntentUnion, E: 'static> Clone for View<'_, U, E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U: IntentUnion, E: 'static> Copy for View<'_, U, E> {}

impl<'a, U: IntentUnion, E: 'static> View<'a, U, E> {
    /// The behavior this view is for.
    pub fn me(&self) -> BehaviorId {
        self.me
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.s.clock
    }
    /// The intent component.
    pub fn intents(&self) -> &'a IntentComponent<U> {
        &self.m.intents
    }
    /// This tick's user events.
    pub fn events(&self) -> &'a [E] {
        self.events
    }
    /// This tick's intent events.
    pub fn intent_events(&self) -> &'a [IntentEvent<U::Tag>] {
        &self.s.ievents
    }
    /// State of `id` (None for an unknown ID).
    pub fn state_of(&self, id: BehaviorId) -> Option<LifecycleState> {
        self.s.nodes.get(id.index()).map(|n| n.state)
    }
    /// Name of `id`.
    pub fn name_of(&self, id: BehaviorId) -> Option<&'a BehaviorName> {
        self.s.nodes.get(id.index()).map(|n| &n.name)
    }
    /// How long [`me`](Self::me) has been active.
    pub fn active_for(&self) -> Option<Duration> {
        let n = self.s.nodes.get(self.me.index())?;
        (n.state == LifecycleState::Active)
            .then(|| self.s.clock.now().saturating_sub(n.activated_at))
    }
    /// How long the current state machine state has lasted (set by the state machine).
    pub fn in_state_for(&self) -> Option<Duration> {
        self.state_since
            .map(|t| self.s.clock.now().saturating_sub(t))
    }
    /// Age of a named timer (reset by `resetTimers` / [`Ctx::reset_timer`]); never reset:
    /// time since start.
    pub fn timer_age(&self, name: &str) -> Duration {
        let since = self
            .m
            .timers
            .iter()
            .find(|(n, _)| &**n == name)
            .map_or(Duration::ZERO, |(_, t)| *t);
        self.s.clock.now().saturating_sub(since)
    }
    /// The same view, for a state that started at `since`.
    pub fn with_state_since(mut self, since: Option<Duration>) -> Self {
        self.state_since = since;
        self
    }
    /// Evaluates a condition.
    pub fn eval(&self, condition: &Condition<U, E>) -> bool {
        condition.eval(self)
    }

    /// Does `id` want to be activated now? True when it is active; false when it is out of
    /// scope, unknown, or is the behavior asking. Otherwise: its `respondToUserIntents`
    /// (a matching intent pending), its `wantsToBeActivatedCondition`, then its own
    /// `wants_to_be_activated`. A true answer is recorded: the runner activates a
    /// behavior only on a tick where this returned true.
    pub fn wants_to_activate(&self, id: BehaviorId) -> bool {
        self.wants_inner(id, false)
    }

    /// Whether `id` can be gently interrupted now
    /// ([`Behavior::can_be_gently_interrupted`]); false for an unknown ID.
    pub fn can_be_gently_interrupted(&self, id: BehaviorId) -> bool {
        let Some(b) = self.behaviors.get(id) else {
            return false;
        };
        b.can_be_gently_interrupted(&View {
            me: id,
            state_since: None,
            ..*self
        })
    }

    /// Like [`wants_to_activate`](Self::wants_to_activate), but also asks behaviors out of
    /// scope (linked-scope dispatchers ask their children before being active). Nothing
    /// is recorded for an out-of-scope behavior.
    pub fn would_want_to_activate(&self, id: BehaviorId) -> bool {
        self.wants_inner(id, true)
    }

    /// The first of `ids`, in order, that is `current` or
    /// [wants to be activated](Self::wants_to_activate) (a true answer is recorded, as
    /// there); the ones after it are not asked. A strict-priority choice in one call,
    /// cheaper than asking child by child.
    pub fn first_wanting(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
    ) -> Option<BehaviorId> {
        // `wants_me` unrolled over `ids`, with this view's `me` changed for each.
        let nodes = &self.s.nodes[..];
        let behaviors = self.behaviors;
        let mut v = self;
        v.state_since = None;
        for &id in ids {
            if Some(id) == current {
                return Some(id);
            }
            let Some(n) = nodes.get(id.index()) else {
                continue;
            };
            match n.state {
                LifecycleState::Active => return Some(id),
                LifecycleState::InScope => {}
                LifecycleState::OutOfScope => continue,
            }
            let Some(b) = behaviors.get(id) else {
                continue;
            };
            v.me = id;
            if (n.plain || v.declared_gates(n)) && b.wants_to_be_activated(&v) {
                n.wants_tick.set(v.s.clock.tick());
                return Some(id);
            }
        }
        None
    }

    #[inline]
    fn wants_inner(&self, id: BehaviorId, any_scope: bool) -> bool {
        View {
            me: id,
            state_since: None,
            ..*self
        }
        .wants_me(any_scope)
    }

    /// [`wants_to_activate`](Self::wants_to_activate) of [`me`](Self::me), for a view with no
    /// state start.
    #[inline]
    fn wants_me(&self, any_scope: bool) -> bool {
        let id = self.me;
        let Some(n) = self.s.nodes.get(id.index()) else {
            return false;
        };
        match n.state {
            LifecycleState::Active => return true,
            LifecycleState::InScope => {}
            LifecycleState::OutOfScope if any_scope => {}
            LifecycleState::OutOfScope => return false,
        }
        let Some(b) = self.behaviors.get(id) else {
            return false;
        };
        let ok = (n.plain || self.declared_gates(n)) && b.wants_to_be_activated(self);
        if ok && n.state == LifecycleState::InScope {
            n.wants_tick.set(self.s.clock.tick());
        }
        ok
    }

    /// Not an opaque stand-in, `respondToUserIntents` (a matching intent pending) and
    /// `wantsToBeActivatedCondition` of the node this view is for.
    #[inline(never)]
    fn declared_gates(&self, n: &Node<U, E>) -> bool {
        !n.opaque
            && (n.respond.is_empty()
                || self
                    .m
                    .intents
                    .pending()
                    .is_some_and(|p| n.respond.iter().any(|m| m.matches(p.intent()))))
            && n.wants.as_ref().is_none_or(|c| c.eval(self))
    }
}

/// What a hook gets: the intent component (mutable), delegation, scoped effects, the clock,
/// the tick's events. Requests that change the stack are checked at once (the error is
/// returned) and applied in order as soon as the hook returns.
pub struct Ctx<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) me: BehaviorId,
    pub(crate) cancel_queued: bool,
    pub(crate) delegation_queued: bool,
    pub(crate) end_queued: bool,
    pub(crate) state_since: Option<Duration>,
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
            state_since: self.state_since,
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
        &mut self.m.intents
    }
    /// This tick's user events.
    pub fn events(&self) -> &'a [E] {
        self.events
    }
    /// This tick's intent events.
    pub fn intent_events(&self) -> &'a [IntentEvent<U::Tag>] {
        &self.s.ievents
    }
    /// Sets the state start used by `TimeInState` conditions evaluated through
    /// [`view`](Self::view) (state machines).
    pub fn set_state_since(&mut self, since: Option<Duration>) {
        self.state_since = since;
    }
    /// Evaluates a condition for this behavior.
    pub fn eval(&self, condition: &Condition<U, E>) -> bool {
        condition.eval(&self.view())
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
    /// Resets a named timer (see [`Condition::TimerElapsed`]).
    pub fn reset_timer(&mut self, name: &str) {
        reset_timer(&mut self.m.timers, name, self.s.clock.now());
    }

    fn frame(&self) -> Option<usize> {
        self.s.stack.iter().rposition(|f| f.id == self.me)
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
        match t.state {
            LifecycleState::Active => {
                return self.refuse(RunnerError::AlreadyActive { behavior: target })
            }
            LifecycleState::OutOfScope => {
                return self.refuse(RunnerError::NotInScope { behavior: target })
            }
            LifecycleState::InScope => {}
        }
        if t.wants_tick.get() != self.s.clock.tick() && !self.wants_to_activate(target) {
            return self.refuse(RunnerError::DoesNotWantToActivate { behavior: target });
        }
        self.delegation_queued = true;
        self.m.cmds.push_back(Command::Delegate {
            from: me,
            to: target,
            cont,
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
    /// it ends; `cont` receives [`DelegationOutcome::Action`].
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
    /// action). With `run_continuation`, the pending continuation runs right after this hook
    /// with [`BehaviorEnd::Cancelled`] / [`ActionEnd::Cancelled`]; without, it is dropped.
    /// Returns whether anything was delegated.
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
    /// behavior's name). Only while active.
    pub fn activate_intent(
        &mut self,
        matcher: &IntentMatcher<U>,
    ) -> Result<EffectId, ClaimError<U::Tag>> {
        if !self.is_active() {
            return Err(ClaimError::NotPending {
                pending: self.m.intents.pending_tag(),
            });
        }
        let owner = owner_of(self.me);
        let guard = self.m.intents.activate_matching(matcher, owner)?;
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
}

pub(crate) fn owner_of(id: BehaviorId) -> crate::intent::Owner {
    crate::intent::Owner::Behavior(id)
}

pub(crate) fn reset_timer(timers: &mut Vec<(Box<str>, Duration)>, name: &str, now: Duration) {
    match timers.iter_mut().find(|(n, _)| &**n == name) {
        Some((_, t)) => *t = now,
        None => timers.push((name.into(), now)),
    }
}
