//! Time arithmetic the kinds share: a window on a duration that grows with time, its answer
//! and its next change from the same bounds ([`Window`]); when "base + t ≤ now" becomes true
//! ([`reached`]); when a behavior timer's cooldown expires ([`timer_change`]).

use std::time::Duration;

use robot_runtime::behavior::Wakeup;

use crate::robot_state::BehaviorTimers;

/// One nanosecond: a value tested with `≤` changes just after its bound.
pub(super) const NS: Duration = Duration::from_nanos(1);

/// The test `min ≤ d ≤ max` of a duration `d` that grows with time (how long a state has
/// lasted, the time since an event; None: the state does not hold, the test is false): its
/// answer and, from the same bounds, when that answer next changes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    pub(super) min: Duration,
    pub(super) max: Duration,
}

impl Window {
    /// The test's answer.
    pub(super) fn holds(self, d: Option<Duration>) -> bool {
        d.is_some_and(|d| self.min <= d && d <= self.max)
    }
    /// When the answer next changes, `d` being read at `now`: when `d` reaches `min`, just
    /// after it passes `max`, never once past it (or while the state does not hold).
    pub(super) fn next_change(self, d: Option<Duration>, now: Duration) -> Wakeup {
        match d {
            Some(d) if d < self.min => Wakeup::At(now.saturating_add(self.min - d)),
            Some(d) if d <= self.max => {
                Wakeup::At(now.saturating_add(self.max - d).saturating_add(NS))
            }
            _ => Wakeup::Never,
        }
    }
}

/// When "timer `index` has expired after `cooldown`" (elapsed > cooldown) next changes.
pub(super) fn timer_change(
    timers: &BehaviorTimers,
    index: Option<usize>,
    cooldown: Duration,
    now: Duration,
) -> Wakeup {
    match index.and_then(|i| timers.reset_at(i)) {
        Some(t) if now.saturating_sub(t) <= cooldown => {
            Wakeup::At(t.saturating_add(cooldown).saturating_add(NS))
        }
        _ => Wakeup::Never,
    }
}

/// When "`base` + `t` ≤ now" next changes (None: `base` unknown, a constant).
pub(super) fn reached(base: Option<Duration>, t: Duration, now: Duration) -> Wakeup {
    match base {
        Some(b) if b.saturating_add(t) > now => Wakeup::At(b.saturating_add(t)),
        _ => Wakeup::Never,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_growing_duration_changes_at_both_ends_of_its_window() {
        let s = Duration::from_secs;
        // d = 1 s at now = 10 s; window [3 s, 5 s]: true from 12 s, false after 14 s.
        let w = Window {
            min: s(3),
            max: s(5),
        };
        assert_eq!(w.next_change(Some(s(1)), s(10)), Wakeup::At(s(12)));
        assert_eq!(w.next_change(Some(s(4)), s(10)), Wakeup::At(s(11) + NS));
        assert_eq!(w.next_change(Some(s(6)), s(10)), Wakeup::Never);
        assert_eq!(w.next_change(None, s(10)), Wakeup::Never);
        assert!(!w.holds(Some(s(1))) && w.holds(Some(s(3))) && w.holds(Some(s(5))));
        assert!(!w.holds(Some(s(5) + NS)) && !w.holds(None));
        let open = Window {
            min: Duration::ZERO,
            max: Duration::MAX,
        };
        assert_eq!(
            open.next_change(Some(s(1)), s(10)),
            Wakeup::At(Duration::MAX)
        );
    }
}
