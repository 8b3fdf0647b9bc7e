//! [`Capability`]: what the mission controller schedules (a skill, task or behavior that
//! needs resources), and the per-capability arbitration policy.
//!
//! # Mapping to behaviors and actions
//!
//! A capability is the controller's handle on something that runs over several ticks. In
//! the behavior system it is a thin adapter around a behavior (or an action node):
//!
//! | `Capability` | behavior / action |
//! |---|---|
//! | [`Capability::resources`] | the resources the behavior's actions drive (declared once) |
//! | [`Capability::start`] | activate the behavior with the request (the intent record gives it the roles, source, modality, priority, confidence and arrival time) |
//! | [`Capability::tick`] | tick the behavior; `Success`/`Failure` map to [`Progress::Succeeded`]/[`Progress::Failed`] |
//! | [`Capability::halt`] | request cancellation (first call), then poll it (later calls) until the behavior reports it has stopped: [`HaltProgress::Halted`] |
//!
//! The controller calls `halt` once when it asks (at the time of the request), then once
//! per later tick until it returns `Halted` or the policy's
//! [`CapabilityPolicy::halt_timeout_ticks`] pass; only then does the preempting request
//! start (halt before start). Likewise `tick` is first called on the first tick after the
//! start: each call after the first stands for one tick of elapsed time. A capability that
//! never confirms is force-released, reported, and marked unresponsive until it finally
//! confirms: every request for it is rejected meanwhile — new ones, resumed ones, queued
//! ones when their turn comes, and one that was waiting for that very halt.

use super::ids::{CapabilityId, RequestId};
use crate::hri::{IntentRecord, Priority};

/// What a request that cannot preempt does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhenBusy {
    /// Wait in the queue until the resources free up (or the request expires).
    Queue,
    /// Be rejected at once.
    Reject,
}

/// What happens to a running request of this capability when it is preempted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnPreempt {
    /// It ends (cancelled, reason "preempted").
    Cancel,
    /// It is paused: halted, kept, and re-requested by `CONTINUE_ACTIVITY`.
    Pause,
}

/// How the arbiter treats a capability's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CapabilityPolicy {
    /// Can a running request be preempted at all (a safety stop cannot)? Default true.
    pub preemptible: bool,
    /// Tie-break between equal priorities: the higher rank wins; equal ranks keep arrival
    /// order (the holder keeps its resources). Default 0.
    pub rank: u8,
    /// Default [`WhenBusy::Queue`].
    pub when_busy: WhenBusy,
    /// Default [`OnPreempt::Cancel`].
    pub on_preempt: OnPreempt,
    /// Ticks a halt may take before the capability is force-released (default 3).
    pub halt_timeout_ticks: u32,
}

impl Default for CapabilityPolicy {
    fn default() -> Self {
        CapabilityPolicy {
            preemptible: true,
            rank: 0,
            when_busy: WhenBusy::Queue,
            on_preempt: OnPreempt::Cancel,
            halt_timeout_ticks: 3,
        }
    }
}

/// A request as a capability sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The request's id.
    pub id: RequestId,
    /// The capability.
    pub capability: CapabilityId,
    /// Its priority (the intent's).
    pub priority: Priority,
    /// The object (activity name, content id, goal...) when the route names one.
    pub object: Option<String>,
    /// The intent that caused it, with its metadata; `None` for requests made in code.
    pub intent: Option<IntentRecord>,
    /// True when this start resumes a paused request.
    pub resumed: bool,
}

/// A running capability's state after a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Still running.
    Running,
    /// Done.
    Succeeded,
    /// Failed, with why.
    Failed(String),
}

/// A halting capability's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaltProgress {
    /// Still stopping (its resources are still in use).
    Halting,
    /// Stopped: its resources are free.
    Halted,
}

/// Something the mission controller runs: a skill, task or behavior with the resources it
/// needs. See the module documentation for how it maps onto a behavior.
pub trait Capability<R: super::Resource> {
    /// A name, matched by `STOP_ACTIVITY`/`CANCEL_ACTIVITY` objects and used in logs.
    fn name(&self) -> &str;
    /// The resources it needs while running.
    fn resources(&self) -> super::ResourceSet<R>;
    /// Its arbitration policy.
    fn policy(&self) -> CapabilityPolicy {
        CapabilityPolicy::default()
    }
    /// Starts serving `request` (resources are granted). An error ends the request as
    /// failed and frees the resources.
    fn start(&mut self, request: &Request) -> Result<(), String>;
    /// Advances it.
    fn tick(&mut self) -> Progress;
    /// Requests it to stop (first call) and polls the stop (later calls).
    fn halt(&mut self) -> HaltProgress;
}
