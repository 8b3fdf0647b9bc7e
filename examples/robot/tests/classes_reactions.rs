//! The reactions family of `original_behaviors` (original-class-predicates.md §2.1, §2.2) on
//! the robot's own union: a robot idle on its treads, off the charger, nothing happening,
//! never starts a reaction; each starts on its own trigger only, does what the spec says,
//! ends as the spec says, and does not start again without a new trigger. Keys are read as
//! the class tables say (strict), and the cached tick equals asking every tick.
//!
//! The instances are written as the fork's files are: `ReactToCliff`'s JSON condition is only
//! "on its treads", `ReactToMotorCalibration`, `ReactToRobotOnBack`, `ReactToRobotOnSide`
//! and `ReactToUnexpectedMovement` have none (the traps of issue 28).

use std::time::Duration;

use original_behaviors::specs::{self, Need};
use original_behaviors::{RobotAccess, RobotAccessMut};
use proptest::prelude::*;
use robot_example::actions::Completions;
use robot_example::behavior_classes::load_sources;
use robot_example::intents::{self, UserIntent};
use robot_example::log::Log;
use robot_runtime::behavior::{inspect, BehaviorId, LoadOptions, ProblemKind, Runner, Source};
use robot_runtime::intent::IntentSource;
use robot_runtime::union::CladUnion;
use serde_json::{json, Map, Value};

mod support;

const DT: Duration = Duration::from_millis(60);

/// The reactions under test, in the priority order of the root, each as the fork writes it.
const REACTIONS: &[(&str, &str)] = &[
    (
        "reactToCliff.json",
        r#"{"behaviorID": "ReactToCliff", "behaviorClass": "ReactToCliff",
          "cliffBackupDistance_mm": 60.0, "cliffBackupSpeed_mmps": 100.0, "eventFlagTimeout_ms": 500,
          "wantsToBeActivatedCondition": {"conditionType": "OffTreadsState", "targetState": "OnTreads"}}"#,
    ),
    (
        "reactToMotorCalibration.json",
        r#"{"behaviorID": "ReactToMotorCalibration", "behaviorClass": "ReactToMotorCalibration"}"#,
    ),
    (
        "reactToRobotOnBack.json",
        r#"{"behaviorID": "ReactToRobotOnBack", "behaviorClass": "ReactToRobotOnBack"}"#,
    ),
    (
        "reactToRobotOnFace.json",
        r#"{"behaviorID": "ReactToRobotOnFace", "behaviorClass": "ReactToRobotOnFace",
          "wantsToBeActivatedCondition": {"conditionType": "BeingHeld", "shouldBeHeld": false}}"#,
    ),
    (
        "reactToRobotOnSide.json",
        r#"{"behaviorID": "ReactToRobotOnSide", "behaviorClass": "ReactToRobotOnSide"}"#,
    ),
    (
        "reactToUncalibratedHeadAndLift.json",
        r#"{"behaviorID": "ReactToUncalibratedHeadAndLift", "behaviorClass": "ReactToUncalibratedHeadAndLift",
          "wantsToBeActivatedCondition": {"conditionType": "OffTreadsState", "targetState": "OnTreads", "minTimeSinceChange_ms": 5000}}"#,
    ),
    (
        "reactToPlacedOnSlope.json",
        r#"{"behaviorID": "ReactToPlacedOnSlope", "behaviorClass": "ReactToPlacedOnSlope",
          "wantsToBeActivatedCondition": {"conditionType": "RobotPlacedOnSlope"}}"#,
    ),
    (
        "reactToUnexpectedMovement.json",
        r#"{"behaviorID": "ReactToUnexpectedMovement", "behaviorClass": "ReactToUnexpectedMovement"}"#,
    ),
    (
        "reactToPalmEdge.json",
        r#"{"behaviorID": "ReactToPalmEdge", "behaviorClass": "ReactToPalmEdge",
          "cliffBackupDistance_mm": 25.0, "cliffBackupSpeed_mmps": 40.0,
          "wantsToBeActivatedCondition": {"conditionType": "RobotHeldInPalm", "shouldBeHeldInPalm": true}}"#,
    ),
    (
        "reactToRobotShaken.json",
        r#"{"behaviorID": "ReactToRobotShaken", "behaviorClass": "ReactToRobotShaken",
          "getInAnimation": "ReactToShakeGetIn",
          "shakeAnimations": [{"threshold": 13000, "looping": "ShakeLoop", "waiting": "ShakeWait", "inHand": "ShakeInHand", "onGround": "ShakeOnGround"}],
          "wantsToBeActivatedCondition": {"conditionType": "RobotShaken", "minAccelMagnitudeThreshold": 16000}}"#,
    ),
    (
        "reactToTouchPetting.json",
        r#"{"behaviorID": "ReactToTouchPetting", "behaviorClass": "ReactToTouchPetting",
          "animGroupGetin": "PettingGetIn", "animGroupNames": ["PettingLevel1", "PettingBlissLoop"],
          "animGroupNamesGetout": ["PettingLevel1Getout", "PettingBlissGetout"],
          "timeTilTouchCheck": 5.0, "timeTilBlissGetout": 5.0, "timeTilNonBlissGetout": 3.0, "numPetsToAdvanceBliss": 2}"#,
    ),
    (
        "reactToSoundAwake.json",
        r#"{"behaviorID": "ReactToSoundAwake", "behaviorClass": "ReactToSound",
          "wantsToBeActivatedCondition": {"conditionType": "OffTreadsState", "targetState": "OnTreads", "minTimeSinceChange_ms": 4000},
          "micDirectionReactionBehavior": "ReactToSoundDirectionAwake",
          "micAbsolutePowerThreshold": 2.9, "micMinPowerThreshold": 1.5, "micConfidenceThresholdAtMinPower": 5000}"#,
    ),
    (
        "reactToDarkness.json",
        r#"{"behaviorID": "ReactToDarkness", "behaviorClass": "ReactToDarkness",
          "lookHeadAngleMin_deg": 0, "lookHeadAngleMax_deg": 30, "lookTurnAngleMin_deg": 30, "lookTurnAngleMax_deg": 90,
          "lookWaitTime_s": 2.0, "lookMinImages": 3, "numOffChargerLooks": 2, "numOnChargerLooks": 1,
          "sleepInPlace": true, "reactionEmotion": "ReactToDarkness"}"#,
    ),
    (
        "reactToMotion.json",
        r#"{"behaviorID": "ReactToMotion", "behaviorClass": "ReactToMotion",
          "eyeMotionTimeout_s": 2.0, "eyeMotionShiftTimeout_s": 1.0, "ticksInIntervalForTurn": 3, "turnIntervalSize": 50}"#,
    ),
    (
        "reactToCubeTap.json",
        r#"{"behaviorID": "ReactToCubeTap", "behaviorClass": "ReactToCubeTap", "interactionDuration_s": 3.0}"#,
    ),
    (
        "reactToGazeDirection.json",
        r#"{"behaviorID": "ReactToGazeDirection", "behaviorClass": "ReactToGazeDirection", "searchForFaces": true,
          "wantsToBeActivatedCondition": {"conditionType": "FeatureGate", "feature": "GazeDirection", "expected": true}}"#,
    ),
    (
        "greetAfterLongTime.json",
        r#"{"behaviorID": "GreetAfterLongTime", "behaviorClass": "GreetAfterLongTime",
          "wantsToBeActivatedCondition": {"conditionType": "FeatureGate", "feature": "GreetAfterLongTime"}}"#,
    ),
    (
        "danceToTheBeatCoordinator.json",
        r#"{"behaviorID": "DanceToTheBeatCoordinator", "behaviorClass": "DanceToTheBeatCoordinator",
          "wantsToBeActivatedCondition": {"conditionType": "BeatDetected", "allowPotentialBeat": true},
          "listeningBehavior": "ListenForBeats", "longListeningBehavior": "ListenForBeats",
          "offChargerDancingBehavior": "DanceToTheBeat", "onChargerDancingBehavior": "DanceToTheBeat"}"#,
    ),
];

/// Behaviors the reactions name (delegates, hard-coded IDs), and the idle bottom.
const SUPPORT: &[(&str, &str)] = &[
    (
        "reactToSoundDirectionAwake.json",
        r#"{"behaviorID": "ReactToSoundDirectionAwake", "behaviorClass": "ReactToMicDirection",
          "reaction_list": {
            "OnSurface": {"ThreeOClock": {"anim": "ReactToTriggerWordOffChargerRight"},
                          "NineOClock": {"anim": "ReactToTriggerWordOffChargerLeft"}},
            "OnCharger": {"ThreeOClock": {"anim": "RTS_OnCharger_Awake_Right"}},
            "OffTreads": {"enabled": false}}}"#,
    ),
    (
        "stuckOnEdge.json",
        r#"{"behaviorID": "StuckOnEdge", "behaviorClass": "AskForHelp",
          "wantsToBeActivatedCondition": {"conditionType": "StuckOnEdge"}}"#,
    ),
    (
        "forceStuckOnEdge.json",
        r#"{"behaviorID": "ForceStuckOnEdge", "behaviorClass": "AskForHelp",
          "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "CliffDetected"}}}"#,
    ),
    (
        "listenForBeats.json",
        r#"{"behaviorID": "ListenForBeats", "behaviorClass": "ListenForBeats",
          "preListeningAnim": "DanceBeatGetIn", "listeningAnim": "DanceBeatListening", "postListeningAnim": "DanceBeatGetReady",
          "minListeningTime_sec": 4.0, "maxListeningTime_sec": 10.0, "cancelSelfIfBeatLost": true}"#,
    ),
    (
        "danceToTheBeat.json",
        r#"{"behaviorID": "DanceToTheBeat", "behaviorClass": "DanceToTheBeat", "useBackpackLights": true,
          "eyeHoldAnim": "DanceBeatEyeHold", "getOutAnim": "DanceBeatGetOut",
          "danceSessions": [{"canListenForBeats": true, "playGetoutIfInterrupted": true, "dancePhrases": []}]}"#,
    ),
    (
        "driveOffChargerFace.json",
        r#"{"behaviorID": "DriveOffChargerFace", "behaviorClass": "Wait",
          "wantsToBeActivatedCondition": {"conditionType": "OnChargerPlatform"}}"#,
    ),
    (
        "findAndGoToHome.json",
        r#"{"behaviorID": "FindAndGoToHome", "behaviorClass": "Wait"}"#,
    ),
    (
        "forceStuckOnPalmEdge.json",
        r#"{"behaviorID": "ForceStuckOnPalmEdge", "behaviorClass": "Wait"}"#,
    ),
    (
        "reactToJoltInPalm.json",
        r#"{"behaviorID": "ReactToJoltInPalm", "behaviorClass": "Wait"}"#,
    ),
    (
        "idle.json",
        r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#,
    ),
];

fn root() -> String {
    let ids: Vec<Value> = REACTIONS
        .iter()
        .map(|(_, text)| id_of(text).into())
        .chain(std::iter::once("Idle".into()))
        .collect();
    json!({"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
        "interruptActiveBehavior": true, "behaviors": ids})
    .to_string()
}

fn id_of(text: &str) -> String {
    let v: Value = serde_json::from_str(text).unwrap();
    v["behaviorID"].as_str().unwrap().to_owned()
}

fn load(files: &[(String, String)], base: &str) -> Runner<UserIntent> {
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let loaded = load_sources(
        &sources,
        base,
        &LoadOptions::with_stand_ins(),
        &Log::default(),
        &Completions::default(),
        &robot_runtime::arbiter::SharedArbiter::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let problems: Vec<_> = loaded
        .report
        .problems
        .iter()
        .filter(|p| !matches!(p.kind, ProblemKind::Unmodelled { .. }))
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    Runner::new(loaded.tree, intents::component())
}

fn family_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = REACTIONS
        .iter()
        .chain(SUPPORT)
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    files.push(("root.json".into(), root()));
    files
}

fn runner() -> Runner<UserIntent> {
    load(&family_files(), "Root")
}

fn patch(r: &mut Runner<UserIntent>, v: Value) {
    let errors = r.robot_mut().apply_json(v.as_object().unwrap());
    assert!(errors.is_empty(), "{errors:?}");
}

fn reaction_ids(r: &Runner<UserIntent>) -> Vec<(String, BehaviorId)> {
    REACTIONS
        .iter()
        .map(|(_, t)| {
            let id = id_of(t);
            let b = r.id(&id).unwrap();
            (id, b)
        })
        .collect()
}

/// Ticks `n` times; no runner error.
fn run(r: &mut Runner<UserIntent>, n: usize) {
    for _ in 0..n {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), [], "{:?}", r.stack_names());
    }
}

/// Ticks until `me` is off the stack (at most `max` ticks); the actions it ran, in order.
fn until_done(r: &mut Runner<UserIntent>, me: BehaviorId, max: usize) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut ticks = 0;
    while r.is_on_stack(me) {
        for id in r.stack().collect::<Vec<_>>() {
            if let Some(a) = r.action_of(id) {
                if seen.last().map(String::as_str) != Some(a) {
                    seen.push(a.to_owned());
                }
            }
        }
        r.tick(DT, &[]);
        assert_eq!(r.errors(), []);
        ticks += 1;
        assert!(ticks < max, "never ended: {:?} {seen:?}", r.stack_names());
    }
    seen
}

#[test]
fn a_robot_idle_on_its_treads_starts_no_reaction_in_ten_minutes() {
    let mut r = runner();
    let ids = reaction_ids(&r);
    // Ten simulated minutes.
    run(&mut r, 10_000);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let started: Vec<&str> = ids
        .iter()
        .filter(|(_, id)| r.starts(*id) > 0)
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(started, Vec::<&str>::new());
}

#[test]
fn react_to_cliff_starts_on_a_cliff_stop_only_reacts_backs_up_and_ends() {
    let mut r = runner();
    let me = r.id("ReactToCliff").unwrap();
    run(&mut r, 300);
    // A cliff sensor seeing something is no stop: the JSON condition alone would start it.
    patch(&mut r, json!({"cliffs": ["FL", "FR"]}));
    run(&mut r, 100);
    assert_eq!(r.starts(me), 0, "{:?}", r.stack_names());
    patch(&mut r, json!({"cliffs": 0}));
    run(&mut r, 50);

    patch(&mut r, json!({"cliffs": ["FL", "FR"], "cliff_stop": true}));
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me), "{:?}", r.stack_names());
    assert_eq!(r.action_of(me), Some("ReactToCliffFront"));
    assert!(r
        .robot()
        .emotion_events()
        .iter()
        .any(|e| &**e == "CliffReact"));
    // The robot stops at the edge: the sensors clear once it has reacted.
    patch(&mut r, json!({"cliffs": 0}));
    let did = until_done(&mut r, me, 500);
    assert_eq!(did, ["ReactToCliffFront", "ReactToCliff", "DriveToPose"]);
    run(&mut r, 500);
    assert_eq!(r.starts(me), 1, "no new stop, no new start");

    // A new stop, from behind: it turns away first.
    patch(&mut r, json!({"cliffs": ["BL", "BR"], "cliff_stop": true}));
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me));
    patch(&mut r, json!({"cliffs": 0}));
    let did = until_done(&mut r, me, 500);
    assert_eq!(
        did,
        [
            "ReactToCliffBack",
            "ReactToCliffTurnLeft180",
            "ReactToCliff",
            "DriveToPose"
        ]
    );
    assert_eq!(r.starts(me), 2);
}

#[test]
fn react_to_cliff_hands_over_to_stuck_on_edge_when_the_cliff_stays() {
    let mut r = runner();
    let me = r.id("ReactToCliff").unwrap();
    let force = r.id("ForceStuckOnEdge").unwrap();
    run(&mut r, 50);
    patch(&mut r, json!({"cliffs": ["FL"], "cliff_stop": true}));
    r.tick(DT, &[]);
    assert_eq!(r.action_of(me), Some("ReactToCliffFrontLeft"));
    let mut ticks = 0;
    while !r.is_on_stack(force) {
        r.tick(DT, &[]);
        ticks += 1;
        assert!(ticks < 500, "{:?}", r.stack_names());
    }
    assert!(r.is_on_stack(me), "stuck on the edge runs as its delegate");
    // Lifted off the edge: the stuck reaction's cancel condition ends it, and the cliff
    // reaction with it.
    patch(&mut r, json!({"cliffs": 0}));
    run(&mut r, 10);
    assert!(!r.is_on_stack(me), "{:?}", r.stack_names());
}

#[test]
fn react_to_cliff_reacts_to_a_put_down_onto_a_cliff_once_settled_and_not_after_its_timeout() {
    let mut r = runner();
    let me = r.id("ReactToCliff").unwrap();
    run(&mut r, 50);
    patch(
        &mut r,
        json!({"off_treads": "InAir", "cliffs": ["FL", "FR"]}),
    );
    run(&mut r, 20);
    patch(&mut r, json!({"off_treads": "OnTreads", "pitch_deg": 4.0}));
    r.tick(DT, &[]);
    assert!(!r.is_on_stack(me), "nose up: waits 1 s on its treads");
    run(&mut r, 20);
    assert!(r.is_on_stack(me), "{:?}", r.stack_names());

    // A stop heard while lifted, whose flag timed out (500 ms) with no cliff in sight
    // before the robot was back on its treads, is not reacted to.
    let mut r = runner();
    let me = r.id("ReactToCliff").unwrap();
    run(&mut r, 50);
    patch(&mut r, json!({"off_treads": "InAir"}));
    run(&mut r, 2);
    patch(&mut r, json!({"cliff_stop": true}));
    run(&mut r, 20);
    patch(&mut r, json!({"off_treads": "OnTreads"}));
    run(&mut r, 60);
    assert_eq!(r.starts(me), 0, "{:?}", r.stack_names());
}

#[test]
fn react_to_motor_calibration_starts_on_an_auto_calibration_holds_intents_and_ends_when_calibrated()
{
    let mut r = runner();
    let me = r.id("ReactToMotorCalibration").unwrap();
    run(&mut r, 300);
    patch(&mut r, json!({"motor_calibration": {"head": "started"}}));
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me), "{:?}", r.stack_names());
    // The pending-intent timeout is held while it calibrates.
    r.intents_mut().set_pending(
        UserIntent::default_for(intents::Tag::ExploreStart),
        IntentSource::Voice,
    );
    run(&mut r, 20);
    assert!(r.intents().pending().is_some(), "the intent did not expire");
    patch(&mut r, json!({"motor_calibration": {"head": "stopped"}}));
    run(&mut r, 2);
    assert!(!r.is_on_stack(me));
    run(&mut r, 300);
    assert_eq!(r.starts(me), 1);

    // Never reported calibrated: it gives up after 5 s, and does not start again.
    patch(&mut r, json!({"motor_calibration": {"lift": "started"}}));
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me));
    run(&mut r, 80);
    assert!(r.is_on_stack(me), "waits up to 5 s");
    run(&mut r, 10);
    assert!(!r.is_on_stack(me), "5 s timeout");
    run(&mut r, 300);
    assert_eq!(r.starts(me), 2);
}

#[test]
fn react_to_sound_turns_to_a_loud_sound_only_and_hands_its_direction_over() {
    let mut r = runner();
    let me = r.id("ReactToSoundAwake").unwrap();
    let mic = r.id("ReactToSoundDirectionAwake").unwrap();
    run(&mut r, 100);
    // Quiet: nothing.
    patch(
        &mut r,
        json!({"sound": {"direction": 3, "power": 1.0, "confidence": 10}}),
    );
    run(&mut r, 10);
    assert_eq!(r.starts(me), 0);
    // Loud, but too soon after being put down (its JSON condition): the sound expires.
    patch(&mut r, json!({"off_treads": "InAir"}));
    run(&mut r, 2);
    patch(&mut r, json!({"off_treads": "OnTreads"}));
    run(&mut r, 2);
    patch(&mut r, json!({"sound": {"direction": 3, "power": 3.0}}));
    run(&mut r, 80);
    assert_eq!(r.starts(me), 0, "the sound expired before 4 s on treads");

    // Loud enough, or confident at the lower power.
    patch(
        &mut r,
        json!({"sound": {"direction": 3, "power": 1.6, "confidence": 6000}}),
    );
    r.tick(DT, &[]);
    assert!(
        r.is_on_stack(me) && r.is_on_stack(mic),
        "{:?}",
        r.stack_names()
    );
    assert_eq!(r.action_of(mic), Some("ReactToTriggerWordOffChargerRight"));
    until_done(&mut r, me, 300);
    assert_eq!(r.robot().signals.mic_reaction, None, "direction cleared");
    run(&mut r, 300);
    assert_eq!(r.starts(me), 1, "no new sound, no new start");

    // An unset direction turns -30 degrees per hour.
    patch(&mut r, json!({"sound": {"direction": 5}}));
    r.tick(DT, &[]);
    assert!(r.is_on_stack(mic));
    assert_eq!(r.action_of(mic), Some("Turn"));
    until_done(&mut r, me, 300);

    // A pending intent blocks it; picked up, its direction reaction is disabled.
    r.intents_mut().set_pending(
        UserIntent::default_for(intents::Tag::ExploreStart),
        IntentSource::Voice,
    );
    patch(&mut r, json!({"sound": {"direction": 9}}));
    r.tick(DT, &[]);
    assert!(!r.is_on_stack(me));
    assert!(r.intents().pending().is_some());
    // Unclaimed, the intent expires (3 ticks); the sound, under 1 s old, still counts.
    run(&mut r, 4);
    assert!(r.intents().pending().is_none());
    assert!(r.is_on_stack(me), "{:?}", r.stack_names());
    assert_eq!(r.action_of(mic), Some("ReactToTriggerWordOffChargerLeft"));
    until_done(&mut r, me, 300);
    patch(
        &mut r,
        json!({"picked_up": true, "sound": {"direction": 9}}),
    );
    run(&mut r, 30);
    assert_eq!(r.starts(me), 3);
}

/// One table-driven reaction: its trigger, what it plays first, the state that ends it.
struct Case {
    id: &'static str,
    trigger: fn() -> Value,
    first: Option<&'static str>,
    clear: fn() -> Value,
    /// Ticks from the trigger until it may start (a confirmation time).
    settle: usize,
}

const CASES: &[Case] = &[
    Case {
        id: "ReactToRobotOnBack",
        trigger: || json!({"off_treads": "OnBack"}),
        first: Some("FlipDownFromBack"),
        clear: || json!({"off_treads": "OnTreads"}),
        settle: 1,
    },
    Case {
        id: "ReactToRobotOnFace",
        trigger: || json!({"off_treads": "OnFace"}),
        first: Some("FacePlantRoll"),
        clear: || json!({"off_treads": "OnTreads"}),
        settle: 1,
    },
    Case {
        id: "ReactToRobotOnSide",
        trigger: || json!({"off_treads": "OnLeftSide"}),
        first: Some("ReactToOnSideEffort"),
        clear: || json!({"off_treads": "OnTreads"}),
        settle: 1,
    },
    Case {
        id: "ReactToUncalibratedHeadAndLift",
        trigger: || json!({"head_out_of_bounds": true}),
        first: None,
        clear: || json!({"head_out_of_bounds": false}),
        settle: 1,
    },
    Case {
        id: "ReactToPlacedOnSlope",
        trigger: || json!({"placed_on_slope": true}),
        first: Some("ReactToPerchedOnBlock"),
        clear: || json!({"placed_on_slope": false}),
        settle: 1,
    },
    Case {
        id: "ReactToUnexpectedMovement",
        trigger: || json!({"unexpected_movement": true}),
        first: Some("ReactToUnexpectedMovement"),
        clear: || json!({"unexpected_movement": false}),
        settle: 1,
    },
    Case {
        id: "ReactToPalmEdge",
        trigger: || json!({"off_treads": "InAir", "held_in_palm": true, "cliffs": ["BL", "BR"]}),
        first: Some("HeldOnPalmLookingNervous"),
        clear: || json!({"cliffs": 0}),
        settle: 1,
    },
    Case {
        id: "ReactToRobotShaken",
        trigger: || json!({"off_treads": "InAir", "picked_up": true, "accel_magnitude": 20000.0}),
        first: Some("ReactToShakeGetIn"),
        clear: || json!({"accel_magnitude": 0.0}),
        settle: 1,
    },
    Case {
        id: "ReactToTouchPetting",
        trigger: || json!({"touched": true}),
        first: Some("PettingGetIn"),
        clear: || json!({"touched": false}),
        settle: 1,
    },
    Case {
        id: "ReactToDarkness",
        trigger: || json!({"illumination": "Darkened"}),
        first: Some("ReactToDarkness"),
        clear: || json!({}),
        settle: 34,
    },
    Case {
        id: "ReactToMotion",
        trigger: || json!({"motion": {"area": "Left"}}),
        first: Some("ReactToMotionUp"),
        clear: || json!({}),
        settle: 1,
    },
    Case {
        id: "ReactToCubeTap",
        trigger: || json!({"cube_tapped": true}),
        first: None,
        clear: || json!({}),
        settle: 1,
    },
    Case {
        id: "ReactToGazeDirection",
        trigger: || json!({"gaze": true}),
        first: Some("GazingLookAtSurfaces"),
        clear: || json!({}),
        settle: 1,
    },
    Case {
        id: "DanceToTheBeatCoordinator",
        trigger: || json!({"beat_detected": true}),
        first: Some("DanceBeatGetIn"),
        clear: || json!({"beat_detected": false}),
        settle: 1,
    },
];

#[test]
fn each_table_reaction_starts_on_its_trigger_only_ends_and_waits_for_a_new_one() {
    let mut failures = Vec::new();
    for case in CASES {
        let mut r = runner();
        let me = r.id(case.id).unwrap();
        run(&mut r, 300);
        if r.starts(me) != 0 {
            failures.push(format!("{}: started idle", case.id));
            continue;
        }
        patch(&mut r, (case.trigger)());
        let mut ticks = 0;
        while !r.is_on_stack(me) && ticks <= case.settle {
            r.tick(DT, &[]);
            ticks += 1;
        }
        if !r.is_on_stack(me) {
            failures.push(format!("{}: not started ({:?})", case.id, r.stack_names()));
            continue;
        }
        let first = r
            .stack()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find_map(|id| r.action_of(id));
        if let Some(want) = case.first {
            if first != Some(want) {
                failures.push(format!("{}: first action {first:?}, not {want}", case.id));
            }
        }
        patch(&mut r, (case.clear)());
        let mut ticks = 0;
        while r.is_on_stack(me) && ticks < 2000 {
            r.tick(DT, &[]);
            ticks += 1;
        }
        if r.is_on_stack(me) {
            failures.push(format!("{}: never ended", case.id));
            continue;
        }
        run(&mut r, 400);
        if r.starts(me) != 1 {
            failures.push(format!("{}: started {} times", case.id, r.starts(me)));
        }
        assert_eq!(r.errors(), [], "{}", case.id);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn greet_after_long_time_greets_a_name_back_after_its_cooldown_once() {
    let mut r = runner();
    let me = r.id("GreetAfterLongTime").unwrap();
    patch(
        &mut r,
        json!({"faces": [{"name": "Ada", "named": true, "distance_mm": 500}]}),
    );
    run(&mut r, 20);
    patch(&mut r, json!({"faces": []}));
    run(&mut r, 20);
    assert_eq!(r.starts(me), 0, "first sighting: nothing to greet back");
    // 31 minutes later (a young robot's cooldown is 30 min).
    for _ in 0..31 {
        r.tick(Duration::from_secs(60), &[]);
    }
    patch(
        &mut r,
        json!({"faces": [{"name": "Ada", "named": true, "distance_mm": 500}]}),
    );
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me), "{:?}", r.stack_names());
    let did = until_done(&mut r, me, 500);
    assert_eq!(did, ["GreetAfterLongTime"]);
    run(&mut r, 300);
    assert_eq!(r.starts(me), 1);
}

#[test]
fn tools_see_each_reaction_predicate_and_its_inputs() {
    let r = runner();
    let shape = inspect::shape(&r);
    for (name, id) in reaction_ids(&r) {
        let p = shape.nodes[id.index()]
            .predicate
            .clone()
            .unwrap_or_else(|| panic!("{name} shows no predicate"));
        // A class that adds nothing says so; every other names what it reads.
        assert!(p.text == "true" || !p.inputs.is_empty(), "{name}: {p:?}");
        assert!(p.unmodelled.is_empty(), "{name}: {p:?}");
    }
    let cliff = &shape.nodes[r.id("ReactToCliff").unwrap().index()];
    let p = cliff.predicate.as_ref().unwrap();
    assert!(p.text.contains("cliff stop"), "{p:?}");
    assert!(p.inputs.iter().any(|i| i.contains("cliff_stop")), "{p:?}");
}

#[test]
fn a_class_reading_what_the_robot_does_not_model_says_so_at_load_and_never_starts() {
    let mut files = family_files();
    files.push((
        "petDetection.json".into(),
        r#"{"behaviorID": "PetDetection", "behaviorClass": "PetDetection"}"#.into(),
    ));
    let root = root().replace("\"Idle\"]", "\"PetDetection\", \"Idle\"]");
    files.retain(|(n, _)| n != "root.json");
    files.push(("root.json".into(), root));
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let loaded = load_sources(
        &sources,
        "Root",
        &LoadOptions::with_stand_ins(),
        &Log::default(),
        &Completions::default(),
        &robot_runtime::arbiter::SharedArbiter::new(),
    )
    .unwrap();
    let infos: Vec<_> = loaded
        .report
        .problems
        .iter()
        .filter_map(|p| match &p.kind {
            ProblemKind::Unmodelled { class, input } => Some((class.clone(), input.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        infos,
        [(
            "PetDetection".to_owned(),
            "pet sightings (PetDetection)".to_owned()
        )]
    );
    let mut r = Runner::new(loaded.tree, intents::component());
    let me = r.id("PetDetection").unwrap();
    run(&mut r, 500);
    assert_eq!(r.starts(me), 0);
}

// --- keys ---------------------------------------------------------------------------

/// The family's classes (the class tables' physical and sensing families).
fn family() -> Vec<&'static specs::ClassData> {
    specs::physical::CLASSES
        .iter()
        .chain(specs::sensing::CLASSES)
        .collect()
}

/// The keys of the key sets other than the first, which an instance gives instead of it
/// (`keys::KEY_SETS`).
fn other_sets(class: &str) -> Vec<&'static str> {
    original_behaviors::keys::KEY_SETS
        .iter()
        .filter(|(c, _)| *c == class)
        .flat_map(|(_, sets)| sets[1..].iter().flat_map(|s| s.iter().copied()))
        .collect()
}

/// An instance of `class` giving every key (of its key sets, the first), its behavior IDs
/// those of the key tests' tree.
fn full_instance(class: &specs::ClassData) -> Map<String, Value> {
    let mut o = support::full_instance(
        class,
        &format!("Test{}", class.name),
        &other_sets(class.name),
        |k| match k.name {
            "micDirectionReactionBehavior" => json!("ReactToSoundDirectionAwake"),
            _ => k.ty.sample("Idle"),
        },
    );
    let anonymous = match class.name {
        "ReactToPutDown" => Some("PutDownWaitInternal"),
        "InitialHeldInPalmReaction" => Some("InitialHeldInPalmReactionInternal"),
        _ => None,
    };
    if let Some(a) = anonymous {
        o.insert(
            "anonymousBehaviors".into(),
            json!([{"behaviorName": a, "behaviorClass": "Wait"}]),
        );
    }
    o
}

fn key_tree(instance: &Map<String, Value>) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = SUPPORT
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    for id in [
        "DriveOffChargerStraight",
        "Exploring",
        "SearchWithinBoundingBox",
        "AskForHelp",
    ] {
        files.push((
            format!("{id}.json"),
            json!({"behaviorID": id, "behaviorClass": "Wait"}).to_string(),
        ));
    }
    let id = instance["behaviorID"].as_str().unwrap().to_owned();
    files.push((
        format!("{id}.json"),
        Value::Object(instance.clone()).to_string(),
    ));
    files
}

fn problems(instance: &Map<String, Value>) -> Vec<(String, ProblemKind)> {
    let files = key_tree(instance);
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let base = instance["behaviorID"].as_str().unwrap();
    match load_sources(
        &sources,
        base,
        &LoadOptions::with_stand_ins(),
        &Log::default(),
        &Completions::default(),
        &robot_runtime::arbiter::SharedArbiter::new(),
    ) {
        Ok(l) => l
            .report
            .problems
            .into_iter()
            .filter(|p| !matches!(p.kind, ProblemKind::Unmodelled { .. }))
            .map(|p| (p.path.clone(), p.kind))
            .collect(),
        Err(e) => e
            .problems
            .into_iter()
            .map(|p| (p.path.clone(), p.kind))
            .collect(),
    }
}

#[test]
fn every_key_of_every_reaction_is_accepted_strict_a_wrong_type_and_an_unknown_key_are_errors() {
    let mut failures = Vec::new();
    for class in family() {
        let full = full_instance(class);
        let p = problems(&full);
        if !p.is_empty() {
            failures.push(format!("{}: every key given: {p:?}", class.name));
        }
        for k in class.keys {
            let Some(bad) = k.ty.wrong() else {
                continue;
            };
            let mut o = full.clone();
            if other_sets(class.name).contains(&k.name) {
                continue;
            }
            o.insert(k.name.into(), bad);
            let p = problems(&o);
            if !p.iter().any(|(path, _)| path.ends_with(k.name)) {
                failures.push(format!(
                    "{}.{}: wrong type accepted: {p:?}",
                    class.name, k.name
                ));
            }
            if k.need == Need::Required {
                let mut o = full.clone();
                o.remove(k.name);
                let p = problems(&o);
                if !p.iter().any(
                    |(_, kind)| matches!(kind, ProblemKind::MissingKey { key } if key == k.name),
                ) {
                    failures.push(format!(
                        "{}.{}: missing key accepted: {p:?}",
                        class.name, k.name
                    ));
                }
            }
        }
        let mut o = full.clone();
        o.insert("notAKeyOfThisClass".into(), json!(1));
        let p = problems(&o);
        if !p
            .iter()
            .any(|(path, _)| path.ends_with("notAKeyOfThisClass"))
        {
            failures.push(format!("{}: unknown key accepted: {p:?}", class.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn react_to_cliff_takes_its_timeout_in_ms_or_in_seconds_as_the_forks_files_do_but_one_of_them() {
    let class = specs::class("ReactToCliff").unwrap();
    let mut sec = full_instance(class);
    sec.remove("eventFlagTimeout_ms");
    sec.insert("eventFlagTimeout_sec".into(), json!(0.5));
    assert_eq!(problems(&sec), []);
    let mut both = sec.clone();
    both.insert("eventFlagTimeout_ms".into(), json!(500));
    assert!(!problems(&both).is_empty());
    let mut neither = sec.clone();
    neither.remove("eventFlagTimeout_sec");
    assert!(problems(&neither)
        .iter()
        .any(|(_, k)| matches!(k, ProblemKind::MissingKey { .. })));
    let mut zero = full_instance(class);
    zero.insert("cliffBackupSpeed_mmps".into(), json!(0));
    assert!(problems(&zero)
        .iter()
        .any(|(path, _)| path.ends_with("cliffBackupSpeed_mmps")));
}

#[test]
fn react_to_robot_shaken_takes_its_levels_or_the_forks_older_thresholds_whole() {
    let class = specs::class("ReactToRobotShaken").unwrap();
    let mut old = full_instance(class);
    old.remove("getInAnimation");
    old.remove("shakeAnimations");
    for (k, v) in [
        ("shakeThresholdStop", 13000),
        ("shakeThresholdMedium", 19000),
        ("shakeThresholdHard", 22000),
    ] {
        old.insert(k.into(), json!(v));
    }
    assert_eq!(problems(&old), []);
    let mut part = old.clone();
    part.remove("shakeThresholdHard");
    assert!(problems(&part)
        .iter()
        .any(|(_, k)| matches!(k, ProblemKind::MissingKey { key } if key == "shakeThresholdHard")));
    let mut both = old.clone();
    both.insert("getInAnimation".into(), json!("ShakeGetIn"));
    assert!(!problems(&both).is_empty());
    let mut neither = old.clone();
    for k in [
        "shakeThresholdStop",
        "shakeThresholdMedium",
        "shakeThresholdHard",
    ] {
        neither.remove(k);
    }
    assert!(problems(&neither)
        .iter()
        .any(|(_, k)| matches!(k, ProblemKind::MissingKey { key } if key == "getInAnimation")));
}

#[test]
fn react_to_sound_needs_a_mic_direction_behavior() {
    let class = specs::class("ReactToSound").unwrap();
    let mut o = full_instance(class);
    o.insert("micDirectionReactionBehavior".into(), json!("Idle"));
    assert!(
        !problems(&o).is_empty(),
        "a behavior of another class is refused"
    );
    let mic = specs::class("ReactToMicDirection").unwrap();
    let mut m = full_instance(mic);
    m.insert(
        "reaction_list".into(),
        json!({"OnSurface": {"ThreeOClock": {"anim": 3, "dir": "left"}}}),
    );
    let p = problems(&m);
    assert!(
        p.iter().any(|(path, _)| path.contains("ThreeOClock.anim"))
            && p.iter().any(|(path, _)| path.contains("ThreeOClock.dir")),
        "{p:?}"
    );
}

// --- the cached tick ------------------------------------------------------------------

fn trigger() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"cliffs": ["FL", "FR"], "cliff_stop": true})),
        Just(json!({"cliffs": 0})),
        Just(json!({"cliffs": ["BR"]})),
        Just(json!({"cliff_stop": true})),
        Just(json!({"off_treads": "InAir"})),
        Just(json!({"off_treads": "OnTreads"})),
        Just(json!({"off_treads": "OnBack"})),
        Just(json!({"off_treads": "OnLeftSide"})),
        Just(json!({"pitch_deg": 5.0})),
        Just(json!({"pitch_deg": 0.0})),
        Just(json!({"picked_up": true})),
        Just(json!({"picked_up": false})),
        Just(json!({"motor_calibration": {"head": "started"}})),
        Just(json!({"motor_calibration": {"head": "stopped", "lift": "stopped"}})),
        Just(json!({"motor_calibration": {"lift": "started"}})),
        (0u64..12, 0.0f64..4.0, 0u64..9000)
            .prop_map(|(d, p, c)| json!({"sound": {"direction": d, "power": p, "confidence": c}})),
        Just(json!({"on_charger_platform": true})),
        Just(json!({"on_charger_platform": false})),
        Just(json!({"touched": true})),
        Just(json!({"touched": false})),
        Just(json!({"illumination": "Darkened"})),
        Just(json!({"illumination": "Illuminated"})),
        Just(json!({"motion": "Top"})),
        Just(json!({"unexpected_movement": true})),
        Just(json!({"unexpected_movement": false})),
        Just(json!({"head_out_of_bounds": true})),
        Just(json!({"head_out_of_bounds": false})),
        Just(json!({"held_in_palm": true, "cliffs": ["FL", "FR"]})),
        Just(json!({"held_in_palm": false})),
        Just(json!({"accel_magnitude": 20000.0})),
        Just(json!({"accel_magnitude": 0.0})),
        Just(json!({"beat_detected": true})),
        Just(json!({"beat_detected": false})),
        Just(json!({"cube_tapped": true})),
        Just(json!({"gaze": true})),
        Just(json!({"intent": true})),
    ]
}

fn apply(r: &mut Runner<UserIntent>, v: &Value) {
    if v.get("intent").is_some() {
        r.intents_mut().set_pending(
            UserIntent::default_for(intents::Tag::ExploreStart),
            IntentSource::Voice,
        );
        return;
    }
    let _ = r.robot_mut().apply_json(v.as_object().unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Caching and asking every tick agree on every tick of the family's tree, under random
    /// triggers, clears and intents; nothing panics.
    #[test]
    fn the_cached_tick_equals_asking_every_tick(
        steps in proptest::collection::vec((trigger(), 1usize..40), 5..40),
    ) {
        let mut cached = runner();
        let mut asked = runner();
        asked.set_caching(false);
        for (v, gap) in &steps {
            apply(&mut cached, v);
            apply(&mut asked, v);
            for _ in 0..*gap {
                cached.tick(DT, &[]);
                asked.tick(DT, &[]);
                prop_assert_eq!(support::seen(&cached), support::seen(&asked), "{}", v);
                prop_assert_eq!(cached.check_invariants(), Ok(()));
            }
        }
    }
}

// --- the wake-up contract -------------------------------------------------------------

#[test]
fn an_idle_robot_with_every_reaction_in_scope_is_mostly_skipped() {
    let mut r = runner();
    let ran = support::run_skipping(&mut r, DT, 10_000, |r| assert_eq!(r.errors(), []));
    assert!(ran * 10 < 10_000, "{ran} of 10,000 ticks run");
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Skipping what the wake-up allows never changes what the reactions do.
    #[test]
    fn skipping_idle_ticks_never_changes_what_the_reactions_do(
        steps in proptest::collection::vec((trigger(), 1u64..300), 5..30),
    ) {
        let mut every = runner();
        let mut skip = runner();
        let mut log = Vec::new();
        let mut tick = 0;
        for (v, gap) in &steps {
            apply(&mut every, v);
            apply(&mut skip, v);
            tick += gap;
            while every.clock().tick() < tick {
                every.tick(DT, &[]);
                log.push(support::seen(&every));
            }
            let mut diff = None;
            support::run_skipping(&mut skip, DT, tick, |r| {
                let s = support::seen(r);
                let want = &log[r.clock().tick() as usize - 1];
                if diff.is_none() && *want != s {
                    diff = Some((want.clone(), s));
                }
            });
            prop_assert!(diff.is_none(), "{:?} after {}", diff, v);
        }
    }
}

// --- scenario lines -------------------------------------------------------------------

#[test]
fn a_bad_mic_reaction_line_is_a_clear_error_and_the_rest_of_the_patch_applies() {
    let mut s = original_behaviors::RobotState::default();
    for bad in [
        json!(12),
        json!(-1),
        json!("left"),
        json!({"direction": 3.5}),
        json!([3]),
    ] {
        let errors = s.apply_json(
            json!({"mic_reaction": bad, "cliffs": 1})
                .as_object()
                .unwrap(),
        );
        assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
        assert_eq!(errors[0].key, "mic_reaction");
        assert!(errors[0].reason.contains("direction"), "{errors:?}");
        assert_eq!(s.cliffs(), 1, "the other key applied");
        assert_eq!(s.signals.mic_reaction, None);
    }
    assert!(s
        .apply_json(
            json!({"mic_reaction": {"direction": 4}})
                .as_object()
                .unwrap()
        )
        .is_empty());
    assert_eq!(s.signals.mic_reaction.map(|(d, _)| d), Some(4));
    assert!(s
        .apply_json(json!({"mic_reaction": null}).as_object().unwrap())
        .is_empty());
    assert_eq!(s.signals.mic_reaction, None);
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-zA-Z ]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map(
                prop_oneof![
                    Just("direction".to_owned()),
                    Just("power".to_owned()),
                    Just("head".to_owned()),
                    Just("lift".to_owned()),
                    "[a-z]{1,6}"
                ],
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any value on the family's scenario keys, mid-run: a clear error or applied, never a
    /// panic, and the reactions keep running.
    #[test]
    fn garbage_on_the_reactions_keys_never_panics(
        lines in proptest::collection::vec(
            (
                prop_oneof![
                    Just("cliff_stop"), Just("cliffs"), Just("sound"), Just("mic_reaction"),
                    Just("motor_calibration"), Just("off_treads"), Just("illumination"),
                    Just("motion"), Just("touched"), Just("pitch_deg"),
                ],
                any_json(),
            ),
            1..12,
        ),
    ) {
        let mut r = runner();
        for (key, v) in &lines {
            let mut patch = Map::new();
            patch.insert((*key).to_owned(), v.clone());
            for e in r.robot_mut().apply_json(&patch) {
                prop_assert_eq!(&e.key, key);
                prop_assert!(!e.reason.is_empty());
            }
            for _ in 0..20 {
                r.tick(DT, &[]);
            }
            prop_assert_eq!(r.check_invariants(), Ok(()));
        }
    }
}
