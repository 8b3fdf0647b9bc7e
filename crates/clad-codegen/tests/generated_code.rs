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

/// Every schema of the reference conformance corpus that compiles (the snapshots name its
/// files).
fn conformance_inputs() -> Vec<Input> {
    let m = common::reference_suite();
    let dir = m.dir.clone();
    let mut out = Vec::new();
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
    out
}

/// Our edge-case schemas (`crates/clad-conformance/schemas`).
fn own_inputs() -> Vec<Input> {
    ["edge_cases", "empty_autounion"]
        .into_iter()
        .map(|name| Input {
            snapshot: name.to_owned(),
            root_name: "crates/clad-conformance/schemas".to_owned(),
            root: Path::new(env!("CARGO_MANIFEST_DIR")).join("../clad-conformance/schemas"),
            schema: format!("{name}.clad"),
        })
        .collect()
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

fn snapshots(inputs: &[Input]) {
    for input in inputs {
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

fn deterministic(inputs: &[Input]) {
    for input in inputs {
        let first = generate(input);
        let second = generate(input);
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

fn headers_and_syntax(inputs: &[Input]) {
    for input in inputs {
        let code = generate(input);
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

#[test]
fn generated_code_snapshots() {
    snapshots(&own_inputs());
}

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn generated_code_snapshots_of_the_conformance_corpus() {
    snapshots(&conformance_inputs());
}

#[test]
fn generation_is_deterministic() {
    deterministic(&own_inputs());
}

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn generation_of_the_conformance_corpus_is_deterministic() {
    deterministic(&conformance_inputs());
}

#[test]
fn every_file_starts_with_the_generated_header_and_parses() {
    headers_and_syntax(&own_inputs());
}

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn every_conformance_file_starts_with_the_generated_header_and_parses() {
    headers_and_syntax(&conformance_inputs());
}
