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

/// What the intake did with a request, whatever its source
/// ([`IntentComponent::submit`](super::IntentComponent::submit)).
#[derive(Clone, Debug, PartialEq)]
pub enum IntakeOutcome<T> {
    /// An intent is pending now (possibly the unmatched one). For an HRI request the map
    /// routes to both, it also waits for the mission controller
    /// ([`IntentEvent::ToMissions`]).
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
    /// An HRI request the map routes to the mission controller only: it waits for it
    /// ([`IntentComponent::take_mission_requests`](super::IntentComponent::take_mission_requests)).
    ToMissions {
        /// The member its map entry names.
        tag: T,
    },
    /// The HRI intake did not admit the request (see [`NotAdmitted`]); its events say why.
    NotAdmitted(NotAdmitted),
}

/// Why the HRI intake did not admit a request (each is also an [`IntentEvent::Hri`], which
/// says more: the intent, the problems).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAdmitted {
    /// Invalid (every problem is in the event).
    Rejected(crate::hri::IntentId),
    /// Stale on arrival.
    Expired(crate::hri::IntentId),
    /// A restatement of a request admitted just before.
    Duplicate {
        /// This request.
        id: crate::hri::IntentId,
        /// The earlier one.
        of: crate::hri::IntentId,
    },
    /// Its confidence is in the ignore band.
    LowConfidence(crate::hri::IntentId),
    /// Its confidence is in the confirm band: the robot asks before acting.
    NeedsConfirmation(crate::hri::IntentId),
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
