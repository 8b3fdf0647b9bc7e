//! [`HriIntent`]: a validated `hri_actions_msgs/Intent`, read leniently from any released
//! version's spelling and written canonically (2.x constants).

use super::data::Roles;
use super::error::{push_cold, HriError};
use super::read::{FieldIn, MessageIn, RolesIn, SpareRoles, TopIn};
use super::roles;
use super::vocab::{IntentKind, Modality, Normalization, Role, Source};
use crate::json_kind::kind_of as json_kind;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// A scheduling priority: 0 lowest, 255 highest. The spec's documented default is 128; the
/// message declares no default, so generated bindings start at 0 (the lowest). Here a message
/// that omits priority gets [`Priority::DEFAULT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Priority(pub u8);

impl Priority {
    /// The documented default, 128.
    pub const DEFAULT: Priority = Priority(128);
    /// The highest priority, 255 (a cancel button, a supervisor).
    pub const MAX: Priority = Priority(255);
}

impl Default for Priority {
    fn default() -> Self {
        Priority::DEFAULT
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How sure the producer is that the intent was perceived and interpreted correctly.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub enum Confidence {
    /// A value within 0.0..=1.0 (checked on construction).
    Stated(f32),
    /// The producer did not say (a JSON message without `confidence`, a cloud intent). The
    /// confidence policy decides what that means ([`crate::hri::ConfidencePolicy`]); it is
    /// never silently read as 0.0 or 1.0.
    #[default]
    Unstated,
}

impl Confidence {
    /// A stated confidence, or `None` when `value` is outside 0.0..=1.0 or NaN.
    pub fn new(value: f32) -> Option<Confidence> {
        (0.0..=1.0)
            .contains(&value)
            .then_some(Confidence::Stated(value))
    }

    /// The stated value.
    pub fn value(self) -> Option<f32> {
        match self {
            Confidence::Stated(v) => Some(v),
            Confidence::Unstated => None,
        }
    }
}

/// A validated intent. `data` is a JSON object ([`Roles`]) whose keys passed the role table
/// of [`IntentKind::roles`].
#[derive(Clone, Debug, PartialEq)]
pub struct HriIntent {
    /// Which intent.
    pub intent: IntentKind,
    /// The thematic roles (a JSON object).
    pub data: Roles,
    /// Who expressed it.
    pub source: Source,
    /// How.
    pub modality: Modality,
    /// Scheduling priority.
    pub priority: Priority,
    /// Perception confidence.
    pub confidence: Confidence,
}

/// Options of the lenient reader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Reject a modality that is none of the constants (default: keep it as
    /// [`Modality::Unrecognized`] and report [`HriError::UnknownModality`] as a warning).
    pub reject_unknown_modality: bool,
    /// Reject `data` keys that are no thematic role of the intent (default: keep them and
    /// report [`HriError::UnexpectedRole`] as a warning).
    pub reject_unexpected_roles: bool,
    /// Reject a JSON message with a field that is none of [`HriIntent::FIELDS`] (a typo such
    /// as `priorty`; default: read the message without it and report
    /// [`HriError::UnknownField`] as a warning, naming the field meant when it is close).
    pub reject_unknown_fields: bool,
}

/// The message fields as strings and numbers, before validation: what a transport hands
/// over (the generated CLAD `Hri::Intent`, a ROS message, a JSON object).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IntentFields<'a> {
    /// `intent` (or 0.3.0 `action`).
    pub intent: &'a str,
    /// `data`: JSON object text; empty means `{}`.
    pub data: &'a str,
    /// `source`; empty means not given (read as [`Source::Unknown`], without a note, as a
    /// JSON message without `source`): a transport's unset string field is empty.
    pub source: &'a str,
    /// `modality`; empty means not given (read as [`Modality::Other`], without a warning, as
    /// a JSON message without `modality`): a ROS 2 string field's default is `""`. A
    /// non-empty value that is none of the constants is kept as
    /// [`Modality::Unrecognized`] and reported ([`HriError::UnknownModality`]).
    pub modality: &'a str,
    /// `priority`; `None` when the transport can tell it was omitted.
    pub priority: Option<u8>,
    /// `confidence`; `None` when the transport can tell it was omitted.
    pub confidence: Option<f32>,
}

/// A successful read: the intent plus what the lenient reader corrected and the non-fatal
/// problems it found.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadIntent {
    /// The validated intent.
    pub intent: HriIntent,
    /// Spelling corrections applied (0.3.x quotes, `action`, legacy modalities, ...).
    pub notes: Vec<Normalization>,
    /// Non-fatal problems (unknown modality, unexpected role keys) kept per [`ReadOptions`].
    pub warnings: Vec<HriError>,
}

/// A failed read: every fatal problem found (not only the first), plus the corrections
/// applied before failing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RejectedIntent {
    /// The intent's wire value when it could be read (for reports).
    pub intent: Option<String>,
    /// Every fatal problem.
    pub errors: Vec<HriError>,
    /// Spelling corrections applied.
    pub notes: Vec<Normalization>,
}

impl RejectedIntent {
    /// A message its transport could not decode ([`HriError::Undecodable`] with `reason`).
    pub(crate) fn undecodable(reason: &str) -> RejectedIntent {
        RejectedIntent {
            intent: None,
            errors: vec![HriError::Undecodable {
                reason: reason.to_owned(),
            }],
            notes: Vec::new(),
        }
    }
}

/// The canonical wire form: 2.x constants, `data` as compact JSON text.
#[derive(Clone, Debug, PartialEq)]
pub struct WireIntent {
    /// The intent's canonical value.
    pub intent: String,
    /// `data` as compact JSON object text.
    pub data: String,
    /// The source's canonical value.
    pub source: String,
    /// The modality's canonical value.
    pub modality: String,
    /// The priority (always explicit on the wire).
    pub priority: u8,
    /// The confidence; `None` when unstated (a fixed-layout transport that cannot omit it
    /// writes what its schema documents).
    pub confidence: Option<f32>,
}

struct Reader {
    options: ReadOptions,
    notes: Vec<Normalization>,
    apart: NotesApart,
    errors: Vec<HriError>,
    warnings: Vec<HriError>,
}

/// `data` as received: text (the message's string) or an inline object (JSON bridges).
enum DataIn<'a> {
    Text(Cow<'a, str>),
    /// Text the scanner already found not of the common shape: read by serde_json's reader
    /// alone (what [`RolesIn::parse`] falls back to), not scanned a second time.
    Unscanned(&'a str),
    /// Text whose roles the scanner read already (a JSON message's [`FieldIn::TextRoles`],
    /// or a fixed-layout message's `data` of the common shape): what the text's parse gives.
    TextRoles(RolesIn<'a>),
    Inline(RolesIn<'a>),
}

/// A validated intent whose `data` is still borrowed from what was read ([`RolesIn`]): what
/// the one intake routes without building the owned [`HriIntent`] (a request for the
/// behaviors needs its roles only long enough to build its member).
#[derive(Clone, Debug)]
pub(crate) struct IntentIn<'a> {
    pub(crate) intent: IntentKind,
    pub(crate) data: RolesIn<'a>,
    pub(crate) source: Source,
    pub(crate) modality: Modality,
    pub(crate) priority: Priority,
    pub(crate) confidence: Confidence,
}

impl IntentIn<'_> {
    /// The owned intent, taken out of `self` (left emptied: an intent read where it stays
    /// is not moved to be owned).
    pub(crate) fn take_owned(&mut self) -> HriIntent {
        HriIntent {
            intent: std::mem::replace(&mut self.intent, IntentKind::Custom(String::new())),
            data: self.data.take_roles(),
            source: std::mem::replace(&mut self.source, Source::Unknown),
            modality: std::mem::replace(&mut self.modality, Modality::Other),
            priority: self.priority,
            confidence: self.confidence,
        }
    }

    /// The owned intent.
    pub(crate) fn into_owned(self) -> HriIntent {
        HriIntent {
            intent: self.intent,
            data: self.data.into_roles(),
            source: self.source,
            modality: self.modality,
            priority: self.priority,
            confidence: self.confidence,
        }
    }
}

/// [`ReadIntent`] with the intent's `data` borrowed.
pub(crate) struct ReadIn<'a> {
    pub(crate) intent: IntentIn<'a>,
    /// The notes, but for the [`NotesApart`].
    pub(crate) notes: Vec<Normalization>,
    /// The notes kept apart from the vector.
    pub(crate) apart: NotesApart,
    pub(crate) warnings: Vec<HriError>,
}

impl ReadIn<'_> {
    /// Takes the notes the intake reports (all but the quiet ones), in the reader's order;
    /// `None` when there are none. [`Normalization::InlineData`] alone is the static
    /// [`INLINE_DATA_ONLY`]: nothing allocated for the usual message of a JSON bridge.
    pub(crate) fn take_reported_notes(&mut self) -> Option<Cow<'static, [Normalization]>> {
        let inline = self.apart.inline_data_at.take();
        if self.notes.is_empty() {
            return inline.map(|_| Cow::Borrowed(&INLINE_DATA_ONLY[..]));
        }
        let mut notes = std::mem::take(&mut self.notes);
        if let Some(at) = inline {
            notes.insert(at, Normalization::InlineData);
        }
        Some(Cow::Owned(notes))
    }

    /// The owned read: every note in its place.
    pub(crate) fn into_owned(self) -> ReadIntent {
        let mut notes = self.notes;
        self.apart.put_back(&mut notes);
        ReadIntent {
            intent: self.intent.into_owned(),
            notes,
            warnings: self.warnings,
        }
    }
}

/// [`Normalization::InlineData`] as the only note reported.
static INLINE_DATA_ONLY: [Normalization; 1] = [Normalization::InlineData];

/// The notes of a read kept apart from the others, so that a message with only these grows
/// no vector; put back in their places for a [`ReadIntent`] or a [`RejectedIntent`].
///
/// - The quiet ones, normal and not news, which the intake does not report
///   ([`Normalization::EmptyData`], [`Normalization::DefaultPriority`]: a JSON message
///   without `data` or `priority`).
/// - [`Normalization::InlineData`], on every message of a JSON bridge: the intake reports it,
///   alone as a static list ([`HriEvent::Normalized`](super::HriEvent::Normalized) allocates
///   nothing), or put back among the other notes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NotesApart {
    /// Where [`Normalization::EmptyData`] stands among the other notes.
    pub(super) empty_data_at: Option<usize>,
    /// Where [`Normalization::InlineData`] stands among the other notes (`data` is either
    /// blank or inline: never both this and `empty_data_at`).
    pub(super) inline_data_at: Option<usize>,
    /// [`Normalization::DefaultPriority`], which follows every other note.
    pub(super) default_priority: bool,
}

impl NotesApart {
    /// Puts the notes back among `notes`, where they were found.
    fn put_back(self, notes: &mut Vec<Normalization>) {
        if let Some(at) = self.empty_data_at {
            notes.insert(at, Normalization::EmptyData);
        }
        if let Some(at) = self.inline_data_at {
            notes.insert(at, Normalization::InlineData);
        }
        if self.default_priority {
            notes.push(Normalization::DefaultPriority);
        }
    }
}

impl HriIntent {
    /// The fields a JSON message may have: the 2.x message's, and the 0.3.0 `action` (read
    /// as `intent`). Any other field is reported ([`HriError::UnknownField`]).
    pub const FIELDS: &'static [&'static str] = &[
        "intent",
        "data",
        "source",
        "modality",
        "priority",
        "confidence",
        "action",
    ];

    /// The field of [`HriIntent::FIELDS`] that `field` most likely misspells (at most two
    /// edits away, one for names of five letters or less, case ignored), for reports.
    pub fn closest_field(field: &str) -> Option<&'static str> {
        closest_field(field)
    }

    /// An intent with empty data, source [`Source::Unknown`], modality [`Modality::Other`],
    /// the default priority and unstated confidence.
    pub fn new(intent: IntentKind) -> HriIntent {
        HriIntent {
            intent,
            data: Roles::new(),
            source: Source::Unknown,
            modality: Modality::Other,
            priority: Priority::DEFAULT,
            confidence: Confidence::Unstated,
        }
    }

    /// Sets a role (builder style).
    pub fn with_role(mut self, role: Role, value: impl Into<String>) -> HriIntent {
        self.data
            .insert(role.key().to_owned(), Value::String(value.into()));
        self
    }

    /// Sets the source (builder style).
    pub fn with_source(mut self, source: Source) -> HriIntent {
        self.source = source;
        self
    }

    /// Sets the modality (builder style).
    pub fn with_modality(mut self, modality: Modality) -> HriIntent {
        self.modality = modality;
        self
    }

    /// Sets the priority (builder style).
    pub fn with_priority(mut self, priority: u8) -> HriIntent {
        self.priority = Priority(priority);
        self
    }

    /// Sets a stated confidence (builder style); out-of-range values leave it unstated.
    pub fn with_confidence(mut self, confidence: f32) -> HriIntent {
        self.confidence = Confidence::new(confidence).unwrap_or(Confidence::Unstated);
        self
    }

    /// A role's string value.
    pub fn role(&self, role: Role) -> Option<&str> {
        self.data.role(role)
    }

    /// Reads an intent from the message's fields (see [`IntentFields`]).
    pub fn from_fields(
        fields: IntentFields<'_>,
        options: ReadOptions,
    ) -> Result<ReadIntent, RejectedIntent> {
        HriIntent::read_fields(fields, options, &mut SpareRoles::default()).map(ReadIn::into_owned)
    }

    /// [`HriIntent::from_fields`], `data` borrowed.
    ///
    /// `data`'s roles are read onto `spare`'s vector (see [`SpareRoles`]).
    pub(crate) fn read_fields<'a>(
        fields: IntentFields<'a>,
        options: ReadOptions,
        spare: &mut SpareRoles,
    ) -> Result<ReadIn<'a>, RejectedIntent> {
        let r = Reader::new(options);
        let confidence = fields.confidence.map(f64::from);
        // The common shape read here, onto the spare vector: what the reader's own parse of
        // the text would give (it tries the same scanner first).
        let data = match super::scan::roles_onto(fields.data, spare.lend()) {
            Some(roles) => DataIn::TextRoles(roles),
            None => DataIn::Unscanned(fields.data),
        };
        r.finish(
            Some(fields.intent),
            data,
            Some(fields.source),
            Some(fields.modality),
            fields.priority.map(Ok),
            confidence,
        )
    }

    /// Reads an intent from a JSON message (rosbridge style: the message's fields as keys).
    /// Lenient: the 0.3.0 field `action`, quoted 0.3.x constants, legacy modality spellings,
    /// `data` given as an inline object; `source`/`modality` may be absent (read as unknown
    /// and other). Every problem of the message is reported, not only the first.
    ///
    /// The message is read into a borrowed shape (its strings are not copied when they hold
    /// no escapes), not into a `serde_json::Value`: the common shape by a scanner of its
    /// own (`hri/scan.rs`), anything else by serde_json's parser; what it reports is what
    /// [`HriIntent::from_json_value`] reports for the same text.
    pub fn from_json(text: &str, options: ReadOptions) -> Result<ReadIntent, RejectedIntent> {
        HriIntent::read_json(text, options, &mut SpareRoles::default()).map(ReadIn::into_owned)
    }

    /// [`HriIntent::from_json`], `data` borrowed.
    ///
    /// `data`'s roles are read onto `spare`'s vector (see [`SpareRoles`]).
    ///
    /// Inlined into its caller: out of line, the short path's answer was moved from its
    /// `Option` into this `Result` and then to the caller (a copy of the read per request,
    /// about 80 instructions, BENCHMARKS.md stop 40).
    #[inline(always)]
    pub(crate) fn read_json<'a>(
        text: &'a str,
        options: ReadOptions,
        spare: &mut SpareRoles,
    ) -> Result<ReadIn<'a>, RejectedIntent> {
        // A message that needs no correction beyond inline `data` and reports no problem is
        // read by the short path, straight from its text; any other is scanned into its
        // fields and read by the reader (see `common`). The roles' vector lent to a short
        // path that gives up is dropped with what it read: the scanner then reads onto a
        // new one (an unusual message pays one allocation).
        if let Some(read) = super::common::read_common(text, spare.lend()) {
            return Ok(read);
        }
        let mut message = MessageIn::default();
        if super::scan::message_into(text, &mut message, spare.lend()).is_some() {
            return message.read(options);
        }
        drop(message);
        match serde_json::from_str::<TopIn<'_>>(text) {
            Ok(TopIn::Object(mut message)) => message.read(options),
            Ok(TopIn::Other(value)) => Err(not_an_object(&value)),
            Err(e) => Err(RejectedIntent {
                intent: None,
                errors: vec![HriError::MalformedMessage {
                    reason: e.to_string(),
                }],
                notes: Vec::new(),
            }),
        }
    }

    /// [`HriIntent::from_json`] on an already parsed value.
    pub fn from_json_value(
        value: &Value,
        options: ReadOptions,
    ) -> Result<ReadIntent, RejectedIntent> {
        HriIntent::read_value(value, options).map(ReadIn::into_owned)
    }

    /// [`HriIntent::from_json_value`], `data` borrowed.
    pub(crate) fn read_value(
        value: &Value,
        options: ReadOptions,
    ) -> Result<ReadIn<'_>, RejectedIntent> {
        let Some(obj) = value.as_object() else {
            return Err(not_an_object(value));
        };
        HriIntent::read_object(obj, options)
    }

    /// [`HriIntent::from_json`] on an already parsed object.
    pub fn from_json_object(
        obj: &serde_json::Map<String, Value>,
        options: ReadOptions,
    ) -> Result<ReadIntent, RejectedIntent> {
        HriIntent::read_object(obj, options).map(ReadIn::into_owned)
    }

    /// [`HriIntent::from_json_object`], `data` borrowed.
    pub(crate) fn read_object(
        obj: &serde_json::Map<String, Value>,
        options: ReadOptions,
    ) -> Result<ReadIn<'_>, RejectedIntent> {
        let mut message = MessageIn::default();
        for (key, value) in obj {
            let field = match value {
                Value::String(s) => FieldIn::Str(Cow::Borrowed(s)),
                Value::Object(m) if key == "data" => FieldIn::Roles(RolesIn::from_map(m)),
                other => FieldIn::Other(Cow::Borrowed(other)),
            };
            if message.set(key, field).is_some() {
                message.unknown.push(Cow::Borrowed(key));
            }
        }
        message.read(options)
    }

    /// The canonical wire form (2.x constants; `data` as compact JSON text).
    pub fn to_wire(&self) -> WireIntent {
        WireIntent {
            intent: self.intent.wire().to_owned(),
            data: self.data.to_json_text(),
            source: self.source.wire().to_owned(),
            modality: self.modality.wire().to_owned(),
            priority: self.priority.0,
            confidence: self.confidence.value(),
        }
    }

    /// The canonical JSON message (the 2.x field names; `data` as a string, as in the
    /// message; `confidence` omitted when unstated).
    pub fn to_json(&self) -> Value {
        let w = self.to_wire();
        let mut m = Map::new();
        m.insert("intent".into(), Value::String(w.intent));
        m.insert("data".into(), Value::String(w.data));
        m.insert("source".into(), Value::String(w.source));
        m.insert("modality".into(), Value::String(w.modality));
        m.insert("priority".into(), Value::from(w.priority));
        if let Some(c) = w.confidence {
            m.insert("confidence".into(), Value::from(c));
        }
        Value::Object(m)
    }
}

/// A message that is no JSON object: what was found instead.
#[cold]
fn not_an_object(value: &Value) -> RejectedIntent {
    RejectedIntent {
        intent: None,
        errors: vec![HriError::MalformedMessage {
            reason: format!("found {}", json_kind(value)),
        }],
        notes: Vec::new(),
    }
}

impl<'a> MessageIn<'a> {
    /// The lenient reading: every problem of the message, in the order of the checks.
    /// Reads the message where the caller keeps it (its `data` taken out of it): a message
    /// is large, and moving it costs a copy.
    pub(super) fn read(&mut self, options: ReadOptions) -> Result<ReadIn<'a>, RejectedIntent> {
        let mut r = Reader::new(options);
        if !self.unknown.is_empty() {
            r.unknown_fields(&self.unknown);
        }
        let intent = r.string_field(self.intent.as_ref(), "intent");
        let action = r.string_field(self.action.as_ref(), "action");
        let intent = match (intent, action) {
            (Some(i), Some(a)) if i.trim() != a.trim() => {
                push_cold(&mut r.errors, || HriError::ConflictingIntentFields {
                    intent: i.to_owned(),
                    action: a.to_owned(),
                });
                Some(i)
            }
            (Some(i), _) => Some(i),
            (None, Some(a)) => {
                r.note(Normalization::LegacyActionField);
                Some(a)
            }
            (None, None) => None,
        };
        let data = match self.data.take() {
            None => DataIn::Text(Cow::Borrowed("")),
            Some(FieldIn::Str(s)) => DataIn::Text(s),
            Some(FieldIn::TextRoles { roles, .. }) => DataIn::TextRoles(roles),
            Some(FieldIn::Roles(roles)) => {
                r.apart.inline_data_at = Some(r.notes.len());
                DataIn::Inline(roles)
            }
            Some(v) if v.is_null() => DataIn::Text(Cow::Borrowed("")),
            Some(other) => {
                push_cold(&mut r.errors, || HriError::DataNotObject {
                    intent: intent.unwrap_or_default().trim().to_owned(),
                    found: json_kind(&other.to_value()),
                });
                DataIn::Text(Cow::Borrowed(""))
            }
        };
        let source = r.string_field(self.source.as_ref(), "source");
        let modality = r.string_field(self.modality.as_ref(), "modality");
        let priority = self.priority.as_ref().map(|v| match v {
            FieldIn::Other(v) => priority_of(v).ok_or_else(|| v.to_string()),
            other => Err(other.to_value().to_string()),
        });
        let confidence = match &self.confidence {
            None => None,
            Some(FieldIn::Other(v)) => match &**v {
                Value::Null => None,
                Value::Number(n) => Some(n.as_f64().unwrap_or(f64::NAN)),
                other => {
                    push_cold(&mut r.errors, || HriError::FieldType {
                        field: "confidence",
                        expected: "a number",
                        found: json_kind(other),
                    });
                    None
                }
            },
            Some(other) => {
                push_cold(&mut r.errors, || HriError::FieldType {
                    field: "confidence",
                    expected: "a number",
                    found: json_kind(&other.to_value()),
                });
                None
            }
        };
        r.finish(intent, data, source, modality, priority, confidence)
    }
}

/// A `priority` as the reader takes it: an integer in 0..=255 (the reader and its short
/// path, `common.rs`, both ask here).
pub(super) fn priority_of(value: &Value) -> Option<u8> {
    value.as_u64().and_then(|p| u8::try_from(p).ok())
}

/// A stated `confidence` as the reader takes it: a number within 0..=1, checked before it
/// is narrowed to `f32` (the reader and its short path both ask here).
pub(super) fn confidence_of(value: f64) -> Option<Confidence> {
    Confidence::new(value as f32).filter(|_| (0.0..=1.0).contains(&value))
}

/// See [`HriIntent::closest_field`].
fn closest_field(field: &str) -> Option<&'static str> {
    crate::suggest::closest(field, HriIntent::FIELDS.iter().copied())
}

impl Reader {
    fn new(options: ReadOptions) -> Reader {
        Reader {
            options,
            notes: Vec::new(),
            apart: NotesApart::default(),
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Adds a note. The first makes room for a few at once, allocated directly rather than
    /// through the vector's growth path.
    fn note(&mut self, note: Normalization) {
        if self.notes.capacity() == 0 {
            self.notes = Vec::with_capacity(4);
        }
        self.notes.push(note);
    }

    fn string_field<'v>(
        &mut self,
        value: Option<&'v FieldIn<'_>>,
        field: &'static str,
    ) -> Option<&'v str> {
        match value {
            None => None,
            Some(FieldIn::Str(s)) => Some(s),
            Some(v) if v.is_null() => None,
            Some(other) => {
                push_cold(&mut self.errors, || HriError::FieldType {
                    field,
                    expected: "a string",
                    found: json_kind(&other.to_value()),
                });
                None
            }
        }
    }

    /// Reports the keys that are no field of the message, once each, in the order a parsed
    /// object keeps its keys (whatever serde_json's map is built with).
    #[cold]
    fn unknown_fields(&mut self, keys: &[Cow<'_, str>]) {
        let keys: Map<String, Value> = keys.iter().map(|k| (k.to_string(), Value::Null)).collect();
        for field in keys.keys() {
            let e = HriError::UnknownField {
                field: field.clone(),
                meant: closest_field(field),
            };
            if self.options.reject_unknown_fields {
                push_cold(&mut self.errors, || e);
            } else {
                push_cold(&mut self.warnings, || e);
            }
        }
    }

    fn finish<'a>(
        mut self,
        intent: Option<&str>,
        data: DataIn<'a>,
        source: Option<&str>,
        modality: Option<&str>,
        priority: Option<Result<u8, String>>,
        confidence: Option<f64>,
    ) -> Result<ReadIn<'a>, RejectedIntent> {
        let kind = match intent {
            None => {
                push_cold(&mut self.errors, || HriError::MissingIntent);
                None
            }
            Some(i) => {
                let kind = IntentKind::read(i, &mut self.notes);
                if kind.wire().is_empty() {
                    push_cold(&mut self.errors, || HriError::EmptyIntent);
                    None
                } else {
                    Some(kind)
                }
            }
        };
        // The intent's wire value, for reports (copied only when one is made).
        let wire = |kind: &Option<IntentKind>| kind.as_ref().map_or("", |k| k.wire()).to_owned();
        let data = match data {
            DataIn::Inline(roles) | DataIn::TextRoles(roles) => Some(roles),
            DataIn::Text(Cow::Borrowed(t)) | DataIn::Unscanned(t) if t.trim().is_empty() => {
                self.empty_data()
            }
            DataIn::Text(Cow::Owned(t)) if t.trim().is_empty() => self.empty_data(),
            DataIn::Text(Cow::Borrowed(t)) => self.parse_data(&kind, t, wire, RolesIn::parse),
            DataIn::Unscanned(t) => self.parse_data(&kind, t, wire, RolesIn::parse_with_serde_json),
            // Owned text (a message's `data` string with escapes): its roles are copied out.
            DataIn::Text(Cow::Owned(t)) => self
                .parse_data(&kind, &t, wire, RolesIn::parse)
                .map(RolesIn::into_static),
        };
        if let (Some(kind), Some(data)) = (&kind, &data) {
            let mut unexpected = Vec::new();
            roles::check_in(kind, data, &mut self.errors, &mut unexpected);
            for key in unexpected {
                let e = HriError::UnexpectedRole {
                    intent: kind.wire().to_owned(),
                    key,
                };
                if self.options.reject_unexpected_roles {
                    push_cold(&mut self.errors, || e);
                } else {
                    push_cold(&mut self.warnings, || e);
                }
            }
        }
        // An absent source or modality is unknown or other, as their unset values read.
        let source = source.map_or(Source::Unknown, |s| Source::read(s, &mut self.notes));
        let modality = modality.map_or(Modality::Other, |m| Modality::read(m, &mut self.notes));
        if let Modality::Unrecognized(v) = &modality {
            let e = HriError::UnknownModality { value: v.clone() };
            if self.options.reject_unknown_modality {
                push_cold(&mut self.errors, || e);
            } else {
                push_cold(&mut self.warnings, || e);
            }
        }
        let priority = match priority {
            None => {
                // The last note of a read (nothing below notes anything).
                self.apart.default_priority = true;
                Priority::DEFAULT
            }
            Some(Ok(p)) => Priority(p),
            Some(Err(value)) => {
                push_cold(&mut self.errors, || HriError::PriorityOutOfRange { value });
                Priority::DEFAULT
            }
        };
        let confidence = match confidence {
            None => Confidence::Unstated,
            Some(c) => confidence_of(c).unwrap_or_else(|| {
                push_cold(&mut self.errors, || HriError::ConfidenceOutOfRange {
                    value: c,
                });
                Confidence::Unstated
            }),
        };
        match (kind, data) {
            (Some(intent), Some(data)) if self.errors.is_empty() => Ok(ReadIn {
                intent: IntentIn {
                    intent,
                    data,
                    source,
                    modality,
                    priority,
                    confidence,
                },
                notes: self.notes,
                apart: self.apart,
                warnings: self.warnings,
            }),
            (kind, _) => {
                let wire = wire(&kind);
                self.apart.put_back(&mut self.notes);
                Err(RejectedIntent {
                    intent: (!wire.is_empty()).then_some(wire),
                    errors: self.errors,
                    notes: self.notes,
                })
            }
        }
    }

    /// Blank `data`: the empty object, as every consumer reads it (a quiet note).
    fn empty_data<'t>(&mut self) -> Option<RolesIn<'t>> {
        self.apart.empty_data_at = Some(self.notes.len());
        Some(RolesIn::default())
    }

    /// Reads `data` text into roles with `parse`, or reports why it cannot be.
    fn parse_data<'t>(
        &mut self,
        kind: &Option<IntentKind>,
        text: &'t str,
        wire: impl Fn(&Option<IntentKind>) -> String,
        parse: impl FnOnce(&'t str) -> Result<Result<RolesIn<'t>, Value>, serde_json::Error>,
    ) -> Option<RolesIn<'t>> {
        match parse(text) {
            Ok(Ok(roles)) => Some(roles),
            Ok(Err(other)) => {
                push_cold(&mut self.errors, || HriError::DataNotObject {
                    intent: wire(kind),
                    found: json_kind(&other),
                });
                None
            }
            Err(e) => {
                push_cold(&mut self.errors, || HriError::MalformedData {
                    intent: wire(kind),
                    reason: e.to_string(),
                });
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<ReadIntent, RejectedIntent> {
        HriIntent::from_json(&v.to_string(), ReadOptions::default())
    }

    #[test]
    fn a_2x_message_reads_and_writes_back_identically() {
        let msg = json!({
            "intent": "__intent_move_to__",
            "data": "{\"goal\":\"kitchen\"}",
            "source": "__remote_supervisor__",
            "modality": "__modality_touchscreen__",
            "priority": 200,
            "confidence": 1.0
        });
        let r = read(msg.clone()).unwrap();
        assert!(r.notes.is_empty() && r.warnings.is_empty());
        assert_eq!(r.intent.role(Role::Goal), Some("kitchen"));
        assert_eq!(r.intent.priority, Priority(200));
        assert_eq!(r.intent.to_json(), msg);
    }

    #[test]
    fn a_030_message_is_read_leniently_and_written_canonically() {
        let msg = json!({
            "action": "\"__intent_say__\"",
            "data": "{\"object\":\"hello\"}",
            "source": "\"__unknown_agent__\"",
            "modality": "\"speech\"",
            "priority": 128,
            "confidence": 0.5
        });
        let r = read(msg).unwrap();
        assert_eq!(r.intent.intent, IntentKind::Say);
        assert_eq!(r.intent.source, Source::UnknownAgent);
        assert_eq!(r.intent.modality, Modality::Speech);
        assert!(r.notes.contains(&Normalization::LegacyActionField));
        assert!(r
            .notes
            .contains(&Normalization::QuotedConstant { field: "intent" }));
        let w = r.intent.to_wire();
        assert_eq!(w.intent, "__intent_say__");
        assert_eq!(w.modality, "__modality_speech__");
        assert_eq!(w.source, "__unknown_agent__");
    }

    #[test]
    fn omitted_priority_is_128_and_omitted_confidence_is_unstated() {
        let r = read(json!({"intent": "__intent_wakeup__"})).unwrap();
        assert_eq!(r.intent.priority, Priority::DEFAULT);
        assert_eq!(r.intent.confidence, Confidence::Unstated);
        assert!(r.notes.contains(&Normalization::DefaultPriority));
        assert!(r.notes.contains(&Normalization::EmptyData));
    }

    /// The notes the intake does not report are kept apart while reading and put back in
    /// their places: the order of every note is the order of the checks.
    #[test]
    fn quiet_notes_are_put_back_in_their_places() {
        use Normalization::*;
        let expected = vec![
            LegacyActionField,
            QuotedConstant { field: "intent" },
            EmptyData,
            QuotedConstant { field: "source" },
            LegacyModality {
                received: "speech".into(),
            },
            DefaultPriority,
        ];
        let r = read(json!({
            "action": "\"__intent_wakeup__\"", "source": "\"p1\"", "modality": "speech"
        }))
        .unwrap();
        assert_eq!(r.notes, expected);
        let e = read(json!({
            "action": "\"__intent_wakeup__\"", "source": "\"p1\"", "modality": "speech",
            "confidence": 2.0
        }))
        .unwrap_err();
        assert_eq!(e.notes, expected);
        let r = read(json!({"intent": "__intent_wakeup__"})).unwrap();
        assert_eq!(r.notes, [EmptyData, DefaultPriority]);
        let r = read(json!({"intent": "__intent_wakeup__", "priority": 1, "data": ""})).unwrap();
        assert_eq!(r.notes, [EmptyData]);
        let only_quoted =
            read(json!({"intent": "\"__intent_wakeup__\"", "data": "{}", "priority": 1}));
        assert_eq!(
            only_quoted.unwrap().notes,
            [QuotedConstant { field: "intent" }]
        );
    }

    #[test]
    fn every_error_of_a_message_is_reported() {
        let e = read(json!({
            "intent": "__intent_guide__",
            "data": "{\"goal\": \"x\"}",
            "priority": 300,
            "confidence": 1.5
        }))
        .unwrap_err();
        let kinds: Vec<_> = e.errors.iter().map(HriError::kind).collect();
        assert_eq!(
            kinds,
            [
                "missing_role",
                "priority_out_of_range",
                "confidence_out_of_range"
            ]
        );
        assert_eq!(e.intent.as_deref(), Some("__intent_guide__"));
    }

    #[test]
    fn misspelt_fields_name_the_field_meant() {
        assert_eq!(closest_field("priorty"), Some("priority"));
        assert_eq!(closest_field("confidance"), Some("confidence"));
        assert_eq!(closest_field("Intent"), Some("intent"));
        assert_eq!(closest_field("header"), None);
        assert_eq!(closest_field(&"x".repeat(1000)), None);
    }

    #[test]
    fn custom_intents_are_kept_with_any_data() {
        let r = read(json!({"intent": "make_coffee", "data": "{\"sugar\": 2}"})).unwrap();
        assert_eq!(r.intent.intent, IntentKind::Custom("make_coffee".into()));
        assert_eq!(r.intent.to_wire().data, "{\"sugar\":2}");
    }

    /// A fixed-layout message's `data` (scanned once, then read by serde_json alone when it
    /// is not of the common shape) reads as the same text in a JSON message's `data` string.
    #[test]
    fn fields_data_reads_as_a_json_data_string() {
        let datas = [
            "{\"recipient\": \"person_1\"}",
            "{}",
            "",
            "   ",
            " {\"goal\": \"kitchen\"} ",
            "{\"object\": {\"nested\": [1, 2]}}",
            "{\"goal\": 1e3, \"object\": \"a\\\"b\"}",
            "{\"goal\": ",
            "[1, 2]",
            "\"text\"",
            "not json",
        ];
        for data in datas {
            let fields = HriIntent::from_fields(
                IntentFields {
                    intent: "__intent_engage_with__",
                    data,
                    source: "person_1",
                    modality: "__modality_motion__",
                    priority: Some(128),
                    confidence: None,
                },
                ReadOptions::default(),
            );
            let json = read(json!({
                "intent": "__intent_engage_with__",
                "data": data,
                "source": "person_1",
                "modality": "__modality_motion__",
                "priority": 128,
            }));
            assert_eq!(fields, json, "{data:?}");
        }
    }

    #[test]
    fn from_fields_reads_a_fixed_layout_message() {
        let r = HriIntent::from_fields(
            IntentFields {
                intent: "__intent_engage_with__",
                data: "{\"recipient\": \"person_1\"}",
                source: "person_1",
                modality: "__modality_motion__",
                priority: Some(128),
                confidence: Some(0.6),
            },
            ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(r.intent.source, Source::Person("person_1".into()));
        assert_eq!(r.intent.confidence, Confidence::Stated(0.6));
    }
}
