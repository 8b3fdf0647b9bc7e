//! JSON with comments, as the original engine's trees are written: [`strip_comments`]
//! blanks `//` and `/* */` comments outside strings so serde_json reads the rest, with
//! every byte offset (and so every line and column) unchanged. A leaf.

use std::borrow::Cow;

/// Replaces `//` line comments and `/* */` block comments outside strings (the original's
/// reader accepted them) by spaces, keeping newlines: byte offsets, lines and columns of
/// the rest are those of `text`. Returns the text unchanged (borrowed) when it has none.
pub fn strip_comments(text: &str) -> Cow<'_, str> {
    if !text.contains('/') {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            match c {
                b'\\' => i += 2,
                b'"' => {
                    in_str = false;
                    i += 1;
                }
                _ => i += 1,
            }
            continue;
        }
        let line = c == b'/' && b.get(i + 1) == Some(&b'/');
        let block = c == b'/' && b.get(i + 1) == Some(&b'*');
        if !(line || block) {
            in_str = c == b'"';
            i += 1;
            continue;
        }
        let buf = out.get_or_insert_with(|| b.to_vec());
        let end = if line {
            b[i..]
                .iter()
                .position(|&x| x == b'\n')
                .map_or(b.len(), |p| i + p)
        } else {
            b[i + 2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(b.len(), |p| i + 2 + p + 2)
        };
        for x in &mut buf[i..end] {
            if *x != b'\n' {
                *x = b' ';
            }
        }
        i = end;
    }
    match out {
        // Only whole characters were blanked (a comment starts at an ASCII `/` and ends at
        // a newline, `*/` or the end), so the bytes are still UTF-8.
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).unwrap_or_default()),
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::strip_comments;

    #[test]
    fn comments_become_spaces_outside_strings_only() {
        let t = "{\"a\": \"http://x\", // c\n \"b\": /* x\n y */ 1, \"c\": \"/*\"}";
        let s = strip_comments(t);
        assert_eq!(s.len(), t.len(), "offsets kept");
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["a"], "http://x");
        assert_eq!(v["b"], 1);
        assert_eq!(v["c"], "/*");
        assert_eq!(s.matches('\n').count(), 2, "line numbers kept");
        assert!(matches!(
            strip_comments("{\"a\": 1}"),
            std::borrow::Cow::Borrowed(_)
        ));
        // Unterminated comments and multi-byte characters in comments.
        for t in ["1 /* é", "1 // é\n2"] {
            let s = strip_comments(t);
            assert_eq!(s.len(), t.len());
            assert_eq!(
                s.split_whitespace().collect::<Vec<_>>(),
                t.split_whitespace()
                    .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
                    .collect::<Vec<_>>()
            );
        }
    }
}

/// The line and column (1-based; the column counts characters) of the value at JSON
/// `path` (`$`, `$[2]`, `$.behaviors[0].behavior`, as problems name them) in `text` (comments
/// allowed). When the path goes deeper than the text (a missing key), the position of the
/// deepest value found. None when `text` is not JSON enough to walk.
pub fn locate(text: &str, path: &str) -> Option<(u32, u32)> {
    let stripped = strip_comments(text);
    let b = stripped.as_bytes();
    let mut at = skip_ws(b, 0);
    let mut rest = path.strip_prefix('$')?;
    while !rest.is_empty() {
        let (seg, tail) = next_segment(rest)?;
        rest = tail;
        let found = match seg {
            Segment::Key(k) => find_key(b, at, k),
            Segment::Index(n) => find_index(b, at, n),
        };
        match found {
            Some(p) => at = p,
            None => break,
        }
    }
    Some(line_col(text, at))
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

fn next_segment(p: &str) -> Option<(Segment<'_>, &str)> {
    if let Some(r) = p.strip_prefix('.') {
        let end = r.find(['.', '[']).unwrap_or(r.len());
        Some((Segment::Key(&r[..end]), &r[end..]))
    } else if let Some(r) = p.strip_prefix('[') {
        let end = r.find(']')?;
        let n = r[..end].parse().ok()?;
        Some((Segment::Index(n), &r[end + 1..]))
    } else {
        None
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (a `"`), after its closing quote.
fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of the value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') && !b[j].is_ascii_whitespace()
            {
                j += 1;
            }
            Some(j)
        }
    }
}

fn find_key(b: &[u8], at: usize, key: &str) -> Option<usize> {
    if b.get(at) != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(b, at + 1);
    while i < b.len() && b[i] == b'"' {
        let end = skip_string(b, i)?;
        let name = std::str::from_utf8(&b[i + 1..end - 1]).ok()?;
        i = skip_ws(b, end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let v = skip_ws(b, i + 1);
        if name == key {
            return Some(v);
        }
        i = skip_ws(b, skip_value(b, v)?);
        if b.get(i) == Some(&b',') {
            i = skip_ws(b, i + 1);
        }
    }
    None
}

fn find_index(b: &[u8], at: usize, n: usize) -> Option<usize> {
    if b.get(at) != Some(&b'[') {
        return None;
    }
    let mut i = skip_ws(b, at + 1);
    for _ in 0..n {
        i = skip_ws(b, skip_value(b, i)?);
        if b.get(i) != Some(&b',') {
            return None;
        }
        i = skip_ws(b, i + 1);
    }
    (i < b.len() && b[i] != b']').then_some(i)
}

fn line_col(text: &str, at: usize) -> (u32, u32) {
    let at = at.min(text.len());
    let before = &text.as_bytes()[..at];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod locate_tests {
    use super::locate;

    #[test]
    fn paths_are_found_in_text_with_comments() {
        let t =
            "[\n  // first\n  {\"a\": 1, \"b\": {\"c\": [10, /* x */ 20]}},\n  {\"d\": \"x]\"}\n]";
        assert_eq!(locate(t, "$"), Some((1, 1)));
        assert_eq!(locate(t, "$[0]"), Some((3, 3)));
        assert_eq!(locate(t, "$[0].b.c[1]"), Some((3, 36)));
        assert_eq!(locate(t, "$[1].d"), Some((4, 9)));
        // A missing key: the deepest value found.
        assert_eq!(locate(t, "$[1].nope"), Some((4, 3)));
        assert_eq!(locate("{", "$.x"), Some((1, 1)));
        assert_eq!(locate("", "$"), Some((1, 1)));
        assert_eq!(locate("{\"é\": [1, 2]}", "$.é[1]"), Some((1, 11)));
    }
}
