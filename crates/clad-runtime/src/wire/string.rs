//! String members (`string[L:max]`): sizes, writing, reading into a new or an existing
//! `String` or as a borrowed `&str`, and runs of consecutive string members read and
//! written with one check.
//!
//! Generic over the length-prefix type `L` and `#[inline]`, so a generated field is one
//! call.

use super::error::{FieldContext, PackError, PackErrorKind, SeqKind, UnpackError, UnpackErrorKind};
use super::length::{read_bytes_u64, read_len, write_len};
use super::reader::Reader;
use super::traits::LengthPrefix;
use super::writer::Writer;

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
/// order); `fields` gives each member's schema name and declared maximum (or
/// [`NO_MAX`](super::NO_MAX)).
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
/// strings; `fields` gives each member's schema name and declared maximum (or
/// [`NO_MAX`](super::NO_MAX)).
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

#[cfg(test)]
mod tests {
    use super::super::length::NO_MAX;
    use super::*;

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
