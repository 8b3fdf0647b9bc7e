//! JSON with comments, as the original engine's trees are written: [`strip_comments`]
//! blanks `//` and `/* */` comments outside strings so serde_json reads the rest, with
//! every byte offset (and so every line and column) unchanged. A leaf.

use std::borrow::Cow;

/// Replaces `//` line comments and `/* */` block comments outside strings (the original's
/// reader accepted them) by spaces, keeping newlines: byte offsets, lines and columns of
/// the rest are those of `text`. Returns the text unchanged (borrowed) when it has none.
pub fn strip_comments(text: &str) -> Cow<'_, str> {
    strip_comments_checked(text).0
}

/// [`strip_comments`], and the byte offset of a `/*` that is never closed (the comment then
/// runs to the end of the text), for a reader that refuses one. The one reader of comments
/// for every JSON-with-comments file: behavior trees here, and the maps `robot-codegen`
/// compiles, which strips them so its span-keeping parser reads plain JSON.
pub fn strip_comments_checked(text: &str) -> (Cow<'_, str>, Option<usize>) {
    if !text.contains('/') {
        return (Cow::Borrowed(text), None);
    }
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut unclosed = None;
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
            match b[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(p) => i + 2 + p + 2,
                None => {
                    unclosed = Some(i);
                    b.len()
                }
            }
        };
        for x in &mut buf[i..end] {
            if *x != b'\n' {
                *x = b' ';
            }
        }
        i = end;
    }
    let text = match out {
        // Only whole characters were blanked (a comment starts at an ASCII `/` and ends at
        // a newline, `*/` or the end), so the bytes are still UTF-8.
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).unwrap_or_default()),
        None => Cow::Borrowed(text),
    };
    (text, unclosed)
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
        assert_eq!(super::strip_comments_checked(t).1, None);
        assert_eq!(
            super::strip_comments_checked("1 /* x */ 2 /* y").1,
            Some(12)
        );
        assert_eq!(super::strip_comments_checked("\"/*\" 1").1, None);
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
/// deepest value found. None when `path` is not a path.
///
/// One question about one text; for many questions about the same text, make one
/// [`Locator`]: this builds one each time.
pub fn locate(text: &str, path: &str) -> Option<(u32, u32)> {
    Locator::new(text).locate(path)
}

/// Answers [`locate`]'s question many times about one text, each answer in time
/// independent of the text's length: the comments are stripped, the lines found and the
/// values indexed (every object's keys sorted, every array's elements in order) once, when
/// it is made, in time linear in the text. A file with 40,000 problems is located in time
/// linear in the file and the problems, not their product (`--check-tree`).
#[derive(Debug)]
pub struct Locator<'t> {
    text: &'t str,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    /// Characters (UTF-8 lead bytes) before each [`BLOCK`]-byte boundary of the text.
    chars_before: Vec<u32>,
    index: Index,
    #[cfg(test)]
    work: std::cell::Cell<usize>,
}

/// Column counts are kept at every `BLOCK` bytes: a column is counted from the closest one.
const BLOCK: usize = 1024;

/// The values of a text, found in one pass: `nodes[0]` is the root.
#[derive(Debug, Default)]
struct Index {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// The stripped text's bytes (keys are compared in it).
    keys: Vec<u8>,
}

#[derive(Clone, Debug)]
struct Node {
    /// Where the value starts.
    start: usize,
    /// Its members or elements in `edges` (an object's sorted by key, in file order among
    /// equal keys; an array's in order).
    edges: std::ops::Range<usize>,
    object: bool,
}

#[derive(Clone, Debug)]
struct Edge {
    /// The key's bytes (between its quotes, as written) for an object member.
    key: std::ops::Range<usize>,
    node: usize,
}

/// A container being read.
struct Frame {
    node: usize,
    object: bool,
    /// Where reading goes on.
    at: usize,
    edges: Vec<Edge>,
}

impl<'t> Locator<'t> {
    /// Indexes `text` (comments allowed; text that is not JSON is indexed as far as it is).
    pub fn new(text: &'t str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut chars_before = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut n = 0u32;
        for block in bytes.chunks(BLOCK) {
            chars_before.push(n);
            n += lead_bytes(block);
        }
        chars_before.push(n);
        Locator {
            text,
            line_starts,
            chars_before,
            index: Index::build(strip_comments(text).as_bytes()),
            #[cfg(test)]
            work: std::cell::Cell::new(0),
        }
    }

    /// The line and column of the value at `path` (see [`locate`]).
    pub fn locate(&self, path: &str) -> Option<(u32, u32)> {
        let mut rest = path.strip_prefix('$')?;
        let index = &self.index;
        let mut node = index.nodes.first()?;
        while !rest.is_empty() {
            let (seg, tail) = next_segment(rest)?;
            rest = tail;
            let edges = &index.edges[node.edges.clone()];
            let found = match seg {
                Segment::Key(k) if node.object => {
                    let key = |e: &Edge| &index.keys[e.key.clone()];
                    let first = edges.partition_point(|e| key(e) < k.as_bytes());
                    edges.get(first).filter(|e| key(e) == k.as_bytes())
                }
                Segment::Index(n) if !node.object => edges.get(n),
                _ => None,
            };
            #[cfg(test)]
            self.work
                .set(self.work.get() + 1 + edges.len().max(1).ilog2() as usize);
            match found {
                Some(e) => node = &index.nodes[e.node],
                None => break,
            }
        }
        Some(self.line_col(node.start))
    }

    fn line_col(&self, at: usize) -> (u32, u32) {
        let at = at.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= at);
        let start = self.line_starts[line - 1];
        let col = self.chars_to(at) - self.chars_to(start) + 1;
        (u32::try_from(line).unwrap_or(u32::MAX), col)
    }

    /// Characters before byte `at` (a UTF-8 lead byte starts each).
    fn chars_to(&self, at: usize) -> u32 {
        let block = at / BLOCK;
        let from = block * BLOCK;
        #[cfg(test)]
        self.work.set(self.work.get() + (at - from));
        self.chars_before[block] + lead_bytes(&self.text.as_bytes()[from..at])
    }
}

/// The bytes of `b` that start a character.
fn lead_bytes(b: &[u8]) -> u32 {
    b.iter().filter(|&&c| (c & 0xc0) != 0x80).count() as u32
}

impl Index {
    /// Reads the values of `b` in one pass, without recursion (nesting of any depth), as far
    /// as `b` is JSON.
    fn build(b: &[u8]) -> Index {
        let mut index = Index {
            keys: b.to_vec(),
            ..Index::default()
        };
        let root = skip_ws(b, 0);
        let mut stack = Vec::new();
        index.open(b, root, &mut stack);
        while let Some(frame) = stack.last_mut() {
            let mut i = skip_ws(b, frame.at);
            let close = if frame.object { b'}' } else { b']' };
            if b.get(i) == Some(&close) {
                let done = stack.pop().expect("a frame");
                index.close(done);
                if let Some(parent) = stack.last_mut() {
                    parent.at = i + 1;
                }
                continue;
            }
            if !frame.edges.is_empty() {
                if b.get(i) != Some(&b',') {
                    break;
                }
                i = skip_ws(b, i + 1);
            }
            let mut key = 0..0;
            if frame.object {
                if b.get(i) != Some(&b'"') {
                    break;
                }
                let Some(end) = skip_string(b, i) else { break };
                key = i + 1..end - 1;
                i = skip_ws(b, end);
                if b.get(i) != Some(&b':') {
                    break;
                }
                i = skip_ws(b, i + 1);
            }
            if i >= b.len() {
                break;
            }
            let node = index.nodes.len();
            frame.edges.push(Edge { key, node });
            match b[i] {
                b'{' | b'[' => index.open(b, i, &mut stack),
                _ => {
                    index.nodes.push(Node {
                        start: i,
                        edges: 0..0,
                        object: false,
                    });
                    let Some(end) = skip_value(b, i) else { break };
                    stack.last_mut().expect("a frame").at = end;
                }
            }
        }
        // What could not be read is left out; what was read stays findable.
        while let Some(done) = stack.pop() {
            index.close(done);
        }
        index
    }

    /// A value at `i`: a container is pushed on `stack` to be read.
    fn open(&mut self, b: &[u8], i: usize, stack: &mut Vec<Frame>) {
        let node = self.nodes.len();
        let object = b.get(i) == Some(&b'{');
        self.nodes.push(Node {
            start: i,
            edges: 0..0,
            object,
        });
        if object || b.get(i) == Some(&b'[') {
            stack.push(Frame {
                node,
                object,
                at: i + 1,
                edges: Vec::new(),
            });
        }
    }

    fn close(&mut self, mut frame: Frame) {
        if frame.object {
            // Stable: among equal keys the first in the file comes first.
            let keys = &self.keys;
            frame
                .edges
                .sort_by(|a, b| keys[a.key.clone()].cmp(&keys[b.key.clone()]));
        }
        let start = self.edges.len();
        self.edges.extend(frame.edges);
        self.nodes[frame.node].edges = start..self.edges.len();
    }
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

/// The end of the scalar value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
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
        // A duplicated key: the first. Not JSON: as far as it goes.
        assert_eq!(locate("{\"a\": 1,\n \"a\": 2}", "$.a"), Some((1, 7)));
        assert_eq!(locate("[1, {\"a\": [2, @", "$[1].a[1]"), Some((1, 15)));
        assert_eq!(locate("[1, {\"a\": [2, @", "$[1].a[2]"), Some((1, 11)));
        assert_eq!(locate("[1, 2]", "bad"), None);
        // Deep nesting is read without recursion.
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        let path = format!("${}", "[0]".repeat(100_000));
        assert_eq!(locate(&deep, &path), Some((1, 100_001)));
    }

    /// 40,000 questions about one text with 40,000 keys: the work after indexing is linear
    /// in the questions, with a small constant (a binary search of the keys, a column
    /// counted from the last 1 KiB boundary), not in questions × text length.
    #[test]
    fn many_questions_cost_linear_work() {
        use super::Locator;
        let n = 40_000;
        let mut text = String::from("{\n");
        for i in 0..n {
            text.push_str(&format!("  \"key_{i:05}\": [{i:05}, \"é\"],\n"));
        }
        text.push_str("  \"last\": 0\n}\n");
        // One long line too: columns are counted from the closest boundary.
        let one_line = text.replace('\n', " ");
        for t in [&text, &one_line] {
            let locator = Locator::new(t);
            for i in 0..n {
                let (line, col) = locator.locate(&format!("$.key_{i:05}[1]")).unwrap();
                if t.contains('\n') {
                    assert_eq!((line, col), (i as u32 + 2, 24), "key {i}");
                }
            }
            let work = locator.work.get();
            assert!(
                work < n * (2 * super::BLOCK + 40),
                "{work} steps for {n} questions about {} bytes",
                t.len()
            );
        }
    }
}
