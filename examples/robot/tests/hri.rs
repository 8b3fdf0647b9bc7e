//! ROS4HRI intents on the robot: the generated `Hri::Intent` on the wire, and
//! `HRI_INTENT_MAP` bringing HRI intents and voice commands to the same user intent.

use robot_example::clad::anki::vector::{HriGazeMode, UserIntentHriMoveTo};
use robot_example::hri::{self, HriEnvelopeBytes, Intent, IntentEnvelope, HRI_INTENT_MAP};
use robot_example::intents::{self, Tag, UserIntent, USER_INTENT_MAP};
use robot_runtime::hri::{
    HriEvent, HriIntent, IntentId, IntentKind, Modality, Role, Source, Timestamp,
};
use robot_runtime::intent::{
    IntakeOutcome, IntentEvent, IntentSource, Match, NotAdmitted, Request,
};
use robot_runtime::wire::Wire;

fn move_to(goal: &str) -> HriIntent {
    HriIntent::new(IntentKind::MoveTo)
        .with_role(Role::Goal, goal)
        .with_source(Source::UnknownAgent)
        .with_modality(Modality::Touchscreen)
        .with_priority(200)
}

/// The HRI intake's events of the last submission.
fn hri_events(c: &mut robot_runtime::intent::IntentComponent<UserIntent>) -> Vec<HriEvent> {
    c.drain_events()
        .filter_map(|e| match e {
            IntentEvent::Hri(e) => Some(e),
            _ => None,
        })
        .collect()
}

#[test]
fn generated_intent_defaults_to_priority_128_and_round_trips() {
    assert_eq!(Intent::default().priority, 128);
    let intent = move_to("room_X").with_confidence(0.75);
    let env = hri::to_envelope(&intent, 9, "turn-1");
    let (_, envelope) = hri::envelope(&env);
    assert_eq!(envelope.correlation.as_deref(), Some("turn-1"));
    let bytes = env.pack().unwrap();
    let mut c = intents::component();
    let outcome = c.submit(HriEnvelopeBytes {
        bytes: &bytes,
        arrived: Timestamp(5),
    });
    // MOVE_TO to a room is the mission controller's.
    assert_eq!(
        outcome,
        IntakeOutcome::ToMissions {
            tag: Tag::HriMoveTo
        }
    );
    let records: Vec<_> = c.take_mission_requests().collect();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].intent, intent);
    assert_eq!(records[0].id, IntentId(9));
    assert_eq!(records[0].correlation.as_deref(), Some("turn-1"));
    // Unstated confidence survives the envelope.
    let unstated = move_to("room_Y");
    let env = hri::to_envelope(&unstated, 0, "");
    assert!(env.confidence_unstated);
    let back = IntentEnvelope::unpack(&env.pack().unwrap()).unwrap();
    let (fields, _) = hri::envelope(&back);
    assert_eq!(fields.confidence, None);
}

#[test]
fn undecodable_datagrams_are_rejected_with_an_event() {
    let mut c = intents::component();
    let bytes = hri::to_envelope(&move_to("x"), 1, "").pack().unwrap();
    for cut in [0, 3, bytes.len() - 1] {
        assert!(matches!(
            c.submit(HriEnvelopeBytes {
                bytes: &bytes[..cut],
                arrived: Timestamp(0)
            }),
            IntakeOutcome::NotAdmitted(NotAdmitted::Rejected(_))
        ));
        match hri_events(&mut c).last() {
            Some(HriEvent::Rejected { errors, .. }) => {
                assert_eq!(errors.len(), 1, "{errors:?}");
                assert_eq!(errors[0].kind(), "undecodable");
                let text = errors[0].to_string();
                assert!(
                    text.starts_with("the intent message does not decode: "),
                    "{text}"
                );
            }
            other => panic!("cut {cut}: {other:?}"),
        }
    }
}

#[test]
fn tablet_move_to_and_cloud_move_to_are_the_same_user_intent() {
    let from_tablet: UserIntent = hri::to_user_intent(&move_to("kitchen")).unwrap();
    assert_eq!(
        from_tablet,
        UserIntent::HriMoveTo(UserIntentHriMoveTo {
            agent: String::new(),
            goal: "kitchen".into()
        })
    );
    let mut component = intents::component();
    let outcome = component.handle_cloud_result("__intent_move_to__", r#"{"goal":"kitchen"}"#);
    assert!(
        matches!(
            outcome,
            IntakeOutcome::Pending {
                tag: Tag::HriMoveTo,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert_eq!(component.pending().unwrap().intent(), &from_tablet);
}

#[test]
fn supervisor_dock_is_the_voice_charger_command_and_stop_is_global_stop() {
    let dock = move_to("poi_docking").with_source(Source::RemoteSupervisor);
    let user: UserIntent = hri::to_user_intent(&dock).unwrap();
    assert_eq!(user.tag(), Tag::SystemCharger);
    assert_eq!(
        USER_INTENT_MAP.cloud("intent_system_charger").unwrap().tag,
        Tag::SystemCharger
    );

    let stop = HriIntent::new(IntentKind::StopActivity).with_priority(255);
    let user: UserIntent = hri::to_user_intent(&stop).unwrap();
    assert_eq!(user.tag(), Tag::GlobalStop);
    assert_eq!(
        USER_INTENT_MAP
            .cloud("intent_global_stop_extend")
            .unwrap()
            .tag,
        Tag::GlobalStop
    );

    let game = HriIntent::new(IntentKind::StartActivity).with_role(Role::Object, "blackjack");
    let user: UserIntent = hri::to_user_intent(&game).unwrap();
    assert_eq!(user.tag(), Tag::PlayBlackjack);
}

#[test]
fn roles_fill_fields_other_data_as_json_text_gaze_mode_as_enum() {
    let mut activity =
        HriIntent::new(IntentKind::StartActivity).with_role(Role::Object, "memory_game");
    activity
        .data
        .insert("other_data".into(), serde_json::json!({"level": 2}));
    let UserIntent::HriStartActivity(p) = hri::to_user_intent(&activity).unwrap() else {
        panic!()
    };
    assert_eq!(p.object_name, "memory_game");
    assert_eq!(p.other_data, r#"{"level":2}"#);

    let gaze = HriIntent::new(IntentKind::Gaze)
        .with_role(Role::GazeMode, "GROUP")
        .with_role(Role::Target, "table_1");
    let UserIntent::HriGaze(g) = hri::to_user_intent(&gaze).unwrap() else {
        panic!()
    };
    assert_eq!(g.gaze_mode, HriGazeMode::Group);
    // Custom intents are not mapped: a typed error, not a guess.
    let custom = HriIntent::new(IntentKind::Custom("make_coffee".into()));
    assert!(hri::to_user_intent(&custom).is_err());
}

#[test]
fn every_standard_intent_is_mapped() {
    for kind in IntentKind::STANDARD {
        let mut intent = HriIntent::new(kind.clone());
        for role in kind.roles().required {
            let v = if *role == Role::GazeMode { "IDLE" } else { "x" };
            intent = intent.with_role(*role, v);
        }
        assert!(HRI_INTENT_MAP.lookup(&intent).is_some(), "{kind}");
        assert!(hri::to_user_intent(&intent).is_ok(), "{kind}");
    }
}

#[test]
fn pending_and_active_intents_carry_metadata_and_the_slot_keeps_the_higher_priority() {
    use robot_runtime::hri::{Confidence, Priority};
    use robot_runtime::intent::{DropReason, IntentEvent};

    let mut component = intents::component();
    // A cloud intent: honest defaults.
    component.handle_cloud_result("intent_system_sleep", "{}");
    let meta = component.pending().unwrap().meta().clone();
    assert_eq!(meta.source, Source::Unknown);
    assert_eq!(meta.modality, Modality::Speech);
    assert_eq!(meta.priority, Priority(128));
    assert_eq!(meta.confidence, Confidence::Unstated);

    // The supervisor's dock (255) replaces it ...
    let dock = move_to("poi_docking")
        .with_source(Source::RemoteSupervisor)
        .with_modality(Modality::Other)
        .with_priority(255)
        .with_confidence(1.0);
    let text = dock.to_json().to_string();
    let outcome = component.submit(Request::hri_text(IntentSource::Hri, &text, Timestamp(0)));
    assert_eq!(
        outcome,
        IntakeOutcome::Pending {
            tag: Tag::SystemCharger,
            matched: Match::Hri {
                intent: "__intent_move_to__"
            }
        }
    );
    let events: Vec<_> = component.drain_events().collect();
    assert!(events
        .iter()
        .any(|e| matches!(e, IntentEvent::Replaced { .. })));
    // ... and a voice command (128) arriving now is dropped, with an event, not queued over it.
    let outcome = component.handle_cloud_result("intent_imperative_dance", "{}");
    assert_eq!(
        outcome,
        IntakeOutcome::Outranked {
            tag: Tag::ImperativeDance
        }
    );
    assert!(component.drain_events().any(|e| matches!(
        e,
        IntentEvent::Dropped {
            tag: Tag::ImperativeDance,
            reason: DropReason::LowerPriority {
                priority: Priority(128),
                pending: Priority(255)
            },
            ..
        }
    )));
    assert_eq!(component.pending_tag(), Some(Tag::SystemCharger));
    // The behavior that claims it sees who asked, how, and how sure.
    let guard = component.activate(Tag::SystemCharger, "Dock").unwrap();
    let meta = guard.info().meta();
    assert_eq!(meta.source, Source::RemoteSupervisor);
    assert_eq!(meta.priority, Priority::MAX);
    assert_eq!(meta.confidence, Confidence::Stated(1.0));
}

mod on_the_robot {
    use proptest::prelude::*;
    use robot_example::hri::{HriEnvelopeBytes, IntentEnvelope};
    use robot_example::intents::{self, Tag};
    use robot_example::robot::{Arrival, Robot, RunConfig};
    use robot_example::scenario::Scenario;
    use robot_example::timeline::{Entry, What};
    use robot_runtime::hri::{HriEvent, Timestamp};
    use robot_runtime::intent::{IntakeOutcome, IntentEvent, IntentSource, NotAdmitted, Request};
    use robot_runtime::wire::Wire;

    fn run(text: &str) -> Vec<Entry> {
        let scenario = Scenario::parse(text, 20);
        assert_eq!(scenario.errors, vec![]);
        Robot::new(RunConfig::default()).run(&scenario).entries
    }

    /// The position and time of the first entry whose text contains `needle`.
    fn find(entries: &[Entry], needle: &str) -> (usize, u64) {
        entries
            .iter()
            .position(|e| e.what.text().contains(needle))
            .map(|i| (i, entries[i].t_ms))
            .unwrap_or_else(|| {
                panic!(
                    "no {needle:?} in\n{}",
                    robot_example::timeline::render(entries, false)
                )
            })
    }

    const GUIDE_THEN_MENU: &str = r#"
{"t": 0, "hri": {"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "p1"}}}
{"t": 1000, "hri": {"intent": "__intent_present_content__", "data": {"object": "menu"}, "priority": 200}}
{"t": 3000, "hri": {"intent": "__intent_stop_activity__", "priority": 255}}
{"t": 4000, "hri": {"intent": "__intent_engage_with__", "data": {"recipient": "p2"}}}
"#;

    /// Causes before effects: the old holder's release comes before the start it made
    /// possible, in the same tick.
    #[test]
    fn a_holders_release_comes_before_the_start_it_made_possible() {
        let entries = run(GUIDE_THEN_MENU);
        let (released, t_released) = find(&entries, "base+speech released for guide #1");
        let (cancelled, _) = find(&entries, "cancelled for guide #1 (preempted");
        let (started, t_started) = find(&entries, "present_content (menu) started");
        assert!(
            released < cancelled && cancelled < started,
            "{released} {cancelled} {started}"
        );
        assert_eq!(t_released, t_started);
    }

    /// The base needs 150 ms to brake, the screen 50 ms, and an engagement lasts 1.5 s: each
    /// is reported when that much robot time has passed since it began, not a tick earlier.
    #[test]
    fn halt_and_run_durations_are_reported_as_they_elapse() {
        let entries = run(GUIDE_THEN_MENU);
        let (_, asked) = find(&entries, "guide stopping (150 ms)");
        let (_, stopped) = find(&entries, "mission/guide: guide stopped");
        assert_eq!(stopped - asked, 150);
        let (_, asked) = find(&entries, "present_content stopping (50 ms)");
        let (_, stopped) = find(&entries, "present_content stopped");
        assert_eq!(stopped - asked, 50);
        let (_, started) = find(&entries, "engage (p2) started (1500 ms)");
        let (_, ended) = find(&entries, "engage succeeded");
        assert_eq!(ended - started, 1500);
        let (_, _) = find(&entries, "released for guide #1 (stopped after 3 ticks)");
    }

    /// An unknown field is reported on the timeline (the intake's warning), and the intent
    /// still runs without it.
    #[test]
    fn an_unknown_hri_field_is_a_timeline_line() {
        let mut robot = Robot::new(RunConfig::default());
        robot.begin_tick(0);
        let text =
            r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"hall\"}", "priorty": 255}"#;
        let outcome = robot.submit(
            Request::hri_text(IntentSource::Hri, text, robot.now()),
            Arrival::live(),
            std::time::Duration::ZERO,
        );
        assert_eq!(
            outcome,
            IntakeOutcome::ToMissions {
                tag: Tag::HriMoveTo
            }
        );
        let lines: Vec<String> = robot.entries().iter().map(|e| e.what.text()).collect();
        assert_eq!(
            lines[..2],
            [
                format!("hri {text}  (live)"),
                "ignored: HRI warning: `priorty` is not a field of the intent message (did you \
              mean `priority`?); its value is not used"
                    .to_owned()
            ]
        );
        // The mission controller took it: navigation to the hall.
        assert!(
            robot
                .entries()
                .iter()
                .any(|e| matches!(&e.what, What::Resource { holder, change: "granted", .. } if holder.starts_with("navigate"))),
            "{lines:#?}"
        );
    }

    fn dock(id: u64) -> Vec<u8> {
        let mut env = IntentEnvelope {
            id,
            ..IntentEnvelope::default()
        };
        env.intent.intent = "__intent_move_to__".into();
        env.intent.data = r#"{"goal": "poi_docking"}"#.into();
        env.intent.priority = 255;
        env.confidence_unstated = true;
        env.pack().unwrap()
    }

    fn mutate(mut bytes: Vec<u8>, edits: &[(usize, u8, u8)]) -> Vec<u8> {
        for &(at, kind, value) in edits {
            if bytes.is_empty() {
                bytes.push(value);
                continue;
            }
            let at = at % bytes.len();
            match kind % 4 {
                0 => bytes[at] = value,
                1 => bytes.truncate(at),
                2 => bytes.insert(at, value),
                _ => bytes[at] ^= 1 << (value % 8),
            }
        }
        bytes
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// A packed `Hri::IntentEnvelope` from another process, garbled any way: never a
        /// panic, a typed error or an admitted intent, and the next valid envelope is still
        /// admitted.
        #[test]
        fn garbled_envelopes_are_typed_errors_and_the_next_one_still_runs(
            edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 0..6),
            noise in prop::collection::vec(any::<u8>(), 0..80),
            raw in any::<bool>(),
        ) {
            let bytes = if raw { noise } else { mutate(dock(7), &edits) };
            let mut c = intents::component();
            let a = c.submit(HriEnvelopeBytes { bytes: &bytes, arrived: Timestamp(0) });
            let events: Vec<HriEvent> = c
                .drain_events()
                .filter_map(|e| match e { IntentEvent::Hri(e) => Some(e), _ => None })
                .collect();
            prop_assert!(!events.is_empty());
            if let IntakeOutcome::NotAdmitted(NotAdmitted::Rejected(_)) = a {
                let typed = events.iter().any(|e| matches!(e, HriEvent::Rejected { errors, .. } if !errors.is_empty()));
                prop_assert!(typed, "{:?}", events);
            }
            let next = c.submit(HriEnvelopeBytes { bytes: &dock(1_000_000), arrived: Timestamp(10_000) });
            prop_assert!(
                matches!(next, IntakeOutcome::Pending { tag: Tag::SystemCharger, .. }),
                "{:?}",
                next
            );
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// A packed envelope is read as a borrowed view: the same fields and envelope as the
    /// owned decode, and for bytes that do not decode (cut anywhere, a string made invalid
    /// UTF-8) the same reason.
    #[test]
    fn the_envelope_view_reads_as_the_owned_decode(
        intent in ".{0,24}", data in ".{0,40}", source in ".{0,12}", modality in ".{0,12}",
        correlation in ".{0,8}", id in proptest::prelude::any::<u64>(),
        created in proptest::prelude::any::<u64>(), expires in proptest::prelude::any::<u64>(),
        priority in proptest::prelude::any::<u8>(), confidence in proptest::prelude::any::<f32>(),
        unstated in proptest::prelude::any::<bool>(),
        cut in proptest::prelude::any::<proptest::sample::Index>(),
        flip in proptest::prelude::any::<proptest::sample::Index>(),
    ) {
        use robot_example::hri::IntentEnvelopeView;
        use robot_runtime::wire::WireView;
        let mut env = IntentEnvelope::default();
        (env.intent.intent, env.intent.data, env.intent.source, env.intent.modality) =
            (intent, data, source, modality);
        (env.id, env.created_ms, env.expires_ms, env.correlation) = (id, created, expires, correlation);
        (env.intent.priority, env.intent.confidence, env.confidence_unstated) = (priority, confidence, unstated);
        let bytes = env.pack().unwrap();
        let view = IntentEnvelopeView::unpack_view(&bytes).unwrap();
        let (owned_fields, owned_envelope) = hri::envelope(&env);
        let (view_fields, view_envelope) = hri::envelope_view(&view);
        proptest::prop_assert_eq!(format!("{owned_fields:?}"), format!("{view_fields:?}"));
        proptest::prop_assert_eq!(owned_envelope, view_envelope);
        let mut broken = bytes[..cut.index(bytes.len())].to_vec();
        let whole = bytes.clone();
        let mut bad_utf8 = whole.clone();
        bad_utf8[flip.index(whole.len())] = 0xff;
        for b in [&mut broken, &mut bad_utf8] {
            let owned = IntentEnvelope::unpack(b).map(|_| ()).map_err(|e| e.to_string());
            let viewed = IntentEnvelopeView::unpack_view(b).map(|_| ()).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(owned, viewed);
        }
    }
}
