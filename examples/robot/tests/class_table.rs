//! The table-driven classes of `original_behaviors` (`classes::table`) on the robot's own
//! union: a class decides with its own predicate (an idle robot does not start it), starts
//! on its trigger, does what its table says and ends, and does not start again without a
//! new trigger; tools see its predicate and inputs.

use std::time::Duration;

use original_behaviors::RobotAccessMut;
use robot_example::actions::Completions;
use robot_example::behavior_classes::load_sources;
use robot_example::intents::{self, UserIntent};
use robot_example::log::Log;
use robot_runtime::behavior::{inspect, LoadOptions, Runner, Source};

const DT: Duration = Duration::from_millis(60);

fn runner(files: &[(&str, &str)], base: &str) -> Runner<UserIntent> {
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let loaded = load_sources(
        &sources,
        base,
        &LoadOptions::with_stand_ins(),
        &Log::default(),
        &Completions::default(),
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.report.problems, [], "{:?}", loaded.report.problems);
    Runner::new(loaded.tree, intents::component())
}

const ROOT: &str = r#"{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
  "interruptActiveBehavior": true, "behaviors": ["RespondToRenameFace", "Idle"]}"#;
const RENAME: &str =
    r#"{"behaviorID": "RespondToRenameFace", "behaviorClass": "RespondToRenameFace"}"#;
const IDLE: &str = r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#;

#[test]
fn a_table_class_starts_on_its_event_only_does_its_outcome_and_ends() {
    let mut r = runner(
        &[
            ("root.json", ROOT),
            ("respondToRenameFace.json", RENAME),
            ("idle.json", IDLE),
        ],
        "Root",
    );
    let me = r.id("RespondToRenameFace").unwrap();
    for _ in 0..100 {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), []);
    }
    assert_eq!(
        r.stack_names(),
        ["Root", "Idle"],
        "an idle robot does not rename faces"
    );
    r.robot_mut().apply_json(
        serde_json::json!({"face_renamed": "Ada"})
            .as_object()
            .unwrap(),
    );
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me), "{:?}", r.stack_names());
    assert_eq!(r.action_of(me), Some("MeetVictorSayName"));
    let mut ticks = 0;
    while r.is_on_stack(me) {
        r.tick(DT, &[]);
        ticks += 1;
        assert!(ticks < 200, "never ended");
        if r.action_of(me) == Some("MeetVictorSayNameAgain") {
            ticks = ticks.max(1);
        }
    }
    for _ in 0..100 {
        r.tick(DT, &[]);
    }
    assert_eq!(
        r.stack_names(),
        ["Root", "Idle"],
        "no new rename, no new start"
    );
    r.robot_mut().apply_json(
        serde_json::json!({"face_renamed": "Bo"})
            .as_object()
            .unwrap(),
    );
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me), "a new rename starts it again");
}

#[test]
fn tools_see_a_table_class_predicate_and_its_inputs() {
    let r = runner(
        &[
            ("root.json", ROOT),
            ("respondToRenameFace.json", RENAME),
            ("idle.json", IDLE),
        ],
        "Root",
    );
    let shape = inspect::shape(&r);
    let me = r.id("RespondToRenameFace").unwrap();
    let p = shape.nodes[me.index()].predicate.clone().unwrap();
    assert_eq!(p.text, "a face was renamed since it last ran");
    assert!(
        p.inputs.iter().any(|i| i.contains("face_renamed")),
        "{:?}",
        p.inputs
    );
    assert!(p.unmodelled.is_empty());
}

/// The inspector's page gets the tree as `TreeJson` (in its `hello`, and a trace in its
/// header): a table class's node carries its predicate and the inputs it reads; a class that
/// adds nothing carries none.
#[test]
fn the_pages_tree_carries_each_class_predicate() {
    let r = runner(
        &[
            ("root.json", ROOT),
            ("respondToRenameFace.json", RENAME),
            ("idle.json", IDLE),
        ],
        "Root",
    );
    let tree = serde_json::to_value(robot_example::trace::TreeJson::of(&r)).unwrap();
    let me = r.id("RespondToRenameFace").unwrap();
    let p = &tree["nodes"][me.index()]["predicate"];
    assert_eq!(p["text"], "a face was renamed since it last ran", "{tree}");
    assert!(
        p["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i.as_str().unwrap().contains("face_renamed")),
        "{p}"
    );
    let idle = r.id("Idle").unwrap();
    assert!(tree["nodes"][idle.index()].get("predicate").is_none());
}
