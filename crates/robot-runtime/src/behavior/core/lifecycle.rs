//! Lifecycle states, event scopes and delivered events, and how a delegation ends.

use crate::behavior::action::ActionEnd;
use crate::behavior::ids::BehaviorId;

use crate::intent::IntentEvent;

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
    /// A user event passed to [`Runner::tick`](crate::behavior::Runner::tick).
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
    /// Call [`Behavior::on_delegation_done`](super::Behavior::on_delegation_done) with this step number (a state machine's
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
