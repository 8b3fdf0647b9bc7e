//! [`Arbiter`]: the one table of who holds which part of the body, shared by the mission
//! controller and behavior actions ([`SharedArbiter`]), with the policy of the
//! [module documentation](super) applied by [`rule::decide`].
//!
//! A claim is in one of four states ([`HoldState`]): holding its resources, halting (still
//! holding them: asked to stop, by whom), reserved (granted by preemption: it holds nothing
//! yet and starts when every claim it waits for is released), or revoked (a reservation
//! outranked before it came true: its owner gives it up). Invariant (checked by
//! [`Arbiter::check_exclusive`], property-tested): no two holding or halting claims share a
//! resource.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::resource::{Resource, ResourceSet};
use super::rule::{self, Claim, Holder, Verdict};
use crate::spare::SpareStrings;

/// Where a claim is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoldState {
    /// It holds its resources.
    Holding,
    /// Asked to stop (by `by`: the preempting claim, `None` for a stop, suspension or
    /// shutdown); it holds its resources until its owner releases it.
    Halting {
        /// Who asked.
        by: Option<Holder>,
    },
    /// Granted by preemption: it waits for these claims to be released before it holds.
    Reserved {
        /// The claims it waits for.
        waiting_for: Vec<Holder>,
    },
    /// A reservation another claim outranked before it came true: it holds nothing and its
    /// owner gives it up.
    Revoked {
        /// Who outranked it.
        by: Option<Holder>,
    },
}

impl HoldState {
    /// True when the claim holds its resources (holding or halting).
    pub fn holds(&self) -> bool {
        matches!(self, HoldState::Holding | HoldState::Halting { .. })
    }
}

/// One claim in the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<R: Resource> {
    /// The claim (its `halting` flag follows the state).
    pub claim: Claim<R>,
    /// What it is, for the timeline (`mission/guide`, `FindAndGoToHome/drive_to_charger`).
    pub label: String,
    /// Its state.
    pub state: HoldState,
    /// Another claim lost to it or preempted it: its release is reported.
    pub contested: bool,
}

/// What the arbiter reports when a behavior action is involved and something was contested
/// (an uncontested action's grant and release are not news; the mission controller reports
/// its own requests in its own events; these say what happened across the two), and every
/// grant and release of a hold (see the [module documentation](super), "Holds").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArbiterEvent<R: Resource> {
    /// A claim holds its resources (granted at once, or its reservation came true).
    Granted {
        /// The claim.
        holder: Holder,
        /// Its label.
        label: String,
        /// What it holds.
        resources: ResourceSet<R>,
    },
    /// A claim outranks these holders: they are asked to halt and it waits for them.
    Preempting {
        /// The claim.
        holder: Holder,
        /// Its label.
        label: String,
        /// Its resources.
        resources: ResourceSet<R>,
        /// The holders asked to halt (labels).
        victims: Vec<String>,
    },
    /// A claim loses to these holders and waits (its owner retries).
    Waiting {
        /// The claim.
        holder: Holder,
        /// Its label.
        label: String,
        /// Its resources.
        resources: ResourceSet<R>,
        /// The holders it loses to (labels).
        blocked_by: Vec<String>,
    },
    /// A claim loses to these holders and its owner gives up.
    Refused {
        /// The claim.
        holder: Holder,
        /// Its label.
        label: String,
        /// Its resources.
        resources: ResourceSet<R>,
        /// The holders it loses to (labels).
        blocked_by: Vec<String>,
    },
    /// A claim gave its resources back.
    Released {
        /// The claim.
        holder: Holder,
        /// Its label.
        label: String,
        /// Its resources.
        resources: ResourceSet<R>,
    },
}

/// A subscriber to the arbiter's events ([`Arbiter::subscribe`]).
pub type ArbiterListener<R> = Box<dyn FnMut(&ArbiterEvent<R>) + Send>;

/// The table of claims. Most robots share one between their clients as a [`SharedArbiter`].
pub struct Arbiter<R: Resource> {
    entries: Vec<Entry<R>>,
    next_action: u64,
    events: Vec<ArbiterEvent<R>>,
    listeners: Vec<ArbiterListener<R>>,
    scratch: Vec<Claim<R>>,
    involved: Vec<Holder>,
    /// How many halts were requested so far ([`Arbiter::halt_requests`]); shared with the
    /// [`SharedArbiter`] holding the table, which reads it without the lock.
    halt_requests: Arc<AtomicU64>,
    /// Labels of released claims, kept to be written over by the next claims: a client
    /// that holds and releases over and over allocates none.
    spare_labels: SpareStrings<8, 128>,
}

impl<R: Resource> std::fmt::Debug for Arbiter<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arbiter")
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl<R: Resource> Default for Arbiter<R> {
    fn default() -> Self {
        Arbiter {
            entries: Vec::new(),
            next_action: 1,
            events: Vec::new(),
            listeners: Vec::new(),
            scratch: Vec::new(),
            involved: Vec::new(),
            halt_requests: Arc::new(AtomicU64::new(0)),
            spare_labels: SpareStrings::default(),
        }
    }
}

impl<R: Resource> Arbiter<R> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// A new behavior action's identity (arrival order).
    pub fn next_action_holder(&mut self) -> Holder {
        let h = Holder::Action(self.next_action);
        self.next_action += 1;
        h
    }

    /// Decides `candidate` against every claim in the table (see [`rule::decide`]); the
    /// claims involved are then in [`involved`](Self::involved).
    pub fn decide(&mut self, candidate: &Claim<R>) -> Verdict {
        self.scratch.clear();
        self.scratch.extend(self.entries.iter().map(|e| e.claim));
        let verdict = rule::decide(&self.scratch, candidate, &mut self.involved);
        if verdict != Verdict::Grant {
            for e in &mut self.entries {
                if self.involved.contains(&e.claim.holder) {
                    e.contested = true;
                }
            }
        }
        verdict
    }

    /// The claims the last [`decide`](Self::decide) involved: the victims of a preemption,
    /// the winners of a block.
    pub fn involved(&self) -> &[Holder] {
        &self.involved
    }

    fn position(&self, holder: Holder) -> Option<usize> {
        self.entries.iter().position(|e| e.claim.holder == holder)
    }

    /// `claim` holds its resources now (a reservation of the same holder becomes a hold).
    /// A resource still held by another claim is a broken caller: logged and refused
    /// (false), never a second owner. `report`: say so ([`ArbiterEvent::Granted`]; an action
    /// that waited or preempted does, the mission controller reports its own grants).
    pub fn hold(&mut self, claim: Claim<R>, label: &str, report: bool) -> bool {
        // One pass: a conflicting holder refuses it; its own entry (a reservation) is kept.
        let mut own = None;
        for (i, e) in self.entries.iter().enumerate() {
            if e.claim.holder == claim.holder {
                own = Some(i);
            } else if e.state.holds() && e.claim.resources.intersects(claim.resources) {
                refuse_hold(label, &e.label);
                return false;
            }
        }
        self.put(own, claim, label, HoldState::Holding);
        if report {
            self.report_granted(claim, label);
        }
        true
    }

    /// Reports `claim`'s grant (out of line: the mission controller, holding on every
    /// request, reports its own).
    #[inline(never)]
    fn report_granted(&mut self, claim: Claim<R>, label: &str) {
        self.report(ArbiterEvent::Granted {
            holder: claim.holder,
            label: label.to_owned(),
            resources: claim.resources,
        });
    }

    /// `claim` waits for `waiting_for` (the victims of its preemption) before it holds.
    pub fn reserve(&mut self, claim: Claim<R>, label: &str, waiting_for: Vec<Holder>) {
        let own = self.position(claim.holder);
        self.put(own, claim, label, HoldState::Reserved { waiting_for });
    }

    /// Writes `claim` into its entry at `own` (replacing what it was) or into a new one, not
    /// halting; the label's text is copied into the entry's own string or a spare one.
    ///
    /// The `halting` flag is cleared in the entry, after the claim is copied there: cleared
    /// in the caller's copy first, the byte just written would be read back by the copy's
    /// wider loads, a store-forwarding stall on every hold (a third of `hold`'s time).
    fn put(&mut self, own: Option<usize>, claim: Claim<R>, label: &str, state: HoldState) {
        let i = match own {
            Some(i) => {
                let e = &mut self.entries[i];
                e.claim = claim;
                e.state = state;
                e.contested = false;
                if e.label != label {
                    e.label.clear();
                    e.label.push_str(label);
                }
                i
            }
            None => {
                let label = self.spare_labels.take(label);
                // Built in its slot (see `push_in_place`).
                crate::hint::push_in_place(&mut self.entries, || Entry {
                    claim,
                    label,
                    state,
                    contested: false,
                });
                self.entries.len() - 1
            }
        };
        self.entries[i].claim.halting = false;
    }

    /// Carries out a [`Verdict::Preempt`] just decided for `claim`
    /// (halt before start): asks every holder [`involved`](Self::involved) to halt,
    /// reserves `claim` until they have released, and reports
    /// [`ArbiterEvent::Preempting`]. The one way a behavior's action and a track lock
    /// preempt (the mission controller also records its own decision).
    pub fn preempt_involved(&mut self, claim: Claim<R>, label: &str) {
        let victims = self.involved.clone();
        for v in &victims {
            self.request_halt(*v, Some(claim.holder));
        }
        let labels = self.labels(&victims);
        self.reserve(claim, label, victims);
        self.report(ArbiterEvent::Preempting {
            holder: claim.holder,
            label: label.to_owned(),
            resources: claim.resources,
            victims: labels,
        });
    }

    /// Asks `victim` to halt (`by`: who preempts it). A holder keeps its resources until its
    /// owner [releases](Self::release) them; an earlier request's `by` is kept.
    pub fn request_halt(&mut self, victim: Holder, by: Option<Holder>) {
        // The one writer (the table is borrowed mutably): a load and a store, no locked add.
        let halts = self.halt_requests.load(Ordering::Relaxed);
        self.halt_requests.store(halts + 1, Ordering::Release);
        if let Some(i) = self.position(victim) {
            let e = &mut self.entries[i];
            match e.state {
                HoldState::Holding => e.state = HoldState::Halting { by },
                HoldState::Reserved { .. } => e.state = HoldState::Revoked { by },
                HoldState::Halting { .. } | HoldState::Revoked { .. } => {}
            }
            e.claim.halting = true;
        }
    }

    /// How many halts were requested so far: a client that sees it unchanged knows none of
    /// its claims was asked to halt meanwhile.
    pub fn halt_requests(&self) -> u64 {
        self.halt_requests.load(Ordering::Acquire)
    }

    /// Who asked `holder` to halt: `Some(by)` once asked (`by` as given to
    /// [`request_halt`](Self::request_halt)), `None` when not asked or not in the table.
    pub fn halt_requested(&self, holder: Holder) -> Option<Option<Holder>> {
        self.entries
            .iter()
            .find(|e| e.claim.holder == holder)
            .and_then(|e| match e.state {
                HoldState::Halting { by } | HoldState::Revoked { by } => Some(by),
                _ => None,
            })
    }

    /// `holder` gives back what it holds or reserves (nothing when not in the table).
    pub fn release(&mut self, holder: Holder) {
        let Some(i) = self.position(holder) else {
            return;
        };
        let e = self.entries.swap_remove(i);
        // An action's release is reported when someone lost to it or preempted it (the
        // mission controller reports its own requests' releases).
        if e.contested && matches!(holder, Holder::Action(_)) {
            self.report_released(e);
        } else {
            self.spare_labels.give_back(e.label);
        }
    }

    /// Reports the release of `e`, just taken out of the table (out of line: most releases
    /// are not news).
    #[inline(never)]
    fn report_released(&mut self, e: Entry<R>) {
        self.report(ArbiterEvent::Released {
            holder: e.claim.holder,
            label: e.label,
            resources: e.claim.resources,
        });
    }

    /// `holder` gives back what it holds or reserves, and the release is reported
    /// ([`ArbiterEvent::Released`]) whenever it held its resources, contested or not: a
    /// hold's release is news (the parts may move again).
    pub fn release_reported(&mut self, holder: Holder) {
        let Some(i) = self.position(holder) else {
            return;
        };
        if self.entries[i].state.holds() {
            self.entries[i].contested = true;
        }
        self.release(holder);
    }

    /// True when `holder` is reserved and everything it waits for is released.
    pub fn is_ready(&self, holder: Holder) -> bool {
        self.entries
            .iter()
            .find(|e| e.claim.holder == holder)
            .is_some_and(|e| match &e.state {
                HoldState::Reserved { waiting_for } => {
                    waiting_for.iter().all(|w| self.position(*w).is_none())
                }
                _ => false,
            })
    }

    /// The state of `holder`'s claim, if it has one.
    pub fn state(&self, holder: Holder) -> Option<&HoldState> {
        self.entries
            .iter()
            .find(|e| e.claim.holder == holder)
            .map(|e| &e.state)
    }

    /// The label of `holder`'s claim (`?` when it has none).
    pub fn label(&self, holder: Holder) -> &str {
        self.entries
            .iter()
            .find(|e| e.claim.holder == holder)
            .map_or("?", |e| e.label.as_str())
    }

    /// Every claim: holding, halting or reserved.
    pub fn entries(&self) -> &[Entry<R>] {
        &self.entries
    }

    /// The claims that hold resources now (holding or halting), with them.
    pub fn holders(&self) -> impl Iterator<Item = (Holder, &str, ResourceSet<R>)> + '_ {
        self.entries
            .iter()
            .filter(|e| e.state.holds())
            .map(|e| (e.claim.holder, e.label.as_str(), e.claim.resources))
    }

    /// The invariant: no resource held by two claims. `Err` names both and the resources.
    pub fn check_exclusive(&self) -> Result<(), (String, String, ResourceSet<R>)> {
        let held: Vec<_> = self.holders().collect();
        for (i, a) in held.iter().enumerate() {
            for b in &held[i + 1..] {
                if a.2.intersects(b.2) {
                    return Err((a.1.to_owned(), b.1.to_owned(), a.2.intersection(b.2)));
                }
            }
        }
        Ok(())
    }

    /// Records an event (clients report what their claims met): every subscriber hears it
    /// at once, and it is kept for [`drain_events`](Self::drain_events) unless someone
    /// subscribed.
    pub fn report(&mut self, event: ArbiterEvent<R>) {
        tracing::debug!(?event, "arbiter");
        for l in &mut self.listeners {
            l(&event);
        }
        if self.listeners.is_empty() {
            self.events.push(event);
        }
    }

    /// Calls `listener` with every event as it happens, in order with what the clients log
    /// themselves (a holder's release before the start it made possible). The listener runs
    /// with the table locked: it must not call the arbiter.
    pub fn subscribe(&mut self, listener: impl FnMut(&ArbiterEvent<R>) + Send + 'static) {
        self.listeners.push(Box::new(listener));
    }

    /// The labels of `holders`.
    pub fn labels(&self, holders: &[Holder]) -> Vec<String> {
        holders.iter().map(|h| self.label(*h).to_owned()).collect()
    }

    /// Takes the events reported since the last call, oldest first.
    pub fn drain_events(&mut self) -> Vec<ArbiterEvent<R>> {
        std::mem::take(&mut self.events)
    }
}

/// Logs a hold refused because `holder` (a label) holds part of its resources (out of
/// line: a caller that decided first never meets it).
#[cold]
#[inline(never)]
fn refuse_hold(label: &str, holder: &str) {
    tracing::error!(%label, %holder, "a hold over a holder's resources refused");
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Holder::Mission(n) => write!(f, "mission request {n}"),
            // An action's claim or a behavior's track lock: the label tells which.
            Holder::Action(n) => write!(f, "behavior claim {n}"),
        }
    }
}

/// One [`Arbiter`] shared by its clients (the mission controller, every arbitrated action).
/// Cloning shares it. A poisoned lock is taken over: the table stays consistent between
/// calls, so a panic elsewhere leaves nothing half-written.
#[derive(Debug)]
pub struct SharedArbiter<R: Resource> {
    table: Arc<Mutex<Arbiter<R>>>,
    /// The table's halt count, read without its lock ([`SharedArbiter::halt_requests`]).
    halt_requests: Arc<AtomicU64>,
}

impl<R: Resource> Clone for SharedArbiter<R> {
    fn clone(&self) -> Self {
        SharedArbiter {
            table: Arc::clone(&self.table),
            halt_requests: Arc::clone(&self.halt_requests),
        }
    }
}

impl<R: Resource> Default for SharedArbiter<R> {
    fn default() -> Self {
        let table = Arbiter::new();
        SharedArbiter {
            halt_requests: Arc::clone(&table.halt_requests),
            table: Arc::new(Mutex::new(table)),
        }
    }
}

impl<R: Resource> SharedArbiter<R> {
    /// A new, empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The table, locked.
    pub fn lock(&self) -> MutexGuard<'_, Arbiter<R>> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// [`Arbiter::halt_requests`], without taking the lock: a client that polls for halts
    /// asked of its claims (the mission controller, after every request) takes the lock
    /// only when the count moved. A halt requested while it reads is seen at its next look,
    /// as it would be had it read under the lock.
    pub fn halt_requests(&self) -> u64 {
        self.halt_requests.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::Body;
    use crate::hri::Priority;

    /// A holder names its kind: a behavior's claim covers its actions and its track lock.
    #[test]
    fn holders_are_named_by_kind() {
        assert_eq!(Holder::Mission(4).to_string(), "mission request 4");
        assert_eq!(Holder::Action(7).to_string(), "behavior claim 7");
    }

    fn claim(holder: Holder, parts: &[Body], priority: u8) -> Claim<Body> {
        Claim {
            holder,
            group: None,
            resources: ResourceSet::of(parts),
            priority: Priority(priority),
            rank: 0,
            preemptible: true,
            halting: false,
        }
    }

    /// The halt count read without the lock is the table's, for every clone, and a new
    /// table starts its own; a hold (the halting flag set in the claim given) keeps no
    /// halting flag.
    #[test]
    fn the_halt_count_is_read_without_the_lock_by_every_clone() {
        let shared = SharedArbiter::<Body>::new();
        let other = shared.clone();
        let mut halting = claim(Holder::Mission(1), &[Body::Base], 100);
        halting.halting = true;
        assert!(shared.lock().hold(halting, "m", false));
        assert!(!shared.lock().entries()[0].claim.halting);
        assert_eq!((shared.halt_requests(), other.halt_requests()), (0, 0));
        shared.lock().request_halt(Holder::Mission(1), None);
        other.lock().request_halt(Holder::Mission(9), None);
        assert_eq!(shared.halt_requests(), 2);
        assert_eq!(other.halt_requests(), shared.lock().halt_requests());
        assert_eq!(SharedArbiter::<Body>::new().halt_requests(), 0);
    }

    /// A client that holds without asking is refused, never a second owner; a reservation
    /// outranked before it came true holds nothing and is told so.
    #[test]
    fn a_second_owner_is_refused_and_a_revoked_reservation_holds_nothing() {
        let mut arb = Arbiter::new();
        let a = claim(Holder::Action(1), &[Body::Base], 100);
        assert!(arb.hold(a, "a", false));
        assert!(!arb.hold(
            claim(Holder::Mission(1), &[Body::Base, Body::Head], 255),
            "m",
            false
        ));
        assert_eq!(arb.holders().count(), 1);

        let b = claim(Holder::Action(2), &[Body::Base], 150);
        assert_eq!(arb.decide(&b), Verdict::Preempt);
        assert_eq!(arb.involved(), [Holder::Action(1)]);
        arb.request_halt(Holder::Action(1), Some(b.holder));
        arb.reserve(b, "b", vec![Holder::Action(1)]);
        assert!(!arb.is_ready(b.holder));

        let c = claim(Holder::Action(3), &[Body::Base], 200);
        assert_eq!(arb.decide(&c), Verdict::Preempt);
        arb.request_halt(Holder::Action(2), Some(c.holder));
        assert_eq!(
            arb.state(b.holder),
            Some(&HoldState::Revoked { by: Some(c.holder) })
        );
        assert_eq!(arb.halt_requested(b.holder), Some(Some(c.holder)));
        assert!(arb.check_exclusive().is_ok());
        let held: Vec<_> = arb.holders().map(|(h, _, _)| h).collect();
        assert_eq!(held, [Holder::Action(1)]);

        arb.release(Holder::Action(1));
        arb.release(Holder::Action(2));
        assert!(arb.hold(c, "c", true));
        assert!(matches!(
            arb.drain_events().last(),
            Some(ArbiterEvent::Granted { label, .. }) if label == "c"
        ));
    }
}
