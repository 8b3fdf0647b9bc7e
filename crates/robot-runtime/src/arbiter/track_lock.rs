//! [`TrackLocker`]: the runner's [`TrackLocks`] over the robot's one [`SharedArbiter`]: a
//! behavior's `tracksToLockWhileActivated` is a claim in the same table as mission
//! capabilities and behavior actions, under the same policy (see the
//! [module documentation](super), "Tracks"), and so is a hold a class takes while it is
//! active ("Holds").
//!
//! A lock or a hold is in one of four states: new (not decided yet), waiting (a claim it
//! does not outrank holds a part: retried on every poll), reserved (it preempted the
//! holders and waits for them to halt) and holding. It never fails: the behavior is active
//! whatever its state, and every contested step is an [`ArbiterEvent`] (the timeline shows
//! it): `Waiting`, `Preempting`, `Granted` once a contested lock holds, `Released` when it
//! gives back parts someone wanted. A hold's grant and release are always reported (the
//! treads stop, the treads move again).

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
    /// A hold (lends its parts to nobody), not a `tracksToLockWhileActivated` lock.
    hold: bool,
}

/// A hold's priority: above every request's ([`Priority::MAX`], at the highest rank), and
/// not preemptible: a safety stop.
const HOLD_PRIORITY: Priority = Priority::MAX;
/// A hold's rank (ties at [`HOLD_PRIORITY`] go to the hold).
const HOLD_RANK: u8 = u8::MAX;

/// Every state a live lock or hold can be in.
const ANY: &[LockState] = &[
    LockState::New,
    LockState::Waiting,
    LockState::Reserved,
    LockState::Holding,
];

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

    /// How many locks and holds are live (for tests and tools).
    pub fn len(&self) -> usize {
        self.locks.len()
    }

    /// True when no lock and no hold is live.
    pub fn is_empty(&self) -> bool {
        self.locks.is_empty()
    }

    /// The parts of the live locks (`holds: false`) or holds (`true`) in `states`.
    fn parts(&self, holds: bool, states: &[LockState]) -> ResourceSet<R> {
        self.locks
            .iter()
            .filter(|l| l.hold == holds && states.contains(&l.state))
            .fold(ResourceSet::EMPTY, |s, l| s.union(l.claim.resources))
    }

    /// What `tracks` name (a name that is not a track is logged and skipped).
    fn of_tracks<'a>(
        &self,
        behavior: &str,
        tracks: impl IntoIterator<Item = &'a str>,
    ) -> ResourceSet<R> {
        let mut parts = ResourceSet::EMPTY;
        for t in tracks {
            match (self.of_track)(t) {
                Some(p) => parts = parts.union(p),
                None => tracing::warn!(%behavior, track = %t, "not a track; not locked"),
            }
        }
        parts
    }

    /// Enters a new lock or hold of `parts` in the table (decided at once) and in the list.
    fn add(
        &mut self,
        label: String,
        parts: ResourceSet<R>,
        priority: Priority,
        hold: bool,
    ) -> LockId {
        let mut arb = self.arbiter.lock();
        let holder = arb.next_action_holder();
        let mut lock = Lock {
            claim: Claim {
                holder,
                group: None,
                resources: parts,
                priority: if hold { HOLD_PRIORITY } else { priority },
                rank: if hold { HOLD_RANK } else { 0 },
                preemptible: !hold,
                halting: false,
            },
            label,
            state: LockState::New,
            hold,
        };
        Self::try_claim(&mut arb, &mut lock);
        self.locks.push(lock);
        let (Holder::Action(n) | Holder::Mission(n)) = holder;
        LockId(n)
    }

    /// Decides `lock` against the table and acts on the verdict.
    fn try_claim(arb: &mut Arbiter<R>, lock: &mut Lock<R>) {
        match arb.decide(&lock.claim) {
            Verdict::Grant => {
                let contested = lock.hold || lock.state == LockState::Waiting;
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
        let parts = self
            .of_tracks(behavior, tracks.iter().map(|t| &**t))
            .difference(self.parts(false, ANY));
        if parts.is_empty() {
            return None;
        }
        let priority = priority.unwrap_or(self.default_priority);
        Some(self.add(format!("{behavior}/tracks"), parts, priority, false))
    }

    /// Holds the tracks' parts for `behavior`, labelled `behavior/hold`, above every other
    /// claim and not preemptible (see the [module documentation](super), "Holds"). Every
    /// hold is a claim of its own: two holds of the same part wait one for the other.
    fn hold(&mut self, behavior: &str, tracks: &[&str]) -> Option<LockId> {
        let parts = self.of_tracks(behavior, tracks.iter().copied());
        if parts.is_empty() {
            return None;
        }
        Some(self.add(format!("{behavior}/hold"), parts, HOLD_PRIORITY, true))
    }

    fn unlock(&mut self, lock: LockId) {
        let holder = Holder::Action(lock.0);
        if let Some(i) = self.locks.iter().position(|l| l.claim.holder == holder) {
            let l = self.locks.remove(i);
            let mut arb = self.arbiter.lock();
            if l.hold {
                arb.release_reported(holder);
            } else {
                arb.release(holder);
            }
        }
    }

    fn locked(&self) -> LockedParts {
        LockedParts(self.parts(false, ANY).bits())
    }

    fn held(&self) -> LockedParts {
        LockedParts(self.parts(false, &[LockState::Holding]).bits())
    }

    fn held_back(&self) -> (LockedParts, LockedParts) {
        (
            LockedParts(self.parts(true, &[LockState::Holding]).bits()),
            LockedParts(self.parts(true, ANY).bits()),
        )
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
                    // else runs) and wait for them again. (A hold, not preemptible, is
                    // asked only by a caller's own stop; it lent its parts to nobody.)
                    if lock.state == LockState::Holding && !lock.hold {
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::arbiter::{needs, ArbitratedAction, WhenBlocked};
    use crate::behavior::{Action, ActionEnd, ActionRequest, ActionStatus, Timed, VirtualClock};

    /// The events as `change label parts` lines.
    fn events(arbiter: &SharedArbiter<Body>) -> Vec<String> {
        arbiter
            .lock()
            .drain_events()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn action(
        arbiter: &SharedArbiter<Body>,
        request: &ActionRequest<'_>,
        label: &str,
        blocked: WhenBlocked,
    ) -> ArbitratedAction<Body> {
        ArbitratedAction::new(
            Box::new(Timed::new(label, None)),
            arbiter,
            needs(request),
            Priority::DEFAULT,
            label,
        )
        .when_blocked(blocked)
        .maskable(crate::arbiter::maskable(request))
    }

    fn holder_of(arbiter: &SharedArbiter<Body>, part: Body) -> Option<String> {
        arbiter
            .lock()
            .holders()
            .find(|(_, _, r)| r.contains(part))
            .map(|(_, l, _)| l.to_owned())
    }

    const TURN: ActionRequest<'static> = ActionRequest::Turn { degrees: 90.0 };
    const HEAD: ActionRequest<'static> = ActionRequest::MoveHead { degrees: 10.0 };

    /// A hold keeps its part from every claim, whatever its priority, visibly; a claim on
    /// other parts runs on; its release is reported and the part is free again.
    #[test]
    fn a_hold_keeps_its_parts_from_every_claim_and_its_grant_and_release_are_reported() {
        let arbiter = SharedArbiter::<Body>::new();
        let mut locks = TrackLocker::body(&arbiter);
        let clock = VirtualClock::default();
        let hold = locks.hold("InAir", &["BODY_TRACK", "EVENT_TRACK"]).unwrap();
        assert_eq!(events(&arbiter), ["granted InAir/hold base"]);
        assert_eq!(
            holder_of(&arbiter, Body::Base).as_deref(),
            Some("InAir/hold")
        );
        // It lends nothing: the runner's lock parts do not include it.
        assert_eq!(locks.locked(), LockedParts::NONE);
        assert_eq!(locks.held(), LockedParts::NONE);
        let base = LockedParts(ResourceSet::of(&[Body::Base]).bits());
        assert_eq!(locks.held_back(), (base, base));
        assert_eq!(locks.poll(), LockedParts::NONE);

        // A turn that fails when blocked is refused; one that waits waits; a head move
        // runs.
        let mut turn = action(&arbiter, &TURN, "A/turn", WhenBlocked::Fail);
        turn.start(&clock);
        assert_eq!(turn.step(&clock), ActionStatus::Failed);
        turn.on_end(ActionEnd::Failed);
        let mut waiting = action(&arbiter, &TURN, "B/turn", WhenBlocked::Wait { up_to: None });
        waiting.start(&clock);
        let mut head = action(&arbiter, &HEAD, "C/head", WhenBlocked::Fail);
        head.start(&clock);
        assert_eq!(head.step(&clock), ActionStatus::Running);
        assert_eq!(
            events(&arbiter),
            ["refused A/turn InAir/hold", "waiting B/turn InAir/hold"]
        );
        // Nothing outranks it: not the highest priority and rank, not a safety stop.
        for preemptible in [true, false] {
            let top = Claim {
                holder: Holder::Mission(1),
                group: Some(0),
                resources: ResourceSet::of(&[Body::Base]),
                priority: Priority::MAX,
                rank: u8::MAX,
                preemptible,
                halting: false,
            };
            assert_eq!(arbiter.lock().decide(&top), Verdict::Blocked);
        }

        locks.unlock(hold);
        assert!(locks.is_empty());
        assert_eq!(events(&arbiter), ["released InAir/hold base"]);
        assert_eq!(waiting.step(&clock), ActionStatus::Running);
        assert_eq!(holder_of(&arbiter, Body::Base).as_deref(), Some("B/turn"));
        assert_eq!(events(&arbiter), ["granted B/turn base"]);
        assert!(arbiter.lock().check_exclusive().is_ok());
    }

    /// A hold taken while an action drives the base preempts it (halt before start): the
    /// action yields at its next step, and the hold holds on the next poll.
    #[test]
    fn a_hold_preempts_the_holder_of_its_parts_and_holds_once_it_released() {
        let arbiter = SharedArbiter::<Body>::new();
        let mut locks = TrackLocker::body(&arbiter);
        let clock = VirtualClock::default();
        let mut turn = action(&arbiter, &TURN, "A/turn", WhenBlocked::Fail);
        turn.start(&clock);
        assert_eq!(holder_of(&arbiter, Body::Base).as_deref(), Some("A/turn"));
        let hold = locks.hold("InAir", &["BODY_TRACK"]).unwrap();
        assert_eq!(events(&arbiter), ["preempting InAir/hold A/turn"]);
        let base = LockedParts(ResourceSet::of(&[Body::Base]).bits());
        assert_eq!(locks.held_back(), (LockedParts::NONE, base));
        assert_eq!(locks.poll(), LockedParts::NONE, "still reserved");
        assert_eq!(turn.step(&clock), ActionStatus::Failed);
        turn.on_end(ActionEnd::Failed);
        assert_eq!(events(&arbiter), ["released A/turn base"]);
        assert_eq!(locks.poll(), LockedParts::NONE, "a hold lent nothing");
        assert_eq!(locks.held_back(), (base, base));
        assert_eq!(events(&arbiter), ["granted InAir/hold base"]);
        // A track lock of the same part waits for the hold (a lock is preemptible, a hold
        // is not) and takes the part once it is given back.
        let lock = locks
            .lock("Docked", &["BODY_TRACK".into()], Some(Priority::MAX))
            .unwrap();
        assert_eq!(locks.locked(), base);
        assert_eq!(locks.held(), LockedParts::NONE);
        assert_eq!(events(&arbiter), ["waiting Docked/tracks InAir/hold"]);
        locks.unlock(hold);
        locks.poll();
        assert_eq!(locks.held(), base);
        assert_eq!(
            events(&arbiter),
            ["released InAir/hold base", "granted Docked/tracks base"]
        );
        locks.unlock(lock);
        assert!(arbiter.lock().entries().is_empty());
    }

    /// Two holds of a part: the second waits for the first. A hold of no part is none.
    #[test]
    fn a_second_hold_waits_for_the_first_and_a_hold_of_nothing_is_none() {
        let arbiter = SharedArbiter::<Body>::new();
        let mut locks = TrackLocker::body(&arbiter);
        assert_eq!(locks.hold("X", &["EVENT_TRACK", "NOT_A_TRACK"]), None);
        let first = locks.hold("A", &["BODY_TRACK"]).unwrap();
        let second = locks.hold("B", &["BODY_TRACK", "HEAD_TRACK"]).unwrap();
        assert_eq!(
            events(&arbiter),
            ["granted A/hold base", "waiting B/hold A/hold"]
        );
        locks.unlock(first);
        locks.poll();
        assert_eq!(holder_of(&arbiter, Body::Head).as_deref(), Some("B/hold"));
        assert_eq!(
            events(&arbiter),
            ["released A/hold base", "granted B/hold base+head"]
        );
        locks.unlock(second);
        assert!(arbiter.lock().entries().is_empty());
    }

    /// An animation started while the base is held back plays without it; a turn does not
    /// drop the base (it is refused).
    #[test]
    fn an_animation_is_masked_of_the_held_back_parts_and_a_turn_is_not() {
        let arbiter = SharedArbiter::<Body>::new();
        let mut locks = TrackLocker::body(&arbiter);
        let clock = VirtualClock::default();
        let hold = locks.hold("InAir", &["BODY_TRACK"]).unwrap();
        let anim = ActionRequest::Animation {
            name: "anim_greet",
            loops: 1,
        };
        let mut a = action(
            &arbiter,
            &anim,
            "A/anim",
            WhenBlocked::Wait {
                up_to: Some(Duration::from_secs(1)),
            },
        );
        let base = LockedParts(ResourceSet::of(&[Body::Base]).bits());
        assert_eq!(a.run_masked(locks.held_back().1), base);
        a.start(&clock);
        assert_eq!(a.step(&clock), ActionStatus::Running);
        assert_eq!(
            holder_of(&arbiter, Body::Head).as_deref(),
            Some("A/anim"),
            "plays without the base"
        );
        assert_eq!(
            holder_of(&arbiter, Body::Base).as_deref(),
            Some("InAir/hold")
        );
        let mut t = action(&arbiter, &TURN, "B/turn", WhenBlocked::Fail);
        assert_eq!(t.run_masked(locks.held_back().1), LockedParts::NONE);
        t.start(&clock);
        assert_eq!(t.step(&clock), ActionStatus::Failed);
        a.on_end(ActionEnd::Interrupted);
        t.on_end(ActionEnd::Failed);
        locks.unlock(hold);
        assert!(arbiter.lock().entries().is_empty());
    }
}
