//! The byte-level scanner for flat JSON objects of strings (the common shape of cloud
//! parameters): no serde, no allocation; anything else falls back to the streaming
//! deserializer.

/// `a == b` for byte slices, inline. Parameter names are a few bytes
/// to a few words long; `==` on slices calls the C library's `bcmp`, which costs more
/// than the comparison itself here.
#[inline]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    let w8 = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    let w4 = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().expect("4 bytes"));
    match n {
        0..=3 => a[..n].iter().zip(&b[..n]).all(|(x, y)| x == y),
        // Two overlapping words cover the whole slice.
        4..=8 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        _ => {
            let mut i = 0;
            while i + 8 < n {
                if w8(a, i) != w8(b, i) {
                    return false;
                }
                i += 8;
            }
            w8(a, n - 8) == w8(b, n - 8)
        }
    }
}

/// Index of the first `"`, `\\` or control byte at or after `j` (or `b.len()`), eight
/// bytes at a time.
#[inline(always)]
pub(super) fn string_end(b: &[u8], mut j: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(j..j + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let q = x ^ (LO * u64::from(b'"'));
        let s = x ^ (LO * u64::from(b'\\'));
        let special = (q.wrapping_sub(LO) & !q)
            | (s.wrapping_sub(LO) & !s)
            | (x.wrapping_sub(LO * 0x20) & !x);
        let hit = special & HI;
        if hit != 0 {
            // Each of the three tests flags its first matching byte exactly (a borrow
            // only starts at a matching byte, so only bytes above it can be flagged
            // wrongly): the lowest flag is the first special byte.
            return j + (hit.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < b.len() && !matches!(b[j], b'"' | b'\\' | 0..=0x1f) {
        j += 1;
    }
    j
}

/// Scans `{"k":"v", ...}` (JSON whitespace allowed, strings without escapes or control
/// characters) and calls `pair` for each pair until it returns false. Returns false when
/// the text is anything else (then `pair` may have seen a prefix of the pairs).
#[inline]
pub(super) fn scan_flat_object<'a>(
    text: &'a str,
    mut pair: impl FnMut(&'a str, &'a str) -> bool,
) -> bool {
    scan(text, &mut pair).is_some()
}

/// A string without escapes at `*i` (which must be `"`): returns its content and moves
/// `*i` past its closing quote.
///
/// Always inlined: it runs twice per pair, and a call costs about as much as scanning a
/// short string.
#[inline(always)]
pub(super) fn scan_string<'a>(text: &'a str, i: &mut usize) -> Option<&'a str> {
    let b = text.as_bytes();
    if b.get(*i) != Some(&b'"') {
        return None;
    }
    let start = *i + 1;
    let j = string_end(b, start);
    if b.get(j) == Some(&b'"') {
        *i = j + 1;
        // Both ends are ASCII quotes: char boundaries.
        return Some(&text[start..j]);
    }
    None
}

pub(super) fn scan<'a>(
    text: &'a str,
    pair: &mut impl FnMut(&'a str, &'a str) -> bool,
) -> Option<()> {
    let b = text.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    let string = |i: &mut usize| scan_string(text, i);
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    ws(&mut i);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            let k = string(&mut i)?;
            ws(&mut i);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i += 1;
            ws(&mut i);
            let v = string(&mut i)?;
            if !pair(k, v) {
                return Some(());
            }
            ws(&mut i);
            match b.get(i) {
                Some(b',') => {
                    i += 1;
                    ws(&mut i);
                }
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    ws(&mut i);
    (i == b.len()).then_some(())
}

#[cfg(test)]
mod tests {
    use super::{same_bytes, string_end};

    #[test]
    fn string_end_finds_the_first_special_byte() {
        // Every position of the special byte, in and after the 8-byte chunks, with other
        // special bytes after it (a word-at-a-time test may flag those too).
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for len in 0..24 {
                for at in 0..=len {
                    let mut b = vec![b'a'; len];
                    if at < len {
                        b[at] = special;
                        for later in b.iter_mut().skip(at + 1).step_by(3) {
                            *later = b'"';
                        }
                    }
                    assert_eq!(string_end(&b, 0), at, "{special:#x} at {at} of {len}");
                }
            }
        }
        // Bytes that look special to a careless test: 0x20, 0x7f, 0x80, 0xa2, 0xdc.
        let b = [
            0x20, 0x7f, 0x80, 0xa2, 0xdc, 0x21, 0x5b, 0x5d, 0x23, 0xe9, b'"',
        ];
        assert_eq!(string_end(&b, 0), 10);
        assert_eq!(string_end(b"ab\"cdefghij", 3), 11);
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefgh",
            "abcdefghi",
        ];
        for len in 0..40 {
            let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            for i in 0..len {
                let mut b = a.clone();
                b[i] ^= 1;
                assert!(!same_bytes(&a, &b), "differs at {i} of {len}");
            }
        }
        for w in words {
            for v in words {
                assert_eq!(
                    same_bytes(w.as_bytes(), v.as_bytes()),
                    w == v,
                    "{w:?} {v:?}"
                );
            }
        }
    }
}
