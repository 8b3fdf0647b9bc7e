//! Two peer sessions in one process, on the loopback interface only (`tcp/127.0.0.1:<port>`,
//! multicast scouting off): typed round trips, large strings, schema-hash refusal, order
//! and completeness, overflow, garbage, query/reply, and the robot's intent component fed
//! from a subscription.

mod common;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use clad_runtime::wire::{Wire, WireView};
use clad_zenoh::intake::{self, Intake, OverflowPolicy};
use clad_zenoh::zenoh::Wait;
use clad_zenoh::{key, AttachmentError, Publisher, QueryError, ReceiveError, TypeTag};
use common::clad::cloud_mic::Void;
use common::clad::cloud_mic::{
    AudioData, ConnectionCode, ConnectionResult, ErrorType, Filename, Hotword, IntentError,
    IntentResult, Message, MessageTag, MessageView, StreamOpen, StreamType,
};
use common::clad::hri::Intent;
use common::{pair, v2, WAIT};

/// One value of every member of `CloudMic::Message`, in tag order.
fn every_cloud_message() -> Vec<Message> {
    vec![
        Message::Hotword(Hotword {
            mode: StreamType::KnowledgeGraph,
            locale: "en-US".into(),
            timezone: "Europe/Paris".into(),
            no_logging: true,
        }),
        Message::Audio(AudioData {
            data: vec![0, -1, i16::MAX, i16::MIN, 1234],
        }),
        Message::AudioDone(Void::default()),
        Message::ConnectionCheck(Void::default()),
        Message::StopSignal(Void::default()),
        Message::TestStarted(Void::default()),
        Message::StreamTimeout(Void::default()),
        Message::ConnectionResult(ConnectionResult {
            code: ConnectionCode::Bandwidth,
            status: "slow".into(),
            num_packets: 7,
            expected_packets: 10,
        }),
        Message::DebugFile(Filename {
            file: "/tmp/debug.wav".into(),
        }),
        Message::Result(IntentResult {
            intent: "intent_clock_settimer_extend".into(),
            parameters: r#"{"timer_duration":"300"}"#.into(),
            metadata: "text: set a timer".into(),
        }),
        Message::Error(IntentError {
            error: ErrorType::Json,
            extra: "unexpected token".into(),
        }),
        Message::StreamOpen(StreamOpen {
            session: "abc-123".into(),
        }),
    ]
}

fn hri_intent(i: u8) -> Intent {
    Intent {
        intent: "__intent_greet__".into(),
        data: format!(r#"{{"recipient":"person_{i}"}}"#),
        source: "person_{i}".into(),
        modality: "__modality_speech__".into(),
        priority: i,
        confidence: 0.875,
    }
}

fn publisher<T: Wire>(session: &clad_zenoh::zenoh::Session, key: Option<&str>) -> Publisher<T> {
    let p = Publisher::<T>::declare(session, key).expect("publisher");
    assert!(
        p.wait_for_subscribers(WAIT).expect("matching status"),
        "no subscriber matched {}",
        p.key_expr()
    );
    p
}

#[test]
fn every_cloud_message_round_trips_owned_and_as_a_view() {
    let (a, b) = pair();
    let (tx, rx) = mpsc::channel();
    let _owned = clad_zenoh::subscribe::<Message, _>(&a, None, move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    let (vtx, vrx) = mpsc::channel();
    let _view = clad_zenoh::subscribe_view::<Message, _>(&a, None, move |r| {
        vtx.send(r.map(WireView::into_owned)).unwrap();
    })
    .unwrap();
    let p = publisher::<Message>(&b, None);
    assert_eq!(p.key_expr(), "CloudMic/Message");
    let all = every_cloud_message();
    assert_eq!(all.len(), MessageTag::ALL.len());
    for m in &all {
        p.put(m).unwrap();
    }
    for m in &all {
        assert_eq!(&rx.recv_timeout(WAIT).unwrap().unwrap(), m);
        assert_eq!(&vrx.recv_timeout(WAIT).unwrap().unwrap(), m);
    }
}

#[test]
fn hri_intents_round_trip_owned_and_as_a_view() {
    let (a, b) = pair();
    assert_eq!(key::of::<Intent>(), "Hri/Intent");
    let (tx, rx) = mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Intent, _>(&a, Some("robot1/intents"), move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    let (vtx, vrx) = mpsc::channel();
    let _view = clad_zenoh::subscribe_view::<Intent, _>(&a, Some("robot1/intents"), move |r| {
        // The view borrows the sample's payload.
        let v = r.unwrap();
        assert_eq!(v.intent, "__intent_greet__");
        vtx.send(v.into_owned()).unwrap();
    })
    .unwrap();
    let p = publisher::<Intent>(&b, Some("robot1/intents"));
    for i in 0..3 {
        p.put(&hri_intent(i)).unwrap();
    }
    for i in 0..3 {
        assert_eq!(rx.recv_timeout(WAIT).unwrap().unwrap(), hri_intent(i));
        assert_eq!(vrx.recv_timeout(WAIT).unwrap(), hri_intent(i));
    }
}

#[test]
fn a_64_kib_parameters_string_arrives_whole() {
    let (a, b) = pair();
    let (tx, rx) = mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Message, _>(&a, None, move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    // The longest `string[uint_16]`: 65,535 bytes of a JSON object.
    let mut parameters = String::from(r#"{"x":""#);
    while parameters.len() < 65_535 - 2 {
        parameters.push(char::from(b'a' + (parameters.len() % 26) as u8));
    }
    parameters.push_str(r#""}"#);
    assert_eq!(parameters.len(), 65_535);
    let m = Message::Result(IntentResult {
        intent: "intent_big".into(),
        parameters,
        metadata: String::new(),
    });
    publisher::<Message>(&b, None).put(&m).unwrap();
    assert_eq!(rx.recv_timeout(WAIT).unwrap().unwrap(), m);
}

#[test]
fn another_schema_version_is_refused_with_its_event() {
    assert_eq!(v2::cloud_mic::Message::TYPE_NAME, Message::TYPE_NAME);
    assert_ne!(v2::cloud_mic::Message::SCHEMA_HASH, Message::SCHEMA_HASH);
    // The transport compares the schema hash (the type and everything inside it), not the
    // original's per-declaration version hash.
    assert_eq!(
        Message::SCHEMA_HASH.map(|h| clad_zenoh::Hash(h).to_string()),
        Some(Message::SCHEMA_HASH_STR.to_owned())
    );
    assert_ne!(Message::SCHEMA_HASH, Some(Message::VERSION_HASH));
    let (a, b) = pair();
    let (tx, rx) = mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Message, _>(&a, None, move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    // Same default key, same name, another hash.
    let old = publisher::<v2::cloud_mic::Message>(&b, None);
    old.put(&v2::cloud_mic::Message::StreamOpen(
        v2::cloud_mic::StreamOpen {
            session: "s".into(),
            attempt: 2,
        },
    ))
    .unwrap();
    match rx.recv_timeout(WAIT).unwrap() {
        Err(ReceiveError::HashMismatch {
            key,
            type_name,
            expected,
            found,
        }) => {
            assert_eq!(key, "CloudMic/Message");
            assert_eq!(type_name, "CloudMic::Message");
            assert_eq!(expected.map(|h| h.0), Message::SCHEMA_HASH);
            assert_eq!(found.map(|h| h.0), v2::cloud_mic::Message::SCHEMA_HASH);
        }
        other => panic!("expected a hash mismatch, got {other:?}"),
    }
    // The subscription goes on.
    let m = every_cloud_message().remove(0);
    publisher::<Message>(&b, None).put(&m).unwrap();
    assert_eq!(rx.recv_timeout(WAIT).unwrap().unwrap(), m);
}

#[test]
fn ten_thousand_messages_from_one_publisher_arrive_complete_and_in_order() {
    const N: u32 = 10_000;
    let (a, b) = pair();
    let (tx, rx) = mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Message, _>(&a, None, move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    let p = publisher::<Message>(&b, None);
    for i in 0..N {
        p.put(&Message::StreamOpen(StreamOpen {
            session: i.to_string(),
        }))
        .unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    for i in 0..N {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Ok(Message::StreamOpen(s))) => assert_eq!(s.session, i.to_string(), "out of order"),
            other => panic!("message {i}: {other:?}"),
        }
    }
}

#[test]
fn a_subscriber_that_falls_behind_reports_its_overflow() {
    const N: u32 = 2_000;
    const CAPACITY: usize = 32;
    let (a, b) = pair();
    let (_sub, rx) =
        intake::subscribe_decoded::<Message>(&a, None, CAPACITY, OverflowPolicy::DropNewest)
            .unwrap();
    let p = publisher::<Message>(&b, None);
    for i in 0..N {
        p.put(&Message::StreamOpen(StreamOpen {
            session: i.to_string(),
        }))
        .unwrap();
    }
    // Nobody drains while the burst arrives: wait until all of it is accounted for.
    let deadline = Instant::now() + Duration::from_secs(60);
    while (rx.len() as u64).saturating_sub(1) + rx.dropped() < u64::from(N)
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut seen = Vec::new();
    let mut gaps = Vec::new();
    while let Some(item) = rx.try_recv() {
        match item {
            Intake::Message(Message::StreamOpen(s)) => seen.push(s.session.parse::<u32>().unwrap()),
            Intake::Overflow { dropped } => gaps.push((seen.len(), dropped)),
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(seen.len(), CAPACITY, "the queue held its capacity");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "in order: {seen:?}");
    assert_eq!(gaps, [(CAPACITY, u64::from(N) - CAPACITY as u64)]);
    assert_eq!(rx.dropped(), u64::from(N) - CAPACITY as u64);
    // Caught up: later samples are queued again, after the gap.
    p.put(&Message::StreamOpen(StreamOpen {
        session: "after".into(),
    }))
    .unwrap();
    match rx.recv_timeout(WAIT) {
        Some(Intake::Message(Message::StreamOpen(s))) => assert_eq!(s.session, "after"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn block_policy_loses_nothing_with_a_slow_consumer() {
    const N: u32 = 2_000;
    let (a, b) = pair();
    let (_sub, rx) = intake::subscribe_decoded::<Message>(
        &a,
        None,
        8,
        OverflowPolicy::Block(Duration::from_secs(10)),
    )
    .unwrap();
    let p = publisher::<Message>(&b, None);
    let consumer = std::thread::spawn(move || {
        let mut seen = Vec::new();
        while seen.len() < N as usize {
            match rx.recv_timeout(WAIT) {
                Some(Intake::Message(Message::StreamOpen(s))) => {
                    seen.push(s.session.parse::<u32>().unwrap());
                    if seen.len() % 100 == 0 {
                        std::thread::sleep(Duration::from_millis(1)); // slower than the sender
                    }
                }
                other => panic!("after {}: {other:?}", seen.len()),
            }
        }
        (seen, rx.dropped())
    });
    for i in 0..N {
        p.put(&Message::StreamOpen(StreamOpen {
            session: i.to_string(),
        }))
        .unwrap();
    }
    let (seen, dropped) = consumer.join().unwrap();
    assert_eq!(dropped, 0);
    assert_eq!(seen, (0..N).collect::<Vec<_>>());
}

#[test]
fn garbage_is_refused_with_typed_events_and_later_messages_still_arrive() {
    let (a, b) = pair();
    let (tx, rx) = mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Message, _>(&a, None, move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    let (ptx, prx) = mpsc::channel();
    let (_packed, packed_rx) =
        intake::subscribe_packed::<Message>(&a, None, 64, OverflowPolicy::DropNewest).unwrap();
    let good_tag = TypeTag::of::<Message>().encode().unwrap();
    let raw = b
        .declare_publisher("CloudMic/Message")
        .congestion_control(clad_zenoh::CongestionControl::Block)
        .wait()
        .unwrap();
    // Wait for both subscribers through a typed publisher's matching status.
    publisher::<Message>(&b, None);
    // 1. no attachment
    raw.put(vec![11u8, 0]).wait().unwrap();
    // 2. garbled attachment
    raw.put(vec![11u8, 0])
        .attachment(vec![1u8, 2, 3])
        .wait()
        .unwrap();
    let mut bad_magic = good_tag.clone();
    bad_magic[..4].copy_from_slice(b"XXXX");
    raw.put(vec![11u8, 0]).attachment(bad_magic).wait().unwrap();
    // 3. right tag, garbage payloads: unknown tag, truncated, trailing bytes, bad UTF-8
    for payload in [
        vec![200u8],
        vec![9u8, 50, b'a'],
        vec![11u8, 0, 0],
        vec![11u8, 2, 0xff, 0xfe],
        vec![],
    ] {
        raw.put(payload)
            .attachment(good_tag.clone())
            .wait()
            .unwrap();
    }
    // 4. another type's tag
    raw.put(vec![11u8, 0])
        .attachment(TypeTag::of::<Intent>().encode().unwrap())
        .wait()
        .unwrap();
    // 5. a good one
    let good = Message::StreamOpen(StreamOpen {
        session: "still here".into(),
    });
    raw.put(good.pack().unwrap())
        .attachment(good_tag)
        .wait()
        .unwrap();

    let mut kinds = Vec::new();
    loop {
        match rx.recv_timeout(WAIT).unwrap() {
            Ok(m) => {
                assert_eq!(m, good);
                break;
            }
            Err(e) => {
                assert_eq!(e.key(), "CloudMic/Message");
                kinds.push(match e {
                    ReceiveError::MissingAttachment { .. } => "missing".to_owned(),
                    ReceiveError::BadAttachment { error, .. } => match error {
                        AttachmentError::TooShort { .. } => "short".into(),
                        AttachmentError::BadMagic { .. } => "magic".into(),
                        other => format!("{other:?}"),
                    },
                    ReceiveError::Undecodable { .. } => "undecodable".into(),
                    ReceiveError::WrongType { found, .. } => format!("wrong {found}"),
                    other => format!("{other:?}"),
                });
            }
        }
    }
    assert_eq!(
        kinds,
        [
            "missing",
            "short",
            "magic",
            "undecodable",
            "undecodable",
            "undecodable",
            "undecodable",
            "undecodable",
            "wrong Hri::Intent"
        ]
    );
    // The packed intake refuses the same tags on the Zenoh thread and defers decoding.
    let deadline = Instant::now() + WAIT;
    let mut last = None;
    let mut refused = 0;
    while Instant::now() < deadline {
        match packed_rx.recv_timeout(Duration::from_millis(100)) {
            Some(Intake::Refused(_)) => refused += 1,
            Some(Intake::Message(p)) => {
                ptx.send(p.decode().is_ok()).unwrap();
                if p.decode().as_ref() == Ok(&good) {
                    last = Some(p.with_view(|v| v.map(|v| v.into_owned())));
                    break;
                }
            }
            Some(Intake::Overflow { .. }) => panic!("no overflow expected"),
            None => {}
        }
    }
    assert_eq!(refused, 4, "missing, short, magic, wrong type");
    let decoded: Vec<bool> = prx.try_iter().collect();
    assert_eq!(decoded, [false, false, false, false, false, true]);
    assert_eq!(last, Some(Ok(good)));
}

#[test]
fn query_reply_is_typed() {
    let (a, b) = pair();
    let _q =
        clad_zenoh::serve::<Message, Message, _>(&a, Some("robot/cloud/check"), |req| match req {
            Ok(Message::ConnectionCheck(_)) => Ok(Message::ConnectionResult(ConnectionResult {
                code: ConnectionCode::Available,
                status: "ok".into(),
                num_packets: 3,
                expected_packets: 3,
            })),
            Ok(other) => Err(format!("cannot answer {}", other.name())),
            Err(e) => Err(e.to_string()),
        })
        .unwrap();
    // The queryable's declaration reaches the other peer asynchronously: retry briefly.
    let deadline = Instant::now() + WAIT;
    let replies = loop {
        let r = clad_zenoh::query::<Message, Message>(
            &b,
            Some("robot/cloud/check"),
            &Message::ConnectionCheck(Void::default()),
            Duration::from_secs(2),
        )
        .unwrap();
        if !r.is_empty() || Instant::now() > deadline {
            break r;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(replies.len(), 1);
    assert!(matches!(
        &replies[0],
        Ok(Message::ConnectionResult(r)) if r.code == ConnectionCode::Available
    ));
    // Declined by the handler.
    let replies = clad_zenoh::query::<Message, Message>(
        &b,
        Some("robot/cloud/check"),
        &Message::StopSignal(Void::default()),
        Duration::from_secs(2),
    )
    .unwrap();
    assert_eq!(
        replies,
        [Err(QueryError::Remote("cannot answer stopSignal".into()))]
    );
    // A request of another schema version is refused by the queryable.
    let replies = clad_zenoh::query::<v2::cloud_mic::Message, Message>(
        &b,
        Some("robot/cloud/check"),
        &v2::cloud_mic::Message::StreamOpen(Default::default()),
        Duration::from_secs(2),
    )
    .unwrap();
    assert_eq!(replies.len(), 1);
    assert!(
        matches!(&replies[0], Err(QueryError::Remote(t)) if t.contains("schema hash")),
        "{replies:?}"
    );
}

/// The robot's cloud intake fed from Zenoh: the packed sample is decoded as a borrowed
/// `MessageView` on the consumer's thread, as `intents::handle_datagram` does.
#[test]
fn the_intent_component_is_fed_from_a_subscription() {
    use common::clad::anki::vector::{UserIntent, UserIntentTag, UserIntentTimeInSeconds};
    use robot_runtime::intent::{CloudEvent, IntakeOutcome, IntentComponent};

    let (a, b) = pair();
    let mut component = IntentComponent::<UserIntent>::new(&common::clad::USER_INTENT_MAP);
    let (_sub, cloud_rx) =
        intake::subscribe_packed::<Message>(&a, None, 64, OverflowPolicy::DropNewest).unwrap();
    let p = publisher::<Message>(&b, None);
    p.put(&Message::StreamOpen(StreamOpen {
        session: "s1".into(),
    }))
    .unwrap();
    p.put(&Message::Result(IntentResult {
        intent: "intent_clock_settimer_extend".into(),
        parameters: r#"{"timer_duration":"300"}"#.into(),
        metadata: String::new(),
    }))
    .unwrap();
    let mut outcomes = Vec::new();
    let deadline = Instant::now() + WAIT;
    while outcomes.len() < 2 && Instant::now() < deadline {
        let Some(item) = cloud_rx.recv_timeout(Duration::from_millis(100)) else {
            continue;
        };
        let Intake::Message(sample) = item else {
            panic!("{item:?}")
        };
        let bytes = sample.bytes();
        let outcome = match MessageView::unpack_view(&bytes) {
            Ok(MessageView::Result(r)) => component.handle_cloud_result(r.intent, r.parameters),
            Ok(other) => component.handle_cloud(cloud_event(other.into_owned())),
            Err(e) => component.handle_undecodable(e),
        };
        outcomes.push(outcome);
    }
    assert!(matches!(
        outcomes.last(),
        Some(IntakeOutcome::Pending {
            tag: UserIntentTag::SetTimer,
            ..
        })
    ));
    assert_eq!(
        component.pending().unwrap().intent(),
        &UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 300 })
    );

    fn cloud_event(m: Message) -> CloudEvent {
        match m {
            Message::StreamOpen(s) => CloudEvent::StreamOpen { session: s.session },
            other => CloudEvent::Other {
                message: other.name(),
            },
        }
    }
}
