//! The behavior system (`robot_runtime::behavior`) over the generated test union
//! `UserIntent` (`schemas/test_user_intent.clad`) and its map: the runner's lifecycle rules,
//! scoped effects, continuations and events with scriptable probe behaviors; the built-in
//! classes through JSON; the loader's problems; coverage and the completed-intents table;
//! a property test of random trees and event streams.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use original_behaviors::{
    QueueDispatcher, RerunDispatcher, RobotAccessMut, StrictPriorityDispatcher,
};
use robot_runtime::behavior::*;
use robot_runtime::intent::{IntentComponent, IntentMatcher, IntentSource};
use robot_runtime_tests::clad::UserIntentTimeInSeconds;
use robot_runtime_tests::{UserIntent, UserIntentTag, Void, MAP};

type Ti = UserIntent;
type TiTag = UserIntentTag;

fn component() -> IntentComponent<UserIntent> {
    IntentComponent::new(&MAP)
}

const DT: Duration = Duration::from_millis(60);

// ----- a scriptable probe behavior -------------------------------------------------------------

#[derive(Clone, Debug)]
enum Step {
    Delegate(BehaviorId, Continuation),
    DelegateNow(BehaviorId),
    Action(u64, Continuation),
    CancelDelegates(bool),
    CancelSelf,
    Fail,
    ActivateIntent(TiTag),
    Hold,
    Suppress,
    Cleanup(&'static str),
}

#[derive(Default)]
struct Knobs {
    wants: bool,
    on_activated: Vec<Step>,
    next_update: Vec<Step>,
    results: Vec<Result<(), RunnerError>>,
}

type Log = Arc<Mutex<Vec<String>>>;

struct Probe {
    name: &'static str,
    delegates: Vec<BehaviorId>,
    always: bool,
    knobs: Arc<Mutex<Knobs>>,
    log: Log,
    scopes: EventScopes,
}

impl Probe {
    fn run(&self, steps: Vec<Step>, ctx: &mut Ctx<'_, Ti>) {
        for s in steps {
            let r = match s {
                Step::Delegate(t, k) => ctx.delegate_if_in_control(t, k),
                Step::DelegateNow(t) => ctx.delegate_now(t, Continuation::None),
                Step::Action(ms, k) => {
                    ctx.delegate_action(Box::new(WaitFor::new(Duration::from_millis(ms))), k)
                }
                Step::CancelDelegates(c) => ctx.cancel_delegates(c).map(|_| ()),
                Step::CancelSelf => ctx.cancel_self(),
                Step::Fail => ctx.fail("scripted"),
                Step::ActivateIntent(t) => ctx
                    .activate_intent(&IntentMatcher::Tag(t))
                    .map(|_| ())
                    .map_err(|_| RunnerError::NotActive { behavior: ctx.me() }),
                Step::Hold => {
                    ctx.hold_timeout();
                    Ok(())
                }
                Step::Suppress => {
                    ctx.suppress_trigger_word();
                    Ok(())
                }
                Step::Cleanup(label) => {
                    let log = self.log.clone();
                    ctx.on_deactivation(move |_| {
                        log.lock().unwrap().push(format!("cleanup:{label}"))
                    });
                    Ok(())
                }
            };
            self.knobs.lock().unwrap().results.push(r);
        }
    }
    fn note(&self, what: &str) {
        self.log
            .lock()
            .unwrap()
            .push(format!("{}:{what}", self.name));
    }
}

impl Behavior<Ti> for Probe {
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = self.always;
    }
    fn event_scopes(&self) -> EventScopes {
        self.scopes
    }
    fn wants_to_be_activated(&self, _view: &View<'_, Ti>) -> bool {
        self.knobs.lock().unwrap().wants
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, Ti>) {
        self.note("activated");
        let steps = std::mem::take(&mut self.knobs.lock().unwrap().on_activated);
        self.run(steps, ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, Ti>) {
        self.note(if ctx.is_active() {
            "update"
        } else {
            "update_in_scope"
        });
        let steps = std::mem::take(&mut self.knobs.lock().unwrap().next_update);
        self.run(steps, ctx);
    }
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, Ti>) {
        self.note("deactivated");
    }
    fn on_entered_scope(&mut self, _ctx: &mut Ctx<'_, Ti>) {
        self.note("entered");
    }
    fn on_left_scope(&mut self, _ctx: &mut Ctx<'_, Ti>) {
        self.note("left");
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        outcome: DelegationOutcome,
        _ctx: &mut Ctx<'_, Ti>,
    ) {
        self.note(&format!("done{step}:{outcome:?}"));
    }
    fn handle_event(
        &mut self,
        event: BehaviorEvent<'_, TiTag, ()>,
        scope: EventScope,
        _ctx: &mut Ctx<'_, Ti>,
    ) {
        if let BehaviorEvent::Intent(e) = event {
            self.note(&format!("event:{scope:?}:{}", e.name()));
        }
    }
}

struct Harness {
    runner: Runner<Ti>,
    knobs: Vec<Arc<Mutex<Knobs>>>,
    log: Log,
}

/// Builds probes: `(name, delegates by index, always_delegates, wants)`, base = first.
fn harness(specs: &[(&'static str, &[usize], bool, bool)], respond: &[(usize, TiTag)]) -> Harness {
    let log: Log = Arc::default();
    let mut b = TreeBuilder::<Ti>::new();
    let mut knobs = Vec::new();
    for (i, (name, ds, always, wants)) in specs.iter().enumerate() {
        let k = Arc::new(Mutex::new(Knobs {
            wants: *wants,
            ..Knobs::default()
        }));
        knobs.push(k.clone());
        let mut spec = Spec::new("Probe");
        spec.respond = respond
            .iter()
            .filter(|(j, _)| *j == i)
            .map(|(_, t)| IntentMatcher::Tag(*t))
            .collect();
        b.add(
            name,
            spec,
            Probe {
                name,
                delegates: ds.iter().map(|d| BehaviorId::from_index(*d)).collect(),
                always: *always,
                knobs: k,
                log: log.clone(),
                scopes: EventScopes::ALL,
            },
        )
        .unwrap();
    }
    let tree = b.build(specs[0].0).unwrap();
    Harness {
        runner: Runner::new(tree, component()),
        knobs,
        log,
    }
}

impl Harness {
    fn id(&self, i: usize) -> BehaviorId {
        BehaviorId::from_index(i)
    }
    fn on_update(&self, i: usize, steps: Vec<Step>) {
        self.knobs[i].lock().unwrap().next_update = steps;
    }
    fn wants(&self, i: usize, w: bool) {
        self.knobs[i].lock().unwrap().wants = w;
    }
    fn results(&self, i: usize) -> Vec<Result<(), RunnerError>> {
        std::mem::take(&mut self.knobs[i].lock().unwrap().results)
    }
    fn tick(&mut self) {
        self.runner.tick(DT, &[]);
        self.runner.check_invariants().unwrap();
    }
    fn take_log(&self) -> Vec<String> {
        std::mem::take(&mut self.log.lock().unwrap())
    }
    fn stack(&self) -> Vec<&str> {
        self.runner.stack_names()
    }
}

fn count(log: &[String], entry: &str) -> usize {
    log.iter().filter(|l| *l == entry).count()
}

// ----- lifecycle -----------------------------------------------------------------------------

#[test]
fn base_enters_scope_at_build_and_activates_on_the_first_tick_it_wants_to() {
    let mut h = harness(
        &[("Base", &[1], false, false), ("A", &[], false, true)],
        &[],
    );
    assert_eq!(h.take_log(), ["Base:entered"]);
    h.tick();
    assert!(h.stack().is_empty(), "the base does not want to activate");
    assert_eq!(h.take_log(), ["Base:update_in_scope"]);
    h.wants(0, true);
    h.tick();
    assert_eq!(h.stack(), ["Base"]);
    assert_eq!(
        h.take_log(),
        [
            "A:entered",
            "Base:activated",
            "Base:update",
            "A:update_in_scope"
        ]
    );
}

#[test]
fn a_pushed_behavior_first_updates_on_the_tick_it_was_pushed_and_exactly_once_per_tick() {
    let mut h = harness(
        &[
            ("Base", &[1], false, true),
            ("A", &[2], false, true),
            ("B", &[], false, true),
        ],
        &[],
    );
    h.tick();
    h.take_log();
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    let log = h.take_log();
    assert_eq!(h.stack(), ["Base", "A"]);
    assert_eq!(
        log,
        [
            "Base:update",
            "B:entered",
            "A:activated",
            "A:update",
            "B:update_in_scope"
        ]
    );
    // Popped after its update on this tick: not updated again as an in-scope behavior.
    h.on_update(1, vec![Step::CancelSelf]);
    h.tick();
    let log = h.take_log();
    assert_eq!(count(&log, "A:update"), 1);
    assert_eq!(count(&log, "A:update_in_scope"), 0);
    assert_eq!(h.stack(), ["Base"]);
    for _ in 0..3 {
        h.tick();
        let log = h.take_log();
        assert_eq!(log, ["Base:update", "A:update_in_scope"]);
    }
}

#[test]
fn activation_needs_wants_to_be_activated_true_on_the_same_tick() {
    let mut h = harness(
        &[("Base", &[1], false, true), ("A", &[], false, false)],
        &[],
    );
    h.tick();
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    assert_eq!(
        h.results(0),
        [Err(RunnerError::DoesNotWantToActivate {
            behavior: h.id(1)
        })]
    );
    assert_eq!(
        h.runner.errors(),
        [RunnerError::DoesNotWantToActivate { behavior: h.id(1) }]
    );
    assert_eq!(h.stack(), ["Base"]);
    h.wants(1, true);
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    assert_eq!(h.results(0), [Ok(())]);
    assert_eq!(h.stack(), ["Base", "A"]);
}

#[test]
fn only_active_behaviors_can_end_or_delegate() {
    let mut h = harness(
        &[
            ("Base", &[1], false, true),
            ("A", &[2], false, true),
            ("B", &[], false, true),
        ],
        &[],
    );
    h.tick();
    h.on_update(
        1,
        vec![
            Step::CancelSelf,
            Step::Delegate(h.id(2), Continuation::None),
            Step::Fail,
            Step::CancelDelegates(true),
        ],
    );
    h.tick();
    let not_active = Err(RunnerError::NotActive { behavior: h.id(1) });
    assert_eq!(
        h.results(1),
        [not_active, not_active, not_active, not_active]
    );
    assert_eq!(h.stack(), ["Base"]);
}

#[test]
fn only_the_top_delegates_and_only_to_declared_delegates() {
    let mut h = harness(
        &[
            ("Base", &[1, 2], false, true),
            ("A", &[], false, true),
            ("B", &[], false, true),
            ("C", &[], false, true),
        ],
        &[],
    );
    h.tick();
    h.on_update(
        0,
        vec![Step::Delegate(
            BehaviorId::from_index(3),
            Continuation::None,
        )],
    );
    h.tick();
    assert_eq!(
        h.results(0),
        [Err(RunnerError::UndeclaredDelegate {
            from: h.id(0),
            to: h.id(3)
        })]
    );
    h.on_update(
        0,
        vec![
            Step::Delegate(h.id(1), Continuation::None),
            Step::Delegate(h.id(2), Continuation::None),
        ],
    );
    h.tick();
    assert_eq!(
        h.results(0),
        [Ok(()), Err(RunnerError::NotInControl { behavior: h.id(0) })]
    );
    assert_eq!(h.stack(), ["Base", "A"]);
    h.on_update(0, vec![Step::Delegate(h.id(2), Continuation::None)]);
    h.tick();
    assert_eq!(
        h.results(0),
        [Err(RunnerError::NotInControl { behavior: h.id(0) })]
    );
    // delegate_now cancels first.
    h.on_update(0, vec![Step::DelegateNow(h.id(2))]);
    h.tick();
    assert_eq!(h.results(0), [Ok(())]);
    assert_eq!(h.stack(), ["Base", "B"]);
}

#[test]
fn scope_is_reference_counted() {
    // Base -> A, X ; A -> X : X is in scope through Base and through A.
    let mut h = harness(
        &[
            ("Base", &[1, 2], false, true),
            ("A", &[2], false, true),
            ("X", &[], false, true),
        ],
        &[],
    );
    h.tick();
    assert_eq!(count(&h.take_log(), "X:entered"), 1);
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    let log = h.take_log();
    assert_eq!(count(&log, "X:entered"), 0, "second reference: no hook");
    h.on_update(1, vec![Step::CancelSelf]);
    h.tick();
    let log = h.take_log();
    assert_eq!(count(&log, "X:left"), 0, "still referenced by Base");
    assert_eq!(h.runner.state(h.id(2)), Some(LifecycleState::InScope));
}

#[test]
fn always_delegates_ends_an_idle_behavior_and_reports_finished() {
    let mut h = harness(&[("Base", &[1], false, true), ("A", &[], true, true)], &[]);
    h.tick();
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::Call(7))]);
    h.tick();
    assert_eq!(
        h.stack(),
        ["Base"],
        "A ends at the end of its first frame step"
    );
    h.take_log();
    h.tick();
    assert!(h.take_log().contains(&format!(
        "Base:done7:{:?}",
        DelegationOutcome::Behavior {
            id: h.id(1),
            end: BehaviorEnd::Finished
        }
    )));
}

// ----- actions and continuations ----------------------------------------------------------------

#[test]
fn action_delegation_is_per_frame_and_reports_its_outcome() {
    let mut h = harness(&[("Base", &[1], false, true), ("A", &[], false, true)], &[]);
    h.tick();
    h.on_update(0, vec![Step::Action(120, Continuation::Call(1))]);
    h.tick();
    assert!(h.runner.is_running_action(h.id(0)));
    // While the action runs the behavior is not in control.
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    assert_eq!(
        h.results(0),
        [Ok(()), Err(RunnerError::NotInControl { behavior: h.id(0) })]
    );
    h.take_log();
    h.tick(); // 180 ms since start >= 120: ends, continuation before update
    let log = h.take_log();
    assert_eq!(
        log[0],
        format!(
            "Base:done1:{:?}",
            DelegationOutcome::Action(ActionEnd::Succeeded)
        )
    );
    assert!(!h.runner.is_running_action(h.id(0)));
    // Cancelled with continuation.
    h.on_update(0, vec![Step::Action(10_000, Continuation::Call(2))]);
    h.tick();
    h.on_update(0, vec![Step::CancelDelegates(true)]);
    h.take_log();
    h.tick();
    // As the original's callback, the continuation runs at the next update, not at once.
    let done2 = format!(
        "Base:done2:{:?}",
        DelegationOutcome::Action(ActionEnd::Cancelled)
    );
    assert!(!h.take_log().contains(&done2));
    h.tick();
    let log = h.take_log();
    assert_eq!(log.first(), Some(&done2), "before the update: {log:?}");
    // Cancelled without continuation.
    h.on_update(0, vec![Step::Action(10_000, Continuation::Call(3))]);
    h.tick();
    h.on_update(0, vec![Step::CancelDelegates(false)]);
    h.tick();
    h.tick();
    assert!(!h.take_log().iter().any(|l| l.starts_with("Base:done3")));
}

#[test]
fn an_action_is_interrupted_when_its_behavior_is_deactivated() {
    struct Flag(Arc<Mutex<Option<ActionEnd>>>);
    impl Action for Flag {
        fn name(&self) -> &str {
            "flag"
        }
        fn step(&mut self, _c: &VirtualClock) -> ActionStatus {
            ActionStatus::Running
        }
        fn on_end(&mut self, end: ActionEnd) {
            *self.0.lock().unwrap() = Some(end);
        }
    }
    struct Starter(Arc<Mutex<Option<ActionEnd>>>);
    impl Behavior<Ti> for Starter {
        fn on_activated(&mut self, ctx: &mut Ctx<'_, Ti>) {
            ctx.delegate_action(Box::new(Flag(self.0.clone())), Continuation::None)
                .unwrap();
        }
    }
    let ended = Arc::new(Mutex::new(None));
    let mut b = TreeBuilder::<Ti>::new();
    let s = b
        .add("S", Spec::new("Starter"), Starter(ended.clone()))
        .unwrap();
    let knobs = Arc::new(Mutex::new(Knobs {
        wants: true,
        ..Knobs::default()
    }));
    b.add(
        "Base",
        Spec::new("Probe"),
        Probe {
            name: "Base",
            delegates: vec![s],
            always: false,
            knobs: knobs.clone(),
            log: Arc::default(),
            scopes: EventScopes::NONE,
        },
    )
    .unwrap();
    let mut r = Runner::new(b.build("Base").unwrap(), component());
    r.tick(DT, &[]);
    knobs.lock().unwrap().next_update = vec![];
    // Base delegates to S through a scripted step.
    let mut probe_steps = knobs.lock().unwrap();
    probe_steps.next_update = vec![Step::Delegate(s, Continuation::None)];
    drop(probe_steps);
    r.tick(DT, &[]);
    assert_eq!(r.stack_names(), ["Base", "S"]);
    knobs.lock().unwrap().next_update = vec![Step::CancelDelegates(false)];
    r.tick(DT, &[]);
    assert_eq!(*ended.lock().unwrap(), Some(ActionEnd::Interrupted));
    r.check_invariants().unwrap();
}

#[test]
fn behavior_continuations_receive_finished_cancelled_and_failed() {
    let mut h = harness(&[("Base", &[1], false, true), ("A", &[], false, true)], &[]);
    h.tick();
    let a = h.id(1);
    for (end, step) in [
        (BehaviorEnd::Finished, Step::CancelSelf),
        (BehaviorEnd::Failed, Step::Fail),
    ] {
        h.on_update(0, vec![Step::Delegate(a, Continuation::Call(9))]);
        h.tick();
        h.on_update(1, vec![step]);
        h.tick();
        h.take_log();
        h.tick();
        let want = format!(
            "Base:done9:{:?}",
            DelegationOutcome::Behavior { id: a, end }
        );
        assert!(h.take_log().contains(&want), "{want}");
    }
    h.on_update(0, vec![Step::Delegate(a, Continuation::Call(4))]);
    h.tick();
    h.on_update(0, vec![Step::CancelDelegates(true)]);
    h.take_log();
    h.tick();
    let want = format!(
        "Base:done4:{:?}",
        DelegationOutcome::Behavior {
            id: a,
            end: BehaviorEnd::Cancelled
        }
    );
    let log = h.take_log();
    assert!(!log.contains(&want), "not in the cancelling tick: {log:?}");
    h.tick();
    assert!(h.take_log().contains(&want));
}

// ----- scoped effects -----------------------------------------------------------------------------

/// Every deactivation path undoes every kind of effect, in reverse order, and the intent
/// component reflects it on the same tick.
#[test]
fn scoped_effects_are_undone_in_reverse_order_on_every_deactivation_path() {
    #[derive(Clone, Copy, Debug)]
    enum Path {
        Finished,
        Failed,
        CancelledByParent,
        InterruptedByGrandparent,
        CancelCondition,
        ReplaceStack,
    }
    for path in [
        Path::Finished,
        Path::Failed,
        Path::CancelledByParent,
        Path::InterruptedByGrandparent,
        Path::CancelCondition,
        Path::ReplaceStack,
    ] {
        // Base -> P -> E (E holds the effects)
        let log: Log = Arc::default();
        let mut b = TreeBuilder::<Ti>::new();
        let mk = |name: &'static str, ds: Vec<BehaviorId>| {
            let k = Arc::new(Mutex::new(Knobs {
                wants: true,
                ..Knobs::default()
            }));
            (
                k.clone(),
                Probe {
                    name,
                    delegates: ds,
                    always: false,
                    knobs: k,
                    log: log.clone(),
                    scopes: EventScopes::NONE,
                },
            )
        };
        let (ke, pe) = mk("E", vec![]);
        let mut spec = Spec::new("Probe");
        if let Path::CancelCondition = path {
            spec.cancel_when = Some(Condition::trigger_word_pending());
        }
        let e = b.add("E", spec, pe).unwrap();
        let (kp, pp) = mk("P", vec![e]);
        let p = b.add("P", Spec::new("Probe"), pp).unwrap();
        let (kb, pb) = mk("Base", vec![p]);
        b.add("Base", Spec::new("Probe"), pb).unwrap();
        let mut r = Runner::new(b.build("Base").unwrap(), component());
        r.tick(DT, &[]);
        kb.lock().unwrap().next_update = vec![Step::Delegate(p, Continuation::None)];
        kp.lock().unwrap().on_activated = vec![Step::Delegate(e, Continuation::None)];
        ke.lock().unwrap().on_activated = vec![
            Step::Cleanup("first"),
            Step::ActivateIntent(UserIntentTag::GreetingGoodmorning),
            Step::Hold,
            Step::Suppress,
            Step::Cleanup("last"),
        ];
        r.intents_mut()
            .set_pending(UserIntent::GreetingGoodmorning(Void {}), IntentSource::Dev);
        r.tick(DT, &[]);
        assert_eq!(r.stack_names(), ["Base", "P", "E"], "{path:?}");
        assert!(
            ke.lock().unwrap().results.iter().all(Result::is_ok),
            "{path:?}"
        );
        assert_eq!(r.effect_count(e), 5);
        assert!(r.intents().is_active(UserIntentTag::GreetingGoodmorning));
        assert!(r.intents().is_timeout_held());
        assert!(
            !r.intents_mut().set_trigger_word_pending(false, false),
            "suppressed"
        );
        log.lock().unwrap().clear();
        match path {
            Path::Finished => ke.lock().unwrap().next_update = vec![Step::CancelSelf],
            Path::Failed => ke.lock().unwrap().next_update = vec![Step::Fail],
            Path::CancelledByParent => {
                kp.lock().unwrap().next_update = vec![Step::CancelDelegates(false)]
            }
            Path::InterruptedByGrandparent => {
                kb.lock().unwrap().next_update = vec![Step::CancelDelegates(false)]
            }
            Path::CancelCondition => {
                r.intents_mut().clear_trigger_word();
                // A trigger word after the suppression ends is needed: use the mute button.
                assert!(r.intents_mut().set_trigger_word_pending(false, true));
            }
            Path::ReplaceStack => {
                r.replace_stack(&[r.base()]).unwrap();
            }
        }
        if !matches!(path, Path::ReplaceStack) {
            r.tick(DT, &[]);
        }
        r.check_invariants().unwrap();
        assert!(!r.is_on_stack(e), "{path:?}");
        assert_eq!(r.effect_count(e), 0);
        let l = log.lock().unwrap().clone();
        let cleanup: Vec<_> = l
            .iter()
            .filter(|s| s.starts_with("cleanup") || *s == "E:deactivated")
            .cloned()
            .collect();
        assert_eq!(
            cleanup,
            ["E:deactivated", "cleanup:last", "cleanup:first"],
            "{path:?}"
        );
        assert!(
            !r.intents().is_any_active(),
            "{path:?}: released on the same tick"
        );
        assert!(!r.intents().is_timeout_held(), "{path:?}");
        assert!(
            r.intents_mut().set_trigger_word_pending(false, false),
            "{path:?}: suppression gone"
        );
    }
}

#[test]
fn respond_to_user_intents_claims_on_activation_and_releases_on_deactivation() {
    let mut h = harness(
        &[("Base", &[1], false, true), ("FistBump", &[], false, true)],
        &[(1, UserIntentTag::GreetingGoodmorning)],
    );
    h.tick();
    assert!(
        !h.runner.view(h.id(0)).wants_to_activate(h.id(1)),
        "nothing pending"
    );
    h.runner.intents_mut().set_pending(
        UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 3 }),
        IntentSource::Voice,
    );
    assert!(
        !h.runner.view(h.id(0)).wants_to_activate(h.id(1)),
        "another tag pending"
    );
    h.runner.intents_mut().set_pending(
        UserIntent::GreetingGoodmorning(Void {}),
        IntentSource::Voice,
    );
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    assert_eq!(h.stack(), ["Base", "FistBump"]);
    let a = h.runner.intents().active().unwrap();
    assert_eq!(a.tag(), UserIntentTag::GreetingGoodmorning);
    assert_eq!(a.owner(), &robot_runtime::intent::Owner::Behavior(h.id(1)));
    assert_eq!(h.runner.owner_name(a.owner()), Some("FistBump"));
    assert!(h.runner.intents().pending().is_none());
    h.on_update(1, vec![Step::CancelSelf]);
    h.tick();
    assert!(!h.runner.intents().is_any_active());
}

// ----- events ------------------------------------------------------------------------------------

#[test]
fn events_are_delivered_by_scope_and_none_is_missed_by_a_behavior_activated_that_tick() {
    let mut h = harness(
        &[("Base", &[1], false, true), ("A", &[], false, true)],
        &[(1, UserIntentTag::ImperativeCome)],
    );
    h.tick();
    h.take_log();
    h.runner
        .intents_mut()
        .set_pending(UserIntent::ImperativeCome(Void {}), IntentSource::Voice);
    h.on_update(0, vec![Step::Delegate(h.id(1), Continuation::None)]);
    h.tick();
    let log = h.take_log();
    let pending = "UserIntentComponent.SetUserIntentPending";
    assert!(log.contains(&format!("Base:event:AlwaysInScope:{pending}")));
    assert!(log.contains(&format!("Base:event:WhileActivated:{pending}")));
    // A is in scope (not active) when Base is processed... but activated in Base's update,
    // and receives the tick's events in its own frame step.
    assert!(
        log.contains(&format!("A:event:WhileActivated:{pending}")),
        "{log:?}"
    );
    assert!(!log.contains(&format!("A:event:WhileInScopeNotActivated:{pending}")));
    // The activation event (emitted during the tick) is delivered on the next tick.
    h.tick();
    let log = h.take_log();
    assert!(
        log.contains(&"A:event:WhileActivated:UserIntentComponent.ActivateUserIntent".to_string()),
        "{log:?}"
    );
    // In scope, not active: WhileInScopeNotActivated.
    h.on_update(1, vec![Step::CancelSelf]);
    h.tick();
    h.runner.intents_mut().set_pending(
        UserIntent::GreetingGoodmorning(Void {}),
        IntentSource::Voice,
    );
    h.take_log();
    h.tick();
    let log = h.take_log();
    assert!(
        log.contains(&format!("A:event:WhileInScopeNotActivated:{pending}")),
        "{log:?}"
    );
    assert!(log.contains(&format!("A:event:AlwaysInScope:{pending}")));
}

// ----- built-in classes through JSON ---------------------------------------------------------------

fn load(texts: &[(&str, &str)], base: &str) -> Result<Tree<Ti>, LoadError> {
    let sources: Vec<Source<'_>> = texts.iter().map(|(f, t)| Source::new(f, t)).collect();
    load_tree(
        &original_behaviors::registry(),
        &sources,
        base,
        &LoadOptions::default(),
    )
}

fn run(texts: &[(&str, &str)], base: &str) -> Runner<Ti> {
    Runner::new(load(texts, base).unwrap(), component())
}

fn tick(r: &mut Runner<Ti>, n: usize) {
    for _ in 0..n {
        r.tick(DT, &[]);
        r.check_invariants().unwrap();
    }
}

const PRIORITY_TREE: &str = r#"[
  // highest first
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
   "interruptActiveBehavior": true, "behaviors": ["FistBump", "Unclaimed", "Idle"]},
  {"behaviorID": "FistBump", "behaviorClass": "PlayAnimation", "animation": "anim_fistbump", "length_s": 0.3,
   "respondToUserIntents": [{"type": "greeting_goodmorning"}]},
  {"behaviorID": "Unclaimed", "behaviorClass": "ReactToUnclaimedIntent"},
  {"behaviorID": "Idle", "behaviorClass": "Wait"}
]"#;

#[test]
fn strict_priority_interrupts_for_a_pending_intent_and_falls_back() {
    let mut r = run(&[("tree.json", PRIORITY_TREE)], "Root");
    tick(&mut r, 2);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    r.intents_mut().set_pending(
        UserIntent::GreetingGoodmorning(Void {}),
        IntentSource::Voice,
    );
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "FistBump"]);
    assert_eq!(
        r.owner_name(r.intents().active().unwrap().owner()),
        Some("FistBump")
    );
    tick(&mut r, 5); // 0.3 s animation at 60 ms ticks: ends on the 5th tick
    assert_eq!(r.stack_names(), ["Root"]);
    tick(&mut r, 1); // the dispatcher picks the next child on its next frame step
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    assert!(!r.intents().is_any_active());
    // Unclaimed: a pending intent nobody claims expires, then ReactToUnclaimedIntent runs.
    r.intents_mut().set_pending(
        UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 5 }),
        IntentSource::Voice,
    );
    let mut saw = false;
    for _ in 0..6 {
        tick(&mut r, 1);
        saw |= r.stack_names() == ["Root", "Unclaimed"];
    }
    assert!(saw);
    assert!(!r.intents().was_unclaimed());
    tick(&mut r, 20);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

#[test]
fn queue_and_rerun_dispatchers() {
    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherQueue", "behaviors": ["A", "Never", "B"]},
      {"behaviorID": "A", "behaviorClass": "Wait", "duration_s": 0.1},
      {"behaviorID": "Never", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "Compound", "not": {"conditionType": "TrueCondition"}}},
      {"behaviorID": "B", "behaviorClass": "DispatcherRerun", "delegateID": "Short", "numRuns": 2},
      {"behaviorID": "Short", "behaviorClass": "Wait", "duration_s": 0.05}
    ]"#;
    let mut r = run(&[("q.json", tree)], "Root");
    let mut seen = Vec::new();
    for _ in 0..30 {
        tick(&mut r, 1);
        let s = r.stack_names().join("/");
        if seen.last() != Some(&s) {
            seen.push(s);
        }
    }
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    // A delegate that ends itself leaves its delegator idle until the delegator's next
    // frame step (the next tick): "Root" alone between children.
    let cycle = &seen[..seen.iter().position(|s| s.is_empty()).unwrap()];
    assert_eq!(
        cycle,
        [
            "Root/A",
            "Root",
            "Root/B/Short",
            "Root/B",
            "Root/B/Short",
            "Root/B",
            "Root"
        ],
        "{seen:?}"
    );
    let reruns = cycle.iter().filter(|s| **s == "Root/B/Short").count();
    assert_eq!(reruns, 2, "{seen:?}");
}

const HLAI: &str = r#"{
  "behaviorID": "HLAI", "behaviorClass": "HighLevelAI",
  "initialState": "Observing",
  "socializeKnownFaceCooldown_s": 300, "playWithCubeCooldown_s": 600,
  "playWithCubeOnChargerCooldown_s": 900, "maxFaceDistanceToSocialize_mm": 1000,
  "states": [
    {"name": "Observing", "behavior": "Observe"},
    {"name": "Exploring", "behavior": "Explore", "activateIntent": "imperative_come", "getInBehavior": "GetIn"},
    {"name": "Bored", "behavior": "Observe", "debugColor": "red"}
  ],
  "transitionDefinitions": [
    {"from": "*", "interruptingTransitions": [
      {"to": "Exploring", "condition": {"conditionType": "UserIntentPending", "list": [{"type": "imperative_come"}]}}]},
    {"from": ["Observing"], "nonInterruptingTransitions": [
      {"to": "Bored", "condition": {"customCondition": "BoredOfObserving"}}]},
    {"from": "Exploring", "exitTransitions": [
      {"to": "Observing", "condition": {"conditionType": "TrueCondition"}}]}
  ],
  "stateTimerConditions": [{"name": "BoredOfObserving", "begin_s": 0.5}],
  "resumeReplacements": {"Exploring": "Observing"}
}"#;

/// The state machine's behaviors: global IDs (a state's `behavior` resolves global IDs
/// only), and the `PutDownBlock` its code names.
const HLAI_PARTS: &str = r#"[
  {"behaviorID": "Observe", "behaviorClass": "Wait", "duration_s": 0.2},
  {"behaviorID": "GetIn", "behaviorClass": "PlayAnimation", "animation": "getin", "length_s": 0.1},
  {"behaviorID": "Explore", "behaviorClass": "Wait", "duration_s": 0.3},
  {"behaviorID": "PutDownBlock", "behaviorClass": "PutDownBlock"}
]"#;

#[test]
fn state_machine_transitions_activate_intents_and_resume() {
    let root = r#"{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
      "interruptActiveBehavior": false, "behaviors": ["HLAI"]}"#;
    let mut r = run(
        &[
            ("root.json", root),
            ("hlai.json", HLAI),
            ("parts.json", HLAI_PARTS),
        ],
        "Root",
    );
    let hlai = r.id("HLAI").unwrap();
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "HLAI", "Observe"]);
    assert_eq!(r.debug_state(hlai), Some("Observing"));
    // The observing behavior ends after 0.2 s; it is re-delegated while nothing else holds.
    tick(&mut r, 5);
    assert!(r.is_on_stack(hlai));
    // After 0.5 s in Observing, the timer condition moves to Bored.
    tick(&mut r, 6);
    assert_eq!(r.debug_state(hlai), Some("Bored"));
    // Interrupting transition on a pending intent: get-in first, then Explore; the intent
    // is active for the state's behavior.
    r.intents_mut()
        .set_pending(UserIntent::ImperativeCome(Void {}), IntentSource::Voice);
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["Root", "HLAI", "GetIn"]);
    assert_eq!(
        r.owner_name(r.intents().active().unwrap().owner()),
        Some("Explore")
    );
    tick(&mut r, 3);
    assert_eq!(r.stack_names(), ["Root", "HLAI", "Explore"]);
    tick(&mut r, 6);
    // Explore ended -> exit transition to Observing; the state's intent is released.
    assert!(!r.intents().is_any_active());
    assert_eq!(r.stack_names(), ["Root", "HLAI", "Observe"]);
}

// ----- loader ---------------------------------------------------------------------------------------

#[test]
fn the_loader_reports_every_problem_with_file_and_path() {
    let bad = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "behaviors": ["Nope", "A"], "extra": 1,
       "interruptActiveBehavior": true},
      {"behaviorID": "A", "behaviorClass": "Wait", "respondToUserIntents": [{"type": "no_such_tag"}]},
      {"behaviorID": "A", "behaviorClass": "Wait"},
      {"behaviorID": "B", "behaviorClass": "NoSuchClass"},
      {"behaviorID": "C", "behaviorClass": "Wait", "wantsToBeActivatedCondition": {"conditionType": "Compound", "and": [{"conditionType": "Bogus"}]}},
      {"behaviorID": "D", "behaviorClass": "DispatcherStrictPriority", "behaviors": []},
      {"behaviorID": "bad id", "behaviorClass": "Wait"}
    ]"#;
    let err = load(&[("bad.json", bad)], "Root").err().unwrap();
    let got: Vec<String> = err.problems.iter().map(ToString::to_string).collect();
    // Every problem of every instance, with file, line, column and JSON path, in source
    // order.
    assert_eq!(
        got,
        [
            "bad.json:2:89: $[0].behaviors[0]: unknown behavior `Nope`",
            "bad.json:2:112: $[0].extra: unknown key `extra`",
            "bad.json:4:77: $[1].respondToUserIntents[0]: bad intent matcher: unknown intent tag `no_such_tag`",
            "bad.json:5:7: $[2]: duplicate behavior ID `A` (first defined at bad.json: $[1])",
            "bad.json:6:44: $[3].behaviorClass: unknown behavior class `NoSuchClass`",
            "bad.json:7:139: $[4].wantsToBeActivatedCondition.and[0].conditionType: bad condition: unknown condition type `Bogus`",
            "bad.json:8:7: $[5]: missing key `interruptActiveBehavior`",
            "bad.json:9:22: $[6].behaviorID: bad behavior ID `bad id`: character ' ' is not allowed in a behavior ID (letters, digits, _ - . @)",
        ],
        "{}",
        got.join("\n")
    );
    // Lenient: the unread key is a warning; the other problems remain errors.
    let lenient = LoadOptions {
        keys: KeyCheck::Lenient,
        ..LoadOptions::default()
    };
    let err = load_tree(
        &original_behaviors::registry::<Ti, ()>(),
        &[Source::new("bad.json", bad)],
        "Root",
        &lenient,
    )
    .err()
    .unwrap();
    let extra = err
        .problems
        .iter()
        .find(|p| p.path == "$[0].extra")
        .unwrap();
    assert_eq!(extra.severity, Severity::Warning);
    assert_eq!(
        extra.to_string(),
        "bad.json:2:112: warning: $[0].extra: unknown key `extra`"
    );
}

#[test]
fn cycles_and_syntax_errors_are_load_errors() {
    let a = r#"{"behaviorID": "A", "behaviorClass": "DispatcherRerun", "delegateID": "B", "numRuns": 1}"#;
    let b = r#"{"behaviorID": "B", "behaviorClass": "DispatcherRerun", "delegateID": "A", "numRuns": 1}"#;
    let err = load(&[("a.json", a), ("b.json", b)], "A").err().unwrap();
    assert!(
        matches!(&err.problems[0].kind, ProblemKind::Cycle { cycle } if cycle == &["A", "B", "A"]),
        "{err}"
    );
    let err = load(&[("x.json", "{ \"behaviorID\": ")], "A")
        .err()
        .unwrap();
    let syntax = err
        .problems
        .iter()
        .find(|p| matches!(p.kind, ProblemKind::Syntax { .. }))
        .unwrap();
    assert_eq!(syntax.file, "x.json");
    assert_eq!(syntax.line, Some((1, 16)), "{syntax}");
    for garbage in [
        "",
        "[]",
        "42",
        "[1, 2]",
        "{\"behaviorID\": 3}",
        "{\"behaviorClass\": \"Wait\"}",
        "\u{0}",
    ] {
        assert!(load(&[("g.json", garbage)], "A").is_err(), "{garbage:?}");
    }
}

#[test]
fn comments_are_stripped_outside_strings_only() {
    let t = "{\"a\": \"http://x\", // c\n \"b\": /* x\n y */ 1}";
    let s = strip_comments(t);
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v["a"], "http://x");
    assert_eq!(v["b"], 1);
    assert_eq!(s.matches('\n').count(), 2, "line numbers kept");
}

/// A tree in the original engine's format: class params beside common keys, anonymous
/// behaviors, a compound condition, original-only keys, `//` comments.
const ORIGINAL_FORMAT: &str = r#"
// globalInterruptions.json
{
  "behaviorID": "GlobalInterruptions",
  "behaviorClass": "DispatcherStrictPriority",
  "associatedActiveFeature": "NoFeature",
  "behaviorModifiers": {"wantsToBeActivatedWhenOnCharger": true},
  "interruptActiveBehavior": true,
  "behaviors": [
    "ReactToCliff",
    "FistBumpVoiceCommand",
    "ReactToUnclaimedIntent",
    "HighLevelAI"
  ]
}
"#;

const ORIGINAL_PORTED: &str = r#"[
  {"behaviorID": "ReactToCliff", "behaviorClass": "ReactToCliff",
   "cliffBackupDistance_mm": 60, "cliffBackupSpeed_mmps": 100, "eventFlagTimeout_ms": 500, "wantsToBeActivatedCondition": {"conditionType": "CliffDetected"}},
  {"behaviorID": "FistBumpVoiceCommand", "behaviorClass": "FindFaceAndThen",
   "associatedActiveFeature": "FistBump",
   "respondToUserIntents": [{"type": "greeting_goodmorning"}],
   "wantsToBeActivatedCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}},
   "behavior": "fistBumpAnim",
   "timeUntilCancelFaceLooking_s": 5,
   "shouldLeaveChargerFirst": false,
   "anonymousBehaviors": [
     {"behaviorName": "fistBumpAnim", "behaviorClass": "PlayAnimation",
      "animation": "anim_fistbump_success_01", "length_s": 0.4}
   ]},
  {"behaviorID": "ReactToUnclaimedIntent", "behaviorClass": "ReactToUnclaimedIntent",
   "emotionEventOnActivated": "NoValidVoiceIntent"},
  {"behaviorID": "HighLevelAI", "behaviorClass": "Wait"}
]"#;

#[test]
fn original_format_trees_load_and_classes_not_built_in_run_as_stand_ins_on_request() {
    let sources = [
        Source::new("globalInterruptions.json", ORIGINAL_FORMAT),
        Source::new("others.json", ORIGINAL_PORTED),
    ];
    let reg = original_behaviors::registry::<Ti, ()>();
    let err = load_tree(
        &reg,
        &sources,
        "GlobalInterruptions",
        &LoadOptions::default(),
    )
    .err()
    .unwrap();
    let got: Vec<String> = err.problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        // ReactToCliff runs natively (its keys given); FindFaceAndThen does not.
        ["others.json:4:59: $[1].behaviorClass: class `FindFaceAndThen` of the original engine does not run natively here (load with stand-ins)"]
    );
    let opts = LoadOptions::with_stand_ins();
    let tree = load_tree(&reg, &sources, "GlobalInterruptions", &opts).unwrap();
    let fb = tree.id("FistBumpVoiceCommand").unwrap();
    assert!(tree.is_stand_in(fb));
    assert_eq!(
        tree.delegates(fb),
        [tree.id("FistBumpVoiceCommand@fistBumpAnim").unwrap()],
        "delegates from the class's reference keys, own anonymous behaviors first"
    );
    let mut r = Runner::new(tree, component());
    // FindFaceAndThen runs from its class tables: it reads its keys (none is left raw).
    assert!(r
        .raw_params(fb)
        .is_none_or(|p| p.as_object().is_none_or(|o| o.is_empty())));
    // Coverage sees the stand-in's respondToUserIntents.
    let cov = coverage::coverage(&r);
    assert_eq!(
        cov.claimers(UserIntentTag::GreetingGoodmorning)[0].name,
        "FistBumpVoiceCommand"
    );
    tick(&mut r, 1);
    assert_eq!(r.stack_names(), ["GlobalInterruptions", "HighLevelAI"]);
    assert_eq!(r.active_feature(), None, "NoFeature is no feature");
    // FindFaceAndThen (run from its class tables) wants to run when its condition holds
    // and a listed intent is pending, claims it, and with a face in view runs its
    // follow-up `behavior`, then ends.
    let errors = r.robot_mut().apply_json(
        serde_json::json!({"faces": [{"distance_mm": 500}]})
            .as_object()
            .unwrap(),
    );
    assert!(errors.is_empty());
    r.intents_mut().set_pending(
        UserIntent::GreetingGoodmorning(Void {}),
        IntentSource::Voice,
    );
    tick(&mut r, 1);
    assert_eq!(
        r.stack_names(),
        [
            "GlobalInterruptions",
            "FistBumpVoiceCommand",
            "FistBumpVoiceCommand@fistBumpAnim"
        ]
    );
    assert_eq!(
        r.owner_name(r.intents().active().unwrap().owner()),
        Some("FistBumpVoiceCommand")
    );
    assert_eq!(r.active_feature(), Some("FistBump"));
    let dot = export::to_dot(&r);
    assert!(
        dot.contains("GlobalInterruptions\\n(DispatcherStrictPriority)\\n[stack 0]"),
        "{dot}"
    );
    let mm = export::to_mermaid(&r);
    assert!(mm.contains("==>"), "{mm}");
    assert!(mm.contains("class n"), "{mm}");
    // Its follow-up's animation lasts 0.4 s: at 60 ms a tick it has ended by the 34th.
    tick(&mut r, 34);
    assert!(!r.stack_names().contains(&"FistBumpVoiceCommand"));
    assert!(!r.intents().is_any_active());
    // On the charger its condition fails: the intent goes unclaimed.
    r.robot_mut().on_charger = true;
    r.intents_mut().set_pending(
        UserIntent::GreetingGoodmorning(Void {}),
        IntentSource::Voice,
    );
    tick(&mut r, 4);
    assert!(r.stack_names() != ["GlobalInterruptions", "FistBumpVoiceCommand"]);
}

// ----- coverage -------------------------------------------------------------------------------------

#[test]
fn coverage_and_test_only_members() {
    let root = r#"{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
      "interruptActiveBehavior": false, "behaviors": ["HLAI"]}"#;
    let r = run(
        &[
            ("root.json", root),
            ("hlai.json", HLAI),
            ("parts.json", HLAI_PARTS),
        ],
        "Root",
    );
    let cov = coverage::coverage(&r);
    let explore = cov.claimers(UserIntentTag::ImperativeCome);
    assert!(explore
        .iter()
        .any(|c| c.name == "Explore" && c.state.as_deref() == Some("Bored")));
    assert!(explore
        .iter()
        .any(|c| c.state.as_deref() == Some("Exploring")));
    assert!(coverage::is_test_only::<Ti>(UserIntentTag::TestUserIntent1));
    assert!(coverage::is_test_only::<Ti>(UserIntentTag::TestSeparator));
    assert!(!coverage::is_test_only::<Ti>(
        UserIntentTag::GreetingGoodmorning
    ));
    let unclaimed = cov.unclaimed::<Ti>();
    for tag in [
        UserIntentTag::UnmatchedIntent,
        UserIntentTag::GreetingGoodmorning,
        UserIntentTag::SetTimer,
    ] {
        assert!(unclaimed.contains(&tag), "{tag:?} in {unclaimed:?}");
    }
    assert!(
        !unclaimed.contains(&UserIntentTag::ImperativeCome),
        "claimed by HLAI"
    );
    assert!(
        !unclaimed.contains(&UserIntentTag::TestUserIntent1),
        "test-only"
    );
    let from = coverage::coverage_from_stack(&r, &[r.id("Observe").unwrap()]);
    assert!(from.claimers(UserIntentTag::ImperativeCome).is_empty());
}

#[test]
fn completed_intents_table() {
    let table = r#"{
      // labels -> intents, expectations per named stack, exceptions
      "namedStacks": {"idle": ["Root", "Idle"]},
      "intents": {"fist_bump": {"type": "greeting_goodmorning"}, "timer": {"type": "set_timer", "time_s": 3}},
      "expectations": [{"label": "fist_bump", "stack": "idle", "handler": "FistBump"}],
      "exceptions": [{"label": "timer", "stack": "idle", "reason": "no timer handler yet"}]
    }"#;
    let make = || run(&[("tree.json", PRIORITY_TREE)], "Root");
    assert_eq!(coverage::check_completed_intents(table, make), []);
    let wrong = table
        .replace("\"handler\": \"FistBump\"", "\"handler\": \"Idle\"")
        .replace("\"no timer", "\"x")
        .replace("\"timer\", \"stack\"", "\"fist_bump\", \"stack\"");
    let fails = coverage::check_completed_intents(wrong.as_str(), make);
    let msgs: Vec<String> = fails.iter().map(ToString::to_string).collect();
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("fist_bump: expected `Idle` on top")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("fist_bump: listed as an exception")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m == "timer: label has neither an expectation nor an exception"),
        "{msgs:?}"
    );
    assert_eq!(
        coverage::check_completed_intents::<Ti, ()>("{", make)[0].label,
        "<table>"
    );
}

// ----- the arena split ----------------------------------------------------------------------

/// Names itself through `debug_state`; in its update it records which behaviors its view
/// shows.
struct Named {
    name: &'static str,
    seen: Arc<Mutex<Vec<Vec<Option<String>>>>>,
    n: usize,
}

impl Behavior<Ti> for Named {
    fn debug_state(&self) -> Option<&str> {
        Some(self.name)
    }
    fn update(&mut self, ctx: &mut Ctx<'_, Ti>) {
        let v = ctx.view();
        let seen = (0..=self.n)
            .map(|i| {
                v.behavior(BehaviorId::from_index(i))
                    .and_then(|b| b.debug_state().map(str::to_owned))
            })
            .collect();
        self.seen.lock().unwrap().push(seen);
    }
}

#[test]
fn a_hook_sees_every_other_behavior_and_not_its_own() {
    let names = ["a", "b", "c", "d"];
    let seen: Arc<Mutex<Vec<Vec<Option<String>>>>> = Arc::default();
    let mut b = TreeBuilder::<Ti>::new();
    let kids: Vec<BehaviorId> = (1..4).map(BehaviorId::from_index).collect();
    b.add(
        "a",
        Spec::new("StrictPriority"),
        StrictPriorityDispatcher::new(kids, false),
    )
    .unwrap();
    for name in &names[1..] {
        let named = Named {
            name,
            seen: seen.clone(),
            n: names.len(),
        };
        b.add(name, Spec::new("Named"), named).unwrap();
    }
    let mut r = Runner::new(b.build("a").unwrap(), component());
    r.tick(DT, &[]);
    // From outside every behavior is visible, and an unknown ID is not.
    let v = r.view(BehaviorId::from_index(0));
    assert!(v.behavior(BehaviorId::from_index(1)).is_some());
    assert!(v.behavior(BehaviorId::from_index(4)).is_none());
    // "b" ran (the dispatcher's first child); its hook saw c and d but not itself. The
    // dispatcher has no debug state.
    let seen = seen.lock().unwrap();
    let want: Vec<Option<String>> = vec![None, None, Some("c".into()), Some("d".into()), None];
    assert!(seen.contains(&want), "{seen:?}");
}

// ----- property test --------------------------------------------------------------------------------

mod prop {
    use super::*;
    use proptest::prelude::*;

    /// A leaf whose wish and length come from the user events.
    struct Leaf {
        k: usize,
    }
    impl Behavior<Ti, u8> for Leaf {
        fn wants_to_be_activated(&self, view: &View<'_, Ti, u8>) -> bool {
            view.events()
                .iter()
                .any(|e| usize::from(*e) % 7 == self.k % 7)
        }
        fn update(&mut self, ctx: &mut Ctx<'_, Ti, u8>) {
            if !ctx.is_active() {
                // Invalid requests from a behavior in scope: refused, never a panic.
                let _ = ctx.cancel_self();
                return;
            }
            let ev = ctx.events().first().copied().unwrap_or(0);
            match ev % 5 {
                0 => drop(ctx.cancel_self()),
                1 => drop(ctx.delegate_action(
                    Box::new(WaitFor::new(Duration::from_millis(u64::from(ev) * 10))),
                    Continuation::Call(1),
                )),
                2 => drop(ctx.fail("random")),
                3 => {
                    ctx.hold_timeout();
                    let _ = ctx
                        .activate_intent(&IntentMatcher::Tag(UserIntentTag::GreetingGoodmorning));
                }
                _ => drop(ctx.cancel_delegates(ev % 2 == 0)),
            }
        }
    }

    fn build(shape: &[(u8, Vec<usize>)]) -> Runner<Ti, u8> {
        // node i may delegate only to nodes > i (acyclic); class by kind.
        let mut b = TreeBuilder::<Ti, u8>::new();
        let n = shape.len();
        let ids: Vec<BehaviorId> = (0..n).map(BehaviorId::from_index).collect();
        for (i, (kind, kids)) in shape.iter().enumerate() {
            let mut kids: Vec<BehaviorId> = if i + 1 < n {
                kids.iter().map(|k| ids[i + 1 + k % (n - i - 1)]).collect()
            } else {
                Vec::new()
            };
            kids.sort_unstable();
            kids.dedup();
            let name = format!("B{i}");
            let mut spec = Spec::new("Random");
            if kind % 4 == 3 {
                spec.respond = vec![IntentMatcher::Tag(UserIntentTag::GreetingGoodmorning)];
            }
            if kind % 5 == 4 {
                spec.cancel_when = Some(Condition::trigger_word_pending());
            }
            let r = match (kind % 4, kids.is_empty()) {
                (_, true) => b.add(&name, spec, Leaf { k: i }),
                (0, _) => b.add(&name, spec, StrictPriorityDispatcher::new(kids, true)),
                (1, _) => b.add(&name, spec, StrictPriorityDispatcher::new(kids, false)),
                (2, _) => b.add(&name, spec, QueueDispatcher::new(kids)),
                _ => b.add(&name, spec, RerunDispatcher::new(kids[0], Some(3))),
            };
            r.unwrap();
        }
        Runner::new(b.build("B0").unwrap(), component())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_trees_and_event_streams_keep_every_invariant(
            shape in proptest::collection::vec((any::<u8>(), proptest::collection::vec(0usize..8, 0..4)), 1..12),
            stream in proptest::collection::vec((proptest::collection::vec(any::<u8>(), 0..3), 0u8..6), 1..60),
        ) {
            let mut r = build(&shape);
            for (events, intent) in stream {
                match intent {
                    0 => r.intents_mut().set_pending(UserIntent::GreetingGoodmorning(Void {}), IntentSource::Voice),
                    1 => { r.intents_mut().set_trigger_word_pending(false, false); }
                    2 => { let _ = r.intents_mut().force_deactivate(); }
                    3 => {
                        let s: Vec<BehaviorId> = r.stack().take(1).collect();
                        let _ = r.replace_stack(&s);
                    }
                    _ => {}
                }
                r.tick(DT, &events);
                prop_assert_eq!(r.check_invariants(), Ok(()));
                prop_assert!(r.errors().iter().all(|e| !matches!(e, RunnerError::Invariant(_))), "{:?}", r.errors());
                // Every active behavior holding an intent is its owner.
                if let Some(a) = r.intents().active() {
                    let owner = a.owner().behavior().unwrap();
                    prop_assert!(r.is_on_stack(owner));
                }
            }
        }
    }
}
