//! The behavior contract: the [`Behavior`] trait, the [`View`] its pure queries see, the
//! [`Ctx`] its hooks get, [`OperationModifiers`] (the activation gates and
//! always-delegates), delegation outcomes, scoped effects and the runner's typed errors.

use std::cell::Cell;
use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use super::action::{Action, ActionEnd, ActionFactory, ActionRequest};
use super::changes::{Cached, Changes};
use super::clock::VirtualClock;
use super::condition::{Condition, EvalCx, MachineTimes};
use super::ids::{BehaviorId, BehaviorName};
use super::wakeup::{Inputs, Wakeup, Watch};
use super::world::{self, World};
use crate::intent::{
    ActiveIntentGuard, ClaimError, IntentComponent, IntentEvent, IntentMatcher, IntentUnion, Owner,
    TimeoutHold, TriggerWordSuppression,
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

/// A cube-connection requirement (`behaviorModifiers.cubeConnectionRequirements`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CubeRequirement {
    /// None (the default).
    #[default]
    None,
    /// Optional, lazy.
    OptionalLazy,
    /// Optional, active.
    OptionalActive,
    /// Required, lazy: needs an active cube connection to activate.
    RequiredLazy,
    /// Required, managed: needs an active cube connection to activate.
    RequiredManaged,
}

impl CubeRequirement {
    /// Every value, in the original's order.
    pub const ALL: [Self; 5] = [
        Self::None,
        Self::OptionalLazy,
        Self::OptionalActive,
        Self::RequiredLazy,
        Self::RequiredManaged,
    ];
    /// The names `behaviorModifiers.cubeConnectionRequirements` takes, in the order of
    /// [`ALL`](Self::ALL).
    pub const NAMES: [&'static str; 5] = [
        "None",
        "OptionalLazy",
        "OptionalActive",
        "RequiredLazy",
        "RequiredManaged",
    ];
    /// True for the two required ones.
    pub fn required(self) -> bool {
        matches!(self, Self::RequiredLazy | Self::RequiredManaged)
    }
}

/// The original's `BehaviorOperationModifiers` (spec §1): when a behavior may activate, and
/// whether it ends as soon as it delegates nothing.
///
/// A behavior's modifiers are computed once when the tree is built: the base defaults
/// ([`BASE`](Self::BASE)), then the instance's JSON `behaviorModifiers`, then the class's
/// [`Behavior::operation_modifiers`] hook, which overwrites whatever it assigns (as the
/// original's `GetBehaviorOperationModifiers` ran after the JSON was applied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperationModifiers {
    /// `wantsToBeActivatedWhenCarryingObject` (base: false).
    pub when_carrying: bool,
    /// `wantsToBeActivatedWhenOffTreads` (base: false).
    pub when_off_treads: bool,
    /// `wantsToBeActivatedWhenOnCharger` (base: true).
    pub when_on_charger: bool,
    /// `behaviorAlwaysDelegates` (base: **true**, the original's): at the end of any of
    /// its updates in which it delegates nothing, the behavior ends. Not settable from
    /// JSON; each class says.
    pub always_delegates: bool,
    /// `cubeConnectionRequirements`.
    pub cube: CubeRequirement,
    /// `connectToCubeInBackground`.
    pub connect_to_cube_in_background: bool,
    /// `ensuresCubeConnectionAtDelegation`.
    pub ensures_cube_connection_at_delegation: bool,
}

impl OperationModifiers {
    /// The original's base defaults.
    pub const BASE: Self = Self {
        when_carrying: false,
        when_off_treads: false,
        when_on_charger: true,
        always_delegates: true,
        cube: CubeRequirement::None,
        connect_to_cube_in_background: false,
        ensures_cube_connection_at_delegation: false,
    };

    /// All three "wants to be activated when" gates open.
    pub fn allow_everywhere(&mut self) {
        self.when_carrying = true;
        self.when_off_treads = true;
        self.when_on_charger = true;
    }

    /// The three gates as the OR over `children` (what every dispatcher does).
    pub fn or_over(&mut self, children: impl IntoIterator<Item = OperationModifiers>) {
        self.when_carrying = false;
        self.when_off_treads = false;
        self.when_on_charger = false;
        for c in children {
            self.when_carrying |= c.when_carrying;
            self.when_off_treads |= c.when_off_treads;
            self.when_on_charger |= c.when_on_charger;
        }
    }

    /// The activation-gate bits this behavior is blocked by (spec §0 steps 2–5), in the
    /// bits of [`World::blocking`]: 1 off treads, 2 on the charger, 4 carrying, 8 a cube
    /// connection required.
    pub(crate) fn gate_bits(&self) -> u8 {
        let mut bits = 0;
        if !self.when_off_treads {
            bits |= 1;
        }
        if !self.when_on_charger {
            bits |= 2;
        }
        if !self.when_carrying {
            bits |= 4;
        }
        if self.cube.required() {
            bits |= 8;
        }
        bits
    }
}

impl Default for OperationModifiers {
    fn default() -> Self {
        Self::BASE
    }
}

/// A node of the arena: the static declaration plus the runner's bookkeeping. What a steady
/// tick reads stays inline (32 bytes, so the node array stays dense); the rest is in
/// [`NodeDetail`]. `Runner::new` asserts the size at compile time.
#[repr(C)]
pub(crate) struct Node<U: IntentUnion, E: 'static> {
    // hot
    pub state: LifecycleState,
    pub event_scopes: EventScopes,
    pub always_delegates: bool,
    pub updates_inactive: bool,
    /// No `respondToUserIntents` and no `wantsToBeActivatedCondition`: after the gates, only
    /// the class decides whether it wants to be activated.
    pub plain: bool,
    /// Has a `wantsToCancelSelfCondition`.
    pub cancel_rule: bool,
    /// The activation gates that block it ([`OperationModifiers::gate_bits`]).
    pub gate: u8,
    /// The tick of its last update, truncated to 32 bits (it is only compared with the
    /// current tick, so a wrap after 2^32 ticks — 8 years at 60 ms — is harmless).
    pub last_update: u32,
    /// Position on the stack; `u32::MAX` when not on it.
    pub stack_pos: u32,
    pub wants_tick: std::cell::Cell<u64>,
    /// Everything else, out of line (reads go through `Deref`).
    pub detail: Box<NodeDetail<U, E>>,
}

/// The parts of a node a steady tick does not read: its declaration (name, class,
/// delegates, conditions, intents, modifiers, base keys) and its scope, stack and
/// activation bookkeeping.
pub(crate) struct NodeDetail<U: IntentUnion, E: 'static> {
    pub scope_count: u32,
    pub scope_pos: u32,
    /// Position in the runner's list of in-scope behaviors that need a call while inactive
    /// (update or events); `u32::MAX` when not listed.
    pub work_pos: u32,
    pub activated_tick: u64,
    pub activated_wants_tick: u64,
    pub activated_at: Duration,
    /// When it last stopped running (`None`: never ran).
    pub last_ran: Option<Duration>,
    /// When it last entered activatable scope (None while out of scope): the events a
    /// behavior handles while in scope are those since then.
    pub entered_scope: Option<Duration>,
    /// Activations so far.
    pub starts: u64,
    /// The declared delegates as a sorted set (what the runner walks: scope, checks).
    pub delegates: Box<[BehaviorId]>,
    /// The declared delegates in declared order, without repeats (a strict-priority
    /// dispatcher's priority order; what tools show).
    pub declared: Box<[BehaviorId]>,
    /// Behaviors in scope whenever this one is (`linkScope`, pass-throughs).
    pub linked: Box<[BehaviorId]>,
    pub name: BehaviorName,
    pub class: Box<str>,
    pub label: Box<str>,
    pub respond: Box<[IntentMatcher<U>]>,
    pub wants: Option<Condition<U, E>>,
    pub cancel_when: Option<Condition<U, E>>,
    pub modifiers: OperationModifiers,
    /// `resetTimers`, as behavior-timer indices.
    pub reset_timers: Box<[usize]>,
    /// `postBehaviorSuggestion`, as a suggestion index.
    pub post_suggestion: Option<usize>,
    /// `emotionEventOnActivated`.
    pub emotion_event: Option<Box<str>>,
    /// `associatedActiveFeature` (`NoFeature` is kept as None).
    pub active_feature: Option<Box<str>>,
    /// A stand-in for a class not run natively.
    pub stand_in: bool,
    pub raw: Option<serde_json::Value>,
}

impl<U: IntentUnion, E: 'static> std::ops::Deref for Node<U, E> {
    type Target = NodeDetail<U, E>;
    fn deref(&self) -> &NodeDetail<U, E> {
        &self.detail
    }
}

impl<U: IntentUnion, E: 'static> std::ops::DerefMut for Node<U, E> {
    fn deref_mut(&mut self) -> &mut NodeDetail<U, E> {
        &mut self.detail
    }
}

pub(crate) type Slot<U, E> = Box<dyn Behavior<U, E>>;

/// The behavior objects a hook may look at: the arena split around the behavior whose hook
/// runs (that one is mutably borrowed, so it is not here). `before` holds indices
/// `0..before.len()`, `after` indices from `before.len() + 1`; from a [`Runner`] view (no
/// hook running) `before` is the whole arena.
///
/// [`Runner`]: super::runner::Runner
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
    /// Per node, its last `WantsToBeActivated` answer and what it depends on.
    pub wants_cache: Vec<Cell<Cached>>,
    /// Answers are reused while their inputs do not change (see [`wakeup`](super::wakeup));
    /// off, everything is asked every time (the differential tests' reference).
    pub caching: bool,
}

impl<U: IntentUnion, E: 'static> Shared<U, E> {
    /// The clock's time in nanoseconds (what cached answers are compared with; see
    /// `Wakeup::until_ns`).
    #[inline]
    pub fn now_ns(&self) -> u64 {
        let d = self.clock.now();
        d.as_secs()
            .saturating_mul(1_000_000_000)
            .saturating_add(u64::from(d.subsec_nanos()))
    }
}

/// The runner state a hook may change (mutably borrowed while it runs).
pub(crate) struct Mutable<U: IntentUnion> {
    pub intents: IntentComponent<U>,
    pub world: Box<dyn World>,
    /// Scoped effects, per behavior.
    pub effects: Vec<Vec<(EffectId, Effect<U>)>>,
    pub next_effect: u64,
    pub cmds: VecDeque<Command>,
    pub errors: ErrorLog,
    /// The runner's random generator (xorshift64*; seeded, so runs replay).
    pub rng: u64,
    pub actions: Box<dyn ActionFactory>,
    /// Change stamps of the inputs (see [`wakeup`](super::wakeup)).
    pub changes: Changes,
    /// The behaviors a coordinator told not to activate on tick `suppressed_tick`
    /// ([`Ctx::suppress_this_tick`]); usually empty.
    pub suppressed: Vec<BehaviorId>,
    /// The tick of `suppressed`.
    pub suppressed_tick: u64,
}

impl<U: IntentUnion> Mutable<U> {
    /// True when `id` was suppressed for `tick` (spec step 3).
    #[inline]
    pub fn is_suppressed(&self, id: BehaviorId, tick: u64) -> bool {
        !self.suppressed.is_empty() && self.suppressed_tick == tick && self.suppressed.contains(&id)
    }

    /// A uniform draw from [0, 1).
    pub fn random(&mut self) -> f64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        let r = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (r >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub(crate) enum Command {
    Delegate {
        from: BehaviorId,
        to: BehaviorId,
        cont: Continuation,
        /// Ask the target whether it wants to be activated when the request is applied
        /// (it is being cancelled by the same hook, so it is still active now).
        ask_when_applied: bool,
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

/// A behavior: the original's `ICozmoBehavior` hooks. The [`Runner`](super::runner::Runner)
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
    /// (delegating to anything else is [`RunnerError::UndeclaredDelegate`]).
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
    /// The wake-up contract (see [`wakeup`](super::wakeup)): when this behavior's own
    /// `update` may next act if no input arrives (no world change, no intent, no user
    /// event) and the stack stays as it is. Until then its `update` must change nothing,
    /// neither the runner nor the behavior. Asked of active behaviors, and of behaviors in
    /// scope whose class [updates while inactive](Self::updates_while_inactive). The
    /// runner accounts for the rest: the frame's action
    /// ([`Action::next_wakeup`](super::Action::next_wakeup)), a ready continuation, the
    /// `wantsToCancelSelfCondition`, the delegates (each answers for itself). A dispatcher
    /// answers for what its choice waits for: the [activation
    /// watches](View::activation_watch) of the children it asks, its cooldowns.
    ///
    /// Pure (it must not evaluate conditions: that would advance stateful ones). The
    /// default, [`Wakeup::EveryTick`](super::Wakeup::EveryTick), never lets a tick be
    /// skipped (right for a behavior that counts updates or reads the clock).
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::EveryTick
    }
    /// The caching contract (see [`wakeup`](super::wakeup)): what the last answer of
    /// [`wants_to_be_activated`](Self::wants_to_be_activated) depends on — the
    /// [`Inputs`](super::Inputs) it read and until when it holds if they do not change —
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

/// A shared, read-only view of the runner: what pure queries (`wants_to_be_activated`,
/// conditions) may look at.
pub struct View<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) me: BehaviorId,
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
    /// The world as `W` (None when it is of another type; see [`World`]).
    pub fn world<W: World>(&self) -> Option<&'a W> {
        world::downcast(&*self.m.world)
    }
    /// The world, whatever its type.
    pub fn dyn_world(&self) -> &'a dyn World {
        &*self.m.world
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
    /// Class of `id`.
    pub fn class_of(&self, id: BehaviorId) -> Option<&'a str> {
        self.s.nodes.get(id.index()).map(|n| &*n.class)
    }
    /// The class-hook modifiers of `id` as the tree computed them.
    pub fn modifiers_of(&self, id: BehaviorId) -> Option<OperationModifiers> {
        self.s.nodes.get(id.index()).map(|n| n.modifiers)
    }
    /// When `id` last stopped running (None: never ran).
    pub fn last_ran(&self, id: BehaviorId) -> Option<Duration> {
        self.s.nodes.get(id.index()).and_then(|n| n.last_ran)
    }
    /// The behaviors on the stack, bottom to top.
    pub fn stack(&self) -> impl Iterator<Item = BehaviorId> + 'a {
        self.s.stack.iter().map(|f| f.id)
    }
    /// When `id` last entered activatable scope (None while it is out of scope, or for an
    /// unknown ID). With [`last_ran`](Self::last_ran) it says which events a behavior would
    /// have heard while in scope and not active: those since the later of the two.
    pub fn entered_scope_at(&self, id: BehaviorId) -> Option<Duration> {
        self.s.nodes.get(id.index()).and_then(|n| n.entered_scope)
    }
    /// How long [`me`](Self::me) has been active.
    pub fn active_for(&self) -> Option<Duration> {
        self.eval_cx().active_for()
    }
    /// The behavior `id` delegated to (the frame above it), if any.
    pub fn delegate_of(&self, id: BehaviorId) -> Option<BehaviorId> {
        let p = self.s.nodes.get(id.index())?.stack_pos;
        if p == u32::MAX {
            return None;
        }
        self.s.stack.get(p as usize + 1).map(|f| f.id)
    }
    /// True when `id` is on the stack and delegating (a behavior above it or an action).
    pub fn is_delegating(&self, id: BehaviorId) -> bool {
        let Some(p) = self.s.nodes.get(id.index()).map(|n| n.stack_pos) else {
            return false;
        };
        p != u32::MAX
            && (p as usize + 1 < self.s.stack.len() || self.s.stack[p as usize].action.is_some())
    }
    /// What a condition evaluated for [`me`](Self::me) sees.
    pub fn eval_cx(&self) -> EvalCx<'a, U, E> {
        let active_since = self
            .s
            .nodes
            .get(self.me.index())
            .filter(|n| n.state == LifecycleState::Active)
            .map(|n| n.activated_at);
        EvalCx {
            intents: &self.m.intents,
            world: &*self.m.world,
            clock: self.s.clock,
            active_since,
            machine: None,
            events: self.events,
        }
    }
    /// Evaluates a condition for [`me`](Self::me).
    pub fn eval(&self, condition: &Condition<U, E>) -> bool {
        condition.eval(&self.eval_cx())
    }
    /// Evaluates a condition for [`me`](Self::me) inside a state machine with these times.
    pub fn eval_in_machine(&self, condition: &Condition<U, E>, machine: MachineTimes<'_>) -> bool {
        let mut cx = self.eval_cx();
        cx.machine = Some(machine);
        condition.eval(&cx)
    }
    /// The behavior object of `id`, to ask it class-specific questions (None for an
    /// unknown ID and, inside a hook, for the behavior whose hook runs: it is borrowed
    /// mutably by that hook).
    pub fn behavior(&self, id: BehaviorId) -> Option<&'a dyn Behavior<U, E>> {
        self.behaviors.get(id)
    }

    /// Does `id` want to be activated now (the original's `WantsToBeActivated`, spec §0)?
    /// True when it is active; false when it is out of scope, unknown, or is the behavior
    /// asking. Otherwise, in order, stopping at the first false: the activation gates (off
    /// treads, on the charger, carrying, cube connection) against its modifiers, its
    /// `wantsToBeActivatedCondition`, its `respondToUserIntents` (a matching intent
    /// pending), then its class's `wants_to_be_activated`. A true answer is recorded: the
    /// runner activates a behavior only on a tick where this returned true.
    pub fn wants_to_activate(&self, id: BehaviorId) -> bool {
        View { me: id, ..*self }.wants_me()
    }

    /// Whether `id` can be gently interrupted now
    /// ([`Behavior::can_be_gently_interrupted`]); false for an unknown ID.
    pub fn can_be_gently_interrupted(&self, id: BehaviorId) -> bool {
        let Some(b) = self.behaviors.get(id) else {
            return false;
        };
        b.can_be_gently_interrupted(&View { me: id, ..*self })
    }

    /// The first of `ids`, in order, that is `current`, active, or
    /// [wants to be activated](Self::wants_to_activate) (a true answer is recorded, as
    /// there); the ones after it are not asked. A strict-priority choice in one call.
    pub fn first_wanting(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
    ) -> Option<BehaviorId> {
        self.first_wanting_where(ids, current, |_| true)
    }

    /// Like [`first_wanting`](Self::first_wanting), skipping the children `eligible`
    /// refuses (on cooldown) without asking them.
    pub fn first_wanting_where(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        eligible: impl Fn(usize) -> bool,
    ) -> Option<BehaviorId> {
        if self.s.caching {
            self.scan::<true>(ids, current, eligible)
        } else {
            self.scan::<false>(ids, current, eligible)
        }
    }

    /// The strict-priority scan; `CACHED`: each child's answer through its cache.
    #[inline]
    fn scan<const CACHED: bool>(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        eligible: impl Fn(usize) -> bool,
    ) -> Option<BehaviorId> {
        let blocking = self.m.world.blocking();
        let nodes = &self.s.nodes[..];
        let mut v = self;
        for (k, &id) in ids.iter().enumerate() {
            if !eligible(k) {
                continue;
            }
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
            v.me = id;
            let wants = if CACHED {
                v.wants_node(n, || blocking)
            } else {
                v.wants_node_now(n, blocking)
            };
            if wants {
                return Some(id);
            }
        }
        None
    }

    /// [`first_wanting_where`](Self::first_wanting_where) for a dispatcher that keeps its
    /// choice in `cache`: while nothing the choice read changed (the children asked, their
    /// activation watches, the stack) and no time it waits for has come, the children are
    /// not asked again and the same choice is returned (only a choice that keeps the
    /// current delegate, or finds nothing, is kept). `skip(k)` refuses child `k` without
    /// asking it, with the time it stops refusing (a cooldown's end).
    pub fn first_wanting_cached(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        skip: impl Fn(usize) -> Option<Wakeup>,
        cache: &mut ChoiceCache,
    ) -> Option<BehaviorId> {
        if !self.s.caching || cache.plain {
            // Asked as they are (a child's class does not declare its watch: nothing to keep).
            return self.scan::<false>(ids, current, |k| skip(k).is_none());
        }
        if cache.valid
            && cache.current == current
            && self.m.changes.holds(&mut cache.cached, self.s.now_ns())
        {
            return cache.result;
        }
        self.first_wanting_remembered(ids, current, skip, cache)
    }

    #[inline(never)]
    fn first_wanting_remembered(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        skip: impl Fn(usize) -> Option<Wakeup>,
        cache: &mut ChoiceCache,
    ) -> Option<BehaviorId> {
        let blocking = self.m.world.blocking();
        let nodes = &self.s.nodes[..];
        let mut v = self;
        let mut inputs = Inputs::STACK | Inputs::SUPPRESSION;
        let mut until = u64::MAX;
        let mut result = None;
        for (k, &id) in ids.iter().enumerate() {
            if let Some(w) = skip(k) {
                until = until.min(w.until_ns());
                continue;
            }
            if Some(id) == current {
                result = Some(id);
                break;
            }
            let Some(n) = nodes.get(id.index()) else {
                continue;
            };
            match n.state {
                LifecycleState::Active => {
                    result = Some(id);
                    break;
                }
                LifecycleState::InScope => {}
                LifecycleState::OutOfScope => continue,
            }
            v.me = id;
            let wants = v.wants_node(n, || blocking);
            let c = self.s.wants_cache[id.index()].get();
            cache.plain |= c.undeclared;
            inputs |= c.inputs;
            until = until.min(c.until_ns);
            if wants {
                result = Some(id);
                break;
            }
        }
        cache.current = current;
        cache.result = result;
        cache.valid = !cache.plain && (result == current || result.is_none());
        cache.cached = Cached {
            value: false,
            undeclared: false,
            rev: self.m.changes.rev,
            inputs,
            until_ns: until,
        };
        result
    }

    #[inline]
    fn wants_me(&self) -> bool {
        let Some(n) = self.s.nodes.get(self.me.index()) else {
            return false;
        };
        match n.state {
            LifecycleState::Active => true,
            LifecycleState::InScope => self.wants_node(n, || self.m.world.blocking()),
            LifecycleState::OutOfScope => false,
        }
    }

    /// True when a coordinator told [`me`](Self::me) not to activate on this tick.
    #[inline]
    fn suppressed_now(&self) -> bool {
        self.m.is_suppressed(self.me, self.s.clock.tick())
    }

    /// Steps 2–7 of `WantsToBeActivated` for the in-scope node of [`me`](Self::me): its
    /// cached answer while that holds, else asked (and the answer remembered with its
    /// watch). `blocking`: the world's gate bits, asked only when the answer is.
    #[inline]
    fn wants_node(&self, n: &Node<U, E>, blocking: impl FnOnce() -> u8) -> bool {
        // Step 1 (a coordinator's suppression) lies over the cached answer: it holds for one
        // tick and is never kept.
        if self.suppressed_now() {
            return false;
        }
        if !self.s.caching {
            return self.wants_node_now(n, blocking());
        }
        let cell = &self.s.wants_cache[self.me.index()];
        let mut c = cell.get();
        if self.m.changes.holds(&mut c, self.s.now_ns()) {
            cell.set(c);
            if c.value {
                n.wants_tick.set(self.s.clock.tick());
            }
            return c.value;
        }
        let v = self.wants_node_now(n, blocking());
        if !c.undeclared {
            self.remember(v);
        }
        v
    }

    /// Remembers `value` as the answer of [`me`](Self::me), with its activation watch.
    #[inline(never)]
    fn remember(&self, value: bool) {
        let entry = match self.computed_watch(self.me) {
            Some(w) => Cached::new(value, self.m.changes.rev, w),
            None => Cached {
                undeclared: true,
                ..Cached::NONE
            },
        };
        self.s.wants_cache[self.me.index()].set(entry);
    }

    /// Steps 2–7 of `WantsToBeActivated`, asked now.
    #[inline]
    fn wants_node_now(&self, n: &Node<U, E>, blocking: u8) -> bool {
        if n.gate & blocking != 0 || self.suppressed_now() {
            return false;
        }
        let Some(b) = self.behaviors.get(self.me) else {
            return false;
        };
        let ok = (n.plain || self.declared_conditions(n)) && b.wants_to_be_activated(self);
        if ok {
            n.wants_tick.set(self.s.clock.tick());
        }
        ok
    }

    /// The `wantsToBeActivatedCondition`, then `respondToUserIntents` (a matching intent
    /// pending), of the node this view is for.
    #[inline(never)]
    fn declared_conditions(&self, n: &Node<U, E>) -> bool {
        // Only asked of in-scope, inactive nodes: no activation time to look up.
        n.wants.as_ref().is_none_or(|c| {
            c.eval(&EvalCx {
                intents: &self.m.intents,
                world: &*self.m.world,
                clock: self.s.clock,
                active_since: None,
                machine: None,
                events: self.events,
            })
        }) && (n.respond.is_empty()
            || self
                .m
                .intents
                .pending()
                .is_some_and(|p| n.respond.iter().any(|m| m.matches(p.intent()))))
    }
}

/// A dispatcher's remembered choice among its children (see
/// [`View::first_wanting_cached`]): kept in the dispatcher, valid while nothing it read
/// changed.
#[derive(Clone, Debug, Default)]
pub struct ChoiceCache {
    valid: bool,
    /// A child's class does not declare its activation watch: the choice is always made
    /// again (and the children asked as they are, without their own caches).
    plain: bool,
    current: Option<BehaviorId>,
    result: Option<BehaviorId>,
    cached: Cached,
}

impl ChoiceCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }
    /// While it holds, when the choice may change without input (None: it is not kept).
    pub fn wakeup(&self) -> Option<Wakeup> {
        (self.valid && !self.plain).then(|| self.cached.watch().until)
    }
}

/// A class's own remembered answer (a state machine's transitions, see
/// [`wakeup`](super::wakeup)): valid while none of the inputs it read changed, its time has
/// not come and its `key` (the class's own state that the answer depends on) is the same.
/// Never valid while the runner does not cache.
#[derive(Clone, Debug, Default)]
pub struct AnswerCache<T> {
    valid: bool,
    key: u64,
    value: T,
    cached: Cached,
}

impl<T: Copy + Default> AnswerCache<T> {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }
    /// The remembered answer for `key`, while it holds.
    #[inline]
    pub fn recall<U: IntentUnion, E: 'static>(
        &mut self,
        view: &View<'_, U, E>,
        key: u64,
    ) -> Option<T> {
        (self.valid && self.key == key && view.m.changes.holds(&mut self.cached, view.s.now_ns()))
            .then_some(self.value)
    }
    /// Remembers `value` for `key`, holding while `watch` does.
    pub fn keep<U: IntentUnion, E: 'static>(
        &mut self,
        view: &View<'_, U, E>,
        key: u64,
        value: T,
        watch: Watch,
    ) {
        self.valid = view.s.caching;
        self.key = key;
        self.value = value;
        self.cached = Cached::new(false, view.m.changes.rev, watch);
    }
    /// Forgets the answer.
    pub fn forget(&mut self) {
        self.valid = false;
    }
}

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
    /// action). With `run_continuation`, the pending continuation runs at this behavior's
    /// next update (as the original's callback) with [`BehaviorEnd::Cancelled`] /
    /// [`ActionEnd::Cancelled`]; without, it is dropped. Returns whether anything was
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

impl<U: IntentUnion, E: 'static> View<'_, U, E> {
    /// What the last `WantsToBeActivated` answer of `id` (spec §0) depends on, given the
    /// state its last evaluation left (pure: nothing is evaluated). Active and out-of-scope
    /// behaviors answer by their lifecycle state ([`Inputs::STACK`]). An in-scope one: the
    /// world inputs behind its activation gates ([`World::blocking_inputs`]); when they let it through, its
    /// `wantsToBeActivatedCondition` ([`Condition::watch`](super::Condition::watch)); when
    /// that held (the original short-circuits), its `respondToUserIntents`
    /// ([`Inputs::INTENTS`]); when a listed intent is pending, its class
    /// ([`Behavior::activation_watch`](super::Behavior::activation_watch); a class that does
    /// not declare one makes it [`Watch::EVERY_TICK`]).
    pub fn activation_watch(&self, id: BehaviorId) -> Watch {
        let Some(n) = self.s.nodes.get(id.index()) else {
            return Watch::CONSTANT;
        };
        if n.state != LifecycleState::InScope {
            return Watch::reads(Inputs::STACK);
        }
        if self.s.caching {
            let cell = &self.s.wants_cache[id.index()];
            let mut c = cell.get();
            if self.m.changes.holds(&mut c, self.s.now_ns()) {
                cell.set(c);
                return c.watch();
            }
        }
        self.computed_watch(id).unwrap_or(Watch::EVERY_TICK)
    }

    /// [`activation_watch`](Self::activation_watch) worked out from the conditions' and the
    /// class's state (None: the class does not declare its watch).
    fn computed_watch(&self, id: BehaviorId) -> Option<Watch> {
        let Some(n) = self.s.nodes.get(id.index()) else {
            return Some(Watch::CONSTANT);
        };
        if n.state != LifecycleState::InScope {
            return Some(Watch::reads(Inputs::STACK));
        }
        let mut w = Watch::reads(Inputs::STACK | self.m.world.blocking_inputs(n.gate));
        if n.gate & self.m.world.blocking() != 0 {
            return Some(w);
        }
        let v = View { me: id, ..*self };
        if let Some(c) = &n.wants {
            w = w.and(c.watch(&v.eval_cx()));
            match c.last() {
                None => return Some(Watch::EVERY_TICK),
                Some((_, false)) => return Some(w),
                Some((_, true)) => {}
            }
        }
        if !n.respond.is_empty() {
            w.inputs |= Inputs::INTENTS;
            let pending = self
                .m
                .intents
                .pending()
                .is_some_and(|p| n.respond.iter().any(|m| m.matches(p.intent())));
            if !pending {
                return Some(w);
            }
        }
        match self.behaviors.get(id) {
            // The behavior whose hook runs: not looked at.
            None => Some(Watch::EVERY_TICK),
            Some(b) => b.activation_watch(&v).map(|c| w.and(c)),
        }
    }

    /// For tools: the `WantsToBeActivated` answer of `id` that the runner keeps and would
    /// reuse now instead of asking (see [`wakeup`](super::wakeup)), or None when it keeps
    /// none that still holds (caching off, a class that does not declare its watch, an
    /// input it read changed, its time came). Pure: the kept answer is looked at, not
    /// confirmed or asked.
    pub fn remembered_answer(&self, id: BehaviorId) -> Option<bool> {
        let n = self.s.nodes.get(id.index())?;
        if !self.s.caching || n.state != LifecycleState::InScope {
            return None;
        }
        let mut c = self.s.wants_cache.get(id.index())?.get();
        (!c.undeclared && self.m.changes.holds(&mut c, self.s.now_ns())).then_some(c.value)
    }

    /// The earliest [`activation_watch`](Self::activation_watch) time of `ids`.
    pub fn activation_wakeup(&self, ids: impl IntoIterator<Item = BehaviorId>) -> Wakeup {
        let mut w = Wakeup::Never;
        for id in ids {
            w = w.min(self.activation_watch(id).until);
            if w == Wakeup::EveryTick {
                break;
            }
        }
        w
    }
}
