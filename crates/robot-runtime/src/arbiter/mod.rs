//! The one arbiter of the robot's body: every part (base, head, lift, speech, screen,
//! backpack lights, audio: [`Body`]) is held by one thing at a time, whether a behavior's
//! action or a mission capability asks for it.
//!
//! * [`Resource`] / [`ResourceSet`]: resources as a robot-defined enum, sets as bit masks;
//!   [`Body`] is the vocabulary of a Vector-shaped robot, with what each behavior action kind
//!   needs ([`needs`]) and what the original engine's tracks lock ([`Body::of_track`]).
//! * [`rule`]: the decision as a pure function (the benchmarked hot path).
//! * [`Arbiter`]: the table of claims (holding, halting, reserved), shared by the clients as
//!   a [`SharedArbiter`]; [`ArbiterEvent`]s say what happened between them.
//! * [`ArbitratedAction`]: a behavior action that claims through it.
//! * The mission controller ([`crate::mission::MissionController::with_arbiter`]) claims
//!   for its capabilities through the same table.
//!
//! # The policy
//!
//! A claim conflicts with another when they share a resource (or a mission capability, which
//! runs one request at a time). Against each conflicting claim, in order:
//!
//! 1. a claim already halting is going away: the newcomer waits for it;
//! 2. the higher priority wins;
//! 3. equal priorities: the higher rank wins (a capability's
//!    [`CapabilityPolicy::rank`](crate::mission::CapabilityPolicy::rank), an action's
//!    [`ArbitratedAction::rank`]);
//! 4. equal ranks: arrival order — the holder keeps its resources;
//! 5. a claim that is not preemptible (a safety stop) is never beaten.
//!
//! A newcomer that beats every conflicting claim preempts them: **halt before start**. Each
//! is asked to halt and keeps its resources until it has: a mission capability over its
//! halt (polled once per tick, force-released after its
//! [`halt_timeout_ticks`](crate::mission::CapabilityPolicy::halt_timeout_ticks): the grace),
//! a behavior action at its next step (its `on_end` stops its actuators; it has no grace to
//! give). The newcomer holds nothing meanwhile (reserved) and starts once they released.
//! A newcomer that loses waits or gives up: a mission request queues or is rejected per its
//! capability's [`WhenBusy`](crate::mission::WhenBusy); a behavior action waits or fails per
//! [`WhenBlocked`], as its behavior's class says.
//!
//! # How a voice request ranks against an HRI mission
//!
//! Every claim carries the priority of the request it serves: a mission its intent's
//! priority (ROS4HRI's field, 128 when omitted), a behavior's action the priority of the
//! user intent its behavior claimed ([`IntentMeta::priority`](crate::intent::IntentMeta):
//! 128 for a voice or app intent, an HRI request's own when the HRI map sent it to the
//! behaviors). An action of a behavior serving no intent claims at the priority its robot
//! gives it (the example robot: 128). So a voice "go home" and a tablet's guide mission,
//! both 128, keep arrival order: whichever holds the base keeps it and the other waits; a
//! supervisor's priority-255 `MOVE_TO poi_docking`, sent to the behaviors as
//! `system_charger`, halts a guide of 128 before its drive starts.
//!
//! # Tracks (`tracksToLockWhileActivated`)
//!
//! The original engine locked animation tracks while a behavior was active so that nothing
//! else moved them. In these terms a track is a [`Body`] part ([`Body::of_track`]:
//! `BODY_TRACK` is the base, `FACE_TRACK` the screen, ...; `EVENT_TRACK` moves nothing), and
//! locking is a claim held from activation to deactivation at the behavior's priority. The
//! loader checks the key's names; the runner does not take that claim yet (it keeps no
//! handle on an arbiter): a behavior's parts are claimed by its actions, when they start.

pub mod action;
pub mod body;
pub mod resource;
pub mod rule;
pub mod table;

pub use action::{ArbitratedAction, WhenBlocked};
pub use body::{needs, Body};
pub use resource::{Resource, ResourceSet};
pub use rule::{Claim, Holder, Verdict};
pub use table::{Arbiter, ArbiterEvent, Entry, HoldState, SharedArbiter};

#[cfg(test)]
mod proptests;
