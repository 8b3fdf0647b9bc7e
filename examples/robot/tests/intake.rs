//! The one intake, from every source: each request enters through `IntentComponent::submit`,
//! shows where it came from, and the same bad request (an unknown intent, a feature that is
//! off, a member the whitelist excludes) gets the same outcome whatever its source.
//!
//! The sources: a cloud datagram decoded on the tick thread, a cloud message sent through the
//! component's channel, an app intent, an HRI message as JSON text, as a parsed object (a
//! scenario line), as a packed `Hri::IntentEnvelope`, as the fields of a ROS 2 sample, and a
//! developer tool's member (the inspector's `user_intent`).

use robot_example::clad::anki::vector::UserIntentVoid;
use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::hri::{self, HriEnvelopeBytes, IntentEnvelope};
use robot_example::intents::{self, CloudDatagram, Tag, UserIntent};
use robot_example::robot::{Arrival, Robot, RunConfig};
use robot_example::timeline::What;
use robot_runtime::hri::Timestamp;
use robot_runtime::intent::{
    CloudEvent, HriMessage, IntakeOutcome, IntentComponent, IntentSource, Match, Request,
    UnmatchedReason,
};
use robot_runtime::wire::Wire;

/// A source: how it submits a request for `cloud` / `app` / `hri` (the request's name in that
/// source's vocabulary; `None` when the source cannot express it) to the component.
struct Source {
    name: &'static str,
    source: IntentSource,
    submit: fn(&mut IntentComponent<UserIntent>, &Names) -> Option<IntakeOutcome<Tag>>,
}

/// One bad request in each source's words.
struct Names {
    cloud: &'static str,
    app: &'static str,
    hri: &'static str,
    hri_data: &'static str,
    member: Option<UserIntent>,
}

fn cloud_result(intent: &str) -> Message {
    Message::Result(IntentResult {
        intent: intent.into(),
        parameters: String::new(),
        metadata: String::new(),
    })
}

fn envelope(n: &Names) -> IntentEnvelope {
    let mut env = IntentEnvelope::default();
    env.intent.intent = n.hri.into();
    env.intent.data = n.hri_data.into();
    env.intent.source = "__remote_supervisor__".into();
    env.confidence_unstated = true;
    env
}

const SOURCES: &[Source] = &[
    Source {
        name: "cloud datagram",
        source: IntentSource::Voice,
        submit: |c, n| {
            let bytes = cloud_result(n.cloud).pack().unwrap();
            Some(c.submit(CloudDatagram(&bytes)))
        },
    },
    Source {
        name: "cloud channel",
        source: IntentSource::Voice,
        submit: |c, n| {
            c.cloud_sender().send(cloud_result(n.cloud)).unwrap();
            c.update();
            // The channel's outcome does not go back to the sender: read it from the slot.
            let p = c.pending()?;
            Some(IntakeOutcome::Pending {
                tag: p.tag(),
                matched: p.matched().clone(),
            })
        },
    },
    Source {
        name: "app intent",
        source: IntentSource::App,
        submit: |c, n| {
            Some(c.submit(Request::App {
                intent: n.app,
                param: "",
            }))
        },
    },
    Source {
        name: "HRI JSON text",
        source: IntentSource::Hri,
        submit: |c, n| {
            let text = format!(
                r#"{{"intent": "{}", "data": {}, "source": "__remote_supervisor__"}}"#,
                n.hri,
                serde_json::to_string(n.hri_data).unwrap()
            );
            Some(c.submit(Request::hri_text(IntentSource::Hri, &text, Timestamp(0))))
        },
    },
    Source {
        name: "HRI object (scenario line)",
        source: IntentSource::Hri,
        submit: |c, n| {
            let mut m = serde_json::Map::new();
            m.insert("intent".into(), n.hri.into());
            m.insert("data".into(), n.hri_data.into());
            Some(c.submit(Request::hri(
                IntentSource::Hri,
                HriMessage::Object(&m),
                Timestamp(0),
            )))
        },
    },
    Source {
        name: "HRI envelope bytes",
        source: IntentSource::Hri,
        submit: |c, n| {
            let bytes = envelope(n).pack().unwrap();
            Some(c.submit(HriEnvelopeBytes {
                bytes: &bytes,
                arrived: Timestamp(0),
            }))
        },
    },
    Source {
        name: "ROS 2 sample",
        source: IntentSource::Ros2,
        submit: |c, n| {
            let env = envelope(n);
            let (fields, envelope) = hri::envelope(&env);
            Some(c.submit(Request::hri_fields(
                IntentSource::Ros2,
                fields,
                envelope,
                Timestamp(0),
            )))
        },
    },
    Source {
        name: "inspector member",
        source: IntentSource::Dev,
        submit: |c, n| n.member.clone().map(|m| c.submit(Request::direct(m))),
    },
];

/// A source's name, what the intake did with its request, and the pending intent's source.
type Seen = (
    &'static str,
    Option<IntakeOutcome<Tag>>,
    Option<IntentSource>,
);

/// Submits `names` from every source to a fresh component made by `make`.
fn from_every_source(make: fn() -> IntentComponent<UserIntent>, names: &Names) -> Vec<Seen> {
    SOURCES
        .iter()
        .map(|s| {
            let mut c = make();
            let outcome = (s.submit)(&mut c, names);
            let source = c.pending().map(|p| p.source());
            if outcome.is_some() {
                assert_eq!(
                    source,
                    Some(s.source),
                    "{}: the pending intent's source ({outcome:?}; {:?})",
                    s.name,
                    c.events()
                );
            }
            (s.name, outcome, source)
        })
        .collect()
}

fn unmatched(reason: UnmatchedReason<Tag>) -> IntakeOutcome<Tag> {
    IntakeOutcome::Pending {
        tag: Tag::UnmatchedIntent,
        matched: Match::Unmatched(reason),
    }
}

#[test]
fn the_same_bad_request_gets_the_same_outcome_from_every_source() {
    // An unknown intent: the unmatched intent, with the name the source used. (A developer
    // tool's member cannot be unknown: the inspector refuses a name the union lacks.)
    let unknown = Names {
        cloud: "intent_make_coffee",
        app: "intent_make_coffee",
        hri: "make_coffee",
        hri_data: "",
        member: None,
    };
    for (name, outcome, _) in from_every_source(intents::component, &unknown) {
        let expected = match name {
            "inspector member" => None,
            n if n.starts_with("cloud") => Some("intent_make_coffee"),
            "app intent" => Some("intent_make_coffee"),
            _ => Some("make_coffee"),
        };
        assert_eq!(
            outcome,
            expected.map(|intent| unmatched(UnmatchedReason::UnknownIntent {
                intent: intent.into()
            })),
            "{name}"
        );
    }

    // A feature that is off (`GazeDirection` on a stock robot; `Exploring` turned off here):
    // the unmatched intent, naming the entry and the feature. (A member has no feature gate.)
    fn gated() -> IntentComponent<UserIntent> {
        let mut c = intents::component();
        c.set_feature_gate(|f: &str| f != "Exploring" && intents::stock_features(f));
        c
    }
    let off = Names {
        cloud: "__intent_gaze__",
        app: "explore_start",
        hri: "__intent_gaze__",
        hri_data: r#"{"gaze_mode": "IDLE", "target": "door"}"#,
        member: None,
    };
    for (name, outcome, _) in from_every_source(gated, &off) {
        let expected = match name {
            "inspector member" => None,
            "app intent" => Some(("explore_start", "Exploring")),
            _ => Some(("__intent_gaze__", "GazeDirection")),
        };
        assert_eq!(
            outcome,
            expected.map(
                |(intent, feature)| unmatched(UnmatchedReason::FeatureDisabled { intent, feature })
            ),
            "{name}"
        );
    }

    // A member the whitelist excludes (only `set_timer` allowed): the unmatched intent,
    // naming the member, from every source, the developer tool's included.
    fn timers_only() -> IntentComponent<UserIntent> {
        let mut c = intents::component();
        c.set_whitelist([Tag::SetTimer]);
        c
    }
    let excluded = Names {
        cloud: "intent_system_charger",
        app: "explore_start",
        hri: "__intent_move_to__",
        hri_data: r#"{"goal": "poi_docking"}"#,
        member: Some(UserIntent::SystemCharger(UserIntentVoid {})),
    };
    for (name, outcome, _) in from_every_source(timers_only, &excluded) {
        let tag = if name == "app intent" {
            Tag::ExploreStart
        } else {
            Tag::SystemCharger
        };
        assert_eq!(
            outcome,
            Some(unmatched(UnmatchedReason::NotWhitelisted { tag })),
            "{name}"
        );
    }
}

/// On the robot, every source's request shows its source in the timeline: the input line's
/// kind and the pending intent's `from`.
#[test]
fn every_source_shows_its_source_on_the_timeline() {
    let mut robot = Robot::new(RunConfig::default());
    robot.begin_tick(0);
    let bytes = cloud_result("intent_system_charger").pack().unwrap();
    let dock = IntentEnvelope {
        intent: hri::to_clad(
            &robot_runtime::hri::HriIntent::new(robot_runtime::hri::IntentKind::MoveTo)
                .with_role(robot_runtime::hri::Role::Goal, "poi_docking"),
        ),
        confidence_unstated: true,
        ..IntentEnvelope::default()
    }
    .pack()
    .unwrap();
    // Another request than the dock's: the same one again would be a duplicate.
    let say = IntentEnvelope {
        intent: hri::to_clad(
            &robot_runtime::hri::HriIntent::new(robot_runtime::hri::IntentKind::Say)
                .with_role(robot_runtime::hri::Role::Object, "hello"),
        ),
        confidence_unstated: true,
        ..IntentEnvelope::default()
    };
    let now = robot.now();
    type Submit = Box<dyn FnOnce(&mut Robot)>;
    let cases: Vec<(&str, &str, Submit)> = vec![
        (
            "cloud",
            "Voice",
            Box::new(move |r: &mut Robot| {
                r.submit(CloudDatagram(&bytes), Arrival::live(), Default::default());
            }),
        ),
        (
            "app",
            "App",
            Box::new(|r: &mut Robot| {
                r.submit(
                    Request::App {
                        intent: "intent_clock_settimer",
                        param: "60",
                    },
                    Arrival::live(),
                    Default::default(),
                );
            }),
        ),
        (
            "hri",
            "Hri",
            Box::new(move |r: &mut Robot| {
                let request = HriEnvelopeBytes {
                    bytes: &dock,
                    arrived: now,
                };
                r.submit(request, Arrival::live(), Default::default());
            }),
        ),
        (
            "ros2",
            "Ros2",
            Box::new(move |r: &mut Robot| {
                let (fields, envelope) = hri::envelope(&say);
                let request = Request::hri_fields(IntentSource::Ros2, fields, envelope, now);
                r.submit(request, Arrival::live(), Default::default());
            }),
        ),
        (
            "user_intent",
            "Dev",
            Box::new(|r: &mut Robot| {
                let member = UserIntent::ImperativeCome(UserIntentVoid {});
                r.submit(Request::direct(member), Arrival::live(), Default::default());
            }),
        ),
    ];
    for (kind, source, submit) in cases {
        robot.clear_entries();
        submit(&mut robot);
        let entries = robot.entries();
        assert!(
            matches!(&entries[0].what, What::Input { kind: k, .. } if *k == kind),
            "{kind}: {:?}",
            entries[0]
        );
        assert!(
            entries
                .iter()
                .any(|e| matches!(&e.what, What::Pending { source: s, .. } if s == source)),
            "{kind}: {entries:#?}"
        );
    }
    // A cloud message sent on the channel is a `Voice` request too.
    let mut c = intents::component();
    c.cloud_sender()
        .send(CloudEvent::result("intent_system_charger", ""))
        .unwrap();
    c.update();
    assert_eq!(c.pending().unwrap().source(), IntentSource::Voice);
}

/// The component's cloud channel, flooded with 1,000 voice commands (more than it holds)
/// while the tick is busy, then a voice "stop": the stop is taken, and what was shed is
/// reported for its source.
#[test]
fn a_stop_after_a_flood_of_the_cloud_channel_is_taken() {
    use robot_runtime::intent::IntentEvent;
    let mut c = intents::component();
    let tx = c.cloud_sender();
    for _ in 0..1000 {
        tx.send(cloud_result("intent_imperative_come")).unwrap();
    }
    let stop = Message::Result(IntentResult {
        intent: "intent_global_stop_extend".into(),
        parameters: r#"{"what_to_stop": "everything"}"#.into(),
        metadata: String::new(),
    });
    tx.send(stop).unwrap();
    let capacity = c.config().cloud_queue_capacity;
    c.update();
    assert_eq!(
        c.events().first(),
        Some(&IntentEvent::InputsShed {
            source: IntentSource::Voice,
            count: 1001 - capacity as u64
        })
    );
    assert_eq!(c.pending_tag(), Some(Tag::GlobalStop));
}

/// The requests waiting for the mission controller, flooded with 1,000 missions of a higher
/// priority than a supervisor's stop that follows: the stop waits for the controller, and the
/// behaviors have it too (its route is both).
#[test]
fn a_stop_after_a_flood_of_mission_requests_is_taken() {
    use robot_runtime::hri::IntentKind;
    use robot_runtime::intent::IntentEvent;
    let mut c = intents::component();
    // Counted as they are announced (the per-tick buffer keeps the first 1,024 events).
    let shed = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let count = shed.clone();
    c.subscribe(move |e| {
        if let IntentEvent::InputsShed { count: n, .. } = e {
            count.fetch_add(*n, std::sync::atomic::Ordering::Relaxed);
        }
    });
    for i in 0..1000 {
        let text = format!(
            r#"{{"intent": "__intent_move_to__", "data": {{"goal": "room_{i}"}}, "priority": 200}}"#
        );
        let outcome = c.submit(Request::hri_text(IntentSource::Hri, &text, Timestamp(0)));
        assert_eq!(
            outcome,
            IntakeOutcome::ToMissions {
                tag: Tag::HriMoveTo
            }
        );
    }
    let stop = r#"{"intent": "__intent_stop_activity__"}"#;
    let outcome = c.submit(Request::hri_text(IntentSource::Hri, stop, Timestamp(0)));
    assert!(
        matches!(
            outcome,
            IntakeOutcome::Pending {
                tag: Tag::GlobalStop,
                ..
            }
        ),
        "{outcome:?}"
    );
    let capacity = c.config().mission_queue_capacity;
    assert_eq!(
        shed.load(std::sync::atomic::Ordering::Relaxed),
        1001 - capacity as u64
    );
    let waiting: Vec<_> = c.take_mission_requests().collect();
    assert_eq!(waiting.len(), capacity);
    assert_eq!(
        waiting.last().unwrap().intent.intent,
        IntentKind::StopActivity
    );
}

/// The app's door has no queue of its own (an app intent is submitted as it arrives), and
/// no app intent of the map is a stop: after a flood of 1,000 app intents through the one
/// intake, a stop from the voice or from a supervisor's HRI message is taken, and the
/// pending slot holds it.
#[test]
fn a_stop_after_a_flood_of_app_intents_is_taken() {
    use robot_runtime::intent::IntentEvent;
    for stop in ["voice", "hri"] {
        let mut c = intents::component();
        for _ in 0..1000 {
            let outcome = c.submit(Request::App {
                intent: "intent_clock_settimer",
                param: "60",
            });
            assert!(
                matches!(outcome, IntakeOutcome::Pending { .. }),
                "{outcome:?}"
            );
            c.drain_events();
        }
        let outcome = match stop {
            "voice" => c.submit(CloudEvent::result(
                "intent_global_stop_extend",
                r#"{"what_to_stop": "everything"}"#,
            )),
            _ => c.submit(Request::hri_text(
                IntentSource::Hri,
                r#"{"intent": "__intent_stop_activity__", "priority": 255}"#,
                Timestamp(0),
            )),
        };
        assert!(
            matches!(
                outcome,
                IntakeOutcome::Pending {
                    tag: Tag::GlobalStop,
                    ..
                }
            ),
            "{stop}: {outcome:?}"
        );
        assert_eq!(c.pending_tag(), Some(Tag::GlobalStop), "{stop}");
        assert!(
            !c.events()
                .iter()
                .any(|e| matches!(e, IntentEvent::InputsShed { .. })),
            "{stop}: nothing was queued, nothing shed"
        );
    }
}
