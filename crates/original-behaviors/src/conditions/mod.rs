//! The original engine's condition types (`BEIConditionType`, spec §5) beyond the
//! framework's (`TrueCondition`, `Compound`, the intent conditions, which the runtime keeps):
//! 43 of its 61 types run natively here, over the [`RobotState`], the clock and a state
//! machine's times, plus a state machine's `stateTimerConditions` and HighLevelAI's injected
//! custom conditions. Each is an [`OriginalCondition`], a [`ConditionType`] of the runtime:
//! `parse` reads them from JSON (registered by name, [`register`]), `change` says what each
//! reads and when its value can change (exact for every time-dependent type, the runtime's
//! caching contract), and [`OriginalCondition::detail`] is its text for inspection.
//!
//! Stateful conditions (`TimerInRange`, `BecameTrueThisTick`, `TimedDedup`, `ObjectKnown`
//! with `maxAge_ms: 0`, `StuckOnEdge`, ...) keep their state in cells, as the original kept
//! it in the condition object; `set_active` is the original's `SetActive`.

mod change;
pub(crate) mod parse;

use std::cell::{Cell, RefCell};
use std::time::Duration;

use robot_runtime::behavior::{Condition, ConditionType, EvalCx, Inputs, MachineTimes, Wakeup};
use robot_runtime::intent::IntentUnion;

use crate::access::RobotAccess;
use crate::catalog;
use crate::robot_state::{
    BatteryLevel, BehaviorTimers, Emotion, Habitat, OffTreads, RobotState, SimpleMood,
};

pub use parse::{register, NATIVE_TYPES};

/// Which test a `SimpleMood` condition makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoodTest {
    /// The current mood is this one (`mood`).
    Is(SimpleMood),
    /// A transition happened this tick, with these ends (`from` / `to`, either may be
    /// absent).
    Transition(Option<SimpleMood>, Option<SimpleMood>),
}

/// HighLevelAI's injected custom conditions (spec §3.3).
#[derive(Clone, Debug, PartialEq)]
pub enum HighLevelAiCondition {
    /// `CloseFaceForSocializing`.
    CloseFaceForSocializing {
        /// `socializeKnownFaceCooldown_s`.
        cooldown: Duration,
        /// `maxFaceDistanceToSocialize_mm`.
        max_distance_mm: f32,
    },
    /// `ChargerLocated`.
    ChargerLocated,
    /// `WantsToLeaveChargerForPlay`.
    WantsToLeaveChargerForPlay {
        /// `playWithCubeOnChargerCooldown_s`.
        charger_cooldown: Duration,
        /// `playWithCubeCooldown_s`.
        cube_cooldown: Duration,
        /// The index of state `ObservingDriveOffCharger`, if the machine has it.
        drive_off_state: Option<usize>,
    },
    /// `CloseCubeForPlaying`.
    CloseCubeForPlaying {
        /// `playWithCubeCooldown_s`.
        cube_cooldown: Duration,
    },
    /// `ExploringCooldownMet`.
    ExploringCooldownMet {
        /// The index of state `Exploring`, if the machine has it.
        exploring_state: Option<usize>,
    },
}

/// A flag of the robot state, read as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// `OnCharger`.
    OnCharger,
    /// `OnChargerPlatform`.
    OnChargerPlatform,
    /// `HighTemperature` (CPU ≥ 90 °C or battery ≥ 55 °C).
    HighTemperature,
    /// `RobotInHabitat`.
    RobotInHabitat,
    /// `UserIsHoldingCube`.
    UserIsHoldingCube,
    /// `TooHotToCharge`.
    TooHotToCharge,
    /// `RobotPickedUp`.
    RobotPickedUp,
    /// `CarryingCube`.
    CarryingCube,
    /// `UnexpectedMovement`.
    UnexpectedMovement,
    /// `EyeContact`.
    EyeContact,
    /// `ConnectedToCube`.
    ConnectedToCube,
    /// `IsNightTime`.
    IsNightTime,
    /// `IsMaintenanceReboot`.
    IsMaintenanceReboot,
    /// `AlexaInteractionActive`.
    AlexaInteractionActive,
    /// `RobotPlacedOnSlope`.
    RobotPlacedOnSlope,
    /// `ObstacleDetected`.
    ObstacleDetected,
    /// `SalientPointDetected`.
    SalientPointDetected,
    /// `MotionDetected` (its area and level keys are not modelled: any motion counts).
    MotionDetected,
}

impl Flag {
    /// The condition type's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::OnCharger => "OnCharger",
            Self::OnChargerPlatform => "OnChargerPlatform",
            Self::HighTemperature => "HighTemperature",
            Self::RobotInHabitat => "RobotInHabitat",
            Self::UserIsHoldingCube => "UserIsHoldingCube",
            Self::TooHotToCharge => "TooHotToCharge",
            Self::RobotPickedUp => "RobotPickedUp",
            Self::CarryingCube => "CarryingCube",
            Self::UnexpectedMovement => "UnexpectedMovement",
            Self::EyeContact => "EyeContact",
            Self::ConnectedToCube => "ConnectedToCube",
            Self::IsNightTime => "IsNightTime",
            Self::IsMaintenanceReboot => "IsMaintenanceReboot",
            Self::AlexaInteractionActive => "AlexaInteractionActive",
            Self::RobotPlacedOnSlope => "RobotPlacedOnSlope",
            Self::ObstacleDetected => "ObstacleDetected",
            Self::SalientPointDetected => "SalientPointDetected",
            Self::MotionDetected => "MotionDetected",
        }
    }
    fn read(self, r: &RobotState) -> bool {
        match self {
            Self::OnCharger => r.on_charger,
            Self::OnChargerPlatform => r.on_charger_platform,
            Self::HighTemperature => r.cpu_temp_c >= 90.0 || r.battery_temp_c >= 55.0,
            Self::RobotInHabitat => r.habitat == Habitat::InHabitat,
            Self::UserIsHoldingCube => r.user_holding_cube,
            Self::TooHotToCharge => r.too_hot_to_charge,
            Self::RobotPickedUp => r.picked_up,
            Self::CarryingCube => r.carrying_object,
            Self::UnexpectedMovement => r.unexpected_movement,
            Self::EyeContact => r.eye_contact,
            Self::ConnectedToCube => r.cube_connected,
            Self::IsNightTime => r.night_time,
            Self::IsMaintenanceReboot => r.maintenance_reboot,
            Self::AlexaInteractionActive => r.alexa_active,
            Self::RobotPlacedOnSlope => r.placed_on_slope,
            Self::ObstacleDetected => r.obstacle_detected,
            Self::SalientPointDetected => r.salient_point_detected,
            Self::MotionDetected => r.motion_detected,
        }
    }
}

/// A condition type of the original engine run natively (see the
/// [module documentation](self)).
#[non_exhaustive]
pub enum OriginalCondition<U: IntentUnion, E: 'static> {
    /// A robot-state flag.
    Flag(Flag),
    /// `OffTreadsState`.
    OffTreadsState {
        /// `targetState`.
        target: OffTreads,
        /// `minTimeSinceChange_ms` (negative clamped to 0).
        min: Duration,
        /// `maxTimeSinceChange_ms` (−1: none).
        max: Option<Duration>,
    },
    /// `FeatureGate`.
    FeatureGate {
        /// `feature`.
        feature: Box<str>,
        /// `expected` (default true).
        expected: bool,
    },
    /// `ObjectKnown` (and `ObjectInitialDetection`).
    ObjectKnown {
        /// `objectTypes` as a bit mask of [`catalog::OBJECT_TYPES`] indices.
        types: u32,
        /// `maxAge_ms`.
        max_age_ms: Option<u64>,
        /// Objects seen at the previous evaluation (type, last observed), for
        /// `maxAge_ms: 0`; cleared on every `SetActive`.
        memory: RefCell<Vec<(u8, u64)>>,
        /// `ObjectInitialDetection`'s `firstTimeOnly`: once true, false for the
        /// condition's lifetime.
        first_time_only: Option<Cell<bool>>,
    },
    /// `Emotion`: min ≤ value ≤ max (inclusive).
    Emotion {
        /// `emotion`.
        emotion: Emotion,
        /// `min` (−∞ when absent; `value` − 1e-5 for `value`).
        min: f32,
        /// `max` (+∞ when absent; `value` + 1e-5 for `value`).
        max: f32,
    },
    /// `RobotHeldInPalm`.
    RobotHeldInPalm {
        /// `shouldBeHeldInPalm`.
        should: bool,
        /// `minDuration_s`.
        min: Duration,
        /// `maxDuration_s`.
        max: Duration,
    },
    /// `BatteryLevel`.
    BatteryLevel(BatteryLevel),
    /// `BeingHeld`.
    BeingHeld {
        /// `shouldBeHeld`.
        should: bool,
        /// `minTimeSinceChange_ms`.
        min: Duration,
        /// `maxTimeSinceChange_ms`.
        max: Duration,
    },
    /// `CliffDetected`.
    CliffDetected {
        /// `numCliffDetectionsToTrigger` (1–4; 0 with `shouldDetectNoCliffs`).
        count: u8,
        /// `shouldDetectNoCliffs`.
        no_cliffs: bool,
        /// `minDuration_ms`.
        min: Duration,
        /// `maxDuration_ms`.
        max: Duration,
    },
    /// `TimerInRange`: begin ≤ time since reset < end; reset on every `SetActive` unless
    /// `manualResetOnly`.
    TimerInRange {
        /// `begin_s`.
        begin: Duration,
        /// `end_s` (None: float max).
        end: Option<Duration>,
        /// `manualResetOnly`.
        manual_reset_only: bool,
        /// The last reset.
        reset_at: Cell<Duration>,
    },
    /// `SimpleMood`.
    SimpleMood(MoodTest),
    /// `BehaviorTimer`: the timer has expired after `cooldown` (never reset: true).
    BehaviorTimer {
        /// Index into the timer names.
        timer: usize,
        /// `cooldown_s`.
        cooldown: Duration,
    },
    /// `BecameTrueThisTick`: false → true since the previous evaluation.
    BecameTrueThisTick {
        /// `subCondition`.
        sub: Box<Condition<U, E>>,
        /// −1 unknown, 0 false, 1 true.
        last: Cell<i8>,
    },
    /// `TimedDedup`.
    TimedDedup {
        /// `subCondition`.
        sub: Box<Condition<U, E>>,
        /// `dedupInterval_ms`.
        interval: Duration,
        /// The time before which the sub is not evaluated.
        next_valid: Cell<Duration>,
    },
    /// `BehaviorSuggested`.
    BehaviorSuggested {
        /// Index into the suggestion names.
        suggestion: usize,
        /// `maxTicksForSuggestion`.
        max_ticks: u64,
    },
    /// `StuckOnEdge`.
    StuckOnEdge {
        /// `enableWhileHeldOnPalm`.
        enable_in_palm: bool,
        /// When the stuck configuration started (None: 0 in the original).
        start: Cell<Option<Duration>>,
    },
    /// `RobotShaken`: accelerometer magnitude ≥ threshold and picked up.
    RobotShaken {
        /// `minAccelMagnitudeThreshold`.
        threshold: f32,
    },
    /// `RobotPitchInRange` (`pitch` true) / `RobotRollInRange`: min ≤ angle ≤ max.
    AngleInRange {
        /// Pitch (else roll).
        pitch: bool,
        /// Minimum, degrees.
        min: f32,
        /// Maximum, degrees.
        max: f32,
    },
    /// `ProxInRange`.
    ProxInRange {
        /// `minProxDist_mm`.
        min: f32,
        /// `maxProxDist_mm`.
        max: f32,
        /// `invalidSensorReturn`: the value when nothing is sensed.
        invalid: bool,
    },
    /// `RobotPoked`: time since the last poke ≤ threshold.
    RobotPoked {
        /// `wasPokedRecentlyTimeThreshold_sec`.
        threshold: Duration,
    },
    /// `RobotTouched`: touched for at least `minTouchTime`.
    RobotTouched {
        /// `minTouchTime`.
        min: Duration,
    },
    /// `BeatDetected`.
    BeatDetected {
        /// `allowPotentialBeat`.
        allow_potential: bool,
    },
    /// `EngineErrorCodeReceived`: the last error-code message had this code.
    EngineErrorCodeReceived(u8),
    /// `FaceKnown`.
    FaceKnown {
        /// `maxFaceDist_mm`.
        max_distance_mm: Option<f32>,
        /// `maxFaceAge_s`.
        max_age: Option<Duration>,
        /// `mustBeNamed`.
        must_be_named: bool,
    },
    /// A state machine's `stateTimerConditions` entry: the current state has lasted at
    /// least this long (false outside a state machine).
    StateTime(Duration),
    /// One of HighLevelAI's custom conditions.
    HighLevelAi(HighLevelAiCondition),
}

impl<U: IntentUnion, E: 'static> Clone for OriginalCondition<U, E> {
    /// A copy (its state is reset by the runtime's `Condition::clone` right after).
    fn clone(&self) -> Self {
        match self {
            Self::Flag(f) => Self::Flag(*f),
            Self::OffTreadsState { target, min, max } => Self::OffTreadsState {
                target: *target,
                min: *min,
                max: *max,
            },
            Self::FeatureGate { feature, expected } => Self::FeatureGate {
                feature: feature.clone(),
                expected: *expected,
            },
            Self::ObjectKnown {
                types,
                max_age_ms,
                memory,
                first_time_only,
            } => Self::ObjectKnown {
                types: *types,
                max_age_ms: *max_age_ms,
                memory: memory.clone(),
                first_time_only: first_time_only.clone(),
            },
            Self::Emotion { emotion, min, max } => Self::Emotion {
                emotion: *emotion,
                min: *min,
                max: *max,
            },
            Self::RobotHeldInPalm { should, min, max } => Self::RobotHeldInPalm {
                should: *should,
                min: *min,
                max: *max,
            },
            Self::BatteryLevel(l) => Self::BatteryLevel(*l),
            Self::BeingHeld { should, min, max } => Self::BeingHeld {
                should: *should,
                min: *min,
                max: *max,
            },
            Self::CliffDetected {
                count,
                no_cliffs,
                min,
                max,
            } => Self::CliffDetected {
                count: *count,
                no_cliffs: *no_cliffs,
                min: *min,
                max: *max,
            },
            Self::TimerInRange {
                begin,
                end,
                manual_reset_only,
                reset_at,
            } => Self::TimerInRange {
                begin: *begin,
                end: *end,
                manual_reset_only: *manual_reset_only,
                reset_at: reset_at.clone(),
            },
            Self::SimpleMood(t) => Self::SimpleMood(*t),
            Self::BehaviorTimer { timer, cooldown } => Self::BehaviorTimer {
                timer: *timer,
                cooldown: *cooldown,
            },
            Self::BecameTrueThisTick { sub, last } => Self::BecameTrueThisTick {
                sub: sub.clone(),
                last: last.clone(),
            },
            Self::TimedDedup {
                sub,
                interval,
                next_valid,
            } => Self::TimedDedup {
                sub: sub.clone(),
                interval: *interval,
                next_valid: next_valid.clone(),
            },
            Self::BehaviorSuggested {
                suggestion,
                max_ticks,
            } => Self::BehaviorSuggested {
                suggestion: *suggestion,
                max_ticks: *max_ticks,
            },
            Self::StuckOnEdge {
                enable_in_palm,
                start,
            } => Self::StuckOnEdge {
                enable_in_palm: *enable_in_palm,
                start: start.clone(),
            },
            Self::RobotShaken { threshold } => Self::RobotShaken {
                threshold: *threshold,
            },
            Self::AngleInRange { pitch, min, max } => Self::AngleInRange {
                pitch: *pitch,
                min: *min,
                max: *max,
            },
            Self::ProxInRange { min, max, invalid } => Self::ProxInRange {
                min: *min,
                max: *max,
                invalid: *invalid,
            },
            Self::RobotPoked { threshold } => Self::RobotPoked {
                threshold: *threshold,
            },
            Self::RobotTouched { min } => Self::RobotTouched { min: *min },
            Self::BeatDetected { allow_potential } => Self::BeatDetected {
                allow_potential: *allow_potential,
            },
            Self::EngineErrorCodeReceived(c) => Self::EngineErrorCodeReceived(*c),
            Self::FaceKnown {
                max_distance_mm,
                max_age,
                must_be_named,
            } => Self::FaceKnown {
                max_distance_mm: *max_distance_mm,
                max_age: *max_age,
                must_be_named: *must_be_named,
            },
            Self::StateTime(d) => Self::StateTime(*d),
            Self::HighLevelAi(h) => Self::HighLevelAi(h.clone()),
        }
    }
}

impl<U: IntentUnion, E: 'static> OriginalCondition<U, E> {
    /// A condition of this type (see [`Condition::of`]).
    pub fn condition(self) -> Condition<U, E> {
        Condition::of(self)
    }

    /// The original's type name (`OffTreadsState`, `ObjectInitialDetection`, ...; a state
    /// timer is `StateTimer`, a HighLevelAI condition its custom name).
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Flag(f) => f.name(),
            Self::OffTreadsState { .. } => "OffTreadsState",
            Self::FeatureGate { .. } => "FeatureGate",
            Self::ObjectKnown {
                first_time_only: Some(_),
                ..
            } => "ObjectInitialDetection",
            Self::ObjectKnown { .. } => "ObjectKnown",
            Self::Emotion { .. } => "Emotion",
            Self::RobotHeldInPalm { .. } => "RobotHeldInPalm",
            Self::BatteryLevel(_) => "BatteryLevel",
            Self::BeingHeld { .. } => "BeingHeld",
            Self::CliffDetected { .. } => "CliffDetected",
            Self::TimerInRange { .. } => "TimerInRange",
            Self::SimpleMood(_) => "SimpleMood",
            Self::BehaviorTimer { .. } => "BehaviorTimer",
            Self::BecameTrueThisTick { .. } => "BecameTrueThisTick",
            Self::TimedDedup { .. } => "TimedDedup",
            Self::BehaviorSuggested { .. } => "BehaviorSuggested",
            Self::StuckOnEdge { .. } => "StuckOnEdge",
            Self::RobotShaken { .. } => "RobotShaken",
            Self::AngleInRange { pitch: true, .. } => "RobotPitchInRange",
            Self::AngleInRange { .. } => "RobotRollInRange",
            Self::ProxInRange { .. } => "ProxInRange",
            Self::RobotPoked { .. } => "RobotPoked",
            Self::RobotTouched { .. } => "RobotTouched",
            Self::BeatDetected { .. } => "BeatDetected",
            Self::EngineErrorCodeReceived(_) => "EngineErrorCodeReceived",
            Self::FaceKnown { .. } => "FaceKnown",
            Self::StateTime(_) => "StateTimer",
            Self::HighLevelAi(h) => match h {
                HighLevelAiCondition::CloseFaceForSocializing { .. } => "CloseFaceForSocializing",
                HighLevelAiCondition::ChargerLocated => "ChargerLocated",
                HighLevelAiCondition::WantsToLeaveChargerForPlay { .. } => {
                    "WantsToLeaveChargerForPlay"
                }
                HighLevelAiCondition::CloseCubeForPlaying { .. } => "CloseCubeForPlaying",
                HighLevelAiCondition::ExploringCooldownMet { .. } => "ExploringCooldownMet",
            },
        }
    }

    fn test(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        let now = cx.now();
        let within = |since: Duration, min: Duration, max: Duration| {
            let d = now.saturating_sub(since);
            min <= d && d <= max
        };
        match self {
            Self::Flag(f) => f.read(r),
            Self::OffTreadsState { target, min, max } => {
                let (s, changed) = r.off_treads();
                let d = now.saturating_sub(changed);
                s == *target && *min <= d && max.is_none_or(|m| d <= m)
            }
            Self::FeatureGate { feature, expected } => r.feature_enabled(feature) == *expected,
            Self::ObjectKnown {
                types,
                max_age_ms,
                memory,
                first_time_only,
            } => {
                if first_time_only.as_ref().is_some_and(Cell::get) {
                    return false;
                }
                let matching = r
                    .objects
                    .iter()
                    .filter(|o| types & (1 << o.object_type.min(31)) != 0);
                let v = match max_age_ms {
                    None => matching.clone().next().is_some(),
                    Some(0) => {
                        let mut mem = memory.borrow_mut();
                        let mut hit = false;
                        for o in matching.clone() {
                            match mem.iter_mut().find(|(t, _)| *t == o.object_type) {
                                Some((_, seen)) => {
                                    hit |= o.last_observed_ms > *seen;
                                    *seen = o.last_observed_ms;
                                }
                                None => {
                                    hit |= o.last_observed_ms == r.latest_message_ms;
                                    mem.push((o.object_type, o.last_observed_ms));
                                }
                            }
                        }
                        hit
                    }
                    Some(age) => matching
                        .clone()
                        .any(|o| o.last_observed_ms.saturating_add(*age) >= r.latest_message_ms),
                };
                if v {
                    if let Some(done) = first_time_only {
                        done.set(true);
                    }
                }
                v
            }
            Self::Emotion { emotion, min, max } => {
                let v = r.emotion(*emotion);
                *min <= v && v <= *max
            }
            Self::RobotHeldInPalm { should, min, max } => {
                if r.held_in_palm() != *should {
                    return false;
                }
                let (in_palm, since) = r.palm_durations();
                let d = if *should { in_palm } else { since };
                *min <= d && d <= *max
            }
            Self::BatteryLevel(l) => r.battery_level == *l,
            Self::BeingHeld { should, min, max } => {
                let (held, changed) = r.being_held();
                held == *should && within(changed, *min, *max)
            }
            Self::CliffDetected {
                count,
                no_cliffs,
                min,
                max,
            } => {
                let n = r.cliffs().count_ones() as u8;
                let hit = if *no_cliffs { n == 0 } else { n >= *count };
                if !hit {
                    return false;
                }
                let level = if *no_cliffs { 0 } else { usize::from(*count) };
                let d = match r.cliff_level_since(level) {
                    Some(t) if t != now => now.saturating_sub(t),
                    _ => Duration::ZERO,
                };
                *min <= d && d <= *max
            }
            Self::TimerInRange {
                begin,
                end,
                reset_at,
                ..
            } => {
                let d = now.saturating_sub(reset_at.get());
                *begin <= d && end.is_none_or(|e| d < e)
            }
            Self::SimpleMood(t) => match t {
                MoodTest::Is(m) => r.simple_mood() == *m,
                MoodTest::Transition(from, to) => match r.mood_transition_this_tick() {
                    Some((a, b)) => from.is_none_or(|f| f == a) && to.is_none_or(|t| t == b),
                    None => false,
                },
            },
            Self::BehaviorTimer { timer, cooldown } => {
                r.behavior_timers.expired(*timer, *cooldown, now, true)
            }
            Self::BecameTrueThisTick { sub, last } => {
                let v = sub.eval(cx);
                let prev = last.replace(i8::from(v));
                prev == 0 && v
            }
            Self::TimedDedup {
                sub,
                interval,
                next_valid,
            } => {
                if now < next_valid.get() {
                    return false;
                }
                let v = sub.eval(cx);
                if v {
                    next_valid.set(now.saturating_add(*interval));
                }
                v
            }
            Self::BehaviorSuggested {
                suggestion,
                max_ticks,
            } => r
                .whiteboard
                .offered_at(*suggestion)
                .is_some_and(|t| t.saturating_add(*max_ticks) >= cx.clock().tick()),
            Self::StuckOnEdge {
                enable_in_palm,
                start,
            } => {
                // Sensors: bit 0 FL, 1 FR, 2 BL, 3 BR.
                let c = r.cliffs();
                let in_palm = r.held_in_palm();
                let stuck =
                    c == 0b0101 || c == 0b1010 || (!in_palm && (c == 0b1001 || c == 0b0110));
                if !stuck {
                    return false;
                }
                if r.picked_up && !(in_palm && *enable_in_palm) {
                    start.set(None);
                    return false;
                }
                match start.get() {
                    None => {
                        start.set(Some(now));
                        false
                    }
                    Some(t) => now.saturating_sub(t) > Duration::from_millis(550),
                }
            }
            Self::RobotShaken { threshold } => r.accel_magnitude >= *threshold && r.picked_up,
            Self::AngleInRange { pitch, min, max } => {
                let a = if *pitch { r.pitch_deg } else { r.roll_deg };
                *min <= a && a <= *max
            }
            Self::ProxInRange { min, max, invalid } => match r.prox_mm {
                None => *invalid,
                Some(d) => *min <= d && d <= *max,
            },
            Self::RobotPoked { threshold } => r.since_poked().is_some_and(|d| d <= *threshold),
            Self::RobotTouched { min } => r.touched_for().is_some_and(|d| d >= *min),
            Self::BeatDetected { allow_potential } => {
                r.beat_detected || (*allow_potential && r.potential_beat_detected)
            }
            Self::EngineErrorCodeReceived(code) => r.engine_error() == Some(*code),
            Self::FaceKnown {
                max_distance_mm,
                max_age,
                must_be_named,
            } => r.faces.iter().any(|f| {
                (!*must_be_named || f.named)
                    && max_distance_mm.is_none_or(|m| f.distance_mm.is_some_and(|d| d <= m))
                    && max_age.is_none_or(|a| now.saturating_sub(f.last_seen) <= a)
            }),
            Self::StateTime(begin) => cx
                .machine()
                .is_some_and(|m| now.saturating_sub(m.adjusted_start) >= *begin),
            Self::HighLevelAi(h) => high_level_ai(h, cx),
        }
    }
}

impl<U: IntentUnion, E: 'static> OriginalCondition<U, E> {
    /// Its parameters for a person, without its type name or its sub-conditions (empty
    /// when it has none): `InAir ≥ 0.5 s` for `OffTreadsState`. What inspection shows.
    pub fn detail(&self) -> String {
        let name_at = |names: &[&str], i: usize| names.get(i).copied().unwrap_or("?").to_owned();
        match self {
            Self::OffTreadsState { target, min, max } => {
                format!("{} {}", target.name(), range(*min, *max))
            }
            Self::FeatureGate { feature, expected } => format!("{feature} = {expected}"),
            Self::ObjectKnown {
                types, max_age_ms, ..
            } => {
                let names: Vec<&str> = (0..32)
                    .filter(|b| types & (1 << b) != 0)
                    .filter_map(|b| catalog::OBJECT_TYPES.get(b).copied())
                    .collect();
                match max_age_ms {
                    Some(a) => format!("[{}] seen ≤ {a} ms ago", names.join(", ")),
                    None => format!("[{}]", names.join(", ")),
                }
            }
            Self::Emotion { emotion, min, max } => format!("{} in [{min}, {max}]", emotion.name()),
            Self::RobotHeldInPalm { should, min, max } | Self::BeingHeld { should, min, max } => {
                format!("{should} for {}", range(*min, Some(*max)))
            }
            Self::BatteryLevel(b) => b.name().to_owned(),
            Self::CliffDetected {
                count,
                no_cliffs,
                min,
                max,
            } => {
                let what = if *no_cliffs {
                    "no cliff".to_owned()
                } else {
                    format!("{count} sensor(s)")
                };
                format!("{what} for {}", range(*min, Some(*max)))
            }
            Self::TimerInRange { begin, end, .. } => range(*begin, *end),
            Self::SimpleMood(MoodTest::Is(m)) => m.name().to_owned(),
            Self::SimpleMood(MoodTest::Transition(from, to)) => format!(
                "{} -> {}",
                from.map_or("*", |m| m.name()),
                to.map_or("*", |m| m.name())
            ),
            Self::BehaviorTimer { timer, cooldown } => format!(
                "{} cooled down {}",
                name_at(catalog::BEHAVIOR_TIMERS, *timer),
                secs(*cooldown)
            ),
            Self::TimedDedup { interval, .. } => format!("every {}", secs(*interval)),
            Self::BehaviorSuggested {
                suggestion,
                max_ticks,
            } => format!(
                "{} within {max_ticks} ticks",
                name_at(catalog::POST_BEHAVIOR_SUGGESTIONS, *suggestion)
            ),
            Self::RobotShaken { threshold } => format!("≥ {threshold}"),
            Self::AngleInRange { min, max, .. } => format!("[{min}°, {max}°]"),
            Self::ProxInRange { min, max, invalid } => {
                format!("[{min} mm, {max} mm], nothing sensed: {invalid}")
            }
            Self::RobotPoked { threshold } => format!("within {}", secs(*threshold)),
            Self::RobotTouched { min } => format!("≥ {}", secs(*min)),
            Self::BeatDetected { allow_potential } => {
                if *allow_potential {
                    "potential beats too".to_owned()
                } else {
                    String::new()
                }
            }
            Self::EngineErrorCodeReceived(code) => {
                name_at(catalog::ENGINE_ERROR_CODES, usize::from(*code))
            }
            Self::FaceKnown {
                max_distance_mm,
                max_age,
                must_be_named,
            } => {
                let mut parts = Vec::new();
                if let Some(d) = max_distance_mm {
                    parts.push(format!("≤ {d} mm"));
                }
                if let Some(a) = max_age {
                    parts.push(format!("seen within {}", secs(*a)));
                }
                if *must_be_named {
                    parts.push("named".to_owned());
                }
                parts.join(", ")
            }
            Self::StateTime(d) => format!("≥ {}", secs(*d)),
            Self::HighLevelAi(h) => match h {
                HighLevelAiCondition::CloseFaceForSocializing {
                    cooldown,
                    max_distance_mm,
                } => format!("≤ {max_distance_mm} mm, cooldown {}", secs(*cooldown)),
                HighLevelAiCondition::WantsToLeaveChargerForPlay {
                    charger_cooldown,
                    cube_cooldown,
                    ..
                } => format!(
                    "charger cooldown {}, cube cooldown {}",
                    secs(*charger_cooldown),
                    secs(*cube_cooldown)
                ),
                HighLevelAiCondition::CloseCubeForPlaying { cube_cooldown } => {
                    format!("cube cooldown {}", secs(*cube_cooldown))
                }
                _ => String::new(),
            },
            _ => String::new(),
        }
    }
}

/// A duration for a person: `1.5 s`, `∞`.
fn secs(d: Duration) -> String {
    if d == Duration::MAX {
        "∞".to_owned()
    } else {
        format!("{} s", (d.as_secs_f64() * 1000.0).round() / 1000.0)
    }
}

fn range(min: Duration, max: Option<Duration>) -> String {
    match max {
        Some(m) if m != Duration::MAX => format!("{}..{}", secs(min), secs(m)),
        _ => format!("≥ {}", secs(min)),
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for OriginalCondition<U, E> {
    fn name(&self) -> &str {
        self.type_name()
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.test(cx)
    }
    fn inputs(&self) -> Inputs {
        change::inputs_of(self)
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup {
        change::next_change(self, cx, was_true)
    }
    /// Timers reset, "became true" forgets, object memories clear.
    fn set_active(&self, on: bool, now: Duration) {
        match self {
            Self::TimerInRange {
                manual_reset_only: false,
                reset_at,
                ..
            } => reset_at.set(now),
            Self::BecameTrueThisTick { last, .. } if !on => last.set(-1),
            Self::ObjectKnown { memory, .. } => memory.borrow_mut().clear(),
            _ => {}
        }
    }
    fn reset(&self, now: Duration) {
        match self {
            Self::TimerInRange { reset_at, .. } => reset_at.set(now),
            Self::BecameTrueThisTick { last, .. } => last.set(-1),
            Self::TimedDedup { next_valid, .. } => next_valid.set(Duration::ZERO),
            Self::ObjectKnown {
                memory,
                first_time_only,
                ..
            } => {
                memory.borrow_mut().clear();
                if let Some(d) = first_time_only {
                    d.set(false);
                }
            }
            Self::StuckOnEdge { start, .. } => start.set(None),
            _ => {}
        }
    }
    fn detail(&self) -> String {
        self.detail()
    }
    fn children(&self) -> &[Condition<U, E>] {
        match self {
            Self::BecameTrueThisTick { sub, .. } | Self::TimedDedup { sub, .. } => {
                std::slice::from_ref(&**sub)
            }
            _ => &[],
        }
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}

/// "Has the state's exit cooldown expired": ended before → ended + t ≤ now; never ended →
/// `never`.
fn exit_cooldown(
    m: &MachineTimes<'_>,
    state: Option<usize>,
    t: Duration,
    now: Duration,
    never: Option<Duration>,
) -> bool {
    match state.and_then(|s| m.last_ended.get(s).copied().flatten()) {
        Some(end) => end.saturating_add(t) <= now,
        None => never.is_some_and(|from| from.saturating_add(t) <= now),
    }
}

pub(crate) fn high_level_ai<U: IntentUnion, E: 'static>(
    h: &HighLevelAiCondition,
    cx: &EvalCx<'_, U, E>,
) -> bool {
    let r = cx.robot();
    let now = cx.now();
    let timers = &r.behavior_timers;
    let socializing = BehaviorTimers::index("Socializing");
    let playing = BehaviorTimers::index("PlayingWithCube");
    match h {
        HighLevelAiCondition::CloseFaceForSocializing {
            cooldown,
            max_distance_mm,
        } => {
            socializing.is_some_and(|t| timers.expired(t, *cooldown, now, true))
                && r.faces
                    .iter()
                    .any(|f| f.distance_mm.is_some_and(|d| d < *max_distance_mm))
        }
        HighLevelAiCondition::ChargerLocated => r.objects.iter().any(|o| o.is_charger()),
        HighLevelAiCondition::WantsToLeaveChargerForPlay {
            charger_cooldown,
            cube_cooldown,
            drive_off_state,
        } => {
            let Some(m) = cx.machine() else {
                return false;
            };
            exit_cooldown(&m, *drive_off_state, *charger_cooldown, now, None)
                && playing.is_some_and(|t| timers.expired(t, *cube_cooldown, now, false))
        }
        HighLevelAiCondition::CloseCubeForPlaying { cube_cooldown } => {
            playing.is_some_and(|t| timers.expired(t, *cube_cooldown, now, true))
                && r.objects.iter().any(|o| o.is_light_cube())
        }
        HighLevelAiCondition::ExploringCooldownMet { exploring_state } => {
            let Some(m) = cx.machine() else {
                return false;
            };
            now.saturating_sub(m.last_started) >= Duration::from_secs(10)
                && exit_cooldown(
                    &m,
                    *exploring_state,
                    r.exploring_cooldown(),
                    now,
                    Some(m.first_activation),
                )
        }
    }
}
