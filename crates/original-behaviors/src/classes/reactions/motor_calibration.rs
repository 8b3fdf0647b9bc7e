//! `ReactToMotorCalibration` (see the [family's documentation](super)).

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BuildCx, ClassPredicate, Ctx, IntentUnion, View, Wakeup, Watch,
};
use serde_json::Map;

use super::{bits, data, predicate};
use crate::access::RobotAccess;
use crate::classes::native::{Base, Native, NativeClass};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::predicate::{pred_cx, PredCx, Read};
use crate::robot_state::RobotState;

const CALIBRATION_TIMEOUT: Duration = Duration::from_secs(5);
const CALIBRATION_READS: &[Read] = &[reads::CALIBRATION];

/// `ReactToMotorCalibration` (see the [family's documentation](super)).
pub struct ReactToMotorCalibration {
    deadline: Option<Duration>,
}

impl ReactToMotorCalibration {
    fn wants(cx: &PredCx<'_>) -> bool {
        let s = &cx.robot.signals;
        [s.head, s.lift]
            .iter()
            .any(|m| m.running_since().is_some_and(|t| cx.heard(Some(t))))
    }

    fn done(&self, r: &RobotState, now: Duration) -> bool {
        (r.signals.head.calibrated && r.signals.lift.calibrated)
            || self.deadline.is_some_and(|d| now >= d)
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ReactToMotorCalibration {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let keys = Map::new();
        Self::wants(&pred_cx(view, &keys))
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(bits(CALIBRATION_READS)))
    }
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        self.deadline.map_or(Wakeup::Never, Wakeup::At)
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(predicate(
            "an auto-started head or lift calibration heard in scope, not stopped since",
            CALIBRATION_READS,
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        self.deadline = Some(now.saturating_add(CALIBRATION_TIMEOUT));
        // The pending-intent timeout is off while it runs (scoped: back on deactivation).
        ctx.hold_timeout();
        if self.done(ctx.robot(), now) {
            let _ = ctx.cancel_self();
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if self.done(ctx.robot(), ctx.clock().now()) {
            let _ = ctx.cancel_self();
        }
    }
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.deadline = None;
    }
}

pub(crate) fn build_react_to_motor_calibration<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("ReactToMotorCalibration")?;
    let _ = read_class_keys(cx, data);
    Some(Box::new(Native::<U::Tag, _>::new(
        Base::new(data.mods.always_delegates(false)),
        ReactToMotorCalibration { deadline: None },
    )))
}
