//! Hints to the code generator: a branch hint the crate's minimum Rust lacks
//! (`std::hint::cold_path` is newer), and a push that builds the value where it is kept.

/// Marks the branch it is called in as unlikely: the compiler lays the branch out after the
/// code around it, so the code every request runs stays together in the instruction cache
/// (BENCHMARKS.md, issue 29: the HRI path's time is its code footprint). A call to an empty
/// function, made only on that branch.
#[cold]
#[inline(never)]
pub(crate) fn cold_path() {}

/// Pushes the value `make` builds onto `v`, built in its slot: room is made first, then
/// `make` runs and its fields are written where the value stays.
///
/// `v.push(value)` builds `value` first, in the caller's frame, one field at a time (a
/// byte-wide flag, a tag), keeps it there across the growth check, then copies it into the
/// slot with wide loads. Each wide load over narrow stores just made waits for them to
/// retire (a failed store-to-load forward): measured in `perf annotate` as a quarter to
/// over half of the time of the function pushing, on every HRI request (issue 29). Here the
/// vector reserves before `make` runs, and the fields go straight into the slot. (Not a
/// guarantee of the language, only of the code generated today: `BENCHMARKS.md` has the
/// measurements.) `Vec::extend` over `iter::once_with` does the same, but the compiler
/// leaves its `extend_trusted` out of line in some callers, which moves the value through
/// memory again.
#[inline(always)]
pub(crate) fn push_in_place<T>(v: &mut Vec<T>, make: impl FnOnce() -> T) {
    v.reserve(1);
    let len = v.len();
    // Past the length, room for one at least (`reserve`): the index holds. A `make` that
    // panics leaves the vector as it was.
    v.spare_capacity_mut()[0].write(make());
    // SAFETY: the element at `len`, the first past the length, was just written, so the
    // first `len + 1` are initialized, and `reserve(1)` made the capacity at least that.
    unsafe { v.set_len(len + 1) };
}

#[cfg(test)]
mod tests {
    use super::push_in_place;

    #[test]
    fn pushes_at_the_end_growing_when_full() {
        let mut v: Vec<String> = Vec::new();
        for i in 0..100 {
            push_in_place(&mut v, || i.to_string());
        }
        assert_eq!(v.len(), 100);
        assert!(v.iter().enumerate().all(|(i, s)| *s == i.to_string()));
        let mut exact = Vec::with_capacity(2);
        exact.extend([1u8, 2]);
        push_in_place(&mut exact, || 3);
        assert_eq!(exact, [1, 2, 3]);
    }

    #[test]
    fn a_panicking_make_leaves_the_vector_as_it_was() {
        let mut v = vec![String::from("kept")];
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            push_in_place(&mut v, || -> String { panic!("make failed") });
        }));
        assert!(caught.is_err());
        assert_eq!(v, ["kept"]);
        push_in_place(&mut v, || String::from("next"));
        assert_eq!(v, ["kept", "next"]);
    }
}
