//! What the mission controller reports: arbitration decisions, lifecycle changes and the
//! final outcome of every request, each with its reason.

use super::ids::{CapabilityId, RequestId};
use crate::hri::{IntentId, Priority};

/// The arbiter's decision on a request, with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The resources were free: started at once.
    Granted,
    /// It outranks every holder of a resource it needs: they are halted first and it starts
    /// when they confirm (or are force-released).
    Preempting {
        /// The requests being halted (including ones that were already halting).
        victims: Vec<RequestId>,
    },
    /// It cannot preempt: it waits.
    Queued {
        /// The requests it waits for (they outrank it or cannot be preempted).
        blocked_by: Vec<RequestId>,
    },
    /// Refused.
    Rejected(RejectReason),
}

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RejectReason {
    /// A holder outranks it (or is not preemptible) and its capability does not queue.
    Busy {
        /// The requests holding what it needs.
        holders: Vec<RequestId>,
    },
    /// The system is suspended (`SUSPEND`); only `WAKEUP` and stop intents are served.
    Suspended,
    /// The capability id is not registered.
    UnknownCapability(CapabilityId),
    /// The capability did not confirm its last halt and was force-released; it takes no
    /// request until it does.
    CapabilityUnresponsive(CapabilityId),
    /// The queue is full of requests that outrank it.
    QueueFull,
    /// Its intent had expired on arrival.
    Expired,
}

/// Why a request ended without completing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CancelReason {
    /// A higher-priority request needed its resources.
    Preempted {
        /// The preempting request.
        by: RequestId,
    },
    /// `STOP_ACTIVITY`/`CANCEL_ACTIVITY` (or [`crate::mission::MissionController::stop`]).
    Stopped {
        /// The stop intent, when it came from one.
        by: Option<IntentId>,
    },
    /// Another client of the arbiter (a behavior action) outranked it for its resources.
    Claimed {
        /// The claim's label in the arbiter.
        by: String,
    },
    /// It expired while queued.
    Expired,
    /// `SUSPEND`.
    Suspended,
    /// Pushed out of a full queue by a higher-ranked request.
    QueueOverflow {
        /// The request that took its place.
        by: RequestId,
    },
    /// The controller shut down.
    Shutdown,
}

/// How a request ended. Every request gets exactly one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It ran and succeeded.
    Completed,
    /// It ran (or tried to start) and failed.
    Failed(String),
    /// The arbiter refused it.
    Rejected(RejectReason),
    /// It was cancelled. `forced`: its capability did not confirm the halt in time and was
    /// force-released.
    Cancelled {
        /// Why.
        reason: CancelReason,
        /// Force-released after a halt timeout.
        forced: bool,
    },
}

/// Why a running request is being halted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HaltReason {
    /// Preempted by this request.
    Preempted(RequestId),
    /// Stopped by an intent (or in code).
    Stopped(Option<IntentId>),
    /// Another client of the arbiter (a behavior action) outranked it for its resources.
    Claimed {
        /// The claim's label in the arbiter.
        by: String,
    },
    /// The system is being suspended.
    Suspended,
    /// Shutdown.
    Shutdown,
}

/// Everything the mission controller reports, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissionEvent {
    /// The arbiter decided on a request.
    Decided {
        /// The request.
        request: RequestId,
        /// Its capability.
        capability: CapabilityId,
        /// Its priority.
        priority: Priority,
        /// The decision and its reason.
        decision: Decision,
    },
    /// A request's capability started (it holds its resources from now on).
    Started {
        /// The request.
        request: RequestId,
        /// Its capability.
        capability: CapabilityId,
        /// True when it resumes a paused request.
        resumed: bool,
    },
    /// A running request was asked to halt.
    HaltRequested {
        /// The request.
        request: RequestId,
        /// Why.
        reason: HaltReason,
    },
    /// A halting request confirmed it stopped, after this many ticks.
    Halted {
        /// The request.
        request: RequestId,
        /// Ticks between the halt request and the confirmation (0: at once).
        ticks: u32,
    },
    /// A halting request did not confirm within its timeout: its resources were
    /// force-released and its capability is unresponsive until it confirms.
    HaltTimedOut {
        /// The request.
        request: RequestId,
        /// Its capability.
        capability: CapabilityId,
        /// The timeout, in ticks.
        ticks: u32,
    },
    /// An unresponsive capability finally confirmed its halt.
    CapabilityRecovered {
        /// The capability.
        capability: CapabilityId,
    },
    /// A preempted request was paused (kept for `CONTINUE_ACTIVITY`).
    Paused {
        /// The request.
        request: RequestId,
    },
    /// A request ended.
    Finished {
        /// The request.
        request: RequestId,
        /// How.
        outcome: Outcome,
    },
    /// A stop or continue intent found nothing to act on, or was outranked.
    ControlIgnored {
        /// The intent's id.
        intent: IntentId,
        /// Why.
        reason: ControlIgnoredReason,
    },
    /// The system was suspended (`SUSPEND`).
    Suspended,
    /// The system was woken up (`WAKEUP`).
    WokenUp,
    /// A `RAW_USER_INPUT` intent was handed to the handler, or reported for lack of one.
    RawInput {
        /// The intent's id.
        intent: IntentId,
        /// True when a handler took it.
        handled: bool,
    },
    /// No route leads from this intent to a capability.
    Unroutable {
        /// The intent's id.
        intent: IntentId,
        /// Its wire value.
        wire: String,
    },
}

/// Why a control intent did nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControlIgnoredReason {
    /// Nothing matches (no current activity, no activity with that object, nothing paused).
    NothingMatches,
    /// Every match has a higher priority than the stop intent.
    Outranked {
        /// The requests it could not stop.
        requests: Vec<RequestId>,
    },
    /// `WAKEUP` while awake or `SUSPEND` while suspended.
    AlreadyInState,
}
