//! Introspection: what a running tree can tell a tool about itself between ticks (the
//! original's WebViz "Behaviors" and "behaviorconds" tabs, Groot2's live view).
//!
//! * [`Runner::shape`]: the tree's structure ([`TreeShape`]: names, classes, delegates,
//!   `respondToUserIntents`, condition texts), serializable, e.g. as a trace header.
//! * [`Runner::status`]: each behavior's status now ([`NodeStatus`]: out of scope, in scope
//!   or active, its stack position, whether it wants to run, its cooldown, the action it
//!   runs, its debug state, how long it has been active).
//! * [`Runner::gate`]: why a behavior does or does not want to run ([`Gate`]): each check
//!   the runner makes — scope, `respondToUserIntents` against the pending intent,
//!   `wantsToBeActivatedCondition` explained node by node with current values, the class's
//!   own `wants_to_be_activated`, a parent's cooldown — and, while it is active, its
//!   `wantsToCancelSelfCondition`; plus what the behavior's own logic reports through
//!   [`Behavior::introspect`](super::Behavior::introspect) (a state machine's transitions).
//! * [`Condition::explain`]: one condition as a tree of [`Check`]s.
//! * [`Runner::force`]: puts a behavior on the stack through its delegation path, whether
//!   or not it wants to run, as the original's developer tools could (they wrapped the
//!   requested behavior in a `DispatcherRerun`; here the path from the base is pushed as a
//!   named stack is, with [`Runner::replace_stack`]).
//!
//! Everything but [`Runner::force`] reads the runner through its public queries and pure
//! hooks; nothing is recorded (unlike [`View::wants_to_activate`], which records a true
//! answer), so asking between ticks changes nothing the next tick does.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use super::condition::Condition;
use super::core::{LifecycleState, RunnerError, View};
use super::ids::BehaviorId;
use super::{IntentUnion, Runner};
use crate::intent::IntentMatcher;

/// The structure of a tree: what does not change while it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TreeShape {
    /// Index of the base behavior.
    pub base: usize,
    /// Every behavior, by arena index.
    pub nodes: Vec<NodeShape>,
}

/// One behavior of a [`TreeShape`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeShape {
    /// Arena index (the index into [`TreeShape::nodes`]).
    pub index: usize,
    /// Its `behaviorID` (anonymous behaviors: `Owner@name`).
    pub name: String,
    /// Its `behaviorClass`.
    pub class: String,
    /// Declared delegates, by index.
    pub delegates: Vec<usize>,
    /// An opaque stand-in for a class the registry does not know (never runs).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub opaque: bool,
    /// `respondToUserIntents`, one text per matcher.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub responds_to: Vec<String>,
    /// `wantsToBeActivatedCondition`, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wants_condition: Option<String>,
    /// `wantsToCancelSelfCondition`, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel_condition: Option<String>,
}

/// How one behavior stands now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeStatus {
    /// Arena index.
    pub index: usize,
    /// Out of scope, in scope (a possible delegate of an active behavior) or active.
    #[serde(serialize_with = "state_name")]
    pub state: LifecycleState,
    /// Its position on the stack (0 = the base), when active.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_position: Option<usize>,
    /// It would be activated if asked now: active, or in scope with every gate of
    /// [`Runner::gate`] passing. A parent's cooldown does not change this (see
    /// [`cooldown_ms`](Self::cooldown_ms)).
    pub wants_to_run: bool,
    /// A parent keeps it on cooldown for this long still ([`Behavior::introspect`](super::Behavior::introspect)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cooldown_ms: Option<u64>,
    /// The action its stack frame runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Its [`Behavior::debug_state`](super::Behavior::debug_state) (a state machine's state).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debug_state: Option<String>,
    /// How long it has been active (virtual time), when active.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_ms: Option<u64>,
}

fn state_name<S: serde::Serializer>(state: &LifecycleState, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(lifecycle_name(*state))
}

/// `out_of_scope`, `in_scope` or `active`.
pub fn lifecycle_name(state: LifecycleState) -> &'static str {
    match state {
        LifecycleState::OutOfScope => "out_of_scope",
        LifecycleState::InScope => "in_scope",
        LifecycleState::Active => "active",
    }
}

/// One check with its current value: a condition node, a gate of the runner, a transition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What is checked (`UserIntentPending [set_timer]`, `in scope`, ...).
    pub label: String,
    /// The value it looked at, for a person (`pending: set_timer`, `active 1.20 s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Whether it holds now.
    pub holds: bool,
    /// Its parts (operands of and / or / not, matchers of a list).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Check>,
}

impl Check {
    /// A leaf.
    pub fn new(label: impl Into<String>, value: Option<String>, holds: bool) -> Self {
        Self {
            label: label.into(),
            value,
            holds,
            children: Vec::new(),
        }
    }
}

/// Why a behavior does or does not want to run now ([`Runner::gate`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gate {
    /// Arena index.
    pub index: usize,
    /// Whether it wants to run ([`NodeStatus::wants_to_run`]).
    pub wants_to_run: bool,
    /// The runner's checks, in the order it makes them; it wants to run when all hold.
    pub checks: Vec<Check>,
    /// While active: its `wantsToCancelSelfCondition` (holding means it ends this tick).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel: Option<Check>,
    /// What its own logic reports ([`Behavior::introspect`](super::Behavior::introspect)): a state machine's transitions
    /// out of its current state, a dispatcher's cooldowns.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub own: Vec<Check>,
}

/// What [`Behavior::introspect`](super::Behavior::introspect) reports: children on cooldown, labelled checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Introspection {
    cooldowns: Vec<(BehaviorId, Duration)>,
    checks: Vec<Check>,
    want_checks: bool,
}

impl Default for Introspection {
    fn default() -> Self {
        Self::new(true)
    }
}

impl Introspection {
    /// An empty report; `want_checks` false when only cooldowns are asked for (a behavior
    /// may then skip building its checks, see [`wants_checks`](Self::wants_checks)).
    pub fn new(want_checks: bool) -> Self {
        Self {
            cooldowns: Vec::new(),
            checks: Vec::new(),
            want_checks,
        }
    }
    /// Whether checks are asked for (building them costs strings; cooldowns are cheap).
    pub fn wants_checks(&self) -> bool {
        self.want_checks
    }
    /// `child` is on cooldown for `remaining` more (a cooldown dispatcher skips it).
    pub fn cooldown(&mut self, child: BehaviorId, remaining: Duration) {
        self.cooldowns.push((child, remaining));
    }
    /// A condition this behavior checks, labelled (`Observe → Explore (exit)`), evaluated
    /// and explained with `view` (pass the view the behavior itself would use, e.g. one
    /// [`with_state_since`](View::with_state_since) its state's start).
    pub fn condition<U: IntentUnion, E: 'static>(
        &mut self,
        label: impl Into<String>,
        condition: &Condition<U, E>,
        view: &View<'_, U, E>,
    ) {
        if !self.want_checks {
            return;
        }
        let explained = condition.explain(view);
        self.checks.push(Check {
            label: label.into(),
            value: None,
            holds: explained.holds,
            children: vec![explained],
        });
    }
    /// Any other check.
    pub fn check(&mut self, check: Check) {
        if self.want_checks {
            self.checks.push(check);
        }
    }
    /// The children reported on cooldown.
    pub fn cooldowns(&self) -> &[(BehaviorId, Duration)] {
        &self.cooldowns
    }
    /// The checks reported.
    pub fn checks(&self) -> &[Check] {
        &self.checks
    }
}

/// Why [`Runner::force`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ForceError {
    /// No behavior has this ID.
    #[error("no behavior {0}")]
    Unknown(BehaviorId),
    /// No chain of declared delegates leads from the base to it.
    #[error("{name} cannot be reached from the base behavior through declared delegates")]
    Unreachable {
        /// Its name.
        name: String,
    },
    /// An opaque stand-in: its class is not implemented, so it cannot run.
    #[error("{name} is an opaque stand-in (class {class} is not implemented) and cannot run")]
    Opaque {
        /// Its name.
        name: String,
        /// Its class.
        class: String,
    },
    /// The runner refused the stack.
    #[error(transparent)]
    Runner(#[from] RunnerError),
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A matcher as text: its tag, the exact intent as CLAD-JSON, or `tag if predicate`.
pub fn matcher_text<U: IntentUnion>(m: &IntentMatcher<U>) -> String {
    match m {
        IntentMatcher::Tag(t) => U::tag_name(*t).to_owned(),
        IntentMatcher::Exact(u) => {
            serde_json::to_string(u).unwrap_or_else(|_| U::tag_name(u.tag()).to_owned())
        }
        IntentMatcher::Predicate { tag, name, .. } => format!("{} if {name}", U::tag_name(*tag)),
    }
}

fn matcher_list<U: IntentUnion>(list: &[IntentMatcher<U>]) -> String {
    let mut out = String::from("[");
    for (k, m) in list.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(&matcher_text(m));
    }
    out.push(']');
    out
}

impl<U: IntentUnion, E: 'static> Condition<U, E> {
    /// The condition as text, in the JSON's terms (`and(UserIntentPending [set_timer],
    /// not(TriggerWordPending))`).
    pub fn text(&self) -> String {
        #[allow(unreachable_patterns)]
        match self {
            Self::True => "TrueCondition".into(),
            Self::False => "FalseCondition".into(),
            Self::IntentPending(l) => format!("UserIntentPending {}", matcher_list(l)),
            Self::IntentActive(l) => format!("UserIntentActive {}", matcher_list(l)),
            Self::AnyIntent => "AnyUserIntent".into(),
            Self::TriggerWordPending => "TriggerWordPending".into(),
            Self::UnclaimedIntent => "UnclaimedIntent".into(),
            Self::ActiveFor(d) => format!("TimeActive >= {}", secs(*d)),
            Self::InStateFor(d) => format!("TimeInState >= {}", secs(*d)),
            Self::TimerElapsed { timer, min } => {
                format!("TimerElapsed {timer} >= {}", secs(*min))
            }
            Self::And(c) | Self::Or(c) => {
                let op = if matches!(self, Self::And(_)) {
                    "and"
                } else {
                    "or"
                };
                let mut out = format!("{op}(");
                for (k, c) in c.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&c.text());
                }
                out.push(')');
                out
            }
            Self::Not(c) => format!("not({})", c.text()),
            Self::User { name, .. } => name.to_string(),
            Self::Shared { name, .. } => name.to_string(),
            Self::Opaque { condition_type, .. } => format!("{condition_type} (opaque)"),
            // Variants added later: their Debug form.
            other => format!("{other:?}"),
        }
    }

    /// The condition evaluated with `v`, node by node: each node's label, the value it
    /// looked at and whether it holds (the same answer as [`eval`](Self::eval)).
    pub fn explain(&self, v: &View<'_, U, E>) -> Check {
        let intents = v.intents();
        let pending = || {
            intents
                .pending()
                .map(|p| format!("pending: {}", U::tag_name(p.tag())))
                .unwrap_or_else(|| "nothing pending".into())
        };
        let list = |l: &[IntentMatcher<U>], current: Option<&U>| -> Vec<Check> {
            if l.len() < 2 {
                return Vec::new();
            }
            l.iter()
                .map(|m| Check::new(matcher_text(m), None, current.is_some_and(|i| m.matches(i))))
                .collect()
        };
        let holds = self.eval(v);
        #[allow(unreachable_patterns)]
        let (value, children) = match self {
            Self::True | Self::False => (None, Vec::new()),
            Self::IntentPending(l) => (
                Some(pending()),
                list(l, intents.pending().map(|p| p.intent())),
            ),
            Self::IntentActive(l) => (
                Some(
                    intents
                        .active()
                        .map(|a| format!("active: {}", U::tag_name(a.tag())))
                        .unwrap_or_else(|| "nothing active".into()),
                ),
                list(l, intents.active().map(|a| a.intent())),
            ),
            Self::AnyIntent => {
                let mut s = pending();
                if let Some(a) = intents.active() {
                    let _ = write!(s, ", active: {}", U::tag_name(a.tag()));
                }
                (Some(s), Vec::new())
            }
            Self::TriggerWordPending => (
                Some(if intents.is_trigger_word_pending() {
                    "trigger word pending".into()
                } else {
                    "no trigger word".into()
                }),
                Vec::new(),
            ),
            Self::UnclaimedIntent => (
                Some(if intents.was_unclaimed() {
                    "flag set".into()
                } else {
                    "flag clear".into()
                }),
                Vec::new(),
            ),
            Self::ActiveFor(_) => (
                Some(match v.active_for() {
                    Some(t) => format!("active {}", secs(t)),
                    None => "not active".into(),
                }),
                Vec::new(),
            ),
            Self::InStateFor(_) => (
                Some(match v.in_state_for() {
                    Some(t) => format!("in state {}", secs(t)),
                    None => "not in a state machine state".into(),
                }),
                Vec::new(),
            ),
            Self::TimerElapsed { timer, .. } => (
                Some(format!("reset {} ago", secs(v.timer_age(timer)))),
                Vec::new(),
            ),
            Self::And(c) | Self::Or(c) => (None, c.iter().map(|c| c.explain(v)).collect()),
            Self::Not(c) => (None, vec![c.explain(v)]),
            Self::User { .. } => (Some("user condition".into()), Vec::new()),
            Self::Shared { condition, .. } => (None, vec![condition.explain(v)]),
            Self::Opaque { .. } => (Some("not implemented here: never true".into()), Vec::new()),
            _ => (None, Vec::new()),
        };
        let label = match self {
            Self::And(_) => "and".to_owned(),
            Self::Or(_) => "or".to_owned(),
            Self::Not(_) => "not".to_owned(),
            _ => self.text(),
        };
        Check {
            label,
            value,
            holds,
            children,
        }
    }
}

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    fn ids(&self) -> impl Iterator<Item = BehaviorId> {
        (0..self.len()).map(BehaviorId::from_index)
    }

    /// The tree's structure.
    pub fn shape(&self) -> TreeShape {
        let nodes = self
            .ids()
            .map(|id| {
                let (wants, cancel) = self.conditions(id);
                NodeShape {
                    index: id.index(),
                    name: self.name(id).map(|n| n.to_string()).unwrap_or_default(),
                    class: self.class(id).unwrap_or_default().to_owned(),
                    delegates: self.delegates(id).iter().map(|d| d.index()).collect(),
                    opaque: self.is_opaque(id),
                    responds_to: self.respond_matchers(id).iter().map(matcher_text).collect(),
                    wants_condition: wants.map(Condition::text),
                    cancel_condition: cancel.map(Condition::text),
                }
            })
            .collect();
        TreeShape {
            base: self.base().index(),
            nodes,
        }
    }

    /// What the behavior's own logic reports ([`Behavior::introspect`](super::Behavior::introspect)).
    pub fn introspect_behavior(&self, id: BehaviorId) -> Introspection {
        self.introspect_with(id, true)
    }

    fn introspect_with(&self, id: BehaviorId, checks: bool) -> Introspection {
        let mut out = Introspection::new(checks);
        if let Some(b) = self.behavior(id) {
            b.introspect(&self.view(id), &mut out);
        }
        out
    }

    /// The cooldowns every behavior in scope or active reports for its children, per child
    /// (the longest when several parents report one).
    fn cooldowns(&self) -> Vec<Option<Duration>> {
        let mut out = vec![None; self.len()];
        for id in self.ids() {
            if self.state(id) == Some(LifecycleState::OutOfScope) || self.delegates(id).is_empty() {
                continue;
            }
            for &(child, left) in self.introspect_with(id, false).cooldowns() {
                if let Some(slot) = out.get_mut(child.index()) {
                    *slot = Some(slot.map_or(left, |d: Duration| d.max(left)));
                }
            }
        }
        out
    }

    /// Every behavior's status, by arena index.
    pub fn status(&self) -> Vec<NodeStatus> {
        let stack: Vec<BehaviorId> = self.stack().collect();
        let cooldowns = self.cooldowns();
        self.ids()
            .map(|id| {
                let state = self.state(id).unwrap_or(LifecycleState::OutOfScope);
                NodeStatus {
                    index: id.index(),
                    state,
                    stack_position: stack.iter().position(|s| *s == id),
                    wants_to_run: self.wants_to_run(id),
                    cooldown_ms: cooldowns[id.index()].map(millis),
                    action: self.running_action(id).map(str::to_owned),
                    debug_state: self.debug_state(id).map(str::to_owned),
                    active_ms: self.view(id).active_for().map(millis),
                }
            })
            .collect()
    }

    /// Whether `id` would be activated if asked now: true when active; false out of scope
    /// or unknown; else the runner's gates (opaque stand-in, `respondToUserIntents`,
    /// `wantsToBeActivatedCondition`, the class's `wants_to_be_activated`). Unlike
    /// [`View::wants_to_activate`] nothing is recorded.
    pub fn wants_to_run(&self, id: BehaviorId) -> bool {
        match self.state(id) {
            Some(LifecycleState::Active) => true,
            Some(LifecycleState::InScope) => self.gates_pass(id),
            _ => false,
        }
    }

    /// The gates of [`gate_checks`](Self::gate_checks) as one answer, without building
    /// their explanations.
    fn gates_pass(&self, id: BehaviorId) -> bool {
        let Some(b) = self.behavior(id) else {
            return false;
        };
        if self.is_opaque(id) {
            return false;
        }
        let respond = self.respond_matchers(id);
        let view = self.view(id);
        (respond.is_empty()
            || self
                .intents()
                .pending()
                .is_some_and(|p| respond.iter().any(|m| m.matches(p.intent()))))
            && self.conditions(id).0.is_none_or(|c| c.eval(&view))
            && b.wants_to_be_activated(&view)
    }

    /// The runner's gates for `id` after the scope check (see [`wants_to_run`](Self::wants_to_run)).
    fn gate_checks(&self, id: BehaviorId) -> Vec<Check> {
        let mut checks = Vec::new();
        let Some(b) = self.behavior(id) else {
            return checks;
        };
        let view = self.view(id);
        if self.is_opaque(id) {
            checks.push(Check::new(
                "implemented",
                Some(format!(
                    "opaque stand-in: class {} is not implemented",
                    self.class(id).unwrap_or("?")
                )),
                false,
            ));
            return checks;
        }
        let respond = self.respond_matchers(id);
        if !respond.is_empty() {
            let pending = self.intents().pending();
            let children: Vec<Check> = respond
                .iter()
                .map(|m| {
                    Check::new(
                        matcher_text(m),
                        None,
                        pending.is_some_and(|p| m.matches(p.intent())),
                    )
                })
                .collect();
            checks.push(Check {
                label: "respondToUserIntents".into(),
                value: Some(
                    pending
                        .map(|p| format!("pending: {}", U::tag_name(p.tag())))
                        .unwrap_or_else(|| "nothing pending".into()),
                ),
                holds: children.iter().any(|c| c.holds),
                children,
            });
        }
        if let (Some(c), _) = self.conditions(id) {
            let explained = c.explain(&view);
            checks.push(Check {
                label: "wantsToBeActivatedCondition".into(),
                value: None,
                holds: explained.holds,
                children: vec![explained],
            });
        }
        let class = self.class(id).unwrap_or("?");
        checks.push(Check::new(
            format!("{class} wants to be activated"),
            None,
            b.wants_to_be_activated(&view),
        ));
        checks
    }

    /// Why `id` does or does not want to run now: every check with its current value.
    pub fn gate(&self, id: BehaviorId) -> Gate {
        let state = self.state(id).unwrap_or(LifecycleState::OutOfScope);
        let mut checks = vec![Check::new(
            "in scope",
            Some(
                match state {
                    LifecycleState::Active => "active (on the stack)",
                    LifecycleState::InScope => "in scope",
                    LifecycleState::OutOfScope => {
                        "out of scope: no active behavior delegates to it"
                    }
                }
                .into(),
            ),
            state != LifecycleState::OutOfScope,
        )];
        checks.extend(self.gate_checks(id));
        if let Some(left) = self.cooldowns().get(id.index()).copied().flatten() {
            checks.push(Check::new(
                "not cooling down",
                Some(format!("cooling down, {} left", secs(left))),
                false,
            ));
        }
        let cancel = match (state, self.conditions(id)) {
            (LifecycleState::Active, (_, Some(c))) => {
                let explained = c.explain(&self.view(id));
                Some(Check {
                    label: "wantsToCancelSelfCondition".into(),
                    value: None,
                    holds: explained.holds,
                    children: vec![explained],
                })
            }
            _ => None,
        };
        Gate {
            index: id.index(),
            wants_to_run: self.wants_to_run(id),
            checks,
            cancel,
            own: self.introspect_behavior(id).checks,
        }
    }

    /// The chain of declared delegates from the base to `id` (both included). It keeps as
    /// much of the current stack as it can: the search starts from the highest stack frame
    /// from which `id` can be reached.
    pub fn delegation_path(&self, id: BehaviorId) -> Option<Vec<BehaviorId>> {
        if id.index() >= self.len() {
            return None;
        }
        let stack: Vec<BehaviorId> = self.stack().collect();
        let base = self.base();
        let prefixes: Vec<&[BehaviorId]> = if stack.first() == Some(&base) {
            (1..=stack.len()).rev().map(|k| &stack[..k]).collect()
        } else {
            vec![std::slice::from_ref(&base)]
        };
        for prefix in prefixes {
            if let Some(k) = prefix.iter().position(|s| *s == id) {
                return Some(prefix[..=k].to_vec());
            }
            let Some(&from) = prefix.last() else {
                continue;
            };
            // Breadth first from the top of the prefix, never through the prefix itself.
            let mut parent: Vec<Option<BehaviorId>> = vec![None; self.len()];
            let mut seen = vec![false; self.len()];
            for s in prefix {
                seen[s.index()] = true;
            }
            let mut queue = VecDeque::from([from]);
            while let Some(at) = queue.pop_front() {
                for &d in self.delegates(at) {
                    if seen[d.index()] {
                        continue;
                    }
                    seen[d.index()] = true;
                    parent[d.index()] = Some(at);
                    if d == id {
                        let mut tail = vec![d];
                        let mut cur = at;
                        while cur != from {
                            tail.push(cur);
                            cur = parent[cur.index()]?;
                        }
                        tail.reverse();
                        let mut path = prefix.to_vec();
                        path.extend(tail);
                        return Some(path);
                    }
                    queue.push_back(d);
                }
            }
        }
        None
    }

    /// Forces `id` to run now: the stack becomes its [delegation path](Self::delegation_path)
    /// (the frames above the part of the stack it keeps are interrupted; every behavior of
    /// the path is pushed in order, its `wants_to_be_activated` not consulted, as
    /// [`replace_stack`](Self::replace_stack) does). A behavior that claims intents through
    /// `respondToUserIntents` runs without one when none is pending. Its parents decide
    /// what happens next, as they would for a behavior that started by itself: a
    /// dispatcher may interrupt it for a child of higher priority. Returns the new stack.
    pub fn force(&mut self, id: BehaviorId) -> Result<Vec<BehaviorId>, ForceError> {
        let name = || self.name(id).map(|n| n.to_string()).unwrap_or_default();
        if id.index() >= self.len() {
            return Err(ForceError::Unknown(id));
        }
        if self.is_opaque(id) {
            return Err(ForceError::Opaque {
                name: name(),
                class: self.class(id).unwrap_or_default().to_owned(),
            });
        }
        let path = self
            .delegation_path(id)
            .ok_or_else(|| ForceError::Unreachable { name: name() })?;
        if self.stack().eq(path.iter().copied()) {
            return Ok(path);
        }
        tracing::info!(behavior = %name(), depth = path.len(), "Behavior.Forced");
        self.replace_stack(&path)?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::tests::{component, Ti, TiTag};
    use super::super::{
        load_tree, Behavior, BehaviorId, Condition, LoadOptions, Registry, Runner, Source, Spec,
        StrictPriorityDispatcher, TreeBuilder, View, Wait,
    };
    use super::{Check, ForceError, Introspection};
    use crate::intent::{IntentMatcher, IntentSource};

    const DT: Duration = Duration::from_millis(60);

    /// Reports its one child on cooldown for 3 s (what a cooldown dispatcher does).
    struct Cooler(BehaviorId);
    impl Behavior<Ti> for Cooler {
        fn delegates(&self) -> Vec<BehaviorId> {
            vec![self.0]
        }
        fn introspect(&self, _view: &View<'_, Ti>, out: &mut Introspection) {
            out.cooldown(self.0, Duration::from_secs(3));
        }
    }

    /// Root (strict priority, interrupting) over Timer (responds to `timer`), Picky (wants
    /// `and(not(TriggerWordPending), UserIntentPending [fistbump])`), Cool (a cooldown
    /// parent over Cooled), Idle (Wait); Hidden is reachable only through Cool.
    fn runner() -> Runner<Ti> {
        let id = BehaviorId::from_index;
        let mut b = TreeBuilder::<Ti>::new();
        let children = vec![id(1), id(2), id(3), id(5)];
        b.add(
            "Root",
            Spec::new("DispatcherStrictPriority"),
            StrictPriorityDispatcher::new(children, true),
        )
        .unwrap();
        b.add(
            "Timer",
            Spec::new("Wait").respond([IntentMatcher::Tag(TiTag::Timer)]),
            Wait::new(),
        )
        .unwrap();
        let picky = Condition::And(
            vec![
                Condition::Not(Box::new(Condition::TriggerWordPending)),
                Condition::IntentPending(vec![IntentMatcher::Tag(TiTag::Fistbump)].into()),
            ]
            .into(),
        );
        b.add("Picky", Spec::new("Wait").wants(picky), Wait::new())
            .unwrap();
        b.add(
            "Cool",
            Spec::new("Cooler").wants(Condition::False),
            Cooler(id(4)),
        )
        .unwrap();
        b.add("Cooled", Spec::new("Wait"), Wait::new()).unwrap();
        b.add("Idle", Spec::new("Wait"), Wait::new()).unwrap();
        Runner::new(b.build("Root").unwrap(), component())
    }

    fn labels(checks: &[Check]) -> Vec<(String, bool)> {
        checks.iter().map(|c| (c.label.clone(), c.holds)).collect()
    }

    #[test]
    fn status_says_what_each_behavior_is_doing() {
        let mut r = runner();
        r.tick(DT, &[]);
        assert_eq!(r.stack_names(), ["Root", "Idle"]);
        let s = r.status();
        let by = |name: &str| s[r.id(name).unwrap().index()].clone();
        assert_eq!(
            (by("Root").stack_position, by("Idle").stack_position),
            (Some(0), Some(1))
        );
        assert!(by("Root").wants_to_run && by("Idle").wants_to_run);
        assert!(!by("Timer").wants_to_run && !by("Picky").wants_to_run);
        assert_eq!(super::lifecycle_name(by("Timer").state), "in_scope");
        assert_eq!(super::lifecycle_name(by("Cooled").state), "out_of_scope");
        // Cool is in scope (a delegate of Root): asked, it reports its child's cooldown.
        assert_eq!(by("Cooled").cooldown_ms, Some(3000));
        assert_eq!(by("Root").active_ms, Some(0));
        r.tick(DT, &[]);
        assert_eq!(r.status()[0].active_ms, Some(60));

        // A pending intent: Timer now wants to run (nothing recorded: the next tick decides).
        r.intents_mut()
            .set_pending(Ti::Timer { time_s: 5 }, IntentSource::Dev);
        let timer = r.id("Timer").unwrap();
        assert!(r.wants_to_run(timer));
        let g = r.gate(timer);
        assert!(g.wants_to_run);
        assert_eq!(
            labels(&g.checks),
            [
                ("in scope".into(), true),
                ("respondToUserIntents".into(), true),
                ("Wait wants to be activated".into(), true)
            ]
        );
        assert_eq!(g.checks[1].value.as_deref(), Some("pending: timer"));
        r.tick(DT, &[]);
        assert_eq!(r.stack_names(), ["Root", "Timer"]);
    }

    #[test]
    fn gates_explain_conditions_node_by_node() {
        let mut r = runner();
        r.tick(DT, &[]);
        r.intents_mut()
            .set_pending(Ti::Timer { time_s: 5 }, IntentSource::Dev);
        let picky = r.id("Picky").unwrap();
        let g = r.gate(picky);
        assert!(!g.wants_to_run);
        let cond = &g.checks[1];
        assert_eq!(
            (cond.label.as_str(), cond.holds),
            ("wantsToBeActivatedCondition", false)
        );
        let and = &cond.children[0];
        assert_eq!(and.label, "and");
        assert_eq!(
            labels(&and.children),
            [
                ("not".into(), true),
                ("UserIntentPending [fistbump]".into(), false)
            ]
        );
        assert_eq!(and.children[1].value.as_deref(), Some("pending: timer"));
        assert_eq!(
            and.children[0].children[0].value.as_deref(),
            Some("no trigger word")
        );
        assert_eq!(
            r.shape().nodes[picky.index()].wants_condition.as_deref(),
            Some("and(not(TriggerWordPending), UserIntentPending [fistbump])")
        );
        // Out of scope, the conditions are still explained (scope is the first check).
        let cooled = r.gate(r.id("Cooled").unwrap());
        assert_eq!(labels(&cooled.checks)[0], ("in scope".into(), false));
    }

    #[test]
    fn cooldowns_come_from_the_parent() {
        let mut r = runner();
        r.tick(DT, &[]);
        let cooled = r.id("Cooled").unwrap();
        // Force Cool in: its child is in scope, and on cooldown.
        assert_eq!(
            r.force(cooled).unwrap(),
            [r.id("Root").unwrap(), r.id("Cool").unwrap(), cooled]
        );
        let r2 = &r;
        let s = r2.status();
        assert_eq!(s[cooled.index()].cooldown_ms, Some(3000));
        let g = r.gate(cooled);
        assert!(g
            .checks
            .iter()
            .any(|c| c.label == "not cooling down" && !c.holds));
    }

    #[test]
    fn asking_records_nothing() {
        let mut a = runner();
        let mut b = runner();
        for k in 0..12 {
            if k == 3 {
                for r in [&mut a, &mut b] {
                    r.intents_mut()
                        .set_pending(Ti::Timer { time_s: 1 }, IntentSource::Dev);
                }
            }
            // Between ticks, `b` is asked everything there is to ask.
            for i in 0..b.len() {
                let id = BehaviorId::from_index(i);
                let _ = (b.gate(id), b.wants_to_run(id), b.delegation_path(id));
            }
            let _ = (b.status(), b.shape());
            a.tick(DT, &[]);
            b.tick(DT, &[]);
            assert_eq!(a.stack_names(), b.stack_names(), "tick {k}");
            assert_eq!(a.intent_events(), b.intent_events(), "tick {k}");
        }
    }

    #[test]
    fn forcing_pushes_the_delegation_path() {
        let mut r = runner();
        r.tick(DT, &[]);
        let picky = r.id("Picky").unwrap();
        assert_eq!(
            r.delegation_path(picky).unwrap(),
            [r.id("Root").unwrap(), picky]
        );
        assert_eq!(r.force(picky).unwrap().len(), 2);
        assert_eq!(r.stack_names(), ["Root", "Picky"]);
        r.tick(DT, &[]);
        r.check_invariants().unwrap();
        // Root keeps it (nothing of higher priority wants to run): a forced behavior runs.
        assert_eq!(r.stack_names(), ["Root", "Picky"]);
        assert_eq!(
            r.force(BehaviorId::from_index(99)),
            Err(ForceError::Unknown(BehaviorId::from_index(99)))
        );
        // Forcing what is already the stack changes nothing.
        assert_eq!(r.force(picky).unwrap().len(), 2);
    }

    #[test]
    fn a_state_machine_reports_its_transitions() {
        let text = r#"[
          {"behaviorID": "Machine", "behaviorClass": "InternalStates", "initialState": "A",
           "states": [{"name": "A", "behavior": "WaitA"}, {"name": "B", "behavior": "WaitB"}],
           "transitionDefinitions": [
             {"from": "A", "exitTransitions": [{"to": "B", "condition":
               {"conditionType": "UserIntentPending", "list": [{"type": "explore"}]}}]}]},
          {"behaviorID": "WaitA", "behaviorClass": "Wait"},
          {"behaviorID": "WaitB", "behaviorClass": "Wait"}
        ]"#;
        let tree = load_tree(
            &Registry::<Ti>::with_builtins(),
            &[Source::new("m.json", text)],
            "Machine",
            &LoadOptions::default(),
        )
        .unwrap();
        let mut r = Runner::new(tree, component());
        r.tick(DT, &[]);
        let m = r.id("Machine").unwrap();
        let own = r.gate(m).own;
        assert_eq!(labels(&own), [("A -> B (exit)".into(), false)]);
        assert_eq!(own[0].children[0].label, "UserIntentPending [explore]");
        r.intents_mut()
            .set_pending(Ti::Explore {}, IntentSource::Dev);
        assert!(r.gate(m).own[0].holds);
        // Asked for cooldowns only, it builds no check.
        assert!(r.introspect_with(m, false).checks().is_empty());
    }
}
