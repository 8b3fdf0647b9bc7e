//! Parameter handling without an intermediate JSON tree.
//!
//! The `parameters` string is walked once with `serde_json`'s streaming deserializer. Each
//! key is sanitized as it is read (rename, then numeric conversion) and matched against the
//! payload's field names; values of keys that are not fields are skipped without being
//! stored, and string values are kept borrowed from the input when they have no escapes.
//! The collected `(field, value)` pairs are then handed to the union's generated
//! `Deserialize` impl through [`PayloadDeserializer`], which presents them as the CLAD-JSON
//! object `{"type": "<tag name>", field: value, ...}` — the same mapping `serde_json` would
//! use on text, minus the text.

use std::borrow::Cow;
use std::fmt;

use crate::union::CladUnion;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde::Deserialize;

use super::map::Sanitation;
use super::numeric::{self, Number, NumericMode};
use super::shape::Shape;
use super::translate::{ExtraParams, Note, TranslateError, MAX_NOTES};

/// Internal error type: boxed, so results stay one word on the hot path.
pub(crate) type Fail = Box<TranslateError>;

type Error = serde_json::Error;

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

    fn to_text(&self) -> String {
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

struct ParamValueVisitor;

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
struct Key<'de>(Cow<'de, str>);

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

/// A parameter collected for a payload field.
#[derive(Clone, Debug)]
pub(crate) struct Slot<'de> {
    pub value: ParamValue<'de>,
    /// Which incoming name filled it (for messages): the field's own name, or the `from`
    /// of a sanitation step.
    origin: Origin,
}

#[derive(Clone, Copy, Debug)]
enum Origin {
    Direct,
    Action(u32),
}

/// A parameter collected for a member whose shape is unknown (keyed by its final name).
#[derive(Clone, Debug)]
pub(crate) struct Entry<'de> {
    pub field: Cow<'de, str>,
    pub param: Cow<'de, str>,
    pub value: ParamValue<'de>,
}

const INLINE: usize = 8;

/// Storage for one optional [`Slot`] per payload field, living in the caller's frame:
/// inline for up to 8 fields (no allocation), else on the heap.
pub(crate) struct SlotStorage<'de> {
    pub inline: [Option<Slot<'de>>; INLINE],
    pub heap: Vec<Option<Slot<'de>>>,
}

impl<'de> SlotStorage<'de> {
    /// `n` empty slots.
    #[inline]
    pub fn slots(&mut self, n: usize) -> &mut [Option<Slot<'de>>] {
        if n > INLINE {
            self.heap = (0..n).map(|_| None).collect();
            &mut self.heap
        } else {
            &mut self.inline[..n]
        }
    }
}

impl SlotStorage<'_> {
    /// Empty storage.
    ///
    /// Built element by element: from `[const { None }; 8]` the compiler materialises the
    /// 256-byte array in a temporary and copies it into place (a `memcpy` reading bytes
    /// just written, a store-forwarding stall on every translation); `from_fn` writes each
    /// `None` where it belongs.
    #[inline(always)]
    pub fn new() -> Self {
        SlotStorage {
            inline: std::array::from_fn(|_| None),
            heap: Vec::new(),
        }
    }
}

/// What the sanitizer needs to know about the target member.
pub(crate) struct Ctx<'a> {
    pub tag: &'static str,
    pub sanitation: &'static [Sanitation],
    /// Field names of the member, or `None` when unknown (then every parameter is passed).
    pub fields: Option<&'a [&'static str]>,
    /// Precomputed key → field routes for `sanitation` × `fields` (if built).
    pub routes: Option<&'a Routes>,
    pub numeric: NumericMode,
    pub extra: ExtraParams,
}

/// Where an incoming parameter name goes, for one map entry (precomputed).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Route {
    /// Field index, or `None` when the (renamed) name is not a field.
    field: Option<usize>,
    /// The sanitation step applied, if any.
    action: Option<usize>,
    numeric: bool,
    /// A substitution that renames the parameter to itself.
    to_self: Option<&'static str>,
}

/// Incoming name → route, for one map entry. A payload has a handful of fields and an entry
/// a handful of steps, so a linear scan (length first, then bytes) beats hashing each key.
#[derive(Clone, Debug, Default)]
pub(crate) struct Routes {
    entries: Vec<(&'static str, Route)>,
}

impl Routes {
    #[inline]
    pub(crate) fn get(&self, key: &str) -> Option<&Route> {
        self.entries
            .iter()
            .find(|(name, _)| same_bytes(name.as_bytes(), key.as_bytes()))
            .map(|(_, route)| route)
    }

    /// Adds `name` unless it is already routed (the first route per name wins).
    fn add(&mut self, name: &'static str, route: Route) {
        if self.get(name).is_none() {
            self.entries.push((name, route));
        }
    }
}

/// `a == b` for byte slices, inline. Parameter names are a few bytes
/// to a few words long; `==` on slices calls the C library's `bcmp`, which costs more
/// than the comparison itself here.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    let w8 = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    let w4 = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().expect("4 bytes"));
    match n {
        0..=3 => a[..n].iter().zip(&b[..n]).all(|(x, y)| x == y),
        // Two overlapping words cover the whole slice.
        4..=8 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        _ => {
            let mut i = 0;
            while i + 8 < n {
                if w8(a, i) != w8(b, i) {
                    return false;
                }
                i += 8;
            }
            w8(a, n - 8) == w8(b, n - 8)
        }
    }
}

/// The routes of one map entry: its sanitation steps (first step per name wins, as in the
/// step-by-step search), then the payload's own field names.
pub(crate) fn routes(sanitation: &'static [Sanitation], fields: &[&'static str]) -> Routes {
    let mut r = Routes::default();
    for (a, s) in sanitation.iter().enumerate() {
        let target = s.to.unwrap_or(s.from);
        r.add(
            s.from,
            Route {
                field: fields.iter().position(|f| *f == target),
                action: Some(a),
                numeric: s.numeric,
                to_self: s.to.filter(|t| *t == s.from),
            },
        );
    }
    for (i, f) in fields.iter().enumerate() {
        r.add(
            f,
            Route {
                field: Some(i),
                action: None,
                numeric: false,
                to_self: None,
            },
        );
    }
    r
}

/// Collects sanitized parameters.
pub(crate) struct Collector<'a, 's, 'de> {
    pub cx: Ctx<'a>,
    /// By field index (shape known).
    pub slots: &'s mut [Option<Slot<'de>>],
    /// By name (shape unknown).
    pub entries: Vec<Entry<'de>>,
    pub notes: Vec<Note>,
    /// Number of keys seen in the parameters (fields or not).
    pub keys: usize,
    error: Option<Fail>,
}

/// Where a parameter goes.
enum Target<'de> {
    Field(usize),
    Key(Cow<'de, str>),
}

struct Plan<'de> {
    target: Target<'de>,
    numeric: bool,
    origin: Origin,
}

impl<'a, 's, 'de> Collector<'a, 's, 'de> {
    #[inline]
    pub fn new(cx: Ctx<'a>, storage: &'s mut SlotStorage<'de>) -> Self {
        let n = cx.fields.map_or(0, <[_]>::len);
        Self {
            cx,
            slots: storage.slots(n),
            entries: Vec::new(),
            notes: Vec::new(),
            keys: 0,
            error: None,
        }
    }

    pub fn note(&mut self, note: Note) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(note);
        } else if let Some(Note::NotesOmitted { count }) = self.notes.last_mut() {
            *count += 1;
        } else {
            self.notes.push(Note::NotesOmitted { count: 1 });
        }
    }

    /// Sanitize a key: `Ok(None)` when the parameter is not a field (skipped).
    #[inline]
    fn plan(&mut self, key: &Cow<'de, str>) -> Result<Option<Plan<'de>>, Fail> {
        self.keys += 1;
        if let (Some(fields), Some(routes)) = (self.cx.fields, self.cx.routes) {
            let route = routes.get(key.as_ref()).copied();
            if let Some(to) = route.and_then(|r| r.to_self) {
                self.note(Note::RenameToSelf { param: to });
            }
            let Some(i) = route.and_then(|r| r.field) else {
                return self.extra(key);
            };
            let route = route.expect("routed");
            if self.slots[i].is_some() {
                return Err(self.conflict_at(fields, i, key));
            }
            return Ok(Some(Plan {
                target: Target::Field(i),
                numeric: route.numeric,
                origin: route
                    .action
                    .map_or(Origin::Direct, |a| Origin::Action(a as u32)),
            }));
        }
        let action_index = self
            .cx
            .sanitation
            .iter()
            .position(|a| a.from == key.as_ref());
        let action = action_index.map(|a| &self.cx.sanitation[a]);
        let origin = action_index.map_or(Origin::Direct, |a| Origin::Action(a as u32));
        let target: &str = match action.and_then(|a| a.to) {
            Some(to) => {
                if to == key.as_ref() {
                    self.note(Note::RenameToSelf { param: to });
                }
                to
            }
            None => key.as_ref(),
        };
        let numeric = action.is_some_and(|a| a.numeric);
        let Some(fields) = self.cx.fields else {
            let name = match action.and_then(|a| a.to) {
                Some(to) => Cow::Borrowed(to),
                None => key.clone(),
            };
            if let Some(prev) = self.entries.iter().find(|e| e.field == name) {
                return Err(conflict(&name, &prev.param, key));
            }
            return Ok(Some(Plan {
                target: Target::Key(name),
                numeric,
                origin,
            }));
        };
        let Some(i) = fields.iter().position(|f| *f == target) else {
            return self.extra(key);
        };
        if self.slots[i].is_some() {
            return Err(self.conflict_at(fields, i, key));
        }
        Ok(Some(Plan {
            target: Target::Field(i),
            numeric,
            origin,
        }))
    }

    /// A parameter that is not a field: skipped (noted) or rejected.
    #[cold]
    fn extra<T>(&mut self, key: &str) -> Result<Option<T>, Fail> {
        if self.cx.extra == ExtraParams::Reject {
            return Err(Box::new(TranslateError::UnknownParameter {
                tag: self.cx.tag,
                name: key.to_owned(),
            }));
        }
        self.note(Note::UnknownParam { name: key.into() });
        Ok(None)
    }

    /// The conflict error for a second parameter for field `i`.
    #[cold]
    fn conflict_at(&self, fields: &[&'static str], i: usize, key: &str) -> Fail {
        let first = match self.slots[i].as_ref().map(|s| s.origin) {
            Some(Origin::Action(a)) => self.cx.sanitation[a as usize].from,
            _ => fields[i],
        };
        conflict(fields[i], first, key)
    }

    /// The fast path's string parameter: routed, converted, stored in its slot.
    #[inline]
    fn push_str(&mut self, key: &'de str, value: &'de str) -> Result<(), Fail> {
        let (Some(fields), Some(routes)) = (self.cx.fields, self.cx.routes) else {
            return self.push_value(Cow::Borrowed(key), ParamValue::Str(Cow::Borrowed(value)));
        };
        self.keys += 1;
        let Some(route) = routes.get(key) else {
            return self.extra::<()>(key).map(drop);
        };
        if let Some(to) = route.to_self {
            self.note(Note::RenameToSelf { param: to });
        }
        let Some(i) = route.field else {
            return self.extra::<()>(key).map(drop);
        };
        if self.slots[i].is_some() {
            return Err(self.conflict_at(fields, i, key));
        }
        let value = ParamValue::Str(Cow::Borrowed(value));
        let value = if route.numeric {
            self.numeric(key, fields[i], value)?
        } else {
            value
        };
        self.slots[i] = Some(Slot {
            value,
            origin: route
                .action
                .map_or(Origin::Direct, |a| Origin::Action(a as u32)),
        });
        Ok(())
    }

    #[inline]
    fn accept(
        &mut self,
        param: Cow<'de, str>,
        plan: Plan<'de>,
        value: ParamValue<'de>,
    ) -> Result<(), Fail> {
        let value = if plan.numeric {
            let field = match &plan.target {
                Target::Field(i) => self.cx.fields.map_or("", |f| f[*i]),
                Target::Key(k) => k.as_ref(),
            };
            self.numeric(&param, field, value)?
        } else {
            value
        };
        match plan.target {
            Target::Field(i) => {
                self.slots[i] = Some(Slot {
                    value,
                    origin: plan.origin,
                })
            }
            Target::Key(field) => self.entries.push(Entry {
                field,
                param,
                value,
            }),
        }
        Ok(())
    }

    /// Forgets everything collected.
    fn reset(&mut self) {
        for s in self.slots.iter_mut() {
            *s = None;
        }
        self.entries.clear();
        self.notes.clear();
        self.keys = 0;
        self.error = None;
    }

    /// True when field `i` (of a known shape) got a parameter.
    #[inline]
    pub fn has_field(&self, i: usize) -> bool {
        self.slots[i].is_some()
    }

    fn numeric(
        &self,
        param: &str,
        field: &str,
        value: ParamValue<'de>,
    ) -> Result<ParamValue<'de>, Fail> {
        let bad = |value: &ParamValue<'_>, reason| -> Fail {
            Box::new(TranslateError::BadNumber {
                param: param.to_owned(),
                field: field.to_owned(),
                value: value.to_text(),
                reason,
            })
        };
        match (self.cx.numeric, value) {
            (_, v @ (ParamValue::I64(_) | ParamValue::U64(_) | ParamValue::F64(_))) => Ok(v),
            (NumericMode::Strict, ParamValue::Str(s)) => match numeric::strict(&s) {
                Ok(n) => Ok(n.into()),
                Err(reason) => Err(bad(&ParamValue::Str(s), reason)),
            },
            (NumericMode::Strict, v) => Err(bad(&v, numeric::NumberError::NotAString)),
            (NumericMode::OriginalPrefix, ParamValue::Str(s)) => {
                Ok(match numeric::original_prefix(&s) {
                    Some(n) => n.into(),
                    None => {
                        tracing::error!(
                            param,
                            value = %s,
                            "UserIntentMap.SanitizeVariables: tried to convert to a number and \
                             failed, no conversion performed"
                        );
                        ParamValue::Str(s)
                    }
                })
            }
            (NumericMode::OriginalPrefix, v) => Ok(v),
        }
    }

    /// Adds one parameter that is already a value (the app path's `param`, simple voice
    /// response fields).
    #[inline]
    pub fn push_value(&mut self, key: Cow<'de, str>, value: ParamValue<'de>) -> Result<(), Fail> {
        match self.plan(&key)? {
            Some(plan) => self.accept(key, plan, value),
            None => Ok(()),
        }
    }

    /// Walks a JSON `parameters` text. `null` is no parameters.
    ///
    /// The common cloud form — a flat object of strings without escapes, at most 16 keys —
    /// is scanned directly; anything else (numbers, nesting, escapes, errors) goes through
    /// `serde_json`, so results and error messages do not depend on the path taken.
    pub fn collect_json(&mut self, text: &'de str) -> Result<(), Fail> {
        // Feed pairs while scanning. A parameter error stops the scan: the full parser
        // would reach the same pair, in the same order, and fail the same way. If the
        // scanner gives up (not the simple form), start over with the full parser.
        let mut result = Ok(());
        if scan_flat_object(text, |k, v| {
            result = self.push_str(k, v);
            result.is_ok()
        }) {
            return result;
        }
        self.reset();
        self.collect_json_slow(text)
    }

    fn collect_json_slow(&mut self, text: &'de str) -> Result<(), Fail> {
        let mut de = serde_json::Deserializer::from_str(text);
        let result = ParamsSeed { c: self }
            .deserialize(&mut de)
            .and_then(|()| de.end());
        match result {
            Ok(()) => Ok(()),
            Err(e) => Err(self.error.take().unwrap_or_else(|| {
                Box::new(TranslateError::BadParametersJson {
                    line: e.line(),
                    column: e.column(),
                    reason: e.to_string(),
                })
            })),
        }
    }
}

/// Index of the first `"`, `\\` or control byte at or after `j` (or `b.len()`), eight
/// bytes at a time.
#[inline(always)]
fn string_end(b: &[u8], mut j: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(j..j + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let q = x ^ (LO * u64::from(b'"'));
        let s = x ^ (LO * u64::from(b'\\'));
        let special = (q.wrapping_sub(LO) & !q)
            | (s.wrapping_sub(LO) & !s)
            | (x.wrapping_sub(LO * 0x20) & !x);
        let hit = special & HI;
        if hit != 0 {
            // Each of the three tests flags its first matching byte exactly (a borrow
            // only starts at a matching byte, so only bytes above it can be flagged
            // wrongly): the lowest flag is the first special byte.
            return j + (hit.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < b.len() && !matches!(b[j], b'"' | b'\\' | 0..=0x1f) {
        j += 1;
    }
    j
}

/// Scans `{"k":"v", ...}` (JSON whitespace allowed, strings without escapes or control
/// characters) and calls `pair` for each pair until it returns false. Returns false when
/// the text is anything else (then `pair` may have seen a prefix of the pairs).
#[inline]
fn scan_flat_object<'a>(text: &'a str, mut pair: impl FnMut(&'a str, &'a str) -> bool) -> bool {
    scan(text, &mut pair).is_some()
}

/// A string without escapes at `*i` (which must be `"`): returns its content and moves
/// `*i` past its closing quote.
///
/// Always inlined: it runs twice per pair, and a call costs about as much as scanning a
/// short string.
#[inline(always)]
fn scan_string<'a>(text: &'a str, i: &mut usize) -> Option<&'a str> {
    let b = text.as_bytes();
    if b.get(*i) != Some(&b'"') {
        return None;
    }
    let start = *i + 1;
    let j = string_end(b, start);
    if b.get(j) == Some(&b'"') {
        *i = j + 1;
        // Both ends are ASCII quotes: char boundaries.
        return Some(&text[start..j]);
    }
    None
}

fn scan<'a>(text: &'a str, pair: &mut impl FnMut(&'a str, &'a str) -> bool) -> Option<()> {
    let b = text.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    let string = |i: &mut usize| scan_string(text, i);
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    ws(&mut i);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            let k = string(&mut i)?;
            ws(&mut i);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i += 1;
            ws(&mut i);
            let v = string(&mut i)?;
            if !pair(k, v) {
                return Some(());
            }
            ws(&mut i);
            match b.get(i) {
                Some(b',') => {
                    i += 1;
                    ws(&mut i);
                }
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    ws(&mut i);
    (i == b.len()).then_some(())
}

fn conflict(field: &str, first: &str, second: &str) -> Fail {
    Box::new(if first == second {
        TranslateError::DuplicateParameter {
            name: second.to_owned(),
        }
    } else {
        TranslateError::RenameConflict {
            field: field.to_owned(),
            first: first.to_owned(),
            second: second.to_owned(),
        }
    })
}

struct ParamsSeed<'c, 'a, 's, 'de> {
    c: &'c mut Collector<'a, 's, 'de>,
}

impl<'de> DeserializeSeed<'de> for ParamsSeed<'_, '_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl ParamsSeed<'_, '_, '_, '_> {
    fn not_object<E: de::Error>(self, found: &'static str) -> Result<(), E> {
        self.c.error = Some(Box::new(TranslateError::ParametersNotObject { found }));
        Err(E::custom("parameters are not an object"))
    }
}

impl<'de> Visitor<'de> for ParamsSeed<'_, '_, '_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_object("a bool")
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.not_object("a string")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.not_object("an array")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let plan = match self.c.plan(&key) {
                Ok(plan) => plan,
                Err(e) => {
                    self.c.error = Some(e);
                    return Err(de::Error::custom("rejected parameter"));
                }
            };
            match plan {
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
                Some(plan) => {
                    let value = map.next_value::<ParamValue<'de>>()?;
                    if let Err(e) = self.c.accept(key, plan, value) {
                        self.c.error = Some(e);
                        return Err(de::Error::custom("rejected parameter"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Presents `{"type": tag, field: value, ...}` to a generated union's `Deserialize`.
pub(crate) struct PayloadMap<I> {
    /// `None`: present the payload structure's fields alone (no `"type"` key).
    tag: Option<&'static str>,
    entries: I,
}

impl<'de, I> Deserializer<'de> for PayloadMap<I>
where
    I: Iterator<Item = (Cow<'de, str>, ParamValue<'de>)>,
{
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(PayloadMapAccess {
            tag: self.tag,
            entries: self.entries,
            value: None,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct PayloadMapAccess<'de, I> {
    /// The tag name, until the `"type"` key has been produced.
    tag: Option<&'static str>,
    entries: I,
    value: Option<ParamValue<'de>>,
}

impl<'de, I> MapAccess<'de> for PayloadMapAccess<'de, I>
where
    I: Iterator<Item = (Cow<'de, str>, ParamValue<'de>)>,
{
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if let Some(tag) = self.tag.take() {
            self.value = Some(ParamValue::Str(Cow::Borrowed(tag)));
            return seed
                .deserialize(ParamValue::Str(Cow::Borrowed("type")))
                .map(Some);
        }
        match self.entries.next() {
            Some((field, value)) => {
                self.value = Some(value);
                seed.deserialize(ParamValue::Str(field)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("value requested before key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.entries
            .size_hint()
            .1
            .map(|n| n + usize::from(self.tag.is_some()))
    }
}

/// Presents `["<tag>", field0, field1, ...]` (every field, in declaration order) to a
/// generated union's `Deserialize`: serde's internally tagged enums take the tag from the
/// first element and derived structs read fields by position. Same mapping as the object
/// form, without key buffering and field-name matching.
pub(crate) struct PayloadSeq<I> {
    /// `None`: present the payload structure's fields alone (no leading tag).
    tag: Option<&'static str>,
    items: I,
}

impl<'de, I> Deserializer<'de> for PayloadSeq<I>
where
    I: Iterator<Item = ParamValue<'de>>,
{
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(PayloadSeqAccess {
            tag: self.tag,
            items: self.items,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct PayloadSeqAccess<I> {
    tag: Option<&'static str>,
    items: I,
}

impl<'de, I> de::SeqAccess<'de> for PayloadSeqAccess<I>
where
    I: Iterator<Item = ParamValue<'de>>,
{
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if let Some(tag) = self.tag.take() {
            return seed
                .deserialize(ParamValue::Str(Cow::Borrowed(tag)))
                .map(Some);
        }
        match self.items.next() {
            Some(v) => seed.deserialize(v).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.items
            .size_hint()
            .1
            .map(|n| n + usize::from(self.tag.is_some()))
    }
}

/// Builds `U` from the object form.
pub(crate) fn build_map<'de, U: Deserialize<'de>>(
    tag: &'static str,
    entries: impl Iterator<Item = (Cow<'de, str>, ParamValue<'de>)>,
) -> Result<U, Error> {
    U::deserialize(PayloadMap {
        tag: Some(tag),
        entries,
    })
}

/// Builds `U` from the positional form (every field, in order).
#[inline(always)]
pub(crate) fn build_seq<'de, U: Deserialize<'de>>(
    tag: &'static str,
    items: impl Iterator<Item = ParamValue<'de>>,
) -> Result<U, Error> {
    U::deserialize(PayloadSeq {
        tag: Some(tag),
        items,
    })
}

/// Every field in declaration order: the slot's value when it is filled (and `keep` is
/// `None` or its index), else the field's default.
#[inline(always)]
fn positional_items<'a>(
    slots: &'a [Option<Slot<'_>>],
    defaults: impl Iterator<Item = &'a serde_json::Value>,
    keep: Option<usize>,
) -> impl Iterator<Item = ParamValue<'a>> {
    slots
        .iter()
        .zip(defaults)
        .enumerate()
        .map(move |(i, (s, d))| match s {
            Some(s) if keep.map_or(true, |k| k == i) => s.value.view(),
            _ => ParamValue::JsonRef(d),
        })
}

/// The fast build for the common case: member `tag` built positionally through the
/// generated [`CladUnion::deserialize_struct_member`], returned as that function returns
/// it, so a caller that keeps the value (the component's pending slot) moves the union
/// from there into place, not through layers of results.
///
/// `None` when this route does not apply (shape not positional, or the union does not
/// provide `deserialize_struct_member`); then, and on `Some(Err(_))`, use
/// [`build_slots`], which tries the other routes and names the field to blame. On
/// success the value is the one `build_slots` returns: it takes this route first, with
/// the same sequence of values.
#[inline(always)]
pub(crate) fn build_direct<U: CladUnion + serde::de::DeserializeOwned>(
    tag: U::Tag,
    shape: &Shape,
    slots: &[Option<Slot<'_>>],
) -> Option<Result<U, Error>> {
    if !shape.positional {
        return None;
    }
    let defaults = shape.defaults.as_ref()?;
    let fields = SlotFields { slots, defaults };
    U::deserialize_struct_member(tag, &fields)
}

/// The payload structure's fields as a sequence, every field in declaration order: the
/// slot's value when filled, else the field's default (what [`PayloadSeq`] over
/// [`positional_items`] presents, with `tag: None` and `keep: None`).
///
/// Handed to the payload's `Deserialize` by reference, and its sequence access is two
/// words: the deserializer state is passed in registers and read field by field. The
/// iterator-based [`PayloadSeq`] is a dozen words passed through memory, and the derived
/// code copies it with wide loads just after it was written (a store-forwarding stall per
/// payload).
struct SlotFields<'a, 'p> {
    slots: &'a [Option<Slot<'p>>],
    defaults: &'a [serde_json::Value],
}

// The deserializer lifetime is the borrow of the `SlotFields`: values are presented as
// views into it (`ParamValue::view`), like `build_slots` does.
impl<'de, 'p> Deserializer<'de> for &'de SlotFields<'de, 'p> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(SlotFieldsAccess {
            fields: self,
            next: 0,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct SlotFieldsAccess<'a, 'p> {
    fields: &'a SlotFields<'a, 'p>,
    /// Index of the next field.
    next: usize,
}

impl SlotFieldsAccess<'_, '_> {
    /// Number of fields presented (as many as `zip` over slots and defaults gives).
    #[inline]
    fn len(&self) -> usize {
        self.fields.slots.len().min(self.fields.defaults.len())
    }
}

impl<'de> de::SeqAccess<'de> for SlotFieldsAccess<'de, '_> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let i = self.next;
        if i >= self.len() {
            return Ok(None);
        }
        self.next += 1;
        let value = match &self.fields.slots[i] {
            Some(s) => s.value.view(),
            None => ParamValue::JsonRef(&self.fields.defaults[i]),
        };
        seed.deserialize(value).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len() - self.next)
    }
}

/// Builds a member of known shape from its slots: positionally (missing fields get their
/// default values) when the shape allows it, else as an object of the filled fields. On
/// failure, blames the first filled field that fails on its own.
///
/// Structure members go straight to the payload structure's `Deserialize` through
/// [`CladUnion::deserialize_struct_member`] (generated); other members, and unions that do
/// not provide it, go through the union's internally tagged `Deserialize`.
#[inline(always)]
pub(crate) fn build_slots<U: CladUnion + serde::de::DeserializeOwned>(
    tag: U::Tag,
    shape: &Shape,
    slots: &[Option<Slot<'_>>],
) -> Result<U, (Option<String>, Error)> {
    let tag_name = U::tag_name(tag);
    let only = |keep: Option<usize>| -> Result<U, Error> {
        let filled = |i: usize| keep.map_or(true, |k| k == i);
        let seq = || positional_items(slots, shape.defaults.iter().flatten(), keep);
        let map = || {
            slots
                .iter()
                .zip(&shape.fields)
                .enumerate()
                .filter_map(move |(i, (s, f))| {
                    let s = s.as_ref().filter(|_| filled(i))?;
                    Some((Cow::Borrowed(*f), s.value.view()))
                })
        };
        let positional = shape.defaults.is_some() && shape.positional;
        let direct = if positional {
            U::deserialize_struct_member(
                tag,
                PayloadSeq {
                    tag: None,
                    items: seq(),
                },
            )
        } else {
            U::deserialize_struct_member(
                tag,
                PayloadMap {
                    tag: None,
                    entries: map(),
                },
            )
        };
        match direct {
            Some(built) => built,
            None if positional => build_seq(tag_name, seq()),
            None => build_map(tag_name, map()),
        }
    };
    only(None).map_err(|err| {
        let field = (0..slots.len())
            .find(|&i| slots[i].is_some() && only(Some(i)).is_err())
            .map(|i| shape.fields[i].to_owned());
        (field, err)
    })
}

/// Builds a member of unknown shape from named entries.
pub(crate) fn build_entries<U: serde::de::DeserializeOwned>(
    tag: &'static str,
    entries: &[Entry<'_>],
) -> Result<U, (Option<String>, Error)> {
    fn view<'a>(e: &'a Entry<'_>) -> (Cow<'a, str>, ParamValue<'a>) {
        (Cow::Borrowed(e.field.as_ref()), e.value.view())
    }
    build_map::<U>(tag, entries.iter().map(view)).map_err(|err| {
        let field = entries
            .iter()
            .find(|e| build_map::<U>(tag, std::iter::once(view(e))).is_err())
            .map(|e| e.field.to_string());
        (field, err)
    })
}

#[cfg(test)]
mod tests {
    use super::{same_bytes, string_end};

    #[test]
    fn string_end_finds_the_first_special_byte() {
        // Every position of the special byte, in and after the 8-byte chunks, with other
        // special bytes after it (a word-at-a-time test may flag those too).
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for len in 0..24 {
                for at in 0..=len {
                    let mut b = vec![b'a'; len];
                    if at < len {
                        b[at] = special;
                        for later in b.iter_mut().skip(at + 1).step_by(3) {
                            *later = b'"';
                        }
                    }
                    assert_eq!(string_end(&b, 0), at, "{special:#x} at {at} of {len}");
                }
            }
        }
        // Bytes that look special to a careless test: 0x20, 0x7f, 0x80, 0xa2, 0xdc.
        let b = [
            0x20, 0x7f, 0x80, 0xa2, 0xdc, 0x21, 0x5b, 0x5d, 0x23, 0xe9, b'"',
        ];
        assert_eq!(string_end(&b, 0), 10);
        assert_eq!(string_end(b"ab\"cdefghij", 3), 11);
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefgh",
            "abcdefghi",
        ];
        for len in 0..40 {
            let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            for i in 0..len {
                let mut b = a.clone();
                b[i] ^= 1;
                assert!(!same_bytes(&a, &b), "differs at {i} of {len}");
            }
        }
        for w in words {
            for v in words {
                assert_eq!(
                    same_bytes(w.as_bytes(), v.as_bytes()),
                    w == v,
                    "{w:?} {v:?}"
                );
            }
        }
    }
}
