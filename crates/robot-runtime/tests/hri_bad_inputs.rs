//! Bad intents: each gets a typed error and an event; nothing panics, nothing is dropped
//! silently; garbage is property-tested.

use proptest::prelude::*;
use robot_runtime::hri::{
    Admission, Envelope, HriError, HriEvent, HriIntake, IntakeConfig, IntentKind, Modality,
    Normalization, ReadOptions, Role, Source, Timestamp,
};

fn rejected(intake: &mut HriIntake, json: &str) -> Vec<HriError> {
    let a = intake.receive_json(json, Envelope::new(), Timestamp(0));
    assert!(matches!(a, Admission::Rejected(_)), "{json}: {a:?}");
    let events = intake.drain_events();
    match events.last() {
        Some(HriEvent::Rejected { errors, .. }) => errors.clone(),
        other => panic!("expected a Rejected event, got {other:?}"),
    }
}

#[test]
fn malformed_data_is_a_typed_error_naming_the_intent() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    let e = rejected(
        &mut intake,
        r#"{"intent": "__intent_move_to__", "data": "{goal: kitchen"}"#,
    );
    assert!(
        matches!(&e[..], [HriError::MalformedData { intent, .. }] if intent == "__intent_move_to__"),
        "{e:?}"
    );
    // The LLM connector's raw-input fallback builds `{ {"input": ...} }`.
    let e = rejected(
        &mut intake,
        r#"{"intent": "__raw_user_input__", "data": "{ {\"input\": \"hi\"} }"}"#,
    );
    assert_eq!(e[0].kind(), "malformed_data");
}

#[test]
fn data_must_be_an_object() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    for data in [r#""[1, 2]""#, r#""\"kitchen\"""#, r#""42""#, "7", "[]"] {
        let json = format!(r#"{{"intent": "__intent_move_to__", "data": {data}}}"#);
        let e = rejected(&mut intake, &json);
        assert_eq!(e[0].kind(), "data_not_object", "{json}: {e:?}");
    }
}

#[test]
fn unknown_modality_is_reported_and_rejected_when_configured() {
    let json = r#"{"intent": "__intent_greet__", "data": "{\"recipient\": \"p1\"}",
      "modality": "__modality_telepathy__"}"#;
    let mut lenient = HriIntake::new(IntakeConfig::default());
    let Admission::Execute(record) = lenient.receive_json(json, Envelope::new(), Timestamp(0))
    else {
        panic!("kept by default");
    };
    assert_eq!(
        record.intent.modality,
        Modality::Unrecognized("__modality_telepathy__".into())
    );
    assert!(lenient.drain_events().iter().any(|e| matches!(e,
        HriEvent::Warning { error: HriError::UnknownModality { value }, .. } if value == "__modality_telepathy__")));
    let mut strict = HriIntake::new(IntakeConfig {
        read: ReadOptions {
            reject_unknown_modality: true,
            ..ReadOptions::default()
        },
        ..IntakeConfig::default()
    });
    let e = rejected(&mut strict, json);
    assert_eq!(e[0].kind(), "unknown_modality");
}

/// An empty source or modality is one not given, on every path: a ROS 2 sample or a packed
/// envelope whose sender left the string fields unset (their default is `""`) reads as a
/// JSON message without them (source unknown, modality other), without a warning or a
/// note, even for a strict reader; a non-empty unknown modality still warns.
#[test]
fn empty_source_and_modality_are_not_given_on_every_path() {
    let strict = ReadOptions {
        reject_unknown_modality: true,
        ..ReadOptions::default()
    };
    for options in [ReadOptions::default(), strict] {
        let mut intake = HriIntake::new(IntakeConfig {
            read: options,
            ..IntakeConfig::default()
        });
        let fields = |source, modality| robot_runtime::hri::IntentFields {
            intent: "__intent_greet__",
            data: r#"{"recipient": "p1"}"#,
            source,
            modality,
            priority: Some(128),
            confidence: None,
        };
        let absent =
            r#"{"intent": "__intent_greet__", "data": "{\"recipient\": \"p1\"}", "priority": 128}"#;
        let empty = r#"{"intent": "__intent_greet__", "data": "{\"recipient\": \"p1\"}", "priority": 128, "source": "", "modality": ""}"#;
        let mut now = 0;
        let mut intents = Vec::new();
        for path in ["fields", "json without them", "json with them empty"] {
            now += 10_000;
            let at = Timestamp(now);
            let admission = match path {
                "fields" => intake.receive_fields(fields("", ""), Envelope::new(), at),
                "json without them" => intake.receive_json(absent, Envelope::new(), at),
                _ => intake.receive_json(empty, Envelope::new(), at),
            };
            let Admission::Execute(record) = admission else {
                panic!("{path}: admitted");
            };
            let events = intake.drain_events();
            assert!(
                matches!(events.as_slice(), [HriEvent::Admitted { .. }]),
                "{path}: {events:?}"
            );
            intents.push(record.intent);
        }
        assert_eq!(intents[0].source, Source::Unknown);
        assert_eq!(intents[0].modality, Modality::Other);
        assert!(intents.iter().all(|i| *i == intents[0]), "{intents:?}");
        // A non-empty unknown modality on the fields path is still reported.
        now += 10_000;
        let a = intake.receive_fields(fields("", "telepathy"), Envelope::new(), Timestamp(now));
        let events = intake.drain_events();
        let warned = events.iter().any(|e| matches!(e,
            HriEvent::Warning { error: HriError::UnknownModality { value }, .. } if value == "telepathy"));
        let refused = events.iter().any(|e| {
            matches!(e,
            HriEvent::Rejected { errors, .. } if errors[0].kind() == "unknown_modality")
        });
        if options.reject_unknown_modality {
            assert!(matches!(a, Admission::Rejected(_)) && refused, "{events:?}");
        } else {
            assert!(matches!(a, Admission::Execute(_)) && warned, "{events:?}");
        }
    }
}

/// The module promises that nothing is dropped silently: a misspelt field is reported (it
/// would otherwise run at the default priority 128, or with an unstated confidence), and a
/// strict reader refuses the message.
#[test]
fn unknown_fields_are_reported_and_rejected_when_strict() {
    let json = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"kitchen\"}",
      "source": "__remote_supervisor__", "modality": "__modality_touchscreen__",
      "priorty": 255, "confidance": 0.1, "header": {"stamp": 0}}"#;
    let mut lenient = HriIntake::new(IntakeConfig::default());
    let Admission::Execute(record) = lenient.receive_json(json, Envelope::new(), Timestamp(0))
    else {
        panic!("read without the unknown fields by default");
    };
    assert_eq!(
        record.intent.priority,
        robot_runtime::hri::Priority::DEFAULT
    );
    let mut warnings: Vec<(String, Option<&str>)> = lenient
        .drain_events()
        .into_iter()
        .filter_map(|e| match e {
            HriEvent::Warning {
                error: HriError::UnknownField { field, meant },
                ..
            } => Some((field, meant)),
            _ => None,
        })
        .collect();
    warnings.sort();
    assert_eq!(
        warnings,
        [
            ("confidance".to_owned(), Some("confidence")),
            ("header".to_owned(), None),
            ("priorty".to_owned(), Some("priority")),
        ]
    );
    let text = HriError::UnknownField {
        field: "priorty".into(),
        meant: Some("priority"),
    }
    .to_string();
    assert_eq!(
        text,
        "`priorty` is not a field of the intent message (did you mean `priority`?); \
         its value is not used"
    );

    let mut strict = HriIntake::new(IntakeConfig {
        read: ReadOptions {
            reject_unknown_fields: true,
            ..ReadOptions::default()
        },
        ..IntakeConfig::default()
    });
    let e = rejected(&mut strict, json);
    let kinds: Vec<_> = e.iter().map(HriError::kind).collect();
    assert_eq!(kinds, ["unknown_field"; 3]);
    // The next valid message is still handled.
    let ok = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"hall\"}", "priority": 255}"#;
    assert!(matches!(
        strict.receive_json(ok, Envelope::new(), Timestamp(10)),
        Admission::Execute(_)
    ));
}

#[test]
fn missing_required_role_names_intent_and_role() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    let e = rejected(
        &mut intake,
        r#"{"intent": "__intent_bring_object__", "data": "{\"object\": \"cup\"}"}"#,
    );
    assert_eq!(
        e,
        vec![HriError::MissingRole {
            intent: "__intent_bring_object__".into(),
            role: Role::Recipient
        }]
    );
    let e = rejected(
        &mut intake,
        r#"{"intent": "__intent_gaze__", "data": "{\"gaze_mode\": \"GROUP\"}"}"#,
    );
    assert_eq!(
        e[0].to_string(),
        "intent __intent_gaze__ requires the thematic role `target`"
    );
    let e = rejected(
        &mut intake,
        r#"{"intent": "__intent_say__", "data": "{\"object\": \"\"}"}"#,
    );
    assert_eq!(e[0].kind(), "empty_role");
}

#[test]
fn confidence_and_priority_out_of_range() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    for c in ["1.5", "-0.1", "1e9"] {
        let json = format!(r#"{{"intent": "__intent_wakeup__", "confidence": {c}}}"#);
        let e = rejected(&mut intake, &json);
        assert_eq!(e[0].kind(), "confidence_out_of_range", "{c}");
    }
    let e = rejected(
        &mut intake,
        r#"{"intent": "__intent_wakeup__", "confidence": "high"}"#,
    );
    assert_eq!(e[0].kind(), "field_type");
    for p in ["256", "-1", "12.5", "\"high\""] {
        let json = format!(r#"{{"intent": "__intent_wakeup__", "priority": {p}}}"#);
        let e = rejected(&mut intake, &json);
        assert_eq!(e[0].kind(), "priority_out_of_range", "{p}");
    }
}

#[test]
fn quoting_of_0_3_x_is_read_and_reported() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    let json = r#"{"action": "\"__intent_move_to__\"", "data": "{\"goal\": \"kitchen\"}",
      "source": "\"__remote_supervisor__\"", "modality": "\"touchscreen\"", "priority": 200}"#;
    let Admission::Execute(record) = intake.receive_json(json, Envelope::new(), Timestamp(0))
    else {
        panic!("0.3.x messages are read");
    };
    assert_eq!(record.intent.intent, IntentKind::MoveTo);
    let events = intake.drain_events();
    let Some(HriEvent::Normalized { notes, .. }) = events.first() else {
        panic!("{events:?}");
    };
    assert!(notes.contains(&Normalization::LegacyActionField));
    assert!(notes.contains(&Normalization::QuotedConstant { field: "intent" }));
    assert!(notes.contains(&Normalization::QuotedConstant { field: "modality" }));
    assert!(notes.contains(&Normalization::LegacyModality {
        received: "touchscreen".into()
    }));
    // Canonical writing.
    let out = record.intent.to_json();
    assert_eq!(out["intent"], "__intent_move_to__");
    assert_eq!(out["modality"], "__modality_touchscreen__");
    // A 0.3.x message whose `action` and `intent` disagree is refused.
    let e = rejected(
        &mut intake,
        r#"{"action": "__intent_greet__", "intent": "__intent_say__", "data": "{\"object\": \"x\"}"}"#,
    );
    assert_eq!(e[0].kind(), "conflicting_intent_fields");
}

#[test]
fn missing_or_empty_intent_and_non_object_messages() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    assert_eq!(
        rejected(&mut intake, r#"{"data": "{}"}"#)[0].kind(),
        "missing_intent"
    );
    assert_eq!(
        rejected(&mut intake, r#"{"intent": "\"\""}"#)[0].kind(),
        "empty_intent"
    );
    assert_eq!(rejected(&mut intake, "[1]")[0].kind(), "malformed_message");
    assert_eq!(
        rejected(&mut intake, "{").first().unwrap().kind(),
        "malformed_message"
    );
}

#[test]
fn stale_intents_are_not_executed() {
    let mut intake = HriIntake::new(IntakeConfig {
        default_ttl_ms: Some(1000),
        ..IntakeConfig::default()
    });
    let json = r#"{"intent": "__intent_wakeup__"}"#;
    let a = intake.receive_json(json, Envelope::new().created(Timestamp(0)), Timestamp(5000));
    assert!(matches!(a, Admission::Expired(_)));
    assert!(matches!(
        intake.drain_events()[..],
        [HriEvent::Expired {
            late_by_ms: 4000,
            ..
        }]
    ));
    // A retransmission with the same producer id is a duplicate even after the window.
    let env = Envelope::new().id(77).correlation("turn-3");
    let Admission::Execute(first) = intake.receive_json(json, env.clone(), Timestamp(6000)) else {
        panic!()
    };
    assert_eq!(first.correlation.as_deref(), Some("turn-3"));
    assert!(matches!(
        intake.receive_json(json, env, Timestamp(60_000)),
        Admission::Duplicate { .. }
    ));
}

proptest! {
    #[test]
    fn garbage_text_never_panics_and_always_reports(text in ".{0,200}") {
        let mut intake = HriIntake::new(IntakeConfig::default());
        let _ = intake.receive_json(&text, Envelope::new(), Timestamp(0));
        prop_assert!(!intake.drain_events().is_empty());
    }

    #[test]
    fn garbage_fields_never_panic_and_always_report(
        intent in prop_oneof![Just("__intent_guide__".to_owned()), Just("\"__intent_say__\"".to_owned()), ".{0,20}"],
        data in prop_oneof![Just("{\"goal\": 1}".to_owned()), Just("{\"object\": \"x\"}".to_owned()), ".{0,40}"],
        source in ".{0,12}",
        modality in prop_oneof![Just("speech".to_owned()), ".{0,12}"],
        priority in proptest::option::of(any::<u8>()),
        confidence in proptest::option::of(any::<f32>()),
    ) {
        let mut intake = HriIntake::new(IntakeConfig::default());
        let fields = robot_runtime::hri::IntentFields {
            intent: &intent, data: &data, source: &source, modality: &modality,
            priority, confidence,
        };
        let a = intake.receive_fields(fields, Envelope::new(), Timestamp(0));
        let events = intake.drain_events();
        prop_assert!(!events.is_empty());
        if let Some(c) = confidence {
            if !(0.0..=1.0).contains(&c) {
                prop_assert!(matches!(a, Admission::Rejected(_)));
            }
        }
        if let Admission::Execute(r) | Admission::Confirm(r) = a {
            // Whatever was admitted writes back canonically and reads back the same.
            let again = robot_runtime::hri::HriIntent::from_json_value(&r.intent.to_json(), ReadOptions::default());
            let again = again.map(|x| x.intent).map_err(|e| format!("{e:?}"));
            prop_assert_eq!(again, Ok(r.intent));
        }
    }
}

/// Any JSON value: scalars, arrays, nested objects.
fn any_json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("__intent_move_to__"),
            Just("\"__intent_say__\""),
            Just("{\"goal\": \"x\"}"),
            Just("speech"),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("intent".to_owned()),
                    Just("action".to_owned()),
                    Just("data".to_owned()),
                    Just("source".to_owned()),
                    Just("modality".to_owned()),
                    Just("priority".to_owned()),
                    Just("confidence".to_owned()),
                    "[a-z]{1,10}",
                ],
                inner,
                0..8
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any JSON a peer can send, strict or lenient: never a panic, always an event, every
    /// rejection with typed errors; the next valid message is still admitted.
    #[test]
    fn any_json_message_is_handled_and_the_next_one_still_runs(
        value in any_json(),
        strict in any::<bool>(),
    ) {
        let mut intake = HriIntake::new(IntakeConfig {
            read: ReadOptions {
                reject_unknown_fields: strict,
                reject_unexpected_roles: strict,
                reject_unknown_modality: strict,
            },
            ..IntakeConfig::default()
        });
        let a = intake.receive_json(&value.to_string(), Envelope::new(), Timestamp(0));
        let events = intake.drain_events();
        prop_assert!(!events.is_empty());
        if let Admission::Rejected(_) = a {
            let typed = events.iter().any(|e| matches!(e, HriEvent::Rejected { errors, .. } if !errors.is_empty()));
            prop_assert!(typed, "{:?}", events);
        }
        let ok = r#"{"intent": "__intent_guide__", "data": "{\"goal\": \"lab\", \"recipient\": \"p9\"}", "priority": 99}"#;
        let next = intake.receive_json(ok, Envelope::new(), Timestamp(10_000));
        prop_assert!(matches!(next, Admission::Execute(_)), "{:?}", next);
    }
}

/// What the reader of JSON text must report for `text`: exactly what reading the text as a
/// `serde_json::Value` first reports (the reference: [`HriIntent::from_json_value`]).
fn read_through_value(
    text: &str,
    options: ReadOptions,
) -> Result<robot_runtime::hri::ReadIntent, robot_runtime::hri::RejectedIntent> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => robot_runtime::hri::HriIntent::from_json_value(&v, options),
        Err(e) => Err(robot_runtime::hri::RejectedIntent {
            intent: None,
            errors: vec![HriError::MalformedMessage {
                reason: e.to_string(),
            }],
            notes: Vec::new(),
        }),
    }
}

/// A message's text as a peer may write it: compact, with a key repeated (the last one
/// counts), with blanks, or cut short.
fn message_text() -> impl Strategy<Value = String> {
    (
        any_json(),
        any_json(),
        0..4usize,
        any::<prop::sample::Index>(),
    )
        .prop_map(|(a, b, shape, cut)| {
            let text = a.to_string();
            match (shape, &a, &b) {
                (1, serde_json::Value::Object(x), serde_json::Value::Object(y))
                    if !x.is_empty() && !y.is_empty() =>
                {
                    // Both objects' entries in one object: repeated keys included.
                    let y = b.to_string();
                    format!("{},{}", &text[..text.len() - 1], &y[1..])
                }
                (2, ..) => serde_json::to_string_pretty(&a).unwrap(),
                (3, ..) => {
                    let mut end = cut.index(text.len() + 1);
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    text[..end].to_owned()
                }
                _ => text,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// The reader of JSON text reads a borrowed shape, not a `Value`: for any text it
    /// reports exactly what reading through a `Value` reports (the intent, notes, warnings;
    /// or every error, in the same order, with the same words).
    #[test]
    fn json_text_reads_as_through_a_value(
        text in prop_oneof![message_text(), ".{0,80}"],
        strict in any::<bool>(),
    ) {
        let options = ReadOptions {
            reject_unknown_fields: strict,
            reject_unexpected_roles: strict,
            reject_unknown_modality: strict,
        };
        prop_assert_eq!(
            robot_runtime::hri::HriIntent::from_json(&text, options),
            read_through_value(&text, options),
            "{}", text
        );
    }
}

#[test]
fn repeated_and_escaped_fields_read_as_through_a_value() {
    for text in [
        r#"{"intent": "__intent_say__", "intent": "__intent_move_to__", "data": "{\"goal\": \"k\"}"}"#,
        r#"{"zeta": 1, "alpha": 2, "zeta": 3, "intent": "__intent_wakeup__", "beta": null}"#,
        r#"{"int\u0065nt": "__intent_w\u0061keup__", "sour\u0063e": "person_\u00e9", "priority": 200.0}"#,
        r#"{"intent": "__intent_wakeup__", "priority": 1e400}"#,
        r#"{"intent": "__intent_wakeup__", "header": [[[[[[]]]]]], "confidence": "0.5"}"#,
        r#"{"intent": "__intent_move_to__", "data": {"goal": "k", "goal": "h"}} "#,
        r#"{"intent": "__intent_wakeup__"} x"#,
        "\"just a string\"",
        "",
        "null",
    ] {
        for strict in [false, true] {
            let options = ReadOptions {
                reject_unknown_fields: strict,
                ..ReadOptions::default()
            };
            assert_eq!(
                robot_runtime::hri::HriIntent::from_json(text, options),
                read_through_value(text, options),
                "{text}"
            );
        }
    }
    let deep = format!(
        "{{\"intent\": \"__intent_wakeup__\", \"x\": {}{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    assert_eq!(
        robot_runtime::hri::HriIntent::from_json(&deep, ReadOptions::default()),
        read_through_value(&deep, ReadOptions::default())
    );
}
