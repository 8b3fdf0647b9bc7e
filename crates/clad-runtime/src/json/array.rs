//! `#[serde(with = "clad_runtime::json::array")]` for fixed arrays `[T; N]` of any length
//! (serde's own impls stop at 32 elements). The JSON form is a plain array of exactly `N`
//! elements.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes the array as a sequence.
pub fn serialize<T, S, const N: usize>(value: &[T; N], serializer: S) -> Result<S::Ok, S::Error>
where
    T: Serialize,
    S: Serializer,
{
    value[..].serialize(serializer)
}

/// Deserializes a sequence of exactly `N` elements.
pub fn deserialize<'de, T, D, const N: usize>(deserializer: D) -> Result<[T; N], D::Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let items = Vec::<T>::deserialize(deserializer)?;
    let len = items.len();
    items
        .try_into()
        .map_err(|_| D::Error::invalid_length(len, &ExactLen(N)))
}

struct ExactLen(usize);

impl serde::de::Expected for ExactLen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an array of {} elements", self.0)
    }
}
