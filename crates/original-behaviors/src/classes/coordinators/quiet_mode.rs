//! `QuietModeCoordinator` ([`QuietMode`]).

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ClassPredicate, Continuation, Ctx, Inputs, IntentUnion, View,
    Wakeup, Watch,
};
use serde_json::Value;

use super::{active_since, data, pred, secs};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::classes::native::{Base, Native, NativeClass, EVERYWHERE};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::robot_state::Whiteboard;

/// One entry of `behaviors`.
#[derive(Clone, Copy, Debug)]
struct QuietEntry {
    behavior: BehaviorId,
    audio_allowed: bool,
}

/// `QuietModeCoordinator` (OCP §2.4): wants to run while TriggerWordDetected is not active
/// (its instances claim `imperative_quiet` / `imperative_shutup` through their JSON). Once
/// active it puts a carried cube down, runs the first entry of `behaviors` that wants to
/// (an earlier entry interrupts a later one; an active entry stops the scan), suppresses
/// TriggerWordDetected while the user timer rings, asks for power save after
/// `timeToPowerSave_s`, and ends itself on any pending intent but `unmatched_intent`, after
/// `activeTime_s`, or when shaken (accelerometer above 16000). It always delegates: with
/// nothing to run it ends.
pub struct QuietMode<T> {
    entries: Vec<QuietEntry>,
    trigger_word: Option<BehaviorId>,
    active_time: Duration,
    power_save_after: Duration,
    unmatched: Option<T>,
    /// It turned power save on (and turns it off on deactivation).
    set_power_save: bool,
    /// The audio of the running entry is allowed.
    audio: bool,
}

/// The shake that ends quiet mode.
const SHAKE_ACCEL: f32 = 16000.0;

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for QuietMode<U::Tag> {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        !self
            .trigger_word
            .is_some_and(|t| view.stack().any(|s| s == t))
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(Inputs::STACK))
    }
    /// Active: its scan may choose differently when an entry's activation watch ends (as
    /// a dispatcher's), and it acts when its active time ends, when power save is due and
    /// when the user timer rings.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        let Some(since) = active_since(view) else {
            return Wakeup::Never;
        };
        let robot = view.robot();
        let mut w = Wakeup::At(since + self.active_time);
        if !robot.signals.power_save {
            w = w.min(Wakeup::At(since + self.power_save_after));
        }
        if let Some(t) = robot.signals.timer {
            if t.rings_at > robot.now() {
                w = w.min(Wakeup::At(t.rings_at));
            }
        }
        for e in &self.entries {
            if view.stack().any(|s| s == e.behavior) {
                break;
            }
            w = w.min(view.activation_watch(e.behavior).until);
        }
        w
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.set_power_save = false;
        // Puts a carried cube down.
        ctx.robot_mut().carrying_object = false;
        self.scan(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let view = ctx.view();
        let active_for = view.active_for().unwrap_or_default();
        let other_intent = view
            .intents()
            .pending_tag()
            .is_some_and(|t| Some(t) != self.unmatched);
        let robot = view.robot();
        let shaken = robot.accel_magnitude > SHAKE_ACCEL;
        let ringing = robot
            .signals
            .timer
            .is_some_and(|t| t.rings_at <= robot.now());
        let power_save_due = active_for >= self.power_save_after && !robot.signals.power_save;
        if other_intent || shaken || active_for >= self.active_time {
            let _ = ctx.cancel_self();
            return;
        }
        if ringing {
            if let Some(t) = self.trigger_word {
                ctx.suppress_this_tick(t);
            }
        }
        if power_save_due {
            ctx.robot_mut().signals.power_save = true;
            self.set_power_save = true;
        }
        self.scan(ctx);
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let tick = ctx.clock().tick();
        let robot = ctx.robot_mut();
        if self.set_power_save {
            robot.signals.power_save = false;
        }
        if let Some(i) = Whiteboard::index("Nothing") {
            robot.whiteboard.offer(i, tick);
        }
        self.set_power_save = false;
    }
    fn debug_state(&self) -> Option<&str> {
        Some(if self.audio {
            "audio allowed"
        } else {
            "audio muted"
        })
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred(
            "TriggerWordDetected is not active",
            &[reads::STACK.name],
        ))
    }
}

impl<T> QuietMode<T> {
    fn scan<U: IntentUnion<Tag = T>, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        for e in &self.entries {
            if ctx.view().stack().any(|s| s == e.behavior) {
                return;
            }
            if ctx.wants_to_activate(e.behavior) {
                self.audio = e.audio_allowed;
                let _ = ctx.delegate_now(e.behavior, Continuation::None);
                return;
            }
        }
    }
}

pub(crate) fn build_quiet_mode<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("QuietModeCoordinator"));
    let mut entries = Vec::new();
    let mut ok = true;
    if let Some(Value::Array(list)) = keys.get("behaviors") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("behaviors[{i}]");
            let name = item.get("behavior").and_then(Value::as_str);
            let audio = item.get("audioAllowed").and_then(Value::as_bool);
            let Some(name) = name else {
                cx.bad_value(&at, "needs `behavior`: a behavior ID");
                ok = false;
                continue;
            };
            let Some(audio_allowed) = audio else {
                cx.bad_value(&at, "needs `audioAllowed`: true or false");
                ok = false;
                continue;
            };
            if let Some(extra) = item
                .as_object()
                .and_then(|o| o.keys().find(|k| *k != "behavior" && *k != "audioAllowed"))
            {
                cx.bad_value(
                    &at,
                    format!("unknown key `{extra}` (behavior, audioAllowed)"),
                );
                ok = false;
            }
            match cx.delegate_global(name, &format!("{at}.behavior")) {
                Some(behavior) => entries.push(QuietEntry {
                    behavior,
                    audio_allowed,
                }),
                None => ok = false,
            }
        }
    }
    let active_time = secs(&keys, "activeTime_s");
    let power_save_after = secs(&keys, "timeToPowerSave_s");
    let (Some(active_time), Some(power_save_after), true) = (active_time, power_save_after, ok)
    else {
        return None;
    };
    let base =
        Base::new(EVERYWHERE.always_delegates(true)).delegates(entries.iter().map(|e| e.behavior));
    Some(Box::new(Native::new(
        base,
        QuietMode {
            entries,
            trigger_word: cx.global_id("TriggerWordDetected"),
            active_time,
            power_save_after,
            unmatched: U::tag_from_name("unmatched_intent"),
            set_power_save: false,
            audio: true,
        },
    )))
}
