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
//!    ([`Behavior::updates_while_inactive`](super::Behavior::updates_while_inactive)) and handle no events are kept off the list this
//!    pass walks, so they cost nothing here.
//!
//! # Work in proportion to what changed
//! A behavior's `WantsToBeActivated`, a strict-priority dispatcher's choice and a state
//! machine's transitions are kept with what they read (see [`wakeup`](crate::behavior::wakeup)) and
//! reused until one of those inputs changes or a time they wait for comes: on a steady tick
//! a dispatcher's update is one check, whatever the number of its children, and no
//! condition is evaluated. The result is the same as asking everything
//! ([`Runner::set_caching`] turns it off; the differential tests compare both). After a
//! tick that changed nothing, [`Runner::next_wakeup`] says when something can next happen,
//! and [`Runner::skip_idle_ticks`] jumps there.
//!
//! Activatable scope is the declared delegates of every stack entry plus, recursively,
//! their linked scope ([`Behavior::linked_scope`](super::Behavior::linked_scope)); entry and exit are reference counted.
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
//! # Guarantees (checked in release builds; a broken rule is a [`RunnerError`](super::RunnerError))
//! * A behavior is activated only on a tick on which it wanted to be activated (gates,
//!   conditions, `respondToUserIntents`, class).
//! * Only active behaviors are deactivated; deactivation pops everything above first.
//! * Exactly one `update` per tick for each active behavior and each behavior in scope
//!   whose class [updates while inactive](super::Behavior::updates_while_inactive). A behavior pushed
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

mod invariants;
mod lifecycle;
mod locks;
mod named_stacks;
mod query;
mod requests;
mod scope;
mod tick;

use std::cell::Cell;
use std::collections::VecDeque;

use super::action::{ActionFactory, SimulatedActions};
use super::changes::{Cached, Changes};
use super::clock::VirtualClock;
use super::condition::Condition;
use super::core::{ErrorLog, Mutable, Node, Shared, Slot};
use super::ids::{BehaviorId, BehaviorName};
use super::tree::Tree;
use super::wakeup::Inputs;
use super::world::{self, World};
use crate::intent::{IntentComponent, IntentUnion};

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
    /// How many frames hold a lock: while 0, nothing of the track locks runs.
    locking_frames: u32,
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
                    track_locks: None,
                    holds: Vec::new(),
                },
                names: tree.names,
                base: tree.base,
                in_scope: Vec::with_capacity(n),
                in_scope_work: Vec::with_capacity(n),
                stack_changes: 0,
                scope_work: Vec::with_capacity(16),
                settled_rev: 0,
                quiet: false,
                locking_frames: 0,
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
    /// [`wakeup`](crate::behavior::wakeup)): a behavior's `WantsToBeActivated` and a dispatcher's
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
    /// (see [`Ctx::world_mut_or_insert`](super::Ctx::world_mut_or_insert)).
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

    /// The revision of the runner's change stamps (see [`wakeup`](crate::behavior::wakeup)): it grows
    /// with every change of an input the runner records (a robot-state field, the intent
    /// component, the stack). Read after each tick, it tells a tool which tick a revision of
    /// [`changed_at`](Self::changed_at) belongs to.
    pub fn revision(&self) -> u64 {
        self.core.m.changes.rev
    }

    /// The revision at which any of `inputs` last changed (0: not since the runner began).
    /// A robot-state field changed through [`world_mut`](Self::world_mut) since the last
    /// tick (the runner compares at the start of the next one) counts at the current
    /// [`revision`](Self::revision). Read-only.
    pub fn changed_at(&self, inputs: Inputs) -> u64 {
        self.core.m.changes.last_change(inputs, &*self.core.m.world)
    }

    /// The inputs that changed after revision `since` (a [`revision`](Self::revision) read
    /// earlier); a robot-state field changed through [`world_mut`](Self::world_mut) since the
    /// last tick counts. Read-only: a tool asks once what moved, then reads only that.
    pub fn changed_since(&self, since: u64) -> Inputs {
        self.core
            .m
            .changes
            .changed_since(since, &*self.core.m.world)
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
