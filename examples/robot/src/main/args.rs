//! The command line: options and subcommands.

use std::path::PathBuf;

use clap::Parser;

/// Plays a scenario on the robot and prints its timeline.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None, args_conflicts_with_subcommands = true)]
#[command(group(clap::ArgGroup::new("realtime").args(["zenoh", "inspect"]).multiple(true)))]
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,

    /// Scenario to play (JSON Lines, see `src/scenario.rs`); default: the shipped one
    /// (`scenarios/default.jsonl`).
    #[arg(long, value_name = "FILE")]
    pub(crate) scenario: Option<PathBuf>,

    /// Also write the timeline as JSON Lines (one event per line) to FILE.
    #[arg(long, value_name = "FILE")]
    pub(crate) trace_json: Option<PathBuf>,

    /// Write the behavior tree as Graphviz DOT to FILE, with the stack of `--at-tick`
    /// highlighted.
    #[arg(long, value_name = "FILE")]
    pub(crate) dot: Option<PathBuf>,

    /// Write the behavior tree as a Mermaid flowchart to FILE, with the stack of `--at-tick`
    /// highlighted.
    #[arg(long, value_name = "FILE")]
    pub(crate) mermaid: Option<PathBuf>,

    /// The tick whose stack `--dot` / `--mermaid` highlight (default: the last tick).
    #[arg(long, value_name = "N")]
    pub(crate) at_tick: Option<u64>,

    /// Ticks per second of the robot's clock (scenario times in ms are turned into ticks).
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(crate) ticks_per_second: u32,

    /// Behavior tree to run instead of the shipped `behaviors/robot.json`: a file, or a
    /// directory whose `.json` files are loaded as the original engine loads them (one
    /// behavior per file). Classes of the original engine that are not built in run as
    /// stand-ins.
    #[arg(long, value_name = "DIR_OR_FILE")]
    pub(crate) tree: Option<PathBuf>,

    /// The base behavior of `--tree` (default: `InitNormalOperation`, the original's, or
    /// `GlobalInterruptions`, the shipped tree's).
    #[arg(long, value_name = "ID", requires = "tree")]
    pub(crate) base: Option<String>,

    /// With `--tree` / `--check-tree`: keys nobody reads are warnings instead of errors (the
    /// original's release build only logged them).
    #[arg(long)]
    pub(crate) lenient: bool,

    /// Check a behavior tree (a directory of the original engine's files, or one file) and
    /// print what it holds: files, behaviors, classes built in or stand-ins, conditions
    /// native or opaque, references resolved, the tree from its base with each behavior's
    /// children in declared order (a strict-priority dispatcher's priority), the class
    /// predicate each stand-in or table-driven class runs with the inputs it reads, every
    /// problem with file:line. Exits 1 on any error or warning (infos are reported only).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["tree", "coverage", "zenoh"])]
    pub(crate) check_tree: Option<PathBuf>,

    /// Print which behavior claims each user intent, run the completed-intents table, and
    /// exit 1 when an intent is not covered (instead of playing a scenario).
    #[arg(long)]
    pub(crate) coverage: bool,

    /// Completed-intents table for `--coverage` (default: `behaviors/completed_intents.json`).
    #[arg(long, value_name = "FILE", requires = "coverage")]
    pub(crate) completed: Option<PathBuf>,

    /// Print latency figures after the timeline (arrival to claim, ticks and CPU µs). Not
    /// with --zenoh (a live run has no end to print them at; refused, not ignored).
    #[arg(long, conflicts_with = "zenoh")]
    pub(crate) latency: bool,

    /// Run live, in real time, taking cloud messages (`CloudMic/Message`) and HRI intents
    /// (`Hri/IntentEnvelope`) from Zenoh while the robot runs; the timeline is printed as it
    /// happens. Plays `--scenario` too when given (not the default one). Needs a build with
    /// `--features zenoh`.
    #[arg(long, help_heading = "Live (Zenoh)")]
    pub(crate) zenoh: bool,

    /// Zenoh endpoint to listen on (repeatable; default tcp/127.0.0.1:7448 when neither
    /// --listen, --connect nor --zenoh-config is given; with --ros2, tcp/localhost:0).
    #[arg(
        long,
        value_name = "ENDPOINT",
        requires = "zenoh",
        help_heading = "Live (Zenoh)"
    )]
    pub(crate) listen: Vec<String>,

    /// Zenoh endpoint to connect to (repeatable), e.g. tcp/192.168.1.20:7448; with --ros2
    /// the default is the ROS 2 router, tcp/localhost:7447.
    #[arg(
        long,
        value_name = "ENDPOINT",
        requires = "zenoh",
        help_heading = "Live (Zenoh)"
    )]
    pub(crate) connect: Vec<String>,

    /// Also find peers by multicast scouting (off: only the endpoints given are used).
    #[arg(long, requires = "zenoh", help_heading = "Live (Zenoh)")]
    pub(crate) multicast: bool,

    /// A Zenoh JSON5 configuration file (instead of --listen/--connect/--multicast).
    #[arg(long, value_name = "FILE", requires = "zenoh", conflicts_with_all = ["listen", "connect", "multicast"],
          help_heading = "Live (Zenoh)")]
    pub(crate) zenoh_config: Option<PathBuf>,

    /// Stop after this many seconds, at most one year (31536000; default: run until
    /// stopped with Ctrl-C, which ends the run with its summary line). With --zenoh or
    /// --inspect.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "realtime",
        help_heading = "Live (Zenoh)"
    )]
    pub(crate) run_for: Option<f64>,

    /// Capacity of each live input queue (messages between two ticks); when full, the least
    /// important and oldest are shed first (never a stop, never priority 255) and the
    /// timeline says how many, per source.
    #[arg(long, value_name = "N", default_value_t = 256, requires = "zenoh",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000), help_heading = "Live (Zenoh)")]
    pub(crate) queue: u32,

    /// Also be a ROS 2 node (rmw_zenoh, no ROS installation needed): take
    /// hri_actions_msgs/msg/Intent from the topic (default /intents) and show up in the graph.
    /// Connects as a peer to the ROS 2 router (tcp/localhost:7447) unless --connect says
    /// otherwise, listens on a free port, never on 7447.
    #[arg(long, requires = "zenoh", help_heading = "ROS 2 (rmw_zenoh)")]
    pub(crate) ros2: bool,

    /// The ROS domain [default: $ROS_DOMAIN_ID, else 0].
    #[arg(long, value_name = "ID", requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)",
          value_parser = clap::value_parser!(u32).range(0..=232))]
    pub(crate) ros_domain: Option<u32>,

    /// The node's name.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "robot",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    pub(crate) ros_node: String,

    /// The node's namespace.
    #[arg(
        long,
        value_name = "NS",
        default_value = "/",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    pub(crate) ros_namespace: String,

    /// The intents topic (a relative name is put in the namespace, `~` is the node's).
    #[arg(
        long,
        value_name = "TOPIC",
        default_value = "/intents",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    pub(crate) ros_topic: String,

    /// A remapping rule, as after `--ros-args -r`: FROM:=TO or NODE:FROM:=TO (repeatable).
    #[arg(
        long,
        value_name = "RULE",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    pub(crate) ros_remap: Vec<String>,

    /// The ROS 2 distribution of the graph: humble has no type hashes; iron, jazzy, kilted,
    /// lyrical and rolling share the RIHS01 hash.
    #[arg(
        long,
        value_name = "DISTRO",
        default_value = "jazzy",
        requires = "ros2",
        help_heading = "ROS 2 (rmw_zenoh)"
    )]
    pub(crate) ros_distro: String,

    /// Also take intents published with the other distribution's type hash (Humble's
    /// TypeHashNotSupported on a newer graph, or the reverse); the graph still sees one.
    #[arg(long, requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)")]
    pub(crate) ros_accept_other_distro: bool,

    /// Read priority 0 and confidence 0.0 literally (lowest priority, no confidence) instead
    /// of as unstated, the ROS defaults rule.
    #[arg(long, requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)")]
    pub(crate) ros_literal: bool,

    /// Publish the user intents the cloud pipeline recognised (voice commands) as
    /// hri_actions_msgs/msg/Intent on the topic, so other ROS nodes hear what the robot heard.
    #[arg(long, requires = "ros2", help_heading = "ROS 2 (rmw_zenoh)")]
    pub(crate) ros_publish: bool,

    /// Serve the live inspector on ADDR (default 127.0.0.1:7480) while the robot runs in
    /// real time: open the printed address in a browser to see its behavior tree, timeline,
    /// intents and resources live, send intents, force behaviors, pause and step. Plays the
    /// scenario (with --zenoh / --ros2, takes live inputs too) and keeps running after it.
    /// An address off loopback needs --inspect-token. Needs a build with `--features
    /// inspect`.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "",
          conflicts_with_all = ["check_tree", "coverage", "latency", "dot", "mermaid", "at_tick"],
          help_heading = "Inspector")]
    pub(crate) inspect: Option<String>,

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
    pub(crate) inspect_token: Option<String>,

    /// An origin allowed to open the inspector's socket besides its own (`http://` and the
    /// address the page was loaded from): a TLS reverse proxy's, e.g.
    /// `https://robot.example:8443` (repeat for more). Needs --inspect-token.
    #[arg(
        long,
        value_name = "ORIGIN",
        requires = "inspect",
        help_heading = "Inspector"
    )]
    pub(crate) inspect_origin: Vec<String>,

    /// Start paused: the page resumes or steps the robot.
    #[arg(long, requires = "inspect", help_heading = "Inspector")]
    pub(crate) inspect_paused: bool,

    /// With --inspect and --trace-json: the trace also records what changed in the robot on
    /// each tick (each behavior's state, every condition's value, the robot-state keys), so
    /// that `inspect TRACE` shows why at any tick, plots and the state panel. Larger traces,
    /// and a look at the whole tree on every tick.
    #[arg(long, requires_all = ["inspect", "trace_json"], help_heading = "Inspector")]
    pub(crate) trace_why: bool,
}

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
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
