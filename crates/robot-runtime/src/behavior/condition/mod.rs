//! [`Condition`]: the original engine's conditions (`BEIConditionType`, spec §5) over what
//! the runner knows — the intent component, the [`RobotState`], the clock, a state
//! machine's times — plus user conditions and opaque stand-ins. Used by
//! `wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`, state-machine transitions
//! and the classes that own conditions. `parse` reads them from JSON.
//!
//! Evaluation takes an [`EvalCx`] of shared references: a condition cannot delegate, claim
//! or change the robot. Stateful conditions (`TimerInRange`, `BecameTrueThisTick`,
//! `TimedDedup`, `ObjectKnown` with `maxAge_ms: 0`, `StuckOnEdge`, ...) keep their state in
//! cells, as the original kept it in the condition object; [`Condition::set_active`] is the
//! original's `SetActive` (switched on and off by the runner for the activation windows of
//! spec §0). `Compound` evaluates every leaf on every evaluation, in definition order, before
//! applying its logic (no short-circuit), as the original does.
//!
//! Each condition node remembers its last value and the tick it was computed on
//! ([`Condition::last`]), so tools can show why a behavior does not run without evaluating
//! (and so advancing) anything.
//!
//! This module knows nothing of behaviors or the runner: the runner builds the [`EvalCx`].

mod change;
pub mod parse;

use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::behavior::clock::VirtualClock;
use crate::behavior::robot_state::{
    BatteryLevel, Emotion, Habitat, OffTreads, RobotState, SimpleMood,
};
use crate::behavior::wakeup::Inputs;
use crate::intent::{IntentComponent, IntentMatcher, IntentUnion};

/// A user-registered condition: a pure function of what conditions see.
pub type ConditionFn<U, E> = Arc<dyn Fn(&EvalCx<'_, U, E>) -> bool + Send + Sync>;

/// A state machine's times, for the conditions it evaluates (`stateTimerConditions`,
/// HighLevelAI's custom conditions).
#[derive(Clone, Copy, Debug)]
pub struct MachineTimes<'a> {
    /// The current state's adjusted start (state time = now − this).
    pub adjusted_start: Duration,
    /// When the current state was last entered.
    pub last_started: Duration,
    /// Per state, when it last ended (None: never).
    pub last_ended: &'a [Option<Duration>],
    /// The machine's first activation ever.
    pub first_activation: Duration,
    /// This activation's start.
    pub this_activation: Duration,
}

/// What a condition sees when it is evaluated (see the [module documentation](self)).
pub struct EvalCx<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) intents: &'a IntentComponent<U>,
    pub(crate) robot: &'a RobotState,
    pub(crate) clock: VirtualClock,
    pub(crate) active_since: Option<Duration>,
    pub(crate) machine: Option<MachineTimes<'a>>,
    pub(crate) events: &'a [E],
}

impl<'a, U: IntentUnion, E: 'static> EvalCx<'a, U, E> {
    /// What a condition sees: `intents`, `robot`, `clock` and the tick's user `events`, for
    /// a behavior not active and outside a state machine.
    pub fn new(
        intents: &'a IntentComponent<U>,
        robot: &'a RobotState,
        clock: VirtualClock,
        events: &'a [E],
    ) -> Self {
        Self {
            intents,
            robot,
            clock,
            active_since: None,
            machine: None,
            events,
        }
    }
    /// The intent component.
    pub fn intents(&self) -> &'a IntentComponent<U> {
        self.intents
    }
    /// The robot.
    pub fn robot(&self) -> &'a RobotState {
        self.robot
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.clock
    }
    /// This tick's user events.
    pub fn events(&self) -> &'a [E] {
        self.events
    }
    /// How long the behavior the condition is evaluated for has been active (None while it
    /// is not).
    pub fn active_for(&self) -> Option<Duration> {
        self.active_since
            .map(|t| self.clock.now().saturating_sub(t))
    }
    /// The state machine's times, when a state machine evaluates the condition.
    pub fn machine(&self) -> Option<MachineTimes<'a>> {
        self.machine
    }
    pub(crate) fn now(&self) -> Duration {
        self.clock.now()
    }
}

/// `Compound`'s node type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// All children hold (and there is at least one).
    And,
    /// Some child holds.
    Or,
    /// The single child does not hold.
    Not,
}

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

/// What a condition tests (see [`Condition`]).
#[non_exhaustive]
pub enum Kind<U: IntentUnion, E: 'static> {
    /// `TrueCondition`.
    True,
    /// `Compound`: `and` / `or` / `not` over children (leaves or nested nodes).
    Compound {
        /// The node type.
        op: Op,
        /// The children, in definition order.
        children: Box<[Condition<U, E>]>,
    },
    /// `UserIntentPending` (key `list`), and the implicit condition of
    /// `respondToUserIntents`.
    UserIntentPending(Arc<[IntentMatcher<U>]>),
    /// `UserIntentActive` (key `list`).
    UserIntentActive(Arc<[IntentMatcher<U>]>),
    /// `AnyUserIntent`: an intent is pending or active.
    AnyUserIntent,
    /// `TriggerWordPending`.
    TriggerWordPending,
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
        /// `objectTypes` as a bit mask of [`catalog::OBJECT_TYPES`](crate::behavior::catalog::OBJECT_TYPES) indices.
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
    /// A user-registered condition.
    User {
        /// Its registered type or custom-condition name.
        name: Box<str>,
        /// The predicate.
        test: ConditionFn<U, E>,
    },
    /// A condition type or custom condition not run natively, loaded as a stand-in with a
    /// fixed value set by the user (`LoadOptions::stand_ins`).
    Opaque {
        /// The `conditionType` or `customCondition`.
        name: Box<str>,
        /// Its JSON, kept for inspection.
        raw: serde_json::Value,
        /// The value it always has.
        value: bool,
    },
}

impl<U: IntentUnion, E: 'static> Clone for Kind<U, E> {
    fn clone(&self) -> Self {
        match self {
            Self::True => Self::True,
            Self::Compound { op, children } => Self::Compound {
                op: *op,
                children: children.clone(),
            },
            Self::UserIntentPending(l) => Self::UserIntentPending(l.clone()),
            Self::UserIntentActive(l) => Self::UserIntentActive(l.clone()),
            Self::AnyUserIntent => Self::AnyUserIntent,
            Self::TriggerWordPending => Self::TriggerWordPending,
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
            Self::User { name, test } => Self::User {
                name: name.clone(),
                test: test.clone(),
            },
            Self::Opaque { name, raw, value } => Self::Opaque {
                name: name.clone(),
                raw: raw.clone(),
                value: *value,
            },
        }
    }
}

/// A condition: what it tests and the last value it had (see the
/// [module documentation](self)).
pub struct Condition<U: IntentUnion, E: 'static = ()> {
    kind: Kind<U, E>,
    last: Cell<Option<(u64, bool)>>,
    /// What it reads (its sub-conditions included), see [`Condition::inputs`].
    inputs: Inputs,
}

impl<U: IntentUnion, E: 'static> Clone for Condition<U, E> {
    /// A copy with its own state (as the original built one object per use).
    fn clone(&self) -> Self {
        let c = Self::new(self.kind.clone());
        c.reset_state(Duration::ZERO);
        c
    }
}

impl<U: IntentUnion, E: 'static> From<Kind<U, E>> for Condition<U, E> {
    fn from(kind: Kind<U, E>) -> Self {
        Self::new(kind)
    }
}

impl<U: IntentUnion, E: 'static> Condition<U, E> {
    /// A condition of `kind`.
    pub fn new(kind: Kind<U, E>) -> Self {
        let inputs = change::inputs_of(&kind);
        Self {
            kind,
            last: Cell::new(None),
            inputs,
        }
    }
    /// `TrueCondition`.
    pub fn always() -> Self {
        Self::new(Kind::True)
    }
    /// `Compound not TrueCondition`: never true.
    pub fn never() -> Self {
        Self::negate(Self::always())
    }
    /// `Compound not`.
    pub fn negate(c: Self) -> Self {
        Self::new(Kind::Compound {
            op: Op::Not,
            children: vec![c].into(),
        })
    }
    /// `Compound and`.
    pub fn all(children: impl IntoIterator<Item = Self>) -> Self {
        Self::new(Kind::Compound {
            op: Op::And,
            children: children.into_iter().collect(),
        })
    }
    /// `Compound or`.
    pub fn any(children: impl IntoIterator<Item = Self>) -> Self {
        Self::new(Kind::Compound {
            op: Op::Or,
            children: children.into_iter().collect(),
        })
    }
    /// `UserIntentPending` over `matchers`.
    pub fn intent_pending(matchers: impl IntoIterator<Item = IntentMatcher<U>>) -> Self {
        Self::new(Kind::UserIntentPending(matchers.into_iter().collect()))
    }
    /// `TriggerWordPending`.
    pub fn trigger_word_pending() -> Self {
        Self::new(Kind::TriggerWordPending)
    }
    /// A user condition.
    pub fn user(
        name: &str,
        test: impl Fn(&EvalCx<'_, U, E>) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self::new(Kind::User {
            name: name.into(),
            test: Arc::new(test),
        })
    }

    /// What it tests.
    pub fn kind(&self) -> &Kind<U, E> {
        &self.kind
    }

    /// The value of its last evaluation and the tick it was made on (None: never
    /// evaluated). A value the runner reuses because nothing it reads changed (see
    /// [`wakeup`](crate::behavior::wakeup)) keeps the tick it was computed on.
    pub fn last(&self) -> Option<(u64, bool)> {
        self.last.get()
    }

    /// The original's type name (`TrueCondition`, `Compound`, `OffTreadsState`, ...), the
    /// custom condition's name, or the user type's.
    pub fn type_name(&self) -> &str {
        match &self.kind {
            Kind::True => "TrueCondition",
            Kind::Compound { .. } => "Compound",
            Kind::UserIntentPending(_) => "UserIntentPending",
            Kind::UserIntentActive(_) => "UserIntentActive",
            Kind::AnyUserIntent => "AnyUserIntent",
            Kind::TriggerWordPending => "TriggerWordPending",
            Kind::Flag(f) => f.name(),
            Kind::OffTreadsState { .. } => "OffTreadsState",
            Kind::FeatureGate { .. } => "FeatureGate",
            Kind::ObjectKnown {
                first_time_only: Some(_),
                ..
            } => "ObjectInitialDetection",
            Kind::ObjectKnown { .. } => "ObjectKnown",
            Kind::Emotion { .. } => "Emotion",
            Kind::RobotHeldInPalm { .. } => "RobotHeldInPalm",
            Kind::BatteryLevel(_) => "BatteryLevel",
            Kind::BeingHeld { .. } => "BeingHeld",
            Kind::CliffDetected { .. } => "CliffDetected",
            Kind::TimerInRange { .. } => "TimerInRange",
            Kind::SimpleMood(_) => "SimpleMood",
            Kind::BehaviorTimer { .. } => "BehaviorTimer",
            Kind::BecameTrueThisTick { .. } => "BecameTrueThisTick",
            Kind::TimedDedup { .. } => "TimedDedup",
            Kind::BehaviorSuggested { .. } => "BehaviorSuggested",
            Kind::StuckOnEdge { .. } => "StuckOnEdge",
            Kind::RobotShaken { .. } => "RobotShaken",
            Kind::AngleInRange { pitch: true, .. } => "RobotPitchInRange",
            Kind::AngleInRange { .. } => "RobotRollInRange",
            Kind::ProxInRange { .. } => "ProxInRange",
            Kind::RobotPoked { .. } => "RobotPoked",
            Kind::RobotTouched { .. } => "RobotTouched",
            Kind::BeatDetected { .. } => "BeatDetected",
            Kind::EngineErrorCodeReceived(_) => "EngineErrorCodeReceived",
            Kind::FaceKnown { .. } => "FaceKnown",
            Kind::StateTime(_) => "StateTimer",
            Kind::HighLevelAi(h) => match h {
                HighLevelAiCondition::CloseFaceForSocializing { .. } => "CloseFaceForSocializing",
                HighLevelAiCondition::ChargerLocated => "ChargerLocated",
                HighLevelAiCondition::WantsToLeaveChargerForPlay { .. } => {
                    "WantsToLeaveChargerForPlay"
                }
                HighLevelAiCondition::CloseCubeForPlaying { .. } => "CloseCubeForPlaying",
                HighLevelAiCondition::ExploringCooldownMet { .. } => "ExploringCooldownMet",
            },
            Kind::User { name, .. } | Kind::Opaque { name, .. } => name,
        }
    }

    /// Its direct sub-conditions (`Compound` children, `subCondition`).
    pub fn children(&self) -> &[Condition<U, E>] {
        match &self.kind {
            Kind::Compound { children, .. } => children,
            Kind::BecameTrueThisTick { sub, .. } | Kind::TimedDedup { sub, .. } => {
                std::slice::from_ref(&**sub)
            }
            _ => &[],
        }
    }

    /// Evaluates the condition (and records the value, see [`last`](Self::last)).
    pub fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let v = self.test(cx);
        self.last.set(Some((cx.clock.tick(), v)));
        v
    }

    fn test(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot;
        let now = cx.now();
        let within = |since: Duration, min: Duration, max: Duration| {
            let d = now.saturating_sub(since);
            min <= d && d <= max
        };
        match &self.kind {
            Kind::True => true,
            Kind::Compound { op, children } => {
                // Every child first (stateful leaves always advance), then the logic.
                let mut all = !children.is_empty();
                let mut any = false;
                for c in children.iter() {
                    let v = c.eval(cx);
                    all &= v;
                    any |= v;
                }
                match op {
                    Op::And => all,
                    Op::Or => any,
                    Op::Not => !any,
                }
            }
            Kind::UserIntentPending(list) => cx
                .intents
                .pending()
                .is_some_and(|p| list.iter().any(|m| m.matches(p.intent()))),
            Kind::UserIntentActive(list) => cx
                .intents
                .active()
                .is_some_and(|a| list.iter().any(|m| m.matches(a.intent()))),
            Kind::AnyUserIntent => cx.intents.is_any_pending_or_active(),
            Kind::TriggerWordPending => cx.intents.is_trigger_word_pending(),
            Kind::Flag(f) => f.read(r),
            Kind::OffTreadsState { target, min, max } => {
                let (s, changed) = r.off_treads();
                let d = now.saturating_sub(changed);
                s == *target && *min <= d && max.is_none_or(|m| d <= m)
            }
            Kind::FeatureGate { feature, expected } => r.feature_enabled(feature) == *expected,
            Kind::ObjectKnown {
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
            Kind::Emotion { emotion, min, max } => {
                let v = r.emotion(*emotion);
                *min <= v && v <= *max
            }
            Kind::RobotHeldInPalm { should, min, max } => {
                if r.held_in_palm() != *should {
                    return false;
                }
                let (in_palm, since) = r.palm_durations();
                let d = if *should { in_palm } else { since };
                *min <= d && d <= *max
            }
            Kind::BatteryLevel(l) => r.battery_level == *l,
            Kind::BeingHeld { should, min, max } => {
                let (held, changed) = r.being_held();
                held == *should && within(changed, *min, *max)
            }
            Kind::CliffDetected {
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
            Kind::TimerInRange {
                begin,
                end,
                reset_at,
                ..
            } => {
                let d = now.saturating_sub(reset_at.get());
                *begin <= d && end.is_none_or(|e| d < e)
            }
            Kind::SimpleMood(t) => match t {
                MoodTest::Is(m) => r.simple_mood() == *m,
                MoodTest::Transition(from, to) => match r.mood_transition_this_tick() {
                    Some((a, b)) => from.is_none_or(|f| f == a) && to.is_none_or(|t| t == b),
                    None => false,
                },
            },
            Kind::BehaviorTimer { timer, cooldown } => {
                r.behavior_timers.expired(*timer, *cooldown, now, true)
            }
            Kind::BecameTrueThisTick { sub, last } => {
                let v = sub.eval(cx);
                let prev = last.replace(i8::from(v));
                prev == 0 && v
            }
            Kind::TimedDedup {
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
            Kind::BehaviorSuggested {
                suggestion,
                max_ticks,
            } => r
                .whiteboard
                .offered_at(*suggestion)
                .is_some_and(|t| t.saturating_add(*max_ticks) >= cx.clock.tick()),
            Kind::StuckOnEdge {
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
            Kind::RobotShaken { threshold } => r.accel_magnitude >= *threshold && r.picked_up,
            Kind::AngleInRange { pitch, min, max } => {
                let a = if *pitch { r.pitch_deg } else { r.roll_deg };
                *min <= a && a <= *max
            }
            Kind::ProxInRange { min, max, invalid } => match r.prox_mm {
                None => *invalid,
                Some(d) => *min <= d && d <= *max,
            },
            Kind::RobotPoked { threshold } => r.since_poked().is_some_and(|d| d <= *threshold),
            Kind::RobotTouched { min } => r.touched_for().is_some_and(|d| d >= *min),
            Kind::BeatDetected { allow_potential } => {
                r.beat_detected || (*allow_potential && r.potential_beat_detected)
            }
            Kind::EngineErrorCodeReceived(code) => r.engine_error() == Some(*code),
            Kind::FaceKnown {
                max_distance_mm,
                max_age,
                must_be_named,
            } => r.faces.iter().any(|f| {
                (!*must_be_named || f.named)
                    && max_distance_mm.is_none_or(|m| f.distance_mm.is_some_and(|d| d <= m))
                    && max_age.is_none_or(|a| now.saturating_sub(f.last_seen) <= a)
            }),
            Kind::StateTime(begin) => cx
                .machine
                .is_some_and(|m| now.saturating_sub(m.adjusted_start) >= *begin),
            Kind::HighLevelAi(h) => high_level_ai(h, cx),
            Kind::User { test, .. } => test(cx),
            Kind::Opaque { value, .. } => *value,
        }
    }

    /// The original's `SetActive`: switches the condition (and its sub-conditions) on or
    /// off at `now`. Timers reset, "became true" forgets, object memories clear.
    pub fn set_active(&self, on: bool, now: Duration) {
        match &self.kind {
            Kind::TimerInRange {
                manual_reset_only: false,
                reset_at,
                ..
            } => reset_at.set(now),
            Kind::BecameTrueThisTick { last, .. } if !on => last.set(-1),
            Kind::ObjectKnown { memory, .. } => memory.borrow_mut().clear(),
            _ => {}
        }
        for c in self.children() {
            c.set_active(on, now);
        }
    }

    fn reset_state(&self, now: Duration) {
        match &self.kind {
            Kind::TimerInRange { reset_at, .. } => reset_at.set(now),
            Kind::BecameTrueThisTick { last, .. } => last.set(-1),
            Kind::TimedDedup { next_valid, .. } => next_valid.set(Duration::ZERO),
            Kind::ObjectKnown {
                memory,
                first_time_only,
                ..
            } => {
                memory.borrow_mut().clear();
                if let Some(d) = first_time_only {
                    d.set(false);
                }
            }
            Kind::StuckOnEdge { start, .. } => start.set(None),
            _ => {}
        }
        self.last.set(None);
        for c in self.children() {
            c.reset_state(now);
        }
    }

    /// Tags this condition can claim: the matchers of `UserIntentPending` conditions that
    /// are not under a `not` (used by coverage).
    pub fn pending_tags(&self, out: &mut Vec<U::Tag>) {
        match &self.kind {
            Kind::UserIntentPending(list) => out.extend(list.iter().map(IntentMatcher::target_tag)),
            Kind::Compound { op: Op::Not, .. } => {}
            Kind::Compound { children, .. } => children.iter().for_each(|c| c.pending_tags(out)),
            _ => {}
        }
    }

    /// True when the condition is, or contains, an opaque stand-in.
    pub fn has_opaque(&self) -> bool {
        matches!(self.kind, Kind::Opaque { .. }) || self.children().iter().any(Self::has_opaque)
    }

    /// Calls `f` on this condition and every sub-condition, depth first.
    pub fn visit(&self, f: &mut dyn FnMut(&Condition<U, E>)) {
        f(self);
        for c in self.children() {
            c.visit(f);
        }
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

fn high_level_ai<U: IntentUnion, E: 'static>(
    h: &HighLevelAiCondition,
    cx: &EvalCx<'_, U, E>,
) -> bool {
    let r = cx.robot;
    let now = cx.now();
    let timers = &r.behavior_timers;
    let socializing = crate::behavior::robot_state::BehaviorTimers::index("Socializing");
    let playing = crate::behavior::robot_state::BehaviorTimers::index("PlayingWithCube");
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
            let Some(m) = cx.machine else {
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
            let Some(m) = cx.machine else {
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

impl<U: IntentUnion, E: 'static> fmt::Debug for Condition<U, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let children = self.children();
        if children.is_empty() {
            f.write_str(self.type_name())
        } else {
            let mut t = f.debug_tuple(self.type_name());
            if let Kind::Compound { op, .. } = &self.kind {
                t.field(op);
            }
            for c in children {
                t.field(c);
            }
            t.finish()
        }
    }
}
