//! Length prefixes and the element counts they announce: writing and reading a prefix of
//! type `L` ([`LengthPrefix`]: `u8`, `u16`, `u32`, `u64`) against a declared maximum, and the
//! checks that keep a hostile count from allocating more than the input could hold.

use super::error::{PackError, PackErrorKind, SeqKind, UnpackError, UnpackErrorKind};
use super::reader::Reader;
use super::traits::{LengthPrefix, Wire};
use super::writer::Writer;

/// Largest element count accepted for a variable array whose elements may encode to zero
/// bytes (`T::MIN_SIZE == 0`, e.g. an array of empty messages). Such a count cannot be
/// checked against the remaining input, so without a limit a few bytes could make the
/// decoder loop for a very long time. Applied when packing as well, so anything that packs
/// also unpacks.
pub const MAX_ZERO_SIZED_ELEMENTS: u64 = 1 << 16;

/// "No declared maximum": pass it as `max` when the schema gives no `:max`; the length
/// type's own limit still applies. (Passing the length type's maximum is equivalent.)
pub const NO_MAX: u64 = u64::MAX;

// ---------------------------------------------------------------------------------------
// Length prefixes
// ---------------------------------------------------------------------------------------

/// Writes the length prefix `len` as `L` after checking it against `L`'s range and the
/// declared `max`.
#[inline]
pub fn write_len<L: LengthPrefix>(
    w: &mut Writer<'_>,
    what: SeqKind,
    len: usize,
    max: u64,
) -> Result<(), PackError> {
    let n = len as u64;
    if n > L::LIMIT {
        return Err(w.error(PackErrorKind::LengthOverflow {
            what,
            len,
            length_type: L::TYPE_NAME,
            limit: L::LIMIT,
        }));
    }
    if n > max {
        return Err(w.error(PackErrorKind::AboveMax { what, len, max }));
    }
    L::from_len(n).write_to(w)
}

/// Reads a length prefix of type `L` and checks it against the declared `max` (the error
/// offset is the prefix's first byte).
#[inline]
pub(super) fn read_len<L: LengthPrefix>(
    r: &mut Reader<'_>,
    what: SeqKind,
    max: u64,
) -> Result<u64, UnpackError> {
    let at = r.position();
    let len = L::read_from(r)?.to_len();
    if len > max {
        return Err(UnpackError::new(
            UnpackErrorKind::AboveMax { what, len, max },
            at,
        ));
    }
    Ok(len)
}

/// Checks that `count` elements of at least `min_element_size` bytes each can fit in the
/// remaining input, before anything is allocated, and returns the count as `usize`.
#[inline]
pub(super) fn check_count(
    r: &Reader<'_>,
    count: u64,
    min_element_size: usize,
) -> Result<usize, UnpackError> {
    let left = r.remaining();
    if min_element_size == 0 {
        if count > MAX_ZERO_SIZED_ELEMENTS {
            return Err(r.error(UnpackErrorKind::TooManyElements {
                count,
                limit: MAX_ZERO_SIZED_ELEMENTS,
            }));
        }
    } else {
        let min = min_element_size as u64;
        let fits = matches!(count.checked_mul(min), Some(need) if need <= left as u64);
        if !fits {
            return Err(r.error(UnpackErrorKind::Truncated {
                need: count.saturating_mul(min),
                left,
            }));
        }
    }
    // Either count <= left (a usize) or count <= MAX_ZERO_SIZED_ELEMENTS: no truncation.
    Ok(count as usize)
}

#[inline]
pub(super) fn read_bytes_u64<'a>(r: &mut Reader<'a>, n: u64) -> Result<&'a [u8], UnpackError> {
    r.read_bytes_u64(n)
}

#[inline]
pub(super) fn check_zero_sized_pack<T: Wire>(w: &Writer<'_>, len: usize) -> Result<(), PackError> {
    if T::MIN_SIZE == 0 && len as u64 > MAX_ZERO_SIZED_ELEMENTS {
        return Err(w.error(PackErrorKind::TooManyElements {
            count: len as u64,
            limit: MAX_ZERO_SIZED_ELEMENTS,
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_len_and_check_count() {
        let mut r = Reader::new(&[5, 0, 1, 2, 3]);
        assert_eq!(read_len::<u16>(&mut r, SeqKind::Array, 5).unwrap(), 5);
        assert_eq!(check_count(&r, 3, 1).unwrap(), 3);
        assert!(check_count(&r, 4, 1).is_err());
        assert!(check_count(&r, 2, 2).is_err());
        assert_eq!(check_count(&r, 1000, 0).unwrap(), 1000);
    }
}
