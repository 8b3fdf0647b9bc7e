//! Cloud messages as the intent component sees them, and the channel they arrive through.
//!
//! The runtime cannot name the robot's generated `CloudMic::Message` union, so the robot
//! adapts it to [`CloudEvent`] with a `From` impl (allowed by the orphan rule because
//! `Message` is the robot's type). The impl is written once, here, as a macro the robot
//! invokes on its generated type:
//!
//! ```ignore
//! // in the robot's crate, next to the generated code
//! robot_runtime::cloud_event_from!(crate::clad::cloud_mic::Message);
//! ```
//!
//! `result` becomes [`CloudEvent::Result`], `error` [`CloudEvent::Error`] (the `ErrorType`
//! member's name), `streamTimeout` and `streamOpen` their own variants, every other member
//! [`CloudEvent::Other`] with its name.
//!
//! The transport thread unpacks each datagram (`Message::unpack`, strict) and sends it with
//! a [`CloudSender`] (`sender.send(msg)`); the component drains the channel in order at the
//! start of every tick, so two messages in one tick are both handled.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SendError, SyncSender, TrySendError};
use std::sync::Arc;

use serde::de::DeserializeOwned;

/// A cloud message, in the terms of the intent component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CloudEvent {
    /// `result` (`CloudMic::IntentResult`): the recognized intent.
    Result {
        /// The cloud intent string (≤ 255 bytes on the wire).
        intent: String,
        /// The parameters: a JSON object of strings, as text (≤ 65535 bytes on the wire;
        /// empty when there are none; Go's encoder adds a trailing newline).
        parameters: String,
        /// Human-readable metadata (ignored by the component).
        metadata: String,
    },
    /// `error` (`CloudMic::IntentError`).
    Error {
        /// The `ErrorType` member name (`"Server"`, `"Json"`, ...).
        error: &'static str,
        /// Free text.
        extra: String,
    },
    /// `streamTimeout`.
    StreamTimeout,
    /// `streamOpen`.
    StreamOpen {
        /// The session ID.
        session: String,
    },
    /// Any other member (`debugFile`, messages meant for the anim process, ...).
    Other {
        /// Its member name.
        message: &'static str,
    },
}

impl CloudEvent {
    /// A `result` with these strings and empty metadata.
    pub fn result(intent: impl Into<String>, parameters: impl Into<String>) -> Self {
        Self::Result {
            intent: intent.into(),
            parameters: parameters.into(),
            metadata: String::new(),
        }
    }

    /// Parses a `CloudMic::Message` in CLAD-JSON (what webviz shows and dev tools send):
    /// `{"type": "result", "intent": ..., "parameters": "<stringified JSON>"}`.
    ///
    /// `M` is the robot's generated message union (its serde mapping decides what is a
    /// valid message). A missing `"type"` defaults to `"result"`. Rejected: text that is
    /// not JSON, JSON that is not an object, a message `M` does not accept (unknown type,
    /// wrong field types), and a `result` with an empty `intent` (so `{}` is rejected).
    pub fn from_json<M>(text: &str) -> Result<Self, CloudJsonError>
    where
        M: DeserializeOwned + Into<CloudEvent>,
    {
        let mut value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| CloudJsonError::BadJson {
                reason: e.to_string(),
            })?;
        let obj = value.as_object_mut().ok_or(CloudJsonError::NotAnObject)?;
        obj.entry("type")
            .or_insert_with(|| serde_json::Value::String("result".into()));
        let msg: M = serde_json::from_value(value).map_err(|e| CloudJsonError::BadMessage {
            reason: e.to_string(),
        })?;
        match msg.into() {
            CloudEvent::Result { intent, .. } if intent.is_empty() => {
                Err(CloudJsonError::EmptyIntent)
            }
            ev => Ok(ev),
        }
    }

    /// Like [`CloudEvent::from_json`], but text that does not start with `{` is a bare cloud
    /// intent name (`intent_greeting_hello` → a `result` without parameters). Replaces the
    /// original's "contains `{` and `}`" guess.
    pub fn from_text<M>(text: &str) -> Result<Self, CloudJsonError>
    where
        M: DeserializeOwned + Into<CloudEvent>,
    {
        let t = text.trim();
        if t.starts_with('{') {
            return Self::from_json::<M>(t);
        }
        if t.is_empty() {
            return Err(CloudJsonError::EmptyIntent);
        }
        if t.chars().any(|c| c.is_whitespace() || c == '"' || c == '}') {
            return Err(CloudJsonError::BadIntentName);
        }
        Ok(Self::result(t, ""))
    }

    /// The member name (`"result"`, `"error"`, ...).
    pub fn message_name(&self) -> &'static str {
        match self {
            Self::Result { .. } => "result",
            Self::Error { .. } => "error",
            Self::StreamTimeout => "streamTimeout",
            Self::StreamOpen { .. } => "streamOpen",
            Self::Other { message } => message,
        }
    }
}

/// Why [`CloudEvent::from_json`] / [`CloudEvent::from_text`] rejected a text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CloudJsonError {
    /// Not JSON.
    #[error("not valid JSON: {reason}")]
    BadJson {
        /// serde_json's message.
        reason: String,
    },
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotAnObject,
    /// The message union rejected it (unknown `type`, wrong field types).
    #[error("not a cloud message: {reason}")]
    BadMessage {
        /// serde's message.
        reason: String,
    },
    /// A `result` without an intent string.
    #[error("result without intent")]
    EmptyIntent,
    /// A bare intent name with whitespace or quotes in it.
    #[error("not an intent name")]
    BadIntentName,
}

/// The sending half of the component's cloud channel (bounded; cheap to clone; `Send`).
#[derive(Clone, Debug)]
pub struct CloudSender {
    pub(crate) tx: SyncSender<CloudEvent>,
    /// Shared with the queue: see [`CloudQueue::queued`].
    pub(crate) queued: Arc<AtomicUsize>,
}

impl CloudSender {
    /// Queues a message, blocking while the queue is full (the component drains it every
    /// tick). Fails only when the component is gone.
    pub fn send(&self, event: impl Into<CloudEvent>) -> Result<(), SendError<CloudEvent>> {
        self.queued.fetch_add(1, Ordering::Release);
        self.tx.send(event.into()).inspect_err(|_| {
            self.queued.fetch_sub(1, Ordering::Release);
        })
    }

    /// Queues a message unless the queue is full or the component is gone.
    pub fn try_send(&self, event: impl Into<CloudEvent>) -> Result<(), TrySendError<CloudEvent>> {
        self.queued.fetch_add(1, Ordering::Release);
        self.tx.try_send(event.into()).inspect_err(|_| {
            self.queued.fetch_sub(1, Ordering::Release);
        })
    }
}

/// The component's end of the channel.
#[derive(Debug)]
pub(crate) struct CloudQueue {
    pub tx: SyncSender<CloudEvent>,
    pub rx: Receiver<CloudEvent>,
    /// Messages sent and not yet received, counted before they are sent (so never fewer
    /// than the channel holds): when zero, the per-tick drain does not touch the channel.
    pub queued: Arc<AtomicUsize>,
}

impl CloudQueue {
    pub fn new(capacity: usize) -> Self {
        let (tx, rx) = std::sync::mpsc::sync_channel(capacity);
        Self {
            tx,
            rx,
            queued: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The next queued message, if any (without touching the channel when none was sent).
    #[inline]
    pub fn try_recv(&self) -> Option<CloudEvent> {
        if self.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let ev = self.rx.try_recv().ok()?;
        self.queued.fetch_sub(1, Ordering::AcqRel);
        Some(ev)
    }
}

/// Implements `From<M> for` [`CloudEvent`] for a generated `CloudMic::Message` union `M`
/// (see the [module docs](self)): the robot's adapter, written once.
///
/// `M` must have the members `result` (`intent`, `parameters`, `metadata` strings), `error`
/// (`error`, an enum with `name()`, and `extra`), `streamTimeout` and `streamOpen`
/// (`session`), as `schemas/cloud.clad` declares them; any other member becomes
/// [`CloudEvent::Other`].
#[macro_export]
macro_rules! cloud_event_from {
    ($message:ty) => {
        impl ::core::convert::From<$message> for $crate::intent::CloudEvent {
            fn from(message: $message) -> Self {
                // Named so that no caller's type path can be this alias's own name.
                type AdaptedCloudMessage = $message;
                match message {
                    AdaptedCloudMessage::Result(r) => $crate::intent::CloudEvent::Result {
                        intent: r.intent,
                        parameters: r.parameters,
                        metadata: r.metadata,
                    },
                    AdaptedCloudMessage::Error(e) => $crate::intent::CloudEvent::Error {
                        error: e.error.name(),
                        extra: e.extra,
                    },
                    AdaptedCloudMessage::StreamTimeout(_) => {
                        $crate::intent::CloudEvent::StreamTimeout
                    }
                    AdaptedCloudMessage::StreamOpen(s) => {
                        $crate::intent::CloudEvent::StreamOpen { session: s.session }
                    }
                    other => $crate::intent::CloudEvent::Other {
                        message: other.name(),
                    },
                }
            }
        }
    };
}
