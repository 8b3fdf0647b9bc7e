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
//! ```

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use robot_example::coverage::{self, CompletedIntents};
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO, DEFAULT_TREE};
use robot_example::scenario::Scenario;
use robot_example::timeline;
use robot_example::tree_files;
use robot_runtime::behavior::{KeyCheck, LoadOptions, Source};

/// The completed-intents table shipped with the robot.
const COMPLETED_INTENTS: &str = include_str!("../behaviors/completed_intents.json");

/// Plays a scenario on the robot and prints its timeline.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None)]
struct Args {
    /// Scenario to play (JSON Lines, see `src/scenario.rs`); default: the shipped one
    /// (`scenarios/default.jsonl`).
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,

    /// Also write the timeline as JSON Lines (one event per line) to FILE.
    #[arg(long, value_name = "FILE")]
    trace_json: Option<PathBuf>,

    /// Write the behavior tree as Graphviz DOT to FILE, with the stack of `--at-tick`
    /// highlighted.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,

    /// Write the behavior tree as a Mermaid flowchart to FILE, with the stack of `--at-tick`
    /// highlighted.
    #[arg(long, value_name = "FILE")]
    mermaid: Option<PathBuf>,

    /// The tick whose stack `--dot` / `--mermaid` highlight (default: the last tick).
    #[arg(long, value_name = "N")]
    at_tick: Option<u64>,

    /// Ticks per second of the robot's clock (scenario times in ms are turned into ticks).
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    ticks_per_second: u32,

    /// Behavior tree to run instead of the shipped `behaviors/robot.json`: a file, or a
    /// directory whose `.json` files are loaded as the original engine loads them (one
    /// behavior per file). Classes of the original engine that are not built in run as
    /// stand-ins.
    #[arg(long, value_name = "DIR_OR_FILE")]
    tree: Option<PathBuf>,

    /// The base behavior of `--tree` (default: `InitNormalOperation`, the original's, or
    /// `GlobalInterruptions`, the shipped tree's).
    #[arg(long, value_name = "ID", requires = "tree")]
    base: Option<String>,

    /// With `--tree` / `--check-tree`: keys nobody reads are warnings instead of errors (the
    /// original's release build only logged them).
    #[arg(long)]
    lenient: bool,

    /// Check a behavior tree (a directory of the original engine's files, or one file) and
    /// print what it holds: files, behaviors, classes built in or stand-ins, conditions
    /// native or opaque, references resolved, every problem with file:line. Exits 1 on any
    /// problem.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["tree", "coverage", "zenoh"])]
    check_tree: Option<PathBuf>,

    /// Print which behavior claims each user intent, run the completed-intents table, and
    /// exit 1 when an intent is not covered (instead of playing a scenario).
    #[arg(long)]
    coverage: bool,

    /// Completed-intents table for `--coverage` (default: `behaviors/completed_intents.json`).
    #[arg(long, value_name = "FILE", requires = "coverage")]
    completed: Option<PathBuf>,

    /// Print latency figures after the timeline (arrival to claim, ticks and CPU µs). Not
    /// with --zenoh (a live run has no end to print them at; refused, not ignored).
    #[arg(long, conflicts_with = "zenoh")]
    latency: bool,

    /// Run live, in real time, taking cloud messages (`CloudMic/Message`) and HRI intents
    /// (`Hri/IntentEnvelope`) from Zenoh while the robot runs; the timeline is printed as it
    /// happens. Plays `--scenario` too when given (not the default one). Needs a build with
    /// `--features zenoh`.
    #[arg(long, help_heading = "Live (Zenoh)")]
    zenoh: bool,

    /// Zenoh endpoint to listen on (repeatable; default tcp/127.0.0.1:7447 when neither
    /// --listen, --connect nor --zenoh-config is given).
    #[arg(
        long,
        value_name = "ENDPOINT",
        requires = "zenoh",
        help_heading = "Live (Zenoh)"
    )]
    listen: Vec<String>,

    /// Zenoh endpoint to connect to (repeatable), e.g. tcp/192.168.1.20:7447.
    #[arg(
        long,
        value_name = "ENDPOINT",
        requires = "zenoh",
        help_heading = "Live (Zenoh)"
    )]
    connect: Vec<String>,

    /// Also find peers by multicast scouting (off: only the endpoints given are used).
    #[arg(long, requires = "zenoh", help_heading = "Live (Zenoh)")]
    multicast: bool,

    /// A Zenoh JSON5 configuration file (instead of --listen/--connect/--multicast).
    #[arg(long, value_name = "FILE", requires = "zenoh", conflicts_with_all = ["listen", "connect", "multicast"],
          help_heading = "Live (Zenoh)")]
    zenoh_config: Option<PathBuf>,

    /// Stop after this many seconds, at most one year (31536000; default: run until
    /// stopped with Ctrl-C, which ends the run with its summary line).
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "zenoh",
        help_heading = "Live (Zenoh)"
    )]
    run_for: Option<f64>,

    /// Capacity of each live input queue (messages between two ticks); when full, new
    /// arrivals are dropped and the timeline says how many.
    #[arg(long, value_name = "N", default_value_t = 256, requires = "zenoh",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000), help_heading = "Live (Zenoh)")]
    queue: u32,
}

fn read(path: &PathBuf) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A scenario file, decoded line by line (a line that is not UTF-8 is reported, the rest
/// runs).
fn read_scenario(path: &PathBuf, ticks_per_second: u32) -> Result<Scenario, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(Scenario::parse_bytes(&bytes, ticks_per_second))
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(anstream::stderr(), "error: {message}");
            ExitCode::from(2)
        }
    }
}

fn load_options(args: &Args) -> LoadOptions {
    LoadOptions {
        keys: if args.lenient {
            KeyCheck::Lenient
        } else {
            KeyCheck::Strict
        },
        ..LoadOptions::original()
    }
}

fn run(args: &Args) -> Result<ExitCode, String> {
    if let Some(dir) = &args.check_tree {
        let files = tree_files::read_tree(dir)?;
        let report = tree_files::check(&files, &load_options(args));
        let _ = write!(
            anstream::stdout(),
            "{}",
            tree_files::render(&dir.display().to_string(), &report)
        );
        return Ok(if report.problems.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let config = RunConfig {
        ticks_per_second: args.ticks_per_second,
        snapshot_at_tick: args.at_tick,
        ..RunConfig::default()
    };
    let (tree_name, tree_text, robot) = match &args.tree {
        Some(p) => {
            let files = tree_files::read_tree(p)?;
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
        let mut out = anstream::stdout();
        let _ = write!(out, "{}", report.render());
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
        let _ = writeln!(anstream::stderr(), "warning: {e} (skipped; the rest runs)");
    }
    // The timeline is printed (and the trace written) as the robot runs: a long run keeps
    // no timeline in memory.
    let mut trace = match &args.trace_json {
        Some(path) => Some((
            path,
            std::io::BufWriter::new(
                fs::File::create(path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
            ),
        )),
        None => None,
    };
    let mut trace_error = None;
    let mut out = anstream::stdout();
    let _ = write!(out, "{}", timeline::render_header(true));
    let mut last_tick = None;
    let run = robot.run_streaming(&scenario, |entries| {
        let _ = write!(
            out,
            "{}",
            timeline::render_rows(entries, true, &mut last_tick)
        );
        if let (Some((path, file)), None) = (&mut trace, &trace_error) {
            if let Err(e) = timeline::write_json_lines(entries, &mut *file) {
                trace_error = Some(format!("cannot write {}: {e}", path.display()));
            }
        }
    });
    if let Some(e) = trace_error {
        return Err(e);
    }
    if args.latency {
        let _ = writeln!(
            out,
            "\nlatency (input arrival -> claiming behavior active):"
        );
        for l in &run.latencies {
            let _ = writeln!(
                out,
                "  line {:>3}  {:<24} {:<24} {} tick{}  {:>7.1} µs CPU",
                l.line,
                l.intent,
                l.behavior,
                l.ticks,
                if l.ticks == 1 { "" } else { "s" },
                l.cpu.as_secs_f64() * 1e6
            );
        }
    }
    if args.dot.is_some() || args.mermaid.is_some() {
        let snap = &run.snapshot;
        if let Some(t) = args.at_tick.filter(|t| *t != snap.tick) {
            return Err(format!(
                "--at-tick {t}: the run ended at tick {}",
                run.ticks.saturating_sub(1)
            ));
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
fn live(_: &Args, _: Robot) -> Result<ExitCode, String> {
    Err("--zenoh: this build has no Zenoh support; build it with \
         `cargo run --release -p robot-example --features zenoh -- --zenoh`"
        .to_owned())
}

#[cfg(feature = "zenoh")]
fn live(args: &Args, robot: Robot) -> Result<ExitCode, String> {
    use robot_example::live::{self, LiveConfig, LiveInputs, Network};
    use std::time::Duration;

    let network = match &args.zenoh_config {
        Some(path) => Network::ConfigFile(path.clone()),
        None if args.listen.is_empty() && args.connect.is_empty() => Network::Peer {
            listen: vec![live::DEFAULT_LISTEN.to_owned()],
            connect: Vec::new(),
            multicast: args.multicast,
        },
        None => Network::Peer {
            listen: args.listen.clone(),
            connect: args.connect.clone(),
            multicast: args.multicast,
        },
    };
    let run_for = match args.run_for {
        Some(s) if (0.0..=live::MAX_RUN_FOR_S).contains(&s) => Some(Duration::from_secs_f64(s)),
        Some(s) => {
            return Err(format!(
                "--run-for {s}: expected a number of seconds from 0 to {} (one year); leave it \
                 out to run until stopped with Ctrl-C",
                live::MAX_RUN_FOR_S
            ))
        }
        None => None,
    };
    // Ctrl-C (or SIGTERM) ends the run after the tick in progress, with the summary line; a
    // second one ends the process at once.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("--zenoh: cannot handle Ctrl-C: {e}"))?;
    let scenario = match &args.scenario {
        Some(p) => read_scenario(p, args.ticks_per_second)?,
        None => Scenario::default(),
    };
    for e in &scenario.errors {
        let _ = writeln!(anstream::stderr(), "warning: {e} (skipped; the rest runs)");
    }
    let config = LiveConfig {
        network: network.clone(),
        queue: args.queue as usize,
        ..LiveConfig::default()
    };
    let inputs = LiveInputs::open(&config).map_err(|e| format!("--zenoh: {e}"))?;
    let mut err = anstream::stderr();
    match &network {
        Network::Peer {
            listen, connect, ..
        } => {
            let _ = writeln!(
                err,
                "live: listening on [{}], connecting to [{}]; cloud messages on {}, HRI intents on {}",
                listen.join(", "),
                connect.join(", "),
                inputs.cloud_key(),
                inputs.hri_key()
            );
            if let Some(ep) = listen.first() {
                let _ = writeln!(
                    err,
                    "live: poke it from another terminal (one CLAD-JSON value per line; README \
                     \"Poke the running robot\"):\n  \
                     cargo run -q -p clad-zenoh --bin cladz -- pub -I schemas cloud.clad \
                     --type CloudMic::Message --connect {ep}"
                );
            }
        }
        Network::ConfigFile(path) => {
            let _ = writeln!(
                err,
                "live: Zenoh configuration {}; cloud messages on {}, HRI intents on {}",
                path.display(),
                inputs.cloud_key(),
                inputs.hri_key()
            );
        }
    }
    let mut out = anstream::stdout();
    let _ = write!(out, "{}", timeline::render_header(true));
    let mut last_tick = None;
    let summary = live::run_until(
        robot,
        &scenario,
        &inputs,
        args.ticks_per_second,
        run_for,
        &stop,
        |entries| {
            if !entries.is_empty() {
                let _ = write!(
                    out,
                    "{}",
                    timeline::render_rows(entries, true, &mut last_tick)
                );
                let _ = out.flush();
            }
        },
    );
    let _ = writeln!(
        err,
        "live: {} after {} ticks; {} messages received",
        if summary.interrupted {
            "interrupted"
        } else {
            "stopped"
        },
        summary.ticks,
        summary.received
    );
    Ok(ExitCode::SUCCESS)
}
