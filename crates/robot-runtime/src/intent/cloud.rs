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
//! start of every tick, so two messages in one tick are both handled. A full channel sheds
//! by importance, never a stop ([`super::shed`]).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::shed::{Importance, Pushed, ShedQueue};

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
///
/// The channel sheds by importance when full ([`super::shed`]): a message that arrives at
/// a full channel pushes out the least important one, the oldest among equals (a `result`
/// whose member a stop request maps to is never the one shed). The component reports what
/// was shed at its next `update` ([`IntentEvent::InputsShed`](super::IntentEvent::InputsShed),
/// source `Voice`).
#[derive(Clone)]
pub struct CloudSender {
    pub(crate) shared: Arc<CloudShared>,
}

impl std::fmt::Debug for CloudSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CloudSender").finish_non_exhaustive()
    }
}

/// What [`CloudSender::send`] did with a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// Queued.
    Queued,
    /// Queued; the channel was full and an older, less important (or as important) message
    /// was shed for it.
    QueuedShedding,
    /// The channel was full of more important messages: this one was shed.
    Shed,
}

/// The component is gone: the message was not sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the intent component is gone")]
pub struct Closed(pub CloudEvent);

impl CloudSender {
    /// Queues a message (never blocks). A full channel sheds by importance (see
    /// [`CloudSender`]). Fails only when the component is gone.
    pub fn send(&self, event: impl Into<CloudEvent>) -> Result<Sent, Closed> {
        let event = event.into();
        if !self.shared.alive.load(Ordering::Acquire) {
            return Err(Closed(event));
        }
        let mut state = self.shared.lock();
        let importance = (state.rank)(&event);
        let sent = match state.queue.push(event, importance) {
            Pushed::Queued => Sent::Queued,
            Pushed::QueuedShedding(_) => Sent::QueuedShedding,
            Pushed::Shed(_) => Sent::Shed,
        };
        if sent != Sent::Queued {
            self.shared.shed.fetch_add(1, Ordering::AcqRel);
        }
        self.shared
            .queued
            .store(state.queue.len(), Ordering::Release);
        Ok(sent)
    }
}

/// How the channel ranks a message (set by the component from its maps).
pub(crate) type RankCloud = Box<dyn Fn(&CloudEvent) -> Importance + Send>;

pub(crate) struct CloudState {
    pub queue: ShedQueue<CloudEvent>,
    pub rank: RankCloud,
}

/// What the component and its senders share.
pub(crate) struct CloudShared {
    state: Mutex<CloudState>,
    /// Messages queued (a copy of the queue's length, written under the lock): when zero,
    /// the per-tick drain does not lock.
    queued: AtomicUsize,
    /// False once the component is gone.
    alive: AtomicBool,
    /// Messages shed since the channel was made.
    shed: AtomicU64,
}

impl CloudShared {
    fn lock(&self) -> std::sync::MutexGuard<'_, CloudState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The component's end of the channel.
pub(crate) struct CloudQueue {
    pub shared: Arc<CloudShared>,
    /// Shed messages already reported.
    reported: u64,
}

impl Drop for CloudQueue {
    fn drop(&mut self) {
        self.shared.alive.store(false, Ordering::Release);
    }
}

impl std::fmt::Debug for CloudQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CloudQueue")
            .field("queued", &self.shared.queued.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl CloudQueue {
    pub fn new(capacity: usize, rank: RankCloud) -> Self {
        Self {
            shared: Arc::new(CloudShared {
                state: Mutex::new(CloudState {
                    queue: ShedQueue::new(capacity),
                    rank,
                }),
                queued: AtomicUsize::new(0),
                alive: AtomicBool::new(true),
                shed: AtomicU64::new(0),
            }),
            reported: 0,
        }
    }

    /// Ranks messages with `rank` from now on.
    pub fn set_rank(&self, rank: RankCloud) {
        self.shared.lock().rank = rank;
    }

    /// The next queued message, if any (without locking when none was sent).
    #[inline]
    pub fn try_recv(&self) -> Option<CloudEvent> {
        if self.shared.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut state = self.shared.lock();
        let ev = state.queue.pop();
        self.shared
            .queued
            .store(state.queue.len(), Ordering::Release);
        ev
    }

    /// Messages shed since the last call (no lock: the senders count them).
    #[inline]
    pub fn take_shed(&mut self) -> u64 {
        let total = self.shared.shed.load(Ordering::Acquire);
        let new = total - self.reported;
        self.reported = total;
        new
    }
}

/// Implements `From<M> for` [`CloudEvent`] for a generated `CloudMic::Message` union `M`
/// (see [`CloudEvent`](crate::intent::CloudEvent)): the robot's adapter, written once. With its borrowed view
/// `V` as a second argument, also `From<V> for` [`CloudRequest`](super::CloudRequest), the
/// same mapping without a copy (what a datagram decoded on the tick thread becomes).
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
    ($message:ty, $view:ident) => {
        $crate::cloud_event_from!($message);

        impl<'a> ::core::convert::From<$view<'a>> for $crate::intent::CloudRequest<'a> {
            #[inline]
            fn from(view: $view<'a>) -> Self {
                match view {
                    $view::Result(r) => $crate::intent::CloudRequest::Result {
                        intent: r.intent,
                        parameters: r.parameters,
                    },
                    $view::Error(e) => $crate::intent::CloudRequest::Error {
                        error: e.error.name(),
                        extra: e.extra,
                    },
                    $view::StreamTimeout(_) => $crate::intent::CloudRequest::StreamTimeout,
                    $view::StreamOpen(_) => $crate::intent::CloudRequest::StreamOpen,
                    other => $crate::intent::CloudRequest::Other {
                        message: other.name(),
                    },
                }
            }
        }
    };
}
