//! Kinds over the robot's sensors: `RobotShaken`, `RobotPitchInRange` /
//! `RobotRollInRange`, `ProxInRange` (their readings, changed only by their inputs), and
//! `RobotPoked` / `RobotTouched` (the time since a poke, since a touch started: a window
//! that time closes or opens).

use std::time::Duration;

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::secs;
use super::time::Window;
use crate::access::RobotAccess;
use crate::inputs;

/// `RobotShaken`: accelerometer magnitude ≥ threshold while picked up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RobotShaken {
    /// `minAccelMagnitudeThreshold`.
    pub threshold: f32,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for RobotShaken {
    fn name(&self) -> &str {
        "RobotShaken"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        r.accel_magnitude >= self.threshold && r.picked_up
    }
    fn inputs(&self) -> Inputs {
        inputs::ACCEL | inputs::PICKED_UP
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        format!("≥ {}", self.threshold)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `RobotPitchInRange` (`pitch` true) / `RobotRollInRange`: min ≤ angle ≤ max.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AngleInRange {
    /// Pitch (else roll).
    pub pitch: bool,
    /// Minimum, degrees.
    pub min: f32,
    /// Maximum, degrees.
    pub max: f32,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for AngleInRange {
    fn name(&self) -> &str {
        if self.pitch {
            "RobotPitchInRange"
        } else {
            "RobotRollInRange"
        }
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        let a = if self.pitch { r.pitch_deg } else { r.roll_deg };
        self.min <= a && a <= self.max
    }
    fn inputs(&self) -> Inputs {
        inputs::POSE
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        format!("[{}°, {}°]", self.min, self.max)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `ProxInRange`: the proximity reading is in range (or nothing is sensed and
/// `invalidSensorReturn` says true).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProxInRange {
    /// `minProxDist_mm`.
    pub min: f32,
    /// `maxProxDist_mm`.
    pub max: f32,
    /// `invalidSensorReturn`: the value when nothing is sensed.
    pub invalid: bool,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for ProxInRange {
    fn name(&self) -> &str {
        "ProxInRange"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        match cx.robot().prox_mm {
            None => self.invalid,
            Some(d) => self.min <= d && d <= self.max,
        }
    }
    fn inputs(&self) -> Inputs {
        inputs::PROX
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        format!(
            "[{} mm, {} mm], nothing sensed: {}",
            self.min, self.max, self.invalid
        )
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `RobotPoked`: time since the last poke ≤ threshold (false until once true: a window
/// that closes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RobotPoked {
    /// `wasPokedRecentlyTimeThreshold_sec`.
    pub threshold: Duration,
}

impl RobotPoked {
    fn window(&self) -> Window {
        Window {
            min: Duration::ZERO,
            max: self.threshold,
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for RobotPoked {
    fn name(&self) -> &str {
        "RobotPoked"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.window().holds(cx.robot().since_poked())
    }
    fn inputs(&self) -> Inputs {
        inputs::POKE
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        self.window()
            .next_change(cx.robot().since_poked(), cx.now())
    }
    fn detail(&self) -> String {
        format!("within {}", secs(self.threshold))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `RobotTouched`: touched for at least `minTouchTime` (a window that opens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RobotTouched {
    /// `minTouchTime`.
    pub min: Duration,
}

impl RobotTouched {
    fn window(&self) -> Window {
        Window {
            min: self.min,
            max: Duration::MAX,
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for RobotTouched {
    fn name(&self) -> &str {
        "RobotTouched"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.window().holds(cx.robot().touched_for())
    }
    fn inputs(&self) -> Inputs {
        inputs::TOUCH
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        self.window()
            .next_change(cx.robot().touched_for(), cx.now())
    }
    fn detail(&self) -> String {
        format!("≥ {}", secs(self.min))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}
