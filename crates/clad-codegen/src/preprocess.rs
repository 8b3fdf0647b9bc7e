//! `#include` expansion, exactly as the original tool does it (spec §1.7).
//!
//! The original runs a line-based textual preprocessor before lexing. For each line that
//! matches the include pattern it emits the line as a comment, then `include "<path>" {`, then
//! (only the first time this exact path string is seen) the expanded included file, then `}`.
//! Because this runs before the lexer, it ignores comments: an `#include` inside a block
//! comment is still resolved.
//!
//! We produce the same expanded text plus a map from expanded offsets back to the original
//! files, so every token and diagnostic points at the text the user wrote.

use crate::diagnostics::Diagnostic;
use crate::loader::{LoadError, SourceLoader};
use crate::source::{FileId, SourceDb, SourceFile, Span};
use std::collections::HashSet;

/// Where a piece of the expanded text comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Origin {
    /// Copied verbatim from `file`, starting at byte `offset`.
    File { file: FileId, offset: usize },
    /// Synthesised by the preprocessor on behalf of the `#include` at `span`.
    Synthetic { span: Span },
}

/// The include-expanded text of one translation unit.
pub(crate) struct Expanded {
    pub text: String,
    /// Sorted by start offset in `text`.
    segments: Vec<(usize, Origin)>,
}

impl Expanded {
    /// Maps an expanded range to a span in an original file.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let idx = match self.segments.binary_search_by(|(s, _)| s.cmp(&start)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (seg_start, origin) = self.segments[idx];
        let seg_end = self
            .segments
            .get(idx + 1)
            .map_or(self.text.len(), |(s, _)| *s);
        match origin {
            Origin::File { file, offset } => {
                let a = offset + (start - seg_start);
                let b = offset + (end.min(seg_end).max(start) - seg_start);
                Span::new(file, a..b)
            }
            Origin::Synthetic { span } => span,
        }
    }

    /// True if the expanded offset lies in preprocessor-made text.
    pub fn is_synthetic(&self, offset: usize) -> bool {
        let idx = match self.segments.binary_search_by(|(s, _)| s.cmp(&offset)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        matches!(self.segments[idx].1, Origin::Synthetic { .. })
    }
}

/// If `line` (without its newline) is an include directive, returns the byte range of the
/// captured path within the line.
///
/// Pattern (spec §1.7): from column 0, `#include`, whitespace, `"`, a *greedy* capture, `"`,
/// then zero or more groups of optional whitespace, `/` and anything, up to the end of line.
pub(crate) fn match_include(line: &str) -> Option<std::ops::Range<usize>> {
    let rest = line.strip_prefix("#include")?;
    let ws = rest.len() - rest.trim_start_matches(is_py_space).len();
    if ws == 0 {
        return None;
    }
    let open = "#include".len() + ws;
    if line.as_bytes().get(open) != Some(&b'"') {
        return None;
    }
    let body_start = open + 1;
    // Greedy: try closing quotes from the right.
    let mut search_end = line.len();
    while let Some(close) = line[..search_end].rfind('"') {
        if close < body_start {
            return None;
        }
        let after = &line[close + 1..];
        let trimmed = after.trim_start_matches(is_py_space);
        if after.is_empty() || trimmed.starts_with('/') {
            return Some(body_start..close);
        }
        search_end = close;
    }
    None
}

fn is_py_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// True if `path` matches the lexer's quoted-path rule: `(seg/)*seg(.seg)?`, `seg = [A-Za-z0-9_]+`.
pub(crate) fn is_valid_include_path(path: &str) -> bool {
    let seg_ok =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or_default();
    let last_ok = match last.split_once('.') {
        Some((stem, ext)) => seg_ok(stem) && seg_ok(ext),
        None => seg_ok(last),
    };
    last_ok && parts.all(seg_ok)
}

pub(crate) struct Preprocessor<'a> {
    loader: &'a mut dyn SourceLoader,
    db: &'a mut SourceDb,
    diagnostics: &'a mut Vec<Diagnostic>,
    seen: HashSet<String>,
    text: String,
    segments: Vec<(usize, Origin)>,
}

impl<'a> Preprocessor<'a> {
    pub fn new(
        loader: &'a mut dyn SourceLoader,
        db: &'a mut SourceDb,
        diagnostics: &'a mut Vec<Diagnostic>,
    ) -> Self {
        Preprocessor {
            loader,
            db,
            diagnostics,
            seen: HashSet::new(),
            text: String::new(),
            segments: Vec::new(),
        }
    }

    pub fn run(mut self, main: FileId) -> Expanded {
        self.expand(main, 0);
        if self.segments.is_empty() {
            self.segments.push((
                0,
                Origin::File {
                    file: main,
                    offset: 0,
                },
            ));
        }
        Expanded {
            text: self.text,
            segments: self.segments,
        }
    }

    fn push_file(&mut self, file: FileId, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        self.segments.push((
            self.text.len(),
            Origin::File {
                file,
                offset: range.start,
            },
        ));
        let src = &self.db.get(file).text[range];
        self.text.push_str(src);
    }

    fn push_synthetic(&mut self, text: &str, span: Span) {
        self.segments
            .push((self.text.len(), Origin::Synthetic { span }));
        self.text.push_str(text);
    }

    fn expand(&mut self, file: FileId, depth: usize) {
        let text = self.db.get(file).text.clone();
        let mut line_start = 0;
        while line_start < text.len() {
            let line_end = text[line_start..]
                .find('\n')
                .map_or(text.len(), |i| line_start + i + 1);
            let line = text[line_start..line_end].trim_end_matches('\n');
            match match_include(line) {
                Some(path_range) => {
                    let path = &line[path_range.clone()];
                    let path_span = Span::new(
                        file,
                        line_start + path_range.start..line_start + path_range.end,
                    );
                    let line_span = Span::new(file, line_start..line_start + line.len());
                    self.push_synthetic("// ", line_span);
                    self.push_file(file, line_start..line_end);
                    if !text[line_start..line_end].ends_with('\n') {
                        self.push_synthetic("\n", line_span);
                    }
                    self.include(path, path_span, line_span, depth);
                }
                None => {
                    self.push_file(file, line_start..line_end);
                    if line_end == text.len() && !text.ends_with('\n') {
                        self.push_synthetic("\n", Span::new(file, line_end..line_end));
                    }
                }
            }
            line_start = line_end;
        }
    }

    fn include(&mut self, path: &str, path_span: Span, line_span: Span, depth: usize) {
        if !is_valid_include_path(path) {
            let mut d = Diagnostic::error(path_span, format!("invalid include path \"{path}\""))
                .with_label("not a valid CLAD include path")
                .with_note(
                    "include paths may contain only letters, digits, '_' and '/' separators, \
                     with at most one '.' before the extension (no '-', '..' or './')",
                );
            if path.contains('"') {
                d = d.with_note(
                    "the path runs to the last '\"' on the line: a comment after an #include \
                     must not contain a double quote",
                );
            }
            self.diagnostics.push(d);
            return;
        }
        if depth + 1 >= crate::MAX_NESTING {
            self.diagnostics.push(
                Diagnostic::error(
                    path_span,
                    format!(
                        "#include nested too deeply: \"{path}\" would be file {}",
                        depth + 2
                    ),
                )
                .with_label("not read")
                .with_note(format!(
                    "includes (and namespaces around them) may nest at most {} deep",
                    crate::MAX_NESTING
                )),
            );
            return;
        }
        self.push_synthetic(&format!("include \"{path}\" {{\n"), line_span);
        if self.seen.insert(path.to_owned()) {
            match self.loader.load_include(path) {
                Ok(loaded) => {
                    let id = self
                        .db
                        .add(SourceFile::new(loaded.name, loaded.path, loaded.text));
                    self.expand(id, depth + 1);
                }
                Err(LoadError::NotFound { searched }) => {
                    let mut d =
                        Diagnostic::error(path_span, format!("could not find file \"{path}\""))
                            .with_label("no include directory holds this file");
                    let dirs = if searched.is_empty() {
                        "(none)".to_owned()
                    } else {
                        searched.join(", ")
                    };
                    d = d.with_note(format!("include directories searched, in order: {dirs}"));
                    d = d.with_note(
                        "includes are looked up only in the input and -I directories, never \
                         in the directory of the including file",
                    );
                    self.diagnostics.push(d);
                }
                Err(LoadError::Unreadable { path: p, reason }) => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            path_span,
                            format!("error reading file \"{p}\": {reason}"),
                        )
                        .with_label("included here"),
                    );
                }
            }
        }
        self.push_synthetic("}\n", line_span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_pattern_matches_reference_quirks() {
        assert_eq!(match_include("#include \"a.clad\""), Some(10..16));
        assert_eq!(match_include("#include\t\"a/b.clad\" // why"), Some(10..18));
        // greedy capture swallows a quote in a trailing comment
        let l = "#include \"a.clad\" // \"x\"";
        let r = match_include(l).unwrap();
        assert_eq!(&l[r], "a.clad\" // \"x");
        assert_eq!(match_include(" #include \"a.clad\""), None);
        assert_eq!(match_include("#include\"a.clad\""), None);
        assert_eq!(match_include("#include \"a.clad\"  "), None);
        assert_eq!(match_include("#include \"a.clad"), None);
        assert_eq!(match_include("#includes \"a.clad\""), None);
    }

    #[test]
    fn include_path_charset() {
        assert!(is_valid_include_path("a.clad"));
        assert!(is_valid_include_path("dir/sub/a_b.clad"));
        assert!(is_valid_include_path("noext"));
        assert!(!is_valid_include_path("a-b.clad"));
        assert!(!is_valid_include_path("../a.clad"));
        assert!(!is_valid_include_path("./a.clad"));
        assert!(!is_valid_include_path("a.b.clad"));
        assert!(!is_valid_include_path("dir/.clad"));
        assert!(!is_valid_include_path(""));
    }
}
