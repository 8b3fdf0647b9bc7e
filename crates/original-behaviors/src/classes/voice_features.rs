//! The voice features' coordinators (original-class-predicates.md §2.3), each deciding with
//! its predicate from `logic::voice` and claiming in code what the original claims (§4.1):
//!
//! * `TakeAPhotoCoordinator` — `take_a_photo` pending: claims it; storage full →
//!   `SingletonICantDoThat`; a selfie on treads → `DriveOffChargerFace` (on the contacts),
//!   `FrameFaces`, `TakeAPictureCapture`; else head to 25°, `TakeAPictureFocusing`,
//!   `TakeAPictureCapture`.
//! * `WallTimeCoordinator` — true (its instance claims `show_clock` through JSON): wall time
//!   unknown → `SingletonICantDoThat`; else `SingletonFindFaceInFrontWallTime`,
//!   `LookAtUserEndearingly`, `ShowWallTime`.
//! * `CoordinateWeather` — `weather_response` pending: a forecast, a condition its
//!   `responseMap` does not map, or a mapped behavior that does not want to run →
//!   claims the intent and `SingletonICantDoThat`; else delegates the mapped behavior (a
//!   `DisplayWeather` claims it) and claims it if it is still pending afterwards.
//! * `DisplayWeather` — `weather_response` pending (its code-added intent condition): claims
//!   it, `SingletonFindFaceInFrontWallTime`, `LookAtUserEndearingly`, `animationName`, then
//!   says the temperature.
//! * `TimerUtilityCoordinator` — the timer intents, the timer ringing, or an antic due: see
//!   [`TimerUtilityCoordinator`].

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ClassPredicate, Continuation, Ctx, DelegationOutcome, Inputs,
    IntentUnion, View, Wakeup, Watch,
};
use serde_json::Value;

use super::native::{Base, Decide, Native, NativeClass};
use super::steps::{Step, Steps};
use super::voice::{claim, field, hard_coded, pending_field, tag};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::logic::voice as logic;
use crate::predicate::Pred;
use crate::robot_state::{OffTreads, RobotState, UserTimer};
use crate::specs::Mods;

fn on_treads(r: &RobotState) -> bool {
    r.off_treads().0 == OffTreads::OnTreads
}

/// The base of these coordinators: "+offTreads", always delegating or not, deciding with
/// `decide`, its delegates those its builder declared.
fn base<U: IntentUnion, E: 'static>(
    cx: &BuildCx<'_, U, E>,
    always_delegates: bool,
    decide: Decide<U::Tag>,
) -> Base<U::Tag> {
    let gates = Mods::BASE
        .off_treads(true)
        .always_delegates(always_delegates);
    Base::new(gates)
        .decide(decide)
        .delegates(cx.declared_delegates().iter().copied())
}

/// `TakeAPhotoCoordinator` (see the [module documentation](self)).
pub struct TakeAPhotoCoordinator<T> {
    tag: Option<T>,
    cant: Option<BehaviorId>,
    frame: Option<BehaviorId>,
    drive_off: Option<BehaviorId>,
    steps: Steps,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for TakeAPhotoCoordinator<U::Tag> {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(tag) = self.tag else {
            let _ = ctx.cancel_self();
            return;
        };
        let selfie = pending_field(ctx, tag, "empty_or_selfie").is_some();
        claim(ctx, "TakeAPhotoCoordinator", tag);
        let r = ctx.robot();
        let capture = Step::Play("TakeAPictureCapture".into());
        let steps = if r.signals.storage_full {
            self.cant.map(Step::Delegate).into_iter().collect()
        } else if selfie && on_treads(r) {
            let mut s = Vec::new();
            if r.on_charger {
                s.extend(self.drive_off.map(Step::Delegate));
            }
            s.extend(self.frame.map(Step::Delegate));
            s.push(capture);
            s
        } else {
            vec![
                Step::Head(25.0),
                Step::Play("TakeAPictureFocusing".into()),
                capture,
            ]
        };
        self.steps.start(steps, ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_take_a_photo<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    const C: &str = "TakeAPhotoCoordinator";
    let decide = Decide::build(cx, C, &logic::TAKE_A_PHOTO);
    let class = TakeAPhotoCoordinator {
        tag: tag(cx, C, "take_a_photo"),
        cant: hard_coded(cx, C, "SingletonICantDoThat"),
        frame: hard_coded(cx, C, "FrameFaces"),
        drive_off: hard_coded(cx, C, "DriveOffChargerFace"),
        steps: Steps::default(),
    };
    let base = base(cx, false, decide).claims([class.tag]);
    Some(Box::new(Native::new(base, class)))
}

/// `WallTimeCoordinator` (see the [module documentation](self)).
pub struct WallTimeCoordinator {
    cant: Option<BehaviorId>,
    find_face: Option<BehaviorId>,
    show: Option<BehaviorId>,
    steps: Steps,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for WallTimeCoordinator {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let steps = if ctx.robot().signals.wall_time_known {
            let mut s: Vec<Step> = self.find_face.map(Step::Delegate).into_iter().collect();
            s.push(Step::Play("LookAtUserEndearingly".into()));
            s.extend(self.show.map(Step::Delegate));
            s
        } else {
            self.cant.map(Step::Delegate).into_iter().collect()
        };
        self.steps.start(steps, ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_wall_time<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    const C: &str = "WallTimeCoordinator";
    let decide = Decide::build(cx, C, &Pred::True);
    let class = WallTimeCoordinator {
        cant: hard_coded(cx, C, "SingletonICantDoThat"),
        find_face: hard_coded(cx, C, "SingletonFindFaceInFrontWallTime"),
        show: hard_coded(cx, C, "ShowWallTime"),
        steps: Steps::default(),
    };
    Some(Box::new(Native::<U::Tag, _>::new(
        base(cx, true, decide),
        class,
    )))
}

/// `CoordinateWeather` (see the [module documentation](self)).
pub struct CoordinateWeather<T> {
    tag: Option<T>,
    /// `responseMap`: condition name → behavior.
    map: Vec<(String, BehaviorId)>,
    cant: Option<BehaviorId>,
    steps: Steps,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for CoordinateWeather<U::Tag> {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(tag) = self.tag else {
            let _ = ctx.cancel_self();
            return;
        };
        let forecast = pending_field(ctx, tag, "isForecast")
            .is_some_and(|f| f.trim().eq_ignore_ascii_case("true"));
        let condition = pending_field(ctx, tag, "condition").unwrap_or_default();
        let mapped = self
            .map
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(condition.trim()))
            .map(|(_, id)| *id)
            .filter(|id| !forecast && ctx.wants_to_activate(*id));
        let steps = match mapped {
            Some(id) => vec![Step::Delegate(id)],
            None => {
                claim(ctx, "CoordinateWeather", tag);
                self.cant.map(Step::Delegate).into_iter().collect()
            }
        };
        self.steps.start(steps, ctx);
        self.claim_if_pending(ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        self.claim_if_pending(ctx);
    }
}

impl<T: Copy + PartialEq> CoordinateWeather<T> {
    /// Done and the intent still pending (its delegate did not claim it): claims it.
    fn claim_if_pending<U: IntentUnion<Tag = T>, E: 'static>(&self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(tag) = self.tag {
            if ctx.is_active() && !ctx.is_control_delegated() && ctx.intents().is_pending(tag) {
                claim(ctx, "CoordinateWeather", tag);
            }
        }
    }
}

pub(crate) fn build_coordinate_weather<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    const C: &str = "CoordinateWeather";
    let decide = Decide::build(cx, C, &logic::WEATHER);
    let mut map = Vec::new();
    let entries = decide
        .keys
        .get("responseMap")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, e) in entries.iter().enumerate() {
        let (Some(cond), Some(id)) = (
            e.get("CladType")
                .or_else(|| e.get("Condition"))
                .and_then(Value::as_str),
            e.get("BehaviorID").and_then(Value::as_str),
        ) else {
            cx.bad_value(
                "responseMap",
                format!(
                    "entry {i}: expected {{\"CladType\": name, \"BehaviorID\": name}}, found {e}"
                ),
            );
            continue;
        };
        if let Some(b) = cx.delegate_global(id, "responseMap") {
            map.push((cond.to_owned(), b));
        }
    }
    let class = CoordinateWeather {
        tag: tag(cx, C, "weather_response"),
        map,
        cant: hard_coded(cx, C, "SingletonICantDoThat"),
        steps: Steps::default(),
    };
    let base = base(cx, false, decide).claims([class.tag]);
    Some(Box::new(Native::new(base, class)))
}

/// `DisplayWeather` (see the [module documentation](self)).
pub struct DisplayWeather<T> {
    tag: Option<T>,
    animation: String,
    find_face: Option<BehaviorId>,
    steps: Steps,
}

/// What DisplayWeather says: the temperature of the report (None: the report has none).
pub fn weather_utterance<U: IntentUnion>(intent: &U) -> Option<String> {
    let t = field(intent, "temperature")?;
    let unit = match field(intent, "temperatureUnit").as_deref().map(str::trim) {
        Some("C") | Some("c") => " degrees Celsius",
        Some("F") | Some("f") => " degrees Fahrenheit",
        _ => " degrees",
    };
    Some(format!("{}{unit}", t.trim()))
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for DisplayWeather<U::Tag> {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(tag) = self.tag else {
            let _ = ctx.cancel_self();
            return;
        };
        let said = ctx
            .intents()
            .pending()
            .filter(|p| p.tag() == tag)
            .and_then(|p| weather_utterance(p.intent()));
        claim(ctx, "DisplayWeather", tag);
        let mut steps: Vec<Step> = self.find_face.map(Step::Delegate).into_iter().collect();
        steps.push(Step::Play("LookAtUserEndearingly".into()));
        steps.push(Step::Play(self.animation.clone()));
        steps.extend(said.map(Step::Say));
        self.steps.start(steps, ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_display_weather<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    const C: &str = "DisplayWeather";
    let decide = Decide::build(cx, C, &logic::WEATHER);
    let animation = decide
        .keys
        .get("animationName")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let class = DisplayWeather {
        tag: tag(cx, C, "weather_response"),
        animation,
        find_face: hard_coded(cx, C, "SingletonFindFaceInFrontWallTime"),
        steps: Steps::default(),
    };
    let base = base(cx, false, decide).claims([class.tag]);
    Some(Box::new(Native::new(base, class)))
}

/// One `anticConfig` entry: while the time left is in `[rule_min, rule_max)`, an antic
/// every `recur_max` at the latest (the original draws the interval in
/// `[recurIntervalMin_s, recurIntervalMax_s]` and runs when the longest wait is over; the
/// upper bound is what decides, deterministically).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Antic {
    recur_max: Duration,
    rule_min: Duration,
    rule_max: Duration,
}

/// The timer coordinator's intents: `set_timer`, `global_stop`, `global_delete`,
/// `check_timer`.
#[derive(Clone, Copy, Debug)]
struct TimerTags<T> {
    set: Option<T>,
    stop: Option<T>,
    delete: Option<T>,
    check: Option<T>,
}

/// The behaviors the timer coordinator's code names.
#[derive(Clone, Copy, Debug, Default)]
struct TimerIds {
    ringing: Option<BehaviorId>,
    set: Option<BehaviorId>,
    already_set: Option<BehaviorId>,
    cancel: Option<BehaviorId>,
    antic: Option<BehaviorId>,
    cant: Option<BehaviorId>,
}

/// Ringing: since when, and whether the robot was on its treads since.
#[derive(Clone, Copy, Debug)]
struct Ringing {
    since: Duration,
    was_down: bool,
}

/// `TimerUtilityCoordinator`: wants to run when `set_timer` or `check_timer` is pending,
/// `global_stop` / `global_delete` is pending for the timer (`what_to_stop` "timer"), the
/// timer should ring, or an antic is due (the time left in a rule of `anticConfig` and its
/// interval over, no intent pending). Once active, not delegating: rings (clearing the
/// timer; a trigger word, a touch held longer than `touchTimeToCancelTimer_ms` or a pick-up
/// ends it), else claims `set_timer` (already set / set / I-can't), `global_stop` /
/// `global_delete` (regardless of `what_to_stop`: cancel / I-can't), runs a due antic, or
/// claims `check_timer` (antic / I-can't); with nothing to do it ends.
pub struct TimerUtilityCoordinator<T> {
    keys_pred: ClassPredicate,
    min: Duration,
    max: Duration,
    touch_cancel: Duration,
    antics: Vec<Antic>,
    tags: TimerTags<T>,
    ids: TimerIds,
    last_antic: Option<Duration>,
    ringing: Option<Ringing>,
}

impl<T: Copy + PartialEq> TimerUtilityCoordinator<T> {
    fn stop_for_timer<U: IntentUnion<Tag = T>, E: 'static>(&self, view: &View<'_, U, E>) -> bool {
        view.intents().pending().is_some_and(|p| {
            (Some(p.tag()) == self.tags.stop || Some(p.tag()) == self.tags.delete)
                && field(p.intent(), "what_to_stop")
                    .is_some_and(|w| w.trim().eq_ignore_ascii_case("timer"))
        })
    }
    /// The antic rule for the time left, and when the next antic is due under it.
    fn antic_due_at(&self, timer: &UserTimer, now: Duration) -> Option<Duration> {
        let left = timer.rings_at.checked_sub(now).filter(|l| !l.is_zero())?;
        let rule = self
            .antics
            .iter()
            .find(|a| a.rule_min <= left && left < a.rule_max)?;
        let since = self
            .last_antic
            .map_or(timer.set_at, |t| t.max(timer.set_at));
        Some(since.saturating_add(rule.recur_max))
    }
    fn antic_due(&self, r: &RobotState, now: Duration) -> bool {
        r.signals
            .timer
            .as_ref()
            .and_then(|t| self.antic_due_at(t, now))
            .is_some_and(|due| due <= now)
    }
    fn pending(&self, view_pending: impl Fn(T) -> bool, t: Option<T>) -> bool {
        t.is_some_and(view_pending)
    }
}

fn should_ring(r: &RobotState, now: Duration) -> bool {
    r.signals.timer.is_some_and(|t| t.rings_at <= now)
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for TimerUtilityCoordinator<U::Tag> {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let now = view.clock().now();
        let r = view.robot();
        let i = view.intents();
        let pending = |t: U::Tag| i.is_pending(t);
        self.pending(pending, self.tags.set)
            || should_ring(r, now)
            || self.stop_for_timer(view)
            || self.pending(pending, self.tags.check)
            || (!i.is_any_pending() && self.antic_due(r, now))
    }
    /// The intents, the timer, the stack (its last antic changes while it runs), until the
    /// timer rings or the next antic rule or interval moves.
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let now = view.clock().now();
        let mut until = Wakeup::Never;
        if let Some(t) = view.robot().signals.timer {
            let mut at = |d: Duration| {
                if d > now {
                    until = until.min(Wakeup::At(d));
                }
            };
            at(t.rings_at);
            for a in &self.antics {
                at(t.rings_at.saturating_sub(a.rule_min));
                at(t.rings_at
                    .saturating_sub(a.rule_max)
                    .saturating_add(Duration::from_nanos(1)));
                let since = self.last_antic.map_or(t.set_at, |l| l.max(t.set_at));
                at(since.saturating_add(a.recur_max));
            }
        }
        Some(Watch::reads(Inputs::INTENTS | Inputs::STACK | crate::inputs::USER_TIMER).until(until))
    }
    /// Ringing: it watches the touch's length and the trigger word every tick; otherwise it
    /// acts when a delegate ends.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        if self.ringing.is_some() {
            Wakeup::EveryTick
        } else {
            Wakeup::Never
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.ringing = None;
        self.decide(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let Some(mut ring) = self.ringing else {
            return;
        };
        let now = ctx.clock().now();
        let r = ctx.robot();
        let down = on_treads(r);
        let touch_since = r.touched_for().map(|held| now.saturating_sub(held));
        let long_touch = r.touched_for().is_some_and(|held| held > self.touch_cancel)
            && touch_since.is_some_and(|t| t >= ring.since);
        let picked_up = ring.was_down && !down;
        ring.was_down |= down;
        self.ringing = Some(ring);
        if ctx.intents().is_trigger_word_pending() || long_touch || picked_up {
            let _ = ctx.cancel_self();
        }
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        self.ringing = None;
        self.decide(ctx);
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(self.keys_pred.clone())
    }
}

impl<T: Copy + PartialEq> TimerUtilityCoordinator<T> {
    /// Not delegating: the next thing to do, or the end.
    fn decide<U: IntentUnion<Tag = T>, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        const C: &str = "TimerUtilityCoordinator";
        if !ctx.is_active() || ctx.is_control_delegated() {
            return;
        }
        let now = ctx.clock().now();
        let pending =
            |ctx: &Ctx<'_, U, E>, t: Option<T>| t.filter(|t| ctx.intents().is_pending(*t));
        let has_timer = ctx.robot().signals.timer.is_some();
        let next = if should_ring(ctx.robot(), now) {
            ctx.robot_mut().signals.timer = None;
            self.ringing = Some(Ringing {
                since: now,
                was_down: on_treads(ctx.robot()),
            });
            self.ids.ringing
        } else if let Some(set) = pending(ctx, self.tags.set) {
            let secs = pending_field(ctx, set, "time_s").and_then(|s| s.parse::<u64>().ok());
            claim(ctx, C, set);
            if has_timer {
                self.ids.already_set
            } else {
                match secs.map(Duration::from_secs) {
                    Some(d) if self.min <= d && d <= self.max => {
                        ctx.robot_mut().signals.timer = Some(UserTimer {
                            set_at: now,
                            rings_at: now.saturating_add(d),
                        });
                        self.last_antic = None;
                        self.ids.set
                    }
                    _ => self.ids.cant,
                }
            }
        } else if let Some(t) = [self.tags.stop, self.tags.delete]
            .into_iter()
            .flatten()
            .find(|t| ctx.intents().is_pending(*t))
        {
            claim(ctx, C, t);
            if has_timer {
                ctx.robot_mut().signals.timer = None;
                self.ids.cancel
            } else {
                self.ids.cant
            }
        } else if !ctx.intents().is_any_pending() && self.antic_due(ctx.robot(), now) {
            self.last_antic = Some(now);
            self.ids.antic
        } else if let Some(check) = pending(ctx, self.tags.check) {
            claim(ctx, C, check);
            if has_timer {
                self.ids.antic
            } else {
                self.ids.cant
            }
        } else {
            None
        };
        let started = next.is_some_and(|id| {
            ctx.wants_to_activate(id)
                && ctx
                    .delegate_if_in_control(id, Continuation::Call(0))
                    .is_ok()
        });
        if !started {
            self.ringing = None;
            let _ = ctx.cancel_self();
        }
    }
}

pub(crate) fn build_timer_coordinator<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    const C: &str = "TimerUtilityCoordinator";
    let decide = Decide::build(cx, C, &logic::TIMER_UTILITY_COORDINATOR);
    let secs =
        |k: &str| Duration::from_secs(decide.keys.get(k).and_then(Value::as_u64).unwrap_or(0));
    let min = secs("minValidTimer_s");
    let max = secs("maxValidTimer_s");
    let touch_cancel = Duration::from_millis(
        decide
            .keys
            .get("touchTimeToCancelTimer_ms")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    );
    let mut antics = Vec::new();
    let config = decide
        .keys
        .get("anticConfig")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, a) in config.iter().enumerate() {
        let u = |k: &str| a.get(k).and_then(Value::as_u64);
        match (u("recurIntervalMin_s"), u("recurIntervalMax_s")) {
            (Some(lo), Some(hi)) if lo <= hi => antics.push(Antic {
                recur_max: Duration::from_secs(hi),
                rule_min: Duration::from_secs(u("ruleMin_s").unwrap_or(0)),
                rule_max: u("ruleMax_s").map_or(Duration::MAX, Duration::from_secs),
            }),
            _ => cx.bad_value(
                "anticConfig",
                format!(
                    "entry {i}: expected recurIntervalMin_s <= recurIntervalMax_s (whole seconds), found {a}"
                ),
            ),
        }
    }
    let ringing_name = decide
        .keys
        .get("timerRingingBehaviorID")
        .and_then(Value::as_str)
        .unwrap_or("SingletonTimerRinging")
        .to_owned();
    let ids = TimerIds {
        ringing: cx.delegate_global(&ringing_name, "timerRingingBehaviorID"),
        set: hard_coded(cx, C, "SingletonTimerSet"),
        already_set: hard_coded(cx, C, "SingletonTimerAlreadySet"),
        cancel: hard_coded(cx, C, "SingletonCancelTimer"),
        antic: hard_coded(cx, C, "SingletonTimerAntic"),
        cant: hard_coded(cx, C, "SingletonICantDoThat"),
    };
    for id in ["SingletonAnticShowClock", "SingletonTimerCheckTime"] {
        let _ = hard_coded(cx, C, id);
    }
    let keys_pred = decide.describe();
    let tags = TimerTags {
        set: tag(cx, C, "set_timer"),
        stop: tag(cx, C, "global_stop"),
        delete: tag(cx, C, "global_delete"),
        check: tag(cx, C, "check_timer"),
    };
    // Its own predicate (not `decide`'s: it evaluates it in code), its delegates those its
    // code names.
    let base = Base::new(Mods::BASE.off_treads(true).always_delegates(true))
        .delegates(
            [
                ids.ringing,
                ids.set,
                ids.already_set,
                ids.cancel,
                ids.antic,
                ids.cant,
            ]
            .into_iter()
            .flatten(),
        )
        .claims([tags.set, tags.stop, tags.delete, tags.check]);
    let class = TimerUtilityCoordinator {
        keys_pred,
        min,
        max,
        touch_cancel,
        antics,
        tags,
        ids,
        last_antic: None,
        ringing: None,
    };
    Some(Box::new(Native::new(base, class)))
}
