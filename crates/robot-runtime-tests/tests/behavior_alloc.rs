//! A steady tick of a tree shaped like the original's (hundreds of behaviors in scope, a
//! HighLevelAI state running, every reaction asked and declining) costs no heap
//! allocation: a counting global allocator around the ticks.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::Duration;

use robot_runtime::behavior::{load_tree, LoadOptions, Registry, Runner, Source};
use robot_runtime::intent::IntentComponent;
use robot_runtime_tests::{shaped_tree, UserIntent, MAP};

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCS.with(Cell::get);
    let r = f();
    (ALLOCS.with(Cell::get) - before, r)
}

#[test]
fn steady_ticks_of_an_original_shaped_tree_do_not_allocate() {
    for (files_n, seed) in [(60, 1), (350, 2)] {
        let files = shaped_tree::tree(files_n, seed);
        let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
        let tree = load_tree(
            &Registry::<UserIntent>::with_builtins(),
            &sources,
            "InitNormalOperation",
            &LoadOptions::original(),
        )
        .unwrap();
        let mut r = Runner::new(tree, IntentComponent::new(&MAP));
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
