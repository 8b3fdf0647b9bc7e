//! Arbitration cost with 10 and 100 capabilities.
//!
//! * `decide/N`: the pure arbiter rule over N claims (every claim conflicts on identity or
//!   resources with some other; the candidate beats half of its conflicts).
//! * `controller_reject/N`: a full `submit` through the controller with N registered
//!   capabilities, N-1 of them running; the request loses and its capability rejects when
//!   busy (decision event + outcome event, drained).
//! * `controller_grant_stop/N`: the same controller; a request is granted, started, then
//!   stopped by name (halts at once) — a whole request lifecycle.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use robot_runtime::arbiter::rule::{decide, Claim, Holder};
use robot_runtime::hri::Priority;
use robot_runtime::mission::{
    Capability, CapabilityId, CapabilityPolicy, HaltProgress, MissionConfig, MissionController,
    Progress, Request, Resource, ResourceSet, WhenBusy,
};
use std::hint::black_box;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    Base,
    LeftArm,
    RightArm,
    Head,
    Speech,
    Screen,
    Lights,
    Projector,
}

impl Resource for Res {
    const ALL: &'static [Res] = &[
        Res::Base,
        Res::LeftArm,
        Res::RightArm,
        Res::Head,
        Res::Speech,
        Res::Screen,
        Res::Lights,
        Res::Projector,
    ];
    fn index(self) -> u8 {
        self as u8
    }
}

struct Cap {
    name: String,
    resources: ResourceSet<Res>,
    policy: CapabilityPolicy,
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
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        Progress::Running
    }
    fn halt(&mut self) -> HaltProgress {
        HaltProgress::Halted
    }
}

fn claims(n: usize) -> Vec<Claim<Res>> {
    (0..n)
        .map(|i| Claim {
            holder: Holder::Mission(i as u64),
            group: Some(i as u32),
            resources: if i < Res::ALL.len() {
                ResourceSet::of(&[Res::ALL[i]])
            } else {
                ResourceSet::EMPTY
            },
            priority: Priority((i * 37 % 256) as u8),
            rank: 0,
            preemptible: true,
            halting: false,
        })
        .collect()
}

/// N capabilities: the first 8 own one resource each, the others none (they conflict only
/// with themselves); all but the last run. The last needs the base and rejects when busy.
fn controller(n: usize) -> (MissionController<Res>, CapabilityId) {
    let mut mc = MissionController::new(MissionConfig::default());
    for i in 0..n {
        let last = i == n - 1;
        let resources = if last {
            ResourceSet::of(&[Res::Base])
        } else if i < Res::ALL.len() {
            ResourceSet::of(&[Res::ALL[i]])
        } else {
            ResourceSet::EMPTY
        };
        let id = mc.register(Cap {
            name: format!("cap{i}"),
            resources,
            policy: CapabilityPolicy {
                when_busy: WhenBusy::Reject,
                ..CapabilityPolicy::default()
            },
        });
        if !last {
            mc.submit(id, Priority(200), None);
        }
    }
    mc.drain_events();
    (mc, CapabilityId((n - 1) as u16))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("mission");
    for n in [10usize, 100] {
        let cl = claims(n);
        let candidate = Claim {
            holder: Holder::Mission(u64::MAX),
            group: Some(u32::MAX),
            resources: ResourceSet::of(&[Res::Base, Res::Head, Res::Speech]),
            priority: Priority(128),
            rank: 0,
            preemptible: true,
            halting: false,
        };
        let mut buf = Vec::with_capacity(n);
        g.bench_with_input(BenchmarkId::new("decide", n), &n, |b, _| {
            b.iter(|| black_box(decide(black_box(&cl), black_box(&candidate), &mut buf)))
        });

        let (mut mc, last) = controller(n);
        g.bench_with_input(BenchmarkId::new("controller_reject", n), &n, |b, _| {
            b.iter(|| {
                let id = mc.submit(black_box(last), Priority(100), None);
                black_box(mc.drain_events());
                id
            })
        });

        // A free capability: cap0 is stopped first, so the last (base) capability is granted.
        let (mut mc, last) = controller(n);
        mc.stop(Some("cap0"), Priority::MAX);
        mc.drain_events();
        let name = format!("cap{}", n - 1);
        g.bench_with_input(BenchmarkId::new("controller_grant_stop", n), &n, |b, _| {
            b.iter(|| {
                let id = mc.submit(black_box(last), Priority(100), None);
                mc.stop(Some(&name), Priority::MAX);
                black_box(mc.drain_events());
                id
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
