//! The original engine's conditions (spec §5), one scenario each, written in the original
//! JSON format: each is the `wantsToBeActivatedCondition` of a `Wait` under a dispatcher, and
//! the robot state (or the intents, or the clock) is changed until it holds. Also the
//! activation gates of spec §0 and the robot state's JSON patches.

use std::time::Duration;

use original_behaviors::robot_state::{
    BatteryLevel, Emotion, Face, Habitat, OffTreads, SimpleMood,
};
use original_behaviors::{RobotAccess, RobotAccessMut};
use robot_runtime::behavior::{load_tree, BehaviorId, LoadOptions, Runner, Source};
use robot_runtime::intent::{IntentComponent, IntentSource};
use robot_runtime_tests::clad::UserIntentGlobalStop;
use robot_runtime_tests::{UserIntent, Void, MAP};

const DT: Duration = Duration::from_millis(100);

/// A root dispatcher running an idle `Wait`, with `Probe` in scope beside it (never run: the
/// dispatcher does not interrupt), a `Wait` whose activation condition is `condition`.
/// Returns the runner (ticked once) and the probe's ID.
fn probe(condition: &str) -> (Runner<UserIntent>, BehaviorId) {
    let tree = format!(
        r#"[
      {{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
        "interruptActiveBehavior": false, "behaviors": ["Idle", "Probe"]}},
      {{"behaviorID": "Probe", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {condition}}},
      {{"behaviorID": "Idle", "behaviorClass": "Wait"}}
    ]"#
    );
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("probe.json", &tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut r = Runner::new(t, IntentComponent::new(&MAP));
    r.tick(DT, &[]);
    let p = r.id("Probe").unwrap();
    (r, p)
}

/// Whether the probe wants to run now (evaluates its condition).
fn wants(r: &Runner<UserIntent>, p: BehaviorId) -> bool {
    r.view(r.base()).wants_to_activate(p)
}

#[test]
fn off_treads_state_with_time_since_change() {
    let (mut r, p) = probe(
        r#"{"conditionType": "OffTreadsState", "targetState": "InAir", "minTimeSinceChange_ms": 250, "maxTimeSinceChange_ms": 1000}"#,
    );
    assert!(!wants(&r, p));
    r.robot_mut().set_off_treads(OffTreads::InAir);
    assert!(!wants(&r, p), "just changed");
    r.tick(DT, &[]);
    r.tick(DT, &[]);
    assert!(!wants(&r, p), "200 ms");
    r.tick(DT, &[]);
    assert!(wants(&r, p), "300 ms");
    for _ in 0..8 {
        r.tick(DT, &[]);
    }
    assert!(!wants(&r, p), "over the max");
}

#[test]
fn feature_gate_on_charger_and_platform() {
    let (mut r, p) = probe(r#"{"conditionType": "FeatureGate", "feature": "Exploring"}"#);
    assert!(wants(&r, p), "features are on unless set");
    r.robot_mut().set_feature("Exploring", false);
    assert!(!wants(&r, p));
    let (mut r, p) =
        probe(r#"{"conditionType": "FeatureGate", "feature": "Exploring", "expected": false}"#);
    r.robot_mut().set_feature("Exploring", false);
    assert!(wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "OnCharger"}"#);
    assert!(!wants(&r, p));
    r.robot_mut().on_charger = true;
    assert!(wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "OnChargerPlatform"}"#);
    r.robot_mut().on_charger_platform = true;
    assert!(wants(&r, p));
}

#[test]
fn object_known_with_max_age_and_newly_seen() {
    let (mut r, p) = probe(
        r#"{"conditionType": "ObjectKnown", "objectTypes": ["Block_LIGHTCUBE1"], "maxAge_ms": 500}"#,
    );
    assert!(!wants(&r, p));
    r.robot_mut().observe_object(1, 200.0);
    assert!(wants(&r, p));
    for _ in 0..6 {
        r.tick(DT, &[]);
    }
    assert!(!wants(&r, p), "seen 600 ms ago");
    // maxAge 0: only when newly seen (first seen at the latest message, or seen again).
    let (mut r, p) = probe(
        r#"{"conditionType": "ObjectKnown", "objectTypes": ["Charger_Basic"], "maxAge_ms": 0}"#,
    );
    r.robot_mut().observe_object(5, 100.0);
    assert!(wants(&r, p), "new, seen at the latest message");
    assert!(!wants(&r, p), "not again");
    r.tick(DT, &[]);
    r.robot_mut().observe_object(5, 100.0);
    assert!(wants(&r, p), "seen again");
    // The wrong type never counts.
    let (mut r, p) =
        probe(r#"{"conditionType": "ObjectKnown", "objectTypes": ["Block_LIGHTCUBE2"]}"#);
    r.robot_mut().observe_object(1, 100.0);
    assert!(!wants(&r, p));
}

#[test]
fn object_initial_detection_first_time_only() {
    let (mut r, p) = probe(
        r#"{"conditionType": "ObjectInitialDetection", "objectTypes": ["Block_LIGHTCUBE1"], "firstTimeOnly": true}"#,
    );
    r.robot_mut().observe_object(1, 100.0);
    assert!(wants(&r, p));
    assert!(!wants(&r, p), "never again");
}

#[test]
fn emotion_min_max_and_value() {
    let (mut r, p) = probe(r#"{"conditionType": "Emotion", "emotion": "Trust", "min": 0.5}"#);
    assert!(!wants(&r, p));
    r.robot_mut().emotions[Emotion::Trust as usize] = 0.5;
    assert!(wants(&r, p), "inclusive");
    let (mut r, p) = probe(r#"{"conditionType": "Emotion", "emotion": "Happy", "value": 0.25}"#);
    r.robot_mut().emotions[Emotion::Happy as usize] = 0.250_001;
    assert!(wants(&r, p), "within 1e-5");
}

#[test]
fn held_in_palm_being_held_and_battery() {
    let (mut r, p) = probe(
        r#"{"conditionType": "RobotHeldInPalm", "shouldBeHeldInPalm": true, "minDuration_s": 0.2}"#,
    );
    r.robot_mut().set_held_in_palm(true);
    assert!(!wants(&r, p));
    r.tick(DT, &[]);
    r.tick(DT, &[]);
    assert!(wants(&r, p));
    let (mut r, p) = probe(
        r#"{"conditionType": "BeingHeld", "shouldBeHeld": false, "minTimeSinceChange_ms": 100}"#,
    );
    assert!(wants(&r, p), "not held since start");
    r.robot_mut().set_being_held(true);
    assert!(!wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "BatteryLevel", "targetBatteryLevel": "Low"}"#);
    assert!(!wants(&r, p));
    r.robot_mut().battery_level = BatteryLevel::Low;
    assert!(wants(&r, p));
}

#[test]
fn cliff_detected_counts_and_durations() {
    let (mut r, p) = probe(
        r#"{"conditionType": "CliffDetected", "numCliffDetectionsToTrigger": 2, "minDuration_ms": 150}"#,
    );
    r.robot_mut().set_cliffs(0b0001);
    r.tick(DT, &[]);
    assert!(!wants(&r, p), "one sensor");
    r.robot_mut().set_cliffs(0b0011);
    r.tick(DT, &[]);
    assert!(!wants(&r, p), "two for 100 ms");
    r.tick(DT, &[]);
    assert!(wants(&r, p), "two for 200 ms");
    let (mut r, p) = probe(r#"{"conditionType": "CliffDetected", "shouldDetectNoCliffs": true}"#);
    assert!(wants(&r, p));
    r.robot_mut().set_cliffs(0b1000);
    assert!(!wants(&r, p));
}

#[test]
fn flags_of_the_robot_state() {
    for (ty, set) in [
        (
            "HighTemperature",
            Box::new(|r: &mut Runner<UserIntent>| r.robot_mut().cpu_temp_c = 91.0)
                as Box<dyn Fn(&mut Runner<UserIntent>)>,
        ),
        (
            "RobotInHabitat",
            Box::new(|r| r.robot_mut().habitat = Habitat::InHabitat),
        ),
        (
            "UserIsHoldingCube",
            Box::new(|r| r.robot_mut().user_holding_cube = true),
        ),
        (
            "TooHotToCharge",
            Box::new(|r| r.robot_mut().too_hot_to_charge = true),
        ),
        (
            "RobotPickedUp",
            Box::new(|r| r.robot_mut().picked_up = true),
        ),
        (
            "CarryingCube",
            Box::new(|r| r.robot_mut().carrying_object = true),
        ),
        (
            "UnexpectedMovement",
            Box::new(|r| r.robot_mut().unexpected_movement = true),
        ),
        ("EyeContact", Box::new(|r| r.robot_mut().eye_contact = true)),
        (
            "ConnectedToCube",
            Box::new(|r| r.robot_mut().cube_connected = true),
        ),
        ("IsNightTime", Box::new(|r| r.robot_mut().night_time = true)),
        (
            "IsMaintenanceReboot",
            Box::new(|r| r.robot_mut().maintenance_reboot = true),
        ),
        (
            "AlexaInteractionActive",
            Box::new(|r| r.robot_mut().alexa_active = true),
        ),
        (
            "RobotPlacedOnSlope",
            Box::new(|r| r.robot_mut().placed_on_slope = true),
        ),
        (
            "ObstacleDetected",
            Box::new(|r| r.robot_mut().obstacle_detected = true),
        ),
        (
            "SalientPointDetected",
            Box::new(|r| r.robot_mut().salient_point_detected = true),
        ),
        (
            "MotionDetected",
            Box::new(|r| r.robot_mut().motion_detected = true),
        ),
    ] {
        let (mut r, p) = probe(&format!(r#"{{"conditionType": "{ty}"}}"#));
        assert!(!wants(&r, p), "{ty} off");
        set(&mut r);
        assert!(wants(&r, p), "{ty} on");
    }
    let (mut r, p) = probe(r#"{"conditionType": "HighTemperature"}"#);
    r.robot_mut().battery_temp_c = 55.0;
    assert!(wants(&r, p), "battery at 55 °C");
}

#[test]
fn timer_in_range_in_an_activation_condition_counts_from_entering_scope() {
    let (mut r, p) = probe(r#"{"conditionType": "TimerInRange", "begin_s": 0.3, "end_s": 0.6}"#);
    // The probe entered scope on the first tick, when the root was pushed.
    assert!(!wants(&r, p), "0 ms in scope");
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    assert!(wants(&r, p), "300 ms in scope");
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    assert!(!wants(&r, p), "600 ms: the end is exclusive");
}

#[test]
fn timer_in_range_as_a_cancel_condition_is_time_since_activation() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
       "behaviors": ["Probe"]},
      {"behaviorID": "Probe", "behaviorClass": "Wait",
       "wantsToCancelSelfCondition": {"conditionType": "TimerInRange", "begin_s": 0.5}}
    ]"#;
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("t.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut r: Runner<UserIntent> = Runner::new(t, IntentComponent::new(&MAP));
    let mut ends = 0;
    for _ in 0..25 {
        r.tick(DT, &[]);
        if r.stack_names() == ["Root"] {
            ends += 1;
        }
    }
    // Wait ends every 0.5 s (plus one tick for the dispatcher to choose again).
    assert!((3..=5).contains(&ends), "{ends}");
}

#[test]
fn simple_mood_now_and_transitions_this_tick() {
    let (mut r, p) = probe(r#"{"conditionType": "SimpleMood", "mood": "HighStim"}"#);
    assert!(!wants(&r, p));
    r.robot_mut().set_simple_mood(SimpleMood::HighStim);
    assert!(wants(&r, p));
    let (mut r, p) =
        probe(r#"{"conditionType": "SimpleMood", "from": "Default", "to": "Frustrated"}"#);
    r.robot_mut().set_simple_mood(SimpleMood::Frustrated);
    assert!(wants(&r, p), "transition on this tick");
    r.tick(DT, &[]);
    r.tick(DT, &[]);
    assert!(!wants(&r, p), "a later tick");
}

#[test]
fn intents_and_trigger_word() {
    let (mut r, p) = probe(
        r#"{"conditionType": "UserIntentPending", "list": [{"type": "global_stop", "what_to_stop": "timer"}]}"#,
    );
    r.intents_mut().set_pending(
        UserIntent::GlobalStop(UserIntentGlobalStop {
            what_to_stop: "music".into(),
        }),
        IntentSource::Voice,
    );
    assert!(!wants(&r, p), "full-data matcher");
    r.intents_mut().set_pending(
        UserIntent::GlobalStop(UserIntentGlobalStop {
            what_to_stop: "timer".into(),
        }),
        IntentSource::Voice,
    );
    assert!(wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "AnyUserIntent"}"#);
    assert!(!wants(&r, p));
    r.intents_mut()
        .set_pending(UserIntent::ImperativeCome(Void {}), IntentSource::App);
    assert!(wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "TriggerWordPending"}"#);
    assert!(!wants(&r, p));
    r.intents_mut().set_trigger_word_pending(true, false);
    assert!(wants(&r, p));
}

#[test]
fn compound_node_priority_nested_nodes_and_every_leaf_evaluated() {
    // `not` wins over `and`, `and` over `or`; the others are ignored (reported as
    // unread keys, warnings).
    let (r, p) = probe(
        r#"{"conditionType": "Compound", "not": {"conditionType": "OnCharger"}, "and": [{"conditionType": "OnCharger"}]}"#,
    );
    assert!(wants(&r, p));
    // A child without conditionType is a nested node.
    let (mut r, p) = probe(
        r#"{"conditionType": "Compound", "or": [{"and": [{"conditionType": "OnCharger"}, {"conditionType": "EyeContact"}]},
                                                  {"conditionType": "RobotPickedUp"}]}"#,
    );
    r.robot_mut().on_charger = true;
    assert!(!wants(&r, p));
    r.robot_mut().eye_contact = true;
    assert!(wants(&r, p));
    // Every leaf runs: a BecameTrueThisTick after a true leaf of an `or` still advances.
    let (mut r, p) = probe(
        r#"{"conditionType": "Compound", "or": [{"conditionType": "TrueCondition"},
            {"conditionType": "BecameTrueThisTick", "subCondition": {"conditionType": "OnCharger"}}]}"#,
    );
    assert!(wants(&r, p));
    let leaf = |r: &Runner<UserIntent>| r.conditions(p).0.unwrap().children()[1].last();
    assert!(
        leaf(&r).is_some(),
        "evaluated although the first leaf was true"
    );
    r.robot_mut().on_charger = true;
    assert!(wants(&r, p));
    assert_eq!(leaf(&r).map(|(_, v)| v), Some(true), "became true");
    // Empty and / or are false.
    let (r, p) = probe(r#"{"conditionType": "Compound", "and": []}"#);
    assert!(!wants(&r, p));
}

#[test]
fn behavior_timer_never_reset_is_expired() {
    let (mut r, p) =
        probe(r#"{"conditionType": "BehaviorTimer", "timerName": "FistBump", "cooldown_s": 0.3}"#);
    assert!(wants(&r, p), "never reset");
    let now = r.clock().now();
    r.robot_mut().behavior_timers.reset(1, now);
    assert!(!wants(&r, p));
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    assert!(!wants(&r, p), "elapsed must exceed the cooldown");
    r.tick(DT, &[]);
    assert!(wants(&r, p));
}

#[test]
fn became_true_this_tick_and_timed_dedup() {
    let (mut r, p) = probe(
        r#"{"conditionType": "BecameTrueThisTick", "subCondition": {"conditionType": "OnCharger"}}"#,
    );
    assert!(!wants(&r, p), "unknown first");
    r.robot_mut().on_charger = true;
    assert!(wants(&r, p));
    assert!(!wants(&r, p), "already true");
    let (mut r, p) = probe(
        r#"{"conditionType": "TimedDedup", "dedupInterval_ms": 300, "subCondition": {"conditionType": "OnCharger"}}"#,
    );
    r.robot_mut().on_charger = true;
    assert!(wants(&r, p));
    r.tick(DT, &[]);
    assert!(!wants(&r, p), "deduplicated");
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    assert!(wants(&r, p));
}

#[test]
fn behavior_suggested_within_its_ticks() {
    let (mut r, p) = probe(
        r#"{"conditionType": "BehaviorSuggested", "postBehaviorSuggestion": "Socialize", "maxTicksForSuggestion": 2}"#,
    );
    assert!(!wants(&r, p));
    let tick = r.clock().tick();
    r.robot_mut().whiteboard.offer(0, tick);
    assert!(wants(&r, p));
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    assert!(!wants(&r, p));
}

#[test]
fn stuck_on_edge_after_the_cliff_delay() {
    let (mut r, p) = probe(r#"{"conditionType": "StuckOnEdge"}"#);
    r.robot_mut().set_cliffs(0b0101); // both left sensors
    assert!(!wants(&r, p), "starts the clock");
    for _ in 0..5 {
        r.tick(DT, &[]);
    }
    assert!(!wants(&r, p), "500 ms");
    r.tick(DT, &[]);
    assert!(wants(&r, p), "600 ms > 550 ms");
}

#[test]
fn sensors_in_range() {
    let (mut r, p) =
        probe(r#"{"conditionType": "RobotShaken", "minAccelMagnitudeThreshold": 100}"#);
    r.robot_mut().accel_magnitude = 150.0;
    assert!(!wants(&r, p), "not picked up");
    r.robot_mut().picked_up = true;
    assert!(wants(&r, p));
    let (mut r, p) = probe(
        r#"{"conditionType": "RobotPitchInRange", "minPitchThreshold_deg": 10, "maxPitchThreshold_deg": 20}"#,
    );
    r.robot_mut().pitch_deg = 20.0;
    assert!(wants(&r, p));
    let (mut r, p) = probe(
        r#"{"conditionType": "RobotRollInRange", "minRollThreshold_deg": -5, "maxRollThreshold_deg": 5}"#,
    );
    r.robot_mut().roll_deg = 6.0;
    assert!(!wants(&r, p));
    let (mut r, p) = probe(
        r#"{"conditionType": "ProxInRange", "maxProxDist_mm": 50, "invalidSensorReturn": true}"#,
    );
    assert!(wants(&r, p), "nothing sensed");
    r.robot_mut().prox_mm = Some(80.0);
    assert!(!wants(&r, p));
    let (mut r, p) =
        probe(r#"{"conditionType": "RobotPoked", "wasPokedRecentlyTimeThreshold_sec": 0.15}"#);
    assert!(!wants(&r, p));
    r.robot_mut().poke();
    r.tick(DT, &[]);
    assert!(wants(&r, p));
    r.tick(DT, &[]);
    assert!(!wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "RobotTouched", "minTouchTime": 0.1}"#);
    r.robot_mut().set_touched(true);
    r.tick(DT, &[]);
    assert!(wants(&r, p));
    let (mut r, p) = probe(r#"{"conditionType": "BeatDetected", "allowPotentialBeat": true}"#);
    r.robot_mut().potential_beat_detected = true;
    assert!(wants(&r, p));
}

#[test]
fn engine_error_and_faces() {
    let (mut r, p) = probe(
        r#"{"conditionType": "EngineErrorCodeReceived", "engineErrorCode": "ImageQualityTooDark"}"#,
    );
    r.robot_mut().receive_engine_error(4);
    assert!(wants(&r, p));
    r.robot_mut().receive_engine_error(6);
    assert!(!wants(&r, p), "latched until the next message");
    let (mut r, p) =
        probe(r#"{"conditionType": "FaceKnown", "maxFaceDist_mm": 500, "mustBeNamed": true}"#);
    let now = r.clock().now();
    r.robot_mut().faces.push(Face {
        distance_mm: Some(400.0),
        named: false,
        name: None,
        last_seen: now,
    });
    assert!(!wants(&r, p));
    r.robot_mut().faces[0].named = true;
    assert!(wants(&r, p));
}

#[test]
fn activation_gates_come_before_conditions() {
    // The base default: no activation off treads or while carrying; on the charger allowed.
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
       "behaviors": ["Idle", "Anim", "OnChargerOnly"]},
      {"behaviorID": "Anim", "behaviorClass": "PlayAnimation", "animation": "a", "length_s": 10,
       "wantsToBeActivatedCondition": {"conditionType": "TrueCondition"}},
      {"behaviorID": "OnChargerOnly", "behaviorClass": "PlayAnimation", "animation": "b", "length_s": 10,
       "behaviorModifiers": {"wantsToBeActivatedWhenOnCharger": false, "cubeConnectionRequirements": "RequiredLazy"}},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("g.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut r: Runner<UserIntent> = Runner::new(t, IntentComponent::new(&MAP));
    let anim = r.id("Anim").unwrap();
    let other = r.id("OnChargerOnly").unwrap();
    r.tick(DT, &[]);
    assert!(wants(&r, anim));
    r.robot_mut().set_off_treads(OffTreads::OnBack);
    assert!(!wants(&r, anim), "off treads");
    r.robot_mut().set_off_treads(OffTreads::OnTreads);
    r.robot_mut().carrying_object = true;
    assert!(!wants(&r, anim), "carrying");
    r.robot_mut().carrying_object = false;
    assert!(!wants(&r, other), "cube connection required");
    r.robot_mut().cube_connected = true;
    assert!(wants(&r, other));
    r.robot_mut().on_charger = true;
    assert!(!wants(&r, other), "its JSON closes the charger gate");
    // A condition behind a closed gate is not evaluated.
    let (mut r, p) = probe(r#"{"conditionType": "OnCharger"}"#);
    r.robot_mut().set_off_treads(OffTreads::InAir);
    let _ = wants(&r, p);
    assert!(
        r.conditions(p).0.unwrap().last().is_some(),
        "Wait is allowed off treads"
    );
}

#[test]
fn robot_state_patches_apply_good_keys_and_report_bad_ones() {
    let (mut r, _) = probe(r#"{"conditionType": "TrueCondition"}"#);
    let patch: serde_json::Value = serde_json::json!({
        "on_charger": true, "off_treads": "OnBack", "features": {"Exploring": false},
        "emotions": {"Trust": 0.5}, "objects": [{"type": "Block_LIGHTCUBE1", "distance_mm": 120}],
        "faces": [{"distance_mm": 300, "named": true}], "battery_level": "Low", "cliffs": ["FL", "BL"],
        "reset_timers": ["Socializing"], "suggestion": "Nothing",
        "oops": 1, "simple_mood": "Sleepy", "prox_mm": "far"
    });
    let errors = r.robot_mut().apply_json(patch.as_object().unwrap());
    let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["oops", "prox_mm", "simple_mood"]);
    assert!(
        errors[0].to_string().contains("unknown key"),
        "{}",
        errors[0]
    );
    let s = r.robot();
    assert!(s.on_charger && !s.feature_enabled("Exploring"));
    assert_eq!(s.off_treads().0, OffTreads::OnBack);
    assert_eq!(s.battery_level, BatteryLevel::Low);
    assert_eq!(s.cliffs(), 0b0101);
    assert_eq!(s.objects.len(), 1);
    assert!(s.behavior_timers.reset_at(9).is_some());
    assert!(s.whiteboard.offered_at(2).is_some());
}

#[test]
fn condition_problems_are_reported_with_their_paths() {
    let tree = r#"{"behaviorID": "Root", "behaviorClass": "Wait",
      "wantsToBeActivatedCondition": {"conditionType": "Compound", "and": [
        {"conditionType": "OffTreadsState", "targetState": "Upside"},
        {"conditionType": "Emotion", "emotion": "Joy"},
        {"conditionType": "CliffDetected", "numCliffDetectionsToTrigger": 7},
        {"conditionType": "ObjectKnown", "objectTypes": []},
        {"conditionType": "TimerInRange"},
        {"conditionType": "Lambda"},
        {"conditionType": "TimePowerButtonPressed"},
        {"customCondition": "Nope"},
        {"conditionType": "BatteryLevel", "targetBatteryLevel": "Low", "extra": 1}
      ]}}"#;
    let err = load_tree::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("root.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .err()
    .unwrap();
    let got: Vec<String> = err
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.kind))
        .collect();
    for want in [
        "$.wantsToBeActivatedCondition.and[0].targetState: bad `targetState`",
        "$.wantsToBeActivatedCondition.and[1].emotion: bad `emotion`",
        "$.wantsToBeActivatedCondition.and[2].numCliffDetectionsToTrigger: bad `numCliffDetectionsToTrigger`: must be 1 to 4, found 7",
        "$.wantsToBeActivatedCondition.and[3].objectTypes: bad `objectTypes`: at least one object type is required",
        "$.wantsToBeActivatedCondition.and[4].begin_s: bad `begin_s`: give `begin_s`, `end_s` or both",
        "$.wantsToBeActivatedCondition.and[5].conditionType: bad condition: `Lambda` conditions cannot be created from JSON",
        "$.wantsToBeActivatedCondition.and[6].conditionType: bad condition: condition type `TimePowerButtonPressed` of the original engine does not run natively here",
        "$.wantsToBeActivatedCondition.and[7].customCondition: bad condition: unknown custom condition `Nope`",
        "$.wantsToBeActivatedCondition.and[8].extra: unknown key `extra`",
    ] {
        assert!(got.iter().any(|g| g.starts_with(want)), "missing {want}\n{}", got.join("\n"));
    }
    // With stand-ins, the condition type not run natively and the unknown custom condition
    // are opaque, with the values the user sets.
    let opts = LoadOptions::with_stand_ins();
    let tree = r#"{"behaviorID": "Root", "behaviorClass": "Wait",
      "wantsToBeActivatedCondition": {"conditionType": "Compound", "or": [
        {"conditionType": "TimePowerButtonPressed"}, {"customCondition": "Nope"}]}}"#;
    load_tree::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("root.json", tree)],
        "Root",
        &opts,
    )
    .unwrap();
}
