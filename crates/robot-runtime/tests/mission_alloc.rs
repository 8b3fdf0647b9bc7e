//! A steady mission controller allocates nothing: requests granted, started and stopped over
//! and over (from intents and in code), with other requests running, one waiting in the
//! queue, ticks between them, and the events taken into a reused buffer. A counting global
//! allocator around the cycles; the intent records are built before them (they are the
//! intake's; the controller only drops them).

mod support;

#[path = "../../robot-runtime-tests/src/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{allocations, Counting};
use robot_runtime::hri::{IntentKind, IntentRecord, Priority, Timestamp};
use robot_runtime::mission::{
    Capability, CapabilityPolicy, Decision, HaltProgress, Handling, MissionConfig,
    MissionController, MissionEvent, Outcome, Phase, Progress, Request, ResourceSet,
};
use support::{admit, intake, Res};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs until halted and halts at once; counts its starts.
struct Quick {
    name: &'static str,
    resources: ResourceSet<Res>,
    policy: CapabilityPolicy,
    starts: std::rc::Rc<std::cell::Cell<u32>>,
}

impl Capability<Res> for Quick {
    fn name(&self) -> &str {
        self.name
    }
    fn resources(&self) -> ResourceSet<Res> {
        self.resources
    }
    fn policy(&self) -> CapabilityPolicy {
        self.policy
    }
    fn start(&mut self, _: &Request) -> Result<(), String> {
        self.starts.set(self.starts.get() + 1);
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        Progress::Running
    }
    fn halt(&mut self) -> HaltProgress {
        HaltProgress::Halted
    }
}

fn quick(name: &'static str, parts: &[Res]) -> (Quick, std::rc::Rc<std::cell::Cell<u32>>) {
    let starts = std::rc::Rc::default();
    let cap = Quick {
        name,
        resources: ResourceSet::of(parts),
        policy: CapabilityPolicy {
            preemptible: false,
            ..CapabilityPolicy::default()
        },
        starts: std::rc::Rc::clone(&starts),
    };
    (cap, starts)
}

#[test]
fn a_steady_grant_and_stop_cycle_does_not_allocate() {
    // The counter works (else "0 allocations" below would prove nothing).
    let (n, v) = allocations(|| std::hint::black_box(vec![0u8; 16]));
    assert!(
        n > 0 && v.len() == 16,
        "the counting allocator is installed"
    );

    let mut mc = MissionController::<Res>::new(MissionConfig::default());
    let (guide, guide_starts) = quick("guide", &[Res::Base, Res::Speech]);
    let guide = mc.register(guide);
    let (present, present_starts) = quick("present", &[Res::Screen]);
    let present = mc.register(present);
    let (listen, _) = quick("listen", &[Res::Head]);
    let listen = mc.register(listen);
    let (look, _) = quick("look", &[Res::Head]);
    let look = mc.register(look);
    mc.route(IntentKind::Guide, guide);

    // Running all along: `listen` holds the head, unpreemptible; `look` waits for it.
    let listening = mc.submit(listen, Priority(200), None);
    let waiting = mc.submit(look, Priority(100), None);
    assert_eq!(mc.phase(listening), Some(Phase::Running));
    assert_eq!(mc.phase(waiting), Some(Phase::Queued));

    let mut hri = intake();
    let guide_json = |i: u64| {
        format!(
            r#"{{"intent": "__intent_guide__", "data": {{"goal": "kitchen", "recipient": "person_{i}"}}, "source": "person_1", "priority": 128}}"#
        )
    };
    let stop_json = |i: u64| {
        format!(
            r#"{{"intent": "__intent_stop_activity__", "data": {{"object": "guide"}}, "source": "person_{i}", "priority": 200}}"#
        )
    };
    const CYCLES: u64 = 100;
    const WARM_UP: u64 = 4;
    let mut records: Vec<(IntentRecord, IntentRecord)> = (0..CYCLES + WARM_UP)
        .map(|i| {
            let t = 1_000 + i * 100;
            (
                admit(&mut hri, &guide_json(i), t),
                admit(&mut hri, &stop_json(i), t + 10),
            )
        })
        .collect();
    let mut events: Vec<MissionEvent> = Vec::with_capacity(64);
    let mut granted = 0;
    let mut cycle = |mc: &mut MissionController<Res>,
                     (guide, stop): (IntentRecord, IntentRecord),
                     events: &mut Vec<MissionEvent>| {
        let now = guide.arrived.0;
        let Handling::Request(id) = mc.handle_intent(guide) else {
            panic!("the guide is routed");
        };
        mc.tick(Timestamp(now + 1));
        mc.tick(Timestamp(now + 2));
        assert_eq!(mc.handle_intent(stop), Handling::Control);
        // In code as well: the screen's request granted, then stopped by name.
        mc.submit(present, Priority(128), None);
        mc.stop(Some("present"), Priority::MAX);
        mc.tick(Timestamp(now + 20));
        events.clear();
        mc.drain_events_into(events);
        for e in events.iter() {
            match e {
                MissionEvent::Decided {
                    request,
                    decision: Decision::Granted,
                    ..
                } if *request == id => granted += 1,
                MissionEvent::Finished {
                    request,
                    outcome: Outcome::Cancelled { .. },
                } if *request == id => {}
                MissionEvent::Decided { .. }
                | MissionEvent::Started { .. }
                | MissionEvent::HaltRequested { .. }
                | MissionEvent::Halted { .. }
                | MissionEvent::Finished { .. } => {}
                other => panic!("unexpected event {other:?}"),
            }
        }
    };
    let mut drain = records.drain(..);
    for r in drain.by_ref().take(WARM_UP as usize) {
        cycle(&mut mc, r, &mut events);
    }
    let (n, ()) = allocations(|| {
        for r in drain.by_ref() {
            cycle(&mut mc, r, &mut events);
        }
    });
    drop(drain);
    assert_eq!(granted, CYCLES + WARM_UP, "every guide was granted");
    assert_eq!(guide_starts.get() as u64, CYCLES + WARM_UP);
    assert_eq!(present_starts.get() as u64, CYCLES + WARM_UP);
    assert_eq!(
        mc.phase(listening),
        Some(Phase::Running),
        "listen ran all along"
    );
    assert_eq!(
        mc.phase(waiting),
        Some(Phase::Queued),
        "look waited all along"
    );
    assert!(mc.arbiter().lock().check_exclusive().is_ok());
    assert_eq!(n, 0, "{CYCLES} steady grant/stop cycles");
}

#[test]
fn a_subscriber_discards_the_buffered_events_without_allocating() {
    let mut mc = MissionController::<Res>::new(MissionConfig::default());
    let (present, _) = quick("present", &[Res::Screen]);
    let present = mc.register(present);
    let heard = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&heard);
    mc.subscribe(move |_| {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    let cycle = |mc: &mut MissionController<Res>| {
        mc.submit(present, Priority(128), None);
        mc.stop(Some("present"), Priority::MAX);
        mc.discard_events();
    };
    // Warm: the buffer has grown to a cycle's events.
    cycle(&mut mc);
    let (n, ()) = allocations(|| {
        for _ in 0..50 {
            cycle(&mut mc);
        }
    });
    assert_eq!(n, 0, "50 cycles, each discarding its events");
    assert!(mc.drain_events().is_empty(), "nothing left buffered");
    // Decided, Started, HaltRequested, Halted, Finished: five a cycle, all heard.
    assert_eq!(heard.load(std::sync::atomic::Ordering::Relaxed), 51 * 5);
}
