//! The lexer: include-expanded text to tokens, with the original tool's exact rules (spec §1.3).
//!
//! The original is a PLY lexer whose rules are tried *in order, first match wins*, so for
//! example `verbatimCount` is a verbatim literal and `1e5` is `1` followed by the identifier
//! `e5`. Whitespace is only space, tab and newline; anything else outside comments and
//! verbatim text is an illegal character. Comments are skipped, but we keep them as
//! documentation for the declaration or member they belong to.

use crate::diagnostics::Diagnostic;
use crate::preprocess::Expanded;
use crate::source::Span;

/// The 23 CLAD keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Keyword {
    Bool,
    Float32,
    Float64,
    String,
    Enum,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Message,
    Structure,
    Union,
    Autounion,
    Namespace,
    Include,
    NoCppClass,
    NoDefaultConstructor,
    EnumConcept,
    DupesAllowed,
}

impl Keyword {
    /// Keyword for a whole identifier token, if it is one.
    pub fn from_word(s: &str) -> Option<Keyword> {
        use Keyword::*;
        Some(match s {
            "bool" => Bool,
            "float_32" => Float32,
            "float_64" => Float64,
            "string" => String,
            "enum" => Enum,
            "int_8" => Int8,
            "int_16" => Int16,
            "int_32" => Int32,
            "int_64" => Int64,
            "uint_8" => Uint8,
            "uint_16" => Uint16,
            "uint_32" => Uint32,
            "uint_64" => Uint64,
            "message" => Message,
            "structure" => Structure,
            "union" => Union,
            "autounion" => Autounion,
            "namespace" => Namespace,
            "include" => Include,
            "no_cpp_class" => NoCppClass,
            "no_default_constructor" => NoDefaultConstructor,
            "enum_concept" => EnumConcept,
            "dupes_allowed" => DupesAllowed,
            _ => return None,
        })
    }

    /// The keyword's spelling.
    pub fn as_str(self) -> &'static str {
        use Keyword::*;
        match self {
            Bool => "bool",
            Float32 => "float_32",
            Float64 => "float_64",
            String => "string",
            Enum => "enum",
            Int8 => "int_8",
            Int16 => "int_16",
            Int32 => "int_32",
            Int64 => "int_64",
            Uint8 => "uint_8",
            Uint16 => "uint_16",
            Uint32 => "uint_32",
            Uint64 => "uint_64",
            Message => "message",
            Structure => "structure",
            Union => "union",
            Autounion => "autounion",
            Namespace => "namespace",
            Include => "include",
            NoCppClass => "no_cpp_class",
            NoDefaultConstructor => "no_default_constructor",
            EnumConcept => "enum_concept",
            DupesAllowed => "dupes_allowed",
        }
    }
}

/// Token kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A (possibly `::`-qualified) identifier.
    Ident(String),
    /// A keyword.
    Kw(Keyword),
    /// `verbatim ...`: the value with every `"verbatim "` removed.
    Verbatim(String),
    /// `"path"` (only valid after `include`).
    QuotedPath(String),
    /// Decimal float literal.
    Float(f64),
    /// Decimal integer literal.
    IntDec(i128),
    /// Hexadecimal integer literal.
    IntHex(i128),
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LSq,
    /// `]`
    RSq,
    /// `,`
    Comma,
    /// `=`
    Eq,
    /// `:`
    Colon,
    /// End of input.
    Eof,
}

impl Tok {
    /// Human description for "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("identifier `{s}`"),
            Tok::Kw(k) => format!("keyword `{}`", k.as_str()),
            Tok::Verbatim(v) => format!("verbatim text `{}`", v.trim_end()),
            Tok::QuotedPath(p) => format!("path \"{p}\""),
            Tok::Float(f) => format!("number `{f:?}`"),
            Tok::IntDec(v) => format!("number `{v}`"),
            Tok::IntHex(v) => format!("number `{v:#x}`"),
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::LSq => "`[`".into(),
            Tok::RSq => "`]`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Eq => "`=`".into(),
            Tok::Colon => "`:`".into(),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// A token with its location and the comments around it.
#[derive(Clone, Debug)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Where it is, in the original file.
    pub span: Span,
    /// Comment block directly above the token (no blank line in between).
    pub leading_doc: Option<String>,
    /// A comment that follows the token on the same line.
    pub trailing_doc: Option<String>,
}

/// Languages whose keywords the original compiler refuses as identifiers, in the order it
/// checks them, with the words that first appear in each.
const RESERVED: &[(&str, &[&str])] = &[
    (
        "C",
        &[
            "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
            "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
            "register", "return", "short", "signed", "sizeof", "static", "struct", "switch",
            "typedef", "union", "unsigned", "void", "volatile", "while",
        ],
    ),
    (
        "C++98",
        &[
            "and",
            "and_eq",
            "asm",
            "bitand",
            "bitor",
            "bool",
            "catch",
            "class",
            "compl",
            "const_cast",
            "delete",
            "dynamic_cast",
            "explicit",
            "false",
            "friend",
            "mutable",
            "namespace",
            "new",
            "not",
            "not_eq",
            "operator",
            "or",
            "or_eq",
            "private",
            "protected",
            "public",
            "reinterpret_cast",
            "static_cast",
            "template",
            "this",
            "throw",
            "true",
            "try",
            "typeid",
            "typename",
            "using",
            "virtual",
            "wchar_t",
            "xor",
            "xor_eq",
        ],
    ),
    (
        "Python",
        &[
            "as", "assert", "def", "del", "elif", "except", "exec", "False", "finally", "from",
            "global", "import", "in", "is", "lambda", "None", "nonlocal", "pass", "print", "raise",
            "True", "type", "with", "yield",
        ],
    ),
    (
        "C#",
        &[
            "abstract",
            "base",
            "byte",
            "checked",
            "decimal",
            "delegate",
            "event",
            "fixed",
            "foreach",
            "implicit",
            "interface",
            "internal",
            "lock",
            "null",
            "object",
            "out",
            "override",
            "params",
            "readonly",
            "ref",
            "sbyte",
            "sealed",
            "stackalloc",
            "string",
            "typeof",
            "uint",
            "ulong",
            "unchecked",
            "unsafe",
            "ushort",
        ],
    ),
];

/// The first language (in the original's order) that reserves `word`.
pub fn reserved_in(word: &str) -> Option<&'static str> {
    RESERVED
        .iter()
        .find(|(_, words)| words.contains(&word))
        .map(|(lang, _)| *lang)
}

/// Every reserved word (tests).
#[cfg(test)]
fn reserved_words() -> impl Iterator<Item = &'static str> {
    RESERVED.iter().flat_map(|(_, w)| w.iter().copied())
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    expanded: &'a Expanded,
    tokens: Vec<Token>,
    diagnostics: &'a mut Vec<Diagnostic>,
    pending_doc: Vec<String>,
    /// Newlines seen since the last token or comment.
    newlines_since: usize,
    saw_newline_since_token: bool,
}

/// Splits the expanded text into tokens. Lexical errors are reported and skipped.
pub(crate) fn lex(expanded: &Expanded, diagnostics: &mut Vec<Diagnostic>) -> Vec<Token> {
    let mut lx = Lexer {
        src: &expanded.text,
        bytes: expanded.text.as_bytes(),
        pos: 0,
        expanded,
        tokens: Vec::new(),
        diagnostics,
        pending_doc: Vec::new(),
        newlines_since: 0,
        saw_newline_since_token: true,
    };
    lx.run();
    // Point just after the last non-blank text, so snippets show the line where more was
    // expected (not an empty trailing line).
    let end = lx.src.trim_end_matches([' ', '\t', '\n']).len();
    let span = expanded.span(end, end);
    lx.tokens.push(Token {
        tok: Tok::Eof,
        span,
        leading_doc: None,
        trailing_doc: None,
    });
    lx.tokens
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Lexer<'_> {
    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let b = self.bytes[self.pos];
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.newlines_since += 1;
                    self.saw_newline_since_token = true;
                    if self.newlines_since >= 2 {
                        self.pending_doc.clear();
                    }
                }
                b' ' | b'\t' => self.pos += 1,
                b'/' if self.peek(1) == Some(b'*') => match self.src[self.pos + 2..].find("*/") {
                    Some(i) => {
                        let end = self.pos + 2 + i + 2;
                        self.comment(self.pos, end);
                        self.pos = end;
                    }
                    None => self.unterminated_comment(),
                },
                b'/' if self.peek(1) == Some(b'/') => {
                    let end = self.src[self.pos..]
                        .find('\n')
                        .map_or(self.src.len(), |i| self.pos + i);
                    self.comment(self.pos, end);
                    self.pos = end;
                }
                _ if self.src[self.pos..].starts_with("verbatim") => self.verbatim(),
                _ if is_name_start(b) => self.ident(),
                b'"' => self.quoted_path(),
                b'-' | b'0'..=b'9' => self.number(),
                b'{' => self.punct(Tok::LBrace),
                b'}' => self.punct(Tok::RBrace),
                b'[' => self.punct(Tok::LSq),
                b']' => self.punct(Tok::RSq),
                b',' => self.punct(Tok::Comma),
                b'=' => self.punct(Tok::Eq),
                b':' => self.punct(Tok::Colon),
                _ => self.illegal(),
            }
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn comment(&mut self, start: usize, end: usize) {
        if self.expanded.is_synthetic(start) {
            return; // the `// ` the preprocessor puts before an #include line
        }
        let text = doc_text(&self.src[start..end]);
        if !self.saw_newline_since_token && !self.tokens.is_empty() {
            // A comment on the same line as the previous token documents that token.
            let last = self.tokens.last_mut().expect("checked non-empty");
            match &mut last.trailing_doc {
                Some(existing) => {
                    existing.push('\n');
                    existing.push_str(&text);
                }
                None => last.trailing_doc = Some(text),
            }
        } else {
            if self.newlines_since >= 2 {
                self.pending_doc.clear();
            }
            self.pending_doc.push(text);
        }
        self.newlines_since = 0;
    }

    fn push(&mut self, tok: Tok, start: usize, end: usize) {
        let leading_doc = if self.pending_doc.is_empty() || self.newlines_since >= 2 {
            None
        } else {
            Some(self.pending_doc.join("\n"))
        };
        self.pending_doc.clear();
        self.tokens.push(Token {
            tok,
            span: self.expanded.span(start, end),
            leading_doc,
            trailing_doc: None,
        });
        self.newlines_since = 0;
        self.saw_newline_since_token = false;
    }

    fn punct(&mut self, tok: Tok) {
        let start = self.pos;
        self.pos += 1;
        self.push(tok, start, self.pos);
    }

    fn illegal(&mut self) {
        let start = self.pos;
        let c = self.src[start..].chars().next().unwrap_or('\u{fffd}');
        self.pos += c.len_utf8();
        let shown = match c {
            '\r' => "\\r".to_owned(),
            '\u{feff}' => "\\u{feff} (byte order mark)".to_owned(),
            c if c.is_control() => format!("\\u{{{:x}}}", c as u32),
            c => c.to_string(),
        };
        let mut d = Diagnostic::error(
            self.expanded.span(start, self.pos),
            format!("illegal character '{shown}'"),
        )
        .with_label("not valid here");
        if c == '#' {
            d = d.with_note(
                "an include must be written `#include \"path\"` at the start of a line, with \
                 nothing but an optional `//` comment after the closing quote",
            );
            // The rest of the line is a botched directive: lexing it would only produce
            // follow-on errors.
            self.pos = self.src[self.pos..]
                .find('\n')
                .map_or(self.src.len(), |i| self.pos + i);
        } else if c == '-' {
            d = d.with_note("a minus sign must be written directly before the digits");
        } else if !c.is_ascii() {
            d = d.with_note("only ASCII is allowed outside comments and verbatim text");
        }
        self.diagnostics.push(d);
    }

    /// An unclosed `/*`: one error, and the rest of the input is skipped (it would otherwise
    /// produce a cascade of errors for text the author meant as a comment).
    fn unterminated_comment(&mut self) {
        let start = self.pos;
        self.diagnostics.push(
            Diagnostic::error(
                self.expanded.span(start, start + 2),
                "unterminated block comment",
            )
            .with_label("this `/*` is never closed")
            .with_note("a `/*` comment must be closed with `*/` (the original compiler reports `Illegal character '/'` here)"),
        );
        self.pos = self.bytes.len();
    }

    fn verbatim(&mut self) {
        let start = self.pos;
        let end = self.src[start..]
            .find([',', '{', '}', '[', ']', '=', ';', '\n'])
            .map_or(self.src.len(), |i| start + i);
        self.pos = end;
        let mut value = self.src[start..end].replace("verbatim ", "");
        if value.is_empty() {
            self.diagnostics.push(
                Diagnostic::error(
                    self.expanded.span(start, end),
                    "no text after \"verbatim\" keyword",
                )
                .with_label("expected text here"),
            );
            // Reported once here; a placeholder keeps later stages from reporting the empty
            // expression again (no output is produced after an error anyway).
            value = "0".to_owned();
        } else if let Some((i, c)) = self.src[start..end]
            .char_indices()
            .find(|(_, c)| !c.is_ascii())
        {
            let at = start + i;
            self.diagnostics.push(
                Diagnostic::error(
                    self.expanded.span(at, at + c.len_utf8()),
                    format!("non-ASCII character '{c}' in verbatim text"),
                )
                .with_label("only ASCII is allowed here")
                .with_note(
                    "verbatim text (including a trailing `//` comment on the same line) is part \
                     of the version hash, which is computed over ASCII; the original compiler \
                     crashes on this",
                ),
            );
        }
        self.push(Tok::Verbatim(value), start, end);
    }

    fn ident(&mut self) {
        let start = self.pos;
        let mut end = self.name_end(start);
        // `(::Name)*`
        while self.src[end..].starts_with("::")
            && self.bytes.get(end + 2).copied().is_some_and(is_name_start)
        {
            end = self.name_end(end + 2);
        }
        self.pos = end;
        let text = &self.src[start..end];
        if let Some(kw) = Keyword::from_word(text) {
            self.push(Tok::Kw(kw), start, end);
            return;
        }
        if let Some(lang) = reserved_in(text) {
            self.diagnostics.push(
                Diagnostic::error(
                    self.expanded.span(start, end),
                    format!("attempt to use the name \"{text}\", which is a keyword in {lang}"),
                )
                .with_label("reserved word")
                .with_note(
                    "CLAD refuses every keyword of C, C++, Python and C# as a name, so that \
                     generated code compiles in all of them",
                ),
            );
        }
        self.push(Tok::Ident(text.to_owned()), start, end);
    }

    fn name_end(&self, mut i: usize) -> usize {
        i += 1;
        while self.bytes.get(i).copied().is_some_and(is_name_char) {
            i += 1;
        }
        i
    }

    fn quoted_path(&mut self) {
        // `"` (seg "/")* seg ("." seg)? `"`
        let start = self.pos;
        let bytes = self.bytes;
        let seg = |mut i: usize| -> Option<usize> {
            let s = i;
            while bytes.get(i).copied().is_some_and(is_name_char) {
                i += 1;
            }
            (i > s).then_some(i)
        };
        let mut i = start + 1;
        let mut ok = None;
        while let Some(e) = seg(i) {
            match bytes.get(e) {
                Some(b'/') => i = e + 1,
                Some(b'.') => {
                    if let Some(e2) = seg(e + 1) {
                        if bytes.get(e2) == Some(&b'"') {
                            ok = Some(e2 + 1);
                        }
                    }
                    break;
                }
                Some(b'"') => {
                    ok = Some(e + 1);
                    break;
                }
                _ => break,
            }
        }
        match ok {
            Some(end) => {
                self.pos = end;
                let path = self.src[start + 1..end - 1].to_owned();
                self.push(Tok::QuotedPath(path), start, end);
            }
            None => self.illegal(),
        }
    }

    fn number(&mut self) {
        let start = self.pos;
        let digits_from = |i: usize| {
            let mut j = i;
            while self.bytes.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            j
        };
        let neg = self.bytes[start] == b'-';
        let int_start = start + usize::from(neg);
        let int_end = digits_from(int_start);
        if int_end == int_start {
            // A lone '-' is not a token.
            self.illegal();
            return;
        }
        // FLOAT_CONST_DEC: -?[0-9]+\.[0-9]+
        if self.bytes.get(int_end) == Some(&b'.') {
            let frac_end = digits_from(int_end + 1);
            if frac_end > int_end + 1 {
                self.pos = frac_end;
                let text = &self.src[start..frac_end];
                let value = text.parse::<f64>().unwrap_or(f64::NAN);
                self.push(Tok::Float(value), start, frac_end);
                return;
            }
        }
        // INT_CONST_HEX: 0[xX][0-9a-fA-F]+ (never signed)
        if !neg
            && self.bytes[start] == b'0'
            && matches!(self.bytes.get(start + 1), Some(b'x' | b'X'))
            && self.bytes.get(start + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            let mut end = start + 2;
            while self.bytes.get(end).is_some_and(u8::is_ascii_hexdigit) {
                end += 1;
            }
            self.pos = end;
            let value = self.int_value(&self.src[start + 2..end], 16, start, end);
            self.push(Tok::IntHex(value), start, end);
            return;
        }
        self.pos = int_end;
        let value = self.int_value(&self.src[start..int_end], 10, start, int_end);
        self.push(Tok::IntDec(value), start, int_end);
    }

    fn int_value(&mut self, digits: &str, radix: u32, start: usize, end: usize) -> i128 {
        match i128::from_str_radix(digits, radix) {
            Ok(v) => v,
            Err(_) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        self.expanded.span(start, end),
                        "integer literal is too large",
                    )
                    .with_label("does not fit in 128 bits"),
                );
                0
            }
        }
    }
}

/// Strips comment markers: `//`, `///`, `/* */` and leading `*` on block-comment lines.
fn doc_text(comment: &str) -> String {
    if let Some(body) = comment.strip_prefix("//") {
        let body = body.trim_start_matches('/');
        return body.strip_prefix(' ').unwrap_or(body).trim_end().to_owned();
    }
    let body = comment
        .strip_prefix("/*")
        .and_then(|b| b.strip_suffix("*/"))
        .unwrap_or(comment);
    let body = body.trim_start_matches('*');
    let lines: Vec<&str> = body
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let t = t
                .strip_prefix('*')
                .map_or(t, |r| r.strip_prefix(' ').unwrap_or(r));
            t.trim_end()
        })
        .collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    lines[first..last.max(first)].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::MemoryLoader;
    use crate::preprocess::Preprocessor;
    use crate::source::{SourceDb, SourceFile};

    fn toks(src: &str) -> (Vec<Tok>, Vec<String>) {
        let mut db = SourceDb::new();
        let id = db.add(SourceFile::new("t.clad", None, src));
        let mut diags = Vec::new();
        let mut loader = MemoryLoader::new();
        let exp = Preprocessor::new(&mut loader, &mut db, &mut diags).run(id);
        let t = lex(&exp, &mut diags);
        (
            t.into_iter().map(|t| t.tok).collect(),
            diags.into_iter().map(|d| d.message).collect(),
        )
    }

    #[test]
    fn first_match_wins() {
        let (t, _) = toks("123abc 0xZ 1e5");
        assert_eq!(
            t,
            vec![
                Tok::IntDec(123),
                Tok::Ident("abc".into()),
                Tok::IntDec(0),
                Tok::Ident("xZ".into()),
                Tok::IntDec(1),
                Tok::Ident("e5".into()),
                Tok::Eof
            ]
        );
        let (t, _) = toks("-0x5 -3 -1.5 0X1f 0017");
        assert_eq!(
            t,
            vec![
                Tok::IntDec(0),
                Tok::Ident("x5".into()),
                Tok::IntDec(-3),
                Tok::Float(-1.5),
                Tok::IntHex(31),
                Tok::IntDec(17),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn verbatim_quirks() {
        let (t, _) = toks("A = verbatim X::Y // note\n");
        assert_eq!(t[2], Tok::Verbatim("X::Y // note".into()));
        let (t, _) = toks("B = verbatim \"b\" }");
        assert_eq!(t[2], Tok::Verbatim("\"b\" ".into()));
        let (t, _) = toks("verbatimCount");
        assert_eq!(t[0], Tok::Verbatim("verbatimCount".into()));
        let (t, _) = toks("verbatim  X,");
        assert_eq!(t[0], Tok::Verbatim(" X".into()));
        let (_, d) = toks("verbatim ,");
        assert_eq!(d, vec!["no text after \"verbatim\" keyword"]);
    }

    #[test]
    fn qualified_ids_and_reserved_words() {
        let (t, d) = toks("A::B::c A::None Anki :: Foo class");
        assert_eq!(t[0], Tok::Ident("A::B::c".into()));
        assert_eq!(t[1], Tok::Ident("A::None".into()));
        assert_eq!(t[2], Tok::Ident("Anki".into()));
        assert_eq!(t[3], Tok::Colon);
        assert_eq!(d.len(), 1);
        assert!(d[0].contains("keyword in C++98"), "{d:?}");
    }

    #[test]
    fn reserved_list_has_127_words() {
        let mut all: Vec<_> = reserved_words().collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 127);
        assert_eq!(reserved_in("type"), Some("Python"));
        assert_eq!(reserved_in("async"), None);
    }

    #[test]
    fn illegal_characters() {
        let (_, d) = toks("a\r\nb");
        assert!(d.is_empty(), "CRLF is normalised: {d:?}");
        let (_, d) = toks("a\rb . /* x");
        assert_eq!(d.len(), 3, "{d:?}");
    }

    #[test]
    fn docs_attach_to_tokens() {
        let mut db = SourceDb::new();
        let id = db.add(SourceFile::new(
            "t.clad",
            None,
            "// license\n\n/// The thing\nmessage X { int_8 a, // first\n /* second */ int_8 b }",
        ));
        let mut diags = Vec::new();
        let mut loader = MemoryLoader::new();
        let exp = Preprocessor::new(&mut loader, &mut db, &mut diags).run(id);
        let t = lex(&exp, &mut diags);
        assert_eq!(t[0].leading_doc.as_deref(), Some("The thing"));
        assert_eq!(t[5].trailing_doc.as_deref(), Some("first"));
        assert_eq!(t[6].leading_doc.as_deref(), Some("second"));
    }
}
