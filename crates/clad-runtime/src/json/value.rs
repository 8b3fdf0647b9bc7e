//! `#[serde(with = "clad_runtime::json::value")]` on a union variant whose member is not
//! a message or structure (builtin, string, enum, union or array): the payload goes under
//! the `"value"` key, next to the `"type"` key that `#[serde(tag = "type")]` adds.
//!
//! For float payloads use [`json::float_value`](crate::json::float_value) instead.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes `value` as the object `{"value": value}`.
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: Serialize + ?Sized,
    S: Serializer,
{
    let mut state = serializer.serialize_struct("Value", 1)?;
    state.serialize_field("value", value)?;
    state.end()
}

#[derive(Deserialize)]
#[serde(rename = "Value")]
struct Wrapper<T: Default> {
    #[serde(default)]
    value: T,
}

/// Deserializes the object `{"value": …}` and returns the payload. As for structures, other
/// keys are ignored and a missing `"value"` gives the payload's default.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Deserialize<'de> + Default,
    D: Deserializer<'de>,
{
    Wrapper::<T>::deserialize(deserializer).map(|w| w.value)
}
