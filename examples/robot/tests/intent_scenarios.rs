//! The original robot's `UserIntentMap` test scenarios (spec §4.4), reproduced with the
//! types `build.rs` generates from `schemas/userIntent.clad` / `schemas/cloud.clad` and the
//! map compiled from `schemas/user_intent_map.json` (`USER_INTENT_MAP`), plus the paths the
//! robot really uses: CLAD-JSON text, packed `CloudMic::Message` bytes, the cloud channel,
//! the stock feature gate and the simple voice responses of our map.

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use robot_example::clad::anki::vector::{
    ActiveFeature, FeatureType, HriGazeMode, MetaUserIntentSimpleVoiceResponse, UserIntentEyeColor,
    UserIntentGlobalStop, UserIntentHriGaze, UserIntentHriObject, UserIntentKnowledgeResponse,
    UserIntentMeetVictor, UserIntentPlaybackMessage, UserIntentRecordMessage, UserIntentTakeAPhoto,
    UserIntentTestTimeWithUnits, UserIntentTestUnits, UserIntentTimeInSeconds, UserIntentVoid,
    UserIntentVolume, UserIntentWeatherResponse,
};
use robot_example::clad::cloud_mic::{
    ErrorType, Filename, IntentError, IntentResult, Message, StreamOpen, Void,
};
use robot_example::intents::{self, Tag, UserIntent, USER_INTENT_MAP};
use robot_runtime::intent::{
    ActivationId, ClaimError, CloudErrorCause, CloudEvent, CloudJsonError, CloudOutcome,
    DeactivateReason, DropReason, ExpandedJsonError, Flag, IntentComponent, IntentEvent,
    IntentSource, MapEntry, Match, NumberError, Owner, Reaction, Sanitation, StaticIntentMap,
    TranslateError, UnmatchedReason,
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

fn id(n: u64) -> ActivationId {
    ActivationId(NonZeroU64::new(n).unwrap())
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
    // Completeness: the members the original required in the map.
    let separator = Tag::TestSeparator.value();
    for &tag in &Tag::ALL[1..usize::from(separator)] {
        assert!(
            USER_INTENT_MAP.cloud.iter().any(|e| e.tag == tag),
            "{} has no cloud intent",
            tag.name()
        );
    }
}

// ----- trigger word --------------------------------------------------------------------------

// §4.4 trigger word set/clear and non-queuing; §2.3 its 3-tick deadline; §2.4 a trigger
// word clears a stale cloud error; suppression guard.
#[test]
fn trigger_word_set_clear_and_no_queuing() {
    let mut c = intents::component();
    assert!(!c.is_trigger_word_pending());
    assert!(!c.clear_trigger_word());
    assert!(c.set_trigger_word_pending(true, false));
    assert!(c.is_trigger_word_pending());
    assert!(c.will_pending_trigger_word_open_stream());
    assert!(c.set_trigger_word_pending(false, false));
    assert!(c.is_trigger_word_pending());
    assert!(!c.will_pending_trigger_word_open_stream());
    assert!(c.clear_trigger_word());
    assert!(!c.is_trigger_word_pending());
    assert_eq!(
        events(&mut c),
        [
            IntentEvent::TriggerWordPending {
                will_open_stream: true,
                from_mute: false,
                replaced: false
            },
            IntentEvent::TriggerWordPending {
                will_open_stream: false,
                from_mute: false,
                replaced: true
            },
            IntentEvent::TriggerWordCleared,
        ]
    );

    // A cloud timeout sets the error flag; the next trigger word clears it.
    assert_eq!(
        c.handle_cloud(Message::StreamTimeout(Void {}).into()),
        CloudOutcome::ErrorFlagSet
    );
    assert!(c.was_error());
    assert!(c.set_trigger_word_pending(true, false));
    assert!(!c.was_error());
    assert_eq!(
        events(&mut c),
        [
            IntentEvent::CloudError {
                cause: CloudErrorCause::StreamTimeout
            },
            IntentEvent::FlagCleared { flag: Flag::Error },
            IntentEvent::TriggerWordPending {
                will_open_stream: true,
                from_mute: false,
                replaced: false
            },
        ]
    );
    // Unclaimed, it expires: warning one tick before, dropped at 3.
    c.update();
    assert_eq!(c.events(), []);
    c.update();
    assert_eq!(c.events(), [IntentEvent::TriggerWordDeadlineNear]);
    assert!(c.is_trigger_word_pending());
    c.update();
    assert_eq!(events(&mut c), [IntentEvent::TriggerWordDropped]);
    assert!(!c.is_trigger_word_pending());

    // While suppressed, ignored (except from the mute button).
    let suppression = c.suppress_trigger_word();
    assert!(!c.set_trigger_word_pending(true, false));
    assert!(!c.is_trigger_word_pending());
    assert!(c.set_trigger_word_pending(false, true));
    drop(suppression);
    assert!(c.set_trigger_word_pending(true, false));
    assert_eq!(
        events(&mut c),
        [
            IntentEvent::TriggerWordSuppressed,
            IntentEvent::TriggerWordPending {
                will_open_stream: false,
                from_mute: true,
                replaced: false
            },
            IntentEvent::TriggerWordPending {
                will_open_stream: true,
                from_mute: false,
                replaced: true
            },
        ]
    );
}

// ----- pending → active → inactive -----------------------------------------------------------

// §4.4 pending → activate → deactivate transitions and `source` propagation (voice from a
// cloud result, app from an app intent), with activation IDs and the exact event stream.
#[test]
fn pending_active_inactive_with_voice_and_app_source() {
    let mut c = intents::component();
    c.update(); // tick 1
    let out = c.handle_cloud(result(
        "intent_clock_settimer_extend",
        "{\"timer_duration\":\"300\"}\n",
    ));
    assert_eq!(
        out,
        CloudOutcome::Pending {
            tag: Tag::SetTimer,
            matched: cloud("intent_clock_settimer_extend")
        }
    );
    let p = c.pending().unwrap();
    assert_eq!(
        (p.tag(), p.source(), p.intent(), p.matched(), p.since_tick()),
        (
            Tag::SetTimer,
            IntentSource::Voice,
            &timer(300),
            &cloud("intent_clock_settimer_extend"),
            1
        )
    );
    assert!(c.is_pending(Tag::SetTimer) && !c.is_pending(Tag::GlobalStop));
    assert!(!c.is_any_active() && c.is_any_pending_or_active());

    let guard = c.activate(Tag::SetTimer, "TimerCoordinator").unwrap();
    assert_eq!(
        (
            guard.id(),
            guard.tag(),
            guard.source(),
            guard.owner(),
            guard.intent(),
            guard.matched(),
            guard.activated_tick(),
            guard.is_current()
        ),
        (
            id(1),
            Tag::SetTimer,
            IntentSource::Voice,
            &Owner::from("TimerCoordinator"),
            &timer(300),
            &cloud("intent_clock_settimer_extend"),
            1,
            true
        )
    );
    assert_eq!(c.pending_tag(), None);
    assert_eq!(c.active_tag(), Some(Tag::SetTimer));
    assert_eq!(c.active().unwrap().id(), id(1));
    guard.release(&mut c).unwrap();
    assert_eq!((c.pending_tag(), c.active_tag()), (None, None));
    assert_eq!(
        events(&mut c),
        [
            voice_pending(Tag::SetTimer, cloud("intent_clock_settimer_extend")),
            IntentEvent::Activated {
                id: id(1),
                tag: Tag::SetTimer,
                source: IntentSource::Voice,
                owner: "TimerCoordinator".into()
            },
            IntentEvent::Deactivated {
                id: id(1),
                tag: Tag::SetTimer,
                reason: DeactivateReason::Released
            },
        ]
    );

    // App source; dropping the guard deactivates at once, reported at the next call.
    let out = c.handle_app_intent("intent_meet_victor", "cozmo");
    let app = Match::App {
        intent: "intent_meet_victor",
    };
    assert_eq!(
        out,
        CloudOutcome::Pending {
            tag: Tag::MeetVictor,
            matched: app.clone()
        }
    );
    let victor = UserIntent::MeetVictor(UserIntentMeetVictor {
        username: "cozmo".into(),
    });
    let guard = c.activate(Tag::MeetVictor, "MeetVictor").unwrap();
    assert_eq!(
        (guard.id(), guard.source(), guard.intent()),
        (id(2), IntentSource::App, &victor)
    );
    drop(guard);
    assert_eq!(c.active_tag(), None);
    assert_eq!(
        events(&mut c),
        [
            IntentEvent::Pending {
                tag: Tag::MeetVictor,
                source: IntentSource::App,
                matched: app
            },
            IntentEvent::Activated {
                id: id(2),
                tag: Tag::MeetVictor,
                source: IntentSource::App,
                owner: "MeetVictor".into()
            },
        ]
    );
    c.update();
    assert_eq!(
        c.events(),
        [IntentEvent::Deactivated {
            id: id(2),
            tag: Tag::MeetVictor,
            reason: DeactivateReason::GuardDropped
        }]
    );
}

// §2.5 / §6.14 activation guards: activating what is not pending and double activation
// are typed errors that change nothing; `activate_replacing` supersedes.
#[test]
fn activation_errors_are_typed_and_change_nothing() {
    let mut c = intents::component();
    assert_eq!(
        c.activate(Tag::ImperativeCome, "b").unwrap_err(),
        ClaimError::NotPending { pending: None }
    );
    c.handle_cloud(result("intent_imperative_come", ""));
    assert_eq!(
        c.activate(Tag::SetTimer, "b").unwrap_err(),
        ClaimError::NotPending {
            pending: Some(Tag::ImperativeCome)
        }
    );
    let first = c.activate(Tag::ImperativeCome, "ComeHere").unwrap();
    c.handle_cloud(result("intent_imperative_dance", ""));
    assert_eq!(
        c.activate(Tag::ImperativeDance, "Dance").unwrap_err(),
        ClaimError::AlreadyActive {
            id: id(1),
            tag: Tag::ImperativeCome
        }
    );
    assert_eq!(
        (c.pending_tag(), c.active_tag()),
        (Some(Tag::ImperativeDance), Some(Tag::ImperativeCome))
    );
    events(&mut c);
    let second = c.activate_replacing(Tag::ImperativeDance, "Dance").unwrap();
    assert!(!first.is_current() && second.is_current());
    assert_eq!(
        events(&mut c),
        [
            IntentEvent::Deactivated {
                id: id(1),
                tag: Tag::ImperativeCome,
                reason: DeactivateReason::Superseded
            },
            IntentEvent::Activated {
                id: id(2),
                tag: Tag::ImperativeDance,
                source: IntentSource::Voice,
                owner: "Dance".into()
            },
        ]
    );
}

// ----- cloud mapping ---------------------------------------------------------------------------

// §4.4 cloud mapping and unmatched fallback: every void entry of our map that the stock
// gate enables maps to its member; unknown and empty intents become `unmatched_intent`.
#[test]
fn cloud_mapping_and_unmatched_fallback() {
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
            CloudOutcome::Pending {
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

    let unknown = Match::Unmatched(UnmatchedReason::UnknownIntent {
        intent: "intent_system_unsupported".into(),
    });
    assert_eq!(
        c.handle_cloud(result("intent_system_unsupported", "")),
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: unknown.clone()
        }
    );
    assert_eq!(pending(&c), Some(unmatched()));
    let empty = Match::Unmatched(UnmatchedReason::EmptyIntent);
    assert_eq!(
        c.handle_cloud(result("", "{\"a\":\"b\"}")),
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: empty.clone()
        }
    );
    // Cloud intents are not app intents and vice versa.
    let not_app = Match::Unmatched(UnmatchedReason::UnknownIntent {
        intent: "intent_imperative_come".into(),
    });
    assert_eq!(
        c.handle_app_intent("intent_imperative_come", ""),
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: not_app.clone()
        }
    );
    assert_eq!(
        events(&mut c),
        [
            voice_pending(Tag::UnmatchedIntent, unknown),
            IntentEvent::Replaced {
                old: Tag::UnmatchedIntent,
                old_source: IntentSource::Voice,
                new: Tag::UnmatchedIntent
            },
            voice_pending(Tag::UnmatchedIntent, empty),
            IntentEvent::Replaced {
                old: Tag::UnmatchedIntent,
                old_source: IntentSource::Voice,
                new: Tag::UnmatchedIntent
            },
            IntentEvent::Pending {
                tag: Tag::UnmatchedIntent,
                source: IntentSource::App,
                matched: not_app
            },
        ]
    );
}

// §4.4 `DropUserIntent` with the wrong tag is a no-op (no state change, no event).
#[test]
fn dropping_with_the_wrong_tag_is_a_no_op() {
    let mut c = intents::component();
    c.handle_cloud(result(
        "intent_clock_settimer_extend",
        "{\"timer_duration\":\"60\"}",
    ));
    events(&mut c);
    assert_eq!(
        c.drop_pending(Tag::ImperativeCome).unwrap_err(),
        ClaimError::NotPending {
            pending: Some(Tag::SetTimer)
        }
    );
    assert_eq!(pending(&c), Some(timer(60)));
    assert_eq!(events(&mut c), []);
    let dropped = c.drop_pending(Tag::SetTimer).unwrap();
    assert_eq!(
        (dropped.tag(), dropped.source(), dropped.into_intent()),
        (Tag::SetTimer, IntentSource::Voice, timer(60))
    );
    assert_eq!(
        c.drop_pending(Tag::SetTimer).unwrap_err(),
        ClaimError::NotPending { pending: None }
    );
    assert!(c.drop_any_pending().is_none());
    assert_eq!(
        events(&mut c),
        [IntentEvent::Dropped {
            tag: Tag::SetTimer,
            source: IntentSource::Voice,
            reason: DropReason::Requested
        }]
    );
    assert!(!c.was_unclaimed());
}

// ----- app intents -------------------------------------------------------------------------------

// §4.4 app intent broadcast with `param` substitution: our map's `intent_clock_settimer`
// (`param` → `time_s`, numeric) and `intent_meet_victor` (`param` → `username`).
#[test]
fn app_intent_with_param_substitution() {
    let mut c = intents::component();
    let app = |intent: &'static str| Match::App { intent };
    assert_eq!(
        c.handle_app_intent("intent_clock_settimer", "90"),
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
            tag: Tag::ExploreStart,
            matched: app("explore_start")
        }
    );
    assert_eq!(
        pending(&c),
        Some(UserIntent::ExploreStart(UserIntentVoid {}))
    );
    // A non-numeric timer: typed error, the robot says "huh?".
    let error = TranslateError::BadNumber {
        param: "param".into(),
        field: "time_s".into(),
        value: "soon".into(),
        reason: NumberError::Invalid,
    };
    assert_eq!(
        c.handle_app_intent("intent_clock_settimer", "soon"),
        CloudOutcome::Failed {
            error: error.clone(),
            reaction: Reaction::Unmatched
        }
    );
    assert_eq!(pending(&c), Some(unmatched()));
    let ev = events(&mut c);
    assert_eq!(
        ev[ev.len() - 3..],
        [
            IntentEvent::TranslateFailed {
                source: IntentSource::App,
                intent: "intent_clock_settimer".into(),
                error,
                reaction: Reaction::Unmatched
            },
            IntentEvent::Replaced {
                old: Tag::ExploreStart,
                old_source: IntentSource::App,
                new: Tag::UnmatchedIntent
            },
            IntentEvent::Pending {
                tag: Tag::UnmatchedIntent,
                source: IntentSource::App,
                matched: Match::Unmatched(UnmatchedReason::TranslateFailed)
            },
        ]
    );
}

// ----- expiry ------------------------------------------------------------------------------------

// §4.4 expiry clears a pending intent after the claim deadline (3 ticks): warning at 2,
// `Dropped { Expired }` + `Unclaimed` and the sticky unclaimed flag at 3; a `TimeoutHold`
// suspends expiry and its release gives a fresh window.
#[test]
fn unclaimed_intent_expires_after_the_claim_deadline() {
    let mut c = intents::component();
    let tx = c.cloud_sender();
    tx.send(Message::Result(IntentResult {
        intent: "intent_imperative_come".into(),
        parameters: String::new(),
        metadata: String::new(),
    }))
    .unwrap();
    c.update(); // tick 1: handled, visible to behaviors
    assert_eq!(
        c.events(),
        [voice_pending(
            Tag::ImperativeCome,
            cloud("intent_imperative_come")
        )]
    );
    assert_eq!(c.pending().unwrap().since_tick(), 1);
    c.update(); // tick 2
    assert_eq!(c.events(), []);
    assert!(c.is_pending(Tag::ImperativeCome));
    c.update(); // tick 3: last tick it is visible
    assert_eq!(
        c.events(),
        [IntentEvent::ClaimDeadlineNear {
            tag: Tag::ImperativeCome,
            age_ticks: 2
        }]
    );
    assert!(c.is_pending(Tag::ImperativeCome) && !c.was_unclaimed());
    c.update(); // tick 4: gone before behaviors run
    assert_eq!(
        c.events(),
        [
            IntentEvent::Dropped {
                tag: Tag::ImperativeCome,
                source: IntentSource::Voice,
                reason: DropReason::Expired { age_ticks: 3 }
            },
            IntentEvent::Unclaimed {
                tag: Tag::ImperativeCome,
                source: IntentSource::Voice
            },
        ]
    );
    assert_eq!(c.pending_tag(), None);
    assert!(c.was_unclaimed());
    c.reset_unclaimed();
    assert!(!c.was_unclaimed());
    assert_eq!(
        c.events().last(),
        Some(&IntentEvent::FlagCleared {
            flag: Flag::Unclaimed
        })
    );

    // A hold suspends expiry; dropping the last one restarts the window.
    c.handle_app_intent("intent_meet_victor", "x");
    let hold = c.hold_timeout();
    assert!(c.is_timeout_held());
    for _ in 0..10 {
        c.update();
        assert!(c.is_pending(Tag::MeetVictor));
        assert_eq!(c.events(), []);
    }
    drop(hold);
    c.update();
    assert_eq!(c.events(), [IntentEvent::TimeoutResumed]);
    c.update();
    c.update();
    assert_eq!(
        c.events(),
        [IntentEvent::ClaimDeadlineNear {
            tag: Tag::MeetVictor,
            age_ticks: 2
        }]
    );
    c.update();
    assert_eq!(
        c.events(),
        [
            IntentEvent::Dropped {
                tag: Tag::MeetVictor,
                source: IntentSource::App,
                reason: DropReason::Expired { age_ticks: 3 }
            },
            IntentEvent::Unclaimed {
                tag: Tag::MeetVictor,
                source: IntentSource::App
            },
        ]
    );
}

// ----- invalid input ------------------------------------------------------------------------------

// §4.4 invalid JSON / missing `intent` → rejected and nothing pending (expanded-JSON entry
// point); a valid expanded JSON goes through the map.
#[test]
fn invalid_json_and_missing_intent_key() {
    let mut c = intents::component();
    assert_eq!(
        c.handle_expanded_json("{not json"),
        Err(ExpandedJsonError::BadJson {
            reason: "key must be a string at line 1 column 2".into()
        })
    );
    assert_eq!(
        c.handle_expanded_json(r#"{"params":{"timer_duration":"5"}}"#),
        Err(ExpandedJsonError::MissingIntentKey)
    );
    assert_eq!(
        c.handle_expanded_json(r#"{"intent":5}"#),
        Err(ExpandedJsonError::MissingIntentKey)
    );
    assert_eq!(
        c.handle_expanded_json(r#"["intent_imperative_come"]"#),
        Err(ExpandedJsonError::NotAnObject)
    );
    assert_eq!(c.pending_tag(), None);
    assert_eq!(events(&mut c), []);

    assert_eq!(
        c.handle_expanded_json(
            r#"{"intent":"intent_clock_settimer_extend","params":{"timer_duration":"45"}}"#
        ),
        Ok(CloudOutcome::Pending {
            tag: Tag::SetTimer,
            matched: cloud("intent_clock_settimer_extend")
        })
    );
    assert_eq!(pending(&c), Some(timer(45)));
    // Data intent without params: the original set nothing pending; here a typed error
    // and the "huh?" (§6.1).
    assert_eq!(
        c.handle_expanded_json(r#"{"intent":"intent_clock_settimer_extend","params":null}"#),
        Ok(CloudOutcome::Failed {
            error: TranslateError::MissingParameters { tag: "set_timer" },
            reaction: Reaction::Unmatched
        })
    );
    assert_eq!(pending(&c), Some(unmatched()));
}

// §4.4 void intent with extra params is still OK (params ignored, reported as ignored).
#[test]
fn void_intent_with_extra_params_is_accepted() {
    let mut c = intents::component();
    for params in [
        "{\"foo\":\"bar\"}",
        "{\"foo\":\"bar\"}\n",
        "{\"a\":[1,{\"b\":null}]}",
        "not even json",
    ] {
        let t = c
            .translator()
            .translate_cloud("intent_imperative_dance", params)
            .unwrap();
        assert_eq!(
            (t.intent, t.matched, t.params_ignored, t.notes),
            (
                UserIntent::ImperativeDance(UserIntentVoid {}),
                cloud("intent_imperative_dance"),
                true,
                vec![]
            ),
            "{params}"
        );
        assert_eq!(
            c.handle_cloud(result("intent_imperative_dance", params)),
            CloudOutcome::Pending {
                tag: Tag::ImperativeDance,
                matched: cloud("intent_imperative_dance")
            }
        );
        assert_eq!(
            pending(&c),
            Some(UserIntent::ImperativeDance(UserIntentVoid {}))
        );
    }
    for params in ["", "{}", "{}\n", "null"] {
        let t = c
            .translator()
            .translate_cloud("intent_imperative_dance", params)
            .unwrap();
        assert!(!t.params_ignored, "{params:?}");
    }
}

// ----- parameters -------------------------------------------------------------------------------

// §4.4 numeric and string params, with the renames of our map (`timer_duration` →
// `time_s` numeric; the weather report's five renames; plain string fields).
#[test]
fn numeric_and_string_params() {
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
            CloudOutcome::Pending {
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

/// The original test's inline map (`"is_test": true`): dotted cloud names renamed and
/// converted, over our generated union. Our shipped map has no dotted names.
static DOTTED_CLOUD: [MapEntry<Tag>; 1] = [MapEntry {
    intent: "intent_test_time",
    tag: Tag::TestTimeWithUnits,
    sanitation: &[
        Sanitation {
            from: "timer_duration.time",
            to: Some("time"),
            numeric: true,
        },
        Sanitation {
            from: "timer_duration.units",
            to: Some("units"),
            numeric: false,
        },
    ],
    feature_gate: None,
}];
static DOTTED_MAP: StaticIntentMap<Tag> = StaticIntentMap {
    cloud: &DOTTED_CLOUD,
    app: &[],
    simple_voice: &[],
    simple_voice_tag: Some(Tag::SimpleVoiceResponse),
    unmatched: Tag::UnmatchedIntent,
};

// §4.4 dotted-name substitution + string→number + enum by name, with the original test's
// inline map over our generated `test_timeWithUnits` member.
#[test]
fn dotted_name_substitution_string_to_number_and_enum_by_name() {
    let mut c = IntentComponent::<UserIntent>::new(&DOTTED_MAP);
    assert_eq!(
        c.handle_cloud(result(
            "intent_test_time",
            r#"{"timer_duration.time":"10","timer_duration.units":"m"}"#
        )),
        CloudOutcome::Pending {
            tag: Tag::TestTimeWithUnits,
            matched: cloud("intent_test_time")
        }
    );
    assert_eq!(
        pending(&c),
        Some(UserIntent::TestTimeWithUnits(UserIntentTestTimeWithUnits {
            time: 10,
            units: UserIntentTestUnits::M
        }))
    );
    let out = c.handle_cloud(result(
        "intent_test_time",
        r#"{"timer_duration.time":"5","timer_duration.units":"h"}"#,
    ));
    assert_eq!(
        out,
        CloudOutcome::Failed {
            error: TranslateError::BadPayload {
                tag: "test_timeWithUnits",
                field: Some("units".into()),
                reason: "unknown variant `h`, expected `s` or `m`".into()
            },
            reaction: Reaction::Unmatched
        }
    );
    // Our map does not know this cloud intent.
    let mut ours = intents::component();
    assert_eq!(
        ours.handle_cloud(result("intent_test_time", "{}")),
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::UnknownIntent {
                intent: "intent_test_time".into()
            })
        }
    );
}

// §4.4 string→number and enum by name with our map: the timer's numeric param, and the
// `gaze_mode` enum of `__intent_gaze__` (`object` → `object_name` elsewhere).
#[test]
fn string_to_number_and_enum_by_name_in_our_map() {
    let mut c = intents::component();
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
        CloudOutcome::Pending {
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
        CloudOutcome::Failed {
            error: TranslateError::BadPayload {
                tag: "hri_gaze",
                field: Some("gaze_mode".into()),
                reason: "unknown variant `group`, expected one of `INDIVIDUAL`, `GROUP`, `IDLE`, `POINT`".into()
            },
            reaction: Reaction::Unmatched
        }
    );
}

// ----- the CloudMic paths ----------------------------------------------------------------------

// §4.4 the CloudMic-string path through `intents::receive_text`: `{}` / result without
// intent / unknown type rejected; type defaults to result; stringified `parameters` with a
// trailing newline accepted and handled; bare intent names.
#[test]
fn cloud_mic_json_string_path() {
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
        CloudOutcome::Pending {
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
fn binary_result_through_receive_and_handle() {
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
        CloudOutcome::Pending {
            tag: Tag::SetTimer,
            matched: cloud("intent_clock_settimer_extend")
        }
    );
    assert_eq!(pending(&c), Some(timer(300)));

    let others: [(Message, CloudEvent, CloudOutcome<Tag>); 4] = [
        (
            Message::Error(IntentError {
                error: ErrorType::Connectivity,
                extra: "no route".into(),
            }),
            CloudEvent::Error {
                error: "Connectivity",
                extra: "no route".into(),
            },
            CloudOutcome::ErrorFlagSet,
        ),
        (
            Message::StreamTimeout(Void {}),
            CloudEvent::StreamTimeout,
            CloudOutcome::ErrorFlagSet,
        ),
        (
            Message::StreamOpen(StreamOpen {
                session: "abc".into(),
            }),
            CloudEvent::StreamOpen {
                session: "abc".into(),
            },
            CloudOutcome::StreamOpened,
        ),
        (
            Message::DebugFile(Filename {
                file: "/tmp/a.wav".into(),
            }),
            CloudEvent::Other {
                message: "debugFile",
            },
            CloudOutcome::Ignored,
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

// §1.3 / §6.7 feature gates: `GazeDirection` is off on stock robots (unmatched, "huh?");
// enabled with `set_feature_gate` the entry maps, and a live gate is read at lookup time.
#[test]
fn feature_gates_gaze_direction() {
    let mut c = intents::component();
    let gated = Match::Unmatched(UnmatchedReason::FeatureDisabled {
        intent: "intent_imperative_lookoverthere",
        feature: "GazeDirection",
    });
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
            tag: Tag::ImperativeFetchcube,
            matched: cloud("intent_imperative_fetchcube")
        }
    );

    c.set_feature_gate(|f: &str| f == "GazeDirection" || intents::stock_features(f));
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: gated
        }
    );
    gaze.store(true, Ordering::Relaxed);
    assert_eq!(
        c.handle_cloud(result("intent_imperative_lookoverthere", "")),
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
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
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::FeatureDisabled {
                intent: "intent_greeting_hello",
                feature: "ReactToHello"
            })
        }
    );
}

// ----- the cloud channel ---------------------------------------------------------------------------

// §6.5: two cloud messages in one tick through `cloud_sender()` are both handled, in order
// (the original's single slot lost the first).
#[test]
fn two_cloud_messages_in_one_tick_are_handled_in_order() {
    let mut c = intents::component();
    let tx = c.cloud_sender();
    let come = Message::Result(IntentResult {
        intent: "intent_imperative_come".into(),
        parameters: String::new(),
        metadata: String::new(),
    });
    // streamOpen, then result.
    tx.send(Message::StreamOpen(StreamOpen {
        session: "s1".into(),
    }))
    .unwrap();
    tx.send(come).unwrap();
    c.update();
    assert_eq!(
        c.events(),
        [
            IntentEvent::StreamOpened,
            IntentEvent::FlagCleared {
                flag: Flag::StreamOpen
            },
            voice_pending(Tag::ImperativeCome, cloud("intent_imperative_come")),
        ]
    );
    assert!(c.is_pending(Tag::ImperativeCome) && !c.is_cloud_stream_open());

    // error, then result: the result clears the error and replaces the pending intent.
    tx.send(Message::Error(IntentError {
        error: ErrorType::Json,
        extra: "x".into(),
    }))
    .unwrap();
    tx.send(Message::Result(IntentResult {
        intent: "intent_clock_settimer_extend".into(),
        parameters: "{\"timer_duration\":\"5\"}".into(),
        metadata: String::new(),
    }))
    .unwrap();
    c.update();
    assert_eq!(
        c.events(),
        [
            IntentEvent::CloudError {
                cause: CloudErrorCause::Error {
                    error: "Json",
                    extra: "x".into()
                }
            },
            IntentEvent::FlagCleared { flag: Flag::Error },
            IntentEvent::Replaced {
                old: Tag::ImperativeCome,
                old_source: IntentSource::Voice,
                new: Tag::SetTimer
            },
            voice_pending(Tag::SetTimer, cloud("intent_clock_settimer_extend")),
        ]
    );
    assert_eq!(pending(&c), Some(timer(5)));
    assert!(!c.was_error());

    // result, then timeout (from another thread): both seen, the flag stays set.
    let tx2 = c.cloud_sender();
    std::thread::spawn(move || {
        tx2.send(CloudEvent::result("intent_imperative_dance", ""))
            .unwrap();
        tx2.send(Message::StreamTimeout(Void {})).unwrap();
    })
    .join()
    .unwrap();
    c.update();
    assert_eq!(
        c.events(),
        [
            IntentEvent::Replaced {
                old: Tag::SetTimer,
                old_source: IntentSource::Voice,
                new: Tag::ImperativeDance
            },
            voice_pending(Tag::ImperativeDance, cloud("intent_imperative_dance")),
            IntentEvent::CloudError {
                cause: CloudErrorCause::StreamTimeout
            },
        ]
    );
    assert!(c.is_pending(Tag::ImperativeDance) && c.was_error());
}

// §2.5 whitelist (`SetWhitelistedIntents`): other tags become unmatched; the unmatched tag
// and direct `set_pending` are not filtered.
#[test]
fn whitelist_replaces_other_tags_with_unmatched() {
    let mut c = intents::component();
    c.set_whitelist([Tag::SetTimer]);
    assert_eq!(
        c.handle_cloud(result("intent_imperative_come", "")),
        CloudOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            matched: Match::Unmatched(UnmatchedReason::NotWhitelisted {
                tag: Tag::ImperativeCome
            })
        }
    );
    assert_eq!(
        c.handle_cloud(result(
            "intent_clock_settimer_extend",
            "{\"timer_duration\":\"7\"}"
        )),
        CloudOutcome::Pending {
            tag: Tag::SetTimer,
            matched: cloud("intent_clock_settimer_extend")
        }
    );
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Dev);
    assert_eq!(c.pending().unwrap().matched(), &Match::Direct);
    c.clear_whitelist();
    assert_eq!(
        c.handle_cloud(result("intent_imperative_come", "")),
        CloudOutcome::Pending {
            tag: Tag::ImperativeCome,
            matched: cloud("intent_imperative_come")
        }
    );
}
