//! [`ParamValue`]: one parameter value, borrowed from the input where it can be, and its
//! serde impls (read from the `parameters` text, fed to the payload's `Deserialize`).

use super::*;

/// One parameter value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ParamValue<'de> {
    Str(Cow<'de, str>),
    I64(i64),
    U64(u64),
    F64(f64),
    Bool(bool),
    Null,
    /// Arrays and objects (rare: cloud parameters are strings).
    Json(Box<serde_json::Value>),
    /// A borrowed array or object (see [`ParamValue::view`]).
    JsonRef(&'de serde_json::Value),
}

impl ParamValue<'_> {
    /// The same value, borrowing strings and JSON trees (no allocation).
    pub fn view(&self) -> ParamValue<'_> {
        match self {
            Self::Str(s) => ParamValue::Str(Cow::Borrowed(s.as_ref())),
            Self::I64(v) => ParamValue::I64(*v),
            Self::U64(v) => ParamValue::U64(*v),
            Self::F64(v) => ParamValue::F64(*v),
            Self::Bool(v) => ParamValue::Bool(*v),
            Self::Null => ParamValue::Null,
            Self::Json(v) => ParamValue::JsonRef(v),
            Self::JsonRef(v) => ParamValue::JsonRef(v),
        }
    }

    pub(super) fn to_text(&self) -> String {
        match self {
            Self::Str(s) => s.to_string(),
            Self::I64(v) => v.to_string(),
            Self::U64(v) => v.to_string(),
            Self::F64(v) => v.to_string(),
            Self::Bool(v) => v.to_string(),
            Self::Null => "null".into(),
            Self::Json(v) => v.to_string(),
            Self::JsonRef(v) => v.to_string(),
        }
    }
}

impl From<Number> for ParamValue<'_> {
    fn from(n: Number) -> Self {
        match n {
            Number::I64(v) => Self::I64(v),
            Number::U64(v) => Self::U64(v),
            Number::F64(v) => Self::F64(v),
        }
    }
}

impl<'de> Deserialize<'de> for ParamValue<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ParamValueVisitor)
    }
}

pub(super) struct ParamValueVisitor;

impl<'de> Visitor<'de> for ParamValueVisitor {
    type Value = ParamValue<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(ParamValue::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(ParamValue::I64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(ParamValue::U64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(ParamValue::F64(v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(ParamValue::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(ParamValue::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(ParamValue::Str(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(ParamValue::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(ParamValue::Null)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        serde_json::Value::deserialize(MapAccessDeserializer::new(map))
            .map(|v| ParamValue::Json(Box::new(v)))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        serde_json::Value::deserialize(SeqAccessDeserializer::new(seq))
            .map(|v| ParamValue::Json(Box::new(v)))
    }
}

/// A value presented to the payload's `Deserialize` impl. Borrowed strings are offered as
/// `visit_borrowed_str`, so serde's internally-tagged buffering keeps them borrowed.
impl<'de> Deserializer<'de> for ParamValue<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Self::Str(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Self::Str(Cow::Owned(s)) => visitor.visit_string(s),
            Self::I64(v) => visitor.visit_i64(v),
            Self::U64(v) => visitor.visit_u64(v),
            Self::F64(v) => visitor.visit_f64(v),
            Self::Bool(v) => visitor.visit_bool(v),
            Self::Null => visitor.visit_unit(),
            Self::Json(v) => (*v).deserialize_any(visitor),
            Self::JsonRef(v) => v.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Self::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    /// CLAD enums are written by name: a string is a unit variant (as `serde_json` reads
    /// it). Derived enum visitors only accept `visit_enum`, so forwarding to
    /// `deserialize_any` (`visit_str`) would reject every enum field.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Self::Str(Cow::Borrowed(s)) => {
                visitor.visit_enum(de::value::BorrowedStrDeserializer::new(s))
            }
            Self::Str(Cow::Owned(s)) => visitor.visit_enum(de::value::StringDeserializer::new(s)),
            Self::Json(v) => (*v).deserialize_enum(name, variants, visitor),
            Self::JsonRef(v) => v.deserialize_enum(name, variants, visitor),
            other => other.deserialize_any(visitor),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// A payload key: a field name (usually `&'static`) or a parameter name.
pub(super) struct Key<'de>(pub(super) Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}
