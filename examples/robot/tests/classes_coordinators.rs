//! The coordinators family of `original_behaviors` (original-class-predicates.md §2.4, §1.5)
//! on the robot's own union: a robot idle on its treads, off the charger, nothing happening,
//! never starts a coordinator's own behavior and nothing is suppressed; each class starts on
//! its trigger only, does what the spec says and ends as the spec says; the coordinators'
//! suppression is visible (the suppressed behavior does not want to run this tick, the
//! coordinator's debug state names it) and only lasts while its rule holds; keys are read as
//! the class tables say (strict); the intents claimed in code are claimed and counted; and
//! the cached tick equals asking every tick.

use std::time::Duration;

use original_behaviors::specs::{self, Need};
use original_behaviors::{RobotAccess, RobotAccessMut};
use proptest::prelude::*;
use robot_example::actions::Completions;
use robot_example::behavior_classes::load_sources;
use robot_example::intents::{self, UserIntent};
use robot_example::log::Log;
use robot_runtime::behavior::{
    coverage, inspect, BehaviorId, LoadOptions, ProblemKind, Runner, Source, Wakeup,
};
use robot_runtime::intent::IntentSource;
use robot_runtime::union::CladUnion;
use serde_json::{json, Map, Value};

mod support;

const DT: Duration = Duration::from_millis(60);

/// The tree: the global coordinator over GlobalInterruptions, whose children are the
/// family's classes (as the fork writes them), the behaviors the coordinator watches and
/// suppresses, and SleepCycle at the bottom (awake: Exploring or Idle).
const FILES: &[(&str, &str)] = &[
    (
        "coordinateGlobalInterrupts.json",
        r#"{"behaviorID": "CoordinateGlobalInterrupts", "behaviorClass": "CoordinateGlobalInterrupts",
          "delegateID": "GlobalInterruptions"}"#,
    ),
    (
        "globalInterruptions.json",
        r#"{"behaviorID": "GlobalInterruptions", "behaviorClass": "DispatcherStrictPriority",
          "interruptActiveBehavior": true,
          "behaviors": ["SDKOverrideAll", "SDKDefault", "SDKLock", "QuietMode",
                        "ReactToCliff", "ReactToObstacle", "ReactToTouchPetting", "ReactToSoundAwake",
                        "GoHomeVoiceCommand", "StayOnChargerUntilCharged", "ConfirmHabitat",
                        "SingletonPoweringRobotOff", "MeetVictor", "DanceToTheBeat",
                        "TimerUtilityCoordinator", "SleepCycle"]}"#,
    ),
    (
        "SDKDefault.json",
        r#"{"behaviorClass": "SDKInterface", "behaviorID": "SDKDefault", "associatedActiveFeature": "SDK",
          "behaviorControlLevel": 20, "disableCliffDetection": false,
          "driveOffChargerBehavior": "Idle", "findAndGoToHomeBehavior": "Idle", "findFacesBehavior": "Idle",
          "lookAroundInPlaceBehavior": "Idle", "rollBlockBehavior": "Idle"}"#,
    ),
    (
        "SDKOverrideAll.json",
        r#"{"behaviorClass": "SDKInterface", "behaviorID": "SDKOverrideAll", "associatedActiveFeature": "SDK",
          "behaviorControlLevel": 10, "disableCliffDetection": true,
          "driveOffChargerBehavior": "Idle", "findAndGoToHomeBehavior": "Idle", "findFacesBehavior": "Idle",
          "lookAroundInPlaceBehavior": "Idle", "rollBlockBehavior": "Idle"}"#,
    ),
    (
        "sdkLock.json",
        r#"{"behaviorID": "SDKLock", "behaviorClass": "SDKLock", "associatedActiveFeature": "SDK"}"#,
    ),
    (
        "triggerWordDetected.json",
        r#"{"behaviorID": "TriggerWordDetected", "behaviorClass": "Wait", "duration_s": 1.0,
          "wantsToBeActivatedCondition": {"conditionType": "TriggerWordPending"}}"#,
    ),
    (
        "quietMode.json",
        r#"{"behaviorID": "QuietMode", "behaviorClass": "QuietModeCoordinator",
          "associatedActiveFeature": "BeQuiet",
          "respondToUserIntents": [{"type": "imperative_quiet"}],
          "activeTime_s": 60.0, "timeToPowerSave_s": 15.0,
          "behaviors": [{"behavior": "TriggerWordDetected", "audioAllowed": true},
                        {"behavior": "BeQuietAnims", "audioAllowed": false}]}"#,
    ),
    (
        "beQuietAnims.json",
        r#"{"behaviorID": "BeQuietAnims", "behaviorClass": "Wait"}"#,
    ),
    (
        "reactToCliff.json",
        r#"{"behaviorID": "ReactToCliff", "behaviorClass": "Wait", "duration_s": 1.0,
          "wantsToBeActivatedCondition": {"conditionType": "CliffDetected"}}"#,
    ),
    (
        "reactToObstacle.json",
        r#"{"behaviorID": "ReactToObstacle", "behaviorClass": "Wait", "duration_s": 1.0,
          "wantsToBeActivatedCondition": {"conditionType": "ObstacleDetected"}}"#,
    ),
    (
        "reactToTouchPetting.json",
        r#"{"behaviorID": "ReactToTouchPetting", "behaviorClass": "Wait", "duration_s": 1.0,
          "wantsToBeActivatedCondition": {"conditionType": "RobotTouched"}}"#,
    ),
    (
        "reactToSoundAwake.json",
        r#"{"behaviorID": "ReactToSoundAwake", "behaviorClass": "Wait", "duration_s": 1.0,
          "wantsToBeActivatedCondition": {"conditionType": "BeatDetected", "allowPotentialBeat": true}}"#,
    ),
    (
        "goHomeVoiceCommand.json",
        r#"{"behaviorID": "GoHomeVoiceCommand", "behaviorClass": "Wait", "duration_s": 3.0,
          "respondToUserIntents": [{"type": "system_charger"}]}"#,
    ),
    (
        "stayOnChargerUntilCharged.json",
        r#"{"behaviorID": "StayOnChargerUntilCharged", "behaviorClass": "StayOnChargerUntilCharged",
          "wantsToBeActivatedCondition": {"conditionType": "FeatureGate", "feature": "StayOnChargerUntilCharged"},
          "delegate": "chargerIdle",
          "anonymousBehaviors": [{"behaviorName": "chargerIdle", "behaviorClass": "Wait"}]}"#,
    ),
    (
        "confirmHabitat.json",
        r#"{"behaviorID": "ConfirmHabitat", "behaviorClass": "ConfirmHabitat",
          "searchForChargerBehavior": "FindHomeSearch",
          "onTreadsTimeCondition": {"conditionType": "OffTreadsState", "targetState": "OnTreads", "minTimeSinceChange_ms": 5000}}"#,
    ),
    (
        "findHomeSearch.json",
        r#"{"behaviorID": "FindHomeSearch", "behaviorClass": "Wait"}"#,
    ),
    (
        "singletonPoweringRobotOff.json",
        r#"{"behaviorClass": "PoweringRobotOff", "behaviorID": "SingletonPoweringRobotOff",
          "powerButtonHeldToActivate_ms": 500, "powerButtonHeldToPowerOffEyes_ms": 1000,
          "powerOnAnimName": "anim_power_offon_01", "powerOffAnimName": "anim_power_onoff_01"}"#,
    ),
    (
        "meetVictor.json",
        r#"{"behaviorID": "MeetVictor", "behaviorClass": "Wait", "duration_s": 5.0,
          "respondToUserIntents": [{"type": "meet_victor"}]}"#,
    ),
    (
        "danceToTheBeat.json",
        r#"{"behaviorID": "DanceToTheBeat", "behaviorClass": "Wait",
          "wantsToBeActivatedCondition": {"conditionType": "FeatureGate", "feature": "Dancing"},
          "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "FeatureGate", "feature": "Dancing"}}}"#,
    ),
    (
        "timerUtilityCoordinator.json",
        r#"{"behaviorID": "TimerUtilityCoordinator", "behaviorClass": "Wait",
          "wantsToBeActivatedCondition": {"conditionType": "FeatureGate", "feature": "TestFeature"}}"#,
    ),
    (
        "sleepCycle.json",
        r#"{"behaviorID": "SleepCycle", "behaviorClass": "SleepCycle",
          "delegateID": "Awake", "goToChargerBehavior": "FindHomeForSleeping",
          "emergencyCondition": {"conditionType": "BatteryLevel", "targetBatteryLevel": "Low"},
          "wakeReasonConditions": [
            {"reason": "Touched", "condition": {"conditionType": "RobotTouched", "minTouchTime": 0.1}},
            {"reason": "PickedUp", "condition": {"conditionType": "Compound",
               "not": {"conditionType": "OffTreadsState", "targetState": "OnTreads"}}}],
          "alwaysWakeReasons": ["SDK", "TimerShouldRing", "VoiceCommand"],
          "wakeFromStates": [
            {"fromState": "Comatose", "reasons": []},
            {"fromState": "DeepSleep", "reasons": ["PickedUp", "Touched"]},
            {"fromState": "LightSleep", "reasons": ["PickedUp", "Touched", "Sound"]}]}"#,
    ),
    (
        "awake.json",
        r#"{"behaviorID": "Awake", "behaviorClass": "DispatcherStrictPriority",
          "interruptActiveBehavior": true, "behaviors": ["Exploring", "Idle"]}"#,
    ),
    (
        "exploring.json",
        r#"{"behaviorID": "Exploring", "behaviorClass": "Wait",
          "wantsToBeActivatedCondition": {"conditionType": "FeatureGate", "feature": "Exploring"}}"#,
    ),
    (
        "idle.json",
        r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#,
    ),
    (
        "findHomeForSleeping.json",
        r#"{"behaviorID": "FindHomeForSleeping", "behaviorClass": "Wait", "duration_s": 2.0}"#,
    ),
    (
        "goToSleep.json",
        r#"{"behaviorID": "GoToSleep", "behaviorClass": "Wait", "duration_s": 1.0}"#,
    ),
    (
        "asleep.json",
        r#"{"behaviorID": "Asleep", "behaviorClass": "Wait"}"#,
    ),
    (
        "sleepingWakeUp.json",
        r#"{"behaviorID": "SleepingWakeUp", "behaviorClass": "Wait", "duration_s": 1.0}"#,
    ),
    (
        "reactToSoundAsleep.json",
        r#"{"behaviorID": "ReactToSoundAsleep", "behaviorClass": "Wait", "duration_s": 1.0}"#,
    ),
];

/// The feature gates the test tree uses for its helpers, off: a robot doing nothing.
const QUIET: &str = r#"{"features": {"Exploring": false, "Dancing": false, "TestFeature": false}}"#;

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
    assert_eq!(loaded.report.problems, [], "{:?}", loaded.report.problems);
    let mut r = Runner::new(loaded.tree, intents::component());
    patch(&mut r, serde_json::from_str(QUIET).unwrap());
    r
}

fn files() -> Vec<(String, String)> {
    FILES
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect()
}

fn runner() -> Runner<UserIntent> {
    load(&files(), "CoordinateGlobalInterrupts")
}

fn patch(r: &mut Runner<UserIntent>, v: Value) {
    let errors = r.robot_mut().apply_json(v.as_object().unwrap());
    assert!(errors.is_empty(), "{errors:?}");
}

fn send(r: &mut Runner<UserIntent>, name: &str) {
    let tag = UserIntent::tag_from_name(name).unwrap();
    r.intents_mut()
        .set_pending(UserIntent::default_for(tag), IntentSource::Voice);
}

fn id(r: &Runner<UserIntent>, name: &str) -> BehaviorId {
    r.id(name).unwrap_or_else(|| panic!("{name}"))
}

/// Ticks `n` times; no runner error.
fn run(r: &mut Runner<UserIntent>, n: usize) {
    for _ in 0..n {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), [], "{:?}", r.stack_names());
    }
}

/// Ticks until `target` is on top (at most `max` ticks).
fn until_top(r: &mut Runner<UserIntent>, target: BehaviorId, max: usize) {
    let mut n = 0;
    while r.top() != Some(target) {
        run(r, 1);
        n += 1;
        assert!(n < max, "{:?}", r.stack_names());
    }
}

fn ticks(d: Duration) -> usize {
    (d.as_millis() / DT.as_millis()) as usize + 1
}

/// The family's classes in the tree, whose own behavior never starts on an idle robot.
const OWN: &[&str] = &[
    "SDKOverrideAll",
    "SDKDefault",
    "SDKLock",
    "QuietMode",
    "StayOnChargerUntilCharged",
    "ConfirmHabitat",
    "SingletonPoweringRobotOff",
];

const IDLE_STACK: &[&str] = &[
    "CoordinateGlobalInterrupts",
    "GlobalInterruptions",
    "SleepCycle",
    "Awake",
    "Idle",
];

#[test]
fn a_robot_idle_on_its_treads_starts_no_coordinator_behavior_and_nothing_is_suppressed() {
    let mut r = runner();
    let coordinator = id(&r, "CoordinateGlobalInterrupts");
    let sleep = id(&r, "SleepCycle");
    // Ten simulated minutes.
    for _ in 0..ticks(Duration::from_secs(600)) {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), []);
        assert_eq!(r.stack_names(), IDLE_STACK);
        assert_eq!(r.debug_state(coordinator), None, "nothing is suppressed");
        assert_eq!(r.debug_state(sleep), Some("Awake"));
    }
    for name in OWN {
        assert_eq!(r.starts(id(&r, name)), 0, "{name} started on an idle robot");
    }
    assert_eq!(
        r.starts(sleep),
        1,
        "SleepCycle stays awake, never restarted"
    );
    // Idle, nothing of the family asks to be updated: the ticks may be skipped.
    let far = r.clock().now() + Duration::from_secs(3600);
    assert!(
        match r.next_wakeup() {
            Wakeup::Never => true,
            Wakeup::At(t) => t > far,
            Wakeup::EveryTick => false,
        },
        "{:?}",
        r.next_wakeup()
    );
}

#[test]
fn the_global_coordinator_suppresses_the_obstacle_reaction_while_dancing_visibly_and_only_then() {
    let mut r = runner();
    let coordinator = id(&r, "CoordinateGlobalInterrupts");
    let dance = id(&r, "DanceToTheBeat");
    let obstacle = id(&r, "ReactToObstacle");
    patch(&mut r, json!({"features": {"Dancing": true}}));
    run(&mut r, 2);
    assert_eq!(r.top(), Some(dance), "{:?}", r.stack_names());
    patch(&mut r, json!({"obstacle_detected": true}));
    for _ in 0..100 {
        r.tick(DT, &[]);
        assert_eq!(r.top(), Some(dance), "the obstacle reaction was suppressed");
        // Visible: this tick it does not want to run, and the coordinator says why.
        assert!(!r.view(obstacle).wants_to_activate(obstacle));
        assert_eq!(
            r.debug_state(coordinator),
            Some("suppressing ReactToObstacle, ReactToSoundAwake")
        );
    }
    assert_eq!(r.starts(obstacle), 0);
    // The dance ends: the suppression ends with it and the reaction runs.
    patch(&mut r, json!({"features": {"Dancing": false}}));
    run(&mut r, 3);
    assert!(r.is_on_stack(obstacle), "{:?}", r.stack_names());
    assert_eq!(r.debug_state(coordinator), None);
}

#[test]
fn without_the_coordinator_the_obstacle_reaction_interrupts_the_dance() {
    // The same tree based on GlobalInterruptions itself: nothing suppresses.
    let mut r = load(&files(), "GlobalInterruptions");
    let dance = id(&r, "DanceToTheBeat");
    let obstacle = id(&r, "ReactToObstacle");
    patch(&mut r, json!({"features": {"Dancing": true}}));
    run(&mut r, 2);
    assert_eq!(r.top(), Some(dance), "{:?}", r.stack_names());
    patch(&mut r, json!({"obstacle_detected": true}));
    run(&mut r, 1);
    assert_eq!(r.top(), Some(obstacle), "{:?}", r.stack_names());
}

#[test]
fn meet_victor_and_an_active_charger_intent_suppress_as_the_spec_lists() {
    let mut r = runner();
    let coordinator = id(&r, "CoordinateGlobalInterrupts");
    let meet = id(&r, "MeetVictor");
    let petting = id(&r, "ReactToTouchPetting");
    let sound = id(&r, "ReactToSoundAwake");
    send(&mut r, "meet_victor");
    run(&mut r, 1);
    assert_eq!(r.top(), Some(meet), "{:?}", r.stack_names());
    patch(&mut r, json!({"touched": true, "beat_detected": true}));
    run(&mut r, 20);
    assert_eq!(r.top(), Some(meet), "{:?}", r.stack_names());
    assert_eq!(
        r.debug_state(coordinator),
        Some("suppressing ReactToTouchPetting, ReactToSoundAwake")
    );
    assert_eq!((r.starts(petting), r.starts(sound)), (0, 0));
    // MeetVictor ends after its 5 s: the touch reaction runs.
    run(&mut r, ticks(Duration::from_secs(5)));
    assert!(r.starts(petting) > 0, "{:?}", r.stack_names());

    // An active `system_charger` suppresses the obstacle reaction (and the dance ones).
    let mut r = runner();
    let go_home = id(&r, "GoHomeVoiceCommand");
    let obstacle = id(&r, "ReactToObstacle");
    send(&mut r, "system_charger");
    run(&mut r, 1);
    assert_eq!(r.top(), Some(go_home), "{:?}", r.stack_names());
    patch(&mut r, json!({"obstacle_detected": true}));
    run(&mut r, 20);
    assert_eq!(r.top(), Some(go_home), "{:?}", r.stack_names());
    assert_eq!(r.starts(obstacle), 0);
    assert_eq!(
        r.debug_state(id(&r, "CoordinateGlobalInterrupts")),
        Some("suppressing DanceToTheBeat, ReactToObstacle")
    );
}

#[test]
fn sdk_interface_runs_at_its_control_level_only_drops_whitelisted_intents_and_ends_on_release() {
    let mut r = runner();
    let default = id(&r, "SDKDefault");
    let all = id(&r, "SDKOverrideAll");
    patch(&mut r, json!({"sdk_control": {"level": 20}}));
    run(&mut r, 1);
    assert_eq!(r.top(), Some(default), "{:?}", r.stack_names());
    // A whitelisted intent goes to the SDK: dropped, not claimed, nothing else starts.
    send(&mut r, "imperative_praise");
    run(&mut r, 1);
    assert!(r.intents().pending().is_none());
    assert!(!r.intents().is_any_active());
    assert_eq!(r.top(), Some(default), "{:?}", r.stack_names());
    run(&mut r, 200);
    assert_eq!(
        r.top(),
        Some(default),
        "it holds the stack while the SDK does"
    );
    // Another level: the other instance takes over.
    patch(&mut r, json!({"sdk_control": {"level": 10}}));
    run(&mut r, 2);
    assert_eq!(r.top(), Some(all), "{:?}", r.stack_names());
    patch(&mut r, json!({"sdk_control": null}));
    run(&mut r, 2);
    assert_eq!(r.stack_names(), IDLE_STACK);
    run(&mut r, 200);
    assert_eq!(
        (r.starts(default), r.starts(all)),
        (1, 1),
        "no new request, no start"
    );

    let lock = id(&r, "SDKLock");
    patch(&mut r, json!({"sdk_lock": true}));
    run(&mut r, 1);
    assert_eq!(r.top(), Some(lock), "{:?}", r.stack_names());
    run(&mut r, 200);
    assert_eq!(r.top(), Some(lock), "{:?}", r.stack_names());
    patch(&mut r, json!({"sdk_lock": false}));
    run(&mut r, 2);
    assert_eq!(r.stack_names(), IDLE_STACK);
}

#[test]
fn quiet_mode_starts_on_its_intent_runs_its_entries_and_ends_on_an_intent_time_or_a_shake() {
    let mut r = runner();
    let quiet = id(&r, "QuietMode");
    let anims = id(&r, "BeQuietAnims");
    let trigger = id(&r, "TriggerWordDetected");
    send(&mut r, "imperative_quiet");
    run(&mut r, 1);
    assert!(r.is_on_stack(quiet));
    assert_eq!(r.top(), Some(anims), "its first wanting entry runs");
    assert!(r.intents().is_any_active(), "it claimed imperative_quiet");
    // The trigger word: an earlier entry interrupts the later one, then it returns.
    r.intents_mut().set_trigger_word_pending(false, false);
    run(&mut r, 1);
    assert_eq!(r.top(), Some(trigger), "{:?}", r.stack_names());
    r.intents_mut().clear_trigger_word();
    run(&mut r, ticks(Duration::from_secs(2)));
    assert_eq!(r.top(), Some(anims), "{:?}", r.stack_names());
    // Power save after 15 s.
    assert!(!r.robot().signals.power_save);
    run(&mut r, ticks(Duration::from_secs(15)));
    assert!(r.robot().signals.power_save);
    // While the timer rings, TriggerWordDetected is suppressed.
    patch(&mut r, json!({"timer_s": 0}));
    r.intents_mut().set_trigger_word_pending(false, false);
    run(&mut r, 1);
    assert_eq!(r.top(), Some(anims), "{:?}", r.stack_names());
    assert!(!r.view(trigger).wants_to_activate(trigger));
    patch(&mut r, json!({"timer_cleared": true}));
    run(&mut r, 5);
    // Another intent ends it (power save restored).
    send(&mut r, "imperative_praise");
    run(&mut r, 1);
    assert!(!r.is_on_stack(quiet), "{:?}", r.stack_names());
    assert!(!r.robot().signals.power_save);
    run(&mut r, 100);
    assert_eq!(r.starts(quiet), 1, "no new intent, no start");

    // Its active time ends it.
    send(&mut r, "imperative_quiet");
    run(&mut r, 1);
    assert!(r.is_on_stack(quiet));
    run(&mut r, ticks(Duration::from_secs(60)));
    assert!(!r.is_on_stack(quiet));

    // A shake ends it.
    send(&mut r, "imperative_quiet");
    run(&mut r, 2);
    assert!(r.is_on_stack(quiet));
    patch(&mut r, json!({"accel_magnitude": 20000.0}));
    run(&mut r, 1);
    assert!(!r.is_on_stack(quiet));
    assert_eq!(r.starts(quiet), 3);
}

#[test]
fn stay_on_charger_runs_on_the_platform_until_full_an_intent_or_thirty_minutes() {
    let mut r = runner();
    let stay = id(&r, "StayOnChargerUntilCharged");
    patch(
        &mut r,
        json!({"on_charger": true, "on_charger_platform": true}),
    );
    run(&mut r, 2);
    assert!(r.is_on_stack(stay), "{:?}", r.stack_names());
    assert_eq!(
        r.stack_names().last(),
        Some(&"StayOnChargerUntilCharged@chargerIdle")
    );
    patch(&mut r, json!({"battery_level": "Full"}));
    run(&mut r, 2);
    assert!(!r.is_on_stack(stay));
    run(&mut r, 100);
    assert_eq!(r.starts(stay), 1, "full: no new start");
    // The battery drops from Full: not within 4 s.
    patch(&mut r, json!({"battery_level": "Nominal"}));
    run(&mut r, ticks(Duration::from_secs(3)));
    assert!(!r.is_on_stack(stay));
    run(&mut r, ticks(Duration::from_secs(2)));
    assert!(r.is_on_stack(stay));
    // An intent ends it.
    send(&mut r, "imperative_praise");
    run(&mut r, 1);
    assert!(!r.is_on_stack(stay));
    run(&mut r, 10);
    assert!(r.is_on_stack(stay), "back once the intent is gone");
    // Thirty minutes on the platform end it, then a 20-minute cooldown.
    patch(&mut r, json!({"on_charger_platform": false}));
    run(&mut r, 2);
    patch(&mut r, json!({"on_charger_platform": true}));
    run(&mut r, 2);
    let starts = r.starts(stay);
    run(&mut r, ticks(Duration::from_secs(30 * 60)));
    assert!(!r.is_on_stack(stay));
    patch(&mut r, json!({"on_charger_platform": false}));
    run(&mut r, 2);
    patch(&mut r, json!({"on_charger_platform": true}));
    for _ in 0..ticks(Duration::from_secs(19 * 60)) {
        run(&mut r, 1);
        assert_eq!(r.starts(stay), starts, "cooldown at {:?}", r.clock().now());
    }
    run(&mut r, ticks(Duration::from_secs(2 * 60)));
    assert_eq!(r.starts(stay), starts + 1, "after the cooldown");
}

#[test]
fn confirm_habitat_runs_while_exploring_with_an_unknown_habitat_and_ends_when_known() {
    let mut r = runner();
    let confirm = id(&r, "ConfirmHabitat");
    // Its on-treads condition: 5 s on the treads.
    run(&mut r, ticks(Duration::from_secs(5)));
    patch(&mut r, json!({"features": {"Exploring": true}}));
    run(&mut r, 2);
    assert!(r.is_on_stack(confirm), "{:?}", r.stack_names());
    assert_eq!(
        r.top(),
        r.id("FindHomeSearch"),
        "no charger known: it searches"
    );
    run(&mut r, 200);
    assert!(r.is_on_stack(confirm), "probes until the belief is known");
    patch(&mut r, json!({"in_habitat": true}));
    run(&mut r, 1);
    assert_eq!(r.action_of(confirm), Some("ReactToHabitat"));
    let mut n = 0;
    while r.is_on_stack(confirm) {
        run(&mut r, 1);
        n += 1;
        assert!(n < 400, "never ended");
    }
    run(&mut r, 200);
    assert_eq!(r.starts(confirm), 1, "known habitat: no new start");
    // NotInHabitat ends it at once.
    patch(&mut r, json!({"in_habitat": null}));
    run(&mut r, 2);
    assert_eq!(r.starts(confirm), 2);
    patch(&mut r, json!({"in_habitat": false}));
    run(&mut r, 2);
    assert!(!r.is_on_stack(confirm));
    // Not during the first 5 s on treads, nor with an intent pending.
    patch(
        &mut r,
        json!({"in_habitat": null, "off_treads": "InAir", "features": {"Exploring": false}}),
    );
    run(&mut r, 2);
    patch(
        &mut r,
        json!({"off_treads": "OnTreads", "features": {"Exploring": true}}),
    );
    run(&mut r, ticks(Duration::from_secs(4)));
    assert_eq!(r.starts(confirm), 2);
    run(&mut r, ticks(Duration::from_secs(2)));
    assert_eq!(r.starts(confirm), 3);
}

#[test]
fn sleep_cycle_sleeps_on_system_sleep_and_good_night_claims_them_and_wakes_on_its_reasons() {
    let mut r = runner();
    let sleep = id(&r, "SleepCycle");
    let asleep = id(&r, "Asleep");
    send(&mut r, "system_sleep");
    run(&mut r, 1);
    assert!(r.intents().is_any_active(), "claimed system_sleep");
    assert_eq!(r.top(), r.id("GoToSleep"), "{:?}", r.stack_names());
    until_top(&mut r, asleep, 40);
    assert_eq!(r.debug_state(sleep), Some("Comatose"));
    // Comatose: a pick-up does not wake it; after 30 s it is in deep sleep, where it does.
    patch(&mut r, json!({"off_treads": "InAir"}));
    run(&mut r, 5);
    assert_eq!(r.top(), Some(asleep), "{:?}", r.stack_names());
    patch(&mut r, json!({"off_treads": "OnTreads"}));
    run(&mut r, ticks(Duration::from_secs(30)));
    assert_eq!(r.debug_state(sleep), Some("DeepSleep"));
    run(&mut r, 600);
    assert_eq!(r.top(), Some(asleep), "asleep until a wake reason");
    patch(&mut r, json!({"off_treads": "InAir"}));
    run(&mut r, 1);
    assert_eq!(r.top(), r.id("SleepingWakeUp"), "{:?}", r.stack_names());
    assert!(!r.intents().is_any_active(), "waking released the intent");
    patch(&mut r, json!({"off_treads": "OnTreads"}));
    let idle = id(&r, "Idle");
    until_top(&mut r, idle, 40);
    assert_eq!(r.stack_names(), IDLE_STACK);
    assert_eq!(r.debug_state(sleep), Some("Awake"));

    // Good night: the reaction, to the charger, to sleep (light).
    send(&mut r, "greeting_goodnight");
    run(&mut r, 1);
    assert_eq!(r.action_of(sleep), Some("ReactToGoodNight"));
    let mut n = 0;
    while r.top() != r.id("FindHomeForSleeping") {
        run(&mut r, 1);
        n += 1;
        assert!(n < 400, "{:?}", r.stack_names());
    }
    run(&mut r, ticks(Duration::from_secs(4)));
    assert_eq!(r.top(), Some(asleep), "{:?}", r.stack_names());
    assert_eq!(r.debug_state(sleep), Some("LightSleep"));
    // A voice command (an always-reason) wakes it.
    send(&mut r, "imperative_praise");
    run(&mut r, 1);
    assert_eq!(r.top(), r.id("SleepingWakeUp"), "{:?}", r.stack_names());
}

#[test]
fn sleep_cycle_claims_its_intents_and_coverage_counts_them() {
    let r = runner();
    let cov = coverage::coverage(&r);
    for name in ["system_sleep", "greeting_goodnight"] {
        let tag = UserIntent::tag_from_name(name).unwrap();
        assert!(
            cov.claimers(tag).iter().any(|c| c.name == "SleepCycle"),
            "{name}: {:?}",
            cov.claimers(tag)
        );
    }
}

#[test]
fn powering_robot_off_starts_after_the_button_is_held_long_enough_and_ends_on_release() {
    let mut r = runner();
    let off = id(&r, "SingletonPoweringRobotOff");
    patch(&mut r, json!({"power_button_held": true}));
    run(&mut r, ticks(Duration::from_millis(400)));
    assert!(!r.is_on_stack(off), "not before 500 ms");
    run(&mut r, ticks(Duration::from_millis(200)));
    assert!(r.is_on_stack(off));
    assert_eq!(r.action_of(off), Some("anim_power_onoff_01"));
    patch(&mut r, json!({"power_button_held": false}));
    run(&mut r, 2);
    assert!(!r.is_on_stack(off));
    run(&mut r, 100);
    assert_eq!(r.starts(off), 1);
}

#[test]
fn tools_see_each_native_predicate_and_its_inputs() {
    let r = runner();
    let shape = inspect::shape(&r);
    for (name, text, input) in [
        ("SDKDefault", "level 20", "sdk_control"),
        ("SDKLock", "lock", "sdk_lock"),
        ("QuietMode", "TriggerWordDetected", "stack"),
        (
            "StayOnChargerUntilCharged",
            "platform",
            "on_charger_platform",
        ),
        ("ConfirmHabitat", "habitat Unknown", "in_habitat"),
        (
            "CoordinateGlobalInterrupts",
            "delegate wants to run",
            "stack",
        ),
    ] {
        let p = shape.nodes[id(&r, name).index()]
            .predicate
            .clone()
            .unwrap_or_else(|| panic!("{name}"));
        assert!(p.text.contains(text), "{name}: {p:?}");
        assert!(p.inputs.iter().any(|i| i.contains(input)), "{name}: {p:?}");
        assert!(p.unmodelled.is_empty(), "{name}: {p:?}");
    }
}

// --- keys ---------------------------------------------------------------------------

/// Every class of the family's table.
fn family() -> &'static [specs::ClassData] {
    specs::coordinators::CLASSES
}

/// An instance of `class` giving every key, its behavior IDs `Idle`.
fn full_instance(class: &specs::ClassData) -> Map<String, Value> {
    let id = format!("Test{}", class.name);
    support::full_instance(class, &id, &[], |k| k.ty.sample("Idle"))
}

/// The instance with Wait behaviors for every ID the family's code names.
fn problems(instance: &Map<String, Value>) -> Vec<(String, ProblemKind)> {
    let mut files: Vec<(String, String)> = vec![(
        "idle.json".into(),
        json!({"behaviorID": "Idle", "behaviorClass": "Wait"}).to_string(),
    )];
    let mut named: Vec<&str> = family()
        .iter()
        .flat_map(|c| c.hard_coded.iter().copied())
        .collect();
    named.sort_unstable();
    named.dedup();
    for n in named {
        if n != "Idle" {
            files.push((
                format!("{n}.json"),
                json!({"behaviorID": n, "behaviorClass": "Wait"}).to_string(),
            ));
        }
    }
    let id = instance["behaviorID"].as_str().unwrap().to_owned();
    files.push((
        format!("{id}.json"),
        Value::Object(instance.clone()).to_string(),
    ));
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    match load_sources(
        &sources,
        &id,
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
fn every_key_of_every_class_of_the_family_is_accepted_strict_a_wrong_type_and_an_unknown_key_are_errors(
) {
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
fn quiet_mode_entries_and_sleep_cycle_reasons_are_checked_whole() {
    let class = specs::class("QuietModeCoordinator").unwrap();
    let mut o = full_instance(class);
    o.insert(
        "behaviors".into(),
        json!([{"behavior": "Idle"}, {"behavior": 3, "audioAllowed": true},
               {"behavior": "Idle", "audioAllowed": false, "loud": 1}]),
    );
    let p = problems(&o);
    for at in ["behaviors[0]", "behaviors[1]", "behaviors[2]"] {
        assert!(p.iter().any(|(path, _)| path.ends_with(at)), "{at}: {p:?}");
    }
    let class = specs::class("SleepCycle").unwrap();
    let mut o = full_instance(class);
    o.insert(
        "wakeFromStates".into(),
        json!([{"fromState": "Dozing", "reasons": []}, {"fromState": "DeepSleep"}]),
    );
    o.insert("alwaysWakeReasons".into(), json!([""]));
    let p = problems(&o);
    assert!(
        p.iter().any(|(path, _)| path.contains("wakeFromStates[0]")),
        "{p:?}"
    );
    assert!(
        p.iter().any(|(path, _)| path.contains("wakeFromStates[1]")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|(path, _)| path.contains("alwaysWakeReasons[0]")),
        "{p:?}"
    );
}

// --- the cached tick ------------------------------------------------------------------

fn trigger() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"features": {"Dancing": true}})),
        Just(json!({"features": {"Dancing": false}})),
        Just(json!({"features": {"Exploring": true}})),
        Just(json!({"features": {"Exploring": false}})),
        Just(json!({"obstacle_detected": true})),
        Just(json!({"obstacle_detected": false})),
        Just(json!({"touched": true})),
        Just(json!({"touched": false})),
        Just(json!({"beat_detected": true})),
        Just(json!({"beat_detected": false})),
        Just(json!({"sdk_control": {"level": 20}})),
        Just(json!({"sdk_control": {"level": 10}})),
        Just(json!({"sdk_control": null})),
        Just(json!({"sdk_lock": true})),
        Just(json!({"sdk_lock": false})),
        Just(json!({"on_charger": true, "on_charger_platform": true})),
        Just(json!({"on_charger": false, "on_charger_platform": false})),
        Just(json!({"battery_level": "Full"})),
        Just(json!({"battery_level": "Nominal"})),
        Just(json!({"battery_level": "Low"})),
        Just(json!({"in_habitat": true})),
        Just(json!({"in_habitat": false})),
        Just(json!({"in_habitat": null})),
        Just(json!({"off_treads": "InAir"})),
        Just(json!({"off_treads": "OnTreads"})),
        Just(json!({"power_button_held": true})),
        Just(json!({"power_button_held": false})),
        Just(json!({"timer_s": 0})),
        Just(json!({"timer_cleared": true})),
        Just(json!({"accel_magnitude": 20000.0})),
        Just(json!({"accel_magnitude": 0.0})),
        Just(json!({"cliffs": 2})),
        Just(json!({"cliffs": 0})),
        Just(json!({"intent": "imperative_quiet"})),
        Just(json!({"intent": "system_sleep"})),
        Just(json!({"intent": "greeting_goodnight"})),
        Just(json!({"intent": "meet_victor"})),
        Just(json!({"intent": "system_charger"})),
        Just(json!({"intent": "imperative_praise"})),
        Just(json!({"trigger_word": true})),
    ]
}

fn apply(r: &mut Runner<UserIntent>, v: &Value) {
    if let Some(n) = v.get("intent").and_then(Value::as_str) {
        send(r, n);
        return;
    }
    if v.get("trigger_word").is_some() {
        r.intents_mut().set_trigger_word_pending(false, false);
        return;
    }
    let _ = r.robot_mut().apply_json(v.as_object().unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Caching and asking every tick agree on every tick of the family's tree, under random
    /// state patches and intents; nothing panics.
    #[test]
    fn the_cached_tick_equals_asking_every_tick(
        steps in proptest::collection::vec((trigger(), 1usize..60), 5..40),
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

    /// A runner that skips the ticks its wake-up says nothing happens in does what a runner
    /// ticking every tick does, on every tick it runs (the family's `next_wakeup`s are
    /// exact), under the same random patches and intents.
    #[test]
    fn skipping_idle_ticks_changes_nothing(
        steps in proptest::collection::vec((trigger(), 1usize..400), 5..25),
    ) {
        let mut ticking = runner();
        let mut skipping = runner();
        for (v, gap) in &steps {
            apply(&mut ticking, v);
            apply(&mut skipping, v);
            let mut expected = Vec::with_capacity(*gap);
            for _ in 0..*gap {
                ticking.tick(DT, &[]);
                expected.push(support::seen(&ticking));
            }
            let until = ticking.clock().tick();
            let mut got = Vec::new();
            support::run_skipping(&mut skipping, DT, until, |r| {
                got.push((r.clock().tick(), support::seen(r)));
            });
            for (tick, s) in got {
                let k = (tick + *gap as u64 - until - 1) as usize;
                prop_assert_eq!(s, expected[k].clone(), "{}", v);
            }
        }
    }
}
