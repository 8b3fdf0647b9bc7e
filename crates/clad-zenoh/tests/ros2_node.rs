//! `clad_zenoh::ros2::Node` between two peer sessions on the loopback interface: tokens in
//! rmw_zenoh's format, an `Intent` from one node's publisher arriving at the other's
//! subscription with its attachment, a node not hearing its own publications, refusals
//! queued as items, and tokens gone with their entities.

use std::time::{Duration, Instant};

use clad_zenoh::config;
use clad_zenoh::intake::Intake;
use clad_zenoh::ros2::intent::{DDS_TYPE, TYPE_HASH};
use clad_zenoh::ros2::{Gid, IntentView, Node, NodeOptions, Qos, SampleError, SubscriptionOptions};
use clad_zenoh::zenoh::{Session, Wait};

const WAIT: Duration = Duration::from_secs(10);

fn pair() -> (Session, Session) {
    for _ in 0..5 {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let ep = format!("tcp/127.0.0.1:{port}");
        let Ok(a) = config::peer(&[&ep], &[], false).and_then(config::open) else {
            continue;
        };
        let b = config::peer(&[], &[&ep], false)
            .and_then(config::open)
            .unwrap();
        return (a, b);
    }
    panic!("no free loopback port");
}

fn tokens(session: &Session) -> Vec<String> {
    let replies = session
        .liveliness()
        .get("@ros2_lv/**")
        .timeout(Duration::from_secs(2))
        .wait()
        .unwrap();
    let mut out = Vec::new();
    while let Ok(r) = replies.recv() {
        if let Ok(s) = r.result() {
            out.push(s.key_expr().as_str().to_owned());
        }
    }
    out.sort();
    out
}

/// The tokens `session` sees, asked again until every one of `wanted` is among them or
/// [`WAIT`] has passed (the caller's assertions then show what was missing).
fn tokens_once_present(session: &Session, wanted: &[String]) -> Vec<String> {
    let start = Instant::now();
    loop {
        let seen = tokens(session);
        if wanted.iter().all(|t| seen.contains(t)) || start.elapsed() > WAIT {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn say(text: &'static str) -> IntentView<'static> {
    IntentView {
        intent: "__intent_say__",
        data: text,
        source: "__myself__",
        modality: "__modality_speech__",
        priority: 128,
        confidence: 1.0,
    }
}

#[test]
fn two_nodes_exchange_intents_as_rmw_zenoh_nodes_do() {
    let (a, b) = pair();
    let listener = Node::declare(&a, NodeOptions::default()).unwrap();
    let (sub, queue) = listener
        .subscribe_intents("/intents", SubscriptionOptions::default())
        .unwrap();
    let talker = Node::declare(
        &b,
        NodeOptions {
            name: "talker".into(),
            ..NodeOptions::default()
        },
    )
    .unwrap();
    let publisher = talker.intent_publisher("intents", Qos::default()).unwrap();
    // The listener also publishes on the topic: it must not hear itself.
    let own = listener
        .intent_publisher("/intents", Qos::default())
        .unwrap();
    assert_eq!(publisher.key_expr(), sub.key_expr());
    assert_eq!(sub.key_expr(), format!("0/intents/{DDS_TYPE}/{TYPE_HASH}"));

    let start = Instant::now();
    while !publisher.has_subscribers().unwrap() {
        assert!(start.elapsed() < WAIT);
        std::thread::sleep(Duration::from_millis(5));
    }
    // Liveliness tokens travel on their own: the publisher matching the subscriber says
    // nothing about whether the subscriber's token has reached the other session yet.
    let zid = a.zid().to_string();
    let wanted = [
        format!("@ros2_lv/0/{zid}/0/0/NN/%/%/robot"),
        sub.token().to_owned(),
        own.token().to_owned(),
    ];
    let seen = tokens_once_present(&b, &wanted);
    for token in &wanted {
        assert!(seen.contains(token), "{token} missing from {seen:#?}");
    }
    assert!(sub.token().contains("/0/1/MS/%/%/robot/%intents/"));
    assert!(own.token().contains("/0/2/MP/%/%/robot/%intents/"));
    assert_eq!(publisher.gid(), Gid::of_token(publisher.token()));

    own.publish(&say("mine")).unwrap();
    let sent = publisher.publish(&say(r#"{"object": "hi"}"#)).unwrap();
    let sent2 = publisher.publish(&say(r#"{"object": "again"}"#)).unwrap();
    assert_eq!((sent.sequence, sent2.sequence), (1, 2));
    assert_eq!(publisher.published(), 2);

    let mut got = Vec::new();
    let start = Instant::now();
    while got.len() < 2 {
        assert!(start.elapsed() < WAIT, "{got:?}");
        match queue.recv_timeout(WAIT) {
            Some(Intake::Message(Ok(sample))) => {
                let a = *sample.attachment().unwrap();
                let data = sample.with_view(|v| v.unwrap().data.to_owned());
                got.push((a, data));
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(got[0].0, sent);
    assert_eq!(got[1].0, sent2);
    assert_eq!(got[0].1, r#"{"object": "hi"}"#);
    assert!(
        queue.recv_timeout(Duration::from_millis(200)).is_none(),
        "heard itself"
    );

    // Another type on the topic: queued as a refusal, nothing decoded.
    b.put(
        format!("0/intents/std_msgs::msg::dds_::String_/{TYPE_HASH}"),
        vec![0u8, 1, 0, 0],
    )
    .wait()
    .unwrap();
    match queue.recv_timeout(WAIT) {
        Some(Intake::Message(Err(SampleError::ForeignType { type_name, .. }))) => {
            assert_eq!(type_name, "std_msgs::msg::dds_::String_")
        }
        other => panic!("{other:?}"),
    }

    // Tokens leave with their entities, entities before nodes.
    drop(publisher);
    drop(talker);
    let start = Instant::now();
    while tokens(&a).iter().any(|t| t.contains("/talker")) {
        assert!(start.elapsed() < WAIT, "the talker's tokens stayed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bad_names_are_refused_before_anything_is_declared() {
    let (a, _b) = pair();
    let bad = Node::declare(
        &a,
        NodeOptions {
            name: "my-robot".into(),
            ..NodeOptions::default()
        },
    );
    assert!(bad
        .unwrap_err()
        .to_string()
        .contains("node name \"my-robot\""));
    let node = Node::declare(&a, NodeOptions::default()).unwrap();
    let err = node
        .subscribe_intents("/in tents", SubscriptionOptions::default())
        .unwrap_err();
    assert!(err.to_string().contains("topic name"), "{err}");
    let err = node.intent_publisher("~x", Qos::default()).unwrap_err();
    assert!(err.to_string().contains("`~`"), "{err}");
    assert!(tokens(&a)
        .iter()
        .all(|t| !t.contains("/MS/") && !t.contains("/MP/")));
}
