//! The cloud/app → typed intent pipeline: the original's `UserIntentMap` test scenarios
//! (spec §4.4). The bad inputs, with their exact outcomes and events, are in
//! `intent_bad_inputs.rs`.

use robot_runtime_tests as support;

use robot_runtime::intent::{
    CloudEvent, CloudJsonError, ExpandedJsonError, ExtraParams, IntakeOutcome, IntentComponent,
    IntentConfig, IntentEvent, IntentSource, IntentTranslator, Match, MissingFields, Note,
    NumberError, NumericMode, Reaction, TranslateConfig, TranslateError, UnmatchedReason,
};
use robot_runtime::union::CladUnion;
use support::cloud_mic::Message;
use support::*;

type Tag = UserIntentTag;

fn comp() -> IntentComponent<UserIntent> {
    IntentComponent::new(&MAP)
}

fn comp_with(translate: TranslateConfig) -> IntentComponent<UserIntent> {
    IntentComponent::with_config(
        &MAP,
        IntentConfig {
            translate,
            ..IntentConfig::default()
        },
    )
}

fn events(c: &mut IntentComponent<UserIntent>) -> Vec<IntentEvent<Tag>> {
    c.drain_events().collect()
}

fn pending(c: &IntentComponent<UserIntent>) -> Option<UserIntent> {
    c.pending().map(|p| p.intent().clone())
}

// ----- §4.4: tag names, map tables ------------------------------------------------------

#[test]
fn tag_names_are_valid_and_tables_sorted() {
    for tag in UserIntent::TAGS {
        assert_eq!(
            UserIntent::tag_from_name(UserIntent::tag_name(*tag)),
            Some(*tag)
        );
    }
    assert_eq!(UserIntent::tag_from_name("not_a_tag"), None);
    for table in [MAP.cloud, MAP.app] {
        assert!(table.windows(2).all(|w| w[0].intent < w[1].intent));
    }
    assert!(MAP
        .simple_voice
        .windows(2)
        .all(|w| w[0].cloud_intent < w[1].cloud_intent));
    // Every cloud entry's sanitation targets exist as payload fields.
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    for e in MAP.cloud.iter().chain(MAP.app) {
        let fields = t.payload_fields(e.tag).unwrap();
        for s in e.sanitation {
            let target = s.to.unwrap_or(s.from);
            assert!(fields.contains(&target), "{} -> {target}", e.intent);
        }
    }
}

#[test]
fn payload_shapes_are_learned_from_the_union() {
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    assert!(t.is_void(Tag::UnmatchedIntent));
    assert!(t.is_void(Tag::ImperativeCome));
    assert_eq!(t.payload_fields(Tag::SetTimer), Some(&["time_s"][..]));
    assert_eq!(t.payload_fields(Tag::TestValue), Some(&["value"][..]));
    assert_eq!(
        t.payload_fields(Tag::WeatherResponse).unwrap(),
        [
            "speakableLocationString",
            "isForecast",
            "condition",
            "temperature",
            "temperatureUnit",
            "localDateTime",
            "dayOrNight"
        ]
    );
}

// ----- §4.4: cloud mapping and unmatched fallback ---------------------------------------

#[test]
fn cloud_mapping_and_unmatched_fallback() {
    let mut c = comp();
    let out = c.handle_cloud(result("intent_imperative_come", ""));
    assert_eq!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::ImperativeCome,
            matched: Match::Cloud {
                intent: "intent_imperative_come"
            }
        }
    );
    let p = c.pending().unwrap();
    assert_eq!(p.source(), IntentSource::Voice);
    assert_eq!(p.intent(), &UserIntent::ImperativeCome(Void {}));

    let out = c.handle_cloud(result("intent_system_unsupported", ""));
    assert_eq!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::UnknownIntent {
                intent: "intent_system_unsupported".into()
            })
        }
    );
    assert!(c.is_pending(Tag::UnmatchedIntent));
    let ev = events(&mut c);
    assert!(
        matches!(
            ev.as_slice(),
            [
                IntentEvent::Pending {
                    tag: Tag::ImperativeCome,
                    ..
                },
                IntentEvent::Replaced {
                    old: Tag::ImperativeCome,
                    new: Tag::UnmatchedIntent,
                    ..
                },
                IntentEvent::Pending {
                    tag: Tag::UnmatchedIntent,
                    ..
                },
            ]
        ),
        "{ev:#?}"
    );
}

#[test]
fn feature_gates_are_evaluated_at_lookup_time() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let gaze = Arc::new(AtomicBool::new(false));
    let mut c = comp();
    let g = gaze.clone();
    c.set_feature_gate(move |f: &str| f != "GazeDirection" || g.load(Ordering::Relaxed));
    let out = c.handle_cloud(result("intent_imperative_lookoverthere", ""));
    assert_eq!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::FeatureDisabled {
                intent: "intent_imperative_lookoverthere",
                feature: "GazeDirection"
            })
        }
    );
    gaze.store(true, Ordering::Relaxed);
    let out = c.handle_cloud(result("intent_imperative_lookoverthere", ""));
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::ImperativeLookoverthere,
            ..
        }
    ));
}

#[test]
fn simple_voice_responses_build_the_member_from_the_table() {
    let mut c = comp();
    let out = c.handle_cloud(result("intent_imperative_forward", "{\"ignored\":\"x\"}"));
    assert_eq!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::SimpleVoiceResponse,
            matched: Match::SimpleVoice {
                intent: "intent_imperative_forward"
            }
        }
    );
    assert_eq!(
        pending(&c),
        Some(UserIntent::SimpleVoiceResponse(
            SimpleVoiceResponsePayload {
                anim_group: "ag_movement_forward_01".into(),
                emotion_event: String::new(),
                active_feature: ActiveFeature::MovementForward,
                disable_wakeword_turn: true,
            }
        ))
    );
    // Gated off → unmatched.
    c.set_feature_gate(|f: &str| f != "ReactToHello");
    let out = c.handle_cloud(result("intent_greeting_hello", ""));
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::FeatureDisabled {
                feature: "ReactToHello",
                ..
            })
        }
    ));
    c.translator_mut().clear_feature_gate();
    let t = c
        .translator()
        .translate_cloud("intent_greeting_hello", "")
        .unwrap();
    assert!(!t.params_ignored);
    assert!(matches!(
        t.intent,
        UserIntent::SimpleVoiceResponse(SimpleVoiceResponsePayload {
            active_feature: ActiveFeature::ReactToHello,
            ..
        })
    ));
}

// ----- §4.4: numeric and string params, dotted names, enums -----------------------------

#[test]
fn numeric_and_string_params() {
    let mut c = comp();
    c.handle_cloud(result(
        "intent_clock_settimer",
        "{\"timer_duration\":\"20\"}\n",
    ));
    assert_eq!(
        pending(&c),
        Some(UserIntent::SetTimer(TimeInSeconds { time_s: 20 }))
    );
    c.handle_cloud(result("intent_test_name", "{\"name\":\"Victor\"}"));
    assert_eq!(
        pending(&c),
        Some(UserIntent::TestName(TestName {
            name: "Victor".into()
        }))
    );
    c.handle_cloud(result("intent_weather_extend", WEATHER_PARAMS));
    assert_eq!(pending(&c), Some(weather()));
}

#[test]
fn dotted_name_substitution_string_to_number_and_enum_by_name() {
    let mut c = comp();
    let out = c.handle_cloud(result(
        "intent_test_time",
        r#"{"timer_duration.time":"10","timer_duration.units":"m"}"#,
    ));
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::TestTimeWithUnits,
            ..
        }
    ));
    assert_eq!(
        pending(&c),
        Some(UserIntent::TestTimeWithUnits(TestTimeWithUnits {
            time: 10,
            units: TimeUnits::M
        }))
    );
}

#[test]
fn floats_signed_ints_and_value_members() {
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    let r = t
        .translate_cloud("intent_test_ratio", r#"{"ratio":"0.5","offset":"-3"}"#)
        .unwrap();
    assert_eq!(
        r.intent,
        UserIntent::TestRatio(TestRatio {
            ratio: 0.5,
            offset: -3
        })
    );
    let r = t
        .translate_cloud("intent_test_ratio", r#"{"ratio":"1e3","offset":"7"}"#)
        .unwrap();
    assert_eq!(
        r.intent,
        UserIntent::TestRatio(TestRatio {
            ratio: 1000.0,
            offset: 7
        })
    );
    // The map compiler takes no substitution into a non-structure payload, so the generated
    // map reads `value` as it arrives; `fallback_path.rs` renames `v` to `value`.
    let r = t
        .translate_cloud("intent_test_value", r#"{"value":7}"#)
        .unwrap();
    assert_eq!(r.intent, UserIntent::TestValue(7));
}

#[test]
fn strings_with_escapes_and_unicode() {
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    let r = t
        .translate_cloud(
            "intent_test_name",
            r#"{"name":"a\"b\u00e9 \u003cc\u003e – ✓"}"#,
        )
        .unwrap();
    assert_eq!(
        r.intent,
        UserIntent::TestName(TestName {
            name: "a\"bé <c> – ✓".into()
        })
    );
    // Escaped keys are matched after unescaping.
    let r = t
        .translate_cloud("intent_test_name", r#"{"n\u0061me":"x"}"#)
        .unwrap();
    assert_eq!(
        r.intent,
        UserIntent::TestName(TestName { name: "x".into() })
    );
}

// ----- §4.4: void intent with extra params; missing params; extras ----------------------

#[test]
fn void_intent_with_extra_params_is_accepted_without_parsing() {
    let mut c = comp();
    for params in ["{\"foo\":\"bar\"}", "not even json", "[1,2]"] {
        let t = c
            .translator()
            .translate_cloud("intent_imperative_come", params)
            .unwrap();
        assert!(t.params_ignored, "{params}");
        assert_eq!(t.intent, UserIntent::ImperativeCome(Void {}));
        let out = c.handle_cloud(result("intent_imperative_come", params));
        assert!(matches!(
            out,
            IntakeOutcome::Pending {
                tag: Tag::ImperativeCome,
                ..
            }
        ));
    }
    for params in ["", "{}", " {} \n", "null"] {
        let t = c
            .translator()
            .translate_cloud("intent_imperative_come", params)
            .unwrap();
        assert!(!t.params_ignored, "{params:?}");
    }
}

#[test]
fn extra_params_and_defaulted_fields_are_reported_as_notes() {
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    let r = t
        .translate_cloud(
            "intent_knowledge_response_extend",
            r#"{"answer":"42","answer_type":"InformationAnswer","domains.0":"x","type":"set_timer","nested":{"a":[1,2]}}"#,
        )
        .unwrap();
    assert_eq!(
        r.intent,
        UserIntent::KnowledgeResponse(KnowledgeResponse {
            answer: "42".into(),
            query_text: String::new()
        })
    );
    assert_eq!(
        r.notes,
        vec![
            Note::UnknownParam {
                name: "answer_type".into()
            },
            Note::UnknownParam {
                name: "domains.0".into()
            },
            Note::UnknownParam {
                name: "type".into()
            },
            Note::UnknownParam {
                name: "nested".into()
            },
            Note::FieldDefaulted {
                field: "query_text"
            },
        ]
    );
    // Strict policies turn both into errors.
    let strict = IntentTranslator::<UserIntent>::with_config(
        &MAP,
        TranslateConfig {
            extra_params: ExtraParams::Reject,
            missing_fields: MissingFields::Reject,
            ..TranslateConfig::default()
        },
    );
    assert_eq!(
        strict
            .translate_cloud(
                "intent_knowledge_response_extend",
                r#"{"answer":"42","x":"1"}"#
            )
            .unwrap_err(),
        TranslateError::UnknownParameter {
            tag: "knowledge_response",
            name: "x".into()
        }
    );
    assert_eq!(
        strict
            .translate_cloud("intent_knowledge_response_extend", r#"{"answer":"42"}"#)
            .unwrap_err(),
        TranslateError::MissingField {
            tag: "knowledge_response",
            field: "query_text"
        }
    );
}

#[test]
fn sixty_four_kib_of_parameters_are_not_truncated() {
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    // The longest parameters text the wire can carry (string[uint_16]).
    let prefix = r#"{"answer":""#;
    let suffix = r#"","query_text":"q"}"#;
    let answer = "é".repeat((65_535 - prefix.len() - suffix.len()) / 2);
    let params = format!("{prefix}{answer}{suffix}");
    assert!(params.len() <= 65_535 && params.len() > 65_000);
    let r = t
        .translate_cloud("intent_knowledge_response_extend", &params)
        .unwrap();
    match r.intent {
        UserIntent::KnowledgeResponse(k) => {
            assert_eq!(k.answer, answer);
            assert_eq!(k.query_text, "q");
        }
        other => panic!("{other:?}"),
    }
    // Exactly 64 KiB is accepted too; one byte more is an explicit error.
    let pad = |n: usize| format!("{{\"answer\":\"{}\"}}", "a".repeat(n - 13));
    assert_eq!(pad(65_536).len(), 65_536);
    assert!(t
        .translate_cloud("intent_knowledge_response_extend", &pad(65_536))
        .is_ok());
    assert_eq!(
        t.translate_cloud("intent_knowledge_response_extend", &pad(65_537))
            .unwrap_err(),
        TranslateError::ParametersTooLarge {
            len: 65_537,
            limit: 65_536
        }
    );
}

// ----- §4.4: app intents ------------------------------------------------------------------

#[test]
fn app_intent_with_param_substitution() {
    let mut c = comp();
    let out = c.handle_app_intent("intent_meet_victor", "cozmo");
    assert_eq!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::MeetVictor,
            matched: Match::App {
                intent: "intent_meet_victor"
            }
        }
    );
    let p = c.pending().unwrap();
    assert_eq!(p.source(), IntentSource::App);
    assert_eq!(
        p.intent(),
        &UserIntent::MeetVictor(MeetVictor {
            username: "cozmo".into()
        })
    );
    c.handle_app_intent("intent_clock_settimer", "90");
    assert_eq!(
        pending(&c),
        Some(UserIntent::SetTimer(TimeInSeconds { time_s: 90 }))
    );
    let out = c.handle_app_intent("intent_clock_settimer", "soon");
    assert!(matches!(
        out,
        IntakeOutcome::Failed {
            error: TranslateError::BadNumber {
                reason: NumberError::Invalid,
                ..
            },
            reaction: Reaction::Unmatched
        }
    ));
    let out = c.handle_app_intent("intent_test_user_intent_2", "ignored");
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::TestUserIntent2,
            ..
        }
    ));
    let out = c.handle_app_intent("intent_nope", "");
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::UnknownIntent { .. })
        }
    ));
    assert_eq!(c.pending().unwrap().source(), IntentSource::App);
}

// ----- §4.4: invalid JSON / missing intent (expanded-JSON path) ---------------------------

#[test]
fn expanded_json_path() {
    let mut c = comp();
    assert!(matches!(
        c.handle_expanded_json("{not json"),
        Err(ExpandedJsonError::BadJson { .. })
    ));
    assert_eq!(
        c.handle_expanded_json(r#"{"params":{"name":"x"}}"#),
        Err(ExpandedJsonError::MissingIntentKey)
    );
    assert_eq!(
        c.handle_expanded_json("[1]"),
        Err(ExpandedJsonError::NotAnObject)
    );
    assert!(!c.is_any_pending());
    assert!(events(&mut c).is_empty());

    let out = c
        .handle_expanded_json(r#"{"intent":"intent_test_time","params":{"timer_duration.time":"5","timer_duration.units":"s"}}"#)
        .unwrap();
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::TestTimeWithUnits,
            ..
        }
    ));
    assert_eq!(
        pending(&c),
        Some(UserIntent::TestTimeWithUnits(TestTimeWithUnits {
            time: 5,
            units: TimeUnits::S
        }))
    );
    let out = c
        .handle_expanded_json(r#"{"intent":"intent_imperative_come"}"#)
        .unwrap();
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::ImperativeCome,
            ..
        }
    ));
}

// ----- the cloud message adapter (`robot_runtime::cloud_event_from!`) ---------------------

// Every member of the generated `CloudMic::Message` becomes its `CloudEvent`: `result`,
// `error` (the `ErrorType` member's name), `streamTimeout`, `streamOpen`, and every other
// member `Other` with its schema name.
#[test]
fn cloud_event_from_converts_every_member_of_the_message() {
    use support::cloud_mic::{
        AudioData, ConnectionCode, ConnectionResult, ErrorType, Filename, Hotword, IntentError,
        IntentResult, StreamOpen, StreamType, Void,
    };
    let cases: Vec<(Message, CloudEvent)> = vec![
        (
            Message::Result(IntentResult {
                intent: "intent_x".into(),
                parameters: "{}".into(),
                metadata: "m".into(),
            }),
            CloudEvent::Result {
                intent: "intent_x".into(),
                parameters: "{}".into(),
                metadata: "m".into(),
            },
        ),
        (
            Message::Error(IntentError {
                error: ErrorType::Connectivity,
                extra: "no route".into(),
            }),
            CloudEvent::Error {
                error: "Connectivity",
                extra: "no route".into(),
            },
        ),
        (Message::StreamTimeout(Void {}), CloudEvent::StreamTimeout),
        (
            Message::StreamOpen(StreamOpen {
                session: "abc".into(),
            }),
            CloudEvent::StreamOpen {
                session: "abc".into(),
            },
        ),
        (
            Message::DebugFile(Filename {
                file: "/tmp/a.wav".into(),
            }),
            CloudEvent::Other {
                message: "debugFile",
            },
        ),
        (
            Message::Hotword(Hotword {
                mode: StreamType::Normal,
                ..Hotword::default()
            }),
            CloudEvent::Other { message: "hotword" },
        ),
        (
            Message::Audio(AudioData::default()),
            CloudEvent::Other { message: "audio" },
        ),
        (
            Message::ConnectionResult(ConnectionResult {
                code: ConnectionCode::default(),
                ..ConnectionResult::default()
            }),
            CloudEvent::Other {
                message: "connectionResult",
            },
        ),
    ];
    for (message, event) in cases {
        assert_eq!(CloudEvent::from(message), event);
    }
}

// ----- §4.4: the CloudMic JSON string path -------------------------------------------------

#[test]
fn cloud_mic_json_string_path() {
    type E = CloudJsonError;
    let parse = CloudEvent::from_json::<Message>;
    assert_eq!(parse("{}"), Err(E::EmptyIntent));
    assert_eq!(
        parse(r#"{"type":"result","parameters":"{}"}"#),
        Err(E::EmptyIntent)
    );
    assert!(matches!(
        parse(r#"{"type":"nope","intent":"x"}"#),
        Err(E::BadMessage { .. })
    ));
    assert!(matches!(parse("intent_x"), Err(E::BadJson { .. })));
    assert_eq!(parse("[]"), Err(E::NotAnObject));
    // "type" defaults to "result"; stringified parameters with Go's trailing newline.
    let ev =
        parse(r#"{"intent":"intent_clock_settimer","parameters":"{\"timer_duration\":\"20\"}\n"}"#)
            .unwrap();
    assert_eq!(
        ev,
        CloudEvent::Result {
            intent: "intent_clock_settimer".into(),
            parameters: "{\"timer_duration\":\"20\"}\n".into(),
            metadata: String::new()
        }
    );
    let mut c = comp();
    c.cloud_sender().send(ev).unwrap();
    c.update();
    assert_eq!(
        pending(&c),
        Some(UserIntent::SetTimer(TimeInSeconds { time_s: 20 }))
    );

    assert_eq!(
        parse(r#"{"type":"error","error":"Json","extra":"x"}"#).unwrap(),
        CloudEvent::Error {
            error: "Json",
            extra: "x".into()
        }
    );
    assert_eq!(
        parse(r#"{"type":"streamTimeout"}"#).unwrap(),
        CloudEvent::StreamTimeout
    );
    assert_eq!(
        parse(r#"{"type":"debugFile","file":"/tmp/x"}"#).unwrap(),
        CloudEvent::Other {
            message: "debugFile"
        }
    );
    // Bare names.
    assert_eq!(
        CloudEvent::from_text::<Message>("  intent_imperative_come\n").unwrap(),
        result("intent_imperative_come", "")
    );
    assert_eq!(CloudEvent::from_text::<Message>(""), Err(E::EmptyIntent));
    assert_eq!(
        CloudEvent::from_text::<Message>("two words"),
        Err(E::BadIntentName)
    );
}

// ----- whitelist, reactions, numeric modes ------------------------------------------------

#[test]
fn whitelist_replaces_other_tags_with_unmatched() {
    let mut c = comp();
    c.set_whitelist([Tag::SetTimer]);
    let out = c.handle_cloud(result("intent_imperative_come", ""));
    assert_eq!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::NotWhitelisted {
                tag: Tag::ImperativeCome
            })
        }
    );
    let out = c.handle_cloud(result("intent_clock_settimer", r#"{"timer_duration":"5"}"#));
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::SetTimer,
            ..
        }
    ));
    // Direct set_pending is not filtered.
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Dev);
    assert!(c.is_pending(Tag::ImperativeCome));
    c.clear_whitelist();
    let out = c.handle_cloud(result("intent_imperative_come", ""));
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: Tag::ImperativeCome,
            ..
        }
    ));
}

#[test]
fn reaction_is_configurable() {
    let mut c = IntentComponent::<UserIntent>::with_config(
        &MAP,
        IntentConfig {
            reaction: |_| Reaction::Drop,
            ..IntentConfig::default()
        },
    );
    let out = c.handle_cloud(result("intent_clock_settimer", "{bad"));
    assert!(matches!(
        out,
        IntakeOutcome::Failed {
            reaction: Reaction::Drop,
            ..
        }
    ));
    assert!(!c.is_any_pending());
    assert!(!c.was_error());
}

/// A data intent that fails — while its parameters are read, or only when its payload is
/// built — leaves the pending intent as it was when the reaction does nothing.
#[test]
fn failed_data_intent_keeps_the_pending_intent() {
    let mut c = IntentComponent::<UserIntent>::with_config(
        &MAP,
        IntentConfig {
            reaction: |_| Reaction::Drop,
            ..IntentConfig::default()
        },
    );
    let params = |v: &str| format!("{{\"timer_duration\":\"{v}\"}}");
    assert!(matches!(
        c.handle_cloud(result("intent_clock_settimer", &params("60"))),
        IntakeOutcome::Pending { .. }
    ));
    let before = c.pending().unwrap().intent().clone();
    assert_eq!(before, UserIntent::SetTimer(TimeInSeconds { time_s: 60 }));
    c.drain_events();
    // Rejected while reading parameters (strict numeric conversion) and when building the
    // payload (a negative number for an unsigned field).
    for (v, field_blamed) in [("abc", None), ("-5", Some("time_s"))] {
        let out = c.handle_cloud(result("intent_clock_settimer", &params(v)));
        match (&out, field_blamed) {
            (
                IntakeOutcome::Failed {
                    error: TranslateError::BadNumber { .. },
                    reaction: Reaction::Drop,
                },
                None,
            ) => {}
            (
                IntakeOutcome::Failed {
                    error: TranslateError::BadPayload { field, .. },
                    reaction: Reaction::Drop,
                },
                Some(f),
            ) => assert_eq!(field.as_deref(), Some(f)),
            _ => panic!("{v}: {out:?}"),
        }
        assert_eq!(c.pending().unwrap().intent(), &before, "{v}");
        let events: Vec<_> = c.drain_events().collect();
        assert!(
            matches!(&events[..], [IntentEvent::TranslateFailed { .. }]),
            "{v}: {events:?}"
        );
    }
    // And a success replaces it.
    c.handle_cloud(result("intent_clock_settimer", &params("7")));
    assert_eq!(
        c.pending().unwrap().intent(),
        &UserIntent::SetTimer(TimeInSeconds { time_s: 7 })
    );
    let events: Vec<_> = c.drain_events().collect();
    assert!(
        matches!(
            &events[..],
            [
                IntentEvent::Replaced {
                    old: Tag::SetTimer,
                    new: Tag::SetTimer,
                    ..
                },
                IntentEvent::Pending {
                    tag: Tag::SetTimer,
                    ..
                }
            ]
        ),
        "{events:?}"
    );
}

#[test]
fn original_prefix_numeric_mode() {
    let c = comp_with(TranslateConfig {
        numeric: NumericMode::OriginalPrefix,
        ..TranslateConfig::default()
    });
    let t = c.translator();
    let time = |p: &str| {
        t.translate_cloud(
            "intent_clock_settimer",
            &format!("{{\"timer_duration\":\"{p}\"}}"),
        )
        .map(|r| r.intent)
    };
    assert_eq!(
        time("20abc"),
        Ok(UserIntent::SetTimer(TimeInSeconds { time_s: 20 }))
    );
    assert_eq!(
        time("  7"),
        Ok(UserIntent::SetTimer(TimeInSeconds { time_s: 7 }))
    );
    assert_eq!(
        time("10.0"),
        Ok(UserIntent::SetTimer(TimeInSeconds { time_s: 10 }))
    );
    assert_eq!(
        time("1e3"),
        Ok(UserIntent::SetTimer(TimeInSeconds { time_s: 1 }))
    );
    // No conversion: the string stays and the u32 field rejects it.
    assert!(matches!(
        time("abc"),
        Err(TranslateError::BadPayload { field: Some(ref f), .. }) if f == "time_s"
    ));
    // Strict mode for comparison.
    let s = comp();
    assert!(matches!(
        s.translator()
            .translate_cloud("intent_clock_settimer", r#"{"timer_duration":"20abc"}"#),
        Err(TranslateError::BadNumber {
            reason: NumberError::Invalid,
            ..
        })
    ));
}
