//! Formatted Rust text. The emitter writes lines; this writer indents them. Build extensions
//! ([`crate::extension`]) write their items with it too, so the whole generated file reads
//! as one.
//!
//! Generating text directly (as prost-build does) instead of building token trees and
//! pretty-printing them keeps generation of a large schema tree in the tens of
//! milliseconds: the token route (quote, then syn + prettyplease) measured 430 ms for the
//! 130-file synthetic tree, nearly all of it allocating and freeing tokens (see
//! BENCHMARKS.md).
//!
//! Indentation is derived from the text, so emitter code can hold multi-line templates at
//! any indentation of its own:
//! - each line's own leading whitespace is dropped;
//! - a line that leaves brackets (`{`, `(`, `[`) open indents the lines after it by one
//!   level (one level however many it opens: `Ok(Self {`), until they are closed;
//!   closing brackets at the start of a line apply to the line itself (`}`, `} else {`,
//!   `})`);
//! - brackets inside string literals and comments do not count;
//! - continuation lines (starting with `.`, `+ ` or `=>`) and the bounds after a lone
//!   `where` get one extra level, except a `.method()` right after a line that closed a
//!   bracket (`)` then `.in_field(..)?`, as rustfmt puts it);
//! - blank lines separate items: runs of them collapse to one, and none is kept right after
//!   an opening bracket or before a closing one.

use std::fmt::Write as _;

const INDENT: &str = "    ";

/// A Rust source file being written.
///
/// ```
/// use clad_codegen::rust::code::{str_lit, Code};
///
/// let mut c = Code::new();
/// c.doc("The answer.");
/// c.lines(&format!(
///     "
///     pub static ANSWER: Answer = Answer {{
///         text: {},
///     }};",
///     str_lit("forty-two")
/// ));
/// assert_eq!(
///     c.finish(),
///     "/// The answer.\npub static ANSWER: Answer = Answer {\n    text: \"forty-two\",\n};\n"
/// );
/// ```
#[derive(Debug, Default)]
pub struct Code {
    out: String,
    /// Indentation of the outermost lines (modules around the item).
    base: usize,
    /// One entry per indentation level: the brackets its opening line left open.
    levels: Vec<usize>,
    /// A blank line was asked for and not written yet.
    blank: bool,
    /// The last written line opened a bracket (no blank line may follow).
    opened: bool,
    /// Inside a `where` clause (its bounds are indented one more level).
    in_where: bool,
    /// The last written line started with a closing bracket.
    after_closer: bool,
}

impl Code {
    /// An empty file, written from the left margin.
    pub fn new() -> Self {
        Code::default()
    }

    /// A writer whose lines start `depth` levels deep (an item inside nested modules).
    pub fn with_depth(depth: usize) -> Self {
        Code {
            base: depth,
            ..Code::default()
        }
    }

    /// Closes `n` brackets, innermost level first.
    fn close(&mut self, mut n: usize) {
        while n > 0 {
            let Some(top) = self.levels.last_mut() else {
                return;
            };
            let k = n.min(*top);
            *top -= k;
            n -= k;
            if *top == 0 {
                self.levels.pop();
            }
        }
    }

    /// Appends every line of `text` (see the module docs for indentation). A first empty
    /// line (the newline right after a template's opening quote) is skipped.
    pub fn lines(&mut self, text: &str) {
        let text = text.strip_prefix('\n').unwrap_or(text);
        for line in text.lines() {
            self.line(line);
        }
    }

    /// Appends one line.
    pub fn line(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            self.blank = true;
            return;
        }
        self.put(line, brackets(line));
    }

    /// Writes `line` (not empty) with the given `(leading closers, net brackets)`.
    fn put(&mut self, line: &str, (leading_closers, net): (usize, isize)) {
        if self.blank && !self.opened && leading_closers == 0 && !self.out.is_empty() {
            self.out.push('\n');
        }
        self.blank = false;
        if line == "where" {
            self.in_where = true;
        } else if self.in_where && line.starts_with('{') {
            self.in_where = false;
        }
        self.close(leading_closers);
        let mut depth = self.base + self.levels.len();
        let continuation = (line.starts_with('.') && !self.after_closer)
            || line.starts_with("+ ")
            || line.starts_with("=>")
            || (self.in_where && line != "where");
        if continuation {
            depth += 1;
        }
        for _ in 0..depth {
            self.out.push_str(INDENT);
        }
        self.out.push_str(line);
        self.out.push('\n');
        // Brackets after the leading closers.
        let rest = net + leading_closers as isize;
        if rest > 0 {
            self.levels.push(rest as usize);
        } else {
            self.close(rest.unsigned_abs());
        }
        self.opened = rest > 0;
        self.after_closer = leading_closers > 0;
    }

    /// Appends `text` exactly as given (after this line's indentation), for user-written
    /// code such as attributes: a string literal in it may span lines, so its lines are not
    /// re-indented. `text` must be balanced (every bracket it opens, it closes).
    pub fn verbatim(&mut self, text: &str) {
        let text = text.trim();
        if !text.is_empty() {
            self.put(text, (0, 0));
        }
    }

    /// Asks for a blank line before the next line (see the module docs).
    pub fn blank(&mut self) {
        self.blank = true;
    }

    /// Appends `/// text` lines for a doc comment written in a schema (`None`: nothing).
    /// The comment is plain text, not Markdown: it is escaped so that rustdoc shows it as
    /// written and takes no link, HTML tag, URL or code block from it (see
    /// `rust::doc_text`). A line holding control characters, which a `///` comment cannot
    /// carry, becomes a `#[doc = "..."]` attribute instead.
    pub fn docs(&mut self, text: Option<&str>) {
        let Some(text) = text else {
            return;
        };
        for l in super::doc_text::escape(text).lines() {
            self.doc(l);
        }
    }

    /// One doc line: `/// text` (the doc attribute `" text"`), kept exactly, spaces
    /// included. Text a comment cannot carry as is (control characters, which end or
    /// break a comment, and invisible or bidirectional-override characters, which rustc
    /// rejects in comments) is written as an escaped `#[doc = "..."]` instead.
    pub fn doc(&mut self, text: &str) {
        let plain = text.chars().all(|c| {
            c == '\t' || matches!(c, '"' | '\\' | '\'') || c.escape_debug().nth(1).is_none()
        });
        if !plain {
            self.line(&format!("#[doc = {}]", str_lit(&format!(" {text}"))));
        } else if text.is_empty() {
            self.put("///", (0, 0));
        } else {
            self.put(&format!("/// {text}"), (0, 0));
        }
    }

    /// The text written so far.
    pub fn finish(self) -> String {
        self.out
    }
}

/// `(closing brackets at the start of the line, net brackets opened by the line)`, outside
/// string literals and `//` comments.
fn brackets(line: &str) -> (usize, isize) {
    let bytes = line.as_bytes();
    let leading = bytes
        .iter()
        .take_while(|b| matches!(b, b'}' | b')' | b']'))
        .count();
    let mut net = 0isize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'(' | b'[' => net += 1,
            b'}' | b')' | b']' => net -= 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => break,
            b'"' => {
                // Skip the literal (escapes included). Raw strings are never generated.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (leading, net)
}

/// The indentation of a line `depth` levels deep.
pub(crate) fn indent(depth: usize) -> String {
    INDENT.repeat(depth)
}

/// A Rust string literal holding `s` (escaped as needed).
pub fn str_lit(s: &str) -> String {
    // `Debug` for `str` writes a valid Rust literal: quotes, backslashes and control
    // characters are escaped.
    format!("{s:?}")
}

/// An unsuffixed integer literal (with a leading `-` for negative values).
pub(crate) fn int_lit(v: i128) -> String {
    v.to_string()
}

/// `value` as a `usize` literal (saturating: sizes beyond `usize` cannot occur in
/// compiled schemas).
pub(crate) fn usize_lit(v: u128) -> String {
    usize::try_from(v).unwrap_or(usize::MAX).to_string()
}

/// Calls longer than this (without indentation) put one argument per line.
const CALL_WIDTH: usize = 64;
/// Match arms longer than this (without indentation) put their value in a block.
const ARM_WIDTH: usize = 88;

/// `head(args)`: on one line when short, else one argument per line (as rustfmt does).
pub(crate) fn call(head: &str, args: &[&str]) -> String {
    let one_line = head.len() + 2 + args.iter().map(|a| a.len() + 2).sum::<usize>();
    if one_line <= CALL_WIDTH {
        return format!("{head}({})", args.join(", "));
    }
    let mut out = format!("{head}(\n");
    for a in args {
        out.push_str(a);
        out.push_str(",\n");
    }
    out.push(')');
    out
}

/// A match arm `pattern => value,`, with the value in a block when the arm is long.
pub(crate) fn arm(pattern: &str, value: &str) -> String {
    if pattern.len() + value.len() + 5 <= ARM_WIDTH {
        format!("{pattern} => {value},")
    } else {
        format!("{pattern} => {{\n{value}\n}}")
    }
}

/// `items` joined by `", "`.
pub(crate) fn comma<I, T>(items: I) -> String
where
    I: IntoIterator<Item = T>,
    T: std::fmt::Display,
{
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{item}");
    }
    out
}

/// Writes formatted lines into a [`Code`]: `emit!(code, "impl {name} {{")`.
macro_rules! emit {
    ($code:expr, $($fmt:tt)*) => {
        $code.lines(&format!($($fmt)*))
    };
}
pub(crate) use emit;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_follows_brackets() {
        let mut c = Code::new();
        c.lines(
            r#"
            impl Foo {
                fn f(
                    a: u8,
                ) -> Result<(), E>
                where
                    E: Clone,
                {
                    match a {
                        0 => "{",
                        _ => {
                            g()
                                .h()
                        }
                    }
                }
                fn g() -> R {
                    Ok(Self {
                        a,
                    })
                }

            }
            "#,
        );
        assert_eq!(
            c.finish(),
            "impl Foo {\n    fn f(\n        a: u8,\n    ) -> Result<(), E>\n    where\n        E: Clone,\n    {\n        match a {\n            0 => \"{\",\n            _ => {\n                g()\n                    .h()\n            }\n        }\n    }\n    fn g() -> R {\n        Ok(Self {\n            a,\n        })\n    }\n}\n"
        );
    }

    #[test]
    fn blank_lines_separate_items_only() {
        let mut c = Code::new();
        c.lines("\n\nstruct A;\n\n\n\nmod m {\n\nstruct B;\n\n}\nstruct C;");
        assert_eq!(
            c.finish(),
            "struct A;\n\nmod m {\n    struct B;\n}\nstruct C;\n"
        );
    }

    #[test]
    fn docs_become_comments_or_attributes() {
        let mut c = Code::new();
        c.docs(Some("First line.\n\nA {brace} and \"quotes\"."));
        c.doc("bell \u{7}");
        c.line("struct S;");
        assert_eq!(
            c.finish(),
            "/// First line.\n///\n/// A {brace} and \"quotes\".\n#[doc = \" bell \\u{7}\"]\nstruct S;\n"
        );
    }

    proptest::proptest! {
        /// Whatever a schema's doc comment holds, the generated doc attributes hold exactly
        /// its escaped lines, and the code still parses.
        #[test]
        fn any_doc_text_survives(text in proptest::prelude::any::<String>()) {
            let mut c = Code::new();
            c.docs(Some(&text));
            c.line("struct S;");
            let file = syn::parse_file(&c.finish()).expect("parses");
            let syn::Item::Struct(item) = &file.items[0] else { panic!("a struct") };
            let got: Vec<String> = item
                .attrs
                .iter()
                .map(|a| match &a.meta {
                    syn::Meta::NameValue(nv) => match &nv.value {
                        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => s.value(),
                        _ => panic!("a string"),
                    },
                    _ => panic!("a doc attribute"),
                })
                .collect();
            let want: Vec<String> = super::super::doc_text::escape(&text)
                .lines()
                .map(|l| if l.is_empty() { String::new() } else { format!(" {l}") })
                .collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn verbatim_text_keeps_its_lines() {
        let mut c = Code::with_depth(1);
        c.verbatim("#[doc = \"a\n  b\"]");
        c.line("struct S;");
        assert_eq!(c.finish(), "    #[doc = \"a\n  b\"]\n    struct S;\n");
    }

    #[test]
    fn long_calls_and_arms_wrap() {
        assert_eq!(call("f", &["a", "b"]), "f(a, b)");
        let long = "x".repeat(60);
        let wrapped = call("g", &[&long, &long]);
        assert_eq!(wrapped, format!("g(\n{long},\n{long},\n)"));
        let mut c = Code::new();
        c.lines(&format!("let v = {wrapped}\n.in_field()?;"));
        assert_eq!(
            c.finish(),
            format!("let v = g(\n    {long},\n    {long},\n)\n.in_field()?;\n")
        );
        assert_eq!(arm("A", "b"), "A => b,");
        assert_eq!(
            arm("A", &long.repeat(2)),
            format!("A => {{\n{}\n}}", long.repeat(2))
        );
    }

    #[test]
    fn literals() {
        assert_eq!(str_lit("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(int_lit(-128), "-128");
        assert_eq!(usize_lit(7), "7");
        assert_eq!(comma(["a", "b"]), "a, b");
    }
}
