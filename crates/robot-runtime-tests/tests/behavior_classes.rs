//! The original engine's classes (spec §2–§4), one scenario each, written in the original JSON
//! format: the dispatchers with their keys and choice rules, the HighLevelAI state machine,
//! the animation and timing wrappers as timed actions, the base keys that act
//! (`postBehaviorSuggestion`, `emotionEventOnActivated`, `resetTimers`,
//! `associatedActiveFeature`), stand-ins, the loader's reference checks, and the two
//! ordering rules aligned with the original.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use original_behaviors::robot_state::OffTreads;
use original_behaviors::{RobotAccess, RobotAccessMut};
use robot_runtime::behavior::inspect;
use robot_runtime::behavior::{
    load, load_tree, AnimationDurations, Behavior, BehaviorId, Ctx, LoadOptions,
    OperationModifiers, ProblemKind, Runner, SimulatedActions, Source,
};
use robot_runtime::intent::{IntentComponent, IntentSource};
use robot_runtime_tests::clad::MetaUserIntentSimpleVoiceResponse;
use robot_runtime_tests::{ActiveFeature, UserIntent, Void, MAP};

const DT: Duration = Duration::from_millis(100);

fn run_with(tree: &str, base: &str, options: &LoadOptions) -> Runner<UserIntent> {
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        base,
        options,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Runner::new(t, IntentComponent::new(&MAP))
}

fn run(tree: &str) -> Runner<UserIntent> {
    run_with(tree, "Root", &LoadOptions::default())
}

fn tick(r: &mut Runner<UserIntent>, n: usize) {
    for _ in 0..n {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), []);
        r.check_invariants().unwrap();
    }
}

/// Ticks `n` times and returns the distinct stacks seen, as `A/B/C`, in order.
fn stacks(r: &mut Runner<UserIntent>, n: usize) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..n {
        tick(r, 1);
        let s = r.stack_names().join("/");
        if seen.last() != Some(&s) {
            seen.push(s);
        }
    }
    seen
}

fn problems(tree: &str, options: &LoadOptions) -> Vec<String> {
    match load_tree::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        "Root",
        options,
    ) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .errors()
            .map(|p| format!("{}: {}", p.path, p.kind))
            .collect(),
    }
}

// ----- strict priority -------------------------------------------------------------------------

const PRIORITY: &str = r#"[
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": INTERRUPT,
   SELECTOR "behaviors": ["High", "Low"]},
  {"behaviorID": "High", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "OnCharger"},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}}},
  {"behaviorID": "Low", "behaviorClass": "Wait", "duration_s": 0.3}
]"#;

#[test]
fn strict_priority_interrupts_or_waits_and_as_a_selector_picks_once() {
    let tree = |interrupt: bool, selector: bool| {
        PRIORITY
            .replace("INTERRUPT", &interrupt.to_string())
            .replace(
                "SELECTOR",
                if selector {
                    "\"actAsSelector\": true,"
                } else {
                    ""
                },
            )
    };
    // Interrupting: the higher child takes over as soon as it wants to run.
    let mut r = run(&tree(true, false));
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Low"]);
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "High"]);
    // Not interrupting: Low finishes first, then the dispatcher chooses again (one tick
    // later), then High.
    let mut r = run(&tree(false, false));
    tick(&mut r, 1);
    r.robot_mut().on_charger = true;
    assert_eq!(stacks(&mut r, 5), ["Root/Low", "Root", "Root/High"]);
    // A selector: the first pick is final; after it the dispatcher ends.
    let mut r = run(&tree(true, true));
    tick(&mut r, 1);
    r.robot_mut().on_charger = true;
    let seen = stacks(&mut r, 4);
    assert_eq!(seen[0], "Root/Low", "no interruption: {seen:?}");
    assert!(
        seen.contains(&"".to_owned()),
        "ends after its child: {seen:?}"
    );
}

#[test]
fn strict_priority_with_gentle_interruption_waits_for_a_gentle_moment() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "requireGentleInterruption": true, "behaviors": ["High", "Busy"]},
      {"behaviorID": "High", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "OnCharger"}},
      {"behaviorID": "Busy", "behaviorClass": "PlayAnimation", "animation": "a", "length_s": 0.3}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    r.robot_mut().on_charger = true;
    // PlayAnimation cannot be interrupted gently: High waits for it to end.
    assert_eq!(stacks(&mut r, 6), ["Root/Busy", "Root", "Root/High"]);
    assert_eq!(
        problems(&tree.replace("\"interruptActiveBehavior\": true", "\"interruptActiveBehavior\": false"), &LoadOptions::default()),
        ["$[0].requireGentleInterruption: bad `requireGentleInterruption`: needs `interruptActiveBehavior: true` (it only restricts interruptions)"]
    );
}

#[test]
fn link_scope_makes_children_live_and_the_dispatcher_want_only_when_one_does() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Linked", "Idle"]},
      {"behaviorID": "Linked", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "linkScope": true, "behaviors": ["Inner"]},
      {"behaviorID": "Inner", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "OnCharger"}},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let inner = r.id("Inner").unwrap();
    assert!(r.in_scope().contains(&inner), "linked scope");
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Linked", "Inner"]);
}

// ----- strict priority with cooldown -----------------------------------------------------------

#[test]
fn cooldowns_start_when_a_child_stops_not_when_it_is_interrupted() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriorityWithCooldown", "interruptActiveBehavior": true,
       "behaviors": [{"behavior": "Urgent", "cooldown_s": 0},
                     {"behavior": "Short", "cooldown_s": 1.0},
                     {"behavior": "Idle", "cooldown_s": 0}]},
      {"behaviorID": "Urgent", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "OnCharger"},
       "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}}},
      {"behaviorID": "Short", "behaviorClass": "Wait", "duration_s": 0.2},
      {"behaviorID": "Idle", "behaviorClass": "Wait", "wantsToCancelSelfCondition": {"conditionType": "TimerInRange", "begin_s": 0.2}}
    ]"#;
    let mut r = run(tree);
    let short = r.id("Short").unwrap();
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Short"]);
    // Interrupted: no cooldown.
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Urgent"]);
    r.robot_mut().on_charger = false;
    let seen = stacks(&mut r, 4);
    assert!(
        seen.contains(&"Root/Short".to_owned()),
        "runs again at once: {seen:?}"
    );
    // It ends by itself: now it cools down for 1 s, and Idle runs meanwhile.
    let seen = stacks(&mut r, 6);
    assert!(seen.contains(&"Root/Idle".to_owned()), "{seen:?}");
    let status = inspect::status(&r, short).unwrap();
    assert!(status.cooling_down.is_some(), "{status:?}");
    let seen = stacks(&mut r, 12);
    assert!(
        seen.contains(&"Root/Short".to_owned()),
        "after its cooldown: {seen:?}"
    );
}

#[test]
fn a_negative_cooldown_is_forever_and_link_scope_ignores_children_on_cooldown() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
       "behaviors": ["Once", "Idle"]},
      {"behaviorID": "Once", "behaviorClass": "DispatcherStrictPriorityWithCooldown", "interruptActiveBehavior": false,
       "linkScope": true, "behaviors": [{"behavior": "WakeUp", "cooldown_s": -1}]},
      {"behaviorID": "WakeUp", "behaviorClass": "AnimSequence", "animTriggers": ["WakeUp"]},
      {"behaviorID": "Idle", "behaviorClass": "Wait", "wantsToCancelSelfCondition": {"conditionType": "TimerInRange", "begin_s": 0.5}}
    ]"#;
    let mut r = run(tree);
    let seen = stacks(&mut r, 60);
    let wakeups = seen.iter().filter(|s| s.ends_with("WakeUp")).count();
    assert_eq!(wakeups, 1, "once ever: {seen:?}");
}

#[test]
fn reset_cooldown_on_deactivation_clears_every_cooldown() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Break", "Cool"]},
      {"behaviorID": "Break", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "OnCharger"},
       "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}}},
      {"behaviorID": "Cool", "behaviorClass": "DispatcherStrictPriorityWithCooldown", "interruptActiveBehavior": false,
       "resetCooldownOnDeactivation": true,
       "behaviors": [{"behavior": "Short", "cooldown_s": 100}, {"behavior": "Idle", "cooldown_s": 0}]},
      {"behaviorID": "Short", "behaviorClass": "Wait", "duration_s": 0.1},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    let seen = stacks(&mut r, 5);
    assert!(
        seen.contains(&"Root/Cool/Idle".to_owned()),
        "Short cooled down: {seen:?}"
    );
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    r.robot_mut().on_charger = false;
    let seen = stacks(&mut r, 3);
    assert!(
        seen.contains(&"Root/Cool/Short".to_owned()),
        "cooldowns reset: {seen:?}"
    );
}

// ----- random ---------------------------------------------------------------------------------

#[test]
fn random_runs_one_child_per_activation_by_weight_and_falls_back_to_the_shortest_cooldown() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherRandom", "interruptActiveBehavior": true,
       "behaviors": [{"behavior": "A", "weight": 1.0, "cooldown_s": 0},
                     {"behavior": "B", "weight": 3.0, "cooldown_s": 0},
                     {"behavior": "Never", "weight": 0, "cooldown_s": 0}]},
      {"behaviorID": "A", "behaviorClass": "Wait", "duration_s": 0.1},
      {"behaviorID": "B", "behaviorClass": "Wait", "duration_s": 0.1},
      {"behaviorID": "Never", "behaviorClass": "Wait", "duration_s": 0.1}
    ]"#;
    let loaded = load::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(
        loaded.report.warnings().count(),
        1,
        "interruptActiveBehavior: true is ignored"
    );
    let mut r = Runner::new(loaded.tree, IntentComponent::new(&MAP));
    r.set_seed(7);
    let (mut a, mut b) = (0, 0);
    for _ in 0..400 {
        tick(&mut r, 1);
        match r.stack_names().as_slice() {
            ["Root", "A"] => a += 1,
            ["Root", "B"] => b += 1,
            ["Root", "Never"] => panic!("weight 0"),
            _ => {}
        }
    }
    assert!(b > 2 * a && a > 0, "weights 1 : 3 gave {a} : {b}");
    // Every child on cooldown: the one with the smallest remaining cooldown runs.
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherRandom",
       "behaviors": [{"behavior": "A", "weight": 1.0, "cooldown_s": 10}, {"behavior": "B", "weight": 1.0, "cooldown_s": 2}]},
      {"behaviorID": "A", "behaviorClass": "Wait", "duration_s": 0.1},
      {"behaviorID": "B", "behaviorClass": "Wait", "duration_s": 0.1}
    ]"#;
    let mut r = run(tree);
    let seen = stacks(&mut r, 20);
    let runs: Vec<&String> = seen.iter().filter(|s| s.contains('/')).collect();
    assert!(
        runs.len() >= 4,
        "keeps running by the smallest cooldown: {seen:?}"
    );
}

// ----- queue ----------------------------------------------------------------------------------

#[test]
fn queue_runs_each_wanting_child_once_in_order_then_ends() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "interruptActiveBehavior": false,
       "behaviors": ["A", "Skipped", "B"]},
      {"behaviorID": "A", "behaviorClass": "Wait", "duration_s": 0.1},
      {"behaviorID": "Skipped", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "OnCharger"}},
      {"behaviorID": "B", "behaviorClass": "Wait", "duration_s": 0.1}
    ]"#;
    let mut r = run(tree);
    let seen = stacks(&mut r, 10);
    assert_eq!(
        &seen[..5],
        ["Root/A", "Root", "Root/B", "Root", ""],
        "{seen:?}"
    );
}

// ----- pass-through and rerun --------------------------------------------------------------------

#[test]
fn pass_through_wants_what_its_delegate_wants_and_has_its_modifiers() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Through", "Idle"]},
      {"behaviorID": "Through", "behaviorClass": "DispatcherPassThrough", "delegateID": "Reaction"},
      {"behaviorID": "Reaction", "behaviorClass": "AnimSequence", "animTriggers": ["Fall"],
       "wantsToBeActivatedCondition": {"conditionType": "OffTreadsState", "targetState": "InAir"}},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let through = r.id("Through").unwrap();
    // AnimSequence allows activation off treads, and so does its pass-through.
    assert!(r.modifiers(through).unwrap().when_off_treads);
    r.robot_mut().set_off_treads(OffTreads::InAir);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Through", "Reaction"]);
    // The animation lasts 1 s (the default length); the pass-through ends with it.
    let seen = stacks(&mut r, 12);
    assert!(
        seen.contains(&"Root/Through".to_owned()) || seen.contains(&"Root".to_owned()),
        "{seen:?}"
    );
    assert_eq!(
        problems(
            &tree.replace("\"delegateID\": \"Reaction\"", "\"delegateID\": \"Idle@x\""),
            &LoadOptions::default()
        ),
        ["$[1].delegateID: unknown behavior `Idle@x`"]
    );
}

#[test]
fn rerun_runs_its_delegate_n_times_and_negative_means_forever() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "behaviors": ["Rerun"]},
      {"behaviorID": "Rerun", "behaviorClass": "DispatcherRerun", "delegateID": "Short", "numRuns": 2,
       "presetConditions": false, "behaviors": []},
      {"behaviorID": "Short", "behaviorClass": "Wait", "duration_s": 0.1}
    ]"#;
    let mut r = run(tree);
    let seen = stacks(&mut r, 10);
    // Up to the first end of the tree (the base then starts again).
    let end = seen.iter().position(String::is_empty).unwrap();
    let runs = seen[..end]
        .iter()
        .filter(|s| *s == "Root/Rerun/Short")
        .count();
    assert_eq!(runs, 2, "{seen:?}");
    let mut r = run(&tree.replace("\"numRuns\": 2", "\"numRuns\": -3"));
    let seen = stacks(&mut r, 40);
    assert!(
        seen.iter().filter(|s| *s == "Root/Rerun/Short").count() > 5,
        "{seen:?}"
    );
    let mut r = run(&tree.replace("\"numRuns\": 2", "\"numRuns\": 0"));
    tick(&mut r, 1);
    assert_eq!(r.starts(r.id("Short").unwrap()), 0, "0 runs: ends at once");
    assert_eq!(
        problems(
            &tree.replace("\"numRuns\": 2", "\"numRuns\": 200"),
            &LoadOptions::default()
        ),
        ["$[1].numRuns: bad `numRuns`: must fit an int8 (-128 to 127), found 200"]
    );
}

#[test]
fn scoring_picks_the_highest_score_with_penalties() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherScoring", "interruptActiveBehavior": true,
       "behaviors": [
         {"behaviorID": "A", "scoring": {"flatScore": 1.0,
            "activatedPenalty": {"nodes": [{"x": 0, "y": 1}, {"x": 0.5, "y": 0.1}]}}},
         {"behaviorID": "B", "scoring": {"flatScore": 0.5}}]},
      {"behaviorID": "A", "behaviorClass": "Wait"},
      {"behaviorID": "B", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "A"]);
    // After 0.5 s A's score is 0.1 < B's 0.5: B takes over.
    let seen = stacks(&mut r, 8);
    assert!(seen.contains(&"Root/B".to_owned()), "{seen:?}");
    let bad = tree.replace("\"flatScore\": 0.5", "\"emotionScorers\": []");
    assert!(problems(&bad, &LoadOptions::default())[0].contains("emotionScorers"));
}

// ----- the state machine ---------------------------------------------------------------------------

const MACHINE: &str = r#"[
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
   "behaviors": ["Interrupt", "HighLevelAI"]},
  {"behaviorID": "Interrupt", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "EyeContact"},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "EyeContact"}},
   "postBehaviorSuggestion": "PlayWithCube"},
  {"behaviorID": "HighLevelAI", "behaviorClass": "HighLevelAI", "initialState": "Calm",
   "socializeKnownFaceCooldown_s": 1, "playWithCubeCooldown_s": 1, "playWithCubeOnChargerCooldown_s": 1,
   "maxFaceDistanceToSocialize_mm": 500,
   "states": [
     {"name": "Calm", "behavior": "CalmWait", "getInBehavior": "GetIn", "resetBehaviorTimer": "Socializing"},
     {"name": "Busy", "behavior": "BusyWait", "ensureMinStimValue": 0.6},
     {"name": "Playing", "behavior": "BusyWait"},
     {"name": "Stop", "cancelSelf": true}
   ],
   "transitionDefinitions": [
     {"from": "*", "interruptingTransitions": [{"to": "Stop", "condition": {"conditionType": "BatteryLevel", "targetBatteryLevel": "Low"}}]},
     {"from": "Calm", "nonInterruptingTransitions": [
        {"to": "Busy", "condition": {"customCondition": "Bored"}, "emotionEvent": "GotBored"}]},
     {"from": "Busy", "nonInterruptingTransitions": [
        {"to": "Busy", "condition": {"conditionType": "OnCharger"}}]}
   ],
   "stateTimerConditions": [{"name": "Bored", "begin_s": 0.5}],
   "resumeReplacements": {"Busy": "Calm"},
   "postBehaviorSuggestionResumeOverrides": {"PlayWithCube": "Playing"}},
  {"behaviorID": "CalmWait", "behaviorClass": "Wait"},
  {"behaviorID": "BusyWait", "behaviorClass": "Wait"},
  {"behaviorID": "GetIn", "behaviorClass": "Wait", "duration_s": 0.1},
  {"behaviorID": "PutDownBlock", "behaviorClass": "PutDownBlock"}
]"#;

#[test]
fn high_level_ai_transitions_get_ins_timers_emotions_and_resume() {
    let mut r = run(MACHINE);
    let ai = r.id("HighLevelAI").unwrap();
    tick(&mut r, 1);
    assert_eq!(
        r.stack_names(),
        ["Root", "HighLevelAI", "GetIn"],
        "fresh entry: get-in first"
    );
    assert!(
        r.robot().behavior_timers.reset_at(9).is_some(),
        "resetBehaviorTimer"
    );
    tick(&mut r, 2);
    assert_eq!(r.stack_names(), ["Root", "HighLevelAI", "CalmWait"]);
    // After 0.5 s in Calm: Busy (the transition's emotion event fires; min stimulation).
    tick(&mut r, 3);
    assert_eq!(r.debug_state(ai), Some("Busy"));
    assert_eq!(
        r.robot().emotion_events().last().map(|e| &**e),
        Some("GotBored")
    );
    assert!(
        r.robot()
            .emotion(original_behaviors::robot_state::Emotion::Stimulated)
            >= 0.6
    );
    // A self-transition is taken as a resume: the state's behavior restarts.
    let busy = r.id("BusyWait").unwrap();
    let starts = r.starts(busy);
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    r.robot_mut().on_charger = false;
    tick(&mut r, 1);
    assert!(r.starts(busy) > starts, "restarted");
    assert_eq!(r.debug_state(ai), Some("Busy"));
    // Interrupted, it resumes through resumeReplacements (Busy -> Calm), unless a fresh
    // post-behavior suggestion overrides it (PlayWithCube -> Playing).
    r.robot_mut().eye_contact = true;
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Interrupt"]);
    r.robot_mut().eye_contact = false;
    tick(&mut r, 2);
    assert_eq!(
        r.debug_state(ai),
        Some("Playing"),
        "the interrupter suggested PlayWithCube"
    );
    assert!(
        r.robot().whiteboard.offered_at(1).is_none(),
        "suggestions consumed"
    );
    // An interrupting transition to a state without a behavior ends the machine.
    r.robot_mut().battery_level = original_behaviors::robot_state::BatteryLevel::Low;
    tick(&mut r, 1);
    assert!(!r.is_on_stack(ai));
}

#[test]
fn high_level_ai_requires_its_keys_and_global_ids() {
    let missing = MACHINE.replace("\"socializeKnownFaceCooldown_s\": 1,", "");
    assert_eq!(
        problems(&missing, &LoadOptions::default()),
        ["$[2]: missing key `socializeKnownFaceCooldown_s`"]
    );
    let anonymous = MACHINE
        .replace(
            "\"postBehaviorSuggestionResumeOverrides\": {\"PlayWithCube\": \"Playing\"}}",
            "\"postBehaviorSuggestionResumeOverrides\": {\"PlayWithCube\": \"Playing\"},
             \"anonymousBehaviors\": [{\"behaviorName\": \"calm\", \"behaviorClass\": \"Wait\"}]}",
        )
        .replace("\"behavior\": \"CalmWait\"", "\"behavior\": \"calm\"");
    let got = problems(&anonymous, &LoadOptions::default());
    assert_eq!(
        got,
        ["$[2].states[0].behavior: `calm` is an anonymous behavior; this key resolves global behavior IDs only"]
    );
    let no_put_down = MACHINE.replace(
        ",\n  {\"behaviorID\": \"PutDownBlock\", \"behaviorClass\": \"PutDownBlock\"}",
        "",
    );
    assert_eq!(
        problems(&no_put_down, &LoadOptions::default()),
        ["$[2].behaviorClass: class `HighLevelAI` needs a behavior `PutDownBlock` in the tree (its code names it)"]
    );
}

#[test]
fn high_level_ai_puts_a_carried_cube_down_before_a_state_that_cannot_carry() {
    let tree = MACHINE.replace(
        "{\"behaviorID\": \"CalmWait\", \"behaviorClass\": \"Wait\"}",
        "{\"behaviorID\": \"CalmWait\", \"behaviorClass\": \"PlayAnimation\", \"animation\": \"a\", \"length_s\": 5}",
    );
    let mut r = run(&tree);
    r.robot_mut().carrying_object = true;
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "HighLevelAI", "PutDownBlock"]);
    let seen = stacks(&mut r, 15);
    assert!(
        seen.contains(&"Root/HighLevelAI/GetIn".to_owned()),
        "then the get-in: {seen:?}"
    );
    assert!(!r.robot().carrying_object);
}

// ----- animations and timed wrappers -----------------------------------------------------------------

#[test]
fn anim_sequence_plays_every_animation_per_pass_for_its_loops_with_the_duration_table() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "behaviors": ["Anim"]},
      {"behaviorID": "Anim", "behaviorClass": "AnimSequence", "animTriggers": ["A", "B"], "num_loops": 2}
    ]"#;
    let mut r = run(tree);
    let mut durations = AnimationDurations::default();
    durations
        .set("A", Duration::from_millis(300))
        .set("B", Duration::from_millis(200));
    r.set_action_factory(Box::new(SimulatedActions { durations }));
    let root = r.id("Anim").unwrap();
    let mut played = Vec::new();
    for _ in 0..20 {
        tick(&mut r, 1);
        if r.stack_names().is_empty() {
            break; // it ended after its passes (then the queue, then the tree)
        }
        if let Some(a) = r.action_of(root) {
            if played.last().map(String::as_str) != Some(a) {
                played.push(a.to_owned());
            }
        }
    }
    assert_eq!(played, ["A", "B", "A", "B"]);
    assert_eq!(
        problems(r#"{"behaviorID": "Root", "behaviorClass": "AnimSequence", "animTriggers": ["A"], "animNames": ["a"]}"#, &LoadOptions::default()),
        ["$.animTriggers: bad `animTriggers`: exactly one of `animTriggers` and `animNames` must be non-empty"]
    );
}

#[test]
fn anim_sequence_with_face_and_with_object_need_what_they_turn_to() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Face", "Cube", "Idle"]},
      {"behaviorID": "Face", "behaviorClass": "AnimSequenceWithFace", "animTriggers": ["Hello"],
       "requireFaceForActivation": true, "returnToOriginalPose": true, "faceSelectionPenalties": {}},
      {"behaviorID": "Cube", "behaviorClass": "AnimSequenceWithObject", "animTriggers": ["Cube"], "objectType": "Block_LIGHTCUBE2"},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    r.robot_mut().observe_object(2, 100.0);
    tick(&mut r, 1);
    let cube = r.id("Cube").unwrap();
    assert_eq!(r.stack_names(), ["Root", "Cube"]);
    assert_eq!(r.action_of(cube), Some("Turn"), "turns toward it first");
    r.robot_mut().objects.clear();
    let now = r.clock().now();
    r.robot_mut()
        .faces
        .push(original_behaviors::robot_state::Face {
            distance_mm: Some(500.0),
            named: false,
            name: None,
            last_seen: now,
        });
    let seen = stacks(&mut r, 30);
    assert!(seen.contains(&"Root/Face".to_owned()), "{seen:?}");
}

#[test]
fn anim_get_in_loop_loops_until_its_end_condition_then_gets_out() {
    let tree = r#"[{"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "behaviors": ["Loop"]},
      {"behaviorID": "Loop", "behaviorClass": "AnimGetInLoop", "getIn": "In", "loopAnimation": "Loop",
      "getOut": "Out", "emergencyGetOut": "Oops", "loopInterval_s": 0,
      "loopEndCondition": {"conditionType": "OnCharger"}, "shouldForceLoopGetOutAnim": true}]"#;
    let mut r = run(tree);
    let root = r.id("Loop").unwrap();
    let mut played = Vec::new();
    let mut ended = false;
    for k in 0..80 {
        if k == 25 {
            r.robot_mut().on_charger = true;
        }
        tick(&mut r, 1);
        if r.stack_names().is_empty() {
            ended = true;
            break;
        }
        if let Some(a) = r.action_of(root) {
            if played.last().map(String::as_str) != Some(a) {
                played.push(a.to_owned());
            }
        }
    }
    assert_eq!(played.first().map(String::as_str), Some("In"));
    assert_eq!(played.last().map(String::as_str), Some("Out"));
    assert!(played.iter().any(|p| p == "Loop"));
    assert!(ended, "ends after the get-out");
    // As written in the original: without checking during animations, the end condition is
    // never evaluated at all.
    let mut r = run(&tree.replace(
        "\"loopInterval_s\": 0,",
        "\"loopInterval_s\": 0, \"shouldCheckEndCondDuringAnim\": false,",
    ));
    r.robot_mut().on_charger = true;
    tick(&mut r, 30);
    assert_eq!(r.stack_names(), ["Root", "Loop"]);
    let root = r.id("Loop").unwrap();
    assert!(
        r.conditions(root).0.is_none()
            && inspect::why(&r, root).unwrap().conditions[0].last.is_none()
    );
}

#[test]
fn text_to_speech_loop_speaks_its_dev_utterance_and_move_head_turn_and_wait_end_as_timed() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "behaviors": ["Speak", "Head", "TurnLeft", "Pause"]},
      {"behaviorID": "Speak", "behaviorClass": "TextToSpeechLoop", "loopAnimation": "Talk", "getInAnimation": "In",
       "getOutAnimation": "Out", "DEV_TEST_UTTERANCE": "hello"},
      {"behaviorID": "Head", "behaviorClass": "MoveHeadToAngle", "headAngle_deg": 24},
      {"behaviorID": "TurnLeft", "behaviorClass": "Turn", "shouldTurnClockwise": false, "turnDegrees": 90},
      {"behaviorID": "Pause", "behaviorClass": "Wait", "wantsToCancelSelfCondition": {"conditionType": "TrueCondition"}}
    ]"#;
    let mut r = run(tree);
    let seen = stacks(&mut r, 40);
    assert_eq!(
        seen.iter()
            .filter(|s| s.contains('/'))
            .map(String::as_str)
            .collect::<Vec<_>>(),
        ["Root/Speak", "Root/Head", "Root/TurnLeft"],
        "{seen:?}"
    );
    // `TrueCondition` as a cancel condition: exactly one tick (it ends in the tick it
    // started, after its update).
    assert_eq!(r.starts(r.id("Pause").unwrap()), 1);
    // No utterance: the speech does not want to run.
    let mut r = run(&tree.replace(", \"DEV_TEST_UTTERANCE\": \"hello\"", ""));
    let seen = stacks(&mut r, 40);
    assert!(!seen.iter().any(|s| s == "Root/Speak"));
}

#[test]
fn simple_voice_response_claims_its_intent_itself_and_plays_its_animation_group() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Simple", "Idle"]},
      {"behaviorID": "Simple", "behaviorClass": "SimpleVoiceResponse"},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 2);
    assert_eq!(r.stack_names(), ["Root", "Idle"], "does not run every tick");
    r.intents_mut().set_pending(
        UserIntent::SimpleVoiceResponse(MetaUserIntentSimpleVoiceResponse {
            anim_group: "ag_greeting_hello".into(),
            emotion_event: "Greeted".into(),
            active_feature: ActiveFeature::ReactToHello,
            disable_wakeword_turn: false,
        }),
        IntentSource::Voice,
    );
    tick(&mut r, 1);
    let simple = r.id("Simple").unwrap();
    assert_eq!(r.stack_names(), ["Root", "Simple"]);
    assert_eq!(
        r.owner_name(r.intents().active().unwrap().owner()),
        Some("Simple")
    );
    assert_eq!(r.action_of(simple), Some("ag_greeting_hello"));
    assert_eq!(
        r.robot().emotion_events().last().map(|e| &**e),
        Some("Greeted")
    );
}

#[test]
fn react_to_unclaimed_intent_reacts_in_the_air_too() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Unclaimed", "Idle"]},
      {"behaviorID": "Unclaimed", "behaviorClass": "ReactToUnclaimedIntent"},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    r.robot_mut().set_off_treads(OffTreads::InAir);
    r.intents_mut()
        .set_pending(UserIntent::ImperativeCome(Void {}), IntentSource::Voice);
    let seen = stacks(&mut r, 5);
    assert!(seen.contains(&"Root/Unclaimed".to_owned()), "{seen:?}");
    let u = r.id("Unclaimed").unwrap();
    assert_eq!(r.action_of(u), Some("ReactToUnclaimedIntentInAir"));
}

// ----- base keys that act ------------------------------------------------------------------------------

#[test]
fn base_keys_reset_timers_fire_emotions_set_the_active_feature_and_refuse_what_the_original_refused(
) {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "associatedActiveFeature": "NoFeature", "behaviors": ["Fist"]},
      {"behaviorID": "Fist", "behaviorClass": "Wait", "associatedActiveFeature": "FistBump", "resetTimers": ["FistBump"],
       "emotionEventOnActivated": "Bumped", "showActiveIntentFeedback": false, "autoShutOffIntentFeedback": true,
       "behaviorStatToIncrement": "AttemptedFistBump", "tracksToLockWhileActivated": ["LIFT_TRACK"],
       "alterStreamAfterWakeword": "StreamingDisabled", "alwaysStreamline": false,
       "behaviorModifiers": {"wantsToBeActivatedWhenCarryingObject": true}}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 1);
    assert_eq!(r.active_feature(), Some("FistBump"));
    assert!(r.robot().behavior_timers.reset_at(1).is_some());
    assert_eq!(r.robot().emotion_events(), [Box::<str>::from("Bumped")]);
    // Keys the original refused, and keys it does not read.
    for (change, want) in [
        (
            "\"alwaysStreamline\": false",
            "\"alwaysStreamline\": false, \"debugLabel\": \"x\"",
        ),
        (
            "\"alwaysStreamline\": false",
            "\"alwaysStreamline\": false, \"executableBehaviorType\": \"x\"",
        ),
        (
            "{\"wantsToBeActivatedWhenCarryingObject\": true}",
            "{\"behaviorAlwaysDelegates\": false}",
        ),
        (
            "\"resetTimers\": [\"FistBump\"]",
            "\"resetTimers\": [\"Fist\"]",
        ),
        (
            "\"behaviorStatToIncrement\": \"AttemptedFistBump\"",
            "\"behaviorStatToIncrement\": \"Nope\"",
        ),
        (
            "\"alterStreamAfterWakeword\": \"StreamingDisabled\"",
            "\"alterStreamAfterWakeword\": \"Loud\"",
        ),
    ] {
        let got = problems(&tree.replace(change, want), &LoadOptions::default());
        assert_eq!(got.len(), 1, "{want}: {got:?}");
    }
    let got = problems(
        &tree.replace(
            "\"alwaysStreamline\": false",
            "\"alwaysStreamline\": false, \"debugLabel\": \"x\"",
        ),
        &LoadOptions::default(),
    );
    assert_eq!(
        got,
        ["$[1].debugLabel: `debugLabel` is not accepted: allowed on anonymous behaviors only"]
    );
}

#[test]
fn post_behavior_suggestions_are_offered_at_every_deactivation() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "behaviors": ["A"]},
      {"behaviorID": "A", "behaviorClass": "Wait", "duration_s": 0.1, "postBehaviorSuggestion": "Socialize"}
    ]"#;
    let mut r = run(tree);
    tick(&mut r, 3);
    assert!(r.robot().whiteboard.offered_at(0).is_some());
}

// ----- stand-ins and references --------------------------------------------------------------------------

#[test]
fn stand_ins_resolve_their_references_through_the_class_table() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Come", "Sound", "Idle"]},
      {"behaviorID": "Come", "behaviorClass": "DriveToFace", "findFaceBehavior": "find",
       "minDriveToFaceDistanceKey_mm": 100,
       "anonymousBehaviors": [{"behaviorName": "find", "behaviorClass": "FindFaceAndThen", "behavior": "Idle",
         "timeUntilCancelFaceLooking_s": 5, "shouldLeaveChargerFirst": false}]},
      {"behaviorID": "Sound", "behaviorClass": "ReactToSound", "micDirectionReactionBehavior": "Idle",
       "micAbsolutePowerThreshold": 2.9, "micMinPowerThreshold": 1.5, "micConfidenceThresholdAtMinPower": 5000},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let got = problems(tree, &LoadOptions::with_stand_ins());
    assert_eq!(got, ["$[2].micDirectionReactionBehavior: `Idle` is a `Wait`; this key needs a `ReactToMicDirection`"]);
    let got = problems(
        &tree.replace(
            "\"findFaceBehavior\": \"find\"",
            "\"findFaceBehavior\": \"Idle\"",
        ),
        &LoadOptions::with_stand_ins(),
    );
    assert!(
        got.iter().any(|p| p
            == "$[1].findFaceBehavior: `Idle` is a `Wait`; this key needs a `FindFaceAndThen`"),
        "{got:?}"
    );
    // Without stand-ins, classes not built in are errors (ReactToSound is built in: its
    // reference is checked as before); unknown ones always are.
    let got = problems(tree, &LoadOptions::default());
    assert!(
        got.iter().all(|p| p.contains("does not run natively")
            || p.contains("this key needs a `ReactToMicDirection`")),
        "{got:?}"
    );
    let got = problems(
        &tree.replace("\"ReactToSound\"", "\"ReactToNoise\""),
        &LoadOptions::with_stand_ins(),
    );
    assert!(
        got.contains(&"$[2].behaviorClass: unknown behavior class `ReactToNoise`".to_owned()),
        "{got:?}"
    );
}

#[test]
fn a_pass_through_stand_in_passes_through_and_others_run_a_timed_action() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "CoordinateWhileInAir", "delegateID": "Inner"},
      {"behaviorID": "Inner", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Reaction", "Idle"]},
      {"behaviorID": "Reaction", "behaviorClass": "FistBump",
       "wantsToBeActivatedCondition": {"conditionType": "OffTreadsState", "targetState": "OnBack"}},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}
    ]"#;
    let mut r = run_with(tree, "Root", &LoadOptions::with_stand_ins());
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Inner", "Idle"]);
    r.robot_mut().set_off_treads(OffTreads::OnBack);
    tick(&mut r, 1);
    let reaction = r.id("Reaction").unwrap();
    assert_eq!(r.stack_names(), ["Root", "Inner", "Reaction"]);
    // FistBump runs from its class table now (its request animation first).
    assert_eq!(r.action_of(reaction), Some("FistBumpRequestOnce"));
}

// ----- ordering with the original ----------------------------------------------------------------------

/// Records its hooks.
struct Recorder {
    name: &'static str,
    log: Arc<Mutex<Vec<String>>>,
    delegates: Vec<BehaviorId>,
}

impl Behavior<UserIntent> for Recorder {
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = false;
    }
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, UserIntent>) {
        self.log
            .lock()
            .unwrap()
            .push(format!("{}:deactivated", self.name));
    }
    fn on_left_scope(&mut self, _ctx: &mut Ctx<'_, UserIntent>) {
        self.log.lock().unwrap().push(format!("{}:left", self.name));
    }
}

#[test]
fn a_delegate_leaves_scope_before_its_parent_is_deactivated_and_always_delegates_defaults_to_true()
{
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut b = robot_runtime::behavior::TreeBuilder::<UserIntent>::new();
    let child = BehaviorId::from_index(2);
    b.add(
        "Root",
        robot_runtime::behavior::Spec::new("R"),
        Recorder {
            name: "Root",
            log: log.clone(),
            delegates: vec![BehaviorId::from_index(1)],
        },
    )
    .unwrap();
    b.add(
        "Parent",
        robot_runtime::behavior::Spec::new("R"),
        Recorder {
            name: "Parent",
            log: log.clone(),
            delegates: vec![child],
        },
    )
    .unwrap();
    b.add(
        "Child",
        robot_runtime::behavior::Spec::new("R"),
        Recorder {
            name: "Child",
            log: log.clone(),
            delegates: vec![],
        },
    )
    .unwrap();
    let mut r = Runner::new(b.build("Root").unwrap(), IntentComponent::new(&MAP));
    let (root, parent) = (r.id("Root").unwrap(), r.id("Parent").unwrap());
    r.tick(DT, &[]);
    r.replace_stack(&[root, parent]).unwrap();
    log.lock().unwrap().clear();
    r.replace_stack(&[root]).unwrap();
    // Popping Parent: its delegate leaves scope first, then its hook; popping Root: Parent
    // leaves scope, then Root's hook (then Root is pushed again and Parent re-enters).
    assert_eq!(
        log.lock().unwrap()[..4],
        [
            "Child:left",
            "Parent:deactivated",
            "Parent:left",
            "Root:deactivated"
        ]
    );
    // A behavior that does not say otherwise always delegates (the original's default).
    struct Plain;
    impl Behavior<UserIntent> for Plain {}
    let mut b = robot_runtime::behavior::TreeBuilder::<UserIntent>::new();
    b.add("P", robot_runtime::behavior::Spec::new("Plain"), Plain)
        .unwrap();
    let mut r = Runner::new(b.build("P").unwrap(), IntentComponent::new(&MAP));
    r.tick(DT, &[]);
    assert!(r.stack_names().is_empty(), "ended in the tick it started");
    assert!(r.modifiers(r.id("P").unwrap()).unwrap().always_delegates);
}

#[test]
fn problems_from_references_name_the_key() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["Nope", "a"], "anonymousBehaviors": [{"behaviorName": "a", "behaviorClass": "Wait"},
                                                           {"behaviorName": "a", "behaviorClass": "Wait"}]}
    ]"#;
    let err = load_tree::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .err()
    .unwrap();
    let kinds: Vec<&ProblemKind> = err.problems.iter().map(|p| &p.kind).collect();
    assert!(
        matches!(kinds[0], ProblemKind::UnknownDelegate { name } if name == "Nope"),
        "{kinds:?}"
    );
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, ProblemKind::DuplicateId { id, .. } if id == "a")),
        "{kinds:?}"
    );
}
