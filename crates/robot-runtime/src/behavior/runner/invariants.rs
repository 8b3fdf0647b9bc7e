//! [`Runner::check_invariants`]: every runner invariant checked from scratch (for tests and
//! diagnostics).

use crate::behavior::core::{Invariant, LifecycleState, RunnerError};
use crate::behavior::ids::BehaviorId;
use crate::intent::IntentUnion;

use super::Runner;

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// Checks every runner invariant (O(tree size); for tests and diagnostics): stack
    /// frames active, unique, at their recorded positions and chained by declared delegates;
    /// no active behavior off the stack; scope counts equal to what the stack and the linked
    /// scopes imply; every behavior in scope or active updated exactly once on the last
    /// tick; activation on a tick where the behavior wanted to activate; the count of
    /// frames holding a track lock equal to the frames that hold one; every hold's behavior
    /// active.
    pub fn check_invariants(&self) -> Result<(), Invariant> {
        let c = &self.core;
        let tick = c.s.clock.tick();
        let n = c.s.nodes.len();
        let mut on_stack = vec![false; n];
        for (k, f) in c.s.stack.iter().enumerate() {
            let node = &c.s.nodes[f.id.index()];
            if node.state != LifecycleState::Active
                || on_stack[f.id.index()]
                || node.stack_pos as usize != k
            {
                return Err(Invariant::Stack(k));
            }
            on_stack[f.id.index()] = true;
            let edge_ok = if k == 0 {
                f.id == c.base
            } else {
                c.s.nodes[c.s.stack[k - 1].id.index()]
                    .delegates
                    .contains(&f.id)
            };
            if !edge_ok {
                return Err(Invariant::StackEdge(k));
            }
            if node.activated_wants_tick != node.activated_tick {
                return Err(Invariant::ActivatedWithoutWants(f.id));
            }
        }
        let held = c.s.stack.iter().filter(|f| f.lock.is_some()).count() as u32;
        if held != c.locking_frames {
            return Err(Invariant::LockingFrames {
                held,
                counted: c.locking_frames,
            });
        }
        for &(b, _) in &c.m.holds {
            if c.s.nodes[b.index()].state != LifecycleState::Active {
                return Err(Invariant::HoldOfInactive(b));
            }
        }
        // Direct entries (the root's base, every frame's delegates), then the linked scope
        // of everything in scope, counted once per linking behavior.
        let mut counts = vec![0u32; n];
        counts[c.base.index()] += 1;
        for f in &c.s.stack {
            for d in c.s.nodes[f.id.index()].delegates.iter() {
                counts[d.index()] += 1;
            }
        }
        let mut in_scope = vec![false; n];
        let mut todo: Vec<usize> = (0..n).filter(|&i| counts[i] > 0).collect();
        while let Some(i) = todo.pop() {
            if std::mem::replace(&mut in_scope[i], true) {
                continue;
            }
            for l in c.s.nodes[i].linked.iter() {
                counts[l.index()] += 1;
                todo.push(l.index());
            }
        }
        for (i, node) in c.s.nodes.iter().enumerate() {
            let id = BehaviorId::from_index(i);
            if node.state == LifecycleState::Active && !on_stack[i] {
                return Err(Invariant::ActiveOffStack(id));
            }
            if (node.stack_pos != u32::MAX) != on_stack[i] {
                return Err(Invariant::ActiveOffStack(id));
            }
            let listed =
                node.scope_pos != u32::MAX && c.in_scope.get(node.scope_pos as usize) == Some(&id);
            if node.scope_count != counts[i]
                || listed != (counts[i] > 0)
                || (node.state == LifecycleState::OutOfScope) != (counts[i] == 0)
            {
                return Err(Invariant::ScopeCount(id));
            }
            let needs_update = node.state == LifecycleState::Active
                || (node.state == LifecycleState::InScope && node.updates_inactive);
            if tick > 0 && needs_update && node.last_update != tick as u32 {
                return Err(Invariant::MissedUpdate(id));
            }
            let worker = counts[i] > 0 && (node.updates_inactive || !node.event_scopes.is_empty());
            let work_listed = node.work_pos != u32::MAX
                && c.in_scope_work.get(node.work_pos as usize) == Some(&id);
            if worker != work_listed {
                return Err(Invariant::ScopeCount(id));
            }
        }
        if c.in_scope.len() != counts.iter().filter(|&&k| k > 0).count() {
            return Err(Invariant::ScopeCount(c.base));
        }
        for e in &c.m.errors.errors {
            if let RunnerError::Invariant(i) = e {
                return Err(*i);
            }
        }
        Ok(())
    }
}
