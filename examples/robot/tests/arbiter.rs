//! The one arbiter of the body through the real robot: a behavior's drive and a mission's
//! guide never hold the base together, checked at every tick; how a voice request ranks
//! against an HRI mission (`robot_runtime::arbiter`'s module docs).

use std::time::Duration;

use robot_example::robot::{Robot, RunConfig};
use robot_example::scenario::Scenario;
use robot_example::timeline::{render, Entry};
use robot_runtime::arbiter::{Body, ResourceSet};

/// Runs `text` tick by tick for `ticks` ticks; after every tick checks that no part of the
/// body has two holders and records who holds the base. Returns the timeline and the base's
/// holders, one change per element: (time in ms, holder or "").
fn run_checked(text: &str, ticks: u64) -> (Vec<Entry>, Vec<(u64, String)>) {
    let scenario = Scenario::parse(text, 20);
    assert_eq!(scenario.errors, vec![]);
    let mut robot = Robot::new(RunConfig::default());
    let mut next = 0;
    let mut base = vec![(0, String::new())];
    let base_set = ResourceSet::of(&[Body::Base]);
    for tick in 0..ticks {
        robot.begin_tick(tick);
        for e in scenario.due(&mut next, tick, 20) {
            robot.deliver(e, Duration::ZERO);
        }
        robot.end_tick(Duration::ZERO);
        let arb = robot.arbiter().lock();
        if let Err((a, b, shared)) = arb.check_exclusive() {
            panic!(
                "tick {tick}: {a} and {b} both hold {shared:?}\n{}",
                render(robot.entries(), false)
            );
        }
        let holders: Vec<_> = arb
            .holders()
            .filter(|(_, _, r)| r.intersects(base_set))
            .map(|(_, label, _)| label.to_owned())
            .collect();
        assert!(holders.len() <= 1, "tick {tick}: {holders:?}");
        let now = holders.into_iter().next().unwrap_or_default();
        if base.last().is_some_and(|(_, h)| *h != now) {
            base.push((tick * 50, now));
        }
    }
    (robot.entries().to_vec(), base)
}

fn position(entries: &[Entry], needle: &str) -> usize {
    entries
        .iter()
        .position(|e| e.what.text().contains(needle))
        .unwrap_or_else(|| panic!("no {needle:?} in\n{}", render(entries, false)))
}

/// The issue's scenario: at 1 s a guide (priority 128) takes the base; at 2.5 s the
/// supervisor's `MOVE_TO poi_docking` (priority 255) reaches the behaviors as
/// `system_charger`. The drive outranks the guide: the guide is halted (150 ms to brake)
/// before the drive starts, and the base never has two holders.
#[test]
fn a_dock_request_halts_the_guide_before_its_drive_starts() {
    const SCENARIO: &str = r#"
{"t": 1000, "hri": {"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "p1"}, "priority": 128}}
{"t": 2500, "hri": {"intent": "__intent_move_to__", "data": {"goal": "poi_docking"}, "source": "__remote_supervisor__", "priority": 255}}
{"t": 6000, "action_done": {"action": "drive_to_charger", "result": "succeeded"}}
"#;
    let (entries, base) = run_checked(SCENARIO, 160);
    assert_eq!(
        base,
        [
            (0, String::new()),
            (1000, "mission/guide".to_owned()),
            // Braked and released at the end of the tick; the drive takes it at its next step.
            (2650, String::new()),
            (2700, "FindAndGoToHome/drive_to_charger".to_owned()),
            (6000, String::new()),
        ],
        "{}",
        render(&entries, false)
    );
    let preempting = position(
        &entries,
        "granted by preemption for FindAndGoToHome/drive_to_charger (starts once mission/guide has stopped)",
    );
    let halting = position(
        &entries,
        "preempted for guide #1 (by FindAndGoToHome/drive_to_charger; halting)",
    );
    let stopped = position(&entries, "mission/guide: guide stopped");
    let cancelled = position(
        &entries,
        "cancelled for guide #1 (preempted by FindAndGoToHome/drive_to_charger)",
    );
    let granted = position(
        &entries,
        "base granted for FindAndGoToHome/drive_to_charger",
    );
    let started = position(&entries, "FindAndGoToHome: drive_to_charger started");
    assert!(
        preempting < halting && halting < stopped && stopped < granted && granted < started,
        "{}",
        render(&entries, false)
    );
    assert!(cancelled > halting);
    // The brake's 150 ms, then the drive's next step: four ticks after it asked.
    assert_eq!(entries[started].t_ms - entries[preempting].t_ms, 200);
}

/// Equal priorities keep arrival order: a voice "go to your charger" (128) holds the base,
/// a tablet's guide (128) that comes after it waits in the mission queue and starts when the
/// drive is done.
#[test]
fn a_guide_of_equal_priority_waits_for_a_voice_drive() {
    const SCENARIO: &str = r#"
{"t": 500,  "trigger_word": {}}
{"t": 1000, "cloud": {"type": "result", "intent": "intent_system_charger", "parameters": "", "metadata": ""}}
{"t": 2000, "hri": {"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "p1"}, "priority": 128}}
{"t": 4000, "action_done": {"action": "drive_to_charger", "result": "succeeded"}}
"#;
    let (entries, base) = run_checked(SCENARIO, 120);
    let holders: Vec<&str> = base.iter().map(|(_, h)| h.as_str()).collect();
    assert_eq!(
        holders,
        ["", "FindAndGoToHome/drive_to_charger", "mission/guide"],
        "{}",
        render(&entries, false)
    );
    assert_eq!(base[2].0, 4000, "{}", render(&entries, false));
    position(&entries, "queued for guide #1");
    position(
        &entries,
        "base+speech waiting for mission/guide (held by FindAndGoToHome/drive_to_charger)",
    );
}

/// A `VoiceCommand` whose class says `"whenBusy": "fail"` gives up at once when its
/// part is held by something that outranks it, and says so in the timeline; the default
/// waits (at most its action's timeout) and starts when the part is free.
#[test]
fn a_refused_action_fails_or_waits_as_its_class_says() {
    const GUIDE_THEN_VOICE: &str = r#"
{"t": 0,    "hri": {"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "p1"}, "priority": 200}}
{"t": 500,  "trigger_word": {}}
{"t": 1000, "cloud": {"type": "result", "intent": "intent_system_charger", "parameters": "", "metadata": ""}}
{"t": 3000, "action_done": {"action": "guide", "result": "succeeded"}}
{"t": 5000, "action_done": {"action": "drive_to_charger", "result": "succeeded"}}
"#;
    // The shipped tree waits: the drive starts once the guide completed.
    let (entries, base) = run_checked(GUIDE_THEN_VOICE, 120);
    let waiting = position(
        &entries,
        "base waiting for FindAndGoToHome/drive_to_charger (held by mission/guide)",
    );
    let granted = position(
        &entries,
        "base granted for FindAndGoToHome/drive_to_charger",
    );
    assert!(waiting < granted);
    // The guide completes at 3 s; the waiting drive takes the base at its next step.
    assert_eq!(entries[granted].t_ms, 3050, "{}", render(&entries, false));
    let holders: Vec<&str> = base.iter().map(|(_, h)| h.as_str()).collect();
    assert_eq!(
        holders,
        [
            "",
            "mission/guide",
            "",
            "FindAndGoToHome/drive_to_charger",
            ""
        ]
    );

    // A tree whose FindAndGoToHome fails when busy.
    let tree = robot_example::robot::DEFAULT_TREE.replace(
        r#""action": {"name": "drive_to_charger", "timeout_ms": 30000, "needs": ["base"]}"#,
        r#""action": {"name": "drive_to_charger", "timeout_ms": 30000, "needs": ["base"]}, "whenBusy": "fail""#,
    );
    assert_ne!(tree, robot_example::robot::DEFAULT_TREE);
    let scenario = Scenario::parse(GUIDE_THEN_VOICE, 20);
    let run = Robot::with_tree("robot.json", &tree, RunConfig::default())
        .unwrap()
        .run(&scenario);
    let refused = position(
        &run.entries,
        "base refused for FindAndGoToHome/drive_to_charger (held by mission/guide)",
    );
    assert!(
        !run.entries[refused..]
            .iter()
            .any(|e| e.what.text().contains("drive_to_charger started")),
        "{}",
        render(&run.entries, false)
    );
}

/// A class key that names no part of the body is a load error at its place.
#[test]
fn an_unknown_part_is_a_load_error() {
    let tree = robot_example::robot::DEFAULT_TREE
        .replace(r#""needs": ["base"]}"#, r#""needs": ["wheels"]}"#);
    let Err(e) = Robot::with_tree("robot.json", &tree, RunConfig::default()) else {
        panic!("a tree needing `wheels` loaded");
    };
    let text = e.to_string();
    assert!(
        text.contains("wheels") && text.contains("robot.json:"),
        "{text}"
    );
}
