//! The runner's typed errors and the invariants it checks.

use crate::behavior::ids::BehaviorId;

/// A rule of the runner that a request broke, or an internal invariant that failed. Never
/// a panic: the request is refused, the error logged with `tracing` and kept in
/// [`Runner::errors`](crate::behavior::Runner::errors) for the tick.
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

/// The runner's invariants (checked by [`Runner::check_invariants`](crate::behavior::Runner::check_invariants)).
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
    /// The runner's count of stack frames holding a track lock differs from the frames
    /// that hold one (the per-tick poll of the locks would be skipped, or run for nothing,
    /// and actions would run unmasked).
    #[error("{held} stack frames hold a track lock, the runner counts {counted}")]
    LockingFrames {
        /// Frames holding a lock.
        held: u32,
        /// The runner's count.
        counted: u32,
    },
    /// A behavior that is not active has a hold (the runner gives holds back at
    /// deactivation).
    #[error("{0} has a hold but is not active")]
    HoldOfInactive(BehaviorId),
}
