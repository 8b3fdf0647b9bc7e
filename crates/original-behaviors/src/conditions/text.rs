//! Text the kinds' details share (what inspection shows): durations, ranges of durations,
//! names from the catalog's lists.

use std::time::Duration;

/// The name at index `i` of a catalog list, for a person (`?` past its end).
pub(super) fn name_at(names: &[&str], i: usize) -> String {
    names.get(i).copied().unwrap_or("?").to_owned()
}

/// A duration for a person: `1.5 s`, `∞`.
pub(super) fn secs(d: Duration) -> String {
    if d == Duration::MAX {
        "∞".to_owned()
    } else {
        format!("{} s", (d.as_secs_f64() * 1000.0).round() / 1000.0)
    }
}

/// A range of durations for a person: `0.25 s..1 s`, `≥ 0.5 s` (no end, or an infinite
/// one).
pub(super) fn range(min: Duration, max: Option<Duration>) -> String {
    match max {
        Some(m) if m != Duration::MAX => format!("{}..{}", secs(min), secs(m)),
        _ => format!("≥ {}", secs(min)),
    }
}
