//! `original_behaviors::install`: one call registers the original engine (every class,
//! natively or as a stand-in, with its references; the condition types; the vocabularies;
//! the robot state as the world), its options, and what its classes do when the runner's
//! world is not a robot state (the documented fallback: a default state, never a panic).

use std::time::Duration;

use original_behaviors::catalog::{self, ORIGINAL_CLASSES};
use original_behaviors::{
    condition_support, world_fallbacks, Options, RobotAccess, RobotAccessMut, RobotState, StandIns,
    BUILTIN_CLASSES, NATIVE_TYPES,
};
use robot_runtime::behavior::{
    load_tree, LoadOptions, Registry, Runner, Source, Vocabulary, FRAMEWORK_TYPES,
};
use robot_runtime::intent::IntentComponent;
use robot_runtime_tests::{UserIntent, MAP};

const DT: Duration = Duration::from_millis(100);

#[test]
fn install_registers_every_class_of_the_original_natively_or_as_a_stand_in() {
    let r: Registry<UserIntent> = original_behaviors::registry();
    for class in ORIGINAL_CLASSES {
        let info = r.class_info(class).unwrap_or_else(|| panic!("{class}"));
        assert_eq!(info.stand_in, !BUILTIN_CLASSES.contains(class), "{class}");
        assert_eq!(
            info.reference_keys,
            catalog::reference_keys(class),
            "{class}"
        );
        assert_eq!(
            info.hard_coded_ids,
            catalog::hard_coded_ids(class).1,
            "{class}"
        );
    }
    // The classes registered natively are exactly the listed ones.
    let native: Vec<&str> = r
        .class_names()
        .into_iter()
        .filter(|c| r.class_info(c).is_some_and(|i| !i.stand_in))
        .collect();
    let mut listed = BUILTIN_CLASSES.to_vec();
    listed.sort_unstable();
    assert_eq!(native, listed);
    for ty in NATIVE_TYPES {
        assert_eq!(
            r.has_condition_type(ty),
            !FRAMEWORK_TYPES.contains(ty),
            "{ty}: the framework's are the runtime's, every other one the library's"
        );
    }
    let native = condition_support().iter().filter(|(_, n)| *n).count();
    assert_eq!(native, NATIVE_TYPES.len());
    assert_eq!(condition_support().len(), catalog::CONDITION_TYPES.len());
    for (v, names) in [
        (Vocabulary::Timers, catalog::BEHAVIOR_TIMERS),
        (Vocabulary::Suggestions, catalog::POST_BEHAVIOR_SUGGESTIONS),
        (Vocabulary::Stats, catalog::BEHAVIOR_STATS),
        (Vocabulary::AnimTracks, catalog::ANIM_TRACKS),
        (Vocabulary::StreamEffects, catalog::STREAM_EFFECTS),
        (Vocabulary::ConditionTypes, catalog::CONDITION_TYPES),
    ] {
        assert_eq!(r.vocabulary(v).unwrap(), names, "{v:?}");
    }
    assert!(r.vocabulary(Vocabulary::Features).is_none(), "the robot's");
    assert!((r.new_world().as_ref() as &dyn std::any::Any).is::<RobotState>());
}

fn runner(tree: &str, registry: &Registry<UserIntent>) -> Runner<UserIntent> {
    let t = load_tree(
        registry,
        &[Source::new("tree.json", tree)],
        "Root",
        &LoadOptions::with_stand_ins(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Runner::new(t, IntentComponent::new(&MAP))
}

#[test]
fn stand_ins_without_conditions_want_to_run_only_when_the_options_say_so() {
    let tree = r#"[{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
        "interruptActiveBehavior": false, "behaviors": ["Look", "Idle"]},
      {"behaviorID": "Look", "behaviorClass": "ConnectToCubeAndThen"},
      {"behaviorID": "Idle", "behaviorClass": "Wait"}]"#;
    let mut r = runner(tree, &original_behaviors::registry());
    r.tick(DT, &[]);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let eager = original_behaviors::registry_with(&Options {
        stand_ins: StandIns {
            unconditioned_want: true,
        },
    });
    let mut r = runner(tree, &eager);
    r.tick(DT, &[]);
    assert_eq!(r.stack_names(), ["Root", "Look"]);
}

#[test]
fn a_world_that_is_not_a_robot_state_reads_as_a_default_one_and_is_replaced_on_write() {
    let tree = r#"[{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
        "interruptActiveBehavior": true, "behaviors": ["Docked", "Idle"]},
      {"behaviorID": "Docked", "behaviorClass": "Wait",
       "wantsToBeActivatedCondition": {"conditionType": "OnCharger"}},
      {"behaviorID": "Idle", "behaviorClass": "Wait",
       "wantsToBeActivatedCondition": {"conditionType": "OffTreadsState", "targetState": "OnTreads"}}]"#;
    let t = load_tree::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    // Misconfigured: the runner's world is `()`.
    let mut r = Runner::with_world(t, IntentComponent::new(&MAP), Box::new(()));
    let before = world_fallbacks();
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    // The conditions read a default robot: on its treads, off the charger.
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    assert!(
        world_fallbacks() > before,
        "each use of the fallback is counted"
    );
    assert!(!r.robot().on_charger);
    assert!(r.world::<RobotState>().is_none());
    // Writing replaces the world with a default robot state, which then reads as written.
    r.robot_mut().on_charger = true;
    assert!(r.world::<RobotState>().is_some());
    r.tick(DT, &[]);
    assert_eq!(r.stack_names(), ["Root", "Docked"]);
    assert_eq!(r.errors(), []);
    r.check_invariants().unwrap();
}
