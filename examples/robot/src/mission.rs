//! The robot's mission side: the ROS4HRI requests the intent component's one intake routes to
//! the mission controller (`hri_intent_map.json`'s `"to"`), scheduled by a
//! [`MissionController`] over the robot's resources, with simulated capabilities (navigation,
//! guiding, engaging, presenting, activities).
//!
//! | capability | intents | resources | ends |
//! |---|---|---|---|
//! | `navigate` | `MOVE_TO` | base | `action_done` `navigate` (timeout 60 s) |
//! | `guide` | `GUIDE` | base, speech | `action_done` `guide` (timeout 120 s) |
//! | `engage` | `ENGAGE_WITH`, `GREET` | head, speech | after 1.5 s |
//! | `present_content` | `PRESENT_CONTENT` | screen, speech | after 4 s |
//! | `activity` | `START_ACTIVITY` | head, screen, speech | `action_done` `activity` (timeout 300 s) |
//!
//! `STOP_ACTIVITY` / `CANCEL_ACTIVITY` / `CONTINUE_ACTIVITY` / `SUSPEND` / `WAKEUP` act on
//! the controller. Preemption is halt-before-start: a capability takes `halt_ms` to stop
//! (the base needs 150 ms to brake), and the newcomer starts only when it has.
//!
//! The controller claims through the robot's one arbiter ([`robot_runtime::arbiter`]),
//! which the behaviors' actions claim through too: a voice command's drive and a guide
//! mission never hold the base together.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use robot_runtime::arbiter::body::names;
use robot_runtime::arbiter::{ArbiterEvent, Body, SharedArbiter};
use robot_runtime::hri::{IntentKind, IntentRecord, Timestamp};
use robot_runtime::mission::{
    CancelReason, Capability, CapabilityPolicy, ControlIgnoredReason, Decision, HaltProgress,
    HaltReason, MissionConfig, MissionController, MissionEvent, Outcome, Progress, Request,
    RequestId, ResourceSet,
};

use crate::actions::Completions;
use crate::scenario::ActionResult;
use crate::timeline::What;

/// What the mission side reports, in the order it happened: the controller's events (through
/// its subscription) and the capabilities' own lines, interleaved as they occur, so that the
/// timeline lists causes before effects (a holder's "released" before the "started" it made
/// possible).
#[derive(Debug)]
enum MissionItem {
    Event(MissionEvent),
    What(What),
}

#[derive(Clone, Debug, Default)]
struct MissionLog(Arc<Mutex<Vec<MissionItem>>>);

impl MissionLog {
    fn push(&self, item: MissionItem) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(item);
    }

    fn take(&self) -> Vec<MissionItem> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// A simulated capability.
struct SimCapability {
    name: &'static str,
    resources: ResourceSet<Body>,
    /// `Some`: ends by itself after this long; `None`: ends on `action_done` (or fails
    /// after `timeout`).
    length: Option<Duration>,
    timeout: Duration,
    halt: Duration,
    tick: Duration,
    elapsed: Duration,
    halting: Option<Duration>,
    completions: Completions,
    log: MissionLog,
}

impl SimCapability {
    fn end_log(&self, change: &'static str) {
        self.log.push(MissionItem::What(What::Action {
            behavior: format!("mission/{}", self.name),
            action: self.name.to_owned(),
            change,
            duration_ms: None,
        }));
    }
}

impl Capability<Body> for SimCapability {
    fn name(&self) -> &str {
        self.name
    }
    fn resources(&self) -> ResourceSet<Body> {
        self.resources
    }
    fn policy(&self) -> CapabilityPolicy {
        CapabilityPolicy {
            halt_timeout_ticks: ((self.halt.as_millis() / self.tick.as_millis().max(1)) as u32 + 3)
                .max(3),
            ..CapabilityPolicy::default()
        }
    }
    fn start(&mut self, request: &Request) -> Result<(), String> {
        self.elapsed = Duration::ZERO;
        self.halting = None;
        if self.length.is_none() {
            self.completions.start(self.name);
        }
        let what = request
            .object
            .as_deref()
            .map(|o| format!(" ({o})"))
            .unwrap_or_default();
        self.log.push(MissionItem::What(What::Action {
            behavior: format!("mission/{}", self.name),
            action: format!("{}{what}", self.name),
            change: if request.resumed {
                "resumed"
            } else {
                "started"
            },
            duration_ms: self.length.map(|d| d.as_millis() as u64),
        }));
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        self.elapsed += self.tick;
        match self.length {
            Some(len) if self.elapsed >= len => {
                self.end_log("succeeded");
                Progress::Succeeded
            }
            Some(_) => Progress::Running,
            None => match self.completions.poll(self.name) {
                Some(ActionResult::Succeeded) => {
                    self.completions.end(self.name);
                    self.end_log("succeeded");
                    Progress::Succeeded
                }
                Some(r) => {
                    self.completions.end(self.name);
                    self.end_log(r.name());
                    Progress::Failed(format!("the robot reported {}", r.name()))
                }
                None if self.elapsed >= self.timeout => {
                    self.completions.end(self.name);
                    self.end_log("timed out");
                    Progress::Failed("timed out".into())
                }
                None => Progress::Running,
            },
        }
    }
    fn halt(&mut self) -> HaltProgress {
        match &mut self.halting {
            None => {
                self.halting = Some(Duration::ZERO);
                self.log.push(MissionItem::What(What::Action {
                    behavior: format!("mission/{}", self.name),
                    action: self.name.to_owned(),
                    change: "stopping",
                    duration_ms: Some(self.halt.as_millis() as u64),
                }));
                if self.halt.is_zero() {
                    self.stopped()
                } else {
                    HaltProgress::Halting
                }
            }
            Some(t) => {
                *t += self.tick;
                if *t >= self.halt {
                    self.stopped()
                } else {
                    HaltProgress::Halting
                }
            }
        }
    }
}

impl SimCapability {
    fn stopped(&mut self) -> HaltProgress {
        if self.length.is_none() {
            self.completions.end(self.name);
        }
        self.end_log("stopped");
        HaltProgress::Halted
    }
}

/// The mission controller and its capabilities.
pub struct Hri {
    mission: MissionController<Body>,
    /// A mission ended by itself since the last [`Hri::take_state_changed`].
    state_changed: bool,
    log: MissionLog,
    requests: HashMap<RequestId, (String, ResourceSet<Body>)>,
    holding: HashMap<RequestId, bool>,
    capability_names: Vec<String>,
    capability_resources: Vec<ResourceSet<Body>>,
}

impl std::fmt::Debug for Hri {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hri")
            .field("mission", &self.mission)
            .finish_non_exhaustive()
    }
}

impl Hri {
    /// The robot's capabilities and routes, claiming through `arbiter`; `tick` is one
    /// tick's length.
    pub fn new(tick: Duration, completions: &Completions, arbiter: &SharedArbiter<Body>) -> Self {
        let log = MissionLog::default();
        let mut mission =
            MissionController::with_arbiter(MissionConfig::default(), arbiter.clone());
        let events = log.clone();
        mission.subscribe(move |e| events.push(MissionItem::Event(e.clone())));
        let mut names = Vec::new();
        let mut resources = Vec::new();
        let mut add = |mission: &mut MissionController<Body>,
                       name: &'static str,
                       res: &[Body],
                       length_ms: Option<u64>,
                       timeout_ms: u64,
                       halt_ms: u64| {
            let set = ResourceSet::of(res);
            names.push(name.to_owned());
            resources.push(set);
            mission.register(SimCapability {
                name,
                resources: set,
                length: length_ms.map(Duration::from_millis),
                timeout: Duration::from_millis(timeout_ms),
                halt: Duration::from_millis(halt_ms),
                tick,
                elapsed: Duration::ZERO,
                halting: None,
                completions: completions.clone(),
                log: log.clone(),
            })
        };
        let navigate = add(&mut mission, "navigate", &[Body::Base], None, 60_000, 150);
        let guide = add(
            &mut mission,
            "guide",
            &[Body::Base, Body::Speech],
            None,
            120_000,
            150,
        );
        let engage = add(
            &mut mission,
            "engage",
            &[Body::Head, Body::Speech],
            Some(1500),
            0,
            0,
        );
        let present = add(
            &mut mission,
            "present_content",
            &[Body::Screen, Body::Speech],
            Some(4000),
            0,
            50,
        );
        let activity = add(
            &mut mission,
            "activity",
            &[Body::Head, Body::Screen, Body::Speech],
            None,
            300_000,
            100,
        );
        mission
            .route(IntentKind::MoveTo, navigate)
            .route(IntentKind::Guide, guide)
            .route(IntentKind::EngageWith, engage)
            .route(IntentKind::Greet, engage)
            .route(IntentKind::PresentContent, present)
            .route(IntentKind::StartActivity, activity);
        Self {
            mission,
            state_changed: false,
            log,
            requests: HashMap::new(),
            holding: HashMap::new(),
            capability_names: names,
            capability_resources: resources,
        }
    }

    /// Hands an admitted request the intake routed here to the mission controller
    /// (arbitration, control intents).
    pub fn schedule(&mut self, record: IntentRecord) -> Vec<What> {
        self.mission.handle_intent(record);
        self.mission_whats()
    }

    /// A tick at `now_ms`: capabilities advance, halts progress, queued requests start.
    pub fn tick(&mut self, now_ms: u64) -> Vec<What> {
        self.mission.tick(Timestamp(now_ms));
        self.mission_whats()
    }

    /// True when nothing runs or waits.
    pub fn is_idle(&self) -> bool {
        self.mission.is_idle()
    }

    /// True when a tick without input would do nothing here (nothing runs, waits or is
    /// polled; the intake keeps no time of its own): the robot may skip ticks.
    pub fn is_quiescent(&self) -> bool {
        self.mission.is_quiescent()
    }

    /// True once after a mission ended by itself (completed or failed, not because of a
    /// request): the HRI intake's de-duplicator must hear it
    /// ([`HriIntake::note_state_change`](robot_runtime::hri::HriIntake::note_state_change)).
    pub fn take_state_changed(&mut self) -> bool {
        std::mem::take(&mut self.state_changed)
    }

    /// The mission side's lines since the last call, in the order things happened.
    fn mission_whats(&mut self) -> Vec<What> {
        // The subscription has them all, in order; the controller's own buffer is not needed.
        self.mission.discard_events();
        let mut out = Vec::new();
        for item in self.log.take() {
            match item {
                MissionItem::What(w) => out.push(w),
                MissionItem::Event(e) => self.translate(e, &mut out),
            }
        }
        out
    }

    fn translate(&mut self, e: MissionEvent, out: &mut Vec<What>) {
        {
            match e {
                MissionEvent::Decided {
                    request,
                    capability,
                    priority,
                    decision,
                } => {
                    let i = capability.0 as usize;
                    let name = self.capability_names.get(i).cloned().unwrap_or_default();
                    let res = self
                        .capability_resources
                        .get(i)
                        .copied()
                        .unwrap_or_default();
                    let holder = format!("{name} #{}", request.0);
                    self.requests.insert(request, (holder.clone(), res));
                    let (change, reason) = match decision {
                        Decision::Granted => ("granted", format!("priority {}", priority.0)),
                        Decision::Preempting { victims } => (
                            "granted by preemption",
                            format!(
                                "priority {}; starts once {} has stopped",
                                priority.0,
                                self.holders(&victims)
                            ),
                        ),
                        Decision::Queued { blocked_by } => (
                            "queued",
                            format!(
                                "priority {}; held by {}",
                                priority.0,
                                self.holders(&blocked_by)
                            ),
                        ),
                        Decision::Rejected(r) => ("rejected", format!("{r:?}")),
                    };
                    out.push(What::Resource {
                        resource: names(res),
                        holder,
                        change,
                        reason: Some(reason),
                    });
                }
                MissionEvent::Started { request, .. } => {
                    self.holding.insert(request, true);
                }
                MissionEvent::HaltRequested { request, reason } => {
                    let (holder, res) = self.lookup(request);
                    let (change, why) = match reason {
                        HaltReason::Preempted(by) => {
                            ("preempted", format!("by {}; halting", self.lookup(by).0))
                        }
                        HaltReason::Stopped(by) => (
                            "stopping",
                            match by {
                                Some(i) => format!("stop intent #{}", i.0),
                                None => "stop requested".to_owned(),
                            },
                        ),
                        HaltReason::Claimed { by } => ("preempted", format!("by {by}; halting")),
                        HaltReason::Suspended => ("stopping", "the robot suspends".to_owned()),
                        HaltReason::Shutdown => ("stopping", "shutdown".to_owned()),
                    };
                    out.push(What::Resource {
                        resource: names(res),
                        holder,
                        change,
                        reason: Some(why),
                    });
                }
                MissionEvent::Halted { request, ticks } => {
                    let (holder, res) = self.lookup(request);
                    self.holding.remove(&request);
                    out.push(What::Resource {
                        resource: names(res),
                        holder,
                        change: "released",
                        reason: Some(format!(
                            "stopped after {ticks} tick{}",
                            if ticks == 1 { "" } else { "s" }
                        )),
                    });
                }
                MissionEvent::HaltTimedOut { request, ticks, .. } => {
                    let (holder, res) = self.lookup(request);
                    self.holding.remove(&request);
                    out.push(What::Resource {
                        resource: names(res),
                        holder,
                        change: "force-released",
                        reason: Some(format!("did not stop within {ticks} ticks")),
                    });
                }
                MissionEvent::Finished { request, outcome } => {
                    if matches!(outcome, Outcome::Completed | Outcome::Failed(_)) {
                        // It ended by itself, not because of an intent: a restatement of
                        // any request is new from now on (a cancellation is the effect of
                        // the intent that asked for it, and changes nothing here).
                        self.state_changed = true;
                    }
                    let (holder, res) = self.lookup(request);
                    let was_holding = self.holding.remove(&request).is_some();
                    let (change, reason) = match &outcome {
                        Outcome::Completed => ("released", "completed".to_owned()),
                        Outcome::Failed(why) => ("released", format!("failed: {why}")),
                        Outcome::Rejected(r) => ("rejected", format!("{r:?}")),
                        Outcome::Cancelled { reason, forced } => {
                            let why = match reason {
                                CancelReason::Preempted { by } => {
                                    format!("preempted by {}", self.lookup(*by).0)
                                }
                                CancelReason::Stopped { by: Some(i) } => {
                                    format!("stopped by intent #{}", i.0)
                                }
                                CancelReason::Stopped { by: None } => "stopped".to_owned(),
                                CancelReason::Claimed { by } => format!("preempted by {by}"),
                                other => format!("{other:?}"),
                            };
                            let forced = if *forced { ", force-released" } else { "" };
                            ("cancelled", format!("{why}{forced}"))
                        }
                    };
                    let change = if was_holding && change == "cancelled" {
                        "released"
                    } else {
                        change
                    };
                    out.push(What::Resource {
                        resource: names(res),
                        holder,
                        change,
                        reason: Some(reason),
                    });
                }
                MissionEvent::Paused { request } => {
                    let (holder, res) = self.lookup(request);
                    out.push(What::Resource {
                        resource: names(res),
                        holder,
                        change: "paused",
                        reason: None,
                    });
                }
                MissionEvent::ControlIgnored { reason, .. } => out.push(What::InputIgnored {
                    reason: match reason {
                        ControlIgnoredReason::NothingMatches => {
                            "stop/continue: no running or paused activity matches".to_owned()
                        }
                        ControlIgnoredReason::Outranked { requests } => format!(
                            "stop: outranked by {} (higher priority)",
                            self.holders(&requests)
                        ),
                        ControlIgnoredReason::AlreadyInState => {
                            "the robot is already in that state".to_owned()
                        }
                    },
                }),
                MissionEvent::Unroutable { wire, .. } => out.push(What::InputIgnored {
                    reason: format!("no capability handles {wire}"),
                }),
                other => out.push(What::Note {
                    text: format!("mission: {other:?}"),
                }),
            }
        }
    }

    fn lookup(&self, request: RequestId) -> (String, ResourceSet<Body>) {
        self.requests
            .get(&request)
            .cloned()
            .unwrap_or_else(|| (format!("#{}", request.0), ResourceSet::EMPTY))
    }

    fn holders(&self, ids: &[RequestId]) -> String {
        ids.iter()
            .map(|r| self.lookup(*r).0)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The timeline line of what the arbiter reported (a behavior action involved: the mission
/// controller reports its own requests).
pub fn arbiter_what(e: &ArbiterEvent<Body>) -> What {
    let (holder, resources, change, reason) = match e {
        ArbiterEvent::Granted {
            label, resources, ..
        } => (label, resources, "granted", None),
        ArbiterEvent::Preempting {
            label,
            resources,
            victims,
            ..
        } => (
            label,
            resources,
            "granted by preemption",
            Some(format!("starts once {} has stopped", victims.join(", "))),
        ),
        ArbiterEvent::Waiting {
            label,
            resources,
            blocked_by,
            ..
        } => (
            label,
            resources,
            "waiting",
            Some(format!("held by {}", blocked_by.join(", "))),
        ),
        ArbiterEvent::Refused {
            label,
            resources,
            blocked_by,
            ..
        } => (
            label,
            resources,
            "refused",
            Some(format!("held by {}", blocked_by.join(", "))),
        ),
        ArbiterEvent::Released {
            label, resources, ..
        } => (label, resources, "released", None),
    };
    What::Resource {
        resource: names(*resources),
        holder: holder.clone(),
        change,
        reason,
    }
}
