//! The harness on a tree other than the reference corpus: `tests/data/mini`, whose manifest
//! has `include_dirs` (searched after each file's root, in order; a shadowed copy under the
//! second directory would break every vector holding a `Point`) and its own counts. The
//! vectors go through clad-codegen's schema-driven codec (`clad_codegen::dynamic`), since the
//! generated registry is built from `CLAD_CONFORMANCE_DIR` alone; pointing that variable at
//! the mini tree runs the same vectors through generated code.
//!
//! The tree passes, and fails on the vectors alone: one altered hex digit, one vector more
//! than the manifest announces.

use clad_codegen::ir::Schema;
use clad_codegen::{compile, dynamic, FsLoader};
use clad_conformance::corpus::{Manifest, ManifestFile};
use clad_conformance::golden::{check_vectors, Backend};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Compiles each schema of the tree like `build.rs` does (root, then `include_dirs`) and
/// checks each vector with the dynamic codec: encode == bytes, decode == value, re-encode.
#[derive(Default)]
struct DynamicBackend {
    schemas: HashMap<(String, String), Schema>,
}

impl Backend for DynamicBackend {
    fn check(
        &mut self,
        manifest: &Manifest,
        file: &ManifestFile,
        ty: &str,
        value: &serde_json::Value,
        bytes: &[u8],
    ) -> Result<(), String> {
        let key = (file.root.clone(), file.schema.clone());
        if !self.schemas.contains_key(&key) {
            let out = compile(
                &mut FsLoader::new(manifest.search_dirs(&file.root)),
                &file.schema,
            );
            let Some(schema) = out.schema.clone() else {
                return Err(out.render());
            };
            self.schemas.insert(key.clone(), schema);
        }
        let schema = &self.schemas[&key];
        let hex = clad_conformance::to_hex;
        let got = dynamic::encode(schema, ty, value).map_err(|e| format!("encode: {e}"))?;
        if got != bytes {
            return Err(format!("encode: got {}, want {}", hex(&got), hex(bytes)));
        }
        let decoded = dynamic::decode(schema, ty, bytes).map_err(|e| format!("decode: {e}"))?;
        if &decoded != value {
            return Err(format!("decode: got {decoded}, want {value}"));
        }
        match dynamic::encode(schema, ty, &decoded) {
            Ok(again) if again == bytes => Ok(()),
            other => Err(format!("re-encode: {other:?}")),
        }
    }
}

fn mini() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mini")
}

/// A copy of the mini tree in a fresh temporary folder, for damaging.
fn copy_of_mini(name: &str) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("clad-mini-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy(&mini(), &dir);
    dir
}

#[test]
fn the_mini_tree_passes_with_counts_from_its_manifest() {
    let manifest = Manifest::load(&mini()).unwrap();
    assert!(!manifest.is_reference_suite());
    assert_eq!(manifest.include_dirs, ["lib", "fallback"]);
    let report = check_vectors(&manifest, &mut DynamicBackend::default());
    report.result().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (report.files, report.types, report.vectors, report.passed),
        (
            manifest.totals.files_with_vectors,
            manifest.totals.types,
            manifest.totals.vectors,
            manifest.totals.vectors
        )
    );
}

#[test]
fn include_dirs_are_searched_after_the_root_in_order() {
    let manifest = Manifest::load(&mini()).unwrap();
    let schemas = mini().join("schemas");
    assert_eq!(
        manifest.search_dirs("app"),
        [
            schemas.join("app"),
            schemas.join("lib"),
            schemas.join("fallback")
        ]
    );
    // Without include_dirs, app/robot.clad does not compile; in the wrong order it compiles
    // against the shadowed Point and its vectors fail.
    let mut no_dirs = manifest.clone();
    no_dirs.include_dirs.clear();
    let failures = check_vectors(&no_dirs, &mut DynamicBackend::default()).failures;
    assert_eq!(failures.len(), 5, "{failures:#?}");
    assert!(failures[0].contains("common/types.clad"), "{}", failures[0]);
    let mut reversed = manifest.clone();
    reversed.include_dirs.reverse();
    let failures = check_vectors(&reversed, &mut DynamicBackend::default()).failures;
    assert_eq!(failures.len(), 3, "{failures:#?}");
    assert!(
        failures.iter().all(|f| f.contains("robot.clad")),
        "{failures:#?}"
    );
}

#[test]
fn one_altered_hex_digit_fails_and_names_the_vector() {
    let dir = copy_of_mini("altered");
    let path = dir.join("vectors/app/status.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("740e0103010203", "740e0103010303")).unwrap();
    let manifest = Manifest::load(&dir).unwrap();
    let report = check_vectors(&manifest, &mut DynamicBackend::default());
    assert_eq!(report.passed, manifest.totals.vectors - 1);
    assert_eq!(report.failures.len(), 1, "{:#?}", report.failures);
    let f = &report.failures[0];
    assert!(
        f.starts_with("app/status.jsonl:1 Battery") && f.contains("encode: got 740e0103010203"),
        "{f}"
    );
    assert!(report.result().is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn vectors_the_manifest_does_not_announce_fail() {
    let dir = copy_of_mini("extra");
    let path = dir.join("vectors/lib/common/types.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(
        r#"{"schema":"common/types.clad","type":"Point","value":{"x":0,"y":1},"hex":"00000100"}"#,
    );
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let manifest = Manifest::load(&dir).unwrap();
    let report = check_vectors(&manifest, &mut DynamicBackend::default());
    // Every vector passes, yet the run fails: the tree is not what the manifest describes.
    assert_eq!(report.passed, manifest.totals.vectors + 1);
    assert_eq!(
        report.failures,
        [
            "lib/common/types.clad: 2 vectors, the manifest says 1".to_owned(),
            format!(
                "found {} vectors, the manifest's totals say {}",
                manifest.totals.vectors + 1,
                manifest.totals.vectors
            ),
        ]
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_manifest_whose_totals_do_not_add_up_is_reported() {
    let mut manifest = Manifest::load(&mini()).unwrap();
    manifest.totals.types += 1;
    let e = manifest.check_listing().unwrap_err();
    assert!(e.contains("types"), "{e}");
    let report = check_vectors(&manifest, &mut DynamicBackend::default());
    assert_eq!(report.passed, manifest.totals.vectors);
    assert_eq!(report.failures.len(), 2, "{:#?}", report.failures);
}
