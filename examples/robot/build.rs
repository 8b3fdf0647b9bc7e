//! Generates `$OUT_DIR/clad.rs` from the project's schemas and the benchmark schema.
//!
//! Include directories are searched in order: `../../schemas` (the project's schemas, and
//! `common.clad` that `cloud.clad` includes), then this crate's `schemas/`. Every file an
//! input includes is generated too, and cargo reruns this script when any schema read
//! changes. Schema errors are reported as `cargo::error=` lines with file:line:col.

fn main() {
    clad_codegen::Builder::new()
        .include_dir("../../schemas")
        .include_dir("schemas")
        .file("cloud.clad")
        .file("bench.clad")
        .build();
}
