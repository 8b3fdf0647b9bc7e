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
//! * [`Condition`] (`condition`): the original's condition types natively (spec §2; the
//!   full list in [`catalog::CONDITION_TYPES`]), for activation, self-cancel and state
//!   machine transitions; each remembers its last result for [`inspect`].
//! * [`RobotState`] (`robot_state`): what conditions and classes read (treads, charger,
//!   carrying, faces, cubes, timers, whiteboard, features), settable from JSON.
//! * Built-in classes (`classes`): the waits, every dispatcher of the original
//!   (strict priority with its options, cooldown, random, queue, scoring, pass-through,
//!   rerun), the state machines (`HighLevelAI`, `PRDemo`, `InternalStates`), animation,
//!   motion and voice classes, and [`StandIn`] for original classes not built in
//!   ([`catalog::ORIGINAL_CLASSES`] lists all 175).
//! * [`Registry`] and [`load_tree`] (`registry`, `loader`): classes by name and the JSON
//!   loader, which validates the whole tree at once and reports every problem with
//!   file:line:col and JSON path ([`check_tree`] without building); trees in the original
//!   engine's format load unchanged ([`LoadOptions::original`]).
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
pub mod build_context;
pub mod catalog;
mod changes;
pub mod classes;
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
mod registry;
pub mod robot_state;
pub mod runner;
mod tree;
pub mod wakeup;

pub use action::{
    request_name, Action, ActionEnd, ActionFactory, ActionRequest, ActionStatus,
    AnimationDurations, DriveToPose, PlayAnimation, Pose2, SimulatedActions, Timed, WaitFor,
};
pub use build_context::{BuildCx, ClassFactory, ReferenceCount};
pub use classes::{
    AnimGetInLoop, AnimSequence, CooldownDispatcher, MoveHeadToAngle, PassThroughDispatcher,
    PlayAnimationBehavior, PutDownBlock, QueueDispatcher, RandomDispatcher, ReactToUnclaimedIntent,
    RerunDispatcher, ScoringDispatcher, SimpleVoiceResponse, StandIn, StateMachine,
    StrictPriorityDispatcher, TextToSpeechLoop, Turn, Wait,
};
pub use clock::VirtualClock;
pub use condition::parse::{ConditionFactory, OpaqueValues};
pub use condition::{
    Condition, ConditionFn, EvalCx, Flag, HighLevelAiCondition, Kind as ConditionKind,
    MachineTimes, MoodTest, Op,
};
pub use core::{
    AnswerCache, Behavior, BehaviorEnd, BehaviorEvent, ChoiceCache, ClaimSite, Cleanup,
    Continuation, Ctx, CubeRequirement, DelegationOutcome, Effect, EffectId, EventScope,
    EventScopes, Invariant, LifecycleState, OperationModifiers, RunnerError, View,
};
pub use ids::{BehaviorId, BehaviorName, NameError};
pub use jsonc::{locate, strip_comments, Locator};
pub use loader::{
    check_tree, condition_support, load, load_tree, ClassCount, KeyCheck, LoadOptions, LoadReport,
    Loaded, Source, StandIns,
};
pub use problem::{LoadError, Problem, ProblemKind, Severity};
pub use registry::{Registry, BUILTIN_CLASSES};
pub use robot_state::{RobotState, StateError};
pub use runner::{ConditionPair, Runner};
pub use tree::{ModifierOverrides, Spec, Tree, TreeBuilder, TreeError};
pub use wakeup::{Inputs, Wakeup, Watch};

pub use crate::intent::IntentUnion;
