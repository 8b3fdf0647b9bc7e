//! CLAD-JSON support for serde-derived impls of generated types.
//!
//! CLAD-JSON (the canonical JSON of the conformance vectors) maps:
//!
//! | CLAD | JSON | what generated code writes |
//! |---|---|---|
//! | message / structure | object, key = member name as in the schema, every member present | `#[derive(Serialize, Deserialize)]` + `#[serde(rename = "memberName")]` per field, `#[serde(default)]` on the struct (a missing key takes the schema default; unknown keys are ignored) |
//! | `bool`, `int_*`, `uint_*` | `true`/`false`, integers at full 64-bit precision | nothing: serde's primitive impls already reject out-of-range numbers (`300` for a `u8`), fractions and other types |
//! | `float_32`, `float_64` (also in arrays) | numbers; `"NaN"`, `"Infinity"`, `"-Infinity"` | `#[serde(with = "clad_runtime::json::f32")]` / [`json::f64`](self::f64) (works for `f32`, `Vec<f32>`, `[f32; N]`, nested) |
//! | enum | the enumerator name | `#[serde(rename = "name")]` on each unit variant |
//! | string | string | nothing |
//! | arrays | arrays (always present, even empty) | nothing (floats: see above) |
//! | union | `{"type": "<member>", …}`: a message/structure member's fields are flattened into the object; any other member is under `"value"` | `#[serde(tag = "type")]` on the enum, `#[serde(rename = "member")]` per variant, plus `#[serde(with = "clad_runtime::json::value")]` (or [`float_value`] for float payloads, [`array_value`]/[`float_array_value`] for fixed arrays longer than 32) on the variants that are not messages/structures |
//!
//! Notes for the code generator:
//! * Whether a union member is flattened or under `"value"` follows from the schema (the
//!   member's type), never from the keys present: a structure with a member named `value`
//!   is still flattened.
//! * An empty message used as a union member must be a braced struct (`struct Empty {}`),
//!   not a unit struct, so the internally tagged form `{"type": "…"}` round-trips.
//! * The INVALID (empty) union has no CLAD-JSON form.
//! * f32 values are written as the exact `f64` they widen to (`0.42f32` →
//!   `0.41999998688697815`) and read by parsing an `f64` and narrowing, so they round-trip
//!   bit-exactly (except NaN payloads/signs). For bit-exact `f64` parsing, serde_json needs
//!   its `float_roundtrip` feature.
//!
//! This module depends on serde only; it works with any self-describing serde format.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! // enum uint_8 Color { Red = 1, Green, Blue }
//! // (generated enums default to their first member)
//! #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
//! enum Color {
//!     #[default]
//!     #[serde(rename = "Red")] Red,
//!     #[serde(rename = "Green")] Green,
//!     #[serde(rename = "Blue")] Blue,
//! }
//!
//! // structure Circle { float_32 radius }
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! struct Circle {
//!     #[serde(rename = "radius", with = "clad_runtime::json::f32")]
//!     radius: f32,
//! }
//!
//! // union Shape { Circle circle, uint_16 side, Color color, float_32 ratio }
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! #[serde(tag = "type")]
//! enum Shape {
//!     #[serde(rename = "circle")]
//!     Circle(Circle),
//!     #[serde(rename = "side", with = "clad_runtime::json::value")]
//!     Side(u16),
//!     #[serde(rename = "color", with = "clad_runtime::json::value")]
//!     Color(Color),
//!     #[serde(rename = "ratio", with = "clad_runtime::json::float_value")]
//!     Ratio(f32),
//! }
//!
//! // structure Robot { uint_64 id, float_32 samples[uint_8], Shape shape }
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! struct Robot {
//!     #[serde(rename = "id")]
//!     id: u64,
//!     #[serde(rename = "samples", with = "clad_runtime::json::f32")]
//!     samples: Vec<f32>,
//!     #[serde(rename = "shape")]
//!     shape: Shape,
//! }
//!
//! let robot = Robot {
//!     id: u64::MAX,
//!     samples: vec![0.42, f32::INFINITY],
//!     shape: Shape::Circle(Circle { radius: 1.5 }),
//! };
//! let json = serde_json::to_string(&robot).unwrap();
//! assert_eq!(
//!     json,
//!     r#"{"id":18446744073709551615,"samples":[0.41999998688697815,"Infinity"],"shape":{"type":"circle","radius":1.5}}"#
//! );
//! assert_eq!(serde_json::from_str::<Robot>(&json).unwrap(), robot);
//!
//! let side: Shape = serde_json::from_str(r#"{"type":"side","value":7}"#).unwrap();
//! assert_eq!(side, Shape::Side(7));
//! assert!(serde_json::from_str::<Shape>(r#"{"type":"side","value":70000}"#).is_err());
//! let ratio: Shape = serde_json::from_str(r#"{"type":"ratio","value":"NaN"}"#).unwrap();
//! assert!(matches!(ratio, Shape::Ratio(r) if r.is_nan()));
//! ```

pub mod array;
pub mod array_value;
pub mod f32;
pub mod f64;
pub mod float;
pub mod float_array_value;
pub mod float_value;
pub mod value;

pub use float::{AsJsonFloat, FromJsonFloat, JsonFloat};
