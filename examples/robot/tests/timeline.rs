//! The default scenario's timeline, as `cargo run -p robot-example` prints it (colour off):
//! a behavior change shows up here as a reviewable diff (`cargo insta review`).

use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO};
use robot_example::scenario::Scenario;
use robot_example::timeline::{self, What};

fn default_run() -> robot_example::robot::Run {
    let scenario = Scenario::parse(DEFAULT_SCENARIO, 20);
    Robot::new(RunConfig::default()).run(&scenario)
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
            ("global_stop", "GlobalStop"),
            ("explore_start", "ExploreOnRequest"),
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
        r#"{"tick":31,"t_ms":1550,"event":"claimed","intent":"set_timer","behavior":"TimerSet","activation":1,"latency_ticks":1}"#
    );
}

#[test]
fn dot_and_mermaid_highlight_the_stack_of_a_tick() {
    let scenario = Scenario::parse(DEFAULT_SCENARIO, 20);
    // Tick 31: TimerSet has just claimed "set a timer for five minutes".
    let run = Robot::new(RunConfig {
        snapshot_at_tick: Some(31),
        ..RunConfig::default()
    })
    .run(&scenario);
    let snap = run.snapshot;
    assert_eq!(snap.tick, 31);
    assert_eq!(
        snap.stack,
        ["GlobalInterruptions", "VoiceFeatures", "TimerSet"]
    );
    assert!(snap.dot.starts_with("digraph behaviors {"));
    assert!(
        snap.dot.contains("TimerSet\\n(VoiceCommand)\\n[stack 2]"),
        "{}",
        snap.dot
    );
    assert!(snap.mermaid.starts_with("flowchart"), "{}", snap.mermaid);
    assert!(snap.mermaid.contains("TimerSet"), "{}", snap.mermaid);
}
