//! The error and note types the translator, the parameter builder and the events share.
//!
//! A leaf: it depends on no other intent module but `numeric`, so `translate`, `params`,
//! `shape` and `event` all depend on it and not on each other for these types.

use super::numeric::NumberError;

/// At most this many [`Note`]s per translation (then one [`Note::NotesOmitted`]).
pub(crate) const MAX_NOTES: usize = 16;

/// What to do with parameters that are not fields of the payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExtraParams {
    /// Skip them (the original's behaviour; the cloud sends extras such as `answer_type`).
    /// Each is reported as a [`Note::UnknownParam`].
    #[default]
    Ignore,
    /// Fail with [`TranslateError::UnknownParameter`].
    Reject,
}

/// What to do with payload fields no parameter supplies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MissingFields {
    /// Use the field's default (the original's behaviour: `global_stop` without
    /// `what_to_stop` is common). Each is reported as a [`Note::FieldDefaulted`].
    #[default]
    Default,
    /// Fail with [`TranslateError::MissingField`].
    Reject,
}

/// Why a cloud result or app intent could not become a typed intent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TranslateError {
    /// `parameters` is longer than [`TranslateConfig::max_parameters_len`](crate::intent::TranslateConfig::max_parameters_len).
    #[error("parameters are {len} bytes, more than the limit of {limit}")]
    ParametersTooLarge {
        /// Length in bytes.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// `parameters` is not valid JSON (or has trailing characters).
    #[error("parameters are not valid JSON: {reason}")]
    BadParametersJson {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// serde_json's message.
        reason: String,
    },
    /// `parameters` is JSON but not an object (nor `null`).
    #[error("parameters are {found}, not a JSON object")]
    ParametersNotObject {
        /// What it is (`"an array"`, `"a string"`, ...).
        found: &'static str,
    },
    /// The same parameter appears twice.
    #[error("parameter `{name}` appears twice")]
    DuplicateParameter {
        /// The parameter name.
        name: String,
    },
    /// Two parameters end up as the same field after substitution.
    #[error("parameters `{first}` and `{second}` both become field `{field}`")]
    RenameConflict {
        /// The field.
        field: String,
        /// The parameter seen first.
        first: String,
        /// The parameter seen second.
        second: String,
    },
    /// The member has payload fields but the result has no parameters (the original's
    /// `MissingParams`).
    #[error("`{tag}` needs parameters and there are none")]
    MissingParameters {
        /// The member.
        tag: &'static str,
    },
    /// A numeric parameter did not convert (strict mode).
    #[error("parameter `{param}` (field `{field}`) = {value:?}: {reason}")]
    BadNumber {
        /// The incoming parameter name.
        param: String,
        /// The field it fills.
        field: String,
        /// The value as received.
        value: String,
        /// Why.
        reason: NumberError,
    },
    /// A parameter that is not a field, with [`ExtraParams::Reject`].
    #[error("`{tag}` has no field for parameter `{name}`")]
    UnknownParameter {
        /// The member.
        tag: &'static str,
        /// The incoming parameter name.
        name: String,
    },
    /// A field without parameter, with [`MissingFields::Reject`].
    #[error("no parameter for field `{field}` of `{tag}`")]
    MissingField {
        /// The member.
        tag: &'static str,
        /// The field.
        field: &'static str,
    },
    /// The union's serde mapping rejected the payload (wrong type, out of range, unknown
    /// enum member name, ...).
    #[error("`{tag}` payload rejected{}: {reason}", field.as_ref().map(|f| format!(" at field `{f}`")).unwrap_or_default())]
    BadPayload {
        /// The member.
        tag: &'static str,
        /// The field to blame, when one field alone fails.
        field: Option<String>,
        /// serde's message.
        reason: String,
    },
}

impl From<Box<TranslateError>> for TranslateError {
    fn from(e: Box<TranslateError>) -> Self {
        *e
    }
}

impl TranslateError {
    /// The default [`Reaction`]:
    ///
    /// * transport-level garbage — `ParametersTooLarge`, `BadParametersJson`,
    ///   `ParametersNotObject`, `DuplicateParameter` — sets the intent-error flag, like a
    ///   cloud `Json` error (saying it again will not help);
    /// * content the robot cannot act on — everything else — sets the unmatched intent
    ///   pending, so the robot answers with its "huh?".
    pub fn default_reaction(&self) -> Reaction {
        match self {
            Self::ParametersTooLarge { .. }
            | Self::BadParametersJson { .. }
            | Self::ParametersNotObject { .. }
            | Self::DuplicateParameter { .. } => Reaction::ErrorFlag,
            _ => Reaction::Unmatched,
        }
    }
}

/// Something worth knowing about a successful translation (also logged at debug level).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A parameter that is not a field was skipped.
    UnknownParam {
        /// The incoming name.
        name: Box<str>,
    },
    /// A field got its default value.
    FieldDefaulted {
        /// The field.
        field: &'static str,
    },
    /// A substitution renames a parameter to itself (a no-op in the map).
    RenameToSelf {
        /// The parameter.
        param: &'static str,
    },
    /// More notes were left out.
    NotesOmitted {
        /// How many.
        count: usize,
    },
}

/// What the component does when a translation fails ([`TranslateError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reaction {
    /// Set the unmatched intent pending: the robot reacts with its "huh?".
    Unmatched,
    /// Set the intent-error flag (as for a cloud `error`): the voice UX shows its
    /// error/timeout path.
    ErrorFlag,
    /// Do nothing but report the event (the original's behaviour; the user gets a
    /// listening timeout).
    Drop,
}
