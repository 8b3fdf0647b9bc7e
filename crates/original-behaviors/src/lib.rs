//! The original robot engine's behavior library, as a node library of `robot_runtime`'s
//! behavior engine (as BehaviorTree.CPP keeps its node libraries apart from its core): its
//! behavior classes, their predicates, its condition types, its robot state and its
//! catalog. [`install`] registers all of it in a [`Registry`] in one call; a robot that does
//! not run the original's trees (a ROS4HRI robot) does not depend on this crate.
//!
//! * [`catalog`] — the original's names as data: its 175 classes, 61 condition types,
//!   timers, suggestions, object types, stats, error codes, tracks, stream effects, and per
//!   class the keys that name behaviors (spec §6) and the IDs its code names.
//! * [`robot_state`] — [`RobotState`], what the original's conditions and classes read: the
//!   runner's world ([`World`](robot_runtime::behavior::World)); [`inputs`] names its
//!   fields as the runtime's world inputs.
//! * [`RobotAccess`] / [`RobotAccessMut`] — how classes read it (`view.robot()`,
//!   `ctx.robot_mut()`), with a documented fallback when the world is of another type.
//! * [`conditions`] — the original's condition types the runtime does not run itself
//!   ([`OriginalCondition`]: 43 of the 61, a state machine's state timers, HighLevelAI's
//!   custom conditions), registered by name with their parsers.
//! * [`classes`] — the classes implemented here (the dispatchers, the state machines,
//!   animation, motion and voice classes, `Wait`; [`BUILTIN_CLASSES`]) and [`StandIn`], what
//!   runs for every other class of the original when a tree is loaded with stand-ins.
//!
//! ```
//! use robot_runtime::behavior::{load_tree, LoadOptions, Runner, Source};
//! use original_behaviors::{RobotAccess, RobotAccessMut};
//! # use robot_runtime::behavior::IntentUnion;
//! # fn demo<U: IntentUnion>(intents: robot_runtime::intent::IntentComponent<U>) {
//! let registry = original_behaviors::registry::<U, ()>();
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
//! runner.robot_mut().on_charger = true;
//! runner.tick(std::time::Duration::from_millis(60), &[]);
//! assert_eq!(runner.stack_names(), ["Root", "Idle"]);
//! assert!(runner.robot().on_charger);
//! # }
//! ```

pub mod access;
pub mod catalog;
pub mod classes;
pub mod conditions;
pub mod does;
pub mod inputs;
pub mod keys;
pub mod logic;
pub mod predicate;
pub mod robot_state;
pub mod specs;

use std::sync::Arc;

use robot_runtime::behavior::{BuildCx, IntentUnion, Registry, Vocabulary};

pub use access::{world_fallbacks, RobotAccess, RobotAccessMut};
pub use classes::{
    AnimGetInLoop, AnimSequence, CooldownDispatcher, MoveHeadToAngle, PassThroughDispatcher,
    PlayAnimationBehavior, PutDownBlock, QueueDispatcher, RandomDispatcher, ReactToUnclaimedIntent,
    RerunDispatcher, ScoringDispatcher, SimpleVoiceResponse, StandIn, StateMachine,
    StrictPriorityDispatcher, TextToSpeechLoop, Turn, Wait,
};
pub use conditions::{Flag, HighLevelAiCondition, MoodTest, OriginalCondition, NATIVE_TYPES};
pub use robot_state::{RobotState, StateError, STATE_KEYS};

/// What a class's code needs: the traits that read the robot, the robot state and its
/// inputs.
pub mod prelude {
    pub use crate::inputs;
    pub use crate::robot_state::RobotState;
    pub use crate::{RobotAccess, RobotAccessMut};
}

/// The classes implemented here ([`install`] registers them; every other class of
/// [`catalog::ORIGINAL_CLASSES`] is a stand-in). A class added to `classes` is added here
/// too (`robot-runtime-tests/tests/original_install.rs` checks the two agree).
pub const BUILTIN_CLASSES: &[&str] = &[
    "Wait",
    "DispatcherStrictPriority",
    "DispatcherStrictPriorityWithCooldown",
    "DispatcherRandom",
    "DispatcherQueue",
    "DispatcherScoring",
    "DispatcherPassThrough",
    "DispatcherRerun",
    "HighLevelAI",
    "PRDemo",
    "InternalStates",
    "AnimSequence",
    "AnimSequenceWithFace",
    "AnimSequenceWithObject",
    "AnimGetInLoop",
    "TextToSpeechLoop",
    "PlayAnimation",
    "MoveHeadToAngle",
    "Turn",
    "PutDownBlock",
    "SimpleVoiceResponse",
    "ReactToUnclaimedIntent",
    // voice family
    "ReactToVoiceCommand",
    "Volume",
    "EyeColorVoiceCommand",
    "EyeColor",
    "AlexaSignInOut",
    "TakeAPhotoCoordinator",
    "WallTimeCoordinator",
    "CoordinateWeather",
    "DisplayWeather",
    "TimerUtilityCoordinator",
    // coordinators (OCP §2.4)
    "CoordinateGlobalInterrupts",
    "CoordinateWhileHeldInPalm",
    "CoordinateWhileInAir",
    "CoordinateInHabitat",
    "QuietModeCoordinator",
    "SDKInterface",
    "SDKLock",
    "StayOnChargerUntilCharged",
    "ConfirmHabitat",
    "SleepCycle",
    // reactions
    "ReactToCliff",
    "ReactToMotorCalibration",
    "ReactToSound",
    "ReactToMicDirection",
];

/// How stand-ins behave (see [`StandIn`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StandIns {
    /// A stand-in with no `wantsToBeActivatedCondition` and no `respondToUserIntents`
    /// wants to run (default false: its class predicate is unknown).
    pub unconditioned_want: bool,
}

/// What [`install_with`] installs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// How stand-ins behave. (Whether they load at all, and the values of condition types
    /// not run natively, are the load's: `LoadOptions::stand_ins`.)
    pub stand_ins: StandIns,
}

/// Registers the original engine in `registry`, with the default [`Options`]: see
/// [`install_with`].
pub fn install<U: IntentUnion, E: 'static>(registry: &mut Registry<U, E>) {
    install_with(registry, &Options::default());
}

/// Registers the original engine in `registry`: the classes implemented here
/// ([`BUILTIN_CLASSES`]) and a stand-in ([`StandIn`]) for every other class of the
/// original, each with its reference keys and hard-coded IDs ([`catalog::class_info`]); its
/// condition types ([`conditions::register`]); the vocabularies of the base keys (behavior
/// timers, post-behavior suggestions, behavior stats, animation tracks, stream effects) and
/// of condition types; and [`RobotState`] as the world of every tree loaded with it.
/// Register your own classes after it (a class of the same name replaces the original's).
pub fn install_with<U: IntentUnion, E: 'static>(registry: &mut Registry<U, E>, options: &Options) {
    let natives = classes::builtins::<U, E>();
    let native: Vec<&str> = natives.iter().map(|(name, _)| *name).collect();
    for (name, factory) in natives {
        registry.register_class_with(name, catalog::class_info(name, false), factory);
    }
    let unconditioned = options.stand_ins.unconditioned_want;
    for class in catalog::ORIGINAL_CLASSES {
        if native.contains(class) {
            continue;
        }
        match (specs::class(class), logic::get(class)) {
            (Some(data), Some(logic)) => registry.register_class_with(
                class,
                catalog::class_info(class, true),
                Arc::new(move |cx: &mut BuildCx<'_, U, E>| classes::table::build(cx, data, logic)),
            ),
            _ => registry.register_class_with(
                class,
                catalog::class_info(class, true),
                Arc::new(move |cx: &mut BuildCx<'_, U, E>| {
                    classes::stand_in::build(cx, unconditioned)
                }),
            ),
        };
    }
    // Older class names (specs::OLDER_NAMES) run as the class they became.
    for &(older, class) in specs::OLDER_NAMES {
        if let (Some(data), Some(logic)) = (specs::class(class), logic::get(class)) {
            registry.register_class_with(
                older,
                catalog::class_info(class, true),
                Arc::new(move |cx: &mut BuildCx<'_, U, E>| classes::table::build(cx, data, logic)),
            );
        }
    }
    conditions::register(registry);
    registry
        .set_vocabulary(Vocabulary::Timers, catalog::BEHAVIOR_TIMERS.iter().copied())
        .set_vocabulary(
            Vocabulary::Suggestions,
            catalog::POST_BEHAVIOR_SUGGESTIONS.iter().copied(),
        )
        .set_vocabulary(Vocabulary::Stats, catalog::BEHAVIOR_STATS.iter().copied())
        .set_vocabulary(Vocabulary::AnimTracks, catalog::ANIM_TRACKS.iter().copied())
        .set_vocabulary(
            Vocabulary::StreamEffects,
            catalog::STREAM_EFFECTS.iter().copied(),
        )
        .set_world(RobotState::default);
}

/// A registry with the original engine installed ([`install`]).
pub fn registry<U: IntentUnion, E: 'static>() -> Registry<U, E> {
    registry_with(&Options::default())
}

/// A registry with the original engine installed with `options` ([`install_with`]).
pub fn registry_with<U: IntentUnion, E: 'static>(options: &Options) -> Registry<U, E> {
    let mut r = Registry::new();
    install_with(&mut r, options);
    r
}

/// Condition types of the original engine and whether each runs natively.
pub fn condition_support() -> Vec<(&'static str, bool)> {
    catalog::CONDITION_TYPES
        .iter()
        .map(|t| (*t, NATIVE_TYPES.contains(t)))
        .collect()
}
