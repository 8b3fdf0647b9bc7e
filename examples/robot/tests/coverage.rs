//! The coverage check: every production user intent is claimed by a behavior and proven by
//! a row of `behaviors/completed_intents.json`, or listed as an exception with a reason.
//! This is the test the README's walkthrough runs after adding an intent.

use robot_example::coverage::{check, CompletedIntents, Problem};
use robot_example::robot::DEFAULT_TREE;

const TABLE: &str = include_str!("../behaviors/completed_intents.json");

fn check_tree(text: &str, table: &CompletedIntents) -> robot_example::coverage::Report {
    check("behaviors/robot.json", text, table, 20).unwrap()
}

fn table(text: &str) -> CompletedIntents {
    CompletedIntents::from_json("behaviors/completed_intents.json", text).unwrap()
}

#[test]
fn every_user_intent_is_claimed_and_proven() {
    let report = check_tree(DEFAULT_TREE, &table(TABLE));
    assert!(report.problems.is_empty(), "\n{}", report.render());
    assert!(report.lines.iter().any(|l| l.intent == "set_timer"
        && l.claimed_by == ["TimerSet"]
        && l.rows.len() == 2
        && l.rows.iter().all(|(_, ok)| *ok)));
    assert_eq!(
        report.test_only,
        [
            "test_SEPARATOR",
            "test_user_intent_1",
            "test_user_intent_2",
            "test_name",
            "test_timeWithUnits",
            "test_wire"
        ]
    );
}

#[test]
fn a_behavior_removed_leaves_its_intent_unhandled() {
    let without = DEFAULT_TREE.replace(
        "\"respondToUserIntents\": [{\"type\": \"show_clock\"}]",
        "\"respondToUserIntents\": [{\"type\": \"check_timer\"}]",
    );
    let report = check_tree(&without, &table(TABLE));
    assert!(
        report.problems.contains(&Problem::Unhandled {
            intent: "show_clock"
        }),
        "{report:?}"
    );
    let text = report.render();
    assert!(
        text.contains("error: user intent `show_clock` is claimed by no behavior"),
        "{text}"
    );
    // Its row now goes to nobody: the intent expires unclaimed.
    assert!(report.problems.iter().any(|p| matches!(p,
        Problem::RowFailed { label, got, .. } if label == "what time is it" && got == "nobody claimed show_clock")));
}

#[test]
fn a_claimed_intent_without_a_row_is_reported() {
    let without = TABLE.replace(
        r#""what time is it":          {"cloud_intent": "intent_clock_time", "claimedBy": "ShowClock"},"#,
        "",
    );
    assert_ne!(without, TABLE);
    let report = check_tree(DEFAULT_TREE, &table(&without));
    assert_eq!(
        report.problems,
        [Problem::NoRow {
            intent: "show_clock",
            behavior: "ShowClock".into()
        }]
    );
}

#[test]
fn rows_are_played_on_the_robot() {
    let wrong = TABLE.replace(
        r#""claimedBy": "ShowClock""#,
        r#""claimedBy": "TimerCheck""#,
    );
    let report = check_tree(DEFAULT_TREE, &table(&wrong));
    assert!(report.problems.iter().any(|p| p.to_string()
        == "row \"what time is it\": expected TimerCheck to claim it, but ShowClock claimed show_clock"), "{report:?}");
    let unknown = TABLE.replace(r#""claimedBy": "ShowClock""#, r#""claimedBy": "ShowClok""#);
    let report = check_tree(DEFAULT_TREE, &table(&unknown));
    assert!(report.problems.contains(&Problem::UnknownBehavior {
        label: "what time is it".into(),
        behavior: "ShowClok".into()
    }));
}

#[test]
fn exceptions_must_be_members_and_not_claimed() {
    let stale = TABLE.replace(
        "\"amazon_signin\",",
        "\"amazon_signin\", \"show_clock\", \"show_clok\",",
    );
    let report = check_tree(DEFAULT_TREE, &table(&stale));
    assert!(report.problems.contains(&Problem::UnknownException {
        intent: "show_clok".into()
    }));
    assert!(report.problems.contains(&Problem::StaleException {
        intent: "show_clock",
        behavior: "ShowClock".into()
    }));
}

#[test]
fn bad_tables_and_trees_name_the_problem() {
    let e = CompletedIntents::from_json("t.json", r#"{"handled": {"x": {"claimedBy": "A"}}}"#)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.json: handled.\"x\": give either cloud_intent (+ parameters) or app_intent (+ param)"
    );
    let e = CompletedIntents::from_json(
        "t.json",
        r#"{"handled": {}, "exceptions": [{"reason": " ", "intents": []}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "t.json: an exception needs a reason");

    let bad = |from: &str, to: &str| {
        let text = DEFAULT_TREE.replacen(from, to, 1);
        assert_ne!(text, DEFAULT_TREE, "{from}");
        check("robot.json", &text, &table(TABLE), 20)
            .unwrap_err()
            .to_string()
    };
    let e = bad("{\"type\": \"set_timer\"}", "{\"type\": \"set_timr\"}");
    assert!(e.contains("robot.json") && e.contains("set_timr"), "{e}");
    let e = bad(
        "\"behaviorClass\": \"VoiceCommand\"",
        "\"behaviorClass\": \"VoiceComand\"",
    );
    assert!(e.contains("VoiceComand"), "{e}");
    let e = bad(
        "\"duration_ms\": 1200",
        "\"duration_ms\": 1200, \"speed\": 5",
    );
    assert!(e.contains("speed"), "{e}");
    let e = bad("\"listenTimeout_s\": 5.0", "\"listenTimeout\": 5.0");
    assert!(e.contains("listenTimeout"), "{e}");
}

// The two member rules of `robot_runtime::intent::members`, as coverage applies them:
// `hri_move_to` (appended below `test_SEPARATOR`) is a real intent that needs a claimer,
// `test_name` (a `test_` member) needs nothing.
#[test]
fn hri_move_to_is_demanded_and_test_name_is_not() {
    use robot_example::intents::{Tag, UserIntent};
    use robot_runtime::behavior::coverage::is_test_only;

    assert!(!is_test_only::<UserIntent>(Tag::HriMoveTo));
    assert!(!is_test_only::<UserIntent>(Tag::SimpleVoiceResponse));
    assert!(is_test_only::<UserIntent>(Tag::TestName));
    assert!(robot_example::coverage::is_test_only(Tag::TestName));
    assert!(!robot_example::coverage::is_test_only(Tag::HriMoveTo));

    let without = DEFAULT_TREE.replace(
        "\"respondToUserIntents\": [{\"type\": \"hri_move_to\"}]",
        "\"respondToUserIntents\": [{\"type\": \"test_name\"}]",
    );
    assert_ne!(
        without, DEFAULT_TREE,
        "the tree's MoveTo claims hri_move_to"
    );
    let report = check_tree(&without, &table(TABLE));
    assert!(
        report.problems.contains(&Problem::Unhandled {
            intent: "hri_move_to"
        }),
        "{report:?}"
    );
    // Claimed or not, a test-only member is never a coverage problem.
    assert!(report.test_only.contains(&"test_name"));
    assert!(
        !report
            .problems
            .iter()
            .any(|p| format!("{p:?}").contains("test_name")),
        "{report:?}"
    );
}
