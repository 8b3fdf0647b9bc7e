//! [`MissionController`]: routes intents to capabilities and runs them under the one
//! arbiter of the body. `arbitrate.rs`: decisions, queue, start, halts and the tick;
//! `control.rs`: stop, continue, suspend, wake-up and shutdown.

mod arbitrate;
mod control;

use super::capability::{Capability, CapabilityPolicy, Request};
use super::event::{
    CancelReason, ControlIgnoredReason, Decision, HaltReason, MissionEvent, Outcome, RejectReason,
};
use super::ids::{CapabilityId, RequestId};
use crate::arbiter::{Holder, Resource, ResourceSet, SharedArbiter};
use crate::hri::{IntentId, IntentKind, IntentRecord, Priority, Role, Timestamp};
use crate::spare::SpareStrings;

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

impl Entry {
    /// Its identity in the arbiter.
    fn holder(&self) -> Holder {
        Holder::Mission(self.request.id.0)
    }
}

struct Slot<R: Resource> {
    capability: Box<dyn Capability<R>>,
    policy: CapabilityPolicy,
    resources: ResourceSet<R>,
    unresponsive: bool,
    /// Its requests' label in the arbiter (`mission/<name>`).
    label: String,
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
///   requests involved, decided by [`arbiter::rule::decide`](crate::arbiter::rule::decide): priority, then the capability's
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
    arbiter: SharedArbiter<R>,
    /// The arbiter's halt-request count when this controller last looked for requests
    /// another client halted.
    halts_seen: u64,
    /// The requests a control acts on (stop, suspend, shutdown), gathered before it acts:
    /// kept between calls so that acting allocates nothing.
    targets: Vec<RequestId>,
    /// The queue's second buffer, for re-arbitrating it in order without allocating.
    requeue: Vec<Entry>,
    /// Objects of ended requests, kept to be written over by the next requests' objects.
    spare_objects: SpareStrings<4, 128>,
}

/// The event buffer keeps room for at most this many events between drains.
const KEEP_EVENTS: usize = 64;

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
    /// An empty controller with an arbiter of its own (nothing else claims the body).
    pub fn new(config: MissionConfig) -> Self {
        Self::with_arbiter(config, SharedArbiter::new())
    }

    /// An empty controller that claims through `arbiter`, shared with the robot's other
    /// clients (behavior actions: [`crate::arbiter::ArbitratedAction`]). One controller per
    /// arbiter: every mission claim in it is this controller's.
    pub fn with_arbiter(config: MissionConfig, arbiter: SharedArbiter<R>) -> Self {
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
            arbiter,
            halts_seen: 0,
            targets: Vec::new(),
            requeue: Vec::new(),
            spare_objects: SpareStrings::default(),
        }
    }

    /// The arbiter it claims through.
    pub fn arbiter(&self) -> &SharedArbiter<R> {
        &self.arbiter
    }

    /// Registers a capability; its resources and policy are read once, here.
    pub fn register(&mut self, capability: impl Capability<R> + 'static) -> CapabilityId {
        let id = CapabilityId(self.slots.len() as u16);
        self.slots.push(Slot {
            label: format!("mission/{}", capability.name()),
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

    /// Takes the events reported since the last call, oldest first. The buffer goes out as
    /// it is; the next one is made at the size of this batch (one allocation per drain that
    /// took events, rather than one per growth of the next batch).
    pub fn drain_events(&mut self) -> Vec<MissionEvent> {
        let room = self.events.len().min(KEEP_EVENTS);
        std::mem::replace(&mut self.events, Vec::with_capacity(room))
    }

    /// Moves the events reported since the last call to the end of `out`, oldest first:
    /// with an `out` the caller reuses, a steady caller allocates nothing (both buffers keep
    /// their capacity).
    pub fn drain_events_into(&mut self, out: &mut Vec<MissionEvent>) {
        out.append(&mut self.events);
        self.shrink_events();
    }

    /// Drops the events reported since the last call, keeping the buffer: for a caller
    /// that hears every event through [`subscribe`](Self::subscribe) and needs no second
    /// copy (allocates nothing, unlike [`drain_events`](Self::drain_events)).
    pub fn discard_events(&mut self) {
        self.events.clear();
        self.shrink_events();
    }

    /// After a burst (a shutdown of many requests), gives the buffer's memory back rather
    /// than keeping it for good.
    fn shrink_events(&mut self) {
        if self.events.capacity() > KEEP_EVENTS {
            self.events.shrink_to(KEEP_EVENTS);
        }
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

    /// Records `event`, then logs it and hands it to the listeners (which cannot observe
    /// the buffer, so the order is invisible). Inlined, the event written into the buffer
    /// where the caller builds it ([`push_in_place`](crate::hint::push_in_place)): built in
    /// the caller's frame and copied in by an out-of-line `emit`, it was read back with
    /// wide loads of the fields just written one by one, a stall on every event (over half
    /// of the time `emit` took, issue 29).
    #[inline(always)]
    fn emit(&mut self, event: MissionEvent) {
        crate::hint::push_in_place(&mut self.events, move || event);
        // The logging and the listeners out of line: every request emits several events,
        // and their code would sit between the hot instructions of every caller.
        if !self.listeners.is_empty() || debug_may_be_enabled() {
            self.announce_last();
        }
    }

    /// Logs the event last recorded and hands it to every listener.
    #[inline(never)]
    fn announce_last(&mut self) {
        let Some(event) = self.events.last() else {
            return;
        };
        if tracing::enabled!(tracing::Level::DEBUG) {
            log_event(event);
        }
        for l in &mut self.listeners {
            l(event);
        }
    }

    /// Reports a control intent that did nothing (out of line: a control usually acts).
    #[cold]
    #[inline(never)]
    fn control_ignored(&mut self, intent: IntentId, reason: ControlIgnoredReason) {
        self.emit(MissionEvent::ControlIgnored { intent, reason });
    }

    fn finish(&mut self, request: RequestId, outcome: Outcome) {
        // Logged out of line, as in `emit`.
        if tracing::enabled!(tracing::Level::INFO) {
            log_finish(request, &outcome);
        }
        self.emit(MissionEvent::Finished { request, outcome });
    }

    /// Drops an ended request, keeping its object's string for the next request's.
    fn retire(&mut self, mut entry: Entry) {
        self.keep_object(entry.request.object.take());
    }

    /// Keeps an ended request's object string for the next request's object.
    fn keep_object(&mut self, object: Option<String>) {
        if let Some(object) = object {
            self.spare_objects.give_back(object);
        }
    }

    /// Serves an admitted intent (execute band; confirmation is the caller's business):
    /// control intents act on the controller, `RAW_USER_INPUT` goes to the handler, every
    /// other intent is routed to a capability and arbitrated.
    pub fn handle_intent(&mut self, record: IntentRecord) -> Handling {
        // What it starts or stops, it does at its arrival time (see "Time" above).
        self.now = self.now.max(record.arrived);
        let kind = &record.intent.intent;
        if matches!(
            kind,
            IntentKind::StopActivity
                | IntentKind::CancelActivity
                | IntentKind::ContinueActivity
                | IntentKind::Suspend
                | IntentKind::Wakeup
                | IntentKind::RawUserInput
        ) {
            return self.handle_control(&record);
        }
        let Some(capability) = self.find_route(kind, &record) else {
            return self.unroutable(&record);
        };
        let priority = record.intent.priority;
        let object = object_of(&record, &mut self.spare_objects);
        if record.is_expired(self.now) {
            let request = self.new_request_id();
            self.reject(request, capability, priority, RejectReason::Expired);
            return Handling::Request(request);
        }
        Handling::Request(self.submit_inner(capability, priority, object, Some(record)))
    }

    /// Serves a control intent or `RAW_USER_INPUT` (out of line: the routed requests'
    /// path, the one every request runs, stays small).
    #[inline(never)]
    fn handle_control(&mut self, record: &IntentRecord) -> Handling {
        let id = record.id;
        match &record.intent.intent {
            IntentKind::StopActivity | IntentKind::CancelActivity => {
                let priority = record.intent.priority;
                self.stop_inner(record.intent.role(Role::Object), priority, Some(id), id);
                Handling::Control
            }
            IntentKind::ContinueActivity => {
                self.resume_inner(record.intent.role(Role::Object), id);
                Handling::Control
            }
            IntentKind::Suspend => {
                if self.suspended {
                    self.control_ignored(id, ControlIgnoredReason::AlreadyInState);
                } else {
                    self.suspend();
                }
                Handling::Control
            }
            IntentKind::Wakeup => {
                if self.suspended {
                    self.wakeup();
                } else {
                    self.control_ignored(id, ControlIgnoredReason::AlreadyInState);
                }
                Handling::Control
            }
            // `RAW_USER_INPUT` (`handle_intent` sends nothing else here).
            _ => {
                let handled = match self.raw_handler.as_mut() {
                    Some(h) => h(record),
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
        }
    }

    /// Reports an intent no route leads from.
    #[cold]
    #[inline(never)]
    fn unroutable(&mut self, record: &IntentRecord) -> Handling {
        let id = record.id;
        let wire = record.intent.intent.wire().to_owned();
        tracing::warn!(intent = id.0, %wire, "no capability serves this intent");
        self.emit(MissionEvent::Unroutable { intent: id, wire });
        Handling::Unroutable
    }

    /// Rejects `request`: its decision, then its end, for `reason` (out of line: a request
    /// is usually granted).
    #[cold]
    #[inline(never)]
    fn reject(
        &mut self,
        request: RequestId,
        capability: CapabilityId,
        priority: Priority,
        reason: RejectReason,
    ) {
        self.emit(MissionEvent::Decided {
            request,
            capability,
            priority,
            decision: Decision::Rejected(reason.clone()),
        });
        self.finish(request, Outcome::Rejected(reason));
    }

    /// The capability `kind` is routed to: the first conditional route whose role value
    /// `record` has, else the first unconditional route (one pass over the routes).
    fn find_route(&self, kind: &IntentKind, record: &IntentRecord) -> Option<CapabilityId> {
        let mut unconditional = None;
        for r in &self.routes {
            if r.intent != *kind {
                continue;
            }
            match &r.when {
                Some((role, v)) => {
                    if record.intent.role(*role) == Some(v.as_str()) {
                        return Some(r.capability);
                    }
                }
                None => {
                    unconditional = unconditional.or(Some(r.capability));
                }
            }
        }
        unconditional
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
            self.reject(id, capability, priority, reason);
            return id;
        }
        let expires = intent.as_ref().and_then(|r| r.expires);
        // Built where it is arbitrated, and started there when granted (see
        // `arbitrate_newcomer`); written in its slot (see `push_in_place`).
        crate::hint::push_in_place(&mut self.active, || Entry {
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
        });
        self.arbitrate_newcomer(false);
        self.settle();
        id
    }
}

/// False when no subscriber takes debug events (the global level filter, one load): the
/// cheap test before the controller's events go out of line to be logged.
#[inline(always)]
fn debug_may_be_enabled() -> bool {
    use tracing::level_filters::{LevelFilter, STATIC_MAX_LEVEL};
    tracing::Level::DEBUG <= STATIC_MAX_LEVEL && tracing::Level::DEBUG <= LevelFilter::current()
}

/// Logs an event the controller reports (debug level).
#[cold]
#[inline(never)]
fn log_event(event: &MissionEvent) {
    tracing::debug!(?event, "mission");
}

/// Logs how a request ended (info level).
#[cold]
#[inline(never)]
fn log_finish(request: RequestId, outcome: &Outcome) {
    match outcome {
        Outcome::Completed => tracing::info!(request = request.0, "request completed"),
        other => tracing::info!(request = request.0, outcome = ?other, "request ended"),
    }
}

/// The request's object: the `object` role, else `goal`, else `recipient`; written into a
/// spare string when there is one.
fn object_of(record: &IntentRecord, spare: &mut SpareStrings<4, 128>) -> Option<String> {
    [Role::Object, Role::Goal, Role::Recipient]
        .iter()
        .find_map(|r| record.intent.role(*r))
        .map(|text| spare.take(text))
}
