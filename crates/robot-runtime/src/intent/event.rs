//! The typed event stream of the intent component, and the small types events carry.

use std::borrow::Cow;
use std::fmt;
use std::num::NonZeroU64;

pub use super::error::Reaction;
use super::error::TranslateError;

/// Where an intent came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IntentSource {
    /// Not specified (the original's `Unknown`; used by tests).
    #[default]
    Unknown,
    /// A cloud voice result.
    Voice,
    /// The companion app (`AppIntent`).
    App,
    /// Developer tools (webviz, console, the SDK's fake intents, the inspector).
    Dev,
    /// A ROS4HRI intent (`hri_actions_msgs/Intent`) as JSON or a CLAD envelope: a
    /// touchscreen, a chatbot, a supervisor.
    Hri,
    /// A ROS4HRI intent from a ROS 2 graph (`/intents` over rmw_zenoh).
    Ros2,
}

impl IntentSource {
    /// The original's name (`"Voice"`, ...), as analytics expect it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Unknown => "Unknown",
            Self::Voice => "Voice",
            Self::App => "App",
            Self::Dev => "Dev",
            Self::Hri => "Hri",
            Self::Ros2 => "Ros2",
        }
    }
}

impl fmt::Display for IntentSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Identifies one activation (per component instance, strictly increasing from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ActivationId(pub NonZeroU64);

impl fmt::Display for ActivationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Who activated an intent: a behavior of a [`Runner`](crate::behavior::Runner) (its typed
/// ID; the runner names it: [`Runner::owner_name`](crate::behavior::Runner::owner_name)),
/// or a name given by code that activates without a runner.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// A behavior of the runner that drives the component.
    Behavior(crate::behavior::BehaviorId),
    /// A name.
    Named(Cow<'static, str>),
}

impl Owner {
    /// The name, for [`Owner::Named`].
    pub fn as_name(&self) -> Option<&str> {
        match self {
            Self::Named(n) => Some(n),
            Self::Behavior(_) => None,
        }
    }
    /// The behavior, for [`Owner::Behavior`].
    pub fn behavior(&self) -> Option<crate::behavior::BehaviorId> {
        match self {
            Self::Behavior(id) => Some(*id),
            Self::Named(_) => None,
        }
    }
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Behavior(id) => write!(f, "behavior {id}"),
            Self::Named(n) => f.write_str(n),
        }
    }
}

impl From<&'static str> for Owner {
    fn from(s: &'static str) -> Self {
        Self::Named(Cow::Borrowed(s))
    }
}

impl From<String> for Owner {
    fn from(s: String) -> Self {
        Self::Named(Cow::Owned(s))
    }
}

impl From<Cow<'static, str>> for Owner {
    fn from(s: Cow<'static, str>) -> Self {
        Self::Named(s)
    }
}

impl From<crate::behavior::BehaviorId> for Owner {
    fn from(id: crate::behavior::BehaviorId) -> Self {
        Self::Behavior(id)
    }
}

impl PartialEq<str> for Owner {
    fn eq(&self, other: &str) -> bool {
        self.as_name() == Some(other)
    }
}

impl PartialEq<&str> for Owner {
    fn eq(&self, other: &&str) -> bool {
        self.as_name() == Some(*other)
    }
}

/// How an intent got its tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Match<T> {
    /// The cloud intent string has an entry in the map's cloud table.
    Cloud {
        /// The cloud intent string.
        intent: &'static str,
    },
    /// The app intent string has an entry in the map's app table.
    App {
        /// The app intent string.
        intent: &'static str,
    },
    /// A `simple_voice_responses` entry (the member `simple_voice_response`).
    SimpleVoice {
        /// The cloud intent string.
        intent: &'static str,
    },
    /// An entry of the HRI map (`hri_intent_map.json`).
    Hri {
        /// The entry's intent (its canonical wire value).
        intent: &'static str,
    },
    /// The unmatched tag, and why.
    Unmatched(UnmatchedReason<T>),
    /// Set directly by code (`set_pending`, a developer tool's request), not through a map.
    Direct,
}

impl<T> Match<T> {
    /// True for [`Match::Unmatched`].
    pub fn is_unmatched(&self) -> bool {
        matches!(self, Self::Unmatched(_))
    }
}

/// Why an intent became the unmatched tag (the robot's "huh?").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnmatchedReason<T> {
    /// Not in the map (e.g. `intent_system_unsupported`, which the cloud sends for gibberish).
    UnknownIntent {
        /// The intent string received.
        intent: Box<str>,
    },
    /// The result's intent string is empty.
    EmptyIntent,
    /// The entry exists but its feature gate is off (evaluated at lookup time).
    FeatureDisabled {
        /// The intent string.
        intent: &'static str,
        /// The gate.
        feature: &'static str,
    },
    /// A simple voice response, but the union has no `simple_voice_response` member.
    NoSimpleVoiceTag {
        /// The intent string.
        intent: &'static str,
    },
    /// The tag it mapped to is not on the whitelist.
    NotWhitelisted {
        /// The tag the map gave.
        tag: T,
    },
    /// Translation failed and the reaction is [`Reaction::Unmatched`]; the error is in the
    /// preceding [`IntentEvent::TranslateFailed`].
    TranslateFailed,
}

/// Why a pending intent was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// Not claimed within the deadline (also sets the unclaimed flag).
    Expired {
        /// Ticks it was pending.
        age_ticks: u64,
    },
    /// `drop_pending` / `drop_any_pending` / `take_pending`.
    Requested,
    /// The pending-slot policy: an incoming intent of lower priority than the pending one is
    /// dropped (never pending; the event names the incoming intent), unless it is always
    /// admitted (a stop or cancel: [`super::shed`]). An incoming intent of equal or higher
    /// priority replaces the pending one ([`IntentEvent::Replaced`]).
    LowerPriority {
        /// The incoming intent's priority.
        priority: crate::hri::Priority,
        /// The pending intent's priority.
        pending: crate::hri::Priority,
    },
}

/// Why an active intent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeactivateReason {
    /// `ActiveIntentGuard::release`.
    Released,
    /// The guard was dropped (reported at the component's next call).
    GuardDropped,
    /// `activate_replacing` activated another intent.
    Superseded,
    /// `force_deactivate`.
    Forced,
}

/// Why the intent-error flag was set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CloudErrorCause {
    /// A cloud `error` message (`ErrorType` member name and extra text).
    Error {
        /// The cloud's `ErrorType` member name (`"Server"`, `"Json"`, ...).
        error: &'static str,
        /// Free text.
        extra: String,
    },
    /// A cloud `streamTimeout`.
    StreamTimeout,
    /// A `result` that could not be translated, with reaction [`Reaction::ErrorFlag`] (the
    /// error is in the preceding [`IntentEvent::TranslateFailed`]).
    BadResult,
    /// A datagram from the cloud process that is not a valid message (truncated, unknown
    /// tag, bad UTF-8, ...): see
    /// [`IntentComponent::handle_undecodable`](super::IntentComponent::handle_undecodable).
    Undecodable {
        /// Why it does not decode.
        error: crate::wire::UnpackError,
    },
}

impl CloudErrorCause {
    /// The analytics flag of `robot.cloud_response_failed` (`i1`): 1 for an error, 0 for a
    /// timeout.
    pub fn is_error(&self) -> bool {
        !matches!(self, Self::StreamTimeout)
    }
}

/// A sticky flag of the component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// Set when a pending intent expired unclaimed.
    Unclaimed,
    /// Set by a cloud error/timeout (or a translation failure with `Reaction::ErrorFlag`).
    Error,
    /// The cloud stream is open.
    StreamOpen,
}

/// Everything that changes the component's state, in order.
///
/// Delivered two ways (see the module docs): buffered per tick ([`events`], cleared at the
/// start of each `update`) and pushed synchronously to subscribers (`subscribe`). Every
/// event is also logged with `tracing` under the original's log names ([`IntentEvent::name`]).
///
/// [`events`]: super::IntentComponent::events
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
// A one-byte tag of its own: without it the variant is encoded in a niche of the inline
// `HriEvent` and every match and drop decodes it first (counted on the cloud path: about
// 5 more instructions per event dropped, BENCHMARKS.md "Every source as fast as the cloud
// path").
#[repr(u8)]
pub enum IntentEvent<T> {
    /// An intent became pending.
    Pending {
        /// Its tag.
        tag: T,
        /// Its source.
        source: IntentSource,
        /// How it got its tag.
        matched: Match<T>,
    },
    /// A pending intent was replaced by a newer one (intents never queue). The new one's
    /// [`IntentEvent::Pending`] follows.
    Replaced {
        /// The tag that was pending.
        old: T,
        /// Its source.
        old_source: IntentSource,
        /// The new tag.
        new: T,
    },
    /// A pending intent reached the warning age (one tick before the deadline by default).
    ClaimDeadlineNear {
        /// Its tag.
        tag: T,
        /// Ticks pending.
        age_ticks: u64,
    },
    /// A pending intent was removed.
    Dropped {
        /// Its tag.
        tag: T,
        /// Its source.
        source: IntentSource,
        /// Why.
        reason: DropReason,
    },
    /// The unclaimed flag was set (follows `Dropped { reason: Expired }`).
    Unclaimed {
        /// The tag that nobody claimed.
        tag: T,
        /// Its source.
        source: IntentSource,
    },
    /// The pending intent became the active one.
    Activated {
        /// The activation.
        id: ActivationId,
        /// Its tag.
        tag: T,
        /// Its source.
        source: IntentSource,
        /// Who activated it.
        owner: Owner,
    },
    /// The active intent ended.
    Deactivated {
        /// The activation.
        id: ActivationId,
        /// Its tag.
        tag: T,
        /// Why.
        reason: DeactivateReason,
    },
    /// Pending intents stopped expiring (the first `TimeoutHold` was taken).
    TimeoutHeld,
    /// The last `TimeoutHold` was dropped: the pending intent gets a fresh deadline.
    TimeoutResumed,
    /// The trigger word (wake word) is pending.
    TriggerWordPending {
        /// The cloud stream will open.
        will_open_stream: bool,
        /// From the mute button (the long deadline).
        from_mute: bool,
        /// Another trigger word was pending and was replaced (they don't queue).
        replaced: bool,
    },
    /// A trigger word was ignored because a `TriggerWordSuppression` is alive.
    TriggerWordSuppressed,
    /// The pending trigger word was cleared by a behavior.
    TriggerWordCleared,
    /// The pending trigger word is one tick from its deadline.
    TriggerWordDeadlineNear,
    /// The pending trigger word expired.
    TriggerWordDropped,
    /// A cloud `result` or app intent could not be translated. What follows depends on
    /// `reaction`: a `Pending` unmatched intent, a `CloudError { BadResult }`, or nothing.
    TranslateFailed {
        /// Where it came from.
        source: IntentSource,
        /// The cloud/app intent string.
        intent: Box<str>,
        /// What went wrong.
        error: TranslateError,
        /// What the component did about it.
        reaction: Reaction,
    },
    /// The intent-error flag was set.
    CloudError {
        /// Why.
        cause: CloudErrorCause,
    },
    /// The cloud opened its stream.
    StreamOpened,
    /// A flag was cleared (by a reset call, a result, or a trigger word).
    FlagCleared {
        /// Which.
        flag: Flag,
    },
    /// A cloud message the intent component does not handle (e.g. `debugFile`).
    CloudIgnored {
        /// The message's member name.
        message: &'static str,
    },
    /// What the HRI intake reported of an HRI request (read, validated, admitted or not).
    Hri(crate::hri::HriEvent),
    /// An admitted HRI request the map routes to the mission controller waits for it
    /// ([`IntentComponent::take_mission_requests`](super::IntentComponent::take_mission_requests)).
    ToMissions {
        /// The member its entry names.
        tag: T,
        /// Its source.
        source: IntentSource,
        /// Its id.
        id: crate::hri::IntentId,
    },
    /// A full input queue shed requests of this source (see [`super::shed`]).
    InputsShed {
        /// The source.
        source: IntentSource,
        /// How many since the last report.
        count: u64,
    },
}

impl<T> IntentEvent<T> {
    /// The original engine's log name for this event (for log-compatible tooling).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Pending { .. } => "UserIntentComponent.SetUserIntentPending",
            Self::Replaced { .. } => "UserIntentComponent.SetUserIntentPending.AlreadyPending",
            Self::ClaimDeadlineNear { .. } => {
                "UserIntentComponent.Update.PendingIntentNotCleared.Warn"
            }
            Self::Dropped {
                reason: DropReason::Expired { .. },
                ..
            } => "UserIntentComponent.Update.PendingIntentNotCleared.ForceClear",
            Self::Dropped { .. } => "UserIntentComponent.DropUserIntent",
            Self::Unclaimed { .. } => "behavior.voice_command.dropped",
            Self::Activated { .. } => "UserIntentComponent.ActivateUserIntent",
            Self::Deactivated { .. } => "UserIntentComponent.DeactivateUserIntent",
            Self::TimeoutHeld => "UserIntentComponent.TimeoutHeld",
            Self::TimeoutResumed => "UserIntentComponent.TimeoutResumed",
            Self::TriggerWordPending { .. } => "UserIntentComponent.SetTriggerWordPending",
            Self::TriggerWordSuppressed => "UserIntentComponent.SetTriggerWordPending.Disabled",
            Self::TriggerWordCleared => "UserIntentComponent.ClearPendingTriggerWord",
            Self::TriggerWordDeadlineNear => "UserIntentComponent.Update.PendingTriggerNotCleared",
            Self::TriggerWordDropped => {
                "UserIntentComponent.Update.PendingTriggerNotCleared.ForceClear"
            }
            Self::TranslateFailed { .. } => {
                "UserIntentComponent.SetCloudIntentPendingFromJSON.BadParams"
            }
            Self::CloudError { .. } => "UserIntentComponent.UpdatePendingIntent.GotError",
            Self::StreamOpened => "UserIntentComponent.UpdatePendingIntent.StreamOpen",
            Self::FlagCleared { .. } => "UserIntentComponent.FlagCleared",
            Self::CloudIgnored { .. } => "UserIntentComponent.UpdatePendingIntent.SkipOther",
            Self::Hri(e) => match e {
                crate::hri::HriEvent::Normalized { .. } => "HriIntake.Normalized",
                crate::hri::HriEvent::Warning { .. } => "HriIntake.Warning",
                crate::hri::HriEvent::Rejected { .. } => "HriIntake.Rejected",
                crate::hri::HriEvent::Expired { .. } => "HriIntake.Expired",
                crate::hri::HriEvent::Duplicate { .. } => "HriIntake.Duplicate",
                crate::hri::HriEvent::Admitted { .. } => "HriIntake.Admitted",
            },
            Self::ToMissions { .. } => "UserIntentComponent.ToMissions",
            Self::InputsShed { .. } => "UserIntentComponent.InputsShed",
        }
    }
}
