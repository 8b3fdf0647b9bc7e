//! The default scenario's timeline, as `cargo run -p robot-example` prints it (colour off):
//! a behavior change shows up here as a reviewable diff (`cargo insta review`).

use robot_example::behaviors::Tree;
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO, DEFAULT_TREE};
use robot_example::scenario::Scenario;
use robot_example::timeline::{self, What};

fn default_run() -> robot_example::robot::Run {
    let tree = Tree::from_json("behaviors/robot.json", DEFAULT_TREE).unwrap();
    let scenario = Scenario::parse(DEFAULT_SCENARIO, 20);
    Robot::new(tree, RunConfig::default()).run(&scenario)
}

#[test]
fn default_scenario_timeline() {
    let run = default_run();
    insta::assert_snapshot!(timeline::render(&run.entries, false));
}

#[test]
fn default_scenario_claims_what_the_user_asked_for() {
    let run = default_run();
    let claims: Vec<(&str, &str)> = run
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            What::Claimed {
                intent, behavior, ..
            } => Some((*intent, behavior.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        claims,
        [
            ("set_timer", "TimerSet"),
            ("weather_response", "WeatherResponses"),
            ("imperative_volumelevel", "VolumeLevel"),
            ("unmatched_intent", "TriggerWordDetected"),
            ("set_timer", "TimerSet"),
            ("system_charger", "FindAndGoToHome"),
            ("hri_move_to", "MoveTo"),
            ("hri_stop_activity", "StopActivity"),
        ]
    );
    assert!(run.entries.iter().any(|e| matches!(
        e.what,
        What::Unclaimed {
            intent: "play_blackjack",
            ..
        }
    )));
    assert!(
        run.latencies.iter().all(|l| l.ticks <= 2),
        "{:?}",
        run.latencies
    );
}

#[test]
fn colour_only_adds_escapes() {
    let run = default_run();
    let plain = timeline::render(&run.entries, false);
    let coloured = timeline::render(&run.entries, true);
    assert_ne!(plain, coloured);
    let stripped = anstream::adapter::strip_str(&coloured).to_string();
    assert_eq!(stripped, plain);
}

#[test]
fn trace_json_is_one_event_per_line() {
    let run = default_run();
    let mut buf = Vec::new();
    timeline::write_json_lines(&run.entries, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    assert_eq!(text.lines().count(), run.entries.len());
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["event"].is_string(), "{line}");
        assert!(v["tick"].is_u64() && v["t_ms"].is_u64(), "{line}");
    }
    let first_claim = text
        .lines()
        .find(|l| l.contains("\"event\":\"claimed\""))
        .unwrap();
    assert_eq!(
        first_claim,
        r#"{"tick":30,"t_ms":1500,"event":"claimed","intent":"set_timer","behavior":"TimerSet","activation":1,"latency_ticks":0}"#
    );
}

#[test]
fn dot_and_mermaid_highlight_the_stack_of_a_tick() {
    let tree = Tree::from_json("behaviors/robot.json", DEFAULT_TREE).unwrap();
    let scenario = Scenario::parse(DEFAULT_SCENARIO, 20);
    // Tick 580: the supervisor's stop has just preempted the navigation.
    let run = Robot::new(
        tree.clone(),
        RunConfig {
            stack_at_tick: Some(580),
            ..RunConfig::default()
        },
    )
    .run(&scenario);
    let stack = run.stack_at.expect("the run reaches tick 580");
    assert_eq!(
        stack,
        ["GlobalInterruptions", "StopActivity", "[anim_stop]"]
    );
    let dot = robot_example::export::dot(&tree, &stack);
    assert!(dot.starts_with("digraph behaviors {"));
    assert!(dot.contains(
        "b1 [label=\"StopActivity\\nVoiceCommand\\n[hri_stop_activity, hri_cancel_activity]\", style=\"rounded,filled,bold\", fillcolor=\"#ffd966\"];"
    ));
    assert!(dot.contains("b13 [label=\"MoveTo\\nVoiceCommand\\n[hri_move_to]\"];"));
    assert!(dot.contains("b1 -> action [penwidth=3];"));
    let mermaid = robot_example::export::mermaid(&tree, &stack);
    assert!(mermaid.starts_with("flowchart LR\n"));
    assert!(
        mermaid.contains("  class root,b1,action active\n"),
        "{mermaid}"
    );
    assert!(mermaid.contains("  action([\"anim_stop\"])\n  b1 --> action\n"));
}
