//! Time arithmetic the kinds share for their next change: when a duration that grows with
//! time enters or leaves a window ([`window`]), when "base + t ≤ now" becomes true
//! ([`reached`]), when a behavior timer's cooldown expires ([`timer_change`]).

use std::time::Duration;

use robot_runtime::behavior::Wakeup;

use crate::robot_state::BehaviorTimers;

/// One nanosecond: a value tested with `≤` changes just after its bound.
pub(super) const NS: Duration = Duration::from_nanos(1);

/// A duration `d` that grows with time, tested against `min ≤ d ≤ max`: when the test's
/// value next changes, `now` being the time `d` was read at.
pub(super) fn window(d: Duration, min: Duration, max: Duration, now: Duration) -> Wakeup {
    if d < min {
        Wakeup::At(now.saturating_add(min - d))
    } else if d <= max {
        Wakeup::At(now.saturating_add(max - d).saturating_add(NS))
    } else {
        Wakeup::Never
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
        assert_eq!(window(s(1), s(3), s(5), s(10)), Wakeup::At(s(12)));
        assert_eq!(window(s(4), s(3), s(5), s(10)), Wakeup::At(s(11) + NS));
        assert_eq!(window(s(6), s(3), s(5), s(10)), Wakeup::Never);
        assert_eq!(
            window(s(1), Duration::ZERO, Duration::MAX, s(10)),
            Wakeup::At(Duration::MAX)
        );
    }
}
