//! [`Runner`]: the only caller of behavior hooks. It owns the tree (an arena), the stack,
//! the intent component and the virtual clock, and enforces the lifecycle in every build.
//!
//! # One tick ([`Runner::tick`])
//!
//! 1. The clock advances by `dt`. The intent component's events since the previous tick
//!    started are collected, the component is updated (cloud queue, expiry) and its new
//!    events appended: this is the tick's intent-event list, delivered to behaviors before
//!    anything clears it.
//! 2. If the stack is empty, the base behavior is pushed when it wants to be activated.
//! 3. The stack is walked bottom to top, re-reading its length, so a behavior pushed during
//!    the walk is processed on the same tick. Each frame step: the frame's action is
//!    stepped (its end makes the continuation ready); events are delivered to the scopes the
//!    behavior handles; a ready continuation runs; `update` runs; then the behavior is ended
//!    if its `wantsToCancelSelfCondition` holds, or if it `always_delegates` and is not
//!    delegating. Requests made by a hook are applied, in order, as soon as it returns.
//! 4. Every behavior in scope but not active that has not been updated this tick is updated
//!    (the scope set is maintained incrementally with reference counts; nothing is
//!    recomputed per tick). Classes that declare they need no update while inactive
//!    ([`Behavior::updates_while_inactive`]) and handle no events are kept off the list this
//!    pass walks, so they cost nothing here.
//!
//! # Guarantees (checked in release builds; a broken rule is a [`RunnerError`])
//! * A behavior is activated only on a tick on which its `wants_to_be_activated` (with its
//!   `respondToUserIntents` and condition) returned true.
//! * Only active behaviors are deactivated; deactivation pops everything above first, runs
//!   `on_deactivated`, then undoes the behavior's scoped effects in reverse order.
//! * Exactly one `update` per tick for each active behavior and each behavior in scope
//!   whose class [updates while inactive](Behavior::updates_while_inactive). A behavior pushed
//!   on tick T gets its first `update` on tick T (unless it was already updated on T, e.g.
//!   popped and re-pushed within the tick).
//! * Only the top of the stack, not running an action, may delegate, and only to a declared
//!   delegate.
//!
//! # Continuations
//! A delegation's continuation runs in the delegator's next frame step, before its
//! `update`: on the same tick when an action ends (actions are stepped first in the frame
//! step) and on the next tick when a delegate behavior ends itself (it sits above the
//! delegator in the walk). `cancel_delegates(true)` runs it right after the cancelling hook.

use std::collections::VecDeque;
use std::time::Duration;

use super::action::{ActionEnd, ActionStatus};
use super::clock::VirtualClock;
use super::core::{
    reset_timer, BehaviorEnd, BehaviorEvent, Behaviors, Command, Continuation, Ctx,
    DelegationOutcome, Effect, EffectId, ErrorLog, EventScope, EventScopes, Frame, Invariant,
    LifecycleState, Mutable, RunnerError, Shared, Slot, View,
};
use super::ids::{BehaviorId, BehaviorName};
use super::tree::Tree;
use super::{Behavior, IntentUnion};
use crate::intent::{ClaimError, IntentComponent, IntentEvent};

/// Runs a behavior tree. See the [module documentation](self) for the tick and the
/// guarantees.
pub struct Runner<U: IntentUnion, E: 'static = ()> {
    behaviors: Vec<Slot<U, E>>,
    core: Core<U, E>,
}

struct Core<U: IntentUnion, E: 'static> {
    /// What hooks read.
    s: Shared<U, E>,
    /// What hooks change.
    m: Mutable<U>,
    names: std::collections::HashMap<BehaviorName, BehaviorId>,
    base: BehaviorId,
    in_scope: Vec<BehaviorId>,
    /// The subset of `in_scope` that needs a call while inactive: classes that update while
    /// inactive or handle events. The in-scope pass walks only this list.
    in_scope_work: Vec<BehaviorId>,
    stack_changes: u64,
}

/// A behavior's (`wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`).
pub type ConditionPair<'a, U, E> = (
    Option<&'a super::Condition<U, E>>,
    Option<&'a super::Condition<U, E>>,
);

/// Which hook to call (internal).
#[derive(Clone, Copy)]
enum Hook {
    Activated,
    Update,
    Deactivated,
    EnteredScope,
    LeftScope,
}

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// A runner for `tree`, driving `intents`. The base behavior enters scope now and is
    /// pushed on the first tick on which it wants to be activated.
    pub fn new(tree: Tree<U, E>, intents: IntentComponent<U>) -> Self {
        let n = tree.nodes.len();
        let mut r = Self {
            behaviors: tree.behaviors,
            core: Core {
                s: Shared {
                    nodes: tree.nodes,
                    stack: Vec::with_capacity(16),
                    ievents: Vec::with_capacity(64),
                    clock: VirtualClock::default(),
                },
                m: Mutable {
                    intents,
                    timers: Vec::new(),
                    effects: (0..n).map(|_| Vec::new()).collect(),
                    next_effect: 0,
                    cmds: VecDeque::with_capacity(16),
                    errors: ErrorLog::new(),
                },
                names: tree.names,
                base: tree.base,
                in_scope: Vec::with_capacity(n),
                in_scope_work: Vec::with_capacity(n),
                stack_changes: 0,
            },
        };
        let base = r.core.base;
        r.enter_scope(base, &[]);
        r.apply(&[]);
        r
    }

    // ----- queries -------------------------------------------------------------------------

    /// The intent component.
    pub fn intents(&self) -> &IntentComponent<U> {
        &self.core.m.intents
    }
    /// The intent component, mutably (to feed cloud results, trigger words... between
    /// ticks). Events it emits are delivered to behaviors on the next tick.
    pub fn intents_mut(&mut self) -> &mut IntentComponent<U> {
        &mut self.core.m.intents
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.core.s.clock
    }
    /// The stack, bottom to top.
    pub fn stack(&self) -> impl DoubleEndedIterator<Item = BehaviorId> + ExactSizeIterator + '_ {
        self.core.s.stack.iter().map(|f| f.id)
    }
    /// The top of the stack.
    pub fn top(&self) -> Option<BehaviorId> {
        self.core.s.stack.last().map(|f| f.id)
    }
    /// The stack as names, bottom to top (allocates; for tests and tools).
    pub fn stack_names(&self) -> Vec<&str> {
        self.stack()
            .map(|id| self.core.s.nodes[id.index()].name.as_str())
            .collect()
    }
    /// True when `id` is on the stack.
    pub fn is_on_stack(&self, id: BehaviorId) -> bool {
        self.core.s.stack.iter().any(|f| f.id == id)
    }
    /// True when the frame of `id` runs an action.
    pub fn is_running_action(&self, id: BehaviorId) -> bool {
        self.core
            .s
            .stack
            .iter()
            .any(|f| f.id == id && f.action.is_some())
    }
    /// The name of the action the frame of `id` runs, if any (for tools: the inspector).
    pub fn running_action(&self, id: BehaviorId) -> Option<&str> {
        self.core
            .s
            .stack
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.action.as_deref())
            .map(|a| a.name())
    }
    /// Behaviors in scope, in no particular order.
    pub fn in_scope(&self) -> &[BehaviorId] {
        &self.core.in_scope
    }
    /// Lifecycle state of `id`.
    pub fn state(&self, id: BehaviorId) -> Option<LifecycleState> {
        self.core.s.nodes.get(id.index()).map(|n| n.state)
    }
    /// Number of behaviors.
    pub fn len(&self) -> usize {
        self.core.s.nodes.len()
    }
    /// Never true for a built runner.
    pub fn is_empty(&self) -> bool {
        self.core.s.nodes.is_empty()
    }
    /// The ID of a name.
    pub fn id(&self, name: &str) -> Option<BehaviorId> {
        self.core.names.get(&BehaviorName::new(name).ok()?).copied()
    }
    /// The name of `id`.
    pub fn name(&self, id: BehaviorId) -> Option<&BehaviorName> {
        self.core.s.nodes.get(id.index()).map(|n| &n.name)
    }
    /// The class of `id`.
    pub fn class(&self, id: BehaviorId) -> Option<&str> {
        self.core.s.nodes.get(id.index()).map(|n| &*n.class)
    }
    /// The debug label of `id`.
    pub fn label(&self, id: BehaviorId) -> Option<&str> {
        self.core.s.nodes.get(id.index()).map(|n| &*n.label)
    }
    /// Declared delegates of `id`.
    pub fn delegates(&self, id: BehaviorId) -> &[BehaviorId] {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(&[], |n| &n.delegates)
    }
    /// The base (root) behavior.
    pub fn base(&self) -> BehaviorId {
        self.core.base
    }
    /// True for an opaque stand-in.
    pub fn is_opaque(&self, id: BehaviorId) -> bool {
        self.core.s.nodes.get(id.index()).is_some_and(|n| n.opaque)
    }
    /// Raw JSON of an opaque stand-in.
    pub fn raw_params(&self, id: BehaviorId) -> Option<&serde_json::Value> {
        self.core
            .s
            .nodes
            .get(id.index())
            .and_then(|n| n.raw.as_ref())
    }
    /// The behavior object of `id` (for inspection; e.g. `claim_sites`).
    pub fn behavior(&self, id: BehaviorId) -> Option<&dyn Behavior<U, E>> {
        self.behaviors.get(id.index()).map(|b| &**b)
    }
    /// The name of an intent's owner: the behavior's name for [`Owner::Behavior`] of this
    /// tree, the name for [`Owner::Named`].
    ///
    /// [`Owner::Behavior`]: crate::intent::Owner::Behavior
    /// [`Owner::Named`]: crate::intent::Owner::Named
    pub fn owner_name<'a>(&'a self, owner: &'a crate::intent::Owner) -> Option<&'a str> {
        match owner {
            crate::intent::Owner::Behavior(id) => self.name(*id).map(BehaviorName::as_str),
            crate::intent::Owner::Named(n) => Some(n),
        }
    }
    /// The behavior's [`debug_state`](Behavior::debug_state) (a state machine's state).
    pub fn debug_state(&self, id: BehaviorId) -> Option<&str> {
        self.behavior(id).and_then(|b| b.debug_state())
    }
    /// `respondToUserIntents` of `id`.
    pub fn respond_matchers(&self, id: BehaviorId) -> &[crate::intent::IntentMatcher<U>] {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(&[], |n| &n.respond)
    }
    /// Conditions of `id`: (`wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`).
    pub fn conditions(&self, id: BehaviorId) -> ConditionPair<'_, U, E> {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or((None, None), |n| (n.wants.as_ref(), n.cancel_when.as_ref()))
    }
    /// Errors of the last tick (bounded to 64; see [`lost_errors`](Self::lost_errors)).
    pub fn errors(&self) -> &[RunnerError] {
        &self.core.m.errors.errors
    }
    /// Errors not kept because the per-tick list was full (they were logged).
    pub fn lost_errors(&self) -> u64 {
        self.core.m.errors.lost
    }
    /// The intent events delivered on the last tick.
    pub fn intent_events(&self) -> &[IntentEvent<U::Tag>] {
        &self.core.s.ievents
    }
    /// Number of stack changes since start.
    pub fn stack_changes(&self) -> u64 {
        self.core.stack_changes
    }
    /// Number of scoped effects `id` holds.
    pub fn effect_count(&self, id: BehaviorId) -> usize {
        self.core.m.effects.get(id.index()).map_or(0, Vec::len)
    }
    /// A read-only view for `id` (to evaluate conditions from tests and tools).
    pub fn view(&self, id: BehaviorId) -> View<'_, U, E> {
        View {
            me: id,
            state_since: None,
            s: &self.core.s,
            m: &self.core.m,
            behaviors: Behaviors::all(&self.behaviors),
            events: &[],
        }
    }

    // ----- ticking -------------------------------------------------------------------------

    /// One tick of `dt` virtual time with this tick's user `events`. Allocation-free in
    /// steady state (no stack change, no event).
    pub fn tick(&mut self, dt: Duration, events: &[E]) {
        let c = &mut self.core;
        c.s.clock.advance(dt);
        c.m.errors.errors.clear();
        c.s.ievents.clear();
        // (Draining an empty buffer is not free; most ticks have no event.)
        if !c.m.intents.events().is_empty() {
            c.s.ievents.extend(c.m.intents.drain_events());
        }
        c.m.intents.update();
        if !c.m.intents.events().is_empty() {
            c.s.ievents.extend(c.m.intents.drain_events());
        }
        let tick = c.s.clock.tick();
        if c.s.stack.is_empty() {
            let base = c.base;
            if self.view(base).wants_to_activate(base) {
                self.push(None, base, Continuation::None, events);
                self.apply(events);
            }
        }
        let mut i = 0;
        while i < self.core.s.stack.len() {
            self.step_frame(i, events);
            i += 1;
        }
        // In scope, not active. Nothing here can change the stack or the scope (only active
        // behaviors may delegate or end), so the list is stable during the pass.
        let has_events = !events.is_empty() || !self.core.s.ievents.is_empty();
        let mut j = 0;
        while let Some(&id) = self.core.in_scope_work.get(j) {
            j += 1;
            let Some(n) = self.core.s.nodes.get_mut(id.index()) else {
                continue;
            };
            if n.state != LifecycleState::InScope || n.last_update == tick {
                continue;
            }
            n.last_update = tick;
            let update = n.updates_inactive;
            if has_events && !n.event_scopes.is_empty() {
                self.deliver_events(id, false, events);
            }
            if update {
                self.with_ctx(id, events, |b, c| b.update(c));
                self.apply(events);
            }
        }
    }

    /// Replaces the stack with `stack` (names or IDs bottom to top; the first must be the
    /// base), as the original's test "named stacks" do: the current stack is popped
    /// (interrupting everything), then each behavior is pushed in order, each a declared
    /// delegate of the one below. `wants_to_be_activated` is not consulted (a test
    /// fixture). Checked before anything changes.
    pub fn replace_stack(&mut self, stack: &[BehaviorId]) -> Result<(), RunnerError> {
        for (k, id) in stack.iter().enumerate() {
            let ok = id.index() < self.core.s.nodes.len()
                && if k == 0 {
                    *id == self.core.base
                } else {
                    self.core.s.nodes[stack[k - 1].index()]
                        .delegates
                        .contains(id)
                        && !stack[..k].contains(id)
                };
            if !ok {
                let e = RunnerError::InvalidStack { position: k };
                self.core.m.errors.push(e);
                return Err(e);
            }
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

    /// Checks every runner invariant (O(tree size); for tests and diagnostics): stack
    /// frames active, unique and chained by declared delegates; no active behavior off the
    /// stack; scope counts equal to what the stack implies; every behavior in scope or
    /// active updated exactly once on the last tick; activation on a tick where the
    /// behavior wanted to activate.
    pub fn check_invariants(&self) -> Result<(), Invariant> {
        let c = &self.core;
        let tick = c.s.clock.tick();
        for (k, f) in c.s.stack.iter().enumerate() {
            let n = &c.s.nodes[f.id.index()];
            if n.state != LifecycleState::Active || c.s.stack[..k].iter().any(|g| g.id == f.id) {
                return Err(Invariant::Stack(k));
            }
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
            if n.activated_wants_tick != n.activated_tick {
                return Err(Invariant::ActivatedWithoutWants(f.id));
            }
        }
        let mut counts = vec![0u32; c.s.nodes.len()];
        counts[c.base.index()] += 1;
        for f in &c.s.stack {
            for d in c.s.nodes[f.id.index()].delegates.iter() {
                counts[d.index()] += 1;
            }
        }
        for (i, n) in c.s.nodes.iter().enumerate() {
            let id = BehaviorId::from_index(i);
            if n.state == LifecycleState::Active && !c.s.stack.iter().any(|f| f.id == id) {
                return Err(Invariant::ActiveOffStack(id));
            }
            let listed =
                n.scope_pos != u32::MAX && c.in_scope.get(n.scope_pos as usize) == Some(&id);
            if n.scope_count != counts[i]
                || listed != (counts[i] > 0)
                || (n.state == LifecycleState::OutOfScope) != (counts[i] == 0)
            {
                return Err(Invariant::ScopeCount(id));
            }
            let needs_update = n.state == LifecycleState::Active
                || (n.state == LifecycleState::InScope && n.updates_inactive);
            if tick > 0 && needs_update && n.last_update != tick {
                return Err(Invariant::MissedUpdate(id));
            }
            let worker = counts[i] > 0 && (n.updates_inactive || !n.event_scopes.is_empty());
            let work_listed =
                n.work_pos != u32::MAX && c.in_scope_work.get(n.work_pos as usize) == Some(&id);
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

    // ----- internals -----------------------------------------------------------------------

    /// Calls `f` on behavior `id` with a context (None for an unknown ID, which the runner's
    /// own paths never pass). The arena is split around `id`: the hook has its behavior
    /// mutably and the others shared.
    #[inline]
    fn with_ctx<R>(
        &mut self,
        id: BehaviorId,
        events: &[E],
        f: impl FnOnce(&mut dyn Behavior<U, E>, &mut Ctx<'_, U, E>) -> R,
    ) -> Option<R> {
        let (before, rest) = self.behaviors.split_at_mut_checked(id.index())?;
        let (b, after) = rest.split_first_mut()?;
        let c = &mut self.core;
        let mut ctx = Ctx {
            me: id,
            cancel_queued: false,
            delegation_queued: false,
            end_queued: false,
            state_since: None,
            s: &c.s,
            m: &mut c.m,
            behaviors: Behaviors { before, after },
            events,
        };
        Some(f(&mut **b, &mut ctx))
    }

    fn hook(&mut self, id: BehaviorId, hook: Hook, events: &[E]) {
        self.with_ctx(id, events, |b, c| match hook {
            Hook::Activated => b.on_activated(c),
            Hook::Update => b.update(c),
            Hook::Deactivated => b.on_deactivated(c),
            Hook::EnteredScope => b.on_entered_scope(c),
            Hook::LeftScope => b.on_left_scope(c),
        });
    }

    fn update(&mut self, id: BehaviorId, events: &[E]) {
        let tick = self.core.s.clock.tick();
        let n = &mut self.core.s.nodes[id.index()];
        if n.last_update == tick {
            self.core
                .m
                .errors
                .push(RunnerError::Invariant(Invariant::DoubleUpdate(id)));
            return;
        }
        n.last_update = tick;
        self.hook(id, Hook::Update, events);
        self.apply(events);
    }

    #[inline]
    fn deliver(&mut self, id: BehaviorId, active: bool, events: &[E]) {
        let has_events = !events.is_empty() || !self.core.s.ievents.is_empty();
        if has_events && !self.core.s.nodes[id.index()].event_scopes.is_empty() {
            self.deliver_events(id, active, events);
        }
    }

    /// Delivers the tick's events to the scopes `id` handles.
    #[inline(never)]
    fn deliver_events(&mut self, id: BehaviorId, active: bool, events: &[E]) {
        let scopes = self.core.s.nodes[id.index()].event_scopes;
        let s2 = if active {
            EventScope::WhileActivated
        } else {
            EventScope::WhileInScopeNotActivated
        };
        for scope in [EventScope::AlwaysInScope, s2] {
            if !scopes.contains(scope) {
                continue;
            }
            for k in 0..events.len() {
                self.with_ctx(id, events, |b, c| {
                    let evs = c.events;
                    b.handle_event(BehaviorEvent::User(&evs[k]), scope, c)
                });
                self.apply(events);
            }
            for k in 0..self.core.s.ievents.len() {
                self.with_ctx(id, events, |b, c| {
                    let evs = &c.s.ievents;
                    b.handle_event(BehaviorEvent::Intent(&evs[k]), scope, c)
                });
                self.apply(events);
            }
        }
    }

    fn still_at(&self, i: usize, id: BehaviorId) -> bool {
        self.core.s.stack.get(i).is_some_and(|f| f.id == id)
    }

    fn step_frame(&mut self, i: usize, events: &[E]) {
        let Some(frame) = self.core.s.stack.get(i) else {
            return;
        };
        let id = frame.id;
        // 1. the frame's action
        if frame.action.is_some() {
            self.step_action(i);
        }
        // 2. events
        self.deliver(id, true, events);
        // 3. continuation
        if self.core.s.stack.get(i).is_some_and(|f| f.ready.is_some()) {
            self.run_ready(i, id, events);
        }
        // 4. update
        if self.still_at(i, id) {
            self.update(id, events);
        }
        // 5. self-cancel rules
        if self.still_at(i, id) {
            let n = &self.core.s.nodes[id.index()];
            if n.cancel_rule || (n.always_delegates && i + 1 == self.core.s.stack.len()) {
                self.cancel_self_rules(i, id, events);
            }
        }
    }

    /// Steps the action of frame `i`; when it ends, its continuation becomes ready.
    #[inline(never)]
    fn step_action(&mut self, i: usize) {
        let clock = self.core.s.clock;
        let Some(frame) = self.core.s.stack.get_mut(i) else {
            return;
        };
        let Some(a) = frame.action.as_mut() else {
            return;
        };
        let end = match a.step(&clock) {
            ActionStatus::Running => return,
            ActionStatus::Succeeded => ActionEnd::Succeeded,
            ActionStatus::Failed => ActionEnd::Failed,
        };
        if let Some(mut a) = frame.action.take() {
            a.on_end(end);
            tracing::debug!(action = a.name(), ?end, "Behavior.Action.Ended");
        }
        if let Continuation::Call(k) = std::mem::replace(&mut frame.cont, Continuation::None) {
            frame.ready = Some((k, DelegationOutcome::Action(end)));
        }
    }

    /// Ends the behavior of frame `i` if its `wantsToCancelSelfCondition` holds, or if it
    /// always delegates and is not delegating.
    #[inline(never)]
    fn cancel_self_rules(&mut self, i: usize, id: BehaviorId, events: &[E]) {
        let n = &self.core.s.nodes[id.index()];
        let cancel = n
            .cancel_when
            .as_ref()
            .is_some_and(|c| c.eval(&self.view(id)));
        let idle = n.always_delegates
            && i + 1 == self.core.s.stack.len()
            && self.core.s.stack[i].action.is_none()
            && self.core.s.stack[i].ready.is_none();
        if cancel || idle {
            tracing::debug!(
                behavior = %n.name,
                reason = if cancel { "wantsToCancelSelfCondition" } else { "always_delegates" },
                "Behavior.CancelSelf"
            );
            self.core.m.cmds.push_back(Command::End {
                from: id,
                end: BehaviorEnd::Finished,
            });
            self.apply(events);
        }
    }

    #[inline(never)]
    fn run_ready(&mut self, i: usize, id: BehaviorId, events: &[E]) {
        if !self.still_at(i, id) {
            return;
        }
        if let Some((k, outcome)) = self.core.s.stack[i].ready.take() {
            tracing::debug!(behavior = %self.core.s.nodes[id.index()].name, step = k, ?outcome, "Behavior.Continuation");
            self.with_ctx(id, events, |b, c| b.on_delegation_done(k, outcome, c));
            self.apply(events);
        }
    }

    fn frame_of(&self, id: BehaviorId) -> Option<usize> {
        self.core.s.stack.iter().rposition(|f| f.id == id)
    }

    /// Applies queued requests in order (hooks they call may queue more).
    #[inline]
    fn apply(&mut self, events: &[E]) {
        if !self.core.m.cmds.is_empty() {
            self.apply_queued(events);
        }
    }

    fn apply_queued(&mut self, events: &[E]) {
        while let Some(cmd) = self.core.m.cmds.pop_front() {
            match cmd {
                Command::Delegate { from, to, cont } => {
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
                    if n.wants_tick.get() != self.core.s.clock.tick() {
                        self.core
                            .m
                            .errors
                            .push(RunnerError::DoesNotWantToActivate { behavior: to });
                        continue;
                    }
                    self.push(Some(from), to, cont, events);
                }
                Command::Action {
                    from,
                    mut action,
                    cont,
                } => {
                    let Some(f) = self
                        .core
                        .s
                        .stack
                        .last_mut()
                        .filter(|f| f.id == from && f.action.is_none())
                    else {
                        self.core
                            .m
                            .errors
                            .push(RunnerError::NotInControl { behavior: from });
                        action.on_end(ActionEnd::Cancelled);
                        continue;
                    };
                    tracing::debug!(action = action.name(), "Behavior.Action.Started");
                    action.start(&self.core.s.clock);
                    f.action = Some(action);
                    f.cont = cont;
                    f.ready = None;
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

    /// Cancels what frame `i` delegated to.
    fn cancel_above(&mut self, i: usize, run_continuation: bool, events: &[E]) {
        let id = self.core.s.stack[i].id;
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
        f.ready = None;
        if let (true, Continuation::Call(k), Some(o)) = (run_continuation, cont, outcome) {
            self.with_ctx(id, events, |b, c| b.on_delegation_done(k, o, c));
        }
    }

    fn push(&mut self, from: Option<BehaviorId>, to: BehaviorId, cont: Continuation, events: &[E]) {
        if let Some(f) = self.core.s.stack.last_mut() {
            f.cont = cont;
            f.ready = None;
        }
        let now = self.core.s.clock.now();
        let tick = self.core.s.clock.tick();
        self.core.s.stack.push(Frame {
            id: to,
            action: None,
            cont: Continuation::None,
            ready: None,
        });
        self.core.stack_changes += 1;
        let n = &mut self.core.s.nodes[to.index()];
        n.state = LifecycleState::Active;
        n.activated_at = now;
        n.activated_tick = tick;
        n.activated_wants_tick = n.wants_tick.get();
        let n = &self.core.s.nodes[to.index()];
        tracing::debug!(
            behavior = %n.name,
            from = from.map(|f| self.core.s.nodes[f.index()].name.as_str()).unwrap_or("<root>"),
            depth = self.core.s.stack.len(),
            "Behavior.Activated"
        );
        let n = &self.core.s.nodes[to.index()];
        for k in 0..n.reset_timers.len() {
            let name = &self.core.s.nodes[to.index()].reset_timers[k];
            reset_timer(&mut self.core.m.timers, name, now);
        }
        for k in 0..self.core.s.nodes[to.index()].delegates.len() {
            let d = self.core.s.nodes[to.index()].delegates[k];
            self.enter_scope(d, events);
        }
        self.claim_respond_intent(to);
        self.hook(to, Hook::Activated, events);
    }

    /// `respondToUserIntents`: activate the matching pending intent for `id` as a scoped
    /// effect. If another intent is active, it is superseded (the original overwrote it).
    fn claim_respond_intent(&mut self, id: BehaviorId) {
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
        let owner = super::core::owner_of(id);
        let guard = match c.m.intents.activate_matching(m, owner.clone()) {
            Ok(g) => Ok(g),
            Err(ClaimError::AlreadyActive { .. }) => {
                let tag = m.target_tag();
                tracing::warn!(behavior = %n.name, "Behavior.RespondToUserIntents.SupersedingActive");
                c.m.intents.activate_replacing(tag, owner)
            }
            Err(e) => Err(e),
        };
        match guard {
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
    fn pop_top(&mut self, end: BehaviorEnd, notify: bool, events: &[E]) {
        let Some(mut frame) = self.core.s.stack.pop() else {
            return;
        };
        let id = frame.id;
        self.core.stack_changes += 1;
        if let Some(mut a) = frame.action.take() {
            a.on_end(ActionEnd::Interrupted);
            tracing::debug!(action = a.name(), "Behavior.Action.Interrupted");
        }
        let n = &mut self.core.s.nodes[id.index()];
        n.state = if n.scope_count > 0 {
            LifecycleState::InScope
        } else {
            LifecycleState::OutOfScope
        };
        tracing::debug!(behavior = %n.name, ?end, "Behavior.Deactivated");
        self.hook(id, Hook::Deactivated, events);
        // Scoped effects, in reverse order.
        while let Some((_, e)) = self.core.m.effects[id.index()].pop() {
            tracing::trace!(behavior = %self.core.s.nodes[id.index()].name, kind = e.kind(), "Behavior.Effect.Undone");
            e.undo(&mut self.core.m.intents);
        }
        for k in 0..self.core.s.nodes[id.index()].delegates.len() {
            let d = self.core.s.nodes[id.index()].delegates[k];
            self.leave_scope(d, events);
        }
        if let (true, Some(below)) = (notify, self.core.s.stack.last_mut()) {
            let cont = std::mem::replace(&mut below.cont, Continuation::None);
            if let Continuation::Call(k) = cont {
                below.ready = Some((k, DelegationOutcome::Behavior { id, end }));
            }
        }
    }

    fn enter_scope(&mut self, id: BehaviorId, events: &[E]) {
        let c = &mut self.core;
        let n = &mut c.s.nodes[id.index()];
        n.scope_count += 1;
        if n.scope_count == 1 {
            n.scope_pos = c.in_scope.len() as u32;
            c.in_scope.push(id);
            if n.updates_inactive || !n.event_scopes.is_empty() {
                n.work_pos = c.in_scope_work.len() as u32;
                c.in_scope_work.push(id);
            }
            if n.state == LifecycleState::OutOfScope {
                n.state = LifecycleState::InScope;
            }
            tracing::trace!(behavior = %n.name, "Behavior.EnteredScope");
            self.hook(id, Hook::EnteredScope, events);
        }
    }

    fn leave_scope(&mut self, id: BehaviorId, events: &[E]) {
        let c = &mut self.core;
        let n = &mut c.s.nodes[id.index()];
        if n.scope_count == 0 {
            c.m.errors
                .push(RunnerError::Invariant(Invariant::ScopeCount(id)));
            return;
        }
        n.scope_count -= 1;
        if n.scope_count == 0 {
            let pos = n.scope_pos as usize;
            n.scope_pos = u32::MAX;
            if n.state == LifecycleState::Active {
                c.m.errors
                    .push(RunnerError::Invariant(Invariant::ScopeCount(id)));
            }
            n.state = LifecycleState::OutOfScope;
            tracing::trace!(behavior = %n.name, "Behavior.LeftScope");
            let wpos = std::mem::replace(&mut n.work_pos, u32::MAX);
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
    }
}

impl<U: IntentUnion, E: 'static> std::fmt::Debug for Runner<U, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("tick", &self.core.s.clock.tick())
            .field("stack", &self.stack_names())
            .field("in_scope", &self.core.in_scope.len())
            .finish_non_exhaustive()
    }
}

#[allow(dead_code)]
fn _assert_scopes(_: EventScopes) {}
