//! Arrays: variable-length arrays of [`Wire`] types and of bytes (`T x[L:max]`),
//! fixed-length arrays read without `T: Default`, and arrays of strings (variable or
//! fixed), with their sizes.

use super::budget::{prealloc, prealloc_count};
use super::error::{FieldContext, PackError, SeqKind, UnpackError};
use super::fixed::read_fixed_with;
use super::length::{check_count, check_zero_sized_pack, read_bytes_u64, read_len, write_len};
use super::reader::Reader;
use super::string::{read_string, read_string_into, write_string};
use super::traits::{LengthPrefix, Wire};
use super::writer::Writer;

/// Encoded size of the elements of `items` (no prefix).
#[inline]
pub(super) fn elements_size<T: Wire>(items: &[T]) -> usize {
    match T::FIXED_SIZE {
        Some(size) => size * items.len(),
        None => items.iter().map(Wire::packed_size).sum(),
    }
}

/// Encoded size of the variable array `T[L]` holding `items`.
#[inline]
pub fn vec_size<L: LengthPrefix, T: Wire>(items: &[T]) -> usize {
    L::SIZE + elements_size(items)
}

/// Writes the variable array `T[L:max]`: the count as `L`, then each element. Fails when
/// the count exceeds `L`'s range or `max`. Element errors get the element index in their
/// path.
#[inline]
pub fn write_vec<L: LengthPrefix, T: Wire>(
    w: &mut Writer<'_>,
    items: &[T],
    max: u64,
) -> Result<(), PackError> {
    check_zero_sized_pack::<T>(w, items.len())?;
    write_len::<L>(w, SeqKind::Array, items.len(), max)?;
    for (i, item) in items.iter().enumerate() {
        item.write_to(w).in_index(i)?;
    }
    Ok(())
}

/// Reads the variable array `T[L:max]`. The count is checked against `max` and against the
/// remaining input (`count * T::MIN_SIZE` bytes must be left) before the `Vec` is
/// allocated; the up-front reservation is also capped at 1 MiB, so memory use stays
/// proportional to the input actually decoded.
#[inline]
pub fn read_vec<L: LengthPrefix, T: Wire>(
    r: &mut Reader<'_>,
    max: u64,
) -> Result<Vec<T>, UnpackError> {
    // `read_counted`'s loop, written out: through the closure the compiler lays this
    // hottest loop out differently, 3 ns slower on six 13-byte elements (measured).
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    let count = check_count(r, len, T::MIN_SIZE)?;
    if T::ANY_BYTES_VALID {
        // Numbers: one length check, one decoding loop into an exact allocation.
        let mut items = Vec::new();
        T::read_vec_items_into(r, count, &mut items)?;
        return Ok(items);
    }
    let mut items = prealloc(count);
    for i in 0..count {
        items.push(T::read_from(r).in_index(i)?);
    }
    Ok(items)
}

/// Reads the variable array `T[L:max]` into `items`, reusing its capacity and reading into
/// the elements it already holds ([`Wire::read_vec_items_into`]); same checks and errors
/// as [`read_vec`]. On error `items` holds valid elements, how many is unspecified.
#[inline]
pub fn read_vec_into<L: LengthPrefix, T: Wire>(
    r: &mut Reader<'_>,
    max: u64,
    items: &mut Vec<T>,
) -> Result<(), UnpackError> {
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    let count = check_count(r, len, T::MIN_SIZE)?;
    T::read_vec_items_into(r, count, items)
}

/// The common loop of the variable arrays of strings and of views: reads the count as `L` (checked against `max`), checks
/// that `count` elements of at least `min_element_size` bytes fit in the remaining input,
/// allocates once (capped, see [`read_vec`]), then reads each element with `read_one`,
/// adding its index to an error's path.
#[inline(always)]
pub(super) fn read_counted<'a, L: LengthPrefix, T>(
    r: &mut Reader<'a>,
    max: u64,
    min_element_size: usize,
    mut read_one: impl FnMut(&mut Reader<'a>) -> Result<T, UnpackError>,
) -> Result<Vec<T>, UnpackError> {
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    let count = check_count(r, len, min_element_size)?;
    let mut items = prealloc(count);
    for i in 0..count {
        items.push(read_one(r).in_index(i)?);
    }
    Ok(items)
}

/// Fast path for `uint_8 name[L:max]` held as `Vec<u8>`/`&[u8]`: writes the count and the
/// bytes with one copy. Same bytes as [`write_vec::<L, u8>`](write_vec).
#[inline]
pub fn write_byte_vec<L: LengthPrefix>(
    w: &mut Writer<'_>,
    bytes: &[u8],
    max: u64,
) -> Result<(), PackError> {
    write_len::<L>(w, SeqKind::Array, bytes.len(), max)?;
    w.write_bytes(bytes)
}

/// Fast path for `uint_8 name[L:max]`: reads the count and copies the bytes once. Same
/// result as [`read_vec::<L, u8>`](read_vec).
#[inline]
pub fn read_byte_vec<L: LengthPrefix>(
    r: &mut Reader<'_>,
    max: u64,
) -> Result<Vec<u8>, UnpackError> {
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    read_bytes_u64(r, len).map(<[u8]>::to_vec)
}

/// Reads `uint_8 name[L:max]` into `bytes`, reusing its capacity; same checks and errors
/// as [`read_byte_vec`]. On error `bytes` is left as it was.
#[inline]
pub fn read_byte_vec_into<L: LengthPrefix>(
    r: &mut Reader<'_>,
    max: u64,
    bytes: &mut Vec<u8>,
) -> Result<(), UnpackError> {
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    let input = read_bytes_u64(r, len)?;
    bytes.clear();
    bytes.extend_from_slice(input);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Arrays of strings
// ---------------------------------------------------------------------------------------

/// Encoded size of the strings (each `string[SL]`) without any array prefix: this is also
/// the size of a fixed array of strings.
#[inline]
pub fn strings_size<SL: LengthPrefix>(items: &[impl AsRef<str>]) -> usize {
    items.len() * SL::SIZE + items.iter().map(|s| s.as_ref().len()).sum::<usize>()
}

/// Encoded size of the variable array `string[SL][L]` holding `items`.
#[inline]
pub fn string_vec_size<L: LengthPrefix, SL: LengthPrefix>(items: &[impl AsRef<str>]) -> usize {
    L::SIZE + strings_size::<SL>(items)
}

/// Writes each string as `string[SL:string_max]`, no array prefix (a fixed array of
/// strings; pass the array, it coerces to a slice).
#[inline]
pub fn write_strings<SL: LengthPrefix>(
    w: &mut Writer<'_>,
    items: &[impl AsRef<str>],
    string_max: u64,
) -> Result<(), PackError> {
    for (i, s) in items.iter().enumerate() {
        write_string::<SL>(w, s.as_ref(), string_max).in_index(i)?;
    }
    Ok(())
}

/// Writes the variable array `string[SL:string_max] name[L:max]`.
#[inline]
pub fn write_string_vec<L: LengthPrefix, SL: LengthPrefix>(
    w: &mut Writer<'_>,
    items: &[impl AsRef<str>],
    max: u64,
    string_max: u64,
) -> Result<(), PackError> {
    write_len::<L>(w, SeqKind::Array, items.len(), max)?;
    write_strings::<SL>(w, items, string_max)
}

/// Reads the variable array `string[SL:string_max] name[L:max]` (count checked before
/// allocating, as in [`read_vec`]).
#[inline]
pub fn read_string_vec<L: LengthPrefix, SL: LengthPrefix>(
    r: &mut Reader<'_>,
    max: u64,
    string_max: u64,
) -> Result<Vec<String>, UnpackError> {
    read_counted::<L, _>(r, max, SL::SIZE, |r| read_string::<SL>(r, string_max))
}

/// Reads the fixed array `string[SL:string_max] name[N]`.
#[inline]
pub fn read_string_array<SL: LengthPrefix, const N: usize>(
    r: &mut Reader<'_>,
    string_max: u64,
) -> Result<[String; N], UnpackError> {
    read_fixed_with(r, |r| read_string::<SL>(r, string_max))
}

/// Reads the variable array `string[SL:string_max] name[L:max]` into `items`, reusing the
/// `Vec` and the strings it holds; same checks and errors as [`read_string_vec`]. On
/// error `items` holds valid strings, how many is unspecified.
#[inline]
pub fn read_string_vec_into<L: LengthPrefix, SL: LengthPrefix>(
    r: &mut Reader<'_>,
    max: u64,
    string_max: u64,
    items: &mut Vec<String>,
) -> Result<(), UnpackError> {
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    let count = check_count(r, len, SL::SIZE)?;
    items.truncate(count);
    for (i, s) in items.iter_mut().enumerate() {
        read_string_into::<SL>(r, string_max, s).in_index(i)?;
    }
    let reuse = items.len();
    items.reserve(prealloc_count::<String>(count - reuse));
    for i in reuse..count {
        items.push(read_string::<SL>(r, string_max).in_index(i)?);
    }
    Ok(())
}

/// Reads the fixed array `string[SL:string_max] name[N]` into `items` (pass the array),
/// reusing each string's capacity; same checks and errors as [`read_string_array`].
#[inline]
pub fn read_strings_into<SL: LengthPrefix>(
    r: &mut Reader<'_>,
    string_max: u64,
    items: &mut [String],
) -> Result<(), UnpackError> {
    for (i, s) in items.iter_mut().enumerate() {
        read_string_into::<SL>(r, string_max, s).in_index(i)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_size_elements_are_summed() {
        assert_eq!(elements_size(&[[1u8, 2], [3, 4]]), 4);
    }
}
