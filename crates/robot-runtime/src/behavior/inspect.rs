//! Read-only introspection for tools (a live inspector, a debugger): the tree's structure
//! ([`shape`]), each behavior's state ([`status`], [`statuses`]), and why a behavior does or
//! does not run ([`why`], [`children`]): its activation gates against the world, its
//! conditions with the value each had at its last evaluation (nothing is evaluated here, so
//! stateful conditions do not advance and the runner's cached answers stay as they are),
//! whether a listed intent is pending, and its cooldown in a dispatcher that keeps one.
//! [`Runner::force_behavior`](super::runner::Runner::force_behavior) forces one to run
//! along [`Runner::delegation_path`](super::runner::Runner::delegation_path).
//!
//! Every answer is a "last value": what the runner recorded on its last tick (an answer it
//! reused counts as given on that tick), or what it keeps for reuse
//! ([`BehaviorStatus::remembered`]). Asking between ticks changes nothing the next tick
//! does.

use std::fmt::Write as _;
use std::time::Duration;

use super::condition::{Condition, Kind};
use super::core::LifecycleState;
use super::ids::BehaviorId;
use super::runner::Runner;
use crate::intent::{IntentMatcher, IntentUnion};

/// A behavior's state (see [`status`]). Its text is borrowed from the runner: asking for
/// every behavior's state copies no string.
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviorStatus<'r> {
    /// The behavior.
    pub id: BehaviorId,
    /// Its name.
    pub name: &'r str,
    /// Its class.
    pub class: &'r str,
    /// Out of scope, in scope or active.
    pub state: LifecycleState,
    /// Its position on the stack, when active.
    pub stack_pos: Option<usize>,
    /// It said it wants to be activated on the last tick (asked, or its kept answer reused).
    pub wants: bool,
    /// The last tick on which it said it wants to be activated (None: never).
    pub wanted_tick: Option<u64>,
    /// In scope: the answer to `WantsToBeActivated` the runner keeps for it and would reuse
    /// now without asking (see [`View::remembered_answer`](super::core::View::remembered_answer));
    /// None when it keeps none that holds (then the next time it is asked, it is asked).
    pub remembered: Option<bool>,
    /// Time left on its cooldown, in the dispatcher that keeps one for it (the longest when
    /// several do); asked of its parents in scope or active (an inactive cooldown dispatcher
    /// keeps its cooldowns).
    pub cooling_down: Option<Duration>,
    /// A stand-in for a class not run natively.
    pub stand_in: bool,
    /// The action its frame runs.
    pub action: Option<&'r str>,
    /// Its debug state (a state machine's state; while inactive, the state it resumes in).
    pub debug_state: Option<&'r str>,
    /// How long it has been active (virtual time), when active.
    pub active_for: Option<Duration>,
}

impl BehaviorStatus<'_> {
    /// What a person reads as "wants to run": active, or in scope and its last answer (on
    /// the last tick, or the one the runner keeps) was yes.
    pub fn wants_to_run(&self) -> bool {
        match self.state {
            LifecycleState::Active => true,
            LifecycleState::InScope => self.wants || self.remembered == Some(true),
            LifecycleState::OutOfScope => false,
        }
    }
}

/// One condition node and the value it had at its last evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionReport {
    /// Where it is (`wantsToBeActivatedCondition`, a transition, ...).
    pub label: String,
    /// Its type (or custom condition) name.
    pub type_name: String,
    /// Its parameters for a person (`[set_timer]`, `OnTreads for 0 s..`; empty when it has
    /// none), see [`condition_detail`].
    pub detail: String,
    /// The tick of its last evaluation and the value (None: never evaluated). With the
    /// runner's caching on, an answer that cannot have changed is reused rather than
    /// evaluated again: the tick is when the value was computed, and it still holds.
    pub last: Option<(u64, bool)>,
    /// Its sub-conditions.
    pub children: Vec<ConditionReport>,
}

/// One activation gate (spec §0 steps 2–5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gate {
    /// `off treads`, `on charger`, `carrying`, `cube connection`.
    pub name: &'static str,
    /// True when the gate lets the behavior through in the world's current state
    /// ([`World::blocking`](super::World::blocking)).
    pub open: bool,
}

/// Why a behavior does or does not run (see [`why`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationReport<'r> {
    /// Its state.
    pub status: BehaviorStatus<'r>,
    /// The activation gates.
    pub gates: Vec<Gate>,
    /// Its conditions: `wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`, and the
    /// ones its class owns.
    pub conditions: Vec<ConditionReport>,
    /// With `respondToUserIntents`: whether a listed intent is pending now.
    pub intent_pending: Option<bool>,
}

/// The structure of a tree: what does not change while it runs (see [`shape`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeShape {
    /// The base behavior.
    pub base: BehaviorId,
    /// Every behavior, in arena order (index = [`BehaviorId::index`]).
    pub nodes: Vec<NodeShape>,
}

/// One behavior of a [`TreeShape`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeShape {
    /// Its name (`behaviorID`; anonymous behaviors are named after their owner).
    pub name: String,
    /// Its class (`behaviorClass`; for a stand-in, the original class it stands in for).
    pub class: String,
    /// Its declared delegates, in order.
    pub delegates: Vec<BehaviorId>,
    /// Its linked scope (in scope whenever it is).
    pub linked: Vec<BehaviorId>,
    /// A stand-in for a class not run natively.
    pub stand_in: bool,
    /// `respondToUserIntents`, one text per matcher ([`matcher_text`]).
    pub responds_to: Vec<String>,
    /// `wantsToBeActivatedCondition` as text ([`condition_text`]).
    pub wants_condition: Option<String>,
    /// `wantsToCancelSelfCondition` as text.
    pub cancel_condition: Option<String>,
    /// A state machine's states, in order, with the behavior each runs.
    pub states: Vec<(String, Option<BehaviorId>)>,
    /// The class's own predicate and the inputs it reads (`Behavior::class_predicate`).
    pub predicate: Option<super::core::ClassPredicate>,
}

/// The structure of the runner's tree (allocates; once per tree, e.g. for a trace header).
pub fn shape<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> TreeShape {
    let nodes = (0..runner.len())
        .map(BehaviorId::from_index)
        .map(|id| {
            let (wants, cancel) = runner.conditions(id);
            NodeShape {
                name: runner.name(id).map(|n| n.to_string()).unwrap_or_default(),
                class: runner.class(id).unwrap_or_default().to_owned(),
                delegates: runner.delegates(id).to_vec(),
                linked: runner.linked_scope(id).to_vec(),
                stand_in: runner.is_stand_in(id),
                responds_to: runner
                    .respond_matchers(id)
                    .iter()
                    .map(matcher_text)
                    .collect(),
                wants_condition: wants.map(condition_text),
                cancel_condition: cancel.map(condition_text),
                states: runner
                    .behavior(id)
                    .map(|b| {
                        b.states()
                            .into_iter()
                            .map(|(n, b)| (n.to_owned(), b))
                            .collect()
                    })
                    .unwrap_or_default(),
                predicate: runner.behavior(id).and_then(|b| b.class_predicate()),
            }
        })
        .collect();
    TreeShape {
        base: runner.base(),
        nodes,
    }
}

/// The cooldown a parent in scope or active keeps for `id` (the longest).
fn cooldown_of<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    parents: impl IntoIterator<Item = BehaviorId>,
    id: BehaviorId,
) -> Option<Duration> {
    let now = runner.clock().now();
    parents
        .into_iter()
        .filter(|p| runner.delegates(*p).contains(&id))
        .filter_map(|p| runner.behavior(p)?.cooldown_remaining(id, now))
        .max()
}

fn status_with<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
    cooling_down: Option<Duration>,
) -> Option<BehaviorStatus<'_>> {
    let state = runner.state(id)?;
    let tick = runner.clock().tick();
    let wanted = runner.wanted_on_tick(id);
    let view = runner.view(id);
    Some(BehaviorStatus {
        id,
        name: runner.name(id).map_or("", |n| n.as_str()),
        class: runner.class(id).unwrap_or(""),
        state,
        stack_pos: runner.stack_pos(id),
        wants: wanted == tick && tick > 0,
        wanted_tick: (wanted > 0).then_some(wanted),
        remembered: view.remembered_answer(id),
        cooling_down,
        stand_in: runner.is_stand_in(id),
        action: runner.action_of(id),
        debug_state: runner.debug_state(id),
        active_for: (state == LifecycleState::Active)
            .then(|| view.active_for())
            .flatten(),
    })
}

/// The state of behavior `id` (None for an unknown ID).
pub fn status<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Option<BehaviorStatus<'_>> {
    let parents = runner.stack().chain(runner.in_scope().iter().copied());
    status_with(runner, id, cooldown_of(runner, parents, id))
}

/// The state of every behavior, in arena order. Cooldowns are asked once of each parent in
/// scope or active (linear in the tree's edges, not quadratic).
pub fn statuses<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> Vec<BehaviorStatus<'_>> {
    let now = runner.clock().now();
    let mut cooling: Vec<Option<Duration>> = vec![None; runner.len()];
    for p in runner.stack().chain(runner.in_scope().iter().copied()) {
        let Some(b) = runner.behavior(p) else {
            continue;
        };
        for &c in runner.delegates(p) {
            if let (Some(d), Some(slot)) =
                (b.cooldown_remaining(c, now), cooling.get_mut(c.index()))
            {
                *slot = Some(slot.map_or(d, |x| x.max(d)));
            }
        }
    }
    (0..runner.len())
        .filter_map(|i| status_with(runner, BehaviorId::from_index(i), cooling[i]))
        .collect()
}

fn report<U: IntentUnion, E: 'static>(label: &str, c: &Condition<U, E>) -> ConditionReport {
    ConditionReport {
        label: label.to_owned(),
        type_name: c.type_name().to_owned(),
        detail: condition_detail(c),
        last: c.last(),
        children: c.children().iter().map(|s| report("", s)).collect(),
    }
}

/// Feeds `h` with everything [`statuses`] and [`why`] (for each of `explained`) report,
/// except what moves with the clock alone: how long a behavior has been active, how much
/// of a cooldown is left (only whether one runs), and a tick that is the current one (a
/// behavior that said yes again, a condition evaluated again on this tick: only that it
/// was this tick). Two ticks that feed `h` the same bytes, then, have reports that differ
/// by the clock only, so a live inspector can send the clock instead of the state (give it
/// a hasher that records the bytes to compare them exactly, or a real hash to compare
/// digests). Static text (names, classes, condition parameters) is left out: it is the
/// tree's ([`shape`]).
///
/// Cheap: no text is built and nothing is allocated, except a list for each explained
/// behavior that owns conditions (state machines, animation wrappers).
pub fn fingerprint<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    explained: &[BehaviorId],
    h: &mut impl std::hash::Hasher,
) {
    let tick = runner.clock().tick();
    let now = runner.clock().now();
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let Some(state) = runner.state(id) else {
            continue;
        };
        // One word for the small facts (fewer, larger writes: this runs for every behavior).
        let wanted = runner.wanted_on_tick(id);
        let wants_now = wanted == tick && tick > 0;
        let remembered = match runner.view(id).remembered_answer(id) {
            None => 0u64,
            Some(false) => 1,
            Some(true) => 2,
        };
        let stack_pos = runner.stack_pos(id).map_or(0, |p| p as u64 + 1) & 0xffff_ffff;
        let (action, debug) = (runner.action_of(id), runner.debug_state(id));
        h.write_u64(
            state as u64
                | u64::from(wants_now) << 2
                | remembered << 3
                | u64::from(action.is_some()) << 5
                | u64::from(debug.is_some()) << 6
                | stack_pos << 8,
        );
        if !wants_now {
            h.write_u64(wanted);
        }
        for text in [action, debug].into_iter().flatten() {
            h.write(text.as_bytes());
            h.write_u8(0xff);
        }
    }
    // Who cools down (as `statuses` asks: each parent in scope or active), not for how long.
    for p in runner.stack().chain(runner.in_scope().iter().copied()) {
        let Some(b) = runner.behavior(p) else {
            continue;
        };
        for &c in runner.delegates(p) {
            if b.cooldown_remaining(c, now).is_some() {
                h.write_usize(c.index());
            }
        }
    }
    h.write_u8(0xff);
    // What the gates of `why` show.
    h.write_u8(runner.dyn_world().blocking());
    let mut owned = Vec::new();
    for &id in explained {
        h.write_usize(id.index());
        let (wants, cancel) = runner.conditions(id);
        for c in wants.into_iter().chain(cancel) {
            fingerprint_condition(c, tick, h);
        }
        if let Some(b) = runner.behavior(id) {
            owned.clear();
            b.owned_conditions(&mut owned);
            for (_, c) in &owned {
                fingerprint_condition(c, tick, h);
            }
        }
        let respond = runner.respond_matchers(id);
        if !respond.is_empty() {
            let pending = runner
                .intents()
                .pending()
                .is_some_and(|p| respond.iter().any(|m| m.matches(p.intent())));
            h.write_u8(u8::from(pending));
        }
    }
}

/// A condition's last value (and its sub-conditions'), the tick left out when it is `tick`.
fn fingerprint_condition<U: IntentUnion, E: 'static>(
    c: &Condition<U, E>,
    tick: u64,
    h: &mut impl std::hash::Hasher,
) {
    match c.last() {
        None => h.write_u8(0),
        Some((t, v)) if t == tick => h.write_u8(2 | u8::from(v)),
        Some((t, v)) => {
            h.write_u8(4 | u8::from(v));
            h.write_u64(t);
        }
    }
    for s in c.children() {
        fingerprint_condition(s, tick, h);
    }
    h.write_u8(0xfe);
}

/// The activation gates of `id` in the current robot state (None for an unknown ID).
/// Allocates nothing.
pub fn gates<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Option<[Gate; 4]> {
    let m = runner.modifiers(id)?;
    let blocking = runner.dyn_world().blocking();
    Some([
        Gate {
            name: "off treads",
            open: m.when_off_treads || blocking & 1 == 0,
        },
        Gate {
            name: "on charger",
            open: m.when_on_charger || blocking & 2 == 0,
        },
        Gate {
            name: "carrying",
            open: m.when_carrying || blocking & 4 == 0,
        },
        Gate {
            name: "cube connection",
            open: !m.cube.required() || blocking & 8 == 0,
        },
    ])
}

/// With `respondToUserIntents`: whether one of `id`'s listed intents is pending now (None:
/// it lists none). Allocates nothing.
pub fn intent_pending<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Option<bool> {
    let respond = runner.respond_matchers(id);
    (!respond.is_empty()).then(|| {
        runner
            .intents()
            .pending()
            .is_some_and(|p| respond.iter().any(|m| m.matches(p.intent())))
    })
}

/// Why `id` does or does not run (None for an unknown ID).
pub fn why<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Option<ActivationReport<'_>> {
    let status = status(runner, id)?;
    let gates = gates(runner, id)?.to_vec();
    let (wants, cancel) = runner.conditions(id);
    let mut conditions = Vec::new();
    if let Some(c) = wants {
        conditions.push(report("wantsToBeActivatedCondition", c));
    }
    if let Some(c) = cancel {
        conditions.push(report("wantsToCancelSelfCondition", c));
    }
    if let Some(b) = runner.behavior(id) {
        let mut owned = Vec::new();
        b.owned_conditions(&mut owned);
        conditions.extend(owned.iter().map(|(l, c)| report(l, c)));
    }
    let intent_pending = intent_pending(runner, id);
    Some(ActivationReport {
        status,
        gates,
        conditions,
        intent_pending,
    })
}

/// [`why`] for every declared delegate of `id` (a dispatcher's children, in its order).
pub fn children<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Vec<ActivationReport<'_>> {
    runner
        .delegates(id)
        .iter()
        .filter_map(|&c| why(runner, c))
        .collect()
}

// ----- conditions and matchers as text ------------------------------------------------------

/// A matcher as text: its tag (`set_timer`), the exact intent as CLAD-JSON, or
/// `tag if predicate`.
pub fn matcher_text<U: IntentUnion>(m: &IntentMatcher<U>) -> String {
    match m {
        IntentMatcher::Tag(t) => U::tag_name(*t).to_owned(),
        IntentMatcher::Exact(u) => {
            serde_json::to_string(u).unwrap_or_else(|_| U::tag_name(u.tag()).to_owned())
        }
        IntentMatcher::Predicate { tag, name, .. } => format!("{} if {name}", U::tag_name(*tag)),
    }
}

/// A whole condition on one line, in the JSON's terms:
/// `and(UserIntentPending [set_timer], not(TriggerWordPending))`.
pub fn condition_text<U: IntentUnion, E: 'static>(c: &Condition<U, E>) -> String {
    let mut out = String::new();
    write_text(&mut out, c);
    out
}

fn write_text<U: IntentUnion, E: 'static>(out: &mut String, c: &Condition<U, E>) {
    match c.kind() {
        Kind::Compound { op, children } => {
            let _ = write!(out, "{}(", format!("{op:?}").to_lowercase());
            for (k, child) in children.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write_text(out, child);
            }
            out.push(')');
        }
        _ => {
            out.push_str(c.type_name());
            let detail = condition_detail(c);
            if !detail.is_empty() {
                out.push(' ');
                out.push_str(&detail);
            }
            let children = c.children();
            if !children.is_empty() {
                out.push('(');
                for (k, sub) in children.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    write_text(out, sub);
                }
                out.push(')');
            }
        }
    }
}

/// A condition node's own parameters for a person, without its type name or its
/// sub-conditions (empty when it has none): `[set_timer, weather]` for `UserIntentPending`,
/// `always false` for an opaque stand-in, a node library's type's
/// [`detail`](super::ConditionType::detail) (`InAir ≥ 0.5 s` for the original's off-treads
/// condition).
pub fn condition_detail<U: IntentUnion, E: 'static>(c: &Condition<U, E>) -> String {
    match c.kind() {
        Kind::UserIntentPending(l) | Kind::UserIntentActive(l) => {
            let items: Vec<String> = l.iter().map(matcher_text).collect();
            format!("[{}]", items.join(", "))
        }
        Kind::Plugin(t) => t.detail(),
        Kind::Opaque { value, .. } => format!("stand-in, always {value}"),
        _ => String::new(),
    }
}
