//! The arena the runner keeps: nodes, the behavior objects split around the running hook, the stack's frames, the state hooks read and change, queued commands and the tick's error log.

use std::cell::Cell;
use std::collections::VecDeque;
use std::time::Duration;

use crate::behavior::action::{Action, ActionFactory};
use crate::behavior::changes::{Cached, Changes};
use crate::behavior::clock::VirtualClock;
use crate::behavior::condition::Condition;
use crate::behavior::ids::{BehaviorId, BehaviorName};
use crate::behavior::track_locks::{LockId, LockedParts, TrackLocks};
use crate::behavior::world::World;
use crate::intent::{IntentComponent, IntentEvent, IntentMatcher, IntentUnion};

use super::{
    Behavior, BehaviorEnd, Continuation, DelegationOutcome, Effect, EffectId, EventScopes,
    LifecycleState, OperationModifiers, RunnerError,
};

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
    /// `tracksToLockWhileActivated`, as written (the robot's [`TrackLocks`](crate::behavior::TrackLocks) maps them).
    pub tracks: Box<[Box<str>]>,
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
    /// The behavior's track lock (`tracksToLockWhileActivated`), while it is active.
    pub lock: Option<LockId>,
    /// The parts of its stack's locks the frame's action uses ([`Action::run_under_locks`]).
    pub lent: LockedParts,
    /// The action waits for its stack's locks to hold `lent` before it starts.
    pub awaiting_locks: bool,
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
    /// Answers are reused while their inputs do not change (see [`wakeup`](crate::behavior::wakeup));
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
    /// Change stamps of the inputs (see [`wakeup`](crate::behavior::wakeup)).
    pub changes: Changes,
    /// The behaviors a coordinator told not to activate on tick `suppressed_tick`
    /// ([`Ctx::suppress_this_tick`]); usually empty.
    pub suppressed: Vec<BehaviorId>,
    /// The tick of `suppressed`.
    pub suppressed_tick: u64,
    /// The robot's track locks (`tracksToLockWhileActivated` and holds; see
    /// [`track_locks`](crate::behavior::track_locks)); None: nothing is locked or held.
    pub track_locks: Option<Box<dyn TrackLocks>>,
    /// The holds the active behaviors took ([`Ctx::hold_tracks`]), with their owner; usually
    /// empty. The runner gives back what is left when the owner is deactivated.
    pub holds: Vec<(BehaviorId, LockId)>,
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
