//! `#[serde(with = "clad_runtime::json::float_array_value")]` on a union variant holding a
//! fixed array of more than 32 floats: `{"value": [...]}` with the CLAD-JSON float rules,
//! like [`json::float_value`](crate::json::float_value), but without requiring `Default`
//! (which `[T; N]` lacks for `N > 32`), so the `"value"` key is required.

use serde::{Deserialize, Deserializer, Serializer};

use super::float::{FromJsonFloat, JsonFloat};

/// Serializes `value` as the object `{"value": value}` with the float rules.
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: JsonFloat,
    S: Serializer,
{
    super::float_value::serialize(value, serializer)
}

#[derive(Deserialize)]
#[serde(rename = "Value", bound = "T: JsonFloat")]
struct Wrapper<T: JsonFloat> {
    value: FromJsonFloat<T>,
}

/// Deserializes the object `{"value": …}` with the float rules (other keys are ignored).
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: JsonFloat,
    D: Deserializer<'de>,
{
    Wrapper::<T>::deserialize(deserializer).map(|w| w.value.0)
}
