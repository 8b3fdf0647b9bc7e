//! [`TrackLocker`]: the runner's [`TrackLocks`] over the robot's one [`SharedArbiter`]: a
//! behavior's `tracksToLockWhileActivated` is a claim in the same table as mission
//! capabilities and behavior actions, under the same policy (see the
//! [module documentation](super), "Tracks").
//!
//! A lock is in one of four states: new (not decided yet), waiting (a claim it does not
//! outrank holds a part: retried on every poll), reserved (it preempted the holders and
//! waits for them to halt) and holding. It never fails: the behavior is active whatever
//! its lock's state, and every contested step is an [`ArbiterEvent`] (the timeline shows
//! it): `Waiting`, `Preempting`, `Granted` once a contested lock holds, `Released` when it
//! gives back parts someone wanted.

use super::resource::{Resource, ResourceSet};
use super::rule::{Claim, Holder, Verdict};
use super::table::{Arbiter, ArbiterEvent, SharedArbiter};
use super::Body;
use crate::behavior::{LockId, LockedParts, TrackLocks};
use crate::hri::Priority;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LockState {
    New,
    Waiting,
    Reserved,
    Holding,
}

#[derive(Debug)]
struct Lock<R: Resource> {
    claim: Claim<R>,
    label: String,
    state: LockState,
}

/// Track locks claimed through a [`SharedArbiter`] (one per runner: its locks are one
/// stack's). See the module documentation.
pub struct TrackLocker<R: Resource> {
    arbiter: SharedArbiter<R>,
    of_track: fn(&str) -> Option<ResourceSet<R>>,
    default_priority: Priority,
    locks: Vec<Lock<R>>,
    /// The arbiter's halt count at the last full pass (see [`Arbiter::halt_requests`]).
    seen_halts: u64,
}

impl<R: Resource> std::fmt::Debug for TrackLocker<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrackLocker")
            .field("locks", &self.locks)
            .finish_non_exhaustive()
    }
}

impl TrackLocker<Body> {
    /// Locks for a Vector-shaped robot: tracks map to [`Body`] parts ([`Body::of_track`]),
    /// a behavior serving no intent locks at [`Priority::DEFAULT`].
    pub fn body(arbiter: &SharedArbiter<Body>) -> Self {
        Self::new(arbiter, Body::of_track, Priority::DEFAULT)
    }
}

impl<R: Resource> TrackLocker<R> {
    /// Locks claimed from `arbiter`; `of_track` maps a track name to its parts (`None`: not
    /// a track; `Some(EMPTY)`: a track that moves nothing); a behavior serving no intent
    /// locks at `default_priority`.
    pub fn new(
        arbiter: &SharedArbiter<R>,
        of_track: fn(&str) -> Option<ResourceSet<R>>,
        default_priority: Priority,
    ) -> Self {
        TrackLocker {
            arbiter: arbiter.clone(),
            of_track,
            default_priority,
            locks: Vec::new(),
            seen_halts: 0,
        }
    }

    /// How many locks are live (for tests and tools).
    pub fn len(&self) -> usize {
        self.locks.len()
    }

    /// True when no lock is live.
    pub fn is_empty(&self) -> bool {
        self.locks.is_empty()
    }

    fn parts(&self, states: &[LockState]) -> ResourceSet<R> {
        self.locks
            .iter()
            .filter(|l| states.contains(&l.state))
            .fold(ResourceSet::EMPTY, |s, l| s.union(l.claim.resources))
    }

    /// Decides `lock` against the table and acts on the verdict.
    fn try_claim(arb: &mut Arbiter<R>, lock: &mut Lock<R>) {
        match arb.decide(&lock.claim) {
            Verdict::Grant => {
                let contested = lock.state == LockState::Waiting;
                if arb.hold(lock.claim, &lock.label, contested) {
                    lock.state = LockState::Holding;
                }
            }
            Verdict::Preempt => {
                arb.preempt_involved(lock.claim, &lock.label);
                lock.state = LockState::Reserved;
            }
            Verdict::Blocked => {
                if lock.state != LockState::Waiting {
                    let blocked_by = arb.labels(arb.involved());
                    arb.report(ArbiterEvent::Waiting {
                        holder: lock.claim.holder,
                        label: lock.label.clone(),
                        resources: lock.claim.resources,
                        blocked_by,
                    });
                    lock.state = LockState::Waiting;
                }
            }
        }
    }
}

impl<R: Resource> TrackLocks for TrackLocker<R> {
    /// Claims the tracks' parts that no live lock of this runner claims yet (a stack locks
    /// a part once: a delegate naming its parent's track adds nothing), at `priority` or the
    /// default, labelled `behavior/tracks`. A name that is not a track is logged and
    /// skipped (the loader refuses it first).
    fn lock(
        &mut self,
        behavior: &str,
        tracks: &[Box<str>],
        priority: Option<Priority>,
    ) -> Option<LockId> {
        let mut parts = ResourceSet::EMPTY;
        for t in tracks {
            match (self.of_track)(t) {
                Some(p) => parts = parts.union(p),
                None => tracing::warn!(%behavior, track = %t, "not a track; not locked"),
            }
        }
        let already = self.parts(&[
            LockState::New,
            LockState::Waiting,
            LockState::Reserved,
            LockState::Holding,
        ]);
        let parts = parts.difference(already);
        if parts.is_empty() {
            return None;
        }
        let mut arb = self.arbiter.lock();
        let holder = arb.next_action_holder();
        let mut lock = Lock {
            claim: Claim {
                holder,
                group: None,
                resources: parts,
                priority: priority.unwrap_or(self.default_priority),
                rank: 0,
                preemptible: true,
                halting: false,
            },
            label: format!("{behavior}/tracks"),
            state: LockState::New,
        };
        Self::try_claim(&mut arb, &mut lock);
        self.locks.push(lock);
        let (Holder::Action(n) | Holder::Mission(n)) = holder;
        Some(LockId(n))
    }

    fn unlock(&mut self, lock: LockId) {
        let holder = Holder::Action(lock.0);
        if let Some(i) = self.locks.iter().position(|l| l.claim.holder == holder) {
            self.locks.remove(i);
            self.arbiter.lock().release(holder);
        }
    }

    fn locked(&self) -> LockedParts {
        LockedParts(
            self.parts(&[
                LockState::New,
                LockState::Waiting,
                LockState::Reserved,
                LockState::Holding,
            ])
            .bits(),
        )
    }

    fn held(&self) -> LockedParts {
        LockedParts(self.parts(&[LockState::Holding]).bits())
    }

    /// One pass over the locks when something can have changed: a lock does not hold yet,
    /// or the arbiter was asked to halt something since the last pass (else nothing to
    /// do: one compare under the table's lock).
    fn poll(&mut self) -> LockedParts {
        let mut arb = self.arbiter.lock();
        let halts = arb.halt_requests();
        if halts == self.seen_halts && self.locks.iter().all(|l| l.state == LockState::Holding) {
            return LockedParts::NONE;
        }
        let mut lost: ResourceSet<R> = ResourceSet::EMPTY;
        for lock in &mut self.locks {
            let holder = lock.claim.holder;
            match lock.state {
                LockState::Holding | LockState::Reserved
                    if arb.halt_requested(holder).is_some() =>
                {
                    // A higher claim wants the parts (or outranked the reservation): give
                    // them up now (the runner stops the actions using them before anything
                    // else runs) and wait for them again.
                    if lock.state == LockState::Holding {
                        lost = lost.union(lock.claim.resources);
                    }
                    arb.release(holder);
                    lock.claim.halting = false;
                    lock.state = LockState::New;
                    Self::try_claim(&mut arb, lock);
                }
                LockState::Holding => {}
                LockState::Reserved => {
                    if arb.is_ready(holder) && arb.hold(lock.claim, &lock.label, true) {
                        lock.state = LockState::Holding;
                    }
                }
                LockState::New | LockState::Waiting => Self::try_claim(&mut arb, lock),
            }
        }
        self.seen_halts = arb.halt_requests();
        LockedParts(lost.bits())
    }
}
