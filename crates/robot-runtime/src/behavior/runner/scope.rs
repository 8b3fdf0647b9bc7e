//! Activatable scope: reference-counted entry and exit, linked scope walked with a work
//! list, the in-scope lists kept in place.

use crate::behavior::core::{Invariant, LifecycleState, RunnerError};
use crate::behavior::ids::BehaviorId;
use crate::behavior::wakeup::Inputs;
use crate::intent::IntentUnion;

use super::{Hook, Runner};

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// `id` enters scope once more; on its first entry, its linked scope too (walked with
    /// a work list, not recursion).
    pub(super) fn enter_scope(&mut self, id: BehaviorId, events: &[E]) {
        let mut work = std::mem::take(&mut self.core.scope_work);
        work.push(id);
        while let Some(id) = work.pop() {
            let c = &mut self.core;
            let now = c.s.clock.now();
            let n = &mut c.s.nodes[id.index()];
            n.scope_count += 1;
            if n.scope_count != 1 {
                continue;
            }
            c.m.changes.stamp(Inputs::STACK);
            n.entered_scope = Some(now);
            n.scope_pos = c.in_scope.len() as u32;
            c.in_scope.push(id);
            if n.updates_inactive || !n.event_scopes.is_empty() {
                n.work_pos = c.in_scope_work.len() as u32;
                c.in_scope_work.push(id);
            }
            if n.state == LifecycleState::OutOfScope {
                n.state = LifecycleState::InScope;
                if let Some(w) = &n.wants {
                    w.set_active(true, now);
                }
            }
            work.extend(n.linked.iter().copied());
            tracing::trace!(behavior = %n.name, "Behavior.EnteredScope");
            self.hook(id, Hook::EnteredScope, events);
        }
        self.core.scope_work = work;
    }

    /// `id` leaves scope once; on its last exit, its linked scope too.
    pub(super) fn leave_scope(&mut self, id: BehaviorId, events: &[E]) {
        let mut work = std::mem::take(&mut self.core.scope_work);
        work.push(id);
        while let Some(id) = work.pop() {
            let c = &mut self.core;
            let now = c.s.clock.now();
            let n = &mut c.s.nodes[id.index()];
            if n.scope_count == 0 {
                c.m.errors
                    .push(RunnerError::Invariant(Invariant::ScopeCount(id)));
                continue;
            }
            n.scope_count -= 1;
            if n.scope_count != 0 {
                continue;
            }
            c.m.changes.stamp(Inputs::STACK);
            n.entered_scope = None;
            let pos = n.scope_pos as usize;
            n.scope_pos = u32::MAX;
            if n.state == LifecycleState::Active {
                c.m.errors
                    .push(RunnerError::Invariant(Invariant::ScopeCount(id)));
            } else if let Some(w) = &n.wants {
                w.set_active(false, now);
            }
            n.state = LifecycleState::OutOfScope;
            tracing::trace!(behavior = %n.name, "Behavior.LeftScope");
            let wpos = std::mem::replace(&mut n.work_pos, u32::MAX);
            work.extend(n.linked.iter().copied());
            c.in_scope.swap_remove(pos);
            if let Some(&moved) = c.in_scope.get(pos) {
                c.s.nodes[moved.index()].scope_pos = pos as u32;
            }
            if wpos != u32::MAX {
                let wpos = wpos as usize;
                c.in_scope_work.swap_remove(wpos);
                if let Some(&moved) = c.in_scope_work.get(wpos) {
                    c.s.nodes[moved.index()].work_pos = wpos as u32;
                }
            }
            self.hook(id, Hook::LeftScope, events);
        }
        self.core.scope_work = work;
    }
}
