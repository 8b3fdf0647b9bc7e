//! `behavior::inspect`, what tools (the live inspector) read between ticks: the tree's shape,
//! each behavior's status (scope, stack, its last and its kept `WantsToBeActivated` answers,
//! cooldowns, a state machine's state, stand-ins), why it does or does not run (gates,
//! conditions with their last values, as text), the delegation path forcing pushes — and
//! that asking all of it on every tick changes nothing the runner does (the cached tick's
//! answers, stateful conditions, the wake-up).

use std::time::Duration;

use original_behaviors::{RobotAccess, RobotAccessMut};
use proptest::prelude::*;
use robot_runtime::behavior::inspect::{self, ConditionReport};
use robot_runtime::behavior::{load_tree, BehaviorId, LifecycleState, LoadOptions, Runner, Source};
use robot_runtime::intent::{IntentComponent, IntentSource};
use robot_runtime_tests::shaped_tree;
use robot_runtime_tests::world::{apply, change};
use robot_runtime_tests::{UserIntent, Void, MAP};

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

fn tick(r: &mut Runner<UserIntent>, n: usize) {
    for _ in 0..n {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), []);
    }
}

fn id(r: &Runner<UserIntent>, name: &str) -> BehaviorId {
    r.id(name).unwrap_or_else(|| panic!("no {name}"))
}

const TREE: &str = r#"[
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
   "behaviors": ["Charging", "Timer", "Cool", "Machine", "Idle"]},
  {"behaviorID": "Charging", "behaviorClass": "Wait",
   "wantsToBeActivatedCondition": {"conditionType": "Compound",
     "and": [{"conditionType": "OnCharger"}, {"conditionType": "Compound", "not": {"conditionType": "TriggerWordPending"}}]},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}}},
  {"behaviorID": "Timer", "behaviorClass": "Wait", "respondToUserIntents": [{"type": "set_timer"}], "duration_s": 0.3},
  {"behaviorID": "Cool", "behaviorClass": "DispatcherStrictPriorityWithCooldown", "interruptActiveBehavior": false,
   "linkScope": true,
   "behaviors": [{"behavior": "Short", "cooldown_s": 5}]},
  {"behaviorID": "Short", "behaviorClass": "Wait", "duration_s": 0.2,
   "wantsToBeActivatedCondition": {"conditionType": "TriggerWordPending"}},
  {"behaviorID": "Machine", "behaviorClass": "InternalStates", "initialState": "A",
   "wantsToBeActivatedCondition": {"conditionType": "UserIntentPending", "list": [{"type": "imperative_come"}]},
   "states": [{"name": "A", "behavior": "WaitA"}, {"name": "B", "behavior": "WaitB"}],
   "transitionDefinitions": [
     {"from": "A", "interruptingTransitions": [{"to": "B", "condition": {"conditionType": "OnCharger"}}]}]},
  {"behaviorID": "WaitA", "behaviorClass": "Wait"},
  {"behaviorID": "WaitB", "behaviorClass": "Wait"},
  {"behaviorID": "Idle", "behaviorClass": "Wait"},
  {"behaviorID": "Mystery", "behaviorClass": "LookAroundInPlace", "params": {}, "respondToUserIntents": [{"type": "greeting_goodmorning"}]}
]"#;

fn runner() -> Runner<UserIntent> {
    let mut options = LoadOptions::with_stand_ins();
    options.keys = robot_runtime::behavior::KeyCheck::Lenient;
    run_with(TREE, "Root", &options)
}

#[test]
fn the_shape_names_classes_delegates_stand_ins_conditions_and_states() {
    let r = runner();
    let shape = inspect::shape(&r);
    assert_eq!(shape.base, id(&r, "Root"));
    assert_eq!(shape.nodes.len(), r.len());
    let node = |name: &str| &shape.nodes[id(&r, name).index()];
    assert_eq!(node("Root").class, "DispatcherStrictPriority");
    assert_eq!(
        node("Root").delegates,
        ["Charging", "Timer", "Cool", "Machine", "Idle"].map(|n| id(&r, n))
    );
    assert_eq!(node("Cool").linked, [id(&r, "Short")], "linkScope");
    assert_eq!(
        node("Charging").wants_condition.as_deref(),
        Some("and(OnCharger, not(TriggerWordPending))")
    );
    assert_eq!(
        node("Charging").cancel_condition.as_deref(),
        Some("not(OnCharger)")
    );
    assert_eq!(node("Timer").responds_to, ["set_timer"]);
    assert_eq!(
        node("Machine").states,
        [
            ("A".to_owned(), Some(id(&r, "WaitA"))),
            ("B".to_owned(), Some(id(&r, "WaitB")))
        ]
    );
    assert!(node("Mystery").stand_in && !node("Idle").stand_in);
    assert_eq!(node("Mystery").class, "LookAroundInPlace");
}

#[test]
fn statuses_say_scope_stack_answers_and_the_state_machines_state() {
    let mut r = runner();
    tick(&mut r, 2);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let all = inspect::statuses(&r);
    assert_eq!(all.len(), r.len());
    let st = |name: &str| all[id(&r, name).index()].clone();
    assert_eq!(st("Root").stack_pos, Some(0));
    assert_eq!(st("Idle").stack_pos, Some(1));
    assert!(st("Idle").active_for.is_some() && st("Charging").active_for.is_none());
    assert_eq!(st("Charging").state, LifecycleState::InScope);
    assert_eq!(st("WaitA").state, LifecycleState::OutOfScope);
    assert!(st("Idle").wants_to_run() && !st("Charging").wants_to_run());
    // Charging was asked and said no; the runner keeps that answer while the robot does not
    // change (the cached tick), and says so.
    assert_eq!(st("Charging").remembered, Some(false));
    assert_eq!(st("Charging").wanted_tick, None);
    // A change of an input it read: the kept answer no longer holds (asked again next tick).
    r.robot_mut().on_charger = true;
    assert_eq!(
        inspect::status(&r, id(&r, "Charging")).unwrap().remembered,
        None
    );
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Charging"]);
    let s = inspect::status(&r, id(&r, "Charging")).unwrap();
    assert!(s.wants && s.wanted_tick == Some(r.clock().tick()));
    // A state machine shows the state it holds, with its transitions' labels and values.
    r.robot_mut().on_charger = false;
    tick(&mut r, 1);
    r.intents_mut()
        .set_pending(UserIntent::ImperativeCome(Void {}), IntentSource::Dev);
    tick(&mut r, 2);
    assert_eq!(r.stack_names(), ["Root", "Machine", "WaitA"]);
    let m = inspect::status(&r, id(&r, "Machine")).unwrap();
    assert_eq!(m.debug_state, Some("A"));
    let why = inspect::why(&r, id(&r, "Machine")).unwrap();
    let t = why
        .conditions
        .iter()
        .find(|c| c.label == "A -> B (interruptingTransitions)")
        .unwrap();
    assert_eq!(
        (t.type_name.as_str(), t.last.map(|l| l.1)),
        ("OnCharger", Some(false))
    );
}

#[test]
fn an_inactive_cooldown_dispatcher_shows_its_childs_cooldown() {
    let mut r = runner();
    tick(&mut r, 1);
    r.intents_mut().set_trigger_word_pending(false, false);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "Cool", "Short"]);
    // Short ends after 0.2 s; its cooldown (5 s) starts; Cool (linkScope) no longer wants to
    // run and Root goes back to Idle. Cool is in scope, not active: Short's cooldown shows.
    let mut seen = Vec::new();
    for _ in 0..8 {
        tick(&mut r, 1);
        seen.push(r.stack_names().join("/"));
    }
    assert_eq!(r.stack_names(), ["Root", "Idle"], "{seen:?}");
    assert_eq!(r.state(id(&r, "Cool")), Some(LifecycleState::InScope));
    let short = inspect::status(&r, id(&r, "Short")).unwrap();
    let left = short.cooling_down.expect("on cooldown");
    assert!(
        left > Duration::from_secs(4) && left <= Duration::from_secs(5),
        "{left:?}"
    );
    assert_eq!(
        inspect::statuses(&r)[id(&r, "Short").index()].cooling_down,
        Some(left),
        "statuses and status agree"
    );
}

#[test]
fn why_reports_gates_intents_and_conditions_with_their_parameters() {
    let mut r = runner();
    tick(&mut r, 1);
    let timer = inspect::why(&r, id(&r, "Timer")).unwrap();
    assert_eq!(timer.intent_pending, Some(false));
    assert!(timer.gates.iter().all(|g| g.open));
    r.intents_mut().set_pending(
        UserIntent::SetTimer(robot_runtime_tests::TimeInSeconds { time_s: 60 }),
        IntentSource::Dev,
    );
    assert_eq!(
        inspect::why(&r, id(&r, "Timer")).unwrap().intent_pending,
        Some(true),
        "read now (no evaluation: the component is looked at)"
    );
    let charging = inspect::why(&r, id(&r, "Charging")).unwrap();
    let wants: &ConditionReport = &charging.conditions[0];
    assert_eq!(wants.label, "wantsToBeActivatedCondition");
    assert_eq!(wants.type_name, "Compound");
    assert_eq!(wants.last.map(|l| l.1), Some(false));
    assert_eq!(wants.children[0].type_name, "OnCharger");
    assert_eq!(
        wants.children[1].children[0].type_name,
        "TriggerWordPending"
    );
    // Parameters as text.
    let pending = robot_runtime::behavior::Condition::<UserIntent>::intent_pending([
        robot_runtime::intent::IntentMatcher::Tag(robot_runtime_tests::UserIntentTag::SetTimer),
    ]);
    assert_eq!(inspect::condition_detail(&pending), "[set_timer]");
    assert_eq!(
        inspect::condition_text(&pending),
        "UserIntentPending [set_timer]"
    );
    let cd = inspect::children(&r, id(&r, "Root"));
    assert_eq!(cd.len(), 5);
}

#[test]
fn the_delegation_path_is_the_stack_forcing_builds() {
    let mut r = runner();
    tick(&mut r, 1);
    let wait_b = id(&r, "WaitB");
    let path = r.delegation_path(wait_b).unwrap();
    assert_eq!(path, [id(&r, "Root"), id(&r, "Machine"), wait_b]);
    r.force_behavior(wait_b).unwrap();
    assert_eq!(r.stack().collect::<Vec<_>>(), path);
    assert_eq!(r.delegation_path(id(&r, "Mystery")), None, "not reachable");
    assert_eq!(r.delegation_path(BehaviorId::from_index(999)), None);
    assert!(r.force_behavior(id(&r, "Mystery")).is_err());
}

/// A dispatcher whose file lists its children in another order than the tree loads them
/// (and one twice): every tool's view says the declared order, each child once; the runner's
/// own work (scope) is the same as before.
const OUT_OF_ORDER: &str = r#"[
  {"behaviorID": "Early", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
   "behaviors": ["Deep"], "wantsToBeActivatedCondition": {"conditionType": "OnCharger"}},
  {"behaviorID": "Deep", "behaviorClass": "Wait"},
  {"behaviorID": "Middle", "behaviorClass": "Wait"},
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
   "behaviors": ["Late", "Early", "Middle"]},
  {"behaviorID": "Late", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
   "behaviors": ["Deep", "Middle"], "wantsToBeActivatedCondition": {"conditionType": "OnCharger"}},
  {"behaviorID": "Machine", "behaviorClass": "InternalStates", "initialState": "S",
   "states": [{"name": "S", "behavior": "Middle"}, {"name": "T", "behavior": "Early"}, {"name": "U", "behavior": "Middle"}],
   "transitionDefinitions": []}
]"#;

#[test]
fn delegates_are_in_declared_order_everywhere_tools_look() {
    let mut options = LoadOptions::with_stand_ins();
    options.keys = robot_runtime::behavior::KeyCheck::Lenient;
    let mut r = run_with(OUT_OF_ORDER, "Root", &options);
    let ids =
        |r: &Runner<UserIntent>, names: &[&str]| names.iter().map(|n| id(r, n)).collect::<Vec<_>>();
    // Loaded in file order: Early (0), Deep (1), Middle (2), Root (3), Late (4), Machine (5).
    assert!(id(&r, "Early") < id(&r, "Late"));
    assert_eq!(
        r.delegates(id(&r, "Root")),
        ids(&r, &["Late", "Early", "Middle"])
    );
    // Repeated in the declaration: listed once, where it is first named.
    assert_eq!(
        r.delegates(id(&r, "Machine")),
        ids(&r, &["Middle", "Early"])
    );
    let shape = inspect::shape(&r);
    assert_eq!(
        shape.nodes[id(&r, "Root").index()].delegates,
        ids(&r, &["Late", "Early", "Middle"])
    );
    tick(&mut r, 1);
    let why: Vec<BehaviorId> = inspect::children(&r, id(&r, "Root"))
        .iter()
        .map(|c| c.status.id)
        .collect();
    assert_eq!(why, ids(&r, &["Late", "Early", "Middle"]));
    // Forcing takes the first declared of two chains of one length (Late before Early,
    // though Early loaded first).
    assert_eq!(
        r.delegation_path(id(&r, "Deep")).unwrap(),
        ids(&r, &["Root", "Late", "Deep"])
    );
    // DOT and Mermaid list a dispatcher's edges in its order.
    let dot = robot_runtime::behavior::export::to_dot(&r);
    let root = id(&r, "Root").index();
    let edges: Vec<&str> = dot
        .lines()
        .filter(|l| l.trim_start().starts_with(&format!("n{root} -> ")))
        .collect();
    let want: Vec<String> = ids(&r, &["Late", "Early", "Middle"])
        .iter()
        .map(|d| format!("n{root} -> n{}", d.index()))
        .collect();
    assert_eq!(edges.len(), 3, "{dot}");
    for (e, w) in edges.iter().zip(&want) {
        assert!(e.trim_start().starts_with(w.as_str()), "{e} / {w}");
    }
    let mermaid = robot_runtime::behavior::export::to_mermaid(&r);
    let arrows: Vec<&str> = mermaid
        .lines()
        .filter(|l| l.trim_start().starts_with(&format!("n{root} ")))
        .filter(|l| l.contains("->") || l.contains("==>"))
        .collect();
    assert_eq!(arrows.len(), 3, "{mermaid}");
    for (a, d) in arrows.iter().zip(ids(&r, &["Late", "Early", "Middle"])) {
        assert!(a.trim_end().ends_with(&format!("n{}", d.index())), "{a}");
    }
}

#[test]
fn change_stamps_say_when_each_input_last_changed() {
    let mut r = runner();
    tick(&mut r, 2);
    let before = r.revision();
    assert_eq!(
        r.changed_at(original_behaviors::inputs::ON_CHARGER),
        0,
        "never changed"
    );
    // Changed between ticks: counted at once (not compared yet), then stamped by the tick
    // with the revision of the change.
    r.robot_mut().on_charger = true;
    let now = r.changed_at(original_behaviors::inputs::ON_CHARGER);
    assert!(now > before && now == r.revision(), "{before} {now}");
    assert_eq!(
        r.changed_at(original_behaviors::inputs::BATTERY),
        0,
        "another field did not move"
    );
    tick(&mut r, 1);
    let stamped = r.changed_at(original_behaviors::inputs::ON_CHARGER);
    assert!(stamped > before && stamped <= r.revision());
    tick(&mut r, 3);
    assert_eq!(
        r.changed_at(original_behaviors::inputs::ON_CHARGER),
        stamped,
        "nothing changed since"
    );
    // A borrow that changes nothing stamps nothing.
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    assert_eq!(
        r.changed_at(original_behaviors::inputs::ON_CHARGER),
        stamped
    );
    assert_eq!(
        r.changed_at(original_behaviors::inputs::ON_CHARGER | original_behaviors::inputs::BATTERY),
        stamped,
        "the latest of a set"
    );
    // What moved after a revision, in one question.
    let rev = r.revision();
    assert!(r.changed_since(rev).is_empty());
    r.robot_mut().battery_level = original_behaviors::robot_state::BatteryLevel::Low;
    assert_eq!(
        r.changed_since(rev),
        original_behaviors::inputs::BATTERY,
        "not compared yet: counted"
    );
    tick(&mut r, 1);
    assert_eq!(
        r.changed_since(rev),
        original_behaviors::inputs::BATTERY,
        "stamped"
    );
    assert!(r
        .changed_since(before)
        .intersects(original_behaviors::inputs::ON_CHARGER));
    assert!(r.changed_since(r.revision()).is_empty());
}

/// What the runner does, observably, after a tick.
fn observed(r: &Runner<UserIntent>) -> String {
    let conditions: Vec<_> = (0..r.len())
        .map(BehaviorId::from_index)
        .map(|id| {
            let (w, c) = r.conditions(id);
            (w.and_then(|c| c.last()), c.and_then(|c| c.last()))
        })
        .collect();
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?}",
        r.stack_names(),
        r.intent_events(),
        conditions,
        r.next_wakeup(),
        (0..r.len())
            .map(|i| r.wanted_on_tick(BehaviorId::from_index(i)))
            .collect::<Vec<_>>(),
        r.robot()
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// A runner inspected from top to bottom between every two ticks (every status, every
    /// behavior's why, the shape, every delegation path) does exactly what an uninspected
    /// twin does: same stacks, intent events, conditions' last values, wake-ups, answers.
    #[test]
    fn inspecting_between_ticks_changes_nothing(
        seed in any::<u64>(),
        files in 40usize..100,
        steps in proptest::collection::vec((change(), 1u64..30), 5..30),
    ) {
        let tree = shaped_tree::varied_tree(files, seed);
        let sources: Vec<Source<'_>> = tree.iter().map(|(n, t)| Source::new(n, t)).collect();
        let make = || {
            let t = load_tree(&original_behaviors::registry(), &sources, "InitNormalOperation",
                &LoadOptions::with_stand_ins()).unwrap();
            let mut r = Runner::<UserIntent>::new(t, IntentComponent::new(&MAP));
            r.set_seed(seed);
            r
        };
        let (mut plain, mut looked_at) = (make(), make());
        let _ = inspect::shape(&looked_at);
        for (c, gap) in &steps {
            apply(&mut plain, c);
            apply(&mut looked_at, c);
            for _ in 0..*gap {
                let _ = inspect::statuses(&looked_at);
                for i in 0..looked_at.len() {
                    let b = BehaviorId::from_index(i);
                    let _ = (inspect::why(&looked_at, b), looked_at.delegation_path(b));
                }
                plain.tick(DT, &[]);
                looked_at.tick(DT, &[]);
                prop_assert_eq!(observed(&plain), observed(&looked_at));
            }
        }
    }
}

/// Everything the fingerprint stands for: while only time moves it stays, and each thing a
/// report shows changing changes it (a cooldown starting, the stack, a condition's value, a
/// gate); asked of the same state twice it is the same bytes.
#[test]
fn the_fingerprint_moves_with_the_state_not_the_clock() {
    let mut r = runner();
    let print = |r: &Runner<UserIntent>| {
        let mut h = Recorder::default();
        let explained: Vec<BehaviorId> = r.delegates(id(r, "Root")).to_vec();
        inspect::fingerprint(r, &explained, &mut h);
        h.0
    };
    tick(&mut r, 3);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let idle = print(&r);
    assert_eq!(print(&r), idle, "asking twice");
    tick(&mut r, 20);
    assert_eq!(print(&r), idle, "two seconds of Idle: only the clock moved");
    // A gate and a condition's value: on the charger, Charging wants to run and runs.
    r.robot_mut().on_charger = true;
    tick(&mut r, 1);
    assert_ne!(print(&r), idle);
    assert_eq!(r.stack_names(), ["Root", "Charging"]);
    // The tick after: Charging is no longer asked whether it wants to run (it runs), and
    // its conditions were last evaluated on its first tick: facts that changed.
    tick(&mut r, 1);
    let charging = print(&r);
    tick(&mut r, 5);
    assert_eq!(print(&r), charging, "charging, only time moved");
    // Back to Idle: the same facts as before, though time has passed.
    r.robot_mut().on_charger = false;
    tick(&mut r, 2);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    assert_ne!(print(&r), charging);
    // A cooldown starting: Short runs on a trigger word, ends, and cools down in Cool.
    r.intents_mut().set_trigger_word_pending(true, false);
    tick(&mut r, 1);
    r.intents_mut().set_trigger_word_pending(false, false);
    tick(&mut r, 10);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    let cooling = print(&r);
    assert!(inspect::status(&r, id(&r, "Short"))
        .unwrap()
        .cooling_down
        .is_some());
    tick(&mut r, 5);
    assert_eq!(print(&r), cooling, "cooling down: only the time left moved");
}

/// A hasher that keeps what it is fed.
#[derive(Default)]
struct Recorder(Vec<u8>);

impl std::hash::Hasher for Recorder {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn finish(&self) -> u64 {
        self.0.len() as u64
    }
}
