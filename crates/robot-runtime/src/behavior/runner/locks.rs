//! The runner's side of `tracksToLockWhileActivated` and of holds (see
//! [`track_locks`](crate::behavior::track_locks)): a behavior's lock taken at activation
//! step (3) and given back at deactivation step (5); an action started under its stack's
//! locks uses the locked parts instead of claiming them, starts once the locks hold them and
//! is stopped if a higher claim takes them. A hold a class took
//! ([`Ctx::hold_tracks`](crate::behavior::Ctx::hold_tracks)) is given back at the same step
//! if its class did not; an action started while holds exist is first masked of what they
//! keep. None of it runs while no frame holds a lock and no behavior a hold.

use crate::behavior::action::{Action, ActionEnd};
use crate::behavior::core::{Continuation, DelegationOutcome};
use crate::behavior::ids::BehaviorId;
use crate::behavior::track_locks::{LockId, LockedParts, TrackLocks};
use crate::intent::IntentUnion;

use super::Runner;

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// Gives the runner the robot's track locks (by default it has none and locks nothing).
    /// Locks and holds taken through a previous one are given back to it first (a class
    /// that kept a hold's id finds it gone: [`Ctx::release_hold`](crate::behavior::Ctx::release_hold)
    /// says false); configure it before the first tick.
    pub fn set_track_locks(&mut self, locks: Box<dyn TrackLocks>) {
        let c = &mut self.core;
        if let Some(old) = c.m.track_locks.as_mut() {
            for f in &mut c.s.stack {
                if let Some(l) = f.lock.take() {
                    old.unlock(l);
                }
            }
            for (_, h) in c.m.holds.drain(..) {
                old.unlock(h);
            }
        }
        c.m.holds.clear();
        c.locking_frames = 0;
        c.m.track_locks = Some(locks);
    }

    /// The lock `id`'s `tracksToLockWhileActivated` took when it was activated (None when it
    /// is not active, locks nothing new, or the runner has no track locks).
    pub fn track_lock(&self, id: BehaviorId) -> Option<LockId> {
        let p = self.stack_pos(id)?;
        self.core.s.stack[p].lock
    }

    /// The parts the stack's locks hold now and the parts they lock (held or not), as the
    /// robot's resource bits; both empty without locks.
    pub fn locked_parts(&self) -> (LockedParts, LockedParts) {
        match (&self.core.m.track_locks, self.core.locking_frames) {
            (Some(l), 1..) => (l.held(), l.locked()),
            _ => (LockedParts::NONE, LockedParts::NONE),
        }
    }

    /// The holds behavior `id` has now ([`Ctx::hold_tracks`](crate::behavior::Ctx::hold_tracks);
    /// empty when it holds nothing).
    pub fn holds_of(&self, id: BehaviorId) -> impl Iterator<Item = LockId> + '_ {
        self.core
            .m
            .holds
            .iter()
            .filter(move |(b, _)| *b == id)
            .map(|(_, h)| *h)
    }

    /// The parts the behaviors' holds have now and the parts they keep from everyone (held
    /// or not yet), as the robot's resource bits; both empty without holds.
    pub fn held_back_parts(&self) -> (LockedParts, LockedParts) {
        match &self.core.m.track_locks {
            Some(l) if !self.core.m.holds.is_empty() => l.held_back(),
            _ => (LockedParts::NONE, LockedParts::NONE),
        }
    }

    /// Deactivation step (5) for holds: gives back every hold `id` still has.
    pub(super) fn release_holds(&mut self, id: BehaviorId) {
        let m = &mut self.core.m;
        if m.holds.is_empty() {
            return;
        }
        let Some(locks) = m.track_locks.as_mut() else {
            return;
        };
        m.holds.retain(|&(b, h)| {
            if b == id {
                tracing::debug!(?h, "Behavior.HoldReleased");
                locks.unlock(h);
            }
            b != id
        });
    }

    /// Activation step (3): locks `id`'s tracks at the active intent's priority (the one
    /// its `respondToUserIntents` claimed in step 2, or one a behavior below it serves).
    pub(super) fn lock_tracks(&mut self, id: BehaviorId) {
        let c = &mut self.core;
        let n = &c.s.nodes[id.index()];
        if n.tracks.is_empty() {
            return;
        }
        let Some(locks) = c.m.track_locks.as_mut() else {
            return;
        };
        let priority = c.m.intents.active().map(|a| a.meta().priority);
        let lock = locks.lock(n.name.as_str(), &n.tracks, priority);
        tracing::debug!(behavior = %n.name, ?lock, "Behavior.TracksLocked");
        if let (Some(lock), Some(f)) = (lock, c.s.stack.last_mut()) {
            f.lock = Some(lock);
            c.locking_frames += 1;
        }
    }

    /// Tells `action`, about to run on the top frame, what the holds keep from everyone
    /// (it plays without what it can do without), then what its stack locks; returns the
    /// locked parts it uses and whether it must wait for the locks to hold them.
    #[inline]
    pub(super) fn run_under_locks(&mut self, action: &mut dyn Action) -> (LockedParts, bool) {
        let c = &mut self.core;
        if let (Some(locks), false) = (&c.m.track_locks, c.m.holds.is_empty()) {
            let masked = action.run_masked(locks.held_back().1);
            if !masked.is_empty() {
                tracing::debug!(
                    action = action.name(),
                    parts = masked.0,
                    "Behavior.Action.Masked"
                );
            }
        }
        match (&c.m.track_locks, c.locking_frames) {
            (Some(locks), 1..) => {
                let lent = action.run_under_locks(locks.locked());
                (lent, !lent.is_subset(locks.held()))
            }
            _ => (LockedParts::NONE, false),
        }
    }

    /// Starts frame `i`'s action once the stack's locks hold what it uses.
    #[inline(never)]
    pub(super) fn start_when_locked(&mut self, i: usize) {
        let c = &mut self.core;
        let held =
            c.m.track_locks
                .as_ref()
                .map_or(LockedParts::NONE, |l| l.held());
        let clock = c.s.clock;
        let Some(f) = c.s.stack.get_mut(i) else {
            return;
        };
        if !f.lent.is_subset(held) {
            return;
        }
        f.awaiting_locks = false;
        if let Some(a) = f.action.as_mut() {
            tracing::debug!(action = a.name(), "Behavior.Action.Started");
            a.start(&clock);
        }
    }

    /// Once per tick while a frame holds a lock: the locks move on, and an action using
    /// parts a higher claim took from them is stopped (ended as cancelled; its
    /// continuation, if any, runs as after a cancellation).
    #[inline(never)]
    pub(super) fn poll_track_locks(&mut self) {
        let Some(locks) = self.core.m.track_locks.as_mut() else {
            return;
        };
        let lost = locks.poll();
        if lost.is_empty() {
            return;
        }
        for f in &mut self.core.s.stack {
            if f.awaiting_locks || !f.lent.intersects(lost) {
                continue;
            }
            let Some(mut a) = f.action.take() else {
                continue;
            };
            a.on_end(ActionEnd::Cancelled);
            tracing::info!(action = a.name(), "Behavior.Action.LockLost");
            if let Continuation::Call(k) = std::mem::replace(&mut f.cont, Continuation::None) {
                f.ready = Some((k, DelegationOutcome::Action(ActionEnd::Cancelled)));
            }
        }
    }
}
