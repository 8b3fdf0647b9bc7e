//! A resource-aware mission controller: schedules capabilities from intents and allocates the
//! robot's resources so that no two running capabilities use the same one (the job the
//! ROS4HRI spec gives the mission controller and no public controller does).
//!
//! * [`Resource`] / [`ResourceSet`]: the robot's resources (a robot-defined enum; sets are
//!   bit masks), from [`crate::arbiter`].
//! * [`Capability`]: what runs (start, tick, multi-tick halt), with the resources it needs
//!   and a [`CapabilityPolicy`] (preemptible, rank, queue or reject when busy, cancel or
//!   pause when preempted, halt timeout). Its module documentation maps it onto a behavior.
//! * [`arbiter`](crate::arbiter): the one arbiter of the body; its rule decides (priority,
//!   then the capability's rank, then arrival order) and its table holds the claims of the
//!   controller and of behavior actions alike ([`MissionController::with_arbiter`]).
//! * [`MissionController`]: routes intents, asks the arbiter, preempts with halt-before-start,
//!   handles STOP/CANCEL/CONTINUE/WAKEUP/SUSPEND and RAW_USER_INPUT, and reports every
//!   decision and outcome as a [`MissionEvent`].
//!
//! Invariants (property-tested): no two started-and-unreleased requests hold the same
//! resource; every request ends with exactly one [`Outcome`] (completed, failed, rejected or
//! cancelled, each with its reason).

mod capability;
mod controller;
mod event;
mod ids;

pub use crate::arbiter::{Resource, ResourceSet};
pub use capability::{
    Capability, CapabilityPolicy, HaltProgress, OnPreempt, Progress, Request, WhenBusy,
};
pub use controller::{
    Handling, MissionConfig, MissionController, MissionListener, Phase, RawInputHandler,
};
pub use event::{
    CancelReason, ControlIgnoredReason, Decision, HaltReason, MissionEvent, Outcome, RejectReason,
};
pub use ids::{CapabilityId, RequestId};
