//! A steady tick of a tree shaped like the original's (hundreds of behaviors in scope, a
//! HighLevelAI state running, every reaction asked and declining) costs no heap
//! allocation: a counting global allocator around the ticks.

use std::time::Duration;

use robot_runtime_tests::counting_alloc::{allocations, Counting};
use robot_runtime_tests::shaped_tree;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steady_ticks_of_an_original_shaped_tree_do_not_allocate() {
    // The counter works (else "0 allocations" below would prove nothing).
    let (n, v) = allocations(|| std::hint::black_box(vec![0u8; 16]));
    assert!(
        n > 0 && v.len() == 16,
        "the counting allocator is installed"
    );
    for (files_n, seed) in [(60, 1), (350, 2)] {
        let files = shaped_tree::tree(files_n, seed);
        let mut r = shaped_tree::runner(&files);
        // Warm up: the stack settles into HighLevelAI's first state, buffers reach size.
        for _ in 0..40 {
            r.tick(Duration::from_millis(60), &[]);
        }
        let hlai = r.id("HighLevelAI").unwrap();
        assert!(r.is_on_stack(hlai));
        let in_scope = r.in_scope().len();
        assert!(in_scope > 30, "{files_n} files: {in_scope} in scope");
        let stack: Vec<_> = r.stack().collect();
        let (n, ()) = allocations(|| {
            for _ in 0..200 {
                r.tick(Duration::from_millis(60), &[]);
            }
        });
        assert_eq!(
            r.stack().collect::<Vec<_>>(),
            stack,
            "{files_n} files: the stack stayed"
        );
        assert_eq!(
            n, 0,
            "{files_n} files ({in_scope} in scope): 200 steady ticks"
        );
    }
}

#[test]
fn steady_ticks_while_a_track_lock_holds_do_not_allocate() {
    use original_behaviors::RobotAccessMut;
    use robot_runtime::arbiter::{Body, SharedArbiter, TrackLocker};
    use robot_runtime::behavior::{load_tree, LoadOptions, Runner, Source};
    use robot_runtime::intent::IntentComponent;
    use robot_runtime_tests::{UserIntent, MAP};

    let tree = r#"[
      {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
       "behaviors": ["StayDocked"]},
      {"behaviorID": "StayDocked", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
       "tracksToLockWhileActivated": ["BODY_TRACK", "LIFT_TRACK"],
       "wantsToBeActivatedCondition": {"conditionType": "OnCharger"},
       "behaviors": ["Rest"]},
      {"behaviorID": "Rest", "behaviorClass": "Wait"}
    ]"#;
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    let arbiter = SharedArbiter::<Body>::new();
    let mut r: Runner<UserIntent> = Runner::new(t, IntentComponent::new(&MAP));
    r.set_track_locks(Box::new(TrackLocker::body(&arbiter)));
    r.robot_mut().on_charger = true;
    for _ in 0..10 {
        r.tick(Duration::from_millis(60), &[]);
    }
    assert_eq!(r.stack_names(), ["Root", "StayDocked", "Rest"]);
    assert_eq!(arbiter.lock().holders().count(), 1, "the lock holds");
    let (n, ()) = allocations(|| {
        for _ in 0..200 {
            r.tick(Duration::from_millis(60), &[]);
        }
    });
    assert_eq!(r.stack_names(), ["Root", "StayDocked", "Rest"]);
    assert_eq!(n, 0, "200 steady ticks holding a lock");
}
