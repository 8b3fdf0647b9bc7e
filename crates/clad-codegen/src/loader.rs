//! Where schema text comes from: the injected file resolver.
//!
//! The compiler never touches the file system itself. It asks a [`SourceLoader`] for the main
//! file and for each `#include`, which keeps the parser pure and lets tests use in-memory files
//! ([`MemoryLoader`]). [`FsLoader`] is the real thing used by `cladc` and `build.rs`.
//!
//! Include resolution follows the original tool exactly: an include path is tried in each
//! search directory in order (the original's `-C` directory first, then each `-I`), the first
//! existing file wins, and the directory of the *including* file is never searched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A file handed to the compiler.
#[derive(Clone, Debug)]
pub struct LoadedSource {
    /// Name shown in diagnostics.
    pub name: String,
    /// The real path on disk, if any (used for `cargo:rerun-if-changed`).
    pub path: Option<PathBuf>,
    /// The file's text.
    pub text: String,
}

/// Why a file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No search directory holds the file.
    NotFound {
        /// The directories that were searched, in order.
        searched: Vec<String>,
    },
    /// The file exists but could not be read (I/O error, not UTF-8, ...).
    Unreadable {
        /// The file that failed.
        path: String,
        /// Why.
        reason: String,
    },
}

/// Supplies schema text to the compiler.
pub trait SourceLoader {
    /// Loads the main (input) file.
    fn load_main(&mut self, name: &str) -> Result<LoadedSource, LoadError>;
    /// Resolves and loads the path written in an `#include "..."` line.
    fn load_include(&mut self, path: &str) -> Result<LoadedSource, LoadError>;
}

/// Loads files from disk, searching include directories in order.
#[derive(Clone, Debug, Default)]
pub struct FsLoader {
    include_dirs: Vec<PathBuf>,
    read: Vec<PathBuf>,
}

impl FsLoader {
    /// A loader searching `include_dirs` in order. With no directory, the current directory is
    /// searched (the original tool's default `-C ./`).
    pub fn new<P: AsRef<Path>>(include_dirs: impl IntoIterator<Item = P>) -> Self {
        let mut include_dirs: Vec<PathBuf> = include_dirs
            .into_iter()
            .map(|p| p.as_ref().to_path_buf())
            .collect();
        if include_dirs.is_empty() {
            include_dirs.push(PathBuf::from("."));
        }
        FsLoader {
            include_dirs,
            read: Vec::new(),
        }
    }

    /// The directories searched for includes.
    pub fn include_dirs(&self) -> &[PathBuf] {
        &self.include_dirs
    }

    /// Every file read so far (resolved paths, in reading order).
    pub fn files_read(&self) -> &[PathBuf] {
        &self.read
    }

    fn read(&mut self, path: &Path) -> Result<LoadedSource, LoadError> {
        let unreadable = |reason: String| LoadError::Unreadable {
            path: path.display().to_string(),
            reason,
        };
        let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        self.read.push(path.to_path_buf());
        let text = String::from_utf8(bytes).map_err(|e| {
            unreadable(format!(
                "not valid UTF-8 (first bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        Ok(LoadedSource {
            name: display_path(path),
            path: Some(path.to_path_buf()),
            text,
        })
    }
}

fn display_path(path: &Path) -> String {
    let s = path.display().to_string();
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

impl SourceLoader for FsLoader {
    fn load_main(&mut self, name: &str) -> Result<LoadedSource, LoadError> {
        let plain = Path::new(name);
        if plain.is_file() {
            return self.read(plain);
        }
        for dir in self.include_dirs.clone() {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return self.read(&candidate);
            }
        }
        Err(LoadError::NotFound {
            searched: self
                .include_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect(),
        })
    }

    fn load_include(&mut self, path: &str) -> Result<LoadedSource, LoadError> {
        for dir in self.include_dirs.clone() {
            let candidate = dir.join(path);
            if candidate.is_file() {
                return self.read(&candidate);
            }
        }
        Err(LoadError::NotFound {
            searched: self
                .include_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect(),
        })
    }
}

/// In-memory files, for tests and fuzzing. Paths are `/`-separated; directory `"."` (the
/// default) means the top level.
#[derive(Clone, Debug)]
pub struct MemoryLoader {
    files: BTreeMap<String, String>,
    dirs: Vec<String>,
}

impl Default for MemoryLoader {
    fn default() -> Self {
        MemoryLoader {
            files: BTreeMap::new(),
            dirs: vec![".".to_owned()],
        }
    }
}

impl MemoryLoader {
    /// An empty loader searching only the top level.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file.
    pub fn file(mut self, path: impl Into<String>, text: impl Into<String>) -> Self {
        self.files.insert(path.into(), text.into());
        self
    }

    /// Replaces the search directories.
    pub fn dirs<S: Into<String>>(mut self, dirs: impl IntoIterator<Item = S>) -> Self {
        self.dirs = dirs.into_iter().map(Into::into).collect();
        self
    }

    fn join(dir: &str, path: &str) -> String {
        if dir == "." || dir.is_empty() {
            path.to_owned()
        } else {
            format!("{}/{}", dir.trim_end_matches('/'), path)
        }
    }

    fn find(&self, path: &str) -> Result<LoadedSource, LoadError> {
        for dir in &self.dirs {
            let full = Self::join(dir, path);
            if let Some(text) = self.files.get(&full) {
                return Ok(LoadedSource {
                    name: full,
                    path: None,
                    text: text.clone(),
                });
            }
        }
        Err(LoadError::NotFound {
            searched: self.dirs.clone(),
        })
    }
}

impl SourceLoader for MemoryLoader {
    fn load_main(&mut self, name: &str) -> Result<LoadedSource, LoadError> {
        if let Some(text) = self.files.get(name) {
            return Ok(LoadedSource {
                name: name.to_owned(),
                path: None,
                text: text.clone(),
            });
        }
        self.find(name)
    }

    fn load_include(&mut self, path: &str) -> Result<LoadedSource, LoadError> {
        self.find(path)
    }
}
