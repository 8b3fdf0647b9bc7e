//! The robot fed from Zenoh (`--zenoh`, cargo feature `zenoh`): two peer sessions in this
//! process on the loopback interface only (`tcp/127.0.0.1:<port>`, multicast scouting off) —
//! the robot's and a sender's, as a second process would have.
//!
//! `cargo test -p robot-example --features zenoh --test live`

#![cfg(feature = "zenoh")]

use std::time::{Duration, Instant};

use clad_zenoh::zenoh::{Session, Wait};
use clad_zenoh::{config, Publisher, TypeTag};
use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::hri::IntentEnvelope;
use robot_example::live::{self, LiveConfig, LiveInputs, Network};
use robot_example::robot::{Robot, RunConfig};
use robot_example::scenario::Scenario;
use robot_example::timeline::{Category, Entry, What, LIVE_INPUT};

const WAIT: Duration = Duration::from_secs(10);

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    l.local_addr().expect("local address").port()
}

/// The robot's inputs listening on a fresh loopback port, and a sender session connected to it.
fn robot_and_sender(queue: usize) -> (LiveInputs, Session) {
    for _ in 0..5 {
        let ep = format!("tcp/127.0.0.1:{}", free_port());
        let config = LiveConfig {
            network: Network::Peer {
                listen: vec![ep.clone()],
                connect: Vec::new(),
                multicast: false,
            },
            queue,
            ..LiveConfig::default()
        };
        let Ok(inputs) = LiveInputs::open(&config) else {
            continue; // the port was taken in between
        };
        let sender = config::peer(&[], &[&ep], false)
            .and_then(config::open)
            .expect("sender connects");
        return (inputs, sender);
    }
    panic!("no free loopback port");
}

fn result(intent: &str, parameters: &str) -> Message {
    Message::Result(IntentResult {
        intent: intent.into(),
        parameters: parameters.into(),
        metadata: String::new(),
    })
}

/// A supervisor's "go to the dock", as the HRI map turns into the charger intent.
fn dock() -> IntentEnvelope {
    let mut env = IntentEnvelope::default();
    env.intent.intent = "__intent_move_to__".into();
    env.intent.data = r#"{"goal": "poi_docking"}"#.into();
    env.intent.source = "__remote_supervisor__".into();
    env.intent.priority = 255;
    env.confidence_unstated = true;
    env
}

/// Ticks the robot (without sleeping between ticks beyond `pause`) until `done` holds for the
/// timeline so far, or fails after [`WAIT`].
fn tick_until(
    robot: &mut Robot,
    inputs: &LiveInputs,
    tick: &mut u64,
    timeline: &mut Vec<Entry>,
    done: impl Fn(&[Entry]) -> bool,
) {
    let start = Instant::now();
    while !done(timeline) {
        assert!(
            start.elapsed() < WAIT,
            "timed out; timeline so far:\n{}",
            robot_example::timeline::render(timeline, false)
        );
        robot.begin_tick(*tick);
        inputs.deliver(robot, Duration::ZERO);
        robot.end_tick(Duration::ZERO);
        timeline.extend_from_slice(robot.entries());
        robot.clear_entries();
        *tick += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn live_inputs(timeline: &[Entry]) -> Vec<(&'static str, String)> {
    timeline
        .iter()
        .filter_map(|e| match &e.what {
            What::Input {
                line, kind, detail, ..
            } if *line == LIVE_INPUT => Some((*kind, detail.clone())),
            _ => None,
        })
        .collect()
}

fn ignored(timeline: &[Entry]) -> Vec<String> {
    timeline
        .iter()
        .filter_map(|e| match &e.what {
            What::InputIgnored { reason } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

fn activated(timeline: &[Entry], behavior: &str) -> bool {
    timeline.iter().any(|e| {
        matches!(&e.what, What::Behavior { behavior: b, change: "activated", .. } if b == behavior)
    })
}

#[test]
fn a_cloud_intent_from_another_session_is_claimed_by_its_behavior() {
    let (inputs, sender) = robot_and_sender(64);
    assert_eq!(inputs.cloud_key(), "CloudMic/Message");
    assert_eq!(inputs.hri_key(), "Hri/IntentEnvelope");
    let mut robot = Robot::new(RunConfig::default());
    let cloud = Publisher::<Message>::declare(&sender, None).unwrap();
    assert!(
        cloud.wait_for_subscribers(WAIT).unwrap(),
        "robot subscribed"
    );

    cloud
        .put(&result(
            "intent_clock_settimer_extend",
            r#"{"timer_duration":"300"}"#,
        ))
        .unwrap();
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        activated(t, "TimerSet")
    });
    let inputs_seen = live_inputs(&timeline);
    assert_eq!(inputs_seen.len(), 1, "{inputs_seen:?}");
    assert_eq!(inputs_seen[0].0, "cloud");
    assert!(
        inputs_seen[0].1.contains("intent_clock_settimer_extend"),
        "{inputs_seen:?}"
    );
    assert!(timeline
        .iter()
        .any(|e| matches!(&e.what, What::Pending { intent, .. } if *intent == "set_timer")));
    let text = robot_example::timeline::render(&timeline, false);
    assert!(text.contains("(live)"), "{text}");
}

#[test]
fn an_hri_intent_from_another_session_reaches_the_behaviors() {
    let (inputs, sender) = robot_and_sender(64);
    let mut robot = Robot::new(RunConfig::default());
    let hri = Publisher::<IntentEnvelope>::declare(&sender, None).unwrap();
    assert!(hri.wait_for_subscribers(WAIT).unwrap(), "robot subscribed");
    hri.put(&dock()).unwrap();
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        activated(t, "FindAndGoToHome")
    });
    let seen = live_inputs(&timeline);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].0, "hri");
    assert!(seen[0].1.starts_with("__intent_move_to__"), "{seen:?}");
    assert!(seen[0].1.contains("from __remote_supervisor__"), "{seen:?}");
}

#[test]
fn refused_and_garbled_samples_are_reported_and_the_next_message_still_arrives() {
    let (inputs, sender) = robot_and_sender(64);
    let mut robot = Robot::new(RunConfig::default());
    let cloud = Publisher::<Message>::declare(&sender, None).unwrap();
    assert!(
        cloud.wait_for_subscribers(WAIT).unwrap(),
        "robot subscribed"
    );
    let raw = sender.declare_publisher("CloudMic/Message").wait().unwrap();

    // 1. no type tag at all
    raw.put(vec![9u8, 1, b'x']).wait().unwrap();
    // 2. the right name with another schema hash (a peer built from another schema)
    let other = TypeTag {
        name: "CloudMic::Message",
        hash: Some([0xAB; 16]),
    };
    raw.put(vec![0u8, 0])
        .attachment(other.encode().unwrap())
        .wait()
        .unwrap();
    // 3. the right tag, bytes that do not decode: reaches the intake, which reports it
    raw.put(vec![0x09u8, 0x0e, b'i'])
        .attachment(TypeTag::of::<Message>().encode().unwrap())
        .wait()
        .unwrap();
    // 4. the right tag, more bytes than any `CloudMic::Message` can be (50 MB made a 433 MB
    //    peak and a 100 MB timeline line): refused unread
    let max = <Message as robot_runtime::wire::Wire>::MAX_SIZE.unwrap();
    raw.put(vec![0x09u8; max + 1])
        .attachment(TypeTag::of::<Message>().encode().unwrap())
        .wait()
        .unwrap();
    // 5. a good message after all of them
    cloud.put(&result("intent_system_charger", "")).unwrap();

    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        live_inputs(t)
            .iter()
            .any(|(_, d)| d.contains("intent_system_charger"))
    });
    let refused = ignored(&timeline);
    assert_eq!(
        refused
            .iter()
            .filter(|r| r.starts_with("refused on CloudMic/Message"))
            .count(),
        3,
        "{refused:?}"
    );
    assert!(
        refused.iter().any(|r| r.contains(&format!(
            "{} bytes, but a `CloudMic::Message` is at most 131331 bytes",
            max + 1
        ))),
        "the size is named: {refused:?}"
    );
    assert_eq!(inputs.stats().cloud.refused, 3);
    assert!(
        refused.iter().any(|r| r.contains("hash")),
        "the version mismatch is named: {refused:?}"
    );
    // The undecodable sample was delivered (shown as captured bytes) before the good one.
    let seen = live_inputs(&timeline);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0].1, "3 bytes 090e69", "{seen:?}");
    assert!(seen[1].1.contains("intent_system_charger"), "{seen:?}");
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        activated(t, "FindAndGoToHome")
    });
}

#[test]
fn garbage_on_the_hri_key_is_reported_by_the_intake() {
    let (inputs, sender) = robot_and_sender(64);
    let mut robot = Robot::new(RunConfig::default());
    let hri = Publisher::<IntentEnvelope>::declare(&sender, None).unwrap();
    assert!(hri.wait_for_subscribers(WAIT).unwrap(), "robot subscribed");
    let raw = sender
        .declare_publisher("Hri/IntentEnvelope")
        .wait()
        .unwrap();
    raw.put(vec![1u8, 2, 3])
        .attachment(TypeTag::of::<IntentEnvelope>().encode().unwrap())
        .wait()
        .unwrap();
    hri.put(&dock()).unwrap();
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        activated(t, "FindAndGoToHome")
    });
    let seen = live_inputs(&timeline);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0].1, "3 bytes 010203");
    let text = robot_example::timeline::render(&timeline, false);
    assert!(
        timeline
            .iter()
            .any(|e| e.what.category() == Category::Problem),
        "the malformed message is a problem line:\n{text}"
    );
}

#[test]
fn a_full_queue_sheds_the_oldest_and_reports_how_many() {
    let (inputs, sender) = robot_and_sender(3);
    let mut robot = Robot::new(RunConfig::default());
    let cloud = Publisher::<Message>::declare(&sender, None).unwrap();
    assert!(
        cloud.wait_for_subscribers(WAIT).unwrap(),
        "robot subscribed"
    );
    for i in 0..10 {
        cloud
            .put(&Message::StreamOpen(
                robot_example::clad::cloud_mic::StreamOpen {
                    session: format!("s{i}"),
                },
            ))
            .unwrap();
    }
    // Nothing is drained until all ten have arrived (3 queued, 7 shed).
    let start = Instant::now();
    while inputs.shed_so_far() < 7 {
        assert!(
            start.elapsed() < WAIT,
            "shed so far: {}",
            inputs.shed_so_far()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        !ignored(t).is_empty() && live_inputs(t).len() == 3
    });
    assert_eq!(
        ignored(&timeline),
        ["7 messages on CloudMic/Message shed: the input queue (3) was full (the least important \
          and oldest go first, never a stop)"]
    );
    let stats = inputs.stats();
    assert_eq!(
        (
            stats.cloud.received,
            stats.cloud.submitted,
            stats.cloud.shed
        ),
        (10, 3, 7)
    );
    assert_eq!(stats.total(), stats.cloud);
}

/// How many of `timeline`'s pending intents are `tag`.
fn pending(timeline: &[Entry], tag: &str) -> usize {
    timeline
        .iter()
        .filter(|e| matches!(&e.what, What::Pending { intent, .. } if *intent == tag))
        .count()
}

/// Waits until the robot's queues hold what was sent: `shed` of it shed.
fn wait_for_shed(inputs: &LiveInputs, shed: u64) {
    let start = Instant::now();
    while inputs.shed_so_far() < shed {
        assert!(
            start.elapsed() < WAIT,
            "shed so far: {} of {shed}",
            inputs.shed_so_far()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_voice_stop_after_a_flood_of_1000_cloud_messages_is_taken() {
    let (inputs, sender) = robot_and_sender(256);
    let mut robot = Robot::new(RunConfig::default());
    let cloud = Publisher::<Message>::declare(&sender, None).unwrap();
    assert!(cloud.wait_for_subscribers(WAIT).unwrap());
    for _ in 0..1000 {
        cloud.put(&result("intent_imperative_come", "")).unwrap();
    }
    cloud
        .put(&result(
            "intent_global_stop_extend",
            r#"{"what_to_stop": "everything"}"#,
        ))
        .unwrap();
    wait_for_shed(&inputs, 1001 - 256);
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        pending(t, "global_stop") == 1
    });
    let stats = inputs.stats();
    assert_eq!(
        (
            stats.cloud.received,
            stats.cloud.submitted,
            stats.cloud.shed
        ),
        (1001, 256, 745)
    );
}

#[test]
fn an_hri_stop_after_a_flood_of_1000_envelopes_is_taken() {
    let (inputs, sender) = robot_and_sender(256);
    let mut robot = Robot::new(RunConfig::default());
    let hri = Publisher::<IntentEnvelope>::declare(&sender, None).unwrap();
    assert!(hri.wait_for_subscribers(WAIT).unwrap());
    let mut flood = dock();
    flood.intent.priority = 200;
    for id in 1..=1000 {
        flood.id = id;
        hri.put(&flood).unwrap();
    }
    // A stop of the default priority: the flood outranks it, the rule admits it.
    let mut stop = IntentEnvelope::default();
    stop.intent.intent = "__intent_stop_activity__".into();
    stop.intent.source = "__remote_supervisor__".into();
    stop.confidence_unstated = true;
    hri.put(&stop).unwrap();
    wait_for_shed(&inputs, 1001 - 256);
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        pending(t, "global_stop") == 1
    });
    assert_eq!(inputs.stats().hri.shed, 745);
}

#[test]
fn run_ticks_in_real_time_and_stops_when_asked() {
    let (inputs, _sender) = robot_and_sender(8);
    let robot = Robot::new(RunConfig::default());
    let scenario = Scenario::parse(r#"{"tick": 2, "note": "hello"}"#, 20);
    let mut rows = Vec::new();
    let start = Instant::now();
    let summary = live::run(
        robot,
        &scenario,
        &inputs,
        20,
        Some(Duration::from_millis(300)),
        |entries| rows.extend_from_slice(entries),
    );
    assert_eq!(summary.ticks, 6);
    assert_eq!(summary.inputs.total().received, 0);
    // Six ticks of 50 ms: the last one starts 250 ms after the first.
    assert!(
        start.elapsed() >= Duration::from_millis(240),
        "{:?}",
        start.elapsed()
    );
    assert!(rows
        .iter()
        .any(|e| e.tick == 2 && matches!(&e.what, What::Note { text } if text == "hello")));
}

#[test]
fn a_bad_zenoh_configuration_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zenoh.json5");
    std::fs::write(&path, "{ mode: 42, this is not json5").unwrap();
    let config = LiveConfig {
        network: Network::ConfigFile(path),
        ..LiveConfig::default()
    };
    assert!(LiveInputs::open(&config).is_err());
    let config = LiveConfig {
        network: Network::Peer {
            listen: vec!["not-a-locator".into()],
            connect: Vec::new(),
            multicast: false,
        },
        ..LiveConfig::default()
    };
    assert!(LiveInputs::open(&config).is_err());
}
