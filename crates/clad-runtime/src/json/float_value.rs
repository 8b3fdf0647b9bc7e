//! `#[serde(with = "clad_runtime::json::float_value")]` on a union variant whose member is
//! a `float_32`/`float_64` (or an array of them): like [`json::value`](crate::json::value),
//! with the CLAD-JSON float rules for the payload.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serializer};

use super::float::{AsJsonFloat, FromJsonFloat, JsonFloat};

/// Serializes `value` as the object `{"value": value}` with the float rules.
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: JsonFloat,
    S: Serializer,
{
    let mut state = serializer.serialize_struct("Value", 1)?;
    state.serialize_field("value", &AsJsonFloat(value))?;
    state.end()
}

#[derive(Deserialize)]
#[serde(rename = "Value", bound = "T: JsonFloat")]
struct Wrapper<T: JsonFloat> {
    value: Option<FromJsonFloat<T>>,
}

/// Deserializes the object `{"value": …}` with the float rules. Other keys are ignored and a
/// missing `"value"` gives the payload's default.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: JsonFloat + Default,
    D: Deserializer<'de>,
{
    Wrapper::<T>::deserialize(deserializer).map(|w| w.value.map(|v| v.0).unwrap_or_default())
}
