//! De-duplication exists so that the robot does not do one thing twice, never so that it
//! ignores a changed request (the rule: `robot_runtime::hri::Deduplicator`). Each case runs
//! through the intake and the mission controller, as a robot does.

mod support;

use robot_runtime::hri::{Admission, Envelope, HriEvent, HriIntake, IntentKind, Timestamp};
use robot_runtime::mission::{
    CancelReason, CapabilityId, MissionConfig, MissionController, MissionEvent, Outcome, RequestId,
};
use support::{intake, Log, Res, Scripted};

struct Robot {
    intake: HriIntake,
    mc: MissionController<Res>,
    navigate: CapabilityId,
}

fn robot() -> Robot {
    let log = Log::default();
    let mut mc = MissionController::new(MissionConfig::default());
    let navigate = mc.register(Scripted::new("navigate", &[Res::Base], &log));
    mc.route(IntentKind::MoveTo, navigate);
    Robot {
        intake: intake(),
        mc,
        navigate,
    }
}

impl Robot {
    /// Receives `json` at `t` ms; an executed intent goes to the controller.
    fn hear(&mut self, json: &str, t: u64) -> Admission {
        let a = self
            .intake
            .receive_json(json, Envelope::new(), Timestamp(t));
        if let Admission::Execute(record) = &a {
            self.mc.handle_intent(record.clone());
        }
        a
    }

    fn navigation(&self) -> Option<RequestId> {
        self.mc.running_request(self.navigate).map(|r| r.id)
    }
}

fn move_to(confidence: f32) -> String {
    format!(
        r#"{{"intent": "__intent_move_to__", "data": "{{\"goal\": \"kitchen\"}}",
          "source": "person_1", "modality": "__modality_speech__", "confidence": {confidence}}}"#
    )
}

const STOP: &str = r#"{"intent": "__intent_stop_activity__", "source": "person_1",
  "modality": "__modality_speech__", "priority": 200}"#;
const SUSPEND: &str = r#"{"intent": "__intent_suspend__"}"#;
const WAKEUP: &str = r#"{"intent": "__intent_wakeup__"}"#;

#[test]
fn a_clearer_restatement_of_an_ignored_request_is_executed() {
    let mut r = robot();
    assert!(matches!(r.hear(&move_to(0.2), 0), Admission::Ignored(_)));
    assert!(matches!(r.hear(&move_to(1.0), 1200), Admission::Execute(_)));
    assert!(r.navigation().is_some());
}

#[test]
fn a_clearer_restatement_of_an_unconfirmed_request_is_executed() {
    let mut r = robot();
    assert!(matches!(r.hear(&move_to(0.5), 0), Admission::Confirm(_)));
    assert!(matches!(r.hear(&move_to(1.0), 1500), Admission::Execute(_)));
    assert!(r.navigation().is_some());
}

#[test]
fn a_restatement_that_says_no_more_is_a_duplicate() {
    let mut r = robot();
    // The same unclear utterance through two recognisers: reported once as ignored.
    assert!(matches!(r.hear(&move_to(0.2), 0), Admission::Ignored(_)));
    assert!(matches!(
        r.hear(&move_to(0.1), 300),
        Admission::Duplicate { .. }
    ));
    // A touchscreen and a voice command for the same thing: executed once, whatever the
    // voice's confidence.
    let mut r = robot();
    let touch = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"kitchen\"}",
      "source": "__unknown_agent__", "modality": "__modality_touchscreen__"}"#;
    let Admission::Execute(first) = r.hear(touch, 0) else {
        panic!()
    };
    let Admission::Duplicate { of, .. } = r.hear(&move_to(1.0), 400) else {
        panic!("the robot is already doing it")
    };
    assert_eq!(of, first.id);
    assert!(r
        .intake
        .drain_events()
        .iter()
        .any(|e| matches!(e, HriEvent::Duplicate { .. })));
    let started =
        r.mc.drain_events()
            .into_iter()
            .filter(|e| matches!(e, MissionEvent::Started { .. }))
            .count();
    assert_eq!(started, 1);
}

#[test]
fn stop_move_to_stop_stops_the_navigation() {
    let mut r = robot();
    assert!(matches!(r.hear(STOP, 0), Admission::Execute(_)));
    assert!(matches!(r.hear(&move_to(1.0), 500), Admission::Execute(_)));
    let nav = r.navigation().expect("navigating");
    r.mc.drain_events();
    // 1.2 s after the first STOP: a new request, because a MOVE_TO ran in between.
    assert!(matches!(r.hear(STOP, 1200), Admission::Execute(_)));
    assert_eq!(r.mc.phase(nav), None, "the navigation keeps running");
    assert!(matches!(
        r.mc.drain_events().iter().find_map(|e| match e {
            MissionEvent::Finished { request, outcome } if *request == nav => Some(outcome.clone()),
            _ => None,
        }),
        Some(Outcome::Cancelled {
            reason: CancelReason::Stopped { .. },
            ..
        })
    ));
}

#[test]
fn suspend_wakeup_suspend_leaves_the_robot_suspended() {
    let mut r = robot();
    assert!(matches!(r.hear(SUSPEND, 0), Admission::Execute(_)));
    assert!(matches!(r.hear(WAKEUP, 400), Admission::Execute(_)));
    assert!(!r.mc.is_suspended());
    assert!(matches!(r.hear(SUSPEND, 900), Admission::Execute(_)));
    assert!(r.mc.is_suspended(), "the robot stays awake");
}

#[test]
fn a_restatement_after_the_window_or_after_a_state_change_is_new() {
    let mut r = robot();
    assert!(matches!(r.hear(&move_to(1.0), 0), Admission::Execute(_)));
    assert!(matches!(
        r.hear(&move_to(1.0), 2000),
        Admission::Duplicate { .. }
    ));
    // The window (2000 ms) counts from the admission.
    assert!(matches!(r.hear(&move_to(1.0), 2001), Admission::Execute(_)));
    assert!(matches!(
        r.hear(&move_to(1.0), 2100),
        Admission::Duplicate { .. }
    ));
    // The robot reports that its state changed by itself (the navigation ended): "go to the
    // kitchen" again is a new request at once.
    r.intake.note_state_change();
    assert!(matches!(r.hear(&move_to(1.0), 2200), Admission::Execute(_)));
}
