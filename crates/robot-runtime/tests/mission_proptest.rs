//! Property test: across random capabilities and random streams of requests, stops,
//! resumes, suspensions and ticks, no two started capabilities ever hold the same resource,
//! and every request ends exactly once, granted-and-finished, rejected or cancelled, with a
//! reason.

mod support;

use proptest::prelude::*;
use robot_runtime::hri::{Priority, Timestamp};
use robot_runtime::mission::{
    CapabilityId, CapabilityPolicy, MissionConfig, MissionController, MissionEvent, OnPreempt,
    Outcome, RequestId, Resource, WhenBusy,
};
use std::collections::BTreeMap;
use support::{Log, Res, Scripted};

#[derive(Clone, Debug)]
struct CapSpec {
    resources: Vec<Res>,
    run: Option<u32>,
    halt: Option<u32>,
    preemptible: bool,
    rank: u8,
    queue: bool,
    pause: bool,
    timeout: u32,
}

#[derive(Clone, Debug)]
enum Op {
    Submit(usize, u8),
    Stop(Option<usize>, u8),
    Resume(Option<usize>),
    Suspend,
    Wakeup,
    Tick,
}

const NAMES: [&str; 8] = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"];

fn cap_spec() -> impl Strategy<Value = CapSpec> {
    (
        proptest::sample::subsequence(Res::ALL.to_vec(), 0..=3),
        proptest::option::weighted(0.8, 1u32..6),
        proptest::option::weighted(0.85, 0u32..4),
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        any::<bool>(),
        1u32..4,
    )
        .prop_map(
            |(resources, run, halt, preemptible, rank, queue, pause, timeout)| CapSpec {
                resources,
                run,
                halt,
                preemptible: preemptible || rank == 0,
                rank,
                queue,
                pause,
                timeout,
            },
        )
}

fn op(caps: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..caps, any::<u8>()).prop_map(|(c, p)| Op::Submit(c, p)),
        1 => (proptest::option::of(0..caps), any::<u8>()).prop_map(|(c, p)| Op::Stop(c, p)),
        1 => proptest::option::of(0..caps).prop_map(Op::Resume),
        1 => Just(Op::Suspend),
        1 => Just(Op::Wakeup),
        6 => Just(Op::Tick),
    ]
}

fn scenario() -> impl Strategy<Value = (Vec<CapSpec>, Vec<Op>, usize)> {
    proptest::collection::vec(cap_spec(), 1..8).prop_flat_map(|caps| {
        let n = caps.len();
        (
            Just(caps),
            proptest::collection::vec(op(n), 0..80),
            1usize..6,
        )
    })
}

fn check_disjoint(mc: &MissionController<Res>) -> Result<(), TestCaseError> {
    let holders: Vec<_> = mc.holders().collect();
    for (i, a) in holders.iter().enumerate() {
        for b in &holders[i + 1..] {
            prop_assert!(
                !a.2.intersects(b.2),
                "{:?} and {:?} share {:?}",
                a,
                b,
                a.2.intersection(b.2)
            );
            prop_assert_ne!(a.1, b.1, "one capability runs two requests");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn resources_are_exclusive_and_every_request_ends_with_a_reason(
        (caps, ops, queue_capacity) in scenario()
    ) {
        let log = Log::default();
        let mut mc = MissionController::new(MissionConfig { queue_capacity });
        let ids: Vec<CapabilityId> = caps
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut s = Scripted::new(NAMES[i], &c.resources, &log).policy(CapabilityPolicy {
                    preemptible: c.preemptible,
                    rank: c.rank,
                    when_busy: if c.queue { WhenBusy::Queue } else { WhenBusy::Reject },
                    on_preempt: if c.pause { OnPreempt::Pause } else { OnPreempt::Cancel },
                    halt_timeout_ticks: c.timeout,
                });
                s.run_ticks = c.run;
                s.halt_ticks = c.halt;
                mc.register(s)
            })
            .collect();
        let mut submitted: Vec<RequestId> = Vec::new();
        let mut finished: BTreeMap<RequestId, Outcome> = BTreeMap::new();
        let mut now = 0;
        let record = |events: Vec<MissionEvent>, finished: &mut BTreeMap<RequestId, Outcome>| -> Result<(), TestCaseError> {
            for e in events {
                if let MissionEvent::Finished { request, outcome } = e {
                    prop_assert!(
                        finished.insert(request, outcome.clone()).is_none(),
                        "{:?} finished twice (second: {:?})", request, outcome
                    );
                }
            }
            Ok(())
        };
        for op in ops {
            match op {
                Op::Submit(c, p) => submitted.push(mc.submit(ids[c], Priority(p), None)),
                Op::Stop(c, p) => mc.stop(c.map(|c| NAMES[c]), Priority(p)),
                Op::Resume(c) => mc.resume(c.map(|c| NAMES[c])),
                Op::Suspend => mc.suspend(),
                Op::Wakeup => mc.wakeup(),
                Op::Tick => {
                    now += 100;
                    mc.tick(Timestamp(now));
                }
            }
            check_disjoint(&mc)?;
            record(mc.drain_events(), &mut finished)?;
        }
        mc.shutdown();
        for _ in 0..10 {
            now += 100;
            mc.tick(Timestamp(now));
            check_disjoint(&mc)?;
        }
        record(mc.drain_events(), &mut finished)?;
        prop_assert!(mc.is_idle(), "{:?}", mc);
        for id in &submitted {
            prop_assert!(finished.contains_key(id), "{:?} never ended: {:?}", id, mc.phase(*id));
        }
        prop_assert_eq!(finished.len(), submitted.len());
    }
}
