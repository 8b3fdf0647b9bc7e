//! `--zenoh` (and `--ros2`): the robot on the network (cargo feature `zenoh`).

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use robot_example::robot::Robot;
use robot_example::scenario::Scenario;
use robot_example::{timeline, trace};

use crate::args::Args;
use crate::inspector::{inspect_until, stop_on_ctrl_c};
use crate::{read_scenario, Failure, Stdout};

pub(crate) fn live(args: &Args, robot: Robot) -> Result<ExitCode, Failure> {
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
fn endpoint_port(endpoint: &str) -> Option<u16> {
    let address = endpoint.split(['#', '?']).next()?;
    address.rsplit_once(':')?.1.parse().ok()
}

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
