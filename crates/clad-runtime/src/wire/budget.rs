//! The up-front reservation budget of the decoder: however large a (checked) element count
//! is, reading a variable array reserves at most [`MAX_PREALLOC_BYTES`] before elements are
//! actually decoded, so a hostile count never allocates more than the input could hold.

/// Up-front reservation budget (in bytes of the in-memory `Vec`) when unpacking a variable
/// array. The count has already been checked against the remaining input, but an element
/// can be much larger in memory than its minimum wire size (a union with one large and one
/// tiny member), so a longer array reserves this much and then grows only as elements are
/// actually decoded.
const MAX_PREALLOC_BYTES: usize = 1 << 20;

#[inline]
pub(super) fn prealloc<T>(count: usize) -> Vec<T> {
    Vec::with_capacity(prealloc_count::<T>(count))
}

/// How many of `count` elements to reserve up front (capped at [`MAX_PREALLOC_BYTES`]).
#[inline]
pub(super) fn prealloc_count<T>(count: usize) -> usize {
    count.min(MAX_PREALLOC_BYTES / core::mem::size_of::<T>().max(1))
}
