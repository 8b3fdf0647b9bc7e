//! The behavior contract: the [`Behavior`] trait, the [`View`] its pure queries see, the
//! [`Ctx`] its hooks get, [`OperationModifiers`] (the activation gates and
//! always-delegates), delegation outcomes, scoped effects and the runner's typed errors.

mod arena;
mod ctx;
mod effects;
mod errors;
mod hooks;
mod lifecycle;
mod modifiers;
mod view;

pub(crate) use arena::{
    Behaviors, Command, ErrorLog, Frame, Mutable, Node, NodeDetail, Shared, Slot,
};
pub use ctx::Ctx;
pub(crate) use ctx::{activate, owner_of};
pub use effects::{Cleanup, Effect, EffectId};
pub use errors::{Invariant, RunnerError};
pub use hooks::{Behavior, ClaimSite, ClassPredicate};
pub use lifecycle::{
    BehaviorEnd, BehaviorEvent, Continuation, DelegationOutcome, EventScope, EventScopes,
    LifecycleState,
};
pub use modifiers::{CubeRequirement, OperationModifiers};
pub use view::{AnswerCache, ChoiceCache, View};
