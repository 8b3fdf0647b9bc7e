//! What this robot adds to the intent component (which `crates/robot-runtime-tests` tests
//! over a generated test union): our union (`schemas/userIntent.clad`, the original's tag
//! numbers), our map (`schemas/user_intent_map.json`: every entry, its renames and numerics,
//! its simple voice responses), the stock feature set, and the robot's wiring of the cloud
//! messages (`intents::receive`, `receive_text`, `component`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use robot_example::clad::anki::vector::{
    ActiveFeature, FeatureType, HriGazeMode, MetaUserIntentSimpleVoiceResponse, UserIntentEyeColor,
    UserIntentGlobalStop, UserIntentHriGaze, UserIntentHriObject, UserIntentKnowledgeResponse,
    UserIntentMeetVictor, UserIntentPlaybackMessage, UserIntentRecordMessage, UserIntentTakeAPhoto,
    UserIntentTimeInSeconds, UserIntentVoid, UserIntentVolume, UserIntentWeatherResponse,
};
use robot_example::clad::cloud_mic::{
    ErrorType, Filename, IntentError, IntentResult, Message, StreamOpen, Void,
};
use robot_example::intents::{self, Tag, UserIntent, USER_INTENT_MAP};
use robot_runtime::intent::{
    members, CloudEvent, CloudJsonError, DropReason, IntakeOutcome, IntentComponent, IntentEvent,
    IntentSource, Match, Reaction, TranslateError, UnmatchedReason,
};
use robot_runtime::union::CladUnion;
use robot_runtime::wire::{UnpackErrorKind, Wire};

type Comp = IntentComponent<UserIntent>;

fn events(c: &mut Comp) -> Vec<IntentEvent<Tag>> {
    c.drain_events().collect()
}

fn pending(c: &Comp) -> Option<UserIntent> {
    c.pending().map(|p| p.intent().clone())
}

fn result(intent: &str, parameters: &str) -> CloudEvent {
    CloudEvent::result(intent, parameters)
}

fn cloud(intent: &'static str) -> Match<Tag> {
    Match::Cloud { intent }
}

fn voice_pending(tag: Tag, matched: Match<Tag>) -> IntentEvent<Tag> {
    IntentEvent::Pending {
        tag,
        source: IntentSource::Voice,
        matched,
    }
}

fn timer(time_s: u32) -> UserIntent {
    UserIntent::SetTimer(UserIntentTimeInSeconds { time_s })
}

fn unmatched() -> UserIntent {
    UserIntent::UnmatchedIntent(UserIntentVoid {})
}

// ----- tag names -------------------------------------------------------------------------

// §4.4 tag-name validity: every generated tag round-trips through the CladUnion name and
// value tables, names are unique, and the original's tag numbers are kept.
#[test]
fn every_tag_name_round_trips_through_the_union_tables() {
    assert_eq!(UserIntent::TAGS, &Tag::ALL[..]);
    assert_eq!(Tag::ALL.len(), Tag::COUNT);
    let mut names = std::collections::BTreeSet::new();
    for (i, &tag) in Tag::ALL.iter().enumerate() {
        let name = UserIntent::tag_name(tag);
        assert_eq!(name, tag.name());
        assert_eq!(UserIntent::tag_from_name(name), Some(tag), "{name}");
        assert_eq!(Tag::from_name(name), Some(tag), "{name}");
        assert_eq!(usize::from(UserIntent::tag_value(tag)), i, "{name}");
        assert_eq!(UserIntent::tag_value(tag), tag.value(), "{name}");
        assert_eq!(Tag::from_value(tag.value()), Some(tag), "{name}");
        assert_eq!(UserIntent::default_for(tag).tag(), tag, "{name}");
        assert!(names.insert(name), "duplicate member name {name}");
    }
    for bad in [
        "",
        "INVALID",
        "not_a_tag",
        "SET_TIMER",
        "set_timer ",
        "setTimer",
    ] {
        assert_eq!(UserIntent::tag_from_name(bad), None, "{bad:?}");
    }
    assert_eq!(Tag::from_value(89), None);
    assert_eq!(Tag::from_value(255), None);
    // The original's numbers (clad-language.md §4.3 / the SDK intent table).
    let pinned = [
        (Tag::UnmatchedIntent, 0, "unmatched_intent"),
        (Tag::KnowledgeResponse, 39, "knowledge_response"),
        (Tag::SetTimer, 54, "set_timer"),
        (Tag::TestSeparator, 62, "test_SEPARATOR"),
        (Tag::SimpleVoiceResponse, 63, "simple_voice_response"),
        (Tag::TestTimeWithUnits, 67, "test_timeWithUnits"),
        (
            Tag::KnowledgeResponseBypass,
            68,
            "knowledge_response_bypass",
        ),
        (Tag::TestWire, 70, "test_wire"),
        (Tag::HriRawUserInput, 71, "hri_raw_user_input"),
        (Tag::HriSuspend, 88, "hri_suspend"),
    ];
    for (tag, value, name) in pinned {
        assert_eq!((tag.value(), tag.name()), (value, name));
    }
}

/// `schemas/user_intent_map.json`, parsed as text (independently of the build).
fn map_json() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../schemas/user_intent_map.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

// §4.4 tag-name validity for the map: every entry's `user_intent` is a union member, the
// compiled tables are exactly the JSON's entries, and (§1.3) every member before
// `test_SEPARATOR` appears in the map.
#[test]
fn every_map_entry_names_a_union_member() {
    let json = map_json();
    let entries = json["user_intent_map"].as_array().unwrap();
    let (mut clouds, mut apps) = (0, 0);
    for e in entries {
        let name = e["user_intent"].as_str().unwrap();
        let tag = UserIntent::tag_from_name(name).unwrap_or_else(|| panic!("{name}"));
        let gate = e.get("feature_gate").map(|g| g.as_str().unwrap());
        if let Some(g) = gate {
            assert!(FeatureType::from_name(g).is_some(), "{g}");
        }
        if let Some(ci) = e.get("cloud_intent") {
            clouds += 1;
            let compiled = USER_INTENT_MAP.cloud(ci.as_str().unwrap()).unwrap();
            assert_eq!((compiled.tag, compiled.feature_gate), (tag, gate), "{ci}");
        }
        if let Some(ai) = e.get("app_intent") {
            apps += 1;
            let compiled = USER_INTENT_MAP.app(ai.as_str().unwrap()).unwrap();
            assert_eq!((compiled.tag, compiled.feature_gate), (tag, gate), "{ai}");
        }
    }
    assert_eq!(
        (
            USER_INTENT_MAP.cloud.len(),
            USER_INTENT_MAP.app.len(),
            USER_INTENT_MAP.simple_voice.len()
        ),
        (
            clouds,
            apps,
            json["simple_voice_responses"].as_array().unwrap().len()
        )
    );
    assert_eq!((clouds, apps), (81, 3));
    assert_eq!(
        json["unmatched_intent"].as_str(),
        Some(UserIntent::tag_name(USER_INTENT_MAP.unmatched))
    );
    assert_eq!(USER_INTENT_MAP.unmatched, Tag::UnmatchedIntent);
    assert_eq!(
        USER_INTENT_MAP.simple_voice_tag,
        Some(Tag::SimpleVoiceResponse)
    );

    // Compiled tables: sorted, every tag a member, every rename target a payload field.
    let translator = intents::component();
    for table in [USER_INTENT_MAP.cloud, USER_INTENT_MAP.app] {
        assert!(table.windows(2).all(|w| w[0].intent < w[1].intent));
        for e in table {
            assert_eq!(
                UserIntent::tag_from_name(UserIntent::tag_name(e.tag)),
                Some(e.tag)
            );
            let fields = translator.translator().payload_fields(e.tag).unwrap();
            for s in e.sanitation {
                let target = s.to.unwrap_or(s.from);
                assert!(fields.contains(&target), "{} -> {target}", e.intent);
            }
        }
    }
    // Completeness: the members the runtime's rule demands in the map (those above
    // `test_SEPARATOR`, the unmatched one aside) each have a cloud intent.
    let names: Vec<&str> = Tag::ALL.iter().map(|t| t.name()).collect();
    let required = members::must_appear_in_map(&names);
    assert_eq!(required.len(), usize::from(Tag::TestSeparator.value()));
    for &tag in &Tag::ALL[1..required.len()] {
        assert!(
            USER_INTENT_MAP.cloud.iter().any(|e| e.tag == tag),
            "{} has no cloud intent",
            tag.name()
        );
    }
}

// ----- cloud mapping ---------------------------------------------------------------------------

// §4.4 cloud mapping: every void entry of our map that the stock gate enables maps to its
// member.
#[test]
fn every_enabled_void_entry_of_our_map_maps_to_its_member() {
    let mut c = intents::component();
    let mut mapped = 0;
    for e in USER_INTENT_MAP.cloud {
        let enabled = e.feature_gate.is_none_or(intents::stock_features);
        if !enabled || !c.translator().is_void(e.tag) {
            continue;
        }
        mapped += 1;
        let out = c.handle_cloud(result(e.intent, ""));
        assert_eq!(
            out,
            IntakeOutcome::Pending {
                tag: e.tag,
                matched: cloud(e.intent)
            }
        );
        assert_eq!(pending(&c), Some(UserIntent::default_for(e.tag)));
        assert_eq!(c.pending().unwrap().source(), IntentSource::Voice);
        assert_eq!(c.drop_pending(e.tag).map(|p| p.tag()), Ok(e.tag));
        assert_eq!(
            events(&mut c),
            [
                voice_pending(e.tag, cloud(e.intent)),
                IntentEvent::Dropped {
                    tag: e.tag,
                    source: IntentSource::Voice,
                    reason: DropReason::Requested
                }
            ]
        );
    }
    assert_eq!(mapped, 53); // 54 void entries, minus `GazeDirection`
}

// ----- app intents -------------------------------------------------------------------------------

// §4.4 app intent broadcast with `param` substitution: our map's `intent_clock_settimer`
// (`param` → `time_s`, numeric) and `intent_meet_victor` (`param` → `username`).
#[test]
fn our_app_intents_fill_their_payloads() {
    let mut c = intents::component();
    let app = |intent: &'static str| Match::App { intent };
    assert_eq!(
        c.handle_app_intent("intent_clock_settimer", "90"),
        IntakeOutcome::Pending {
            tag: Tag::SetTimer,
            matched: app("intent_clock_settimer")
        }
    );
    assert_eq!(pending(&c), Some(timer(90)));
    assert_eq!(c.pending().unwrap().source(), IntentSource::App);

    c.handle_app_intent("intent_meet_victor", "Ada Lovelace");
    assert_eq!(
        pending(&c),
        Some(UserIntent::MeetVictor(UserIntentMeetVictor {
            username: "Ada Lovelace".into()
        }))
    );
    // A void app intent ignores its param.
    assert_eq!(
        c.handle_app_intent("explore_start", "whatever"),
        IntakeOutcome::Pending {
            tag: Tag::ExploreStart,
            matched: app("explore_start")
        }
    );
    assert_eq!(
        pending(&c),
        Some(UserIntent::ExploreStart(UserIntentVoid {}))
    );
}

// ----- parameters -------------------------------------------------------------------------------

// §4.4 numeric and string params, with the renames of our map (`timer_duration` →
// `time_s` numeric; the weather report's five renames; plain string fields).
#[test]
fn our_data_intents_fill_their_payloads() {
    let mut c = intents::component();
    let cases: Vec<(&str, &str, UserIntent)> = vec![
        (
            "intent_clock_settimer_extend",
            "{\"timer_duration\":\"300\"}\n",
            timer(300),
        ),
        (
            "intent_clock_settimer_extend",
            "{\"timer_duration\":\"4294967295\"}",
            timer(u32::MAX),
        ),
        (
            "intent_photo_take_extend",
            "{\"entity_photo_selfie\":\"selfie\"}\n",
            UserIntent::TakeAPhoto(UserIntentTakeAPhoto {
                empty_or_selfie: "selfie".into(),
            }),
        ),
        (
            "intent_global_stop_extend",
            "{\"what_to_stop\":\"timer\"}",
            UserIntent::GlobalStop(UserIntentGlobalStop {
                what_to_stop: "timer".into(),
            }),
        ),
        (
            "intent_global_delete_extend",
            "{\"what_to_stop\":\"timer\"}",
            UserIntent::GlobalDelete(UserIntentGlobalStop {
                what_to_stop: "timer".into(),
            }),
        ),
        (
            "intent_imperative_volumelevel_extend",
            "{\"volume_level\":\"VOLUME_3\"}",
            UserIntent::ImperativeVolumelevel(UserIntentVolume {
                volume_level: "VOLUME_3".into(),
            }),
        ),
        (
            "intent_imperative_eyecolor_specific_extend",
            "{\"eye_color\":\"COLOR_PURPLE\"}",
            UserIntent::ImperativeEyecolorSpecific(UserIntentEyeColor {
                eye_color: "COLOR_PURPLE".into(),
            }),
        ),
        (
            "intent_knowledge_response_extend",
            "{\"answer\":\"Paris\",\"answer_type\":\"InformationAnswer\",\"query_text\":\"capital of France\",\"domains.0\":\"geo\"}\n",
            UserIntent::KnowledgeResponse(UserIntentKnowledgeResponse {
                answer: "Paris".into(),
                query_text: "capital of France".into(),
            }),
        ),
        (
            "intent_weather_extend",
            concat!(
                "{\"speakable_location_string\":\"San Francisco\",\"is_forecast\":\"false\",",
                "\"condition\":\"Cloudy\",\"temperature\":\"21\",\"temperature_unit\":\"C\",",
                "\"local_datetime\":\"2018-08-01T10:00:00-07:00\",\"day_or_night\":\"DAY\"}\n"
            ),
            UserIntent::WeatherResponse(UserIntentWeatherResponse {
                speakable_location_string: "San Francisco".into(),
                is_forecast: "false".into(),
                condition: "Cloudy".into(),
                temperature: "21".into(),
                temperature_unit: "C".into(),
                local_date_time: "2018-08-01T10:00:00-07:00".into(),
                day_or_night: "DAY".into(),
            }),
        ),
        (
            "__intent_grab_object__",
            "{\"object\":\"cup\",\"agent\":\"Ada\"}",
            UserIntent::HriGrabObject(UserIntentHriObject {
                agent: "Ada".into(),
                object_name: "cup".into(),
            }),
        ),
    ];
    for (intent, params, expected) in cases {
        let tag = expected.tag();
        assert_eq!(
            c.handle_cloud(result(intent, params)),
            IntakeOutcome::Pending {
                tag,
                matched: USER_INTENT_MAP
                    .cloud(intent)
                    .map(|e| cloud(e.intent))
                    .unwrap()
            },
            "{intent}"
        );
        assert_eq!(pending(&c), Some(expected), "{intent}");
    }
}

// §4.4 substitution of names that are not identifiers: our map renames the dashed
// `given-name` (messaging, gated by `Messaging`, off on stock robots).
#[test]
fn dashed_name_substitution_from_our_map() {
    let mut c = intents::component();
    c.set_feature_gate(|_: &str| true);
    c.handle_cloud(result(
        "intent_message_recordmessage_extend",
        "{\"given-name\":\"Bob\"}",
    ));
    assert_eq!(
        pending(&c),
        Some(UserIntent::MessageRecord(UserIntentRecordMessage {
            given_name: "Bob".into()
        }))
    );
    c.handle_cloud(result(
        "intent_message_playmessage_extend",
        "{\"given-name\":\"Bob\"}",
    ));
    assert_eq!(
        pending(&c),
        Some(UserIntent::MessagePlayback(UserIntentPlaybackMessage {
            given_name: "Bob".into()
        }))
    );
}

// §4.4 string→number and enum by name with our map: the timer's numeric param, and the
// `gaze_mode` enum of `__intent_gaze__` (`object` → `object_name` elsewhere; gated by
// `GazeDirection`, turned on here).
#[test]
fn string_to_number_and_enum_by_name_in_our_map() {
    let mut c = intents::component();
    c.set_feature_gate(|f: &str| f == "GazeDirection" || intents::stock_features(f));
    c.handle_cloud(result(
        "intent_clock_settimer_extend",
        "{\"timer_duration\":\"10.0\"}",
    ));
    assert_eq!(pending(&c), Some(timer(10)));
    assert_eq!(
        c.handle_cloud(result(
            "__intent_gaze__",
            "{\"gaze_mode\":\"GROUP\",\"target\":\"table\"}"
        )),
        IntakeOutcome::Pending {
            tag: Tag::HriGaze,
            matched: cloud("__intent_gaze__")
        }
    );
    assert_eq!(
        pending(&c),
        Some(UserIntent::HriGaze(UserIntentHriGaze {
            agent: String::new(),
            gaze_mode: HriGazeMode::Group,
            target: "table".into()
        }))
    );
    // A missing enum field takes its default (the first enumerator).
    c.handle_cloud(result("__intent_gaze__", "{\"target\":\"door\"}"));
    assert_eq!(
        pending(&c),
        Some(UserIntent::HriGaze(UserIntentHriGaze {
            agent: String::new(),
            gaze_mode: HriGazeMode::Individual,
            target: "door".into()
        }))
    );
    assert_eq!(
        c.handle_cloud(result("__intent_gaze__", "{\"gaze_mode\":\"group\"}")),
        IntakeOutcome::Failed {
            error: TranslateError::BadPayload {
                tag: "hri_gaze",
                field: Some("gaze_mode".into()),
                reason: "unknown variant `group`, expected one of `INDIVIDUAL`, `GROUP`, `IDLE`, `POINT`".into()
            },
            reaction: Reaction::Unmatched
        }
    );
}

// ----- the robot's wiring of the cloud messages -------------------------------------------------

// `intents::receive_text` (what the dev tools send): our `CloudMic::Message` in CLAD-JSON,
// or a bare intent name; what it rejects names our message's members.
#[test]
fn receive_text_reads_our_cloud_messages_and_bare_names() {
    type E = CloudJsonError;
    assert_eq!(intents::receive_text("{}"), Err(E::EmptyIntent));
    assert_eq!(
        intents::receive_text(r#"{"type":"result","parameters":"{}"}"#),
        Err(E::EmptyIntent)
    );
    assert_eq!(
        intents::receive_text(r#"{"type":"nope","intent":"x"}"#),
        Err(E::BadMessage {
            reason: "unknown variant `nope`, expected one of `hotword`, `audio`, `audioDone`, `connectionCheck`, `stopSignal`, `testStarted`, `streamTimeout`, `connectionResult`, `debugFile`, `result`, `error`, `streamOpen`".into()
        })
    );
    assert_eq!(
        intents::receive_text(r#"{"intent":5}"#),
        Err(E::BadMessage {
            reason: "invalid type: integer `5`, expected a string".into()
        })
    );
    assert_eq!(
        intents::receive_text("{\"intent\":"),
        Err(E::BadJson {
            reason: "EOF while parsing a value at line 1 column 10".into()
        })
    );
    // Only text starting with `{` is JSON: anything else is a bare name (here unmatched).
    assert_eq!(intents::receive_text("[]"), Ok(result("[]", "")));
    assert_eq!(intents::receive_text(""), Err(E::EmptyIntent));
    assert_eq!(intents::receive_text("two words"), Err(E::BadIntentName));

    let ev = intents::receive_text(
        r#"{"intent":"intent_clock_settimer_extend","parameters":"{\"timer_duration\":\"20\"}\n","metadata":"text: set a timer confidence: 0.9"}"#,
    )
    .unwrap();
    assert_eq!(
        ev,
        CloudEvent::Result {
            intent: "intent_clock_settimer_extend".into(),
            parameters: "{\"timer_duration\":\"20\"}\n".into(),
            metadata: "text: set a timer confidence: 0.9".into()
        }
    );
    let mut c = intents::component();
    assert_eq!(
        c.handle_cloud(ev),
        IntakeOutcome::Pending {
            tag: Tag::SetTimer,
            matched: cloud("intent_clock_settimer_extend")
        }
    );
    assert_eq!(pending(&c), Some(timer(20)));

    assert_eq!(
        intents::receive_text("  intent_imperative_come\n"),
        Ok(result("intent_imperative_come", ""))
    );
    assert_eq!(
        intents::receive_text(r#"{"type":"error","error":"Json","extra":"bad"}"#),
        Ok(CloudEvent::Error {
            error: "Json",
            extra: "bad".into()
        })
    );
    assert_eq!(
        intents::receive_text(r#"{"type":"streamTimeout"}"#),
        Ok(CloudEvent::StreamTimeout)
    );
    assert_eq!(
        intents::receive_text(r#"{"type":"streamOpen","session":"s"}"#),
        Ok(CloudEvent::StreamOpen {
            session: "s".into()
        })
    );
    assert_eq!(
        intents::receive_text(r#"{"type":"debugFile","file":"/tmp/a.wav"}"#),
        Ok(CloudEvent::Other {
            message: "debugFile"
        })
    );
}

/// The bytes the cloud process sends for a `result`.
fn packed_result(intent: &str, parameters: &str) -> Vec<u8> {
    Message::Result(IntentResult {
        intent: intent.into(),
        parameters: parameters.into(),
        metadata: "text: set a timer for five minutes confidence: 0.93 handler: intent".into(),
    })
    .pack()
    .unwrap()
}

// Binary path: a packed `Message::Result` through `intents::receive` and `handle_cloud`;
// every other member converts to its `CloudEvent`.
#[test]
fn packed_messages_through_receive_and_handle() {
    let bytes = packed_result(
        "intent_clock_settimer_extend",
        "{\"timer_duration\":\"300\"}\n",
    );
    assert_eq!(bytes[0], 9);
    let ev = intents::receive(&bytes).unwrap();
    assert_eq!(
        ev,
        CloudEvent::Result {
            intent: "intent_clock_settimer_extend".into(),
            parameters: "{\"timer_duration\":\"300\"}\n".into(),
            metadata: "text: set a timer for five minutes confidence: 0.93 handler: intent".into()
        }
    );
    let mut c = intents::component();
    assert_eq!(
        c.handle_cloud(ev),
        IntakeOutcome::Pending {
            tag: Tag::SetTimer,
            matched: cloud("intent_clock_settimer_extend")
        }
    );
    assert_eq!(pending(&c), Some(timer(300)));

    let others: [(Message, CloudEvent, IntakeOutcome<Tag>); 4] = [
        (
            Message::Error(IntentError {
                error: ErrorType::Connectivity,
                extra: "no route".into(),
            }),
            CloudEvent::Error {
                error: "Connectivity",
                extra: "no route".into(),
            },
            IntakeOutcome::ErrorFlagSet,
        ),
        (
            Message::StreamTimeout(Void {}),
            CloudEvent::StreamTimeout,
            IntakeOutcome::ErrorFlagSet,
        ),
        (
            Message::StreamOpen(StreamOpen {
                session: "abc".into(),
            }),
            CloudEvent::StreamOpen {
                session: "abc".into(),
            },
            IntakeOutcome::StreamOpened,
        ),
        (
            Message::DebugFile(Filename {
                file: "/tmp/a.wav".into(),
            }),
            CloudEvent::Other {
                message: "debugFile",
            },
            IntakeOutcome::Ignored,
        ),
    ];
    for (msg, expected, outcome) in others {
        let ev = intents::receive(&msg.pack().unwrap()).unwrap();
        assert_eq!(ev, expected);
        assert_eq!(c.handle_cloud(ev), outcome);
    }
    // None of them touched the pending intent.
    assert_eq!(pending(&c), Some(timer(300)));
}

// Binary path, bad bytes: truncated datagrams and garbage give a typed `UnpackError`
// (kind, offset, field path) and the component stays usable.
#[test]
fn truncated_and_garbage_bytes_give_typed_unpack_errors() {
    let bytes = packed_result(
        "intent_clock_settimer_extend",
        "{\"timer_duration\":\"300\"}",
    );
    // Every strict prefix is truncated.
    for cut in 0..bytes.len() {
        let err = intents::receive(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(err.kind(), UnpackErrorKind::Truncated { .. }),
            "{cut}: {err}"
        );
    }
    let err = intents::receive(&bytes[..5]).unwrap_err();
    assert_eq!(
        *err.kind(),
        UnpackErrorKind::Truncated { need: 28, left: 3 }
    );
    assert_eq!(err.offset(), 2);
    assert_eq!(
        err.to_string(),
        "truncated input at byte 2 while reading CloudMic::Message.result.intent: need 28 bytes, 3 left"
    );

    let mut trailing = bytes.clone();
    trailing.push(0);
    let invalid_utf8 = [9, 2, 0xC3, 0x28, 0, 0, 0, 0];
    let cases: Vec<(&[u8], UnpackErrorKind, usize)> = vec![
        (&[], UnpackErrorKind::Truncated { need: 1, left: 0 }, 0),
        // The original's 1-byte NUL "reconnect" packet is `hotword` without its fields.
        (&[0], UnpackErrorKind::Truncated { need: 1, left: 0 }, 1),
        (
            &[200, 1, 2],
            UnpackErrorKind::UnknownTag {
                type_name: "CloudMic::Message",
                tag: 200,
            },
            0,
        ),
        (
            &[0xFF],
            UnpackErrorKind::InvalidTag {
                type_name: "CloudMic::Message",
            },
            0,
        ),
        (
            &trailing,
            UnpackErrorKind::TrailingBytes {
                type_name: "CloudMic::Message",
                left: 1,
            },
            bytes.len(),
        ),
        (
            &invalid_utf8,
            UnpackErrorKind::InvalidUtf8 { valid_up_to: 0 },
            2,
        ),
        (
            &[10, 99, 0],
            UnpackErrorKind::InvalidEnum {
                type_name: "CloudMic::ErrorType",
                value: 99,
            },
            1,
        ),
    ];
    let mut c = intents::component();
    for (input, kind, offset) in cases {
        let err = intents::receive(input).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (&kind, offset),
            "{input:?}: {err}"
        );
    }
    // Nothing reached the component; it still works.
    c.update();
    assert_eq!(c.events(), []);
    let ev = intents::receive(&packed_result("intent_imperative_come", "")).unwrap();
    c.handle_cloud(ev);
    assert_eq!(
        c.events(),
        [voice_pending(
            Tag::ImperativeCome,
            cloud("intent_imperative_come")
        )]
    );
}

// ----- feature gates and simple voice responses --------------------------------------------------

// §1.3 / §6.7 the stock feature set (`intents::stock_features`): `GazeDirection` and
// `Messaging` are off (unmatched, "huh?"), every other feature of our map is on; enabled
// with `set_feature_gate`, the entry maps, and a live gate is read at lookup time.
#[test]
fn stock_features_turn_off_gaze_direction_and_messaging() {
    let mut c = intents::component();
    let gated = Match::Unmatched(UnmatchedReason::FeatureDisabled {
        intent: "intent_imperative_lookoverthere",
        feature: "GazeDirection",
    });
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: gated.clone()
        }
    );
    assert_eq!(pending(&c), Some(unmatched()));
    assert_eq!(
        c.handle_cloud(result(
            "intent_message_playmessage_extend",
            "{\"given-name\":\"Bob\"}"
        )),
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::FeatureDisabled {
                intent: "intent_message_playmessage_extend",
                feature: "Messaging",
            })
        }
    );
    // Every other stock feature is on.
    assert_eq!(
        c.handle_cloud(result("intent_imperative_fetchcube", "")),
        IntakeOutcome::Pending {
            tag: Tag::ImperativeFetchcube,
            matched: cloud("intent_imperative_fetchcube")
        }
    );

    c.set_feature_gate(|f: &str| f == "GazeDirection" || intents::stock_features(f));
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        IntakeOutcome::Pending {
            tag: Tag::ImperativeLookoverthere,
            matched: cloud("intent_imperative_lookoverthere")
        }
    );
    assert_eq!(
        pending(&c),
        Some(UserIntent::ImperativeLookoverthere(UserIntentVoid {}))
    );

    // A live feature set.
    let gaze = Arc::new(AtomicBool::new(false));
    let live = gaze.clone();
    c.set_feature_gate(move |f: &str| f != "GazeDirection" || live.load(Ordering::Relaxed));
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: gated
        }
    );
    gaze.store(true, Ordering::Relaxed);
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        IntakeOutcome::Pending {
            tag: Tag::ImperativeLookoverthere,
            matched: cloud("intent_imperative_lookoverthere")
        }
    );
}

// §1.4 simple voice responses of our map: built from the table (defaults filled in),
// params ignored, gated by their feature.
#[test]
fn simple_voice_responses_from_our_map() {
    let mut c = intents::component();
    let hello = UserIntent::SimpleVoiceResponse(MetaUserIntentSimpleVoiceResponse {
        anim_group: "ag_greeting_hello".into(),
        emotion_event: String::new(),
        active_feature: ActiveFeature::BasicVoiceCommand,
        disable_wakeword_turn: false,
    });
    let forward = UserIntent::SimpleVoiceResponse(MetaUserIntentSimpleVoiceResponse {
        anim_group: "ag_movement_forward_01".into(),
        emotion_event: String::new(),
        active_feature: ActiveFeature::BasicVoiceCommand,
        disable_wakeword_turn: true,
    });
    let simple = |intent: &'static str| Match::SimpleVoice { intent };
    assert_eq!(
        c.handle_cloud(result("intent_greeting_hello", "")),
        IntakeOutcome::Pending {
            tag: Tag::SimpleVoiceResponse,
            matched: simple("intent_greeting_hello")
        }
    );
    assert_eq!(pending(&c), Some(hello.clone()));
    assert_eq!(
        c.handle_cloud(result(
            "intent_imperative_forward",
            "{\"distance\":\"far\"}"
        )),
        IntakeOutcome::Pending {
            tag: Tag::SimpleVoiceResponse,
            matched: simple("intent_imperative_forward")
        }
    );
    assert_eq!(pending(&c), Some(forward));
    let t = c
        .translator()
        .translate_cloud("intent_greeting_hello", "[1]")
        .unwrap();
    assert_eq!(
        (t.intent, t.matched, t.params_ignored),
        (hello, simple("intent_greeting_hello"), true)
    );
    // Gated off → unmatched.
    c.set_feature_gate(|f: &str| f != "ReactToHello");
    assert_eq!(
        c.handle_cloud(result("intent_greeting_hello", "")),
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::FeatureDisabled {
                intent: "intent_greeting_hello",
                feature: "ReactToHello"
            })
        }
    );
}
