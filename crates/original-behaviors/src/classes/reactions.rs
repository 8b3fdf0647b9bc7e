//! The reactions a robot idle on its treads meets first (original-class-predicates.md
//! §2.1, §2.2, §6), ported in code: each reads its keys through the class table
//! ([`read_class_keys`]), decides with the original's class predicate on the robot state
//! (events heard in scope as [`PredCx::heard`] on [`Signals`](crate::robot_state::Signals)
//! times), declares exactly what that reads ([`Behavior::activation_watch`]) and acts:
//!
//! * `ReactToCliff` — wants to run after a cliff stop (`cliff_stop`) or a put-down onto a
//!   cliff heard in scope, on its treads, settled (pitch below ≈0.17°, the literal value of
//!   the original's twice-converted 10°, or 1 s since the last off-treads change); a flag
//!   clears while picked up, or once its event is older than `eventFlagTimeout_ms` while no
//!   cliff is detected. Fires mood `CliffReact`, plays the cliff animation of the detected
//!   sensors (ReactToCliffFront / FrontLeft / FrontRight / BackLeft / BackRight / Back;
//!   skipped with `alwaysStreamline`); a cliff still detected after it → waits 200 ms and
//!   reacts again; gone → the turn away (ReactToCliffTurnLeft/Right180 for a cliff behind)
//!   and ReactToCliff, then backs up `cliffBackupDistance_mm` at `cliffBackupSpeed_mmps`;
//!   a cliff still there after backing up, more than 2 attempts, more than 5 stops in one
//!   activation or an undecidable sensor set → `StuckOnEdge` (if it wants to run) else
//!   `ForceStuckOnEdge`, until it ends. A new cliff stop while active restarts the
//!   reaction. Ends when done; self-cancels at once when no cliff sensor detects on
//!   activation (the stop left no cliff flags), when picked up with more than 2 cliffs or
//!   for more than 2 s. Not modelled: the suspicious-cliff abort (raw sensor values), the
//!   head and lift calibration and visual cliff extension after a put-down onto a cliff.
//! * `ReactToMotorCalibration` — wants to run after an auto-started head or lift
//!   calibration (`motor_calibration`) heard in scope with no "stopped" since; holds the
//!   pending-intent timeout while active, waits until head and lift report calibrated (at
//!   most 5 s), then ends.
//! * `ReactToMicDirection` — wants to run while a parent handed it a direction
//!   (`mic_reaction`) and reactions are enabled in `reaction_list` for the robot's state
//!   (OnCharger: on the platform › OffTreads: picked up › OnSurface); plays the direction's
//!   animation, else turns by its `dir` when at least 5° (an unset direction falls back to
//!   `Default`, then to −30° per hour); clears the direction when it ends.
//! * `ReactToSound` — wants to run when no user intent is pending, a loud sound (`sound`)
//!   was heard in scope at most 1 s ago above its thresholds (power ≥
//!   `micAbsolutePowerThreshold`, or ≥ `micMinPowerThreshold` with confidence ≥
//!   `micConfidenceThresholdAtMinPower`), and its `micDirectionReactionBehavior` is enabled
//!   for the robot's state (that behavior's class predicate only, OCP §5.8); hands it the
//!   direction and delegates to it; a new valid sound while active (not from straight ahead)
//!   re-reacts; ends with it. Not modelled: the lift-motion filter (lift movement is not in
//!   the robot state).

use std::any::Any;
use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClassPredicate, Continuation, Ctx,
    DelegationOutcome, DriveToPose, Inputs, IntentUnion, OperationModifiers, Pose2, View, WaitFor,
    Wakeup, Watch,
};
use serde_json::{Map, Value};

use crate::access::{RobotAccess, RobotAccessMut};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::predicate::{pred_cx, PredCx, Read};
use crate::robot_state::{MicSample, OffTreads, RobotState};
use crate::specs::{self, ClassData, Mods};

/// The class table's entry of a native class (always there: a test checks every native
/// reaction has one).
fn data(name: &str) -> Option<&'static ClassData> {
    specs::class(name)
}

/// Applies a class table's modifier hook.
fn apply_mods(mods: Mods, m: &mut OperationModifiers) {
    if let Some(v) = mods.carry {
        m.when_carrying = v;
    }
    if let Some(v) = mods.off_treads {
        m.when_off_treads = v;
    }
    if let Some(v) = mods.charger {
        m.when_on_charger = v;
    }
    if let Some(v) = mods.always_delegates {
        m.always_delegates = v;
    }
}

fn predicate(text: &str, reads: &[Read]) -> ClassPredicate {
    ClassPredicate {
        text: text.to_owned(),
        inputs: reads.iter().map(|r| r.name).collect(),
        unmodelled: Vec::new(),
    }
}

fn bits(reads: &[Read]) -> Inputs {
    reads.iter().fold(Inputs::STACK, |acc, r| acc.with(r.bits))
}

fn at_after(t: Duration) -> Wakeup {
    Wakeup::At(t.saturating_add(Duration::from_nanos(1)))
}

// ---------------------------------------------------------------------------------------
// ReactToCliff

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

/// `ReactToCliff` (see the [module documentation](self)).
pub struct ReactToCliff {
    mods: Mods,
    backup_mm: f32,
    backup_speed: f32,
    flag_timeout: Duration,
    streamline: bool,
    stuck: Option<BehaviorId>,
    force_stuck: Option<BehaviorId>,
    delegates: Vec<BehaviorId>,
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

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ReactToCliff {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        apply_mods(self.mods, m);
        // It ends itself when its reaction is done.
        m.always_delegates = false;
    }
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
    let delegates = cx.declared_delegates().to_vec();
    Some(Box::new(ReactToCliff {
        mods: data.mods,
        backup_mm: backup_mm?,
        backup_speed: backup_speed?,
        flag_timeout: timeout?,
        streamline,
        stuck,
        force_stuck,
        delegates,
        set: 0,
        attempts: 0,
        stops: 0,
        handled_stop: None,
        picked_since: None,
    }))
}

// ---------------------------------------------------------------------------------------
// ReactToMotorCalibration

const CALIBRATION_TIMEOUT: Duration = Duration::from_secs(5);
const CALIBRATION_READS: &[Read] = &[reads::CALIBRATION];

/// `ReactToMotorCalibration` (see the [module documentation](self)).
pub struct ReactToMotorCalibration {
    mods: Mods,
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

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ReactToMotorCalibration {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        apply_mods(self.mods, m);
        m.always_delegates = false;
    }
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
    Some(Box::new(ReactToMotorCalibration {
        mods: data.mods,
        deadline: None,
    }))
}

// ---------------------------------------------------------------------------------------
// ReactToMicDirection

/// The clock directions' names in `reaction_list`, 0 (twelve o'clock) to 11.
pub const CLOCK_DIRECTIONS: [&str; 12] = [
    "TwelveOClock",
    "OneOClock",
    "TwoOClock",
    "ThreeOClock",
    "FourOClock",
    "FiveOClock",
    "SixOClock",
    "SevenOClock",
    "EightOClock",
    "NineOClock",
    "TenOClock",
    "ElevenOClock",
];

/// The robot states of `reaction_list`, in the order the original picks them.
const MIC_STATES: [&str; 3] = ["OnCharger", "OffTreads", "OnSurface"];

/// One direction's reaction.
#[derive(Clone, Debug, Default, PartialEq)]
struct DirectionReaction {
    anim: Option<String>,
    dir_deg: Option<f32>,
    enabled: bool,
}

/// One state's reactions.
#[derive(Clone, Debug, PartialEq)]
struct StateReactions {
    enabled: bool,
    directions: [Option<DirectionReaction>; 12],
}

impl Default for StateReactions {
    fn default() -> Self {
        Self {
            enabled: true,
            directions: Default::default(),
        }
    }
}

const MIC_READS: &[Read] = &[reads::SOUND, reads::ON_PLATFORM, reads::PICKED_UP];

/// `ReactToMicDirection` (see the [module documentation](self)).
pub struct ReactToMicDirection {
    mods: Mods,
    default: StateReactions,
    /// Per [`MIC_STATES`].
    states: [Option<StateReactions>; 3],
}

impl ReactToMicDirection {
    fn state_index(r: &RobotState) -> usize {
        if r.on_charger_platform {
            0
        } else if r.picked_up {
            1
        } else {
            2
        }
    }

    /// Reactions are enabled for the robot's state.
    pub fn enabled_for(&self, r: &RobotState) -> bool {
        self.states[Self::state_index(r)]
            .as_ref()
            .map_or(self.default.enabled, |s| s.enabled)
    }

    /// The reaction to `direction` in the robot's state: an animation, or a turn.
    fn reaction(&self, r: &RobotState, direction: u8) -> (Option<String>, f32) {
        let d = usize::from(direction.min(11));
        let entry = self.states[Self::state_index(r)]
            .as_ref()
            .and_then(|s| s.directions[d].as_ref())
            .or(self.default.directions[d].as_ref());
        match entry {
            Some(e) if !e.enabled => (None, 0.0),
            Some(e) => (
                e.anim.clone().filter(|a| !a.trim().is_empty()),
                e.dir_deg.unwrap_or(-30.0 * d as f32),
            ),
            None => (None, -30.0 * d as f32),
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ReactToMicDirection {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        apply_mods(self.mods, m);
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let r = view.robot();
        r.signals.mic_reaction.is_some() && self.enabled_for(r)
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(bits(MIC_READS)))
    }
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(predicate(
            "a parent handed it a direction, and reactions are enabled for the robot's state (on the charger platform, picked up, on a surface)",
            MIC_READS,
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some((direction, _)) = ctx.robot().signals.mic_reaction else {
            let _ = ctx.cancel_self();
            return;
        };
        let (anim, turn) = self.reaction(ctx.robot(), direction);
        let played = match anim {
            Some(a) => ctx
                .play(
                    &ActionRequest::Animation { name: &a, loops: 1 },
                    Continuation::None,
                )
                .is_ok(),
            None if turn.abs() >= 5.0 => ctx
                .play(&ActionRequest::Turn { degrees: turn }, Continuation::None)
                .is_ok(),
            None => false,
        };
        if !played {
            let _ = ctx.cancel_self();
        }
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        ctx.robot_mut().signals.mic_reaction = None;
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}

fn parse_state<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    at: &str,
    v: &Value,
) -> Option<StateReactions> {
    let Some(o) = v.as_object() else {
        cx.bad_value(at, format!("expected an object, found {v}"));
        return None;
    };
    let mut s = StateReactions::default();
    if let Some(e) = o.get("enabled") {
        match e.as_bool() {
            Some(b) => s.enabled = b,
            None => cx.bad_value(
                &format!("{at}.enabled"),
                format!("expected a boolean, found {e}"),
            ),
        }
    }
    for (i, name) in CLOCK_DIRECTIONS.iter().enumerate() {
        let Some(d) = o.get(*name) else { continue };
        let here = format!("{at}.{name}");
        let Some(d) = d.as_object() else {
            cx.bad_value(&here, format!("expected {{anim, dir, enabled}}, found {d}"));
            continue;
        };
        let anim = match d.get("anim") {
            None => None,
            Some(Value::String(a)) => Some(a.clone()),
            Some(a) => {
                cx.bad_value(
                    &format!("{here}.anim"),
                    format!("expected an animation trigger, found {a}"),
                );
                None
            }
        };
        let dir_deg = match d.get("dir") {
            None => None,
            Some(x) => match x.as_f64().filter(|x| x.is_finite()) {
                Some(x) => Some(x as f32),
                None => {
                    cx.bad_value(
                        &format!("{here}.dir"),
                        format!("expected degrees, found {x}"),
                    );
                    None
                }
            },
        };
        let enabled = match d.get("enabled") {
            None => true,
            Some(e) => e.as_bool().unwrap_or_else(|| {
                cx.bad_value(
                    &format!("{here}.enabled"),
                    format!("expected a boolean, found {e}"),
                );
                true
            }),
        };
        s.directions[i] = Some(DirectionReaction {
            anim,
            dir_deg,
            enabled,
        });
    }
    Some(s)
}

pub(crate) fn build_react_to_mic_direction<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("ReactToMicDirection")?;
    let keys = read_class_keys(cx, data);
    let list = keys.get("reaction_list")?.as_object()?.clone();
    let default = match list.get("Default") {
        Some(v) => parse_state(cx, "reaction_list.Default", v).unwrap_or_default(),
        None => StateReactions::default(),
    };
    let mut states: [Option<StateReactions>; 3] = Default::default();
    for (i, name) in MIC_STATES.iter().enumerate() {
        if let Some(v) = list.get(*name) {
            states[i] = parse_state(cx, &format!("reaction_list.{name}"), v);
        }
    }
    Some(Box::new(ReactToMicDirection {
        mods: data.mods,
        default,
        states,
    }))
}

// ---------------------------------------------------------------------------------------
// ReactToSound

/// An unused direction expires this long after it was heard.
const SOUND_MAX_REACTION_TIME: Duration = Duration::from_secs(1);
/// While active, a new sound re-reacts only this long after the last trigger.
const SOUND_RETRIGGER_AFTER: Duration = Duration::from_millis(250);

const SOUND_READS: &[Read] = &[
    reads::SOUND,
    reads::INTENTS,
    reads::ON_PLATFORM,
    reads::PICKED_UP,
];

/// Continuation step of `ReactToSound`: the reaction ended.
const SOUND_DONE: u32 = 1;

/// `ReactToSound` (see the [module documentation](self)).
pub struct ReactToSound {
    mods: Mods,
    mic: BehaviorId,
    absolute_power: f64,
    min_power: f64,
    confidence_at_min: u64,
    handled: Option<Duration>,
}

impl ReactToSound {
    fn loud(&self, s: &MicSample) -> bool {
        let p = f64::from(s.power);
        p >= self.absolute_power
            || (p >= self.min_power && u64::from(s.confidence) >= self.confidence_at_min)
    }

    /// The valid sound heard in scope and not yet expired, if any.
    fn sound(&self, cx: &PredCx<'_>) -> Option<MicSample> {
        let s = cx.robot.signals.sound?;
        (cx.heard(Some(s.at))
            && cx.now.saturating_sub(s.at) < SOUND_MAX_REACTION_TIME
            && self.loud(&s))
        .then_some(s)
    }

    fn mic_enabled<U: IntentUnion, E: 'static>(&self, view: &View<'_, U, E>) -> bool {
        view.behavior(self.mic)
            .and_then(|b| b.as_any())
            .and_then(|a| a.downcast_ref::<ReactToMicDirection>())
            .is_some_and(|m| m.enabled_for(view.robot()))
    }

    fn respond<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>, s: MicSample) {
        self.handled = Some(s.at);
        let now = ctx.clock().now();
        ctx.robot_mut().signals.mic_reaction = Some((s.direction, now));
        if !ctx.wants_to_activate(self.mic)
            || ctx
                .delegate_if_in_control(self.mic, Continuation::Call(SOUND_DONE))
                .is_err()
        {
            let _ = ctx.cancel_self();
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ReactToSound {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        vec![self.mic]
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        apply_mods(self.mods, m);
        m.always_delegates = false;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        if view.intents().is_any_pending() {
            return false;
        }
        let keys = Map::new();
        let cx = pred_cx(view, &keys);
        self.sound(&cx).is_some() && self.mic_enabled(view)
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let keys = Map::new();
        let cx = pred_cx(view, &keys);
        let until = match cx.robot.signals.sound {
            Some(s) if cx.now.saturating_sub(s.at) < SOUND_MAX_REACTION_TIME => {
                Wakeup::At(s.at.saturating_add(SOUND_MAX_REACTION_TIME))
            }
            _ => Wakeup::Never,
        };
        Some(Watch::reads(bits(SOUND_READS)).until(until))
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        // A sound that arrived too soon after the last trigger counts once the wait is over.
        match (self.handled, view.robot().signals.sound) {
            (Some(h), Some(s)) if s.at > h => {
                let at = h.saturating_add(SOUND_RETRIGGER_AFTER);
                if view.clock().now() < at {
                    Wakeup::At(at)
                } else {
                    Wakeup::Never
                }
            }
            _ => Wakeup::Never,
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(predicate(
            "no user intent pending, a loud sound heard in scope at most 1 s ago above the mic thresholds, and its mic-direction reaction enabled for the robot's state",
            SOUND_READS,
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let keys = Map::new();
        let sound = {
            let view = ctx.view();
            let cx = pred_cx(&view, &keys);
            self.sound(&cx)
        };
        match sound {
            Some(s) => self.respond(ctx, s),
            None => {
                let _ = ctx.cancel_self();
            }
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let now = ctx.clock().now();
        let Some(s) = ctx.robot().signals.sound else {
            return;
        };
        let new = self.handled.is_none_or(|h| s.at > h);
        let settled = self
            .handled
            .is_none_or(|h| now >= h.saturating_add(SOUND_RETRIGGER_AFTER));
        // Straight ahead (11, 0, 1) is where it already looks.
        let ahead = matches!(s.direction, 11 | 0 | 1);
        if new && settled && !ahead && self.loud(&s) {
            let _ = ctx.cancel_delegates(false);
            ctx.robot_mut().signals.mic_reaction = None;
            self.respond(ctx, s);
        }
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        let _ = ctx.cancel_self();
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.handled = None;
        ctx.robot_mut().signals.mic_reaction = None;
    }
}

pub(crate) fn build_react_to_sound<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("ReactToSound")?;
    let keys = read_class_keys(cx, data);
    let refs = cx.reference_keys();
    let mic = cx
        .resolve_reference_keys(refs)
        .into_iter()
        .find(|(k, _)| k.key == "micDirectionReactionBehavior")
        .map(|(_, id)| id);
    let num = |k: &str| keys.get(k).and_then(Value::as_f64);
    let absolute_power = num("micAbsolutePowerThreshold")?;
    let min_power = num("micMinPowerThreshold")?;
    let confidence_at_min = keys
        .get("micConfidenceThresholdAtMinPower")
        .and_then(Value::as_u64)?;
    let mic = mic?;
    if cx.class_of(mic) != Some("ReactToMicDirection") {
        return None;
    }
    cx.declare_delegate(mic);
    Some(Box::new(ReactToSound {
        mods: data.mods,
        mic,
        absolute_power,
        min_power,
        confidence_at_min,
        handled: None,
    }))
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

    #[test]
    fn every_native_reaction_has_its_table_entry() {
        for c in [
            "ReactToCliff",
            "ReactToMotorCalibration",
            "ReactToMicDirection",
            "ReactToSound",
        ] {
            assert!(data(c).is_some(), "{c}");
        }
    }
}
