//! Helpers shared by the integration tests: where the conformance tree is and its manifest.
//!
//! Tests that need the conformance data carry
//! `#[cfg_attr(conformance_data_absent, ignore = "...")]` (and, when they name files of the
//! reference corpus, `conformance_other_tree`; see `build.rs`): without the data they show as
//! ignored, with the reason, in cargo's summary. Run anyway (`--include-ignored`), or with
//! the data required (`CLAD_CONFORMANCE_REQUIRE=1`) and missing, they fail with the reason.
#![allow(dead_code)]

use std::path::Path;

/// The one rule for finding the conformance data, shared with clad-conformance's build
/// script and tests (`CLAD_CONFORMANCE_DIR`, `CLAD_CONFORMANCE_REQUIRE`).
#[allow(dead_code, unreachable_pub)]
#[path = "../../../clad-conformance/src/corpus.rs"]
pub mod corpus;

pub use corpus::Manifest;

/// The manifest of the conformance tree (`CLAD_CONFORMANCE_DIR`, default
/// `../shared/conformance/message-buffers`). Panics, failing the test, when there is none.
pub fn conformance() -> Manifest {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    match corpus::locate(dir) {
        Ok(Some(tree)) => Manifest::load(&tree).unwrap_or_else(|e| panic!("{e}")),
        Ok(None) => panic!("{}", corpus::skip_message(dir)),
        Err(e) => panic!("{e}"),
    }
}

/// [`conformance`], for tests that name files or types of the reference corpus. Panics on
/// any other tree.
pub fn reference_suite() -> Manifest {
    let m = conformance();
    assert!(
        m.is_reference_suite(),
        "this test names files of the reference corpus, and {} is another tree (its \
         manifest's `base` is {:?}, not {:?})",
        m.dir.display(),
        m.base,
        corpus::REFERENCE_BASE
    );
    m
}
