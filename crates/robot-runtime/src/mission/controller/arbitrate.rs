//! The controller's side of arbitration: a request decided by the shared arbiter, queued,
//! started, halted (halt before start, with the capability's grace and force-release), and
//! the tick that advances all of it.

use std::cmp::Reverse;

use super::{AfterHalt, Entry, MissionController, Phase};
use crate::arbiter::{ArbiterEvent, Claim, Holder, Verdict};
use crate::hri::{Priority, Timestamp};
use crate::mission::capability::{HaltProgress, OnPreempt, Progress, WhenBusy};
use crate::mission::event::{
    CancelReason, Decision, HaltReason, MissionEvent, Outcome, RejectReason,
};
use crate::mission::{CapabilityId, RequestId, Resource, ResourceSet};

impl<R: Resource> MissionController<R> {
    fn claim_of(&self, e: &Entry) -> Claim<R> {
        let slot = &self.slots[e.request.capability.0 as usize];
        Claim {
            holder: e.holder(),
            group: Some(u32::from(e.request.capability.0)),
            resources: slot.resources,
            priority: e.request.priority,
            rank: slot.policy.rank,
            preemptible: slot.policy.preemptible,
            halting: e.phase == Phase::Halting,
        }
    }

    /// Asks the arbiter to halt `victim` (`by`: who preempts it). A halt this controller
    /// asks for is no news to it: when it had seen every earlier halt request, it has seen
    /// this one too, and its next settle does not look through its requests for it (a stop
    /// among many running requests stays linear).
    fn request_halt(&mut self, victim: Holder, by: Option<Holder>) {
        let mut arb = self.arbiter.lock();
        let seen_all = arb.halt_requests() == self.halts_seen;
        arb.request_halt(victim, by);
        if seen_all {
            self.halts_seen = arb.halt_requests();
        }
    }

    /// Removes the active entry at `pos`, releasing its claim.
    pub(super) fn remove_active(&mut self, pos: usize) -> Entry {
        let entry = self.active.remove(pos);
        self.arbiter.lock().release(entry.holder());
        entry
    }

    /// Decides `entry` against every claim of the arbiter (this controller's active requests
    /// and other clients' claims). From the queue, a blocked entry goes back to the queue
    /// without a new event. Returns the entry when it stays queued.
    pub(super) fn arbitrate(&mut self, entry: Entry, from_queue: bool) -> Option<Entry> {
        self.active.push(entry);
        self.arbitrate_newcomer(from_queue)
    }

    /// [`arbitrate`](Self::arbitrate)s the entry last pushed onto the active requests (the
    /// newcomer: not started, unknown to the arbiter), where it lies: a granted entry starts
    /// there, and only an entry that is not granted is moved out (an entry is large, and
    /// each move of it is a copy: a request built straight into the active requests is
    /// copied once on its way to running, not four times).
    ///
    /// The grant is the common case and stays here; a preemption or a block is carried out
    /// out of line ([`contested`](Self::contested)), so that the code every granted request
    /// runs stays small (the request path is bound by instruction-cache misses, issue 29).
    pub(super) fn arbitrate_newcomer(&mut self, from_queue: bool) -> Option<Entry> {
        let pos = self.active.len() - 1;
        let capability = self.active[pos].request.capability;
        if self.slots[capability.0 as usize].unresponsive {
            let entry = self.take_newcomer();
            self.reject_unresponsive(entry);
            return None;
        }
        let candidate = self.claim_of(&self.active[pos]);
        let (verdict, decided) = {
            let mut arb = self.arbiter.lock();
            let verdict = arb.decide(&candidate);
            match verdict {
                // Held under the lock of the decision: no other client can take the
                // resources in between, and the request path locks the table once.
                Verdict::Grant => {
                    let label = &self.slots[capability.0 as usize].label;
                    let held = arb.hold(candidate, label, false);
                    (verdict, Decided::Granted { held })
                }
                // Still blocked: back to the queue, nothing to report.
                Verdict::Blocked if from_queue => {
                    drop(arb);
                    return Some(self.take_newcomer());
                }
                // Read under the same lock as the decision.
                _ => {
                    let (own, foreign) = split_involved(arb.involved());
                    (verdict, Decided::Contested { own, foreign })
                }
            }
        };
        match decided {
            Decided::Granted { held } => {
                let request = &self.active[pos].request;
                self.emit(MissionEvent::Decided {
                    request: request.id,
                    capability,
                    priority: request.priority,
                    decision: Decision::Granted,
                });
                self.start_if_held(held);
            }
            Decided::Contested { own, foreign } => {
                let entry = self.take_newcomer();
                self.contested(entry, candidate, verdict, own, foreign);
            }
        }
        None
    }

    /// Takes the newcomer (the entry last pushed onto the active requests) back out.
    fn take_newcomer(&mut self) -> Entry {
        self.active
            .pop()
            .expect("a newcomer was pushed onto the active requests")
    }

    /// Rejects `entry`: its capability was force-released and has not confirmed yet, so it
    /// takes no request, queued ones included, until it does (the capability contract).
    #[cold]
    #[inline(never)]
    fn reject_unresponsive(&mut self, entry: Entry) {
        let capability = entry.request.capability;
        let reason = RejectReason::CapabilityUnresponsive(capability);
        self.reject(entry.request.id, capability, entry.request.priority, reason);
    }

    /// Carries out a [`Verdict::Preempt`] or a [`Verdict::Blocked`] decided for `entry`
    /// (`candidate`: its claim), given the claims involved: this controller's requests
    /// (`own`) and other clients' (`foreign`).
    #[inline(never)]
    fn contested(
        &mut self,
        mut entry: Entry,
        candidate: Claim<R>,
        verdict: Verdict,
        own: Vec<RequestId>,
        foreign: Vec<Holder>,
    ) {
        let id = entry.request.id;
        let capability = entry.request.capability;
        let priority = entry.request.priority;
        let report =
            |this: &mut Self,
             make: fn(Holder, String, ResourceSet<R>, Vec<String>) -> ArbiterEvent<R>| {
                if !foreign.is_empty() {
                    let mut arb = this.arbiter.lock();
                    let labels = arb.labels(&foreign);
                    arb.report(make(
                        candidate.holder,
                        this.slots[capability.0 as usize].label.clone(),
                        candidate.resources,
                        labels,
                    ));
                }
            };
        match verdict {
            Verdict::Preempt => {
                self.emit(MissionEvent::Decided {
                    request: id,
                    capability,
                    priority,
                    decision: Decision::Preempting {
                        victims: own.clone(),
                    },
                });
                report(self, |holder, label, resources, victims| {
                    ArbiterEvent::Preempting {
                        holder,
                        label,
                        resources,
                        victims,
                    }
                });
                let mut wait_for: Vec<Holder> = foreign.clone();
                for v in &foreign {
                    self.request_halt(*v, Some(candidate.holder));
                }
                for victim in own.iter().copied() {
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
                            wait_for.push(Holder::Mission(victim.0));
                            self.begin_halt(pos, HaltReason::Preempted(id), after);
                        }
                        Phase::Halting => wait_for.push(Holder::Mission(victim.0)),
                        _ => {
                            // Reserved but not started: nothing to halt.
                            self.remove_active(pos);
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
                {
                    let arb = self.arbiter.lock();
                    wait_for.retain(|v| arb.state(*v).is_some());
                }
                if wait_for.is_empty() {
                    self.start(entry);
                } else {
                    let own_wait = wait_for
                        .iter()
                        .filter_map(|h| match h {
                            Holder::Mission(n) => Some(RequestId(*n)),
                            Holder::Action(_) => None,
                        })
                        .collect();
                    self.arbiter.lock().reserve(
                        candidate,
                        &self.slots[capability.0 as usize].label,
                        wait_for,
                    );
                    entry.phase = Phase::WaitingForHalt(own_wait);
                    self.active.push(entry);
                }
            }
            // Blocked (a grant never comes here).
            _ => {
                let when_busy = self.slots[capability.0 as usize].policy.when_busy;
                match when_busy {
                    WhenBusy::Reject => {
                        report(self, |holder, label, resources, blocked_by| {
                            ArbiterEvent::Refused {
                                holder,
                                label,
                                resources,
                                blocked_by,
                            }
                        });
                        let reason = RejectReason::Busy {
                            holders: own.clone(),
                        };
                        self.reject(id, capability, priority, reason);
                    }
                    WhenBusy::Queue => {
                        report(self, |holder, label, resources, blocked_by| {
                            ArbiterEvent::Waiting {
                                holder,
                                label,
                                resources,
                                blocked_by,
                            }
                        });
                        let blocked_by = own.clone();
                        self.enqueue(entry, blocked_by);
                    }
                }
            }
        }
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
                self.reject(id, capability, priority, RejectReason::QueueFull);
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

    fn start(&mut self, entry: Entry) {
        self.active.push(entry);
        self.start_newcomer();
    }

    /// Starts the newcomer (the entry last pushed onto the active requests) where it lies.
    fn start_newcomer(&mut self) {
        let pos = self.active.len() - 1;
        let cap = self.active[pos].request.capability;
        let claim = self.claim_of(&self.active[pos]);
        let held = self
            .arbiter
            .lock()
            .hold(claim, &self.slots[cap.0 as usize].label, false);
        self.start_if_held(held);
    }

    /// Starts the newcomer when the arbiter `held` its claim; else it fails
    /// ([`refuse_start`](Self::refuse_start)).
    fn start_if_held(&mut self, held: bool) {
        if !held {
            let entry = self.take_newcomer();
            self.refuse_start(entry);
            return;
        }
        let pos = self.active.len() - 1;
        let cap = self.active[pos].request.capability;
        let entry = &mut self.active[pos];
        let (id, resumed) = (entry.request.id, entry.request.resumed);
        entry.phase = Phase::Running;
        entry.fresh_at = Some(self.now);
        entry.started_seq = self.next_start;
        let result = self.slots[cap.0 as usize]
            .capability
            .start(&self.active[pos].request);
        match result {
            Ok(()) => {
                self.next_start += 1;
                self.emit(MissionEvent::Started {
                    request: id,
                    capability: cap,
                    resumed,
                });
            }
            Err(reason) => self.start_failed(pos, reason),
        }
    }

    /// `entry` was granted but another client holds part of its resources (the arbiter
    /// logged who): it fails rather than make two owners.
    #[cold]
    #[inline(never)]
    fn refuse_start(&mut self, entry: Entry) {
        self.arbiter.lock().release(entry.holder());
        let reason = "its resources are still held by another client".to_owned();
        tracing::error!(request = entry.request.id.0, %reason, "capability not started");
        self.finish(entry.request.id, Outcome::Failed(reason));
    }

    /// The capability of the active entry at `pos` failed to start: its claim is released
    /// and the request ends.
    #[cold]
    #[inline(never)]
    fn start_failed(&mut self, pos: usize, reason: String) {
        let (id, holder) = (self.active[pos].request.id, self.active[pos].holder());
        self.arbiter.lock().release(holder);
        tracing::warn!(request = id.0, %reason, "capability failed to start");
        self.finish(id, Outcome::Failed(reason));
        self.retire_active(pos);
    }

    /// Asks the running entry at `pos` to halt; releases it at once if it confirms.
    pub(super) fn begin_halt(&mut self, pos: usize, reason: HaltReason, after: AfterHalt) {
        let request = self.active[pos].request.id;
        let by = match reason {
            HaltReason::Preempted(by) => Some(Holder::Mission(by.0)),
            _ => None,
        };
        self.request_halt(self.active[pos].holder(), by);
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
            self.halted_at(pos, MissionEvent::Halted { request, ticks: 0 }, false);
        }
    }

    /// The halting entry at `pos` stopped (`forced`: force-released after its timeout): its
    /// claim is released, `report` emitted, then it is paused or ends, and leaves the active
    /// requests (an ended one is dropped where it lies: the entry is large, and the
    /// halt-at-once path of every stop runs through here).
    pub(super) fn halted_at(&mut self, pos: usize, report: MissionEvent, forced: bool) {
        let holder = self.active[pos].holder();
        self.arbiter.lock().release(holder);
        self.emit(report);
        let e = &mut self.active[pos];
        let id = e.request.id;
        let reason = match e.after_halt.take() {
            Some(AfterHalt::End(reason)) => reason,
            Some(AfterHalt::Pause) if !forced => {
                self.pause_halted(pos);
                return;
            }
            // A forced pause cannot be resumed (the capability's state is unknown).
            Some(AfterHalt::Pause) | None => cancel_reason_of(e.halt_reason.take()),
        };
        self.finish(id, Outcome::Cancelled { reason, forced });
        self.retire_active(pos);
    }

    /// Moves the halted entry at `pos` to the paused requests (out of line: a stop, the
    /// common halt, ends its request).
    #[cold]
    #[inline(never)]
    fn pause_halted(&mut self, pos: usize) {
        let mut entry = self.active.remove(pos);
        entry.phase = Phase::Paused;
        entry.request.resumed = true;
        self.emit(MissionEvent::Paused {
            request: entry.request.id,
        });
        self.paused.push(entry);
    }

    /// Drops the ended active entry at `pos` (its claim already released) where it lies,
    /// keeping its object's string for the next request's.
    pub(super) fn retire_active(&mut self, pos: usize) {
        let object = self.active[pos].request.object.take();
        self.keep_object(object);
        if pos + 1 == self.active.len() {
            // The last one (the usual case: one request at a time): nothing moves.
            self.active.truncate(pos);
        } else {
            self.active.drain(pos..=pos);
        }
    }

    /// Halts the running requests another client's claim preempted (a behavior action of
    /// a higher priority), and drops the reservations it took over. True when any.
    fn yield_to_other_clients(&mut self) -> bool {
        // Without the lock: a request that made no halt locks the table once, to hold.
        let halts = self.arbiter.halt_requests();
        if halts == self.halts_seen {
            // Nobody was asked to halt since the last look.
            return false;
        }
        self.halts_seen = halts;
        self.halt_claimed()
    }

    /// Halts or cancels the requests another client's claim asked to halt since the last
    /// look (out of line: usually there are none). True when any.
    #[inline(never)]
    fn halt_claimed(&mut self) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < self.active.len() {
            let e = &self.active[i];
            let by = match e.phase {
                Phase::Halting => None,
                _ => self.arbiter.lock().halt_requested(e.holder()),
            };
            let Some(by) = by else {
                i += 1;
                continue;
            };
            changed = true;
            let by = by.map_or_else(
                || "another client".to_owned(),
                |h| self.arbiter.lock().label(h).to_owned(),
            );
            if e.phase == Phase::Running {
                let cap = e.request.capability;
                let after = match self.slots[cap.0 as usize].policy.on_preempt {
                    OnPreempt::Pause => AfterHalt::Pause,
                    OnPreempt::Cancel => AfterHalt::End(CancelReason::Claimed { by: by.clone() }),
                };
                let id = e.request.id;
                self.begin_halt(i, HaltReason::Claimed { by }, after);
                if self.active.get(i).is_some_and(|e| e.request.id == id) {
                    i += 1;
                }
            } else {
                let entry = self.remove_active(i);
                self.finish(
                    entry.request.id,
                    Outcome::Cancelled {
                        reason: CancelReason::Claimed { by },
                        forced: false,
                    },
                );
            }
        }
        changed
    }

    /// Starts waiting requests whose victims are gone and re-arbitrates the queue in order,
    /// until nothing changes.
    pub(super) fn settle(&mut self) {
        loop {
            let mut changed = self.yield_to_other_clients();
            if self
                .active
                .iter()
                .any(|e| matches!(e.phase, Phase::WaitingForHalt(_)))
            {
                changed |= self.start_ready();
            }
            if !self.queue.is_empty() {
                changed |= self.rearbitrate_queue();
            }
            if !changed {
                break;
            }
        }
    }

    /// Starts the waiting requests whose victims are gone (out of line, like the rest of
    /// [`settle`](Self::settle)'s work: usually nothing waits). True when any.
    #[inline(never)]
    fn start_ready(&mut self) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < self.active.len() {
            let ready = matches!(self.active[i].phase, Phase::WaitingForHalt(_))
                && self.arbiter.lock().is_ready(self.active[i].holder());
            if ready {
                let entry = self.remove_active(i);
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
        changed
    }

    /// Re-arbitrates the queue in order, from a second, kept vector (arbitrating from the
    /// queue never queues anew: a blocked entry comes back). True when any left it.
    #[inline(never)]
    fn rearbitrate_queue(&mut self) -> bool {
        let mut changed = false;
        let spare = std::mem::take(&mut self.requeue);
        let mut queued = std::mem::replace(&mut self.queue, spare);
        for entry in queued.drain(..) {
            match self.arbitrate(entry, true) {
                Some(back) => self.queue.push(back),
                None => changed = true,
            }
        }
        self.requeue = queued;
        changed
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
                self.halted_at(i, MissionEvent::Halted { request, ticks }, false);
            } else if ticks >= slot.policy.halt_timeout_ticks {
                slot.unresponsive = true;
                let timeout = slot.policy.halt_timeout_ticks;
                tracing::error!(
                    request = request.0,
                    capability = slot.capability.name(),
                    ticks = timeout,
                    "capability did not confirm its halt; force-released"
                );
                let report = MissionEvent::HaltTimedOut {
                    request,
                    capability: cap,
                    ticks: timeout,
                };
                self.halted_at(i, report, true);
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
                    let (id, holder) = (self.active[i].request.id, self.active[i].holder());
                    self.arbiter.lock().release(holder);
                    self.finish(id, Outcome::Completed);
                    self.retire_active(i);
                }
                Progress::Failed(reason) => {
                    let (id, holder) = (self.active[i].request.id, self.active[i].holder());
                    self.arbiter.lock().release(holder);
                    self.finish(id, Outcome::Failed(reason));
                    self.retire_active(i);
                }
            }
        }
        self.settle();
    }
}

/// What [`MissionController::arbitrate_newcomer`] read under the arbiter's lock.
enum Decided {
    /// Granted, and held at once when `held` (a hold can be refused only to a broken
    /// caller: see [`Arbiter::hold`](crate::arbiter::Arbiter::hold)).
    Granted { held: bool },
    /// A preemption or a block, with the claims involved: this controller's requests
    /// (`own`) and other clients' (`foreign`).
    Contested {
        own: Vec<RequestId>,
        foreign: Vec<Holder>,
    },
}

/// The claims a decision involved, split into this controller's requests and other
/// clients' claims (out of line: a grant involves none).
#[inline(never)]
fn split_involved(involved: &[Holder]) -> (Vec<RequestId>, Vec<Holder>) {
    let mut own = Vec::new();
    let mut foreign = Vec::new();
    for h in involved {
        match *h {
            Holder::Mission(n) => own.push(RequestId(n)),
            other => foreign.push(other),
        }
    }
    (own, foreign)
}

/// How a halted request whose halt did not say how it ends (a forced pause, or no
/// `after_halt`) is cancelled: by the reason it was halted for (out of line: a stop or a
/// preemption says).
#[cold]
#[inline(never)]
fn cancel_reason_of(halt: Option<HaltReason>) -> CancelReason {
    match halt {
        Some(HaltReason::Preempted(by)) => CancelReason::Preempted { by },
        Some(HaltReason::Stopped(by)) => CancelReason::Stopped { by },
        Some(HaltReason::Claimed { by }) => CancelReason::Claimed { by },
        Some(HaltReason::Suspended) => CancelReason::Suspended,
        Some(HaltReason::Shutdown) | None => CancelReason::Shutdown,
    }
}
