//! The JSON Lines trace (`--trace-json FILE`): the timeline, one event per line, after a
//! header line that carries what a replay needs besides the events (`robot-example inspect
//! FILE` replays a trace in the inspector's page):
//!
//! ```text
//! {"tick":0,"t_ms":0,"event":"tree","format":3,"ticks_per_second":20,"tree":{"base":0,"nodes":[{"index":0,"name":"GlobalInterruptions","class":"DispatcherStrictPriority","delegates":[1,2,3,4]},…]}}
//! {"tick":0,"t_ms":0,"event":"stack","stack":["GlobalInterruptions","Wait"]}
//! …
//! ```
//!
//! The tree is [`robot_runtime::behavior::inspect::shape`] as JSON ([`TreeJson`]): every
//! behavior with its class, declared delegates (in declared order: a strict-priority
//! dispatcher's priority) and linked scope, so that a reader can tell, from the `stack`
//! events alone, which behaviors were active (on the stack) and in scope (a delegate of one
//! of them or in its linked scope, or the base) at every tick; stand-ins, conditions as text,
//! every condition node with its label, type and parameters (`conditions`: what a value
//! refers to), and a state machine's states come along. `pending` events carry the intent's
//! metadata, input and map entry (`meta`). Every line has `tick`, `t_ms` and `event`;
//! readers skip events and keys they do not know. A trace recorded with `--trace-why` (with
//! `--inspect`) also has `why` events: what changed in each behavior's state, in the
//! conditions' values and in the robot state on that tick (see the inspector's protocol).

use std::io::{self, Write};

use robot_runtime::behavior::{inspect, BehaviorId, Runner};
use serde::Serialize;

use crate::behavior_classes::Event;
use crate::intents::UserIntent;
use crate::robot::Robot;
use crate::timeline::{self, Entry};

/// The version of the header's layout (3: `conditions`, delegates in declared order,
/// `state_keys` with `--trace-why`; 2: `stand_in`, `linked`, `states`; 1 had `opaque`).
pub const FORMAT: u32 = 3;

/// The `event` of the header line.
pub const HEADER_EVENT: &str = "tree";

#[derive(Serialize)]
struct Header<'a> {
    tick: u64,
    t_ms: u64,
    event: &'static str,
    format: u32,
    ticks_per_second: u32,
    tree: &'a TreeJson,
}

/// The behavior tree as the trace header and the inspector's page carry it.
#[derive(Clone, Debug, Serialize)]
pub struct TreeJson {
    /// The base behavior's index.
    pub base: usize,
    /// Every behavior, by index.
    pub nodes: Vec<NodeJson>,
}

/// One behavior of [`TreeJson`].
#[derive(Clone, Debug, Serialize)]
pub struct NodeJson {
    /// Its index (the page's key).
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its class (a stand-in's: the original class).
    pub class: String,
    /// Declared delegates, by index.
    pub delegates: Vec<usize>,
    /// Linked scope, by index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub linked: Vec<usize>,
    /// A stand-in for a class not run natively.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
    /// `respondToUserIntents`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub responds_to: Vec<String>,
    /// `wantsToBeActivatedCondition` as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wants_condition: Option<String>,
    /// `wantsToCancelSelfCondition` as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel_condition: Option<String>,
    /// What its class decides beyond its JSON conditions (`Behavior::class_predicate`), with
    /// the inputs it reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicate: Option<PredicateJson>,
    /// A state machine's states, with the index of the behavior each runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<StateJson>,
    /// Every condition it owns, as the inspector explains them: `wantsToBeActivatedCondition`,
    /// `wantsToCancelSelfCondition`, then its class's (a state machine's transitions), each
    /// with its sub-conditions. A state's condition values are listed in this order,
    /// depth first (each node, then its children).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionJson>,
}

/// One condition node of [`NodeJson::conditions`]: what does not change while the robot
/// runs.
#[derive(Clone, Debug, Serialize)]
pub struct ConditionJson {
    /// Where it is (`wantsToBeActivatedCondition`, `Observing -> Exploring (interrupting)`);
    /// empty for a sub-condition.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// Its type (or custom condition) name.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Its parameters for a person.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// Its sub-conditions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<ConditionJson>,
}

impl ConditionJson {
    fn of(c: inspect::ConditionReport) -> Self {
        Self {
            label: c.label,
            type_name: c.type_name,
            detail: c.detail,
            children: c.children.into_iter().map(Self::of).collect(),
        }
    }
}

/// A class predicate, for tools: in words, with the inputs it reads and, of those, the ones
/// the robot does not model (that part of the predicate is false).
#[derive(Clone, Debug, Serialize)]
pub struct PredicateJson {
    /// The predicate in words.
    pub text: String,
    /// The inputs it reads.
    pub inputs: Vec<&'static str>,
    /// The inputs the robot does not model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmodelled: Vec<&'static str>,
}

/// A state of a state machine.
#[derive(Clone, Debug, Serialize)]
pub struct StateJson {
    /// Its name.
    pub name: String,
    /// The behavior it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behavior: Option<usize>,
}

impl TreeJson {
    /// The tree `runner` runs.
    pub fn of(runner: &Runner<UserIntent, Event>) -> Self {
        let shape = inspect::shape(runner);
        let ix = |v: &[BehaviorId]| v.iter().map(|b| b.index()).collect();
        let conditions = |i: usize| {
            inspect::why(runner, BehaviorId::from_index(i))
                .map(|r| r.conditions.into_iter().map(ConditionJson::of).collect())
                .unwrap_or_default()
        };
        TreeJson {
            base: shape.base.index(),
            nodes: shape
                .nodes
                .into_iter()
                .enumerate()
                .map(|(index, n)| NodeJson {
                    index,
                    delegates: ix(&n.delegates),
                    linked: ix(&n.linked),
                    name: n.name,
                    class: n.class,
                    stand_in: n.stand_in,
                    responds_to: n.responds_to,
                    wants_condition: n.wants_condition,
                    cancel_condition: n.cancel_condition,
                    predicate: n.predicate.map(|p| PredicateJson {
                        text: p.text,
                        inputs: p.inputs,
                        unmodelled: p.unmodelled,
                    }),
                    states: n
                        .states
                        .into_iter()
                        .map(|(name, b)| StateJson {
                            name,
                            behavior: b.map(BehaviorId::index),
                        })
                        .collect(),
                    conditions: conditions(index),
                })
                .collect(),
        }
    }
}

/// The header line (without its newline) for a trace of `robot` ticking at
/// `ticks_per_second`.
pub fn header(robot: &Robot, ticks_per_second: u32) -> String {
    let tree = TreeJson::of(robot.runner());
    serde_json::to_string(&Header {
        tick: 0,
        t_ms: 0,
        event: HEADER_EVENT,
        format: FORMAT,
        ticks_per_second,
        tree: &tree,
    })
    .unwrap_or_default()
}

/// The header line with one more key (`state_keys` for a `--trace-why` trace).
pub fn header_with(
    robot: &Robot,
    ticks_per_second: u32,
    key: &str,
    value: serde_json::Value,
) -> String {
    let mut v = serde_json::from_str::<serde_json::Value>(&header(robot, ticks_per_second))
        .unwrap_or_default();
    if let Some(m) = v.as_object_mut() {
        m.insert(key.to_owned(), value);
    }
    v.to_string()
}

/// A trace written as the robot runs (every mode: scenario, live, inspector): the header at once, then
/// each tick's entries, flushed, so that the file is complete up to the last tick whenever
/// the process is stopped.
#[derive(Debug)]
pub struct TraceWriter<W: Write> {
    out: W,
}

impl<W: Write> TraceWriter<W> {
    /// Writes the header.
    pub fn new(header: &str, mut out: W) -> io::Result<Self> {
        out.write_all(header.as_bytes())?;
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(Self { out })
    }

    /// Appends one line (JSON, without its newline) and flushes.
    pub fn append_line(&mut self, line: &str) -> io::Result<()> {
        self.out.write_all(line.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    /// Appends entries and flushes.
    pub fn append(&mut self, entries: &[Entry]) -> io::Result<()> {
        if entries.is_empty() {
            return Ok(());
        }
        timeline::write_json_lines(entries, &mut self.out)
    }
}
