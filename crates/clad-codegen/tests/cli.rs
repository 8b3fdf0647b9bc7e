//! The `cladc` binary: exit codes, diagnostics on stderr, include directories, `describe`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("cladc-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn write(&self, rel: &str, text: &str) -> &Self {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn cladc(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cladc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("run cladc")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const VALID: &str = "enum uint_8 Color { Red, Green = 5, Blue = 0x10 }\n\
                     message Px { Color c, float_32 f = 0.5, string[uint_16:100] s, int_16 v[uint_8:4] }\n\
                     union U { Px p = 3, bool b }\n";

#[test]
fn check_valid_file_exits_0_silently() {
    let t = TempDir::new("valid");
    t.write("robot.clad", VALID);
    let o = cladc(t.path(), &["check", "robot.clad"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn check_invalid_file_exits_1_with_location_and_snippet() {
    let t = TempDir::new("invalid");
    t.write("bad.clad", "message M {\n    Vector3 position\n}\n");
    let o = cladc(t.path(), &["check", "bad.clad"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("error: unknown type: Vector3"), "{err}");
    assert!(err.contains("bad.clad:2:5"), "{err}");
    assert!(err.contains("2 │     Vector3 position"), "{err}");
    assert!(err.contains("^^^^^^^"), "{err}");
    assert!(
        !err.contains('\x1b'),
        "no colour when not a terminal: {err:?}"
    );
}

#[test]
fn check_reports_every_file() {
    let t = TempDir::new("several");
    t.write("a.clad", "message A {\n    Nope1 x\n}\n")
        .write("good.clad", VALID)
        .write("b.clad", "message B {\n    int_8 a\n    int_8 b\n}\n");
    let o = cladc(t.path(), &["check", "a.clad", "good.clad", "b.clad"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("a.clad:2:5"), "{err}");
    assert!(err.contains("unknown type: Nope1"), "{err}");
    assert!(err.contains("b.clad:3:5"), "{err}");
    assert!(err.contains("expected `,` or `}`"), "{err}");
    assert!(!err.contains("good.clad"), "{err}");
    // Several errors in one file are all reported too.
    t.write("c.clad", "message C { Nope2 a, Nope3 b }\n");
    let o = cladc(t.path(), &["check", "c.clad"]);
    let err = stderr(&o);
    assert!(err.contains("Nope2") && err.contains("Nope3"), "{err}");
}

#[test]
fn missing_input_file_exits_1() {
    let t = TempDir::new("missing");
    let o = cladc(t.path(), &["check", "nope.clad"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("could not find file \"nope.clad\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    let t = TempDir::new("usage");
    for args in [
        &[][..],
        &["frobnicate", "x.clad"][..],
        &["check"][..],
        &["describe"][..],
        &["check", "--frobnicate", "x.clad"][..],
        &["check", "x.clad", "-I"][..],
    ] {
        let o = cladc(t.path(), args);
        assert_eq!(o.status.code(), Some(2), "cladc {args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("USAGE"),
            "cladc {args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn help_and_version() {
    let t = TempDir::new("help");
    for flag in ["--help", "-h"] {
        let o = cladc(t.path(), &[flag]);
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        assert!(out.contains("USAGE"), "{out}");
        assert!(
            out.contains("cladc check") && out.contains("cladc describe"),
            "{out}"
        );
        assert!(out.contains("-I DIR"), "{out}");
    }
    let o = cladc(t.path(), &["check", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let o = cladc(t.path(), &["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("cladc "), "{}", stdout(&o));
}

#[test]
fn include_directories_are_searched_in_order() {
    let t = TempDir::new("incdirs");
    t.write(
        "src/main.clad",
        "#include \"lib.clad\"\n#include \"shared/types.clad\"\nmessage M { L l, T t }\n",
    )
    .write("first/lib.clad", "message L { int_8 fromFirst }\n")
    .write("second/lib.clad", "message NotL { }\n")
    .write("second/shared/types.clad", "message T { }\n");
    // FILE relative to an -I directory; -I repeated; the first directory holding a file wins.
    let o = cladc(
        t.path(),
        &[
            "check",
            "-I",
            "src",
            "-I",
            "first",
            "-I",
            "second",
            "main.clad",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The other order finds second/lib.clad first, which has no `L`.
    let o = cladc(
        t.path(),
        &[
            "check",
            "-I",
            "src",
            "-I",
            "second",
            "-I",
            "first",
            "main.clad",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown type: L"), "{}", stderr(&o));
    // FILE as a plain path, `-IDIR` and `--include-dir DIR` spellings.
    let o = cladc(
        t.path(),
        &[
            "check",
            "-Ifirst",
            "--include-dir",
            "second",
            "src/main.clad",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The directory of the including file is not searched.
    let o = cladc(t.path(), &["check", "-I", "first", "src/main.clad"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("could not find file \"shared/types.clad\""),
        "{err}"
    );
    assert!(
        err.contains("include directories searched, in order: first"),
        "{err}"
    );
    assert!(err.contains("src/main.clad:2:11"), "{err}");
}

#[test]
fn describe_prints_json() {
    let t = TempDir::new("describe");
    t.write("robot.clad", VALID);
    let o = cladc(t.path(), &["describe", "robot.clad"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON on stdout");
    assert_eq!(v["file_hash"], "28abb49f211efe02e4843f430ab85904");
    let decls = v["decls"].as_array().expect("decls array");
    assert_eq!(decls.len(), 3);
    let text = stdout(&o);
    for hash in [
        "72cac815c7e8f7cd4e65c2bef1cbaeaf",
        "7f454cd104d073117b989c0ec111555a",
        "25ea5eb72e1953b14cc8d8c5e2c182f2",
    ] {
        assert!(text.contains(hash), "{text}");
    }

    // Several files: an object keyed by file name.
    t.write("other.clad", "message O { }\n");
    let o = cladc(t.path(), &["describe", "robot.clad", "other.clad"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON on stdout");
    assert_eq!(
        v["robot.clad"]["file_hash"],
        "28abb49f211efe02e4843f430ab85904"
    );
    assert!(v["other.clad"]["file_hash"].is_string());

    // An invalid file: diagnostics on stderr, exit 1.
    t.write("bad.clad", "message B { Nope n }\n");
    let o = cladc(t.path(), &["describe", "bad.clad"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("bad.clad:1:13"), "{}", stderr(&o));
}

#[test]
fn rust_with_views_prints_the_view_types() {
    let t = TempDir::new("views");
    t.write("robot.clad", VALID);
    let plain = cladc(t.path(), &["rust", "-o", "-", "robot.clad"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(!stdout(&plain).contains("View<'a>"));
    let o = cladc(t.path(), &["rust", "--view", "U", "-o", "-", "robot.clad"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let code = stdout(&o);
    assert!(code.contains("pub struct PxView<'a>"), "{code}");
    assert!(code.contains("pub enum UView<'a>"), "{code}");
    assert!(code.contains("pub s: &'a str"), "{code}");
    let o = cladc(t.path(), &["rust", "-o", "-", "robot.clad", "--view"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--view needs a CLAD path"));
}
