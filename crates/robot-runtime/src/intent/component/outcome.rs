//! Typed results of the component's operations.

use super::*;

/// Why an intent could not be activated or dropped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError<T: fmt::Debug> {
    /// What was asked for is not pending (`pending` says what is, if anything).
    #[error("the requested intent is not pending (pending: {pending:?})")]
    NotPending {
        /// The pending tag, if any.
        pending: Option<T>,
    },
    /// Another intent is active; end it first (or use `activate_replacing`).
    #[error("intent {tag:?} is already active ({id})")]
    AlreadyActive {
        /// The active activation.
        id: ActivationId,
        /// Its tag.
        tag: T,
    },
}

/// Why a guard could not be released.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeactivateError {
    /// The activation is not the component's active one (superseded, forced off, or
    /// another component).
    #[error("activation {id} is not active in this component")]
    NotActive {
        /// The guard's activation.
        id: ActivationId,
    },
}

/// What handling a cloud message or app intent did.
#[derive(Clone, Debug, PartialEq)]
pub enum CloudOutcome<T> {
    /// An intent is pending now (possibly the unmatched one).
    Pending {
        /// Its tag.
        tag: T,
        /// How it got it.
        matched: Match<T>,
    },
    /// Translation failed; `reaction` says what the component did (for
    /// [`Reaction::Unmatched`], the unmatched intent is pending).
    Failed {
        /// What went wrong.
        error: TranslateError,
        /// What was done.
        reaction: Reaction,
    },
    /// A cloud `error` / `streamTimeout`: the intent-error flag is set.
    ErrorFlagSet,
    /// `streamOpen`: the stream-open flag is set.
    StreamOpened,
    /// A message the component does not handle.
    Ignored,
    /// The pending slot holds an intent of higher priority: this one was dropped
    /// ([`DropReason::LowerPriority`]).
    Outranked {
        /// The dropped intent's tag.
        tag: T,
    },
}

/// Why [`IntentComponent::handle_expanded_json`] rejected a text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpandedJsonError {
    /// Not JSON.
    #[error("not valid JSON: {reason}")]
    BadJson {
        /// serde_json's message.
        reason: String,
    },
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotAnObject,
    /// No string `"intent"` key (the original's `MissingIntentKey`).
    #[error("no string \"intent\" key")]
    MissingIntentKey,
}
