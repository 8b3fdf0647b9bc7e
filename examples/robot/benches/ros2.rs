//! Publish → claim on loopback: a supervisor's "go to the dock" published by another
//! session, until the robot's FindAndGoToHome behavior has claimed `system_charger`, through
//! the two network paths of the live robot:
//!
//! - `ros2_intent`: a ROS 2 `hri_actions_msgs/msg/Intent` as rmw_zenoh publishes it (CDR,
//!   33-byte attachment) on `0/intents/…/RIHS01_…`, taken by the robot's ROS node (`--ros2`);
//! - `clad_envelope`: the same intent as a CLAD `Hri::IntentEnvelope` on `Hri/IntentEnvelope`
//!   (issue 16's typed path).
//!
//! Two peer sessions in one process on `tcp/127.0.0.1` (multicast off). Each sample starts
//! with a fresh idle robot (not timed), publishes, then runs robot ticks back to back (no
//! sleeping between them) until the claim: the time is the network hop, the queue, decoding,
//! the HRI intake, the map and the behavior tick. A robot ticking at 20 Hz adds up to one
//! tick period (50 ms) of waiting for its next tick.
//!
//! Before criterion's groups, a fixed run of 300 samples per path (after 50 of warm-up, the
//! two paths alternating) prints the median and p99.
//!
//! ```sh
//! cargo bench -p robot-example --features zenoh --bench ros2 -- --warm-up-time 1 --measurement-time 3
//! ```

use std::time::{Duration, Instant};

use clad_zenoh::ros2::intent::{DDS_TYPE, TYPE_HASH};
use clad_zenoh::ros2::{Attachment, Gid, IntentView};
use clad_zenoh::zenoh::{Session, Wait};
use clad_zenoh::{config, Publisher};
use criterion::{criterion_group, criterion_main, Criterion};
use robot_example::hri::IntentEnvelope;
use robot_example::intents::Tag;
use robot_example::live::{LiveConfig, LiveInputs, Network};
use robot_example::robot::{Robot, RunConfig};
use robot_example::ros2::{RosOptions, RosPeer};

const WAIT: Duration = Duration::from_secs(10);

fn setup() -> (LiveInputs, Session) {
    for _ in 0..5 {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let ep = format!("tcp/127.0.0.1:{port}");
        let config = LiveConfig {
            network: Network::Peer {
                listen: vec![ep.clone()],
                connect: Vec::new(),
                multicast: false,
            },
            ..LiveConfig::default()
        };
        let Ok(mut inputs) = LiveInputs::open(&config) else {
            continue;
        };
        let ros = RosPeer::open(inputs.session(), &RosOptions::default()).unwrap();
        inputs.attach_ros(ros);
        let sender = config::open(config::peer(&[], &[&ep], false).unwrap()).unwrap();
        return (inputs, sender);
    }
    panic!("no free loopback port");
}

/// The robot after a few ticks: idle, observing.
fn idle_robot() -> Robot {
    let mut robot = Robot::new(RunConfig::default());
    for t in 0..3 {
        robot.begin_tick(t);
        robot.end_tick(Duration::ZERO);
    }
    robot.clear_entries();
    robot
}

/// Ticks until the charger intent is claimed; returns how long it took since `start`.
fn until_claimed(robot: &mut Robot, inputs: &LiveInputs, start: Instant) -> Duration {
    let mut tick = 3;
    loop {
        robot.begin_tick(tick);
        inputs.deliver(robot, Duration::ZERO);
        robot.end_tick(Duration::ZERO);
        robot.clear_entries();
        if robot.intents().active_tag() == Some(Tag::SystemCharger) {
            return start.elapsed();
        }
        assert!(start.elapsed() < WAIT, "never claimed");
        tick += 1;
    }
}

struct Paths {
    inputs: LiveInputs,
    ros: clad_zenoh::zenoh::pubsub::Publisher<'static>,
    clad: Publisher<IntentEnvelope>,
    gid: Gid,
    sequence: i64,
    payload: Vec<u8>,
    envelope: IntentEnvelope,
    _sender: Session,
}

impl Paths {
    fn new() -> Self {
        let (inputs, sender) = setup();
        let ros = sender
            .declare_publisher(format!("0/intents/{DDS_TYPE}/{TYPE_HASH}"))
            .wait()
            .unwrap();
        let clad = Publisher::<IntentEnvelope>::declare(&sender, None).unwrap();
        let start = Instant::now();
        while !ros.matching_status().wait().unwrap().matching() || !clad.has_subscribers().unwrap()
        {
            assert!(
                start.elapsed() < WAIT,
                "the robot's subscriptions never showed"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let dock = IntentView {
            intent: "__intent_move_to__",
            data: r#"{"goal": "poi_docking"}"#,
            source: "__remote_supervisor__",
            modality: "__modality_touchscreen__",
            priority: 255,
            confidence: 1.0,
        };
        let mut envelope = IntentEnvelope::default();
        envelope.intent.intent = dock.intent.into();
        envelope.intent.data = dock.data.into();
        envelope.intent.source = dock.source.into();
        envelope.intent.modality = dock.modality.into();
        envelope.intent.priority = dock.priority;
        envelope.intent.confidence = dock.confidence;
        Paths {
            inputs,
            ros,
            clad,
            gid: Gid([0x42; 16]),
            sequence: 0,
            payload: dock.encode().unwrap(),
            envelope,
            _sender: sender,
        }
    }

    /// One ROS sample: encode nothing (the payload is ready, as a ROS node's would be), put
    /// with a fresh attachment, tick until claimed.
    fn ros_once(&mut self, mut robot: Robot) -> Duration {
        self.sequence += 1;
        let attachment = Attachment {
            sequence: self.sequence,
            source_time_ns: 0,
            gid: self.gid,
        }
        .encode();
        let start = Instant::now();
        self.ros
            .put(self.payload.clone())
            .attachment(attachment.to_vec())
            .wait()
            .unwrap();
        until_claimed(&mut robot, &self.inputs, start)
    }

    fn clad_once(&mut self, mut robot: Robot) -> Duration {
        let start = Instant::now();
        self.clad.put(&self.envelope).unwrap();
        until_claimed(&mut robot, &self.inputs, start)
    }
}

fn percentiles(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "publish_to_claim/{name}: median {:.1} µs, p99 {:.1} µs, max {:.1} µs ({} samples)",
        at(0.5).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6,
        at(1.0).as_secs_f64() * 1e6,
        samples.len()
    );
}

fn bench(c: &mut Criterion) {
    let mut paths = Paths::new();
    // Warm both paths up, then alternate them so that both see the same conditions.
    for _ in 0..50 {
        paths.ros_once(idle_robot());
        paths.clad_once(idle_robot());
    }
    let (mut ros, mut clad) = (Vec::new(), Vec::new());
    for _ in 0..300 {
        ros.push(paths.ros_once(idle_robot()));
        clad.push(paths.clad_once(idle_robot()));
    }
    percentiles("ros2_intent", ros);
    percentiles("clad_envelope", clad);

    let mut g = c.benchmark_group("publish_to_claim");
    g.bench_function("ros2_intent", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let robot = idle_robot();
                    paths.ros_once(robot)
                })
                .sum()
        })
    });
    g.bench_function("clad_envelope", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let robot = idle_robot();
                    paths.clad_once(robot)
                })
                .sum()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
