//! Source files and spans.
//!
//! Every file the compiler reads (the main file and each include) is stored once in a
//! [`SourceDb`] and addressed by a [`FileId`]. Spans are byte ranges in the *original* file,
//! never in the include-expanded text, so diagnostics always point at what the user wrote.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

/// Index of a file in a [`SourceDb`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file the range belongs to.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span covering `range` in `file`.
    pub fn new(file: FileId, range: Range<usize>) -> Self {
        Span {
            file,
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    /// The byte range.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering `self` and `other` (same file assumed; falls back to `self`).
    pub fn to(&self, other: Span) -> Span {
        if self.file != other.file {
            return *self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One source file as the compiler saw it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Name used in diagnostics (the path as found through the search directories).
    pub name: String,
    /// The real file-system path, when the file came from disk.
    pub path: Option<PathBuf>,
    /// The text, with CRLF line endings normalised to LF.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Creates a file record; `text` is normalised (CRLF to LF).
    pub fn new(name: impl Into<String>, path: Option<PathBuf>, text: impl Into<String>) -> Self {
        let mut text: String = text.into();
        if text.contains("\r\n") {
            text = text.replace("\r\n", "\n");
        }
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            path,
            text,
            line_starts,
        }
    }

    /// Zero-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Start offsets of every line.
    pub fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }

    /// One-based `(line, column)` of a byte offset (column counted in characters).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// All files read during one compilation. Cloning is cheap (the files are shared).
#[derive(Clone, Debug, Default)]
pub struct SourceDb {
    files: Arc<Vec<SourceFile>>,
}

impl SourceDb {
    /// An empty database.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        Arc::make_mut(&mut self.files).push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Every file, in the order it was read (the main file first).
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file has been read.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// `file:line:col` of the start of a span.
    pub fn location(&self, span: Span) -> String {
        let file = self.get(span.file);
        let (line, col) = file.line_col(span.start as usize);
        format!("{}:{}:{}", file.name, line, col)
    }
}
