//! The `build.rs` front door: include closure, files read, write-only-on-change, errors,
//! options.

use clad_codegen::Builder;
use std::path::PathBuf;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("clad-builder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn schemas(t: &TempDir) {
    t.write(
        "schemas/common/types.clad",
        "namespace Robot {\n/// A colour.\nenum uint_8 Color { Red, Green = 5 }\n}\n",
    );
    t.write(
        "schemas/main.clad",
        "#include \"common/types.clad\"\nnamespace Robot {\nmessage Light { Color color, uint_8 level = 3 }\nunion Msg { Light light, bool off }\n}\n",
    );
}

fn builder(t: &TempDir) -> Builder {
    Builder::new()
        .emit_cargo_directives(false)
        .include_dir(t.0.join("schemas"))
        .file("main.clad")
        .out_dir(t.0.join("out"))
}

#[test]
fn generates_the_include_closure_and_lists_every_file_read() {
    let t = TempDir::new("closure");
    schemas(&t);
    let g = builder(&t).generate().unwrap();
    assert!(g.code.starts_with("// @generated"), "{}", &g.code[..80]);
    // Types of the included file are generated too.
    let names: Vec<&str> = g.types.iter().map(|t| t.clad_name.as_str()).collect();
    assert_eq!(names, ["Robot::Light", "Robot::Msg", "Robot::Color"]);
    assert_eq!(g.types[2].rust_path, "robot::Color");
    let read: Vec<String> = g
        .files_read
        .iter()
        .map(|p| p.strip_prefix(&t.0).unwrap().display().to_string())
        .collect();
    assert_eq!(read, ["schemas/common/types.clad", "schemas/main.clad"]);
    // Deterministic.
    assert_eq!(builder(&t).generate().unwrap().code, g.code);
    // The generated code parses as Rust and keeps schema docs.
    syn::parse_file(&g.code).unwrap();
    assert!(g.code.contains("/// A colour."));
}

#[test]
fn writes_only_when_the_content_changed() {
    let t = TempDir::new("write");
    schemas(&t);
    let path = builder(&t).compile().unwrap();
    assert_eq!(path, t.0.join("out/clad.rs"));
    let first = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    builder(&t).compile().unwrap();
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        first,
        "rewritten"
    );
    t.write(
        "schemas/common/types.clad",
        "namespace Robot {\nenum uint_8 Color { Red, Green = 6 }\n}\n",
    );
    builder(&t).compile().unwrap();
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("Green = 6"));
    let named = builder(&t).output_file("robot.rs").compile().unwrap();
    assert!(named.ends_with("robot.rs"));
}

#[test]
fn schema_errors_are_rendered_not_panicked() {
    let t = TempDir::new("errors");
    t.write(
        "schemas/bad.clad",
        "message M { Missing m, uint_8 x = 999 }\n",
    );
    let err = Builder::new()
        .emit_cargo_directives(false)
        .include_dir(t.0.join("schemas"))
        .file("bad.clad")
        .out_dir(t.0.join("out"))
        .compile()
        .unwrap_err();
    assert_eq!(err.diagnostics.len(), 2, "{}", err.rendered);
    assert!(
        err.rendered.contains("unknown type: Missing"),
        "{}",
        err.rendered
    );
    assert!(err.rendered.contains("bad.clad:1:13"), "{}", err.rendered);
    assert!(err
        .to_string()
        .contains("999 is larger than the maximum value (255)"));
    assert!(!t.0.join("out/clad.rs").exists());
}

#[test]
fn missing_inputs_and_bad_options_are_errors() {
    let t = TempDir::new("options");
    schemas(&t);
    let e = Builder::new()
        .emit_cargo_directives(false)
        .generate()
        .unwrap_err();
    assert!(
        e.rendered.contains("no schema file given"),
        "{}",
        e.rendered
    );
    let e = builder(&t).file("nope.clad").generate().unwrap_err();
    assert!(
        e.rendered.contains("could not find file \"nope.clad\""),
        "{}",
        e.rendered
    );
    let e = builder(&t)
        .runtime_path("not a path")
        .generate()
        .unwrap_err();
    assert!(
        e.rendered.contains("invalid runtime path"),
        "{}",
        e.rendered
    );
    let e = builder(&t)
        .type_attribute(".", "#[derive(")
        .generate()
        .unwrap_err();
    assert!(e.rendered.contains("invalid attribute"), "{}", e.rendered);
}

#[test]
fn attributes_and_runtime_path_reach_the_code() {
    let t = TempDir::new("attrs");
    schemas(&t);
    let g = builder(&t)
        .type_attribute("Robot::Light", "#[derive(PartialOrd)]")
        // A literal spanning lines reaches the code unchanged (not re-indented).
        .type_attribute("Robot::Light", "#[doc = \"two\n   lines\"]")
        .type_attribute("Robot", "#[doc = \"in Robot\"]")
        .field_attribute("Robot::Light.level", "#[doc = \"brightness\"]")
        .runtime_path("crate::rt")
        .generate()
        .unwrap();
    let light = &g.code[g.code.find("pub struct Light").unwrap() - 400..];
    assert!(light.contains("#[derive(PartialOrd)]"), "{light}");
    assert!(light.contains("#[doc = \"two\n   lines\"]"), "{light}");
    // User attributes are written as given.
    assert_eq!(
        g.code.matches("#[doc = \"in Robot\"]").count(),
        3,
        "every type in Robot"
    );
    assert!(g.code.contains("#[doc = \"brightness\"]"));
    assert!(g.code.contains("crate::rt::wire::Wire"));
    assert!(!g.code.contains("::clad_runtime"));
}

#[test]
fn conflicting_files_are_reported() {
    let t = TempDir::new("conflict");
    t.write("schemas/a.clad", "message Void {}\n");
    t.write("schemas/b.clad", "message Void {}\n");
    let e = Builder::new()
        .emit_cargo_directives(false)
        .include_dir(t.0.join("schemas"))
        .files(["a.clad", "b.clad"])
        .generate()
        .unwrap_err();
    assert!(
        e.rendered.contains("type `Void` is declared by both"),
        "{}",
        e.rendered
    );
}

/// The `pub const ..._FILE_HASH` lines of a generated file, in order.
fn file_hash_consts(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .filter_map(|l| l.split(':').next())
        .filter(|name| name.ends_with("_FILE_HASH") || name.contains("_FILE_HASH_"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn file_hash_names_do_not_depend_on_how_the_path_is_spelled() {
    let t = TempDir::new("hash-names");
    schemas(&t);
    let generate = |dirs: &[PathBuf], file: &str| {
        Builder::new()
            .include_dir(&dirs[0])
            .include_dir(dirs.last().expect("a directory"))
            .file(file)
            .emit_cargo_directives(false)
            .generate()
            .unwrap_or_else(|e| panic!("{e}"))
            .code
    };
    let short = generate(&[t.0.join("schemas")], "main.clad");
    let long = generate(&[t.0.clone(), t.0.join("schemas")], "schemas/main.clad");
    assert_eq!(
        file_hash_consts(&short),
        ["MAIN_FILE_HASH", "TYPES_FILE_HASH"]
    );
    assert_eq!(file_hash_consts(&long), file_hash_consts(&short));
    // Same values too: only the doc comment and the header name the path as written.
    let values = |code: &str| -> Vec<String> {
        code.lines()
            .filter(|l| l.contains("_FILE_HASH: &str"))
            .map(|l| l.split('=').nth(1).unwrap_or_default().trim().to_owned())
            .collect()
    };
    assert_eq!(values(&short), values(&long));
}

#[test]
fn file_hash_name_clashes_get_suffixes_in_input_order() {
    // Two files with the same name in different directories: the first input keeps the plain
    // name, the second gets `_2`, whichever spelling they came with.
    let t = TempDir::new("hash-clash");
    t.write("a/state.clad", "namespace A { message S { uint_8 x } }\n");
    t.write("b/state.clad", "namespace B { message S { uint_16 y } }\n");
    let generate = |files: [&str; 2]| {
        Builder::new()
            .include_dir(&t.0)
            .files(files)
            .emit_cargo_directives(false)
            .generate()
            .unwrap_or_else(|e| panic!("{e}"))
            .code
    };
    let ab = generate(["a/state.clad", "b/state.clad"]);
    assert_eq!(
        file_hash_consts(&ab),
        ["STATE_FILE_HASH", "STATE_FILE_HASH_2"]
    );
    let line = |code: &str, name: &str| {
        let i = code.find(&format!("pub const {name}:")).expect("const");
        code[..i].lines().next_back().unwrap_or_default().to_owned()
    };
    assert!(line(&ab, "STATE_FILE_HASH").contains("`a/state.clad`"));
    assert!(line(&ab, "STATE_FILE_HASH_2").contains("`b/state.clad`"));
    let ba = generate(["b/state.clad", "a/state.clad"]);
    assert!(line(&ba, "STATE_FILE_HASH").contains("`b/state.clad`"));
    // Deterministic: the same build gives the same text.
    assert_eq!(ab, generate(["a/state.clad", "b/state.clad"]));
}
