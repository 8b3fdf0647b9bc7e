//! The cloud messages pack to the bytes the original robot produces (`CloudMic::Message`:
//! union tag = declaration order, strings with a `uint_8` or `uint_16` byte count, all
//! little-endian) and have the CLAD-JSON shape `{"type": member, …fields}`.

use robot_example::clad::cloud_mic::*;
use robot_runtime::wire::{UnpackErrorKind, Wire};
use serde_json::json;

/// Concatenates byte pieces: `bytes(&[&[9, 14], b"intent_weather"])`.
fn bytes(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// Every member of the union with a value, its exact original bytes and its CLAD-JSON.
fn cases() -> Vec<(Message, Vec<u8>, serde_json::Value)> {
    vec![
        (
            Message::Hotword(Hotword {
                mode: StreamType::Blackjack,
                locale: "en-US".into(),
                timezone: "UTC".into(),
                no_logging: true,
            }),
            bytes(&[&[0, 1, 5], b"en-US", &[3], b"UTC", &[1]]),
            json!({"type": "hotword", "mode": "Blackjack", "locale": "en-US",
                   "timezone": "UTC", "noLogging": true}),
        ),
        (
            Message::Audio(AudioData {
                data: vec![1, -2, 0x1234],
            }),
            vec![1, 3, 0, 0x01, 0x00, 0xfe, 0xff, 0x34, 0x12],
            json!({"type": "audio", "data": [1, -2, 0x1234]}),
        ),
        (
            Message::AudioDone(Void {}),
            vec![2],
            json!({"type": "audioDone"}),
        ),
        (
            Message::ConnectionCheck(Void {}),
            vec![3],
            json!({"type": "connectionCheck"}),
        ),
        (
            Message::StopSignal(Void {}),
            vec![4],
            json!({"type": "stopSignal"}),
        ),
        (
            Message::TestStarted(Void {}),
            vec![5],
            json!({"type": "testStarted"}),
        ),
        (
            Message::StreamTimeout(Void {}),
            vec![6],
            json!({"type": "streamTimeout"}),
        ),
        (
            Message::ConnectionResult(ConnectionResult {
                code: ConnectionCode::Auth,
                status: "ok".into(),
                num_packets: 10,
                expected_packets: 12,
            }),
            bytes(&[&[7, 3, 2], b"ok", &[10, 12]]),
            json!({"type": "connectionResult", "code": "Auth", "status": "ok",
                   "numPackets": 10, "expectedPackets": 12}),
        ),
        (
            Message::DebugFile(Filename {
                file: "a.wav".into(),
            }),
            bytes(&[&[8, 5], b"a.wav"]),
            json!({"type": "debugFile", "file": "a.wav"}),
        ),
        (
            Message::Result(IntentResult {
                intent: "intent_weather".into(),
                parameters: "{}".into(),
                metadata: "".into(),
            }),
            bytes(&[
                &[0x09, 0x0e],
                b"intent_weather",
                &[0x02, 0x00],
                b"{}",
                &[0x00, 0x00],
            ]),
            json!({"type": "result", "intent": "intent_weather", "parameters": "{}",
                   "metadata": ""}),
        ),
        (
            Message::Error(IntentError {
                error: ErrorType::Tls,
                extra: "x".into(),
            }),
            bytes(&[&[10, 7, 1], b"x"]),
            json!({"type": "error", "error": "TLS", "extra": "x"}),
        ),
        (
            Message::StreamOpen(StreamOpen {
                session: "abc".into(),
            }),
            bytes(&[&[11, 3], b"abc"]),
            json!({"type": "streamOpen", "session": "abc"}),
        ),
    ]
}

#[test]
fn every_member_packs_to_the_original_bytes() {
    let cases = cases();
    assert_eq!(cases.len(), MessageTag::COUNT);
    for (msg, expected, _) in &cases {
        let packed = msg.pack().unwrap();
        assert_eq!(packed, *expected, "{}", msg.name());
        assert_eq!(msg.packed_size(), expected.len(), "{}", msg.name());
        assert_eq!(Message::unpack(expected).unwrap(), *msg, "{}", msg.name());
        // pack_into and pack_append write the same bytes.
        let mut buf = [0u8; 64];
        let n = msg.pack_into(&mut buf).unwrap();
        assert_eq!(&buf[..n], &expected[..]);
        let mut out = vec![0xAA];
        assert_eq!(msg.pack_append(&mut out).unwrap(), expected.len());
        assert_eq!(&out[1..], &expected[..]);
    }
}

#[test]
fn tags_are_the_declaration_order() {
    let names = [
        "hotword",
        "audio",
        "audioDone",
        "connectionCheck",
        "stopSignal",
        "testStarted",
        "streamTimeout",
        "connectionResult",
        "debugFile",
        "result",
        "error",
        "streamOpen",
    ];
    for (i, (tag, name)) in MessageTag::ALL.iter().zip(names).enumerate() {
        assert_eq!(usize::from(tag.value()), i);
        assert_eq!(tag.name(), name);
    }
    for (msg, bytes, _) in cases() {
        assert_eq!(msg.tag().value(), bytes[0]);
    }
}

#[test]
fn the_example_from_the_issue() {
    let msg = Message::Result(IntentResult {
        intent: "intent_weather".into(),
        parameters: "{}".into(),
        metadata: "".into(),
    });
    let mut expected = vec![0x09, 0x0e];
    expected.extend_from_slice(b"intent_weather");
    expected.extend_from_slice(&[0x02, 0x00, b'{', b'}', 0x00, 0x00]);
    assert_eq!(msg.pack().unwrap(), expected);
}

#[test]
fn enum_values_match_the_original() {
    assert_eq!(StreamType::KnowledgeGraph.value(), 2);
    assert_eq!(ErrorType::Token.value(), 6);
    assert_eq!(ErrorType::Tls.value(), 7);
    assert_eq!(ErrorType::Connectivity.value(), 8);
    assert_eq!(ConnectionCode::Bandwidth.value(), 4);
}

#[test]
fn json_shape() {
    for (msg, _, expected) in cases() {
        let value = serde_json::to_value(&msg).unwrap();
        assert_eq!(value, expected, "{}", msg.name());
        // Key order follows the schema, `type` first.
        let text = serde_json::to_string(&msg).unwrap();
        assert!(text.starts_with(r#"{"type":""#), "{text}");
        assert_eq!(serde_json::from_value::<Message>(expected).unwrap(), msg);
    }
    let text = serde_json::to_string(&cases()[9].0).unwrap();
    assert_eq!(
        text,
        r#"{"type":"result","intent":"intent_weather","parameters":"{}","metadata":""}"#
    );
}

#[test]
fn strict_unpacking() {
    let (_, good, _) = &cases()[9];
    // Truncated anywhere.
    for n in 0..good.len() {
        let err = Message::unpack(&good[..n]).unwrap_err();
        assert!(
            matches!(err.kind(), UnpackErrorKind::Truncated { .. }),
            "{n}: {err}"
        );
    }
    // Trailing bytes.
    let mut long = good.clone();
    long.push(0);
    let err = Message::unpack(&long).unwrap_err();
    assert!(matches!(err.kind(), UnpackErrorKind::TrailingBytes { .. }));
    // Tag 12 does not exist; 0xFF is INVALID.
    for tag in [12, 0xff] {
        let err = Message::unpack(&[tag]).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                UnpackErrorKind::UnknownTag { .. } | UnpackErrorKind::InvalidTag { .. }
            ),
            "{err}"
        );
    }
    // An enum value that is not a member.
    let err = Message::unpack(&[10, 9, 0]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid enum value at byte 1 while reading CloudMic::Message.error.error: \
         9 is not a member of CloudMic::ErrorType"
    );
}

#[test]
fn every_member_decodes_as_a_borrowed_view() {
    use robot_runtime::wire::WireView;
    for (msg, bytes, _) in cases() {
        let view = MessageView::unpack_view(&bytes).unwrap();
        assert_eq!(view, msg.view(), "{msg:?}");
        assert_eq!(view.tag(), msg.tag());
        assert_eq!(view.into_owned(), msg);
        // Truncated input fails the same way through the view.
        for cut in 0..bytes.len() {
            assert_eq!(
                MessageView::unpack_view(&bytes[..cut]).unwrap_err(),
                Message::unpack(&bytes[..cut]).unwrap_err(),
                "{msg:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn datagrams_through_the_view_reach_the_component_like_received_ones() {
    use robot_example::intents;
    let datagrams: Vec<Vec<u8>> = cases()
        .into_iter()
        .map(|(_, bytes, _)| bytes)
        .chain([
            Message::Result(IntentResult {
                intent: "intent_clock_settimer_extend".into(),
                parameters: "{\"timer_duration\":\"300\"}\n".into(),
                metadata: "m".into(),
            })
            .pack()
            .unwrap(),
            Message::Result(IntentResult {
                intent: "intent_nobody_knows".into(),
                ..Default::default()
            })
            .pack()
            .unwrap(),
            vec![9, 200],     // truncated
            vec![0xEE, 1, 2], // unknown tag
        ])
        .collect();
    let mut by_view = intents::component();
    let mut by_receive = intents::component();
    for bytes in &datagrams {
        let a = intents::handle_datagram(&mut by_view, bytes);
        let b = match intents::receive(bytes) {
            Ok(event) => by_receive.handle_cloud(event),
            Err(error) => by_receive.handle_undecodable(error),
        };
        assert_eq!(a, b, "{bytes:?}");
        assert_eq!(
            by_view.drain_events().collect::<Vec<_>>(),
            by_receive.drain_events().collect::<Vec<_>>()
        );
        assert_eq!(
            by_view.pending().map(|p| p.intent()),
            by_receive.pending().map(|p| p.intent())
        );
    }
}

#[test]
fn an_undecodable_datagram_sets_the_error_flag_with_the_reason() {
    use robot_example::intents;
    use robot_runtime::intent::{CloudErrorCause, IntakeOutcome, IntentEvent};
    let mut component = intents::component();
    let outcome = intents::handle_datagram(&mut component, &[9, 14, b'x']);
    assert_eq!(outcome, IntakeOutcome::ErrorFlagSet);
    assert!(component.was_error());
    let events: Vec<_> = component.drain_events().collect();
    let [IntentEvent::CloudError {
        cause: CloudErrorCause::Undecodable { error },
    }] = &events[..]
    else {
        panic!("{events:?}");
    };
    assert_eq!(
        error.to_string(),
        "truncated input at byte 2 while reading CloudMic::Message.result.intent: need 14 bytes, 1 left"
    );
}
