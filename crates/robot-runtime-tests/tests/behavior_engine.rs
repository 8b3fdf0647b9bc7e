//! The behavior engine without the original engine's library (what a ROS4HRI robot
//! builds): a robot's own world ([`World`]: gates, change stamps, the base keys' effects),
//! its own classes and condition types ([`ConditionType`] parsed through a
//! [`ConditionCx`]), the registry's vocabularies and what the loader does without them, and
//! class metadata ([`ClassInfo`]: stand-ins, reference keys, hard-coded IDs).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use robot_runtime::behavior::{
    inspect, load, load_tree, Behavior, BehaviorId, BuildCx, ClassInfo, ConditionCx, ConditionType,
    EvalCx, Inputs, IntentUnion, LoadOptions, OperationModifiers, ReferenceKey, Registry,
    Resolution, Role, Runner, Source, Vocabulary, Wakeup, Watch, World,
};
use robot_runtime::intent::{IntentComponent, IntentSource};
use robot_runtime_tests::{UserIntent, Void, MAP};

const DT: Duration = Duration::from_millis(100);

/// A lamp's world: whether it is on, whether it is docked, and a log of what the runtime
/// asked of it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Lamp {
    on: bool,
    docked: bool,
    log: Vec<String>,
}

const LIGHT: Inputs = Inputs::world(0);
const DOCK: Inputs = Inputs::world(1);

impl World for Lamp {
    fn set_clock(&mut self, _now: Duration, _tick: u64) {}
    /// Docked: the "on the charger" gate (2).
    fn blocking(&self) -> u8 {
        if self.docked {
            2
        } else {
            0
        }
    }
    fn blocking_inputs(&self, _gates: u8) -> Inputs {
        DOCK
    }
    fn clone_world(&self) -> Box<dyn World> {
        Box::new(self.clone())
    }
    fn changed_inputs(&self, before: &dyn World) -> Inputs {
        match (before as &dyn std::any::Any).downcast_ref::<Lamp>() {
            Some(b) => {
                let mut c = Inputs::NONE;
                if b.on != self.on {
                    c |= LIGHT;
                }
                if b.docked != self.docked {
                    c |= DOCK;
                }
                c
            }
            None => Inputs::WORLD,
        }
    }
    fn reset_timer(&mut self, index: usize) {
        self.log.push(format!("timer {index}"));
    }
    fn offer_suggestion(&mut self, index: usize, tick: u64) {
        self.log.push(format!("suggestion {index} at {tick}"));
    }
    fn emotion_event(&mut self, name: &str) {
        self.log.push(format!("emotion {name}"));
    }
    fn intent_pending(&mut self, tag: &str) {
        self.log.push(format!("pending {tag}"));
    }
}

/// `{"conditionType": "LampOn", "expected": true}`, counting its evaluations.
struct LampOn {
    expected: bool,
    evaluations: Arc<AtomicUsize>,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for LampOn {
    fn name(&self) -> &str {
        "LampOn"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        cx.world::<Lamp>().is_some_and(|l| l.on) == self.expected
    }
    fn inputs(&self) -> Inputs {
        LIGHT
    }
    fn next_change(&self, _cx: &EvalCx<'_, U, E>, _was_true: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        format!("= {}", self.expected)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(LampOn {
            expected: self.expected,
            evaluations: self.evaluations.clone(),
        })
    }
}

/// `{"conditionType": "Both", "first": .., "second": ..}`: two nested conditions.
struct Both<U: IntentUnion, E: 'static>([robot_runtime::behavior::Condition<U, E>; 2]);

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for Both<U, E> {
    fn name(&self) -> &str {
        "Both"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let a = self.0[0].eval(cx);
        let b = self.0[1].eval(cx);
        a && b
    }
    fn inputs(&self) -> Inputs {
        self.0[0].inputs() | self.0[1].inputs()
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _was_true: bool) -> Wakeup {
        self.0[0].next_change(cx).min(self.0[1].next_change(cx))
    }
    fn children(&self) -> &[robot_runtime::behavior::Condition<U, E>] {
        &self.0
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(Both(self.0.clone()))
    }
}

/// Shines until cancelled (it does not delegate).
struct Glow;

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Glow {
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = false;
    }
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &robot_runtime::behavior::View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    fn next_wakeup(&self, _view: &robot_runtime::behavior::View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
}

fn lamp_registry(evaluations: &Arc<AtomicUsize>) -> Registry<UserIntent> {
    let mut r = Registry::new();
    r.register_class("Glow", |_cx| Some(Box::new(Glow)));
    let counter = evaluations.clone();
    r.register_condition_type("LampOn", move |cx: &mut ConditionCx<'_, UserIntent, ()>| {
        let (keys, mut sink) = cx.keys();
        let expected = keys.bool(&mut sink, "expected", true);
        Some(Box::new(LampOn {
            expected,
            evaluations: counter.clone(),
        }))
    });
    r.register_condition_type("Both", |cx: &mut ConditionCx<'_, UserIntent, ()>| {
        let (keys, mut sink) = cx.keys();
        let first = keys.required(&mut sink, "first");
        let second = keys.required(&mut sink, "second");
        let first = cx.condition(first?, "first");
        let second = cx.condition(second?, "second");
        Some(Box::new(Both([first?, second?])))
    });
    r.set_vocabulary(Vocabulary::Timers, ["Blink"])
        .set_vocabulary(Vocabulary::Suggestions, ["Rest"])
        .set_world(Lamp::default);
    r
}

fn lamp(r: &Runner<UserIntent>) -> &Lamp {
    r.world::<Lamp>().expect("the registry's world")
}

const GLOW: &str = r#"{"behaviorID": "Glow", "behaviorClass": "Glow",
  "wantsToBeActivatedCondition": {"conditionType": "LampOn"},
  "wantsToCancelSelfCondition": {"conditionType": "LampOn", "expected": false},
  "behaviorModifiers": {"wantsToBeActivatedWhenOnCharger": false},
  "resetTimers": ["Blink"], "postBehaviorSuggestion": "Rest", "emotionEventOnActivated": "Joy"}"#;

#[test]
fn a_robot_of_its_own_runs_on_its_world_with_cached_answers_and_the_base_keys_effects() {
    let evaluations = Arc::new(AtomicUsize::new(0));
    let tree = load_tree(
        &lamp_registry(&evaluations),
        &[Source::new("glow.json", GLOW)],
        "Glow",
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut r = Runner::new(tree, IntentComponent::new(&MAP));
    assert!(r.world::<()>().is_none());
    r.tick(DT, &[]);
    assert!(r.stack_names().is_empty(), "the lamp is off");
    let asked = evaluations.load(Ordering::Relaxed);
    assert!(asked >= 1);
    // Nothing it reads changes: its answer is reused, its condition not evaluated again.
    for _ in 0..20 {
        r.tick(DT, &[]);
    }
    assert_eq!(evaluations.load(Ordering::Relaxed), asked);
    // Docked and on: the "on the charger" gate blocks it.
    r.world_mut::<Lamp>().unwrap().docked = true;
    r.world_mut::<Lamp>().unwrap().on = true;
    r.tick(DT, &[]);
    assert!(r.stack_names().is_empty(), "docked");
    let glow = r.id("Glow").unwrap();
    let why = inspect::why(&r, glow).unwrap();
    assert!(why.gates.iter().any(|g| g.name == "on charger" && !g.open));
    // Undocked: it activates, with its base keys' effects on the world.
    r.world_mut::<Lamp>().unwrap().docked = false;
    r.tick(DT, &[]);
    assert_eq!(r.stack_names(), ["Glow"]);
    assert_eq!(lamp(&r).log, ["timer 0", "emotion Joy"]);
    // A pending intent is told to the world at the start of the tick that delivers it.
    r.intents_mut().set_pending(
        UserIntent::GreetingGoodmorning(Void {}),
        IntentSource::Voice,
    );
    r.tick(DT, &[]);
    assert_eq!(lamp(&r).log.last().unwrap(), "pending greeting_goodmorning");
    // Off: its cancel condition ends it, and its suggestion is offered.
    r.world_mut::<Lamp>().unwrap().on = false;
    r.tick(DT, &[]);
    assert!(r.stack_names().is_empty());
    let tick = r.clock().tick();
    assert_eq!(
        lamp(&r).log.last().unwrap(),
        &format!("suggestion 0 at {tick}")
    );
    assert_eq!(r.errors(), []);
    r.check_invariants().unwrap();
    // The type's text is what inspection shows.
    let (wants, _) = r.conditions(glow);
    assert_eq!(inspect::condition_text(wants.unwrap()), "LampOn = true");
}

#[test]
fn a_world_given_to_the_runner_replaces_the_registrys() {
    let evaluations = Arc::new(AtomicUsize::new(0));
    let tree = load_tree(
        &lamp_registry(&evaluations),
        &[Source::new("glow.json", GLOW)],
        "Glow",
        &LoadOptions::default(),
    )
    .unwrap();
    let on = Lamp {
        on: true,
        ..Lamp::default()
    };
    let mut r = Runner::with_world(tree, IntentComponent::new(&MAP), Box::new(on));
    r.tick(DT, &[]);
    assert_eq!(r.stack_names(), ["Glow"]);
    // A world of another type: the condition reads nothing, the lamp is "off".
    r.set_world(Box::new(()));
    r.tick(DT, &[]);
    assert!(r.stack_names().is_empty());
    assert!(r.dyn_world().blocking() == 0);
}

fn problems_of(registry: &Registry<UserIntent>, tree: &str, options: &LoadOptions) -> Vec<String> {
    match load_tree(registry, &[Source::new("root.json", tree)], "Root", options) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .errors()
            .map(|p| format!("{}: {}", p.path, p.kind))
            .collect(),
    }
}

#[test]
fn without_vocabularies_keys_the_world_acts_on_are_errors_and_checked_keys_take_any_name() {
    let mut bare = Registry::<UserIntent>::new();
    bare.register_class("Glow", |_cx| Some(Box::new(Glow)));
    let tree = r#"{"behaviorID": "Root", "behaviorClass": "Glow",
      "resetTimers": ["Blink"], "postBehaviorSuggestion": "Rest",
      "behaviorStatToIncrement": "Anything", "tracksToLockWhileActivated": ["ANY_TRACK"],
      "alterStreamAfterWakeword": "AnyEffect", "associatedActiveFeature": "AnyFeature"}"#;
    assert_eq!(
        problems_of(&bare, tree, &LoadOptions::default()),
        [
            "$.resetTimers: bad `resetTimers`: this robot has no behavior timers (the registry has no vocabulary of them)",
            "$.postBehaviorSuggestion: bad `postBehaviorSuggestion`: this robot has no post-behavior suggestions (the registry has no vocabulary of them)",
        ]
    );
    // Nothing to act on: no error.
    let empty = r#"{"behaviorID": "Root", "behaviorClass": "Glow", "resetTimers": []}"#;
    assert_eq!(
        problems_of(&bare, empty, &LoadOptions::default()),
        [] as [&str; 0]
    );
    // With the vocabularies, every name is checked.
    let mut full = Registry::<UserIntent>::new();
    full.register_class("Glow", |_cx| Some(Box::new(Glow)));
    full.set_vocabulary(Vocabulary::Timers, ["Blink"])
        .set_vocabulary(Vocabulary::Suggestions, ["Rest"])
        .set_vocabulary(Vocabulary::Stats, ["Shone"])
        .set_vocabulary(Vocabulary::AnimTracks, ["LIGHT_TRACK"])
        .set_vocabulary(Vocabulary::StreamEffects, ["Glowing"])
        .set_vocabulary(Vocabulary::ActiveFeatures, ["Lighting"]);
    assert_eq!(
        problems_of(&full, tree, &LoadOptions::default()),
        [
            "$.behaviorStatToIncrement: bad `behaviorStatToIncrement`: unknown name `Anything` (expected one of Shone)",
            "$.tracksToLockWhileActivated[0]: bad `tracksToLockWhileActivated[0]`: unknown name `ANY_TRACK` (expected one of LIGHT_TRACK)",
            "$.alterStreamAfterWakeword: bad `alterStreamAfterWakeword`: unknown name `AnyEffect` (expected one of Glowing)",
            "$.associatedActiveFeature: bad `associatedActiveFeature`: unknown name `AnyFeature` (expected one of Lighting)",
        ]
    );
    let good = r#"{"behaviorID": "Root", "behaviorClass": "Glow",
      "resetTimers": ["Blink"], "postBehaviorSuggestion": "Rest",
      "behaviorStatToIncrement": "Shone", "tracksToLockWhileActivated": ["LIGHT_TRACK"],
      "alterStreamAfterWakeword": "Glowing", "associatedActiveFeature": "Lighting"}"#;
    assert_eq!(
        problems_of(&full, good, &LoadOptions::default()),
        [] as [&str; 0]
    );
}

#[test]
fn registered_condition_types_report_at_their_paths_and_unknown_ones_get_suggestions() {
    let registry = lamp_registry(&Arc::new(AtomicUsize::new(0)));
    let tree = r#"{"behaviorID": "Root", "behaviorClass": "Glow",
      "wantsToBeActivatedCondition": {"conditionType": "Both",
        "first": {"conditionType": "LampOn", "expected": "yes", "shade": 1},
        "second": {"conditionType": "lampon"}}}"#;
    let got = match load(
        &registry,
        &[Source::new("root.json", tree)],
        "Root",
        &LoadOptions::default(),
    ) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.problems,
    };
    let got: Vec<String> = got
        .iter()
        .map(|p| {
            format!(
                "{}{}: {}",
                if p.is_error() { "" } else { "warning: " },
                p.path,
                p.kind
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "$.wantsToBeActivatedCondition.first.expected: `expected` must be a boolean",
            "warning: $.wantsToBeActivatedCondition.first.shade: unknown key `shade`",
            "$.wantsToBeActivatedCondition.second.conditionType: bad condition: unknown condition type `lampon` (did you mean LampOn?)",
        ]
    );
    // A condition-type vocabulary: a name it has and no parser handles is a stand-in.
    let mut known = lamp_registry(&Arc::new(AtomicUsize::new(0)));
    known.set_vocabulary(Vocabulary::ConditionTypes, ["LampOn", "Both", "Dim"]);
    let dim = r#"{"behaviorID": "Root", "behaviorClass": "Glow",
      "wantsToBeActivatedCondition": {"conditionType": "Dim", "level": 3}}"#;
    assert_eq!(
        problems_of(&known, dim, &LoadOptions::default()),
        ["$.wantsToBeActivatedCondition.conditionType: bad condition: condition type `Dim` of the original engine does not run natively here (load with stand-ins)"]
    );
    let tree = load_tree(
        &known,
        &[Source::new("tree.json", dim)],
        "Root",
        &LoadOptions::with_stand_ins(),
    )
    .unwrap();
    let r = Runner::new(tree, IntentComponent::new(&MAP));
    let (wants, _) = r.conditions(r.id("Root").unwrap());
    assert_eq!(
        inspect::condition_text(wants.unwrap()),
        "Dim stand-in, always false"
    );
    // Nested conditions are walked: the type's children.
    let both = r#"{"behaviorID": "Root", "behaviorClass": "Glow",
      "wantsToBeActivatedCondition": {"conditionType": "Both",
        "first": {"conditionType": "LampOn"}, "second": {"conditionType": "TrueCondition"}}}"#;
    let tree = load_tree(
        &registry,
        &[Source::new("tree.json", both)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    let r = Runner::new(tree, IntentComponent::new(&MAP));
    let (wants, _) = r.conditions(r.id("Root").unwrap());
    assert_eq!(
        inspect::condition_text(wants.unwrap()),
        "Both(LampOn = true, TrueCondition)"
    );
}

/// A class of another engine this robot only knows by name: what a stand-in factory does.
fn legacy(cx: &mut BuildCx<'_, UserIntent, ()>) -> Option<Box<dyn Behavior<UserIntent>>> {
    let keys = cx.reference_keys();
    let resolved = cx.resolve_reference_keys(keys);
    assert!(resolved.iter().all(|(k, _)| k.key == "delegateID"));
    cx.keep_raw_params();
    Some(Box::new(Glow))
}

const LEGACY_KEYS: &[ReferenceKey] =
    &[ReferenceKey::new("delegateID", Resolution::GlobalOnly).required()];

#[test]
fn classes_registered_as_stand_ins_need_stand_ins_their_references_and_their_hard_coded_ids() {
    let mut registry = Registry::<UserIntent>::new();
    registry.register_class("Glow", |_cx| Some(Box::new(Glow)));
    registry.register_class_with(
        "Legacy",
        ClassInfo {
            reference_keys: LEGACY_KEYS,
            hard_coded_ids: &["Helper"],
            hard_coded_role: Role::Delegate,
            stand_in: true,
        },
        Arc::new(legacy),
    );
    let tree = r#"[{"behaviorID": "Root", "behaviorClass": "Legacy", "delegateID": "Other", "mood": 3},
      {"behaviorID": "Other", "behaviorClass": "Glow"}]"#;
    assert_eq!(
        problems_of(&registry, tree, &LoadOptions::default()),
        ["$[0].behaviorClass: class `Legacy` of the original engine does not run natively here (load with stand-ins)"]
    );
    assert_eq!(
        problems_of(&registry, tree, &LoadOptions::with_stand_ins()),
        ["$[0].behaviorClass: class `Legacy` needs a behavior `Helper` in the tree (its code names it)"]
    );
    let no_delegate = r#"[{"behaviorID": "Root", "behaviorClass": "Legacy"},
      {"behaviorID": "Helper", "behaviorClass": "Glow"}]"#;
    assert_eq!(
        problems_of(&registry, no_delegate, &LoadOptions::with_stand_ins()),
        ["$[0]: missing key `delegateID`"]
    );
    let whole = r#"[{"behaviorID": "Root", "behaviorClass": "Legacy", "delegateID": "Other", "mood": 3},
      {"behaviorID": "Other", "behaviorClass": "Glow"}, {"behaviorID": "Helper", "behaviorClass": "Glow"}]"#;
    let loaded = load(
        &registry,
        &[Source::new("tree.json", whole)],
        "Root",
        &LoadOptions::with_stand_ins(),
    )
    .unwrap();
    assert!(!loaded.report.classes["Legacy"].native);
    assert!(loaded.report.classes["Glow"].native);
    let r = Runner::new(loaded.tree, IntentComponent::new(&MAP));
    let root = r.id("Root").unwrap();
    assert!(r.is_stand_in(root));
    assert_eq!(r.raw_params(root), Some(&serde_json::json!({"mood": 3})));
    // The stand-in declares the hard-coded delegate (for the cycle check and tools).
    assert_eq!(r.class(root), Some("Legacy"));
    // A user class of the same name is its own code: no hard-coded ID, not a stand-in.
    registry.register_class("Legacy", |_cx| Some(Box::new(Glow)));
    let plain = r#"{"behaviorID": "Root", "behaviorClass": "Legacy"}"#;
    let loaded = load(
        &registry,
        &[Source::new("tree.json", plain)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    assert!(loaded.report.classes["Legacy"].native);
    assert!(registry.class_info("Legacy").is_none());
}
