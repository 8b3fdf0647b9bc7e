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
