//! Requests hooks queue (delegate, run an action, cancel delegates, end), applied in order
//! as soon as the hook returns.

use crate::behavior::action::ActionEnd;
use crate::behavior::core::{
    BehaviorEnd, Command, Continuation, DelegationOutcome, LifecycleState, RunnerError,
};
use crate::behavior::ids::BehaviorId;
use crate::intent::IntentUnion;

use super::Runner;

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    pub(super) fn frame_of(&self, id: BehaviorId) -> Option<usize> {
        self.stack_pos(id)
    }

    /// Applies queued requests in order (hooks they call may queue more).
    #[inline(always)]
    pub(super) fn apply(&mut self, events: &[E]) {
        if !self.core.m.cmds.is_empty() {
            self.apply_queued(events);
        }
    }

    pub(super) fn apply_queued(&mut self, events: &[E]) {
        while let Some(cmd) = self.core.m.cmds.pop_front() {
            match cmd {
                Command::Delegate {
                    from,
                    to,
                    cont,
                    ask_when_applied,
                } => {
                    let top = self.core.s.stack.last();
                    let in_control = top.is_some_and(|f| f.id == from && f.action.is_none());
                    if !in_control {
                        self.core
                            .m
                            .errors
                            .push(RunnerError::NotInControl { behavior: from });
                        continue;
                    }
                    let n = &self.core.s.nodes[to.index()];
                    if n.state != LifecycleState::InScope {
                        let e = if n.state == LifecycleState::Active {
                            RunnerError::AlreadyActive { behavior: to }
                        } else {
                            RunnerError::NotInScope { behavior: to }
                        };
                        self.core.m.errors.push(e);
                        continue;
                    }
                    let wants = n.wants_tick.get() == self.core.s.clock.tick()
                        || (ask_when_applied && self.view(from).wants_to_activate(to));
                    if !wants {
                        if ask_when_applied {
                            tracing::warn!(behavior = ?to, "Behavior.Restart.DoesNotWantToRun");
                        } else {
                            self.core
                                .m
                                .errors
                                .push(RunnerError::DoesNotWantToActivate { behavior: to });
                        }
                        continue;
                    }
                    self.push(Some(from), to, cont, events);
                }
                Command::Action {
                    from,
                    mut action,
                    cont,
                } => {
                    let in_control = self
                        .core
                        .s
                        .stack
                        .last()
                        .is_some_and(|f| f.id == from && f.action.is_none());
                    if !in_control {
                        self.core
                            .m
                            .errors
                            .push(RunnerError::NotInControl { behavior: from });
                        action.on_end(ActionEnd::Cancelled);
                        continue;
                    }
                    let (lent, awaiting) = self.run_under_locks(&mut *action);
                    if awaiting {
                        tracing::debug!(action = action.name(), "Behavior.Action.AwaitsLocks");
                    } else {
                        tracing::debug!(action = action.name(), "Behavior.Action.Started");
                        action.start(&self.core.s.clock);
                    }
                    if let Some(f) = self.core.s.stack.last_mut() {
                        f.action = Some(action);
                        f.cont = cont;
                        f.ready = None;
                        f.lent = lent;
                        f.awaiting_locks = awaiting;
                    }
                }
                Command::CancelDelegates {
                    from,
                    run_continuation,
                } => {
                    let Some(i) = self.frame_of(from) else {
                        self.core
                            .m
                            .errors
                            .push(RunnerError::NotActive { behavior: from });
                        continue;
                    };
                    self.cancel_above(i, run_continuation, events);
                }
                Command::End { from, end } => {
                    let Some(i) = self.frame_of(from) else {
                        self.core
                            .m
                            .errors
                            .push(RunnerError::NotActive { behavior: from });
                        continue;
                    };
                    while self.core.s.stack.len() > i + 1 {
                        self.pop_top(BehaviorEnd::Cancelled, false, events);
                    }
                    self.pop_top(end, true, events);
                }
            }
        }
    }

    /// Cancels what frame `i` delegated to. With `run_continuation` the continuation is
    /// made ready for the frame's next step; else it is dropped.
    pub(super) fn cancel_above(&mut self, i: usize, run_continuation: bool, events: &[E]) {
        let mut outcome = None;
        if let Some(mut a) = self.core.s.stack[i].action.take() {
            a.on_end(ActionEnd::Cancelled);
            tracing::debug!(action = a.name(), "Behavior.Action.Cancelled");
            outcome = Some(DelegationOutcome::Action(ActionEnd::Cancelled));
        }
        if let Some(above) = self.core.s.stack.get(i + 1).map(|f| f.id) {
            while self.core.s.stack.len() > i + 1 {
                self.pop_top(BehaviorEnd::Cancelled, false, events);
            }
            outcome = Some(DelegationOutcome::Behavior {
                id: above,
                end: BehaviorEnd::Cancelled,
            });
        }
        let f = &mut self.core.s.stack[i];
        let cont = std::mem::replace(&mut f.cont, Continuation::None);
        f.ready = match (run_continuation, cont, outcome) {
            (true, Continuation::Call(k), Some(o)) => Some((k, o)),
            _ => None,
        };
    }
}
