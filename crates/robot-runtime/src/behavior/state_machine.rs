//! `InternalStates` / `HighLevelAI`: a declarative state machine of delegates in the style
//! of the original's `InternalStatesBehavior` (spec §3.8), with explicit resume rules.
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
//!        "condition": {"conditionType": "UserIntentPending", "list": [{"type": "explore_start"}]}}]},
//!     {"from": "ExploringVoiceCommand", "exitTransitions": [
//!       {"to": "Observing", "condition": {"conditionType": "TrueCondition"}}]}
//!   ],
//!   "stateTimerConditions": [{"name": "BoredOfObserving", "begin_s": 1100}],
//!   "resumeReplacements": {"ExploringVoiceCommand": "Observing"}
//! }
//! ```
//!
//! Every tick while active: the current state's **interrupting** transitions (from its
//! `from` entries, in declaration order; the first whose condition holds wins) are checked
//! first; while the state's get-in behavior runs nothing else is; when nothing is
//! delegated or the delegate [can be gently
//! interrupted](super::Behavior::can_be_gently_interrupted), the **non-interrupting**
//! transitions are checked, then, only when nothing is delegated, the **exit** ones; finally,
//! when nothing is delegated, the state's behavior is delegated to again if it wants to be
//! activated. A transition undoes the old state's intent activation, cancels its delegates
//! (without continuations), enters the new state (`activateIntent`: the pending intent with
//! that tag is activated as the state's scoped effect; `resetBehaviorTimer`: a runner timer
//! is reset; `cancelSelf`: the machine ends) and runs its `getInBehavior`, then its
//! `behavior`. A transition to the current state is ignored.
//!
//! Resume: when re-activated, the machine resumes in the state it left, replaced through
//! `resumeReplacements` (a state absent from the map resumes as itself); on its first
//! activation it starts in `initialState`. Get-in behaviors run only on fresh entries, not
//! on resume. `stateTimerConditions` define `{"customCondition": name}` = "the current
//! state has lasted at least `begin_s`" (virtual time). `ignoreMissingTransitions`,
//! `use_debug_lights`, and a state's `debugColor` / `ensureMinStimValue` are accepted for
//! compatibility and have no effect.

use std::collections::HashMap;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use super::condition::Condition;
use super::core::{Behavior, ClaimSite, Continuation, Ctx, DelegationOutcome, EffectId, View};
use super::ids::BehaviorId;
use super::loader::ProblemKind;
use super::registry::{BuildCx, Registry};
use super::IntentUnion;
use crate::intent::IntentMatcher;

/// JSON params of the state machine (class `InternalStates`, alias `HighLevelAI`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StateMachineParams {
    /// The states (required, non-empty).
    pub states: Vec<StateParams>,
    /// The first state (required).
    pub initial_state: String,
    /// Transitions (default none).
    #[serde(default)]
    pub transition_definitions: Vec<TransitionDefinition>,
    /// State → state used when resuming (default none).
    #[serde(default)]
    pub resume_replacements: HashMap<String, String>,
    /// Named "time in state" conditions (default none).
    #[serde(default)]
    pub state_timer_conditions: Vec<StateTimer>,
    /// Accepted, no effect.
    #[serde(default)]
    pub ignore_missing_transitions: bool,
    /// Accepted, no effect.
    #[serde(default, rename = "use_debug_lights")]
    pub use_debug_lights: bool,
}

/// One state.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StateParams {
    /// Its name (required, unique).
    pub name: String,
    /// Behavior run in the state (one of `behavior` / `cancelSelf` is required).
    #[serde(default)]
    pub behavior: Option<String>,
    /// Entering the state ends the machine.
    #[serde(default)]
    pub cancel_self: bool,
    /// Behavior played on fresh entry before `behavior`.
    #[serde(default)]
    pub get_in_behavior: Option<String>,
    /// Intent tag activated on entry if pending.
    #[serde(default)]
    pub activate_intent: Option<String>,
    /// Timer reset on entry.
    #[serde(default)]
    pub reset_behavior_timer: Option<String>,
    /// Accepted, no effect.
    #[serde(default)]
    pub debug_color: Option<Value>,
    /// Accepted, no effect.
    #[serde(default)]
    pub ensure_min_stim_value: Option<Value>,
}

/// One `transitionDefinitions` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TransitionDefinition {
    /// A state name, a list of names, or `"*"` (every state).
    pub from: Value,
    /// Checked first, even while the state's behavior runs.
    #[serde(default)]
    pub interrupting_transitions: Vec<Value>,
    /// Checked when nothing is delegated.
    #[serde(default)]
    pub non_interrupting_transitions: Vec<Value>,
    /// Checked last, when nothing is delegated.
    #[serde(default)]
    pub exit_transitions: Vec<Value>,
}

/// One `stateTimerConditions` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateTimer {
    /// The custom condition's name.
    pub name: String,
    /// Seconds in state.
    pub begin_s: f64,
}

struct State<T> {
    name: String,
    behavior: Option<BehaviorId>,
    get_in: Option<BehaviorId>,
    cancel_self: bool,
    activate_intent: Option<T>,
    reset_timer: Option<String>,
    resume_as: usize,
    /// Transition indices: interrupting, non-interrupting, exit.
    transitions: [Vec<usize>; 3],
}

struct Transition<U: IntentUnion, E: 'static> {
    to: usize,
    condition: Condition<U, E>,
}

const GET_IN: u32 = 1;

/// The state machine behavior (see the [module documentation](self)).
pub struct StateMachine<U: IntentUnion, E: 'static> {
    states: Vec<State<U::Tag>>,
    transitions: Vec<Transition<U, E>>,
    initial: usize,
    current: Option<usize>,
    since: Duration,
    intent_effect: Option<EffectId>,
    in_get_in: bool,
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

    fn enter(&mut self, to: usize, fresh: bool, ctx: &mut Ctx<'_, U, E>) {
        if let Some(e) = self.intent_effect.take() {
            ctx.release_effect(e);
        }
        if ctx.is_control_delegated() {
            let _ = ctx.cancel_delegates(false);
        }
        let from = self
            .current
            .map(|i| self.states[i].name.as_str())
            .unwrap_or("");
        tracing::info!(
            behavior = %ctx.my_name(),
            from,
            to = %self.states[to].name,
            fresh,
            "StateMachine.Transition"
        );
        self.current = Some(to);
        self.since = ctx.clock().now();
        self.in_get_in = false;
        let st = &self.states[to];
        if st.cancel_self {
            let _ = ctx.cancel_self();
            return;
        }
        if let Some(tag) = st.activate_intent {
            if ctx.intents().is_pending(tag) {
                match ctx.activate_intent(&IntentMatcher::Tag(tag)) {
                    Ok(e) => self.intent_effect = Some(e),
                    Err(e) => tracing::warn!(error = %e, "StateMachine.ActivateIntent.Failed"),
                }
            }
        }
        if let Some(t) = &st.reset_timer {
            ctx.reset_timer(t);
        }
        if let (true, Some(g)) = (fresh, st.get_in) {
            if ctx.wants_to_activate(g)
                && ctx
                    .delegate_if_in_control(g, Continuation::Call(GET_IN))
                    .is_ok()
            {
                self.in_get_in = true;
                return;
            }
        }
        self.run_state_behavior(ctx);
    }

    fn run_state_behavior(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(b) = self.current.and_then(|i| self.states[i].behavior) else {
            return;
        };
        if !ctx.is_control_delegated() && ctx.wants_to_activate(b) {
            let _ = ctx.delegate_if_in_control(b, Continuation::None);
        }
    }

    fn first_true(&self, kind: usize, ctx: &mut Ctx<'_, U, E>) -> Option<usize> {
        let cur = self.current?;
        ctx.set_state_since(Some(self.since));
        let hit = self.states[cur].transitions[kind]
            .iter()
            .map(|&t| &self.transitions[t])
            .find(|t| t.to != cur && ctx.eval(&t.condition))
            .map(|t| t.to);
        ctx.set_state_since(None);
        hit
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
            .collect()
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.intent_effect = None;
        match self.current {
            Some(c) => {
                let to = self.states[c].resume_as;
                self.current = None;
                self.enter(to, false, ctx);
            }
            None => self.enter(self.initial, true, ctx),
        }
    }
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        // The intent effect is undone by the runner with the other scoped effects.
        self.intent_effect = None;
        self.in_get_in = false;
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        if step == GET_IN {
            self.in_get_in = false;
            self.run_state_behavior(ctx);
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || self.current.is_none() {
            return;
        }
        if let Some(to) = self.first_true(0, ctx) {
            self.enter(to, true, ctx);
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
        if gentle {
            if let Some(to) = self.first_true(1, ctx) {
                self.enter(to, true, ctx);
                return;
            }
        }
        if delegated {
            return;
        }
        if let Some(to) = self.first_true(2, ctx) {
            self.enter(to, true, ctx);
            return;
        }
        self.run_state_behavior(ctx);
    }
    fn debug_state(&self) -> Option<&str> {
        self.current_state()
    }
    /// The transitions out of the current state, in the order `update` checks them, each
    /// with its condition's current value.
    fn introspect(&self, view: &View<'_, U, E>, out: &mut super::Introspection) {
        let Some(cur) = self.current.filter(|_| out.wants_checks()) else {
            return;
        };
        let v = view.with_state_since(Some(self.since));
        let from = &self.states[cur].name;
        for (kind, what) in ["interrupting", "non-interrupting", "exit"]
            .into_iter()
            .enumerate()
        {
            for &t in &self.states[cur].transitions[kind] {
                let t = &self.transitions[t];
                if t.to != cur {
                    let to = &self.states[t.to].name;
                    out.condition(format!("{from} -> {to} ({what})"), &t.condition, &v);
                }
            }
        }
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<U::Tag>>) {
        let mut tags = Vec::new();
        for s in &self.states {
            for kind in &s.transitions {
                for &t in kind {
                    tags.clear();
                    self.transitions[t].condition.pending_tags(&mut tags);
                    out.extend(tags.iter().map(|&tag| ClaimSite {
                        tag,
                        state: Some(s.name.as_str().into()),
                    }));
                }
            }
            if let Some(tag) = s.activate_intent {
                out.push(ClaimSite {
                    tag,
                    state: Some(s.name.as_str().into()),
                });
            }
        }
    }
}

fn build<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let p: StateMachineParams = cx.params()?;
    let before = cx.problems.len();
    if p.states.is_empty() {
        cx.problem(
            "states",
            ProblemKind::BadParams {
                reason: "at least one state is required".into(),
            },
        );
        return None;
    }
    let mut index = HashMap::new();
    for (k, s) in p.states.iter().enumerate() {
        if index.insert(s.name.clone(), k).is_some() {
            cx.problem(
                &format!("states[{k}].name"),
                ProblemKind::BadParams {
                    reason: format!("duplicate state `{}`", s.name),
                },
            );
        }
    }
    for t in &p.state_timer_conditions {
        match super::classes::secs_opt(t.begin_s) {
            Some(d) => cx.add_custom_condition(&t.name, Condition::InStateFor(d)),
            None => cx.problem(
                "stateTimerConditions",
                ProblemKind::BadParams {
                    reason: format!("`begin_s` of `{}` must be a non-negative number", t.name),
                },
            ),
        }
    }
    let mut states = Vec::with_capacity(p.states.len());
    for (k, s) in p.states.iter().enumerate() {
        let behavior = s
            .behavior
            .as_ref()
            .and_then(|b| cx.delegate(b, &format!("states[{k}].behavior")));
        let get_in = s
            .get_in_behavior
            .as_ref()
            .and_then(|b| cx.delegate(b, &format!("states[{k}].getInBehavior")));
        if s.behavior.is_none() && !s.cancel_self {
            cx.problem(
                &format!("states[{k}]"),
                ProblemKind::MissingKey {
                    key: "behavior".into(),
                },
            );
        }
        let activate_intent = match &s.activate_intent {
            Some(t) => match U::tag_from_name(t) {
                Some(tag) => Some(tag),
                None => {
                    cx.problem(
                        &format!("states[{k}].activateIntent"),
                        ProblemKind::BadMatcher {
                            reason: format!("unknown intent tag `{t}`"),
                        },
                    );
                    None
                }
            },
            None => None,
        };
        states.push(State {
            name: s.name.clone(),
            behavior,
            get_in,
            cancel_self: s.cancel_self,
            activate_intent,
            reset_timer: s.reset_behavior_timer.clone(),
            resume_as: k,
            transitions: [Vec::new(), Vec::new(), Vec::new()],
        });
    }
    let initial = match index.get(&p.initial_state) {
        Some(&i) => i,
        None => {
            cx.problem(
                "initialState",
                ProblemKind::BadParams {
                    reason: format!("unknown state `{}`", p.initial_state),
                },
            );
            0
        }
    };
    for (from, to) in &p.resume_replacements {
        match (index.get(from), index.get(to)) {
            (Some(&f), Some(&t)) => states[f].resume_as = t,
            _ => cx.problem(
                &format!("resumeReplacements.{from}"),
                ProblemKind::BadParams {
                    reason: format!("unknown state in `{from}` -> `{to}`"),
                },
            ),
        }
    }
    let mut transitions = Vec::new();
    for (d, def) in p.transition_definitions.iter().enumerate() {
        let here = format!("transitionDefinitions[{d}]");
        let froms: Vec<usize> = match &def.from {
            Value::String(s) if s == "*" => (0..states.len()).collect(),
            Value::String(s) => match index.get(s) {
                Some(&i) => vec![i],
                None => {
                    cx.problem(
                        &format!("{here}.from"),
                        ProblemKind::BadParams {
                            reason: format!("unknown state `{s}`"),
                        },
                    );
                    continue;
                }
            },
            Value::Array(a) => {
                let mut v = Vec::new();
                for (k, x) in a.iter().enumerate() {
                    match x.as_str().and_then(|s| index.get(s)) {
                        Some(&i) => v.push(i),
                        None => cx.problem(
                            &format!("{here}.from[{k}]"),
                            ProblemKind::BadParams {
                                reason: format!("unknown state {x}"),
                            },
                        ),
                    }
                }
                v
            }
            _ => {
                cx.problem(
                    &format!("{here}.from"),
                    ProblemKind::WrongType {
                        key: "from".into(),
                        expected: "a state name, a list of names or \"*\"",
                    },
                );
                continue;
            }
        };
        for (kind, (key, list)) in [
            ("interruptingTransitions", &def.interrupting_transitions),
            (
                "nonInterruptingTransitions",
                &def.non_interrupting_transitions,
            ),
            ("exitTransitions", &def.exit_transitions),
        ]
        .into_iter()
        .enumerate()
        {
            for (k, t) in list.iter().enumerate() {
                let tpath = format!("{here}.{key}[{k}]");
                let Some(o) = t.as_object() else {
                    cx.problem(
                        &tpath,
                        ProblemKind::WrongType {
                            key: key.into(),
                            expected: "an object",
                        },
                    );
                    continue;
                };
                for key in o.keys() {
                    if !["to", "condition", "emotionEvent"].contains(&key.as_str()) {
                        cx.problem(
                            &format!("{tpath}.{key}"),
                            ProblemKind::UnknownKey { key: key.clone() },
                        );
                    }
                }
                let to = match o.get("to").and_then(Value::as_str) {
                    Some(s) => match index.get(s) {
                        Some(&i) => i,
                        None => {
                            cx.problem(
                                &format!("{tpath}.to"),
                                ProblemKind::BadParams {
                                    reason: format!("unknown state `{s}`"),
                                },
                            );
                            continue;
                        }
                    },
                    None => {
                        cx.problem(&tpath, ProblemKind::MissingKey { key: "to".into() });
                        continue;
                    }
                };
                let Some(cv) = o.get("condition") else {
                    cx.problem(
                        &tpath,
                        ProblemKind::MissingKey {
                            key: "condition".into(),
                        },
                    );
                    continue;
                };
                let Some(condition) = cx.condition(cv, &format!("{tpath}.condition")) else {
                    continue;
                };
                let idx = transitions.len();
                transitions.push(Transition { to, condition });
                for &f in &froms {
                    states[f].transitions[kind].push(idx);
                }
            }
        }
    }
    if cx.problems.len() != before {
        return None;
    }
    Some(Box::new(StateMachine {
        states,
        transitions,
        initial,
        current: None,
        since: Duration::ZERO,
        intent_effect: None,
        in_get_in: false,
    }))
}

pub(crate) fn register<U: IntentUnion, E: 'static>(r: &mut Registry<U, E>) {
    r.register_class("InternalStates", build::<U, E>);
    r.register_class("HighLevelAI", build::<U, E>);
}
