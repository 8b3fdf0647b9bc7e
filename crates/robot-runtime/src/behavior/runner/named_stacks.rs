//! Stacks set from outside, as the original's test "named stacks" and developer tools did:
//! [`Runner::replace_stack`], [`Runner::force_behavior`] and the delegation path they
//! follow.

use std::collections::VecDeque;

use crate::behavior::core::{BehaviorEnd, Continuation, RunnerError};
use crate::behavior::ids::BehaviorId;
use crate::intent::IntentUnion;

use super::Runner;

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// Replaces the stack with `stack` (IDs bottom to top; the first must be the base), as
    /// the original's test "named stacks" do: the current stack is popped (interrupting
    /// everything), then each behavior is pushed in order, each a declared delegate of the
    /// one below. `wants_to_be_activated` is not consulted (a test fixture). Checked before
    /// anything changes.
    pub fn replace_stack(&mut self, stack: &[BehaviorId]) -> Result<(), RunnerError> {
        let n = self.core.s.nodes.len();
        let mut seen = vec![false; n];
        for (k, id) in stack.iter().enumerate() {
            let ok = id.index() < n
                && !seen[id.index()]
                && if k == 0 {
                    *id == self.core.base
                } else {
                    self.core.s.nodes[stack[k - 1].index()]
                        .delegates
                        .contains(id)
                };
            if !ok {
                let e = RunnerError::InvalidStack { position: k };
                self.core.m.errors.push(e);
                return Err(e);
            }
            seen[id.index()] = true;
        }
        while !self.core.s.stack.is_empty() {
            self.pop_top(BehaviorEnd::Cancelled, false, &[]);
        }
        self.apply(&[]);
        let tick = self.core.s.clock.tick();
        for (k, id) in stack.iter().enumerate() {
            let from = (k > 0).then(|| stack[k - 1]);
            self.core.s.nodes[id.index()].wants_tick.set(tick);
            self.push(from, *id, Continuation::None, &[]);
        }
        self.apply(&[]);
        Ok(())
    }

    /// Forces `id` to run, as the original's developer tools allowed: the stack becomes the
    /// shortest chain of declared delegates from the base to `id`
    /// ([`delegation_path`](Self::delegation_path); see [`replace_stack`](Self::replace_stack)).
    pub fn force_behavior(&mut self, id: BehaviorId) -> Result<(), RunnerError> {
        if id.index() >= self.core.s.nodes.len() {
            let e = RunnerError::Unknown { behavior: id };
            self.core.m.errors.push(e);
            return Err(e);
        }
        let Some(chain) = self.delegation_path(id) else {
            let e = RunnerError::InvalidStack { position: 0 };
            self.core.m.errors.push(e);
            return Err(e);
        };
        self.replace_stack(&chain)
    }

    /// The shortest chain of declared delegates from the base to `id`, both included (the
    /// stack [`force_behavior`](Self::force_behavior) builds): breadth first, delegates in
    /// their declared order, so among chains of one length the first declared wins. None
    /// for an unknown ID or one no chain reaches. Pure; allocates (for tools).
    pub fn delegation_path(&self, id: BehaviorId) -> Option<Vec<BehaviorId>> {
        let n = self.core.s.nodes.len();
        if id.index() >= n {
            return None;
        }
        let base = self.core.base;
        let mut parent: Vec<Option<BehaviorId>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([base]);
        seen[base.index()] = true;
        while let Some(x) = queue.pop_front() {
            if x == id {
                break;
            }
            for &d in self.core.s.nodes[x.index()].declared.iter() {
                if !seen[d.index()] {
                    seen[d.index()] = true;
                    parent[d.index()] = Some(x);
                    queue.push_back(d);
                }
            }
        }
        if !seen[id.index()] {
            return None;
        }
        let mut chain = vec![id];
        let mut x = id;
        while let Some(p) = parent[x.index()] {
            chain.push(p);
            x = p;
        }
        chain.reverse();
        Some(chain)
    }
}
