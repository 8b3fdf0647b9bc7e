//! Helpers shared by the integration tests: where the conformance tree is and its manifest.
#![allow(dead_code)]

use std::path::Path;

/// The one rule for finding the conformance data, shared with clad-conformance's build
/// script and tests (`CLAD_CONFORMANCE_DIR`, `CLAD_CONFORMANCE_REQUIRE`).
#[allow(dead_code, unreachable_pub)]
#[path = "../../../clad-conformance/src/corpus.rs"]
pub mod corpus;

pub use corpus::Manifest;

/// The manifest of the conformance tree (`CLAD_CONFORMANCE_DIR`, default
/// `../shared/conformance/message-buffers`), or None (with a `SKIPPED` message on stderr)
/// when it is absent and not required; the test fails when `CLAD_CONFORMANCE_REQUIRE=1` and
/// the data is missing.
pub fn conformance() -> Option<Manifest> {
    corpus::for_tests(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// [`conformance`], for tests that name files or types of the reference corpus: `None` (with
/// a message) on any other tree.
pub fn reference_suite(test: &str) -> Option<Manifest> {
    let m = conformance()?;
    if m.is_reference_suite() {
        Some(m)
    } else {
        eprintln!(
            "SKIPPED {test}: it names files of the reference corpus, and {} is another tree \
             (its manifest's `base` is {:?}, not {:?})",
            m.dir.display(),
            m.base,
            corpus::REFERENCE_BASE
        );
        None
    }
}
