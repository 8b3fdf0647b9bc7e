//! The robot at work: plays a scenario of timed events (cloud messages, app and HRI intents,
//! trigger words, action completions) through the intent component and the behaviors, and
//! prints the timeline.
//!
//! ```sh
//! cargo run --release -p robot-example                      # the default scenario
//! cargo run --release -p robot-example -- --scenario my.jsonl --trace-json trace.jsonl
//! cargo run --release -p robot-example -- --coverage        # which behavior claims which intent
//! # a tree written for the original engine: check it, then run it
//! cargo run --release -p robot-example -- --check-tree examples/robot/behaviors/original
//! cargo run --release -p robot-example -- --tree examples/robot/behaviors/original
//! # live: take cloud messages and HRI intents from Zenoh while the robot runs
//! cargo run --release -p robot-example --features zenoh -- --zenoh
//! # ... and be a ROS 2 node hearing hri_actions_msgs/Intent on /intents (rmw_zenoh)
//! cargo run --release -p robot-example --features zenoh -- --zenoh --ros2
//! # the live inspector in the browser (any mode: add --zenoh, --ros2, --tree DIR), and replay
//! cargo run --release -p robot-example --features inspect -- --inspect
//! cargo run --release -p robot-example --features inspect -- inspect trace.jsonl
//! ```

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use robot_example::coverage::{self, CompletedIntents};
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO, DEFAULT_TREE};
use robot_example::scenario::Scenario;
use robot_example::tree_files;
use robot_example::{timeline, trace};
use robot_runtime::behavior::{KeyCheck, LoadOptions, Source};

/// The completed-intents table shipped with the robot.
const COMPLETED_INTENTS: &str = include_str!("../behaviors/completed_intents.json");
#[path = "main/args.rs"]
mod args;
#[path = "main/inspector.rs"]
mod inspector;
#[cfg(feature = "zenoh")]
#[path = "main/live.rs"]
mod live;

use args::{Args, Command};
use inspector::{inspect, replay, seconds};
#[cfg(feature = "zenoh")]
use live::live;

fn read(path: &PathBuf) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A scenario file, read and decoded line by line (a line that is not UTF-8 is reported, the
/// rest runs; a line longer than any event needs stops the reading with an error).
fn read_scenario(path: &PathBuf, ticks_per_second: u32) -> Result<Scenario, String> {
    let file = fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Scenario::read(std::io::BufReader::new(file), ticks_per_second)
        .map_err(|e| format!("--scenario {}: {e}", path.display()))
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(code) => code,
        Err(Failure::Message(message)) => {
            let _ = writeln!(anstream::stderr(), "error: {message}");
            ExitCode::from(2)
        }
        // Its reader went away (`| head`): stop quietly, as Unix tools do.
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        // Anything else (a full disk, `> /dev/full`): say so. A failing standard error is
        // ignored: there is nobody left to tell, and the status still says it.
        Err(Failure::Output(e)) => {
            let _ = writeln!(
                anstream::stderr(),
                "error: cannot write standard output: {e}"
            );
            ExitCode::FAILURE
        }
    }
}

/// Why a run failed: a message for the user (exit 2), or standard output could not be written
/// (exit 1).
#[derive(Debug)]
enum Failure {
    Message(String),
    Output(std::io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Message(message.to_owned())
    }
}

/// Standard output, whose first write error is kept (a run streams its timeline through a
/// callback that cannot return one) and reported when the run ends.
struct Stdout {
    out: anstream::AutoStream<std::io::Stdout>,
    error: Option<std::io::Error>,
}

impl Stdout {
    fn new() -> Self {
        Stdout {
            out: anstream::stdout(),
            error: None,
        }
    }

    /// Writes `text` (and flushes it: a live run is followed as it happens), unless an
    /// earlier write failed. False once a write failed.
    fn print(&mut self, text: &str) -> bool {
        if self.error.is_none() {
            if let Err(e) = self
                .out
                .write_all(text.as_bytes())
                .and_then(|()| self.out.flush())
            {
                self.error = Some(e);
            }
        }
        self.error.is_none()
    }

    /// The first write error, if any.
    fn finish(mut self) -> Result<(), Failure> {
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
        match self.error {
            Some(e) => Err(Failure::Output(e)),
            None => Ok(()),
        }
    }
}

/// The files of a tree, saying on standard error what was skipped.
fn read_tree(path: &std::path::Path) -> Result<Vec<(String, String)>, String> {
    let tree = tree_files::read_tree(path)?;
    for w in &tree.skipped {
        let _ = writeln!(anstream::stderr(), "warning: {w}");
    }
    Ok(tree.files)
}

fn load_options(args: &Args) -> LoadOptions {
    LoadOptions {
        keys: if args.lenient {
            KeyCheck::Lenient
        } else {
            KeyCheck::Strict
        },
        ..LoadOptions::with_stand_ins()
    }
}

fn run(args: &Args) -> Result<ExitCode, Failure> {
    if let Some(Command::Inspect {
        trace,
        addr,
        token,
        origin,
        run_for,
        tree,
    }) = &args.command
    {
        let run_for = seconds("--run-for", *run_for)?;
        return replay(
            trace,
            addr,
            token.as_deref(),
            origin,
            run_for,
            tree.as_ref(),
        );
    }
    if let Some(dir) = &args.check_tree {
        let files = read_tree(dir)?;
        let options = load_options(args);
        let report = tree_files::check(&files, &options);
        let mut text = tree_files::render(&dir.display().to_string(), &report);
        // Without errors, the tree from its base (the one `--tree` would run), in declared
        // order, and what each class decides beyond its JSON conditions.
        let base = args
            .base
            .as_deref()
            .or_else(|| tree_files::default_base(&files));
        if let (0, Some(base)) = (report.errors().count(), base) {
            if let Some(outline) = tree_files::outline(&files, base, &options) {
                text.push_str(&outline);
            }
            if let Some(predicates) = tree_files::predicates(&files, base, &options) {
                text.push_str(&predicates);
            }
        }
        let mut out = Stdout::new();
        out.print(&text);
        out.finish()?;
        // Info-level problems (a class predicate reading an input the robot does not model)
        // are reported, not failures.
        return Ok(
            if report.errors().count() + report.warnings().count() == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            },
        );
    }
    let config = RunConfig {
        ticks_per_second: args.ticks_per_second,
        snapshot_at_tick: args.at_tick,
        ..RunConfig::default()
    };
    let (tree_name, tree_text, robot) = match &args.tree {
        Some(p) => {
            let files = read_tree(p)?;
            let base = match &args.base {
                Some(b) => b.clone(),
                None => tree_files::default_base(&files)
                    .ok_or_else(|| {
                        format!(
                            "{}: no InitNormalOperation or GlobalInterruptions; give --base ID",
                            p.display()
                        )
                    })?
                    .to_owned(),
            };
            let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
            // Load once up front: a tree with problems is reported before anything runs.
            let (robot, report) =
                Robot::with_sources(&sources, &base, &load_options(args), config.clone())
                    .map_err(|e| e.to_string())?;
            for w in report.warnings() {
                let _ = writeln!(anstream::stderr(), "warning: {w}");
            }
            let text = match files.as_slice() {
                [(_, t)] => t.clone(),
                _ => String::new(),
            };
            (p.display().to_string(), text, robot)
        }
        None => {
            let robot = Robot::with_tree("behaviors/robot.json", DEFAULT_TREE, config.clone())
                .map_err(|e| e.to_string())?;
            (
                "behaviors/robot.json".to_owned(),
                DEFAULT_TREE.to_owned(),
                robot,
            )
        }
    };

    if args.coverage {
        if tree_text.is_empty() {
            return Err("--coverage checks one tree file; --tree gave a directory".into());
        }
        let (name, text) = match &args.completed {
            Some(p) => (p.display().to_string(), read(p)?),
            None => (
                "behaviors/completed_intents.json".to_owned(),
                COMPLETED_INTENTS.to_owned(),
            ),
        };
        let table = CompletedIntents::from_json(&name, &text).map_err(|e| e.to_string())?;
        let report = coverage::check(&tree_name, &tree_text, &table, args.ticks_per_second)
            .map_err(|e| e.to_string())?;
        let mut out = Stdout::new();
        out.print(&report.render());
        out.finish()?;
        return Ok(if report.problems.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }

    if args.zenoh {
        return live(args, robot);
    }

    let scenario = match &args.scenario {
        Some(p) => read_scenario(p, args.ticks_per_second)?,
        None => Scenario::parse(DEFAULT_SCENARIO, args.ticks_per_second),
    };
    for e in &scenario.errors {
        let _ = writeln!(
            anstream::stderr(),
            "warning: {} (skipped; the rest runs)",
            timeline::escape(&e.to_string())
        );
    }
    if args.inspect.is_some() {
        return inspect(args, robot, &scenario, |_, _, _| 0);
    }
    // The timeline is printed (and the trace written) as the robot runs: a long run keeps
    // no timeline in memory.
    // The trace starts with its header line (the tree, so that `inspect TRACE` replays it).
    let mut trace = match &args.trace_json {
        Some(path) => Some((
            path,
            trace::TraceWriter::new(
                &trace::header(&robot, args.ticks_per_second),
                std::io::BufWriter::new(
                    fs::File::create(path)
                        .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
                ),
            )
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        )),
        None => None,
    };
    let mut trace_error = None;
    let mut out = Stdout::new();
    out.print(&timeline::render_header(true));
    let mut last_tick = None;
    let run = robot.run_streaming(&scenario, |entries| {
        out.print(&timeline::render_rows(entries, true, &mut last_tick));
        if let (Some((path, file)), None) = (&mut trace, &trace_error) {
            if let Err(e) = file.append(entries) {
                trace_error = Some(format!("cannot write {}: {e}", path.display()));
            }
        }
    });
    if let Some(e) = trace_error {
        return Err(e.into());
    }
    if args.latency {
        out.print("\nlatency (input arrival -> claiming behavior active):\n");
        for l in &run.latencies {
            out.print(&format!(
                "  line {:>3}  {:<24} {:<24} {} tick{}  {:>7.1} µs CPU\n",
                l.line,
                l.intent,
                l.behavior,
                l.ticks,
                if l.ticks == 1 { "" } else { "s" },
                l.cpu.as_secs_f64() * 1e6
            ));
        }
    }
    out.finish()?;
    if args.dot.is_some() || args.mermaid.is_some() {
        let snap = &run.snapshot;
        if let Some(t) = args.at_tick.filter(|t| *t != snap.tick) {
            return Err(format!(
                "--at-tick {t}: the run ended at tick {}",
                run.ticks.saturating_sub(1)
            )
            .into());
        }
        for (path, text) in [(&args.dot, &snap.dot), (&args.mermaid, &snap.mermaid)] {
            if let Some(path) = path {
                fs::write(path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
        }
        let _ = writeln!(
            anstream::stderr(),
            "tree written with the stack of tick {}: {}",
            snap.tick,
            snap.stack.join(" > ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "zenoh"))]
fn live(_: &Args, _: Robot) -> Result<ExitCode, Failure> {
    Err("--zenoh: this build has no Zenoh support; build it with \
         `cargo run --release -p robot-example --features zenoh -- --zenoh`"
        .into())
}
