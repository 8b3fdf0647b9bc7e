//! Behaviors: the robot's behavior system (the original's `IBehavior` / `ICozmoBehavior` /
//! `BehaviorSystemManager`, spec §3), generic over any generated union and driven by the
//! [`IntentComponent`](crate::intent::IntentComponent). This is the engine; the classes a tree
//! names come from node libraries (the original engine's are the `original_behaviors`
//! crate, installed in one call) and from the robot itself, as BehaviorTree.CPP keeps its
//! core apart from its node libraries.
//!
//! * [`Behavior`] (`core`): the hooks; [`Ctx`] and [`View`] are what they see.
//! * [`Runner`] (`runner`): the only caller of hooks; owns the arena ([`Tree`]), the stack,
//!   the intent component, the [`World`] and the [`VirtualClock`]; enforces the lifecycle
//!   in release builds ([`RunnerError`]).
//! * [`World`] (`world`): what conditions and classes read about the robot, type-erased; a
//!   node library brings its own.
//! * [`Action`] (`action`): multi-tick work behaviors delegate to, with simulated
//!   built-ins.
//! * [`TrackLocks`] ([`track_locks`]): `tracksToLockWhileActivated`, locked through the
//!   robot's arbiter from activation to deactivation ([`Runner::set_track_locks`]).
//! * Scoped effects ([`Effect`]): intents, timeout holds, trigger-word suppressions,
//!   cleanups, undone in reverse order on any deactivation.
//! * [`Condition`] (`condition`): the framework's conditions (`TrueCondition`, `Compound`,
//!   the intent conditions, user conditions, opaque stand-ins) and node libraries'
//!   [`ConditionType`]s, for activation, self-cancel and state machine transitions; each
//!   remembers its last result for [`inspect`].
//! * [`Registry`] and [`load_tree`] (`registry`, `loader`): classes, condition types and
//!   vocabularies by name, and the JSON loader, which validates the whole tree at once and
//!   reports every problem with file:line:col and JSON path ([`check_tree`] without
//!   building); trees in the original engine's format load unchanged, with stand-ins for the
//!   classes a registry knows only by name ([`LoadOptions::with_stand_ins`]).
//! * [`wakeup`]: when an answer can change ([`Watch`]: the [`Inputs`] it read and the time
//!   it holds until): the runner reuses answers while nothing they read changed (a steady
//!   tick costs in proportion to what changed, [`Runner::set_caching`]) and says when the
//!   behaviors can next act ([`Runner::next_wakeup`], for discrete-event runs).
//! * [`inspect`]: read-only questions for tools (the tree's shape, each behavior's status,
//!   why a behavior is not active, conditions' last results as text) and
//!   [`Runner::force_behavior`] along [`Runner::delegation_path`].
//! * `coverage` and `export`: intent coverage, the completed-intents table check, DOT and
//!   Mermaid export.
//!
//! ```
//! use robot_runtime::behavior::{Behavior, LoadOptions, Registry, Runner, Source, load_tree};
//! # use robot_runtime::behavior::IntentUnion;
//! /// Runs until cancelled.
//! struct Idle;
//! impl<U: IntentUnion> Behavior<U> for Idle {}
//!
//! # fn demo<U: IntentUnion>(intents: robot_runtime::intent::IntentComponent<U>) {
//! let mut registry = Registry::<U>::new();
//! registry.register_class("Idle", |_cx| Some(Box::new(Idle)));
//! let tree = load_tree(
//!     &registry,
//!     &[Source::new("root.json", r#"{
//!         // JSON with comments, as the original's trees
//!         "behaviorID": "Root", "behaviorClass": "Idle"
//!       }"#)],
//!     "Root",
//!     &LoadOptions::default(),
//! ).unwrap();
//! let mut runner = Runner::new(tree, intents);
//! runner.tick(std::time::Duration::from_millis(60), &[]);
//! assert_eq!(runner.stack_names(), ["Root"]);
//! # }
//! ```

mod action;
pub mod build_context;
mod changes;
mod clock;
pub mod condition;
mod core;
pub mod coverage;
pub mod export;
mod ids;
pub mod inspect;
mod json_keys;
mod jsonc;
mod loader;
mod problem;
mod references;
mod registry;
pub mod runner;
pub mod track_locks;
mod tree;
mod vocabulary;
pub mod wakeup;
mod world;

pub use action::{
    request_name, Action, ActionEnd, ActionFactory, ActionRequest, ActionStatus,
    AnimationDurations, DriveToPose, PlayAnimation, Pose2, SimulatedActions, Timed, WaitFor,
};
pub use build_context::{BuildCx, ClassFactory, ReferenceCount};
pub use clock::VirtualClock;
pub use condition::parse::{
    ConditionCx, ConditionFactory, ConditionTypeParser, OpaqueValues, FRAMEWORK_TYPES,
};
pub use condition::{
    Condition, ConditionFn, ConditionType, EvalCx, Kind as ConditionKind, MachineTimes, Op,
};
pub use core::{
    AnswerCache, Behavior, BehaviorEnd, BehaviorEvent, ChoiceCache, ClaimSite, ClassPredicate,
    Cleanup, Continuation, Ctx, CubeRequirement, DelegationOutcome, Effect, EffectId, EventScope,
    EventScopes, Invariant, LifecycleState, OperationModifiers, RunnerError, View,
};
pub use ids::{BehaviorId, BehaviorName, NameError};
pub use json_keys::{did_you_mean, kind_of, unknown_name, KeyReader};
pub use jsonc::{locate, strip_comments, strip_comments_checked, Locator};
pub use loader::{
    check_tree, load, load_tree, ClassCount, KeyCheck, LoadOptions, LoadReport, Loaded, Source,
};
pub use problem::{LoadError, Problem, ProblemKind, ProblemSink, Severity};
pub use references::{ClassInfo, ReferenceKey, Resolution, Role};
pub use registry::Registry;
pub use runner::{ConditionPair, Runner};
pub use track_locks::{LockId, LockedParts, TrackLocks};
pub use tree::{ModifierOverrides, Spec, Tree, TreeBuilder, TreeError};
pub use vocabulary::Vocabulary;
pub use wakeup::{Inputs, Wakeup, Watch};
pub use world::{World, WorldFactory};

pub use crate::intent::IntentUnion;
