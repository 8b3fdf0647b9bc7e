//! The wake-up contract (`Runner::next_wakeup`, `Runner::skip_idle_ticks`) on trees shaped
//! like the original's: a runner that jumps over the ticks its wake-up says nothing happens
//! in does exactly what a runner ticking every tick does — same stacks, states, activations,
//! intent events and robot state on every tick it runs — under random world changes at random
//! times, with long idle gaps. And an idle original-shaped tree is mostly skipped.

use std::time::Duration;

use original_behaviors::RobotAccess;
use proptest::prelude::*;
use robot_runtime::behavior::{LifecycleState, Runner};
use robot_runtime_tests::shaped_tree;
use robot_runtime_tests::world::{apply, change};
use robot_runtime_tests::UserIntent;

const DT: Duration = Duration::from_millis(60);

fn runner(files: &[(String, String)], seed: u64) -> Runner<UserIntent> {
    let mut r = shaped_tree::runner(files);
    r.set_seed(seed);
    r
}

/// What must be the same on every tick both runners run.
#[derive(Debug, PartialEq)]
struct Seen {
    tick: u64,
    stack: Vec<String>,
    states: Vec<Option<String>>,
    lifecycle: Vec<LifecycleState>,
    starts: Vec<u64>,
    intent_events: Vec<String>,
    active_intent: Option<String>,
    emotion_events: usize,
}

fn seen(r: &Runner<UserIntent>) -> Seen {
    let ids: Vec<_> = (0..r.len())
        .map(robot_runtime::behavior::BehaviorId::from_index)
        .collect();
    Seen {
        tick: r.clock().tick(),
        stack: r.stack_names().iter().map(|s| s.to_string()).collect(),
        states: r
            .stack()
            .map(|id| r.debug_state(id).map(str::to_owned))
            .collect(),
        lifecycle: ids.iter().map(|id| r.state(*id).unwrap()).collect(),
        starts: ids.iter().map(|id| r.starts(*id)).collect(),
        intent_events: r.intent_events().iter().map(|e| format!("{e:?}")).collect(),
        active_intent: r.intents().active().map(|a| format!("{:?}", a.tag())),
        emotion_events: r.robot().emotion_events().len(),
    }
}

/// Nothing in the intent component counts ticks.
fn may_skip(r: &Runner<UserIntent>) -> bool {
    let i = r.intents();
    !i.is_any_pending() && !i.is_trigger_word_pending()
}

/// Runs `r` up to tick `until` (inclusive), skipping what its wake-up allows; calls `f`
/// after every tick it runs. Returns the ticks run.
fn run_skipping(
    r: &mut Runner<UserIntent>,
    until: u64,
    mut f: impl FnMut(&Runner<UserIntent>),
) -> u64 {
    let mut ran = 0;
    while r.clock().tick() < until {
        if may_skip(r) {
            // The first tick whose time reaches the wake-up may act: skip the ones before.
            let wake = r
                .next_wakeup()
                .ticks_from(r.clock().now(), DT)
                .unwrap_or(u64::MAX);
            let skip = wake.saturating_sub(1).min(until - r.clock().tick() - 1);
            if skip > 0 {
                r.skip_idle_ticks(skip, DT);
            }
        }
        r.tick(DT, &[]);
        ran += 1;
        f(r);
    }
    ran
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Skipping what the wake-up allows never changes what the runner does.
    #[test]
    fn skipping_idle_ticks_never_changes_what_the_behaviors_do(
        seed in any::<u64>(),
        steps in proptest::collection::vec((change(), 1u64..400), 5..40),
    ) {
        let files = shaped_tree::varied_tree(80, seed);
        let mut every = runner(&files, seed);
        let mut skip = runner(&files, seed);
        let mut log = Vec::new();
        let mut tick = 0;
        for (c, gap) in &steps {
            apply(&mut every, c);
            apply(&mut skip, c);
            tick += gap;
            while every.clock().tick() < tick {
                every.tick(DT, &[]);
                log.push(seen(&every));
            }
            let mut diff = None;
            run_skipping(&mut skip, tick, |r| {
                let s = seen(r);
                let want = &log[s.tick as usize - 1];
                if diff.is_none() && *want != s {
                    diff = Some((want.tick, format!("{want:?}"), format!("{s:?}")));
                }
            });
            prop_assert!(diff.is_none(), "{:?}", diff);
            prop_assert_eq!(skip.clock(), every.clock());
            prop_assert_eq!(skip.robot().now(), every.robot().now());
        }
    }
}

/// An original-shaped tree idle in HighLevelAI runs only the ticks where something can
/// happen (its state timers, its actions' ends).
#[test]
fn an_idle_original_shaped_tree_is_mostly_skipped() {
    let files = shaped_tree::tree(350, 2);
    let mut r = runner(&files, 2);
    let ran = run_skipping(&mut r, 20_000, |r| {
        assert_eq!(r.errors(), []);
    });
    assert!(ran * 10 < 20_000, "{ran} of 20,000 ticks run");
}
