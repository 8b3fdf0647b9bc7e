//! User intents (placeholder docs).

mod cloud;
mod component;
mod event;
pub mod map;
mod matcher;
mod numeric;
mod params;
mod shape;
mod translate;

pub use cloud::{CloudEvent, CloudJsonError, CloudSender};
pub use component::{
    ActiveIntent, ActiveIntentGuard, ClaimError, CloudOutcome, DeactivateError, ExpandedJsonError,
    IntentComponent, IntentConfig, PendingIntent, SubscriptionId, TimeoutHold,
    TriggerWordSuppression,
};
pub use event::{
    ActivationId, CloudErrorCause, DeactivateReason, DropReason, Flag, IntentEvent, IntentSource,
    Match, Owner, Reaction, UnmatchedReason,
};
pub use map::{MapEntry, Sanitation, SimpleVoiceResponse, StaticIntentMap};
pub use matcher::{IntentMatcher, IntentPredicate, MatcherError};
pub use numeric::{NumberError, NumericMode};
pub use translate::{
    ExtraParams, FeatureGate, IntentTranslator, MissingFields, Note, TranslateConfig,
    TranslateError, Translation,
};
