//! Bad and borderline cloud inputs through the intent component, over the generated test
//! union and its map (`schemas/test_user_intent*.{clad,json}`): one row per input, with the
//! outcome spec §1.6 / §6 documents for it, the exact `IntakeOutcome`, the exact events, the
//! pending intent afterwards and the intent-error flag; each handled directly and through
//! the cloud channel.

use robot_runtime::intent::{
    CloudErrorCause, CloudEvent, IntakeOutcome, IntentComponent, IntentEvent, IntentSource, Match,
    NumberError, Reaction, TranslateError, UnmatchedReason,
};
use robot_runtime_tests::{
    ActiveFeature, GlobalStop as UserIntentGlobalStop,
    KnowledgeResponse as UserIntentKnowledgeResponse,
    SimpleVoiceResponsePayload as MetaUserIntentSimpleVoiceResponse, TestName, TestTimeWithUnits,
    TimeInSeconds as UserIntentTimeInSeconds, TimeUnits, UserIntent, UserIntentTag as Tag,
    Void as UserIntentVoid, MAP,
};

const TIMER: &str = "intent_clock_settimer";

/// The component every row runs on: the test map, with `GazeDirection` off (as on a stock
/// robot) and every other feature on.
fn component() -> IntentComponent<UserIntent> {
    let mut c = IntentComponent::new(&MAP);
    c.set_feature_gate(|feature: &str| feature != "GazeDirection");
    c
}

/// One input and everything it must produce on a fresh component.
struct Row {
    /// What the spec says about this input.
    doc: &'static str,
    input: CloudEvent,
    outcome: IntakeOutcome<Tag>,
    events: Vec<IntentEvent<Tag>>,
    pending: Option<UserIntent>,
    error_flag: bool,
}

fn row(doc: &'static str, intent: &str, params: &str) -> (&'static str, CloudEvent) {
    (doc, CloudEvent::result(intent, params))
}

/// Mapped and pending, with source `Voice`.
fn ok((doc, input): (&'static str, CloudEvent), matched: Match<Tag>, intent: UserIntent) -> Row {
    let tag = intent.tag();
    Row {
        doc,
        input,
        outcome: IntakeOutcome::Pending {
            tag,
            matched: matched.clone(),
        },
        events: vec![IntentEvent::Pending {
            tag,
            source: IntentSource::Voice,
            matched,
        }],
        pending: Some(intent),
        error_flag: false,
    }
}

fn mapped(input: (&'static str, CloudEvent), intent: UserIntent) -> Row {
    let CloudEvent::Result { intent: name, .. } = &input.1 else {
        unreachable!()
    };
    let entry = MAP.cloud(name).unwrap();
    ok(
        input,
        Match::Cloud {
            intent: entry.intent,
        },
        intent,
    )
}

/// `unmatched_intent` pending for `reason` (the "huh?").
fn huh(input: (&'static str, CloudEvent), reason: UnmatchedReason<Tag>) -> Row {
    ok(
        input,
        Match::Unmatched(reason),
        UserIntent::UnmatchedIntent(UserIntentVoid {}),
    )
}

/// A translation error; `reaction` is its default one.
fn failed((doc, input): (&'static str, CloudEvent), error: TranslateError) -> Row {
    let CloudEvent::Result { intent, .. } = &input else {
        unreachable!()
    };
    let reaction = error.default_reaction();
    let mut events = vec![IntentEvent::TranslateFailed {
        source: IntentSource::Voice,
        intent: intent.as_str().into(),
        error: error.clone(),
        reaction,
    }];
    let (pending, error_flag) = match reaction {
        Reaction::Unmatched => {
            events.push(IntentEvent::Pending {
                tag: Tag::UnmatchedIntent,
                source: IntentSource::Voice,
                matched: Match::Unmatched(UnmatchedReason::TranslateFailed),
            });
            (Some(UserIntent::UnmatchedIntent(UserIntentVoid {})), false)
        }
        Reaction::ErrorFlag => {
            events.push(IntentEvent::CloudError {
                cause: CloudErrorCause::BadResult,
            });
            (None, true)
        }
        Reaction::Drop => (None, false),
    };
    Row {
        doc,
        input,
        outcome: IntakeOutcome::Failed { error, reaction },
        events,
        pending,
        error_flag,
    }
}

fn bad_json(line: usize, column: usize, reason: &str) -> TranslateError {
    TranslateError::BadParametersJson {
        line,
        column,
        reason: reason.into(),
    }
}

fn bad_number(param: &str, field: &str, value: &str, reason: NumberError) -> TranslateError {
    TranslateError::BadNumber {
        param: param.into(),
        field: field.into(),
        value: value.into(),
        reason,
    }
}

fn bad_payload(tag: &'static str, field: &str, reason: &str) -> TranslateError {
    TranslateError::BadPayload {
        tag,
        field: Some(field.into()),
        reason: reason.into(),
    }
}

fn timer(time_s: u32) -> UserIntent {
    UserIntent::SetTimer(UserIntentTimeInSeconds { time_s })
}

fn stop(what: &str) -> UserIntent {
    UserIntent::GlobalStop(UserIntentGlobalStop {
        what_to_stop: what.into(),
    })
}

fn rows() -> Vec<Row> {
    use TranslateError as E;
    let too_large = format!("{{\"answer\":\"{}\"}}", "a".repeat(65_537 - 13));
    let deep_extra = format!("{{\"x\":{}{}}}", "[".repeat(5000), "]".repeat(5000));
    let deep_field = format!("{{\"name\":{}{}}}", "[".repeat(5000), "]".repeat(5000));
    vec![
        // ----- the map ---------------------------------------------------------------------
        huh(
            row("§1.6 unknown cloud intent → unmatched", "intent_what", ""),
            UnmatchedReason::UnknownIntent {
                intent: "intent_what".into(),
            },
        ),
        huh(
            row(
                "§1.6 the cloud's gibberish intent → unmatched, params ignored",
                "intent_system_unsupported",
                "{\"a\":\"b\"}",
            ),
            UnmatchedReason::UnknownIntent {
                intent: "intent_system_unsupported".into(),
            },
        ),
        huh(
            row("§1.6 empty intent string → unmatched", "", "{\"a\":\"b\"}"),
            UnmatchedReason::EmptyIntent,
        ),
        huh(
            row(
                "§1.3 feature-gated (GazeDirection off) → unmatched",
                "intent_imperative_lookoverthere",
                "",
            ),
            UnmatchedReason::FeatureDisabled {
                intent: "intent_imperative_lookoverthere",
                feature: "GazeDirection",
            },
        ),
        huh(
            row(
                "map keys are case-sensitive → unmatched",
                "INTENT_IMPERATIVE_COME",
                "",
            ),
            UnmatchedReason::UnknownIntent {
                intent: "INTENT_IMPERATIVE_COME".into(),
            },
        ),
        // ----- malformed parameters text: §6.3, error flag (original: nothing, no flag) ----
        failed(
            row("§6.3 truncated JSON", TIMER, "{\"timer_duration\":"),
            bad_json(1, 18, "EOF while parsing a value at line 1 column 18"),
        ),
        failed(
            row(
                "§6.3 trailing characters",
                TIMER,
                "{\"timer_duration\":\"5\"} x",
            ),
            bad_json(1, 24, "trailing characters at line 1 column 24"),
        ),
        failed(
            row(
                "§6.3 invalid UTF-16 escape",
                "intent_knowledge_response_extend",
                "{\"answer\":\"\\ud800\"}",
            ),
            bad_json(
                1,
                18,
                "unexpected end of hex escape at line 1 column 18",
            ),
        ),
        failed(
            row("§6.3 parameters are an array", TIMER, "[\"5\"]"),
            E::ParametersNotObject { found: "an array" },
        ),
        failed(
            row("§6.3 parameters are a string", TIMER, "\"5\""),
            E::ParametersNotObject { found: "a string" },
        ),
        failed(
            row("§6.3 parameters are a number", TIMER, "5"),
            E::ParametersNotObject { found: "a number" },
        ),
        failed(
            row("§6.3 parameters are a boolean", TIMER, "true"),
            E::ParametersNotObject { found: "a bool" },
        ),
        failed(
            row(
                "§6.2 duplicate parameter",
                TIMER,
                "{\"timer_duration\":\"5\",\"timer_duration\":\"6\"}",
            ),
            E::DuplicateParameter {
                name: "timer_duration".into(),
            },
        ),
        failed(
            row(
                "§6.4 parameters above the 64 KiB limit (not reachable from the wire)",
                "intent_knowledge_response_extend",
                &too_large,
            ),
            E::ParametersTooLarge {
                len: 65_537,
                limit: 65_536,
            },
        ),
        // ----- content the robot cannot act on: "huh?" (original: nothing pending) ----------
        failed(
            row(
                "§1.6 rename target already present (original: verify, key skipped)",
                TIMER,
                "{\"timer_duration\":\"5\",\"time_s\":6}",
            ),
            E::RenameConflict {
                field: "time_s".into(),
                first: "timer_duration".into(),
                second: "time_s".into(),
            },
        ),
        failed(
            row("§1.6 data intent without params", TIMER, ""),
            E::MissingParameters { tag: "set_timer" },
        ),
        failed(
            row("§1.6 data intent with `{}` (Go's encoder)", TIMER, "{}\n"),
            E::MissingParameters { tag: "set_timer" },
        ),
        failed(
            row("§1.6 data intent with `null`", TIMER, "null"),
            E::MissingParameters { tag: "set_timer" },
        ),
        failed(
            row(
                "§6.1 numeric prefix is not a number (strict; original: 20)",
                TIMER,
                "{\"timer_duration\":\"20abc\"}",
            ),
            bad_number("timer_duration", "time_s", "20abc", NumberError::Invalid),
        ),
        failed(
            row("§6.1 empty numeric string", TIMER, "{\"timer_duration\":\"\"}"),
            bad_number("timer_duration", "time_s", "", NumberError::Empty),
        ),
        failed(
            row(
                "§6.1 leading whitespace (strict; original: skipped)",
                TIMER,
                "{\"timer_duration\":\" 5\"}",
            ),
            bad_number("timer_duration", "time_s", " 5", NumberError::Invalid),
        ),
        failed(
            row(
                "§6.1 numeric param that is not a string",
                TIMER,
                "{\"timer_duration\":true}",
            ),
            bad_number("timer_duration", "time_s", "true", NumberError::NotAString),
        ),
        failed(
            row(
                "§6.1 numeric overflow of a 64-bit integer",
                TIMER,
                "{\"timer_duration\":\"99999999999999999999\"}",
            ),
            bad_number(
                "timer_duration",
                "time_s",
                "99999999999999999999",
                NumberError::OutOfRange,
            ),
        ),
        failed(
            row(
                "§1.6 negative into uint_32",
                TIMER,
                "{\"timer_duration\":\"-5\"}",
            ),
            bad_payload(
                "set_timer",
                "time_s",
                "invalid value: integer `-5`, expected u32",
            ),
        ),
        failed(
            row(
                "§1.6 above uint_32",
                TIMER,
                "{\"timer_duration\":\"4294967296\"}",
            ),
            bad_payload(
                "set_timer",
                "time_s",
                "invalid value: integer `4294967296`, expected u32",
            ),
        ),
        failed(
            row(
                "§6.1 fraction into uint_32 (original: truncated)",
                TIMER,
                "{\"timer_duration\":\"10.5\"}",
            ),
            bad_payload(
                "set_timer",
                "time_s",
                "invalid type: floating point `10.5`, expected u32",
            ),
        ),
        failed(
            row(
                "§1.6 unknown enum name",
                "intent_test_time",
                "{\"timer_duration.time\":\"5\",\"timer_duration.units\":\"h\"}",
            ),
            bad_payload(
                "test_timeWithUnits",
                "units",
                "unknown variant `h`, expected `s` or `m`",
            ),
        ),
        failed(
            row(
                "§6.2 number for a string field (original: stringified)",
                "intent_test_name",
                "{\"name\":5}",
            ),
            bad_payload(
                "test_name",
                "name",
                "invalid type: integer `5`, expected a string",
            ),
        ),
        failed(
            row(
                "§6.2 boolean for a string field (original: stringified)",
                "intent_global_stop_extend",
                "{\"what_to_stop\":true}",
            ),
            bad_payload(
                "global_stop",
                "what_to_stop",
                "invalid type: boolean `true`, expected a string",
            ),
        ),
        failed(
            row(
                "a non-structure member out of its range",
                "intent_test_value",
                "{\"value\":300}",
            ),
            bad_payload(
                "test_value",
                "value",
                "invalid value: integer `300`, expected u8",
            ),
        ),
        failed(
            row("deep nesting in a field", "intent_test_name", &deep_field),
            bad_json(1, 135, "recursion limit exceeded at line 1 column 135"),
        ),
        failed(
            row(
                "§1.6 object for a string field",
                "intent_global_stop_extend",
                "{\"what_to_stop\":{\"a\":1}}",
            ),
            bad_payload(
                "global_stop",
                "what_to_stop",
                "invalid type: map, expected a string",
            ),
        ),
        // ----- accepted ------------------------------------------------------------------------
        mapped(
            row(
                "numeric param already a JSON number",
                TIMER,
                "{\"timer_duration\":20}",
            ),
            timer(20),
        ),
        mapped(
            row(
                "integral float string fills an integer field",
                TIMER,
                "{\"timer_duration\":\"10.0\"}",
            ),
            timer(10),
        ),
        mapped(
            row(
                "JSON whitespace around the parameters",
                TIMER,
                "  {\n \"timer_duration\" : \"5\" }  \n",
            ),
            timer(5),
        ),
        mapped(
            row(
                "§1.6 missing fields are defaulted",
                "intent_global_stop_extend",
                "{\"other\":\"x\"}",
            ),
            stop(""),
        ),
        mapped(
            row(
                "§6.2 a `type` parameter cannot clobber the member",
                "intent_global_stop_extend",
                "{\"type\":\"set_timer\",\"what_to_stop\":\"timer\"}",
            ),
            stop("timer"),
        ),
        mapped(
            row(
                "§1.6 extra params (knowledge graph) are ignored",
                "intent_knowledge_response_extend",
                "{\"answer\":\"Paris\",\"answer_type\":\"InformationAnswer\",\"domains.0\":\"geo\",\"query_text\":\"capital of France\"}\n",
            ),
            UserIntent::KnowledgeResponse(UserIntentKnowledgeResponse {
                answer: "Paris".into(),
                query_text: "capital of France".into(),
            }),
        ),
        mapped(
            row(
                "§1.6 void intent, unparsable params ignored",
                "intent_imperative_come",
                "{{{",
            ),
            UserIntent::ImperativeCome(UserIntentVoid {}),
        ),
        mapped(
            row(
                "deep nesting in a parameter that is not a field (skipped)",
                "intent_test_name",
                &deep_extra,
            ),
            UserIntent::TestName(TestName::default()),
        ),
        mapped(
            row(
                "dotted names renamed, converted, and an enum by name",
                "intent_test_time",
                "{\"timer_duration.time\":\"10\",\"timer_duration.units\":\"m\"}",
            ),
            UserIntent::TestTimeWithUnits(TestTimeWithUnits {
                time: 10,
                units: TimeUnits::M,
            }),
        ),
        ok(
            row(
                "§1.6 simple voice response, params ignored",
                "intent_greeting_hello",
                "[]",
            ),
            Match::SimpleVoice {
                intent: "intent_greeting_hello",
            },
            UserIntent::SimpleVoiceResponse(MetaUserIntentSimpleVoiceResponse {
                anim_group: "ag_greeting_hello".into(),
                emotion_event: String::new(),
                active_feature: ActiveFeature::ReactToHello,
                disable_wakeword_turn: false,
            }),
        ),
        // ----- other cloud messages --------------------------------------------------------
        Row {
            doc: "§1.6 cloud error → error flag",
            input: CloudEvent::Error {
                error: "Server",
                extra: "500".into(),
            },
            outcome: IntakeOutcome::ErrorFlagSet,
            events: vec![IntentEvent::CloudError {
                cause: CloudErrorCause::Error {
                    error: "Server",
                    extra: "500".into(),
                },
            }],
            pending: None,
            error_flag: true,
        },
        Row {
            doc: "§1.6 stream timeout → error flag (§6.6: no union misuse)",
            input: CloudEvent::StreamTimeout,
            outcome: IntakeOutcome::ErrorFlagSet,
            events: vec![IntentEvent::CloudError {
                cause: CloudErrorCause::StreamTimeout,
            }],
            pending: None,
            error_flag: true,
        },
        Row {
            doc: "§1.6 stream open → stream flag",
            input: CloudEvent::StreamOpen {
                session: "s".into(),
            },
            outcome: IntakeOutcome::StreamOpened,
            events: vec![IntentEvent::StreamOpened],
            pending: None,
            error_flag: false,
        },
        Row {
            doc: "§1.6 other members (debugFile) → skipped",
            input: CloudEvent::Other {
                message: "debugFile",
            },
            outcome: IntakeOutcome::Ignored,
            events: vec![IntentEvent::CloudIgnored {
                message: "debugFile",
            }],
            pending: None,
            error_flag: false,
        },
    ]
}

// §1.6 failure table / §6.1–6.6: every bad or borderline input with its documented outcome,
// exact events, pending intent and error flag — handled directly and through the channel.
#[test]
fn bad_inputs_table() {
    let rows = rows();
    assert_eq!(rows.len(), 46);
    for r in rows {
        let doc = r.doc;
        let mut c = component();
        let out = c.handle_cloud(r.input.clone());
        assert_eq!(out, r.outcome, "{doc}");
        let events: Vec<_> = c.drain_events().collect();
        assert_eq!(events, r.events, "{doc}");
        assert_eq!(c.pending().map(|p| p.intent().clone()), r.pending, "{doc}");
        if let Some(p) = c.pending() {
            assert_eq!(p.source(), IntentSource::Voice, "{doc}");
        }
        assert_eq!(c.was_error(), r.error_flag, "{doc}");
        if let IntakeOutcome::Failed { error, .. } = &out {
            assert!(!error.to_string().is_empty(), "{doc}");
        }

        // The same through the cloud channel and a tick.
        let mut c = component();
        c.cloud_sender().send(r.input).unwrap();
        c.update();
        assert_eq!(c.events(), r.events, "{doc} (channel)");
        assert_eq!(
            c.pending().map(|p| p.intent().clone()),
            r.pending,
            "{doc} (channel)"
        );
        assert_eq!(c.was_error(), r.error_flag, "{doc} (channel)");
    }
}

// The failure messages name the parameter, the field and the reason (rendered for the logs).
#[test]
fn translate_errors_render_what_went_wrong() {
    let c = component();
    let t = c.translator();
    let msg =
        |intent: &str, params: &str| t.translate_cloud(intent, params).unwrap_err().to_string();
    assert_eq!(
        msg(TIMER, "{\"timer_duration\":\"soon\"}"),
        "parameter `timer_duration` (field `time_s`) = \"soon\": not a number"
    );
    assert_eq!(
        msg(TIMER, "{\"timer_duration\":\"-5\"}"),
        "`set_timer` payload rejected at field `time_s`: invalid value: integer `-5`, expected u32"
    );
    assert_eq!(
        msg(TIMER, ""),
        "`set_timer` needs parameters and there are none"
    );
    assert_eq!(
        msg(TIMER, "[]"),
        "parameters are an array, not a JSON object"
    );
    assert_eq!(
        msg(TIMER, "{\"timer_duration\":\"5\",\"time_s\":6}"),
        "parameters `timer_duration` and `time_s` both become field `time_s`"
    );
}
