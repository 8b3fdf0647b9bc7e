//! Generates Rust for every conformance schema, one module per compile root, plus a registry
//! that maps each vector's CLAD type name to the generated type.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let data = std::env::var_os("CLAD_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/conformance/message-buffers")
        });
    println!("cargo:rerun-if-env-changed=CLAD_CONFORMANCE_DIR");
    println!(
        "cargo:rerun-if-changed={}",
        data.join("vectors/MANIFEST.json").display()
    );
    let mut roots_rs = String::new();
    let manifest = std::fs::read_to_string(data.join("vectors/MANIFEST.json"));
    let Ok(manifest) = manifest else {
        println!(
            "cargo:warning=conformance data not found at {}: the conformance tests will be skipped",
            data.display()
        );
        roots_rs.push_str("pub const AVAILABLE: bool = false;\npub fn check(_root: &str, _schema: &str, _ty: &str, _value: &serde_json::Value, _hex: &[u8]) -> Option<Result<(), String>> { None }\npub fn fuzz(_root: &str, _schema: &str, _ty: &str, _bytes: &[u8]) -> Option<()> { None }\n");
        std::fs::write(out.join("roots.rs"), roots_rs).unwrap();
        return;
    };
    let manifest: serde_json::Value = serde_json::from_str(&manifest).expect("MANIFEST.json");
    let mut check_arms = String::new();
    let mut fuzz_arms = String::new();
    roots_rs.push_str("pub const AVAILABLE: bool = true;\n");
    // One module per schema file (with everything it includes), like the original's one
    // header per file: two files of one root may declare the same type name.
    for f in manifest["files"].as_array().expect("files") {
        if f["status"] != "ok" {
            continue;
        }
        let root = f["root"].as_str().unwrap();
        let schema = f["schema"].as_str().unwrap();
        let module = module_name(root, schema);
        let builder = clad_codegen::Builder::new()
            .include_dir(data.join("schemas").join(root))
            .file(schema)
            .out_dir(&out)
            .output_file(format!("{module}.rs"));
        let generated = match builder.generate() {
            Ok(g) => g,
            Err(e) => {
                for line in e.rendered.lines() {
                    println!("cargo::error={line}");
                }
                std::process::exit(1);
            }
        };
        builder.build();
        let mut registry = String::new();
        for t in generated.types.iter().filter(|t| t.kind != "enum") {
            let _ = writeln!(
                registry,
                "                {:?} => Some(crate::check_vector::<super::{}>(value, hex)),",
                t.clad_name, t.rust_path
            );
            let _ = writeln!(
                fuzz_arms,
                "        ({root:?}, {schema:?}, {:?}) => {{ crate::fuzz_unpack::<{module}::{}>(bytes); Some(()) }}",
                t.clad_name, t.rust_path
            );
        }
        let _ = writeln!(
            roots_rs,
            "pub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\"));\n    pub mod registry {{\n        #[allow(unused_variables, clippy::match_single_binding)]\n        pub fn check(ty: &str, value: &serde_json::Value, hex: &[u8]) -> Option<Result<(), String>> {{\n            match ty {{\n{registry}                _ => None,\n            }}\n        }}\n    }}\n}}"
        );
        let _ = writeln!(
            check_arms,
            "        ({root:?}, {schema:?}) => {module}::registry::check(ty, value, hex),"
        );
    }
    let _ = writeln!(
        roots_rs,
        "/// Runs one vector through the generated type `ty` of `schema` (compiled in `root`).\npub fn check(root: &str, schema: &str, ty: &str, value: &serde_json::Value, hex: &[u8]) -> Option<Result<(), String>> {{\n    match (root, schema) {{\n{check_arms}        _ => None,\n    }}\n}}\n/// Unpacks arbitrary bytes as the type `ty` of `schema` (must never panic).\npub fn fuzz(root: &str, schema: &str, ty: &str, bytes: &[u8]) -> Option<()> {{\n    match (root, schema, ty) {{\n{fuzz_arms}        _ => None,\n    }}\n}}"
    );
    std::fs::write(out.join("roots.rs"), roots_rs).unwrap();
}

/// `DirTreeTests` + `Foo/Foo.clad` -> `dir_tree_tests__foo_foo`.
fn module_name(root: &str, schema: &str) -> String {
    let clean = |s: &str| -> String {
        let mut out = String::new();
        let mut prev_lower = false;
        for c in s.chars() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('_');
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            });
        }
        out
    };
    let stem = schema.strip_suffix(".clad").unwrap_or(schema);
    let root = if root == "." { "top" } else { root };
    format!("{}_{}", clean(root), clean(stem)).replace("__", "_")
}
