//! Snapshots of the Rust generated for every conformance schema (one per schema file, as
//! `clad-conformance` compiles them) and for our edge-case schemas, plus determinism and the
//! `@generated` header.
//!
//! The `// Sources:` line holds absolute paths; the snapshots show them relative to the
//! compile root (`<root>/...`). Review rule: the code must read like hand-written Rust
//! (names, docs, no needless noise) and any change to it must be intended.

mod common;

use clad_codegen::Builder;
use std::path::{Path, PathBuf};

/// One schema to generate: its compile root (include directory) and input name.
struct Input {
    snapshot: String,
    root_name: String,
    root: PathBuf,
    schema: String,
}

/// Every schema of the conformance manifest that compiles (or nothing when the data is
/// absent), then our edge-case schemas (`crates/clad-conformance/schemas`).
fn inputs() -> Vec<Input> {
    let mut out = Vec::new();
    // Snapshots name the reference corpus's files: another tree has none.
    if let Some(m) = common::reference_suite("generated_code_snapshots (conformance part)") {
        let dir = m.dir.clone();
        for f in m.files {
            if !f.ok {
                continue; // Bad.clad: must not compile
            }
            let root = if f.root == "." { "top" } else { &f.root };
            let stem = f.schema.trim_end_matches(".clad").replace('/', "_");
            out.push(Input {
                snapshot: format!("{root}__{stem}"),
                root_name: f.root.clone(),
                root: dir.join("schemas").join(&f.root),
                schema: f.schema.clone(),
            });
        }
    }
    for name in ["edge_cases", "empty_autounion"] {
        out.push(Input {
            snapshot: name.to_owned(),
            root_name: "crates/clad-conformance/schemas".to_owned(),
            root: Path::new(env!("CARGO_MANIFEST_DIR")).join("../clad-conformance/schemas"),
            schema: format!("{name}.clad"),
        });
    }
    out
}

fn generate(input: &Input) -> String {
    Builder::new()
        .emit_cargo_directives(false)
        .include_dir(&input.root)
        .file(&input.schema)
        .generate()
        .unwrap_or_else(|e| panic!("{}: {e}", input.schema))
        .code
}

/// Replaces the compile root in the `// Sources:` line by `<root>`; no other line may hold
/// a path.
fn redact(code: &str, root: &Path) -> String {
    let root = root.display().to_string();
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        if line.starts_with("// Sources: ") {
            out.push_str(&line.replace(&format!("{root}/"), "<root>/"));
        } else {
            assert!(!line.contains(&root), "a path leaked into the code: {line}");
            out.push_str(line);
        }
    }
    out
}

#[test]
fn generated_code_snapshots() {
    let inputs = inputs();
    for input in &inputs {
        let code = redact(&generate(input), &input.root);
        insta::with_settings!({
            description => format!("Rust generated for {} (compile root `{}`)", input.schema, input.root_name),
            omit_expression => true,
            prepend_module_to_snapshot => true,
        }, {
            insta::assert_snapshot!(input.snapshot.as_str(), code);
        });
    }
}

#[test]
fn generation_is_deterministic() {
    for input in inputs() {
        let first = generate(&input);
        let second = generate(&input);
        assert!(
            first == second,
            "{}: two runs differ at byte {}",
            input.schema,
            first
                .bytes()
                .zip(second.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(first.len().min(second.len()))
        );
        // Also through the token API that `include_clad!` uses.
        let tokens = |_: ()| {
            Builder::new()
                .emit_cargo_directives(false)
                .include_dir(&input.root)
                .file(&input.schema)
                .generate_tokens()
                .unwrap()
                .0
                .to_string()
        };
        assert_eq!(tokens(()), tokens(()), "{}", input.schema);
    }
}

#[test]
fn every_file_starts_with_the_generated_header_and_parses() {
    for input in inputs() {
        let code = generate(&input);
        assert!(
            code.starts_with(clad_codegen::rust::HEADER),
            "{}: {}",
            input.schema,
            code.lines().next().unwrap_or_default()
        );
        assert!(code.starts_with("// @generated"), "{}", input.schema);
        let second = code.lines().nth(1).unwrap_or_default();
        assert!(second.starts_with("// Sources: "), "{}", input.schema);
        if let Err(e) = syn::parse_file(&code) {
            panic!("{}: the generated code does not parse: {e}", input.schema);
        }
    }
}
