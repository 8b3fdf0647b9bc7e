//! The JSON Lines trace (`--trace-json FILE`): the timeline, one event per line, after a
//! header line that carries what a replay needs besides the events (`robot-example inspect
//! FILE` replays a trace in the inspector's page):
//!
//! ```text
//! {"tick":0,"t_ms":0,"event":"tree","format":2,"ticks_per_second":20,"tree":{"base":0,"nodes":[{"index":0,"name":"GlobalInterruptions","class":"DispatcherStrictPriority","delegates":[1,2,3,4]},…]}}
//! {"tick":0,"t_ms":0,"event":"stack","stack":["GlobalInterruptions","Wait"]}
//! …
//! ```
//!
//! The tree is [`robot_runtime::behavior::inspect::shape`] as JSON ([`TreeJson`]): every
//! behavior with its class, declared delegates and linked scope, so that a reader can tell,
//! from the `stack` events alone, which behaviors were active (on the stack) and in scope (a
//! delegate of one of them or in its linked scope, or the base) at every tick; stand-ins,
//! conditions as text and a state machine's states come along. `pending` events carry the
//! intent's metadata, input and map entry (`meta`). Every line has `tick`, `t_ms` and
//! `event`; readers skip events and keys they do not know.

use std::io::{self, Write};

use robot_runtime::behavior::{inspect, BehaviorId, Runner};
use serde::Serialize;

use crate::behavior_classes::Event;
use crate::intents::UserIntent;
use crate::robot::Robot;
use crate::timeline::{self, Entry};

/// The version of the header's layout (2: `stand_in`, `linked`, `states`; 1 had `opaque`).
pub const FORMAT: u32 = 2;

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
    /// A state machine's states, with the index of the behavior each runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<StateJson>,
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
                    states: n
                        .states
                        .into_iter()
                        .map(|(name, b)| StateJson {
                            name,
                            behavior: b.map(BehaviorId::index),
                        })
                        .collect(),
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

    /// Appends entries and flushes.
    pub fn append(&mut self, entries: &[Entry]) -> io::Result<()> {
        if entries.is_empty() {
            return Ok(());
        }
        timeline::write_json_lines(entries, &mut self.out)
    }
}
