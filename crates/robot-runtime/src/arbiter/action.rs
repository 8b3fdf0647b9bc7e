//! [`ArbitratedAction`]: a behavior [`Action`] that claims its resources from the shared
//! [`Arbiter`](super::Arbiter) before it moves anything, and gives them back when it ends
//! or a higher claim asks for them.
//!
//! * Granted: the wrapped action starts at once.
//! * Preempting: the holders it outranks are asked to halt (a mission capability halts over
//!   its grace, an action at its next step); it starts on the first step after they
//!   released (halt before start). A reservation preempted in turn fails the action.
//! * Blocked: it waits ([`WhenBlocked::Wait`], retrying every step, for at most `up_to`)
//!   or fails at once ([`WhenBlocked::Fail`]), as its behavior's class says; either is an
//!   [`ArbiterEvent`] (the timeline shows it).
//! * Asked to halt while running: it releases and ends as failed; the wrapped action's
//!   `on_end` gets [`ActionEnd::Cancelled`] (it was stopped for someone else).
//! * Started while a behavior holds parts from everyone (a hold, see the
//!   [module documentation](super), "Holds"): the parts it can play without
//!   ([`maskable`](ArbitratedAction::maskable): an animation's tracks) are left out of its
//!   claim; the others it still claims, and is refused.
//!
//! A waiting or reserved action wakes every tick ([`Wakeup::EveryTick`]): what frees its
//! resources is another client's progress, not an input of the tree.

use std::time::Duration;

use super::resource::{Resource, ResourceSet};
use super::rule::{Claim, Holder, Verdict};
use super::table::{ArbiterEvent, SharedArbiter};
use crate::behavior::{Action, ActionEnd, ActionStatus, LockedParts, VirtualClock, Wakeup};
use crate::hri::Priority;

/// What an action refused its resources does (its behavior's class decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenBlocked {
    /// Wait and retry every step, for at most this long (`None`: until its behavior ends).
    Wait {
        /// The longest wait.
        up_to: Option<Duration>,
    },
    /// Fail at once.
    Fail,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    Waiting { since: Duration },
    Reserved,
    Holding,
    Refused,
    Yielded,
    Done,
}

/// An action that claims `resources` at `priority` before it runs (see the module docs).
pub struct ArbitratedAction<R: Resource> {
    inner: Box<dyn Action>,
    arbiter: SharedArbiter<R>,
    claim: Claim<R>,
    label: String,
    when_blocked: WhenBlocked,
    /// The parts of its claim it can play without (see [`ArbitratedAction::maskable`]).
    maskable: ResourceSet<R>,
    state: State,
    started: bool,
}

impl<R: Resource> std::fmt::Debug for ArbitratedAction<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArbitratedAction")
            .field("label", &self.label)
            .field("claim", &self.claim)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<R: Resource> ArbitratedAction<R> {
    /// `inner`, run once `resources` are granted at `priority`; `label` names it in the
    /// arbiter's events (`behavior/action`). Waits without limit when blocked unless told
    /// otherwise ([`when_blocked`](Self::when_blocked)).
    pub fn new(
        inner: Box<dyn Action>,
        arbiter: &SharedArbiter<R>,
        resources: ResourceSet<R>,
        priority: Priority,
        label: impl Into<String>,
    ) -> Self {
        let holder = arbiter.lock().next_action_holder();
        ArbitratedAction {
            inner,
            arbiter: arbiter.clone(),
            claim: Claim {
                holder,
                group: None,
                resources,
                priority,
                rank: 0,
                preemptible: true,
                halting: false,
            },
            label: label.into(),
            when_blocked: WhenBlocked::Wait { up_to: None },
            maskable: ResourceSet::EMPTY,
            state: State::Idle,
            started: false,
        }
    }

    /// What it does when refused.
    pub fn when_blocked(mut self, when: WhenBlocked) -> Self {
        self.when_blocked = when;
        self
    }

    /// The parts of its claim it can play without when a hold keeps them from everyone
    /// ([`Action::run_masked`]): an animation's tracks ([`needs`](super::needs) of an
    /// animation; [`maskable`](super::body::maskable) says which for a [`Body`](super::Body)
    /// request). Default: none (it needs every part it claims).
    pub fn maskable(mut self, parts: ResourceSet<R>) -> Self {
        self.maskable = parts;
        self
    }

    /// Its rank (ties between equal priorities; default 0).
    pub fn rank(mut self, rank: u8) -> Self {
        self.claim.rank = rank;
        self
    }

    /// Its identity in the arbiter.
    pub fn holder(&self) -> Holder {
        self.claim.holder
    }

    fn try_claim(&mut self, clock: &VirtualClock) {
        let mut arb = self.arbiter.lock();
        match arb.decide(&self.claim) {
            Verdict::Grant => {
                let waited = matches!(self.state, State::Waiting { .. });
                if arb.hold(self.claim, &self.label, waited) {
                    drop(arb);
                    self.begin(clock);
                }
            }
            Verdict::Preempt => {
                arb.preempt_involved(self.claim, &self.label);
                self.state = State::Reserved;
            }
            Verdict::Blocked => {
                let blocked_by = arb.labels(arb.involved());
                match self.when_blocked {
                    WhenBlocked::Fail => {
                        arb.report(ArbiterEvent::Refused {
                            holder: self.claim.holder,
                            label: self.label.clone(),
                            resources: self.claim.resources,
                            blocked_by,
                        });
                        self.state = State::Refused;
                    }
                    WhenBlocked::Wait { .. } => {
                        if !matches!(self.state, State::Waiting { .. }) {
                            arb.report(ArbiterEvent::Waiting {
                                holder: self.claim.holder,
                                label: self.label.clone(),
                                resources: self.claim.resources,
                                blocked_by,
                            });
                            self.state = State::Waiting { since: clock.now() };
                        }
                    }
                }
            }
        }
    }

    fn begin(&mut self, clock: &VirtualClock) {
        self.state = State::Holding;
        self.started = true;
        self.inner.start(clock);
    }

    fn release(&mut self) {
        self.arbiter.lock().release(self.claim.holder);
    }
}

impl<R: Resource> Action for ArbitratedAction<R> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn start(&mut self, clock: &VirtualClock) {
        self.try_claim(clock);
    }

    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        match self.state {
            State::Idle => {
                self.try_claim(clock);
                ActionStatus::Running
            }
            State::Waiting { since } => {
                if let WhenBlocked::Wait { up_to: Some(limit) } = self.when_blocked {
                    if clock.now().saturating_sub(since) >= limit {
                        let mut arb = self.arbiter.lock();
                        let _ = arb.decide(&self.claim);
                        let blocked_by = arb.labels(arb.involved());
                        arb.report(ArbiterEvent::Refused {
                            holder: self.claim.holder,
                            label: self.label.clone(),
                            resources: self.claim.resources,
                            blocked_by,
                        });
                        self.state = State::Refused;
                        return ActionStatus::Failed;
                    }
                }
                self.try_claim(clock);
                ActionStatus::Running
            }
            State::Reserved => {
                let mut arb = self.arbiter.lock();
                if arb.halt_requested(self.claim.holder).is_some() {
                    arb.release(self.claim.holder);
                    self.state = State::Yielded;
                    return ActionStatus::Failed;
                }
                if arb.is_ready(self.claim.holder) && arb.hold(self.claim, &self.label, true) {
                    drop(arb);
                    self.begin(clock);
                }
                ActionStatus::Running
            }
            State::Holding => {
                if self
                    .arbiter
                    .lock()
                    .halt_requested(self.claim.holder)
                    .is_some()
                {
                    self.release();
                    self.state = State::Yielded;
                    return ActionStatus::Failed;
                }
                let s = self.inner.step(clock);
                if s != ActionStatus::Running {
                    self.release();
                    self.state = State::Done;
                }
                s
            }
            State::Refused | State::Yielded => ActionStatus::Failed,
            State::Done => ActionStatus::Succeeded,
        }
    }

    fn on_end(&mut self, end: ActionEnd) {
        self.release();
        if self.started {
            let end = if self.state == State::Yielded {
                ActionEnd::Cancelled
            } else {
                end
            };
            self.inner.on_end(end);
        }
    }

    /// Leaves the parts its stack locks out of its claim (they are its stack's: see the
    /// [module documentation](super), "Tracks") and says which of its needs they were.
    fn run_under_locks(&mut self, locked: LockedParts) -> LockedParts {
        let locked = ResourceSet::from_bits(locked.0);
        let used = self.claim.resources.intersection(locked);
        self.claim.resources = self.claim.resources.difference(locked);
        LockedParts(used.bits())
    }

    /// Leaves the held-back parts it can play without out of its claim (see the
    /// [module documentation](super), "Holds") and says which.
    fn run_masked(&mut self, held_back: LockedParts) -> LockedParts {
        let masked = self
            .maskable
            .intersection(ResourceSet::from_bits(held_back.0));
        self.claim.resources = self.claim.resources.difference(masked);
        LockedParts(masked.bits())
    }

    fn next_wakeup(&self, clock: &VirtualClock) -> Wakeup {
        match self.state {
            State::Holding => self.inner.next_wakeup(clock),
            _ => Wakeup::EveryTick,
        }
    }
}
