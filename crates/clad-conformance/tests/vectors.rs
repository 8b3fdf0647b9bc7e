//! Every golden vector of the conformance tree `build.rs` compiled (`CLAD_CONFORMANCE_DIR`,
//! default `../shared/conformance/message-buffers`) through the generated types and their
//! borrowed views: JSON -> pack == hex, unpack(hex) == value, strictness, JSON round trip.
//! The expected counts are the manifest's `totals`.

use clad_conformance::corpus;
use clad_conformance::golden::{check_vectors, GeneratedBackend};
use std::ffi::OsStr;
use std::path::Path;

#[test]
#[cfg_attr(
    conformance_data_absent,
    ignore = "needs the conformance data: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn every_vector_packs_unpacks_and_round_trips() {
    let manifest = clad_conformance::built_manifest().unwrap_or_else(|| {
        panic!(
            "{}",
            corpus::skip_message(Path::new(env!("CARGO_MANIFEST_DIR")))
        )
    });
    let mut backend = GeneratedBackend::default();
    let report = check_vectors(&manifest, &mut backend);
    println!(
        "conformance vectors ({}): {} of {} passed in {} files, {} types; {} also decoded as \
         borrowed views",
        manifest.dir.display(),
        report.passed,
        report.vectors,
        report.files,
        report.types,
        backend.through_views
    );
    report.result().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.passed, manifest.totals.vectors);
    if manifest.is_reference_suite() {
        // Every type with a string or a byte array has a view (`Builder::view(".")` in
        // build.rs); the reference corpus has many.
        assert!(
            backend.through_views * 7 > manifest.totals.vectors,
            "only {} vectors had a view",
            backend.through_views
        );
    }
}

/// The one rule for finding the data, with the environment passed in.
#[test]
fn locating_the_data_skips_or_fails_as_configured() {
    let base = std::env::temp_dir().join(format!("clad-locate-{}", std::process::id()));
    let present = base.join("present");
    std::fs::create_dir_all(present.join("vectors")).unwrap();
    std::fs::write(present.join("vectors/MANIFEST.json"), "{}").unwrap();
    let absent = base.join("absent");
    let s = |x: &'static str| Some(OsStr::new(x));

    // A fresh clone without ../shared: skip.
    assert_eq!(corpus::locate_with(None, None, &absent), Ok(None));
    assert_eq!(corpus::locate_with(None, s("0"), &absent), Ok(None));
    assert_eq!(corpus::locate_with(s(""), s(""), &absent), Ok(None));
    // CI: required, so a missing tree is an error that says where it looked.
    for on in ["1", "true", "YES"] {
        let e = corpus::locate_with(None, s(on), &absent).unwrap_err();
        assert!(
            matches!(&e, corpus::LocateError::Missing { dir, .. } if dir == &absent),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(text.contains("CLAD_CONFORMANCE_REQUIRE"), "{text}");
        assert!(text.contains(&absent.display().to_string()), "{text}");
    }
    // Naming a folder that is not there is an error even without the switch.
    let named = absent.join("typo").into_os_string();
    let e = corpus::locate_with(Some(&named), None, &present).unwrap_err();
    assert!(e.to_string().contains("CLAD_CONFORMANCE_DIR"), "{e}");
    // Found: the default, or the named folder instead of the default.
    assert_eq!(
        corpus::locate_with(None, s("1"), &present),
        Ok(Some(present.clone()))
    );
    assert_eq!(
        corpus::locate_with(Some(present.as_os_str()), None, &absent),
        Ok(Some(present.clone()))
    );
    // A switch that is not a switch.
    assert_eq!(
        corpus::locate_with(None, s("maybe"), &present),
        Err(corpus::LocateError::BadSwitch("maybe".into()))
    );
    let skip = corpus::skip_message(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(skip.starts_with("SKIPPED: ") && skip.contains("CLAD_CONFORMANCE_DIR"));
    std::fs::remove_dir_all(&base).unwrap();
}
