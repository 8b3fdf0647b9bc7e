//! [`VirtualClock`]: deterministic time for behaviors and actions. The runner advances it by
//! the `dt` given to each tick; nothing reads the wall clock, so tests replay exactly.

use std::time::Duration;

/// Tick count and virtual time since the runner started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VirtualClock {
    tick: u64,
    now: Duration,
}

impl VirtualClock {
    /// The current tick (1 during the first tick; 0 before it).
    pub fn tick(&self) -> u64 {
        self.tick
    }
    /// Virtual time elapsed since the runner started (sum of the ticks' `dt`).
    pub fn now(&self) -> Duration {
        self.now
    }
    pub(crate) fn advance(&mut self, dt: Duration) {
        self.tick += 1;
        self.now = self.now.saturating_add(dt);
    }
    /// `ticks` calls of [`advance`](Self::advance) at once.
    pub(crate) fn advance_by(&mut self, ticks: u64, dt: Duration) {
        self.tick = self.tick.saturating_add(ticks);
        let total = dt
            .as_nanos()
            .saturating_mul(u128::from(ticks))
            .min(u128::from(u64::MAX));
        self.now = self.now.saturating_add(Duration::from_nanos(total as u64));
    }
}
