//! The one arbiter with 20 holders (the goal: one request against 20 holders under
//! 1 µs).
//!
//! * `rule/20`: the pure rule ([`decide`]) over 20 claims; the candidate needs two parts,
//!   one free and one held by a lower priority (a preemption with one victim).
//! * `grant_release/20`: the table holds 20 claims; a request for a free part is decided,
//!   held and released (what an action that is granted at once costs over its life).
//! * `blocked/20`: the same table; a request for a part held by a higher priority is decided
//!   and loses (what a waiting action pays per step).
//! * `preempt/20`: the same table; a request outranks one holder: decided, the victim asked
//!   to halt, the reservation made; then undone (the victim holds again, the reservation is
//!   released) so each iteration starts from the same table.
//! * `track_lock/poll_held/20`: a behavior's track lock holds its part among the 20
//!   holders; the runner's per-tick poll of its locks when nothing was asked to halt (the
//!   work a steady tick adds while a frame holds a lock).
//! * `track_lock/lock_unlock/20`: the same table; a behavior's tracks locked at activation
//!   (granted at once) and given back at deactivation.

use criterion::{criterion_group, criterion_main, Criterion};
use robot_runtime::arbiter::rule::{decide, Claim, Holder};
use robot_runtime::arbiter::{Arbiter, Resource, ResourceSet, SharedArbiter, TrackLocker, Verdict};
use robot_runtime::behavior::{LockedParts, TrackLocks};
use robot_runtime::hri::Priority;
use std::hint::black_box;

/// 24 parts: 20 held, 4 free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part(u8);

const PARTS: [Part; 24] = {
    let mut p = [Part(0); 24];
    let mut i = 0;
    while i < 24 {
        p[i] = Part(i as u8);
        i += 1;
    }
    p
};

impl Resource for Part {
    const ALL: &'static [Part] = &PARTS;
    fn index(self) -> u8 {
        self.0
    }
}

fn holder_claim(i: usize) -> Claim<Part> {
    Claim {
        holder: if i.is_multiple_of(2) {
            Holder::Mission(i as u64)
        } else {
            Holder::Action(i as u64)
        },
        group: i.is_multiple_of(2).then_some(i as u32),
        resources: ResourceSet::of(&[Part(i as u8)]),
        // Part 5 is held at 250; the others at 100.
        priority: Priority(if i == 5 { 250 } else { 100 }),
        rank: 0,
        preemptible: true,
        halting: false,
    }
}

fn candidate(parts: &[Part], priority: u8) -> Claim<Part> {
    Claim {
        holder: Holder::Action(1_000),
        group: None,
        resources: ResourceSet::of(parts),
        priority: Priority(priority),
        rank: 0,
        preemptible: true,
        halting: false,
    }
}

fn table() -> Arbiter<Part> {
    let mut arb = Arbiter::new();
    for i in 0..20 {
        assert!(arb.hold(holder_claim(i), &format!("holder{i}"), false));
    }
    arb
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("arbiter");
    let claims: Vec<_> = (0..20).map(holder_claim).collect();
    let pre = candidate(&[Part(3), Part(21)], 200);
    let mut involved = Vec::new();
    g.bench_function("rule/20", |b| {
        b.iter(|| decide(black_box(&claims), black_box(&pre), &mut involved))
    });
    assert_eq!(decide(&claims, &pre, &mut involved), Verdict::Preempt);

    let mut arb = table();
    let free = candidate(&[Part(21), Part(22)], 128);
    g.bench_function("grant_release/20", |b| {
        b.iter(|| {
            assert_eq!(arb.decide(black_box(&free)), Verdict::Grant);
            arb.hold(free, "bench/free", false);
            arb.release(free.holder);
        })
    });

    let lost = candidate(&[Part(5)], 128);
    g.bench_function("blocked/20", |b| {
        b.iter(|| {
            let v = arb.decide(black_box(&lost));
            black_box(arb.involved().len());
            v
        })
    });
    assert_eq!(arb.decide(&lost), Verdict::Blocked);

    let wins = candidate(&[Part(3), Part(21)], 200);
    g.bench_function("preempt/20", |b| {
        b.iter(|| {
            assert_eq!(arb.decide(black_box(&wins)), Verdict::Preempt);
            let victim = arb.involved()[0];
            arb.request_halt(victim, Some(wins.holder));
            arb.reserve(wins, "bench/wins", vec![victim]);
            // Undo: the victim holds again, the reservation goes.
            arb.release(wins.holder);
            arb.release(victim);
            arb.hold(holder_claim(3), "holder3", false);
        })
    });
    assert!(arb.check_exclusive().is_ok());

    // Track locks: the table of 20 holders shared; part 21 is the lock's track.
    let shared = SharedArbiter::new();
    *shared.lock() = table();
    fn of_track(track: &str) -> Option<ResourceSet<Part>> {
        (track == "BODY_TRACK").then(|| ResourceSet::of(&[Part(21)]))
    }
    let mut locker = TrackLocker::new(&shared, of_track, Priority(128));
    let tracks: [Box<str>; 1] = ["BODY_TRACK".into()];
    g.bench_function("track_lock/lock_unlock/20", |b| {
        b.iter(|| {
            let lock = locker.lock("bench", black_box(&tracks), None);
            locker.unlock(lock.unwrap());
        })
    });
    let lock = locker.lock("bench", &tracks, None).unwrap();
    assert_eq!(locker.held(), locker.locked());
    locker.poll();
    g.bench_function("track_lock/poll_held/20", |b| {
        b.iter(|| assert_eq!(black_box(&mut locker).poll(), LockedParts::NONE))
    });
    locker.unlock(lock);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
