//! `SleepCycle` ([`SleepCycle`]).

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClassPredicate, Condition, Continuation, Ctx,
    DelegationOutcome, EffectId, IntentUnion, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentMatcher;
use serde_json::Value;

use super::{active_since, data, pred, within};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::classes::native::{Base, Native, NativeClass, EVERYWHERE};
use crate::keys::read_class_keys;
use crate::robot_state::{RobotState, Whiteboard};

/// The sleep states of SleepCycle (the original's `SleepStateID`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SleepState {
    Awake,
    /// `system_sleep`: no wake but the always-reasons; deep sleep after 30 s.
    Comatose,
    /// After the emergency condition.
    EmergencySleep,
    DeepSleep,
    LightSleep,
    /// Held in a palm.
    HeldInPalmSleep,
}

impl SleepState {
    const NAMES: [(&'static str, SleepState); 6] = [
        ("Awake", SleepState::Awake),
        ("Comatose", SleepState::Comatose),
        ("EmergencySleep", SleepState::EmergencySleep),
        ("DeepSleep", SleepState::DeepSleep),
        ("LightSleep", SleepState::LightSleep),
        ("HeldInPalmSleep", SleepState::HeldInPalmSleep),
    ];
    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |(n, _)| n)
    }
    fn from_name(n: &str) -> Option<SleepState> {
        Self::NAMES.iter().find(|(k, _)| *k == n).map(|(_, s)| *s)
    }
}

/// The wake reasons the code adds itself (OCP §2.4), and those never configured.
const CODE_REASONS: &[&str] = &[
    "SDK",
    "TimerShouldRing",
    "VoiceCommand",
    "Sound",
    "Jolted",
    "PickedUpFromPalm",
];

/// What runs in the current sleep step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SleepStep {
    /// The awake delegate (or nothing to run).
    Awake,
    /// Going to the charger before sleeping.
    ToCharger,
    /// Going to sleep (GoToSleep).
    GoingToSleep,
    /// Asleep (the Asleep behavior).
    Asleep,
    /// Waking up (SleepingWakeUp).
    WakingUp,
}

/// `SleepCycle` (OCP §2.4): every gate open but always-delegates; awake it delegates its
/// `delegateID` and goes to sleep on, in this order, a pending `system_sleep` (claimed:
/// Comatose), a pending `greeting_goodnight` (claimed: ReactToGoodNight, the
/// `goToChargerBehavior`, then light sleep), a fresh `SleepOnPalm` suggestion (palm sleep),
/// unless it woke less than 10 minutes ago a fresh `SleepOnCharger` (to the charger, then
/// sleep) or `Sleep` suggestion (sleep in place); the `emergencyCondition` puts it in
/// emergency sleep. Going to sleep runs GoToSleep then Asleep; asleep it checks the wake
/// reasons (the always-reasons, then the state's, each a configured condition or one the
/// code adds: SDK, TimerShouldRing, VoiceCommand); Comatose turns deep after 30 s. Waking
/// releases the claimed intent, runs SleepingWakeUp and re-delegates the awake delegate.
/// Awake, it ends when the awake delegate ends (always-delegates).
pub struct SleepCycle<U: IntentUnion, E: 'static> {
    awake: Option<BehaviorId>,
    to_charger: Option<BehaviorId>,
    go_to_sleep: Option<BehaviorId>,
    asleep: Option<BehaviorId>,
    wake_up: Option<BehaviorId>,
    /// Configured wake reasons.
    conditions: Vec<(String, Condition<U, E>)>,
    always: Vec<String>,
    from_states: Vec<(SleepState, Vec<String>)>,
    emergency: Option<Condition<U, E>>,
    system_sleep: Option<U::Tag>,
    goodnight: Option<U::Tag>,
    state: SleepState,
    step: SleepStep,
    /// The state to enter after going to the charger / to sleep.
    target: SleepState,
    state_since: Duration,
    woke_at: Option<Duration>,
    claimed: Option<EffectId>,
}

/// How long suggestions stay fresh, in ticks.
const FRESH_TICKS: u64 = 5;
/// No sleep suggestion is taken this soon after waking.
const WOKE_RECENTLY: Duration = Duration::from_secs(10 * 60);
/// Comatose turns into deep sleep after this.
const COMATOSE_TO_DEEP: Duration = Duration::from_secs(30);

const STEP_TO_CHARGER: u32 = 1;
const STEP_GO_TO_SLEEP: u32 = 2;
const STEP_WAKE_UP: u32 = 3;
const STEP_AWAKE_DONE: u32 = 4;

impl<U: IntentUnion, E: 'static> SleepCycle<U, E> {
    fn fresh(robot: &RobotState, name: &str) -> bool {
        Whiteboard::index(name)
            .and_then(|i| robot.whiteboard.offered_at(i))
            .is_some_and(|t| robot.tick().saturating_sub(t) <= FRESH_TICKS)
    }

    fn run(&mut self, ctx: &mut Ctx<'_, U, E>, id: Option<BehaviorId>, step: u32) -> bool {
        let Some(id) = id else {
            return false;
        };
        if ctx.is_control_delegated() {
            let _ = ctx.cancel_delegates(false);
        }
        ctx.wants_to_activate(id)
            && ctx
                .delegate_if_in_control(id, Continuation::Call(step))
                .is_ok()
    }

    fn run_awake(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.step = SleepStep::Awake;
        self.state = SleepState::Awake;
        let awake = self.awake;
        let _ = self.run(ctx, awake, STEP_AWAKE_DONE);
    }

    /// Falls asleep in `state` (through GoToSleep when the tree has it).
    fn sleep(&mut self, ctx: &mut Ctx<'_, U, E>, state: SleepState) {
        self.target = state;
        self.step = SleepStep::GoingToSleep;
        let go = self.go_to_sleep;
        if !self.run(ctx, go, STEP_GO_TO_SLEEP) {
            self.fall_asleep(ctx);
        }
    }

    fn fall_asleep(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.state = self.target;
        self.state_since = ctx.clock().now();
        self.step = SleepStep::Asleep;
        let asleep = self.asleep;
        if !self.run(ctx, asleep, 0) && ctx.is_control_delegated() {
            let _ = ctx.cancel_delegates(false);
        }
    }

    fn charger_then_sleep(&mut self, ctx: &mut Ctx<'_, U, E>, state: SleepState) {
        self.target = state;
        self.step = SleepStep::ToCharger;
        let c = self.to_charger;
        if !self.run(ctx, c, STEP_TO_CHARGER) {
            self.sleep(ctx, state);
        }
    }

    fn claim(&mut self, ctx: &mut Ctx<'_, U, E>, tag: U::Tag) {
        match ctx.activate_intent(&IntentMatcher::Tag(tag)) {
            Ok(e) => self.claimed = Some(e),
            Err(e) => tracing::warn!(error = %e, "SleepCycle.ClaimFailed"),
        }
    }

    fn wake(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(e) = self.claimed.take() {
            ctx.release_effect(e);
        }
        self.woke_at = Some(ctx.clock().now());
        self.state = SleepState::Awake;
        self.step = SleepStep::WakingUp;
        let w = self.wake_up;
        if !self.run(ctx, w, STEP_WAKE_UP) {
            self.run_awake(ctx);
        }
    }

    /// True when wake reason `reason` holds now.
    fn reason_holds(&self, view: &View<'_, U, E>, reason: &str) -> bool {
        match reason {
            "SDK" => view.robot().signals.sdk_control.is_some(),
            "TimerShouldRing" => view
                .robot()
                .signals
                .timer
                .is_some_and(|t| t.rings_at <= view.robot().now()),
            "VoiceCommand" => {
                view.intents().is_any_pending() && !view.intents().is_trigger_word_pending()
            }
            _ => self
                .conditions
                .iter()
                .filter(|(r, _)| r == reason)
                .any(|(_, c)| view.eval(c)),
        }
    }

    fn should_wake(&self, view: &View<'_, U, E>) -> bool {
        let extra = self
            .from_states
            .iter()
            .filter(|(s, _)| *s == self.state)
            .flat_map(|(_, r)| r.iter());
        self.always
            .iter()
            .chain(extra)
            .any(|r| self.reason_holds(view, r))
    }

    fn awake_tick(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(t) = self.system_sleep.filter(|t| ctx.intents().is_pending(*t)) {
            self.claim(ctx, t);
            self.sleep(ctx, SleepState::Comatose);
            return;
        }
        if let Some(t) = self.goodnight.filter(|t| ctx.intents().is_pending(*t)) {
            self.claim(ctx, t);
            ctx.robot_mut().fire_emotion_event("RespondToGoodNight");
            self.target = SleepState::LightSleep;
            self.step = SleepStep::ToCharger;
            if ctx.is_control_delegated() {
                let _ = ctx.cancel_delegates(false);
            }
            let r = ctx.play(
                &ActionRequest::Animation {
                    name: "ReactToGoodNight",
                    loops: 1,
                },
                Continuation::Call(STEP_GO_TO_SLEEP + 100),
            );
            if r.is_err() {
                self.charger_then_sleep(ctx, SleepState::LightSleep);
            }
            return;
        }
        let robot = ctx.robot();
        let now = robot.now();
        if Self::fresh(robot, "SleepOnPalm") {
            self.sleep(ctx, SleepState::HeldInPalmSleep);
            return;
        }
        if !within(self.woke_at, WOKE_RECENTLY, now) {
            if Self::fresh(robot, "SleepOnCharger") {
                self.charger_then_sleep(ctx, SleepState::LightSleep);
                return;
            }
            if Self::fresh(robot, "Sleep") {
                self.sleep(ctx, SleepState::LightSleep);
                return;
            }
        }
        if self.emergency.as_ref().is_some_and(|c| ctx.eval(c)) {
            self.sleep(ctx, SleepState::EmergencySleep);
        }
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for SleepCycle<U, E> {
    fn linked_scope(&self) -> Vec<BehaviorId> {
        self.awake.into_iter().collect()
    }
    fn on_entered_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        for (_, c) in &self.conditions {
            c.set_active(true, now);
        }
        if let Some(c) = &self.emergency {
            c.set_active(true, now);
        }
    }
    fn on_left_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        for (_, c) in &self.conditions {
            c.set_active(false, now);
        }
        if let Some(c) = &self.emergency {
            c.set_active(false, now);
        }
    }
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Awake, it acts on inputs (a pending intent, a suggestion, the robot state its
    /// emergency condition reads) or when that condition's time comes; asleep, when a wake
    /// reason's condition's time comes, the user timer rings, or Comatose turns deep;
    /// otherwise it waits for its delegate.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        if active_since(view).is_none() {
            return Wakeup::Never;
        }
        let cx = view.eval_cx();
        match self.step {
            SleepStep::Awake => self
                .emergency
                .as_ref()
                .map_or(Wakeup::Never, |c| c.next_change(&cx)),
            SleepStep::Asleep => {
                let mut w = self
                    .conditions
                    .iter()
                    .fold(Wakeup::Never, |w, (_, c)| w.min(c.next_change(&cx)));
                if self.state == SleepState::Comatose {
                    w = w.min(Wakeup::At(self.state_since + COMATOSE_TO_DEEP));
                }
                if let Some(t) = view.robot().signals.timer {
                    if t.rings_at > view.robot().now() {
                        w = w.min(Wakeup::At(t.rings_at));
                    }
                }
                w
            }
            SleepStep::ToCharger | SleepStep::GoingToSleep | SleepStep::WakingUp => Wakeup::Never,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.claimed = None;
        self.run_awake(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        match self.step {
            SleepStep::Awake => self.awake_tick(ctx),
            SleepStep::Asleep => {
                let now = ctx.clock().now();
                if self.state == SleepState::Comatose
                    && now.saturating_sub(self.state_since) >= COMATOSE_TO_DEEP
                {
                    self.state = SleepState::DeepSleep;
                    self.state_since = now;
                }
                let wake = {
                    let view = ctx.view();
                    self.should_wake(&view)
                };
                if wake {
                    self.wake(ctx);
                }
            }
            SleepStep::ToCharger | SleepStep::GoingToSleep | SleepStep::WakingUp => {}
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match step {
            s if s == STEP_GO_TO_SLEEP + 100 => self.charger_then_sleep(ctx, self.target),
            STEP_TO_CHARGER => self.sleep(ctx, self.target),
            STEP_GO_TO_SLEEP => self.fall_asleep(ctx),
            STEP_WAKE_UP => self.run_awake(ctx),
            // The awake delegate ended while awake: always-delegates ends SleepCycle.
            _ => {}
        }
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(e) = self.claimed.take() {
            ctx.release_effect(e);
        }
        self.state = SleepState::Awake;
        self.step = SleepStep::Awake;
    }
    fn debug_state(&self) -> Option<&str> {
        Some(self.state.name())
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        for (r, c) in &self.conditions {
            out.push((format!("wake reason {r}"), c));
        }
        if let Some(c) = &self.emergency {
            out.push(("emergencyCondition".into(), c));
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred("true", &[]))
    }
}

pub(crate) fn build_sleep_cycle<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("SleepCycle"));
    let ok = std::cell::Cell::new(true);
    let reason_name = |cx: &mut BuildCx<'_, U, E>, v: &Value, at: &str| -> Option<String> {
        match v.as_str() {
            Some(s) if !s.trim().is_empty() => Some(s.to_owned()),
            _ => {
                cx.bad_value(at, format!("expected a WakeReason name, found {v}"));
                ok.set(false);
                None
            }
        }
    };
    let mut conditions = Vec::new();
    if let Some(Value::Array(list)) = keys.get("wakeReasonConditions") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("wakeReasonConditions[{i}]");
            let reason = item
                .get("reason")
                .and_then(|r| reason_name(cx, r, &format!("{at}.reason")));
            let cond = match item.get("condition") {
                Some(c) => cx.condition(c, &format!("{at}.condition")),
                None => {
                    cx.bad_value(&at, "needs `reason` and `condition`");
                    None
                }
            };
            if let (Some(r), Some(c)) = (reason, cond) {
                conditions.push((r, c));
            }
        }
    }
    let mut always = Vec::new();
    if let Some(Value::Array(list)) = keys.get("alwaysWakeReasons") {
        for (i, r) in list.iter().enumerate() {
            if let Some(r) = reason_name(cx, r, &format!("alwaysWakeReasons[{i}]")) {
                always.push(r);
            }
        }
    }
    let mut from_states = Vec::new();
    if let Some(Value::Array(list)) = keys.get("wakeFromStates") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("wakeFromStates[{i}]");
            let state = item
                .get("fromState")
                .and_then(Value::as_str)
                .and_then(SleepState::from_name);
            let Some(state) = state else {
                cx.bad_value(
                    &format!("{at}.fromState"),
                    "expected a sleep state (Awake, Comatose, EmergencySleep, DeepSleep, LightSleep, HeldInPalmSleep)",
                );
                ok.set(false);
                continue;
            };
            let mut reasons = Vec::new();
            match item.get("reasons") {
                Some(Value::Array(rs)) => {
                    for (j, r) in rs.iter().enumerate() {
                        if let Some(r) = reason_name(cx, r, &format!("{at}.reasons[{j}]")) {
                            reasons.push(r);
                        }
                    }
                }
                _ => {
                    cx.bad_value(&at, "needs `reasons`: an array of WakeReason names");
                    ok.set(false);
                }
            }
            from_states.push((state, reasons));
        }
    }
    // A reason used but neither configured nor added in code never wakes it: said at load.
    let used: Vec<&String> = always
        .iter()
        .chain(from_states.iter().flat_map(|(_, r)| r.iter()))
        .collect();
    for r in used {
        if !CODE_REASONS.contains(&r.as_str()) && !conditions.iter().any(|(c, _)| c == r) {
            cx.info(robot_runtime::behavior::ProblemKind::Unmodelled {
                class: "SleepCycle".into(),
                input: format!("wake reason `{r}` (no condition in `wakeReasonConditions`)"),
            });
        }
    }
    let emergency = match keys.get("emergencyCondition") {
        Some(v) => cx.condition(v, "emergencyCondition"),
        None => None,
    };
    let awake = keys
        .get("delegateID")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate_global(n, "delegateID"));
    let to_charger = keys
        .get("goToChargerBehavior")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate_global(n, "goToChargerBehavior"));
    let mut hard = |name: &str| {
        let id = cx.global_id(name);
        if let Some(id) = id {
            cx.declare_delegate(id);
        }
        id
    };
    let go_to_sleep = hard("GoToSleep");
    let asleep = hard("Asleep");
    let wake_up = hard("SleepingWakeUp");
    if !ok.get() {
        return None;
    }
    let system_sleep = U::tag_from_name("system_sleep");
    let goodnight = U::tag_from_name("greeting_goodnight");
    let delegates = [awake, to_charger, go_to_sleep, asleep, wake_up]
        .into_iter()
        .flatten()
        .fold(Vec::new(), |mut v, id| {
            if !v.contains(&id) {
                v.push(id);
            }
            v
        });
    // Every gate open (always-delegates as the base's default).
    let base = Base::new(EVERYWHERE)
        .delegates(delegates)
        .claims([system_sleep, goodnight]);
    Some(Box::new(Native::new(
        base,
        SleepCycle {
            awake,
            to_charger,
            go_to_sleep,
            asleep,
            wake_up,
            conditions,
            always,
            from_states,
            emergency,
            system_sleep,
            goodnight,
            state: SleepState::Awake,
            step: SleepStep::Awake,
            target: SleepState::LightSleep,
            state_since: Duration::ZERO,
            woke_at: None,
            claimed: None,
        },
    )))
}
