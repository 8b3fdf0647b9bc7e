//! A scripted robot for the mission-controller tests: resources, and capabilities whose run
//! and halt durations are set per test.
#![allow(dead_code)]

use robot_runtime::hri::{Admission, Envelope, HriIntake, IntakeConfig, IntentRecord, Timestamp};
use robot_runtime::mission::{
    Capability, CapabilityPolicy, HaltProgress, Progress, Request, Resource, ResourceSet,
};
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Res {
    Base,
    LeftArm,
    RightArm,
    Head,
    Speech,
    Screen,
}

impl Resource for Res {
    const ALL: &'static [Res] = &[
        Res::Base,
        Res::LeftArm,
        Res::RightArm,
        Res::Head,
        Res::Speech,
        Res::Screen,
    ];
    fn index(self) -> u8 {
        self as u8
    }
}

/// What the scripted capabilities did, in order (`"start guide"`, `"halt guide"`, ...).
pub type Log = Rc<RefCell<Vec<String>>>;

/// A capability that runs for `run_ticks` ticks (`None`: until halted) and needs
/// `halt_ticks` halt calls to stop (`None`: never stops).
pub struct Scripted {
    pub name: &'static str,
    pub resources: ResourceSet<Res>,
    pub policy: CapabilityPolicy,
    pub run_ticks: Option<u32>,
    pub halt_ticks: Option<u32>,
    pub log: Log,
    pub last: Rc<RefCell<Option<Request>>>,
    elapsed: u32,
    halting: u32,
}

impl Scripted {
    pub fn new(name: &'static str, resources: &[Res], log: &Log) -> Scripted {
        Scripted {
            name,
            resources: ResourceSet::of(resources),
            policy: CapabilityPolicy::default(),
            run_ticks: None,
            halt_ticks: Some(0),
            log: log.clone(),
            last: Rc::new(RefCell::new(None)),
            elapsed: 0,
            halting: 0,
        }
    }
    pub fn runs(mut self, ticks: u32) -> Self {
        self.run_ticks = Some(ticks);
        self
    }
    pub fn halts_in(mut self, ticks: Option<u32>) -> Self {
        self.halt_ticks = ticks;
        self
    }
    pub fn policy(mut self, policy: CapabilityPolicy) -> Self {
        self.policy = policy;
        self
    }
}

impl Capability<Res> for Scripted {
    fn name(&self) -> &str {
        self.name
    }
    fn resources(&self) -> ResourceSet<Res> {
        self.resources
    }
    fn policy(&self) -> CapabilityPolicy {
        self.policy
    }
    fn start(&mut self, request: &Request) -> Result<(), String> {
        self.log.borrow_mut().push(format!("start {}", self.name));
        *self.last.borrow_mut() = Some(request.clone());
        self.elapsed = 0;
        self.halting = 0;
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        self.elapsed += 1;
        match self.run_ticks {
            Some(t) if self.elapsed >= t => {
                self.log.borrow_mut().push(format!("done {}", self.name));
                Progress::Succeeded
            }
            _ => Progress::Running,
        }
    }
    fn halt(&mut self) -> HaltProgress {
        if self.halting == 0 {
            self.log.borrow_mut().push(format!("halt {}", self.name));
        }
        self.halting += 1;
        match self.halt_ticks {
            Some(t) if self.halting > t => {
                self.log.borrow_mut().push(format!("halted {}", self.name));
                HaltProgress::Halted
            }
            _ => HaltProgress::Halting,
        }
    }
}

/// Feeds one JSON message to the intake and returns the record when it is in the execute
/// band (panics otherwise: a test helper).
pub fn admit(intake: &mut HriIntake, json: &str, now: u64) -> IntentRecord {
    match intake.receive_json(json, Envelope::new(), Timestamp(now)) {
        Admission::Execute(r) => r,
        other => panic!("expected execute, got {other:?} for {json}"),
    }
}

pub fn intake() -> HriIntake {
    HriIntake::new(IntakeConfig::default())
}
