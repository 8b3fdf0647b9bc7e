//! Floats in CLAD-JSON, generic over the container: `f32`, `f64`, `Vec<_>`, `[_; N]` and
//! any nesting of those.
//!
//! Use it as `#[serde(with = "clad_runtime::json::float")]`; the typed variants
//! [`json::f32`](crate::json::f32) and [`json::f64`](crate::json::f64) accept only
//! containers of that float type.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde::Deserialize;

/// The JSON string for NaN.
pub const NAN: &str = "NaN";
/// The JSON string for positive infinity.
pub const INFINITY: &str = "Infinity";
/// The JSON string for negative infinity.
pub const NEG_INFINITY: &str = "-Infinity";

/// A float, or a `Vec`/array (possibly nested) of floats, with the CLAD-JSON float rules:
/// finite values are JSON numbers (`f32` written as the exact `f64` it widens to), NaN and
/// the infinities are the strings `"NaN"`, `"Infinity"` and `"-Infinity"`. NaN payloads and
/// signs are not preserved in JSON.
pub trait JsonFloat: Sized {
    /// The float type at the leaves (`f32` or `f64`).
    type Scalar;

    /// Serializes `self` with the CLAD-JSON float rules.
    fn serialize_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;

    /// Deserializes with the CLAD-JSON float rules.
    fn deserialize_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// Serializes `value` with [`JsonFloat::serialize_json`] (for `serde(with = …)`).
pub fn serialize<T: JsonFloat, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    value.serialize_json(serializer)
}

/// Deserializes with [`JsonFloat::deserialize_json`] (for `serde(with = …)`).
pub fn deserialize<'de, T: JsonFloat, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize_json(deserializer)
}

/// Adapter that serializes the borrowed value with the CLAD-JSON float rules, for
/// hand-written `Serialize` impls (`state.serialize_field("x", &AsJsonFloat(&self.x))`).
#[derive(Debug, Clone, Copy)]
pub struct AsJsonFloat<'a, T>(pub &'a T);

impl<T: JsonFloat> Serialize for AsJsonFloat<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_json(serializer)
    }
}

/// Adapter that deserializes with the CLAD-JSON float rules, for hand-written
/// `Deserialize` impls (`let FromJsonFloat(x) = map.next_value()?;`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FromJsonFloat<T>(pub T);

impl<'de, T: JsonFloat> Deserialize<'de> for FromJsonFloat<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize_json(deserializer).map(FromJsonFloat)
    }
}

fn serialize_f64<S: Serializer>(v: f64, serializer: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        serializer.serialize_f64(v)
    } else if v.is_nan() {
        serializer.serialize_str(NAN)
    } else if v > 0.0 {
        serializer.serialize_str(INFINITY)
    } else {
        serializer.serialize_str(NEG_INFINITY)
    }
}

/// Accepts a JSON number (integer or float) or one of the three special strings.
struct F64Visitor;

impl Visitor<'_> for F64Visitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number or \"NaN\", \"Infinity\", \"-Infinity\"")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v {
            NAN => Ok(f64::NAN),
            INFINITY => Ok(f64::INFINITY),
            NEG_INFINITY => Ok(f64::NEG_INFINITY),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }
}

impl JsonFloat for f64 {
    type Scalar = f64;

    fn serialize_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_f64(*self, serializer)
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(F64Visitor)
    }
}

impl JsonFloat for f32 {
    type Scalar = f32;

    /// Finite values are written as the `f64` they widen to (exact), e.g. `0.42f32` as
    /// `0.41999998688697815`.
    fn serialize_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_f64(f64::from(*self), serializer)
    }

    /// Parses an `f64` and narrows it to `f32` (round to nearest). A finite number outside
    /// the `float_32` range is an error rather than an infinity.
    fn deserialize_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wide = deserializer.deserialize_any(F64Visitor)?;
        let narrow = wide as f32;
        if narrow.is_infinite() && wide.is_finite() {
            return Err(de::Error::invalid_value(
                de::Unexpected::Float(wide),
                &"a number in the float_32 range",
            ));
        }
        Ok(narrow)
    }
}

impl<T: JsonFloat> JsonFloat for Vec<T> {
    type Scalar = T::Scalar;

    fn serialize_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(AsJsonFloat))
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(VecVisitor(PhantomData))
    }
}

struct VecVisitor<T>(PhantomData<T>);

impl<'de, T: JsonFloat> Visitor<'de> for VecVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of numbers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // The hint comes from the input: cap it.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(FromJsonFloat(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(out)
    }
}

impl<T: JsonFloat, const N: usize> JsonFloat for [T; N] {
    type Scalar = T::Scalar;

    fn serialize_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(AsJsonFloat))
    }

    /// Requires exactly `N` elements.
    fn deserialize_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(ArrayVisitor(PhantomData))
    }
}

struct ArrayVisitor<T, const N: usize>(PhantomData<T>);

impl<'de, T: JsonFloat, const N: usize> Visitor<'de> for ArrayVisitor<T, N> {
    type Value = [T; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of {N} numbers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
        let mut items = Vec::with_capacity(N.min(1024));
        while let Some(FromJsonFloat(v)) = seq.next_element()? {
            if items.len() == N {
                return Err(de::Error::invalid_length(N + 1, &self));
            }
            items.push(v);
        }
        let len = items.len();
        items
            .try_into()
            .map_err(|_| de::Error::invalid_length(len, &self))
    }
}
