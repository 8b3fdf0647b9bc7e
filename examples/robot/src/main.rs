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
    /// native or opaque, references resolved, the tree from its base with each behavior's
    /// children in declared order (a strict-priority dispatcher's priority), the class
    /// predicate each stand-in or table-driven class runs with the inputs it reads, every
    /// problem with file:line. Exits 1 on any error or warning (infos are reported only).
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

    /// Zenoh endpoint to listen on (repeatable; default tcp/127.0.0.1:7448 when neither
    /// --listen, --connect nor --zenoh-config is given; with --ros2, tcp/localhost:0).
    #[arg(
        long,
        value_name = "ENDPOINT",
        requires = "zenoh",
        help_heading = "Live (Zenoh)"
    )]
    listen: Vec<String>,

    /// Zenoh endpoint to connect to (repeatable), e.g. tcp/192.168.1.20:7448; with --ros2
    /// the default is the ROS 2 router, tcp/localhost:7447.
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
    /// stopped with Ctrl-C, which ends the run with its summary line). With --zenoh or
    /// --inspect.
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

    /// Also be a ROS 2 node (rmw_zenoh, no ROS installation needed): take
    /// hri_actions_msgs/msg/Intent from the topic (default /intents) and show up in the graph.
    /// Connects as a peer to the ROS 2 router (tcp/localhost:7447) unless --connect says
    /// otherwise, listens on a free port, never on 7447.
    #[arg(long, requires = "zenoh", help_heading = "ROS 2 (rmw_zenoh)")]
    ros2: bool,

    /// The ROS domain [default: $ROS_DOMAIN_ID, else 0].
    #[arg(long, value_name = "ID", requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)",
          value_parser = clap::value_parser!(u32).range(0..=232))]
    ros_domain: Option<u32>,

    /// The node's name.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "robot",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    ros_node: String,

    /// The node's namespace.
    #[arg(
        long,
        value_name = "NS",
        default_value = "/",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    ros_namespace: String,

    /// The intents topic (a relative name is put in the namespace, `~` is the node's).
    #[arg(
        long,
        value_name = "TOPIC",
        default_value = "/intents",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    ros_topic: String,

    /// A remapping rule, as after `--ros-args -r`: FROM:=TO or NODE:FROM:=TO (repeatable).
    #[arg(
        long,
        value_name = "RULE",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    ros_remap: Vec<String>,

    /// The ROS 2 distribution of the graph: humble has no type hashes; iron, jazzy, kilted,
    /// lyrical and rolling share the RIHS01 hash.
    #[arg(
        long,
        value_name = "DISTRO",
        default_value = "jazzy",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    ros_distro: String,

    /// Also take intents published with the other distribution's type hash (Humble's
    /// TypeHashNotSupported on a newer graph, or the reverse); the graph still sees one.
    #[arg(long, requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)")]
    ros_accept_other_distro: bool,

    /// Read priority 0 and confidence 0.0 literally (lowest priority, no confidence) instead
    /// of as unstated, the ROS defaults rule.
    #[arg(long, requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)")]
    ros_literal: bool,

    /// Publish the user intents the cloud pipeline recognised (voice commands) as
    /// hri_actions_msgs/msg/Intent on the topic, so other ROS nodes hear what the robot heard.
    #[arg(long, requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)")]
    ros_publish: bool,

    /// Serve the live inspector on ADDR (default 127.0.0.1:7480) while the robot runs in
    /// real time: open the printed address in a browser to see its behavior tree, timeline,
    /// intents and resources live, send intents, force behaviors, pause and step. Plays the
    /// scenario (with --zenoh / --ros2, takes live inputs too) and keeps running after it.
    /// An address off loopback needs --inspect-token. Needs a build with `--features
    /// inspect`.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "",
          conflicts_with_all = ["check_tree", "coverage", "latency", "dot", "mermaid", "at_tick"],
          help_heading = "Inspector")]
    inspect: Option<String>,

    /// The token the inspector's page must present, required when --inspect's address is
    /// not loopback and with --inspect-origin: 16 to 256 characters of A-Z, a-z, 0-9, '-',
    /// '_', '.', '~'. The page reads it from its address's fragment (`/#token=...`, never
    /// sent to a server or a proxy) and sends it on its socket; it is never logged.
    #[arg(
        long,
        value_name = "TOKEN",
        requires = "inspect",
        help_heading = "Inspector"
    )]
    inspect_token: Option<String>,

    /// An origin allowed to open the inspector's socket besides its own (`http://` and the
    /// address the page was loaded from): a TLS reverse proxy's, e.g.
    /// `https://robot.example:8443` (repeat for more). Needs --inspect-token.
    #[arg(
        long,
        value_name = "ORIGIN",
        requires = "inspect",
        help_heading = "Inspector"
    )]
    inspect_origin: Vec<String>,

    /// Start paused: the page resumes or steps the robot.
    #[arg(long, requires = "inspect", help_heading = "Inspector")]
    inspect_paused: bool,

    /// With --inspect and --trace-json: the trace also records what changed in the robot on
    /// each tick (each behavior's state, every condition's value, the robot-state keys), so
    /// that `inspect TRACE` shows why at any tick, plots and the state panel. Larger traces,
    /// and a look at the whole tree on every tick.
    #[arg(long, requires_all = ["inspect", "trace_json"], help_heading = "Inspector")]
    trace_why: bool,
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
        /// The token the page must present; required off loopback and with --origin.
        #[arg(long, value_name = "TOKEN")]
        token: Option<String>,
        /// An origin allowed to open the socket besides the server's own (a TLS reverse
        /// proxy's; repeat for more).
        #[arg(long, value_name = "ORIGIN")]
        origin: Vec<String>,
        /// Stop after this many seconds (default: until Ctrl-C).
        #[arg(long, value_name = "SECONDS")]
        run_for: Option<f64>,
        /// The behavior tree for a trace without its tree header, a file or a directory as
        /// for --tree (default: the shipped one).
        #[arg(long, value_name = "DIR_OR_FILE")]
        tree: Option<PathBuf>,
    },
}

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

#[cfg(feature = "zenoh")]
fn live(args: &Args, robot: Robot) -> Result<ExitCode, Failure> {
    use robot_example::live::{self, LiveConfig, LiveInputs, Network};
    use std::time::Duration;

    let network = match &args.zenoh_config {
        Some(path) if args.ros2 => {
            refuse_router_port(&config_listen_endpoints(path)?, "--zenoh-config")?;
            Network::ConfigFile(path.clone())
        }
        Some(path) => Network::ConfigFile(path.clone()),
        None if args.ros2 => ros_network(args)?,
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
            )
            .into())
        }
        None => None,
    };
    let stop = stop_on_ctrl_c("--zenoh")?;
    let scenario = match &args.scenario {
        Some(p) => read_scenario(p, args.ticks_per_second)?,
        None => Scenario::default(),
    };
    for e in &scenario.errors {
        let _ = writeln!(
            anstream::stderr(),
            "warning: {} (skipped; the rest runs)",
            timeline::escape(&e.to_string())
        );
    }
    let config = LiveConfig {
        network: network.clone(),
        queue: args.queue as usize,
        ..LiveConfig::default()
    };
    let mut inputs = LiveInputs::open(&config).map_err(|e| format!("--zenoh: {e}"))?;
    let mut robot = robot;
    if args.ros2 {
        let options = ros_options(args)?;
        let peer = robot_example::ros2::RosPeer::open(inputs.session(), &options)
            .map_err(|e| format!("--ros2: {e}"))?;
        if options.publish {
            robot.record_recognised();
        }
        inputs.attach_ros(peer);
    }
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
            // A ROS node's own port is drawn at random: reach it through the router.
            let reachable = if args.ros2 { connect } else { listen };
            if let Some(ep) = reachable.first() {
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
    if let Some(ros) = inputs.ros() {
        report_ros(&mut err, &inputs, ros);
    }
    if args.inspect.is_some() {
        let code = inspect_until(args, robot, &scenario, &stop, |robot, _, cpu| {
            inputs.deliver(robot, cpu)
        })?;
        let _ = writeln!(err, "live: {}", inputs.stats().summary());
        if let Some(ros) = inputs.ros() {
            let _ = writeln!(err, "ros2: {}", ros.stats().summary());
        }
        return Ok(code);
    }
    // The trace starts with its header line (the tree, so that `inspect TRACE` replays it).
    let mut trace = match &args.trace_json {
        Some(path) => Some(
            trace::TraceWriter::new(
                &trace::header(&robot, args.ticks_per_second),
                std::io::BufWriter::new(
                    fs::File::create(path)
                        .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
                ),
            )
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut out = Stdout::new();
    out.print(&timeline::render_header(true));
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
                // A timeline nobody can read ends the run (the error is reported).
                if !out.print(&timeline::render_rows(entries, true, &mut last_tick)) {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                if let Some(t) = trace.as_mut() {
                    // Flushed per tick: another process may follow the file as it grows.
                    let _ = t.append(entries);
                }
            }
        },
    );
    let _ = writeln!(
        err,
        "live: {} after {} ticks; {}",
        if summary.interrupted {
            "interrupted"
        } else {
            "stopped"
        },
        summary.ticks,
        summary.inputs.summary()
    );
    if let Some(ros) = inputs.ros() {
        let _ = writeln!(err, "ros2: {}", ros.stats().summary());
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The session of a ROS 2 node: a peer of the router (`--connect`, default
/// tcp/localhost:7447) listening on a free port (`--listen`, default tcp/localhost:0), never
/// on the router's port.
#[cfg(feature = "zenoh")]
fn ros_network(args: &Args) -> Result<robot_example::live::Network, String> {
    use clad_zenoh::ros2::{DEFAULT_LISTEN, DEFAULT_ROUTER};
    let or = |given: &[String], default: &str| {
        if given.is_empty() {
            vec![default.to_owned()]
        } else {
            given.to_vec()
        }
    };
    let listen = or(&args.listen, DEFAULT_LISTEN);
    refuse_router_port(&listen, "--listen")?;
    Ok(robot_example::live::Network::Peer {
        listen,
        connect: or(&args.connect, DEFAULT_ROUTER),
        multicast: args.multicast,
    })
}

/// In ROS mode the robot never listens on the router's port.
#[cfg(feature = "zenoh")]
fn refuse_router_port(listen: &[String], option: &str) -> Result<(), String> {
    use clad_zenoh::ros2::ROUTER_PORT;
    match listen
        .iter()
        .find(|ep| endpoint_port(ep) == Some(ROUTER_PORT))
    {
        Some(ep) => Err(format!(
            "--ros2 {option}: listening on {ep}, but port {ROUTER_PORT} is the ROS 2 router's \
             (rmw_zenohd); the robot connects to it and listens on another port"
        )),
        None => Ok(()),
    }
}

/// The listen endpoints a Zenoh configuration file names.
#[cfg(feature = "zenoh")]
fn config_listen_endpoints(path: &PathBuf) -> Result<Vec<String>, String> {
    let config = clad_zenoh::config::from_file(path).map_err(|e| format!("--zenoh: {e}"))?;
    let json = config.get_json("listen/endpoints").unwrap_or_default();
    Ok(match serde_json::from_str::<serde_json::Value>(&json) {
        // A list, or a map from mode to list.
        Ok(serde_json::Value::Array(eps)) => eps
            .iter()
            .filter_map(|e| e.as_str().map(str::to_owned))
            .collect(),
        Ok(serde_json::Value::Object(by_mode)) => by_mode
            .values()
            .filter_map(serde_json::Value::as_array)
            .flatten()
            .filter_map(|e| e.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    })
}

/// The port of a Zenoh locator (`tcp/127.0.0.1:7447`, `tcp/[::]:7447#iface=lo`).
#[cfg(feature = "zenoh")]
fn endpoint_port(endpoint: &str) -> Option<u16> {
    let address = endpoint.split(['#', '?']).next()?;
    address.rsplit_once(':')?.1.parse().ok()
}

#[cfg(feature = "zenoh")]
fn ros_options(args: &Args) -> Result<robot_example::ros2::RosOptions, String> {
    use clad_zenoh::ros2::{self, DefaultsRule, NodeOptions, SubscriptionOptions};
    let domain = match args.ros_domain {
        Some(d) => d,
        None => ros2::domain_from_env().map_err(|e| format!("--ros2: {e}"))?,
    };
    let remaps = args
        .ros_remap
        .iter()
        .map(|r| r.parse().map_err(|e| format!("--ros-remap: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let profile = args
        .ros_distro
        .parse()
        .map_err(|e| format!("--ros-distro: {e}"))?;
    Ok(robot_example::ros2::RosOptions {
        node: NodeOptions {
            domain,
            name: args.ros_node.clone(),
            namespace: args.ros_namespace.clone(),
            enclave: "/".into(),
            profile,
            remaps,
        },
        topic: args.ros_topic.clone(),
        subscription: SubscriptionOptions {
            capacity: args.queue as usize,
            accept_other_profile: args.ros_accept_other_distro,
            ..SubscriptionOptions::default()
        },
        defaults: if args.ros_literal {
            DefaultsRule::Literal
        } else {
            DefaultsRule::Ros
        },
        publish: args.ros_publish,
    })
}

#[cfg(feature = "zenoh")]
fn report_ros(
    err: &mut impl Write,
    inputs: &robot_example::live::LiveInputs,
    ros: &robot_example::ros2::RosPeer,
) {
    use clad_zenoh::zenoh::Wait;
    let id = ros.node().identity();
    let _ = writeln!(
        err,
        "ros2: node {} (domain {}, {} hashes, zid {}); hri_actions_msgs/msg/Intent on {} (key {})",
        id.full_name(),
        id.domain,
        ros.node().profile(),
        id.zid,
        ros.subscription().topic(),
        ros.subscription().key_expr()
    );
    if let Some(p) = ros.publisher() {
        let _ = writeln!(
            err,
            "ros2: publishing the intents the robot hears on {} (GID {})",
            p.topic(),
            p.gid()
        );
    }
    let routers = inputs.session().info().routers_zid().wait().count();
    if routers == 0 {
        let _ = writeln!(
            err,
            "ros2: no ROS 2 router reached yet (start one with `ros2 run rmw_zenoh_cpp rmw_zenohd`); \
             Zenoh keeps trying in the background"
        );
    }
}

/// Ctrl-C (or SIGTERM) sets the flag: the run ends after the tick in progress, with its
/// summary line; a second one ends the process at once.
#[cfg(any(feature = "zenoh", feature = "inspect"))]
fn stop_on_ctrl_c(option: &str) -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>, String> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("{option}: cannot handle Ctrl-C: {e}"))?;
    Ok(stop)
}

fn seconds(option: &str, value: Option<f64>) -> Result<Option<std::time::Duration>, String> {
    match value {
        Some(s) if s.is_finite() && (0.0..=MAX_RUN_FOR_S).contains(&s) => {
            Ok(Some(std::time::Duration::from_secs_f64(s)))
        }
        Some(s) => Err(format!(
            "{option} {s}: expected a number of seconds from 0 to {MAX_RUN_FOR_S} (one year); \
             leave it out to run until stopped with Ctrl-C"
        )),
        None => Ok(None),
    }
}

/// The longest `--run-for`, in seconds (one year).
const MAX_RUN_FOR_S: f64 = 365.0 * 24.0 * 3600.0;

#[cfg(not(feature = "inspect"))]
fn inspect(
    _: &Args,
    _: Robot,
    _: &Scenario,
    _: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, Failure> {
    Err("--inspect: this build has no inspector; build it with \
         `cargo run --release -p robot-example --features inspect -- --inspect`"
        .into())
}

/// `--inspect` (scenario mode): the robot in real time with the live inspector.
#[cfg(feature = "inspect")]
fn inspect(
    args: &Args,
    robot: Robot,
    scenario: &Scenario,
    inputs: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, Failure> {
    let stop = stop_on_ctrl_c("--inspect")?;
    inspect_until(args, robot, scenario, &stop, inputs)
}

#[cfg(all(feature = "zenoh", not(feature = "inspect")))]
fn inspect_until(
    _: &Args,
    _: Robot,
    _: &Scenario,
    _: &std::sync::atomic::AtomicBool,
    _: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, Failure> {
    Err("--inspect: this build has no inspector; build it with \
         `cargo run --release -p robot-example --features zenoh,inspect -- --zenoh --inspect`"
        .into())
}

/// `--inspect` in any mode (src/inspect/cli.rs): `inputs` delivers the live inputs (Zenoh,
/// ROS 2) into each tick; `stop` ends the run.
#[cfg(feature = "inspect")]
fn inspect_until(
    args: &Args,
    robot: Robot,
    scenario: &Scenario,
    stop: &std::sync::atomic::AtomicBool,
    inputs: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, Failure> {
    use robot_example::inspect::cli;
    let options = cli::LiveOptions {
        addr: args.inspect.as_deref().unwrap_or_default(),
        token: args.inspect_token.as_deref(),
        origins: &args.inspect_origin,
        paused: args.inspect_paused,
        ticks_per_second: args.ticks_per_second,
        run_for: seconds("--run-for", args.run_for)?,
        trace: args.trace_json.as_deref(),
        trace_why: args.trace_why,
        stop: Some(stop),
    };
    let summary = cli::live(robot, scenario, &options, inputs)?;
    let _ = writeln!(
        anstream::stderr(),
        "inspect: {} after {} ticks; {} commands taken",
        if summary.interrupted {
            "interrupted"
        } else {
            "stopped"
        },
        summary.ticks,
        summary.commands
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "inspect"))]
fn replay(
    _: &std::path::Path,
    _: &str,
    _: Option<&str>,
    _: &[String],
    _: Option<std::time::Duration>,
    _: Option<&PathBuf>,
) -> Result<ExitCode, Failure> {
    Err("inspect: this build has no inspector; build it with \
         `cargo run --release -p robot-example --features inspect -- inspect TRACE`"
        .into())
}

/// `inspect TRACE`: a recorded trace in the inspector's page (src/inspect/cli.rs).
#[cfg(feature = "inspect")]
fn replay(
    trace: &std::path::Path,
    addr: &str,
    token: Option<&str>,
    origins: &[String],
    run_for: Option<std::time::Duration>,
    tree: Option<&PathBuf>,
) -> Result<ExitCode, Failure> {
    use robot_example::inspect::cli;
    let robot = match tree {
        Some(p) => {
            let files = read_tree(p)?;
            let base = tree_files::default_base(&files).ok_or_else(|| {
                format!(
                    "{}: no InitNormalOperation or GlobalInterruptions to start from",
                    p.display()
                )
            })?;
            let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
            Robot::with_sources(
                &sources,
                base,
                &LoadOptions::with_stand_ins(),
                RunConfig::default(),
            )
            .map_err(|e| e.to_string())?
            .0
        }
        None => Robot::with_tree("behaviors/robot.json", DEFAULT_TREE, RunConfig::default())
            .map_err(|e| e.to_string())?,
    };
    let stop = stop_on_ctrl_c("inspect")?;
    let options = cli::ReplayOptions {
        trace,
        addr,
        token,
        origins,
        run_for,
        stop: Some(&stop),
    };
    cli::replay(&options, &robot, RunConfig::default().ticks_per_second)?;
    Ok(ExitCode::SUCCESS)
}
