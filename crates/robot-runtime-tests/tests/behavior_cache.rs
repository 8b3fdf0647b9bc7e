//! The cached tick changes nothing observable: a runner that reuses answers while nothing
//! they read changed (the default) and a runner that asks everything on every tick, as the
//! original engine did (`Runner::set_caching(false)`), run the same random original-shaped
//! trees under the same random robot-state changes, intents and trigger words, and agree on
//! every tick: stacks, state-machine states, lifecycle states, activation counts, intent
//! events (claims included), the robot state (timers, whiteboard, emotions, mood events)
//! and every action started and ended (the continuations' work).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use original_behaviors::RobotAccess;
use proptest::prelude::*;
use robot_runtime::behavior::{
    request_name, Action, ActionEnd, ActionFactory, ActionRequest, ActionStatus,
    AnimationDurations, BehaviorId, LifecycleState, Runner, Timed, VirtualClock, Wakeup,
};
use robot_runtime_tests::shaped_tree;
use robot_runtime_tests::world::{apply, change};
use robot_runtime_tests::UserIntent;

const DT: Duration = Duration::from_millis(60);

type Journal = Arc<Mutex<Vec<String>>>;

/// Simulated actions that write their start and end to a journal.
struct Recording {
    durations: AnimationDurations,
    journal: Journal,
}

struct Recorded {
    behavior: String,
    inner: Timed,
    journal: Journal,
}

impl Action for Recorded {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, clock: &VirtualClock) {
        self.inner.start(clock);
        self.journal.lock().unwrap().push(format!(
            "{} {} started {}",
            clock.tick(),
            self.behavior,
            self.inner.name()
        ));
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        self.inner.step(clock)
    }
    fn on_end(&mut self, end: ActionEnd) {
        self.journal.lock().unwrap().push(format!(
            "{} {} {end:?}",
            self.behavior,
            self.inner.name()
        ));
    }
    fn next_wakeup(&self, clock: &VirtualClock) -> Wakeup {
        self.inner.next_wakeup(clock)
    }
}

impl ActionFactory for Recording {
    fn make(&mut self, behavior: &str, request: &ActionRequest<'_>) -> Box<dyn Action> {
        Box::new(Recorded {
            behavior: behavior.to_owned(),
            inner: Timed::new(request_name(request), self.durations.length(request)),
            journal: self.journal.clone(),
        })
    }
}

fn runner(files: &[(String, String)], seed: u64, caching: bool) -> (Runner<UserIntent>, Journal) {
    let mut r = shaped_tree::runner(files);
    r.set_seed(seed);
    r.set_caching(caching);
    let journal = Journal::default();
    r.set_action_factory(Box::new(Recording {
        durations: AnimationDurations::default(),
        journal: journal.clone(),
    }));
    (r, journal)
}

/// Everything observable after a tick.
#[derive(Debug, PartialEq)]
struct Seen {
    tick: u64,
    stack: Vec<String>,
    states: Vec<Option<String>>,
    lifecycle: Vec<LifecycleState>,
    starts: Vec<u64>,
    wanted: Vec<bool>,
    intent_events: Vec<String>,
    active_intent: Option<String>,
    pending_intent: Option<String>,
    robot: String,
    actions: Vec<String>,
    errors: usize,
}

fn seen(r: &Runner<UserIntent>, journal: &Journal) -> Seen {
    let ids: Vec<BehaviorId> = (0..r.len()).map(BehaviorId::from_index).collect();
    let tick = r.clock().tick();
    Seen {
        tick,
        stack: r.stack_names().iter().map(|s| s.to_string()).collect(),
        states: r
            .stack()
            .map(|id| r.debug_state(id).map(str::to_owned))
            .collect(),
        lifecycle: ids.iter().map(|id| r.state(*id).unwrap()).collect(),
        starts: ids.iter().map(|id| r.starts(*id)).collect(),
        wanted: ids.iter().map(|id| r.wanted_on_tick(*id) == tick).collect(),
        intent_events: r.intent_events().iter().map(|e| format!("{e:?}")).collect(),
        active_intent: r.intents().active().map(|a| format!("{:?}", a.tag())),
        pending_intent: r.intents().pending().map(|p| format!("{:?}", p.tag())),
        robot: format!("{:?}", r.robot()),
        actions: std::mem::take(&mut *journal.lock().unwrap()),
        errors: r.errors().len(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Cached and asked-every-time runners agree on every tick.
    #[test]
    fn the_cached_tick_is_observably_the_same_as_asking_every_tick(
        seed in any::<u64>(),
        files in 40usize..140,
        steps in proptest::collection::vec((change(), 1u64..60), 10..80),
    ) {
        let tree = shaped_tree::varied_tree(files, seed);
        let (mut cached, cj) = runner(&tree, seed, true);
        let (mut asked, aj) = runner(&tree, seed, false);
        for (c, gap) in &steps {
            apply(&mut cached, c);
            apply(&mut asked, c);
            for _ in 0..*gap {
                cached.tick(DT, &[]);
                asked.tick(DT, &[]);
                let (x, y) = (seen(&cached, &cj), seen(&asked, &aj));
                prop_assert_eq!(&x, &y, "{:?}", c);
                prop_assert_eq!(cached.check_invariants(), Ok(()));
            }
        }
    }
}

/// On an idle original-shaped tree the cached runner asks almost nothing: the conditions of
/// the reactions are evaluated once, then reused while the robot state does not change.
#[test]
fn an_idle_tree_evaluates_its_reactions_once() {
    let tree = shaped_tree::tree(350, 2);
    let (mut r, _) = runner(&tree, 2, true);
    for _ in 0..40 {
        r.tick(DT, &[]);
    }
    let evaluated = |r: &Runner<UserIntent>| {
        (0..r.len())
            .filter_map(|i| r.conditions(BehaviorId::from_index(i)).0)
            .filter_map(|c| c.last().map(|(t, _)| t))
            .collect::<Vec<u64>>()
    };
    let before = evaluated(&r);
    for _ in 0..100 {
        r.tick(DT, &[]);
    }
    let tick = r.clock().tick();
    let after = evaluated(&r);
    let fresh = after.iter().filter(|t| **t > tick - 90).count();
    assert!(
        fresh * 10 <= before.len(),
        "{fresh} of {} activation conditions evaluated in the last 90 ticks",
        before.len()
    );
}
