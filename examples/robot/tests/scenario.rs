//! The scenario format: every malformed line is an error naming the line and the problem,
//! and the robot runs the rest.

use proptest::prelude::*;
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO};
use robot_example::scenario::{ActionResult, Problem, Scenario, ScenarioEvent, When};
use robot_example::timeline::What;

fn one_error(line: &str) -> Problem {
    let s = Scenario::parse(line, 20);
    assert!(s.events.is_empty(), "{line}: parsed as {:?}", s.events);
    assert_eq!(s.errors.len(), 1, "{line}");
    assert_eq!(s.errors[0].line, 1);
    s.errors[0].problem.clone()
}

#[test]
fn default_scenario_parses_cleanly() {
    let s = Scenario::parse(DEFAULT_SCENARIO, 20);
    assert_eq!(s.errors, vec![]);
    assert!(s.events.len() > 20);
}

#[test]
fn every_event_kind_parses() {
    let text = r#"
# comment
// comment too
{"t": 0, "note": "hello"}
{"t": 10, "trigger_word": {}, "say": "Hey Vector"}
{"t": 20, "trigger_word": true}
{"t": 30, "trigger_word": {"will_open_stream": false, "from_mute": true}}
{"t": 40, "cloud": {"type": "result", "intent": "intent_weather", "parameters": "{}", "metadata": ""}}
{"t": 50, "cloud_hex": "09 0e 69:6e"}
{"t": 60, "app_intent": {"intent": "intent_clock_settimer", "param": "60"}}
{"t": 70, "app_intent": {"intent": "explore_start"}}
{"tick": 2, "hri": {"intent": "__intent_move_to__", "data": {"goal": "kitchen"}}}
{"tick": 3, "action_done": {"action": "navigate"}}
{"tick": 4, "action_done": {"action": "navigate", "result": "failed"}}
"#;
    let s = Scenario::parse(text, 20);
    assert_eq!(s.errors, vec![]);
    let kinds: Vec<_> = s.events.iter().map(|e| &e.event).collect();
    assert_eq!(kinds.len(), 11);
    assert_eq!(s.events[0].line, 4);
    assert_eq!(s.events[1].say.as_deref(), Some("Hey Vector"));
    assert!(matches!(
        kinds[3],
        ScenarioEvent::TriggerWord {
            will_open_stream: false,
            from_mute: true
        }
    ));
    match kinds[4] {
        ScenarioEvent::Cloud { bytes, captured } => {
            assert!(!captured);
            assert_eq!(bytes[0], 9);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        kinds[5],
        &ScenarioEvent::Cloud {
            bytes: vec![0x09, 0x0e, 0x69, 0x6e],
            captured: true
        }
    );
    match kinds[8] {
        ScenarioEvent::Hri(h) => {
            assert_eq!(h["intent"], "__intent_move_to__");
            assert_eq!(
                robot_example::scenario::describe_hri(h),
                r#"__intent_move_to__ {"goal":"kitchen"}"#
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        kinds[10],
        &ScenarioEvent::ActionDone {
            action: "navigate".into(),
            result: ActionResult::Failed
        }
    );
    assert_eq!(s.events[8].when, When::Tick(2));
    assert_eq!(When::Ms(1999).tick(20), 39);
}

#[test]
fn each_problem_names_the_line_and_what_is_wrong() {
    let cases: &[(&str, &str)] = &[
        ("{\"t\": 0, \"note\": ", "not valid JSON"),
        ("[1, 2]", "expected a JSON object, found an array"),
        ("{\"note\": \"x\"}", "no time"),
        (
            "{\"t\": 1, \"tick\": 1, \"note\": \"x\"}",
            "both \"t\" and \"tick\"",
        ),
        (
            "{\"t\": -5, \"note\": \"x\"}",
            "\"t\" must be a non-negative integer, found -5",
        ),
        (
            "{\"t\": \"soon\", \"note\": \"x\"}",
            "\"t\" must be a non-negative integer",
        ),
        ("{\"t\": 1}", "no event: add one of cloud, cloud_hex"),
        (
            "{\"t\": 1, \"note\": \"a\", \"trigger_word\": {}}",
            "more than one event (note, trigger_word)",
        ),
        ("{\"t\": 1, \"notes\": \"a\"}", "unknown key \"notes\""),
        (
            "{\"t\": 1, \"note\": \"a\", \"say\": 3}",
            "\"say\" must be a string",
        ),
        (
            "{\"t\": 1, \"note\": 3}",
            "bad note: expected a string, found a number",
        ),
        (
            "{\"t\": 1, \"cloud\": {\"type\": \"result\", \"intent\": 5}}",
            "bad cloud: not a CloudMic::Message",
        ),
        (
            "{\"t\": 1, \"cloud\": {\"type\": \"nope\"}}",
            "bad cloud: not a CloudMic::Message",
        ),
        (
            "{\"t\": 1, \"cloud_hex\": \"0g\"}",
            "bad cloud_hex: 'g' at character 2 is not a hex digit",
        ),
        (
            "{\"t\": 1, \"cloud_hex\": \"090\"}",
            "bad cloud_hex: odd number of hex digits (3)",
        ),
        (
            "{\"t\": 1, \"cloud_hex\": 9}",
            "bad cloud_hex: expected a hex string, found a number",
        ),
        (
            "{\"t\": 1, \"app_intent\": {\"param\": \"1\"}}",
            "bad app_intent: missing field `intent`",
        ),
        (
            "{\"t\": 1, \"hri\": \"__intent_move_to__\"}",
            "bad hri: expected an object, found a string",
        ),
        (
            "{\"t\": 1, \"trigger_word\": {\"loud\": true}}",
            "bad trigger_word: unknown field `loud`",
        ),
        (
            "{\"t\": 1, \"action_done\": {\"action\": \"a\", \"result\": \"meh\"}}",
            "bad action_done: unknown variant `meh`",
        ),
    ];
    for (line, expected) in cases {
        let problem = one_error(line);
        let text = format!("scenario line 1: {problem}");
        assert!(
            text.contains(expected),
            "{line}\n  got:      {text}\n  expected: …{expected}…"
        );
    }
}

#[test]
fn time_never_goes_back() {
    let s = Scenario::parse(
        "{\"t\": 500, \"note\": \"a\"}\n{\"t\": 100, \"note\": \"b\"}\n{\"tick\": 9, \"note\": \"c\"}\n{\"t\": 600, \"note\": \"d\"}",
        20,
    );
    assert_eq!(s.events.len(), 2);
    assert_eq!(
        s.errors[0].to_string(),
        "scenario line 2: t 100 ms is before the previous event (t 500 ms); scenario lines must be in time order"
    );
    // Mixed units compare as ticks: tick 9 at 20 ticks/s (450 ms) is before 500 ms (tick 10).
    assert_eq!(
        s.errors[1].to_string(),
        "scenario line 3: tick 9 is before the previous event (t 500 ms); scenario lines must be in time order"
    );
    assert_eq!(s.events[1].line, 4);
}

#[test]
fn a_malformed_line_is_reported_and_the_rest_runs() {
    let text = "\
{\"t\": 0, \"trigger_word\": {}}
{\"t\": 100, \"cloud\": {\"type\": \"result\", \"intent\": 5}}
this is not json
{\"t\": 200, \"cloud\": {\"type\": \"result\", \"intent\": \"intent_clock_settimer_extend\", \"parameters\": \"{\\\"timer_duration\\\":\\\"30\\\"}\", \"metadata\": \"\"}}
";
    let scenario = Scenario::parse(text, 20);
    assert_eq!(
        scenario.errors.iter().map(|e| e.line).collect::<Vec<_>>(),
        vec![2, 3]
    );
    let run = Robot::new(RunConfig::default()).run(&scenario);
    let errors: Vec<_> = run
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            What::ScenarioError { line, problem } => Some((*line, problem.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 2);
    assert!(errors[1].1.starts_with("not valid JSON"), "{errors:?}");
    assert!(run.entries.iter().any(|e| matches!(
        &e.what,
        What::Claimed { intent: "set_timer", behavior, .. } if behavior == "TimerSet"
    )));
}

#[test]
fn an_action_done_for_no_running_action_is_reported() {
    let scenario = Scenario::parse("{\"t\": 0, \"action_done\": {\"action\": \"fly\"}}", 20);
    let run = Robot::new(RunConfig::default()).run(&scenario);
    assert!(run.entries.iter().any(|e| matches!(
        &e.what,
        What::InputIgnored { reason } if reason == "no running action is named \"fly\""
    )));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any text parses (into events and errors) and any parsed scenario runs to its end.
    #[test]
    fn garbage_never_stops_the_robot(lines in prop::collection::vec(
        prop_oneof![
            ".{0,40}",
            "\\{\"t\": [0-9]{1,4}, \"(note|cloud_hex|trigger_word|say|tick)\": .{0,20}\\}",
            "\\{\"t\": [0-9]{1,4}, \"cloud_hex\": \"[0-9a-f]{0,40}\"\\}",
            "\\{\"tick\": [0-9]{1,3}, \"app_intent\": \\{\"intent\": \"[a-z_]{0,20}\", \"param\": \".{0,10}\"\\}\\}",
        ],
        0..12,
    )) {
        let text = lines.join("\n");
        let scenario = Scenario::parse(&text, 20);
        let rejected = scenario.errors.len();
        let run = Robot::new(RunConfig { settle_ticks: 50, ..RunConfig::default() }).run(&scenario);
        let reported = run.entries.iter().filter(|e| matches!(e.what, What::ScenarioError { .. })).count();
        prop_assert_eq!(rejected, reported);
    }
}

#[test]
fn bad_hri_messages_are_reported_by_the_intake_and_the_robot_goes_on() {
    let text = r#"
{"t": 0, "hri": {"intent": "__intent_guide__", "data": "{\"goal\": \"kitchen\"}", "confidence": 1.5}}
{"t": 0, "hri": {"intent": "__intent_move_to__", "data": "[1, 2]", "priority": 300}}
{"t": 0, "hri": {"intent": "__intent_move_to__", "data": "{}", "modality": "__modality_telepathy__"}}
{"t": 100, "hri": {"intent": "__intent_move_to__", "data": "{\"goal\": \"kitchen\"}", "priority": 200}}
{"t": 200, "action_done": {"action": "navigate"}}
"#;
    let scenario = Scenario::parse(text, 20);
    assert_eq!(scenario.errors, vec![]);
    let run = Robot::new(RunConfig::default()).run(&scenario);
    let rejected: Vec<String> = run
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            What::NotUnderstood {
                intent,
                error,
                reaction: "rejected",
            } => Some(format!("{intent}: {error}")),
            _ => None,
        })
        .collect();
    assert_eq!(rejected.len(), 3, "{rejected:#?}");
    assert!(
        rejected[0].contains("recipient"),
        "GUIDE needs a recipient: {}",
        rejected[0]
    );
    assert!(rejected[0].contains("confidence"), "{}", rejected[0]);
    assert!(rejected[1].contains("data"), "{}", rejected[1]);
    // The good one runs and ends.
    let resources: Vec<(&str, &str)> = run
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            What::Resource { holder, change, .. } => Some((holder.as_str(), *change)),
            _ => None,
        })
        .collect();
    assert_eq!(
        resources,
        [("navigate #1", "granted"), ("navigate #1", "released")]
    );
}

/// A supervisor's "dock" as a packed `Hri::IntentEnvelope`, in hex.
fn dock_hex() -> String {
    let mut env = robot_example::hri::IntentEnvelope::default();
    env.intent.intent = "__intent_move_to__".into();
    env.intent.data = r#"{"goal": "poi_docking"}"#.into();
    env.intent.source = "__remote_supervisor__".into();
    env.intent.priority = 255;
    env.confidence_unstated = true;
    let bytes = robot_runtime::wire::Wire::pack(&env).unwrap();
    robot_example::scenario::encode_hex(&bytes)
}

#[test]
fn hri_hex_is_a_packed_envelope_and_bad_values_are_errors() {
    let hex = dock_hex();
    let s = Scenario::parse(&format!(r#"{{"t": 0, "hri_hex": "{hex}"}}"#), 20);
    assert_eq!(s.errors, vec![]);
    assert_eq!(
        s.events[0].event,
        ScenarioEvent::HriPacked(robot_example::scenario::decode_hex(&hex).unwrap())
    );
    for (line, expected) in [
        (
            r#"{"t": 0, "hri_hex": 12}"#,
            "bad hri_hex: expected a hex string, found a number",
        ),
        (r#"{"t": 0, "hri_hex": "0g"}"#, "bad hri_hex:"),
        (r#"{"t": 0, "hri_hex": "012"}"#, "bad hri_hex:"),
    ] {
        let problem = one_error(line).to_string();
        assert!(problem.starts_with(expected), "{line}: {problem}");
    }
}

#[test]
fn packed_hri_intents_reach_the_behaviors_and_garbage_is_reported() {
    let text = format!(
        "{{\"t\": 0, \"hri_hex\": \"010203\"}}\n{{\"t\": 100, \"hri_hex\": \"{}\"}}\n",
        dock_hex()
    );
    let run = Robot::new(RunConfig::default()).run(&Scenario::parse(&text, 20));
    let inputs: Vec<_> = run
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            What::Input { line, detail, .. } => Some((*line, detail.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(inputs[0], (1, "3 bytes 010203".to_owned()));
    assert_eq!(inputs[1].0, 2);
    assert!(
        inputs[1]
            .1
            .starts_with(r#"__intent_move_to__ {"goal": "poi_docking"} priority 255"#),
        "{inputs:?}"
    );
    // The undecodable bytes are a problem line of the HRI intake, between the two inputs.
    let text = robot_example::timeline::render(&run.entries, false);
    let first = text.find("3 bytes 010203").unwrap();
    let second = text.find("__intent_move_to__").unwrap();
    let problem = text[first..second]
        .lines()
        .find(|l| l.contains("problem"))
        .unwrap_or_else(|| panic!("no problem line:\n{text}"));
    assert!(
        problem.contains("the intent message does not decode: truncated input"),
        "{problem}"
    );
    assert!(run.entries.iter().any(|e| matches!(
        &e.what,
        What::Behavior { behavior, change: "activated", .. } if behavior == "FindAndGoToHome"
    )));
}
