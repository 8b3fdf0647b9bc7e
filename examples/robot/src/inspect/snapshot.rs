//! The robot as the page sees it at one tick ([`State`]), built on the tick thread from the
//! runner's read-only introspection (`robot_runtime::behavior::inspect`: last values only,
//! nothing evaluated) and the intent component; serialized later, on the broadcaster thread.
//!
//! Ticks are the robot's (the timeline's, from 0); the runner counts its own from 1 (its
//! tick N is the robot's N − 1), so its last-answer and last-evaluation ticks are shifted.
//!
//! Bounded for big trees (the original's, hundreds of behaviors): a behavior out of scope
//! with nothing to say is left out (the page reads a missing behavior as out of scope), and
//! the "why" reports cover only the behaviors the pages look at (the active dispatcher's
//! children, the behavior a page selected and its children).

use std::time::Duration;

use serde::Serialize;

use robot_runtime::behavior::inspect::{self, ActivationReport, BehaviorStatus, ConditionReport};
use robot_runtime::behavior::{BehaviorId, LifecycleState};
use robot_runtime::intent::IntentMeta;
use robot_runtime::union::CladUnion;

use super::session::Progress;
use crate::intents::UserIntent;
use crate::robot::{describe_match, map_entry, payload_json, Robot};
use crate::timeline::MapEntryInfo;

/// One frame of the stack.
#[derive(Debug, Serialize)]
pub(crate) struct Frame {
    index: usize,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    debug_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    active_ms: Option<u64>,
}

/// One behavior's state.
#[derive(Debug, Serialize)]
pub(crate) struct Node {
    index: usize,
    /// `out_of_scope`, `in_scope`, `active`.
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stack_position: Option<usize>,
    /// Active, or in scope and its last answer was yes ([`BehaviorStatus::wants_to_run`]).
    wants_to_run: bool,
    /// It said yes on the last tick (asked, or its kept answer reused).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    wants: bool,
    /// The answer the runner keeps for it (the cached tick), while that holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    remembered: Option<bool>,
    /// The last tick it said it wants to run.
    #[serde(skip_serializing_if = "Option::is_none")]
    wanted_tick: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cooldown_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    debug_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    active_ms: Option<u64>,
}

/// The robot's tick of the runner's tick `t` (the runner's first tick is 1).
fn robot_tick(t: u64) -> u64 {
    t.saturating_sub(1)
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `out_of_scope`, `in_scope` or `active`.
pub(crate) fn state_name(s: LifecycleState) -> &'static str {
    match s {
        LifecycleState::OutOfScope => "out_of_scope",
        LifecycleState::InScope => "in_scope",
        LifecycleState::Active => "active",
    }
}

impl Node {
    fn of(s: &BehaviorStatus) -> Self {
        Node {
            index: s.id.index(),
            state: state_name(s.state),
            stack_position: s.stack_pos,
            wants_to_run: s.wants_to_run(),
            wants: s.wants,
            remembered: s.remembered,
            // Out of scope, an old answer says nothing about now.
            wanted_tick: s
                .wanted_tick
                .filter(|_| s.state != LifecycleState::OutOfScope)
                .map(robot_tick),
            cooldown_ms: s.cooling_down.map(ms),
            action: s.action.clone(),
            debug_state: s.debug_state.clone(),
            active_ms: s.active_for.map(ms),
        }
    }
    /// Out of scope with nothing to show.
    fn is_blank(s: &BehaviorStatus) -> bool {
        s.state == LifecycleState::OutOfScope && s.cooling_down.is_none() && s.debug_state.is_none()
    }
}

/// A condition node with its last value.
#[derive(Debug, Serialize)]
pub(crate) struct Condition {
    #[serde(skip_serializing_if = "String::is_empty")]
    label: String,
    #[serde(rename = "type")]
    type_name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    detail: String,
    /// The tick of its last evaluation (absent: never evaluated).
    #[serde(skip_serializing_if = "Option::is_none")]
    tick: Option<u64>,
    /// Its value then.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    children: Vec<Condition>,
}

impl Condition {
    fn of(c: ConditionReport) -> Self {
        Condition {
            label: c.label,
            type_name: c.type_name,
            detail: c.detail,
            tick: c.last.map(|l| robot_tick(l.0)),
            value: c.last.map(|l| l.1),
            children: c.children.into_iter().map(Condition::of).collect(),
        }
    }
}

/// An activation gate.
#[derive(Debug, Serialize)]
pub(crate) struct Gate {
    name: &'static str,
    open: bool,
}

/// Why one behavior does or does not run.
#[derive(Debug, Serialize)]
pub(crate) struct Why {
    index: usize,
    wants_to_run: bool,
    gates: Vec<Gate>,
    /// With `respondToUserIntents`: a listed intent is pending now.
    #[serde(skip_serializing_if = "Option::is_none")]
    intent_pending: Option<bool>,
    conditions: Vec<Condition>,
}

impl Why {
    fn of(r: ActivationReport) -> Self {
        Why {
            index: r.status.id.index(),
            wants_to_run: r.status.wants_to_run(),
            gates: r
                .gates
                .into_iter()
                .map(|g| Gate {
                    name: g.name,
                    open: g.open,
                })
                .collect(),
            intent_pending: r.intent_pending,
            conditions: r.conditions.into_iter().map(Condition::of).collect(),
        }
    }
}

/// An intent's metadata.
#[derive(Debug, Serialize)]
pub(crate) struct Meta {
    source: String,
    modality: String,
    priority: u8,
    /// `None`: the producer did not say.
    confidence: Option<f32>,
}

impl From<IntentMeta> for Meta {
    fn from(m: IntentMeta) -> Self {
        Self {
            source: m.source.wire().to_owned(),
            modality: m.modality.wire().to_owned(),
            priority: m.priority.0,
            confidence: m.confidence.value(),
        }
    }
}

/// The pending or the active intent.
#[derive(Debug, Serialize)]
pub(crate) struct Intent {
    intent: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    payload: Option<String>,
    /// `Voice`, `App`, `Dev`, `Unknown`.
    origin: String,
    /// How it got its tag.
    via: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    map_entry: Option<MapEntryInfo>,
    meta: Meta,
    /// Ticks since it became pending (pending) or was claimed (active).
    age_ticks: u64,
    /// The behavior that claimed it (active).
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
}

/// The intent component.
#[derive(Debug, Serialize)]
pub(crate) struct Intents {
    pending: Option<Intent>,
    active: Option<Intent>,
    trigger_word_pending: bool,
    unclaimed_flag: bool,
    error_flag: bool,
    stream_open: bool,
    deadline_held: bool,
}

/// A behavior forced to run again.
#[derive(Debug, Serialize)]
pub(crate) struct Forced {
    behavior: String,
    runs_left: u32,
}

/// The robot at one tick.
#[derive(Debug, Serialize)]
pub(crate) struct State {
    /// The last tick run (`None` before the first).
    tick: Option<u64>,
    t_ms: u64,
    paused: bool,
    stack: Vec<Frame>,
    /// Every behavior that is not out of scope with nothing to say, by index.
    nodes: Vec<Node>,
    /// Why the behaviors the pages look at do or do not run.
    why: Vec<Why>,
    /// The active dispatcher: the highest behavior of the stack that has delegates.
    #[serde(skip_serializing_if = "Option::is_none")]
    dispatcher: Option<usize>,
    intents: Intents,
    #[serde(skip_serializing_if = "Option::is_none")]
    forced: Option<Forced>,
}

/// Builds the state of `robot` now. `watched`: behaviors pages look at; the "why" covers
/// each of them and its delegates, besides the active dispatcher's delegates.
pub(crate) fn build(
    robot: &Robot,
    ticks_per_second: u32,
    progress: &Progress<'_>,
    watched: &[BehaviorId],
) -> State {
    let runner = robot.runner();
    let statuses = inspect::statuses(runner);
    let dispatcher = runner
        .stack()
        .rev()
        .find(|id| !runner.delegates(*id).is_empty());
    let mut explain: Vec<BehaviorId> = Vec::new();
    let mut add = |id: BehaviorId| {
        if !explain.contains(&id) {
            explain.push(id);
        }
    };
    for &w in dispatcher.iter().chain(watched) {
        if watched.contains(&w) {
            add(w);
        }
        for &d in runner.delegates(w) {
            add(d);
        }
    }
    let why = explain
        .iter()
        .filter_map(|&id| inspect::why(runner, id))
        .map(Why::of)
        .collect();
    let stack: Vec<Frame> = runner
        .stack()
        .map(|id| {
            let s = &statuses[id.index()];
            Frame {
                index: id.index(),
                name: s.name.clone(),
                debug_state: s.debug_state.clone(),
                action: s.action.clone(),
                active_ms: s.active_for.map(ms),
            }
        })
        .collect();
    let nodes = statuses
        .iter()
        .filter(|s| !Node::is_blank(s))
        .map(Node::of)
        .collect();
    let c = runner.intents();
    let now = c.tick();
    let pending = c.pending().map(|p| Intent {
        intent: UserIntent::tag_name(p.tag()),
        payload: payload_json(p.intent()),
        origin: p.source().to_string(),
        via: describe_match(p.matched()),
        map_entry: map_entry(p.matched()),
        meta: p.meta().into(),
        age_ticks: now.saturating_sub(p.since_tick()),
        owner: None,
    });
    let active = c.active().map(|a| Intent {
        intent: UserIntent::tag_name(a.tag()),
        payload: payload_json(a.intent()),
        origin: a.source().to_string(),
        via: describe_match(a.matched()),
        map_entry: map_entry(a.matched()),
        meta: a.meta().into(),
        age_ticks: now.saturating_sub(a.activated_tick()),
        owner: runner.owner_name(a.owner()).map(str::to_owned),
    });
    let tick = progress.ticks_run.checked_sub(1);
    State {
        tick,
        t_ms: tick.unwrap_or(0) * 1000 / u64::from(ticks_per_second.max(1)),
        paused: progress.paused,
        stack,
        nodes,
        why,
        dispatcher: dispatcher.map(BehaviorId::index),
        intents: Intents {
            pending,
            active,
            trigger_word_pending: c.is_trigger_word_pending(),
            unclaimed_flag: c.was_unclaimed(),
            error_flag: c.was_error(),
            stream_open: c.is_cloud_stream_open(),
            deadline_held: c.is_timeout_held(),
        },
        forced: progress.forced.map(|(behavior, runs_left)| Forced {
            behavior: behavior.to_owned(),
            runs_left,
        }),
    }
}
