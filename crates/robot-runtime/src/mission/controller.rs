//! [`MissionController`]: routes intents to capabilities and runs them under the arbiter.

use super::arbiter::{self, Claim, Verdict};
use super::capability::{
    Capability, CapabilityId, CapabilityPolicy, HaltProgress, OnPreempt, Progress, Request,
    WhenBusy,
};
use super::event::{
    CancelReason, ControlIgnoredReason, Decision, HaltReason, MissionEvent, Outcome, RejectReason,
    RequestId,
};
use super::resource::{Resource, ResourceSet};
use crate::hri::{IntentId, IntentKind, IntentRecord, Priority, Role, Timestamp};
use std::cmp::Reverse;

/// Configuration of a [`MissionController`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissionConfig {
    /// At most this many requests wait in the queue (default 16). When it is full, a
    /// request that outranks the last one pushes it out (cancelled, "queue overflow");
    /// otherwise it is rejected ("queue full").
    pub queue_capacity: usize,
}

impl Default for MissionConfig {
    fn default() -> Self {
        MissionConfig { queue_capacity: 16 }
    }
}

/// What [`MissionController::handle_intent`] did with an intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handling {
    /// It became this request (see the events for the decision).
    Request(RequestId),
    /// A control intent (stop, cancel, continue, wakeup, suspend) was applied or reported.
    Control,
    /// `RAW_USER_INPUT`: handed to the handler (`true`) or reported (`false`).
    RawInput(bool),
    /// No route: reported as [`MissionEvent::Unroutable`].
    Unroutable,
}

/// Where a request is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for resources.
    Queued,
    /// Granted by preemption: its resources are reserved; it starts once these requests
    /// confirmed their halt (or were force-released).
    WaitingForHalt(Vec<RequestId>),
    /// Running: it holds its resources.
    Running,
    /// Asked to halt, still holding its resources.
    Halting,
    /// Paused by preemption or suspension; `CONTINUE_ACTIVITY` re-requests it.
    Paused,
}

/// What a halting request becomes once halted.
#[derive(Clone, Debug, PartialEq, Eq)]
enum AfterHalt {
    End(CancelReason),
    Pause,
}

#[derive(Debug)]
struct Entry {
    request: Request,
    phase: Phase,
    expires: Option<Timestamp>,
    /// Halting: ticks since the halt request, and what follows.
    halt_ticks: u32,
    after_halt: Option<AfterHalt>,
    /// Halting: why (a forced pause ends with the matching cancel reason).
    halt_reason: Option<HaltReason>,
    /// Order in which running requests started (the "current main activity" is the latest
    /// of the highest priority).
    started_seq: u64,
    /// Started or asked to halt at this time and not yet ticked or polled since: the first
    /// tick at that same time does not tick or poll it (no time has passed for it).
    fresh_at: Option<Timestamp>,
}

struct Slot<R: Resource> {
    capability: Box<dyn Capability<R>>,
    policy: CapabilityPolicy,
    resources: ResourceSet<R>,
    unresponsive: bool,
}

struct Route {
    intent: IntentKind,
    when: Option<(Role, String)>,
    capability: CapabilityId,
}

/// The handler of `RAW_USER_INPUT` intents; returns true when it took the input.
pub type RawInputHandler = Box<dyn FnMut(&IntentRecord) -> bool>;

/// A subscriber to the controller's events ([`MissionController::subscribe`]).
pub type MissionListener = Box<dyn FnMut(&MissionEvent) + Send>;

/// Schedules capabilities from intents and allocates the robot's resources so that no two
/// running capabilities use the same one.
///
/// * Routes map an intent (optionally with a role value) to a capability.
/// * Every request gets a typed [`Decision`] (grant, preempt, queue, reject) with the
///   requests involved, decided by [`arbiter::decide`]: priority, then the capability's
///   rank, then arrival order.
/// * Preemption is halt-before-start: the holders are halted first, the newcomer starts only
///   when they confirmed (polled once per tick) or their halt timeout passed (force-release,
///   [`MissionEvent::HaltTimedOut`]).
/// * `STOP_ACTIVITY`/`CANCEL_ACTIVITY` stop the activity named by `object` (a capability
///   name or a request's object) or, without object or with an empty one (the spec's
///   cancel-task example sends `{"object": ""}`), the current main activity (the latest
///   started of the highest priority); a stop intent only stops requests of at most its own
///   priority. `CONTINUE_ACTIVITY` resumes a paused request, `SUSPEND` halts everything and
///   refuses new requests until `WAKEUP`. `RAW_USER_INPUT` goes to the handler or is
///   reported.
/// * Every request ends with exactly one [`MissionEvent::Finished`] whose [`Outcome`] says
///   why (property-tested with the resource invariant).
///
/// # Time
///
/// The controller keeps the time of the last [`tick`](Self::tick) and of the last intent it
/// handled (its arrival time). A request started, or asked to halt, at some time is first
/// ticked (or its halt polled) by the first `tick` of a *later* time: a caller that delivers a
/// tick's inputs and then calls `tick` with the same time sees a capability of one tick's
/// length end one tick later, and a halt of three ticks confirmed three ticks after it was
/// asked for — durations are reported as they elapse. (A clock that does not advance still
/// polls: only the first tick after the request is skipped.) Requests made in code
/// ([`submit`](Self::submit), [`stop`](Self::stop), ...) take the time of the last tick.
pub struct MissionController<R: Resource> {
    config: MissionConfig,
    slots: Vec<Slot<R>>,
    routes: Vec<Route>,
    active: Vec<Entry>,
    queue: Vec<Entry>,
    paused: Vec<Entry>,
    suspended: bool,
    next_request: u64,
    next_start: u64,
    now: Timestamp,
    events: Vec<MissionEvent>,
    raw_handler: Option<RawInputHandler>,
    listeners: Vec<MissionListener>,
    claims: Vec<Claim<R>>,
    involved: Vec<RequestId>,
}

impl<R: Resource> std::fmt::Debug for MissionController<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MissionController")
            .field("capabilities", &self.slots.len())
            .field("active", &self.active)
            .field("queue", &self.queue)
            .field("paused", &self.paused)
            .field("suspended", &self.suspended)
            .finish_non_exhaustive()
    }
}

impl<R: Resource> MissionController<R> {
    /// An empty controller.
    pub fn new(config: MissionConfig) -> Self {
        MissionController {
            config,
            slots: Vec::new(),
            routes: Vec::new(),
            active: Vec::new(),
            queue: Vec::new(),
            paused: Vec::new(),
            suspended: false,
            next_request: 1,
            next_start: 0,
            now: Timestamp(0),
            events: Vec::new(),
            raw_handler: None,
            listeners: Vec::new(),
            claims: Vec::new(),
            involved: Vec::new(),
        }
    }

    /// Registers a capability; its resources and policy are read once, here.
    pub fn register(&mut self, capability: impl Capability<R> + 'static) -> CapabilityId {
        let id = CapabilityId(self.slots.len() as u16);
        self.slots.push(Slot {
            policy: capability.policy(),
            resources: capability.resources(),
            capability: Box::new(capability),
            unresponsive: false,
        });
        id
    }

    /// The capability registered under `name`.
    pub fn capability_id(&self, name: &str) -> Option<CapabilityId> {
        self.slots
            .iter()
            .position(|s| s.capability.name() == name)
            .map(|i| CapabilityId(i as u16))
    }

    /// Routes `intent` to `capability`.
    pub fn route(&mut self, intent: IntentKind, capability: CapabilityId) -> &mut Self {
        self.routes.push(Route {
            intent,
            when: None,
            capability,
        });
        self
    }

    /// Routes `intent` whose `role` has `value` to `capability`. Conditional routes are
    /// tried before unconditional ones, in the order added.
    pub fn route_when(
        &mut self,
        intent: IntentKind,
        role: Role,
        value: impl Into<String>,
        capability: CapabilityId,
    ) -> &mut Self {
        self.routes.push(Route {
            intent,
            when: Some((role, value.into())),
            capability,
        });
        self
    }

    /// Sets the `RAW_USER_INPUT` handler.
    pub fn on_raw_input(&mut self, handler: impl FnMut(&IntentRecord) -> bool + 'static) {
        self.raw_handler = Some(Box::new(handler));
    }

    /// Takes the events reported since the last call, oldest first.
    pub fn drain_events(&mut self) -> Vec<MissionEvent> {
        std::mem::take(&mut self.events)
    }

    /// Calls `listener` with every event, synchronously, as it happens (the events are
    /// buffered for [`drain_events`](Self::drain_events) as well). A listener sees an event
    /// in its true order with whatever the capabilities themselves report from inside their
    /// `start` / `tick` / `halt` (the robot's timeline relies on it: a holder's release comes
    /// before the start it made possible).
    pub fn subscribe(&mut self, listener: impl FnMut(&MissionEvent) + Send + 'static) {
        self.listeners.push(Box::new(listener));
    }

    /// True when a tick with no new request would do nothing: nothing is running, halting,
    /// waiting or queued, and no force-released capability is still being polled for its
    /// halt. A discrete-event caller may then skip ticks until its next input.
    pub fn is_quiescent(&self) -> bool {
        self.is_idle() && !self.slots.iter().any(|s| s.unresponsive)
    }

    /// True while suspended.
    pub fn is_suspended(&self) -> bool {
        self.suspended
    }

    /// True when nothing is running, halting, waiting or queued (paused requests may remain).
    pub fn is_idle(&self) -> bool {
        self.active.is_empty() && self.queue.is_empty()
    }

    /// The phase of a request that has not finished.
    pub fn phase(&self, request: RequestId) -> Option<Phase> {
        self.active
            .iter()
            .chain(&self.queue)
            .chain(&self.paused)
            .find(|e| e.request.id == request)
            .map(|e| e.phase.clone())
    }

    /// The requests whose capability is started and not yet released (running or halting),
    /// with the resources they hold.
    pub fn holders(&self) -> impl Iterator<Item = (RequestId, CapabilityId, ResourceSet<R>)> + '_ {
        self.active
            .iter()
            .filter(|e| matches!(e.phase, Phase::Running | Phase::Halting))
            .map(|e| {
                let c = e.request.capability;
                (e.request.id, c, self.slots[c.0 as usize].resources)
            })
    }

    /// The request a running capability serves (with its intent metadata).
    pub fn running_request(&self, capability: CapabilityId) -> Option<&Request> {
        self.active
            .iter()
            .find(|e| e.request.capability == capability && e.phase == Phase::Running)
            .map(|e| &e.request)
    }

    fn emit(&mut self, event: MissionEvent) {
        tracing::debug!(?event, "mission");
        for l in &mut self.listeners {
            l(&event);
        }
        self.events.push(event);
    }

    fn finish(&mut self, request: RequestId, outcome: Outcome) {
        match &outcome {
            Outcome::Completed => tracing::info!(request = request.0, "request completed"),
            other => tracing::info!(request = request.0, outcome = ?other, "request ended"),
        }
        self.emit(MissionEvent::Finished { request, outcome });
    }

    /// Serves an admitted intent (execute band; confirmation is the caller's business):
    /// control intents act on the controller, `RAW_USER_INPUT` goes to the handler, every
    /// other intent is routed to a capability and arbitrated.
    pub fn handle_intent(&mut self, record: IntentRecord) -> Handling {
        // What it starts or stops, it does at its arrival time (see "Time" above).
        self.now = self.now.max(record.arrived);
        let id = record.id;
        let priority = record.intent.priority;
        match &record.intent.intent {
            IntentKind::StopActivity | IntentKind::CancelActivity => {
                let object = record.intent.role(Role::Object).map(str::to_owned);
                self.stop_inner(object.as_deref(), priority, Some(id), id);
                Handling::Control
            }
            IntentKind::ContinueActivity => {
                let object = record.intent.role(Role::Object).map(str::to_owned);
                self.resume_inner(object.as_deref(), id);
                Handling::Control
            }
            IntentKind::Suspend => {
                if self.suspended {
                    self.emit(MissionEvent::ControlIgnored {
                        intent: id,
                        reason: ControlIgnoredReason::AlreadyInState,
                    });
                } else {
                    self.suspend();
                }
                Handling::Control
            }
            IntentKind::Wakeup => {
                if self.suspended {
                    self.wakeup();
                } else {
                    self.emit(MissionEvent::ControlIgnored {
                        intent: id,
                        reason: ControlIgnoredReason::AlreadyInState,
                    });
                }
                Handling::Control
            }
            IntentKind::RawUserInput => {
                let handled = match self.raw_handler.as_mut() {
                    Some(h) => h(&record),
                    None => false,
                };
                if !handled {
                    tracing::info!(intent = id.0, "raw user input not handled");
                }
                self.emit(MissionEvent::RawInput {
                    intent: id,
                    handled,
                });
                Handling::RawInput(handled)
            }
            kind => {
                let Some(capability) = self.find_route(kind, &record) else {
                    let wire = kind.wire().to_owned();
                    tracing::warn!(intent = id.0, %wire, "no capability serves this intent");
                    self.emit(MissionEvent::Unroutable { intent: id, wire });
                    return Handling::Unroutable;
                };
                let object = object_of(&record);
                let expired = record.is_expired(self.now);
                if expired {
                    let request = self.new_request_id();
                    self.emit(MissionEvent::Decided {
                        request,
                        capability,
                        priority,
                        decision: Decision::Rejected(RejectReason::Expired),
                    });
                    self.finish(request, Outcome::Rejected(RejectReason::Expired));
                    return Handling::Request(request);
                }
                Handling::Request(self.submit_inner(capability, priority, object, Some(record)))
            }
        }
    }

    fn find_route(&self, kind: &IntentKind, record: &IntentRecord) -> Option<CapabilityId> {
        let matching = |r: &&Route| r.intent == *kind;
        self.routes
            .iter()
            .filter(matching)
            .find(|r| {
                r.when
                    .as_ref()
                    .is_some_and(|(role, v)| record.intent.role(*role) == Some(v.as_str()))
            })
            .or_else(|| {
                self.routes
                    .iter()
                    .filter(matching)
                    .find(|r| r.when.is_none())
            })
            .map(|r| r.capability)
    }

    fn new_request_id(&mut self) -> RequestId {
        let id = RequestId(self.next_request);
        self.next_request += 1;
        id
    }

    /// Requests `capability` in code (no intent), at `priority`.
    pub fn submit(
        &mut self,
        capability: CapabilityId,
        priority: Priority,
        object: Option<String>,
    ) -> RequestId {
        self.submit_inner(capability, priority, object, None)
    }

    fn submit_inner(
        &mut self,
        capability: CapabilityId,
        priority: Priority,
        object: Option<String>,
        intent: Option<IntentRecord>,
    ) -> RequestId {
        let id = self.new_request_id();
        let reject = match self.slots.get(capability.0 as usize) {
            None => Some(RejectReason::UnknownCapability(capability)),
            Some(s) if s.unresponsive => Some(RejectReason::CapabilityUnresponsive(capability)),
            Some(_) if self.suspended => Some(RejectReason::Suspended),
            Some(_) => None,
        };
        if let Some(reason) = reject {
            self.emit(MissionEvent::Decided {
                request: id,
                capability,
                priority,
                decision: Decision::Rejected(reason.clone()),
            });
            self.finish(id, Outcome::Rejected(reason));
            return id;
        }
        let expires = intent.as_ref().and_then(|r| r.expires);
        let entry = Entry {
            request: Request {
                id,
                capability,
                priority,
                object,
                intent,
                resumed: false,
            },
            phase: Phase::Queued,
            expires,
            halt_ticks: 0,
            after_halt: None,
            halt_reason: None,
            started_seq: 0,
            fresh_at: None,
        };
        self.arbitrate(entry, false);
        self.settle();
        id
    }

    fn claim_of(&self, e: &Entry) -> Claim<R> {
        let slot = &self.slots[e.request.capability.0 as usize];
        Claim {
            request: e.request.id,
            capability: e.request.capability,
            resources: slot.resources,
            priority: e.request.priority,
            rank: slot.policy.rank,
            preemptible: slot.policy.preemptible,
            halting: e.phase == Phase::Halting,
        }
    }

    /// Decides `entry` against the active requests. From the queue, a blocked entry goes
    /// back to the queue without a new event. Returns the entry when it stays queued.
    fn arbitrate(&mut self, mut entry: Entry, from_queue: bool) -> Option<Entry> {
        let capability = entry.request.capability;
        if self.slots[capability.0 as usize].unresponsive {
            // Force-released and not yet confirmed: it takes no request, queued ones
            // included, until it does (the capability contract).
            let reason = RejectReason::CapabilityUnresponsive(capability);
            self.emit(MissionEvent::Decided {
                request: entry.request.id,
                capability,
                priority: entry.request.priority,
                decision: Decision::Rejected(reason.clone()),
            });
            self.finish(entry.request.id, Outcome::Rejected(reason));
            return None;
        }
        let mut claims = std::mem::take(&mut self.claims);
        claims.clear();
        claims.extend(self.active.iter().map(|e| self.claim_of(e)));
        let candidate = self.claim_of(&entry);
        let mut involved = std::mem::take(&mut self.involved);
        let verdict = arbiter::decide(&claims, &candidate, &mut involved);
        self.claims = claims;
        let id = entry.request.id;
        let capability = entry.request.capability;
        let priority = entry.request.priority;
        let result = match verdict {
            Verdict::Grant => {
                self.emit(MissionEvent::Decided {
                    request: id,
                    capability,
                    priority,
                    decision: Decision::Granted,
                });
                self.start(entry);
                None
            }
            Verdict::Preempt => {
                self.emit(MissionEvent::Decided {
                    request: id,
                    capability,
                    priority,
                    decision: Decision::Preempting {
                        victims: involved.clone(),
                    },
                });
                let mut wait_for = Vec::new();
                for victim in involved.iter().copied() {
                    let Some(pos) = self.active.iter().position(|e| e.request.id == victim) else {
                        continue;
                    };
                    match self.active[pos].phase {
                        Phase::Running => {
                            let cap = self.active[pos].request.capability;
                            let after = match self.slots[cap.0 as usize].policy.on_preempt {
                                OnPreempt::Pause => AfterHalt::Pause,
                                OnPreempt::Cancel => {
                                    AfterHalt::End(CancelReason::Preempted { by: id })
                                }
                            };
                            wait_for.push(victim);
                            self.begin_halt(pos, HaltReason::Preempted(id), after);
                        }
                        Phase::Halting => wait_for.push(victim),
                        _ => {
                            // Reserved but not started: nothing to halt.
                            self.active.remove(pos);
                            self.finish(
                                victim,
                                Outcome::Cancelled {
                                    reason: CancelReason::Preempted { by: id },
                                    forced: false,
                                },
                            );
                        }
                    }
                }
                // Victims that halted at once are gone already.
                wait_for.retain(|v| self.active.iter().any(|e| e.request.id == *v));
                if wait_for.is_empty() {
                    self.start(entry);
                } else {
                    entry.phase = Phase::WaitingForHalt(wait_for);
                    self.active.push(entry);
                }
                None
            }
            Verdict::Blocked if from_queue => Some(entry),
            Verdict::Blocked => {
                let when_busy = self.slots[capability.0 as usize].policy.when_busy;
                match when_busy {
                    WhenBusy::Reject => {
                        let reason = RejectReason::Busy {
                            holders: involved.clone(),
                        };
                        self.emit(MissionEvent::Decided {
                            request: id,
                            capability,
                            priority,
                            decision: Decision::Rejected(reason.clone()),
                        });
                        self.finish(id, Outcome::Rejected(reason));
                    }
                    WhenBusy::Queue => {
                        let blocked_by = involved.clone();
                        self.enqueue(entry, blocked_by);
                    }
                }
                None
            }
        };
        self.involved = involved;
        result
    }

    fn queue_key(&self, e: &Entry) -> (Reverse<Priority>, Reverse<u8>, RequestId) {
        let rank = self.slots[e.request.capability.0 as usize].policy.rank;
        (Reverse(e.request.priority), Reverse(rank), e.request.id)
    }

    fn enqueue(&mut self, mut entry: Entry, blocked_by: Vec<RequestId>) {
        let id = entry.request.id;
        let capability = entry.request.capability;
        let priority = entry.request.priority;
        let key = self.queue_key(&entry);
        if self.queue.len() >= self.config.queue_capacity.max(1) {
            let last_key = self.queue.last().map(|l| self.queue_key(l));
            if last_key.is_some_and(|k| key < k) {
                if let Some(out) = self.queue.pop() {
                    self.finish(
                        out.request.id,
                        Outcome::Cancelled {
                            reason: CancelReason::QueueOverflow { by: id },
                            forced: false,
                        },
                    );
                }
            } else {
                self.emit(MissionEvent::Decided {
                    request: id,
                    capability,
                    priority,
                    decision: Decision::Rejected(RejectReason::QueueFull),
                });
                self.finish(id, Outcome::Rejected(RejectReason::QueueFull));
                return;
            }
        }
        self.emit(MissionEvent::Decided {
            request: id,
            capability,
            priority,
            decision: Decision::Queued { blocked_by },
        });
        entry.phase = Phase::Queued;
        let pos = self.queue.partition_point(|q| self.queue_key(q) < key);
        self.queue.insert(pos, entry);
    }

    fn start(&mut self, mut entry: Entry) {
        let cap = entry.request.capability;
        let result = self.slots[cap.0 as usize].capability.start(&entry.request);
        match result {
            Ok(()) => {
                self.emit(MissionEvent::Started {
                    request: entry.request.id,
                    capability: cap,
                    resumed: entry.request.resumed,
                });
                entry.phase = Phase::Running;
                entry.fresh_at = Some(self.now);
                entry.started_seq = self.next_start;
                self.next_start += 1;
                self.active.push(entry);
            }
            Err(reason) => {
                tracing::warn!(request = entry.request.id.0, %reason, "capability failed to start");
                self.finish(entry.request.id, Outcome::Failed(reason));
            }
        }
    }

    /// Asks the running entry at `pos` to halt; releases it at once if it confirms.
    fn begin_halt(&mut self, pos: usize, reason: HaltReason, after: AfterHalt) {
        let request = self.active[pos].request.id;
        self.emit(MissionEvent::HaltRequested {
            request,
            reason: reason.clone(),
        });
        let cap = self.active[pos].request.capability;
        let e = &mut self.active[pos];
        e.halt_reason = Some(reason);
        e.phase = Phase::Halting;
        e.halt_ticks = 0;
        e.after_halt = Some(after);
        e.fresh_at = Some(self.now);
        if self.slots[cap.0 as usize].capability.halt() == HaltProgress::Halted {
            let entry = self.active.remove(pos);
            self.emit(MissionEvent::Halted { request, ticks: 0 });
            self.after_halted(entry, false);
        }
    }

    fn after_halted(&mut self, mut entry: Entry, forced: bool) {
        let id = entry.request.id;
        match entry.after_halt.take() {
            Some(AfterHalt::Pause) if !forced => {
                entry.phase = Phase::Paused;
                entry.request.resumed = true;
                self.emit(MissionEvent::Paused { request: id });
                self.paused.push(entry);
            }
            Some(AfterHalt::End(reason)) => self.finish(id, Outcome::Cancelled { reason, forced }),
            // A forced pause cannot be resumed (the capability's state is unknown).
            Some(AfterHalt::Pause) | None => {
                let reason = match entry.halt_reason.take() {
                    Some(HaltReason::Preempted(by)) => CancelReason::Preempted { by },
                    Some(HaltReason::Stopped(by)) => CancelReason::Stopped { by },
                    Some(HaltReason::Suspended) => CancelReason::Suspended,
                    Some(HaltReason::Shutdown) | None => CancelReason::Shutdown,
                };
                self.finish(id, Outcome::Cancelled { reason, forced })
            }
        }
    }

    /// Starts waiting requests whose victims are gone and re-arbitrates the queue in order,
    /// until nothing changes.
    fn settle(&mut self) {
        loop {
            let mut changed = false;
            let mut i = 0;
            while i < self.active.len() {
                let ready = match &self.active[i].phase {
                    Phase::WaitingForHalt(victims) => victims
                        .iter()
                        .all(|v| !self.active.iter().any(|e| e.request.id == *v)),
                    _ => false,
                };
                if ready {
                    let entry = self.active.remove(i);
                    let capability = entry.request.capability;
                    if self.slots[capability.0 as usize].unresponsive {
                        // Its own capability was force-released (it preempted a request
                        // of the same capability that never confirmed its halt).
                        self.finish(
                            entry.request.id,
                            Outcome::Rejected(RejectReason::CapabilityUnresponsive(capability)),
                        );
                    } else {
                        self.start(entry);
                    }
                    changed = true;
                } else {
                    i += 1;
                }
            }
            let queued = std::mem::take(&mut self.queue);
            for entry in queued {
                match self.arbitrate(entry, true) {
                    Some(back) => self.queue.push(back),
                    None => changed = true,
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Advances time: expires queued requests, polls halts (force-releasing after the
    /// timeout), polls unresponsive capabilities, starts whoever may start, ticks running
    /// capabilities and releases the finished ones.
    pub fn tick(&mut self, now: Timestamp) {
        self.now = now;
        let mut i = 0;
        while i < self.queue.len() {
            if self.queue[i].expires.is_some_and(|e| now > e) {
                let entry = self.queue.remove(i);
                self.finish(
                    entry.request.id,
                    Outcome::Cancelled {
                        reason: CancelReason::Expired,
                        forced: false,
                    },
                );
            } else {
                i += 1;
            }
        }
        let mut i = 0;
        while i < self.active.len() {
            if self.active[i].phase != Phase::Halting {
                i += 1;
                continue;
            }
            if self.active[i].fresh_at.take().is_some_and(|at| now <= at) {
                // Asked to halt at this very time: no time has passed for the halt yet.
                i += 1;
                continue;
            }
            let cap = self.active[i].request.capability;
            self.active[i].halt_ticks += 1;
            let ticks = self.active[i].halt_ticks;
            let request = self.active[i].request.id;
            let slot = &mut self.slots[cap.0 as usize];
            if slot.capability.halt() == HaltProgress::Halted {
                let entry = self.active.remove(i);
                self.emit(MissionEvent::Halted { request, ticks });
                self.after_halted(entry, false);
            } else if ticks >= slot.policy.halt_timeout_ticks {
                slot.unresponsive = true;
                let timeout = slot.policy.halt_timeout_ticks;
                tracing::error!(
                    request = request.0,
                    capability = slot.capability.name(),
                    ticks = timeout,
                    "capability did not confirm its halt; force-released"
                );
                let entry = self.active.remove(i);
                self.emit(MissionEvent::HaltTimedOut {
                    request,
                    capability: cap,
                    ticks: timeout,
                });
                self.after_halted(entry, true);
            } else {
                i += 1;
            }
        }
        for c in 0..self.slots.len() {
            if self.slots[c].unresponsive && self.slots[c].capability.halt() == HaltProgress::Halted
            {
                self.slots[c].unresponsive = false;
                self.emit(MissionEvent::CapabilityRecovered {
                    capability: CapabilityId(c as u16),
                });
            }
        }
        self.settle();
        let mut i = 0;
        while i < self.active.len() {
            if self.active[i].phase != Phase::Running {
                i += 1;
                continue;
            }
            if self.active[i].fresh_at.take().is_some_and(|at| now <= at) {
                // Started at this very time: its first tick is the next one.
                i += 1;
                continue;
            }
            let cap = self.active[i].request.capability;
            match self.slots[cap.0 as usize].capability.tick() {
                Progress::Running => i += 1,
                Progress::Succeeded => {
                    let entry = self.active.remove(i);
                    self.finish(entry.request.id, Outcome::Completed);
                }
                Progress::Failed(reason) => {
                    let entry = self.active.remove(i);
                    self.finish(entry.request.id, Outcome::Failed(reason));
                }
            }
        }
        self.settle();
    }

    /// Stops the activity named `object` (a capability name or a request's object) or,
    /// without object (or an empty one), the current main activity, at `priority` (see the
    /// type's docs).
    pub fn stop(&mut self, object: Option<&str>, priority: Priority) {
        self.stop_inner(object, priority, None, IntentId(0));
    }

    fn matches_object(&self, e: &Entry, object: &str) -> bool {
        e.request.object.as_deref() == Some(object)
            || self.slots[e.request.capability.0 as usize]
                .capability
                .name()
                == object
    }

    fn stop_inner(
        &mut self,
        object: Option<&str>,
        priority: Priority,
        by: Option<IntentId>,
        intent: IntentId,
    ) {
        // An empty object is no object: "the current main activity" (the spec's own
        // cancel-task example sends `{"object": ""}`).
        let object = object.map(str::trim).filter(|o| !o.is_empty());
        let targets: Vec<RequestId> = match object {
            Some(o) => self
                .active
                .iter()
                .filter(|e| e.phase != Phase::Halting)
                .chain(&self.queue)
                .chain(&self.paused)
                .filter(|e| self.matches_object(e, o))
                .map(|e| e.request.id)
                .collect(),
            None => self
                .active
                .iter()
                .filter(|e| matches!(e.phase, Phase::Running | Phase::WaitingForHalt(_)))
                .max_by_key(|e| (e.request.priority, e.started_seq, e.request.id))
                .map(|e| e.request.id)
                .into_iter()
                .collect(),
        };
        if targets.is_empty() {
            self.emit(MissionEvent::ControlIgnored {
                intent,
                reason: ControlIgnoredReason::NothingMatches,
            });
            return;
        }
        let mut outranked = Vec::new();
        let mut stopped = false;
        let reason = CancelReason::Stopped { by };
        for t in targets {
            if let Some(pos) = self.active.iter().position(|e| e.request.id == t) {
                if self.active[pos].request.priority > priority {
                    outranked.push(t);
                    continue;
                }
                stopped = true;
                if self.active[pos].phase == Phase::Running {
                    self.begin_halt(pos, HaltReason::Stopped(by), AfterHalt::End(reason.clone()));
                } else {
                    self.active.remove(pos);
                    self.finish(
                        t,
                        Outcome::Cancelled {
                            reason: reason.clone(),
                            forced: false,
                        },
                    );
                }
                continue;
            }
            let in_queue = self.queue.iter().position(|e| e.request.id == t);
            let in_paused = self.paused.iter().position(|e| e.request.id == t);
            let list = match (in_queue, in_paused) {
                (Some(pos), _) => Some((&mut self.queue, pos)),
                (None, Some(pos)) => Some((&mut self.paused, pos)),
                (None, None) => None,
            };
            if let Some((list, pos)) = list {
                if list[pos].request.priority > priority {
                    outranked.push(t);
                } else {
                    list.remove(pos);
                    stopped = true;
                    self.finish(
                        t,
                        Outcome::Cancelled {
                            reason: reason.clone(),
                            forced: false,
                        },
                    );
                }
            }
        }
        if !stopped {
            self.emit(MissionEvent::ControlIgnored {
                intent,
                reason: ControlIgnoredReason::Outranked {
                    requests: outranked,
                },
            });
        }
        self.settle();
    }

    /// Resumes the paused request named `object` (capability name or request object) or,
    /// without object, the most recently paused one; it is arbitrated again at its own
    /// priority.
    pub fn resume(&mut self, object: Option<&str>) {
        self.resume_inner(object, IntentId(0));
    }

    fn resume_inner(&mut self, object: Option<&str>, intent: IntentId) {
        let object = object.map(str::trim).filter(|o| !o.is_empty());
        if self.suspended {
            self.emit(MissionEvent::ControlIgnored {
                intent,
                reason: ControlIgnoredReason::AlreadyInState,
            });
            return;
        }
        let pos = match object {
            Some(o) => self.paused.iter().rposition(|e| self.matches_object(e, o)),
            None => self.paused.len().checked_sub(1),
        };
        let Some(pos) = pos else {
            self.emit(MissionEvent::ControlIgnored {
                intent,
                reason: ControlIgnoredReason::NothingMatches,
            });
            return;
        };
        let mut entry = self.paused.remove(pos);
        entry.phase = Phase::Queued;
        if self.slots[entry.request.capability.0 as usize].unresponsive {
            let reason = RejectReason::CapabilityUnresponsive(entry.request.capability);
            self.finish(entry.request.id, Outcome::Rejected(reason));
            return;
        }
        self.arbitrate(entry, false);
        self.settle();
    }

    /// `SUSPEND`: halts every running request (pausing those whose policy pauses), cancels
    /// waiting and queued ones, and refuses new requests until [`MissionController::wakeup`].
    pub fn suspend(&mut self) {
        self.suspended = true;
        self.emit(MissionEvent::Suspended);
        let ids: Vec<RequestId> = self.active.iter().map(|e| e.request.id).collect();
        for id in ids {
            let Some(pos) = self.active.iter().position(|e| e.request.id == id) else {
                continue;
            };
            match self.active[pos].phase {
                Phase::Running => {
                    let cap = self.active[pos].request.capability;
                    let after = match self.slots[cap.0 as usize].policy.on_preempt {
                        OnPreempt::Pause => AfterHalt::Pause,
                        OnPreempt::Cancel => AfterHalt::End(CancelReason::Suspended),
                    };
                    self.begin_halt(pos, HaltReason::Suspended, after);
                }
                Phase::Halting => {}
                _ => {
                    self.active.remove(pos);
                    self.finish(
                        id,
                        Outcome::Cancelled {
                            reason: CancelReason::Suspended,
                            forced: false,
                        },
                    );
                }
            }
        }
        for entry in std::mem::take(&mut self.queue) {
            self.finish(
                entry.request.id,
                Outcome::Cancelled {
                    reason: CancelReason::Suspended,
                    forced: false,
                },
            );
        }
    }

    /// `WAKEUP`: accepts requests again (paused requests stay paused until
    /// `CONTINUE_ACTIVITY`).
    pub fn wakeup(&mut self) {
        self.suspended = false;
        self.emit(MissionEvent::WokenUp);
    }

    /// Ends everything: halts running requests and cancels the others (reason
    /// [`CancelReason::Shutdown`]). Tick until [`MissionController::is_idle`] for the halts
    /// to complete (bounded by the halt timeouts).
    pub fn shutdown(&mut self) {
        self.suspended = true;
        let reason = CancelReason::Shutdown;
        for entry in std::mem::take(&mut self.queue)
            .into_iter()
            .chain(std::mem::take(&mut self.paused))
        {
            self.finish(
                entry.request.id,
                Outcome::Cancelled {
                    reason: reason.clone(),
                    forced: false,
                },
            );
        }
        let ids: Vec<RequestId> = self.active.iter().map(|e| e.request.id).collect();
        for id in ids {
            let Some(pos) = self.active.iter().position(|e| e.request.id == id) else {
                continue;
            };
            match self.active[pos].phase {
                Phase::Running => {
                    self.begin_halt(pos, HaltReason::Shutdown, AfterHalt::End(reason.clone()))
                }
                Phase::Halting => {
                    self.active[pos].after_halt = Some(AfterHalt::End(reason.clone()));
                }
                _ => {
                    self.active.remove(pos);
                    self.finish(
                        id,
                        Outcome::Cancelled {
                            reason: reason.clone(),
                            forced: false,
                        },
                    );
                }
            }
        }
    }
}

/// The request's object: the `object` role, else `goal`, else `recipient`.
fn object_of(record: &IntentRecord) -> Option<String> {
    [Role::Object, Role::Goal, Role::Recipient]
        .iter()
        .find_map(|r| record.intent.role(*r))
        .map(str::to_owned)
}
