//! [`SpareStrings`]: the strings of released records kept to be written over by the next
//! records, so that a client that takes and gives back over and over allocates none (the
//! arbiter's claim labels, the mission controller's request objects). A leaf: it imports
//! nothing of the crate.

/// At most `N` strings of at most `MAX_BYTES` bytes of capacity each, kept for reuse.
#[derive(Debug, Default)]
pub(crate) struct SpareStrings<const N: usize, const MAX_BYTES: usize> {
    kept: Vec<String>,
}

impl<const N: usize, const MAX_BYTES: usize> SpareStrings<N, MAX_BYTES> {
    /// `text` in a kept string when there is one, else in a new one.
    pub(crate) fn take(&mut self, text: &str) -> String {
        let mut s = self.kept.pop().unwrap_or_default();
        s.clear();
        s.push_str(text);
        s
    }

    /// Keeps `s` for a later [`take`](Self::take), unless `N` are kept already or it is
    /// larger than `MAX_BYTES` (a burst or a long text is not held on to for good).
    pub(crate) fn give_back(&mut self, s: String) {
        if self.kept.len() < N && s.capacity() <= MAX_BYTES {
            self.kept.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_reused_up_to_the_limits() {
        let mut spare = SpareStrings::<2, 16>::default();
        let a = spare.take("first");
        let ptr = a.as_ptr();
        spare.give_back(a);
        let b = spare.take("second");
        assert_eq!(b, "second");
        assert_eq!(b.as_ptr(), ptr, "the kept string is written over");
        spare.give_back(String::with_capacity(64));
        assert!(spare.kept.is_empty(), "a large string is not kept");
        for _ in 0..3 {
            spare.give_back(String::with_capacity(8));
        }
        assert_eq!(spare.kept.len(), 2);
    }
}
