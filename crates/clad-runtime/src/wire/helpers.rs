//! Free helper functions for the CLAD types that are not [`Wire`] types by themselves:
//! strings, variable-length arrays, arrays of strings, enums; plus `const fn`s for the
//! size constants of generated types.
//!
//! All of them are generic over the length-prefix type `L` ([`LengthPrefix`]: `u8`, `u16`,
//! `u32`, `u64`) and `#[inline]`, so a generated field is one call.

use super::error::{FieldContext, PackError, PackErrorKind, SeqKind, UnpackError, UnpackErrorKind};
use super::reader::Reader;
use super::traits::{LengthPrefix, Wire};
use super::writer::Writer;

/// Largest element count accepted for a variable array whose elements may encode to zero
/// bytes (`T::MIN_SIZE == 0`, e.g. an array of empty messages). Such a count cannot be
/// checked against the remaining input, so without a limit a few bytes could make the
/// decoder loop for a very long time. Applied when packing as well, so anything that packs
/// also unpacks.
pub const MAX_ZERO_SIZED_ELEMENTS: u64 = 1 << 16;

/// Up-front reservation budget (in bytes of the in-memory `Vec`) when unpacking a variable
/// array. The count has already been checked against the remaining input, but an element
/// can be much larger in memory than its minimum wire size (a union with one large and one
/// tiny member), so a longer array reserves this much and then grows only as elements are
/// actually decoded.
const MAX_PREALLOC_BYTES: usize = 1 << 20;

#[inline]
fn prealloc<T>(count: usize) -> Vec<T> {
    Vec::with_capacity(prealloc_count::<T>(count))
}

/// How many of `count` elements to reserve up front (capped at [`MAX_PREALLOC_BYTES`]).
#[inline]
pub(super) fn prealloc_count<T>(count: usize) -> usize {
    count.min(MAX_PREALLOC_BYTES / core::mem::size_of::<T>().max(1))
}

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
fn check_zero_sized_pack<T: Wire>(w: &Writer<'_>, len: usize) -> Result<(), PackError> {
    if T::MIN_SIZE == 0 && len as u64 > MAX_ZERO_SIZED_ELEMENTS {
        return Err(w.error(PackErrorKind::TooManyElements {
            count: len as u64,
            limit: MAX_ZERO_SIZED_ELEMENTS,
        }));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------------------

/// Encoded size of `string[L]` holding `s`: the prefix plus the UTF-8 byte count.
#[inline]
pub fn string_size<L: LengthPrefix>(s: &str) -> usize {
    L::SIZE + s.len()
}

/// Writes `string[L:max]`: the byte count as `L`, then the UTF-8 bytes. Fails when the
/// byte count exceeds `L`'s range or `max` (nothing is truncated).
#[inline]
pub fn write_string<L: LengthPrefix>(
    w: &mut Writer<'_>,
    s: &str,
    max: u64,
) -> Result<(), PackError> {
    write_len::<L>(w, SeqKind::String, s.len(), max)?;
    w.write_bytes(s.as_bytes())
}

/// Reads `string[L:max]` into a new `String`. Rejects a length above `max`, truncated
/// input (before allocating) and invalid UTF-8.
#[inline]
pub fn read_string<L: LengthPrefix>(r: &mut Reader<'_>, max: u64) -> Result<String, UnpackError> {
    read_str::<L>(r, max).map(str::to_owned)
}

/// Reads `string[L:max]` into `s`, reusing its capacity; same checks and errors as
/// [`read_string`]. On error `s` is left as it was.
#[inline]
pub fn read_string_into<L: LengthPrefix>(
    r: &mut Reader<'_>,
    max: u64,
    s: &mut String,
) -> Result<(), UnpackError> {
    let text = read_str::<L>(r, max)?;
    s.clear();
    s.push_str(text);
    Ok(())
}

/// Like [`read_string`] but borrows the string from the input (zero-copy).
#[inline]
pub fn read_str<'a, L: LengthPrefix>(r: &mut Reader<'a>, max: u64) -> Result<&'a str, UnpackError> {
    let len = read_len::<L>(r, SeqKind::String, max)?;
    let start = r.position();
    let bytes = read_bytes_u64(r, len)?;
    match core::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => Err(UnpackError::new(
            UnpackErrorKind::InvalidUtf8 {
                valid_up_to: e.valid_up_to(),
            },
            start + e.valid_up_to(),
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Runs of string members
// ---------------------------------------------------------------------------------------

/// Writes `N` consecutive `string[L]` members of the structure `type_name` (`strings`, in
/// order); `fields` gives each member's schema name and declared maximum (or [`NO_MAX`]).
///
/// The bytes and errors are exactly those of [`write_string`] per member followed by
/// [`FieldContext::in_field`], but a run whose lengths are all within their limits and that
/// fits in the buffer is written through one space check, the writer's position kept in a
/// register: seven short strings no longer update the writer fourteen times. Otherwise the
/// run is written member by member, which reports the error at the member and offset where
/// it occurs.
#[inline]
pub fn write_str_run<L: LengthPrefix, const N: usize>(
    w: &mut Writer<'_>,
    type_name: &'static str,
    fields: &[(&'static str, u64); N],
    strings: [&str; N],
) -> Result<(), PackError> {
    if str_run_write_at_once::<L, N>(w, fields, &strings)? {
        return Ok(());
    }
    for (s, &(name, max)) in strings.iter().zip(fields) {
        write_string::<L>(w, s, max).in_field(type_name, name)?;
    }
    Ok(())
}

/// The one-check write of [`write_str_run`]: `Ok(false)` (and `w` untouched) when it does
/// not apply.
#[inline(always)]
fn str_run_write_at_once<L: LengthPrefix, const N: usize>(
    w: &mut Writer<'_>,
    fields: &[(&'static str, u64); N],
    strings: &[&str; N],
) -> Result<bool, PackError> {
    let mut total: usize = 0;
    for (s, &(_, max)) in strings.iter().zip(fields) {
        let n = s.len() as u64;
        if n > L::LIMIT || n > max {
            return Ok(false);
        }
        total = total.saturating_add(L::SIZE + s.len());
    }
    let Some(out) = w.take_bytes(total) else {
        return Ok(false);
    };
    match fill_str_run::<L>(out, strings) {
        Some(()) => Ok(true),
        // Cannot happen (`out` is the run's exact size); were it to, it is an error, never
        // a short write reported as success.
        None => Err(w.error(PackErrorKind::BufferTooSmall {
            need: total,
            left: 0,
        })),
    }
}

/// Writes each string's length prefix and bytes into `out`; `Some` when they fill it
/// exactly.
#[inline(always)]
fn fill_str_run<L: LengthPrefix>(mut out: &mut [u8], strings: &[&str]) -> Option<()> {
    for s in strings {
        let (prefix, rest) = out.split_at_mut_checked(L::SIZE)?;
        L::write_prefix(s.len() as u64, prefix)?;
        let (body, rest) = rest.split_at_mut_checked(s.len())?;
        super::writer::copy_bytes(body, s.as_bytes());
        out = rest;
    }
    out.is_empty().then_some(())
}

/// Reads `N` consecutive `string[L]` members of the structure `type_name` as borrowed
/// strings; `fields` gives each member's schema name and declared maximum (or [`NO_MAX`]).
///
/// Results, reader position and errors are exactly those of [`read_str`] per member
/// followed by [`FieldContext::in_field`], but a run that decodes cleanly is validated as
/// UTF-8 in one pass: the bytes from the first string's start to the last string's end,
/// length prefixes included, are checked at once and each string is sliced out of that
/// `str` (a slice that does not start and end on character boundaries is not taken). When
/// the one pass fails (a length prefix byte of 0x80 or more, a length above its maximum,
/// truncated input, invalid UTF-8), the run is read again member by member, which reports
/// the error. For seven short strings this halves the cost of validating them one by one.
#[inline]
pub fn read_str_run<'a, L: LengthPrefix, const N: usize>(
    r: &mut Reader<'a>,
    type_name: &'static str,
    fields: &[(&'static str, u64); N],
) -> Result<[&'a str; N], UnpackError> {
    match str_run_at_once::<L, N>(r, fields) {
        Some(strs) => Ok(strs),
        None => str_run_one_by_one::<L, N>(r, type_name, fields),
    }
}

/// Reads the run like [`read_str_run`] into new `String`s.
#[inline]
pub fn read_string_run<L: LengthPrefix, const N: usize>(
    r: &mut Reader<'_>,
    type_name: &'static str,
    fields: &[(&'static str, u64); N],
) -> Result<[String; N], UnpackError> {
    read_str_run::<L, N>(r, type_name, fields).map(|strs| strs.map(str::to_owned))
}

/// Reads the run like [`read_str_run`] into `strings` (the members, in order), reusing their
/// capacity. On error every string is left as it was.
#[inline]
pub fn read_string_run_into<L: LengthPrefix, const N: usize>(
    r: &mut Reader<'_>,
    type_name: &'static str,
    fields: &[(&'static str, u64); N],
    strings: [&mut String; N],
) -> Result<(), UnpackError> {
    let strs = read_str_run::<L, N>(r, type_name, fields)?;
    for (s, text) in strings.into_iter().zip(strs) {
        s.clear();
        s.push_str(text);
    }
    Ok(())
}

/// The one-pass read of [`read_str_run`]; `None` (and `r` untouched) when it does not apply.
/// (Always inlined: as a call, returning the strings through memory cost more than the
/// loop.)
#[inline(always)]
fn str_run_at_once<'a, L: LengthPrefix, const N: usize>(
    r: &mut Reader<'a>,
    fields: &[(&'static str, u64); N],
) -> Option<[&'a str; N]> {
    let input = r.remaining_bytes();
    // Each string's bytes as offsets into `input` (plain slice arithmetic: through the
    // `Reader` this loop took twice as long).
    // The bounds are checked once, on the whole run (`end` saturates; a prefix past the
    // input is not found).
    let mut spans = [(0, 0); N];
    let mut end: usize = 0;
    for (span, &(_, max)) in spans.iter_mut().zip(fields) {
        let len = L::read_prefix(input.get(end..)?)?;
        if len > max {
            return None;
        }
        let start = end + L::SIZE;
        end = start.saturating_add(usize::try_from(len).ok()?);
        *span = (start, end);
    }
    let first = spans.first().map_or(0, |span| span.0);
    // Valid UTF-8 from the first string's start to the end of the run, the length prefixes
    // in between included; a string slice of it is valid UTF-8 when it starts and ends on
    // character boundaries (what `str::get` checks).
    let run = core::str::from_utf8(input.get(first..end)?).ok()?;
    let mut strs = [""; N];
    for (s, &(start, end)) in strs.iter_mut().zip(&spans) {
        *s = run.get(start - first..end - first)?;
    }
    r.read_bytes(end).ok()?;
    Some(strs)
}

/// The member-by-member read of [`read_str_run`] (errors, and runs the one pass rejects).
#[cold]
#[inline(never)]
fn str_run_one_by_one<'a, L: LengthPrefix, const N: usize>(
    r: &mut Reader<'a>,
    type_name: &'static str,
    fields: &[(&'static str, u64); N],
) -> Result<[&'a str; N], UnpackError> {
    let mut strs = [""; N];
    for (s, &(field, max)) in strs.iter_mut().zip(fields) {
        *s = read_str::<L>(r, max).in_field(type_name, field)?;
    }
    Ok(strs)
}

// ---------------------------------------------------------------------------------------
// Variable-length arrays of Wire types
// ---------------------------------------------------------------------------------------

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
// Fixed-length arrays
// ---------------------------------------------------------------------------------------

/// Reads `N` elements with `read_one` into an array, without requiring `T: Default` and
/// without allocating. Element errors get the element index in their path.
#[inline]
pub(super) fn read_fixed_with<'a, T, const N: usize>(
    r: &mut Reader<'a>,
    mut read_one: impl FnMut(&mut Reader<'a>) -> Result<T, UnpackError>,
) -> Result<[T; N], UnpackError> {
    let mut error = None;
    let items: [Option<T>; N] = core::array::from_fn(|i| {
        if error.is_some() {
            return None;
        }
        match read_one(r) {
            Ok(v) => Some(v),
            Err(e) => {
                error = Some(e.in_index(i));
                None
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    // No error was recorded, so every slot was filled.
    Ok(items.map(|item| match item {
        Some(v) => v,
        None => unreachable!("every element was read"),
    }))
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

// ---------------------------------------------------------------------------------------
// Union members of variable size
// ---------------------------------------------------------------------------------------

/// `value.write_to(w)` through a call that is never inlined. Generated unions write their
/// members of variable size (structures with strings or arrays) this way, so that the
/// union's own `write_to` stays small: inlined where it is called, a fixed-size member
/// (the common small command) is a handful of stores instead of a call into one large
/// function that saves every register first.
#[inline(never)]
pub fn write_outlined<T: Wire>(value: &T, w: &mut Writer<'_>) -> Result<(), PackError> {
    value.write_to(w)
}

/// `T::read_from(r)` through a call that is never inlined (see [`write_outlined`]).
#[inline(never)]
pub fn read_outlined<T: Wire>(r: &mut Reader<'_>) -> Result<T, UnpackError> {
    T::read_from(r)
}

/// `value.read_into(r)` through a call that is never inlined (see [`write_outlined`]).
#[inline(never)]
pub fn read_outlined_into<T: Wire>(value: &mut T, r: &mut Reader<'_>) -> Result<(), UnpackError> {
    value.read_into(r)
}

/// Reads the union member `T` named `field` of the union `type_name`, runs `end` after its
/// last byte, and returns it wrapped by `wrap` (the union's variant constructor), adding the
/// member to the path of the member's own errors (not to an error of `end`).
///
/// The member is decoded in place, where the union is returned
/// ([`Wire::read_then_wrap`]): a member returned on its own and then copied into the union
/// right after the stores that built it would stall the copy's loads (store forwarding).
/// Generated unions read their fixed-size structure members of more than 16 bytes this way.
#[inline]
pub fn read_member_then<T, U, F>(
    r: &mut Reader<'_>,
    end: F,
    wrap: impl FnOnce(T) -> U,
    type_name: &'static str,
    field: &'static str,
) -> Result<U, UnpackError>
where
    T: Wire,
    F: FnOnce(&Reader<'_>) -> Result<(), UnpackError>,
{
    let mut end_failed = false;
    // `map_err`, not a `match` or an `if let` on a kept `Result`: through those the compiler
    // kept the `Result` in a temporary and copied all of it out (measured: the 109-byte
    // member 9 -> 15 ns).
    T::read_then_wrap(r, |r| end(r).inspect_err(|_| end_failed = true), wrap).map_err(|e| {
        if end_failed {
            e
        } else {
            e.in_field(type_name, field)
        }
    })
}

/// [`read_member_then`] through a call that is never inlined (see [`write_outlined`]):
/// generated unions read their members of variable size this way.
#[inline(never)]
pub fn read_outlined_then<T, U, F>(
    r: &mut Reader<'_>,
    end: F,
    wrap: impl FnOnce(T) -> U,
    type_name: &'static str,
    field: &'static str,
) -> Result<U, UnpackError>
where
    T: Wire,
    F: FnOnce(&Reader<'_>) -> Result<(), UnpackError>,
{
    read_member_then(r, end, wrap, type_name, field)
}

// ---------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------

/// Reads an enum stored as `S` and converts it with `from_repr`; a value that is not a
/// member (`from_repr` returns `None`) is an [`UnpackErrorKind::InvalidEnum`] error naming
/// `type_name`, at the value's offset.
#[inline]
pub fn read_enum<S, E>(
    r: &mut Reader<'_>,
    type_name: &'static str,
    from_repr: impl FnOnce(S) -> Option<E>,
) -> Result<E, UnpackError>
where
    S: Wire + Copy + Into<i128>,
{
    let at = r.position();
    let raw = S::read_from(r)?;
    match from_repr(raw) {
        Some(value) => Ok(value),
        None => Err(UnpackError::invalid_enum(type_name, raw.into(), at)),
    }
}

// ---------------------------------------------------------------------------------------
// Size constants
// ---------------------------------------------------------------------------------------

/// [`Wire::FIXED_SIZE`] of a message/structure from its members' fixed sizes: the sum when
/// every member is fixed-size, `None` otherwise. `&[]` (empty message) gives `Some(0)`.
pub const fn struct_fixed_size(members: &[Option<usize>]) -> Option<usize> {
    let mut total = 0;
    let mut i = 0;
    while i < members.len() {
        match members[i] {
            Some(size) => total += size,
            None => return None,
        }
        i += 1;
    }
    Some(total)
}

/// [`Wire::FIXED_SIZE`] of a union from its members' fixed sizes: `1 + size` when every
/// member is fixed-size and all sizes are equal, `None` otherwise.
pub const fn union_fixed_size(members: &[Option<usize>]) -> Option<usize> {
    let mut common: Option<usize> = None;
    let mut i = 0;
    while i < members.len() {
        match (members[i], common) {
            (None, _) => return None,
            (Some(size), None) => common = Some(size),
            (Some(size), Some(c)) if size == c => {}
            (Some(_), Some(_)) => return None,
        }
        i += 1;
    }
    match common {
        Some(size) => Some(1 + size),
        None => Some(1),
    }
}

/// [`Wire::MIN_SIZE`] of a union from its members' minimum sizes: `1 + min`.
pub const fn union_min_size(members: &[usize]) -> usize {
    let mut min = usize::MAX;
    let mut i = 0;
    while i < members.len() {
        if members[i] < min {
            min = members[i];
        }
        i += 1;
    }
    if members.is_empty() {
        1
    } else {
        1 + min
    }
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
        // Variable-size elements are summed.
        assert_eq!(elements_size(&[[1u8, 2], [3, 4]]), 4);
    }

    /// `read_str_run` against `read_str` member by member: same strings, position and
    /// errors, whether the one pass applies or not.
    #[test]
    fn string_runs_match_member_by_member() {
        const FIELDS: &[(&str, u64); 3] = &[("a", NO_MAX), ("b", 4), ("c", NO_MAX)];
        fn one_by_one(bytes: &[u8]) -> Result<([&str; 3], usize), UnpackError> {
            let mut r = Reader::new(bytes);
            let mut out = [""; 3];
            for (s, &(field, max)) in out.iter_mut().zip(FIELDS) {
                *s = read_str::<u8>(&mut r, max).in_field("T", field)?;
            }
            Ok((out, r.position()))
        }
        fn run(bytes: &[u8]) -> Result<([&str; 3], usize), UnpackError> {
            let mut r = Reader::new(bytes);
            let out = read_str_run::<u8, 3>(&mut r, "T", FIELDS)?;
            Ok((out, r.position()))
        }
        let long = [b'x'; 200];
        let mut long_first = vec![200];
        long_first.extend_from_slice(&long);
        long_first.extend_from_slice(&[1, b'b', 0, 9]);
        let cases: Vec<Vec<u8>> = vec![
            vec![2, b'h', b'i', 0, 3, b'a', b'b', b'c', 7],
            // Multi-byte characters, a prefix byte 0xC3 followed by a continuation byte.
            vec![2, 0xC3, 0xA9, 4, 0xC3, 0xA9, 0xC3, 0xA9, 0],
            vec![0xC3, 0xA9],
            long_first,
            // Above the second member's max, truncated, invalid UTF-8, no input.
            vec![0, 5, b'a', b'b', b'c', b'd', b'e', 0],
            vec![1, b'a', 2, b'b'],
            vec![1, b'a', 1, 0xFF, 0],
            vec![1, b'a', 1, b'b', 1, 0x80],
            vec![],
        ];
        for bytes in &cases {
            match (one_by_one(bytes), run(bytes)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{bytes:?}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{bytes:?}"),
                (a, b) => panic!("{bytes:?}: {a:?} vs {b:?}"),
            }
        }
        // Into existing strings: the same strings; on error the strings are kept.
        let mut strings = [String::from("old"), String::new(), String::new()];
        let [a, b, c] = &mut strings;
        let mut r = Reader::new(&cases[1]);
        read_string_run_into::<u8, 3>(&mut r, "T", FIELDS, [a, b, c]).unwrap();
        assert_eq!(strings, ["é", "éé", ""]);
        let [a, b, c] = &mut strings;
        let mut r = Reader::new(&cases[5]);
        assert!(read_string_run_into::<u8, 3>(&mut r, "T", FIELDS, [a, b, c]).is_err());
        assert_eq!(strings, ["é", "éé", ""]);
    }

    /// `write_str_run` against `write_string` member by member: the same bytes, position
    /// and errors (length over the prefix's limit, above a member's max, buffer too small at
    /// every size), whether the one-check write applies or not.
    #[test]
    fn string_run_writes_match_member_by_member() {
        use proptest::prelude::*;
        const FIELDS: &[(&str, u64); 3] = &[("a", NO_MAX), ("b", 4), ("c", NO_MAX)];
        type Out = Result<(Vec<u8>, usize), PackError>;
        fn one_by_one(strings: [&str; 3], cap: usize) -> Out {
            let mut buf = vec![0xEE; cap];
            let mut w = Writer::new(&mut buf);
            for (s, &(field, max)) in strings.iter().zip(FIELDS) {
                write_string::<u8>(&mut w, s, max).in_field("T", field)?;
            }
            let n = w.position();
            Ok((buf, n))
        }
        fn run(strings: [&str; 3], cap: usize) -> Out {
            let mut buf = vec![0xEE; cap];
            let mut w = Writer::new(&mut buf);
            write_str_run::<u8, 3>(&mut w, "T", FIELDS, strings)?;
            let n = w.position();
            Ok((buf, n))
        }
        let check =
            |strings: [&str; 3], cap: usize| match (one_by_one(strings, cap), run(strings, cap)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{strings:?} in {cap}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{strings:?} in {cap}"),
                (a, b) => panic!("{strings:?} in {cap}: {a:?} vs {b:?}"),
            };
        let long = "x".repeat(300);
        for strings in [
            ["hi", "abc", "é"],
            ["", "", ""],
            ["a", "abcde", "c"],       // above b's max
            [long.as_str(), "b", "c"], // over the u8 prefix's limit
            ["a", "b", &long[..255]],  // exactly the limit
        ] {
            let need: usize = strings.iter().map(|s| s.len() + 1).sum();
            for cap in 0..=need + 2 {
                check(strings, cap);
            }
        }
        // The fill behind the one-check path refuses a slice of the wrong size (the caller
        // turns that into an error, never a short write).
        let mut exact = [0u8; 5];
        assert_eq!(fill_str_run::<u8>(&mut exact, &["ab", "c"]), Some(()));
        assert_eq!(exact, [2, b'a', b'b', 1, b'c']);
        assert_eq!(fill_str_run::<u8>(&mut [0u8; 4], &["ab", "c"]), None);
        assert_eq!(fill_str_run::<u8>(&mut [0u8; 6], &["ab", "c"]), None);
        proptest!(|(a in ".{0,6}", b in ".{0,3}", c in ".{0,20}", slack in 0usize..4)| {
            let strings = [a.as_str(), b.as_str(), c.as_str()];
            let need: usize = strings.iter().map(|s| s.len() + 1).sum();
            for cap in need.saturating_sub(3)..need + slack {
                check(strings, cap);
            }
        });
    }
}
