//! Kinds that read a robot-state value as it is: the flags ([`Flag`], one line of a table
//! each: its name, its input, its reading), `FeatureGate`, `BatteryLevel`,
//! `EngineErrorCodeReceived` and `BeatDetected`. Only their inputs change their value.

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::name_at;
use crate::access::RobotAccess;
use crate::catalog;
use crate::inputs;
use crate::robot_state::{BatteryLevel, Habitat, RobotState};

/// Declares [`Flag`] from a table: per flag its doc, the input it reads and how it reads
/// the robot state, so the three never disagree.
macro_rules! flags {
    ($($(#[$doc:meta])* $flag:ident: $input:ident, |$r:ident| $read:expr;)*) => {
        /// A flag of the robot state, read as it is (a condition type of its own name).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Flag {
            $($(#[$doc])* $flag,)*
        }

        impl Flag {
            /// Every flag, in declaration order.
            pub const ALL: &'static [Flag] = &[$(Self::$flag),*];

            /// The condition type's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$flag => stringify!($flag),)*
                }
            }
            fn input(self) -> Inputs {
                match self {
                    $(Self::$flag => inputs::$input,)*
                }
            }
            fn read(self, r: &RobotState) -> bool {
                match self {
                    $(Self::$flag => {
                        let $r = r;
                        $read
                    })*
                }
            }
        }
    };
}

flags! {
    /// `OnCharger`.
    OnCharger: ON_CHARGER, |r| r.on_charger;
    /// `OnChargerPlatform`.
    OnChargerPlatform: ON_CHARGER_PLATFORM, |r| r.on_charger_platform;
    /// `HighTemperature` (CPU ≥ 90 °C or battery ≥ 55 °C).
    HighTemperature: TEMPERATURES, |r| r.cpu_temp_c >= 90.0 || r.battery_temp_c >= 55.0;
    /// `RobotInHabitat`.
    RobotInHabitat: HABITAT, |r| r.habitat == Habitat::InHabitat;
    /// `UserIsHoldingCube`.
    UserIsHoldingCube: USER_HOLDING_CUBE, |r| r.user_holding_cube;
    /// `TooHotToCharge`.
    TooHotToCharge: TOO_HOT, |r| r.too_hot_to_charge;
    /// `RobotPickedUp`.
    RobotPickedUp: PICKED_UP, |r| r.picked_up;
    /// `CarryingCube`.
    CarryingCube: CARRYING, |r| r.carrying_object;
    /// `UnexpectedMovement`.
    UnexpectedMovement: UNEXPECTED_MOVEMENT, |r| r.unexpected_movement;
    /// `EyeContact`.
    EyeContact: EYE_CONTACT, |r| r.eye_contact;
    /// `ConnectedToCube`.
    ConnectedToCube: CUBE_CONNECTED, |r| r.cube_connected;
    /// `IsNightTime`.
    IsNightTime: NIGHT_TIME, |r| r.night_time;
    /// `IsMaintenanceReboot`.
    IsMaintenanceReboot: MAINTENANCE_REBOOT, |r| r.maintenance_reboot;
    /// `AlexaInteractionActive`.
    AlexaInteractionActive: ALEXA, |r| r.alexa_active;
    /// `RobotPlacedOnSlope`.
    RobotPlacedOnSlope: SLOPE, |r| r.placed_on_slope;
    /// `ObstacleDetected`.
    ObstacleDetected: OBSTACLE, |r| r.obstacle_detected;
    /// `SalientPointDetected`.
    SalientPointDetected: SALIENT_POINT, |r| r.salient_point_detected;
    /// `MotionDetected` (its area and level keys are not modelled: any motion counts).
    MotionDetected: MOTION, |r| r.motion_detected;
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for Flag {
    fn name(&self) -> &str {
        Flag::name(*self)
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.read(cx.robot())
    }
    fn inputs(&self) -> Inputs {
        self.input()
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `FeatureGate`: the feature is enabled (or, with `expected: false`, disabled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureGate {
    /// `feature`.
    pub feature: Box<str>,
    /// `expected` (default true).
    pub expected: bool,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for FeatureGate {
    fn name(&self) -> &str {
        "FeatureGate"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        cx.robot().feature_enabled(&self.feature) == self.expected
    }
    fn inputs(&self) -> Inputs {
        inputs::FEATURES
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        format!("{} = {}", self.feature, self.expected)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}

/// `BatteryLevel`: the battery is at this level.
#[derive(Clone, Copy, Debug)]
pub(super) struct BatteryIs(pub(super) BatteryLevel);

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for BatteryIs {
    fn name(&self) -> &str {
        "BatteryLevel"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        cx.robot().battery_level == self.0
    }
    fn inputs(&self) -> Inputs {
        inputs::BATTERY
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        self.0.name().to_owned()
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `EngineErrorCodeReceived`: the last error-code message had this code (an index into
/// [`catalog::ENGINE_ERROR_CODES`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct EngineErrorIs(pub(super) u8);

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for EngineErrorIs {
    fn name(&self) -> &str {
        "EngineErrorCodeReceived"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        cx.robot().engine_error() == Some(self.0)
    }
    fn inputs(&self) -> Inputs {
        inputs::ENGINE_ERROR
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        name_at(catalog::ENGINE_ERROR_CODES, usize::from(self.0))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `BeatDetected`: a beat, or with `allowPotentialBeat` a possible one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeatDetected {
    /// `allowPotentialBeat`.
    pub allow_potential: bool,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for BeatDetected {
    fn name(&self) -> &str {
        "BeatDetected"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        r.beat_detected || (self.allow_potential && r.potential_beat_detected)
    }
    fn inputs(&self) -> Inputs {
        inputs::BEAT
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        if self.allow_potential {
            "potential beats too".to_owned()
        } else {
            String::new()
        }
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}
