//! [`Runner`]: the only caller of behavior hooks. It owns the tree (an arena), the stack,
//! the intent component, the [`World`], the action factory and the virtual clock, and
//! enforces the lifecycle in every build.
//!
//! # One tick ([`Runner::tick`])
//!
//! 1. The clock advances by `dt` (the world's time follows). The intent component's
//!    events since the previous tick started are collected, the component is updated (cloud
//!    queue, expiry) and its new events appended: this is the tick's intent-event list,
//!    delivered to behaviors before anything clears it. Each new pending intent adjusts the
//!    whiteboard's exploring cooldown (spec §3.3).
//! 2. If the stack is empty, the base behavior is pushed when it wants to be activated.
//! 3. The stack is walked bottom to top by index, re-reading its length, so a behavior
//!    pushed during the walk is processed on the same tick, and a behavior that ends itself
//!    leaves the ones below already updated (its parent notices on the next tick). Each
//!    frame step: the frame's action is stepped (its end makes the continuation ready);
//!    events are delivered to the scopes the behavior handles; a ready continuation runs if
//!    nothing is delegated; `update` runs; then, if still active, the behavior ends when it
//!    always delegates and delegates nothing, else when its `wantsToCancelSelfCondition`
//!    holds. Requests made by a hook are applied, in order, as soon as it returns.
//! 4. Every behavior in scope but not active that has not been updated this tick is updated
//!    (the scope set is maintained incrementally with reference counts; nothing is
//!    recomputed per tick). Classes that need no update while inactive
//!    ([`Behavior::updates_while_inactive`]) and handle no events are kept off the list this
//!    pass walks, so they cost nothing here.
//!
//! # Work in proportion to what changed
//! A behavior's `WantsToBeActivated`, a strict-priority dispatcher's choice and a state
//! machine's transitions are kept with what they read (see [`wakeup`](super::wakeup)) and
//! reused until one of those inputs changes or a time they wait for comes: on a steady tick
//! a dispatcher's update is one check, whatever the number of its children, and no
//! condition is evaluated. The result is the same as asking everything
//! ([`Runner::set_caching`] turns it off; the differential tests compare both). After a
//! tick that changed nothing, [`Runner::next_wakeup`] says when something can next happen,
//! and [`Runner::skip_idle_ticks`] jumps there.
//!
//! Activatable scope is the declared delegates of every stack entry plus, recursively,
//! their linked scope ([`Behavior::linked_scope`]); entry and exit are reference counted.
//! Conditions follow the original's activation windows: a `wantsToBeActivatedCondition`
//! is switched on when its behavior enters scope, off while it is active, on again when it
//! is deactivated and off when it leaves scope; a `wantsToCancelSelfCondition` is on while
//! its behavior is active.
//!
//! Activation ([`push`](Runner)) in order: the frame is pushed, the delegates and their
//! linked scope enter scope; the behavior is marked active (activation time, start count);
//! its `respondToUserIntents` intent is activated for it; its conditions are switched; its
//! `resetTimers` are reset; its `emotionEventOnActivated` fires; then its class's
//! `on_activated`. Deactivation: the frame is popped and the delegates leave scope (before
//! the class hook, as the original's stack did); the class's `on_deactivated`; the last-run
//! time; the conditions are switched back; its `postBehaviorSuggestion` is offered to the
//! whiteboard; its scoped effects (the intent included) are undone in reverse order.
//!
//! # Guarantees (checked in release builds; a broken rule is a [`RunnerError`])
//! * A behavior is activated only on a tick on which it wanted to be activated (gates,
//!   conditions, `respondToUserIntents`, class).
//! * Only active behaviors are deactivated; deactivation pops everything above first.
//! * Exactly one `update` per tick for each active behavior and each behavior in scope
//!   whose class [updates while inactive](Behavior::updates_while_inactive). A behavior pushed
//!   on tick T gets its first `update` on tick T (unless it was already updated on T, e.g.
//!   popped and re-pushed within the tick).
//! * Only the top of the stack, not running an action, may delegate, and only to a declared
//!   delegate.
//! * The cost of a tick is linear in the depth of the stack: every per-frame lookup is
//!   O(1) (each node knows its stack position).
//!
//! # Continuations
//! A delegation's continuation runs in the delegator's next frame step, before its
//! `update`, when nothing is delegated: on the same tick when an action ends (actions are
//! stepped first in the frame step) and on the next tick when a delegate behavior ends
//! itself (it sits above the delegator in the walk). After `cancel_delegates(true)` it runs
//! at the behavior's next frame step, as the original ran the callback on the next update.

use std::cell::Cell;
use std::collections::VecDeque;
use std::time::Duration;

use super::action::{ActionEnd, ActionFactory, ActionStatus, SimulatedActions};
use super::changes::{Cached, Changes};
use super::clock::VirtualClock;
use super::condition::Condition;
use super::core::{
    owner_of, Behavior, BehaviorEnd, BehaviorEvent, Behaviors, Command, Continuation, Ctx,
    DelegationOutcome, Effect, EffectId, ErrorLog, EventScope, Frame, Invariant, LifecycleState,
    Mutable, Node, OperationModifiers, RunnerError, Shared, Slot, View,
};
use super::ids::{BehaviorId, BehaviorName};
use super::tree::Tree;
use super::wakeup::{Inputs, Wakeup};
use super::world::{self, World};
use crate::intent::{IntentComponent, IntentEvent, IntentUnion};

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
    /// Scratch list for scope changes (linked scope is walked without recursion).
    scope_work: Vec<BehaviorId>,
    /// The change revision when the last tick returned.
    settled_rev: u64,
    /// Nothing changed during the last tick nor between it and the one before.
    quiet: bool,
}

/// A behavior's (`wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`).
pub type ConditionPair<'a, U, E> = (Option<&'a Condition<U, E>>, Option<&'a Condition<U, E>>);

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
    /// A runner for `tree`, driving `intents`, with the world the tree was loaded with (the
    /// registry's, [`Registry::set_world`](super::Registry::set_world); `()` for a tree built
    /// in code without one) and simulated actions. The base behavior enters scope now and
    /// is pushed on the first tick on which it wants to be activated.
    pub fn new(mut tree: Tree<U, E>, intents: IntentComponent<U>) -> Self {
        let world = std::mem::replace(&mut tree.world, Box::new(()));
        Self::with_world(tree, intents, world)
    }

    /// [`new`](Self::new) with `world` instead of the tree's.
    pub fn with_world(
        tree: Tree<U, E>,
        intents: IntentComponent<U>,
        world: Box<dyn World>,
    ) -> Self {
        // The hot part of a node stays 32 bytes (see `Node`).
        const { assert!(std::mem::size_of::<Node<U, E>>() == 32) };
        let n = tree.nodes.len();
        let mut r = Self {
            behaviors: tree.behaviors,
            core: Core {
                s: Shared {
                    nodes: tree.nodes,
                    stack: Vec::with_capacity(16),
                    ievents: Vec::with_capacity(64),
                    clock: VirtualClock::default(),
                    wants_cache: (0..n).map(|_| Cell::new(Cached::NONE)).collect(),
                    caching: true,
                },
                m: Mutable {
                    intents,
                    changes: Changes::new(&*world),
                    world,
                    suppressed: Vec::new(),
                    suppressed_tick: 0,
                    effects: (0..n).map(|_| Vec::new()).collect(),
                    next_effect: 0,
                    cmds: VecDeque::with_capacity(16),
                    errors: ErrorLog::new(),
                    rng: 0x9E37_79B9_7F4A_7C15,
                    actions: Box::new(SimulatedActions::default()),
                },
                names: tree.names,
                base: tree.base,
                in_scope: Vec::with_capacity(n),
                in_scope_work: Vec::with_capacity(n),
                stack_changes: 0,
                scope_work: Vec::with_capacity(16),
                settled_rev: 0,
                quiet: false,
            },
        };
        let base = r.core.base;
        r.enter_scope(base, &[]);
        r.apply(&[]);
        r
    }

    // ----- configuration ---------------------------------------------------------------------

    /// Replaces the action factory (animations, speech, turns, stand-ins). The default is
    /// [`SimulatedActions`].
    pub fn set_action_factory(&mut self, factory: Box<dyn ActionFactory>) {
        self.core.m.actions = factory;
    }
    /// Whether answers are reused while nothing they read changed (default on; see
    /// [`wakeup`](super::wakeup)): a behavior's `WantsToBeActivated` and a dispatcher's
    /// choice among its children are computed again only when one of their inputs changed
    /// or a time they wait for came. Off, everything is asked on every tick, as the
    /// original engine did: the same behavior, at the cost of asking (the differential
    /// tests compare both).
    pub fn set_caching(&mut self, on: bool) {
        self.core.s.caching = on;
    }
    /// Seeds the runner's random generator (random dispatchers, cooldown random factors).
    pub fn set_seed(&mut self, seed: u64) {
        self.core.m.rng = seed.max(1);
    }
    /// The world the conditions read, as `W` (None when it is of another type).
    pub fn world<W: World>(&self) -> Option<&W> {
        world::downcast(&*self.core.m.world)
    }
    /// The world, whatever its type.
    pub fn dyn_world(&self) -> &dyn World {
        &*self.core.m.world
    }
    /// The world as `W`, to change between ticks (changes are stamped with the last tick's
    /// time); None when it is of another type.
    pub fn world_mut<W: World>(&mut self) -> Option<&mut W> {
        self.core.m.changes.touch_world();
        world::downcast_mut(&mut *self.core.m.world)
    }
    /// The world, mutably, whatever its type.
    pub fn dyn_world_mut(&mut self) -> &mut dyn World {
        self.core.m.changes.touch_world();
        &mut *self.core.m.world
    }
    /// The world as `W`, mutably: a world of another type is first replaced by `make()`
    /// (see [`Ctx::world_mut_or_insert`]).
    pub fn world_mut_or_insert<W: World>(&mut self, make: impl FnOnce() -> W) -> &mut W {
        self.core.m.changes.touch_world();
        world::as_or_replace(&mut self.core.m.world, make)
    }
    /// Replaces the world (every answer that read it is asked again).
    pub fn set_world(&mut self, world: Box<dyn World>) {
        let (now, tick) = (self.core.s.clock.now(), self.core.s.clock.tick());
        self.core.m.changes.touch_world();
        self.core.m.world = world;
        self.core.m.world.set_clock(now, tick);
    }

    /// The revision of the runner's change stamps (see [`wakeup`](super::wakeup)): it grows
    /// with every change of an input the runner records (a robot-state field, the intent
    /// component, the stack). Read after each tick, it tells a tool which tick a revision of
    /// [`changed_at`](Self::changed_at) belongs to.
    pub fn revision(&self) -> u64 {
        self.core.m.changes.rev
    }

    /// The revision at which any of `inputs` last changed (0: not since the runner began).
    /// A robot-state field changed through [`robot_mut`](Self::robot_mut) since the last
    /// tick (the runner compares at the start of the next one) counts at the current
    /// [`revision`](Self::revision). Read-only.
    pub fn changed_at(&self, inputs: Inputs) -> u64 {
        self.core.m.changes.last_change(inputs, &*self.core.m.world)
    }

    /// The inputs that changed after revision `since` (a [`revision`](Self::revision) read
    /// earlier); a robot-state field changed through [`robot_mut`](Self::robot_mut) since the
    /// last tick counts. Read-only: a tool asks once what moved, then reads only that.
    pub fn changed_since(&self, since: u64) -> Inputs {
        self.core
            .m
            .changes
            .changed_since(since, &*self.core.m.world)
    }

    // ----- queries -------------------------------------------------------------------------

    /// The intent component.
    pub fn intents(&self) -> &IntentComponent<U> {
        &self.core.m.intents
    }
    /// The intent component, mutably (to feed cloud results, trigger words... between
    /// ticks). Events it emits are delivered to behaviors on the next tick.
    pub fn intents_mut(&mut self) -> &mut IntentComponent<U> {
        self.core.m.changes.stamp(Inputs::INTENTS);
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
        self.stack_pos(id).is_some()
    }
    /// The position of `id` on the stack (0: the base).
    pub fn stack_pos(&self, id: BehaviorId) -> Option<usize> {
        let p = self.core.s.nodes.get(id.index())?.stack_pos;
        (p != u32::MAX).then_some(p as usize)
    }
    /// True when the frame of `id` runs an action.
    pub fn is_running_action(&self, id: BehaviorId) -> bool {
        self.stack_pos(id)
            .is_some_and(|p| self.core.s.stack[p].action.is_some())
    }
    /// The name of the action the frame of `id` runs.
    pub fn action_of(&self, id: BehaviorId) -> Option<&str> {
        let p = self.stack_pos(id)?;
        self.core.s.stack[p].action.as_ref().map(|a| a.name())
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
    /// Declared delegates of `id`, in declared order (a strict-priority dispatcher's
    /// priority order, as its file lists them), each once.
    pub fn delegates(&self, id: BehaviorId) -> &[BehaviorId] {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(&[], |n| &n.declared)
    }
    /// The linked scope of `id`.
    pub fn linked_scope(&self, id: BehaviorId) -> &[BehaviorId] {
        self.core.s.nodes.get(id.index()).map_or(&[], |n| &n.linked)
    }
    /// The operation modifiers of `id`.
    pub fn modifiers(&self, id: BehaviorId) -> Option<OperationModifiers> {
        self.core.s.nodes.get(id.index()).map(|n| n.modifiers)
    }
    /// The base (root) behavior.
    pub fn base(&self) -> BehaviorId {
        self.core.base
    }
    /// True for a stand-in of a class not run natively.
    pub fn is_stand_in(&self, id: BehaviorId) -> bool {
        self.core
            .s
            .nodes
            .get(id.index())
            .is_some_and(|n| n.stand_in)
    }
    /// Raw JSON kept for a behavior (a stand-in's class keys).
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
    /// The active feature (spec §0): the `associatedActiveFeature` of the top-most stack
    /// entry that declares one other than `NoFeature`.
    pub fn active_feature(&self) -> Option<&str> {
        self.core
            .s
            .stack
            .iter()
            .rev()
            .find_map(|f| self.core.s.nodes[f.id.index()].active_feature.as_deref())
    }
    /// How many times `id` was activated.
    pub fn starts(&self, id: BehaviorId) -> u64 {
        self.core.s.nodes.get(id.index()).map_or(0, |n| n.starts)
    }
    /// The tick on which `id` last said it wants to be activated (0: never).
    pub fn wanted_on_tick(&self, id: BehaviorId) -> u64 {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(0, |n| n.wants_tick.get())
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
    /// A read-only view for `id` (to evaluate conditions from tests and tools; evaluating
    /// advances stateful conditions, as it would on the robot).
    pub fn view(&self, id: BehaviorId) -> View<'_, U, E> {
        View {
            me: id,
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
        self.tick_inner(dt, events);
        let c = &mut self.core;
        c.quiet = events.is_empty() && c.m.changes.rev == c.settled_rev;
        c.settled_rev = c.m.changes.rev;
    }

    fn tick_inner(&mut self, dt: Duration, events: &[E]) {
        let c = &mut self.core;
        c.s.clock.advance(dt);
        c.m.world.set_clock(c.s.clock.now(), c.s.clock.tick());
        if !c.m.suppressed.is_empty() {
            // Last tick's suppressions end: the answers they changed change back.
            c.m.suppressed.clear();
            c.m.changes.stamp(Inputs::SUPPRESSION);
        }
        c.m.errors.errors.clear();
        c.s.ievents.clear();
        // Most ticks have no event: skip draining an empty buffer.
        if !c.m.intents.events().is_empty() {
            c.s.ievents.extend(c.m.intents.drain_events());
        }
        c.m.intents.update();
        if !c.m.intents.events().is_empty() {
            c.m.changes.stamp(Inputs::INTENTS);
            c.s.ievents.extend(c.m.intents.drain_events());
        }
        for e in &c.s.ievents {
            if let IntentEvent::Pending { tag, .. } = e {
                c.m.changes.touch_world();
                c.m.world
                    .intent_pending(<U as crate::union::CladUnion>::tag_name(*tag));
            }
        }
        c.m.changes.sync_world(&*c.m.world);
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
            if n.state != LifecycleState::InScope || n.last_update == tick as u32 {
                continue;
            }
            n.last_update = tick as u32;
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

    /// When the behaviors may next act on their own (see [`wakeup`](super::wakeup)), after a
    /// tick that changed nothing: the earliest of every stack frame's action
    /// ([`Action::next_wakeup`](super::Action::next_wakeup)), class
    /// ([`Behavior::next_wakeup`]: a dispatcher counts the activation watches of the
    /// children it asks, a state machine its transitions) and `wantsToCancelSelfCondition`,
    /// and of every in-scope behavior whose class updates while inactive.
    /// [`Wakeup::EveryTick`] when the last tick (or anything since) changed an input (the
    /// world, the intent component, the stack), had user events or errors, while a
    /// continuation is ready, or while the stack is empty.
    ///
    /// Pure. A caller may then skip the ticks that end before the wake-up
    /// ([`skip_idle_ticks`](Self::skip_idle_ticks)) as long as no input arrives and nothing
    /// is pending in the intent component (its deadlines count its own updates).
    pub fn next_wakeup(&self) -> Wakeup {
        let c = &self.core;
        if !c.quiet
            || c.m.changes.rev != c.settled_rev
            || c.s.stack.is_empty()
            || !c.m.errors.errors.is_empty()
        {
            return Wakeup::EveryTick;
        }
        let clock = c.s.clock;
        let mut w = Wakeup::Never;
        for f in &c.s.stack {
            if f.ready.is_some() {
                return Wakeup::EveryTick;
            }
            if let Some(a) = &f.action {
                w = w.min(a.next_wakeup(&clock));
            }
            let v = self.view(f.id);
            if let Some(b) = self.behavior(f.id) {
                w = w.min(b.next_wakeup(&v));
            }
            if let Some(x) = &c.s.nodes[f.id.index()].cancel_when {
                w = w.min(match x.last() {
                    Some((_, false)) => x.next_change(&v.eval_cx()),
                    _ => Wakeup::EveryTick,
                });
            }
            if w == Wakeup::EveryTick {
                return w;
            }
        }
        for &id in &c.in_scope_work {
            let n = &c.s.nodes[id.index()];
            if n.state == LifecycleState::InScope && n.updates_inactive {
                if let Some(b) = self.behavior(id) {
                    w = w.min(b.next_wakeup(&self.view(id)));
                }
                if w == Wakeup::EveryTick {
                    return w;
                }
            }
        }
        w
    }

    /// Advances the clock by `ticks` ticks of `dt` without calling any hook or updating the
    /// intent component: what `ticks` calls of [`tick`](Self::tick) would do when nothing can
    /// happen in between. Only for a discrete-event caller that established it with
    /// [`next_wakeup`](Self::next_wakeup) (skipping to a tick that ends before the wake-up)
    /// after a tick that changed nothing, with nothing pending in the intent component (its
    /// deadlines count its own updates).
    pub fn skip_idle_ticks(&mut self, ticks: u64, dt: Duration) {
        let c = &mut self.core;
        c.s.clock.advance_by(ticks, dt);
        // As the last skipped tick would have: a world change made before the next tick
        // carries its time.
        c.m.world.set_clock(c.s.clock.now(), c.s.clock.tick());
    }

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

    /// Checks every runner invariant (O(tree size); for tests and diagnostics): stack
    /// frames active, unique, at their recorded positions and chained by declared delegates;
    /// no active behavior off the stack; scope counts equal to what the stack and the linked
    /// scopes imply; every behavior in scope or active updated exactly once on the last
    /// tick; activation on a tick where the behavior wanted to activate.
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
        if n.last_update == tick as u32 {
            self.core
                .m
                .errors
                .push(RunnerError::Invariant(Invariant::DoubleUpdate(id)));
            return;
        }
        n.last_update = tick as u32;
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
        // 3. continuation, when nothing is delegated
        if self.core.s.stack.get(i).is_some_and(|f| f.ready.is_some())
            && i + 1 == self.core.s.stack.len()
        {
            self.run_ready(i, id, events);
        }
        // 4. update
        if self.still_at(i, id) {
            self.update(id, events);
        }
        // 5. always-delegates, then the cancel condition
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

    /// Ends the behavior of frame `i` if it always delegates and is not delegating, or
    /// else if its `wantsToCancelSelfCondition` holds.
    #[inline(never)]
    fn cancel_self_rules(&mut self, i: usize, id: BehaviorId, events: &[E]) {
        let n = &self.core.s.nodes[id.index()];
        let idle = n.always_delegates
            && i + 1 == self.core.s.stack.len()
            && self.core.s.stack[i].action.is_none()
            && self.core.s.stack[i].ready.is_none();
        let cancel = !idle
            && n.cancel_when
                .as_ref()
                .is_some_and(|c| self.view(id).eval(c));
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
        self.stack_pos(id)
    }

    /// Applies queued requests in order (hooks they call may queue more).
    #[inline(always)]
    fn apply(&mut self, events: &[E]) {
        if !self.core.m.cmds.is_empty() {
            self.apply_queued(events);
        }
    }

    fn apply_queued(&mut self, events: &[E]) {
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

    /// Cancels what frame `i` delegated to. With `run_continuation` the continuation is
    /// made ready for the frame's next step; else it is dropped.
    fn cancel_above(&mut self, i: usize, run_continuation: bool, events: &[E]) {
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

    fn push(&mut self, from: Option<BehaviorId>, to: BehaviorId, cont: Continuation, events: &[E]) {
        if let Some(f) = self.core.s.stack.last_mut() {
            f.cont = cont;
            f.ready = None;
        }
        let now = self.core.s.clock.now();
        let tick = self.core.s.clock.tick();
        let pos = self.core.s.stack.len() as u32;
        self.core.s.stack.push(Frame {
            id: to,
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
        c.m.changes.stamp(Inputs::INTENTS);
        match super::core::activate(&mut c.m.intents, m, owner_of(id)) {
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

    /// `id` enters scope once more; on its first entry, its linked scope too (walked with
    /// a work list, not recursion).
    fn enter_scope(&mut self, id: BehaviorId, events: &[E]) {
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
    fn leave_scope(&mut self, id: BehaviorId, events: &[E]) {
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

impl<U: IntentUnion, E: 'static> std::fmt::Debug for Runner<U, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("tick", &self.core.s.clock.tick())
            .field("stack", &self.stack_names())
            .field("in_scope", &self.core.in_scope.len())
            .finish_non_exhaustive()
    }
}
