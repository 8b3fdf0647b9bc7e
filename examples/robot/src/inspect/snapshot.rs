//! The robot as the page sees it at one tick ([`State`]), built on the tick thread from the
//! runner's introspection (`robot_runtime::behavior::introspect`) and the intent component;
//! serialized later, on the broadcaster thread.

use serde::Serialize;

use robot_runtime::behavior::{BehaviorId, Gate, LifecycleState, NodeStatus};
use robot_runtime::intent::{IntentMeta, MapEntry, Match};
use robot_runtime::union::CladUnion;

use super::session::Progress;
use crate::intents::{Tag, UserIntent, USER_INTENT_MAP};
use crate::robot::{describe_match, payload_json, Robot};

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

/// The map entry an intent came through.
#[derive(Debug, Serialize)]
pub(crate) struct Entry {
    table: &'static str,
    intent: &'static str,
    user_intent: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    substitutions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    feature_gate: Option<&'static str>,
}

impl Entry {
    fn of(table: &'static str, e: &'static MapEntry<Tag>) -> Self {
        Self {
            table,
            intent: e.intent,
            user_intent: UserIntent::tag_name(e.tag),
            substitutions: e
                .sanitation
                .iter()
                .map(|s| {
                    let mut t = s.from.to_owned();
                    if let Some(to) = s.to {
                        t.push_str(" -> ");
                        t.push_str(to);
                    }
                    if s.numeric {
                        t.push_str(" (number)");
                    }
                    t
                })
                .collect(),
            feature_gate: e.feature_gate,
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
    map_entry: Option<Entry>,
    meta: Meta,
    /// Ticks since it became pending (pending) or was claimed (active).
    age_ticks: u64,
    /// The behavior that claimed it (active).
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
}

fn map_entry(m: &Match<Tag>) -> Option<Entry> {
    match m {
        Match::Cloud { intent } => USER_INTENT_MAP.cloud(intent).map(|e| Entry::of("cloud", e)),
        Match::App { intent } => USER_INTENT_MAP.app(intent).map(|e| Entry::of("app", e)),
        _ => None,
    }
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
    nodes: Vec<NodeStatus>,
    /// Why each behavior in scope or active does or does not want to run.
    gates: Vec<Gate>,
    /// The active dispatcher: the highest behavior of the stack that has delegates.
    #[serde(skip_serializing_if = "Option::is_none")]
    dispatcher: Option<usize>,
    intents: Intents,
    #[serde(skip_serializing_if = "Option::is_none")]
    forced: Option<Forced>,
}

/// Builds the state of `robot` now.
/// `watched`: behaviors pages look at; their children's gates are explained even out of
/// scope (besides every behavior in scope or active).
pub(crate) fn build(
    robot: &Robot,
    ticks_per_second: u32,
    progress: &Progress<'_>,
    watched: &[BehaviorId],
) -> State {
    let runner = robot.runner();
    let nodes = runner.status();
    let mut explain: Vec<bool> = nodes
        .iter()
        .map(|n| n.state != LifecycleState::OutOfScope)
        .collect();
    for &w in watched {
        for id in std::iter::once(w).chain(runner.delegates(w).iter().copied()) {
            if let Some(slot) = explain.get_mut(id.index()) {
                *slot = true;
            }
        }
    }
    let gates = explain
        .iter()
        .enumerate()
        .filter(|(_, e)| **e)
        .map(|(i, _)| runner.gate(BehaviorId::from_index(i)))
        .collect();
    let stack: Vec<Frame> = runner
        .stack()
        .map(|id| {
            let n = &nodes[id.index()];
            Frame {
                index: id.index(),
                name: runner.name(id).map(|n| n.to_string()).unwrap_or_default(),
                debug_state: n.debug_state.clone(),
                action: n.action.clone(),
                active_ms: n.active_ms,
            }
        })
        .collect();
    let dispatcher = runner
        .stack()
        .rev()
        .find(|id| !runner.delegates(*id).is_empty())
        .map(BehaviorId::index);
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
        gates,
        dispatcher,
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
