//! The schema hash (`clad_codegen::schema_hash`): its canonical form is a contract between
//! processes, so its values are pinned here (computed independently, with Python's hashlib,
//! from the documented form); every kind of change a peer could decode wrongly changes it,
//! and nothing else does.

use clad_codegen::ir::Schema;
use clad_codegen::{compile, schema_hash, MemoryLoader};

fn schema(files: &[(&str, &str)]) -> Schema {
    let mut loader = MemoryLoader::new();
    for (name, text) in files {
        loader = loader.file(*name, *text);
    }
    let out = compile(&mut loader, files[0].0);
    let rendered = out.render();
    out.schema.unwrap_or_else(|| panic!("{rendered}"))
}

fn one(text: &str) -> Schema {
    schema(&[("main.clad", text)])
}

/// `(version hash, schema hash)` of `fqn`.
fn hashes(s: &Schema, fqn: &str) -> (Option<String>, String) {
    let d = s.decl(s.lookup(fqn).unwrap_or_else(|| panic!("no {fqn}")));
    (
        d.hash.clone(),
        d.schema_hash.clone().expect("every type has one"),
    )
}

const SPEC_EXAMPLE: &str = "enum uint_8 Color { Red, Green = 5, Blue = 0x10 }\n\
     message Px { Color c, float_32 f = 0.5, string[uint_16:100] s, int_16 v[uint_8:4] }\n\
     union U { Px p = 3, bool b }\n";

#[test]
fn the_canonical_form_and_its_hashes_are_pinned() {
    let s = one(SPEC_EXAMPLE);
    let form = |fqn: &str| schema_hash::canonical_form(&s, s.lookup(fqn).unwrap()).unwrap();
    assert_eq!(
        form("Color"),
        "clad-schema-hash 1\nenum uint_8\nRed 0\nGreen 5\nBlue 16\n"
    );
    assert_eq!(
        form("Px"),
        "clad-schema-hash 1\nstruct\nc enum:e18471379dde7f607fe18b60b1d23311\nf float_32\n\
         s string[uint_16:100]\nv int_16[uint_8:4]\n"
    );
    assert_eq!(
        form("U"),
        "clad-schema-hash 1\nunion\n3 p struct:45bbe8ecd7d44d50f4e146936f5aa80b\n4 b bool\n"
    );
    // Python: hashlib.md5(form.encode()).hexdigest() of the three texts above.
    assert_eq!(hashes(&s, "Color").1, "e18471379dde7f607fe18b60b1d23311");
    assert_eq!(hashes(&s, "Px").1, "45bbe8ecd7d44d50f4e146936f5aa80b");
    assert_eq!(hashes(&s, "U").1, "4a6a82084bf268d89f41a35cf6d2838a");
    // The original's hashes are untouched (§3.12 worked example).
    assert_eq!(
        hashes(&s, "Color").0.as_deref(),
        Some("72cac815c7e8f7cd4e65c2bef1cbaeaf")
    );
    assert_eq!(
        hashes(&s, "U").0.as_deref(),
        Some("25ea5eb72e1953b14cc8d8c5e2c182f2")
    );
}

/// The case: `IntentResult`'s two string members swapped in a copy of the schema.
/// The original's hash of the union holding it cannot see it; the schema hash does.
const CLOUD: &str = "namespace CloudMic {\n\
     enum uint_8 ErrorType { Server, Timeout, Json }\n\
     structure IntentResult { string intent, string[uint_16] parameters, string[uint_16] metadata }\n\
     structure IntentError { ErrorType error, string extra }\n\
     union Message { IntentResult result, IntentError error, Box box }\n\
     }\n";

/// `CLOUD` with `Box` declared first (it is used by `Message`).
fn cloud(edit: impl Fn(&str) -> String, box_decl: &str) -> Schema {
    let text = edit(CLOUD).replace(
        "namespace CloudMic {\n",
        &format!("namespace CloudMic {{\n{box_decl}\n"),
    );
    one(&text)
}

const BOX: &str = "structure Inner { int_32 a, int_32 b }\nstructure Box { Inner inner, uint_8 n }";

#[test]
fn every_change_a_peer_would_misread_changes_the_top_level_schema_hash() {
    let base = cloud(|t| t.to_owned(), BOX);
    let (base_version, base_schema) = hashes(&base, "CloudMic::Message");
    let cases: Vec<(&str, Schema)> =
        vec![
        (
            "swapped nested members (the issue's IntentResult)",
            cloud(
                |t| {
                    t.replace(
                        "string[uint_16] parameters, string[uint_16] metadata",
                        "string[uint_16] metadata, string[uint_16] parameters",
                    )
                },
                BOX,
            ),
        ),
        (
            "reordered member two levels down",
            cloud(
                |t| t.to_owned(),
                "structure Inner { int_32 b, int_32 a }\nstructure Box { Inner inner, uint_8 n }",
            ),
        ),
        (
            "added member two levels down",
            cloud(
                |t| t.to_owned(),
                "structure Inner { int_32 a, int_32 b, int_32 c }\n\
                 structure Box { Inner inner, uint_8 n }",
            ),
        ),
        (
            "retyped member two levels down",
            cloud(
                |t| t.to_owned(),
                "structure Inner { int_32 a, uint_32 b }\nstructure Box { Inner inner, uint_8 n }",
            ),
        ),
        (
            "renamed member two levels down",
            cloud(
                |t| t.to_owned(),
                "structure Inner { int_32 a, int_32 c }\nstructure Box { Inner inner, uint_8 n }",
            ),
        ),
        (
            "removed nested member",
            cloud(|t| t.replace(", string extra", ""), BOX),
        ),
        (
            "changed enum value",
            cloud(|t| t.replace("Timeout, Json", "Timeout = 7, Json"), BOX),
        ),
        (
            "added enum member",
            cloud(|t| t.replace("Timeout, Json", "Timeout, Json, Token"), BOX),
        ),
        (
            "changed enum storage",
            cloud(|t| t.replace("enum uint_8 ErrorType", "enum uint_16 ErrorType"), BOX),
        ),
        (
            "changed string length type",
            cloud(|t| t.replace("string intent", "string[uint_16] intent"), BOX),
        ),
        (
            "changed string maximum",
            cloud(|t| t.replace("string intent", "string[uint_8:20] intent"), BOX),
        ),
        (
            "changed union tag",
            cloud(|t| t.replace("IntentError error,", "IntentError error = 5,"), BOX),
        ),
    ];
    for (what, changed) in &cases {
        let (version, schema_hash) = hashes(changed, "CloudMic::Message");
        assert_ne!(schema_hash, base_schema, "{what}: schema hash unchanged");
        // The reason for the schema hash: for a nested change the original's hash of the
        // message is the same.
        if !what.contains("union tag") {
            assert_eq!(version, base_version, "{what}: the version hash moved");
        }
    }
}

#[test]
fn what_cannot_change_a_value_leaves_the_schema_hash_alone() {
    let base = hashes(
        &one("namespace A {\n\
             enum uint_8 E { X, Y }\n\
             structure S { E e, int_32 n, string s }\n\
             union U { S s = 1, int_32 n = 2 }\n\
             }\n"),
        "A::U",
    )
    .1;
    let same = [
        // Comments, layout, default values, message vs structure, autounion bookkeeping,
        // hex vs decimal, written order of explicitly tagged union members, namespaces
        // and type names of what it refers to.
        (
            "comments and defaults",
            one("namespace A {\n\
                 /// docs\n\
                 enum no_cpp_class uint_8 E { X = 0x0, Y }\n\
                 message S { E e, int_32 n = 42, string s } // trailing\n\
                 union dupes_allowed U { int_32 n = 0x2, S s = 1 }\n\
                 }\n"),
            "A::U",
        ),
        (
            "another namespace, other names for the nested types",
            one("namespace B { namespace C {\n\
                 enum uint_8 Kind { X, Y }\n\
                 structure Payload { Kind e, int_32 n, string[uint_8:255] s }\n\
                 union U { Payload s = 1, int_32 n = 2 }\n\
                 } }\n"),
            "B::C::U",
        ),
    ];
    for (what, s, fqn) in &same {
        assert_eq!(hashes(s, fqn).1, base, "{what}");
    }
}

#[test]
fn included_types_have_the_same_schema_hash_as_their_own_file_gives_them() {
    let inner = "namespace N {\nstructure Inner { int_32 a, string b }\n}\n";
    let alone = schema(&[("inner.clad", inner)]);
    let including = schema(&[
        (
            "outer.clad",
            "#include \"inner.clad\"\nnamespace N {\nstructure Outer { Inner i }\n}\n",
        ),
        ("inner.clad", inner),
    ]);
    let (own_version, own_schema) = hashes(&alone, "N::Inner");
    let (inc_version, inc_schema) = hashes(&including, "N::Inner");
    assert!(own_version.is_some());
    // The original gives included declarations no hash; ours does not depend on the file.
    assert_eq!(inc_version, None);
    assert_eq!(inc_schema, own_schema);
    // The written file layout of the including file does not matter either.
    let flat = one(
        "namespace N {\nstructure Inner { int_32 a, string b }\nstructure Outer { Inner i }\n}\n",
    );
    assert_eq!(
        hashes(&flat, "N::Outer").1,
        hashes(&including, "N::Outer").1
    );
}

#[test]
fn autounion_members_declared_after_it_are_hashed() {
    // An autounion collects messages declared after it: forward references.
    let a = one("autounion Any { }\nmessage Ping { uint_8 n }\nmessage Pong { string s }\n");
    let b = one("autounion Any { }\nmessage Ping { uint_16 n }\nmessage Pong { string s }\n");
    assert_ne!(hashes(&a, "Any").1, hashes(&b, "Any").1);
    assert_eq!(hashes(&a, "Pong").1, hashes(&b, "Pong").1);
}

#[test]
fn describe_shows_both_hashes() {
    let s = one(SPEC_EXAMPLE);
    let json: serde_json::Value =
        serde_json::from_str(&clad_codegen::describe::describe_json(&s)).unwrap();
    let u = &json["decls"][2];
    assert_eq!(u["fqn"], "U");
    assert_eq!(u["hash"], "25ea5eb72e1953b14cc8d8c5e2c182f2");
    assert_eq!(u["schema_hash"], "4a6a82084bf268d89f41a35cf6d2838a");
}
