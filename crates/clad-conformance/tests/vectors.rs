//! Every golden vector of `../shared/conformance/message-buffers/vectors` through the
//! generated types: JSON -> pack == hex, unpack(hex) == value, JSON round trip.

use std::path::PathBuf;

fn data_dir() -> PathBuf {
    std::env::var_os("CLAD_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/conformance/message-buffers")
        })
}

#[test]
fn every_vector_packs_unpacks_and_round_trips() {
    if !clad_conformance::AVAILABLE {
        eprintln!(
            "SKIPPED: conformance data not found at {}",
            data_dir().display()
        );
        return;
    }
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data_dir().join("vectors/MANIFEST.json")).unwrap(),
    )
    .unwrap();
    let mut passed = 0;
    let mut through_views = 0;
    let mut failures = Vec::new();
    for f in manifest["files"].as_array().unwrap() {
        if f["status"] != "ok" {
            continue;
        }
        let root = f["root"].as_str().unwrap();
        let schema = f["schema"].as_str().unwrap();
        let path = data_dir()
            .join("vectors")
            .join(f["vectors_file"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        for (line_no, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let ty = v["type"].as_str().unwrap();
            let hex = clad_conformance::from_hex(v["hex"].as_str().unwrap()).unwrap();
            if clad_conformance::check_view(root, schema, ty, &hex).is_some() {
                through_views += 1;
            }
            match clad_conformance::check(root, schema, ty, &v["value"], &hex) {
                Some(Ok(())) => passed += 1,
                Some(Err(e)) => {
                    failures.push(format!("{}:{} {ty}: {e}", path.display(), line_no + 1))
                }
                None => failures.push(format!(
                    "{}:{} {ty}: type not generated",
                    path.display(),
                    line_no + 1
                )),
            }
        }
    }
    println!(
        "conformance vectors: {passed} passed, {} failed; {through_views} also decoded as borrowed views",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, 718, "the suite has 718 vectors");
    // Every type with a string or a byte array has a view (`Builder::view(".")` in build.rs).
    assert!(
        through_views > 100,
        "only {through_views} vectors had a view"
    );
}
