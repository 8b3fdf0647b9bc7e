//! `cladc describe` reproduces every entry of the conformance suite's `semantics.json`:
//! file hashes, per-declaration hashes, enum values, union tags, members and sizes.

mod common;

use clad_codegen::{compile, describe, FsLoader};
use serde_json::Value;

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_no_semantics),
    ignore = "needs the conformance data with its semantics.json: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn describe_matches_semantics_json_for_every_schema() {
    let m = common::conformance();
    let semantics_path = m
        .semantics()
        .unwrap_or_else(|| panic!("{} has no semantics.json", m.dir.display()));
    let semantics: Value =
        serde_json::from_str(&std::fs::read_to_string(semantics_path).unwrap()).unwrap();
    let files = &m.files;
    assert_eq!(
        files.len(),
        m.totals.files_selected,
        "the manifest lists {} schemas",
        m.totals.files_selected
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in files {
        let expected = &semantics[&f.path];
        assert!(
            !expected.is_null(),
            "{} missing from semantics.json",
            f.path
        );
        let mut loader = FsLoader::new(m.search_dirs(&f.root));
        let out = compile(&mut loader, &f.schema);
        if let Some(err) = expected.get("error") {
            // The reference's first error line, e.g. `Could not find file "NotARealFile.clad"`.
            let want = err.as_str().unwrap().to_lowercase();
            let got: Vec<String> = out
                .diagnostics
                .iter()
                .map(|d| d.message.to_lowercase())
                .collect();
            if out.schema.is_some() || !got.iter().any(|m| m == &want) {
                failures.push(format!("{}: expected error {want:?}, got {got:?}", f.path));
            }
            checked += 1;
            continue;
        }
        let Some(schema) = &out.schema else {
            failures.push(format!("{}: failed to compile:\n{}", f.path, out.render()));
            continue;
        };
        // Through text: sizes above 64 bits parse as floats on both sides alike.
        let mut got: Value = serde_json::from_str(&describe::describe_json(schema)).unwrap();
        // `schema_hash` is ours (the transport's hash over a type's closure), not the
        // reference's: every type has one, and everything else must match exactly.
        for d in got["decls"].as_array_mut().unwrap() {
            let is_type = matches!(
                d["kind"].as_str(),
                Some("enum" | "message" | "structure" | "union")
            );
            let sh = d.as_object_mut().unwrap().remove("schema_hash");
            let well_formed = sh
                .as_ref()
                .and_then(Value::as_str)
                .is_some_and(|h| h.len() == 32 && h.bytes().all(|b| b.is_ascii_hexdigit()));
            if is_type != well_formed {
                failures.push(format!("{}: schema_hash of {}: {sh:?}", f.path, d["fqn"]));
            }
        }
        if &got != expected {
            let mut detail = String::new();
            if got["file_hash"] != expected["file_hash"] {
                detail.push_str(&format!(
                    "  file_hash: got {} want {}\n",
                    got["file_hash"], expected["file_hash"]
                ));
            }
            let (g, e) = (
                got["decls"].as_array().unwrap(),
                expected["decls"].as_array().unwrap(),
            );
            if g.len() != e.len() {
                detail.push_str(&format!("  {} decls, want {}\n", g.len(), e.len()));
            }
            for (a, b) in g.iter().zip(e) {
                if a != b {
                    detail.push_str(&format!("  got  {a}\n  want {b}\n"));
                }
            }
            failures.push(format!("{}:\n{detail}", f.path));
        }
        checked += 1;
    }
    println!(
        "semantics: {checked} schemas checked, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn sizes_beyond_64_bits_are_exact() {
    let m = common::reference_suite();
    let mut loader = FsLoader::new([m.schemas_dir()]);
    let out = compile(&mut loader, "SimpleTest.clad");
    let schema = out.schema.expect("SimpleTest compiles");
    let json = describe::describe_json(&schema);
    // od434 { uint_64 vehiclesPlayed[uint_64] }: 8 + (2^64 - 1) * 8 bytes.
    assert!(
        json.contains("\"max_size\": 147573952589676412928"),
        "{json}"
    );
}
