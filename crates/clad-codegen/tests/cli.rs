//! The `cladc` binary: exit codes (0 success, 1 schema or line errors, 2 usage errors),
//! diagnostics on stderr, include directories, `describe`, help, completions, suggestions.

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
    t.write("x.clad", VALID);
    for args in [
        &["frobnicate", "x.clad"][..],
        &["check"][..],
        &["describe"][..],
        &["check", "--frobnicate", "x.clad"][..],
        &["check", "x.clad", "-I"][..],
        &["rust", "x.clad"][..],
        &["rust", "-o", "-"][..],
        &["rust", "-o", "-", "x.clad", "--view"][..],
        &["encode"][..],
        &["encode", "x.clad", "y.clad"][..],
        &["decode", "x.clad", "-o", "out"][..],
        &["explain", "x.clad", "Px"][..],
        &["explain", "x.clad", "Px", "00", "01"][..],
        &["completions"][..],
        &["completions", "tcsh"][..],
        &["check", "-o", "out", "x.clad"][..],
    ] {
        let o = cladc(t.path(), args);
        assert_eq!(o.status.code(), Some(2), "cladc {args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "cladc {args:?}: {err}");
        assert!(err.contains("try '--help'"), "cladc {args:?}: {err}");
        assert_eq!(stdout(&o), "", "cladc {args:?}: nothing on stdout");
    }
    // No argument at all: the overview, on stderr.
    let o = cladc(t.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("Usage: cladc <COMMAND>"), "{err}");
    assert!(err.contains("Commands:"), "{err}");
}

#[test]
fn usage_errors_name_the_problem() {
    let t = TempDir::new("usage-msg");
    t.write("x.clad", VALID);
    for (args, expected) in [
        (
            &["check", "x.clad", "-I"][..],
            "a value is required for '--include-dir <DIR>'",
        ),
        (&["rust", "x.clad"][..], "--out-dir <DIR>"),
        (
            &["rust", "-o", "-", "x.clad", "--view"][..],
            "'--view <PATH>'",
        ),
        (
            &["encode", "x.clad", "y.clad"][..],
            "unexpected argument 'y.clad'",
        ),
        (
            &["check", "--frobnicate", "x.clad"][..],
            "unexpected argument '--frobnicate'",
        ),
        (
            &["completions", "tcsh"][..],
            "possible values: bash, elvish, fish, powershell, zsh",
        ),
    ] {
        let o = cladc(t.path(), args);
        let err = stderr(&o);
        assert!(err.contains(expected), "cladc {args:?}: {err}");
    }
}

#[test]
fn bad_hex_is_a_usage_error_even_before_the_schema_is_read() {
    let t = TempDir::new("hex");
    t.write("x.clad", VALID);
    for hex in ["0", "0g", "+1", "zz", "00 01"] {
        let o = cladc(t.path(), &["explain", "x.clad", "Px", hex]);
        assert_eq!(o.status.code(), Some(2), "{hex}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("not hex (two digits per byte)"),
            "{hex}: {}",
            stderr(&o)
        );
    }
    // The schema file does not exist: the argument is still checked first.
    let o = cladc(t.path(), &["explain", "nope.clad", "Px", "0g"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn explain_exit_codes() {
    let t = TempDir::new("explain");
    t.write("x.clad", VALID);
    // Color 0x10, float 0.5, empty string, empty array.
    let o = cladc(t.path(), &["explain", "x.clad", "Px", "100000003f000000"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("Px: 8 bytes"), "{}", stdout(&o));
    // Truncated: the dump says where it stopped, exit 1.
    let o = cladc(t.path(), &["explain", "x.clad", "Px", "10"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("error:"), "{}", stdout(&o));
    // A schema error: diagnostics on stderr, exit 1.
    t.write("bad.clad", "message B { Nope n }\n");
    let o = cladc(t.path(), &["explain", "bad.clad", "B", "00"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown type: Nope"), "{}", stderr(&o));
}

#[test]
fn mistyped_subcommand_suggests_the_right_one() {
    let t = TempDir::new("typo");
    for (typo, right) in [
        ("chek", "check"),
        ("descibe", "describe"),
        ("explian", "explain"),
        ("completion", "completions"),
    ] {
        let o = cladc(t.path(), &[typo, "x.clad"]);
        assert_eq!(o.status.code(), Some(2), "{typo}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("unrecognized subcommand '{typo}'")),
            "{typo}: {err}"
        );
        // `tip: a similar subcommand exists: 'check'` (or several, when two are as close).
        let tip = err
            .lines()
            .find(|l| l.contains("tip:") && l.contains("similar subcommand"))
            .unwrap_or_else(|| panic!("{typo}: no suggestion in {err}"));
        assert!(tip.contains(&format!("'{right}'")), "{typo}: {err}");
    }
    // Nothing close: no suggestion.
    let o = cladc(t.path(), &["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("similar"), "{}", stderr(&o));
}

#[test]
fn help_and_version() {
    let t = TempDir::new("help");
    for args in [&["--help"][..], &["-h"][..], &["help"][..]] {
        let o = cladc(t.path(), args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = stdout(&o);
        assert!(out.contains("Usage: cladc <COMMAND>"), "{out}");
        for command in SUBCOMMANDS {
            assert!(out.contains(&format!("\n  {command} ")), "{command}: {out}");
        }
        assert!(out.contains("Exit status: 0 on success"), "{out}");
        assert_eq!(stderr(&o), "");
    }
    let o = cladc(t.path(), &["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o).trim(),
        format!("cladc {}", env!("CARGO_PKG_VERSION"))
    );
}

const SUBCOMMANDS: [&str; 7] = [
    "check",
    "describe",
    "rust",
    "encode",
    "decode",
    "explain",
    "completions",
];

#[test]
fn every_subcommand_has_its_own_help() {
    let t = TempDir::new("subhelp");
    // What each command's help must show beyond its usage line.
    let expected: [(&str, &[&str]); 7] = [
        (
            "check",
            &["Validate schemas", "-I, --include-dir <DIR>", "<FILE>..."],
        ),
        (
            "describe",
            &["as JSON", "-I, --include-dir <DIR>", "<FILE>..."],
        ),
        (
            "rust",
            &[
                "--out-dir <DIR>",
                "--view <PATH>",
                "-I, --include-dir <DIR>",
                "<FILE>...",
            ],
        ),
        (
            "encode",
            &["into hex lines", "-I, --include-dir <DIR>", "<FILE>"],
        ),
        (
            "decode",
            &["into CLAD-JSON lines", "-I, --include-dir <DIR>", "<FILE>"],
        ),
        (
            "explain",
            &["<FILE> <TYPE> <HEX>", "two hex digits per byte"],
        ),
        ("completions", &["<SHELL>", "bash", "zsh", "fish"]),
    ];
    for (command, needles) in expected {
        for spelling in [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ] {
            let o = cladc(t.path(), &spelling);
            assert_eq!(o.status.code(), Some(0), "{spelling:?}: {}", stderr(&o));
            let out = stdout(&o);
            assert!(
                out.contains(&format!("Usage: cladc {command} ")),
                "{spelling:?}: {out}"
            );
            for needle in needles {
                assert!(out.contains(needle), "{spelling:?}: `{needle}` in {out}");
            }
            // Only this command's options: `check` has no -o, `rust` has no <TYPE>.
            if command != "rust" {
                assert!(!out.contains("--out-dir"), "{spelling:?}: {out}");
            }
            if command != "explain" && command != "describe" {
                assert!(!out.contains("<TYPE>"), "{spelling:?}: {out}");
            }
        }
    }
    // The long help says more than the summary.
    let short = stdout(&cladc(t.path(), &["check", "-I", ".", "-h"]));
    let long = stdout(&cladc(t.path(), &["check", "--help"]));
    assert!(!short.contains("not searched"), "{short}");
    assert!(
        long.contains("The directory of the including file is not searched"),
        "{long}"
    );
}

#[test]
fn completions_for_every_shell() {
    let t = TempDir::new("completions");
    let o = cladc(t.path(), &["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = stdout(&o);
    assert!(script.contains("_cladc()"), "{script}");
    assert!(script.contains("complete -F _cladc"), "{script}");
    for command in SUBCOMMANDS {
        assert!(
            script.contains(&format!("cladc,{command})")),
            "{command}: {script}"
        );
    }
    // Each command's options are offered after it.
    assert!(script.contains("--include-dir"), "{script}");
    assert!(
        script.contains("--out-dir") && script.contains("--view"),
        "{script}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = cladc(t.path(), &["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for command in SUBCOMMANDS {
            assert!(script.contains(command), "{shell} {command}: {script}");
        }
    }
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
    assert!(stderr(&o).contains("'--view <PATH>'"), "{}", stderr(&o));
    // Options may come after the files; views for a namespace path work too.
    let o = cladc(t.path(), &["rust", "robot.clad", "--view", "Px", "-o", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("pub struct PxView<'a>"));
    assert!(!stdout(&o).contains("pub enum UView<'a>"));
}

#[test]
fn rust_writes_into_the_out_dir() {
    let t = TempDir::new("rust-out");
    t.write("robot.clad", VALID);
    let o = cladc(t.path(), &["rust", "--out-dir", "gen", "robot.clad"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote "), "{}", stderr(&o));
    let code = std::fs::read_to_string(t.path().join("gen/clad.rs")).expect("gen/clad.rs");
    assert!(code.contains("pub struct Px"), "{code}");
    // A schema error: exit 1, diagnostics on stderr.
    t.write("bad.clad", "message B { Nope n }\n");
    let o = cladc(t.path(), &["rust", "-o", "gen", "bad.clad"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown type: Nope"), "{}", stderr(&o));
}

/// The bash script, loaded into a real bash, completes commands and each command's options.
#[test]
fn bash_completion_completes_commands_and_options() {
    let t = TempDir::new("bash");
    let o = cladc(t.path(), &["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t.write("cladc.bash", &stdout(&o));
    // `_cladc <command> <word being completed> <previous word>`, as bash calls it.
    let complete = |words: &str, cword: usize, cur: &str, prev: &str| -> Option<String> {
        let script = format!(
            "source cladc.bash && COMP_WORDS=({words}) && COMP_CWORD={cword} && \
             _cladc cladc '{cur}' '{prev}' && echo \"${{COMPREPLY[*]}}\""
        );
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-c", &script])
            .current_dir(t.path())
            .output()
            .ok()?;
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let Some(de) = complete("cladc de", 1, "de", "cladc") else {
        eprintln!("SKIPPED: no bash on this machine");
        return;
    };
    assert_eq!(de, "describe decode");
    assert_eq!(
        complete("cladc co", 1, "co", "cladc").unwrap(),
        "completions"
    );
    let rust = complete("cladc rust --", 2, "--", "rust").unwrap();
    for option in ["--include-dir", "--out-dir", "--view", "--help"] {
        assert!(rust.split(' ').any(|w| w == option), "{option}: {rust}");
    }
    let check = complete("cladc check --", 2, "--", "check").unwrap();
    assert!(check.contains("--include-dir"), "{check}");
    assert!(!check.contains("--out-dir"), "{check}");
    let shells = complete("cladc completions ''", 2, "", "completions").unwrap();
    assert!(
        shells.ends_with(" bash elvish fish powershell zsh"),
        "{shells}"
    );
}

/// Runs cladc with `input` on stdin; `(stdout, stderr, status)`.
fn cladc_stdin(cwd: &Path, args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cladc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run cladc");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (stdout(&out), stderr(&out), out.status.code())
}

#[test]
fn encode_and_decode_report_each_bad_line_with_its_number_and_go_on() {
    let t = TempDir::new("codec-lines");
    t.write("robot.clad", VALID);
    let mut input = Vec::new();
    input.extend(br#"{"type": "U", "value": {"type": "b", "value": true}}"#);
    input.extend(b"\n\n");
    // Not UTF-8: this line only (it used to stop every following line).
    input.extend(b"{\"type\": \"U\", \"value\": \"\xe9\"}\n");
    // A typo at the top level, one inside the value.
    input.extend(br#"{"type": "U", "valeu": {"type": "b", "value": true}}"#);
    input.push(b'\n');
    input.extend(br#"{"type": "Px", "value": {"c": "Red", "ss": "x"}}"#);
    input.push(b'\n');
    // A golden-vector line (with its "schema" and "hex") is accepted as it is.
    input.extend(br#"{"schema": "robot.clad", "type": "U", "value": {"type": "b", "value": false}, "hex": "0400"}"#);
    input.push(b'\n');
    let (out, err, code) = cladc_stdin(t.path(), &["encode", "robot.clad"], &input);
    assert_eq!(code, Some(1), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "0401",
            "error: line 3: not UTF-8 text: byte 0xe9 at column 25",
            "error: line 4: unknown key \"valeu\" (a line has \"type\" and \"value\"; \"schema\" \
             and \"hex\"/\"value\" of a golden-vector line are accepted too)",
            "error: line 5: Px: unknown key \"ss\" (expected one of: c, f, s, v)",
            "0400",
        ],
        "{out}"
    );

    let input =
        b"{\"type\": \"U\", \"hex\": \"0401\"}\n\xff\n{\"type\": \"U\", \"hex\": \"0400\"}\n";
    let (out, err, code) = cladc_stdin(t.path(), &["decode", "robot.clad"], input);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            r#"{"type":"b","value":true}"#,
            "error: line 2: not UTF-8 text: byte 0xff at column 1",
            r#"{"type":"b","value":false}"#,
        ]
    );
}

/// Runs cladc with a standard output (`out`) or error (`err`) whose reader is already gone,
/// as in `cladc ... | head -1` once head has exited; returns the exit status.
fn with_closed_pipe(cwd: &Path, args: &[&str], close_stdout: bool) -> Option<i32> {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut c = Command::new(env!("CARGO_BIN_EXE_cladc"));
    c.args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null());
    if close_stdout {
        c.stdout(writer).stderr(std::process::Stdio::null());
    } else {
        c.stderr(writer).stdout(std::process::Stdio::null());
    }
    c.status().expect("run cladc").code()
}

#[test]
fn a_closed_pipe_ends_cladc_quietly_with_the_status_of_what_it_did() {
    let t = TempDir::new("pipe");
    t.write("robot.clad", VALID);
    t.write("bad.clad", "message B { Nope n }\nmessage C { Nope n }\n");
    // `cladc describe robot.clad | head -1`: no panic (101), success.
    assert_eq!(
        with_closed_pipe(t.path(), &["describe", "robot.clad"], true),
        Some(0)
    );
    assert_eq!(
        with_closed_pipe(t.path(), &["rust", "-o", "-", "robot.clad"], true),
        Some(0)
    );
    assert_eq!(
        with_closed_pipe(t.path(), &["completions", "bash"], true),
        Some(0)
    );
    // `cladc check bad.clad 2>&1 | head -1`: the diagnostics cannot be written, the status
    // still says there were errors.
    assert_eq!(
        with_closed_pipe(t.path(), &["check", "bad.clad"], false),
        Some(1)
    );
    assert_eq!(
        with_closed_pipe(t.path(), &["check", "robot.clad"], false),
        Some(0)
    );
    assert_eq!(
        with_closed_pipe(t.path(), &["explain", "robot.clad", "U", "0401"], true),
        Some(0)
    );
}

#[test]
fn describe_prints_both_hashes_and_the_canonical_form() {
    let t = TempDir::new("describe-hashes");
    t.write("robot.clad", VALID);
    let o = cladc(t.path(), &["describe", "robot.clad"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON on stdout");
    assert_eq!(v["decls"][2]["hash"], "25ea5eb72e1953b14cc8d8c5e2c182f2");
    assert_eq!(
        v["decls"][2]["schema_hash"],
        "4a6a82084bf268d89f41a35cf6d2838a"
    );
    let o = cladc(t.path(), &["describe", "robot.clad", "--canonical", "U"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "clad-schema-hash 1\nunion\n3 p struct:45bbe8ecd7d44d50f4e146936f5aa80b\n4 b bool\n"
    );
    let o = cladc(t.path(), &["describe", "robot.clad", "--canonical", "Nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no type `Nope`"), "{}", stderr(&o));
}
