//! The schema-driven codec (`cladc encode/decode/explain`, `cladz pub/echo`) on hostile input:
//! arbitrary JSON values and arbitrary bytes, for every type of the project's schemas. Never
//! a panic; what is accepted round-trips exactly; the strict encoder accepts a subset of what
//! the lenient one does, with the same bytes. Budget: a few seconds in a debug build.

use clad_codegen::ir::{DeclKind, Schema};
use clad_codegen::{compile, dynamic, FsLoader};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value};
use std::sync::OnceLock;

fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// The project's schemas that other processes send the robot: cloud and HRI messages.
fn schemas() -> &'static [(Schema, Vec<String>)] {
    static S: OnceLock<Vec<(Schema, Vec<String>)>> = OnceLock::new();
    S.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas");
        ["cloud.clad", "hri.clad", "userIntent.clad"]
            .iter()
            .map(|file| {
                let out = compile(&mut FsLoader::new([dir]), file);
                let rendered = out.render();
                let schema = out.schema.unwrap_or_else(|| panic!("{rendered}"));
                let types = schema
                    .iter()
                    .filter(|(_, d)| !matches!(d.kind, DeclKind::EnumConcept(_)))
                    .map(|(_, d)| d.fqn())
                    .collect();
                (schema, types)
            })
            .collect()
    })
}

/// Words the values are made of: the schemas' own member and enum names, so that random
/// objects often hit real members and union types.
fn vocabulary() -> Vec<String> {
    let mut words: Vec<String> = vec!["type".into(), "value".into(), "".into(), "NaN".into()];
    for (schema, _) in schemas() {
        for (_, d) in schema.iter() {
            match &d.kind {
                DeclKind::Struct(s) => words.extend(s.fields.iter().map(|f| f.name.clone())),
                DeclKind::Union(u) => words.extend(u.members.iter().map(|m| m.name.clone())),
                DeclKind::Enum(e) => words.extend(e.members.iter().map(|m| m.name.clone())),
                DeclKind::EnumConcept(_) => {}
            }
        }
    }
    words.sort();
    words.dedup();
    words
}

fn json() -> impl Strategy<Value = Value> {
    let words = vocabulary();
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (0u64..300).prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        proptest::sample::select(words.clone()).prop_map(Value::String),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        let words = words.clone();
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(words), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A type of one of the schemas.
fn target() -> impl Strategy<Value = (usize, usize)> {
    (0..schemas().len()).prop_flat_map(|s| (Just(s), 0..schemas()[s].1.len()))
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn arbitrary_json_encodes_or_fails_cleanly((s, t) in target(), value in json()) {
        let (schema, types) = &schemas()[s];
        let fqn = &types[t];
        let lenient = dynamic::encode(schema, fqn, &value);
        let strict = dynamic::encode_strict(schema, fqn, &value);
        if let Ok(bytes) = &strict {
            // Strict accepts a subset, with the same bytes.
            prop_assert_eq!(lenient.as_ref().ok(), Some(bytes));
        }
        if let Ok(bytes) = lenient {
            // What was encoded decodes, and its canonical JSON encodes to the same bytes.
            let decoded = dynamic::decode(schema, fqn, &bytes);
            prop_assert!(decoded.is_ok(), "{fqn}: {bytes:02x?} does not decode: {decoded:?}");
            let again = dynamic::encode_strict(schema, fqn, &decoded.unwrap());
            prop_assert_eq!(again.ok(), Some(bytes));
        }
    }

    #[test]
    fn arbitrary_bytes_decode_or_fail_cleanly(
        (s, t) in target(),
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let (schema, types) = &schemas()[s];
        let fqn = &types[t];
        let decoded = dynamic::decode(schema, fqn, &bytes);
        let explained = dynamic::explain(schema, fqn, &bytes);
        // `explain` fails exactly where `decode` does.
        prop_assert_eq!(explained.error.as_ref(), decoded.as_ref().err());
        if let Ok(value) = decoded {
            // Accepted bytes have a canonical JSON that encodes and decodes to itself (not
            // always to the same bytes: a bool byte 2 reads as true, NaN payloads are not
            // kept in JSON).
            let again = dynamic::encode_strict(schema, fqn, &value);
            prop_assert!(again.is_ok(), "{fqn}: {value} does not encode: {again:?}");
            let back = dynamic::decode(schema, fqn, &again.unwrap());
            prop_assert_eq!(back.ok(), Some(value));
        }
    }
}

#[test]
fn a_typo_in_a_key_is_refused_only_by_the_strict_encoder() {
    let (schema, _) = &schemas()[0];
    let value = serde_json::json!({"type": "result", "intent": "i", "parameters": "{}",
                                   "metadata": "", "confidance": 0.1});
    assert!(dynamic::encode(schema, "CloudMic::Message", &value).is_ok());
    let e = dynamic::encode_strict(schema, "CloudMic::Message", &value).unwrap_err();
    assert_eq!(e.path, "CloudMic::Message.result");
    assert!(e.message.starts_with("unknown key \"confidance\""), "{e}");
    // A union member that is not a structure has only `type` and `value`.
    let mut loader =
        clad_codegen::MemoryLoader::new().file("v.clad", "union V { int_8 n, string s }\n");
    let v = compile(&mut loader, "v.clad").schema.unwrap();
    let ok = serde_json::json!({"type": "n", "value": 3});
    assert_eq!(dynamic::encode_strict(&v, "V", &ok).unwrap(), [0, 3]);
    let typo = serde_json::json!({"type": "n", "valeu": 3});
    assert!(dynamic::encode(&v, "V", &typo).is_ok());
    let e = dynamic::encode_strict(&v, "V", &typo).unwrap_err();
    assert_eq!(
        e.to_string(),
        "V.n: unknown key \"valeu\" (expected one of: type, value)"
    );
}
