//! The JSON Lines trace (`--trace-json FILE`): the timeline, one event per line, after a
//! header line that carries what a replay needs besides the events (`robot-example inspect
//! FILE` replays a trace in the inspector's page):
//!
//! ```text
//! {"tick":0,"t_ms":0,"event":"tree","format":1,"ticks_per_second":20,"tree":{"base":0,"nodes":[{"index":0,"name":"GlobalInterruptions","class":"DispatcherStrictPriority","delegates":[1,2,3,4]},…]}}
//! {"tick":0,"t_ms":0,"event":"stack","stack":["GlobalInterruptions","Wait"]}
//! …
//! ```
//!
//! The tree is [`robot_runtime::behavior::TreeShape`]: every behavior with its class and
//! declared delegates, so that a reader can tell, from the `stack` events alone, which
//! behaviors were active (on the stack) and in scope (a delegate of one of them, or the
//! base) at every tick. Every line has `tick`, `t_ms` and `event`; readers skip events they
//! do not know.

use std::io::{self, Write};

use serde::Serialize;

use crate::robot::Robot;
use crate::timeline::{self, Entry};

/// The version of the header's layout.
pub const FORMAT: u32 = 1;

/// The `event` of the header line.
pub const HEADER_EVENT: &str = "tree";

#[derive(Serialize)]
struct Header<'a> {
    tick: u64,
    t_ms: u64,
    event: &'static str,
    format: u32,
    ticks_per_second: u32,
    tree: &'a robot_runtime::behavior::TreeShape,
}

/// The header line (without its newline) for a trace of `robot` ticking at
/// `ticks_per_second`.
pub fn header(robot: &Robot, ticks_per_second: u32) -> String {
    let tree = robot.runner().shape();
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

/// Writes a whole trace: the header line, then the entries.
pub fn write(header: &str, entries: &[Entry], mut out: impl Write) -> io::Result<()> {
    out.write_all(header.as_bytes())?;
    out.write_all(b"\n")?;
    timeline::write_json_lines(entries, out)
}

/// A trace written as the robot runs (live and inspector modes): the header at once, then
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
