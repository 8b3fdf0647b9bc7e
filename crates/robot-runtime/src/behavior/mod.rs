//! Behaviors: the robot's behavior system (the original's `IBehavior` / `ICozmoBehavior` /
//! `BehaviorSystemManager`, spec §3), generic over any generated union and driven by the
//! [`IntentComponent`](crate::intent::IntentComponent).
//!
//! * [`Behavior`] (`core`): the hooks; [`Ctx`] and [`View`] are what they see.
//! * [`Runner`] (`runner`): the only caller of hooks; owns the arena ([`Tree`]), the stack,
//!   the intent component and the [`VirtualClock`]; enforces the lifecycle in release
//!   builds ([`RunnerError`]).
//! * [`Action`] (`action`): multi-tick work behaviors delegate to, with simulated
//!   built-ins.
//! * Scoped effects ([`Effect`]): intents, timeout holds, trigger-word suppressions,
//!   cleanups, undone in reverse order on any deactivation.
//! * [`Condition`] (`condition`): pure predicates for activation, self-cancel and state
//!   machine transitions.
//! * Built-in classes (`classes`, `state_machine`): `Wait`, `DispatcherStrictPriority`,
//!   `DispatcherQueue`, `DispatcherRerun`, `ReactToUnclaimedIntent`, `SimpleVoiceResponse`,
//!   `PlayAnimation`, `InternalStates`/`HighLevelAI`.
//! * [`Registry`] and [`load_tree`] (`registry`, `loader`): classes by name and the JSON
//!   loader, which validates the whole tree at once and reports every problem with file and
//!   JSON path; trees in the original engine's format load unchanged.
//! * `coverage` and `export`: intent coverage, the completed-intents table check, DOT and
//!   Mermaid export.
//! * [`introspect`]: what a running tree tells a tool between ticks (each behavior's
//!   status, why it does or does not want to run, conditions with their current values)
//!   and forcing a behavior onto the stack.
//!
//! ```
//! use robot_runtime::behavior::{Registry, Runner, LoadOptions, Source, load_tree};
//! # use robot_runtime::behavior::IntentUnion;
//! # fn demo<U: IntentUnion>(intents: robot_runtime::intent::IntentComponent<U>) {
//! let registry = Registry::<U>::with_builtins();
//! let tree = load_tree(
//!     &registry,
//!     &[Source::new("root.json", r#"{
//!         // JSON with comments, as the original's trees
//!         "behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
//!         "interruptActiveBehavior": true,
//!         "behaviors": ["Idle"],
//!         "anonymousBehaviors": []
//!       }"#),
//!       Source::new("idle.json", r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#)],
//!     "Root",
//!     &LoadOptions::default(),
//! ).unwrap();
//! let mut runner = Runner::new(tree, intents);
//! runner.tick(std::time::Duration::from_millis(60), &[]);
//! assert_eq!(runner.stack_names(), ["Root", "Idle"]);
//! # }
//! ```

mod action;
mod classes;
mod clock;
mod condition;
mod core;
pub mod coverage;
pub mod export;
mod ids;
pub mod introspect;
mod loader;
mod registry;
pub mod runner;
pub mod state_machine;
mod tree;

#[cfg(test)]
mod tests;

pub use action::{Action, ActionEnd, ActionStatus, DriveToPose, PlayAnimation, Pose2, WaitFor};
pub use classes::{
    PlayAnimationBehavior, QueueDispatcher, ReactToUnclaimedIntent, RerunDispatcher,
    SimpleVoiceResponse, StrictPriorityDispatcher, Wait,
};
pub use clock::VirtualClock;
pub use condition::{Condition, ConditionFn};
pub use core::{
    Behavior, BehaviorEnd, BehaviorEvent, ClaimSite, Cleanup, Continuation, Ctx, DelegationOutcome,
    Effect, EffectId, EventScope, EventScopes, Invariant, LifecycleState, RunnerError, View,
};
pub use ids::{BehaviorId, BehaviorName, NameError};
pub use introspect::{Check, ForceError, Gate, Introspection, NodeShape, NodeStatus, TreeShape};
pub use loader::{load_tree, strip_comments, LoadError, LoadOptions, Problem, ProblemKind, Source};
pub use registry::{BuildCx, ClassFactory, ConditionFactory, Registry};
pub use runner::{ConditionPair, Runner};
pub use state_machine::{StateMachine, StateMachineParams};
pub use tree::{Spec, Tree, TreeBuilder, TreeError};

pub use crate::intent::IntentUnion;
