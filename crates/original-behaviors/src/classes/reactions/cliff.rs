//! `ReactToCliff` (see the [family's documentation](super)).

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClassPredicate, Continuation, Ctx,
    DelegationOutcome, DriveToPose, IntentUnion, Pose2, View, WaitFor, Wakeup, Watch,
};
use serde_json::{Map, Value};

use super::{at_after, bits, data, predicate};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::classes::native::{Base, Native, NativeClass};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::predicate::{pred_cx, PredCx, Read};
use crate::robot_state::{OffTreads, RobotState};

/// Pitch below which the robot counts as level: the original's 10° converted to radians
/// twice (≈0.003 rad), in degrees (OCP §5.1: the literal value is kept).
pub const CLIFF_LEVEL_PITCH_DEG: f32 = 10.0 * std::f32::consts::PI / 180.0;
/// Time on its treads after which pitch no longer matters.
const CLIFF_SETTLE: Duration = Duration::from_millis(1000);
/// Wait before reacting again to a cliff still detected.
const CLIFF_REACT_AGAIN_AFTER: Duration = Duration::from_millis(200);
const CLIFF_MAX_ATTEMPTS: u32 = 2;
const CLIFF_MAX_STOPS: u32 = 5;
const CLIFF_PICKED_UP_MAX: Duration = Duration::from_secs(2);

const FL: u8 = 0b0001;
const FR: u8 = 0b0010;
const BL: u8 = 0b0100;
const BR: u8 = 0b1000;

const CLIFF_READS: &[Read] = &[
    reads::CLIFF_EVENTS,
    reads::CLIFFS,
    reads::OFF_TREADS,
    reads::PICKED_UP,
    reads::POSE,
];

/// The cliff reaction for a detected sensor set (None: the set decides nothing: stuck).
pub fn cliff_animation(set: u8) -> Option<&'static str> {
    Some(match set {
        s if s == FL | FR => "ReactToCliffFront",
        FL => "ReactToCliffFrontLeft",
        FR => "ReactToCliffFrontRight",
        BL => "ReactToCliffBackLeft",
        BR => "ReactToCliffBackRight",
        s if s == BL | BR => "ReactToCliffBack",
        _ => return None,
    })
}

/// The turn away from a cliff more than 45° off the nose (the back sensors), if any.
fn cliff_turn_away(set: u8) -> Option<&'static str> {
    match set {
        BR => Some("ReactToCliffTurnRight180"),
        s if s & (BL | BR) != 0 && s & (FL | FR) == 0 => Some("ReactToCliffTurnLeft180"),
        _ => None,
    }
}

/// Continuation steps of `ReactToCliff`.
mod cliff_step {
    pub const AFTER_REACT: u32 = 1;
    pub const REACT: u32 = 2;
    pub const TURNED: u32 = 3;
    pub const BACKUP: u32 = 4;
    pub const AFTER_BACKUP: u32 = 5;
    pub const END: u32 = 6;
}

/// `ReactToCliff` (see the [family's documentation](super)).
pub struct ReactToCliff {
    backup_mm: f32,
    backup_speed: f32,
    flag_timeout: Duration,
    streamline: bool,
    stuck: Option<BehaviorId>,
    force_stuck: Option<BehaviorId>,
    // While active.
    set: u8,
    attempts: u32,
    stops: u32,
    handled_stop: Option<Duration>,
    picked_since: Option<Duration>,
}

impl ReactToCliff {
    /// A flag set by an event at `t` has cleared by now: picked up (now), or older than the
    /// timeout while no cliff was detected (now, or before the current cliff began).
    fn expired(&self, r: &RobotState, now: Duration, t: Duration) -> bool {
        let deadline = t.saturating_add(self.flag_timeout);
        if r.cliffs() == 0 {
            now > deadline
        } else {
            r.cliff_level_since(1).is_some_and(|began| began > deadline)
        }
    }

    /// The event at `t` set the flag: heard in scope, or (the inactive update) newer than
    /// the last run while in scope, with `need_cliff` a cliff detected now.
    fn flagged(&self, cx: &PredCx<'_>, t: Option<Duration>, need_cliff: bool) -> bool {
        let Some(t) = t else { return false };
        let heard = cx.heard(Some(t))
            || (cx.entered_scope.is_some()
                && (!need_cliff || cx.robot.cliffs() != 0)
                && cx.last_ran.is_none_or(|l| t > l));
        heard && !self.expired(cx.robot, cx.now, t)
    }

    fn got_stop(&self, cx: &PredCx<'_>) -> bool {
        self.flagged(cx, cx.robot.signals.cliff_stop, true)
    }

    fn put_down_on_cliff(&self, cx: &PredCx<'_>) -> bool {
        let t = cx.robot.signals.put_down_on_cliff;
        // Cleared by any later off-treads change.
        t.is_some_and(|t| cx.robot.off_treads().1 <= t) && self.flagged(cx, t, false)
    }

    fn wants(&self, cx: &PredCx<'_>) -> bool {
        let r = cx.robot;
        let (treads, changed) = r.off_treads();
        treads == OffTreads::OnTreads
            && !r.picked_up
            && (r.pitch_deg < CLIFF_LEVEL_PITCH_DEG
                || cx.now.saturating_sub(changed) >= CLIFF_SETTLE)
            && (self.got_stop(cx) || self.put_down_on_cliff(cx))
    }

    /// When the answer may change with no input: the settle time, a flag's timeout.
    fn until(&self, cx: &PredCx<'_>) -> Wakeup {
        let r = cx.robot;
        let mut w = Wakeup::Never;
        let settled = r.off_treads().1.saturating_add(CLIFF_SETTLE);
        if cx.now < settled {
            w = w.min(Wakeup::At(settled));
        }
        if r.cliffs() == 0 {
            for t in [r.signals.cliff_stop, r.signals.put_down_on_cliff]
                .into_iter()
                .flatten()
            {
                let deadline = t.saturating_add(self.flag_timeout);
                if cx.now <= deadline {
                    w = w.min(at_after(deadline));
                }
            }
        }
        w
    }

    fn react<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.attempts += 1;
        let now_set = ctx.robot().cliffs();
        if now_set != 0 {
            self.set = now_set;
        }
        if self.attempts > CLIFF_MAX_ATTEMPTS || self.stops > CLIFF_MAX_STOPS {
            return self.stuck(ctx);
        }
        let Some(anim) = cliff_animation(self.set) else {
            return self.stuck(ctx);
        };
        if self.streamline {
            return self.after_react(ctx);
        }
        let next = Continuation::Call(cliff_step::AFTER_REACT);
        if ctx
            .play(
                &ActionRequest::Animation {
                    name: anim,
                    loops: 1,
                },
                next,
            )
            .is_err()
        {
            self.after_react(ctx);
        }
    }

    fn after_react<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.robot().cliffs() != 0 {
            // Still at the edge: wait until stationary, then react again.
            let wait = Box::new(WaitFor::new(CLIFF_REACT_AGAIN_AFTER));
            if ctx
                .delegate_action(wait, Continuation::Call(cliff_step::REACT))
                .is_err()
            {
                self.stuck(ctx);
            }
            return;
        }
        match cliff_turn_away(self.set) {
            Some(turn) if !self.streamline => {
                let next = Continuation::Call(cliff_step::TURNED);
                if ctx
                    .play(
                        &ActionRequest::Animation {
                            name: turn,
                            loops: 1,
                        },
                        next,
                    )
                    .is_err()
                {
                    self.turned(ctx);
                }
            }
            _ => self.turned(ctx),
        }
    }

    fn turned<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if self.streamline {
            return self.back_up(ctx);
        }
        let next = Continuation::Call(cliff_step::BACKUP);
        if ctx
            .play(
                &ActionRequest::Animation {
                    name: "ReactToCliff",
                    loops: 1,
                },
                next,
            )
            .is_err()
        {
            self.back_up(ctx);
        }
    }

    fn back_up<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let to = Pose2 {
            x: -self.backup_mm,
            y: 0.0,
            theta: 0.0,
        };
        let drive = Box::new(DriveToPose::new(Pose2::default(), to, self.backup_speed));
        if ctx
            .delegate_action(drive, Continuation::Call(cliff_step::AFTER_BACKUP))
            .is_err()
        {
            self.after_backup(ctx);
        }
    }

    fn after_backup<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.robot().cliffs() != 0 {
            return self.stuck(ctx);
        }
        let _ = ctx.cancel_self();
    }

    fn stuck<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let pick = [self.stuck, self.force_stuck]
            .into_iter()
            .flatten()
            .find(|&id| ctx.wants_to_activate(id));
        match pick {
            Some(id)
                if ctx
                    .delegate_if_in_control(id, Continuation::Call(cliff_step::END))
                    .is_ok() => {}
            _ => {
                let _ = ctx.cancel_self();
            }
        }
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ReactToCliff {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let keys = Map::new();
        self.wants(&pred_cx(view, &keys))
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let keys = Map::new();
        let cx = pred_cx(view, &keys);
        Some(Watch::reads(bits(CLIFF_READS)).until(self.until(&cx)))
    }
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        match self.picked_since {
            Some(t) => at_after(t.saturating_add(CLIFF_PICKED_UP_MAX)),
            None => Wakeup::Never,
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(predicate(
            "a cliff stop or a put-down onto a cliff heard in scope (its flag not timed out, not picked up), on its treads, level or 1 s settled",
            CLIFF_READS,
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.attempts = 0;
        self.stops = 1;
        self.picked_since = None;
        self.handled_stop = ctx.robot().signals.cliff_stop;
        self.set = ctx.robot().cliffs();
        ctx.robot_mut().fire_emotion_event("CliffReact");
        if self.set == 0 {
            // The stop left no cliff flags.
            let _ = ctx.cancel_self();
            return;
        }
        self.react(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let now = ctx.clock().now();
        let (picked, cliffs, stop) = {
            let r = ctx.robot();
            (r.picked_up, r.cliffs(), r.signals.cliff_stop)
        };
        if picked {
            let since = *self.picked_since.get_or_insert(now);
            if cliffs.count_ones() > 2 || now.saturating_sub(since) > CLIFF_PICKED_UP_MAX {
                let _ = ctx.cancel_self();
                return;
            }
        } else {
            self.picked_since = None;
        }
        if stop.is_some() && stop > self.handled_stop {
            // A new cliff stop restarts the reaction.
            self.handled_stop = stop;
            self.stops += 1;
            self.attempts = 0;
            let _ = ctx.cancel_delegates(false);
            self.react(ctx);
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match step {
            cliff_step::AFTER_REACT => self.after_react(ctx),
            cliff_step::REACT => self.react(ctx),
            cliff_step::TURNED => self.turned(ctx),
            cliff_step::BACKUP => self.back_up(ctx),
            cliff_step::AFTER_BACKUP => self.after_backup(ctx),
            _ => {
                let _ = ctx.cancel_self();
            }
        }
    }
}

/// Reads a positive number key (`verify > 0`): a problem at the key otherwise.
fn positive<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    keys: &Map<String, Value>,
    key: &str,
) -> Option<f32> {
    let v = keys.get(key)?.as_f64()?;
    if v.is_finite() && v > 0.0 {
        Some(v as f32)
    } else {
        cx.bad_value(key, format!("must be greater than 0, found {v}"));
        None
    }
}

pub(crate) fn build_react_to_cliff<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("ReactToCliff")?;
    let keys = read_class_keys(cx, data);
    let backup_mm = positive(cx, &keys, "cliffBackupDistance_mm");
    let backup_speed = positive(cx, &keys, "cliffBackupSpeed_mmps");
    // One of the two (keys::KEY_SETS reports both or neither).
    let timeout = match (
        keys.get("eventFlagTimeout_ms").and_then(Value::as_u64),
        keys.get("eventFlagTimeout_sec").and_then(Value::as_f64),
    ) {
        (Some(ms), None) => Some(Duration::from_millis(ms)),
        (None, Some(s)) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s.min(1.0e6))),
        (None, Some(s)) => {
            cx.bad_value(
                "eventFlagTimeout_sec",
                format!("must be 0 or more, found {s}"),
            );
            None
        }
        _ => None,
    };
    let streamline = cx
        .object()
        .get("alwaysStreamline")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let stuck = cx.global_id("StuckOnEdge");
    let force_stuck = cx.global_id("ForceStuckOnEdge");
    for id in [stuck, force_stuck].into_iter().flatten() {
        cx.declare_delegate(id);
    }
    // It ends itself when its reaction is done.
    let base = Base::new(data.mods.always_delegates(false))
        .delegates(cx.declared_delegates().iter().copied());
    let class = ReactToCliff {
        backup_mm: backup_mm?,
        backup_speed: backup_speed?,
        flag_timeout: timeout?,
        streamline,
        stuck,
        force_stuck,
        set: 0,
        attempts: 0,
        stops: 0,
        handled_stop: None,
        picked_since: None,
    };
    Some(Box::new(Native::<U::Tag, _>::new(base, class)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_detected_pair_or_single_sensor_has_its_cliff_reaction() {
        assert_eq!(cliff_animation(FL | FR), Some("ReactToCliffFront"));
        assert_eq!(cliff_animation(BL | BR), Some("ReactToCliffBack"));
        assert_eq!(cliff_animation(FL), Some("ReactToCliffFrontLeft"));
        assert_eq!(cliff_animation(BR), Some("ReactToCliffBackRight"));
        assert_eq!(cliff_animation(FL | BR), None, "a diagonal set: stuck");
        assert_eq!(cliff_animation(0), None);
        assert_eq!(cliff_turn_away(BL | BR), Some("ReactToCliffTurnLeft180"));
        assert_eq!(cliff_turn_away(BR), Some("ReactToCliffTurnRight180"));
        assert_eq!(cliff_turn_away(FL | FR), None);
    }

    #[test]
    fn the_level_pitch_is_the_literal_double_conversion() {
        assert!((CLIFF_LEVEL_PITCH_DEG - 0.1745).abs() < 1e-3);
    }
}
