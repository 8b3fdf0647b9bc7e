//! The original engine's condition types (`BEIConditionType`, spec §5) beyond the
//! framework's (`TrueCondition`, `Compound`, the intent conditions, which the runtime keeps):
//! 43 of its 61 types run natively here, over the [`RobotState`](crate::RobotState), the
//! clock and a state machine's times, plus a state machine's `stateTimerConditions` and
//! HighLevelAI's injected custom conditions.
//!
//! **One description per kind.** Each kind is a type implementing the runtime's
//! [`ConditionType`](robot_runtime::behavior::ConditionType) once, in the file of its
//! family: what it answers (`eval`), what it reads (`inputs`) and, given the state its last
//! evaluation left, the first virtual time its answer may differ if none of those inputs
//! changes (`next_change`, exact for every kind that depends on time: the runtime's caching
//! contract), side by side with its activation hooks and its text for inspection
//! (`detail`). Families: `flags` (robot-state values read as they are: [`Flag`]'s table,
//! `FeatureGate`, `BatteryLevel`, `EngineErrorCodeReceived`, `BeatDetected`), `sensors`
//! (shaken, pitch, roll, prox, poked, touched), `body` (off treads, held, palm, cliffs,
//! stuck on an edge: a state for a time in a window), `mood` (`Emotion`, `SimpleMood`),
//! `timers` (`TimerInRange`, `BehaviorTimer`, `BehaviorSuggested`, state timers), `objects`
//! (`ObjectKnown`, `ObjectInitialDetection`, `FaceKnown`), `wrappers`
//! (`BecameTrueThisTick`, `TimedDedup`: stateful, over a `subCondition`) and
//! `high_level_ai`; `time` holds the arithmetic their next changes share, `text` the
//! durations and names their details show.
//! `parse` reads them from JSON (registered by name, [`register`]).
//! `robot-runtime-tests/tests/condition_kinds.rs` checks every kind's three answers agree.
//!
//! [`OriginalCondition`] names every kind as a value, for code that builds conditions
//! ([`OriginalCondition::condition`]). Stateful kinds (`TimerInRange`,
//! `BecameTrueThisTick`, `TimedDedup`, `ObjectKnown` with `maxAge_ms: 0`, `StuckOnEdge`,
//! ...) keep their state in cells, as the original kept it in the condition object;
//! `set_active` is the original's `SetActive`.

mod body;
mod flags;
mod high_level_ai;
mod mood;
mod objects;
pub(crate) mod parse;
mod sensors;
mod text;
mod time;
mod timers;
mod wrappers;

use std::time::Duration;

use robot_runtime::behavior::Condition;
use robot_runtime::intent::IntentUnion;

use crate::robot_state::BatteryLevel;

pub use body::{BeingHeld, CliffDetected, OffTreadsState, RobotHeldInPalm, StuckOnEdge};
pub use flags::{BeatDetected, FeatureGate, Flag};
pub use high_level_ai::HighLevelAiCondition;
pub use mood::{EmotionInRange, MoodTest};
pub use objects::{FaceKnown, ObjectKnown};
pub use parse::{register, NATIVE_TYPES};
pub use sensors::{AngleInRange, ProxInRange, RobotPoked, RobotShaken, RobotTouched};
pub use timers::{BehaviorSuggested, BehaviorTimer, TimerInRange};
pub use wrappers::{BecameTrueThisTick, TimedDedup};

/// A condition type of the original engine run natively, as a value (see the
/// [module documentation](self)); [`condition`](Self::condition) makes the condition.
#[non_exhaustive]
pub enum OriginalCondition<U: IntentUnion, E: 'static> {
    /// A robot-state flag.
    Flag(Flag),
    /// `OffTreadsState`.
    OffTreadsState(OffTreadsState),
    /// `FeatureGate`.
    FeatureGate(FeatureGate),
    /// `ObjectKnown` (and `ObjectInitialDetection`).
    ObjectKnown(ObjectKnown),
    /// `Emotion`.
    Emotion(EmotionInRange),
    /// `RobotHeldInPalm`.
    RobotHeldInPalm(RobotHeldInPalm),
    /// `BatteryLevel`: the battery is at this level.
    BatteryLevel(BatteryLevel),
    /// `BeingHeld`.
    BeingHeld(BeingHeld),
    /// `CliffDetected`.
    CliffDetected(CliffDetected),
    /// `TimerInRange`.
    TimerInRange(TimerInRange),
    /// `SimpleMood`.
    SimpleMood(MoodTest),
    /// `BehaviorTimer`.
    BehaviorTimer(BehaviorTimer),
    /// `BecameTrueThisTick`.
    BecameTrueThisTick(BecameTrueThisTick<U, E>),
    /// `TimedDedup`.
    TimedDedup(TimedDedup<U, E>),
    /// `BehaviorSuggested`.
    BehaviorSuggested(BehaviorSuggested),
    /// `StuckOnEdge`.
    StuckOnEdge(StuckOnEdge),
    /// `RobotShaken`.
    RobotShaken(RobotShaken),
    /// `RobotPitchInRange` / `RobotRollInRange`.
    AngleInRange(AngleInRange),
    /// `ProxInRange`.
    ProxInRange(ProxInRange),
    /// `RobotPoked`.
    RobotPoked(RobotPoked),
    /// `RobotTouched`.
    RobotTouched(RobotTouched),
    /// `BeatDetected`.
    BeatDetected(BeatDetected),
    /// `EngineErrorCodeReceived`: the last error-code message had this code (an index
    /// into [`catalog::ENGINE_ERROR_CODES`](crate::catalog::ENGINE_ERROR_CODES)).
    EngineErrorCodeReceived(u8),
    /// `FaceKnown`.
    FaceKnown(FaceKnown),
    /// A state machine's `stateTimerConditions` entry: the current state has lasted at
    /// least this long (false outside a state machine).
    StateTime(Duration),
    /// One of HighLevelAI's custom conditions.
    HighLevelAi(HighLevelAiCondition),
}

impl<U: IntentUnion, E: 'static> OriginalCondition<U, E> {
    /// A condition of this type (see [`Condition::of`]).
    pub fn condition(self) -> Condition<U, E> {
        match self {
            Self::Flag(c) => Condition::of(c),
            Self::OffTreadsState(c) => Condition::of(c),
            Self::FeatureGate(c) => Condition::of(c),
            Self::ObjectKnown(c) => Condition::of(c),
            Self::Emotion(c) => Condition::of(c),
            Self::RobotHeldInPalm(c) => Condition::of(c),
            Self::BatteryLevel(level) => Condition::of(flags::BatteryIs(level)),
            Self::BeingHeld(c) => Condition::of(c),
            Self::CliffDetected(c) => Condition::of(c),
            Self::TimerInRange(c) => Condition::of(c),
            Self::SimpleMood(c) => Condition::of(c),
            Self::BehaviorTimer(c) => Condition::of(c),
            Self::BecameTrueThisTick(c) => Condition::of(c),
            Self::TimedDedup(c) => Condition::of(c),
            Self::BehaviorSuggested(c) => Condition::of(c),
            Self::StuckOnEdge(c) => Condition::of(c),
            Self::RobotShaken(c) => Condition::of(c),
            Self::AngleInRange(c) => Condition::of(c),
            Self::ProxInRange(c) => Condition::of(c),
            Self::RobotPoked(c) => Condition::of(c),
            Self::RobotTouched(c) => Condition::of(c),
            Self::BeatDetected(c) => Condition::of(c),
            Self::EngineErrorCodeReceived(code) => Condition::of(flags::EngineErrorIs(code)),
            Self::FaceKnown(c) => Condition::of(c),
            Self::StateTime(begin) => Condition::of(timers::StateTimer(begin)),
            Self::HighLevelAi(c) => Condition::of(c),
        }
    }
}
