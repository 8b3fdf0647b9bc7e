//! [`View`]: the read-only view pure queries get, with the caches dispatchers and classes keep of their answers and what an activation answer depends on.

use std::time::Duration;

use crate::behavior::changes::Cached;
use crate::behavior::clock::VirtualClock;
use crate::behavior::condition::{Condition, EvalCx, MachineTimes};
use crate::behavior::ids::{BehaviorId, BehaviorName};
use crate::behavior::wakeup::{Inputs, Wakeup, Watch};
use crate::behavior::world::{self, World};
use crate::intent::{IntentComponent, IntentEvent, IntentUnion};

use super::{Behavior, Behaviors, LifecycleState, Mutable, Node, OperationModifiers, Shared};

/// A shared, read-only view of the runner: what pure queries (`wants_to_be_activated`,
/// conditions) may look at.
pub struct View<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) me: BehaviorId,
    pub(crate) s: &'a Shared<U, E>,
    pub(crate) m: &'a Mutable<U>,
    pub(crate) behaviors: Behaviors<'a, U, E>,
    pub(crate) events: &'a [E],
}

impl<U: IntentUnion, E: 'static> Clone for View<'_, U, E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U: IntentUnion, E: 'static> Copy for View<'_, U, E> {}

impl<'a, U: IntentUnion, E: 'static> View<'a, U, E> {
    /// The behavior this view is for.
    pub fn me(&self) -> BehaviorId {
        self.me
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.s.clock
    }
    /// The intent component.
    pub fn intents(&self) -> &'a IntentComponent<U> {
        &self.m.intents
    }
    /// The world as `W` (None when it is of another type; see [`World`]).
    pub fn world<W: World>(&self) -> Option<&'a W> {
        world::downcast(&*self.m.world)
    }
    /// The world, whatever its type.
    pub fn dyn_world(&self) -> &'a dyn World {
        &*self.m.world
    }
    /// This tick's user events.
    pub fn events(&self) -> &'a [E] {
        self.events
    }
    /// This tick's intent events.
    pub fn intent_events(&self) -> &'a [IntentEvent<U::Tag>] {
        &self.s.ievents
    }
    /// State of `id` (None for an unknown ID).
    pub fn state_of(&self, id: BehaviorId) -> Option<LifecycleState> {
        self.s.nodes.get(id.index()).map(|n| n.state)
    }
    /// Name of `id`.
    pub fn name_of(&self, id: BehaviorId) -> Option<&'a BehaviorName> {
        self.s.nodes.get(id.index()).map(|n| &n.name)
    }
    /// Class of `id`.
    pub fn class_of(&self, id: BehaviorId) -> Option<&'a str> {
        self.s.nodes.get(id.index()).map(|n| &*n.class)
    }
    /// The class-hook modifiers of `id` as the tree computed them.
    pub fn modifiers_of(&self, id: BehaviorId) -> Option<OperationModifiers> {
        self.s.nodes.get(id.index()).map(|n| n.modifiers)
    }
    /// When `id` last stopped running (None: never ran).
    pub fn last_ran(&self, id: BehaviorId) -> Option<Duration> {
        self.s.nodes.get(id.index()).and_then(|n| n.last_ran)
    }
    /// The behaviors on the stack, bottom to top.
    pub fn stack(&self) -> impl Iterator<Item = BehaviorId> + 'a {
        self.s.stack.iter().map(|f| f.id)
    }
    /// When `id` last entered activatable scope (None while it is out of scope, or for an
    /// unknown ID). With [`last_ran`](Self::last_ran) it says which events a behavior would
    /// have heard while in scope and not active: those since the later of the two.
    pub fn entered_scope_at(&self, id: BehaviorId) -> Option<Duration> {
        self.s.nodes.get(id.index()).and_then(|n| n.entered_scope)
    }
    /// How long [`me`](Self::me) has been active.
    pub fn active_for(&self) -> Option<Duration> {
        self.eval_cx().active_for()
    }
    /// The behavior `id` delegated to (the frame above it), if any.
    pub fn delegate_of(&self, id: BehaviorId) -> Option<BehaviorId> {
        let p = self.s.nodes.get(id.index())?.stack_pos;
        if p == u32::MAX {
            return None;
        }
        self.s.stack.get(p as usize + 1).map(|f| f.id)
    }
    /// True when `id` is on the stack and delegating (a behavior above it or an action).
    pub fn is_delegating(&self, id: BehaviorId) -> bool {
        let Some(p) = self.s.nodes.get(id.index()).map(|n| n.stack_pos) else {
            return false;
        };
        p != u32::MAX
            && (p as usize + 1 < self.s.stack.len() || self.s.stack[p as usize].action.is_some())
    }
    /// What a condition evaluated for [`me`](Self::me) sees.
    pub fn eval_cx(&self) -> EvalCx<'a, U, E> {
        let active_since = self
            .s
            .nodes
            .get(self.me.index())
            .filter(|n| n.state == LifecycleState::Active)
            .map(|n| n.activated_at);
        EvalCx {
            intents: &self.m.intents,
            world: &*self.m.world,
            clock: self.s.clock,
            active_since,
            machine: None,
            events: self.events,
        }
    }
    /// Evaluates a condition for [`me`](Self::me).
    pub fn eval(&self, condition: &Condition<U, E>) -> bool {
        condition.eval(&self.eval_cx())
    }
    /// Evaluates a condition for [`me`](Self::me) inside a state machine with these times.
    pub fn eval_in_machine(&self, condition: &Condition<U, E>, machine: MachineTimes<'_>) -> bool {
        let mut cx = self.eval_cx();
        cx.machine = Some(machine);
        condition.eval(&cx)
    }
    /// The behavior object of `id`, to ask it class-specific questions (None for an
    /// unknown ID and, inside a hook, for the behavior whose hook runs: it is borrowed
    /// mutably by that hook).
    pub fn behavior(&self, id: BehaviorId) -> Option<&'a dyn Behavior<U, E>> {
        self.behaviors.get(id)
    }

    /// Does `id` want to be activated now (the original's `WantsToBeActivated`, spec §0)?
    /// True when it is active; false when it is out of scope, unknown, or is the behavior
    /// asking. Otherwise, in order, stopping at the first false: the activation gates (off
    /// treads, on the charger, carrying, cube connection) against its modifiers, its
    /// `wantsToBeActivatedCondition`, its `respondToUserIntents` (a matching intent
    /// pending), then its class's `wants_to_be_activated`. A true answer is recorded: the
    /// runner activates a behavior only on a tick where this returned true.
    pub fn wants_to_activate(&self, id: BehaviorId) -> bool {
        View { me: id, ..*self }.wants_me()
    }

    /// Whether `id` can be gently interrupted now
    /// ([`Behavior::can_be_gently_interrupted`]); false for an unknown ID.
    pub fn can_be_gently_interrupted(&self, id: BehaviorId) -> bool {
        let Some(b) = self.behaviors.get(id) else {
            return false;
        };
        b.can_be_gently_interrupted(&View { me: id, ..*self })
    }

    /// The first of `ids`, in order, that is `current`, active, or
    /// [wants to be activated](Self::wants_to_activate) (a true answer is recorded, as
    /// there); the ones after it are not asked. A strict-priority choice in one call.
    pub fn first_wanting(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
    ) -> Option<BehaviorId> {
        self.first_wanting_where(ids, current, |_| true)
    }

    /// Like [`first_wanting`](Self::first_wanting), skipping the children `eligible`
    /// refuses (on cooldown) without asking them.
    pub fn first_wanting_where(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        eligible: impl Fn(usize) -> bool,
    ) -> Option<BehaviorId> {
        if self.s.caching {
            self.scan::<true>(ids, current, eligible)
        } else {
            self.scan::<false>(ids, current, eligible)
        }
    }

    /// The strict-priority scan; `CACHED`: each child's answer through its cache.
    #[inline]
    fn scan<const CACHED: bool>(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        eligible: impl Fn(usize) -> bool,
    ) -> Option<BehaviorId> {
        let blocking = self.m.world.blocking();
        let nodes = &self.s.nodes[..];
        let mut v = self;
        for (k, &id) in ids.iter().enumerate() {
            if !eligible(k) {
                continue;
            }
            if Some(id) == current {
                return Some(id);
            }
            let Some(n) = nodes.get(id.index()) else {
                continue;
            };
            match n.state {
                LifecycleState::Active => return Some(id),
                LifecycleState::InScope => {}
                LifecycleState::OutOfScope => continue,
            }
            v.me = id;
            let wants = if CACHED {
                v.wants_node(n, || blocking)
            } else {
                v.wants_node_now(n, blocking)
            };
            if wants {
                return Some(id);
            }
        }
        None
    }

    /// [`first_wanting_where`](Self::first_wanting_where) for a dispatcher that keeps its
    /// choice in `cache`: while nothing the choice read changed (the children asked, their
    /// activation watches, the stack) and no time it waits for has come, the children are
    /// not asked again and the same choice is returned (only a choice that keeps the
    /// current delegate, or finds nothing, is kept). `skip(k)` refuses child `k` without
    /// asking it, with the time it stops refusing (a cooldown's end).
    pub fn first_wanting_cached(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        skip: impl Fn(usize) -> Option<Wakeup>,
        cache: &mut ChoiceCache,
    ) -> Option<BehaviorId> {
        if !self.s.caching || cache.plain {
            // Asked as they are (a child's class does not declare its watch: nothing to keep).
            return self.scan::<false>(ids, current, |k| skip(k).is_none());
        }
        if cache.valid
            && cache.current == current
            && self.m.changes.holds(&mut cache.cached, self.s.now_ns())
        {
            return cache.result;
        }
        self.first_wanting_remembered(ids, current, skip, cache)
    }

    #[inline(never)]
    fn first_wanting_remembered(
        self,
        ids: &[BehaviorId],
        current: Option<BehaviorId>,
        skip: impl Fn(usize) -> Option<Wakeup>,
        cache: &mut ChoiceCache,
    ) -> Option<BehaviorId> {
        let blocking = self.m.world.blocking();
        let nodes = &self.s.nodes[..];
        let mut v = self;
        let mut inputs = Inputs::STACK | Inputs::SUPPRESSION;
        let mut until = u64::MAX;
        let mut result = None;
        for (k, &id) in ids.iter().enumerate() {
            if let Some(w) = skip(k) {
                until = until.min(w.until_ns());
                continue;
            }
            if Some(id) == current {
                result = Some(id);
                break;
            }
            let Some(n) = nodes.get(id.index()) else {
                continue;
            };
            match n.state {
                LifecycleState::Active => {
                    result = Some(id);
                    break;
                }
                LifecycleState::InScope => {}
                LifecycleState::OutOfScope => continue,
            }
            v.me = id;
            let wants = v.wants_node(n, || blocking);
            let c = self.s.wants_cache[id.index()].get();
            cache.plain |= c.undeclared;
            inputs |= c.inputs;
            until = until.min(c.until_ns);
            if wants {
                result = Some(id);
                break;
            }
        }
        cache.current = current;
        cache.result = result;
        cache.valid = !cache.plain && (result == current || result.is_none());
        cache.cached = Cached {
            value: false,
            undeclared: false,
            rev: self.m.changes.rev,
            inputs,
            until_ns: until,
        };
        result
    }

    #[inline]
    fn wants_me(&self) -> bool {
        let Some(n) = self.s.nodes.get(self.me.index()) else {
            return false;
        };
        match n.state {
            LifecycleState::Active => true,
            LifecycleState::InScope => self.wants_node(n, || self.m.world.blocking()),
            LifecycleState::OutOfScope => false,
        }
    }

    /// True when a coordinator told [`me`](Self::me) not to activate on this tick.
    #[inline]
    fn suppressed_now(&self) -> bool {
        self.m.is_suppressed(self.me, self.s.clock.tick())
    }

    /// Steps 2–7 of `WantsToBeActivated` for the in-scope node of [`me`](Self::me): its
    /// cached answer while that holds, else asked (and the answer remembered with its
    /// watch). `blocking`: the world's gate bits, asked only when the answer is.
    #[inline]
    fn wants_node(&self, n: &Node<U, E>, blocking: impl FnOnce() -> u8) -> bool {
        // Step 1 (a coordinator's suppression) lies over the cached answer: it holds for one
        // tick and is never kept.
        if self.suppressed_now() {
            return false;
        }
        if !self.s.caching {
            return self.wants_node_now(n, blocking());
        }
        let cell = &self.s.wants_cache[self.me.index()];
        let mut c = cell.get();
        if self.m.changes.holds(&mut c, self.s.now_ns()) {
            cell.set(c);
            if c.value {
                n.wants_tick.set(self.s.clock.tick());
            }
            return c.value;
        }
        let v = self.wants_node_now(n, blocking());
        if !c.undeclared {
            self.remember(v);
        }
        v
    }

    /// Remembers `value` as the answer of [`me`](Self::me), with its activation watch.
    #[inline(never)]
    fn remember(&self, value: bool) {
        let entry = match self.computed_watch(self.me) {
            Some(w) => Cached::new(value, self.m.changes.rev, w),
            None => Cached {
                undeclared: true,
                ..Cached::NONE
            },
        };
        self.s.wants_cache[self.me.index()].set(entry);
    }

    /// Steps 2–7 of `WantsToBeActivated`, asked now.
    #[inline]
    fn wants_node_now(&self, n: &Node<U, E>, blocking: u8) -> bool {
        if n.gate & blocking != 0 || self.suppressed_now() {
            return false;
        }
        let Some(b) = self.behaviors.get(self.me) else {
            return false;
        };
        let ok = (n.plain || self.declared_conditions(n)) && b.wants_to_be_activated(self);
        if ok {
            n.wants_tick.set(self.s.clock.tick());
        }
        ok
    }

    /// The `wantsToBeActivatedCondition`, then `respondToUserIntents` (a matching intent
    /// pending), of the node this view is for.
    #[inline(never)]
    fn declared_conditions(&self, n: &Node<U, E>) -> bool {
        // Only asked of in-scope, inactive nodes: no activation time to look up.
        n.wants.as_ref().is_none_or(|c| {
            c.eval(&EvalCx {
                intents: &self.m.intents,
                world: &*self.m.world,
                clock: self.s.clock,
                active_since: None,
                machine: None,
                events: self.events,
            })
        }) && (n.respond.is_empty()
            || self
                .m
                .intents
                .pending()
                .is_some_and(|p| n.respond.iter().any(|m| m.matches(p.intent()))))
    }
}

/// A dispatcher's remembered choice among its children (see
/// [`View::first_wanting_cached`]): kept in the dispatcher, valid while nothing it read
/// changed.
#[derive(Clone, Debug, Default)]
pub struct ChoiceCache {
    valid: bool,
    /// A child's class does not declare its activation watch: the choice is always made
    /// again (and the children asked as they are, without their own caches).
    plain: bool,
    current: Option<BehaviorId>,
    result: Option<BehaviorId>,
    cached: Cached,
}

impl ChoiceCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }
    /// While it holds, when the choice may change without input (None: it is not kept).
    pub fn wakeup(&self) -> Option<Wakeup> {
        (self.valid && !self.plain).then(|| self.cached.watch().until)
    }
}

/// A class's own remembered answer (a state machine's transitions, see
/// [`wakeup`](crate::behavior::wakeup)): valid while none of the inputs it read changed, its time has
/// not come and its `key` (the class's own state that the answer depends on) is the same.
/// Never valid while the runner does not cache.
#[derive(Clone, Debug, Default)]
pub struct AnswerCache<T> {
    valid: bool,
    key: u64,
    value: T,
    cached: Cached,
}

impl<T: Copy + Default> AnswerCache<T> {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }
    /// The remembered answer for `key`, while it holds.
    #[inline]
    pub fn recall<U: IntentUnion, E: 'static>(
        &mut self,
        view: &View<'_, U, E>,
        key: u64,
    ) -> Option<T> {
        (self.valid && self.key == key && view.m.changes.holds(&mut self.cached, view.s.now_ns()))
            .then_some(self.value)
    }
    /// Remembers `value` for `key`, holding while `watch` does.
    pub fn keep<U: IntentUnion, E: 'static>(
        &mut self,
        view: &View<'_, U, E>,
        key: u64,
        value: T,
        watch: Watch,
    ) {
        self.valid = view.s.caching;
        self.key = key;
        self.value = value;
        self.cached = Cached::new(false, view.m.changes.rev, watch);
    }
    /// Forgets the answer.
    pub fn forget(&mut self) {
        self.valid = false;
    }
}

impl<U: IntentUnion, E: 'static> View<'_, U, E> {
    /// What the last `WantsToBeActivated` answer of `id` (spec §0) depends on, given the
    /// state its last evaluation left (pure: nothing is evaluated). Active and out-of-scope
    /// behaviors answer by their lifecycle state ([`Inputs::STACK`]). An in-scope one: the
    /// world inputs behind its activation gates ([`World::blocking_inputs`]); when they let it through, its
    /// `wantsToBeActivatedCondition` ([`Condition::watch`](crate::behavior::Condition::watch)); when
    /// that held (the original short-circuits), its `respondToUserIntents`
    /// ([`Inputs::INTENTS`]); when a listed intent is pending, its class
    /// ([`Behavior::activation_watch`](crate::behavior::Behavior::activation_watch); a class that does
    /// not declare one makes it [`Watch::EVERY_TICK`]).
    pub fn activation_watch(&self, id: BehaviorId) -> Watch {
        let Some(n) = self.s.nodes.get(id.index()) else {
            return Watch::CONSTANT;
        };
        if n.state != LifecycleState::InScope {
            return Watch::reads(Inputs::STACK);
        }
        if self.s.caching {
            let cell = &self.s.wants_cache[id.index()];
            let mut c = cell.get();
            if self.m.changes.holds(&mut c, self.s.now_ns()) {
                cell.set(c);
                return c.watch();
            }
        }
        self.computed_watch(id).unwrap_or(Watch::EVERY_TICK)
    }

    /// [`activation_watch`](Self::activation_watch) worked out from the conditions' and the
    /// class's state (None: the class does not declare its watch).
    fn computed_watch(&self, id: BehaviorId) -> Option<Watch> {
        let Some(n) = self.s.nodes.get(id.index()) else {
            return Some(Watch::CONSTANT);
        };
        if n.state != LifecycleState::InScope {
            return Some(Watch::reads(Inputs::STACK));
        }
        let mut w = Watch::reads(Inputs::STACK | self.m.world.blocking_inputs(n.gate));
        if n.gate & self.m.world.blocking() != 0 {
            return Some(w);
        }
        let v = View { me: id, ..*self };
        if let Some(c) = &n.wants {
            w = w.and(c.watch(&v.eval_cx()));
            match c.last() {
                None => return Some(Watch::EVERY_TICK),
                Some((_, false)) => return Some(w),
                Some((_, true)) => {}
            }
        }
        if !n.respond.is_empty() {
            w.inputs |= Inputs::INTENTS;
            let pending = self
                .m
                .intents
                .pending()
                .is_some_and(|p| n.respond.iter().any(|m| m.matches(p.intent())));
            if !pending {
                return Some(w);
            }
        }
        match self.behaviors.get(id) {
            // The behavior whose hook runs: not looked at.
            None => Some(Watch::EVERY_TICK),
            Some(b) => b.activation_watch(&v).map(|c| w.and(c)),
        }
    }

    /// For tools: the `WantsToBeActivated` answer of `id` that the runner keeps and would
    /// reuse now instead of asking (see [`wakeup`](crate::behavior::wakeup)), or None when it keeps
    /// none that still holds (caching off, a class that does not declare its watch, an
    /// input it read changed, its time came). Pure: the kept answer is looked at, not
    /// confirmed or asked.
    pub fn remembered_answer(&self, id: BehaviorId) -> Option<bool> {
        let n = self.s.nodes.get(id.index())?;
        if !self.s.caching || n.state != LifecycleState::InScope {
            return None;
        }
        let mut c = self.s.wants_cache.get(id.index())?.get();
        (!c.undeclared && self.m.changes.holds(&mut c, self.s.now_ns())).then_some(c.value)
    }

    /// The earliest [`activation_watch`](Self::activation_watch) time of `ids`.
    pub fn activation_wakeup(&self, ids: impl IntoIterator<Item = BehaviorId>) -> Wakeup {
        let mut w = Wakeup::Never;
        for id in ids {
            w = w.min(self.activation_watch(id).until);
            if w == Wakeup::EveryTick {
                break;
            }
        }
        w
    }
}
