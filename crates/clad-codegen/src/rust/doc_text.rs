//! Schema comments as rustdoc text.
//!
//! A comment in a `.clad` file is plain text, written for the original compiler, which copied
//! it into C++ and Python comments. Rustdoc reads doc comments as Markdown, so the same text
//! would turn into things its author never wrote: `[uint_16]` an intra-doc link (and a
//! `broken_intra_doc_links` warning), `<foo>` an HTML tag, `http://...` a `bare_urls`
//! warning, `*` and `_` emphasis, a leading `#` or `-` a heading or a list, and an indented
//! line a code block, which `cargo test` compiles and runs as a doctest. [`escape`] writes a
//! comment so that rustdoc shows it as written and finds nothing in it but paragraphs of text
//! and code spans.
//!
//! The rule, line by line (a line ends at `\n`, `\r\n` or `\r`, as in Markdown):
//! - Trailing whitespace is dropped (two trailing spaces would be a line break), and so is the
//!   leading whitespace of the first line of a paragraph (the comment's first line, or one
//!   after a blank line), where four spaces would start a code block. Markdown ignores both,
//!   so the rendered text does not change. Other lines keep their indentation.
//! - A code span (`` `name` ``: a run of backticks up to the next run as long on the same
//!   line) is kept as written: comments use them as Markdown does, and nothing inside one is
//!   a link, a tag or a URL. Unpaired backticks, and three or more opening a line (a fence),
//!   are escaped.
//! - Outside code spans, a backslash goes before (CommonMark's escape: `\[` is a `[`, nothing
//!   more)
//!   - `*` `~` `[` `]` `<` `>` `|` everywhere: emphasis, strikethrough, links, HTML, block
//!     quotes, tables;
//!   - `_` unless the letters or digits on both sides of its run make it part of a word
//!     (`uint_16` stays as it is: such an underscore never starts or ends emphasis);
//!   - `&` before a letter, a digit or `#` (an entity, `&amp;`);
//!   - `\` before ASCII punctuation or at the end of a line (an escape, a line break);
//!   - the `:` of `://` (the URL shows as text, neither a link nor a `bare_urls` warning);
//!   - at the start of a line: `#` (heading), `-`, `+`, `=` (list, rule, heading underline)
//!     and the `.` or `)` after a number (ordered list).
//!
//! Removing each backslash that precedes an ASCII punctuation character outside code spans,
//! as Markdown does, gives back the text with the whitespace above trimmed. Rustdoc's smart
//! punctuation (curly quotes, `--` as a dash) is left alone: it changes how characters look,
//! not what the text says.

/// `comment` as rustdoc Markdown that renders as the comment's text (see the module docs).
/// Lines are separated by `\n`.
pub(crate) fn escape(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len() + comment.len() / 8);
    let mut paragraph_start = true;
    for (i, line) in lines(comment).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.trim_end();
        let line = if paragraph_start {
            line.trim_start()
        } else {
            line
        };
        paragraph_start = line.is_empty();
        escape_line(line, &mut out);
    }
    out
}

/// The lines of `text`, ended by `\n`, `\r\n` or a lone `\r` (Markdown's line endings).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        let Some(end) = text.find(['\n', '\r']) else {
            rest = None;
            return Some(text);
        };
        let ending = if text[end..].starts_with("\r\n") {
            2
        } else {
            1
        };
        rest = Some(&text[end + ending..]);
        Some(&text[..end])
    })
}

/// Appends one line (without line ending and trailing whitespace) to `out`, escaped.
fn escape_line(line: &str, out: &mut String) {
    let chars: Vec<char> = line.chars().collect();
    let marker = block_marker(&chars);
    let in_span = code_spans(&chars);
    // Whether the run of `_` being written is escaped (decided at its first `_`).
    let mut escape_underscores = false;
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let escaped = !in_span[i]
            && (Some(i) == marker
                || match c {
                    '`' | '*' | '~' | '[' | ']' | '<' | '>' | '|' => true,
                    '_' => {
                        if i == 0 || chars[i - 1] != '_' {
                            let end = i + chars[i..].iter().take_while(|&&c| c == '_').count();
                            let before = i.checked_sub(1).map(|j| chars[j]);
                            let after = chars.get(end).copied();
                            escape_underscores = !(before.is_some_and(char::is_alphanumeric)
                                && after.is_some_and(char::is_alphanumeric));
                        }
                        escape_underscores
                    }
                    '&' => next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '#'),
                    '\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
                    ':' => chars[i + 1..].starts_with(&['/', '/']),
                    _ => false,
                });
        if escaped {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Which characters of `line` belong to a code span, delimiters included: as in Markdown, a
/// run of backticks opens one when a run of the same length follows (here: on the same line),
/// which closes it. Three or more backticks starting the line would open a fenced code block
/// instead, so they are no delimiter.
fn code_spans(line: &[char]) -> Vec<bool> {
    let mut runs = Vec::new(); // (start, length) of every run of backticks
    let mut i = 0;
    while i < line.len() {
        let len = line[i..].iter().take_while(|&&c| c == '`').count();
        if len > 0 {
            runs.push((i, len));
        }
        i += len.max(1);
    }
    let first = line.iter().position(|c| !c.is_whitespace());
    let mut in_span = vec![false; line.len()];
    let mut r = 0;
    while r < runs.len() {
        let (start, len) = runs[r];
        let fence = Some(start) == first && len >= 3;
        match runs[r + 1..].iter().position(|&(_, l)| l == len) {
            Some(k) if !fence => {
                let (close, _) = runs[r + 1 + k];
                in_span[start..close + len].fill(true);
                r += k + 2;
            }
            _ => r += 1,
        }
    }
    in_span
}

/// The index of the character that would make `line` start a heading, a list item, a
/// thematic break or a heading underline (and is not escaped everywhere anyway).
fn block_marker(line: &[char]) -> Option<usize> {
    let first = line.iter().position(|c| !c.is_whitespace())?;
    match line[first] {
        '#' | '-' | '+' | '=' => Some(first),
        '0'..='9' => {
            let end = first
                + line[first..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
            let ends_item = line.get(end + 1).is_none_or(|c| c.is_whitespace());
            (matches!(line.get(end), Some('.' | ')')) && ends_item).then_some(end)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// How Markdown reads a character of an escaped line.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Kind {
        /// Itself, in running text.
        Text,
        /// Itself, after a backslash (which is dropped).
        Escaped,
        /// Part of a code span, delimiters included.
        Code,
    }

    /// The characters of one escaped line as Markdown reads them: a backslash before ASCII
    /// punctuation escapes it, and a run of backticks opens a code span when a run of the
    /// same length follows.
    fn read(line: &str) -> Vec<(Kind, char)> {
        let chars: Vec<char> = line.chars().collect();
        let run = |at: usize| chars[at..].iter().take_while(|&&c| c == '`').count();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\\' && chars.get(i + 1).is_some_and(char::is_ascii_punctuation) {
                out.push((Kind::Escaped, chars[i + 1]));
                i += 2;
            } else if c == '`' {
                let len = run(i);
                let mut close = None;
                let mut j = i + len;
                while j < chars.len() {
                    match run(j) {
                        0 => j += 1,
                        l if l == len => {
                            close = Some(j);
                            break;
                        }
                        l => j += l,
                    }
                }
                let (kind, end) = match close {
                    Some(j) => (Kind::Code, j + len),
                    None => (Kind::Text, i + len),
                };
                out.extend(chars[i..end].iter().map(|&c| (kind, c)));
                i = end;
            } else {
                out.push((Kind::Text, c));
                i += 1;
            }
        }
        out
    }

    /// What Markdown makes of escaped text: every character as itself (code spans with their
    /// backticks), without the escaping backslashes.
    fn unescape(markdown: &str) -> String {
        let lines: Vec<String> = markdown
            .split('\n')
            .map(|l| read(l).into_iter().map(|(_, c)| c).collect())
            .collect();
        lines.join("\n")
    }

    /// The text `escape` must give back once unescaped: lines split at `\r\n`, `\r` or `\n`
    /// and joined with `\n`, without trailing whitespace, and without leading whitespace at
    /// the start of a paragraph.
    fn trimmed(text: &str) -> String {
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let mut out = Vec::new();
        let mut after_blank = true;
        for line in text.split('\n') {
            let mut line = line.trim_end();
            if after_blank {
                line = line.trim_start();
            }
            after_blank = line.is_empty();
            out.push(line);
        }
        out.join("\n")
    }

    #[test]
    fn brackets_tags_and_urls_are_text() {
        assert_eq!(escape("string[uint_16] name"), r"string\[uint_16\] name");
        assert_eq!(
            escape("in [0..255], array[5]"),
            r"in \[0..255\], array\[5\]"
        );
        assert_eq!(escape("a <foo> tag"), r"a \<foo\> tag");
        assert_eq!(escape("x < y && y > z"), r"x \< y && y \> z");
        assert_eq!(
            escape("see http://www.apache.org/licenses/LICENSE-2.0"),
            r"see http\://www.apache.org/licenses/LICENSE-2.0"
        );
        assert_eq!(escape("<https://a.b>"), r"\<https\://a.b\>");
        assert_eq!(escape("ratio: 1:2, Foo::Bar"), "ratio: 1:2, Foo::Bar");
    }

    #[test]
    fn inline_markup_is_text() {
        assert_eq!(escape("2 * 4 = *eight*"), r"2 \* 4 = \*eight\*");
        assert_eq!(escape("~~gone~~"), r"\~\~gone\~\~");
        assert_eq!(escape("a | b"), r"a \| b");
        assert_eq!(escape("![img](x.png)"), r"!\[img\](x.png)");
        assert_eq!(escape("[^1] note"), r"\[^1\] note");
        assert_eq!(escape("&amp; &#38; & x"), r"\&amp; \&#38; & x");
        assert_eq!(escape(r"C:\dir\[x] \ end\"), r"C:\dir\\\[x\] \ end\\");
    }

    #[test]
    fn code_spans_stay_as_written() {
        assert_eq!(escape("`a[0]` and [b]"), r"`a[0]` and \[b\]");
        assert_eq!(escape("``a`b`` <c>"), r"``a`b`` \<c\>");
        assert_eq!(escape("`http://x <y> a\\b`"), "`http://x <y> a\\b`");
        assert_eq!(escape("`a`_b_"), r"`a`\_b\_");
        // Unpaired backticks, within a line.
        assert_eq!(escape("it's a `tick"), r"it's a \`tick");
        assert_eq!(escape("``a` b"), r"\`\`a\` b");
        assert_eq!(escape("`a\nb`"), "\\`a\nb\\`");
        // A backslash before a span would escape its backtick.
        assert_eq!(escape(r"\`x`"), r"\\`x`");
        // Three backticks opening a line are a fence, elsewhere a delimiter.
        assert_eq!(
            escape("```rust\nfn f() {}\n```"),
            "\\`\\`\\`rust\nfn f() {}\n\\`\\`\\`"
        );
        assert_eq!(escape("```x```"), r"\`\`\`x\`\`\`");
        assert_eq!(escape("a ```x```"), "a ```x```");
    }

    #[test]
    fn underscores_inside_words_stay() {
        assert_eq!(
            escape("uint_16 my_long__name x_1"),
            "uint_16 my_long__name x_1"
        );
        assert_eq!(
            escape("_emphasis_ and __strong__"),
            r"\_emphasis\_ and \_\_strong\_\_"
        );
        assert_eq!(escape("trailing_ (_x) a_."), r"trailing\_ (\_x) a\_.");
        assert_eq!(escape("é_ü 名_字"), "é_ü 名_字");
    }

    #[test]
    fn lines_start_no_block() {
        assert_eq!(escape("# Title"), r"\# Title");
        assert_eq!(
            escape("a\n- item\n+ item\n* item"),
            "a\n\\- item\n\\+ item\n\\* item"
        );
        assert_eq!(escape("a\n==="), "a\n\\===");
        assert_eq!(escape("a\n  ---"), "a\n  \\---");
        assert_eq!(escape("___"), r"\_\_\_");
        assert_eq!(
            escape("1. one\n2) two\n10.\n3.5 kg"),
            "1\\. one\n2\\) two\n10\\.\n3.5 kg"
        );
        assert_eq!(escape("> quote"), r"\> quote");
        assert_eq!(escape("~~~"), r"\~\~\~");
        assert_eq!(escape("<div>"), r"\<div\>");
        assert_eq!(escape("[x]: http://a"), r"\[x\]: http\://a");
        assert_eq!(escape("a - b # c = d + e 1. f"), "a - b # c = d + e 1. f");
    }

    #[test]
    fn indentation_never_makes_a_code_block() {
        // The first line of each paragraph loses its indentation; the others keep it (a
        // paragraph goes on over them).
        assert_eq!(
            escape("    let x = 1;\n    let y = 2;\n\n\tfoo();\n  \n      bar"),
            "let x = 1;\n    let y = 2;\n\nfoo();\n\nbar"
        );
        // Trailing spaces (a line break) go too, and a lone `\r` ends a line.
        assert_eq!(escape("a  \r\r    code\r\nb"), "a\n\ncode\nb");
    }

    #[test]
    fn plain_text_is_unchanged() {
        let text = "Duration in seconds (0 = off), e.g. 3.5; see `Foo::Bar`.\n\nNext paragraph.";
        assert_eq!(escape(text), text);
    }

    proptest! {
        /// Markdown's unescaping gives back the comment (whitespace trimmed as documented).
        #[test]
        fn unescaping_gives_back_the_text(text in "(?s).{0,80}") {
            prop_assert_eq!(unescape(&escape(&text)), trimmed(&text));
        }

        /// The same on text made of the characters Markdown cares about.
        #[test]
        fn unescaping_gives_back_markup(text in r"[ \t\r\n\\`*_~\[\]<>|&#=+\-.):/!^a1]{0,60}") {
            prop_assert_eq!(unescape(&escape(&text)), trimmed(&text));
        }

        /// Outside code spans, nothing in the output can open a link, a tag, a code span,
        /// emphasis, a table, an entity or a URL, and no line starts a block other than a
        /// paragraph.
        #[test]
        fn nothing_is_markup(text in r"[ \t\r\n\\`*_~\[\]<>|&#=+\-.):/!^a1é]{0,60}") {
            let out = escape(&text);
            let mut paragraph_start = true;
            for line in out.split('\n') {
                prop_assert!(!line.contains('\r'));
                prop_assert_eq!(line, line.trim_end());
                if paragraph_start {
                    prop_assert_eq!(line, line.trim_start());
                }
                paragraph_start = line.is_empty();
                let t = read(line);
                let first = t.iter().position(|&(_, c)| !c.is_whitespace());
                if let Some(f) = first {
                    let (kind, c) = t[f];
                    prop_assert!(kind != Kind::Text || !"#-+=".contains(c), "{line:?}");
                    let ticks = t[f..].iter().take_while(|&&(k, c)| k != Kind::Escaped && c == '`');
                    prop_assert!(ticks.count() < 3, "a fence: {line:?}");
                }
                for (i, &(kind, c)) in t.iter().enumerate() {
                    if kind != Kind::Text {
                        continue;
                    }
                    let next = t.get(i + 1).copied();
                    prop_assert!(!"`*~[]<>|".contains(c), "{c:?} in {line:?}");
                    if c == '_' {
                        // Unescaped only inside a word.
                        let before = t[..i].iter().rev().find(|t| t.1 != '_').map(|t| t.1);
                        let after = t[i..].iter().find(|t| t.1 != '_').map(|t| t.1);
                        prop_assert!(before.is_some_and(char::is_alphanumeric), "{line:?}");
                        prop_assert!(after.is_some_and(char::is_alphanumeric), "{line:?}");
                    }
                    if c == '&' {
                        let entity = |(k, n): (Kind, char)| {
                            k != Kind::Escaped && (n.is_ascii_alphanumeric() || n == '#')
                        };
                        prop_assert!(!next.is_some_and(entity), "{line:?}");
                    }
                    if c == ':' {
                        let url = [(Kind::Text, '/'), (Kind::Text, '/')];
                        prop_assert!(!t[i + 1..].starts_with(&url), "{line:?}");
                    }
                    if c == '\\' {
                        // A literal backslash, never at the end of a line (a line break).
                        prop_assert!(next.is_some(), "{line:?}");
                    }
                }
                let start = line.trim_start();
                let digits = start.chars().take_while(char::is_ascii_digit).count();
                let rest = &start[digits..];
                let item = (rest.starts_with('.') || rest.starts_with(')'))
                    && rest[1..].chars().next().is_none_or(char::is_whitespace);
                prop_assert!(digits == 0 || !item, "{line:?}");
            }
        }
    }
}
