//! `#[serde(with = "clad_runtime::json::f32")]` for `float_32` members: `f32`, `Vec<f32>`,
//! `[f32; N]` and nestings of those. See [`JsonFloat`].

use serde::{Deserializer, Serializer};

use super::float::JsonFloat;

/// Serializes with the CLAD-JSON float rules.
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: JsonFloat<Scalar = f32>,
    S: Serializer,
{
    value.serialize_json(serializer)
}

/// Deserializes with the CLAD-JSON float rules.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: JsonFloat<Scalar = f32>,
    D: Deserializer<'de>,
{
    T::deserialize_json(deserializer)
}
