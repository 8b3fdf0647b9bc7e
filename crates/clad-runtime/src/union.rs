//! [`CladUnion`]: what every generated union offers generically, so runtime components (the
//! user-intent component, routers, loggers) can serve any schema's union, ours or a user's.

use std::borrow::Cow;
use std::fmt::Debug;
use std::hash::Hash;

/// Implemented by every generated CLAD union.
///
/// ```
/// use clad_runtime::union::CladUnion;
///
/// fn describe<U: CladUnion>(u: &U) -> String {
///     format!("{} holding {}", U::NAME, U::tag_name(u.tag()))
/// }
/// ```
pub trait CladUnion: Sized {
    /// The generated `<Name>Tag` enum.
    type Tag: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static;

    /// The union's fully qualified CLAD name.
    const NAME: &'static str;

    /// Every tag, in member order.
    const TAGS: &'static [Self::Tag];

    /// The member this value holds.
    fn tag(&self) -> Self::Tag;

    /// The member's schema name (`"set_timer"`).
    fn tag_name(tag: Self::Tag) -> &'static str;

    /// The tag of the member with this schema name.
    fn tag_from_name(name: &str) -> Option<Self::Tag>;

    /// The tag byte on the wire.
    fn tag_value(tag: Self::Tag) -> u8;

    /// The member `tag` holding its default payload. Allocation-free for payloads without
    /// strings or variable arrays (e.g. empty structures).
    fn default_for(tag: Self::Tag) -> Self;

    /// True when the member's payload is a message/structure (its fields are flattened next
    /// to `"type"` in CLAD-JSON); false when it is carried under `"value"`.
    fn payload_is_struct(tag: Self::Tag) -> bool;

    /// Deserializes member `tag` from its payload structure's fields alone (`fields` is a
    /// deserializer for the structure, without the `"type"` key), skipping the buffering of
    /// serde's internally tagged form. Returns `None`, without touching `fields`, when the
    /// member's payload is not a structure; the default implementation always does, so
    /// callers fall back to the union's own `Deserialize`. Generated unions implement it;
    /// the intent translator uses it to build payloads.
    fn deserialize_struct_member<'de, D>(
        tag: Self::Tag,
        fields: D,
    ) -> Option<Result<Self, D::Error>>
    where
        D: serde::Deserializer<'de>,
    {
        let _ = (tag, fields);
        None
    }

    /// Builds member `tag` from some of its payload structure's fields, each given by its
    /// schema name and its text, as [`CladUnion::deserialize_struct_member`] builds it from a
    /// map of those names to those texts (serde's `MapDeserializer` of `(&str, Cow<str>)`):
    /// the structure's default, each named field then read from its text as CLAD-JSON
    /// reads a JSON string into that field (a string field takes the text as it is; any
    /// other type is deserialized from the string, with serde's errors), an unknown name
    /// ignored and a name given twice an error (`duplicate field`). Same members, same
    /// errors, without serde's map machinery: a string field is a move or one copy.
    ///
    /// Returns `None`, without touching `fields`, when the member's payload is not a
    /// structure or when the generator left it to serde (user attributes on the structure
    /// or its fields may change how serde reads it); the default implementation always
    /// does, and callers then use [`CladUnion::deserialize_struct_member`].
    fn struct_member_from_text<'f, 't, I, E>(tag: Self::Tag, fields: I) -> Option<Result<Self, E>>
    where
        I: IntoIterator<Item = (&'f str, Cow<'t, str>)>,
        E: serde::de::Error,
    {
        let _ = (tag, fields);
        None
    }
}

/// What generated [`CladUnion::deserialize_struct_member`] implementations call for each
/// structure member: deserializes the payload structure `T` from `fields` and wraps it in
/// its variant.
#[inline]
pub fn struct_member<'de, T, U, D>(fields: D, variant: fn(T) -> U) -> Result<U, D::Error>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    T::deserialize(fields).map(variant)
}
