//! Property round trips of arbitrary values through every generated message, structure and
//! union (every conformance schema and our edge-case schema).
//!
//! Values are CLAD-JSON made by strategies driven by the IR (the schema compiled at test time
//! with `clad_codegen::compile`): full-range integers with their extremes, arbitrary finite
//! floats (`float_32` values exactly representable), UTF-8 strings with multi-byte
//! characters within the declared maximum, arrays within their maximum, enum members by
//! name and every union member. Each value is read into the generated type and must satisfy
//! `unpack(pack(x)) == x`, `packed_size == pack().len()`, the JSON round trip and canonical
//! JSON (see `clad_conformance::check_roundtrip`). A second test adds NaN and infinities and
//! compares bytes and JSON instead of values.
//!
//! `PROPTEST_CASES` sets the number of cases per type (default 24; union members get a
//! quarter of that each, at least 4).

mod common;

use clad_conformance::RoundTrip;
use common::Gen;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Value;

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Runs `mode` round trips over every type (or only those holding floats) and returns
/// `(types checked, failures)`.
fn run(mode: RoundTrip, only_with_floats: bool) -> (usize, Vec<String>) {
    let gen = Gen {
        special_floats: mode == RoundTrip::SpecialFloats,
    };
    let cases = common::cases(24);
    let mut schemas = common::Schemas::default();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (s, t) in common::all_types() {
        let (schema, id) = schemas.decl(s, t);
        if only_with_floats && !common::decl_has_float(schema, id) {
            continue;
        }
        let mut targets: Vec<(String, BoxedStrategy<Value>, u32)> = Vec::new();
        if let Some(all) = common::decl_strategy(schema, id, gen, None) {
            targets.push((t.clad_name.to_owned(), all, cases));
        }
        // Every union member, whatever the random choice above did.
        for i in 0..common::union_members(schema, id) {
            if let Some(one) = common::decl_strategy(schema, id, gen, Some(i)) {
                targets.push((
                    format!("{} member #{i}", t.clad_name),
                    one,
                    (cases / 4).max(4),
                ));
            }
        }
        if targets.is_empty() {
            continue; // holds an empty union: no values
        }
        checked += 1;
        for (label, strategy, n) in targets {
            let result = runner(n).run(&strategy, |value| {
                match clad_conformance::roundtrip(s.root, s.schema, t.clad_name, &value, mode) {
                    Some(Ok(())) => Ok(()),
                    Some(Err(e)) => Err(TestCaseError::fail(format!("{e}\n  value: {value}"))),
                    None => Err(TestCaseError::fail("type not generated")),
                }
            });
            if let Err(e) = result {
                failures.push(format!("{} {} {label}: {e}", s.root, s.schema));
            }
        }
    }
    (checked, failures)
}

fn report(what: &str, (checked, failures): (usize, Vec<String>)) {
    println!("{what}: {checked} types checked, {} failed", failures.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn arbitrary_values_round_trip_through_every_type() {
    let result = run(RoundTrip::Exact, false);
    // Every type with vectors (the manifest's totals), or at least our own edge cases.
    let expected_min = common::manifest().map_or(1, |m| m.totals.types);
    assert!(
        result.0 >= expected_min,
        "only {} types were checked",
        result.0
    );
    report("exact round trips", result);
}

#[test]
fn nan_and_infinities_round_trip_through_every_type_with_floats() {
    report(
        "round trips with NaN/Infinity",
        run(RoundTrip::SpecialFloats, true),
    );
}

/// The registry covers every type, under its CLAD name, with the IR's sizes.
#[test]
fn wire_constants_match_the_ir() {
    let mut schemas = common::Schemas::default();
    let mut n = 0;
    for (s, t) in common::all_types() {
        let (schema, id) = schemas.decl(s, t);
        let metrics = schema.decl(id).metrics().expect("a sized type").clone();
        let consts = clad_conformance::wire_consts(s.root, s.schema, t.clad_name)
            .unwrap_or_else(|| panic!("{} is not in the registry", t.clad_name));
        assert_eq!(consts.type_name, t.clad_name);
        assert_eq!(
            consts.min_size as u128,
            metrics.min_size.value(),
            "{}",
            t.clad_name
        );
        let fixed = metrics
            .is_fixed_size
            .then(|| metrics.max_size.value() as usize);
        assert_eq!(consts.fixed_size, fixed, "{}", t.clad_name);
        let max = usize::try_from(metrics.max_size.value()).ok();
        assert_eq!(consts.max_size, max, "{}", t.clad_name);
        n += 1;
    }
    if let Some(m) = common::manifest() {
        // The types with vectors (the manifest's totals); modules also hold their includes.
        assert!(n >= m.totals.types, "{n} < {}", m.totals.types);
    }
}
