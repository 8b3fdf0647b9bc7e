//! One hand-written bad schema per diagnostic the front end can emit, each with a snapshot of
//! the rendered output (message, `file:line:col`, caret and notes).
//!
//! Review rule for the snapshots: the message must say what is wrong, the caret must point at
//! the offending text, and one mistake must produce one diagnostic (no cascades).

mod common;

use clad_codegen::{compile, Compilation, LoadError, LoadedSource, MemoryLoader, SourceLoader};

/// Compiles `main.clad` holding `src` (plus `extra` files) searching `dirs`.
fn compile_with(src: &str, extra: &[(&str, &str)], dirs: &[&str]) -> Compilation {
    let mut loader = MemoryLoader::new().file("main.clad", src);
    for (path, text) in extra {
        loader = loader.file(*path, *text);
    }
    if !dirs.is_empty() {
        loader = loader.dirs(dirs.iter().copied());
    }
    compile(&mut loader, "main.clad")
}

/// Checks the invariants every bad input must satisfy and returns the rendered diagnostics.
fn rendered_errors(out: &Compilation) -> String {
    assert!(out.has_errors(), "expected an error, got none");
    assert!(out.schema.is_none(), "a schema was produced despite errors");
    for d in &out.diagnostics {
        assert!(!d.message.is_empty());
    }
    out.render()
}

fn snapshot(name: &str, src: &str, out: &Compilation) {
    let rendered = rendered_errors(out);
    insta::with_settings!({ description => src.to_owned(), omit_expression => true }, {
        insta::assert_snapshot!(name, rendered);
    });
}

/// `case!(name, source)` or `case!(name, source, [(path, text), ...], [dir, ...])`: compiles,
/// asserts an error and snapshots the rendering as `diagnostics__<name>.snap`.
macro_rules! case {
    ($name:ident, $src:expr) => {
        case!($name, $src, [], []);
    };
    ($name:ident, $src:expr, [$(($p:expr, $t:expr)),* $(,)?], [$($d:expr),* $(,)?]) => {
        #[test]
        fn $name() {
            let src: &str = $src;
            let out = compile_with(src, &[$(($p, $t)),*], &[$($d),*]);
            snapshot(stringify!($name), src, &out);
        }
    };
}

// ----- lexer ----------------------------------------------------------------------------------

case!(illegal_character, "message M {\n    int_8 a $\n}\n");
case!(
    illegal_non_ascii_character,
    "message Café {\n    int_8 a\n}\n"
);
case!(illegal_carriage_return, "message M {\r int_8 a }\n");
case!(illegal_lone_minus, "message M { int_8 a = - 5 }\n");
case!(
    unterminated_block_comment,
    "message M { int_8 a }\n/* this comment\n   is never closed\nmessage N { int_8 b }\n"
);
case!(
    no_text_after_verbatim,
    "enum uint_8 E {\n    A = verbatim ,\n    B\n}\n"
);
case!(reserved_word_c, "message M {\n    int_8 goto\n}\n");
case!(reserved_word_cpp98, "message class {\n    int_8 a\n}\n");
case!(
    reserved_word_python,
    "enum uint_8 E {\n    A,\n    lambda\n}\n"
);
case!(
    reserved_word_csharp,
    "namespace lock {\n    message M { }\n}\n"
);
case!(
    verbatim_non_ascii,
    "message M {\n    string s = verbatim \"café\"\n}\n"
);
case!(
    integer_literal_too_large,
    "message M {\n    uint_64 a = 1000000000000000000000000000000000000000000\n}\n"
);

// ----- syntax ---------------------------------------------------------------------------------

case!(
    syntax_missing_close_brace,
    "message M {\n    int_8 a,\n    int_8 b\n\nmessage N {\n    int_8 c\n}\n"
);
case!(
    syntax_missing_close_brace_at_end_of_input,
    "namespace N {\n    message M {\n        int_8 a\n    }\n"
);
case!(
    syntax_missing_comma,
    "message M {\n    int_8 a\n    int_8 b\n}\n"
);
case!(
    syntax_unexpected_close_brace_at_top_level,
    "message M {\n    int_8 a\n}\n}\nmessage N { }\n"
);
case!(
    syntax_declaration_expected,
    "int_8 a\nmessage M { int_8 b }\n"
);
case!(
    syntax_array_default,
    "message M {\n    int_8 a[uint_8] = 5\n}\n"
);
case!(
    syntax_verbatim_length_in_union,
    "union U {\n    int_8 a[verbatim Sizes::A],\n    int_8 b\n}\n"
);
case!(
    syntax_trailing_comma_in_enum_concept,
    "enum uint_8 E { A, B }\nenum_concept bool IsA[E] {\n    A = 1,\n    B = 0,\n}\n"
);
case!(
    syntax_keyword_used_as_name,
    "message M {\n    int_8 message\n}\n"
);
case!(
    syntax_qualified_member_name,
    "message M {\n    int_8 a::b\n}\n"
);
case!(syntax_missing_type, "message M {\n    a = 5\n}\n");
case!(
    syntax_bad_array_length,
    "message M {\n    int_8 a[float_32]\n}\n"
);
case!(syntax_enum_storage_missing, "enum E {\n    A\n}\n");
case!(
    syntax_quoted_path_outside_include,
    "message M {\n    int_8 a = \"x.clad\"\n}\n"
);
case!(
    syntax_no_default_constructor_on_union,
    "no_default_constructor union U {\n    int_8 a\n}\n"
);
case!(
    syntax_include_block_without_path,
    "include {\n    message M { }\n}\n"
);
case!(empty_file, "");
case!(only_comments, "// nothing here\n/* nor here */\n\n");
case!(empty_namespace, "namespace N {\n}\nmessage M { }\n");
case!(empty_enum, "enum uint_8 E {\n}\n");

// ----- names and types ------------------------------------------------------------------------

case!(unknown_type, "message M {\n    Vector3 position\n}\n");
case!(
    unknown_type_exists_in_other_namespace,
    "namespace A {\n    message B { int_8 x }\n}\nmessage M {\n    B b\n}\n"
);
case!(
    unknown_type_declared_later,
    "message M {\n    Later l\n}\nmessage Later { }\n"
);
case!(
    namespace_used_as_type,
    "namespace A {\n    message B { }\n}\nmessage M {\n    A a\n}\n"
);
case!(
    type_name_reused_as_namespace,
    "message A { }\nnamespace A {\n    message B { }\n}\n"
);
case!(
    name_already_exists,
    "message Pose { float_32 x }\nenum uint_8 Pose { A }\n"
);
case!(
    name_already_exists_as_namespace,
    "namespace Pose {\n    message P { }\n}\nmessage Pose { }\n"
);
case!(
    duplicate_member_message,
    "message M {\n    int_8 a,\n    int_16 a\n}\n"
);
case!(
    duplicate_member_structure,
    "structure S {\n    int_8 a,\n    int_16 a\n}\n"
);
case!(
    duplicate_member_union,
    "union U {\n    int_8 a,\n    int_16 a\n}\n"
);
case!(duplicate_member_enum, "enum uint_8 E {\n    A,\n    A\n}\n");
case!(
    duplicate_member_enum_concept,
    "enum uint_8 E { A, B }\nenum_concept bool IsA[E] {\n    A = 1,\n    B = 0,\n    A = 0\n}\n"
);
case!(
    qualified_namespace_name,
    "namespace A {\n    message X { }\n}\nnamespace A::B {\n    message M { }\n}\n"
);
case!(
    member_named_like_global_namespace,
    "namespace Anki {\n    message X { }\n}\nmessage M {\n    int_8 Anki\n}\n"
);

// ----- strings and arrays ---------------------------------------------------------------------

case!(
    string_length_type_invalid,
    "message M {\n    string[int_16] name\n}\n"
);
case!(
    string_length_type_uint64,
    "message M {\n    string[uint_64] name\n}\n"
);
case!(
    string_max_length_negative,
    "message M {\n    string[uint_8:-1] name\n}\n"
);
case!(
    var_array_bool_length,
    "message M {\n    int_8 values[bool]\n}\n"
);
case!(
    var_array_signed_length,
    "message M {\n    int_8 values[int_8]\n}\n"
);
case!(
    var_array_max_out_of_range,
    "message M {\n    int_8 values[uint_8:256]\n}\n"
);
case!(
    var_array_max_negative,
    "union U {\n    int_8 values[uint_16:-1]\n}\n"
);
case!(
    fixed_array_negative_length,
    "message M {\n    int_8 values[-1]\n}\n"
);
case!(
    fixed_array_length_too_large,
    "message M {\n    int_8 values[100000000000000000000000]\n}\n"
);

// ----- default values (spec §3.3) -------------------------------------------------------------

case!(
    default_not_builtin,
    "enum uint_8 E { A, B }\nmessage M {\n    E e = 1\n}\n"
);
case!(
    default_string_not_builtin,
    "message M {\n    string s = 1\n}\n"
);
case!(
    default_int_given_float,
    "message M {\n    int_8 a = 1.5\n}\n"
);
case!(
    default_float_given_int,
    "message M {\n    float_32 f = 1\n}\n"
);
case!(default_below_min, "message M {\n    uint_8 a = -1\n}\n");
case!(default_above_max, "message M {\n    int_8 a = 128\n}\n");
case!(default_bool_not_0_or_1, "message M {\n    bool b = 2\n}\n");
case!(
    default_verbatim_unevaluable,
    "message M {\n    int_8 a = verbatim Nowhere::value\n}\n"
);
case!(
    default_verbatim_wrong_value,
    "enum uint_8 E { A = 1, B = 2 }\nmessage M {\n    E e = verbatim 7\n}\n"
);
case!(
    default_verbatim_out_of_range,
    "message M {\n    uint_8 a = verbatim 200 + 100\n}\n"
);

// ----- enums (spec §3.4) ----------------------------------------------------------------------

case!(float_enum_storage, "enum float_32 E {\n    A,\n    B\n}\n");
case!(
    enum_value_out_of_range,
    "enum uint_8 E {\n    A = 254,\n    B,\n    C\n}\n"
);
case!(
    enum_negative_value_unsigned,
    "enum uint_8 E {\n    A = -1\n}\n"
);
case!(
    enum_bool_storage_counter,
    "enum bool E {\n    A = verbatim 0,\n    B,\n    C\n}\n"
);
case!(
    enum_hex_value_too_large,
    "enum uint_8 E {\n    A = 0x1FF\n}\n"
);
case!(
    enum_hex_successor_too_large,
    "enum uint_8 E {\n    A = 0xFF,\n    B\n}\n"
);
case!(
    enum_verbatim_value_too_large,
    "enum int_8 E {\n    A = verbatim 100 + 100\n}\n"
);
case!(
    enum_verbatim_value_unevaluable,
    "enum uint_8 E {\n    A = verbatim Other::thing\n}\n"
);
case!(
    enum_verbatim_value_later_enum,
    "enum uint_8 E {\n    A = verbatim F::X\n}\nenum uint_8 F { X = 3 }\n"
);
case!(
    enum_verbatim_value_not_integer,
    "enum uint_8 E {\n    A = verbatim 1.5\n}\n"
);
case!(
    fixed_array_verbatim_length_unevaluable,
    "message M {\n    int_8 values[verbatim Sizes::count]\n}\n"
);
case!(
    fixed_array_verbatim_length_negative,
    "enum int_8 Sizes { count = -3 }\nmessage M {\n    int_8 values[verbatim Sizes::count]\n}\n"
);

// ----- unions (spec §3.5, §3.6) ---------------------------------------------------------------

case!(
    union_tag_out_of_range,
    "union U {\n    int_8 a = 256,\n    int_8 b\n}\n"
);
case!(
    union_duplicate_tag,
    "union U {\n    int_8 a = 1,\n    int_16 b = 0,\n    int_32 c\n}\n"
);
case!(
    union_tag_255,
    "union U {\n    int_8 a = 254,\n    int_8 b\n}\n"
);
case!(empty_union, "union U {\n}\n");
case!(
    empty_dupes_allowed_autounion,
    "autounion dupes_allowed U { }\n"
);
case!(
    autounion_name_clash,
    "namespace A {\n    message Ping { }\n}\nnamespace B {\n    message Ping { }\n}\nautounion Everything { }\n"
);
case!(
    autounion_contains_itself,
    "autounion Everything { }\nmessage Wrapper {\n    Everything inner\n}\n"
);

// ----- enum concepts (spec §3.8) --------------------------------------------------------------

case!(
    enum_concept_unknown_enum,
    "enum_concept bool IsA[Nope] {\n    A = 1\n}\n"
);
case!(
    enum_concept_unknown_entries,
    "enum uint_8 E { A, B }\nenum_concept bool IsA[E] {\n    A = 1,\n    B = 0,\n    C = 0,\n    D = 1\n}\n"
);
case!(
    enum_concept_missing_entries,
    "enum uint_8 E { A, B, C }\nenum_concept bool IsA[E] {\n    A = 1\n}\n"
);
case!(
    enum_concept_invalid_value,
    "enum uint_8 E { A, B }\nenum_concept uint_8 Weight[E] {\n    A = 1,\n    B = 300\n}\n"
);
case!(
    enum_concept_unknown_return_type,
    "enum uint_8 E { A }\nenum_concept Nope Weight[E] {\n    A = 1\n}\n"
);

// ----- includes (spec §1.7) -------------------------------------------------------------------

case!(
    include_not_found,
    "#include \"robot/missing.clad\"\nmessage M { }\n",
    [],
    ["schemas", "vendor/clad"]
);
case!(
    include_not_found_in_including_directory,
    "#include \"b.clad\"\nmessage M { B b }\n",
    [
        ("sub/a.clad", "#include \"b.clad\"\n"),
        ("sub/b.clad", "message B { }\n")
    ],
    []
);
case!(
    include_invalid_path,
    "#include \"../common/x.clad\"\nmessage M { }\n"
);
case!(
    include_comment_with_quote,
    "#include \"x.clad\" // see \"docs\"\nmessage M { X x }\n",
    [("x.clad", "message X { }\n")],
    []
);
case!(
    include_trailing_whitespace,
    "#include \"x.clad\" \nmessage M { }\n",
    [("x.clad", "message X { }\n")],
    []
);
case!(
    include_indented,
    "  #include \"x.clad\"\nmessage M { }\n",
    [("x.clad", "message X { }\n")],
    []
);
case!(
    include_no_space,
    "#include\"x.clad\"\nmessage M { }\n",
    [("x.clad", "message X { }\n")],
    []
);
case!(
    error_inside_included_file,
    "#include \"x.clad\"\nmessage M { X x }\n",
    [("x.clad", "message X {\n    Unknown u\n}\n")],
    []
);

// ----- special cases --------------------------------------------------------------------------

#[test]
fn main_file_not_found() {
    let mut loader = MemoryLoader::new().dirs(["schemas", "more"]);
    let out = compile(&mut loader, "nope.clad");
    snapshot("main_file_not_found", "", &out);
}

/// A loader whose include files all fail to read.
struct Unreadable;

impl SourceLoader for Unreadable {
    fn load_main(&mut self, name: &str) -> Result<LoadedSource, LoadError> {
        Ok(LoadedSource {
            name: name.to_owned(),
            path: None,
            text: "#include \"x.clad\"\nmessage M { }\n".to_owned(),
        })
    }

    fn load_include(&mut self, path: &str) -> Result<LoadedSource, LoadError> {
        Err(LoadError::Unreadable {
            path: format!("inc/{path}"),
            reason: "not valid UTF-8 (first bad byte at offset 3)".to_owned(),
        })
    }
}

#[test]
fn include_unreadable() {
    let out = compile(&mut Unreadable, "main.clad");
    snapshot("include_unreadable", "#include \"x.clad\"\n", &out);
}

#[test]
fn too_many_diagnostics_are_capped() {
    let mut src = String::from("message M {\n");
    for i in 0..300 {
        src.push_str(&format!("    Unknown{i} a{i},\n"));
    }
    src.push_str("}\n");
    let out = compile_with(&src, &[], &[]);
    assert!(out.schema.is_none());
    assert_eq!(out.diagnostics.len(), 201);
    assert_eq!(
        out.diagnostics.last().unwrap().message,
        "100 more diagnostics were not shown"
    );
}

/// Independent errors in different declarations are all reported by one run.
#[test]
fn several_independent_errors_are_all_reported() {
    let src = "\
message A {
    Missing1 a
}
message B {
    int_8 x
    int_8 y
}
union C {
    Missing2 c,
    int_8 d
}
namespace N {
    structure D {
        Missing3 e
    }
}
enum uint_8 E { X, Y }
";
    let out = compile_with(src, &[], &[]);
    let messages: Vec<&str> = out.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected `,` or `}`, found keyword `int_8`",
            "unknown type: Missing1",
            "unknown type: Missing2",
            "unknown type: Missing3",
        ],
        "{}",
        out.render()
    );
    snapshot("several_independent_errors", src, &out);
}

/// The conformance suite's failure fixture (a missing include).
#[test]
#[cfg_attr(
    any(conformance_data_absent, conformance_other_tree),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn conformance_bad_clad() {
    let root = common::reference_suite().schemas_dir().join("failures");
    assert!(
        root.join("Bad.clad").is_file(),
        "{} not found",
        root.join("Bad.clad").display()
    );
    let mut loader = clad_codegen::FsLoader::new([&root]);
    let out = compile(&mut loader, "Bad.clad");
    let rendered = rendered_errors(&out);
    // The search directory is machine-specific; keep the snapshot portable.
    let rendered = rendered.replace(&root.display().to_string(), "<schemas>/failures");
    insta::assert_snapshot!("conformance_bad_clad", rendered);
}
