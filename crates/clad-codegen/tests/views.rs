//! Borrowed views (`RustOptions::views`, `Builder::view`): which types get one, how they are
//! named, and a snapshot of the generated code for every member shape. The views of every
//! conformance schema are compiled, clippy-checked and run against every golden vector and
//! fuzz input in `clad-conformance`.

use clad_codegen::rust::{generate, generated_types_with, RustOptions};
use clad_codegen::{compile, MemoryLoader};

/// Every member shape views handle (also compiled and fuzzed in `clad-conformance`).
const SCHEMA: &str = include_str!("../../clad-conformance/schemas/views.clad");

fn units() -> Vec<clad_codegen::ir::Schema> {
    let mut loader = MemoryLoader::new().file("shapes.clad", SCHEMA);
    let out = compile(&mut loader, "shapes.clad");
    assert!(!out.has_errors(), "{}", out.render());
    vec![out.schema.unwrap()]
}

fn options(views: &[&str]) -> RustOptions {
    RustOptions {
        views: views.iter().map(|v| v.to_string()).collect(),
        ..RustOptions::default()
    }
}

#[test]
fn views_are_generated_for_borrowing_types_in_and_under_the_selection() {
    let types = generated_types_with(&units(), &options(&["Shapes"]));
    let views: Vec<(&str, Option<&str>)> = types
        .iter()
        .filter(|t| t.kind != "enum")
        .map(|t| (t.clad_name.as_str(), t.view_path.as_deref()))
        .collect();
    assert_eq!(
        views,
        [
            ("Shapes::Plain", None),
            ("Shapes::Named", Some("shapes::NamedView_2")),
            ("Shapes::Blob", Some("shapes::BlobView")),
            ("Shapes::Lists", Some("shapes::ListsView")),
            ("Shapes::Any", Some("shapes::AnyView")),
            ("Shapes::Samples", Some("shapes::SamplesView")),
            ("Shapes::Small", None),
            ("Shapes::Mixed", None),
            ("Shapes::NamedView", None),
            ("Other::Note", Some("other::NoteView")),
            ("Shapes::WithNote", Some("shapes::WithNoteView")),
            ("Top", None),
        ]
    );
}

#[test]
fn no_views_unless_asked_and_every_path_form_selects() {
    let units = units();
    let count = |views: &[&str]| {
        generated_types_with(&units, &options(views))
            .iter()
            .filter(|t| t.view_path.is_some())
            .count()
    };
    assert_eq!(count(&[]), 0);
    assert_eq!(count(&["."]), 8); // every borrowing type, `Top` included
    assert_eq!(count(&["Shapes::Blob"]), 1);
    assert_eq!(count(&["Shapes::Lists"]), 2); // Lists and Named
    assert_eq!(count(&["::Top"]), 1);
    assert_eq!(count(&["Nope"]), 0);
    // Adding views never renames another item: the code without views is a prefix-free
    // subset (every line of it is still there).
    let plain = generate(&units, &options(&[])).unwrap();
    let with = generate(&units, &options(&["."])).unwrap();
    for line in plain.lines() {
        assert!(with.contains(line), "missing with views: {line}");
    }
}

#[test]
fn generated_view_code() {
    let code = generate(&units(), &options(&["Shapes"])).unwrap();
    insta::assert_snapshot!(code);
}
