//! A user of the library (the robot with its `zenoh` feature: no default features) builds
//! no compiler: neither `clad-codegen` nor `robot-codegen` is among its normal or build
//! dependencies. Only `cli` (the `cladz` binary, which decodes any schema at run time) brings
//! in `clad-codegen`; the types the tests exchange come from a dev-dependency
//! (`clad-zenoh-fixtures`).

use std::process::Command;

fn dependencies(features: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "tree",
        "--offline",
        "--package",
        "clad-zenoh",
        "--edges",
        "normal,build",
        "--prefix",
        "none",
        "--no-default-features",
    ]);
    if !features.is_empty() {
        cmd.args(["--features", &features.join(",")]);
    }
    let out = cmd.output().expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn has(tree: &str, package: &str) -> bool {
    tree.lines()
        .any(|l| l.split_whitespace().next() == Some(package))
}

#[test]
fn the_library_alone_builds_no_compiler() {
    let tree = dependencies(&[]);
    assert!(has(&tree, "zenoh"), "{tree}");
    assert!(!has(&tree, "clad-codegen"), "{tree}");
    assert!(!has(&tree, "robot-codegen"), "{tree}");
}

#[test]
fn only_the_cli_brings_the_compiler_in() {
    let tree = dependencies(&["cli"]);
    assert!(has(&tree, "clad-codegen"), "{tree}");
    assert!(!has(&tree, "robot-codegen"), "{tree}");
    assert!(!has(&tree, "clad-zenoh-fixtures"), "{tree}");
}
