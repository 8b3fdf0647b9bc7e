//! `StayOnChargerUntilCharged` ([`StayOnCharger`]).

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ClassPredicate, Continuation, Ctx, Inputs, IntentUnion, View,
    Wakeup, Watch,
};
use serde_json::Value;

use super::{active_since, data, pred, window_end, within};
use crate::access::RobotAccess;
use crate::classes::native::{Base, Native, NativeClass};
use crate::inputs;
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::robot_state::{BatteryLevel, RobotState};
use crate::specs::Mods;

/// The longest stay on the charger.
const STAY_MAX: Duration = Duration::from_secs(30 * 60);
/// The cooldown after a stay hit [`STAY_MAX`].
const STAY_COOLDOWN: Duration = Duration::from_secs(20 * 60);
/// How long after the battery dropped from Full it does not start.
const LEFT_FULL: Duration = Duration::from_secs(4);

/// `StayOnChargerUntilCharged` (OCP §2.4): wants to run on the charger platform with the
/// battery not Full, for at most 30 minutes on the platform, not within 20 minutes of a
/// stay it cut at 30 minutes, not within 4 s of the battery dropping from Full, and with no
/// intent pending or active; delegates `delegate`, and ends itself on an intent, a Full
/// battery or after 30 minutes (starting the cooldown), or when its delegate ends.
pub struct StayOnCharger {
    delegate: Option<BehaviorId>,
    /// When the last stay was cut at 30 minutes.
    cooldown_from: Option<Duration>,
}

impl StayOnCharger {
    fn robot_allows(&self, robot: &RobotState) -> bool {
        let now = robot.now();
        robot.on_charger_platform
            && robot.battery_level != BatteryLevel::Full
            && !within(self.cooldown_from, STAY_COOLDOWN, now)
            && within(robot.signals.on_platform_since, STAY_MAX, now)
            && !within(robot.signals.battery_left_full, LEFT_FULL, now)
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for StayOnCharger {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        self.robot_allows(view.robot()) && !view.intents().is_any_pending_or_active()
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let robot = view.robot();
        let now = robot.now();
        let until = window_end(self.cooldown_from, STAY_COOLDOWN, now)
            .min(window_end(robot.signals.on_platform_since, STAY_MAX, now))
            .min(window_end(robot.signals.battery_left_full, LEFT_FULL, now));
        Some(
            Watch::reads(
                inputs::ON_CHARGER_PLATFORM
                    .with(inputs::BATTERY)
                    .with(Inputs::INTENTS),
            )
            .until(until),
        )
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match active_since(view) {
            Some(_) => window_end(
                view.robot().signals.on_platform_since,
                STAY_MAX,
                view.robot().now(),
            ),
            None => Wakeup::Never,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(d) = self.delegate {
            if ctx.wants_to_activate(d) {
                let _ = ctx.delegate_if_in_control(d, Continuation::None);
            }
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let robot = ctx.robot();
        let now = robot.now();
        let too_long = robot
            .signals
            .on_platform_since
            .is_some_and(|t| now.saturating_sub(t) > STAY_MAX);
        if too_long {
            self.cooldown_from = Some(now);
        }
        if too_long
            || robot.battery_level == BatteryLevel::Full
            || ctx.intents().is_any_pending_or_active()
        {
            let _ = ctx.cancel_self();
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred(
            "on the charger platform, battery not Full, on it at most 30 min, not within 20 min of a stay cut at 30 min nor 4 s of the battery leaving Full, and no user intent pending or active",
            &[
                reads::ON_PLATFORM.name,
                reads::BATTERY.name,
                reads::INTENTS.name,
            ],
        ))
    }
}

pub(crate) fn build_stay_on_charger<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("StayOnChargerUntilCharged"));
    let delegate = keys
        .get("delegate")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate(n, "delegate"));
    Some(Box::new(Native::<U::Tag, _>::new(
        Base::new(Mods::BASE).delegates(delegate),
        StayOnCharger {
            delegate,
            cooldown_from: None,
        },
    )))
}
