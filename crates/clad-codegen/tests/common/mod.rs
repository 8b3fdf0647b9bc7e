//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The conformance data folder (`../shared/conformance/message-buffers`), or None (with a
/// message on stderr) when it is absent. `CLAD_CONFORMANCE_DIR` overrides the location.
pub fn conformance_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("CLAD_CONFORMANCE_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/conformance/message-buffers"),
    };
    if dir.join("semantics.json").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: conformance data not found at {} (set CLAD_CONFORMANCE_DIR or check out \
             ../shared next to the repository)",
            dir.display()
        );
        None
    }
}

/// One schema of the conformance manifest.
pub struct ManifestFile {
    /// Key in semantics.json (path relative to schemas/).
    pub path: String,
    /// Compile root, relative to schemas/.
    pub root: String,
    /// Input name relative to the root.
    pub schema: String,
}

/// Every schema listed in vectors/MANIFEST.json.
pub fn manifest(dir: &std::path::Path) -> Vec<ManifestFile> {
    let text = std::fs::read_to_string(dir.join("vectors/MANIFEST.json")).expect("manifest");
    let v: serde_json::Value = serde_json::from_str(&text).expect("manifest json");
    v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| ManifestFile {
            path: f["path"].as_str().expect("path").to_owned(),
            root: f["root"].as_str().expect("root").to_owned(),
            schema: f["schema"].as_str().expect("schema").to_owned(),
        })
        .collect()
}
