//! [`Roles`]: an intent's thematic roles (`data`) as the owned intent keeps them: a JSON
//! object in a text buffer and an entry vector, looked up by [`Role`] without comparing
//! strings.

use super::read::{unescape_quotes, FieldIn, RoleIn, RolesIn};
use super::vocab::Role;
use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// The thematic roles of an intent (its `data` object), owned: what
/// `serde_json::Map<String, Value>` would hold (keys sorted and unique, values any JSON
/// value), kept compactly.
///
/// * Every key that is no [`Role`] and every string value is in one text buffer; the
///   entries (one per key, sorted by key) in one vector: building the roles costs at most
///   two allocations whatever the number of string roles, dropping them two frees. A
///   non-string value (a number, `true`, `null`, an array, an object) is kept as its
///   `serde_json::Value` in its entry: numbers, booleans and `null` allocate nothing, an
///   array or object what its `Value` does.
/// * A key that is a [`Role`] is kept as the role's byte: [`Roles::role`] finds it without
///   comparing strings, [`Roles::get`] after one match of the key against the role keys.
/// * Equality is the map's: equal keys with equal values (serde_json's number equality: `1`
///   is not `1.0`).
///
/// ```
/// use robot_runtime::hri::{Role, Roles};
/// use serde_json::{json, Map, Value};
///
/// let map: Map<String, Value> =
///     serde_json::from_value(json!({"goal": "kitchen", "speed": 0.5})).unwrap();
/// let roles = Roles::from(map.clone());
/// assert_eq!(roles.role(Role::Goal), Some("kitchen"));
/// assert_eq!(roles.get("goal").and_then(|v| v.as_str()), Some("kitchen"));
/// assert_eq!(roles.get("speed").map(|v| v.to_value()), Some(json!(0.5)));
/// assert_eq!(roles.len(), 2);
/// assert_eq!(roles.to_map(), map);
/// assert_eq!(format!("{roles:?}"), r#"{"goal": "kitchen", "speed": 0.5}"#);
/// assert_eq!(serde_json::to_string(&roles).unwrap(), r#"{"goal":"kitchen","speed":0.5}"#);
/// ```
#[derive(Clone, Default)]
pub struct Roles {
    /// The keys that are no role and the string values, entry after entry.
    text: Box<str>,
    /// One per key, sorted by key (allocated for exactly the entries pushed).
    entries: Vec<Entry>,
}

/// One key and its value. The entry's text is `text[start..end]`: the key (empty for a
/// role), then the value when it is a string.
#[derive(Clone, Debug)]
struct Entry {
    /// The role whose key this is (its place in [`Role::ALL`]), or [`NO_ROLE`].
    role: u8,
    start: usize,
    key_end: usize,
    value: Slot,
}

/// An entry's value.
#[derive(Clone, Debug)]
enum Slot {
    /// A string: `text[key_end..end]`.
    Str { end: usize },
    /// Any other value (never a string).
    Other(Value),
}

/// [`Entry::role`] of a key that is no role.
const NO_ROLE: u8 = u8::MAX;

/// One value of [`Roles`], borrowed: a string, or any other JSON value.
#[derive(Clone, Copy, PartialEq)]
pub enum RoleValue<'a> {
    /// A string.
    Str(&'a str),
    /// Any other value: a number, a boolean, `null`, an array or an object (never a string).
    Other(&'a Value),
}

impl<'a> RoleValue<'a> {
    /// The string, when the value is one.
    pub fn as_str(self) -> Option<&'a str> {
        match self {
            RoleValue::Str(s) => Some(s),
            RoleValue::Other(_) => None,
        }
    }

    /// The value as serde_json holds it.
    pub fn to_value(self) -> Value {
        match self {
            RoleValue::Str(s) => Value::String(s.to_owned()),
            RoleValue::Other(v) => v.clone(),
        }
    }
}

impl PartialEq<Value> for RoleValue<'_> {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (RoleValue::Str(s), Value::String(o)) => s == o,
            (RoleValue::Other(v), o) => *v == o,
            _ => false,
        }
    }
}

/// The value's compact JSON text (a string quoted and escaped), as `Value`'s `Display`.
impl fmt::Display for RoleValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoleValue::Str(s) => fmt::Display::fmt(&Value::String((*s).to_owned()), f),
            RoleValue::Other(v) => fmt::Display::fmt(v, f),
        }
    }
}

/// As its JSON text: `"kitchen"`, `0.5`.
impl fmt::Debug for RoleValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for RoleValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RoleValue::Str(v) => s.serialize_str(v),
            RoleValue::Other(v) => v.serialize(s),
        }
    }
}

/// A value being put into [`Roles`].
enum ValueIn<'v> {
    Str(&'v str),
    Other(Value),
}

/// The bytes `key` takes in the text: none for a role.
fn key_text_len(key: &str) -> usize {
    read_key_text_len(Role::from_key(key), key)
}

/// [`key_text_len`] of a key whose role is already known.
fn read_key_text_len(role: Option<Role>, key: &str) -> usize {
    match role {
        Some(_) => 0,
        None => key.len(),
    }
}

/// Builds [`Roles`] from entries given in key order, without repeats, into buffers sized
/// beforehand.
struct Builder {
    text: String,
    entries: Vec<Entry>,
}

impl Builder {
    fn with_capacity(entries: usize, text: usize) -> Builder {
        Builder {
            text: String::with_capacity(text),
            entries: Vec::with_capacity(entries),
        }
    }

    /// Appends an entry (its key after every key pushed before).
    fn push(&mut self, key: &str, value: ValueIn<'_>) {
        self.push_role(Role::from_key(key), key, value);
    }

    /// [`Builder::push`] of a key whose role (`Role::from_key`) is already known.
    fn push_role(&mut self, role: Option<Role>, key: &str, value: ValueIn<'_>) {
        let start = self.text.len();
        let role = match role {
            Some(role) => role as u8,
            None => {
                self.text.push_str(key);
                NO_ROLE
            }
        };
        let key_end = self.text.len();
        let value = match value {
            ValueIn::Str(s) => {
                self.text.push_str(s);
                None
            }
            // Canonical: a string is always kept in the text.
            ValueIn::Other(Value::String(s)) => {
                self.text.push_str(&s);
                None
            }
            ValueIn::Other(v) => Some(v),
        };
        let end = self.text.len();
        // The entry built in its slot, its value's tag included (a slot built aside and
        // copied in was read back with wide loads of its narrow stores: a stall per role).
        crate::hint::push_in_place(&mut self.entries, || Entry {
            role,
            start,
            key_end,
            value: match value {
                None => Slot::Str { end },
                Some(v) => Slot::Other(v),
            },
        });
    }

    /// The roles. No reallocation when the capacities given were the sizes pushed.
    fn finish(self) -> Roles {
        Roles {
            text: self.text.into_boxed_str(),
            entries: self.entries,
        }
    }
}

impl Roles {
    /// No roles (allocates nothing).
    pub fn new() -> Roles {
        Roles::default()
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The string value of `role` (`None` when absent or not a string). Compares the role's
    /// byte, not its key.
    pub fn role(&self, role: Role) -> Option<&str> {
        self.get_role(role).and_then(RoleValue::as_str)
    }

    /// The value of `role`, whatever its kind.
    pub fn get_role(&self, role: Role) -> Option<RoleValue<'_>> {
        let byte = role as u8;
        self.entries
            .iter()
            .find(|e| e.role == byte)
            .map(|e| self.value_of(e))
    }

    /// The value of `key`, as `Map::get` answers.
    pub fn get(&self, key: &str) -> Option<RoleValue<'_>> {
        match Role::from_key(key) {
            Some(role) => self.get_role(role),
            None => self
                .entries
                .iter()
                .find(|e| e.role == NO_ROLE && self.key_of(e) == key)
                .map(|e| self.value_of(e)),
        }
    }

    /// True when `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entries, sorted by key (as a map iterates them).
    pub fn iter(&self) -> RolesIter<'_> {
        RolesIter {
            roles: self,
            entries: self.entries.iter(),
        }
    }

    /// The keys, sorted.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.entries.iter().map(|e| self.key_of(e))
    }

    /// The entries with each key's role (`None` for a key that is no role).
    pub(crate) fn iter_roles(
        &self,
    ) -> impl Iterator<Item = (Option<Role>, &str, RoleValue<'_>)> + '_ {
        self.entries.iter().map(|e| {
            let role = Role::ALL.get(usize::from(e.role)).copied();
            (role, self.key_of(e), self.value_of(e))
        })
    }

    /// Sets `key` to `value`; the value it had, if any (as `Map::insert`). Rebuilds the
    /// buffers: meant for building an intent in code, not for a hot path.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        let old = self.get(&key).map(RoleValue::to_value);
        let text = self.text.len() - self.replaced_text_len(&key)
            + key_text_len(&key)
            + value.as_str().map_or(0, str::len);
        let count = self.len() + usize::from(old.is_none());
        let mut b = Builder::with_capacity(count, text);
        let mut new = Some((key, value));
        for (k, v) in self.iter() {
            if let Some((nk, _)) = new.as_ref().filter(|(nk, _)| nk.as_str() <= k) {
                let replaces = nk == k;
                if let Some((nk, nv)) = new.take() {
                    b.push(&nk, ValueIn::Other(nv));
                }
                if replaces {
                    continue;
                }
            }
            b.push(k, value_in(v));
        }
        if let Some((nk, nv)) = new {
            b.push(&nk, ValueIn::Other(nv));
        }
        *self = b.finish();
        old
    }

    /// The text bytes of the entry `key` has now (none when absent).
    fn replaced_text_len(&self, key: &str) -> usize {
        match self.get(key) {
            None => 0,
            Some(v) => key_text_len(key) + v.as_str().map_or(0, str::len),
        }
    }

    /// The compact JSON object text, as `Value::Object(map).to_string()` writes it.
    pub fn to_json_text(&self) -> String {
        // Infallible: every key is a string, every value a JSON value.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The map serde_json would hold.
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = Map::new();
        for (k, v) in self.iter() {
            map.insert(k.to_owned(), v.to_value());
        }
        map
    }

    /// The map serde_json would hold (non-string values moved, not copied).
    pub fn into_map(self) -> Map<String, Value> {
        let Roles { text, entries } = self;
        let mut map = Map::new();
        for e in entries {
            let key = key_of(&text, &e).to_owned();
            let value = match e.value {
                Slot::Str { end } => {
                    Value::String(text.get(e.key_end..end).unwrap_or("").to_owned())
                }
                Slot::Other(v) => v,
            };
            map.insert(key, value);
        }
        map
    }

    /// The roles of a `data` object as read, their strings copied into one buffer.
    ///
    /// The text's size first, then the entries, gathered into a vector of their own sized
    /// for them: two allocations. The read entries are taken out of `roles`, whose vector
    /// stays, empty, for the next message ([`super::read::SpareRoles`]). (Built in the read
    /// vector's own buffer by `collect`, std reuses the buffer only when an [`Entry`] takes
    /// the room of a read entry; when they differ it shrinks the buffer in place, and the
    /// allocator then no longer has a block of the read vector's size at hand for the next
    /// message: measured, that cost more than the allocation saved.)
    pub(crate) fn from_read(roles: &mut RolesIn<'_>) -> Roles {
        let read = roles.entries();
        let text = read
            .iter()
            .map(|e| read_key_text_len(e.role, &e.key) + field_str(&e.value).map_or(0, str::len))
            .sum();
        let mut b = Builder::with_capacity(read.len(), text);
        for RoleIn { key, role, value } in roles.drain() {
            match value {
                FieldIn::Str(s) => b.push_role(role, &key, ValueIn::Str(&s)),
                FieldIn::Other(v) => match v.as_str() {
                    Some(s) => b.push_role(role, &key, ValueIn::Str(s)),
                    None => b.push_role(role, &key, ValueIn::Other(v.into_owned())),
                },
                FieldIn::Roles(r) => {
                    b.push_role(role, &key, ValueIn::Other(Value::Object(r.into_map())))
                }
                FieldIn::TextRoles { raw, .. } => {
                    b.push_role(role, &key, ValueIn::Str(&unescape_quotes(raw)))
                }
            }
        }
        b.finish()
    }

    fn key_of(&self, e: &Entry) -> &str {
        key_of(&self.text, e)
    }

    fn value_of<'s>(&'s self, e: &'s Entry) -> RoleValue<'s> {
        match &e.value {
            Slot::Str { end } => RoleValue::Str(self.text.get(e.key_end..*end).unwrap_or("")),
            Slot::Other(v) => RoleValue::Other(v),
        }
    }
}

/// An entry's key: its role's, or its text.
fn key_of<'t>(text: &'t str, e: &Entry) -> &'t str {
    match Role::ALL.get(usize::from(e.role)) {
        Some(role) => role.key(),
        None => text.get(e.start..e.key_end).unwrap_or(""),
    }
}

/// The string a value as read is, if it is one.
fn field_str<'v>(v: &'v FieldIn<'_>) -> Option<&'v str> {
    match v {
        FieldIn::Str(s) => Some(s),
        FieldIn::Other(v) => v.as_str(),
        FieldIn::Roles(_) | FieldIn::TextRoles { .. } => None,
    }
}

/// A value as put back into [`Roles`].
fn value_in(v: RoleValue<'_>) -> ValueIn<'_> {
    match v {
        RoleValue::Str(s) => ValueIn::Str(s),
        RoleValue::Other(v) => ValueIn::Other(v.clone()),
    }
}

/// The text [`Roles`] keeps for these entries: the keys that are no role and the strings.
fn text_len_of<'m>(entries: impl Iterator<Item = (&'m String, &'m Value)>) -> usize {
    entries
        .map(|(k, v)| key_text_len(k) + v.as_str().map_or(0, str::len))
        .sum()
}

impl From<Map<String, Value>> for Roles {
    fn from(map: Map<String, Value>) -> Roles {
        let mut b = Builder::with_capacity(map.len(), text_len_of(map.iter()));
        for (k, v) in map {
            b.push(&k, ValueIn::Other(v));
        }
        b.finish()
    }
}

impl From<&Map<String, Value>> for Roles {
    fn from(map: &Map<String, Value>) -> Roles {
        let mut b = Builder::with_capacity(map.len(), text_len_of(map.iter()));
        for (k, v) in map {
            let v = match v {
                Value::String(s) => ValueIn::Str(s),
                other => ValueIn::Other(other.clone()),
            };
            b.push(k, v);
        }
        b.finish()
    }
}

impl From<Roles> for Map<String, Value> {
    fn from(roles: Roles) -> Map<String, Value> {
        roles.into_map()
    }
}

/// As a map collects: sorted by key, the last value of a repeated key kept.
impl FromIterator<(String, Value)> for Roles {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Roles {
        Roles::from(iter.into_iter().collect::<Map<String, Value>>())
    }
}

impl<'r> IntoIterator for &'r Roles {
    type Item = (&'r str, RoleValue<'r>);
    type IntoIter = RolesIter<'r>;

    fn into_iter(self) -> RolesIter<'r> {
        self.iter()
    }
}

/// The entries of [`Roles`], sorted by key ([`Roles::iter`]).
#[derive(Clone)]
pub struct RolesIter<'r> {
    roles: &'r Roles,
    entries: std::slice::Iter<'r, Entry>,
}

impl<'r> Iterator for RolesIter<'r> {
    type Item = (&'r str, RoleValue<'r>);

    fn next(&mut self) -> Option<Self::Item> {
        let e = self.entries.next()?;
        Some((self.roles.key_of(e), self.roles.value_of(e)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl ExactSizeIterator for RolesIter<'_> {}

/// The map's equality: the same keys with equal values.
impl PartialEq for Roles {
    fn eq(&self, other: &Roles) -> bool {
        self.len() == other.len()
            && self.entries.iter().zip(other.entries.iter()).all(|(a, b)| {
                a.role == b.role
                    && (a.role != NO_ROLE || self.key_of(a) == other.key_of(b))
                    && self.value_of(a) == other.value_of(b)
            })
    }
}

impl PartialEq<Map<String, Value>> for Roles {
    fn eq(&self, map: &Map<String, Value>) -> bool {
        self.len() == map.len()
            && self
                .iter()
                .zip(map.iter())
                .all(|((k, v), (mk, mv))| k == mk && v == *mv)
    }
}

/// As a map: `{"goal": "kitchen", "speed": 0.5}` (values as their JSON text).
impl fmt::Debug for Roles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// As a JSON object.
impl Serialize for Roles {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, &v)?;
        }
        map.end()
    }
}

/// From a JSON object (as `Map<String, Value>` reads it).
impl<'de> Deserialize<'de> for Roles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Roles, D::Error> {
        Map::<String, Value>::deserialize(d).map(Roles::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hri::{Confidence, Deduplicator, IntentIn, IntentKind, Modality, Priority, Source};
    use proptest::prelude::*;
    use serde_json::json;

    /// Keys: every role's, and others (empty, longer than a role's, not ASCII).
    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::sample::select(Role::ALL).prop_map(|r| r.key().to_owned()),
            proptest::sample::select(vec!["", "goals", "speed", "é", "a\"b", "zz"])
                .prop_map(str::to_owned),
            "[a-z_]{0,10}",
        ]
    }

    /// Any JSON value, with the numbers serde_json tells apart or not (`1`, `1.0`, `-0.0`,
    /// `0.0`) and strings that look like other values.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            proptest::sample::select(vec![
                json!(1),
                json!(1.0),
                json!(-0.0),
                json!(0.0),
                json!(-1),
                json!(u64::MAX),
                json!(0.1),
                json!("1"),
                json!(""),
                json!("null"),
            ]),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[a-z \"\\\\é\u{0}]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::vec((key(), inner), 0..3)
                    .prop_map(|v| Value::Object(v.into_iter().collect())),
            ]
        })
    }

    fn map() -> impl Strategy<Value = Map<String, Value>> {
        proptest::collection::vec((key(), value()), 0..8).prop_map(|v| v.into_iter().collect())
    }

    /// Two maps, often equal or nearly so (one value or one key changed).
    fn two_maps() -> impl Strategy<Value = (Map<String, Value>, Map<String, Value>)> {
        (map(), map(), key(), value(), 0..4u8).prop_map(|(a, b, k, v, how)| match how {
            0 => (a.clone(), a),
            1 => {
                let mut b = a.clone();
                b.insert(k, v);
                (a, b)
            }
            2 => {
                let mut b = a.clone();
                b.remove(&k);
                (a, b)
            }
            _ => (a, b),
        })
    }

    /// The owned intent of `roles` as read.
    fn owned(mut roles: RolesIn<'_>) -> Roles {
        Roles::from_read(&mut roles)
    }

    proptest! {
        /// Built from a map, as read (borrowed, or owned) or collected, the roles give the map
        /// back, its JSON text, and each key's value.
        #[test]
        fn roles_hold_what_the_map_held(map in map(), probe in key()) {
            let roles = Roles::from(map.clone());
            prop_assert_eq!(roles.to_map(), map.clone());
            prop_assert_eq!(roles.clone().into_map(), map.clone());
            prop_assert_eq!(&roles, &map);
            prop_assert_eq!(&Roles::from(&map), &roles);
            prop_assert_eq!(&owned(RolesIn::from_map(&map)), &roles);
            prop_assert_eq!(&owned(RolesIn::from_map(&map).into_static()), &roles);
            prop_assert_eq!(&map.clone().into_iter().collect::<Roles>(), &roles);
            prop_assert_eq!(roles.len(), map.len());
            prop_assert_eq!(roles.is_empty(), map.is_empty());
            let text = Value::Object(map.clone()).to_string();
            prop_assert_eq!(roles.to_json_text(), text.clone());
            let Ok(Ok(read)) = RolesIn::parse(&text) else { panic!("{text}") };
            prop_assert_eq!(&owned(read), &roles);
            let Ok(Ok(read)) = RolesIn::parse_with_serde_json(&text) else { panic!("{text}") };
            prop_assert_eq!(&owned(read), &roles);
            prop_assert_eq!(serde_json::from_str::<Roles>(&text).unwrap(), roles.clone());
            let pairs: Vec<(String, Value)> =
                roles.iter().map(|(k, v)| (k.to_owned(), v.to_value())).collect();
            let expected: Vec<(String, Value)> = map.clone().into_iter().collect();
            prop_assert_eq!(pairs, expected);
            prop_assert_eq!(roles.keys().collect::<Vec<_>>(), map.keys().map(String::as_str).collect::<Vec<_>>());
            for k in map.keys().map(String::as_str).chain([probe.as_str()]) {
                prop_assert_eq!(roles.get(k).map(RoleValue::to_value), map.get(k).cloned());
                prop_assert_eq!(roles.get(k).and_then(RoleValue::as_str), map.get(k).and_then(Value::as_str));
                prop_assert_eq!(roles.contains_key(k), map.contains_key(k));
                if let Some(v) = roles.get(k) {
                    prop_assert_eq!(v.to_string(), map[k].to_string());
                }
            }
            for role in Role::ALL {
                prop_assert_eq!(roles.role(*role), map.get(role.key()).and_then(Value::as_str));
            }
            // Readable, and no panic.
            let debug = format!("{roles:?}");
            prop_assert!(debug.starts_with('{') && debug.ends_with('}'), "{}", debug);
        }

        /// Two roles are equal when their maps are (serde_json's number equality included).
        #[test]
        fn roles_are_equal_when_their_maps_are((a, b) in two_maps()) {
            let (roles_a, roles_b) = (Roles::from(a.clone()), Roles::from(b.clone()));
            prop_assert_eq!(roles_a == roles_b, a == b);
            prop_assert_eq!(roles_a == b, a == b);
        }

        /// `insert` does what the map's does: the same value given back, the same map after.
        #[test]
        fn insert_is_the_maps(map in map(), k in key(), v in value()) {
            let mut roles = Roles::from(map.clone());
            let mut map = map;
            prop_assert_eq!(roles.insert(k.clone(), v.clone()), map.insert(k, v));
            prop_assert_eq!(roles.to_map(), map.clone());
            prop_assert_eq!(&roles, &Roles::from(map));
        }

        /// The de-duplicator's key of the owned intent is the key of the intent as read.
        #[test]
        fn owned_roles_keep_the_deduplication_key(map in map()) {
            let read = IntentIn {
                intent: IntentKind::Custom("x".into()),
                data: RolesIn::from_map(&map),
                source: Source::Unknown,
                modality: Modality::Other,
                priority: Priority::DEFAULT,
                confidence: Confidence::Unstated,
            };
            let key = Deduplicator::key_in(&read);
            prop_assert_eq!(Deduplicator::key(&read.into_owned()), key);
        }

        /// Any `data` text that reads as an object gives the roles of serde_json's map; none
        /// panics.
        #[test]
        fn any_data_text_builds_the_maps_roles(text in "\\{[ -~é\u{80}]{0,40}\\}?|.{0,20}") {
            let expected = serde_json::from_str::<Value>(&text);
            match RolesIn::parse(&text) {
                Ok(Ok(roles)) => {
                    let Ok(Value::Object(map)) = expected else {
                        panic!("{text}: {expected:?}");
                    };
                    let roles = owned(roles);
                    prop_assert_eq!(roles.to_map(), map);
                }
                _ => prop_assert!(!matches!(expected, Ok(Value::Object(_))), "{}", text),
            }
            // Deserialized, the roles are what the map is, and fail where it fails.
            let as_map = serde_json::from_str::<Map<String, Value>>(&text).map_err(|e| e.to_string());
            let as_roles = serde_json::from_str::<Roles>(&text).map_err(|e| e.to_string());
            prop_assert_eq!(as_roles.map(Roles::into_map), as_map);
        }
    }

    #[test]
    fn string_roles_are_laid_out_in_one_text() {
        let Ok(Ok(read)) =
            RolesIn::parse(r#"{"recipient": "person_1", "goal": "kitchen", "speed": "slow"}"#)
        else {
            panic!()
        };
        let roles = owned(read);
        // Role keys are kept as their byte: only the other key is in the text.
        assert_eq!(&*roles.text, "kitchenperson_1speedslow");
        assert_eq!(roles.role(Role::Goal), Some("kitchen"));
        assert_eq!(roles.role(Role::Recipient), Some("person_1"));
        assert_eq!(roles.role(Role::Object), None);
        assert_eq!(roles.get("speed").and_then(RoleValue::as_str), Some("slow"));
        assert_eq!(
            roles.keys().collect::<Vec<_>>(),
            ["goal", "recipient", "speed"]
        );
    }

    #[test]
    fn numbers_keep_their_kind() {
        let a = Roles::from_iter([("n".to_owned(), json!(1))]);
        let b = Roles::from_iter([("n".to_owned(), json!(1.0))]);
        let c = Roles::from_iter([("n".to_owned(), json!("1"))]);
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            Roles::from_iter([("n".to_owned(), json!(-0.0))]),
            Roles::from_iter([("n".to_owned(), json!(0.0))])
        );
        assert_eq!(a.to_json_text(), r#"{"n":1}"#);
        assert_eq!(b.to_json_text(), r#"{"n":1.0}"#);
        assert_eq!(format!("{c:?}"), r#"{"n": "1"}"#);
        assert_eq!(a.role(Role::Goal), None);
    }
}
