//! The robot at work: plays a scenario of timed events (cloud messages, app and HRI intents,
//! trigger words, action completions) through the intent component and the behaviors, and
//! prints the timeline.
//!
//! ```sh
//! cargo run --release -p robot-example                      # the default scenario
//! cargo run --release -p robot-example -- --scenario my.jsonl --trace-json trace.jsonl
//! cargo run --release -p robot-example -- --coverage        # which behavior claims which intent
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
use robot_example::{timeline, trace};

/// The completed-intents table shipped with the robot.
const COMPLETED_INTENTS: &str = include_str!("../behaviors/completed_intents.json");

/// Plays a scenario on the robot and prints its timeline.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None, args_conflicts_with_subcommands = true)]
#[command(group(clap::ArgGroup::new("realtime").args(["zenoh", "inspect"]).multiple(true)))]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,

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

    /// Behavior tree to load instead of the shipped `behaviors/robot.json`.
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,

    /// Print which behavior claims each user intent, run the completed-intents table, and
    /// exit 1 when an intent is not covered (instead of playing a scenario).
    #[arg(long)]
    coverage: bool,

    /// Completed-intents table for `--coverage` (default: `behaviors/completed_intents.json`).
    #[arg(long, value_name = "FILE", requires = "coverage")]
    completed: Option<PathBuf>,

    /// Print latency figures after the timeline (arrival to claim, ticks and CPU µs).
    #[arg(long)]
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

    /// Stop after this many seconds (default: run until stopped, e.g. with Ctrl-C).
    /// With --zenoh or --inspect.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "realtime",
        help_heading = "Live (Zenoh)"
    )]
    run_for: Option<f64>,

    /// Capacity of each live input queue (messages between two ticks); when full, new
    /// arrivals are dropped and the timeline says how many.
    #[arg(long, value_name = "N", default_value_t = 256, requires = "zenoh",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000), help_heading = "Live (Zenoh)")]
    queue: u32,

    /// Serve the live inspector on ADDR (default 127.0.0.1:7480) while the robot runs in
    /// real time: open the printed address in a browser to see its behavior tree, timeline,
    /// intents and resources live, send intents, force behaviors, pause and step. Plays the
    /// scenario (or, with --zenoh, takes live inputs too) and keeps running after it. An
    /// address off loopback needs --inspect-token. Needs a build with `--features inspect`.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "",
          help_heading = "Inspector")]
    inspect: Option<String>,

    /// The token the inspector's page must present (`?token=`), required when --inspect's
    /// address is not loopback: 16 to 256 characters of A-Z, a-z, 0-9, '-', '_', '.', '~'.
    #[arg(
        long,
        value_name = "TOKEN",
        requires = "inspect",
        help_heading = "Inspector"
    )]
    inspect_token: Option<String>,

    /// Start paused: the page resumes or steps the robot.
    #[arg(long, requires = "inspect", help_heading = "Inspector")]
    inspect_paused: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Replay a trace written with --trace-json in the inspector's page, with a time slider.
    /// Needs a build with `--features inspect`.
    Inspect {
        /// The trace (JSON Lines).
        #[arg(value_name = "TRACE")]
        trace: PathBuf,
        /// Where to serve the page (default 127.0.0.1:7480).
        #[arg(long, value_name = "ADDR", default_value = "")]
        addr: String,
        /// The token the page must present; required off loopback.
        #[arg(long, value_name = "TOKEN")]
        token: Option<String>,
        /// Stop after this many seconds (default: until Ctrl-C).
        #[arg(long, value_name = "SECONDS")]
        run_for: Option<f64>,
        /// The behavior tree for a trace without its tree header (default: the shipped one).
        #[arg(long, value_name = "FILE")]
        tree: Option<PathBuf>,
    },
}

fn read(path: &PathBuf) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
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

fn run(args: &Args) -> Result<ExitCode, String> {
    if let Some(Command::Inspect {
        trace,
        addr,
        token,
        run_for,
        tree,
    }) = &args.command
    {
        let run_for = seconds("--run-for", *run_for)?;
        return replay(trace, addr, token.as_deref(), run_for, tree.as_ref());
    }
    let (tree_name, tree_text) = match &args.tree {
        Some(p) => (p.display().to_string(), read(p)?),
        None => ("behaviors/robot.json".to_owned(), DEFAULT_TREE.to_owned()),
    };
    let config = RunConfig {
        ticks_per_second: args.ticks_per_second,
        snapshot_at_tick: args.at_tick,
        ..RunConfig::default()
    };
    // Load once up front: a tree with problems is reported before anything runs.
    let robot =
        Robot::with_tree(&tree_name, &tree_text, config.clone()).map_err(|e| e.to_string())?;

    if args.coverage {
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
    if args.inspect.is_some() {
        let scenario = match &args.scenario {
            Some(p) => Scenario::parse(&read(p)?, args.ticks_per_second),
            None => Scenario::parse(DEFAULT_SCENARIO, args.ticks_per_second),
        };
        for e in &scenario.errors {
            let _ = writeln!(anstream::stderr(), "warning: {e} (skipped; the rest runs)");
        }
        return inspect(args, robot, &scenario, |_, _, _| 0);
    }

    let text = match &args.scenario {
        Some(p) => read(p)?,
        None => DEFAULT_SCENARIO.to_owned(),
    };
    let scenario = Scenario::parse(&text, args.ticks_per_second);
    for e in &scenario.errors {
        let _ = writeln!(anstream::stderr(), "warning: {e} (skipped; the rest runs)");
    }
    // The trace's header line: the tree, so that `inspect TRACE` can replay it.
    let trace_header = trace::header(&robot, args.ticks_per_second);
    let run = robot.run(&scenario);

    let mut out = anstream::stdout();
    let _ = write!(out, "{}", timeline::render(&run.entries, true));
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
    if let Some(path) = &args.trace_json {
        let file =
            fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        trace::write(&trace_header, &run.entries, std::io::BufWriter::new(file))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
        Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--run-for {s}: expected a number of seconds >= 0")),
        None => None,
    };
    let scenario = match &args.scenario {
        Some(p) => Scenario::parse(&read(p)?, args.ticks_per_second),
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
    if args.inspect.is_some() {
        return inspect(args, robot, &scenario, |robot, tick, cpu| {
            inputs.deliver(robot, tick, cpu)
        });
    }
    let mut out = anstream::stdout();
    let _ = write!(out, "{}", timeline::render_header(true));
    let mut last_tick = None;
    let summary = live::run(
        robot,
        &scenario,
        &inputs,
        args.ticks_per_second,
        run_for,
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
        "live: stopped after {} ticks; {} messages received",
        summary.ticks, summary.received
    );
    Ok(ExitCode::SUCCESS)
}

fn seconds(option: &str, value: Option<f64>) -> Result<Option<std::time::Duration>, String> {
    match value {
        Some(s) if s.is_finite() && s >= 0.0 => Ok(Some(std::time::Duration::from_secs_f64(s))),
        Some(s) => Err(format!("{option} {s}: expected a number of seconds >= 0")),
        None => Ok(None),
    }
}

#[cfg(not(feature = "inspect"))]
fn inspect(
    _: &Args,
    _: Robot,
    _: &Scenario,
    _: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, String> {
    Err("--inspect: this build has no inspector; build it with \
         `cargo run --release -p robot-example --features inspect -- --inspect`"
        .to_owned())
}

/// `--inspect`: the robot in real time with the live inspector (src/inspect/cli.rs).
#[cfg(feature = "inspect")]
fn inspect(
    args: &Args,
    robot: Robot,
    scenario: &Scenario,
    inputs: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, String> {
    use robot_example::inspect::cli;
    let options = cli::LiveOptions {
        addr: args.inspect.as_deref().unwrap_or_default(),
        token: args.inspect_token.as_deref(),
        paused: args.inspect_paused,
        ticks_per_second: args.ticks_per_second,
        run_for: seconds("--run-for", args.run_for)?,
        trace: args.trace_json.as_deref(),
    };
    let summary = cli::live(robot, scenario, &options, inputs)?;
    let _ = writeln!(
        anstream::stderr(),
        "inspect: stopped after {} ticks; {} messages received, {} commands taken",
        summary.ticks,
        summary.received,
        summary.commands
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "inspect"))]
fn replay(
    _: &std::path::Path,
    _: &str,
    _: Option<&str>,
    _: Option<std::time::Duration>,
    _: Option<&PathBuf>,
) -> Result<ExitCode, String> {
    Err("inspect: this build has no inspector; build it with \
         `cargo run --release -p robot-example --features inspect -- inspect TRACE`"
        .to_owned())
}

/// `inspect TRACE`: a recorded trace in the inspector's page (src/inspect/cli.rs).
#[cfg(feature = "inspect")]
fn replay(
    trace: &std::path::Path,
    addr: &str,
    token: Option<&str>,
    run_for: Option<std::time::Duration>,
    tree: Option<&PathBuf>,
) -> Result<ExitCode, String> {
    use robot_example::inspect::cli;
    let (name, text) = match tree {
        Some(p) => (p.display().to_string(), read(p)?),
        None => ("behaviors/robot.json".to_owned(), DEFAULT_TREE.to_owned()),
    };
    let robot = Robot::with_tree(&name, &text, RunConfig::default()).map_err(|e| e.to_string())?;
    let options = cli::ReplayOptions {
        trace,
        addr,
        token,
        run_for,
    };
    cli::replay(&options, &robot, RunConfig::default().ticks_per_second)?;
    Ok(ExitCode::SUCCESS)
}
