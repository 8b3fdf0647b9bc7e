//! The schema-driven codec (`cladc encode/decode/explain`) against every golden vector, in
//! the library and through the CLI. The generated code passes the same vectors (see the
//! clad-conformance crate), so the two agree byte for byte and value for value.

mod common;

use clad_codegen::{compile, dynamic, FsLoader};
use std::io::Write;
use std::process::{Command, Stdio};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
#[cfg_attr(
    conformance_data_absent,
    ignore = "needs the conformance data: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn every_vector_encodes_decodes_and_reencodes() {
    let m = common::conformance();
    let (mut passed, mut failures) = (0, Vec::new());
    for f in m.ok_files() {
        let out = compile(&mut FsLoader::new(m.search_dirs(&f.root)), &f.schema);
        let schema = out.schema.expect("conformance schema compiles");
        for v in m.vectors(f).unwrap_or_else(|e| panic!("{e}")) {
            let (ty, want) = (v.ty.as_str(), hex(&v.bytes));
            let want = want.as_str();
            let result = (|| -> Result<(), String> {
                let got = dynamic::encode(&schema, ty, &v.value).map_err(|e| e.to_string())?;
                if hex(&got) != want {
                    return Err(format!("encode: got {}, want {want}", hex(&got)));
                }
                let value =
                    dynamic::decode(&schema, ty, &unhex(want)).map_err(|e| e.to_string())?;
                if value != v.value {
                    return Err(format!("decode: got {value}, want {}", v.value));
                }
                let again = dynamic::encode(&schema, ty, &value).map_err(|e| e.to_string())?;
                if hex(&again) != want {
                    return Err(format!("re-encode: got {}", hex(&again)));
                }
                let explained = dynamic::explain(&schema, ty, &unhex(want));
                if explained.error.is_some() {
                    return Err(format!("explain failed: {explained}"));
                }
                Ok(())
            })();
            match result {
                Ok(()) => passed += 1,
                Err(e) => failures.push(format!("{} {ty}: {e}", v.origin)),
            }
        }
    }
    println!(
        "dynamic codec: {passed} vectors passed, {} failed",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed, m.totals.vectors, "the manifest's totals");
}

fn cladc(args: &[&str], stdin: &str) -> (String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cladc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

#[test]
#[cfg_attr(
    conformance_data_absent,
    ignore = "needs the conformance data: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn cladc_encode_and_decode_every_vector() {
    let m = common::conformance();
    let mut total = 0;
    for f in m.ok_files() {
        // `-I <root> -I <include_dirs>...`, the manifest's compile rule.
        let dirs: Vec<String> = m
            .search_dirs(&f.root)
            .iter()
            .map(|d| d.to_str().unwrap().to_owned())
            .collect();
        let include: Vec<&str> = dirs.iter().flat_map(|d| ["-I", d.as_str()]).collect();
        let schema = f.schema.as_str();
        let text = std::fs::read_to_string(
            m.vectors_dir()
                .join(f.vectors_file.as_deref().expect("ok files have vectors")),
        )
        .unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if lines.is_empty() {
            continue;
        }
        // Encode: one hex line per input line.
        let (encoded, ok) = cladc(&[&["encode"], &include[..], &[schema]].concat(), &text);
        assert!(ok, "cladc encode failed for {schema}: {encoded}");
        let encoded: Vec<&str> = encoded.lines().collect();
        assert_eq!(encoded.len(), lines.len());
        for (got, v) in encoded.iter().zip(&lines) {
            assert_eq!(*got, v["hex"].as_str().unwrap(), "{schema} {}", v["type"]);
        }
        // Decode the hex, then encode the decoded values again: same hex.
        let decode_in: String = lines
            .iter()
            .map(|v| {
                format!(
                    "{}\n",
                    serde_json::json!({"type": v["type"], "hex": v["hex"]})
                )
            })
            .collect();
        let (decoded, ok) = cladc(&[&["decode"], &include[..], &[schema]].concat(), &decode_in);
        assert!(ok, "cladc decode failed for {schema}: {decoded}");
        let reencode_in: String = decoded
            .lines()
            .zip(&lines)
            .map(|(value, v)| format!("{{\"type\":{},\"value\":{value}}}\n", v["type"]))
            .collect();
        let (again, ok) = cladc(
            &[&["encode"], &include[..], &[schema]].concat(),
            &reencode_in,
        );
        assert!(ok, "re-encode failed for {schema}: {again}");
        for (got, v) in again.lines().zip(&lines) {
            assert_eq!(got, v["hex"].as_str().unwrap(), "{schema} {}", v["type"]);
        }
        total += lines.len();
    }
    println!("cladc encode/decode: {total} vectors");
    assert_eq!(total, m.totals.vectors, "the manifest's totals");
}

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn cladc_reports_bad_lines_and_keeps_going() {
    let m = common::reference_suite();
    let root = m.schemas_dir();
    let input = concat!(
        "{\"type\":\"Foo\",\"value\":{\"myByte\":300}}\n",
        "not json\n",
        "{\"type\":\"Nope\",\"value\":{}}\n",
        "{\"type\":\"Foo\",\"value\":{}}\n",
    );
    let (out, ok) = cladc(&["encode", "-I", root.to_str().unwrap(), "Foo.clad"], input);
    assert!(!ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(
        lines[0],
        "error: line 1: Foo.myByte: 300 is out of range for int_8 (-128 to 127)"
    );
    assert!(
        lines[1].starts_with("error: line 2: invalid JSON"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "error: line 3: Nope: no such type in this schema");
    assert_eq!(lines[3], "000000000000000000000000000f00");
}

fn explain(root: &str, schema: &str, ty: &str, hexstr: &str) -> String {
    let m = common::conformance();
    let out = compile(&mut FsLoader::new(m.search_dirs(root)), schema);
    dynamic::explain(&out.schema.unwrap(), ty, &unhex(hexstr)).to_string()
}

#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn explain_snapshots() {
    common::reference_suite();
    // A union of unions holding a Foo.
    insta::assert_snapshot!(
        "explain_nested_union",
        explain(
            ".",
            "UnionOfUnion.clad",
            "UnionOfUnion",
            "000001fbcb007d0000c03fffffffff11026869"
        )
    );
    // Arrays of strings: ["a","bc"], ["x","","yz"], ["Q"], ["","w"].
    insta::assert_snapshot!(
        "explain_string_arrays",
        explain(
            ".",
            "SimpleTest.clad",
            "SoManyStrings",
            "0200016102626301780002797a01010051000177"
        )
    );
    // The same bytes cut short.
    insta::assert_snapshot!(
        "explain_truncated",
        explain(
            ".",
            "SimpleTest.clad",
            "SoManyStrings",
            "02000161026263017800027a"
        )
    );
}
