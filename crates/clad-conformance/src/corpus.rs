//! Where the conformance data is, whether it must be there, and what its
//! `vectors/MANIFEST.json` says.
//!
//! A conformance tree has the shape of `../shared/conformance/message-buffers` (see its
//! README): `schemas/<root>/…` (the `.clad` files, one compile root per folder),
//! `vectors/MANIFEST.json`, `vectors/<vectors_file>` (one JSON vector per line) and, optionally,
//! `semantics.json`. Every file is compiled with its root as the first include directory, then
//! the manifest's top-level `include_dirs` in order (relative to `schemas/`).
//!
//! Two environment variables, read the same way everywhere (this crate's build script and
//! tests, and clad-codegen's integration tests and benches):
//! * [`DIR_VAR`] (`CLAD_CONFORMANCE_DIR`): the tree; default `../shared/conformance/message-buffers`
//!   next to the repository.
//! * [`REQUIRE_VAR`] (`CLAD_CONFORMANCE_REQUIRE`): `1` makes missing data an error (the build
//!   script stops, tests fail) instead of a `SKIPPED` message. CI sets it.
//!
//! Naming the folder explicitly with [`DIR_VAR`] also makes it required: a typo in the path
//! must not turn the suite into a silent skip.
//!
//! This file uses only `std` and `serde_json`, and names nothing else of its crate: the
//! build script and clad-codegen's tests compile the same file (`#[path]`), so there is one
//! resolution rule and one manifest reader.

use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable naming the conformance tree.
pub const DIR_VAR: &str = "CLAD_CONFORMANCE_DIR";
/// The environment variable that makes missing conformance data an error.
pub const REQUIRE_VAR: &str = "CLAD_CONFORMANCE_REQUIRE";
/// The manifest's `base` for the reference compiler's own test schemas (the shared corpus).
/// Tests that name that corpus's files or types run only when the manifest has this base.
pub const REFERENCE_BASE: &str = "victor-clad/tools/message-buffers/emitters/tests/src";

/// The default tree for a crate directly under `crates/`:
/// `<repository>/../shared/conformance/message-buffers`.
pub fn default_dir(crate_dir: &Path) -> PathBuf {
    crate_dir.join("../../../shared/conformance/message-buffers")
}

/// Why the conformance data could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocateError {
    /// The data is required (by [`REQUIRE_VAR`] or because [`DIR_VAR`] names the folder) but
    /// `vectors/MANIFEST.json` is not there.
    Missing {
        /// The folder that was searched.
        dir: PathBuf,
        /// Which setting made it required.
        required_by: &'static str,
    },
    /// [`REQUIRE_VAR`] holds something other than `1`/`true`/`yes`/`0`/`false`/`no`/empty.
    BadSwitch(String),
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::Missing { dir, required_by } => write!(
                f,
                "conformance data required ({required_by}) but {} does not exist; check out \
                 ../shared next to the repository or set {DIR_VAR} to a tree with \
                 vectors/MANIFEST.json",
                dir.join("vectors/MANIFEST.json").display()
            ),
            LocateError::BadSwitch(v) => write!(
                f,
                "{REQUIRE_VAR}={v:?} is not a switch (use 1, true, yes, 0, false, no or leave it \
                 unset)"
            ),
        }
    }
}

impl std::error::Error for LocateError {}

/// Where the data is: `Ok(Some(dir))` when `dir/vectors/MANIFEST.json` exists, `Ok(None)` when
/// it does not and nothing requires it (the caller skips with [`skip_message`]), an error when
/// it is required and missing. The environment comes in as parameters so that tests can try
/// every case without touching the process environment.
pub fn locate_with(
    dir_var: Option<&OsStr>,
    require_var: Option<&OsStr>,
    default: &Path,
) -> Result<Option<PathBuf>, LocateError> {
    let required = match require_var.map(|v| v.to_string_lossy().trim().to_ascii_lowercase()) {
        None => false,
        Some(v) => match v.as_str() {
            "1" | "true" | "yes" => true,
            "" | "0" | "false" | "no" => false,
            _ => return Err(LocateError::BadSwitch(v)),
        },
    };
    let (dir, required_by) = match dir_var.filter(|d| !d.is_empty()) {
        Some(d) => (PathBuf::from(d), Some("CLAD_CONFORMANCE_DIR names it")),
        None => (default.to_path_buf(), None),
    };
    if dir.join("vectors/MANIFEST.json").is_file() {
        return Ok(Some(dir));
    }
    let required_by = if required {
        Some("CLAD_CONFORMANCE_REQUIRE is set")
    } else {
        required_by
    };
    match required_by {
        Some(required_by) => Err(LocateError::Missing { dir, required_by }),
        None => Ok(None),
    }
}

/// [`locate_with`] on the process environment, with [`default_dir`] of `crate_dir`.
pub fn locate(crate_dir: &Path) -> Result<Option<PathBuf>, LocateError> {
    locate_with(
        std::env::var_os(DIR_VAR).as_deref(),
        std::env::var_os(REQUIRE_VAR).as_deref(),
        &default_dir(crate_dir),
    )
}

/// The message a test or build prints when it skips for lack of data.
pub fn skip_message(crate_dir: &Path) -> String {
    format!(
        "SKIPPED: conformance data not found at {} (check out ../shared next to the repository \
         or set {DIR_VAR}; {REQUIRE_VAR}=1 makes this an error)",
        default_dir(crate_dir).display()
    )
}

/// For tests: the manifest of the located data; `None` (after printing [`skip_message`])
/// when it is absent and not required. Panics, failing the test, when the data is required
/// and missing or the manifest is unreadable.
pub fn for_tests(crate_dir: &Path) -> Option<Manifest> {
    match locate(crate_dir) {
        Ok(Some(dir)) => Some(Manifest::load(&dir).unwrap_or_else(|e| panic!("{e}"))),
        Ok(None) => {
            eprintln!("{}", skip_message(crate_dir));
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// Expected counts: the manifest's `totals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// `files_selected`: every schema listed in `files` (those with vectors and the skipped).
    pub files_selected: usize,
    /// `files_with_vectors`: schemas with status `ok` (a vectors file, possibly empty).
    pub files_with_vectors: usize,
    /// `types`: messages, structures and unions with vectors.
    pub types: usize,
    /// `vectors`: vector lines in all.
    pub vectors: usize,
}

/// One schema of the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestFile {
    /// Path relative to `schemas/` (the key in `semantics.json`).
    pub path: String,
    /// Compile root, relative to `schemas/`.
    pub root: String,
    /// Input name relative to the root.
    pub schema: String,
    /// True for status `ok`: the schema compiles and has a vectors file.
    pub ok: bool,
    /// The vectors file relative to `vectors/` (status `ok` only).
    pub vectors_file: Option<String>,
    /// The types with vectors and how many each has.
    pub types: Vec<(String, usize)>,
    /// `vector_count`.
    pub vector_count: usize,
}

/// One line of a vectors file.
#[derive(Debug, Clone, PartialEq)]
pub struct Vector {
    /// `vectors_file:line`, for messages.
    pub origin: String,
    /// The CLAD type name.
    pub ty: String,
    /// The CLAD-JSON value.
    pub value: Value,
    /// The bytes of `hex`.
    pub bytes: Vec<u8>,
}

/// A parsed `vectors/MANIFEST.json` and the tree it describes.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The tree (holds `schemas/` and `vectors/`).
    pub dir: PathBuf,
    /// Top-level `include_dirs`, relative to `schemas/`, searched after a file's root.
    pub include_dirs: Vec<String>,
    /// `base` (the reference corpus has [`REFERENCE_BASE`]).
    pub base: Option<String>,
    /// Expected counts.
    pub totals: Totals,
    /// Every listed schema, in manifest order.
    pub files: Vec<ManifestFile>,
}

/// A manifest or vectors file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ManifestError {}

fn count(v: &Value, key: &str) -> Result<usize, String> {
    v.get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("`{key}` is missing or not a count"))
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("`{key}` is missing or not a string"))
}

impl Manifest {
    /// Reads `dir/vectors/MANIFEST.json`.
    pub fn load(dir: &Path) -> Result<Self, ManifestError> {
        let path = dir.join("vectors/MANIFEST.json");
        let err = |message: String| ManifestError {
            path: path.clone(),
            message,
        };
        let text_in = std::fs::read_to_string(&path).map_err(|e| err(e.to_string()))?;
        let v: Value = serde_json::from_str(&text_in).map_err(|e| err(e.to_string()))?;
        Self::from_value(dir, &v).map_err(err)
    }

    /// Interprets a parsed manifest of the tree `dir`.
    pub fn from_value(dir: &Path, v: &Value) -> Result<Self, String> {
        let include_dirs = match v.get("include_dirs") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|d| d.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or("`include_dirs` holds something other than strings")?,
            Some(_) => return Err("`include_dirs` is not an array".to_owned()),
        };
        let totals = v.get("totals").ok_or("`totals` is missing")?;
        let files_json = v
            .get("files")
            .and_then(Value::as_array)
            .ok_or("`files` is missing or not an array")?;
        let mut files = Vec::new();
        for (i, f) in files_json.iter().enumerate() {
            let at = |e: String| format!("files[{i}]: {e}");
            let ok = text(f, "status").map_err(at)? == "ok";
            let mut types = Vec::new();
            if let Some(list) = f.get("types").and_then(Value::as_array) {
                for t in list {
                    types.push((
                        text(t, "type").map_err(at)?.to_owned(),
                        count(t, "vectors").map_err(at)?,
                    ));
                }
            }
            files.push(ManifestFile {
                path: text(f, "path").map_err(at)?.to_owned(),
                root: text(f, "root").map_err(at)?.to_owned(),
                schema: text(f, "schema").map_err(at)?.to_owned(),
                ok,
                vectors_file: if ok {
                    Some(text(f, "vectors_file").map_err(at)?.to_owned())
                } else {
                    None
                },
                types,
                vector_count: if ok {
                    count(f, "vector_count").map_err(at)?
                } else {
                    0
                },
            });
        }
        Ok(Manifest {
            dir: dir.to_path_buf(),
            include_dirs,
            base: v.get("base").and_then(Value::as_str).map(str::to_owned),
            totals: Totals {
                files_selected: count(totals, "files_selected")
                    .map_err(|e| format!("totals: {e}"))?,
                files_with_vectors: count(totals, "files_with_vectors")
                    .map_err(|e| format!("totals: {e}"))?,
                types: count(totals, "types").map_err(|e| format!("totals: {e}"))?,
                vectors: count(totals, "vectors").map_err(|e| format!("totals: {e}"))?,
            },
            files,
        })
    }

    /// True for the reference compiler's own test schemas (`base` is [`REFERENCE_BASE`]):
    /// tests that name that corpus's files or types run only then.
    pub fn is_reference_suite(&self) -> bool {
        self.base.as_deref() == Some(REFERENCE_BASE)
    }

    /// `schemas/`.
    pub fn schemas_dir(&self) -> PathBuf {
        self.dir.join("schemas")
    }

    /// `vectors/`.
    pub fn vectors_dir(&self) -> PathBuf {
        self.dir.join("vectors")
    }

    /// `semantics.json`, when the tree has one.
    pub fn semantics(&self) -> Option<PathBuf> {
        let p = self.dir.join("semantics.json");
        p.is_file().then_some(p)
    }

    /// The include directories of a file compiled in `root`: the root, then `include_dirs`
    /// in order.
    pub fn search_dirs(&self, root: &str) -> Vec<PathBuf> {
        let schemas = self.schemas_dir();
        std::iter::once(root)
            .chain(self.include_dirs.iter().map(String::as_str))
            .map(|d| schemas.join(d))
            .collect()
    }

    /// The schemas with status `ok`.
    pub fn ok_files(&self) -> impl Iterator<Item = &ManifestFile> {
        self.files.iter().filter(|f| f.ok)
    }

    /// Every vector of `file` (none for a skipped file).
    pub fn vectors(&self, file: &ManifestFile) -> Result<Vec<Vector>, ManifestError> {
        let Some(name) = &file.vectors_file else {
            return Ok(Vec::new());
        };
        let path = self.vectors_dir().join(name);
        let err = |message: String| ManifestError {
            path: path.clone(),
            message,
        };
        let all = std::fs::read_to_string(&path).map_err(|e| err(e.to_string()))?;
        let mut out = Vec::new();
        for (i, line) in all.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: String| err(format!("line {}: {e}", i + 1));
            let v: Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
            let hex = text(&v, "hex").map_err(at)?;
            out.push(Vector {
                origin: format!("{name}:{}", i + 1),
                ty: text(&v, "type").map_err(at)?.to_owned(),
                bytes: parse_hex(hex).ok_or_else(|| at(format!("bad hex {hex:?}")))?,
                value: v
                    .get("value")
                    .cloned()
                    .ok_or_else(|| at("no `value`".into()))?,
            });
        }
        Ok(out)
    }

    /// Checks the counts of `files` against `totals` (what the tree holds, before any vector
    /// is run): an error names every difference.
    pub fn check_listing(&self) -> Result<(), String> {
        let mut errors = Vec::new();
        let ok: Vec<_> = self.ok_files().collect();
        let types: usize = ok.iter().map(|f| f.types.len()).sum();
        let vectors: usize = ok.iter().map(|f| f.vector_count).sum();
        for (what, got, want) in [
            (
                "files_selected",
                self.files.len(),
                self.totals.files_selected,
            ),
            (
                "files_with_vectors",
                ok.len(),
                self.totals.files_with_vectors,
            ),
            ("types", types, self.totals.types),
            ("vectors", vectors, self.totals.vectors),
        ] {
            if got != want {
                errors.push(format!(
                    "`files` adds up to {got} {what}, totals says {want}"
                ));
            }
        }
        for f in ok {
            let sum: usize = f.types.iter().map(|t| t.1).sum();
            let distinct: BTreeSet<&str> = f.types.iter().map(|t| t.0.as_str()).collect();
            if sum != f.vector_count || distinct.len() != f.types.len() {
                errors.push(format!(
                    "{}: its types add up to {sum} vectors (vector_count {}), or a type is listed twice",
                    f.path, f.vector_count
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("\n"))
        }
    }
}

/// Parses lowercase or uppercase hex.
fn parse_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}
