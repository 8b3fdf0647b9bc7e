//! The golden-vector checker: every vector of any tree described by a
//! [`Manifest`], through a [`Backend`] that encodes and decodes.
//!
//! The expected counts come from the manifest's `totals` and per-file lists, never from
//! this code: a tree passes when every vector passes and the vectors found are exactly the
//! ones the manifest announces. The shared corpus runs through the generated code
//! ([`GeneratedBackend`], built by `build.rs`); another tree can use any backend, for example
//! clad-codegen's schema-driven codec (see `tests/own_corpus.rs`).

use crate::corpus::{Manifest, ManifestFile};
use std::collections::BTreeSet;

/// Encodes and decodes the vectors of one tree.
pub trait Backend {
    /// Checks one vector of `file`: its CLAD-JSON `value` packs to `bytes`, `bytes` unpacks
    /// to `value`. An error says what differs (or that the backend has no type `ty`).
    fn check(
        &mut self,
        manifest: &Manifest,
        file: &ManifestFile,
        ty: &str,
        value: &serde_json::Value,
        bytes: &[u8],
    ) -> Result<(), String>;
}

/// What a run found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Schemas with status `ok` whose vectors file was read.
    pub files: usize,
    /// Distinct types with vectors, counted per schema.
    pub types: usize,
    /// Vector lines.
    pub vectors: usize,
    /// Vectors that passed.
    pub passed: usize,
    /// One message per failed vector, unreadable file or count that differs from the manifest.
    pub failures: Vec<String>,
}

impl Report {
    /// `Ok` when nothing failed; else every failure, one per line.
    pub fn result(&self) -> Result<(), String> {
        if self.failures.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} failures:\n{}",
                self.failures.len(),
                self.failures.join("\n")
            ))
        }
    }
}

/// Runs every vector of `manifest` through `backend` and compares what was found with the
/// manifest's `totals` and per-file counts.
pub fn check_vectors(manifest: &Manifest, backend: &mut dyn Backend) -> Report {
    let mut report = Report::default();
    if let Err(e) = manifest.check_listing() {
        report.failures.push(format!("MANIFEST.json: {e}"));
    }
    for file in manifest.ok_files() {
        let vectors = match manifest.vectors(file) {
            Ok(v) => v,
            Err(e) => {
                report.failures.push(e.to_string());
                continue;
            }
        };
        report.files += 1;
        let mut types = BTreeSet::new();
        for v in &vectors {
            types.insert(v.ty.as_str());
            match backend.check(manifest, file, &v.ty, &v.value, &v.bytes) {
                Ok(()) => report.passed += 1,
                Err(e) => report
                    .failures
                    .push(format!("{} {} ({}): {e}", v.origin, v.ty, file.path)),
            }
        }
        report.vectors += vectors.len();
        report.types += types.len();
        if vectors.len() != file.vector_count {
            report.failures.push(format!(
                "{}: {} vectors, the manifest says {}",
                file.path,
                vectors.len(),
                file.vector_count
            ));
        }
        let listed: BTreeSet<&str> = file.types.iter().map(|t| t.0.as_str()).collect();
        if listed != types {
            report.failures.push(format!(
                "{}: vectors for types {types:?}, the manifest lists {listed:?}",
                file.path
            ));
        }
    }
    let t = manifest.totals;
    for (what, got, want) in [
        ("files with vectors", report.files, t.files_with_vectors),
        ("types", report.types, t.types),
        ("vectors", report.vectors, t.vectors),
    ] {
        if got != want {
            report.failures.push(format!(
                "found {got} {what}, the manifest's totals say {want}"
            ));
        }
    }
    report
}

/// The generated code of `build.rs` (one module per schema of the tree it compiled) and
/// its borrowed views: [`check`](crate::check) for each vector.
#[derive(Debug, Default)]
pub struct GeneratedBackend {
    /// Vectors that were also decoded as a borrowed view.
    pub through_views: usize,
}

impl Backend for GeneratedBackend {
    fn check(
        &mut self,
        _manifest: &Manifest,
        file: &ManifestFile,
        ty: &str,
        value: &serde_json::Value,
        bytes: &[u8],
    ) -> Result<(), String> {
        if crate::check_view(&file.root, &file.schema, ty, bytes).is_some() {
            self.through_views += 1;
        }
        crate::check(&file.root, &file.schema, ty, value, bytes)
            .unwrap_or_else(|| Err("type not generated".to_owned()))
    }
}
