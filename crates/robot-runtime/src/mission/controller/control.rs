//! Control of what runs: `STOP_ACTIVITY` / `CANCEL_ACTIVITY`, `CONTINUE_ACTIVITY`,
//! `SUSPEND` / `WAKEUP`, and shutdown.

use super::{AfterHalt, Entry, MissionController, Phase};
use crate::hri::{IntentId, Priority};
use crate::mission::capability::OnPreempt;
use crate::mission::event::{
    CancelReason, ControlIgnoredReason, HaltReason, MissionEvent, Outcome, RejectReason,
};
use crate::mission::{RequestId, Resource};

impl<R: Resource> MissionController<R> {
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

    pub(super) fn stop_inner(
        &mut self,
        object: Option<&str>,
        priority: Priority,
        by: Option<IntentId>,
        intent: IntentId,
    ) {
        // An empty object is no object: "the current main activity" (the spec's own
        // cancel-task example sends `{"object": ""}`).
        let object = object.map(trimmed).filter(|o| !o.is_empty());
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        match object {
            // Plain loops rather than a chain of iterators: less code on every stop.
            Some(o) => {
                for e in &self.active {
                    if e.phase != Phase::Halting && self.matches_object(e, o) {
                        targets.push(e.request.id);
                    }
                }
                if !(self.queue.is_empty() && self.paused.is_empty()) {
                    self.waiting_matching(o, &mut targets);
                }
            }
            None => targets.extend(self.main_activity()),
        }
        if targets.is_empty() {
            self.targets = targets;
            self.control_ignored(intent, ControlIgnoredReason::NothingMatches);
            return;
        }
        let mut outranked = Vec::new();
        let mut stopped = false;
        for &t in &targets {
            if let Some(pos) = self.active.iter().position(|e| e.request.id == t) {
                if self.active[pos].request.priority > priority {
                    outranked.push(t);
                    continue;
                }
                stopped = true;
                if self.active[pos].phase == Phase::Running {
                    let end = AfterHalt::End(CancelReason::Stopped { by });
                    self.begin_halt(pos, HaltReason::Stopped(by), end);
                } else {
                    self.cancel_unstarted(pos, by);
                }
                continue;
            }
            stopped |= self.stop_waiting(t, priority, by, &mut outranked);
        }
        self.targets = targets;
        if !stopped {
            self.control_ignored(
                intent,
                ControlIgnoredReason::Outranked {
                    requests: outranked,
                },
            );
        }
        self.settle();
    }

    /// Adds the queued, then the paused requests that match `object` to `targets`.
    #[cold]
    #[inline(never)]
    fn waiting_matching(&self, object: &str, targets: &mut Vec<RequestId>) {
        for e in self.queue.iter().chain(&self.paused) {
            if self.matches_object(e, object) {
                targets.push(e.request.id);
            }
        }
    }

    /// The current main activity: the latest started of the highest priority among the
    /// running and waiting requests.
    #[inline(never)]
    fn main_activity(&self) -> Option<RequestId> {
        self.active
            .iter()
            .filter(|e| matches!(e.phase, Phase::Running | Phase::WaitingForHalt(_)))
            .max_by_key(|e| (e.request.priority, e.started_seq, e.request.id))
            .map(|e| e.request.id)
    }

    /// Cancels the active entry at `pos` that was stopped before it started (it waits for
    /// its victims' halt).
    #[cold]
    #[inline(never)]
    fn cancel_unstarted(&mut self, pos: usize, by: Option<IntentId>) {
        let entry = self.remove_active(pos);
        self.finish(
            entry.request.id,
            Outcome::Cancelled {
                reason: CancelReason::Stopped { by },
                forced: false,
            },
        );
        self.retire(entry);
    }

    /// Stops request `t` if it is queued or paused and `priority` reaches its own (else it
    /// goes to `outranked`). True when it was stopped.
    #[cold]
    #[inline(never)]
    fn stop_waiting(
        &mut self,
        t: RequestId,
        priority: Priority,
        by: Option<IntentId>,
        outranked: &mut Vec<RequestId>,
    ) -> bool {
        let in_queue = self.queue.iter().position(|e| e.request.id == t);
        let in_paused = self.paused.iter().position(|e| e.request.id == t);
        let (list, pos) = match (in_queue, in_paused) {
            (Some(pos), _) => (&mut self.queue, pos),
            (None, Some(pos)) => (&mut self.paused, pos),
            (None, None) => return false,
        };
        if list[pos].request.priority > priority {
            outranked.push(t);
            return false;
        }
        let entry = list.remove(pos);
        self.finish(
            t,
            Outcome::Cancelled {
                reason: CancelReason::Stopped { by },
                forced: false,
            },
        );
        self.retire(entry);
        true
    }

    /// Resumes the paused request named `object` (capability name or request object) or,
    /// without object, the most recently paused one; it is arbitrated again at its own
    /// priority.
    pub fn resume(&mut self, object: Option<&str>) {
        self.resume_inner(object, IntentId(0));
    }

    pub(super) fn resume_inner(&mut self, object: Option<&str>, intent: IntentId) {
        let object = object.map(trimmed).filter(|o| !o.is_empty());
        if self.suspended {
            self.control_ignored(intent, ControlIgnoredReason::AlreadyInState);
            return;
        }
        let pos = match object {
            Some(o) => self.paused.iter().rposition(|e| self.matches_object(e, o)),
            None => self.paused.len().checked_sub(1),
        };
        let Some(pos) = pos else {
            self.control_ignored(intent, ControlIgnoredReason::NothingMatches);
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
        let mut ids = std::mem::take(&mut self.targets);
        ids.clear();
        ids.extend(self.active.iter().map(|e| e.request.id));
        for &id in &ids {
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
                    self.remove_active(pos);
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
        self.targets = ids;
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
        let mut ids = std::mem::take(&mut self.targets);
        ids.clear();
        ids.extend(self.active.iter().map(|e| e.request.id));
        for &id in &ids {
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
                    self.remove_active(pos);
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
        self.targets = ids;
    }
}

/// `object` without leading and trailing whitespace ([`str::trim`]). An object that starts
/// and ends with an ASCII character other than whitespace, the usual one, is returned as it
/// is without running `trim`'s Unicode code (a stop runs this on every call).
fn trimmed(object: &str) -> &str {
    // ASCII and not whitespace by `char::is_whitespace` (which, unlike
    // `u8::is_ascii_whitespace`, includes the vertical tab).
    let plain = |b: u8| b.is_ascii() && !(b == b' ' || (b'\t'..=b'\r').contains(&b));
    match object.as_bytes() {
        [first, .., last] if plain(*first) && plain(*last) => object,
        [only] if plain(*only) => object,
        _ => trim_slow(object),
    }
}

/// [`str::trim`], out of line.
#[cold]
#[inline(never)]
fn trim_slow(object: &str) -> &str {
    object.trim()
}

#[cfg(test)]
mod tests {
    use super::trimmed;

    /// The fast path gives what `str::trim` gives, Unicode and the vertical tab included.
    #[test]
    fn trimmed_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a",
            "a ",
            "guide",
            " guide ",
            "\u{b}guide",
            "guide\u{b}",
            "\u{a0}guide",
            "guide\u{3000}",
            "é",
            "éa",
            "aé",
            "\tkitchen\r\n",
            "a b",
            "\u{1c}x",
        ] {
            assert_eq!(trimmed(s), s.trim(), "{s:?}");
        }
    }
}
