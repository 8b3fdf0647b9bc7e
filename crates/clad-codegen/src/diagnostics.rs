//! Diagnostics: every problem the compiler finds, with a location and a rendered snippet.
//!
//! The same [`Diagnostic`] values are rendered for the CLI, `build.rs` and the proc macro, so a
//! schema error reads identically wherever it is reported.

use crate::source::{FileId, SourceDb, Span};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, termcolor};
use std::ops::Range;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The schema is invalid; no output is produced.
    Error,
    /// Suspicious but accepted.
    Warning,
}

/// One problem found in a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The main message, one line.
    pub message: String,
    /// Where the problem is (absent for problems that concern no source text, such as a missing
    /// main file).
    pub span: Option<Span>,
    /// Text printed under the primary caret.
    pub label: String,
    /// Other places that matter, each with its own text.
    pub secondary: Vec<(Span, String)>,
    /// Extra explanation lines.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: Some(span),
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// An error without a location.
    pub fn error_global(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// Sets the primary label.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a secondary location.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: message` on one line (no snippet).
    pub fn short(&self, sources: &SourceDb) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match self.span {
            Some(span) => format!("{}: {kind}: {}", sources.location(span), self.message),
            None => format!("{kind}: {}", self.message),
        }
    }

    fn to_codespan(&self) -> CsDiagnostic<FileId> {
        let mut d = match self.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        }
        .with_message(&self.message);
        let mut labels = Vec::new();
        if let Some(span) = self.span {
            labels.push(Label::primary(span.file, span.range()).with_message(&self.label));
        }
        for (span, text) in &self.secondary {
            labels.push(Label::secondary(span.file, span.range()).with_message(text));
        }
        d = d.with_labels(labels);
        d.with_notes(self.notes.clone())
    }
}

impl<'a> Files<'a> for SourceDb {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.try_get(id)
            .map(|f| f.name.as_str())
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.try_get(id)
            .map(|f| f.text.as_str())
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        Ok(self
            .try_get(id)
            .ok_or(FilesError::FileMissing)?
            .line_index(byte_index))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let file = self.try_get(id).ok_or(FilesError::FileMissing)?;
        let starts = file.line_starts();
        let start = *starts.get(line_index).ok_or(FilesError::LineTooLarge {
            given: line_index,
            max: starts.len() - 1,
        })?;
        let end = starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(file.text.len());
        Ok(start..end)
    }
}

impl SourceDb {
    fn try_get(&self, id: FileId) -> Option<&crate::source::SourceFile> {
        if (id.0 as usize) < self.len() {
            Some(self.get(id))
        } else {
            None
        }
    }
}

/// Renders diagnostics with source snippets. `color` adds ANSI colours (for terminals).
pub fn render(diagnostics: &[Diagnostic], sources: &SourceDb, color: bool) -> String {
    // Control characters (a lone `\r`, NUL, ...) have no width on a terminal, so a caret under
    // one would be invisible and `\r` would garble the line. Show them as spaces (same byte
    // length, so every span stays valid).
    let sanitized;
    let sources = if sources
        .files()
        .any(|(_, f)| f.text.contains(is_hidden_control))
    {
        let mut db = SourceDb::new();
        for (_, f) in sources.files() {
            let text: String = f
                .text
                .chars()
                .map(|c| if is_hidden_control(c) { ' ' } else { c })
                .collect();
            db.add(crate::source::SourceFile::new(
                f.name.clone(),
                f.path.clone(),
                text,
            ));
        }
        sanitized = db;
        &sanitized
    } else {
        sources
    };
    let config = term::Config::default();
    let mut out = String::new();
    for diagnostic in diagnostics {
        let cs = diagnostic.to_codespan();
        // Rendering only fails on a span outside its file, which we guard against by falling
        // back to the one-line form.
        let rendered = if color {
            let mut buffer = termcolor::Buffer::ansi();
            term::emit_to_write_style(&mut buffer, &config, sources, &cs)
                .map(|()| String::from_utf8_lossy(buffer.as_slice()).into_owned())
        } else {
            term::emit_into_string(&config, sources, &cs)
        };
        match rendered {
            Ok(text) => out.push_str(&text),
            Err(_) => {
                out.push_str(&diagnostic.short(sources));
                out.push('\n');
            }
        }
    }
    out
}

/// ASCII control characters other than newline and tab (one byte each).
fn is_hidden_control(c: char) -> bool {
    c.is_ascii_control() && c != '\n' && c != '\t'
}
