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

use super::hub::Clock;
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
            action: s.action.map(str::to_owned),
            debug_state: s.debug_state.map(str::to_owned),
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
        // Who sent it and how come from outside: shown escaped, as in the timeline.
        Self {
            source: crate::timeline::escape(m.source.wire()).into_owned(),
            modality: crate::timeline::escape(m.modality.wire()).into_owned(),
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

/// The active dispatcher: the highest behavior of the stack that has delegates.
fn dispatcher(robot: &Robot) -> Option<BehaviorId> {
    let runner = robot.runner();
    runner
        .stack()
        .rev()
        .find(|id| !runner.delegates(*id).is_empty())
}

/// The behaviors the "why" covers: each of `watched` and its delegates, and the active
/// dispatcher's delegates.
fn explained(
    robot: &Robot,
    dispatcher: Option<BehaviorId>,
    watched: &[BehaviorId],
) -> Vec<BehaviorId> {
    let runner = robot.runner();
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
    explain
}

/// Writes into `out` (cleared first) everything [`build`] would show now except what moves
/// with the clock alone (the tick and time, how long behaviors have been active, cooldowns'
/// time left, intents' ages, ticks that are the current one; see [`inspect::fingerprint`]).
/// When it equals what was written at the last state sent, the page can bring that state up
/// to the clock itself (`advance` in the page's script) and needs no new one. The bytes are
/// compared, not hashed: no collision can hide a change, and writing them costs a copy.
pub(crate) fn fingerprint(
    robot: &Robot,
    progress: &Progress<'_>,
    watched: &[BehaviorId],
    out: &mut Vec<u8>,
) {
    use std::hash::Hash;
    out.clear();
    let h = &mut Recorder(out);
    let runner = robot.runner();
    let dispatcher = dispatcher(robot);
    inspect::fingerprint(runner, &explained(robot, dispatcher, watched), h);
    dispatcher.map(BehaviorId::index).hash(h);
    let c = runner.intents();
    c.pending()
        .map(|p| (p.tag(), p.since_tick(), p.meta().priority.0))
        .hash(h);
    c.active()
        .map(|a| (a.tag(), a.activated_tick(), a.owner()))
        .hash(h);
    [
        c.is_trigger_word_pending(),
        c.was_unclaimed(),
        c.was_error(),
        c.is_cloud_stream_open(),
        c.is_timeout_held(),
        progress.paused,
    ]
    .hash(h);
    progress.forced.hash(h);
}

/// A [`Hasher`](std::hash::Hasher) that keeps what it is fed, to be compared whole.
struct Recorder<'a>(&'a mut Vec<u8>);

impl std::hash::Hasher for Recorder<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn finish(&self) -> u64 {
        // Not a hash: the bytes are what is compared. Their count, for completeness.
        self.0.len() as u64
    }
}

/// The clock at the robot's `tick`.
pub(crate) fn clock(tick: u64, ticks_per_second: u32) -> Clock {
    Clock {
        tick,
        t_ms: tick * 1000 / u64::from(ticks_per_second.max(1)),
    }
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
    let dispatcher = dispatcher(robot);
    let why = explained(robot, dispatcher, watched)
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
                name: s.name.to_owned(),
                debug_state: s.debug_state.map(str::to_owned),
                action: s.action.map(str::to_owned),
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
        map_entry: map_entry(p.matched(), p.tag()),
        meta: p.meta().into(),
        age_ticks: now.saturating_sub(p.since_tick()),
        owner: None,
    });
    let active = c.active().map(|a| Intent {
        intent: UserIntent::tag_name(a.tag()),
        payload: payload_json(a.intent()),
        origin: a.source().to_string(),
        via: describe_match(a.matched()),
        map_entry: map_entry(a.matched(), a.tag()),
        meta: a.meta().into(),
        age_ticks: now.saturating_sub(a.activated_tick()),
        owner: runner.owner_name(a.owner()).map(str::to_owned),
    });
    let tick = progress.ticks_run.checked_sub(1);
    State {
        tick,
        t_ms: clock(tick.unwrap_or(0), ticks_per_second).t_ms,
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use robot_runtime::behavior::{LoadOptions, Source};
    use serde_json::Value;

    use super::*;
    use crate::robot::{RunConfig, DEFAULT_SCENARIO};
    use crate::scenario::Scenario;
    use crate::tree_files;

    /// Who sent an intent and how come from outside: the page gets them escaped, one line.
    #[test]
    fn the_pages_intent_metadata_is_escaped() {
        use robot_runtime::hri::{Confidence, Modality, Priority, Source as Who};
        let meta = Meta::from(IntentMeta {
            source: Who::Person("p1\n  9.999 s  FORGED".into()),
            modality: Modality::Unrecognized("\u{1b}[2Jtouch".into()),
            priority: Priority::DEFAULT,
            confidence: Confidence::Unstated,
            arrived_tick: 0,
        });
        assert_eq!(meta.source, r"p1\n  9.999 s  FORGED");
        assert_eq!(meta.modality, r"\u{1b}[2Jtouch");
    }

    const TPS: u32 = 50;
    /// The page's `FOREVER_MS`: a cooldown this long does not count down.
    const FOREVER: u64 = 1 << 53;

    /// The page's `advance` (assets/inspector.js), on the JSON: `sent` brought up to `clock`.
    fn advance(sent: &Value, clock: Clock) -> Value {
        let mut st = sent.clone();
        let (t0, ms0) = (
            sent["tick"].as_u64().unwrap(),
            sent["t_ms"].as_u64().unwrap(),
        );
        let dt = clock.t_ms.saturating_sub(ms0);
        let dticks = clock.tick.saturating_sub(t0);
        st["tick"] = clock.tick.into();
        st["t_ms"] = clock.t_ms.into();
        let add = |v: &mut Value, d: u64| *v = (v.as_u64().unwrap() + d).into();
        for f in st["stack"].as_array_mut().unwrap() {
            if let Some(a) = f.get_mut("active_ms") {
                add(a, dt);
            }
        }
        for n in st["nodes"].as_array_mut().unwrap() {
            if let Some(a) = n.get_mut("active_ms") {
                add(a, dt);
            }
            if let Some(c) = n
                .get_mut("cooldown_ms")
                .filter(|c| c.as_u64() < Some(FOREVER))
            {
                *c = c.as_u64().unwrap().saturating_sub(dt).into();
            }
            if n.get("wants") == Some(&Value::Bool(true)) && n["wanted_tick"] == t0 {
                n["wanted_tick"] = clock.tick.into();
            }
        }
        fn now(c: &mut Value, t0: u64, t: u64) {
            if c.get("tick").and_then(Value::as_u64) == Some(t0) {
                c["tick"] = t.into();
            }
            if let Some(k) = c.get_mut("children").and_then(Value::as_array_mut) {
                k.iter_mut().for_each(|k| now(k, t0, t));
            }
        }
        for w in st["why"].as_array_mut().unwrap() {
            for c in w["conditions"].as_array_mut().unwrap() {
                now(c, t0, clock.tick);
            }
        }
        for k in ["pending", "active"] {
            if let Some(a) = st["intents"][k].get_mut("age_ticks") {
                add(a, dticks);
            }
        }
        st
    }

    /// Where `a` and `b` differ, as `path: a != b` lines.
    fn differences(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                    let (u, v) = (
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                    );
                    differences(&format!("{path}.{k}"), u, v, out);
                }
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (u, v)) in x.iter().zip(y).enumerate() {
                    differences(&format!("{path}[{i}]"), u, v, out);
                }
            }
            _ if a != b => out.push(format!("{path}: {a} != {b}")),
            _ => {}
        }
    }

    fn original(config: RunConfig) -> Robot {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/behaviors/original");
        let files = tree_files::read_tree(Path::new(dir)).unwrap().files;
        let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
        let base = tree_files::default_base(&files).unwrap();
        Robot::with_sources(&sources, base, &LoadOptions::with_stand_ins(), config)
            .unwrap()
            .0
    }

    /// On every tick of the default scenario and a long wait after it, shipped tree and the
    /// original robot's, with and without a page watching HighLevelAI: when the fingerprint
    /// is the last state's, that state brought up to the clock is exactly the state now
    /// (the page shows nothing stale); and both cases happen (the test can fail both ways).
    #[test]
    fn an_equal_fingerprint_means_only_the_clock_moved() {
        let config = RunConfig {
            ticks_per_second: TPS,
            ..RunConfig::default()
        };
        let scenario = Scenario::parse(DEFAULT_SCENARIO, TPS);
        let last = scenario.events.last().map_or(0, |e| e.when.tick(TPS));
        for (name, make) in [
            ("shipped", Robot::new as fn(RunConfig) -> Robot),
            ("original", original),
        ] {
            for watch in [false, true] {
                let mut robot = make(config.clone());
                let watched: Vec<BehaviorId> = if watch {
                    robot.runner().id("HighLevelAI").into_iter().collect()
                } else {
                    Vec::new()
                };
                let (mut next, mut same, mut moved) = (0, 0, 0);
                let mut sent: Option<(Vec<u8>, Value)> = None;
                for t in 0..last + 30 * u64::from(TPS) {
                    robot.begin_tick(t);
                    for e in scenario.due(&mut next, t, TPS) {
                        robot.deliver(e, Duration::ZERO);
                    }
                    robot.end_tick(Duration::ZERO);
                    robot.clear_entries();
                    let progress = Progress {
                        ticks_run: t + 1,
                        ..Progress::default()
                    };
                    let mut f = Vec::new();
                    fingerprint(&robot, &progress, &watched, &mut f);
                    let state =
                        serde_json::to_value(build(&robot, TPS, &progress, &watched)).unwrap();
                    match &sent {
                        Some((f0, s0)) if *f0 == f => {
                            let mut diffs = Vec::new();
                            differences("", &advance(s0, clock(t, TPS)), &state, &mut diffs);
                            assert!(
                                diffs.is_empty(),
                                "{name}, watching {watch}, tick {t}: {diffs:#?}"
                            );
                            same += 1;
                        }
                        _ => {
                            sent = Some((f, state));
                            moved += 1;
                        }
                    }
                }
                assert!(
                    same > 10 * moved && moved > 5,
                    "{name}, watching {watch}: {same} clock only, {moved} moved"
                );
            }
        }
    }
}
