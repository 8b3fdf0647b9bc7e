//! Property test: random mixes of behavior actions (granted, waiting, failing when blocked,
//! cancelled by their behavior, started under track locks, masked of what holds keep),
//! mission requests (queued, rejected, preempting, stopped, with capabilities that halt
//! over several ticks or never confirm), track locks (`tracksToLockWhileActivated`: taken
//! and given back, waiting, preempting, preempted), holds (taken and given back in the
//! middle of an activation, preempting, waiting for each other), stops and ticks, all
//! through one shared arbiter: no resource is ever held by two, a part an action uses under
//! its stack's locks is held by them and never by a hold, the controller's holders are in
//! the table, and once everything ended the table is empty.

use std::time::Duration;

use proptest::prelude::*;

use super::{ArbitratedAction, Holder, SharedArbiter, TrackLocker, WhenBlocked};
use crate::arbiter::{Resource, ResourceSet};
use crate::behavior::{
    Action, ActionEnd, ActionStatus, LockId, LockedParts, Timed, TrackLocks, VirtualClock,
};
use crate::hri::{Priority, Timestamp};
use crate::mission::{
    Capability, CapabilityPolicy, HaltProgress, MissionConfig, MissionController, Progress,
    Request, WhenBusy,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    Base,
    Head,
    Lift,
    Speech,
}

impl Resource for Res {
    const ALL: &'static [Res] = &[Res::Base, Res::Head, Res::Lift, Res::Speech];
    fn index(self) -> u8 {
        self as u8
    }
}

/// The tracks of this robot (`EVENT_TRACK` moves nothing).
const TRACKS: &[&str] = &["BODY_TRACK", "HEAD_TRACK", "LIFT_TRACK", "EVENT_TRACK"];

fn of_track(track: &str) -> Option<ResourceSet<Res>> {
    Some(match track {
        "BODY_TRACK" => ResourceSet::of(&[Res::Base]),
        "HEAD_TRACK" => ResourceSet::of(&[Res::Head]),
        "LIFT_TRACK" => ResourceSet::of(&[Res::Lift]),
        "EVENT_TRACK" => ResourceSet::EMPTY,
        _ => return None,
    })
}

struct Cap {
    name: String,
    resources: ResourceSet<Res>,
    policy: CapabilityPolicy,
    run: Option<u32>,
    halt: Option<u32>,
    elapsed: u32,
    halting: u32,
}

impl Capability<Res> for Cap {
    fn name(&self) -> &str {
        &self.name
    }
    fn resources(&self) -> ResourceSet<Res> {
        self.resources
    }
    fn policy(&self) -> CapabilityPolicy {
        self.policy
    }
    fn start(&mut self, _: &Request) -> Result<(), String> {
        self.elapsed = 0;
        self.halting = 0;
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        self.elapsed += 1;
        match self.run {
            Some(t) if self.elapsed >= t => Progress::Succeeded,
            _ => Progress::Running,
        }
    }
    fn halt(&mut self) -> HaltProgress {
        self.halting += 1;
        match self.halt {
            Some(t) if self.halting > t => HaltProgress::Halted,
            _ => HaltProgress::Halting,
        }
    }
}

#[derive(Clone, Debug)]
enum Op {
    Mission(usize, u8),
    Stop(Option<usize>, u8),
    Action {
        slot: usize,
        resources: Vec<Res>,
        priority: u8,
        length: Option<u8>,
        fail: bool,
        under_locks: bool,
        /// It can play without any of its parts (an animation).
        maskable: bool,
    },
    CancelAction(usize),
    /// A behavior takes a hold (into hold slot `.0`, whose previous hold is given back
    /// first).
    Hold(usize, Vec<&'static str>),
    ReleaseHold(usize),
    /// A behavior with `tracksToLockWhileActivated` activated (into lock slot `.0`, whose
    /// previous behavior deactivates first) at a priority.
    Lock(usize, Vec<&'static str>, u8),
    Unlock(usize),
    Tick,
}

fn resources() -> impl Strategy<Value = Vec<Res>> {
    proptest::sample::subsequence(Res::ALL.to_vec(), 0..=2)
}

fn op(caps: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..caps, any::<u8>()).prop_map(|(c, p)| Op::Mission(c, p)),
        1 => (proptest::option::of(0..caps), any::<u8>()).prop_map(|(c, p)| Op::Stop(c, p)),
        3 => (0..3usize, resources(), any::<u8>(), proptest::option::of(1u8..8), any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(slot, resources, priority, length, fail, under_locks, maskable)| Op::Action {
                slot,
                resources,
                priority,
                length,
                fail,
                under_locks,
                maskable,
            }),
        1 => (0..3usize).prop_map(Op::CancelAction),
        1 => (0..2usize, proptest::sample::subsequence(TRACKS.to_vec(), 1..=2))
            .prop_map(|(slot, tracks)| Op::Hold(slot, tracks)),
        1 => (0..2usize).prop_map(Op::ReleaseHold),
        2 => (0..2usize, proptest::sample::subsequence(TRACKS.to_vec(), 1..=2), any::<u8>())
            .prop_map(|(slot, tracks, p)| Op::Lock(slot, tracks, p)),
        1 => (0..2usize).prop_map(Op::Unlock),
        4 => Just(Op::Tick),
    ]
}

type CapSpec = (Vec<Res>, Option<u32>, Option<u32>, bool, bool);

fn scenario() -> impl Strategy<Value = (Vec<CapSpec>, Vec<Op>)> {
    let cap = (
        resources(),
        proptest::option::weighted(0.8, 1u32..6),
        proptest::option::weighted(0.85, 0u32..4),
        any::<bool>(),
        proptest::bool::weighted(0.9),
    );
    proptest::collection::vec(cap, 1..5).prop_flat_map(|caps| {
        let n = caps.len();
        (Just(caps), proptest::collection::vec(op(n), 0..120))
    })
}

/// An action in a slot, as the runner keeps it: the parts of the locks it uses, and
/// whether it waits for the locks to hold them before it starts.
struct Slot {
    action: ArbitratedAction<Res>,
    lent: LockedParts,
    awaiting: bool,
}

struct World {
    arbiter: SharedArbiter<Res>,
    mc: MissionController<Res>,
    clock: VirtualClock,
    slots: [Option<Slot>; 3],
    locker: TrackLocker<Res>,
    locks: [Option<LockId>; 2],
    holds: [Option<LockId>; 2],
    now_ms: u64,
}

impl World {
    fn check(&self) -> Result<(), TestCaseError> {
        let arb = self.arbiter.lock();
        if let Err((a, b, shared)) = arb.check_exclusive() {
            return Err(TestCaseError::fail(format!("{a} and {b} share {shared:?}")));
        }
        for (request, _, resources) in self.mc.holders() {
            let held = arb
                .holders()
                .any(|(h, _, r)| h == Holder::Mission(request.0) && r == resources);
            prop_assert!(held, "mission request {request:?} holds outside the table");
        }
        // What an action uses under the locks, the locks hold; a hold lends nothing.
        let held = self.locker.held();
        let (kept, _) = self.locker.held_back();
        prop_assert!(!held.intersects(kept), "{held:?} held by a lock and a hold");
        for s in self.slots.iter().flatten().filter(|s| !s.awaiting) {
            prop_assert!(
                s.lent.is_subset(held),
                "an action uses {:?} its locks do not hold ({held:?})",
                s.lent
            );
        }
        // Every claim in the table belongs to a live action or lock or an active mission
        // request.
        for e in arb.entries() {
            let live = match e.claim.holder {
                Holder::Action(n) => {
                    self.slots
                        .iter()
                        .flatten()
                        .any(|s| s.action.holder() == e.claim.holder)
                        || self.locks.iter().flatten().any(|l| l.0 == n)
                        || self.holds.iter().flatten().any(|l| l.0 == n)
                }
                Holder::Mission(n) => self.mc.phase(crate::mission::RequestId(n)).is_some(),
            };
            prop_assert!(live, "a claim outlived its owner: {:?}", e);
        }
        Ok(())
    }

    fn end_action(&mut self, slot: usize, end: ActionEnd) {
        if let Some(mut s) = self.slots[slot].take() {
            s.action.on_end(end);
        }
    }

    /// A behavior deactivates: the stack above it is gone, with the actions that ran under
    /// the locks.
    fn end_lent_actions(&mut self) {
        for a in 0..self.slots.len() {
            if self.slots[a].as_ref().is_some_and(|s| !s.lent.is_empty()) {
                self.end_action(a, ActionEnd::Interrupted);
            }
        }
    }

    /// A behavior's deactivation gives its lock back (its actions ended first).
    fn unlock(&mut self, slot: usize) {
        if let Some(l) = self.locks[slot].take() {
            self.locker.unlock(l);
        }
    }

    fn tick(&mut self) {
        self.clock.advance(Duration::from_millis(50));
        self.now_ms += 50;
        // As the runner: the locks move on; an action using parts they lost is stopped;
        // an action waiting for them starts once they hold them.
        let lost = self.locker.poll();
        for slot in 0..self.slots.len() {
            if self.slots[slot]
                .as_ref()
                .is_some_and(|s| !s.awaiting && s.lent.intersects(lost))
            {
                self.end_action(slot, ActionEnd::Cancelled);
            }
        }
        let held = self.locker.held();
        for s in self.slots.iter_mut().flatten() {
            if s.awaiting && s.lent.is_subset(held) {
                s.awaiting = false;
                s.action.start(&self.clock);
            }
        }
        for slot in 0..self.slots.len() {
            let status = match self.slots[slot].as_mut() {
                Some(s) if s.awaiting => continue,
                Some(s) => s.action.step(&self.clock),
                None => continue,
            };
            match status {
                ActionStatus::Running => {}
                ActionStatus::Succeeded => self.end_action(slot, ActionEnd::Succeeded),
                ActionStatus::Failed => self.end_action(slot, ActionEnd::Failed),
            }
        }
        self.mc.tick(Timestamp(self.now_ms));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_resource_is_ever_held_by_two((caps, ops) in scenario()) {
        let arbiter = SharedArbiter::new();
        let mut mc = MissionController::with_arbiter(MissionConfig { queue_capacity: 4 }, arbiter.clone());
        let mut ids = Vec::new();
        for (i, (res, run, halt, queue, preemptible)) in caps.iter().enumerate() {
            ids.push(mc.register(Cap {
                name: format!("c{i}"),
                resources: ResourceSet::of(res),
                policy: CapabilityPolicy {
                    preemptible: *preemptible,
                    when_busy: if *queue { WhenBusy::Queue } else { WhenBusy::Reject },
                    halt_timeout_ticks: 3,
                    ..CapabilityPolicy::default()
                },
                run: *run,
                halt: *halt,
                elapsed: 0,
                halting: 0,
            }));
        }
        let mut w = World {
            arbiter: arbiter.clone(),
            mc,
            clock: VirtualClock::default(),
            slots: [None, None, None],
            locker: TrackLocker::new(&arbiter, of_track, Priority::DEFAULT),
            locks: [None, None],
            holds: [None, None],
            now_ms: 0,
        };
        for op in ops {
            match op {
                Op::Mission(c, p) => {
                    w.mc.submit(ids[c], Priority(p), None);
                }
                Op::Stop(c, p) => {
                    let name = c.map(|c| format!("c{c}"));
                    w.mc.stop(name.as_deref(), Priority(p));
                }
                Op::Action { slot, resources, priority, length, fail, under_locks, maskable } => {
                    // A behavior starting a new action ends its previous one.
                    w.end_action(slot, ActionEnd::Interrupted);
                    let inner = Timed::new(
                        "act",
                        length.map(|l| Duration::from_millis(50 * u64::from(l))),
                    );
                    let blocked = if fail {
                        WhenBlocked::Fail
                    } else {
                        WhenBlocked::Wait { up_to: Some(Duration::from_millis(300)) }
                    };
                    let mut a = ArbitratedAction::new(
                        Box::new(inner),
                        &arbiter,
                        ResourceSet::of(&resources),
                        Priority(priority),
                        format!("slot{slot}"),
                    )
                    .when_blocked(blocked)
                    .maskable(if maskable { ResourceSet::of(&resources) } else { ResourceSet::EMPTY });
                    // Masked of what the holds keep, then an action of the stack holding the
                    // locks (the runner's part).
                    if w.holds.iter().any(Option::is_some) {
                        a.run_masked(w.locker.held_back().1);
                    }
                    let lent = if under_locks {
                        a.run_under_locks(w.locker.locked())
                    } else {
                        LockedParts::NONE
                    };
                    let awaiting = !lent.is_subset(w.locker.held());
                    if !awaiting {
                        a.start(&w.clock);
                    }
                    w.slots[slot] = Some(Slot { action: a, lent, awaiting });
                }
                Op::CancelAction(slot) => w.end_action(slot, ActionEnd::Cancelled),
                Op::Lock(slot, tracks, p) => {
                    if w.locks[slot].is_some() {
                        w.end_lent_actions();
                    }
                    w.unlock(slot);
                    let tracks: Vec<Box<str>> = tracks.into_iter().map(Into::into).collect();
                    w.locks[slot] = w.locker.lock(&format!("b{slot}"), &tracks, Some(Priority(p)));
                }
                Op::Hold(slot, tracks) => {
                    if let Some(h) = w.holds[slot].take() {
                        w.locker.unlock(h);
                    }
                    w.holds[slot] = w.locker.hold(&format!("h{slot}"), &tracks);
                }
                Op::ReleaseHold(slot) => {
                    if let Some(h) = w.holds[slot].take() {
                        w.locker.unlock(h);
                    }
                }
                Op::Unlock(slot) => {
                    if w.locks[slot].is_some() {
                        w.end_lent_actions();
                    }
                    w.unlock(slot);
                }
                Op::Tick => w.tick(),
            }
            w.check()?;
        }
        // Everything ends: the behaviors stop their actions, the controller shuts down.
        for slot in 0..3 {
            w.end_action(slot, ActionEnd::Interrupted);
        }
        w.unlock(0);
        w.unlock(1);
        for h in w.holds.iter_mut() {
            if let Some(h) = h.take() {
                w.locker.unlock(h);
            }
        }
        w.mc.shutdown();
        for _ in 0..20 {
            w.tick();
            w.check()?;
        }
        prop_assert!(w.mc.is_idle());
        let arb = arbiter.lock();
        prop_assert!(arb.entries().is_empty(), "left in the table: {:?}", arb.entries());
    }
}
