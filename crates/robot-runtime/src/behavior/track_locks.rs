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
//! * each tick while a lock exists: [`poll`](TrackLocks::poll), which moves waiting locks
//!   on and gives up the parts a higher claim took.
//!
//! A runner without one (the default) locks nothing, and a behavior without tracks costs
//! the runner nothing: everything above is skipped while no frame holds a lock.
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

    /// Gives the lock back, whatever its state.
    fn unlock(&mut self, lock: LockId);

    /// The parts every live lock locks, held or not.
    fn locked(&self) -> LockedParts;

    /// The parts the live locks hold now.
    fn held(&self) -> LockedParts;

    /// Moves waiting locks on (a lock whose way is free takes its parts) and gives up the
    /// parts of locks a higher claim asked to halt; returns the parts given up (the runner
    /// stops the actions that used them, in the same tick, before anything else runs).
    fn poll(&mut self) -> LockedParts;
}
