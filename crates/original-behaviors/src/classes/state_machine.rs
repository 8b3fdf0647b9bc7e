//! The state machine of spec §3: the original's `InternalStatesBehavior`, as the classes
//! `HighLevelAI` (with its four tuning keys, its resume overrides and its five injected
//! custom conditions), `PRDemo`, and the project's `InternalStates` (the bare base).
//!
//! ```json
//! {
//!   "behaviorID": "HighLevelAI", "behaviorClass": "HighLevelAI",
//!   "initialState": "Observing",
//!   "states": [
//!     {"name": "Observing", "behavior": "ObservingBehavior"},
//!     {"name": "ExploringVoiceCommand", "behavior": "Explore", "activateIntent": "explore_start"}
//!   ],
//!   "transitionDefinitions": [
//!     {"from": "*", "nonInterruptingTransitions": [
//!       {"to": "ExploringVoiceCommand",
//!        "condition": {"conditionType": "UserIntentPending", "list": [{"type": "explore_start"}]}}]}
//!   ],
//!   "stateTimerConditions": [{"name": "BoredOfObserving", "begin_s": 1100}],
//!   "resumeReplacements": {"ExploringVoiceCommand": "Observing"},
//!   "socializeKnownFaceCooldown_s": 300, "playWithCubeCooldown_s": 600,
//!   "playWithCubeOnChargerCooldown_s": 900, "maxFaceDistanceToSocialize_mm": 1000
//! }
//! ```
//!
//! **Every tick while active** (current state S): while the put-down runs, nothing is
//! evaluated; S's **interrupting** transitions are evaluated in order and the first that
//! holds fires; while S's get-in runs nothing else is; when nothing is delegated or the
//! delegate can be gently interrupted, S's **non-interrupting** transitions, then (only when
//! nothing is delegated) its **exit** transitions; finally, when nothing is delegated, S's
//! behavior is delegated to if it wants to run (a state without one ends the machine).
//! Transitions of S are appended per kind in the order they appear across the definitions,
//! so a `"*"` definition written first precedes a specific one written later.
//!
//! **Firing** fires the transition's `emotionEvent`, then enters the target. Entering T:
//! the held state's exit bookkeeping (its conditions off, its intent deactivated, its end
//! time) and its delegates cancelled; T's entry bookkeeping (its `activateIntent` activated
//! when pending, owned by T's behavior; its conditions on; its start time; on a fresh entry
//! `ensureMinStimValue`); then the put-down step (the tree's `PutDownBlock` when it wants
//! to run and T's behavior may not run while carrying), else T's get-in (fresh entries
//! only), else T's behavior; on a fresh entry its `resetBehaviorTimer`. A transition to the
//! current state is taken as a **resume**: the state's behavior restarts, with no get-in,
//! timer reset or state-time reset.
//!
//! **Resume.** The first activation enters `initialState`. Later ones resume in the held
//! state, mapped through `resumeReplacements`, then (HighLevelAI) through
//! `postBehaviorSuggestionResumeOverrides`: the most recent suggestion on the whiteboard
//! (offered at most 5 ticks ago; ties go to the suggestion name that sorts first) picks the
//! state, and the whiteboard's suggestions are cleared.
//!
//! **State time** = now − the state's adjusted start. As in the original's code, time the
//! machine spends interrupted is *not* subtracted (the comments there intend otherwise; we
//! follow the code, which is what trees were tuned against). `stateTimerConditions` entries
//! are true while the current state's time reaches `begin_s`.

use std::time::Duration;

use serde_json::Value;

use robot_runtime::behavior::{
    AnswerCache, Behavior, BehaviorId, BuildCx, ClaimSite, Condition, Continuation, Ctx,
    DelegationOutcome, EffectId, Inputs, MachineTimes, OperationModifiers, Resolution, View,
    Wakeup, Watch,
};
use robot_runtime::intent::{IntentMatcher, IntentUnion};

use crate::access::{RobotAccess, RobotAccessMut};
use crate::catalog;
use crate::conditions::{HighLevelAiCondition, OriginalCondition};
use crate::robot_state::Emotion;

/// Which class the machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavor {
    /// `HighLevelAI`.
    HighLevelAi,
    /// `PRDemo`.
    PrDemo,
    /// The project's `InternalStates`: the bare base (always delegates).
    Base,
}

struct State<T> {
    name: String,
    behavior: Option<BehaviorId>,
    get_in: Option<BehaviorId>,
    activate_intent: Option<T>,
    reset_timer: Option<usize>,
    ensure_min_stim: f32,
    resume_as: usize,
    /// Transition indices: interrupting, non-interrupting, exit.
    transitions: [Vec<usize>; 3],
}

struct Transition<U: IntentUnion, E: 'static> {
    to: usize,
    condition: Condition<U, E>,
    emotion_event: Option<String>,
}

const GET_IN: u32 = 1;
const PUT_DOWN: u32 = 2;
const KINDS: [&str; 3] = [
    "interruptingTransitions",
    "nonInterruptingTransitions",
    "exitTransitions",
];

/// The state machine behavior (see the [module documentation](self)).
pub struct StateMachine<U: IntentUnion, E: 'static> {
    flavor: Flavor,
    states: Vec<State<U::Tag>>,
    transitions: Vec<Transition<U, E>>,
    initial: usize,
    /// (suggestion index, state index), sorted by suggestion name.
    suggestion_overrides: Vec<(usize, usize)>,
    put_down: Option<BehaviorId>,
    // runtime
    current: Option<usize>,
    ran_before: bool,
    first_activation: Option<Duration>,
    this_activation: Duration,
    last_started: Vec<Duration>,
    last_ended: Vec<Option<Duration>>,
    adjusted_start: Vec<Option<Duration>>,
    in_get_in: bool,
    in_put_down: bool,
    intent_effect: Option<EffectId>,
    /// Idle after a transition because the state's behavior did not want to run (warned
    /// once).
    warned_idle: bool,
    /// Bumped whenever the current state, its times or its conditions' activation change:
    /// the key of the remembered transitions.
    epoch: u64,
    /// Per kind (interrupting, non-interrupting, exit): the first transition of the current
    /// state whose condition held (none), remembered while nothing its conditions read
    /// changed.
    remembered: [AnswerCache<Option<usize>>; 3],
}

impl<U: IntentUnion, E: 'static> StateMachine<U, E> {
    /// The current state's name (the state it will resume in while inactive).
    pub fn current_state(&self) -> Option<&str> {
        self.current.map(|i| self.states[i].name.as_str())
    }
    /// All state names.
    pub fn state_names(&self) -> impl Iterator<Item = &str> {
        self.states.iter().map(|s| s.name.as_str())
    }

    fn times(&self, s: usize, now: Duration) -> MachineTimes<'_> {
        MachineTimes {
            adjusted_start: self.adjusted_start[s].unwrap_or(now),
            last_started: self.last_started[s],
            last_ended: &self.last_ended,
            first_activation: self.first_activation.unwrap_or(now),
            this_activation: self.this_activation,
        }
    }

    /// The first transition of kind `kind` of the current state whose condition holds. While
    /// none does and nothing their conditions read changed, they are not evaluated again.
    fn first_true(&mut self, kind: usize, ctx: &Ctx<'_, U, E>) -> Option<usize> {
        let cur = self.current?;
        let view = ctx.view();
        if let Some(r) = self.remembered[kind].recall(&view, self.epoch) {
            return r;
        }
        let cx = view
            .eval_cx()
            .in_machine(self.times(cur, ctx.clock().now()));
        let mut watch = Watch::reads(Inputs::STACK);
        let mut fired = None;
        for &t in &self.states[cur].transitions[kind] {
            let c = &self.transitions[t].condition;
            let holds = c.eval(&cx);
            watch = watch.and(c.watch(&cx));
            if holds {
                fired = Some(t);
                break;
            }
        }
        // A transition that fires changes the state: only "none" is worth keeping.
        if fired.is_none() {
            self.remembered[kind].keep(&view, self.epoch, None, watch);
        }
        fired
    }

    fn switch_conditions(&mut self, state: usize, on: bool, now: Duration) {
        self.epoch += 1;
        for kind in &self.states[state].transitions {
            for &t in kind {
                self.transitions[t].condition.set_active(on, now);
            }
        }
    }

    fn exit_bookkeeping(&mut self, state: usize, ctx: &mut Ctx<'_, U, E>) {
        self.epoch += 1;
        let now = ctx.clock().now();
        self.switch_conditions(state, false, now);
        if let Some(e) = self.intent_effect.take() {
            ctx.release_effect(e);
        }
        self.last_ended[state] = Some(now);
    }

    fn fire(&mut self, t: usize, ctx: &mut Ctx<'_, U, E>) {
        if let Some(e) = &self.transitions[t].emotion_event {
            ctx.robot_mut().fire_emotion_event(e);
        }
        let to = self.transitions[t].to;
        self.enter(to, ctx);
    }

    /// `TransitionToState`.
    fn enter(&mut self, to: usize, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        let resuming = self.current == Some(to) && self.ran_before;
        if let Some(held) = self.current {
            self.exit_bookkeeping(held, ctx);
            if ctx.is_control_delegated() {
                let _ = ctx.cancel_delegates(false);
            }
        }
        tracing::info!(
            behavior = %ctx.my_name(),
            from = self.current.map_or("", |i| self.states[i].name.as_str()),
            to = %self.states[to].name,
            resuming,
            "StateMachine.Transition"
        );
        self.current = Some(to);
        self.epoch += 1;
        self.ran_before = true;
        self.in_get_in = false;
        self.in_put_down = false;
        self.warned_idle = false;
        // Entry bookkeeping.
        let st = &self.states[to];
        if let Some(tag) = st.activate_intent {
            if ctx.intents().is_pending(tag) {
                let owner = st.behavior.unwrap_or(ctx.me());
                match ctx.activate_intent_for(&IntentMatcher::Tag(tag), owner) {
                    Ok(e) => self.intent_effect = Some(e),
                    Err(e) => tracing::warn!(error = %e, "StateMachine.ActivateIntent.Failed"),
                }
            }
        }
        self.switch_conditions(to, true, now);
        self.last_started[to] = now;
        match (resuming, self.adjusted_start[to], self.last_ended[to]) {
            (true, Some(adj), Some(end)) => {
                self.adjusted_start[to] = Some(adj.saturating_add(now.saturating_sub(end)))
            }
            (true, Some(_), None) => {}
            _ => self.adjusted_start[to] = Some(now),
        }
        let st = &self.states[to];
        if !resuming && st.ensure_min_stim > 0.0 {
            ctx.robot_mut()
                .ensure_emotion_at_least(Emotion::Stimulated, st.ensure_min_stim);
        }
        // Put-down, get-in or the state's behavior.
        let main = st.behavior;
        let get_in = st.get_in;
        let reset = st.reset_timer;
        let view = ctx.view();
        let must_put_down = match (self.put_down, main) {
            (Some(p), Some(b)) => {
                view.wants_to_activate(p) && view.modifiers_of(b).is_some_and(|m| !m.when_carrying)
            }
            _ => false,
        };
        if must_put_down {
            if let Some(p) = self.put_down {
                if ctx
                    .delegate_if_in_control(p, Continuation::Call(PUT_DOWN))
                    .is_ok()
                {
                    self.in_put_down = true;
                }
            }
        } else if !self.try_get_in(get_in, resuming, ctx) {
            self.run_state_behavior(ctx);
        }
        if let (false, Some(t)) = (resuming, reset) {
            ctx.reset_behavior_timer(t);
        }
    }

    fn try_get_in(
        &mut self,
        get_in: Option<BehaviorId>,
        resuming: bool,
        ctx: &mut Ctx<'_, U, E>,
    ) -> bool {
        let Some(g) = get_in.filter(|_| !resuming) else {
            return false;
        };
        if ctx.wants_to_activate(g)
            && ctx
                .delegate_if_in_control(g, Continuation::Call(GET_IN))
                .is_ok()
        {
            self.in_get_in = true;
            return true;
        }
        false
    }

    fn run_state_behavior(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(cur) = self.current else {
            return;
        };
        let Some(b) = self.states[cur].behavior else {
            let _ = ctx.cancel_self();
            return;
        };
        if ctx.is_control_delegated() {
            return;
        }
        if ctx.wants_to_activate(b) {
            let _ = ctx.delegate_if_in_control(b, Continuation::None);
        } else if !self.warned_idle {
            self.warned_idle = true;
            tracing::warn!(behavior = %ctx.my_name(), state = %self.states[cur].name, "StateMachine.BehaviorDoesNotWantToRun");
        }
    }

    /// The resume state (spec §3.2, §3.3).
    fn resume_state(&self, held: usize, ctx: &mut Ctx<'_, U, E>) -> usize {
        let mut to = self.states[held].resume_as;
        if self.flavor == Flavor::HighLevelAi && !self.suggestion_overrides.is_empty() {
            let wb = &ctx.robot().whiteboard;
            let mut best: Option<(u64, usize)> = None;
            for &(s, state) in &self.suggestion_overrides {
                if let Some(t) = wb.offered_at(s) {
                    if best.is_none_or(|(bt, _)| t > bt) {
                        best = Some((t, state));
                    }
                }
            }
            if let Some((t, state)) = best {
                if t + 5 >= ctx.clock().tick() {
                    to = state;
                    ctx.robot_mut().whiteboard.clear();
                }
            }
        }
        to
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for StateMachine<U, E> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.states
            .iter()
            .flat_map(|s| s.behavior.into_iter().chain(s.get_in))
            .chain(self.put_down)
            .collect()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        if self.flavor != Flavor::Base {
            m.allow_everywhere();
            m.always_delegates = false;
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        self.intent_effect = None;
        self.this_activation = now;
        if self.first_activation.is_none() {
            self.first_activation = Some(now);
            // As the original, the initial state is "held" before the first entry: its exit
            // bookkeeping runs, then it is entered fresh.
            self.current = Some(self.initial);
            self.enter(self.initial, ctx);
            return;
        }
        let held = self.current.unwrap_or(self.initial);
        let to = self.resume_state(held, ctx);
        self.current = Some(held);
        self.enter(to, ctx);
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(c) = self.current {
            self.exit_bookkeeping(c, ctx);
        }
        self.in_get_in = false;
        self.in_put_down = false;
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match step {
            GET_IN => {
                self.in_get_in = false;
                self.run_state_behavior(ctx);
            }
            PUT_DOWN => {
                self.in_put_down = false;
                let get_in = self.current.and_then(|c| self.states[c].get_in);
                if !self.try_get_in(get_in, false, ctx) {
                    self.run_state_behavior(ctx);
                }
            }
            _ => {}
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || self.current.is_none() || self.in_put_down {
            return;
        }
        if let Some(t) = self.first_true(0, ctx) {
            self.fire(t, ctx);
            return;
        }
        if self.in_get_in {
            return;
        }
        let delegated = ctx.is_control_delegated();
        let gentle = !delegated
            || ctx
                .current_delegate()
                .is_some_and(|d| ctx.view().can_be_gently_interrupted(d));
        if !gentle {
            return;
        }
        if let Some(t) = self.first_true(1, ctx) {
            self.fire(t, ctx);
            return;
        }
        if delegated {
            return;
        }
        if let Some(t) = self.first_true(2, ctx) {
            self.fire(t, ctx);
            return;
        }
        self.run_state_behavior(ctx);
    }
    fn debug_state(&self) -> Option<&str> {
        self.current_state()
    }
    fn states(&self) -> Vec<(&str, Option<BehaviorId>)> {
        self.states
            .iter()
            .map(|s| (s.name.as_str(), s.behavior))
            .collect()
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Active: the first time a transition it evaluates may fire (the interrupting ones;
    /// while it may interrupt its delegate gently, the non-interrupting ones; while nothing
    /// is delegated, the exit ones and its state's behavior's activation watch).
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        let me = view.me();
        let Some(cur) = self.current.filter(|_| view.active_for().is_some()) else {
            return Wakeup::Never;
        };
        if self.in_put_down {
            return Wakeup::Never;
        }
        let cx = view
            .eval_cx()
            .in_machine(self.times(cur, view.clock().now()));
        let kind = |k: usize| {
            self.states[cur].transitions[k]
                .iter()
                .fold(Wakeup::Never, |w, &t| {
                    let c = &self.transitions[t].condition;
                    w.min(match c.last() {
                        Some((_, false)) => c.next_change(&cx),
                        _ => Wakeup::EveryTick,
                    })
                })
        };
        let mut w = kind(0);
        if self.in_get_in {
            return w;
        }
        let delegated = view.is_delegating(me);
        let gentle = !delegated
            || view
                .delegate_of(me)
                .is_some_and(|d| view.can_be_gently_interrupted(d));
        if !gentle {
            return w;
        }
        w = w.min(kind(1));
        if delegated {
            return w;
        }
        w = w.min(kind(2));
        match self.states[cur].behavior {
            Some(b) => w.min(view.activation_watch(b).until),
            None => Wakeup::EveryTick,
        }
    }
    /// A transition on a pending intent into a state that activates it is a claim from the
    /// transition's state, owned by the target state's behavior; a state's
    /// `activateIntent` is a claim in that state, owned by its behavior.
    fn claim_sites(&self, out: &mut Vec<ClaimSite<U::Tag>>) {
        let mut tags = Vec::new();
        for s in &self.states {
            for kind in &s.transitions {
                for &t in kind {
                    tags.clear();
                    self.transitions[t].condition.pending_tags(&mut tags);
                    let to = &self.states[self.transitions[t].to];
                    out.extend(tags.iter().map(|&tag| {
                        ClaimSite {
                            tag,
                            state: Some(s.name.as_str().into()),
                            owner: (to.activate_intent == Some(tag))
                                .then_some(to.behavior)
                                .flatten(),
                        }
                    }));
                }
            }
            if let Some(tag) = s.activate_intent {
                out.push(ClaimSite {
                    tag,
                    state: Some(s.name.as_str().into()),
                    owner: s.behavior,
                });
            }
        }
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        for s in &self.states {
            for (kind, list) in KINDS.iter().zip(&s.transitions) {
                for &t in list {
                    let to = &self.states[self.transitions[t].to].name;
                    out.push((
                        format!("{} -> {to} ({kind})", s.name),
                        &self.transitions[t].condition,
                    ));
                }
            }
        }
    }
}

fn build<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    flavor: Flavor,
) -> Option<Box<dyn Behavior<U, E>>> {
    let before = cx.problem_count();
    // HighLevelAI's tuning keys, needed by its injected conditions.
    let mut tuning = [0.0f64; 4];
    if flavor == Flavor::HighLevelAi {
        for (i, key) in [
            "socializeKnownFaceCooldown_s",
            "playWithCubeCooldown_s",
            "playWithCubeOnChargerCooldown_s",
            "maxFaceDistanceToSocialize_mm",
        ]
        .into_iter()
        .enumerate()
        {
            match cx.req_f64(key) {
                Some(v) if v >= 0.0 => tuning[i] = v,
                Some(v) => cx.bad_value(key, format!("must be >= 0, found {v}")),
                None => {}
            }
        }
    }
    let states_json = cx.req_array("states").unwrap_or_default();
    if states_json.is_empty() && cx.has("states") {
        cx.bad_value("states", "at least one state is required");
    }
    // Names first, so transitions and replacements may refer forward.
    let mut names: Vec<String> = Vec::with_capacity(states_json.len());
    let mut valid: Vec<bool> = Vec::with_capacity(states_json.len());
    for (k, s) in states_json.iter().enumerate() {
        let name = s.get("name").and_then(Value::as_str);
        match name {
            Some(n) if names.iter().any(|x| x == n) => {
                cx.bad_value(
                    &format!("states[{k}].name"),
                    format!("duplicate state `{n}`"),
                );
                valid.push(false);
            }
            Some(n) => {
                names.push(n.to_owned());
                valid.push(true);
            }
            None => {
                cx.problem(
                    &format!("states[{k}]"),
                    robot_runtime::behavior::ProblemKind::MissingKey { key: "name".into() },
                );
                valid.push(false);
            }
        }
    }
    let index = |n: &str| names.iter().position(|x| x == n);
    let mut states: Vec<State<U::Tag>> = Vec::with_capacity(names.len());
    for (k, s) in states_json.iter().enumerate() {
        if !valid[k] {
            continue;
        }
        let Some(o) = s.as_object() else {
            continue;
        };
        let key = format!("states[{k}]");
        let st = cx.nested(o, &key, |sk, cx| {
            let mut p = cx.sink();
            let name = sk.req_str(&mut p, "name").unwrap_or_default().to_owned();
            let behavior_name = sk.str(&mut p, "behavior");
            let cancel_self = sk.bool(&mut p, "cancelSelf", false);
            let get_in_name = sk.str(&mut p, "getInBehavior");
            let intent = sk.str(&mut p, "activateIntent");
            let timer = sk.str(&mut p, "resetBehaviorTimer");
            let stim = sk.f64_or(&mut p, "ensureMinStimValue", -1.0);
            sk.str(&mut p, "debugColor");
            if behavior_name.is_some() == cancel_self {
                sk.bad(
                    &mut p,
                    "behavior",
                    "give exactly one of `behavior` and `cancelSelf: true`",
                );
            }
            let activate_intent = intent.and_then(|t| match U::tag_from_name(t) {
                Some(tag) => Some(tag),
                None => {
                    sk.bad(
                        &mut p,
                        "activateIntent",
                        format!("unknown intent tag `{t}`"),
                    );
                    None
                }
            });
            let reset_timer =
                timer.and_then(|t| match crate::robot_state::BehaviorTimers::index(t) {
                    Some(i) => Some(i),
                    None => {
                        sk.bad(
                            &mut p,
                            "resetBehaviorTimer",
                            format!("unknown behavior timer `{t}`"),
                        );
                        None
                    }
                });
            let behavior = behavior_name.and_then(|b| {
                cx.delegate_by(b, &format!("{key}.behavior"), Resolution::GlobalOnly)
            });
            let get_in = get_in_name.and_then(|b| {
                cx.delegate_by(b, &format!("{key}.getInBehavior"), Resolution::GlobalOnly)
            });
            State {
                name,
                behavior,
                get_in,
                activate_intent,
                reset_timer,
                ensure_min_stim: stim as f32,
                resume_as: 0,
                transitions: [Vec::new(), Vec::new(), Vec::new()],
            }
        });
        states.push(st);
    }
    for (i, s) in states.iter_mut().enumerate() {
        s.resume_as = i;
    }
    let initial = match cx.req_str("initialState") {
        Some(n) => match index(n) {
            Some(i) => i,
            None => {
                cx.bad_value("initialState", format!("unknown state `{n}`"));
                0
            }
        },
        None => 0,
    };
    if let Some(r) = cx.obj("resumeReplacements") {
        for (from, to) in r {
            match (index(from), to.as_str().and_then(index)) {
                (Some(f), Some(t)) => states[f].resume_as = t,
                _ => cx.bad_value(
                    &format!("resumeReplacements.{from}"),
                    format!("unknown state in `{from}` -> {to}"),
                ),
            }
        }
    }
    let mut suggestion_overrides = Vec::new();
    if flavor == Flavor::HighLevelAi {
        if let Some(r) = cx.obj("postBehaviorSuggestionResumeOverrides") {
            for (sug, to) in r {
                let s = catalog::POST_BEHAVIOR_SUGGESTIONS
                    .iter()
                    .position(|n| n == sug);
                match (s, to.as_str().and_then(index)) {
                    (Some(s), Some(t)) => suggestion_overrides.push((s, t)),
                    (None, _) => cx.bad_value(
                        &format!("postBehaviorSuggestionResumeOverrides.{sug}"),
                        format!(
                            "unknown suggestion `{sug}` (expected one of {})",
                            catalog::POST_BEHAVIOR_SUGGESTIONS.join(", ")
                        ),
                    ),
                    (_, None) => cx.bad_value(
                        &format!("postBehaviorSuggestionResumeOverrides.{sug}"),
                        format!("unknown state {to}"),
                    ),
                }
            }
        }
        let secs = |x: f64| Duration::try_from_secs_f64(x).unwrap_or(Duration::MAX);
        let customs = [
            (
                "CloseFaceForSocializing",
                HighLevelAiCondition::CloseFaceForSocializing {
                    cooldown: secs(tuning[0]),
                    max_distance_mm: tuning[3] as f32,
                },
            ),
            ("ChargerLocated", HighLevelAiCondition::ChargerLocated),
            (
                "WantsToLeaveChargerForPlay",
                HighLevelAiCondition::WantsToLeaveChargerForPlay {
                    charger_cooldown: secs(tuning[2]),
                    cube_cooldown: secs(tuning[1]),
                    drive_off_state: index("ObservingDriveOffCharger"),
                },
            ),
            (
                "CloseCubeForPlaying",
                HighLevelAiCondition::CloseCubeForPlaying {
                    cube_cooldown: secs(tuning[1]),
                },
            ),
            (
                "ExploringCooldownMet",
                HighLevelAiCondition::ExploringCooldownMet {
                    exploring_state: index("Exploring"),
                },
            ),
        ];
        for (name, c) in customs {
            cx.add_custom_condition(name, OriginalCondition::HighLevelAi(c).condition());
        }
    }
    for (k, t) in cx
        .array("stateTimerConditions")
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let key = format!("stateTimerConditions[{k}]");
        let Some(o) = t.as_object() else {
            cx.bad_value(&key, "must be {\"name\": .., \"begin_s\": ..}");
            continue;
        };
        let got = cx.nested(o, &key, |tk, cx| {
            let mut p = cx.sink();
            let name = tk.req_str(&mut p, "name");
            let begin = tk.req_f64(&mut p, "begin_s");
            if let Some(b) = begin.filter(|b| *b < 0.0) {
                tk.bad(&mut p, "begin_s", format!("must be >= 0, found {b}"));
                return None;
            }
            Some((
                name?.to_owned(),
                Duration::try_from_secs_f64(begin?).unwrap_or(Duration::MAX),
            ))
        });
        if let Some((name, begin)) = got {
            cx.add_custom_condition(&name, OriginalCondition::StateTime(begin).condition());
        }
    }
    cx.bool("ignoreMissingTransitions", false);
    cx.accept("emotionEvent");
    cx.bool("use_debug_lights", false);
    let mut transitions: Vec<Transition<U, E>> = Vec::new();
    for (d, def) in cx
        .array("transitionDefinitions")
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let here = format!("transitionDefinitions[{d}]");
        let Some(o) = def.as_object() else {
            cx.bad_value(&here, "must be an object");
            continue;
        };
        cx.nested(o, &here, |dk, cx| {
            let from: Vec<usize> = match dk.get("from") {
                Some(Value::String(s)) if s == "*" => (0..states.len()).collect(),
                Some(Value::String(s)) => match index(s) {
                    Some(i) => vec![i],
                    None => {
                        cx.bad_value(&format!("{here}.from"), format!("unknown state `{s}`"));
                        return;
                    }
                },
                Some(Value::Array(a)) if !a.is_empty() => {
                    let mut v = Vec::new();
                    for (k, x) in a.iter().enumerate() {
                        match x.as_str().and_then(index) {
                            Some(i) => v.push(i),
                            None => cx.bad_value(
                                &format!("{here}.from[{k}]"),
                                format!("unknown state {x}"),
                            ),
                        }
                    }
                    v
                }
                Some(_) => {
                    cx.bad_value(
                        &format!("{here}.from"),
                        "must be a state name, a non-empty list of names or \"*\"",
                    );
                    return;
                }
                None => {
                    cx.problem(
                        &here,
                        robot_runtime::behavior::ProblemKind::MissingKey { key: "from".into() },
                    );
                    return;
                }
            };
            for (kind, key) in KINDS.iter().enumerate() {
                let Some(list) = dk.get(key) else {
                    continue;
                };
                let Some(list) = list.as_array() else {
                    cx.bad_value(&format!("{here}.{key}"), "must be an array");
                    continue;
                };
                for (k, t) in list.iter().enumerate() {
                    let tpath = format!("{here}.{key}[{k}]");
                    let Some(o) = t.as_object() else {
                        cx.bad_value(&tpath, "must be {\"to\": .., \"condition\": ..}");
                        continue;
                    };
                    let got = cx.nested(o, &tpath, |tk, cx| {
                        let mut p = cx.sink();
                        let to = tk.req_str(&mut p, "to");
                        let cond = tk.required(&mut p, "condition");
                        let emotion = tk.str(&mut p, "emotionEvent").map(str::to_owned);
                        let to = match to.map(|s| (s, index(s))) {
                            Some((_, Some(i))) => Some(i),
                            Some((s, None)) => {
                                tk.bad(&mut p, "to", format!("unknown state `{s}`"));
                                None
                            }
                            None => None,
                        };
                        let condition = match cond {
                            Some(c) => cx.condition(c, &format!("{tpath}.condition")),
                            None => None,
                        };
                        Some(Transition {
                            to: to?,
                            condition: condition?,
                            emotion_event: emotion,
                        })
                    });
                    if let Some(t) = got {
                        // Each from-state gets its own copy (its own condition state).
                        for &f in &from {
                            states[f].transitions[kind].push(transitions.len());
                            transitions.push(Transition {
                                to: t.to,
                                condition: t.condition.clone(),
                                emotion_event: t.emotion_event.clone(),
                            });
                        }
                    }
                }
            }
        });
    }
    // `PutDownBlock`, named by the original's code: a delegate when the tree has it (the
    // loader reports it missing).
    let put_down = cx.global_id("PutDownBlock");
    if let Some(p) = put_down {
        cx.declare_delegate(p);
    }
    if cx.problem_count() != before || states.is_empty() {
        return None;
    }
    let n = states.len();
    Some(Box::new(StateMachine {
        flavor,
        states,
        transitions,
        initial,
        suggestion_overrides,
        put_down,
        current: None,
        ran_before: false,
        first_activation: None,
        this_activation: Duration::ZERO,
        last_started: vec![Duration::ZERO; n],
        last_ended: vec![None; n],
        adjusted_start: vec![None; n],
        in_get_in: false,
        in_put_down: false,
        intent_effect: None,
        warned_idle: false,
        epoch: 0,
        remembered: Default::default(),
    }))
}

pub(crate) fn build_high_level_ai<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    build(cx, Flavor::HighLevelAi)
}

pub(crate) fn build_pr_demo<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    build(cx, Flavor::PrDemo)
}

pub(crate) fn build_internal_states<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    build(cx, Flavor::Base)
}
