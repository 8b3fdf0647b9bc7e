//! [`TrackLocks`]: how the runner claims the parts of the body a behavior's
//! `tracksToLockWhileActivated` names, without knowing the robot's resources.
//!
//! The runner is generic over the robot; the robot gives it a [`TrackLocks`] (the example
//! robot: [`crate::arbiter::TrackLocker`] over its one [`SharedArbiter`]), and the runner
//! calls it at the points of the original's activation order (spec §0):
//!
//! * activation step (3): [`lock`](TrackLocks::lock), after the `respondToUserIntents`
//!   intent is activated (so the lock ranks as the request the behavior serves);
//! * deactivation step (5): [`unlock`](TrackLocks::unlock), after the class hook, the
//!   frame's action (interrupted first) and the conditions;
//! * an action started on a stack holding locks: [`locked`](TrackLocks::locked) and
//!   [`held`](TrackLocks::held) tell the action what its stack locks
//!   ([`Action::run_under_locks`](super::Action::run_under_locks));
//! * each tick while a lock or a hold exists: [`poll`](TrackLocks::poll), which moves
//!   waiting locks and holds on and gives up the parts a higher claim took.
//!
//! A **hold** ([`hold`](TrackLocks::hold)) is the other kind of claim a behavior makes
//! through the same trait: taken and given back by its class in the middle of its
//! activation ([`Ctx::hold_tracks`](super::Ctx::hold_tracks) /
//! [`Ctx::release_hold`](super::Ctx::release_hold); the runner gives back what is left at
//! deactivation step (5)), it keeps its parts from *everyone*, its own stack included:
//! nothing is lent under it. The original's in-air coordinator holds `BODY_TRACK` while the
//! robot is lifted, so the treads do not move. An action started while holds exist is told
//! what they keep ([`held_back`](TrackLocks::held_back),
//! [`Action::run_masked`](super::Action::run_masked)): one that can do without those parts
//! (an animation) plays without them; one that cannot (a turn) claims them and is refused
//! them, waiting or failing as its class says. The robot's policy for holds is its own
//! ([`crate::arbiter::TrackLocker`]: above every other claim and not preemptible, a safety
//! stop).
//!
//! A runner without one (the default) locks nothing, and a behavior without tracks costs
//! the runner nothing: everything above is skipped while no frame holds a lock and no
//! behavior a hold.
//!
//! [`SharedArbiter`]: crate::arbiter::SharedArbiter

use crate::hri::Priority;

/// A set of the robot's parts, as the bits of the robot's resource set
/// ([`ResourceSet::bits`](crate::arbiter::ResourceSet::bits)): what crosses the runner,
/// which does not know the robot's resource type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LockedParts(pub u64);

impl LockedParts {
    /// No part.
    pub const NONE: LockedParts = LockedParts(0);

    /// True when no part is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when every part of `self` is in `other`.
    pub fn is_subset(self, other: LockedParts) -> bool {
        self.0 & !other.0 == 0
    }

    /// True when the sets share a part.
    pub fn intersects(self, other: LockedParts) -> bool {
        self.0 & other.0 != 0
    }
}

/// One lock, as its [`TrackLocks`] numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LockId(pub u64);

/// The robot's side of `tracksToLockWhileActivated` (see the module documentation). Every
/// method is called between hooks, never while one runs.
pub trait TrackLocks: Send {
    /// Locks what `tracks` (the behavior's `tracksToLockWhileActivated` names) name, for
    /// the behavior `behavior`, at `priority` (the active intent's; `None`: the robot's
    /// default). The original's lock never fails: a lock that cannot hold at once waits or
    /// preempts under the robot's policy and says so itself. `None`: nothing to lock
    /// (`EVENT_TRACK` only, or no name this robot knows).
    fn lock(
        &mut self,
        behavior: &str,
        tracks: &[Box<str>],
        priority: Option<Priority>,
    ) -> Option<LockId>;

    /// Holds what `tracks` name for the behavior `behavior`, lent to nobody (see the
    /// module documentation), until [`unlock`](Self::unlock). Like a lock, a hold never
    /// fails: one that cannot hold at once waits or preempts under the robot's policy and
    /// says so itself. `None`: nothing to hold (`EVENT_TRACK` only, or no name this robot
    /// knows).
    fn hold(&mut self, behavior: &str, tracks: &[&str]) -> Option<LockId>;

    /// Gives the lock or the hold back, whatever its state.
    fn unlock(&mut self, lock: LockId);

    /// The parts every live lock locks, held or not (holds excluded: they lend nothing).
    fn locked(&self) -> LockedParts;

    /// The parts the live locks hold now (holds excluded).
    fn held(&self) -> LockedParts;

    /// The parts the live holds hold now, and the parts they keep from everyone, held or
    /// not yet (an action started meanwhile is masked of these).
    fn held_back(&self) -> (LockedParts, LockedParts);

    /// Moves waiting locks and holds on (one whose way is free takes its parts) and gives
    /// up the parts of locks a higher claim asked to halt; returns the lent parts given up
    /// (the runner stops the actions that used them, in the same tick, before anything else
    /// runs).
    fn poll(&mut self) -> LockedParts;
}
