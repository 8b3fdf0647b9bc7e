//! A branch hint the crate's minimum Rust lacks (`std::hint::cold_path` is newer).

/// Marks the branch it is called in as unlikely: the compiler lays the branch out after the
/// code around it, so the code every request runs stays together in the instruction cache
/// (BENCHMARKS.md, issue 29: the HRI path's time is its code footprint). A call to an empty
/// function, made only on that branch.
#[cold]
#[inline(never)]
pub(crate) fn cold_path() {}
