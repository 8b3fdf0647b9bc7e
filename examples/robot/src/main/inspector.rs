//! `--inspect` and `inspect TRACE`: the live inspector and replays (cargo feature
//! `inspect`), and the options they share with `--zenoh` (`--run-for`, Ctrl-C).

#[cfg(feature = "inspect")]
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use robot_example::robot::Robot;
#[cfg(feature = "inspect")]
use robot_example::robot::{RunConfig, DEFAULT_TREE};
use robot_example::scenario::Scenario;
#[cfg(feature = "inspect")]
use robot_example::tree_files;
#[cfg(feature = "inspect")]
use robot_runtime::behavior::{LoadOptions, Source};

use crate::args::Args;
#[cfg(feature = "inspect")]
use crate::read_tree;
use crate::Failure;

/// Ctrl-C (or SIGTERM) sets the flag: the run ends after the tick in progress, with its
/// summary line; a second one ends the process at once.
#[cfg(any(feature = "zenoh", feature = "inspect"))]
pub(crate) fn stop_on_ctrl_c(
    option: &str,
) -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>, String> {
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

pub(crate) fn seconds(
    option: &str,
    value: Option<f64>,
) -> Result<Option<std::time::Duration>, String> {
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
pub(crate) fn inspect(
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
pub(crate) fn inspect(
    args: &Args,
    robot: Robot,
    scenario: &Scenario,
    inputs: impl FnMut(&mut Robot, u64, std::time::Duration) -> usize,
) -> Result<ExitCode, Failure> {
    let stop = stop_on_ctrl_c("--inspect")?;
    inspect_until(args, robot, scenario, &stop, inputs)
}

#[cfg(all(feature = "zenoh", not(feature = "inspect")))]
pub(crate) fn inspect_until(
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
pub(crate) fn inspect_until(
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
        "inspect: {} after {} ticks; {} commands taken, {} shed",
        if summary.interrupted {
            "interrupted"
        } else {
            "stopped"
        },
        summary.ticks,
        summary.commands,
        summary.commands_shed
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "inspect"))]
pub(crate) fn replay(
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
pub(crate) fn replay(
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
