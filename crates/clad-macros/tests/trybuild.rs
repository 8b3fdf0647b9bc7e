//! `include_clad!` as a user sees it: a crate that compiles and runs with it, and the
//! compile errors for a bad schema, a missing file, a missing include and bad arguments.
//!
//! trybuild builds the cases in its own project (`<target>/tests/trybuild/clad-macros`), and
//! that project's `CARGO_MANIFEST_DIR` is what the macro resolves paths against. So the test
//! schemas are copied there first, keeping the same relative paths (`tests/schemas/...`).

use std::path::{Path, PathBuf};

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            // Rewrite only on change, so that the cases are not rebuilt needlessly.
            let new = std::fs::read(entry.path())?;
            if std::fs::read(&target).ok().as_deref() != Some(&new[..]) {
                std::fs::write(&target, new)?;
            }
        }
    }
    Ok(())
}

#[test]
fn ui() {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`; trybuild's project is under the same target dir.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR has a parent")
        .to_path_buf();
    let project: PathBuf = target.join("tests/trybuild/clad-macros");
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    copy_dir(&schemas, &project.join("tests/schemas")).expect("copy the test schemas");

    // trybuild's cargo keeps its own target directory (its final artifacts) but shares this
    // test's build directory (`build.build-dir`, the intermediate artifacts): the dependencies
    // this workspace already compiled (the compiler behind the macro, syn, serde, ...) are
    // reused instead of built a second time. The test binary is
    // `<build-dir>/<profile>/deps/trybuild-<hash>`. This binary runs one test, so setting the
    // variable races with nothing.
    let build_dir = std::env::current_exe()
        .expect("the test binary's path")
        .ancestors()
        .nth(3)
        .expect("the test binary lies in <build-dir>/<profile>/deps")
        .to_path_buf();
    std::env::set_var("CARGO_BUILD_BUILD_DIR", build_dir);

    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_*.rs");
    t.compile_fail("tests/ui/fail_*.rs");
}
