//! A robot for the arbiter's tests: an original tree run by the original's classes, its
//! actions claiming the body through the robot's one arbiter, the runner's track locks and
//! holds on that arbiter, and a mission controller with a drive capability on the same
//! table. Shared by `track_locks.rs` and `in_air_hold.rs` (each uses part of it).
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use robot_runtime::arbiter::{
    self, ArbiterEvent, ArbitratedAction, Body, ResourceSet, SharedArbiter, TrackLocker,
    WhenBlocked,
};
use robot_runtime::behavior::{
    load_tree, Action, ActionFactory, ActionRequest, BehaviorId, LoadOptions, Runner,
    SimulatedActions, Source,
};
use robot_runtime::hri::{Priority, Timestamp};
use robot_runtime::intent::IntentComponent;
use robot_runtime::mission::{
    Capability, CapabilityId, CapabilityPolicy, HaltProgress, MissionConfig, MissionController,
    Progress, Request,
};
use robot_runtime_tests::{UserIntent, MAP};

/// One tick.
pub const DT: Duration = Duration::from_millis(100);

/// The original classes' actions, simulated, each claiming what its kind needs from the
/// arbiter (as the example robot's factory does; an animation can play without any of its
/// tracks), refused as `blocked` says.
struct Claiming {
    inner: SimulatedActions,
    arbiter: SharedArbiter<Body>,
    blocked: WhenBlocked,
}

impl ActionFactory for Claiming {
    fn make(&mut self, behavior: &str, request: &ActionRequest<'_>) -> Box<dyn Action> {
        let action = self.inner.make(behavior, request);
        let label = format!("{behavior}/{}", action.name());
        Box::new(
            ArbitratedAction::new(
                action,
                &self.arbiter,
                arbiter::needs(request),
                Priority::DEFAULT,
                label,
            )
            .when_blocked(self.blocked)
            .maskable(arbiter::maskable(request)),
        )
    }
}

/// A mission capability driving the base until it is stopped; it halts at once. Its starts
/// and halts are written to the robot's events.
struct Drive {
    log: Arc<Mutex<Vec<String>>>,
}

impl Capability<Body> for Drive {
    fn name(&self) -> &str {
        "drive"
    }
    fn resources(&self) -> ResourceSet<Body> {
        ResourceSet::of(&[Body::Base])
    }
    fn policy(&self) -> CapabilityPolicy {
        CapabilityPolicy::default()
    }
    fn start(&mut self, request: &Request) -> Result<(), String> {
        self.log
            .lock()
            .unwrap()
            .push(format!("drive {} started", request.priority.0));
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        Progress::Running
    }
    fn halt(&mut self) -> HaltProgress {
        self.log.lock().unwrap().push("drive halted".to_owned());
        HaltProgress::Halted
    }
}

/// An arbiter event as `change label parts` (what each claim asked for or gave back).
pub fn with_parts(e: &ArbiterEvent<Body>) -> String {
    let (change, label, parts) = match e {
        ArbiterEvent::Granted {
            label, resources, ..
        } => ("granted", label, resources),
        ArbiterEvent::Preempting {
            label, resources, ..
        } => ("preempting", label, resources),
        ArbiterEvent::Waiting {
            label, resources, ..
        } => ("waiting", label, resources),
        ArbiterEvent::Refused {
            label, resources, ..
        } => ("refused", label, resources),
        ArbiterEvent::Released {
            label, resources, ..
        } => ("released", label, resources),
    };
    format!("{change} {label} {}", arbiter::body::names(*parts))
}

/// An arbiter event as `change label parts-or-holders`: a grant or a release with its
/// parts, a preemption with its victims, a wait or a refusal with the claims in the way.
/// (`ArbiterEvent`'s own `Display`.)
pub fn with_holders(e: &ArbiterEvent<Body>) -> String {
    e.to_string()
}

pub struct Robot {
    pub runner: Runner<UserIntent>,
    pub arbiter: SharedArbiter<Body>,
    pub mc: MissionController<Body>,
    pub drive: CapabilityId,
    /// The arbiter's events as the timeline shows them (written by the `show` given to
    /// [`robot`]), and the drive's starts and halts, in order.
    events: Arc<Mutex<Vec<String>>>,
    pub now_ms: u64,
}

/// The robot running `tree` (its root `Root`), its actions refused as `blocked` says, its
/// arbiter's events written by `show`.
pub fn robot(tree: &str, blocked: WhenBlocked, show: fn(&ArbiterEvent<Body>) -> String) -> Robot {
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("tree.json", tree)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let arbiter = SharedArbiter::<Body>::new();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = events.clone();
    arbiter
        .lock()
        .subscribe(move |e| sink.lock().unwrap().push(show(e)));
    let mut runner = Runner::new(t, IntentComponent::new(&MAP));
    runner.set_action_factory(Box::new(Claiming {
        inner: SimulatedActions::default(),
        arbiter: arbiter.clone(),
        blocked,
    }));
    runner.set_track_locks(Box::new(TrackLocker::body(&arbiter)));
    let mut mc = MissionController::with_arbiter(MissionConfig::default(), arbiter.clone());
    let drive = mc.register(Drive {
        log: events.clone(),
    });
    Robot {
        runner,
        arbiter,
        mc,
        drive,
        events,
        now_ms: 0,
    }
}

impl Robot {
    /// One robot tick: the behaviors, then the missions; after it, no part has two
    /// holders and the runner's invariants hold.
    pub fn tick(&mut self) {
        self.now_ms += DT.as_millis() as u64;
        self.runner.tick(DT, &[]);
        assert_eq!(self.runner.errors(), []);
        self.runner.check_invariants().unwrap();
        self.mc.tick(Timestamp(self.now_ms));
        if let Err((a, b, parts)) = self.arbiter.lock().check_exclusive() {
            panic!("{a} and {b} both hold {parts:?}");
        }
    }

    pub fn ticks(&mut self, n: usize) {
        for _ in 0..n {
            self.tick();
        }
    }

    /// Who holds `part` now (its label).
    pub fn holder_of(&self, part: Body) -> Option<String> {
        self.arbiter
            .lock()
            .holders()
            .find(|(_, _, r)| r.contains(part))
            .map(|(_, l, _)| l.to_owned())
    }

    /// Every claim holding parts now, as `label parts`.
    pub fn holders(&self) -> Vec<String> {
        self.arbiter
            .lock()
            .holders()
            .map(|(_, l, p)| format!("{l} {}", arbiter::body::names(p)))
            .collect()
    }

    /// The events since the last call.
    pub fn events(&self) -> Vec<String> {
        std::mem::take(&mut *self.events.lock().unwrap())
    }

    /// The behavior `name`'s id.
    pub fn id(&self, name: &str) -> BehaviorId {
        self.runner.id(name).unwrap_or_else(|| panic!("{name}"))
    }
}
