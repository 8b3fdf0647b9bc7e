//! A small JSON parser that keeps the byte span of every key and value.
//!
//! Why not `serde_json`: it reports *one* line/column on error and gives no positions for
//! values it accepted, but every problem the intent-map compiler finds (an unknown user intent,
//! a substitution target that is not a field, a duplicate cloud intent, ...) must point at the
//! exact key or value in `user_intent_map.json`, rendered like a schema error. No crate in the
//! dependency tree keeps spans, and the format is small, so this is ~300 lines we control.
//!
//! What it accepts (RFC 8259 plus one compatibility extension):
//! - strict JSON: no trailing commas, no single quotes, no unquoted keys, no NaN/Infinity,
//!   no leading zeros, no control characters inside strings, valid `\u` escapes (surrogate
//!   pairs combined, lone surrogates rejected);
//! - `//` and `/* */` comments, because the original robot read its configuration with
//!   jsoncpp, whose reader allows them, so files in the original format may contain them;
//! - a leading UTF-8 byte-order mark.
//!
//! Duplicate keys in one object are reported (jsoncpp keeps the last one silently), without
//! stopping the parse. A syntax error stops it. Nesting deeper than [`MAX_DEPTH`] is an error,
//! so no input can overflow the stack, and nothing here panics: every index is checked.

use std::ops::Range;

use robot_runtime::behavior::strip_comments_checked;
use robot_runtime::json_kind::JsonKind;

/// Deepest nesting accepted (the intent map needs 4).
pub const MAX_DEPTH: usize = 128;

/// A JSON value with the byte range it covers.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Bytes of the value in the text (for strings: including the quotes).
    pub span: Range<usize>,
    /// The value.
    pub value: Value,
}

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object, members in file order.
    Object(Vec<Member>),
}

impl Value {
    /// "a string", "an object", ... for messages (the names every reader uses,
    /// [`JsonKind::name`]).
    pub fn kind(&self) -> &'static str {
        self.json_kind().name()
    }

    /// Its kind.
    pub fn json_kind(&self) -> JsonKind {
        match self {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }
}

/// One `"key": value` of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The key, unescaped.
    pub key: String,
    /// Bytes of the key (including the quotes).
    pub key_span: Range<usize>,
    /// The value.
    pub value: Node,
}

/// A problem in the JSON text.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    /// Where.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// Text under the caret.
    pub label: String,
    /// Another relevant place (the first occurrence of a duplicate key).
    pub secondary: Option<(Range<usize>, String)>,
}

/// Parses `text`. Returns the root value (None after a syntax error) and every problem found.
pub fn parse(text: &str) -> (Option<Node>, Vec<JsonError>) {
    // Comments become spaces (every offset kept), by the runtime's one reader of them.
    let (stripped, unclosed) = strip_comments_checked(text);
    if let Some(start) = unclosed {
        let error = JsonError {
            span: start..start + 2,
            message: "unterminated comment".to_owned(),
            label: "this comment has no closing */".to_owned(),
            secondary: None,
        };
        return (None, vec![error]);
    }
    let text = stripped.as_ref();
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        errors: Vec::new(),
    };
    if text.starts_with('\u{feff}') {
        p.pos = '\u{feff}'.len_utf8();
    }
    let root = match p.value(0) {
        Ok(node) => match p.skip_ws() {
            Ok(()) if p.pos < p.bytes.len() => {
                let span = p.pos..p.char_end(p.pos);
                Err(p.error(
                    span,
                    "unexpected text after the JSON value",
                    "expected end of file",
                ))
            }
            Ok(()) => Ok(node),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    match root {
        Ok(node) => (Some(node), p.errors),
        Err(e) => {
            let mut errors = p.errors;
            errors.push(e);
            (None, errors)
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    errors: Vec<JsonError>,
}

type Result<T> = std::result::Result<T, JsonError>;

impl Parser<'_> {
    fn error(&self, span: Range<usize>, message: impl Into<String>, label: &str) -> JsonError {
        JsonError {
            span,
            message: message.into(),
            label: label.to_owned(),
            secondary: None,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// End of the character starting at `at` (for one-character spans).
    fn char_end(&self, at: usize) -> usize {
        self.text
            .get(at..)
            .and_then(|s| s.chars().next())
            .map_or(at, |c| at + c.len_utf8())
    }

    /// Skips whitespace (comments are blanks by then: [`parse`] strips them first, so a
    /// `/` left here starts no comment).
    fn skip_ws(&mut self) -> Result<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') => {
                    return Err(self.error(
                        self.pos..self.pos + 1,
                        "unexpected character '/'",
                        "comments start with // or /*",
                    ))
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node> {
        self.skip_ws()?;
        let start = self.pos;
        if depth > MAX_DEPTH {
            return Err(self.error(
                start..self.char_end(start),
                format!("JSON nested more than {MAX_DEPTH} levels deep"),
                "too deep",
            ));
        }
        let value = match self.peek() {
            None => {
                return Err(self.error(
                    start..start,
                    "unexpected end of file",
                    "expected a JSON value",
                ))
            }
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b) if b.is_ascii_alphabetic() => self.literal("", Value::Null)?,
            Some(_) => {
                let end = self.char_end(start);
                let found = self.text.get(start..end).unwrap_or("?");
                let note = if found == "'" {
                    "JSON strings use double quotes"
                } else {
                    "expected a JSON value"
                };
                return Err(self.error(
                    start..end,
                    format!("unexpected character '{found}'"),
                    note,
                ));
            }
        };
        Ok(Node {
            span: start..self.pos,
            value,
        })
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value> {
        let start = self.pos;
        if !word.is_empty() && self.bytes.get(start..start + word.len()) == Some(word.as_bytes()) {
            self.pos += word.len();
            if !self
                .peek()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                return Ok(value);
            }
        }
        let mut end = start;
        while self
            .bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            end += 1;
        }
        let found = self.text.get(start..end).unwrap_or("?");
        Err(self.error(
            start..end.max(start + 1),
            format!("unexpected word '{found}'"),
            "expected a JSON value (strings need double quotes)",
        ))
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.pos;
        let bad = |p: &Self, at: usize, what: &str| {
            // `start` is a byte of the text, so `start + 1` is in bounds.
            let end = p.char_end(at).max(start + 1);
            p.error(start..end, format!("invalid number: {what}"), "here")
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    return Err(bad(self, self.pos, "leading zeros are not allowed"));
                }
            }
            Some(b'1'..=b'9') => {
                while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.pos += 1;
                }
            }
            _ => return Err(bad(self, self.pos, "expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(bad(self, self.pos, "expected a digit after '.'"));
            }
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(bad(self, self.pos, "expected a digit in the exponent"));
            }
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        Ok(Value::Number(
            self.text
                .get(start..self.pos)
                .unwrap_or_default()
                .to_owned(),
        ))
    }

    /// A string starting at the current `"`; returns it unescaped.
    fn string(&mut self) -> Result<String> {
        let start = self.pos;
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let run = self.pos;
            while self
                .peek()
                .is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20)
            {
                self.pos += 1;
            }
            // `run..pos` ends before an ASCII byte or at the end: a char boundary.
            out.push_str(self.text.get(run..self.pos).unwrap_or_default());
            match self.peek() {
                None => {
                    return Err(self.error(
                        start..start + 1,
                        "unterminated string",
                        "this string has no closing quote",
                    ))
                }
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let esc = self.pos;
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let c = self.unicode_escape(esc)?;
                            out.push(c);
                            continue;
                        }
                        _ => {
                            let end = self.char_end(self.pos).max(self.pos);
                            return Err(self.error(
                                esc..end.max(esc + 1),
                                "invalid escape sequence",
                                "valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                            ));
                        }
                    };
                    self.pos += 1;
                    out.push(c);
                }
                Some(_) => {
                    return Err(self.error(
                        self.pos..self.pos + 1,
                        "control character in a string",
                        "write it as an escape (\\n, \\t, \\u00XX)",
                    ))
                }
            }
        }
    }

    /// After `\u` (at `esc`): four hex digits, combined with a following low surrogate.
    fn unicode_escape(&mut self, esc: usize) -> Result<char> {
        let hi = self.hex4(esc)?;
        let code = if (0xD800..0xDC00).contains(&hi) {
            if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u".as_slice()) {
                return Err(self.error(
                    esc..self.pos,
                    "lone surrogate in a \\u escape",
                    "a high surrogate must be followed by a \\u low surrogate",
                ));
            }
            self.pos += 2;
            let lo = self.hex4(esc)?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(self.error(
                    esc..self.pos,
                    "invalid surrogate pair in a \\u escape",
                    "expected a low surrogate (\\uDC00 to \\uDFFF)",
                ));
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        char::from_u32(code).ok_or_else(|| {
            self.error(
                esc..self.pos,
                "lone surrogate in a \\u escape",
                "not a Unicode scalar value",
            )
        })
    }

    fn hex4(&mut self, esc: usize) -> Result<u32> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .filter(|d| d.iter().all(u8::is_ascii_hexdigit))
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok());
        match digits {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => Err(self.error(
                esc..(self.pos + 1).min(self.bytes.len()).max(esc + 1),
                "invalid \\u escape",
                "expected four hexadecimal digits",
            )),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value> {
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws()?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_ws()?;
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws()?;
                    if self.peek() == Some(b']') {
                        return Err(self.error(
                            self.pos - 1..self.pos,
                            "trailing comma in an array",
                            "remove this comma",
                        ));
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.expected(", or ]", open, "this array")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value> {
        let open = self.pos;
        self.pos += 1;
        let mut members: Vec<Member> = Vec::new();
        self.skip_ws()?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_ws()?;
            if self.peek() != Some(b'"') {
                return Err(self.expected("a key in double quotes", open, "this object"));
            }
            let key_start = self.pos;
            let key = self.string()?;
            let key_span = key_start..self.pos;
            self.skip_ws()?;
            if self.peek() != Some(b':') {
                return Err(self.expected("':'", open, "this object"));
            }
            self.pos += 1;
            let value = self.value(depth + 1)?;
            if let Some(first) = members.iter().find(|m| m.key == key) {
                self.errors.push(JsonError {
                    span: key_span.clone(),
                    message: format!("duplicate key \"{key}\""),
                    label: "second definition".to_owned(),
                    secondary: Some((first.key_span.clone(), "first definition".to_owned())),
                });
            }
            members.push(Member {
                key,
                key_span,
                value,
            });
            self.skip_ws()?;
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws()?;
                    if self.peek() == Some(b'}') {
                        return Err(self.error(
                            self.pos - 1..self.pos,
                            "trailing comma in an object",
                            "remove this comma",
                        ));
                    }
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.expected(", or }", open, "this object")),
            }
        }
    }

    /// "expected X" at the current position, with the opening bracket as secondary label.
    fn expected(&self, what: &str, open: usize, container: &str) -> JsonError {
        let at = self.pos;
        let (span, found) = if at >= self.bytes.len() {
            (at..at, "end of file".to_owned())
        } else {
            let end = self.char_end(at);
            (
                at..end,
                format!("'{}'", self.text.get(at..end).unwrap_or("?")),
            )
        };
        JsonError {
            span,
            message: format!("expected {what}, found {found}"),
            label: format!("expected {what}"),
            secondary: Some((open..open + 1, format!("{container} starts here"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Node {
        let (node, errors) = parse(text);
        assert!(errors.is_empty(), "{errors:?}");
        node.expect("parsed")
    }

    fn err(text: &str) -> String {
        let (_, errors) = parse(text);
        assert!(!errors.is_empty(), "expected an error for {text:?}");
        errors[0].message.clone()
    }

    #[test]
    fn values_and_spans() {
        let n = ok(r#" {"a": [1, -2.5e3, true, null], "b\u00e9": "x\"\ud83d\ude00"} "#);
        assert_eq!(n.span, 1..61);
        let Value::Object(m) = &n.value else {
            panic!("object")
        };
        assert_eq!(m[0].key, "a");
        assert_eq!(m[0].key_span, 2..5);
        let Value::Array(items) = &m[0].value.value else {
            panic!("array")
        };
        assert_eq!(items[1].value, Value::Number("-2.5e3".into()));
        assert_eq!(items[1].span, 11..17);
        assert_eq!(m[1].key, "bé");
        assert_eq!(m[1].value.value, Value::String("x\"😀".into()));
    }

    #[test]
    fn comments_and_bom() {
        let n = ok("\u{feff}// header\n{ /* a */ \"k\" : 1 // end\n}");
        assert!(matches!(n.value, Value::Object(ref m) if m.len() == 1));
    }

    #[test]
    fn strictness() {
        assert!(err("[1,]").contains("trailing comma"));
        assert!(err("{\"a\":1,}").contains("trailing comma"));
        assert!(err("{'a':1}").contains("expected a key"));
        assert!(err("[01]").contains("leading zeros"));
        assert!(err("[1.]").contains("digit after"));
        assert!(err("[NaN]").contains("unexpected word"));
        assert!(err("[\"a\nb\"]").contains("control character"));
        assert!(err("[\"\\ud800\"]").contains("lone surrogate"));
        assert!(err("[\"\\x\"]").contains("invalid escape"));
        assert!(err("{} x").contains("after the JSON value"));
        assert!(err("/* open").contains("unterminated comment"));
        assert!(err("\"open").contains("unterminated string"));
        assert!(err("").contains("end of file"));
        assert!(err("[truex]").contains("unexpected word"));
        assert!(err("{\"a\" 1}").contains("expected ':'"));
    }

    #[test]
    fn duplicate_keys_are_reported_without_stopping() {
        let (node, errors) = parse(r#"{"a": 1, "a": 2, "b": {"c": 1, "c": 2}}"#);
        assert!(node.is_some());
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].span, 9..12);
        assert_eq!(
            errors[0].secondary.as_ref().map(|s| s.0.clone()),
            Some(1..4)
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(err(&text).contains("nested"));
    }

    #[test]
    fn never_panics_on_truncations() {
        let text = r#"{"a": [1, -2.5e3, "\u00e9\ud83d\ude00", {"b": null}], "c": true}"#;
        for i in 0..text.len() {
            if text.is_char_boundary(i) {
                let _ = parse(&text[..i]);
            }
        }
    }
}
