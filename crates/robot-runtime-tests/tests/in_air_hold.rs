//! `CoordinateWhileInAir`'s lock of the treads (original-class-predicates.md §2.4): while
//! the robot is in the air (InAir or Falling) and none of WhileInAirDispatcher,
//! ReactToRobotOnBack, ReactToRobotOnFace, HeldInPalmDispatcher is active, it holds the base
//! (`BODY_TRACK`) through the robot's one arbiter, lent to nobody, unless an unlocking
//! behavior (WhatsMyNameVoiceCommand, MeetVictor) is active or the robot is in a palm; it
//! gives it back when that no longer applies and at its deactivation. Meanwhile a behavior
//! action driving the base is refused it (waits or fails, as its class says), visibly; a
//! head move runs; an animation plays without its body track; a mission capability on the
//! base waits. Trees in the original's JSON format, run by the original's classes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use original_behaviors::robot_state::OffTreads;
use original_behaviors::RobotAccessMut;
use robot_runtime::arbiter::{Body, ResourceSet, SharedArbiter, TrackLocker, WhenBlocked};
use robot_runtime::behavior::{
    Behavior, BehaviorId, Ctx, LockId, LockedParts, OperationModifiers, Runner, Spec, TreeBuilder,
    View, Wakeup,
};
use robot_runtime::hri::Priority;
use robot_runtime::intent::{IntentComponent, IntentSource};
use robot_runtime::mission::Phase;
use robot_runtime_tests::{UserIntent, UserIntentTag, MAP};

mod support;
use support::{Robot, DT};

/// The coordinator over a priority list: the in-air reaction (on a touch), MeetVictor (on
/// its intent), an animation (a beat), a head move (motion), a spin of the base (an
/// obstacle: 20 s of turning), idle. The children that must start while lifted say so in
/// the original's `behaviorModifiers`.
const TREE: &str = r#"[
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
   "behaviors": ["Asleep", "CoordinateWhileInAir"]},
  {"behaviorID": "Asleep", "behaviorClass": "Wait",
   "behaviorModifiers": {"wantsToBeActivatedWhenOffTreads": true},
   "wantsToBeActivatedCondition": {"conditionType": "OnCharger"},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}}},
  {"behaviorID": "CoordinateWhileInAir", "behaviorClass": "CoordinateWhileInAir",
   "delegateID": "GlobalInterruptions"},
  {"behaviorID": "GlobalInterruptions", "behaviorClass": "DispatcherStrictPriority",
   "interruptActiveBehavior": true,
   "behaviors": ["WhileInAirDispatcher", "MeetVictor", "Greet", "LookUp", "Spin", "Idle"]},
  {"behaviorID": "WhileInAirDispatcher", "behaviorClass": "Wait",
   "behaviorModifiers": {"wantsToBeActivatedWhenOffTreads": true},
   "wantsToBeActivatedCondition": {"conditionType": "RobotTouched"},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "RobotTouched"}}},
  {"behaviorID": "MeetVictor", "behaviorClass": "Wait", "duration_s": 5.0,
   "behaviorModifiers": {"wantsToBeActivatedWhenOffTreads": true},
   "respondToUserIntents": [{"type": "meet_victor"}]},
  {"behaviorID": "Greet", "behaviorClass": "AnimSequence", "animTriggers": ["GreetLoop"], "num_loops": 0,
   "behaviorModifiers": {"wantsToBeActivatedWhenOffTreads": true},
   "wantsToBeActivatedCondition": {"conditionType": "BeatDetected"},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "BeatDetected"}}},
  {"behaviorID": "LookUp", "behaviorClass": "MoveHeadToAngle", "headAngle_deg": 60.0,
   "wantsToBeActivatedCondition": {"conditionType": "MotionDetected"}},
  {"behaviorID": "Spin", "behaviorClass": "Turn", "shouldTurnClockwise": false, "turnDegrees": 3600.0,
   "behaviorModifiers": {"wantsToBeActivatedWhenOffTreads": true},
   "wantsToBeActivatedCondition": {"conditionType": "ObstacleDetected"}},
  {"behaviorID": "Idle", "behaviorClass": "Wait"}
]"#;

const HOLD: &str = "CoordinateWhileInAir/hold";

/// The robot running [`TREE`], its actions refused as `blocked` says, its arbiter's events
/// shown with the claims in the way.
fn robot(blocked: WhenBlocked) -> Robot {
    let mut r = support::robot(TREE, blocked, support::with_holders);
    r.ticks(2);
    assert_eq!(
        r.runner.stack_names(),
        [
            "Root",
            "CoordinateWhileInAir",
            "GlobalInterruptions",
            "Idle"
        ]
    );
    r
}

const WAIT_1S: WhenBlocked = WhenBlocked::Wait {
    up_to: Some(Duration::from_secs(1)),
};

impl Robot {
    fn coordinator_holds(&self) -> Vec<LockId> {
        self.runner
            .holds_of(self.id("CoordinateWhileInAir"))
            .collect()
    }

    fn lift(&mut self, state: OffTreads) {
        self.runner.robot_mut().set_off_treads(state);
    }
}

fn base() -> LockedParts {
    LockedParts(ResourceSet::of(&[Body::Base]).bits())
}

#[test]
fn lifted_the_base_is_held_a_drive_waits_then_fails_a_head_move_runs_and_put_down_the_drive_runs() {
    let mut r = robot(WAIT_1S);
    assert_eq!(r.holder_of(Body::Base), None);
    assert!(r.coordinator_holds().is_empty());

    // Lifted: the coordinator holds the base, visibly; it lends it to nobody.
    r.lift(OffTreads::InAir);
    r.tick();
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
    assert_eq!(r.events(), [format!("granted {HOLD} base")]);
    assert_eq!(r.coordinator_holds().len(), 1);
    assert_eq!(r.runner.held_back_parts(), (base(), base()));
    assert_eq!(
        r.runner.locked_parts(),
        (LockedParts::NONE, LockedParts::NONE),
        "nothing is lent"
    );
    // Tools see it on the coordinator.
    let coordinator = r.id("CoordinateWhileInAir");
    assert_eq!(
        r.runner.debug_state(coordinator),
        Some("holding the treads")
    );

    // A spin of the base: its turn waits for the base (its class waits up to 1 s), then
    // fails; the behavior is not stuck.
    r.runner.robot_mut().obstacle_detected = true;
    r.tick();
    let spin = r.id("Spin");
    assert_eq!(r.runner.top(), Some(spin), "{:?}", r.runner.stack_names());
    assert_eq!(r.runner.action_of(spin), Some("Turn"));
    assert_eq!(r.events(), [format!("waiting Spin/Turn {HOLD}")]);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
    r.ticks(12);
    let events = r.events();
    assert_eq!(
        events.first().map(String::as_str),
        Some(format!("refused Spin/Turn {HOLD}").as_str()),
        "{events:?}"
    );
    assert!(r.runner.starts(spin) >= 2, "ended and chosen again");
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));

    // A head move runs at once, while the base stays held.
    r.runner.robot_mut().obstacle_detected = false;
    r.runner.robot_mut().motion_detected = true;
    r.ticks(2);
    let look = r.id("LookUp");
    assert_eq!(r.runner.top(), Some(look), "{:?}", r.runner.stack_names());
    assert_eq!(r.holder_of(Body::Head).as_deref(), Some("LookUp/MoveHead"));
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));

    // Put down: the hold is given back at the coordinator's next update, and the spin
    // drives.
    r.runner.robot_mut().motion_detected = false;
    r.runner.robot_mut().obstacle_detected = true;
    r.ticks(6);
    r.lift(OffTreads::OnTreads);
    r.events();
    r.ticks(2);
    assert!(r.coordinator_holds().is_empty());
    assert_eq!(
        r.runner.held_back_parts(),
        (LockedParts::NONE, LockedParts::NONE)
    );
    assert_eq!(r.runner.debug_state(coordinator), None);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some("Spin/Turn"));
    let events = r.events();
    assert!(
        events.contains(&format!("released {HOLD} base")),
        "{events:?}"
    );
}

#[test]
fn a_drive_that_fails_when_blocked_is_refused_at_once_while_falling() {
    let mut r = robot(WhenBlocked::Fail);
    r.lift(OffTreads::Falling);
    r.tick();
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
    r.events();
    r.runner.robot_mut().obstacle_detected = true;
    r.tick();
    assert_eq!(r.events(), [format!("refused Spin/Turn {HOLD}")]);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
}

#[test]
fn a_drive_running_when_the_robot_is_lifted_is_stopped_before_the_hold_holds() {
    let mut r = robot(WAIT_1S);
    r.runner.robot_mut().obstacle_detected = true;
    r.tick();
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some("Spin/Turn"));
    r.events();
    r.lift(OffTreads::InAir);
    r.ticks(2);
    let events = r.events();
    assert_eq!(
        events[..3],
        [
            format!("preempting {HOLD} Spin/Turn"),
            "released Spin/Turn base".to_owned(),
            format!("granted {HOLD} base"),
        ],
        "halt before start: {events:?}"
    );
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
}

#[test]
fn an_animation_plays_without_its_body_track_while_the_base_is_held() {
    let mut r = robot(WAIT_1S);
    r.lift(OffTreads::InAir);
    r.tick();
    r.events();
    r.runner.robot_mut().beat_detected = true;
    r.ticks(2);
    let greet = r.id("Greet");
    assert_eq!(r.runner.action_of(greet), Some("GreetLoop"));
    assert_eq!(
        r.holders(),
        [
            format!("{HOLD} base"),
            "Greet/GreetLoop head+lift+screen+backpack_lights+audio".to_owned(),
        ]
    );
    assert_eq!(r.events(), [] as [String; 0], "nothing contested");
}

#[test]
fn an_unlocking_behavior_a_palm_or_an_in_air_reaction_leave_the_base_free() {
    let mut r = robot(WAIT_1S);
    r.lift(OffTreads::InAir);
    r.tick();
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));

    // MeetVictor (an unlocking behavior) runs: the treads are free while it does.
    r.runner
        .intents_mut()
        .set_pending_tag(UserIntentTag::MeetVictor, IntentSource::Voice);
    r.ticks(2);
    assert!(r.runner.is_on_stack(r.id("MeetVictor")));
    assert_eq!(r.holder_of(Body::Base), None);
    assert!(r.coordinator_holds().is_empty());
    r.ticks(60);
    assert!(!r.runner.is_on_stack(r.id("MeetVictor")));
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD), "held again");

    // In a palm: not held.
    r.runner.robot_mut().set_held_in_palm(true);
    r.ticks(2);
    assert_eq!(r.holder_of(Body::Base), None);
    r.runner.robot_mut().set_held_in_palm(false);
    r.ticks(2);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));

    // The in-air reaction (a blocker) runs: the coordinator stands aside.
    r.runner.robot_mut().set_touched(true);
    r.ticks(2);
    assert!(r.runner.is_on_stack(r.id("WhileInAirDispatcher")));
    assert_eq!(r.holder_of(Body::Base), None);
    r.runner.robot_mut().set_touched(false);
    r.ticks(2);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
    let events = r.events();
    assert_eq!(
        events,
        [
            format!("granted {HOLD} base"),
            format!("released {HOLD} base"),
            format!("granted {HOLD} base"),
            format!("released {HOLD} base"),
            format!("granted {HOLD} base"),
            format!("released {HOLD} base"),
            format!("granted {HOLD} base"),
        ]
    );
}

#[test]
fn deactivated_the_coordinator_gives_the_base_back() {
    let mut r = robot(WAIT_1S);
    r.lift(OffTreads::InAir);
    r.tick();
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
    // Put on the charger in the air: the higher behavior interrupts the coordinator.
    r.runner.robot_mut().on_charger = true;
    r.ticks(2);
    assert_eq!(r.runner.stack_names(), ["Root", "Asleep"]);
    assert!(r.arbiter.lock().entries().is_empty());
    assert!(r.coordinator_holds().is_empty());
    assert_eq!(
        r.events(),
        [
            format!("granted {HOLD} base"),
            format!("released {HOLD} base")
        ]
    );
    // Off the charger, still in the air: the coordinator runs again, and holds the base
    // again.
    r.runner.robot_mut().on_charger = false;
    r.ticks(3);
    assert!(r.runner.is_on_stack(r.id("CoordinateWhileInAir")));
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(HOLD));
}

#[test]
fn a_mission_on_the_base_waits_for_the_hold_and_runs_once_the_robot_is_put_down() {
    let mut r = robot(WAIT_1S);
    r.lift(OffTreads::InAir);
    r.tick();
    r.events();
    // The highest priority does not outrank a hold: the request queues (its WhenBusy).
    let drive = r.mc.submit(r.drive, Priority::MAX, None);
    r.ticks(3);
    assert!(
        matches!(r.mc.phase(drive), Some(Phase::Queued)),
        "{:?}",
        r.mc.phase(drive)
    );
    assert_eq!(r.events(), [format!("waiting mission/drive {HOLD}")]);
    r.lift(OffTreads::OnTreads);
    r.ticks(2);
    assert!(
        matches!(r.mc.phase(drive), Some(Phase::Running)),
        "{:?}",
        r.mc.phase(drive)
    );
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some("mission/drive"));
    assert_eq!(
        r.events(),
        [
            format!("released {HOLD} base"),
            "drive 255 started".to_owned()
        ]
    );
}

/// A class that holds the base from its activation on and never gives it back itself.
struct Forgetful {
    got: Arc<Mutex<Option<Option<LockId>>>>,
}

impl Behavior<UserIntent> for Forgetful {
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = false;
    }
    fn next_wakeup(&self, _: &View<'_, UserIntent>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, UserIntent>) {
        *self.got.lock().unwrap() = Some(ctx.hold_tracks(&["BODY_TRACK"]));
    }
}

fn forgetful(locks: bool) -> (Runner<UserIntent>, SharedArbiter<Body>, Option<LockId>) {
    let got = Arc::new(Mutex::new(None));
    let mut b = TreeBuilder::<UserIntent>::new();
    b.add(
        "Root",
        Spec::new("Forgetful"),
        Forgetful { got: got.clone() },
    )
    .unwrap();
    let mut r = Runner::new(b.build("Root").unwrap(), IntentComponent::new(&MAP));
    let arbiter = SharedArbiter::<Body>::new();
    if locks {
        r.set_track_locks(Box::new(TrackLocker::body(&arbiter)));
    }
    r.tick(DT, &[]);
    let hold = got.lock().unwrap().expect("activated");
    (r, arbiter, hold)
}

#[test]
fn the_runner_gives_back_a_hold_its_class_kept_at_deactivation_and_without_locks_holds_nothing() {
    let (mut r, arbiter, hold) = forgetful(true);
    let root = r.id("Root").unwrap();
    assert!(hold.is_some());
    assert_eq!(r.holds_of(root).collect::<Vec<_>>(), [hold.unwrap()]);
    assert_eq!(arbiter.lock().holders().count(), 1);
    r.tick(DT, &[]);
    r.tick(DT, &[]);
    assert_eq!(
        r.next_wakeup(),
        Wakeup::Never,
        "a hold that holds costs no tick"
    );
    r.replace_stack(&[]).unwrap();
    r.check_invariants().unwrap();
    assert!(arbiter.lock().entries().is_empty());
    assert_eq!(r.holds_of(root).count(), 0);

    let (r, arbiter, hold) = forgetful(false);
    assert_eq!(hold, None);
    assert!(arbiter.lock().entries().is_empty());
    assert_eq!(r.holds_of(r.id("Root").unwrap()).count(), 0);
}
