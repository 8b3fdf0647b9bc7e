//! The borrowed shapes a message is read into before the lenient reading: a JSON message's
//! fields ([`MessageIn`]) and a `data` object's roles ([`RolesIn`]), their strings borrowed
//! from the text when they hold no escapes. Read with serde_json's parser, through visitors
//! that build what serde_json's own `Value` visitor builds for everything else: the same
//! text gives the same values and the same errors as reading it into a `Value`.

use super::data::Roles;
use super::vocab::Role;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// A JSON message as read, before the lenient reading: [`MessageIn`] when it is an object,
/// the value otherwise (reported by its kind). Not boxed: it lives on the stack for one
/// read, and a box would cost an allocation per message.
#[allow(clippy::large_enum_variant)]
pub(super) enum TopIn<'a> {
    Object(MessageIn<'a>),
    Other(Value),
}

/// One field's value: a string (borrowed from the text when it holds no escapes, or from
/// the parsed object), or any other JSON value (owned when read from text: numbers, `null`,
/// an inline `data` object; borrowed from a parsed object).
#[derive(Clone, Debug)]
pub(crate) enum FieldIn<'a> {
    Str(Cow<'a, str>),
    Other(Cow<'a, Value>),
    /// A `data` object, read as roles (only the `data` field is read so).
    Roles(RolesIn<'a>),
    /// A `data` string holding a flat object, as the message definition declares `data`
    /// and rosbridge writes it (`"{\"goal\": \"kitchen\"}"`), its roles read by the
    /// scanner straight from the message's text: `raw` is the string's contents as written
    /// (its quotes escaped, and no other escape), `roles` what [`RolesIn::parse`] reads from
    /// the string's value. The value is the string; only the `data` field is read so, and
    /// [`FieldIn::as_str`] does not borrow it (its value is not in the text as it is).
    TextRoles {
        raw: &'a str,
        roles: RolesIn<'a>,
    },
}

/// The value of a string whose contents `raw` hold no escape but `\"` (a
/// [`FieldIn::TextRoles`]).
pub(crate) fn unescape_quotes(raw: &str) -> String {
    raw.replace("\\\"", "\"")
}

impl FieldIn<'_> {
    /// The value as serde_json would hold it.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            FieldIn::Str(s) => Value::String(s.to_string()),
            FieldIn::Other(v) => v.clone().into_owned(),
            FieldIn::Roles(r) => Value::Object(r.clone().into_map()),
            FieldIn::TextRoles { raw, .. } => Value::String(unescape_quotes(raw)),
        }
    }

    /// The same value, owning its strings.
    pub(crate) fn into_static(self) -> FieldIn<'static> {
        match self {
            FieldIn::Str(s) => FieldIn::Str(Cow::Owned(s.into_owned())),
            FieldIn::Other(v) => FieldIn::Other(Cow::Owned(v.into_owned())),
            FieldIn::Roles(r) => FieldIn::Roles(r.into_static()),
            FieldIn::TextRoles { raw, .. } => FieldIn::Str(Cow::Owned(unescape_quotes(raw))),
        }
    }

    /// The value as a payload field takes it: a string as it is, any other value as its
    /// compact JSON text.
    pub(crate) fn to_text(&self) -> Cow<'_, str> {
        match self {
            FieldIn::Str(s) => Cow::Borrowed(s),
            FieldIn::TextRoles { raw, .. } => Cow::Owned(unescape_quotes(raw)),
            other => Cow::Owned(other.to_value().to_string()),
        }
    }

    /// The string, when the value is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            FieldIn::Str(s) => Some(s),
            _ => None,
        }
    }

    /// True for `null`.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, FieldIn::Other(v) if v.is_null())
    }
}

/// A `data` object's entries (role key → value), sorted by key with the last value of a
/// repeated key, as a serde_json map holds them (serde_json's map is sorted: see the test
/// `serde_json_maps_are_sorted`).
#[derive(Clone, Debug, Default)]
pub(crate) struct RolesIn<'a> {
    entries: Vec<RoleIn<'a>>,
}

/// An empty vector of role entries kept from one message to the next, so that reading a
/// message's roles does not allocate (and its drop does not free): the intake lends it to the
/// scanner ([`SpareRoles::lend`]) and keeps the read entries' vector, emptied, when it is done
/// with them ([`SpareRoles::keep`]). Entries borrow the text they were read from; the vector
/// is kept empty, so it borrows nothing, and each loan gives it the lifetime of the next text.
#[derive(Debug, Default)]
pub(crate) struct SpareRoles(Vec<RoleIn<'static>>);

impl SpareRoles {
    /// The kept vector (empty; no room the first time), for a text's entries.
    #[inline]
    pub(crate) fn lend<'a>(&mut self) -> Vec<RoleIn<'a>> {
        relabel(std::mem::take(&mut self.0))
    }

    /// Keeps `entries`' room for the next message (its entries dropped), unless the vector
    /// kept already has as much.
    #[inline]
    pub(crate) fn keep(&mut self, entries: Vec<RoleIn<'_>>) {
        if entries.capacity() > self.0.capacity() {
            self.0 = relabel(entries);
        }
    }
}

/// `entries`, emptied, as a vector of entries borrowing for another lifetime: the same
/// allocation, its room kept (the test `spare_roles_keep_their_room` holds it to that).
///
/// Written with `Vec::from_raw_parts` rather than std's collection in place (which reuses
/// the allocation too, safely): that one costs about 76 instructions a call even for an empty
/// vector, measured, which is more than half of the allocation the spare vector saves.
#[inline]
fn relabel<'b>(mut entries: Vec<RoleIn<'_>>) -> Vec<RoleIn<'b>> {
    entries.clear();
    let mut entries = std::mem::ManuallyDrop::new(entries);
    let (block, room) = (entries.as_mut_ptr(), entries.capacity());
    // SAFETY: `RoleIn<'_>` and `RoleIn<'b>` are one type but for a lifetime, so they have
    // one size and one alignment, and the block was allocated by the global allocator for
    // `room` of them (it comes from a `Vec` of them, which `ManuallyDrop` keeps from freeing
    // it). The length is 0: no entry, so nothing that borrows for the old lifetime, is
    // reachable through the new vector.
    unsafe { Vec::from_raw_parts(block.cast::<RoleIn<'b>>(), 0, room) }
}

/// One entry of [`RolesIn`]: its key, the role the key names (found once, when read: the
/// role table's check and the de-duplication key both ask), and its value.
#[derive(Clone, Debug)]
pub(crate) struct RoleIn<'a> {
    pub(crate) key: Cow<'a, str>,
    pub(crate) role: Option<Role>,
    pub(crate) value: FieldIn<'a>,
}

impl<'a> RoleIn<'a> {
    pub(super) fn new(key: Cow<'a, str>, value: FieldIn<'a>) -> RoleIn<'a> {
        RoleIn {
            role: Role::from_key(&key),
            key,
            value,
        }
    }
}

impl<'a> RolesIn<'a> {
    /// The entries of a parsed object, borrowed.
    pub(crate) fn from_map(map: &'a Map<String, Value>) -> RolesIn<'a> {
        let entries = map
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::String(s) => FieldIn::Str(Cow::Borrowed(s.as_str())),
                    other => FieldIn::Other(Cow::Borrowed(other)),
                };
                RoleIn::new(Cow::Borrowed(k.as_str()), v)
            })
            .collect();
        RolesIn { entries }
    }

    /// No entries yet, to be read onto `entries` (an empty vector lent by [`SpareRoles`],
    /// whose room the entries then take).
    pub(super) fn onto(entries: Vec<RoleIn<'a>>) -> RolesIn<'a> {
        debug_assert!(entries.is_empty());
        RolesIn { entries }
    }

    /// Entries in the order read: sorted by key, the last of a repeated key kept.
    pub(super) fn from_read(entries: Vec<RoleIn<'a>>) -> RolesIn<'a> {
        let mut roles = RolesIn { entries };
        roles.settle();
        roles
    }

    /// The entries, to push the ones read onto ([`RolesIn::settle`] after).
    pub(super) fn read_into(&mut self) -> &mut Vec<RoleIn<'a>> {
        &mut self.entries
    }

    /// Puts entries pushed in the order read ([`RolesIn::read_into`]) as a map holds them:
    /// sorted by key, the last of a repeated key kept.
    pub(super) fn settle(&mut self) {
        let entries = &mut self.entries;
        // Usually written in order already (a serializer writes a map's keys sorted): one
        // comparison per neighbour then, no sort.
        let in_order = entries.windows(2).all(|w| w[0].key < w[1].key);
        if !in_order {
            entries.sort_by(|a, b| a.key.cmp(&b.key));
            // `dedup_by` removes the later of two equal neighbours: the later value is
            // swapped into the one kept first.
            entries.dedup_by(|later, kept| {
                let same = later.key == kept.key;
                if same {
                    std::mem::swap(later, kept);
                }
                same
            });
        }
    }

    /// The same roles, owning their strings.
    pub(crate) fn into_static(self) -> RolesIn<'static> {
        let entries = self
            .entries
            .into_iter()
            .map(|e| RoleIn {
                key: Cow::Owned(e.key.into_owned()),
                role: e.role,
                value: e.value.into_static(),
            })
            .collect();
        RolesIn { entries }
    }

    /// The entries, sorted by key.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &FieldIn<'a>)> {
        self.entries.iter().map(|e| (&*e.key, &e.value))
    }

    /// The entries, sorted by key, with the role each key names.
    pub(crate) fn entries(&self) -> &[RoleIn<'a>] {
        &self.entries
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&FieldIn<'a>> {
        self.entries.iter().find(|e| e.key == key).map(|e| &e.value)
    }

    /// True when `role`'s key is present.
    pub(crate) fn has_role(&self, role: Role) -> bool {
        self.entries.iter().any(|e| e.role == Some(role))
    }

    /// The owned roles ([`Roles`]: their strings copied into one buffer).
    pub(crate) fn into_roles(mut self) -> Roles {
        Roles::from_read(&mut self)
    }

    /// The owned roles, the entries taken out of `self` (its vector stays, empty, for
    /// [`SpareRoles::keep`]).
    pub(crate) fn take_roles(&mut self) -> Roles {
        Roles::from_read(self)
    }

    /// The entries' vector, emptied, for [`SpareRoles::keep`].
    pub(crate) fn take_entries(&mut self) -> Vec<RoleIn<'a>> {
        std::mem::take(&mut self.entries)
    }

    /// The entries, taken out in order (the vector keeps its room).
    pub(super) fn drain(&mut self) -> std::vec::Drain<'_, RoleIn<'a>> {
        self.entries.drain(..)
    }

    /// The map serde_json would have read.
    ///
    /// Inserted one by one: the entries are already sorted and without repeats, and a few
    /// inserts into one node cost less than `collect`, which gathers them into a vector,
    /// sorts it and builds the tree from it.
    pub(crate) fn into_map(self) -> Map<String, Value> {
        let mut map = Map::new();
        for RoleIn { key, value, .. } in self.entries {
            let value = match value {
                FieldIn::Str(s) => Value::String(s.into_owned()),
                FieldIn::Other(v) => v.into_owned(),
                FieldIn::Roles(r) => Value::Object(r.into_map()),
                FieldIn::TextRoles { raw, .. } => Value::String(unescape_quotes(raw)),
            };
            map.insert(key.into_owned(), value);
        }
        map
    }

    /// Reads `data` text: its roles, or what `serde_json::from_str::<Value>` reports (the
    /// value found when it is no object, or the parser's error). The common shape (a flat
    /// object of strings and plain numbers) is read by [`super::scan::roles`], the rest by
    /// serde_json.
    pub(crate) fn parse(text: &'a str) -> Result<Result<RolesIn<'a>, Value>, serde_json::Error> {
        match super::scan::roles(text) {
            Some(roles) => Ok(Ok(roles)),
            None => RolesIn::parse_with_serde_json(text),
        }
    }

    /// [`RolesIn::parse`] through serde_json's parser alone.
    pub(super) fn parse_with_serde_json(
        text: &'a str,
    ) -> Result<Result<RolesIn<'a>, Value>, serde_json::Error> {
        serde_json::from_str::<DataTop<'a>>(text).map(|d| match d {
            DataTop::Roles(r) => Ok(r),
            DataTop::Other(v) => Err(v),
        })
    }
}

/// `data` text as read: an object's roles, or any other value.
enum DataTop<'a> {
    Roles(RolesIn<'a>),
    Other(Value),
}

impl<'de> serde::Deserialize<'de> for DataTop<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match d.deserialize_any(DataVisitor)? {
            FieldIn::Roles(r) => Ok(DataTop::Roles(r)),
            other => Ok(DataTop::Other(other.to_value())),
        }
    }
}

/// The value of a `data` field: an object read as roles, anything else as a field.
struct DataVisitor;

impl<'de> Visitor<'de> for DataVisitor {
    type Value = FieldIn<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FieldIn<'de>, A::Error> {
        let mut entries = Vec::new();
        while let Some(KeyIn(key)) = map.next_key::<KeyIn<'de>>()? {
            entries.push(RoleIn::new(key, map.next_value::<FieldIn<'de>>()?));
        }
        Ok(FieldIn::Roles(RolesIn::from_read(entries)))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_borrowed_str(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_string(v)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_f64(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_unit()
    }

    fn visit_none<E: de::Error>(self) -> Result<FieldIn<'de>, E> {
        FieldVisitor.visit_none()
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<FieldIn<'de>, D::Error> {
        d.deserialize_any(FieldVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<FieldIn<'de>, A::Error> {
        FieldVisitor.visit_seq(seq)
    }
}

/// Reads a `data` field's value ([`DataVisitor`]).
struct DataField<'a>(FieldIn<'a>);

impl<'de> serde::Deserialize<'de> for DataField<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DataVisitor).map(DataField)
    }
}

/// The fields of a JSON message, each by its name in [`HriIntent::FIELDS`] (the last value
/// of a repeated key, as a JSON object keeps it), and the keys that are none of them.
#[derive(Default)]
pub(super) struct MessageIn<'a> {
    pub(super) intent: Option<FieldIn<'a>>,
    pub(super) data: Option<FieldIn<'a>>,
    pub(super) source: Option<FieldIn<'a>>,
    pub(super) modality: Option<FieldIn<'a>>,
    pub(super) priority: Option<FieldIn<'a>>,
    pub(super) confidence: Option<FieldIn<'a>>,
    pub(super) action: Option<FieldIn<'a>>,
    /// In the order read (repeats included); [`MessageIn::read`] reports them in the order
    /// and number a parsed object's keys have.
    pub(super) unknown: Vec<Cow<'a, str>>,
}

impl<'a> MessageIn<'a> {
    /// Stores a field's value; gives it back when `key` is no field of the message.
    pub(super) fn set(&mut self, key: &str, value: FieldIn<'a>) -> Option<FieldIn<'a>> {
        let slot = match key {
            "intent" => &mut self.intent,
            "data" => &mut self.data,
            "source" => &mut self.source,
            "modality" => &mut self.modality,
            "priority" => &mut self.priority,
            "confidence" => &mut self.confidence,
            "action" => &mut self.action,
            _ => return Some(value),
        };
        *slot = Some(value);
        None
    }
}

impl<'de> serde::Deserialize<'de> for TopIn<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TopVisitor)
    }
}

/// Reads an object into a [`MessageIn`], anything else into a `Value` (as serde_json's own
/// visitor would).
struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = TopIn<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopIn<'de>, A::Error> {
        let mut message = MessageIn::default();
        while let Some(KeyIn(key)) = map.next_key::<KeyIn<'de>>()? {
            let value = if key == "data" {
                map.next_value::<DataField<'de>>()?.0
            } else {
                map.next_value::<FieldIn<'de>>()?
            };
            if message.set(&key, value).is_some() {
                message.unknown.push(key);
            }
        }
        Ok(TopIn::Object(message))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TopIn<'de>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(TopIn::Other)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<TopIn<'de>, E> {
        Ok(TopIn::Other(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<TopIn<'de>, E> {
        Ok(TopIn::Other(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<TopIn<'de>, E> {
        Ok(TopIn::Other(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<TopIn<'de>, E> {
        Ok(TopIn::Other(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<TopIn<'de>, E> {
        Ok(TopIn::Other(Value::String(v.to_owned())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<TopIn<'de>, E> {
        Ok(TopIn::Other(Value::Null))
    }
}

/// An object key, borrowed from the text when it holds no escapes.
pub(super) struct KeyIn<'a>(Cow<'a, str>);

impl<'de> serde::Deserialize<'de> for KeyIn<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(StrVisitor).map(KeyIn)
    }
}

/// A string, borrowed when the deserializer lends it.
struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

impl<'de> serde::Deserialize<'de> for FieldIn<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FieldVisitor)
    }
}

/// A field's value: strings borrowed when possible, every other value built as
/// serde_json's own `Value` visitor builds it (same values, same errors).
struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = FieldIn<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Str(Cow::Owned(v)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Other(Cow::Owned(Value::Bool(v))))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Other(Cow::Owned(Value::from(v))))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Other(Cow::Owned(Value::from(v))))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Other(Cow::Owned(Value::from(v))))
    }

    fn visit_unit<E: de::Error>(self) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Other(Cow::Owned(Value::Null)))
    }

    fn visit_none<E: de::Error>(self) -> Result<FieldIn<'de>, E> {
        Ok(FieldIn::Other(Cow::Owned(Value::Null)))
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<FieldIn<'de>, D::Error> {
        d.deserialize_any(FieldVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<FieldIn<'de>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(|v| FieldIn::Other(Cow::Owned(v)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FieldIn<'de>, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(|v| FieldIn::Other(Cow::Owned(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spare vector keeps its allocation from one text's entries to the next: lent,
    /// filled, kept, lent again, it is the same block with the same room.
    #[test]
    fn spare_roles_keep_their_room() {
        let mut spare = SpareRoles::default();
        let first = String::from("first text");
        let mut entries = spare.lend();
        assert_eq!(entries.capacity(), 0);
        entries.reserve(4);
        entries.push(RoleIn::new(
            Cow::Borrowed(&first[..5]),
            FieldIn::Str(Cow::Borrowed(&first[6..])),
        ));
        let (block, room) = (entries.as_ptr() as usize, entries.capacity());
        spare.keep(entries);
        drop(first);
        let second = String::from("second");
        let mut entries = spare.lend();
        assert!(entries.is_empty());
        assert_eq!(
            (entries.as_ptr() as usize, entries.capacity()),
            (block, room)
        );
        entries.push(RoleIn::new(
            Cow::Borrowed(&second),
            FieldIn::Str(Cow::Borrowed(&second)),
        ));
        spare.keep(entries);
        // A smaller vector does not replace a larger one.
        spare.keep(Vec::with_capacity(1));
        assert_eq!(spare.lend().capacity(), room);
    }

    /// [`RolesIn`] keeps its entries as a serde_json map does: sorted by key. A build that
    /// turns on serde_json's `preserve_order` fails here.
    #[test]
    fn serde_json_maps_are_sorted() {
        let map: Map<String, Value> = serde_json::from_str(r#"{"b": 1, "a": 2, "b": 3}"#).unwrap();
        assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "b"]);
        let Ok(Ok(roles)) = RolesIn::parse(r#"{"b": 1, "a": 2, "b": 3}"#) else {
            panic!()
        };
        assert_eq!(roles.into_map(), map);
    }

    /// What `data` text reads as, in the terms of `serde_json::from_str::<Value>`.
    fn as_value(text: &str) -> Result<Value, String> {
        match RolesIn::parse(text) {
            Ok(Ok(roles)) => Ok(Value::Object(roles.into_map())),
            Ok(Err(other)) => Ok(other),
            Err(e) => Err(e.to_string()),
        }
    }

    fn json_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let key = prop_oneof![
            Just("goal"),
            Just("object"),
            Just("a\\u0062"),
            Just("x\\\"y")
        ];
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|n| format!("{n:?}")),
            Just("1e400".to_owned()),
            "[a-z \\\\\"]{0,6}".prop_map(|s| format!("\"{s}\"")),
        ];
        let value = leaf.prop_recursive(3, 16, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                proptest::collection::vec((key.clone(), inner), 0..4).prop_map(|v| {
                    let entries: Vec<String> =
                        v.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
                    format!("{{{}}}", entries.join(", "))
                }),
            ]
        });
        (value, any::<proptest::sample::Index>(), any::<bool>()).prop_map(|(text, cut, whole)| {
            if whole {
                text
            } else {
                text[..cut.index(text.len() + 1)].to_owned()
            }
        })
    }

    /// A flat object of up to a dozen entries, keys repeated: more roles than the room the
    /// scanner makes for them at first (four).
    fn many_roles_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let key = "[a-f]{1,2}";
        let value = prop_oneof![
            "[a-z ]{0,6}".prop_map(|s| format!("\"{s}\"")),
            any::<i32>().prop_map(|n| n.to_string()),
            Just("null".to_owned()),
            Just("[1, {\"x\": 2}]".to_owned()),
        ];
        proptest::collection::vec((key, value), 0..12).prop_map(|entries| {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("\"{k}\": {v}"))
                .collect();
            format!("{{{}}}", entries.join(", "))
        })
    }

    proptest::proptest! {
        /// Many roles (more than four, keys repeated) read as serde_json reads them, through
        /// the scanner and through serde_json, borrowed or owned.
        #[test]
        fn many_roles_read_as_a_value(text in many_roles_text()) {
            let expected = serde_json::from_str::<Value>(&text).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(as_value(&text), expected.clone(), "{}", text);
            let Ok(Ok(roles)) = RolesIn::parse_with_serde_json(&text) else {
                panic!("{text}");
            };
            let owned = roles.clone().into_static();
            proptest::prop_assert_eq!(
                Ok(Value::Object(owned.into_map())),
                expected.clone()
            );
            let Ok(Value::Object(map)) = expected else { panic!("{text}") };
            let keys: Vec<&str> = roles.iter().map(|(k, _)| k).collect();
            proptest::prop_assert_eq!(keys, map.keys().map(String::as_str).collect::<Vec<_>>());
            proptest::prop_assert_eq!(RolesIn::from_map(&map).into_map(), map.clone());
            for (k, v) in &map {
                let got = roles.get(k).map(FieldIn::to_value);
                proptest::prop_assert_eq!(got.as_ref(), Some(v));
            }
        }

        /// `data` text reads as `serde_json::from_str::<Value>` reads it: the same object
        /// (repeated keys, escapes, numbers), the same other value, the same error.
        #[test]
        fn data_text_reads_as_a_value(text in json_text()) {
            let expected = serde_json::from_str::<Value>(&text).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(as_value(&text), expected, "{}", text);
        }
    }
}
