//! The intent component's state machine (spec §2 and §4.4): pending/active with sources,
//! guards, deadlines, holds, trigger word, flags, the cloud channel, events and matchers.

use robot_runtime_tests as support;

use std::sync::{Arc, Mutex};

use robot_runtime::intent::{
    ActiveIntentGuard, ClaimError, Closed, CloudErrorCause, CloudEvent, DeactivateError,
    DeactivateReason, DropReason, Flag, IntakeOutcome, IntentComponent, IntentConfig, IntentEvent,
    IntentMatcher, IntentPredicate, IntentSource, MatcherError, Sent,
};
use support::*;

type Tag = UserIntentTag;

fn comp() -> IntentComponent<UserIntent> {
    IntentComponent::new(&MAP)
}

fn events(c: &mut IntentComponent<UserIntent>) -> Vec<IntentEvent<Tag>> {
    c.drain_events().collect()
}

#[test]
fn component_and_guards_are_send() {
    fn send<T: Send>() {}
    send::<IntentComponent<UserIntent>>();
    send::<ActiveIntentGuard<UserIntent>>();
    send::<robot_runtime::intent::TimeoutHold>();
    send::<robot_runtime::intent::CloudSender>();
}

// ----- pending → active → inactive, with source ------------------------------------------

#[test]
fn pending_active_inactive_with_source() {
    let mut c = comp();
    assert!(!c.is_any_pending() && !c.is_any_active());
    c.set_pending(
        UserIntent::MeetVictor(MeetVictor {
            username: "cozmo".into(),
        }),
        IntentSource::App,
    );
    assert!(c.is_any_pending());
    assert!(c.is_pending(Tag::MeetVictor));
    assert!(!c.is_pending(Tag::SetTimer));
    assert!(c.is_any_pending_or_active());

    let guard = c.activate(Tag::MeetVictor, "MeetVictor").unwrap();
    assert!(!c.is_any_pending());
    assert!(c.is_active(Tag::MeetVictor));
    assert_eq!(guard.source(), IntentSource::App);
    assert_eq!(guard.owner(), "MeetVictor");
    assert_eq!(
        guard.intent(),
        &UserIntent::MeetVictor(MeetVictor {
            username: "cozmo".into()
        })
    );
    let id = guard.id();
    assert_eq!(c.active().unwrap().id(), id);
    guard.release(&mut c).unwrap();
    assert!(!c.is_any_active());

    // Activation IDs are per instance and increase.
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    let g2 = c.activate(Tag::ImperativeCome, "ComeHere").unwrap();
    assert!(g2.id() > id);
    assert_eq!(g2.source(), IntentSource::Voice);
    drop(g2);

    let ev = events(&mut c);
    assert!(
        matches!(
            ev.as_slice(),
            [
                IntentEvent::Pending { tag: Tag::MeetVictor, source: IntentSource::App, .. },
                IntentEvent::Activated { tag: Tag::MeetVictor, source: IntentSource::App, owner, .. },
                IntentEvent::Deactivated { tag: Tag::MeetVictor, reason: DeactivateReason::Released, .. },
                IntentEvent::Pending { tag: Tag::ImperativeCome, source: IntentSource::Voice, .. },
                IntentEvent::Activated { tag: Tag::ImperativeCome, .. },
            ] if owner == "MeetVictor"
        ),
        "{ev:#?}"
    );
}

#[test]
fn dropping_the_guard_deactivates_at_once_and_reports_on_next_call() {
    let mut c = comp();
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    let g = c.activate(Tag::ImperativeCome, "b").unwrap();
    let id = g.id();
    events(&mut c);
    drop(g);
    // Queries see it immediately.
    assert!(!c.is_any_active());
    assert!(c.active().is_none());
    // A new activation is allowed at once.
    c.set_pending_tag(Tag::SetTimer, IntentSource::Voice);
    let g2 = c.activate(Tag::SetTimer, "timer").unwrap();
    let ev = events(&mut c);
    assert_eq!(
        ev[0],
        IntentEvent::Deactivated {
            id,
            tag: Tag::ImperativeCome,
            reason: DeactivateReason::GuardDropped
        }
    );
    assert!(matches!(
        ev[2],
        IntentEvent::Activated {
            tag: Tag::SetTimer,
            ..
        }
    ));
    drop(g2);
    c.update();
    assert!(matches!(
        c.events(),
        [IntentEvent::Deactivated {
            tag: Tag::SetTimer,
            reason: DeactivateReason::GuardDropped,
            ..
        }]
    ));
}

#[test]
fn double_activation_is_a_typed_error() {
    let mut c = comp();
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    let first = c.activate(Tag::ImperativeCome, "a").unwrap();
    c.set_pending_tag(Tag::GreetingGoodmorning, IntentSource::Voice);
    let err = c.activate(Tag::GreetingGoodmorning, "b").unwrap_err();
    assert_eq!(
        err,
        ClaimError::AlreadyActive {
            id: first.id(),
            tag: Tag::ImperativeCome
        }
    );
    assert!(err.to_string().contains("already active"));
    // Nothing changed.
    assert!(c.is_pending(Tag::GreetingGoodmorning));
    assert!(c.is_active(Tag::ImperativeCome));
    // Explicit replacement supersedes; the old guard becomes inert.
    let second = c.activate_replacing(Tag::GreetingGoodmorning, "b").unwrap();
    assert!(!first.is_current());
    assert!(second.is_current());
    assert!(c.is_active(Tag::GreetingGoodmorning));
    let first_id = first.id();
    assert_eq!(
        first.release(&mut c),
        Err(DeactivateError::NotActive { id: first_id })
    );
    assert!(c.is_active(Tag::GreetingGoodmorning));
    let ev = events(&mut c);
    assert!(ev.iter().any(|e| matches!(
        e,
        IntentEvent::Deactivated {
            tag: Tag::ImperativeCome,
            reason: DeactivateReason::Superseded,
            ..
        }
    )));
    assert_eq!(c.force_deactivate(), Some(second.id()));
    assert!(!second.is_current());
    assert!(!c.is_any_active());
}

#[test]
fn activating_what_is_not_pending_is_a_typed_error() {
    let mut c = comp();
    assert_eq!(
        c.activate(Tag::SetTimer, "x").unwrap_err(),
        ClaimError::NotPending { pending: None }
    );
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    assert_eq!(
        c.activate(Tag::SetTimer, "x").unwrap_err(),
        ClaimError::NotPending {
            pending: Some(Tag::ImperativeCome)
        }
    );
    assert!(c.is_pending(Tag::ImperativeCome));
}

#[test]
fn drop_with_the_wrong_tag_is_a_no_op() {
    let mut c = comp();
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    assert_eq!(
        c.drop_pending(Tag::SetTimer).unwrap_err(),
        ClaimError::NotPending {
            pending: Some(Tag::ImperativeCome)
        }
    );
    assert!(c.is_pending(Tag::ImperativeCome));
    let p = c.drop_pending(Tag::ImperativeCome).unwrap();
    assert_eq!(p.tag(), Tag::ImperativeCome);
    assert!(!c.is_any_pending());
    assert!(c.drop_any_pending().is_none());
    c.set_pending_tag(Tag::SetTimer, IntentSource::Voice);
    assert_eq!(c.drop_any_pending().unwrap().tag(), Tag::SetTimer);
    let ev = events(&mut c);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(
                e,
                IntentEvent::Dropped {
                    reason: DropReason::Requested,
                    ..
                }
            ))
            .count(),
        2
    );
    assert!(!c.was_unclaimed());
}

#[test]
fn a_new_intent_replaces_the_pending_one() {
    let mut c = comp();
    c.update();
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    c.update();
    c.update();
    c.set_pending_tag(Tag::GreetingGoodmorning, IntentSource::App);
    let ev = events(&mut c);
    assert_eq!(
        ev[ev.len() - 2..],
        [
            IntentEvent::Replaced {
                old: Tag::ImperativeCome,
                old_source: IntentSource::Voice,
                new: Tag::GreetingGoodmorning
            },
            IntentEvent::Pending {
                tag: Tag::GreetingGoodmorning,
                source: IntentSource::App,
                matched: robot_runtime::intent::Match::Direct
            }
        ]
    );
    // The new one gets a fresh window.
    c.update();
    c.update();
    assert!(c.is_pending(Tag::GreetingGoodmorning));
    c.update();
    assert!(!c.is_any_pending());
}

// ----- expiry -------------------------------------------------------------------------------

#[test]
fn unclaimed_intents_expire_after_three_ticks() {
    let mut c = comp();
    c.update(); // tick 1
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice); // during tick 1
    assert_eq!(c.pending().unwrap().since_tick(), 1);
    c.update(); // tick 2: visible
    assert!(c.is_pending(Tag::ImperativeCome));
    assert!(c.events().is_empty());
    c.update(); // tick 3: warning
    assert!(c.is_pending(Tag::ImperativeCome));
    assert_eq!(
        c.events(),
        [IntentEvent::ClaimDeadlineNear {
            tag: Tag::ImperativeCome,
            age_ticks: 2
        }]
    );
    assert!(!c.was_unclaimed());
    c.update(); // tick 4: dropped before behaviors run
    assert!(!c.is_any_pending());
    assert!(c.was_unclaimed());
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
            }
        ]
    );
    c.reset_unclaimed();
    assert!(!c.was_unclaimed());
    assert_eq!(
        c.events().last(),
        Some(&IntentEvent::FlagCleared {
            flag: Flag::Unclaimed
        })
    );
}

#[test]
fn cloud_intents_are_visible_for_three_behavior_ticks() {
    let mut c = comp();
    let tx = c.cloud_sender();
    tx.send(result("intent_imperative_come", "")).unwrap();
    let mut visible = 0;
    for _ in 0..10 {
        c.update();
        if c.is_any_pending() {
            visible += 1;
        }
    }
    assert_eq!(visible, 3);
    assert!(c.was_unclaimed());
}

#[test]
fn deadline_is_configurable() {
    let mut c = IntentComponent::<UserIntent>::with_config(
        &MAP,
        IntentConfig {
            claim_deadline_ticks: 10,
            claim_warning_ticks: 8,
            ..IntentConfig::default()
        },
    );
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    for _ in 0..9 {
        c.update();
    }
    assert!(c.is_any_pending());
    c.update();
    assert!(!c.is_any_pending());
}

#[test]
fn a_timeout_hold_suspends_expiry_until_dropped() {
    let mut c = comp();
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    let hold = c.hold_timeout();
    let hold2 = c.hold_timeout();
    assert!(c.is_timeout_held());
    assert_eq!(events(&mut c).last(), Some(&IntentEvent::TimeoutHeld));
    for _ in 0..20 {
        c.update();
        assert!(c.is_pending(Tag::ImperativeCome));
    }
    drop(hold);
    c.update();
    assert!(c.is_pending(Tag::ImperativeCome));
    drop(hold2);
    c.update(); // resumed: fresh window from this tick
    assert_eq!(c.events(), [IntentEvent::TimeoutResumed]);
    c.update();
    c.update();
    assert!(c.is_pending(Tag::ImperativeCome));
    c.update();
    assert!(!c.is_any_pending());
    assert!(c.was_unclaimed());
}

// ----- trigger word ---------------------------------------------------------------------------

#[test]
fn trigger_word_set_clear_and_no_queuing() {
    let mut c = comp();
    assert!(!c.is_trigger_word_pending());
    assert!(!c.clear_trigger_word());
    assert!(c.set_trigger_word_pending(true, false));
    assert!(c.is_trigger_word_pending());
    assert!(c.will_pending_trigger_word_open_stream());
    assert!(c.set_trigger_word_pending(false, false));
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
}

#[test]
fn trigger_word_has_its_own_deadline() {
    let mut c = comp();
    c.set_trigger_word_pending(true, false);
    c.update();
    assert!(c.is_trigger_word_pending());
    c.update();
    assert_eq!(c.events(), [IntentEvent::TriggerWordDeadlineNear]);
    c.update();
    assert!(!c.is_trigger_word_pending());
    assert_eq!(c.events(), [IntentEvent::TriggerWordDropped]);

    c.set_trigger_word_pending(true, true); // from mute: 120 ticks
    for _ in 0..119 {
        c.update();
    }
    assert!(c.is_trigger_word_pending());
    c.update();
    assert!(!c.is_trigger_word_pending());
}

#[test]
fn trigger_word_suppression_is_a_guard() {
    let mut c = comp();
    let s = c.suppress_trigger_word();
    assert!(!c.set_trigger_word_pending(true, false));
    assert!(!c.is_trigger_word_pending());
    assert!(c.set_trigger_word_pending(true, true)); // mute forces it
    c.clear_trigger_word();
    drop(s);
    assert!(c.set_trigger_word_pending(true, false));
    assert!(events(&mut c).contains(&IntentEvent::TriggerWordSuppressed));
}

// ----- cloud messages and flags -----------------------------------------------------------------

#[test]
fn cloud_error_timeout_and_stream_flags() {
    let mut c = comp();
    assert_eq!(
        c.handle_cloud(CloudEvent::StreamOpen {
            session: "s".into()
        }),
        IntakeOutcome::StreamOpened
    );
    assert!(c.is_cloud_stream_open());
    c.set_trigger_word_pending(true, false);
    assert_eq!(
        c.handle_cloud(CloudEvent::Error {
            error: "Server",
            extra: "boom".into()
        }),
        IntakeOutcome::ErrorFlagSet
    );
    assert!(c.was_error());
    assert!(!c.is_cloud_stream_open());
    assert!(!c.will_pending_trigger_word_open_stream());
    // The next trigger word clears a stale error.
    c.set_trigger_word_pending(true, false);
    assert!(!c.was_error());
    c.handle_cloud(CloudEvent::StreamTimeout);
    assert!(c.was_error());
    // The next result clears it too.
    c.handle_cloud(result("intent_imperative_come", ""));
    assert!(!c.was_error());
    c.handle_cloud(CloudEvent::StreamTimeout);
    c.reset_error();
    assert!(!c.was_error());
    assert_eq!(
        c.handle_cloud(CloudEvent::Other {
            message: "debugFile"
        }),
        IntakeOutcome::Ignored
    );
    let ev = events(&mut c);
    let causes: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            IntentEvent::CloudError { cause } => Some(cause.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        causes,
        [
            CloudErrorCause::Error {
                error: "Server",
                extra: "boom".into()
            },
            CloudErrorCause::StreamTimeout,
            CloudErrorCause::StreamTimeout,
        ]
    );
    assert!(causes[0].is_error() && !causes[1].is_error());
    assert!(ev.contains(&IntentEvent::StreamOpened));
    assert!(ev.contains(&IntentEvent::FlagCleared {
        flag: Flag::StreamOpen
    }));
    assert_eq!(
        ev.iter()
            .filter(|e| **e == IntentEvent::FlagCleared { flag: Flag::Error })
            .count(),
        3
    );
    assert_eq!(
        ev.last(),
        Some(&IntentEvent::CloudIgnored {
            message: "debugFile"
        })
    );
}

#[test]
fn two_cloud_messages_in_one_tick_both_count_in_order() {
    let mut c = comp();
    let tx = c.cloud_sender();
    // streamOpen then result: the original's single slot lost the first.
    tx.send(CloudEvent::StreamOpen {
        session: "s".into(),
    })
    .unwrap();
    tx.send(result("intent_imperative_come", "")).unwrap();
    c.update();
    assert!(c.is_pending(Tag::ImperativeCome));
    assert!(!c.is_cloud_stream_open());
    assert!(matches!(
        c.events(),
        [
            IntentEvent::StreamOpened,
            IntentEvent::FlagCleared {
                flag: Flag::StreamOpen
            },
            IntentEvent::Pending {
                tag: Tag::ImperativeCome,
                ..
            }
        ]
    ));
    // result then error: both seen, error flag set, intent still pending.
    tx.send(result("intent_greeting_goodmorning", "")).unwrap();
    tx.send(CloudEvent::Error {
        error: "Timeout",
        extra: String::new(),
    })
    .unwrap();
    c.update();
    assert!(c.is_pending(Tag::GreetingGoodmorning));
    assert!(c.was_error());
    // From another thread, through the robot's message type.
    let tx2 = c.cloud_sender();
    std::thread::spawn(move || {
        tx2.send(cloud_mic::Message::Result(cloud_mic::IntentResult {
            intent: "intent_test_name".into(),
            parameters: "{\"name\":\"x\"}".into(),
            metadata: String::new(),
        }))
        .unwrap();
    })
    .join()
    .unwrap();
    c.update();
    assert_eq!(
        c.pending().unwrap().intent(),
        &UserIntent::TestName(TestName { name: "x".into() })
    );
}

#[test]
fn per_tick_cloud_budget_keeps_order() {
    let mut c = IntentComponent::<UserIntent>::with_config(
        &MAP,
        IntentConfig {
            max_cloud_per_tick: 2,
            cloud_queue_capacity: 8,
            ..IntentConfig::default()
        },
    );
    let tx = c.cloud_sender();
    for name in ["a", "b", "c"] {
        tx.send(result(
            "intent_test_name",
            &format!("{{\"name\":\"{name}\"}}"),
        ))
        .unwrap();
    }
    c.update();
    assert_eq!(
        c.pending().unwrap().intent(),
        &UserIntent::TestName(TestName { name: "b".into() })
    );
    c.update();
    assert_eq!(
        c.pending().unwrap().intent(),
        &UserIntent::TestName(TestName { name: "c".into() })
    );
    // A full queue sheds the oldest of the least important, tells the sender, and the
    // component reports the count at its next update.
    for _ in 0..8 {
        assert_eq!(tx.send(CloudEvent::StreamTimeout), Ok(Sent::Queued));
    }
    assert_eq!(tx.send(CloudEvent::StreamTimeout), Ok(Sent::QueuedShedding));
    c.update();
    assert_eq!(
        c.events().first(),
        Some(&IntentEvent::InputsShed {
            source: IntentSource::Voice,
            count: 1
        })
    );
    // Gone: the sender says so.
    drop(c);
    assert!(matches!(
        tx.send(CloudEvent::StreamTimeout),
        Err(Closed(CloudEvent::StreamTimeout))
    ));
}

// ----- events ----------------------------------------------------------------------------------

#[test]
fn subscribers_see_every_event_and_the_buffer_is_per_tick() {
    let mut c = comp();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let id = c.subscribe(move |e| s.lock().unwrap().push(e.clone()));
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Dev);
    assert_eq!(c.events().len(), 1);
    c.update();
    assert!(c.events().is_empty());
    c.update();
    c.update();
    assert_eq!(seen.lock().unwrap().len(), 4); // pending, warning, dropped, unclaimed
    assert!(c.unsubscribe(id));
    assert!(!c.unsubscribe(id));
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Dev);
    assert_eq!(seen.lock().unwrap().len(), 4);
    assert_eq!(
        seen.lock().unwrap()[0].name(),
        "UserIntentComponent.SetUserIntentPending"
    );
}

#[test]
fn event_buffer_is_bounded() {
    let mut c = IntentComponent::<UserIntent>::with_config(
        &MAP,
        IntentConfig {
            max_buffered_events: 3,
            ..IntentConfig::default()
        },
    );
    for _ in 0..3 {
        c.set_pending_tag(Tag::ImperativeCome, IntentSource::Dev);
    }
    assert_eq!(c.events().len(), 3);
    assert_eq!(c.lost_events(), 2);
}

// ----- matchers --------------------------------------------------------------------------------

fn stop(what: &str) -> UserIntent {
    UserIntent::GlobalStop(GlobalStop {
        what_to_stop: what.into(),
    })
}

#[test]
fn matchers_by_tag_data_and_predicate() {
    let by_tag = IntentMatcher::<UserIntent>::tag(Tag::GlobalStop);
    let exact = IntentMatcher::exact(stop("timer"));
    let pred = IntentMatcher::predicate(
        Tag::GlobalStop,
        "is_timer",
        |u: &UserIntent| matches!(u, UserIntent::GlobalStop(s) if s.what_to_stop.starts_with("tim")),
    );
    assert!(by_tag.matches(&stop("")) && by_tag.matches(&stop("timer")));
    assert!(exact.matches(&stop("timer")) && !exact.matches(&stop("")));
    assert!(pred.matches(&stop("timers")) && !pred.matches(&stop("music")));
    assert!(!pred.matches(&UserIntent::ImperativeCome(Void {})));
    assert_eq!(pred.target_tag(), Tag::GlobalStop);
    assert_eq!(exact.target_tag(), Tag::GlobalStop);

    let mut c = comp();
    c.set_pending(stop("music"), IntentSource::Voice);
    let list = [exact.clone(), pred.clone()];
    assert!(c.first_pending_match(&list).is_none());
    assert!(c.pending_matches(&by_tag));
    assert_eq!(
        c.activate_matching(&exact, "timer").unwrap_err(),
        ClaimError::NotPending {
            pending: Some(Tag::GlobalStop)
        }
    );
    c.set_pending(stop("timer"), IntentSource::Voice);
    assert!(matches!(
        c.first_pending_match(&list),
        Some(IntentMatcher::Exact(_))
    ));
    let g = c.activate_matching(&pred, "TimerCoordinator").unwrap();
    assert!(c.active_matches(&exact));
    assert!(format!("{pred:?}").contains("is_timer"));
    drop(g);
}

#[test]
fn matchers_from_json() {
    use serde_json::json;
    let preds = |name: &str| -> Option<IntentPredicate<UserIntent>> {
        (name == "test_lambda").then(|| {
            Arc::new(|u: &UserIntent| matches!(u, UserIntent::TestName(n) if n.name == "lambda"))
                as IntentPredicate<UserIntent>
        })
    };
    let m = |v| IntentMatcher::<UserIntent>::from_json(&v, &preds);
    assert!(matches!(
        m(json!({"type": "play_fistbump"})),
        Err(MatcherError::UnknownTag(_))
    ));
    assert!(matches!(
        m(json!({"type": "global_stop"})),
        Ok(IntentMatcher::Tag(Tag::GlobalStop))
    ));
    let exact = m(json!({"type": "global_stop", "what_to_stop": "timer"})).unwrap();
    assert!(exact.matches(&stop("timer")));
    assert_eq!(
        m(json!({"type": "test_timeWithUnits", "time": 5})).unwrap_err(),
        MatcherError::IncompleteIntent {
            tag: "test_timeWithUnits",
            field: "units"
        }
    );
    assert!(matches!(
        m(json!({"type": "global_stop", "what": "timer"})),
        Err(MatcherError::UnknownField { .. })
    ));
    assert!(matches!(
        m(json!({"type": "test_timeWithUnits", "time": 5, "units": "h"})),
        Err(MatcherError::BadIntent { .. })
    ));
    let lambda = m(json!({"type": "test_name", "_lambda": "test_lambda"})).unwrap();
    assert!(lambda.matches(&UserIntent::TestName(TestName {
        name: "lambda".into()
    })));
    assert_eq!(
        m(json!({"type": "test_name", "_lambda": "test_lambda", "name": "x"})).unwrap_err(),
        MatcherError::BadLambda
    );
    assert!(matches!(
        m(json!({"type": "test_name", "_lambda": "nope"})),
        Err(MatcherError::UnknownPredicate(_))
    ));
    assert_eq!(
        m(json!({"intent": "x"})).unwrap_err(),
        MatcherError::MissingType
    );
    assert_eq!(m(json!("x")).unwrap_err(), MatcherError::NotAnObject);

    let list = IntentMatcher::<UserIntent>::list_from_json(
        &json!([{"type": "global_stop"}, {"type": "global_stop", "what_to_stop": "timer"}, {"type": "set_timer"}]),
        &preds,
    )
    .unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(
        IntentMatcher::<UserIntent>::list_from_json(
            &json!([{"type": "global_stop"}, {"type": "global_stop"}]),
            &preds
        )
        .unwrap_err(),
        MatcherError::Ambiguous {
            tag: "global_stop",
            kind: "tag"
        }
    );
}

/// `activate` / `activate_matching` when the owner already holds the active intent: the
/// owner moves on (the old activation is superseded, its guard inert); another owner gets
/// `AlreadyActive`. Owners are typed behavior IDs or names.
#[test]
fn an_owner_that_already_holds_an_intent_moves_on_to_the_next() {
    use robot_runtime::behavior::BehaviorId;
    use robot_runtime::intent::Owner;
    let (a, b) = (BehaviorId::from_index(3), BehaviorId::from_index(4));
    let mut c = comp();
    c.set_pending_tag(Tag::ImperativeCome, IntentSource::Voice);
    let first = c.activate(Tag::ImperativeCome, a).unwrap();
    assert_eq!(first.owner(), &Owner::Behavior(a));
    c.set_pending_tag(Tag::SetTimer, IntentSource::Voice);
    let err = c
        .activate_matching(&IntentMatcher::tag(Tag::SetTimer), b)
        .unwrap_err();
    assert!(matches!(
        err,
        ClaimError::AlreadyActive {
            tag: Tag::ImperativeCome,
            ..
        }
    ));
    assert!(c.is_pending(Tag::SetTimer));
    events(&mut c);
    let second = c
        .activate_matching(&IntentMatcher::tag(Tag::SetTimer), a)
        .unwrap();
    assert!(!first.is_current());
    assert!(second.is_current());
    assert!(c.is_active(Tag::SetTimer));
    let ev = events(&mut c);
    assert!(matches!(
        ev[0],
        IntentEvent::Deactivated {
            tag: Tag::ImperativeCome,
            reason: DeactivateReason::Superseded,
            ..
        }
    ));
    assert!(
        matches!(&ev[1], IntentEvent::Activated { tag: Tag::SetTimer, owner: Owner::Behavior(o), .. } if *o == a)
    );
    // Names compare with strings.
    assert_eq!(Owner::from("x"), "x");
    assert_eq!(Owner::Behavior(a).to_string(), "behavior #3");
}
