//! The scenario format: every malformed line is an error naming the line and the problem,
//! and the robot runs the rest.

use std::path::Path;

use proptest::prelude::*;
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO};
use robot_example::scenario::{
    ActionResult, Problem, Scenario, ScenarioError, ScenarioEvent, When,
};
use robot_example::timeline::What;
use robot_example::tree_files;
use robot_runtime::behavior::{LoadOptions, Source};

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

#[test]
fn a_line_that_is_not_utf8_is_reported_with_its_number_and_the_rest_runs() {
    let mut bytes = b"{\"t\": 0, \"note\": \"before\"}\n".to_vec();
    bytes.extend_from_slice(b"{\"t\": 10, \"note\": \"caf\xe9\"}\r\n");
    bytes.extend_from_slice(b"\xff\xfe\n");
    bytes.extend_from_slice(b"{\"t\": 20, \"app_intent\": {\"intent\": \"intent_clock_settimer\", \"param\": \"60\"}}\n");
    let s = Scenario::parse_bytes(&bytes, 20);
    let errors: Vec<String> = s.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "scenario line 2: not valid UTF-8 (byte 23 of the line is not)",
            "scenario line 3: not valid UTF-8 (byte 1 of the line is not)",
        ]
    );
    assert_eq!(s.events.iter().map(|e| e.line).collect::<Vec<_>>(), [1, 4]);
    let run = Robot::new(RunConfig::default()).run(&s);
    assert!(run.entries.iter().any(|e| matches!(
        &e.what,
        What::Claimed {
            intent: "set_timer",
            ..
        }
    )));
}

#[test]
fn unknown_keys_inside_cloud_and_hri_are_reported_like_the_top_level_ones() {
    for (line, expected) in [
        (
            r#"{"t": 1, "hri": {"intent": "__intent_move_to__", "data": {"goal": "k"}, "priorty": 255}}"#,
            r#"unknown key "priorty" in hri (did you mean "priority"? expected intent, data, source, modality, priority, confidence, action)"#,
        ),
        (
            r#"{"t": 1, "hri": {"intent": "__intent_wakeup__", "confidance": 0.1}}"#,
            r#"unknown key "confidance" in hri (did you mean "confidence"?"#,
        ),
        (
            r#"{"t": 1, "cloud": {"type": "result", "intent": "intent_weather", "parameters": "{}", "metadata": "", "meta": 1}}"#,
            r#"unknown key "meta" in cloud (expected intent, metadata, parameters, type)"#,
        ),
        (
            r#"{"t": 1, "cloud": {"type": "error", "error": "Server", "extra": "", "code": 503}}"#,
            r#"unknown key "code" in cloud"#,
        ),
    ] {
        let problem = one_error(line).to_string();
        assert!(problem.starts_with(expected), "{line}\n  got: {problem}");
    }
    // The fields every message has are all accepted, legacy `action` included.
    let ok = concat!(
        r#"{"t": 1, "hri": {"action": "__intent_wakeup__", "data": "{}", "source": "__unknown__", "#,
        r#""modality": "speech", "priority": 1, "confidence": 1.0}}"#
    );
    assert_eq!(Scenario::parse(ok, 20).errors, vec![]);
}

#[test]
fn times_past_the_horizon_are_refused_at_once_and_exponents_are_integers() {
    use robot_example::scenario::{horizon_tick, HORIZON_MS, HORIZON_TICKS};
    let text = format!(
        "{{\"tick\": 1e15, \"note\": \"a\"}}\n\
         {{\"t\": 18446744073709551615, \"note\": \"b\"}}\n\
         {{\"t\": 1e400, \"note\": \"c\"}}\n\
         {{\"t\": 1e3, \"note\": \"d\"}}\n\
         {{\"t\": {HORIZON_MS}, \"note\": \"e\"}}\n\
         {{\"t\": {}, \"note\": \"f\"}}\n\
         {{\"tick\": 2.5, \"note\": \"g\"}}\n",
        HORIZON_MS + 1
    );
    let s = Scenario::parse(&text, 20);
    let lines: Vec<(usize, bool)> = s
        .errors
        .iter()
        .map(|e| (e.line, matches!(e.problem, Problem::PastHorizon { .. })))
        .collect();
    // 1e400 is no JSON number serde accepts: not JSON.
    assert_eq!(
        lines,
        [(1, true), (2, true), (3, false), (6, true), (7, false)]
    );
    assert_eq!(
        s.errors[0].to_string(),
        format!(
            "scenario line 1: tick 1000000000000000 is past the scenario horizon (24 h of robot \
             time and at most {HORIZON_TICKS} ticks: the last tick is 1728000)"
        )
    );
    assert_eq!(s.events[0].when, When::Ms(1000));
    assert_eq!(s.events[1].when, When::Ms(HORIZON_MS));
    // At 10,000 ticks a second the tick limit comes first.
    assert_eq!(horizon_tick(10_000), HORIZON_TICKS);
    let s = Scenario::parse(
        &format!("{{\"tick\": {}, \"note\": \"x\"}}", HORIZON_TICKS + 1),
        10_000,
    );
    assert!(matches!(s.errors[0].problem, Problem::PastHorizon { .. }));
    let s = Scenario::parse("{\"t\": 1677721, \"note\": \"x\"}", 10_000);
    assert!(
        matches!(s.errors[0].problem, Problem::PastHorizon { .. }),
        "{:?}",
        s.errors
    );
}

/// Idle stretches are skipped (the robot jumps to its next wake-up or input): the same
/// timeline as ticking through them, at a cost in proportion to what happens.
#[test]
fn idle_stretches_are_skipped_and_the_timeline_is_the_same() {
    let text = format!(
        "{DEFAULT_SCENARIO}\n{{\"t\": 600000, \"note\": \"ten minutes later\"}}\n\
         {{\"t\": 600000, \"trigger_word\": {{}}, \"say\": \"Hey Vector\"}}\n\
         {{\"t\": 601000, \"cloud\": {{\"type\": \"result\", \"intent\": \"intent_clock_settimer_extend\", \"parameters\": \"{{\\\"timer_duration\\\":\\\"60\\\"}}\", \"metadata\": \"\"}}}}\n"
    );
    let scenario = Scenario::parse(&text, 20);
    assert_eq!(scenario.errors, vec![]);
    let skipping = Robot::new(RunConfig::default()).run(&scenario);
    let ticking = Robot::new(RunConfig {
        skip_idle: false,
        ..RunConfig::default()
    })
    .run(&scenario);
    assert_eq!(skipping.entries, ticking.entries);
    assert_eq!(skipping.ticks, ticking.ticks);
    assert_eq!(ticking.ticks_run, ticking.ticks);
    // Ten minutes at 20 ticks a second is 12,000 ticks; most of them are skipped (the robot
    // wakes up every 20 s to explore for 4 s).
    assert!(
        skipping.ticks_run * 4 < skipping.ticks,
        "{} of {} ticks run",
        skipping.ticks_run,
        skipping.ticks
    );
    // Two hours of robot time cost their wake-ups only.
    let hours = "{\"t\": 0, \"note\": \"a\"}\n{\"t\": 7200000, \"note\": \"b\"}";
    let run = Robot::new(RunConfig::default()).run(&Scenario::parse(hours, 20));
    assert_eq!(run.ticks, 144_001);
    assert!(run.ticks_run < run.ticks / 4, "{}", run.ticks_run);
}

#[test]
fn a_streamed_run_keeps_no_timeline() {
    let scenario = Scenario::parse(DEFAULT_SCENARIO, 20);
    let mut streamed = Vec::new();
    let mut calls = 0;
    let run = Robot::new(RunConfig::default()).run_streaming(&scenario, |tick| {
        calls += 1;
        // One call per tick that has entries.
        assert!(tick.iter().all(|e| e.tick == tick[0].tick));
        streamed.extend_from_slice(tick);
    });
    assert!(run.entries.is_empty());
    let kept = Robot::new(RunConfig::default()).run(&scenario);
    assert_eq!(streamed, kept.entries);
    assert!(calls > 50);
}

/// The trees the idle-skipping property runs on.
#[derive(Clone, Copy, Debug)]
enum Tree {
    /// `behaviors/robot.json`.
    Shipped,
    /// `behaviors/original/`, in the original engine's format (stand-ins on).
    Original,
    /// `tests/trees/dispatchers.json`: cooldown and random dispatchers, HighLevelAI.
    Dispatchers,
}

fn robot_with(tree: Tree, config: RunConfig) -> Robot {
    match tree {
        Tree::Shipped => Robot::new(config),
        Tree::Original => {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("behaviors/original");
            let files = tree_files::read_tree(&dir).unwrap().files;
            let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
            Robot::with_sources(
                &sources,
                "InitNormalOperation",
                &LoadOptions::with_stand_ins(),
                config,
            )
            .unwrap()
            .0
        }
        Tree::Dispatchers => Robot::with_tree(
            "dispatchers.json",
            include_str!("trees/dispatchers.json"),
            config,
        )
        .unwrap(),
    }
}

/// Robot-state lines the conditions of the three trees read.
const STATE_LINES: &[&str] = &[
    r#""state": {"on_charger": true, "on_charger_platform": true}"#,
    r#""state": {"on_charger": false, "on_charger_platform": false}"#,
    r#""state": {"off_treads": "InAir", "being_held": true, "picked_up": true}"#,
    r#""state": {"off_treads": "OnTreads", "being_held": false, "picked_up": false}"#,
    r#""state": {"cliffs": 2}"#,
    r#""state": {"cliffs": 0}"#,
    r#""state": {"emotions": {"Stimulated": 0.9}}"#,
    r#""state": {"emotions": {"Stimulated": 0.1}}"#,
    r#""state": {"faces": [{"distance_mm": 500}]}"#,
    r#""state": {"faces": []}"#,
    r#""state": {"objects": [{"type": "Block_LIGHTCUBE1"}]}"#,
    r#""state": {"objects": []}"#,
    r#""state": {"carrying_object": true}"#,
    r#""state": {"touched": true}"#,
    r#""state": {"touched": false}"#,
    r#""state": {"held_in_palm": true}"#,
    r#""state": {"held_in_palm": false}"#,
    r#""state": {"battery_level": "Low", "simple_mood": "HighStim"}"#,
    r#""state": {"reset_timers": ["Socializing", "PlayingWithCube"]}"#,
    r#""state": {"features": {"Exploring": false}}"#,
];

/// Skipping idle ticks never changes what the robot does, on the shipped tree, on the
/// original-shaped tree (stand-ins, coordinators, a ten-state HighLevelAI) and on a tree of
/// cooldown and random dispatchers, with robot-state changes among the inputs; and on the
/// idle original-shaped tree most ticks are skipped.
#[test]
fn the_original_shaped_tree_skips_its_idle_stretches() {
    let text = "{\"t\": 0, \"note\": \"a\"}\n{\"t\": 120000, \"note\": \"b\"}";
    let scenario = Scenario::parse(text, 20);
    for tree in [Tree::Original, Tree::Dispatchers] {
        let config = RunConfig {
            settle_ticks: 200,
            ..RunConfig::default()
        };
        let skipping = robot_with(tree, config.clone()).run(&scenario);
        let ticking = robot_with(
            tree,
            RunConfig {
                skip_idle: false,
                ..config
            },
        )
        .run(&scenario);
        assert_eq!(skipping.entries, ticking.entries, "{tree:?}");
        assert!(
            skipping.ticks_run * 4 < skipping.ticks,
            "{tree:?}: {} of {} ticks run",
            skipping.ticks_run,
            skipping.ticks
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Skipping idle ticks never changes what the robot does (random inputs at random
    /// times, with long gaps), whatever the tree.
    #[test]
    fn skipping_idle_ticks_never_changes_the_timeline(tree in prop_oneof![
        Just(Tree::Shipped), Just(Tree::Original), Just(Tree::Dispatchers),
    ], events in prop::collection::vec(
        (0u64..60_000, prop_oneof![
            prop::sample::select(STATE_LINES).prop_map(str::to_owned),
            Just(r#""trigger_word": {}"#.to_owned()),
            Just(r#""cloud": {"type": "result", "intent": "intent_weather_extend", "parameters": "{}", "metadata": ""}"#.to_owned()),
            Just(r#""cloud": {"type": "result", "intent": "intent_explore_start", "parameters": "", "metadata": ""}"#.to_owned()),
            Just(r#""cloud": {"type": "error", "error": "Server", "extra": ""}"#.to_owned()),
            Just(r#""app_intent": {"intent": "intent_clock_settimer", "param": "60"}"#.to_owned()),
            Just(r#""hri": {"intent": "__intent_guide__", "data": {"goal": "k", "recipient": "p"}}"#.to_owned()),
            Just(r#""hri": {"intent": "__intent_engage_with__", "data": {"recipient": "p"}}"#.to_owned()),
            Just(r#""hri": {"intent": "__intent_stop_activity__"}"#.to_owned()),
            Just(r#""action_done": {"action": "guide"}"#.to_owned()),
            Just(r#""note": "x""#.to_owned()),
        ]),
        0..12,
    )) {
        let mut events = events;
        events.sort_by_key(|(t, _)| *t);
        let text: String = events
            .iter()
            .map(|(t, e)| format!("{{\"t\": {t}, {e}}}\n"))
            .collect();
        let scenario = Scenario::parse(&text, 20);
        prop_assert_eq!(&scenario.errors, &vec![]);
        let config = RunConfig { settle_ticks: 200, ..RunConfig::default() };
        let skipping = robot_with(tree, config.clone()).run(&scenario);
        let ticking = robot_with(tree, RunConfig { skip_idle: false, ..config }).run(&scenario);
        prop_assert_eq!(skipping.entries, ticking.entries);
    }

    /// Any bytes, line by line: each line is an event or an error naming it, never a panic;
    /// a valid line after garbage still runs.
    #[test]
    fn garbage_bytes_never_stop_the_robot(lines in prop::collection::vec(
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..60),
            // Times: small, past the horizon, fractional, negative, or no number.
            "\\{\"(t|tick)\": (-?[0-9]{1,3}|[0-9]{20,25}|[0-9]e[0-9]{2,3}|[0-9]\\.5|null|\"x\"), \"(note|hri|cloud|trigger_word)\": (\\{\\}|\"x\"|\\{\"[a-z]{1,8}\": [0-9]\\})\\}".prop_map(String::into_bytes),
        ],
        0..10,
    )) {
        let mut bytes = lines.join(&b'\n');
        // At the horizon: no garbage line can be later (time never goes back).
        bytes.extend_from_slice(
            format!("\n{{\"t\": {}, \"app_intent\": {{\"intent\": \"intent_clock_settimer\", \"param\": \"60\"}}}}", robot_example::scenario::HORIZON_MS).as_bytes(),
        );
        let scenario = Scenario::parse_bytes(&bytes, 20);
        let n = bytes.split(|b| *b == b'\n').count();
        let last = scenario.events.last().map(|e| e.line);
        prop_assert_eq!(last, Some(n));
        prop_assert!(scenario.errors.iter().all(|e| e.line >= 1 && e.line <= n));
        let run = Robot::new(RunConfig { settle_ticks: 50, ..RunConfig::default() }).run(&scenario);
        let claimed = run.entries.iter().any(|e| matches!(
            &e.what,
            What::Claimed { intent: "set_timer", .. }
        ));
        prop_assert!(claimed, "the valid line after the garbage did not run");
    }
}

/// Every input is capped at what its type can hold: `CloudMic::Message` is at most 131,331
/// bytes (the schema's size metrics, not a number written here), and the longest scenario
/// line follows from the largest event.
#[test]
fn caps_come_from_the_schema() {
    use robot_example::clad::cloud_mic::Message;
    use robot_example::hri::IntentEnvelope;
    use robot_runtime::wire::Wire;
    assert_eq!(Message::MAX_SIZE, Some(131_331));
    let envelope = IntentEnvelope::MAX_SIZE.unwrap();
    assert_eq!(
        robot_example::scenario::MAX_LINE_BYTES,
        131_331.max(envelope) * 6 + 64 * 1024
    );
}

/// A captured datagram longer than its type can be is refused before it is decoded, and the
/// other lines run.
#[test]
fn captured_bytes_longer_than_their_type_are_refused() {
    use robot_example::clad::cloud_mic::Message;
    use robot_runtime::wire::Wire;
    let max = Message::MAX_SIZE.unwrap();
    let hex = "00".repeat(max + 1);
    let text = format!(
        "{{\"t\": 0, \"cloud_hex\": \"{hex}\"}}\n{{\"t\": 0, \"cloud_hex\": \"{}\"}}\n{{\"t\": 1, \"note\": \"after\"}}\n",
        "00".repeat(3)
    );
    let s = Scenario::parse(&text, 20);
    assert_eq!(
        s.errors,
        vec![ScenarioError {
            line: 1,
            problem: Problem::TooLarge {
                type_name: "CloudMic::Message",
                len: max + 1,
                max
            }
        }]
    );
    assert_eq!(s.events.len(), 2);
    let envelope = robot_example::hri::IntentEnvelope::MAX_SIZE.unwrap();
    let s = Scenario::parse(
        &format!(
            "{{\"t\": 0, \"hri_hex\": \"{}\"}}",
            "ab".repeat(envelope + 1)
        ),
        20,
    );
    assert!(matches!(
        s.errors[0].problem,
        Problem::TooLarge {
            type_name: "Hri::IntentEnvelope",
            ..
        }
    ));
}

/// A line longer than any event needs: one error in a text, the end of the reading for a
/// stream (`/dev/zero` is an endless line), with bounded memory either way.
#[test]
fn too_long_lines_are_refused_and_an_endless_one_stops_the_reading() {
    use robot_example::scenario::{ReadError, MAX_LINE_BYTES};
    use std::io::Read;
    let long = "x".repeat(MAX_LINE_BYTES + 1);
    let text = format!("{long}\n{{\"t\": 0, \"note\": \"after\"}}\n");
    let s = Scenario::parse(&text, 20);
    assert_eq!(
        s.errors,
        vec![ScenarioError {
            line: 1,
            problem: Problem::TooLong {
                max: MAX_LINE_BYTES
            }
        }]
    );
    assert_eq!(s.events.len(), 1);
    // Read from a stream: the lines before the long one are fine; the long one stops it.
    let input = format!("{{\"t\": 0, \"note\": \"before\"}}\n{long}\n");
    assert_eq!(
        Scenario::read(input.as_bytes(), 20),
        Err(ReadError::TooLong {
            line: 2,
            max: MAX_LINE_BYTES
        })
    );
    // An endless line of zeros (what `/dev/zero` gives) is refused after at most one line's
    // worth of bytes.
    let zeros = std::io::BufReader::new(std::io::repeat(0));
    assert_eq!(
        Scenario::read(zeros, 20),
        Err(ReadError::TooLong {
            line: 1,
            max: MAX_LINE_BYTES
        })
    );
    // A line exactly at the limit is read (and is simply not JSON).
    let at_limit = "y".repeat(MAX_LINE_BYTES);
    let s = Scenario::read(at_limit.as_bytes().chain(&b"\n"[..]), 20).unwrap();
    assert!(matches!(s.errors[0].problem, Problem::NotJson(_)));
    // A stream reads like a text.
    let text = "{\"t\": 0, \"note\": \"a\"}\r\n\n# c\n\u{fffd}\n{\"t\": 5, \"note\": \"b\"}";
    assert_eq!(
        Scenario::read(text.as_bytes(), 20).unwrap(),
        Scenario::parse(text, 20)
    );
}
