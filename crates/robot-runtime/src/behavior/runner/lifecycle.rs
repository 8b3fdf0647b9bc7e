//! Activation ([`push`](Runner)) and deactivation (pop) in the order of the module
//! documentation, with the `respondToUserIntents` claim.

use crate::behavior::action::ActionEnd;
use crate::behavior::core::{
    owner_of, BehaviorEnd, Continuation, DelegationOutcome, Effect, EffectId, Frame, LifecycleState,
};
use crate::behavior::ids::BehaviorId;
use crate::behavior::track_locks::LockedParts;
use crate::behavior::wakeup::Inputs;
use crate::intent::IntentUnion;

use super::{Hook, Runner};

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    pub(super) fn push(
        &mut self,
        from: Option<BehaviorId>,
        to: BehaviorId,
        cont: Continuation,
        events: &[E],
    ) {
        if let Some(f) = self.core.s.stack.last_mut() {
            f.cont = cont;
            f.ready = None;
        }
        let now = self.core.s.clock.now();
        let tick = self.core.s.clock.tick();
        let pos = self.core.s.stack.len() as u32;
        self.core.s.stack.push(Frame {
            id: to,
            lock: None,
            lent: LockedParts::NONE,
            awaiting_locks: false,
            action: None,
            cont: Continuation::None,
            ready: None,
        });
        self.core.stack_changes += 1;
        self.core.m.changes.stamp(Inputs::STACK);
        if tracing::enabled!(tracing::Level::DEBUG) {
            let nodes = &self.core.s.nodes;
            tracing::debug!(
                behavior = %nodes[to.index()].name,
                depth = pos + 1,
                from = from.map(|f| nodes[f.index()].name.as_str()).unwrap_or("<root>"),
                "Behavior.Activated"
            );
        }
        {
            let n = &mut self.core.s.nodes[to.index()];
            n.stack_pos = pos;
            n.state = LifecycleState::Active;
            n.activated_at = now;
            n.activated_tick = tick;
            n.activated_wants_tick = n.wants_tick.get();
            n.starts += 1;
        }
        for k in 0..self.core.s.nodes[to.index()].delegates.len() {
            let d = self.core.s.nodes[to.index()].delegates[k];
            self.enter_scope(d, events);
        }
        self.claim_respond_intent(to);
        self.lock_tracks(to);
        let c = &mut self.core;
        let n = &c.s.nodes[to.index()];
        if let Some(w) = &n.wants {
            w.set_active(false, now);
        }
        if let Some(x) = &n.cancel_when {
            x.set_active(true, now);
        }
        for &t in n.reset_timers.iter() {
            c.m.changes.touch_world();
            c.m.world.reset_timer(t);
        }
        if let Some(e) = &n.emotion_event {
            c.m.world.emotion_event(e);
        }
        self.hook(to, Hook::Activated, events);
    }

    /// `respondToUserIntents`: activate the matching pending intent for `id` as a scoped
    /// effect. If another intent is active, it is superseded (the original overwrote it).
    pub(super) fn claim_respond_intent(&mut self, id: BehaviorId) {
        let c = &mut self.core;
        let n = &c.s.nodes[id.index()];
        if n.respond.is_empty() {
            return;
        }
        let Some(m) =
            c.m.intents
                .pending()
                .and_then(|p| n.respond.iter().find(|m| m.matches(p.intent())))
        else {
            tracing::warn!(behavior = %n.name, "Behavior.RespondToUserIntents.NothingPending");
            return;
        };
        c.m.changes.stamp(Inputs::INTENTS);
        match crate::behavior::core::activate(&mut c.m.intents, m, owner_of(id)) {
            Ok(g) => {
                c.m.next_effect += 1;
                c.m.effects[id.index()].push((EffectId::new(c.m.next_effect), Effect::Intent(g)));
            }
            Err(e) => {
                tracing::warn!(behavior = %n.name, error = %e, "Behavior.RespondToUserIntents.ClaimFailed")
            }
        }
    }

    /// Pops the top frame. `notify`: the frame below gets `end` for its continuation.
    pub(super) fn pop_top(&mut self, end: BehaviorEnd, notify: bool, events: &[E]) {
        let Some(mut frame) = self.core.s.stack.pop() else {
            return;
        };
        let id = frame.id;
        self.core.stack_changes += 1;
        self.core.m.changes.stamp(Inputs::STACK);
        if let Some(mut a) = frame.action.take() {
            a.on_end(ActionEnd::Interrupted);
            tracing::debug!(action = a.name(), "Behavior.Action.Interrupted");
        }
        let now = self.core.s.clock.now();
        let tick = self.core.s.clock.tick();
        {
            let n = &mut self.core.s.nodes[id.index()];
            n.stack_pos = u32::MAX;
            n.state = if n.scope_count > 0 {
                LifecycleState::InScope
            } else {
                LifecycleState::OutOfScope
            };
            tracing::debug!(behavior = %n.name, ?end, "Behavior.Deactivated");
        }
        // Its delegates leave scope before its class hook runs, as the original's stack
        // popped them.
        for k in 0..self.core.s.nodes[id.index()].delegates.len() {
            let d = self.core.s.nodes[id.index()].delegates[k];
            self.leave_scope(d, events);
        }
        self.hook(id, Hook::Deactivated, events);
        let c = &mut self.core;
        let n = &mut c.s.nodes[id.index()];
        n.last_ran = Some(now);
        if let Some(x) = &n.cancel_when {
            x.set_active(false, now);
        }
        if let Some(w) = n.wants.as_ref().filter(|_| n.scope_count > 0) {
            w.set_active(true, now);
        }
        // Spec deactivation step (5): its track lock, and the holds its class kept.
        if let Some(lock) = frame.lock {
            c.locking_frames -= 1;
            if let Some(locks) = c.m.track_locks.as_mut() {
                locks.unlock(lock);
            }
        }
        self.release_holds(id);
        let c = &mut self.core;
        let n = &c.s.nodes[id.index()];
        if let Some(s) = n.post_suggestion {
            c.m.changes.touch_world();
            c.m.world.offer_suggestion(s, tick);
        }
        // Scoped effects, in reverse order.
        if !c.m.effects[id.index()].is_empty() {
            c.m.changes.stamp(Inputs::INTENTS);
        }
        while let Some((_, e)) = c.m.effects[id.index()].pop() {
            tracing::trace!(behavior = %c.s.nodes[id.index()].name, kind = e.kind(), "Behavior.Effect.Undone");
            e.undo(&mut c.m.intents);
        }
        if let (true, Some(below)) = (notify, c.s.stack.last_mut()) {
            let cont = std::mem::replace(&mut below.cont, Continuation::None);
            if let Continuation::Call(k) = cont {
                below.ready = Some((k, DelegationOutcome::Behavior { id, end }));
            }
        }
    }
}
