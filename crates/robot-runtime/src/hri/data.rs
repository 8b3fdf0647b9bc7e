//! [`Roles`]: an intent's thematic roles (`data`) as the owned intent keeps them: a JSON
//! object in two allocations, looked up by [`Role`] without comparing strings.

use super::read::{FieldIn, RolesIn};
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
///   entries (one per key, sorted by key) in one array: building the roles of a message
///   costs two allocations whatever the number of string roles, dropping them two frees. A
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
    /// One per key, sorted by key.
    entries: Box<[Entry]>,
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
    match Role::from_key(key) {
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
        let start = self.text.len();
        let role = match Role::from_key(key) {
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
                Slot::Str {
                    end: self.text.len(),
                }
            }
            // Canonical: a string is always kept in the text.
            ValueIn::Other(Value::String(s)) => {
                self.text.push_str(&s);
                Slot::Str {
                    end: self.text.len(),
                }
            }
            ValueIn::Other(v) => Slot::Other(v),
        };
        self.entries.push(Entry {
            role,
            start,
            key_end,
            value,
        });
    }

    /// The roles. No reallocation when the capacities given were the sizes pushed.
    fn finish(self) -> Roles {
        Roles {
            text: self.text.into_boxed_str(),
            entries: self.entries.into_boxed_slice(),
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
        for e in entries.into_vec() {
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
    pub(crate) fn from_read(roles: RolesIn<'_>) -> Roles {
        let mut count = 0;
        let mut text = 0;
        for (k, v) in roles.iter() {
            count += 1;
            text += key_text_len(k);
            if let FieldIn::Str(s) = v {
                text += s.len();
            }
        }
        let mut b = Builder::with_capacity(count, text);
        for (k, v) in roles.into_entries() {
            let v = match v {
                FieldIn::Str(s) => {
                    b.push(&k, ValueIn::Str(&s));
                    continue;
                }
                FieldIn::Other(v) => v.into_owned(),
                FieldIn::Roles(r) => Value::Object(r.into_map()),
            };
            b.push(&k, ValueIn::Other(v));
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

/// A value as put back into [`Roles`].
fn value_in(v: RoleValue<'_>) -> ValueIn<'_> {
    match v {
        RoleValue::Str(s) => ValueIn::Str(s),
        RoleValue::Other(v) => ValueIn::Other(v.clone()),
    }
}

impl From<Map<String, Value>> for Roles {
    fn from(map: Map<String, Value>) -> Roles {
        let text = map
            .iter()
            .map(|(k, v)| key_text_len(k) + v.as_str().map_or(0, str::len))
            .sum();
        let mut b = Builder::with_capacity(map.len(), text);
        for (k, v) in map {
            b.push(&k, ValueIn::Other(v));
        }
        b.finish()
    }
}

impl From<&Map<String, Value>> for Roles {
    fn from(map: &Map<String, Value>) -> Roles {
        let text = map
            .iter()
            .map(|(k, v)| key_text_len(k) + v.as_str().map_or(0, str::len))
            .sum();
        let mut b = Builder::with_capacity(map.len(), text);
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
