//! The seed documents' examples, end to end: JSON intent → intake → mission controller →
//! arbitration → capabilities, in virtual time.

mod support;

use robot_runtime::hri::{
    Admission, ConfidenceDecision, Envelope, HriEvent, IntentKind, Modality, Priority, Role,
    Source, Timestamp,
};
use robot_runtime::mission::{
    CancelReason, CapabilityId, CapabilityPolicy, ControlIgnoredReason, Decision, HaltReason,
    Handling, MissionConfig, MissionController, MissionEvent, OnPreempt, Outcome, Phase,
    RejectReason, RequestId, WhenBusy,
};
use support::{admit, intake, Log, Res, Scripted};

struct Robot {
    mc: MissionController<Res>,
    log: Log,
    engage: CapabilityId,
    navigate: CapabilityId,
    dock: CapabilityId,
    activity: CapabilityId,
    present: CapabilityId,
    guide: CapabilityId,
}

/// The robot of the seed examples. `guide_halt`: how many ticks GUIDE takes to stop
/// (`None`: never).
fn robot(guide_halt: Option<u32>) -> Robot {
    let log = Log::default();
    let mut mc = MissionController::new(MissionConfig::default());
    let engage = mc.register(Scripted::new("engage", &[Res::Head, Res::Speech], &log).runs(3));
    let navigate = mc.register(Scripted::new("navigate", &[Res::Base], &log).runs(10));
    let dock = mc.register(Scripted::new("dock", &[Res::Base], &log).runs(5).policy(
        CapabilityPolicy {
            rank: 10,
            preemptible: false,
            ..CapabilityPolicy::default()
        },
    ));
    let activity = mc.register(
        Scripted::new("activity", &[Res::Screen, Res::Speech, Res::Head], &log)
            .runs(20)
            .policy(CapabilityPolicy {
                on_preempt: OnPreempt::Pause,
                ..CapabilityPolicy::default()
            }),
    );
    let present = mc.register(Scripted::new("present", &[Res::Screen], &log).runs(4));
    let guide = mc.register(
        Scripted::new("guide", &[Res::Base, Res::Head, Res::Speech], &log)
            .runs(30)
            .halts_in(guide_halt),
    );
    mc.route(IntentKind::EngageWith, engage)
        .route_when(IntentKind::MoveTo, Role::Goal, "poi_docking", dock)
        .route(IntentKind::MoveTo, navigate)
        .route(IntentKind::StartActivity, activity)
        .route(IntentKind::PresentContent, present)
        .route(IntentKind::Guide, guide);
    Robot {
        mc,
        log,
        engage,
        navigate,
        dock,
        activity,
        present,
        guide,
    }
}

fn decision_of(events: &[MissionEvent], id: RequestId) -> Option<&Decision> {
    events.iter().find_map(|e| match e {
        MissionEvent::Decided {
            request, decision, ..
        } if *request == id => Some(decision),
        _ => None,
    })
}

fn outcome_of(events: &[MissionEvent], id: RequestId) -> Option<&Outcome> {
    events.iter().find_map(|e| match e {
        MissionEvent::Finished { request, outcome } if *request == id => Some(outcome),
        _ => None,
    })
}

fn request(h: Handling) -> RequestId {
    match h {
        Handling::Request(r) => r,
        other => panic!("expected a request, got {other:?}"),
    }
}

const ENGAGE: &str = r#"{"intent": "__intent_engage_with__", "data": "{\"recipient\": \"person_1\"}",
  "source": "person_1", "modality": "__modality_motion__", "priority": 128, "confidence": 0.6}"#;
const MOVE_ROOM_X: &str = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"room_X\"}",
  "source": "__unknown_agent__", "modality": "__modality_touchscreen__", "priority": 200,
  "confidence": 1.0}"#;
const MEMORY_GAME: &str = r#"{"intent": "__intent_start_activity__",
  "data": "{\"object\": \"memory_game\"}", "source": "person_1",
  "modality": "__modality_speech__", "priority": 100, "confidence": 0.9}"#;
const GUIDE: &str = r#"{"intent": "__intent_guide__",
  "data": "{\"goal\": \"cafeteria\", \"recipient\": \"person_1\"}", "source": "person_1",
  "modality": "__modality_speech__", "priority": 128, "confidence": 0.85}"#;
const CANCEL_BUTTON: &str = r#"{"intent": "__intent_stop_activity__", "data": "{}",
  "source": "__unknown_agent__", "modality": "__modality_touchscreen__", "priority": 255,
  "confidence": 1.0}"#;
const DOCK: &str = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"poi_docking\"}",
  "source": "__remote_supervisor__", "modality": "__modality_other__", "priority": 255,
  "confidence": 1.0}"#;

#[test]
fn person_approaching_engages_at_confidence_0_6() {
    let mut r = robot(Some(0));
    let mut intake = intake();
    let record = admit(&mut intake, ENGAGE, 0);
    assert_eq!(record.decision, ConfidenceDecision::Execute);
    assert_eq!(record.intent.modality, Modality::Motion);
    assert_eq!(record.intent.source, Source::Person("person_1".into()));
    let id = request(r.mc.handle_intent(record));
    let ev = r.mc.drain_events();
    assert_eq!(decision_of(&ev, id), Some(&Decision::Granted));
    // The capability sees the intent's metadata.
    let running = r.mc.running_request(r.engage).unwrap();
    let meta = running.intent.as_ref().unwrap();
    assert_eq!(meta.intent.confidence.value(), Some(0.6));
    assert_eq!(meta.arrived, Timestamp(0));
    assert_eq!(running.object.as_deref(), Some("person_1"));
    for t in 1..=3 {
        r.mc.tick(Timestamp(t * 100));
    }
    assert_eq!(
        outcome_of(&r.mc.drain_events(), id),
        Some(&Outcome::Completed)
    );
    // The same gesture perceived with less confidence asks for confirmation instead: a
    // MOVE_TO at 0.6 is in the confirm band.
    let low = MOVE_ROOM_X.replace("\"confidence\":\n  1.0", "\"confidence\": 0.6");
    let low = low.replace("1.0}", "0.6}");
    assert!(matches!(
        intake.receive_json(&low, Envelope::new(), Timestamp(1000)),
        Admission::Confirm(_)
    ));
}

#[test]
fn touchscreen_move_to_runs_beside_engagement_and_game_queues_behind_it() {
    let mut r = robot(Some(0));
    let mut intake = intake();
    let engage = request(r.mc.handle_intent(admit(&mut intake, ENGAGE, 0)));
    let nav = request(r.mc.handle_intent(admit(&mut intake, MOVE_ROOM_X, 10)));
    let game = request(r.mc.handle_intent(admit(&mut intake, MEMORY_GAME, 20)));
    let ev = r.mc.drain_events();
    assert_eq!(
        decision_of(&ev, nav),
        Some(&Decision::Granted),
        "disjoint: base only"
    );
    assert_eq!(
        decision_of(&ev, game),
        Some(&Decision::Queued {
            blocked_by: vec![engage]
        }),
        "priority 100 < 128 on head and speech"
    );
    assert_eq!(
        r.mc.running_request(r.navigate).unwrap().priority,
        Priority(200)
    );
    for t in 1..=3 {
        r.mc.tick(Timestamp(t * 100));
    }
    let ev = r.mc.drain_events();
    assert_eq!(outcome_of(&ev, engage), Some(&Outcome::Completed));
    assert_eq!(decision_of(&ev, game), Some(&Decision::Granted));
    assert_eq!(r.mc.phase(game), Some(Phase::Running));
    let game_req = r.mc.running_request(r.activity).unwrap();
    assert_eq!(game_req.object.as_deref(), Some("memory_game"));
}

#[test]
fn present_content_from_touchscreen_and_speech_is_one_request() {
    let mut r = robot(Some(0));
    let mut intake = intake();
    let touch = r#"{"intent": "__intent_present_content__", "data": "{\"object\": \"menu\"}",
      "source": "__unknown_agent__", "modality": "__modality_touchscreen__", "priority": 128}"#;
    let speech = r#"{"intent": "__intent_present_content__", "data": "{\"object\": \"menu\"}",
      "source": "person_2", "modality": "speech", "priority": 128, "confidence": 0.8}"#;
    let id = request(r.mc.handle_intent(admit(&mut intake, touch, 0)));
    let dup = intake.receive_json(speech, Envelope::new(), Timestamp(500));
    let Admission::Duplicate { of, .. } = dup else {
        panic!("expected duplicate, got {dup:?}");
    };
    let events = intake.drain_events();
    assert!(events.iter().any(|e| matches!(e,
        HriEvent::Duplicate { source: Source::Person(p), modality: Modality::Speech, .. } if p == "person_2")));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, HriEvent::Normalized { .. })),
        "legacy `speech` reported"
    );
    let ev = r.mc.drain_events();
    assert_eq!(decision_of(&ev, id), Some(&Decision::Granted));
    assert_eq!(
        r.mc.running_request(r.present).unwrap().object.as_deref(),
        Some("menu")
    );
    // Different content by speech later is a new request: it queues behind the screen.
    let other = speech.replace("menu", "map");
    let second = request(r.mc.handle_intent(admit(&mut intake, &other, 600)));
    assert!(matches!(
        decision_of(&r.mc.drain_events(), second),
        Some(Decision::Queued { .. })
    ));
    let _ = of;
}

#[test]
fn guide_by_speech_then_cancel_button_stops_it() {
    let mut r = robot(Some(1));
    let mut intake = intake();
    let guide = request(r.mc.handle_intent(admit(&mut intake, GUIDE, 0)));
    assert_eq!(r.mc.phase(guide), Some(Phase::Running));
    let handled = r.mc.handle_intent(admit(&mut intake, CANCEL_BUTTON, 100));
    assert_eq!(handled, Handling::Control);
    assert_eq!(r.mc.phase(guide), Some(Phase::Halting));
    r.mc.tick(Timestamp(200));
    let ev = r.mc.drain_events();
    assert!(ev.iter().any(|e| matches!(e,
        MissionEvent::HaltRequested { request, reason: HaltReason::Stopped(Some(_)) } if *request == guide)));
    assert!(matches!(
        outcome_of(&ev, guide),
        Some(Outcome::Cancelled {
            reason: CancelReason::Stopped { by: Some(_) },
            forced: false
        })
    ));
    // A second press finds nothing to stop and says so.
    // (3 s later: within the de-duplication window the press would be a duplicate.)
    r.mc.handle_intent(admit(&mut intake, CANCEL_BUTTON, 3000));
    assert!(r.mc.drain_events().iter().any(|e| matches!(
        e,
        MissionEvent::ControlIgnored {
            reason: ControlIgnoredReason::NothingMatches,
            ..
        }
    )));
    assert!(r.mc.is_idle());
}

#[test]
fn supervisor_dock_preempts_guide_halt_before_start() {
    let mut r = robot(Some(2));
    let mut intake = intake();
    let guide = request(r.mc.handle_intent(admit(&mut intake, GUIDE, 0)));
    r.mc.tick(Timestamp(100));
    let dock = request(r.mc.handle_intent(admit(&mut intake, DOCK, 150)));
    let ev = r.mc.drain_events();
    assert_eq!(
        decision_of(&ev, dock),
        Some(&Decision::Preempting {
            victims: vec![guide]
        })
    );
    // The guide is still stopping: the dock has not started and the base is the guide's.
    assert_eq!(r.mc.phase(dock), Some(Phase::WaitingForHalt(vec![guide])));
    assert!(!r.log.borrow().contains(&"start dock".to_owned()));
    r.mc.tick(Timestamp(200));
    assert_eq!(r.mc.phase(dock), Some(Phase::WaitingForHalt(vec![guide])));
    r.mc.tick(Timestamp(300));
    let ev = r.mc.drain_events();
    assert!(matches!(
        outcome_of(&ev, guide),
        Some(Outcome::Cancelled {
            reason: CancelReason::Preempted { by },
            forced: false
        }) if *by == dock
    ));
    let log = r.log.borrow().clone();
    let halted = log.iter().position(|l| l == "halted guide").unwrap();
    let started = log.iter().position(|l| l == "start dock").unwrap();
    assert!(halted < started, "halt before start: {log:?}");
    assert_eq!(r.mc.phase(dock), Some(Phase::Running));
    let meta =
        r.mc.running_request(r.dock)
            .unwrap()
            .intent
            .clone()
            .unwrap();
    assert_eq!(meta.intent.source, Source::RemoteSupervisor);
    // Docking is not preemptible: even a priority-255 guide request waits.
    let again = request(r.mc.handle_intent(admit(&mut intake, &GUIDE.replace("128", "255"), 4000)));
    assert_eq!(
        decision_of(&r.mc.drain_events(), again),
        Some(&Decision::Queued {
            blocked_by: vec![dock]
        })
    );
    let _ = (r.engage, r.navigate, r.activity, r.present, r.guide);
}

#[test]
fn a_guide_that_never_stops_is_force_released_and_reported() {
    let mut r = robot(None);
    let mut intake = intake();
    let guide = request(r.mc.handle_intent(admit(&mut intake, GUIDE, 0)));
    let dock = request(r.mc.handle_intent(admit(&mut intake, DOCK, 10)));
    for t in 1..=3 {
        r.mc.tick(Timestamp(t * 100));
    }
    let ev = r.mc.drain_events();
    assert!(ev.iter().any(|e| matches!(e,
        MissionEvent::HaltTimedOut { request, ticks: 3, .. } if *request == guide)));
    assert!(matches!(
        outcome_of(&ev, guide),
        Some(Outcome::Cancelled { forced: true, .. })
    ));
    assert_eq!(r.mc.phase(dock), Some(Phase::Running));
    // The guide capability is unresponsive until it confirms: new guide requests are refused.
    let again =
        request(r.mc.handle_intent(admit(&mut intake, &GUIDE.replace("cafeteria", "lab"), 400)));
    assert_eq!(
        decision_of(&r.mc.drain_events(), again),
        Some(&Decision::Rejected(RejectReason::CapabilityUnresponsive(
            r.guide
        )))
    );
}

#[test]
fn paused_activity_continues_suspend_and_wakeup() {
    let mut r = robot(Some(0));
    let mut intake = intake();
    let game = request(r.mc.handle_intent(admit(&mut intake, MEMORY_GAME, 0)));
    let guide = request(r.mc.handle_intent(admit(&mut intake, GUIDE, 10)));
    assert_eq!(
        r.mc.phase(game),
        Some(Phase::Paused),
        "activity pauses when preempted"
    );
    assert_eq!(r.mc.phase(guide), Some(Phase::Running));
    r.mc.handle_intent(admit(&mut intake, CANCEL_BUTTON, 20));
    let cont = r#"{"intent": "__intent_continue_activity__", "source": "person_1",
      "modality": "__modality_speech__", "confidence": 0.9}"#;
    r.mc.handle_intent(admit(&mut intake, cont, 30));
    assert_eq!(r.mc.phase(game), Some(Phase::Running));
    let ev = r.mc.drain_events();
    assert!(ev.iter().any(|e| matches!(e,
        MissionEvent::Started { request, resumed: true, .. } if *request == game)));
    // SUSPEND halts (pausing the game), refuses requests; WAKEUP accepts them again.
    r.mc.handle_intent(admit(
        &mut intake,
        r#"{"intent": "__intent_suspend__"}"#,
        40,
    ));
    assert!(r.mc.is_suspended());
    assert_eq!(r.mc.phase(game), Some(Phase::Paused));
    let nav = request(r.mc.handle_intent(admit(&mut intake, MOVE_ROOM_X, 50)));
    assert_eq!(
        outcome_of(&r.mc.drain_events(), nav),
        Some(&Outcome::Rejected(RejectReason::Suspended))
    );
    r.mc.handle_intent(admit(&mut intake, r#"{"intent": "__intent_wakeup__"}"#, 60));
    assert!(!r.mc.is_suspended());
    let nav = request(r.mc.handle_intent(admit(
        &mut intake,
        &MOVE_ROOM_X.replace("room_X", "room_Y"),
        70,
    )));
    assert_eq!(
        decision_of(&r.mc.drain_events(), nav),
        Some(&Decision::Granted)
    );
    // STOP with an object cancels the paused game by its activity name.
    let stop = r#"{"intent": "__intent_cancel_activity__", "data": "{\"object\": \"memory_game\"}",
      "priority": 200}"#;
    r.mc.handle_intent(admit(&mut intake, stop, 80));
    assert!(matches!(
        outcome_of(&r.mc.drain_events(), game),
        Some(Outcome::Cancelled {
            reason: CancelReason::Stopped { .. },
            ..
        })
    ));
}

#[test]
fn a_low_priority_stop_cannot_stop_the_supervisor() {
    let mut r = robot(Some(0));
    let mut intake = intake();
    let dock = request(r.mc.handle_intent(admit(&mut intake, DOCK, 0)));
    let weak = CANCEL_BUTTON.replace("255", "128");
    r.mc.handle_intent(admit(&mut intake, &weak, 10));
    let ev = r.mc.drain_events();
    assert!(ev.iter().any(|e| matches!(e,
        MissionEvent::ControlIgnored { reason: ControlIgnoredReason::Outranked { requests }, .. }
        if requests == &vec![dock])));
    assert_eq!(r.mc.phase(dock), Some(Phase::Running));
}

#[test]
fn raw_user_input_is_routed_or_reported_and_unrouted_intents_are_reported() {
    let mut r = robot(Some(0));
    let mut intake = intake();
    let raw = r#"{"intent": "__raw_user_input__", "data": "{\"input\": \"what's up\", \"locale\": \"en_GB\"}",
      "source": "person_1", "modality": "__modality_speech__", "confidence": 1.0}"#;
    assert_eq!(
        r.mc.handle_intent(admit(&mut intake, raw, 0)),
        Handling::RawInput(false)
    );
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let s = seen.clone();
    r.mc.on_raw_input(move |rec| {
        s.borrow_mut()
            .push(rec.intent.role(Role::Input).unwrap_or_default().to_owned());
        true
    });
    let raw2 = raw.replace("what's up", "hello");
    assert_eq!(
        r.mc.handle_intent(admit(&mut intake, &raw2, 10)),
        Handling::RawInput(true)
    );
    assert_eq!(*seen.borrow(), ["hello"]);
    let say = r#"{"intent": "__intent_say__", "data": "{\"object\": \"hi\"}"}"#;
    assert_eq!(
        r.mc.handle_intent(admit(&mut intake, say, 20)),
        Handling::Unroutable
    );
    assert!(r.mc.drain_events().iter().any(|e| matches!(e,
        MissionEvent::Unroutable { wire, .. } if wire == "__intent_say__")));
}

#[test]
fn expired_queued_requests_are_cancelled_and_busy_rejecting_capabilities_refuse() {
    let log = Log::default();
    let mut mc = MissionController::new(MissionConfig { queue_capacity: 1 });
    let arm = mc.register(Scripted::new("wave", &[Res::RightArm], &log).runs(10));
    let grab = mc.register(
        Scripted::new("grab", &[Res::RightArm, Res::LeftArm], &log).policy(CapabilityPolicy {
            when_busy: WhenBusy::Reject,
            ..CapabilityPolicy::default()
        }),
    );
    let first = mc.submit(arm, Priority(200), None);
    let refused = mc.submit(grab, Priority(100), None);
    let ev = mc.drain_events();
    assert_eq!(
        outcome_of(&ev, refused),
        Some(&Outcome::Rejected(RejectReason::Busy {
            holders: vec![first]
        }))
    );
    let mut intake = intake();
    let expiring = intake.receive_json(
        r#"{"intent": "__intent_perform_motion__", "data": "{\"object\": \"wave\"}"}"#,
        robot_runtime::hri::Envelope::new().expires(Timestamp(50)),
        Timestamp(0),
    );
    let Admission::Execute(record) = expiring else {
        panic!()
    };
    mc.route(IntentKind::PerformMotion, arm);
    let queued = request(mc.handle_intent(record));
    // Queue of 1: a second, lower request is refused; a higher one pushes the first out.
    let low = mc.submit(arm, Priority(10), None);
    assert_eq!(
        outcome_of(&mc.drain_events(), low),
        Some(&Outcome::Rejected(RejectReason::QueueFull))
    );
    mc.tick(Timestamp(100));
    assert!(matches!(
        outcome_of(&mc.drain_events(), queued),
        Some(Outcome::Cancelled {
            reason: CancelReason::Expired,
            ..
        })
    ));
}

/// Spec A.3: `STOP_ACTIVITY` / `CANCEL_ACTIVITY` take an optional `object`, "unset = current
/// main activity"; the spec's own cancel-task example sends `{"object": ""}`. An empty object
/// is no object: the cancel button stops what runs.
#[test]
fn an_empty_object_cancels_the_current_main_activity() {
    for intent in ["__intent_cancel_activity__", "__intent_stop_activity__"] {
        let mut r = robot(Some(0));
        let mut intake = intake();
        let guide = request(r.mc.handle_intent(admit(&mut intake, GUIDE, 0)));
        assert_eq!(r.mc.phase(guide), Some(Phase::Running));
        r.mc.drain_events();
        let cancel = format!(
            r#"{{"intent": "{intent}", "data": "{{\"object\": \"\"}}",
              "source": "__unknown_agent__", "modality": "__modality_touchscreen__",
              "priority": 255, "confidence": 1.0}}"#
        );
        assert_eq!(
            r.mc.handle_intent(admit(&mut intake, &cancel, 100)),
            Handling::Control
        );
        let ev = r.mc.drain_events();
        assert!(
            !ev.iter()
                .any(|e| matches!(e, MissionEvent::ControlIgnored { .. })),
            "{intent}: {ev:?}"
        );
        assert!(
            matches!(
                outcome_of(&ev, guide),
                Some(Outcome::Cancelled {
                    reason: CancelReason::Stopped { by: Some(_) },
                    forced: false
                })
            ),
            "{intent}: {ev:?}"
        );
        assert!(r.mc.is_idle());
    }
    // The same in code: `stop(Some(""))` is `stop(None)`.
    let mut r = robot(Some(0));
    let nav =
        r.mc.submit(r.navigate, Priority(128), Some("room_X".into()));
    r.mc.stop(Some("  "), Priority(255));
    assert!(matches!(
        outcome_of(&r.mc.drain_events(), nav),
        Some(Outcome::Cancelled { .. })
    ));
}

/// A capability that confirms its halt only once `stuck` is cleared, and counts its starts.
struct Stubborn {
    stuck: std::rc::Rc<std::cell::Cell<bool>>,
    starts: std::rc::Rc<std::cell::Cell<u32>>,
}

impl robot_runtime::mission::Capability<Res> for Stubborn {
    fn name(&self) -> &str {
        "wave"
    }
    fn resources(&self) -> robot_runtime::mission::ResourceSet<Res> {
        robot_runtime::mission::ResourceSet::of(&[Res::RightArm])
    }
    fn policy(&self) -> CapabilityPolicy {
        CapabilityPolicy {
            halt_timeout_ticks: 2,
            ..CapabilityPolicy::default()
        }
    }
    fn start(&mut self, _: &robot_runtime::mission::Request) -> Result<(), String> {
        self.starts.set(self.starts.get() + 1);
        Ok(())
    }
    fn tick(&mut self) -> robot_runtime::mission::Progress {
        robot_runtime::mission::Progress::Running
    }
    fn halt(&mut self) -> robot_runtime::mission::HaltProgress {
        if self.stuck.get() {
            robot_runtime::mission::HaltProgress::Halting
        } else {
            robot_runtime::mission::HaltProgress::Halted
        }
    }
}

/// The capability contract (`mission::capability`): a capability that did not confirm its
/// halt is force-released, and requests are rejected until it confirms — queued ones and one
/// waiting for that very halt included; `start` is never called on it meanwhile.
#[test]
fn a_force_released_capability_gets_no_queued_request_until_it_confirms() {
    use std::cell::Cell;
    use std::rc::Rc;
    let stuck = Rc::new(Cell::new(true));
    let starts = Rc::new(Cell::new(0));
    let mut mc = MissionController::new(MissionConfig::default());
    let wave = mc.register(Stubborn {
        stuck: stuck.clone(),
        starts: starts.clone(),
    });
    let mut now = 0;
    let mut tick = |mc: &mut MissionController<Res>| {
        now += 100;
        mc.tick(Timestamp(now));
    };

    // A request queued behind one of the same capability, which is then stopped and never
    // confirms.
    let first = mc.submit(wave, Priority(100), Some("hello".into()));
    let queued = mc.submit(wave, Priority(50), Some("bye".into()));
    assert_eq!(mc.phase(queued), Some(Phase::Queued));
    mc.stop(Some("hello"), Priority(255));
    tick(&mut mc);
    tick(&mut mc);
    let ev = mc.drain_events();
    assert!(ev.iter().any(|e| matches!(e,
        MissionEvent::HaltTimedOut { request, .. } if *request == first)));
    assert_eq!(
        outcome_of(&ev, queued),
        Some(&Outcome::Rejected(RejectReason::CapabilityUnresponsive(
            wave
        )))
    );
    assert_eq!(starts.get(), 1, "start() on an unconfirmed capability");

    // It confirms: requests run again.
    stuck.set(false);
    tick(&mut mc);
    assert!(mc
        .drain_events()
        .contains(&MissionEvent::CapabilityRecovered { capability: wave }));
    let again = mc.submit(wave, Priority(100), None);
    assert_eq!(mc.phase(again), Some(Phase::Running));
    assert_eq!(starts.get(), 2);

    // A request of the same capability that preempts it, waiting for a halt that never
    // comes, is rejected when the holder is force-released.
    stuck.set(true);
    let over = mc.submit(wave, Priority(200), None);
    assert_eq!(mc.phase(over), Some(Phase::WaitingForHalt(vec![again])));
    tick(&mut mc);
    tick(&mut mc);
    let ev = mc.drain_events();
    assert_eq!(
        outcome_of(&ev, over),
        Some(&Outcome::Rejected(RejectReason::CapabilityUnresponsive(
            wave
        )))
    );
    assert_eq!(starts.get(), 2, "start() on an unconfirmed capability");
    assert!(mc.is_idle());
}
