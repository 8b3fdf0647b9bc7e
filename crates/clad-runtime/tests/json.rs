//! Tests for the CLAD-JSON serde helpers.

use clad_runtime::json::{AsJsonFloat, FromJsonFloat};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct F32 {
    #[serde(with = "clad_runtime::json::f32")]
    x: f32,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct F64 {
    #[serde(with = "clad_runtime::json::f64")]
    x: f64,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Floats {
    #[serde(with = "clad_runtime::json::f32")]
    list: Vec<f32>,
    #[serde(with = "clad_runtime::json::f32")]
    fixed: [f32; 3],
    #[serde(with = "clad_runtime::json::f64")]
    nested: Vec<[f64; 2]>,
    #[serde(with = "clad_runtime::json::float")]
    any: Vec<f64>,
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

#[test]
fn f32_is_written_as_the_exact_widened_double() {
    assert_eq!(to_json(&F32 { x: 0.42 }), r#"{"x":0.41999998688697815}"#);
    assert_eq!(to_json(&F32 { x: 0.1 }), r#"{"x":0.10000000149011612}"#);
    assert_eq!(to_json(&F32 { x: 1.5 }), r#"{"x":1.5}"#);
    assert_eq!(
        to_json(&F32 { x: f32::MAX }),
        r#"{"x":3.4028234663852886e+38}"#
    );
    let back: F32 = serde_json::from_str(r#"{"x":0.41999998688697815}"#).unwrap();
    assert_eq!(back.x, 0.42f32);
    // The Python-style exponent form of the conformance data parses as well.
    let back: F32 = serde_json::from_str(r#"{"x":3.4028234663852886e+38}"#).unwrap();
    assert_eq!(back.x, f32::MAX);
    let back: F32 = serde_json::from_str(r#"{"x":1.401298464324817e-45}"#).unwrap();
    assert_eq!(back.x.to_bits(), 1);
    // Integers are numbers too.
    let back: F32 = serde_json::from_str(r#"{"x":3}"#).unwrap();
    assert_eq!(back.x, 3.0);
    let back: F32 = serde_json::from_str(r#"{"x":-3}"#).unwrap();
    assert_eq!(back.x, -3.0);
}

#[test]
fn non_finite_floats_are_strings() {
    assert_eq!(to_json(&F32 { x: f32::NAN }), r#"{"x":"NaN"}"#);
    assert_eq!(to_json(&F32 { x: f32::INFINITY }), r#"{"x":"Infinity"}"#);
    assert_eq!(
        to_json(&F32 {
            x: f32::NEG_INFINITY
        }),
        r#"{"x":"-Infinity"}"#
    );
    assert_eq!(to_json(&F64 { x: -f64::NAN }), r#"{"x":"NaN"}"#);
    assert_eq!(to_json(&F64 { x: f64::INFINITY }), r#"{"x":"Infinity"}"#);
    assert_eq!(
        to_json(&F64 {
            x: f64::NEG_INFINITY
        }),
        r#"{"x":"-Infinity"}"#
    );

    let v: F32 = serde_json::from_str(r#"{"x":"NaN"}"#).unwrap();
    assert!(v.x.is_nan());
    let v: F32 = serde_json::from_str(r#"{"x":"Infinity"}"#).unwrap();
    assert_eq!(v.x, f32::INFINITY);
    let v: F64 = serde_json::from_str(r#"{"x":"-Infinity"}"#).unwrap();
    assert_eq!(v.x, f64::NEG_INFINITY);
}

#[test]
fn float_errors() {
    for bad in [
        r#"{"x":"nan"}"#,
        r#"{"x":"inf"}"#,
        r#"{"x":"1.5"}"#,
        r#"{"x":true}"#,
        r#"{"x":null}"#,
        r#"{"x":[1]}"#,
    ] {
        assert!(serde_json::from_str::<F32>(bad).is_err(), "{bad}");
        assert!(serde_json::from_str::<F64>(bad).is_err(), "{bad}");
    }
    // Finite but beyond float_32: an error, not an infinity.
    let err = serde_json::from_str::<F32>(r#"{"x":1e300}"#).unwrap_err();
    assert!(err.to_string().contains("float_32"), "{err}");
    assert!(serde_json::from_str::<F32>(r#"{"x":-3.5e38}"#).is_err());
    assert!(serde_json::from_str::<F64>(r#"{"x":1e300}"#).is_ok());
}

#[test]
fn negative_zero_keeps_its_sign() {
    let json = to_json(&F32 { x: -0.0 });
    assert_eq!(json, r#"{"x":-0.0}"#);
    let back: F32 = serde_json::from_str(&json).unwrap();
    assert_eq!(back.x.to_bits(), (-0.0f32).to_bits());
}

#[test]
fn float_containers() {
    let v = Floats {
        list: vec![0.42, f32::NEG_INFINITY],
        fixed: [1.0, 2.5, f32::INFINITY],
        nested: vec![[0.1, f64::INFINITY], [-2.0, 3.0]],
        any: vec![],
    };
    let json = to_json(&v);
    assert_eq!(
        json,
        r#"{"list":[0.41999998688697815,"-Infinity"],"fixed":[1.0,2.5,"Infinity"],"nested":[[0.1,"Infinity"],[-2.0,3.0]],"any":[]}"#
    );
    assert_eq!(serde_json::from_str::<Floats>(&json).unwrap(), v);

    // Fixed arrays need exactly N elements.
    for bad in [
        r#"{"list":[],"fixed":[1,2],"nested":[],"any":[]}"#,
        r#"{"list":[],"fixed":[1,2,3,4],"nested":[],"any":[]}"#,
        r#"{"list":[],"fixed":[1,2,3],"nested":[[1]],"any":[]}"#,
        r#"{"list":[1,"x"],"fixed":[1,2,3],"nested":[],"any":[]}"#,
        r#"{"list":{},"fixed":[1,2,3],"nested":[],"any":[]}"#,
    ] {
        assert!(serde_json::from_str::<Floats>(bad).is_err(), "{bad}");
    }
}

#[test]
fn adapters_for_hand_written_impls() {
    let v = vec![f32::NAN, 2.0];
    assert_eq!(
        serde_json::to_string(&AsJsonFloat(&v)).unwrap(),
        r#"["NaN",2.0]"#
    );
    let FromJsonFloat(back): FromJsonFloat<Vec<f32>> =
        serde_json::from_str(r#"["Infinity",2]"#).unwrap();
    assert_eq!(back, [f32::INFINITY, 2.0]);
}

proptest! {
    #[test]
    fn f32_json_round_trip(bits: u32) {
        let x = f32::from_bits(bits);
        let json = to_json(&F32 { x });
        let back: F32 = serde_json::from_str(&json).unwrap();
        if x.is_nan() {
            prop_assert!(back.x.is_nan());
        } else {
            prop_assert_eq!(back.x.to_bits(), bits);
        }
    }

    #[test]
    fn f64_json_round_trip(bits: u64) {
        let x = f64::from_bits(bits);
        let json = to_json(&F64 { x });
        let back: F64 = serde_json::from_str(&json).unwrap();
        if x.is_nan() {
            prop_assert!(back.x.is_nan());
        } else {
            prop_assert_eq!(back.x.to_bits(), bits);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Integers: serde's primitive impls are already strict.
// ---------------------------------------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Ints {
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: i64,
    flag: bool,
}

#[test]
fn integers_are_strict_and_full_precision() {
    let max = Ints {
        a: u8::MAX,
        b: i8::MIN,
        c: u16::MAX,
        d: i16::MIN,
        e: u32::MAX,
        f: i32::MIN,
        g: u64::MAX,
        h: i64::MIN,
        flag: true,
    };
    let json = to_json(&max);
    assert_eq!(
        json,
        r#"{"a":255,"b":-128,"c":65535,"d":-32768,"e":4294967295,"f":-2147483648,"g":18446744073709551615,"h":-9223372036854775808,"flag":true}"#
    );
    assert_eq!(serde_json::from_str::<Ints>(&json).unwrap(), max);

    let base = json!({"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"flag":false});
    assert!(serde_json::from_value::<Ints>(base.clone()).is_ok());
    let bad_values = [
        ("a", json!(256)),
        ("a", json!(-1)),
        ("b", json!(128)),
        ("b", json!(-129)),
        ("c", json!(70000)),
        ("d", json!(32768)),
        ("e", json!(4294967296u64)),
        ("e", json!(-1)),
        ("f", json!(2147483648u64)),
        ("h", json!(9223372036854775808u64)),
        ("a", json!(1.5)),
        ("e", json!(1.0)),
        ("a", json!("1")),
        ("flag", json!(1)),
        ("a", json!(null)),
    ];
    for (key, value) in bad_values {
        let mut v = base.clone();
        v[key] = value.clone();
        assert!(
            serde_json::from_value::<Ints>(v).is_err(),
            "{key} = {value} must be rejected"
        );
    }
    // Beyond u64 in the text: rejected too.
    let text =
        r#"{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":18446744073709551616,"h":0,"flag":false}"#;
    assert!(serde_json::from_str::<Ints>(text).is_err());
    // Every member must be present.
    assert!(serde_json::from_str::<Ints>(r#"{"a":0}"#).is_err());
}

// ---------------------------------------------------------------------------------------
// Unions: {"type": "<member>", ...}
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
enum TestEnum {
    #[default]
    Zero,
    One,
    Two,
    Five,
}

// structure AnInt { uint_32 value }: a structure whose member happens to be called `value`.
#[allow(non_snake_case)]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnInt {
    value: u32,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct AFloat {
    #[serde(with = "clad_runtime::json::f32")]
    value: f32,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Empty {}

#[allow(non_camel_case_types)]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Inner {
    testUint8(#[serde(with = "clad_runtime::json::value")] u8),
    anInt(AnInt),
}

// Generated unions default to their first member.
impl Default for Inner {
    fn default() -> Self {
        Inner::testUint8(0)
    }
}

#[allow(non_camel_case_types)]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Union {
    anInt(AnInt),
    aFloat(AFloat),
    empty(Empty),
    #[serde(with = "clad_runtime::json::value")]
    testBool(bool),
    #[serde(with = "clad_runtime::json::value")]
    testUint64(u64),
    #[serde(with = "clad_runtime::json::float_value")]
    testFloat32(f32),
    #[serde(with = "clad_runtime::json::float_value")]
    floats(Vec<f64>),
    #[serde(with = "clad_runtime::json::value")]
    text(String),
    #[serde(with = "clad_runtime::json::value")]
    en(TestEnum),
    #[serde(with = "clad_runtime::json::value")]
    list(Vec<u16>),
    #[serde(with = "clad_runtime::json::value")]
    inner(Inner),
}

#[test]
fn unions_round_trip() {
    let cases = [
        (
            Union::anInt(AnInt { value: 0 }),
            r#"{"type":"anInt","value":0}"#,
        ),
        (
            Union::aFloat(AFloat { value: 0.42 }),
            r#"{"type":"aFloat","value":0.41999998688697815}"#,
        ),
        (Union::empty(Empty {}), r#"{"type":"empty"}"#),
        (Union::testBool(true), r#"{"type":"testBool","value":true}"#),
        (
            Union::testUint64(u64::MAX),
            r#"{"type":"testUint64","value":18446744073709551615}"#,
        ),
        (
            Union::testFloat32(f32::NEG_INFINITY),
            r#"{"type":"testFloat32","value":"-Infinity"}"#,
        ),
        (
            Union::floats(vec![0.5, f64::INFINITY]),
            r#"{"type":"floats","value":[0.5,"Infinity"]}"#,
        ),
        (
            Union::text("é\n\"".into()),
            r#"{"type":"text","value":"é\n\""}"#,
        ),
        (Union::en(TestEnum::Five), r#"{"type":"en","value":"Five"}"#),
        (Union::list(vec![1, 2]), r#"{"type":"list","value":[1,2]}"#),
        (
            Union::inner(Inner::testUint8(200)),
            r#"{"type":"inner","value":{"type":"testUint8","value":200}}"#,
        ),
        (
            Union::inner(Inner::anInt(AnInt { value: 7 })),
            r#"{"type":"inner","value":{"type":"anInt","value":7}}"#,
        ),
    ];
    for (value, text) in cases {
        assert_eq!(to_json(&value), text);
        assert_eq!(
            serde_json::from_str::<Union>(text).unwrap(),
            value,
            "{text}"
        );
    }
    // Key order carries no meaning.
    assert_eq!(
        serde_json::from_str::<Union>(r#"{"value":3,"type":"testUint64"}"#).unwrap(),
        Union::testUint64(3)
    );
    // NaN payloads come back as NaN.
    let nan: Union = serde_json::from_str(r#"{"type":"testFloat32","value":"NaN"}"#).unwrap();
    assert!(matches!(nan, Union::testFloat32(x) if x.is_nan()));
}

#[test]
fn union_value_follows_the_struct_rules() {
    // As for structures (and the original SetFromJSON): a missing "value" takes the
    // payload's default, other keys are ignored.
    let u: Union = serde_json::from_str(r#"{"type":"testUint64"}"#).unwrap();
    assert_eq!(u, Union::testUint64(0));
    let u: Union = serde_json::from_str(r#"{"type":"testUint64","value":1,"x":2}"#).unwrap();
    assert_eq!(u, Union::testUint64(1));
    let u: Union = serde_json::from_str(r#"{"type":"testFloat32","x":2}"#).unwrap();
    assert_eq!(u, Union::testFloat32(0.0));
}

#[test]
fn union_errors() {
    for bad in [
        r#"{"type":"nope","value":1}"#,            // unknown member
        r#"{"value":1}"#,                          // no type
        r#"{"type":"INVALID"}"#,                   // INVALID has no JSON form
        r#"{"type":"testUint64","value":-1}"#,     // out of range
        r#"{"type":"testFloat32","value":"inf"}"#, // bad float string
        r#"{"type":"anInt"}"#,                     // flattened member missing
        r#"{"type":"anInt","value":1,"x":2}"#,     // deny_unknown_fields on the structure
        r#"{"type":"testBool","value":1}"#,
        r#"{"type":"en","value":"Three"}"#,
        r#"{"type":"inner","value":{"type":"testUint8","value":256}}"#,
        r#"null"#,
    ] {
        assert!(serde_json::from_str::<Union>(bad).is_err(), "{bad}");
    }
}
