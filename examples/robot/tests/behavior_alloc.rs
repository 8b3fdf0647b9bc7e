//! Zero heap allocations per tick in steady state, proven with a counting global
//! allocator: the example tree idling in HighLevelAI, and a 1,000-behavior reactive tree.

use std::time::Duration;

use original_behaviors::{StrictPriorityDispatcher, Wait};
use robot_example::intents::{self, UserIntent};
use robot_runtime::behavior::{load_tree, LoadOptions, Runner, Source, Spec, TreeBuilder};

// The counting allocator of robot-runtime's tests: one file, read by both crates.
#[path = "../../../crates/robot-runtime-tests/src/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::Counting;

#[global_allocator]
static GLOBAL: Counting = Counting;

const DT: Duration = Duration::from_millis(60);

fn ticks_allocate(r: &mut Runner<UserIntent>, n: usize) -> usize {
    counting_alloc::allocations(|| {
        for _ in 0..n {
            r.tick(DT, &[]);
        }
    })
    .0
}

// One test function: the counter is global, so nothing else may run at the same time.
#[test]
fn steady_state_ticks_allocate_nothing() {
    let tree = load_tree(
        &original_behaviors::registry(),
        &[Source::new(
            "tree.json",
            include_str!("../behaviors/tree.json"),
        )],
        "GlobalInterruptions",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut r = Runner::new(tree, intents::component());
    // Warm up: first activations, scope entries, lazily initialised statics.
    ticks_allocate(&mut r, 5);
    assert_eq!(
        r.stack_names(),
        ["GlobalInterruptions", "HighLevelAI", "Observe"]
    );
    assert_eq!(ticks_allocate(&mut r, 1000), 0, "example tree, idle");

    let mut b = TreeBuilder::<UserIntent>::new();
    let mut kids = Vec::new();
    for i in 0..999 {
        let mut spec = Spec::new("Wait");
        spec.respond = vec![robot_runtime::intent::IntentMatcher::Tag(
            intents::Tag::PlayFistbump,
        )];
        let _ = i;
        kids.push(b.add(&format!("Never{i}"), spec, Wait::new()).unwrap());
    }
    kids.push(b.add("Idle", Spec::new("Wait"), Wait::new()).unwrap());
    b.add(
        "Root",
        Spec::new("DispatcherStrictPriority"),
        StrictPriorityDispatcher::new(kids, true),
    )
    .unwrap();
    let mut r = Runner::new(b.build("Root").unwrap(), intents::component());
    ticks_allocate(&mut r, 5);
    assert_eq!(r.in_scope().len(), 1001);
    assert_eq!(ticks_allocate(&mut r, 200), 0, "1,000 behaviors in scope");
}
