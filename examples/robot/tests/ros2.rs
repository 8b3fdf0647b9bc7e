//! The robot as a ROS 2 peer (`--zenoh --ros2`), in process: the robot's session and a
//! "ROS node" session on the loopback interface (`tcp/127.0.0.1:<free port>`, multicast off)
//! that puts exactly what rmw_zenoh puts (data key, 33-byte attachment, CDR payload). The
//! independent check, with Python clients written by others, is `.ci/ros2-interop`.
//!
//! `cargo test -p robot-example --features zenoh --test ros2`

#![cfg(feature = "zenoh")]

mod cli_support;

use std::time::{Duration, Instant};

use clad_zenoh::ros2::names::HUMBLE_TYPE_HASH;
use clad_zenoh::ros2::{
    intent::{DDS_TYPE, TYPE_HASH},
    Attachment, DefaultsRule, Gid, IntentView, NodeOptions, SubscriptionOptions,
};
use clad_zenoh::zenoh::qos::CongestionControl;
use clad_zenoh::zenoh::{Session, Wait};
use clad_zenoh::{config, Publisher};
use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::live::{LiveConfig, LiveInputs, Network};
use robot_example::robot::{Robot, RunConfig};
use robot_example::ros2::{RosOptions, RosPeer};
use robot_example::timeline::{Entry, What, LIVE_INPUT};

const WAIT: Duration = Duration::from_secs(10);

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    l.local_addr().expect("local address").port()
}

/// The robot's inputs with a ROS node attached, listening on a fresh loopback port, and a
/// "ROS node" session connected to it.
fn robot_and_ros_node(options: RosOptions) -> (LiveInputs, Session) {
    for _ in 0..5 {
        let ep = format!("tcp/127.0.0.1:{}", free_port());
        let config = LiveConfig {
            network: Network::Peer {
                listen: vec![ep.clone()],
                connect: Vec::new(),
                multicast: false,
            },
            ..LiveConfig::default()
        };
        let Ok(mut inputs) = LiveInputs::open(&config) else {
            continue; // the port was taken in between
        };
        let peer = RosPeer::open(inputs.session(), &options).expect("ROS node declared");
        inputs.attach_ros(peer);
        let other = config::peer(&[], &[&ep], false)
            .and_then(config::open)
            .expect("the other node connects");
        return (inputs, other);
    }
    panic!("no free loopback port");
}

fn key(hash: &str) -> String {
    format!("0/intents/{DDS_TYPE}/{hash}")
}

/// A publisher on the data key, as an rmw_zenoh node declares one, once the robot's
/// subscription is known to it.
struct RosPublisher {
    publisher: clad_zenoh::zenoh::pubsub::Publisher<'static>,
    gid: Gid,
    sequence: i64,
}

impl RosPublisher {
    fn declare(session: &Session, key: &str) -> Self {
        // Blocking, not rmw_zenoh's dropping KEEP_LAST: these tests count what the robot does
        // with every sample, so the transport must not drop one (a 70 KB sample followed at
        // once by a small one lost the small one under a loaded CI machine).
        let publisher = session
            .declare_publisher(key.to_owned())
            .congestion_control(CongestionControl::Block)
            .wait()
            .unwrap();
        let start = Instant::now();
        while !publisher.matching_status().wait().unwrap().matching() {
            assert!(
                start.elapsed() < WAIT,
                "the robot's subscription never showed"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        RosPublisher {
            publisher,
            gid: Gid::of_token(
                "@ros2_lv/0/test/0/1/MP/%/%/intent_tester/%intents/x/y/::,10:,:,:,,",
            ),
            sequence: 0,
        }
    }

    fn attachment(&mut self) -> Vec<u8> {
        self.sequence += 1;
        Attachment {
            sequence: self.sequence,
            source_time_ns: 1_767_225_600_000_000_000,
            gid: self.gid,
        }
        .encode()
        .to_vec()
    }

    fn publish(&mut self, intent: &IntentView<'_>) {
        let payload = intent.encode().unwrap();
        self.put_raw(payload, true);
    }

    fn put_raw(&mut self, payload: Vec<u8>, with_attachment: bool) {
        let attachment = with_attachment.then(|| self.attachment());
        let put = self.publisher.put(payload);
        match attachment {
            Some(a) => put.attachment(a).wait().unwrap(),
            None => put.wait().unwrap(),
        }
    }
}

fn dock() -> IntentView<'static> {
    IntentView {
        intent: "__intent_move_to__",
        data: r#"{"goal": "poi_docking"}"#,
        source: "__remote_supervisor__",
        modality: "__modality_touchscreen__",
        priority: 255,
        confidence: 1.0,
    }
}

/// A tablet's "show the menu" as a publisher that never set priority or confidence sends it.
fn menu_at_defaults() -> IntentView<'static> {
    IntentView {
        intent: "__intent_present_content__",
        data: r#"{"object": "menu"}"#,
        source: "__unknown_agent__",
        modality: "__modality_touchscreen__",
        priority: 0,
        confidence: 0.0,
    }
}

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

fn ros_inputs(timeline: &[Entry]) -> Vec<String> {
    timeline
        .iter()
        .filter_map(|e| match &e.what {
            What::Input {
                line, kind, detail, ..
            } if *line == LIVE_INPUT && *kind == "ros2" => Some(detail.clone()),
            _ => None,
        })
        .collect()
}

fn problems(timeline: &[Entry]) -> Vec<String> {
    timeline
        .iter()
        .filter(|e| e.what.category() == robot_example::timeline::Category::Problem)
        .map(|e| e.what.text())
        .collect()
}

fn activated(timeline: &[Entry], behavior: &str) -> bool {
    timeline.iter().any(|e| {
        matches!(&e.what, What::Behavior { behavior: b, change: "activated", .. } if b == behavior)
    })
}

fn granted(timeline: &[Entry], capability: &str) -> bool {
    timeline.iter().any(|e| {
        matches!(&e.what, What::Resource { holder, change, .. }
            if holder.starts_with(capability) && change.starts_with("granted"))
    })
}

fn liveliness_keys(session: &Session) -> Vec<String> {
    let replies = session
        .liveliness()
        .get("@ros2_lv/0/**")
        .timeout(Duration::from_secs(2))
        .wait()
        .unwrap();
    let mut keys = Vec::new();
    while let Ok(reply) = replies.recv() {
        if let Ok(sample) = reply.result() {
            keys.push(sample.key_expr().as_str().to_owned());
        }
    }
    keys.sort();
    keys
}

#[test]
fn the_robot_is_a_node_with_a_subscription_in_the_graph() {
    let options = RosOptions {
        publish: true,
        ..RosOptions::default()
    };
    let (inputs, other) = robot_and_ros_node(options);
    let zid = inputs.session().zid().to_string();
    let start = Instant::now();
    let keys = loop {
        let keys = liveliness_keys(&other);
        if keys.len() >= 3 || start.elapsed() > WAIT {
            break keys;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let qos = "::,10:,:,:,,";
    assert_eq!(
        keys,
        [
            format!("@ros2_lv/0/{zid}/0/0/NN/%/%/robot"),
            format!("@ros2_lv/0/{zid}/0/1/MS/%/%/robot/%intents/{DDS_TYPE}/{TYPE_HASH}/{qos}"),
            format!("@ros2_lv/0/{zid}/0/2/MP/%/%/robot/%intents/{DDS_TYPE}/{TYPE_HASH}/{qos}"),
        ]
    );
    let ros = inputs.ros().unwrap();
    assert_eq!(ros.node().token(), keys[0]);
    assert_eq!(ros.subscription().token(), keys[1]);
    let publisher = ros.publisher().unwrap();
    assert_eq!(publisher.gid(), Gid::of_token(&keys[2]));
    // Gone with the robot.
    drop(inputs);
    let start = Instant::now();
    while !liveliness_keys(&other).is_empty() {
        assert!(start.elapsed() < WAIT, "tokens outlived the robot");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_intent_from_a_ros_node_is_claimed_and_the_defaults_rule_is_shown() {
    let (inputs, other) = robot_and_ros_node(RosOptions::default());
    let mut robot = Robot::new(RunConfig::default());
    let mut ros = RosPublisher::declare(&other, &key(TYPE_HASH));
    ros.publish(&dock());
    ros.publish(&menu_at_defaults());
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        activated(t, "FindAndGoToHome") && granted(t, "present_content")
    });
    let seen = ros_inputs(&timeline);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen[0].starts_with(
            r#"__intent_move_to__ {"goal": "poi_docking"} priority 255 from __remote_supervisor__"#
        ),
        "{seen:?}"
    );
    assert!(
        seen[0].ends_with(&format!("[seq 1 from {}]", ros.gid.short())),
        "{seen:?}"
    );
    // The raw wire values stay on the input line; the rule is its own line.
    assert!(
        seen[1].contains("priority 0") && seen[1].contains("confidence 0"),
        "{seen:?}"
    );
    let rule: Vec<&What> = timeline
        .iter()
        .map(|e| &e.what)
        .filter(|w| matches!(w, What::RosDefaults { .. }))
        .collect();
    assert_eq!(
        rule,
        [&What::RosDefaults {
            priority: Some(0),
            confidence: Some(0.0)
        }]
    );
    assert_eq!(
        rule[0].text(),
        "ROS defaults: read priority 0 as unstated (128), confidence 0.0 as unstated"
    );
    assert!(problems(&timeline).is_empty(), "{:?}", problems(&timeline));
    let stats = inputs.ros().unwrap().stats();
    assert_eq!(
        (stats.received, stats.submitted, stats.defaulted),
        (2, 2, 1)
    );
    assert_eq!(stats.problem_count(), 0);
}

#[test]
fn read_literally_an_intent_left_at_its_defaults_is_ignored() {
    let options = RosOptions {
        defaults: DefaultsRule::Literal,
        ..RosOptions::default()
    };
    let (inputs, other) = robot_and_ros_node(options);
    let mut robot = Robot::new(RunConfig::default());
    let mut ros = RosPublisher::declare(&other, &key(TYPE_HASH));
    ros.publish(&menu_at_defaults());
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        !problems(t).is_empty()
    });
    assert_eq!(
        problems(&timeline),
        ["ignored: __intent_present_content__: confidence too low, ignored"]
    );
    assert!(!timeline
        .iter()
        .any(|e| matches!(e.what, What::RosDefaults { .. })));
}

/// Every kind of bad input of issue 23, each followed by a good intent: all reported (a
/// timeline line each), counted, none panics, and every good intent still arrives.
#[test]
fn bad_input_from_the_graph_is_reported_counted_and_costs_nothing_else() {
    let (inputs, other) = robot_and_ros_node(RosOptions::default());
    let mut robot = Robot::new(RunConfig::default());
    let mut ros = RosPublisher::declare(&other, &key(TYPE_HASH));
    let good = |n: usize| IntentView {
        intent: "__intent_say__",
        // Distinct data each time: the intake's de-duplication would take two equal
        // intents within 2 s as one.
        data: Box::leak(format!(r#"{{"object": "line {n}"}}"#).into_boxed_str()),
        source: "__myself__",
        modality: "__modality_speech__",
        priority: 128,
        confidence: 1.0,
    };
    let payload = good(0).encode().unwrap();
    let mut n = 0;
    let mut next_good = |ros: &mut RosPublisher| {
        n += 1;
        ros.publish(&good(n));
    };

    // Attachments: missing, pre-2025 keyed layout, wrong length. The intent is still taken.
    ros.put_raw(good(100).encode().unwrap(), false);
    next_good(&mut ros);
    let mut legacy = vec![15u8];
    legacy.extend_from_slice(b"sequence_number");
    legacy.resize(77, 0);
    ros.publisher
        .put(good(101).encode().unwrap())
        .attachment(legacy)
        .wait()
        .unwrap();
    next_good(&mut ros);
    ros.publisher
        .put(good(102).encode().unwrap())
        .attachment(vec![1u8; 20])
        .wait()
        .unwrap();
    next_good(&mut ros);
    // Payloads: truncated, garbage, no NUL, length past the end, big-endian header.
    ros.put_raw(payload[..50].to_vec(), true);
    next_good(&mut ros);
    ros.put_raw(b"{\"intent\": \"json is not CDR\"}".to_vec(), true);
    next_good(&mut ros);
    let mut no_nul = payload.clone();
    no_nul[4 + 4 + 14] = b'!'; // `intent`'s NUL
    ros.put_raw(no_nul, true);
    next_good(&mut ros);
    let mut past_end = payload.clone();
    past_end[4] = 0xFF; // `intent` claims 255 bytes
    ros.put_raw(past_end, true);
    next_good(&mut ros);
    let mut big_endian = payload.clone();
    big_endian[1] = 0;
    ros.put_raw(big_endian, true);
    next_good(&mut ros);
    let mut latin1 = payload.clone();
    latin1[8] = 0xE9; // `é` in Latin-1: not UTF-8
    ros.put_raw(latin1, true);
    next_good(&mut ros);
    // Values: NaN confidence (the intake rejects it, naming the field).
    let mut nan = good(103);
    nan.confidence = f32::NAN;
    ros.publish(&nan);
    next_good(&mut ros);
    // Another type hash, and another type, on the same topic.
    other
        .put(
            key("RIHS01_0000000000000000000000000000000000000000000000000000000000000000"),
            payload.clone(),
        )
        .congestion_control(CongestionControl::Block)
        .attachment(vec![0u8; 33])
        .wait()
        .unwrap();
    next_good(&mut ros);
    other
        .put(
            format!("0/intents/std_msgs::msg::dds_::String_/{TYPE_HASH}"),
            payload.clone(),
        )
        .congestion_control(CongestionControl::Block)
        .wait()
        .unwrap();
    next_good(&mut ros);
    // A Humble publisher on a Jazzy graph (not accepted unless asked).
    other
        .put(key(HUMBLE_TYPE_HASH), payload.clone())
        .congestion_control(CongestionControl::Block)
        .wait()
        .unwrap();
    next_good(&mut ros);
    // Over the 64 KiB limit.
    let huge = IntentView {
        data: Box::leak(format!(r#"{{"object": "{}"}}"#, "x".repeat(70_000)).into_boxed_str()),
        ..good(104)
    };
    ros.publish(&huge);
    next_good(&mut ros);
    let goods = n;

    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        ros_inputs(t)
            .iter()
            .any(|d| d.contains(&format!("line {goods}")))
    });
    let seen = ros_inputs(&timeline);
    for i in 1..=goods {
        let hits = seen
            .iter()
            .filter(|d| d.contains(&format!("\"line {i}\"")))
            .count();
        assert_eq!(hits, 1, "good intent {i} arrived once: {seen:#?}");
    }
    let stats = inputs.ros().unwrap().stats();
    let expect = [
        ("attachment_missing", 1),
        ("attachment_legacy", 1),
        ("attachment_length", 1),
        ("truncated", 1),
        ("representation", 1),
        ("missing_nul", 1),
        ("length_past_end", 1),
        ("big_endian", 1),
        ("invalid_utf8", 1),
        ("foreign_type", 3),
        ("too_large", 1),
    ];
    let counted: Vec<(&str, u64)> = stats.problems.iter().map(|(k, v)| (*k, *v)).collect();
    let mut expect_sorted = expect.to_vec();
    expect_sorted.sort();
    assert_eq!(counted, expect_sorted, "{}", stats.summary());
    // Rejected by the intake: the NaN confidence, and the six payloads that do not decode
    // (submitted as undecodable requests, as a bad `hri_hex` line is).
    assert_eq!(stats.rejected, 7, "{}", stats.summary());
    let lines = problems(&timeline);
    let text = lines.join("\n");
    for needle in [
        "no rmw_zenoh attachment",
        "keyed attachment of rmw_zenoh releases before mid-2025",
        "20-byte attachment",
        "`source` at byte 52: needs 4 bytes, 0 left",
        "not plain CDR",
        "not the terminating NUL",
        "runs past the end",
        "big-endian",
        "is not UTF-8",
        "confidence NaN is not within 0.0..=1.0",
        "RIHS01_0000",
        "std_msgs::msg::dds_::String_",
        "TypeHashNotSupported",
        "exceeds the limit of 65536 bytes",
    ] {
        assert!(text.contains(needle), "{needle:?} not reported:\n{text}");
    }
    // The undecodable ones were inputs too, shown as bytes.
    assert_eq!(
        seen.iter()
            .filter(|d| d.contains(" bytes 00010000"))
            .count(),
        4,
        "{seen:#?}"
    );
}

#[test]
fn a_flooding_publisher_is_shed_and_a_stop_after_it_is_taken() {
    let options = RosOptions {
        subscription: SubscriptionOptions {
            capacity: 4,
            ..SubscriptionOptions::default()
        },
        ..RosOptions::default()
    };
    let (inputs, other) = robot_and_ros_node(options);
    let mut robot = Robot::new(RunConfig::default());
    let mut ros = RosPublisher::declare(&other, &key(TYPE_HASH));
    // 1,000 docks at the highest priority but one, then a stop at the ROS default (0, read
    // as 128): the flood outranks it, the rule admits it.
    let mut flood = dock();
    flood.priority = 254;
    for _ in 0..1000 {
        ros.publish(&flood);
    }
    let mut stop = menu_at_defaults();
    stop.intent = "__intent_stop_activity__";
    stop.data = "";
    ros.publish(&stop);
    let start = Instant::now();
    while inputs.shed_so_far() < 997 {
        assert!(start.elapsed() < WAIT, "shed: {}", inputs.shed_so_far());
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut tick = 0;
    let mut timeline = Vec::new();
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        ros_inputs(t)
            .iter()
            .any(|d| d.contains("__intent_stop_activity__"))
    });
    let lines = problems(&timeline);
    assert!(
        lines.contains(
            &"ignored: 997 messages on ros2 /intents shed: the input queue (4) was full (the \
              least important and oldest go first, never a stop)"
                .to_owned()
        ),
        "{lines:?}"
    );
    // The three newest docks and the stop; the stop is the pending intent's.
    assert_eq!(ros_inputs(&timeline).len(), 4);
    assert!(timeline.iter().any(|e| matches!(
        &e.what,
        What::Pending { intent: "global_stop", source, .. } if source == "Ros2"
    )));
    let stats = inputs.ros().unwrap().stats();
    assert_eq!(
        (stats.received, stats.submitted, stats.shed),
        (1001, 4, 997)
    );
    // The flood is over: the next intent arrives.
    let mut next = menu_at_defaults();
    next.data = r#"{"object": "after the flood"}"#;
    ros.publish(&next);
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        ros_inputs(t).iter().any(|d| d.contains("after the flood"))
    });
}

#[test]
fn humble_intents_are_taken_on_request_and_namespaces_and_remaps_apply() {
    let options = RosOptions {
        node: NodeOptions {
            domain: 7,
            namespace: "/pal".into(),
            remaps: vec!["intents:=/robot1/intents".parse().unwrap()],
            ..NodeOptions::default()
        },
        topic: "intents".into(),
        subscription: SubscriptionOptions {
            accept_other_profile: true,
            ..SubscriptionOptions::default()
        },
        ..RosOptions::default()
    };
    let (inputs, other) = robot_and_ros_node(options);
    let sub = inputs.ros().unwrap().subscription();
    // `intents` in /pal is /pal/intents, and so is the rule's `intents`: remapped.
    assert_eq!(sub.topic(), "/robot1/intents");
    assert_eq!(
        sub.key_expr(),
        format!("7/robot1/intents/{DDS_TYPE}/{TYPE_HASH}")
    );
    assert!(sub.token().starts_with("@ros2_lv/7/"), "{}", sub.token());
    assert!(
        sub.token().contains("/MS/%/%pal/robot/%robot1%intents/"),
        "{}",
        sub.token()
    );
    let mut robot = Robot::new(RunConfig::default());
    let mut humble = RosPublisher::declare(
        &other,
        &format!("7/robot1/intents/{DDS_TYPE}/{HUMBLE_TYPE_HASH}"),
    );
    humble.publish(&dock());
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        activated(t, "FindAndGoToHome")
    });
    assert_eq!(ros_inputs(&timeline).len(), 1);
}

#[test]
fn what_the_cloud_pipeline_recognised_is_published_for_ros_nodes() {
    let options = RosOptions {
        publish: true,
        ..RosOptions::default()
    };
    let (inputs, other) = robot_and_ros_node(options);
    let mut robot = Robot::new(RunConfig::default());
    let (tx, rx) = std::sync::mpsc::channel();
    let _listener = other
        .declare_subscriber(key(TYPE_HASH))
        .callback(move |sample| {
            let payload = sample.payload().to_bytes().into_owned();
            let attachment = sample.attachment().map(|a| a.to_bytes().into_owned());
            let _ = tx.send((payload, attachment));
        })
        .wait()
        .unwrap();
    // Declarations travel in order on the link: once the robot sees the probe subscriber
    // declared after the listener, it knows the listener too.
    let _probe = other.declare_subscriber("test/probe").wait().unwrap();
    let probe = inputs
        .session()
        .declare_publisher("test/probe")
        .wait()
        .unwrap();
    let start = Instant::now();
    while !probe.matching_status().wait().unwrap().matching() {
        assert!(start.elapsed() < WAIT, "the listener never showed");
        std::thread::sleep(Duration::from_millis(5));
    }
    let publisher = inputs.ros().unwrap().publisher().unwrap();
    let cloud = Publisher::<Message>::declare(&other, None).unwrap();
    assert!(cloud.wait_for_subscribers(WAIT).unwrap());
    let heard = |intent: &str, parameters: &str| {
        Message::Result(IntentResult {
            intent: intent.into(),
            parameters: parameters.into(),
            metadata: String::new(),
        })
    };
    cloud.put(&heard("intent_system_charger", "")).unwrap();
    let (mut tick, mut timeline) = (0, Vec::new());
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        t.iter().any(|e| matches!(e.what, What::Published { .. }))
    });
    cloud
        .put(&heard(
            "intent_clock_settimer_extend",
            r#"{"timer_duration":"300"}"#,
        ))
        .unwrap();
    tick_until(&mut robot, &inputs, &mut tick, &mut timeline, |t| {
        t.iter()
            .filter(|e| matches!(e.what, What::Published { .. }))
            .count()
            == 2
    });
    let gid = publisher.gid();
    let mut got = Vec::new();
    while got.len() < 2 {
        got.push(rx.recv_timeout(WAIT).expect("the robot's publication"));
    }
    let decoded: Vec<(IntentView<'_>, Attachment)> = got
        .iter()
        .map(|(payload, attachment)| {
            (
                IntentView::decode(payload).unwrap(),
                Attachment::decode(attachment.as_deref()).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        decoded[0].0,
        IntentView {
            intent: "__intent_move_to__",
            data: r#"{"goal":"poi_docking"}"#,
            source: "__unknown_agent__",
            modality: "__modality_speech__",
            priority: 128,
            confidence: 1.0,
        }
    );
    assert_eq!(decoded[1].0.intent, "set_timer");
    assert_eq!(decoded[1].0.data, r#"{"time_s":300}"#);
    assert_eq!(
        decoded.iter().map(|(_, a)| a.sequence).collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(decoded.iter().all(|(_, a)| a.gid == gid));
    // The robot does not hear itself.
    assert!(
        ros_inputs(&timeline).is_empty(),
        "{:?}",
        ros_inputs(&timeline)
    );
    let published: Vec<String> = timeline
        .iter()
        .filter(|e| matches!(e.what, What::Published { .. }))
        .map(|e| e.what.text())
        .collect();
    assert!(
        published[0]
            .starts_with(r#"ros2 /intents __intent_move_to__ {"goal":"poi_docking"} priority 128"#),
        "{published:?}"
    );
    assert!(published[0].ends_with("[seq 1, heard as cloud intent intent_system_charger]"));
    assert_eq!(inputs.ros().unwrap().stats().published, 2);
}

/// The command line of ROS mode (`--zenoh --ros2`).
mod cli {
    use super::free_port;
    use clad_zenoh::zenoh::{self, Wait};

    fn run(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
        let mut cmd = crate::cli_support::robot();
        cmd.args(args)
            .env_remove("ROS_DOMAIN_ID")
            .envs(env.iter().copied());
        crate::cli_support::output(&mut cmd)
    }

    /// A Zenoh router on a free loopback port, as `rmw_zenohd` is one.
    fn router() -> (zenoh::Session, String) {
        let ep = format!("tcp/127.0.0.1:{}", free_port());
        let mut config = zenoh::Config::default();
        config.insert_json5("mode", r#""router""#).unwrap();
        config
            .insert_json5("listen/endpoints", &format!("[{ep:?}]"))
            .unwrap();
        config
            .insert_json5("scouting/multicast/enabled", "false")
            .unwrap();
        (zenoh::open(config).wait().unwrap(), ep)
    }

    #[test]
    fn ros_mode_needs_live_mode_and_refuses_the_routers_port() {
        let (code, _, err) = run(&["--ros2"], &[]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--zenoh"), "{err}");
        let (code, _, err) = run(
            &[
                "--zenoh",
                "--ros2",
                "--listen",
                "tcp/127.0.0.1:7447",
                "--run-for",
                "0",
            ],
            &[],
        );
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("port 7447 is the ROS 2 router's (rmw_zenohd)"),
            "{err}"
        );
        // Nor through a configuration file.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("zenoh.json5");
        std::fs::write(
            &path,
            r#"{ mode: "peer", listen: { endpoints: ["tcp/0.0.0.0:7447"] } }"#,
        )
        .unwrap();
        let (code, _, err) = run(
            &[
                "--zenoh",
                "--ros2",
                "--zenoh-config",
                path.to_str().unwrap(),
                "--run-for",
                "0",
            ],
            &[],
        );
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("--zenoh-config: listening on tcp/0.0.0.0:7447"),
            "{err}"
        );
    }

    #[test]
    fn bad_ros_names_and_settings_are_clear_errors() {
        for (args, env, expected) in [
            (vec!["--ros-node", "1robot"], vec![], "node name \"1robot\""),
            (vec!["--ros-namespace", "pal"], vec![], "namespace \"pal\""),
            (
                vec!["--ros-topic", "/in-tents"],
                vec![],
                "topic name \"/in-tents\"",
            ),
            (
                vec!["--ros-remap", "intents"],
                vec![],
                "expected `from:=to`",
            ),
            (
                vec!["--ros-distro", "foxy"],
                vec![],
                "unknown ROS 2 distribution",
            ),
            (
                vec![],
                vec![("ROS_DOMAIN_ID", "300")],
                "ROS_DOMAIN_ID=\"300\"",
            ),
        ] {
            let mut all = vec!["--zenoh", "--ros2", "--run-for", "0"];
            let (_r, ep) = router();
            all.extend(["--connect", &ep]);
            all.extend(args.iter().copied());
            let (code, _, err) = run(&all, &env);
            assert_eq!(code, Some(2), "{all:?}: {err}");
            assert!(err.contains(expected), "{all:?}: {err}");
        }
    }

    #[test]
    fn joins_the_router_and_reports_what_it_did() {
        let (_router, ep) = router();
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("trace.jsonl");
        let (code, out, err) = run(
            &[
                "--zenoh",
                "--ros2",
                "--ros-publish",
                "--connect",
                &ep,
                "--run-for",
                "0.3",
                "--trace-json",
                trace.to_str().unwrap(),
            ],
            &[("ROS_DOMAIN_ID", "5")],
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(out.starts_with("     time   tick"), "{out}");
        assert!(
            err.contains(&format!(
                "listening on [tcp/localhost:0], connecting to [{ep}]"
            )),
            "{err}"
        );
        assert!(
            err.contains("ros2: node /robot (domain 5, jazzy hashes"),
            "{err}"
        );
        assert!(
            err.contains("hri_actions_msgs/msg/Intent on /intents (key 5/intents/hri_actions_msgs::msg::dds_::Intent_/RIHS01_850d"),
            "{err}"
        );
        assert!(err.contains("ros2: publishing the intents the robot hears on /intents (GID "));
        assert!(!err.contains("no ROS 2 router reached"), "{err}");
        assert!(
            err.contains("ros2: samples 0 received (0 submitted, 0 refused, 0 shed)")
                && err.contains("live: stopped after")
                && err.contains(
                    "messages 0 received (0 submitted, 0 refused, 0 shed): cloud 0, hri 0, ros2 0"
                ),
            "{err}"
        );
        // The live timeline is written as JSON Lines as it goes.
        let lines = std::fs::read_to_string(&trace).unwrap();
        assert!(lines.lines().count() >= 4, "{lines}");
        for line in lines.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v["event"].is_string(), "{line}");
        }
    }
}
