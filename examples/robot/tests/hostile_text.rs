//! Text from outside cannot forge a line: every field a sender controls (a cloud intent and
//! its parameters, a cloud error's text, an app intent, an HRI message's intent, source,
//! modality and roles, a scenario's note, `say` and action name, a robot-state key, a
//! transport's refusal naming a type) is shown escaped in the text timeline, the JSON trace
//! and what the inspector's page receives (its entries), one line per entry.

use std::time::Duration;

use robot_example::robot::{Arrival, Robot, RunConfig};
use robot_example::scenario::Scenario;
use robot_example::timeline::{self, escape, Entry};
use robot_runtime::intent::{IntentSource, Request};

/// A line a hostile sender would like the timeline to show.
const FORGED: &str = "\n  9.999 s    999  intent    FORGED claimed everything\r\u{1b}[2J\u{2028}";

fn run(line: &str) -> Vec<Entry> {
    let scenario = Scenario::parse(line, 20);
    assert_eq!(scenario.errors, vec![], "{line}");
    let config = RunConfig {
        settle_ticks: 40,
        ..RunConfig::default()
    };
    Robot::new(config).run(&scenario).entries
}

/// One rendered row per entry and one JSON line per entry, no control character in either,
/// and the forged text visible, escaped.
fn assert_one_line_each(entries: &[Entry], what: &str) {
    let text = timeline::render(entries, false);
    assert_eq!(
        text.lines().count(),
        entries.len() + 1,
        "{what}: a row was split:\n{text}"
    );
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{what}: {text}"
    );
    assert!(
        text.contains(
            r"\n  9.999 s    999  intent    FORGED claimed everything\r\u{1b}[2J\u{2028}"
        ),
        "{what}: the forged text is shown escaped:\n{text}"
    );
    let mut trace = Vec::new();
    timeline::write_json_lines(entries, &mut trace).unwrap();
    let trace = String::from_utf8(trace).unwrap();
    assert_eq!(trace.lines().count(), entries.len(), "{what}");
    for line in trace.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut strings = Vec::new();
        collect_strings(&v, &mut strings);
        for s in strings {
            assert!(
                !s.chars().any(|c| c.is_control()),
                "{what}: the trace (and the page, which gets the same entries) holds {s:?}"
            );
        }
    }
}

fn collect_strings<'v>(v: &'v serde_json::Value, out: &mut Vec<&'v str>) {
    match v {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(a) => a.iter().for_each(|v| collect_strings(v, out)),
        serde_json::Value::Object(m) => m.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// `text` as a JSON string literal (the scenario line's spelling of it).
fn lit(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

#[test]
fn every_field_of_every_scenario_input_is_escaped() {
    let f = |prefix: &str| lit(&format!("{prefix}{FORGED}"));
    let cases = [
        (
            "cloud intent",
            format!(
                r#"{{"t": 0, "cloud": {{"type": "result", "intent": {}, "parameters": "", "metadata": ""}}}}"#,
                f("intent_weather")
            ),
        ),
        (
            "cloud parameters",
            format!(
                r#"{{"t": 0, "cloud": {{"type": "result", "intent": "intent_clock_settimer_extend", "parameters": {}, "metadata": ""}}}}"#,
                f("{\"timer_duration\": \"10\"}")
            ),
        ),
        (
            "cloud error text",
            format!(
                r#"{{"t": 0, "cloud": {{"type": "error", "error": "Server", "extra": {}}}}}"#,
                f("boom")
            ),
        ),
        (
            "app intent",
            format!(
                r#"{{"t": 0, "app_intent": {{"intent": {}, "param": "1"}}}}"#,
                f("intent_clock_settimer")
            ),
        ),
        (
            "app param",
            format!(
                r#"{{"t": 0, "app_intent": {{"intent": "intent_clock_settimer", "param": {}}}}}"#,
                f("60")
            ),
        ),
        (
            "HRI intent",
            format!(r#"{{"t": 0, "hri": {{"intent": {}}}}}"#, f("make_coffee")),
        ),
        (
            "HRI source",
            format!(
                r#"{{"t": 0, "hri": {{"intent": "__intent_move_to__", "data": {{"goal": "poi_docking"}}, "source": {}}}}}"#,
                f("person_1")
            ),
        ),
        (
            "HRI modality",
            format!(
                r#"{{"t": 0, "hri": {{"intent": "__intent_move_to__", "data": {{"goal": "poi_docking"}}, "modality": {}}}}}"#,
                f("__modality_speech__")
            ),
        ),
        (
            "HRI goal",
            format!(
                r#"{{"t": 0, "hri": {{"intent": "__intent_move_to__", "data": {{"goal": {}}}}}}}"#,
                f("kitchen")
            ),
        ),
        (
            "HRI data text",
            format!(
                r#"{{"t": 0, "hri": {{"intent": "__intent_say__", "data": {}}}}}"#,
                f("not json")
            ),
        ),
        ("note", format!(r#"{{"t": 0, "note": {}}}"#, f("hello"))),
        (
            "say",
            format!(r#"{{"t": 0, "trigger_word": {{}}, "say": {}}}"#, f("Hey")),
        ),
        (
            "action name",
            format!(r#"{{"t": 0, "action_done": {{"action": {}}}}}"#, f("drive")),
        ),
        (
            "robot-state key",
            format!(r#"{{"t": 0, "state": {{{}: true}}}}"#, f("on_charger")),
        ),
    ];
    for (what, line) in cases {
        let entries = run(&line);
        assert_one_line_each(&entries, what);
    }
}

/// What a transport reports (a refused sample names the type it carried: a sender chooses
/// that name) and what a live request carries are escaped the same way.
#[test]
fn transport_reports_and_live_requests_are_escaped() {
    let mut robot = Robot::new(RunConfig::default());
    robot.begin_tick(0);
    robot.report_ignored(format!(
        "sample on `CloudMic/Message` carries `Evil{FORGED}`, expected `CloudMic::Message`"
    ));
    let text = format!(r#"{{"intent": {}}}"#, lit(&format!("x{FORGED}")));
    robot.submit(
        Request::hri_text(IntentSource::Hri, &text, robot.now()),
        Arrival::live(),
        Duration::ZERO,
    );
    robot.end_tick(Duration::ZERO);
    assert_one_line_each(robot.entries(), "live");
}

#[test]
fn the_helper_escapes_exactly_what_can_break_a_line() {
    assert!(matches!(
        escape("plain text, é, 日本"),
        std::borrow::Cow::Borrowed(_)
    ));
    assert_eq!(escape("a\nb\rc\td"), r"a\nb\rc\td");
    assert_eq!(escape("\u{1b}[31mred"), r"\u{1b}[31mred");
    assert_eq!(
        escape("\u{7f}\u{85}\u{2028}\u{2029}"),
        r"\u{7f}\u{85}\u{2028}\u{2029}"
    );
    // Bidirectional overrides could show a line other than the one written.
    assert_eq!(escape("a\u{202e}b\u{2066}c"), r"a\u{202e}b\u{2066}c");
}
