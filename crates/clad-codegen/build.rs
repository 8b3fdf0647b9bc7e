//! Tells this crate's own tests which conformance data there is, so that a test whose data
//! is absent shows as *ignored*, with the reason, in cargo's summary (never as a pass):
//!
//! - `conformance_data_absent`: no conformance tree (`CLAD_CONFORMANCE_DIR`, default
//!   `../shared/conformance/message-buffers`) and nothing requires one;
//! - `conformance_other_tree`: a tree, but not the reference corpus (tests that name its
//!   files are ignored);
//! - `conformance_no_semantics`: a tree without `semantics.json` (optional in a tree).
//!
//! When the data is required (`CLAD_CONFORMANCE_REQUIRE=1`, or `CLAD_CONFORMANCE_DIR` names
//! a folder) and missing, nothing is ignored: the tests run and fail with the reason. The
//! library itself does not depend on any of this.

use std::path::Path;

/// The one rule for finding the data (shared with clad-conformance and the tests).
#[allow(dead_code)]
#[path = "../clad-conformance/src/corpus.rs"]
mod corpus;

fn main() {
    for cfg in [
        "conformance_data_absent",
        "conformance_other_tree",
        "conformance_no_semantics",
    ] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed={}", corpus::DIR_VAR);
    println!("cargo:rerun-if-env-changed={}", corpus::REQUIRE_VAR);
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    match corpus::locate(crate_dir) {
        Ok(Some(dir)) => {
            println!(
                "cargo:rerun-if-changed={}",
                dir.join("vectors/MANIFEST.json").display()
            );
            // An unreadable manifest is the tests' to report: they run and fail.
            if let Ok(m) = corpus::Manifest::load(&dir) {
                if !m.is_reference_suite() {
                    println!("cargo::rustc-cfg=conformance_other_tree");
                }
                if m.semantics().is_none() {
                    println!("cargo::rustc-cfg=conformance_no_semantics");
                }
            }
        }
        // Absent and not required. Not watched (a missing file would rerun this script on
        // every build): after adding the data, set CLAD_CONFORMANCE_DIR to it.
        Ok(None) => println!("cargo::rustc-cfg=conformance_data_absent"),
        // Required and missing, or a bad switch: the tests fail with the reason.
        Err(_) => {}
    }
}
