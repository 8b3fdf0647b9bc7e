//! The payload shape of each union member: the CLAD-JSON keys next to `"type"` and their
//! default values, learned once (when a translator is built) by serializing
//! `U::default_for(tag)` through a serializer that records the fields of the outer object.
//!
//! The translator uses it to know, without any JSON work per message, whether a member is
//! void (no keys: no parameter parsing at all), which parameters are fields (the others are
//! skipped while parsing), which fields a message left at their defaults, and — for the
//! positional fast path — what to put in a field no parameter supplies.

use serde::de::DeserializeOwned;
use serde::ser::{self, Impossible, Serialize, SerializeStruct};

use crate::union::CladUnion;

type Error = serde_json::Error;

fn unsupported<T>() -> Result<T, Error> {
    Err(ser::Error::custom("not a CLAD-JSON union object"))
}

/// One member's payload.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    /// Field names in declaration order (serde derives pass `&'static str`).
    pub fields: Vec<&'static str>,
    /// Each field's default value as JSON (`None` if one did not serialize).
    pub defaults: Option<Vec<serde_json::Value>>,
    /// The payload can be built from a `[tag, field0, field1, ...]` sequence (serde's
    /// internally tagged enums and derived structs accept it); checked once by building the
    /// default payload that way and comparing it with `U::default_for(tag)`.
    pub positional: bool,
}

/// The fields of `value`'s CLAD-JSON object, without the leading `"type"` tag. `None` if
/// `value` does not serialize as a tagged struct (never the case for generated unions).
pub(crate) fn payload_fields<U: Serialize>(value: &U) -> Option<Vec<&'static str>> {
    capture(value, false).map(|(f, _)| f)
}

fn capture<U: Serialize>(
    value: &U,
    with_defaults: bool,
) -> Option<(Vec<&'static str>, Option<Vec<serde_json::Value>>)> {
    let mut out = Captured {
        fields: Vec::new(),
        defaults: with_defaults.then(Vec::new),
    };
    value.serialize(ShapeSerializer { out: &mut out }).ok()?;
    // Internally tagged enums write the tag first.
    if out.fields.first() != Some(&"type") {
        return None;
    }
    out.fields.remove(0);
    if let Some(d) = &mut out.defaults {
        d.remove(0);
    }
    Some((out.fields, out.defaults))
}

/// Shapes of every member of `U`, indexed by wire tag value (`positional` still false).
pub(crate) fn union_shapes<U: CladUnion + Serialize + DeserializeOwned>() -> Vec<Option<Shape>> {
    let mut shapes: Vec<Option<Shape>> = vec![None; 256];
    for &tag in U::TAGS {
        let default = U::default_for(tag);
        shapes[usize::from(U::tag_value(tag))] =
            capture(&default, true).map(|(fields, defaults)| {
                Shape {
                    fields,
                    defaults,
                    // Decided by the translator, which knows how payloads are built.
                    positional: false,
                }
            });
    }
    shapes
}

struct Captured {
    fields: Vec<&'static str>,
    defaults: Option<Vec<serde_json::Value>>,
}

struct ShapeSerializer<'a> {
    out: &'a mut Captured,
}

struct ShapeStruct<'a> {
    out: &'a mut Captured,
}

impl SerializeStruct for ShapeStruct<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.fields.push(key);
        if let Some(d) = &mut self.out.defaults {
            match serde_json::to_value(value) {
                Ok(v) => d.push(v),
                Err(_) => self.out.defaults = None,
            }
        }
        Ok(())
    }

    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

macro_rules! unsupported_scalars {
    ($($name:ident: $ty:ty),* $(,)?) => {
        $(fn $name(self, _v: $ty) -> Result<(), Error> { unsupported() })*
    };
}

impl<'a> ser::Serializer for ShapeSerializer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = ShapeStruct<'a>;
    type SerializeStructVariant = Impossible<(), Error>;

    unsupported_scalars! {
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_f32: f32, serialize_f64: f64, serialize_char: char,
        serialize_str: &str, serialize_bytes: &[u8],
    }

    fn serialize_none(self) -> Result<(), Error> {
        unsupported()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _v: &T) -> Result<(), Error> {
        unsupported()
    }
    fn serialize_unit(self) -> Result<(), Error> {
        unsupported()
    }
    fn serialize_unit_struct(self, _n: &'static str) -> Result<(), Error> {
        unsupported()
    }
    fn serialize_unit_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
    ) -> Result<(), Error> {
        unsupported()
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _n: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _n: &'static str,
        _i: u32,
        _variant: &'static str,
        _v: &T,
    ) -> Result<(), Error> {
        unsupported()
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        unsupported()
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        unsupported()
    }
    fn serialize_tuple_struct(
        self,
        _n: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        unsupported()
    }
    fn serialize_tuple_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        unsupported()
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        unsupported()
    }
    fn serialize_struct(self, _n: &'static str, _len: usize) -> Result<ShapeStruct<'a>, Error> {
        Ok(ShapeStruct { out: self.out })
    }
    fn serialize_struct_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        unsupported()
    }
}
