//! User intents: a request — a voice command, an app intent, a ROS4HRI intent from a
//! touchscreen, a supervisor or a ROS 2 graph, a developer tool's choice — becomes a typed
//! member of a generated union that behaviors claim, or a mission for the mission controller.
//!
//! **One door**: every request enters through [`IntentComponent::submit`] as a [`Request`]
//! (each source implements [`IntentRequest`] to decode what arrived once) and gets one
//! [`IntakeOutcome`]; the lookup, the feature gate, the whitelist, the HRI route and the
//! pending-slot policy are each written once (`component/intake.rs`), for every source. Full
//! input queues shed by importance, never a stop ([`shed`]).
//!
//! The pieces, in the order a request goes through them:
//!
//! * [`StaticIntentMap`] (`map`): the tables `robot-codegen` compiles from a
//!   `user_intent_map.json` at build time (cloud intent → tag with its substitution and
//!   numeric plan, app intent → tag, simple voice responses, the unmatched tag, feature
//!   gates). Nothing is parsed on the robot.
//! * [`CloudEvent`] (`cloud`): a cloud message as the component sees it. The robot converts
//!   its generated `CloudMic::Message` with a `From` impl; [`CloudSender`] is the bounded
//!   channel the transport thread feeds, drained in order at every tick. On the tick
//!   thread itself, a datagram can skip the channel: decode it as the generated borrowed
//!   view (`MessageView`, no string copied) and submit a [`Request::Cloud`] borrowing its
//!   strings; a datagram that does not decode is a [`CloudRequest::Undecodable`] request
//!   (the error flag, with the reason in the event).
//! * The HRI intake ([`crate::hri::HriIntake`], owned by the component) and the HRI map
//!   ([`IntentComponent::set_hri_map`]): a ROS4HRI request is read, validated and admitted,
//!   then its map entry says which member it becomes and whether it goes to the behaviors,
//!   the mission controller ([`IntentComponent::take_mission_requests`]) or both.
//! * [`IntentTranslator`] (`translate`, `params`, `numeric`, `shape`): parameters text →
//!   payload. Expands the stringified parameters, applies substitutions, then numeric
//!   conversion ([`NumericMode::Strict`] by default, the original's prefix parsing as
//!   [`NumericMode::OriginalPrefix`]), then builds the payload through the union's serde
//!   mapping. Every failure is a [`TranslateError`] naming the field and the reason; a
//!   [`Reaction`] decides what the robot does about it (the unmatched intent, the error
//!   flag, or nothing). Void intents allocate nothing.
//! * [`IntentComponent`] (`component`): the state machine of the original's
//!   `UserIntentComponent` (spec §2): at most one pending and one active intent, the claim
//!   deadline (3 ticks, warning at 2), trigger word, error and stream flags, whitelist,
//!   activation IDs and sources. Activation returns an [`ActiveIntentGuard`] that
//!   deactivates on drop, a [`TimeoutHold`] suspends expiry while it lives, double
//!   activation is a [`ClaimError`], and every change is an [`IntentEvent`] delivered to
//!   subscribers, buffered per tick and logged with `tracing`.
//! * [`IntentMatcher`] (`matcher`): one type for "by tag", "by full data" and "by predicate",
//!   also loadable from JSON.
//! * [`members`]: the two rules about a union's members ("must appear in the map",
//!   "test-only") and the member names the runtime gives a meaning to, used by every
//!   checker.
//!
//! Everything is generic over [`CladUnion`](crate::union::CladUnion), so the component
//! serves our `UserIntent` and any user's union alike.

mod cloud;
mod component;
mod error;
mod event;
pub mod map;
mod matcher;
pub mod members;
mod meta;
mod numeric;
mod params;
mod request;
mod shape;
pub mod shed;
mod translate;

pub use cloud::{Closed, CloudEvent, CloudJsonError, CloudSender, Sent};
pub use component::{
    ActiveIntent, ActiveIntentGuard, ClaimError, DeactivateError, ExpandedJsonError, IntakeOutcome,
    IntentComponent, IntentConfig, NotAdmitted, PendingIntent, SubscriptionId, TimeoutHold,
    TriggerWordSuppression,
};
pub use event::{
    ActivationId, CloudErrorCause, DeactivateReason, DropReason, Flag, IntentEvent, IntentSource,
    Match, Owner, Reaction, UnmatchedReason,
};
pub use map::{MapEntry, Sanitation, SimpleVoiceResponse, StaticIntentMap};
pub use matcher::{IntentMatcher, IntentPredicate, MatcherError};
pub use meta::IntentMeta;
pub use numeric::{NumberError, NumericMode};
pub use request::{CloudRequest, HriMessage, HriRequest, IntentRequest, Request};
pub use shed::{Importance, Ranker};
pub use translate::{
    ExtraParams, FeatureGate, IntentTranslator, MissingFields, Note, TranslateConfig,
    TranslateError, Translation,
};

/// What the intent component and the behavior system need of a union: a generated
/// [`CladUnion`](crate::union::CladUnion) with serde, `Debug`, equality (full-data matchers)
/// and thread safety. Implemented for every type that qualifies (every generated union), so
/// generic code writes one bound instead of the list.
pub trait IntentUnion:
    crate::union::CladUnion
    + serde::Serialize
    + serde::de::DeserializeOwned
    + std::fmt::Debug
    + PartialEq
    + Send
    + Sync
    + 'static
{
}

impl<U> IntentUnion for U where
    U: crate::union::CladUnion
        + serde::Serialize
        + serde::de::DeserializeOwned
        + std::fmt::Debug
        + PartialEq
        + Send
        + Sync
        + 'static
{
}
