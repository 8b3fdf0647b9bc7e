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
//! * [`TrackLocker`]: a behavior's `tracksToLockWhileActivated`, claimed through it by the
//!   runner (see "Tracks" below), and the holds a class takes while active ("Holds").
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
//! locking is a claim in this table, held from activation to deactivation: the runner,
//! given a [`TrackLocker`] ([`Runner::set_track_locks`](crate::behavior::Runner::set_track_locks);
//! the example robot gives it one over its one arbiter), takes it at the spec's activation
//! step (3), after the `respondToUserIntents` intent is active, and gives it back at
//! deactivation step (5), after the behavior's own work (its frame's action, everything
//! above it) has ended. Its label is `Behavior/tracks`.
//!
//! * **Priority.** The lock ranks as the request the stack serves: the active intent's
//!   priority (see above), else the robot's default ([`TrackLocker::body`]: 128). Rank 0,
//!   preemptible; ties keep arrival order, like every claim.
//! * **A stack locks a part once.** A lock claims only the parts no live lock of the same
//!   runner claims yet (a delegate naming its parent's track adds nothing), so a stack never
//!   waits for itself.
//! * **The stack's own work is not blocked by its lock: it runs masked.** An action started
//!   on a stack holding locks is told what they lock
//!   ([`Action::run_under_locks`](crate::behavior::Action::run_under_locks)); an
//!   [`ArbitratedAction`] leaves those parts out of its claim and the runner records the
//!   ones it needed. An animation played by a delegate of a behavior that locks
//!   `HEAD_TRACK` claims every track but the head and plays without it, as the original's
//!   lock masked that track out of its animations; a turn under a `BODY_TRACK` lock drives
//!   under the lock. No part is claimed twice: the table holds the lock's parts once, and
//!   the action uses them through the lock.
//! * **The lock never fails; it waits.** The behavior is active whatever its lock's state.
//!   A lock a holder outranks (a higher-priority mission, a safety stop) waits, retried on
//!   every tick ([`ArbiterEvent::Waiting`]); a lock that outranks the holders preempts them,
//!   halt before start ([`ArbiterEvent::Preempting`]; a mission capability halts over its
//!   grace). Meanwhile an action of the stack that needs the locked parts does not start
//!   (the runner keeps it in its frame, `Behavior.Action.AwaitsLocks`): it would move a
//!   part someone else holds. Once the lock holds ([`ArbiterEvent::Granted`]), it starts.
//! * **Preempted, the lock gives the parts up and waits again.** A higher claim asks the
//!   lock to halt (a priority-200 mission driving the base against a lock at 128): on the
//!   runner's next tick the action using those parts is stopped first (ended as
//!   [`ActionEnd::Cancelled`](crate::behavior::ActionEnd), `Behavior.Action.LockLost`, as an
//!   action asked to halt), then the lock releases them ([`ArbiterEvent::Released`]) and
//!   waits for them again ([`ArbiterEvent::Waiting`]); the newcomer starts on its next poll,
//!   after both. When the newcomer is done, the lock takes them back before any claim it
//!   outranks. A claim below the lock's priority waits for the behavior to end.
//!
//! # Holds (parts kept from everyone)
//!
//! A track lock lends its parts to its own stack. A behavior near the root of the tree
//! cannot use one to stop a part: it would lend the part to everything above it. The
//! original engine's in-air coordinator (a pass-through near the root) locks `BODY_TRACK`
//! while the robot is lifted so that nothing drives the treads. Here that is a **hold**: a
//! claim on parts that lends them to nobody, taken and given back by the class in the
//! middle of its activation ([`Ctx::hold_tracks`](crate::behavior::Ctx::hold_tracks) /
//! [`Ctx::release_hold`](crate::behavior::Ctx::release_hold), through the runner's
//! [`TrackLocks::hold`](crate::behavior::TrackLocks::hold)); the runner gives back any hold
//! its behavior still has at deactivation step (5), so none outlives it. Its label is
//! `Behavior/hold`.
//!
//! * **Priority: a safety stop.** A hold claims at [`Priority::MAX`](crate::hri::Priority)
//!   with the highest rank and is **not preemptible**: no claim outranks it, whatever its
//!   priority. Against a holder it outranks (any preemptible claim: an action, a track
//!   lock, a mission capability) it preempts, halt before start (a drive running when the
//!   robot is lifted is stopped, visibly, then the hold holds); against a non-preemptible
//!   holder (another hold, a safety-stop capability) it waits, retried every tick. It never
//!   fails: the behavior runs whatever its hold's state.
//! * **Nothing is lent under it.** [`TrackLocks::locked`](crate::behavior::TrackLocks::locked)
//!   and `held` leave holds out, so an action of the holding behavior's own stack claims
//!   the part like anyone else. An action that needs a held part (a turn: the base) is
//!   refused it: it waits or fails as its class says ([`WhenBlocked`]), each step an
//!   [`ArbiterEvent`] naming the hold (`Waiting`/`Refused`, `blocked_by`); an action on
//!   other parts (a head move, speech) runs on. A stack's track lock of a held part waits
//!   for the hold (its actions wait for the lock, as under any holder) and takes the part
//!   once the hold is given back.
//! * **An animation plays masked.** An action started while holds exist is told what they
//!   keep ([`Action::run_masked`](crate::behavior::Action::run_masked)) before its claim:
//!   an [`ArbitratedAction`] leaves out the parts it can play without
//!   ([`ArbitratedAction::maskable`]; [`maskable`] gives an animation's tracks, nothing
//!   for a turn, a head move or speech), so an animation plays without its body track, as
//!   the original's lock masked it out of animations. (An animation already holding the
//!   base when the hold is taken is preempted, like any holder.)
//! * **A mission capability** needing a held part meets the hold like any holder it cannot
//!   outrank: it queues or is rejected per its
//!   [`WhenBusy`](crate::mission::WhenBusy), and starts once the hold is given back.
//! * **Visible.** A hold's grant and release are always reported
//!   ([`ArbiterEvent::Granted`], [`ArbiterEvent::Released`]), contested or not.
//!
//! Cost: nothing for a runner whose stack holds no lock and no behavior a hold (a counter
//! and a length compared per tick, and per action started). While the locks and holds hold
//! and nothing was asked to halt, one compare under the table's lock per tick; no
//! allocation (tested in `robot-runtime-tests/tests/behavior_alloc.rs`).

pub mod action;
pub mod body;
pub mod resource;
pub mod rule;
pub mod table;
pub mod track_lock;

pub use action::{ArbitratedAction, WhenBlocked};
pub use body::{maskable, needs, Body};
pub use resource::{Resource, ResourceSet};
pub use rule::{Claim, Holder, Verdict};
pub use table::{Arbiter, ArbiterEvent, Entry, HoldState, SharedArbiter};
pub use track_lock::TrackLocker;

#[cfg(test)]
mod proptests;
