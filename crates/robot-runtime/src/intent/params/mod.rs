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

use super::error::{ExtraParams, Note, TranslateError, MAX_NOTES};
use super::map::Sanitation;
use super::numeric::{self, Number, NumericMode};
use super::shape::Shape;

/// Internal error type: boxed, so results stay one word on the hot path.
pub(crate) type Fail = Box<TranslateError>;

type Error = serde_json::Error;

mod build;
mod scan;
mod value;

use build::*;
pub(crate) use build::{build_direct, build_entries, build_seq, build_slots};
use scan::*;
pub(crate) use value::ParamValue;
use value::*;

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
    /// Dropped by hand ([`Drop`] below): most slots hold borrowed strings or nothing.
    pub inline: std::mem::ManuallyDrop<[Option<Slot<'de>>; INLINE]>,
    pub heap: Vec<Option<Slot<'de>>>,
}

/// Drops only what owns memory (a copied string, a JSON tree): a slot holding a borrowed
/// string, a number or nothing costs one test, where the compiler's drop of the whole array
/// called a drop of every slot.
impl Drop for SlotStorage<'_> {
    #[inline]
    fn drop(&mut self) {
        for slot in self.inline.iter_mut() {
            if let Some(Slot {
                value: value @ (ParamValue::Str(Cow::Owned(_)) | ParamValue::Json(_)),
                ..
            }) = slot
            {
                drop(std::mem::replace(value, ParamValue::Null));
            }
        }
    }
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
    /// Built element by element (`from_fn`), so each `None` is written where it belongs:
    /// from an array literal (`[const { None }; 8]`) the compiler builds the 256-byte array
    /// in a temporary and copies it into place, reading back bytes it has just written.
    #[inline(always)]
    pub fn new() -> Self {
        SlotStorage {
            inline: std::mem::ManuallyDrop::new(std::array::from_fn(|_| None)),
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
