//! [`HriError`]: every way an incoming intent can be wrong.

use super::vocab::Role;
use thiserror::Error;

/// Why an intent message is invalid (or, for the non-fatal kinds, questionable). Each error
/// names the field, intent and role involved. The intake reports every one as an
/// [`crate::hri::HriEvent`]; none panics and none is dropped silently.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum HriError {
    /// The message text is not JSON, or not a JSON object.
    #[error("the intent message is not a JSON object: {reason}")]
    MalformedMessage {
        /// What the JSON parser said, or what was found instead of an object.
        reason: String,
    },
    /// The message arrived in a binary encoding (a packed CLAD `Hri::IntentEnvelope` from a
    /// transport) and its bytes do not decode.
    #[error("the intent message does not decode: {reason}")]
    Undecodable {
        /// What the decoder said.
        reason: String,
    },
    /// Neither `intent` nor the 0.3.0 `action` field is present.
    #[error("the intent message has no `intent` (nor 0.3.0 `action`) field")]
    MissingIntent,
    /// The intent is the empty string.
    #[error("the intent is empty")]
    EmptyIntent,
    /// Both `intent` and `action` are present with different values.
    #[error("`intent` ({intent:?}) and 0.3.0 `action` ({action:?}) disagree")]
    ConflictingIntentFields {
        /// The `intent` value.
        intent: String,
        /// The `action` value.
        action: String,
    },
    /// A field has the wrong JSON type.
    #[error("field `{field}` must be {expected}, found {found}")]
    FieldType {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What it was.
        found: &'static str,
    },
    /// `data` is not valid JSON.
    #[error("`data` of {intent} is not valid JSON: {reason}")]
    MalformedData {
        /// The intent's wire value.
        intent: String,
        /// What the JSON parser said.
        reason: String,
    },
    /// `data` is valid JSON but not an object (the spec: it MUST be a JSON object).
    #[error("`data` of {intent} must be a JSON object, found {found}")]
    DataNotObject {
        /// The intent's wire value.
        intent: String,
        /// What it was.
        found: &'static str,
    },
    /// A required thematic role is missing.
    #[error("intent {intent} requires the thematic role `{role}`")]
    MissingRole {
        /// The intent's wire value.
        intent: String,
        /// The role.
        role: Role,
    },
    /// A required thematic role is the empty string.
    #[error("intent {intent}: the thematic role `{role}` is empty")]
    EmptyRole {
        /// The intent's wire value.
        intent: String,
        /// The role.
        role: Role,
    },
    /// A thematic role's value is not a string.
    #[error("intent {intent}: the thematic role `{role}` must be a string, found {found}")]
    RoleNotString {
        /// The intent's wire value.
        intent: String,
        /// The role key.
        role: String,
        /// What it was.
        found: &'static str,
    },
    /// `gaze_mode` is not INDIVIDUAL, GROUP, IDLE or POINT.
    #[error("intent {intent}: gaze_mode {value:?} is not INDIVIDUAL, GROUP, IDLE or POINT")]
    BadGazeMode {
        /// The intent's wire value.
        intent: String,
        /// The value.
        value: String,
    },
    /// A `data` key that is no thematic role of the intent (fatal only with
    /// [`crate::hri::ReadOptions::reject_unexpected_roles`]).
    #[error("intent {intent}: `{key}` is not a thematic role of this intent")]
    UnexpectedRole {
        /// The intent's wire value.
        intent: String,
        /// The key.
        key: String,
    },
    /// The modality is none of the constants, in any version's spelling (fatal only with
    /// [`crate::hri::ReadOptions::reject_unknown_modality`]; otherwise kept as
    /// [`crate::hri::Modality::Unrecognized`]).
    #[error("modality {value:?} is not one of the MODALITY_ constants")]
    UnknownModality {
        /// The value, quotes removed.
        value: String,
    },
    /// A JSON message has a field that is none of [`crate::hri::HriIntent::FIELDS`] (fatal
    /// only with [`crate::hri::ReadOptions::reject_unknown_fields`]; otherwise the message is
    /// read without it). A misspelt `priority` or `confidence` would otherwise silently run
    /// at the default priority or unstated confidence.
    #[error(
        "`{field}` is not a field of the intent message{}; its value is not used",
        meant.map(|m| format!(" (did you mean `{m}`?)")).unwrap_or_default()
    )]
    UnknownField {
        /// The field as received.
        field: String,
        /// The known field it most likely misspells.
        meant: Option<&'static str>,
    },
    /// `priority` is not an integer in 0..=255.
    #[error("priority {value} is not an integer in 0..=255")]
    PriorityOutOfRange {
        /// The value as received.
        value: String,
    },
    /// `confidence` is not a number in 0.0..=1.0 (NaN included).
    #[error("confidence {value} is not within 0.0..=1.0")]
    ConfidenceOutOfRange {
        /// The value as received.
        value: f64,
    },
}

impl HriError {
    /// A short stable name of the kind, for logs and metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            HriError::MalformedMessage { .. } => "malformed_message",
            HriError::Undecodable { .. } => "undecodable",
            HriError::MissingIntent => "missing_intent",
            HriError::EmptyIntent => "empty_intent",
            HriError::ConflictingIntentFields { .. } => "conflicting_intent_fields",
            HriError::FieldType { .. } => "field_type",
            HriError::MalformedData { .. } => "malformed_data",
            HriError::DataNotObject { .. } => "data_not_object",
            HriError::MissingRole { .. } => "missing_role",
            HriError::EmptyRole { .. } => "empty_role",
            HriError::RoleNotString { .. } => "role_not_string",
            HriError::BadGazeMode { .. } => "bad_gaze_mode",
            HriError::UnexpectedRole { .. } => "unexpected_role",
            HriError::UnknownModality { .. } => "unknown_modality",
            HriError::UnknownField { .. } => "unknown_field",
            HriError::PriorityOutOfRange { .. } => "priority_out_of_range",
            HriError::ConfidenceOutOfRange { .. } => "confidence_out_of_range",
        }
    }
}

/// Pushes what `make` builds onto `list`, out of line and marked cold: a reader's problems
/// are built there, so that its common path (a message without problems) stays dense in
/// the instruction cache rather than strewn between the code that builds each report.
#[cold]
#[inline(never)]
pub(crate) fn push_cold<T>(list: &mut Vec<T>, make: impl FnOnce() -> T) {
    list.push(make());
}
