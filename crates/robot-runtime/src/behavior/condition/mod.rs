//! [`Condition`]: what `wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`,
//! state-machine transitions and the classes that own conditions test, over what the runner
//! knows — the intent component, the [`World`], the clock, a state machine's times.
//!
//! The runtime knows the conditions of the framework (the original's base keys need them):
//! `TrueCondition`, `Compound` (`and` / `or` / `not`, every leaf evaluated on every
//! evaluation, in definition order, before the logic applies: no short-circuit, as the
//! original), the intent conditions (`UserIntentPending`, `UserIntentActive`,
//! `AnyUserIntent`, `TriggerWordPending`: they read the intent component, which is the
//! runtime's), user conditions ([`ConditionFn`], registered with
//! [`Registry::register_condition`](super::Registry::register_condition)) and opaque
//! stand-ins with a fixed value. Every other condition type is a [`ConditionType`] a node
//! library registers by name with its parser
//! ([`Registry::register_condition_type`](super::Registry::register_condition_type)): the
//! original engine's 43 other types are `original_behaviors`'.
//!
//! Evaluation takes an [`EvalCx`] of shared references: a condition cannot delegate, claim
//! or change the world. Stateful conditions keep their state in cells, as the original kept
//! it in the condition object; [`Condition::set_active`] is the original's `SetActive`
//! (switched on and off by the runner for the activation windows of spec §0).
//!
//! Each condition node remembers its last value and the tick it was computed on
//! ([`Condition::last`]), so tools can show why a behavior does not run without evaluating
//! (and so advancing) anything.
//!
//! This module knows nothing of behaviors or the runner: the runner builds the [`EvalCx`].

pub mod parse;

use std::cell::Cell;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::behavior::clock::VirtualClock;
use crate::behavior::wakeup::{Inputs, Wakeup, Watch};
use crate::behavior::world::{self, World};
use crate::intent::{IntentComponent, IntentMatcher, IntentUnion};

/// A user-registered condition: a pure function of what conditions see.
pub type ConditionFn<U, E> = Arc<dyn Fn(&EvalCx<'_, U, E>) -> bool + Send + Sync>;

/// A state machine's times, for the conditions it evaluates (a state's time, cooldowns
/// since a state ended).
#[derive(Clone, Copy, Debug)]
pub struct MachineTimes<'a> {
    /// The current state's adjusted start (state time = now − this).
    pub adjusted_start: Duration,
    /// When the current state was last entered.
    pub last_started: Duration,
    /// Per state, when it last ended (None: never).
    pub last_ended: &'a [Option<Duration>],
    /// The machine's first activation ever.
    pub first_activation: Duration,
    /// This activation's start.
    pub this_activation: Duration,
}

/// What a condition sees when it is evaluated (see the [module documentation](self)).
pub struct EvalCx<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) intents: &'a IntentComponent<U>,
    pub(crate) world: &'a dyn World,
    pub(crate) clock: VirtualClock,
    pub(crate) active_since: Option<Duration>,
    pub(crate) machine: Option<MachineTimes<'a>>,
    pub(crate) events: &'a [E],
}

impl<'a, U: IntentUnion, E: 'static> EvalCx<'a, U, E> {
    /// What a condition sees: `intents`, `world`, `clock` and the tick's user `events`, for
    /// a behavior not active and outside a state machine.
    pub fn new(
        intents: &'a IntentComponent<U>,
        world: &'a dyn World,
        clock: VirtualClock,
        events: &'a [E],
    ) -> Self {
        Self {
            intents,
            world,
            clock,
            active_since: None,
            machine: None,
            events,
        }
    }
    /// The same, evaluated inside a state machine with these times.
    pub fn in_machine(mut self, machine: MachineTimes<'a>) -> Self {
        self.machine = Some(machine);
        self
    }
    /// The intent component.
    pub fn intents(&self) -> &'a IntentComponent<U> {
        self.intents
    }
    /// The world as `W` (None when it is of another type).
    pub fn world<W: World>(&self) -> Option<&'a W> {
        world::downcast(self.world)
    }
    /// The world, whatever its type.
    pub fn dyn_world(&self) -> &'a dyn World {
        self.world
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.clock
    }
    /// The clock's virtual time.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }
    /// This tick's user events.
    pub fn events(&self) -> &'a [E] {
        self.events
    }
    /// How long the behavior the condition is evaluated for has been active (None while it
    /// is not).
    pub fn active_for(&self) -> Option<Duration> {
        self.active_since
            .map(|t| self.clock.now().saturating_sub(t))
    }
    /// The state machine's times, when a state machine evaluates the condition.
    pub fn machine(&self) -> Option<MachineTimes<'a>> {
        self.machine
    }
}

/// `Compound`'s node type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// All children hold (and there is at least one).
    And,
    /// Some child holds.
    Or,
    /// The single child does not hold.
    Not,
}

/// A condition type of a node library (the original engine's off-treads, cliff, timer
/// conditions, ...): registered by name with its parser
/// ([`Registry::register_condition_type`](super::Registry::register_condition_type)) and
/// held by a [`Condition`] ([`Kind::Plugin`]), which remembers its last value and walks its
/// sub-conditions.
///
/// **The caching contract** (see [`wakeup`](super::wakeup)): [`inputs`](Self::inputs) names
/// every input its value depends on, and [`next_change`](Self::next_change) is exact: the
/// runner reuses its value until one of those inputs changes or that time comes, and the
/// result must equal evaluating it on every tick (the differential tests check it).
pub trait ConditionType<U: IntentUnion, E: 'static = ()>: Send + 'static {
    /// Its type name (`conditionType`, or the custom condition's name), as reports and
    /// inspection show it.
    fn name(&self) -> &str;
    /// Its value now. May advance its own state (a de-duplicating condition), never anything
    /// else.
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool;
    /// What it reads, its sub-conditions included (time is not an input: see
    /// [`next_change`](Self::next_change)).
    fn inputs(&self) -> Inputs;
    /// After an evaluation with `cx` that returned `was_true`, the first virtual time at
    /// which its value may differ if none of its [`inputs`](Self::inputs) changes:
    /// [`Wakeup::Never`] for a value only inputs can change, [`Wakeup::At`] for one waiting
    /// on time, [`Wakeup::EveryTick`] when the next evaluation may answer differently by
    /// itself. Pure: reads the condition's state and `cx`, changes nothing.
    fn next_change(&self, cx: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup;
    /// The original's `SetActive` for its own state (the runtime then switches its
    /// [`children`](Self::children)). Default: nothing.
    fn set_active(&self, _on: bool, _now: Duration) {}
    /// Forgets its own state, as a new condition object has none (the runtime then resets
    /// its [`children`](Self::children)). Default: nothing.
    fn reset(&self, _now: Duration) {}
    /// Its parameters for a person, without its name or its sub-conditions (empty when it
    /// has none): `InAir ≥ 0.5 s`. What inspection, exports and traces show.
    fn detail(&self) -> String {
        String::new()
    }
    /// Its sub-conditions (`subCondition`), so inspection and walks see them.
    fn children(&self) -> &[Condition<U, E>] {
        &[]
    }
    /// A copy (its state reset right after, see [`reset`](Self::reset)).
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>>;
}

/// What a condition tests (see [`Condition`]).
#[non_exhaustive]
pub enum Kind<U: IntentUnion, E: 'static> {
    /// `TrueCondition`.
    True,
    /// `Compound`: `and` / `or` / `not` over children (leaves or nested nodes).
    Compound {
        /// The node type.
        op: Op,
        /// The children, in definition order.
        children: Box<[Condition<U, E>]>,
    },
    /// `UserIntentPending` (key `list`), and the implicit condition of
    /// `respondToUserIntents`.
    UserIntentPending(Arc<[IntentMatcher<U>]>),
    /// `UserIntentActive` (key `list`).
    UserIntentActive(Arc<[IntentMatcher<U>]>),
    /// `AnyUserIntent`: an intent is pending or active.
    AnyUserIntent,
    /// `TriggerWordPending`.
    TriggerWordPending,
    /// A condition type of a node library.
    Plugin(Box<dyn ConditionType<U, E>>),
    /// A user-registered condition.
    User {
        /// Its registered type or custom-condition name.
        name: Box<str>,
        /// The predicate.
        test: ConditionFn<U, E>,
    },
    /// A condition type or custom condition not run natively, loaded as a stand-in with a
    /// fixed value set by the user (`LoadOptions::stand_ins`).
    Opaque {
        /// The `conditionType` or `customCondition`.
        name: Box<str>,
        /// Its JSON, kept for inspection.
        raw: serde_json::Value,
        /// The value it always has.
        value: bool,
    },
}

impl<U: IntentUnion, E: 'static> Clone for Kind<U, E> {
    fn clone(&self) -> Self {
        match self {
            Self::True => Self::True,
            Self::Compound { op, children } => Self::Compound {
                op: *op,
                children: children.clone(),
            },
            Self::UserIntentPending(l) => Self::UserIntentPending(l.clone()),
            Self::UserIntentActive(l) => Self::UserIntentActive(l.clone()),
            Self::AnyUserIntent => Self::AnyUserIntent,
            Self::TriggerWordPending => Self::TriggerWordPending,
            Self::Plugin(t) => Self::Plugin(t.clone_type()),
            Self::User { name, test } => Self::User {
                name: name.clone(),
                test: test.clone(),
            },
            Self::Opaque { name, raw, value } => Self::Opaque {
                name: name.clone(),
                raw: raw.clone(),
                value: *value,
            },
        }
    }
}

/// A condition: what it tests and the last value it had (see the
/// [module documentation](self)).
pub struct Condition<U: IntentUnion, E: 'static = ()> {
    kind: Kind<U, E>,
    last: Cell<Option<(u64, bool)>>,
    /// What it reads (its sub-conditions included), see [`Condition::inputs`].
    inputs: Inputs,
}

impl<U: IntentUnion, E: 'static> Clone for Condition<U, E> {
    /// A copy with its own state (as the original built one object per use).
    fn clone(&self) -> Self {
        let c = Self::new(self.kind.clone());
        c.reset_state(Duration::ZERO);
        c
    }
}

impl<U: IntentUnion, E: 'static> From<Kind<U, E>> for Condition<U, E> {
    fn from(kind: Kind<U, E>) -> Self {
        Self::new(kind)
    }
}

impl<U: IntentUnion, E: 'static> Condition<U, E> {
    /// A condition of `kind`.
    pub fn new(kind: Kind<U, E>) -> Self {
        let inputs = match &kind {
            Kind::True | Kind::Opaque { .. } => Inputs::NONE,
            Kind::Compound { children, .. } => {
                children.iter().fold(Inputs::NONE, |a, c| a | c.inputs)
            }
            Kind::UserIntentPending(_)
            | Kind::UserIntentActive(_)
            | Kind::AnyUserIntent
            | Kind::TriggerWordPending => Inputs::INTENTS,
            Kind::Plugin(t) => t.inputs(),
            Kind::User { .. } => Inputs::ALL,
        };
        Self {
            kind,
            last: Cell::new(None),
            inputs,
        }
    }
    /// A condition of the node library's type `t`.
    pub fn of(t: impl ConditionType<U, E>) -> Self {
        Self::new(Kind::Plugin(Box::new(t)))
    }
    /// `TrueCondition`.
    pub fn always() -> Self {
        Self::new(Kind::True)
    }
    /// `Compound not TrueCondition`: never true.
    pub fn never() -> Self {
        Self::negate(Self::always())
    }
    /// `Compound not`.
    pub fn negate(c: Self) -> Self {
        Self::new(Kind::Compound {
            op: Op::Not,
            children: vec![c].into(),
        })
    }
    /// `Compound and`.
    pub fn all(children: impl IntoIterator<Item = Self>) -> Self {
        Self::new(Kind::Compound {
            op: Op::And,
            children: children.into_iter().collect(),
        })
    }
    /// `Compound or`.
    pub fn any(children: impl IntoIterator<Item = Self>) -> Self {
        Self::new(Kind::Compound {
            op: Op::Or,
            children: children.into_iter().collect(),
        })
    }
    /// `UserIntentPending` over `matchers`.
    pub fn intent_pending(matchers: impl IntoIterator<Item = IntentMatcher<U>>) -> Self {
        Self::new(Kind::UserIntentPending(matchers.into_iter().collect()))
    }
    /// `TriggerWordPending`.
    pub fn trigger_word_pending() -> Self {
        Self::new(Kind::TriggerWordPending)
    }
    /// A user condition.
    pub fn user(
        name: &str,
        test: impl Fn(&EvalCx<'_, U, E>) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self::new(Kind::User {
            name: name.into(),
            test: Arc::new(test),
        })
    }

    /// What it tests.
    pub fn kind(&self) -> &Kind<U, E> {
        &self.kind
    }

    /// The value of its last evaluation and the tick it was made on (None: never
    /// evaluated). A value the runner reuses because nothing it reads changed (see
    /// [`wakeup`](crate::behavior::wakeup)) keeps the tick it was computed on.
    pub fn last(&self) -> Option<(u64, bool)> {
        self.last.get()
    }

    /// The type name (`TrueCondition`, `Compound`, a node library's type's
    /// [`name`](ConditionType::name)), the custom condition's name, or the user type's.
    pub fn type_name(&self) -> &str {
        match &self.kind {
            Kind::True => "TrueCondition",
            Kind::Compound { .. } => "Compound",
            Kind::UserIntentPending(_) => "UserIntentPending",
            Kind::UserIntentActive(_) => "UserIntentActive",
            Kind::AnyUserIntent => "AnyUserIntent",
            Kind::TriggerWordPending => "TriggerWordPending",
            Kind::Plugin(t) => t.name(),
            Kind::User { name, .. } | Kind::Opaque { name, .. } => name,
        }
    }

    /// Its direct sub-conditions (`Compound` children, `subCondition`).
    pub fn children(&self) -> &[Condition<U, E>] {
        match &self.kind {
            Kind::Compound { children, .. } => children,
            Kind::Plugin(t) => t.children(),
            _ => &[],
        }
    }

    /// Evaluates the condition (and records the value, see [`last`](Self::last)).
    pub fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let v = self.test(cx);
        self.last.set(Some((cx.clock.tick(), v)));
        v
    }

    fn test(&self, cx: &EvalCx<'_, U, E>) -> bool {
        match &self.kind {
            Kind::True => true,
            Kind::Compound { op, children } => {
                // Every child first (stateful leaves always advance), then the logic.
                let mut all = !children.is_empty();
                let mut any = false;
                for c in children.iter() {
                    let v = c.eval(cx);
                    all &= v;
                    any |= v;
                }
                match op {
                    Op::And => all,
                    Op::Or => any,
                    Op::Not => !any,
                }
            }
            Kind::UserIntentPending(list) => cx
                .intents
                .pending()
                .is_some_and(|p| list.iter().any(|m| m.matches(p.intent()))),
            Kind::UserIntentActive(list) => cx
                .intents
                .active()
                .is_some_and(|a| list.iter().any(|m| m.matches(a.intent()))),
            Kind::AnyUserIntent => cx.intents.is_any_pending_or_active(),
            Kind::TriggerWordPending => cx.intents.is_trigger_word_pending(),
            Kind::Plugin(t) => t.eval(cx),
            Kind::User { test, .. } => test(cx),
            Kind::Opaque { value, .. } => *value,
        }
    }

    /// The original's `SetActive`: switches the condition (and its sub-conditions) on or
    /// off at `now`.
    pub fn set_active(&self, on: bool, now: Duration) {
        if let Kind::Plugin(t) = &self.kind {
            t.set_active(on, now);
        }
        for c in self.children() {
            c.set_active(on, now);
        }
    }

    fn reset_state(&self, now: Duration) {
        if let Kind::Plugin(t) = &self.kind {
            t.reset(now);
        }
        self.last.set(None);
        for c in self.children() {
            c.reset_state(now);
        }
    }

    /// Tags this condition can claim: the matchers of `UserIntentPending` conditions that
    /// are not under a `not` (used by coverage).
    pub fn pending_tags(&self, out: &mut Vec<U::Tag>) {
        match &self.kind {
            Kind::UserIntentPending(list) => out.extend(list.iter().map(IntentMatcher::target_tag)),
            Kind::Compound { op: Op::Not, .. } => {}
            Kind::Compound { children, .. } => children.iter().for_each(|c| c.pending_tags(out)),
            _ => {}
        }
    }

    /// True when the condition is, or contains, an opaque stand-in.
    pub fn has_opaque(&self) -> bool {
        matches!(self.kind, Kind::Opaque { .. }) || self.children().iter().any(Self::has_opaque)
    }

    /// Calls `f` on this condition and every sub-condition, depth first.
    pub fn visit(&self, f: &mut dyn FnMut(&Condition<U, E>)) {
        f(self);
        for c in self.children() {
            c.visit(f);
        }
    }

    /// The inputs this condition reads, its sub-conditions included (see [`Inputs`]).
    /// Time is not an input: [`next_change`](Self::next_change) says when it matters.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// After an evaluation with `cx`, the first virtual time at which the value may differ
    /// if none of its [`inputs`](Self::inputs) changes: [`Wakeup::Never`] for a value that
    /// only inputs can change, [`Wakeup::At`] for a value waiting on time,
    /// [`Wakeup::EveryTick`] when the next evaluation may answer differently on its own
    /// (see [`ConditionType::next_change`]; the active intent; user conditions). Pure:
    /// reads the condition's state and `cx`, changes nothing.
    pub fn next_change(&self, cx: &EvalCx<'_, U, E>) -> Wakeup {
        match &self.kind {
            Kind::True | Kind::Opaque { .. } => Wakeup::Never,
            Kind::Compound { children, .. } => children
                .iter()
                .fold(Wakeup::Never, |w, c| w.min(c.next_change(cx))),
            Kind::UserIntentPending(_) | Kind::TriggerWordPending => Wakeup::Never,
            // The active intent ends when its guard is dropped, wherever it is held.
            Kind::UserIntentActive(_) | Kind::AnyUserIntent => Wakeup::EveryTick,
            Kind::Plugin(t) => t.next_change(cx, self.last.get().is_some_and(|(_, v)| v)),
            Kind::User { .. } => Wakeup::EveryTick,
        }
    }

    /// [`inputs`](Self::inputs) and [`next_change`](Self::next_change) together.
    pub fn watch(&self, cx: &EvalCx<'_, U, E>) -> Watch {
        Watch {
            inputs: self.inputs,
            until: self.next_change(cx),
        }
    }
}

impl<U: IntentUnion, E: 'static> fmt::Debug for Condition<U, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let children = self.children();
        if children.is_empty() {
            f.write_str(self.type_name())
        } else {
            let mut t = f.debug_tuple(self.type_name());
            if let Kind::Compound { op, .. } = &self.kind {
                t.field(op);
            }
            for c in children {
                t.field(c);
            }
            t.finish()
        }
    }
}
