//! `#[serde(with = "clad_runtime::json::array_value")]` on a union variant holding a fixed
//! array longer than 32 elements: `{"value": [...]}`, like [`json::value`](crate::json::value).

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serializer};

/// Serializes `{"value": [...]}`.
pub fn serialize<T, S, const N: usize>(value: &[T; N], serializer: S) -> Result<S::Ok, S::Error>
where
    T: serde::Serialize,
    S: Serializer,
{
    let mut state = serializer.serialize_struct("Value", 1)?;
    state.serialize_field("value", &value[..])?;
    state.end()
}

#[derive(Deserialize)]
#[serde(rename = "Value")]
struct Wrapper<T> {
    value: Vec<T>,
}

/// Deserializes `{"value": [...]}` with exactly `N` elements.
pub fn deserialize<'de, T, D, const N: usize>(deserializer: D) -> Result<[T; N], D::Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let items = Wrapper::<T>::deserialize(deserializer)?.value;
    let len = items.len();
    items.try_into().map_err(|_| {
        <D::Error as serde::de::Error>::custom(format_args!(
            "expected an array of {N} elements, found {len}"
        ))
    })
}
