//! "Did you mean": the one place that decides which known names a misspelt one is close
//! to, for every reader that refuses a name (behavior trees, HRI messages, the maps
//! `robot-codegen` compiles, the example's scenarios). A leaf: it imports nothing of the
//! crate.

/// The closest of `candidates` to `name`, if close enough to be a likely typo: at most
/// one edit per three characters of `name` (at least one), case ignored; on a tie, the
/// first.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let Some(d) = edit_distance_within(name, c, limit) else {
            continue;
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// " (did you mean a, b?)" with the names of `names` close to `s` (the same ignoring case,
/// one containing the other, or else the [`closest`] one; at most five), or "" when none
/// is (or `s` is empty).
pub fn did_you_mean(s: &str, names: &[&str]) -> String {
    if s.is_empty() {
        return String::new();
    }
    let low = s.to_ascii_lowercase();
    let mut close: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| {
            let n = n.to_ascii_lowercase();
            n == low || n.contains(&low) || low.contains(&n)
        })
        .take(5)
        .collect();
    if close.is_empty() {
        close.extend(closest(s, names.iter().copied()));
    }
    if close.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", close.join(", "))
    }
}

/// The Levenshtein distance between `a` and `b` over characters, case ignored, when it is
/// at most `limit` (None: farther). Two names whose lengths differ by more than `limit`
/// are not compared, so a long input costs nothing against short names.
pub fn edit_distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|d| *d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(edit_distance_within("kitten", "sitting", 3), Some(3));
        assert_eq!(edit_distance_within("kitten", "sitting", 2), None);
        assert_eq!(edit_distance_within("Intent", "intent", 1), Some(0));
        assert_eq!(
            closest("set_timr", ["show_clock", "set_timer"]),
            Some("set_timer")
        );
        assert_eq!(closest("xyz", ["set_timer"]), None);
        assert_eq!(
            closest("ReactToHelo", ["ReactToHello"]),
            Some("ReactToHello")
        );
        assert_eq!(closest("priorty", ["intent", "priority"]), Some("priority"));
        // The first of equally close names.
        assert_eq!(closest("ab", ["ac", "ad"]), Some("ac"));
        // A long input against short names: no comparison, no suggestion.
        assert_eq!(closest(&"x".repeat(100_000), ["intent"]), None);
        assert_eq!(
            did_you_mean("powerOn", &["PowerOn", "PowerOff"]),
            " (did you mean PowerOn?)"
        );
        assert_eq!(
            did_you_mean("Count", &["CountInRange", "Tally", "Counts"]),
            " (did you mean CountInRange, Counts?)"
        );
        assert_eq!(
            did_you_mean("CoutInRange", &["CountInRange"]),
            " (did you mean CountInRange?)"
        );
        assert_eq!(did_you_mean("", &["a"]), "");
        assert_eq!(did_you_mean("zzz", &["CountInRange"]), "");
    }
}
