//! [`Request`]: every request the robot takes, whatever its source, in the one form the
//! component's intake reads ([`IntentComponent::submit`](super::IntentComponent::submit)),
//! and [`IntentRequest`], what each source implements to get there.
//!
//! A source decodes what arrived once and hands the intake borrowed parts of that decode: a
//! cloud datagram as a borrowed `MessageView` (its strings are not copied), an HRI envelope
//! as its fields, a ROS 2 sample as the fields of its CDR view. Whoever describes the request
//! (the robot's timeline) reads the same decoded [`Request`]
//! ([`IntentComponent::submit_with`](super::IntentComponent::submit_with)): nothing is
//! decoded twice.
//!
//! | source | request | [`IntentSource`] |
//! |---|---|---|
//! | a cloud message (`CloudMic::Message`) | [`Request::Cloud`] | `Voice` |
//! | an app intent | [`Request::App`] | `App` |
//! | a ROS4HRI message: JSON text or object, fields of a decoded envelope | [`Request::Hri`] | `Hri` |
//! | an `hri_actions_msgs/Intent` from a ROS 2 graph | [`Request::Hri`] | `Ros2` |
//! | a member chosen by a developer tool (the inspector) | [`Request::Direct`] | `Dev` |

use serde_json::{Map, Value};

use super::cloud::CloudEvent;
use super::event::IntentSource;
use crate::hri::{Envelope, IntentFields, Timestamp};
use crate::wire::UnpackError;

/// One request, decoded once, in the terms of the intake. `U` is the user-intent union (for
/// [`Request::Direct`]).
#[derive(Debug)]
pub enum Request<'a, U> {
    /// A message from the cloud process.
    Cloud(CloudRequest<'a>),
    /// An intent from the companion app: `AppIntent { intent, param }`.
    App {
        /// The app intent string.
        intent: &'a str,
        /// Its single parameter.
        param: &'a str,
    },
    /// A ROS4HRI intent.
    Hri(HriRequest<'a>),
    /// A member of the union, chosen by a developer tool (source `Dev`): it needs no lookup,
    /// and passes the whitelist and the pending-slot policy like any other.
    Direct(U),
}

/// A message from the cloud process, decoded (`CloudMic::Message`), or why it does not
/// decode.
#[derive(Debug)]
pub enum CloudRequest<'a> {
    /// `result`: the recognised intent and its stringified parameters.
    Result {
        /// The cloud intent string.
        intent: &'a str,
        /// The parameters (a JSON object of strings, as text; may be empty).
        parameters: &'a str,
    },
    /// `error`.
    Error {
        /// The `ErrorType` member name.
        error: &'static str,
        /// Free text.
        extra: &'a str,
    },
    /// `streamTimeout`.
    StreamTimeout,
    /// `streamOpen`.
    StreamOpen,
    /// Any other member (its name).
    Other {
        /// The member name.
        message: &'static str,
    },
    /// A datagram that is no valid message.
    Undecodable {
        /// Why.
        error: UnpackError,
        /// The bytes as received.
        bytes: &'a [u8],
    },
}

/// A ROS4HRI intent as it arrived.
#[derive(Debug)]
pub struct HriRequest<'a> {
    /// Where it came from: [`IntentSource::Hri`] (a JSON message, a CLAD envelope) or
    /// [`IntentSource::Ros2`] (a ROS 2 graph).
    pub source: IntentSource,
    /// The message.
    pub message: HriMessage<'a>,
    /// When it arrived (robot time, for expiry and de-duplication).
    pub arrived: Timestamp,
}

/// An HRI message in whichever form its transport decoded it to.
#[derive(Debug)]
pub enum HriMessage<'a> {
    /// JSON text (`hri_actions_msgs/Intent` as rosbridge writes it, any released version's
    /// spelling).
    Text(&'a str),
    /// The same, already parsed (a scenario line).
    Object(&'a Map<String, Value>),
    /// The fields of a decoded message with what the transport knows of its envelope.
    Fields(IntentFields<'a>, Envelope),
    /// A message its transport could not decode.
    Undecodable {
        /// The decoder's reason.
        reason: &'a str,
        /// The bytes as received (empty when the transport does not keep them).
        bytes: &'a [u8],
    },
}

impl<U> Request<'_, U> {
    /// Where the request came from.
    pub fn source(&self) -> IntentSource {
        match self {
            Self::Cloud(_) => IntentSource::Voice,
            Self::App { .. } => IntentSource::App,
            Self::Hri(h) => h.source,
            Self::Direct(_) => IntentSource::Dev,
        }
    }
}

impl<'a, U> Request<'a, U> {
    /// A cloud `result`.
    pub fn cloud_result(intent: &'a str, parameters: &'a str) -> Self {
        Self::Cloud(CloudRequest::Result { intent, parameters })
    }

    /// An HRI message, from `source`, arrived at `arrived`.
    pub fn hri(source: IntentSource, message: HriMessage<'a>, arrived: Timestamp) -> Self {
        Self::Hri(HriRequest {
            source,
            message,
            arrived,
        })
    }

    /// An HRI message as JSON text, from `source`, arrived at `arrived`.
    pub fn hri_text(source: IntentSource, text: &'a str, arrived: Timestamp) -> Self {
        Self::hri(source, HriMessage::Text(text), arrived)
    }

    /// A member chosen by a developer tool.
    pub fn direct(intent: U) -> Self {
        Self::Direct(intent)
    }

    /// An HRI message's fields and envelope, from `source`, arrived at `arrived`.
    pub fn hri_fields(
        source: IntentSource,
        fields: IntentFields<'a>,
        envelope: Envelope,
        arrived: Timestamp,
    ) -> Self {
        Self::hri(source, HriMessage::Fields(fields, envelope), arrived)
    }
}

/// What a source implements so that its requests enter through
/// [`IntentComponent::submit`](super::IntentComponent::submit): decode what arrived (once)
/// and hand it, as a [`Request`], to `f`.
///
/// Implemented here for [`Request`] itself and for [`CloudEvent`] (a cloud message decoded
/// on another thread); a robot implements it for its transports' forms (a datagram decoded
/// as a borrowed view, a packed envelope, a ROS 2 sample).
pub trait IntentRequest<U> {
    /// Decodes the request and calls `f` with it.
    fn with_request<R>(self, f: impl FnOnce(Request<'_, U>) -> R) -> R;
}

impl<U> IntentRequest<U> for Request<'_, U> {
    #[inline(always)]
    fn with_request<R>(self, f: impl FnOnce(Request<'_, U>) -> R) -> R {
        f(self)
    }
}

impl<U> IntentRequest<U> for CloudEvent {
    fn with_request<R>(self, f: impl FnOnce(Request<'_, U>) -> R) -> R {
        f(Request::Cloud(self.as_request()))
    }
}

impl<U> IntentRequest<U> for &CloudEvent {
    fn with_request<R>(self, f: impl FnOnce(Request<'_, U>) -> R) -> R {
        f(Request::Cloud(self.as_request()))
    }
}

impl CloudEvent {
    /// The message as the intake reads it.
    pub fn as_request(&self) -> CloudRequest<'_> {
        match self {
            CloudEvent::Result {
                intent, parameters, ..
            } => CloudRequest::Result { intent, parameters },
            CloudEvent::Error { error, extra } => CloudRequest::Error { error, extra },
            CloudEvent::StreamTimeout => CloudRequest::StreamTimeout,
            CloudEvent::StreamOpen { .. } => CloudRequest::StreamOpen,
            CloudEvent::Other { message } => CloudRequest::Other { message },
        }
    }
}
