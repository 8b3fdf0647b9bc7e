//! Robustness: whatever the input, `compile` never panics, every diagnostic points inside the
//! file it names, and a schema is produced exactly when there is no error.
//!
//! Three generators: arbitrary bytes, "token soup" drawn from CLAD's own vocabulary, and
//! random edits of the real conformance schemas. Budget: a few seconds in a debug build.

mod common;

use clad_codegen::{compile, describe, Compilation, MemoryLoader};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::Path;

/// `cases` by default; `PROPTEST_CASES=n` overrides it for a longer hunt.
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        // Minimised failures become regular tests below instead of files next to the tests.
        failure_persistence: None,
        ..Config::default()
    }
}

/// The invariants every compilation must satisfy (the caller has already survived `compile`).
fn check(out: &Compilation) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        out.schema.is_some(),
        !out.has_errors(),
        "schema present iff no error; diagnostics:\n{}",
        out.render()
    );
    for d in &out.diagnostics {
        if let Some(span) = d.span {
            prop_assert!((span.file.0 as usize) < out.sources.len(), "{:?}", d);
            let text = &out.sources.get(span.file).text;
            prop_assert!(
                span.start <= span.end && text.get(span.range()).is_some(),
                "span {:?} outside its file ({} bytes) or not on a char boundary: {}",
                span,
                text.len(),
                d.message
            );
        }
    }
    let rendered = out.render();
    prop_assert!(out.diagnostics.is_empty() || !rendered.is_empty());
    if let Some(schema) = &out.schema {
        let json = describe::describe_json(schema);
        prop_assert!(json.contains("file_hash"));
        // Every type has a schema hash and a canonical form; concepts have neither.
        for (id, d) in schema.iter() {
            let is_type = !matches!(d.kind, clad_codegen::ir::DeclKind::EnumConcept(_));
            prop_assert_eq!(d.schema_hash.is_some(), is_type, "{}", d.fqn());
            prop_assert_eq!(
                clad_codegen::schema_hash::canonical_form(schema, id).is_some(),
                is_type
            );
        }
    }
    Ok(())
}

/// Include files available to generated main files (they include each other and `main.clad`).
fn loader_with(main: &str) -> MemoryLoader {
    MemoryLoader::new()
        .file("main.clad", main)
        .file(
            "x.clad",
            "#include \"y.clad\"\nnamespace X { message Xm { int_8 a } }\n",
        )
        .file(
            "y.clad",
            "#include \"x.clad\"\nenum uint_8 Ye { A, B = 0x10, C = verbatim A + 1 }\n",
        )
        .file("dir/z.clad", "autounion Zu { }\n")
}

fn compile_main(main: &str) -> Compilation {
    compile(&mut loader_with(main), "main.clad")
}

// ----- (a) arbitrary bytes --------------------------------------------------------------------

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        check(&compile_main(&text))?;
    }

    #[test]
    fn arbitrary_ascii_never_panics(text in "[ -~\t\n\r]{0,300}") {
        check(&compile_main(&text))?;
    }
}

// ----- (b) token soup -------------------------------------------------------------------------

const TOKENS: &[&str] = &[
    // keywords
    "bool",
    "float_32",
    "float_64",
    "string",
    "enum",
    "int_8",
    "int_16",
    "int_32",
    "int_64",
    "uint_8",
    "uint_16",
    "uint_32",
    "uint_64",
    "message",
    "structure",
    "union",
    "autounion",
    "namespace",
    "include",
    "no_cpp_class",
    "no_default_constructor",
    "enum_concept",
    "dupes_allowed",
    // identifiers, reserved words, qualified names
    "A",
    "B",
    "Foo",
    "Bar",
    "x",
    "y",
    "_z",
    "Xm",
    "Ye",
    "Zu",
    "X",
    "X::Xm",
    "Ye::A",
    "A::B::C",
    "Foo::Bar",
    "class",
    "None",
    "type",
    "lock",
    "goto",
    "A::None",
    "verbatimCount",
    // numbers
    "0",
    "1",
    "-1",
    "7",
    "254",
    "255",
    "256",
    "-129",
    "0x10",
    "0xFF",
    "0X1ff",
    "0xZ",
    "1.5",
    "-0.25",
    "12.0",
    "1e5",
    "123abc",
    "0017",
    "99999999999999999999999999999999999999999999",
    "340282366920938463463374607431768211456",
    "-170141183460469231731687303715884105729",
    "18446744073709551616",
    "4294967296",
    // verbatim snippets
    "verbatim 2 * 4",
    "verbatim Ye::B + 1",
    "verbatim A",
    "verbatim ",
    "verbatim X::Xm",
    "verbatim (1 << 70)",
    "verbatim 1 / 0",
    "verbatim \"text\"",
    "verbatim 1.5",
    "verbatim -9223372036854775808 * -1",
    "verbatim ((((((1))))))",
    "verbatim ~0 >> 200",
    // punctuation and odd characters
    "{",
    "}",
    "[",
    "]",
    ",",
    "=",
    ":",
    "::",
    "{ }",
    "[uint_8]",
    "[uint_8:3]",
    "[int_8]",
    "[bool]",
    "[3]",
    "[-1]",
    "[verbatim 4]",
    "string[uint_16:10]",
    "string[uint_64]",
    ";",
    "-",
    ".",
    "#",
    "\"x.clad\"",
    "\"",
    "/",
    "*",
    "é",
    "\r",
    // includes and comments
    "\n#include \"x.clad\"\n",
    "\n#include \"y.clad\" // why\n",
    "\n#include \"nope.clad\"\n",
    "\n#include \"dir/z.clad\"\n",
    "\n#include \"main.clad\"\n",
    "\n#include \"../x.clad\"\n",
    "\n#include \"x.clad\" \n",
    "// comment\n",
    "/// doc\n",
    "/* block */",
    "/* open",
    "*/",
    "\n",
    "\n\n",
];

/// Short well-formed fragments, so that the soup also reaches the semantic checks.
const FRAGMENTS: &[&str] = &[
    "message M { int_8 a = 1, float_32 f = 0.5, string s, int_16 v[uint_8:4], bool b[2] }\n",
    "enum uint_8 E { A, B = 5, C = 0xFF, D = verbatim B + 1 }\n",
    "union U { int_8 a = 3, M m, E e }\n",
    "autounion AU { }\n",
    "enum_concept int_8 Weight[E] { A = 1, B = 2, C = 3, D = 4 }\n",
    "namespace N { structure S { E e = verbatim E::A, uint_8 arr[verbatim E::B] } }\n",
    "union dupes_allowed DU { int_8 a, int_8 b }\n",
    "include \"hand.clad\" { message H { } }\n",
];

fn soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => proptest::sample::select(TOKENS).prop_map(str::to_owned),
        1 => proptest::sample::select(FRAGMENTS).prop_map(str::to_owned),
    ];
    let sep = proptest::sample::select(&[" ", " ", " ", "", "\n", "\t"][..]);
    proptest::collection::vec((piece, sep), 0..60).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(p, s)| format!("{p}{s}"))
            .collect::<String>()
    })
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn token_soup_never_panics(text in soup()) {
        check(&compile_main(&text))?;
    }
}

// ----- (b2) nesting ---------------------------------------------------------------------------

/// Blocks opened and closed at random, up to past [`clad_codegen::MAX_NESTING`], with
/// declarations and stray braces between them.
fn nesting() -> impl Strategy<Value = String> {
    let step = prop_oneof![
        6 => Just("namespace N {\n"),
        2 => Just("include \"hand.clad\" {\n"),
        6 => Just("}\n"),
        2 => Just("message M { uint_8 a }\n"),
        1 => Just("structure S { string[string[uint_8] s }\n"),
        1 => Just("{"),
    ];
    (0usize..150, proptest::collection::vec(step, 0..300)).prop_map(|(depth, steps)| {
        let mut s = "namespace D {\n".repeat(depth);
        s.extend(steps);
        s.push_str(&"}\n".repeat(depth));
        s
    })
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn random_nesting_never_panics(text in nesting()) {
        check(&compile_main(&text))?;
    }
}

// ----- (c) mutated conformance schemas --------------------------------------------------------

/// Every `.clad` file under `dir`, keyed by its path relative to `base` (`/`-separated).
fn clad_files(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            clad_files(base, &path, out);
        } else if path.extension().is_some_and(|e| e == "clad") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                let rel = path.strip_prefix(base).unwrap_or(&path);
                let rel = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push((rel, text));
            }
        }
    }
}

/// One compile unit: the files visible from its root, and the main file's name.
struct Unit {
    files: Vec<(String, String)>,
    main: String,
}

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Duplicate(usize, usize),
    Swap(usize, usize, usize),
    Insert(usize, &'static str),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), 0usize..40).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), 0usize..60).prop_map(|(a, n)| Edit::Duplicate(a, n)),
        (any::<usize>(), any::<usize>(), 1usize..30).prop_map(|(a, b, n)| Edit::Swap(a, b, n)),
        (any::<usize>(), proptest::sample::select(TOKENS)).prop_map(|(a, t)| Edit::Insert(a, t)),
    ];
    proptest::collection::vec(edit, 1..5)
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut b = text.as_bytes().to_vec();
    for e in edits {
        let len = b.len();
        if len == 0 {
            if let Edit::Insert(_, t) = e {
                b.extend_from_slice(t.as_bytes());
            }
            continue;
        }
        match *e {
            Edit::Delete(a, n) => {
                let a = a % len;
                let end = (a + n).min(len);
                b.drain(a..end);
            }
            Edit::Duplicate(a, n) => {
                let a = a % len;
                let end = (a + n).min(len);
                let chunk = b[a..end].to_vec();
                b.splice(end..end, chunk);
            }
            Edit::Swap(a, c, n) => {
                let (mut a, mut c) = (a % len, c % len);
                if a > c {
                    std::mem::swap(&mut a, &mut c);
                }
                let n = n.min(c - a).min(len - c);
                let first = b[a..a + n].to_vec();
                let second = b[c..c + n].to_vec();
                b.splice(c..c + n, first);
                b.splice(a..a + n, second);
            }
            Edit::Insert(a, t) => {
                let a = a % (len + 1);
                b.splice(a..a, t.bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
#[cfg_attr(
    conformance_data_absent,
    ignore = "needs the conformance data: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn mutated_conformance_schemas_never_panic() {
    let m = common::conformance();
    let units: Vec<Unit> = m
        .files
        .iter()
        .map(|f| {
            // Every file visible from the root, then from `include_dirs` in order (the first
            // of a name wins, as in the search).
            let mut files: Vec<(String, String)> = Vec::new();
            for dir in m.search_dirs(&f.root) {
                let mut found = Vec::new();
                clad_files(&dir, &dir, &mut found);
                for (name, text) in found {
                    if !files.iter().any(|(n, _)| *n == name) {
                        files.push((name, text));
                    }
                }
            }
            Unit {
                files,
                main: f.schema.clone(),
            }
        })
        .collect();
    assert!(!units.is_empty());
    // The unmutated schemas satisfy the invariants too.
    for u in &units {
        let mut loader = MemoryLoader::new();
        for (p, t) in &u.files {
            loader = loader.file(p.as_str(), t.as_str());
        }
        let out = compile(&mut loader, &u.main);
        check(&out).unwrap();
    }
    let mut runner = TestRunner::new(config(400));
    let strategy = (0..units.len(), any::<bool>(), any::<usize>(), edits());
    runner
        .run(&strategy, |(unit, mutate_include, which, edits)| {
            let u = &units[unit];
            // Mostly the main file; sometimes one of the files it may include.
            let target = if mutate_include {
                u.files[which % u.files.len()].0.clone()
            } else {
                u.main.clone()
            };
            let mut loader = MemoryLoader::new();
            for (p, t) in &u.files {
                let text = if *p == target {
                    apply(t, &edits)
                } else {
                    t.clone()
                };
                loader = loader.file(p.as_str(), text);
            }
            check(&compile(&mut loader, &u.main))
        })
        .unwrap();
}

// ----- regressions found by the generators ----------------------------------------------------

/// Inputs that once broke an invariant, kept as plain tests.
#[test]
fn regressions() {
    let cases: &[&str] = &[
        // A negative string max length used to drop the member silently (schema, no error).
        "message M { string[uint_8:-1] s }",
        // `include` at end of input used to loop forever (the parser rewound past it).
        "include",
        "message M { } include /* never closed",
        // The enum counter used to overflow after a member at i128::MAX.
        "enum int_64 E { A = 170141183460469231731687303715884105727, B }",
    ];
    for src in cases {
        let out = compile_main(src);
        if let Err(e) = check(&out) {
            panic!("{src:?}: {e}");
        }
    }
}
