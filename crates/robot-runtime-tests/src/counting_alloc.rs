//! A counting global allocator for the allocation tests (`tests/intent_alloc.rs`,
//! `tests/behavior_alloc.rs`; the robot example's `tests/alloc.rs` and
//! `tests/behavior_alloc.rs` and clad-zenoh's `tests/ros2_alloc.rs` read this file too, with
//! `#[path]`: it depends on nothing but `std`).
//!
//! Counts per thread: the test harness runs tests on several threads at once, and a
//! process-wide counter would also count another test's allocations. A test file installs it
//! with `#[global_allocator] static GLOBAL: Counting = Counting;` and measures with
//! [`allocations`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    // `const`: no lazy initialisation, so reading it never allocates.
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: during thread teardown the slot may be gone; those allocations are not
    // the test's.
    let _ = COUNT.try_with(|c| c.set(c.get() + 1));
}

/// The system allocator, counting allocations (alloc, alloc_zeroed, realloc) per thread.
pub struct Counting;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

/// Runs `f` and returns the allocations it made on this thread, with its result. Counts only
/// when [`Counting`] is the test binary's global allocator.
pub fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = COUNT.with(Cell::get);
    let r = f();
    (COUNT.with(Cell::get) - before, r)
}
