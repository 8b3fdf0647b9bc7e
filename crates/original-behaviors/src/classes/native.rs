//! The native classes' common base (the voice family, the coordinators, the reactions): one
//! [`Native`], the only `Behavior` implementation of those classes, carrying what they
//! declare alike, and a [`NativeClass`] per class for what is its own (as
//! [`Dispatcher`](super::dispatch::Dispatcher) with its policies).
//!
//! What [`Base`] holds is declared once, when the class is built, and answers for every
//! class: not updated while inactive; its delegates; the gates its operation-modifiers hook
//! assigns ([`Mods`], before the class's own hook, if any); its predicate ([`Decide`]: the
//! answer, what it reads and its words for tools) when it has one, else the class's hooks;
//! the intents its code claims (claim sites for coverage). A [`NativeClass`]'s hooks have
//! the runtime's `Behavior` signatures, with the defaults of these classes: no wake-up of
//! its own (its actions and delegates answer for themselves), never gently interrupted; a
//! class that runs `Steps` hands them over ([`NativeClass::steps`]) and the base starts
//! the next one whenever a delegation ends, before the class's own
//! [`on_delegation_done`](NativeClass::on_delegation_done).

use std::any::Any;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ClaimSite, ClassPredicate, Condition, Ctx, DelegationOutcome,
    IntentUnion, OperationModifiers, ProblemKind, View, Wakeup, Watch,
};

use serde_json::{Map, Value};

use super::steps::Steps;
use crate::keys::read_class_keys;
use crate::predicate::{pred_cx, Compiled, Pred};
use crate::specs::Mods;

/// A native class: its [`Base`] and its own hooks (see the [module documentation](self)).
pub struct Native<T, C> {
    base: Base<T>,
    class: C,
}

impl<T, C> Native<T, C> {
    /// `class` on `base`.
    pub fn new(base: Base<T>, class: C) -> Self {
        Self { base, class }
    }
    /// The class's own part (for tools and tests that ask a class-specific question).
    pub fn class(&self) -> &C {
        &self.class
    }
    /// The class's own part, to finish building it.
    pub(crate) fn class_mut(&mut self) -> &mut C {
        &mut self.class
    }
}

/// What a native class declares when it is built (see the [module documentation](self)).
pub struct Base<T> {
    gates: Mods,
    delegates: Vec<BehaviorId>,
    decide: Option<Decide<T>>,
    claims: Vec<T>,
}

impl<T> Base<T> {
    /// A class whose operation-modifiers hook assigns `gates` (and nothing else declared).
    pub fn new(gates: Mods) -> Self {
        Self {
            gates,
            delegates: Vec::new(),
            decide: None,
            claims: Vec::new(),
        }
    }
    /// Every behavior it may delegate to.
    pub fn delegates(mut self, delegates: impl IntoIterator<Item = BehaviorId>) -> Self {
        self.delegates = delegates.into_iter().collect();
        self
    }
    /// It decides with `decide` (the class's `wants_to_be_activated`, `activation_watch`
    /// and `class_predicate` are then not asked).
    pub fn decide(mut self, decide: Decide<T>) -> Self {
        self.decide = Some(decide);
        self
    }
    /// The intents its code claims (those the union lacks left out).
    pub fn claims(mut self, tags: impl IntoIterator<Item = Option<T>>) -> Self {
        self.claims = tags.into_iter().flatten().collect();
        self
    }
}

/// A native class's keys and predicate: its keys read as its table says
/// ([`read_class_keys`]) and its predicate ([`Pred`]) compiled for the robot's union,
/// evaluated, watched and described as the table-driven class does.
pub struct Decide<T> {
    /// Its keys, with the defaults of the optional ones it did not give.
    pub keys: Map<String, Value>,
    pred: Compiled<T>,
}

impl<T: Copy + PartialEq + std::fmt::Debug> Decide<T> {
    /// Reads `class`'s keys and compiles `pred`; intents the union lacks and inputs the
    /// robot does not model are reported as infos.
    pub fn build<U: IntentUnion<Tag = T>, E: 'static>(
        cx: &mut BuildCx<'_, U, E>,
        class: &str,
        pred: &Pred,
    ) -> Decide<T> {
        let keys = crate::specs::class(class)
            .map(|data| read_class_keys(cx, data))
            .unwrap_or_default();
        let (pred, missing) = Compiled::new(pred, &|n| U::tag_from_name(n));
        for n in missing {
            missing_intent(cx, class, n);
        }
        for input in pred.unmodelled() {
            cx.info(ProblemKind::Unmodelled {
                class: class.to_owned(),
                input: input.to_owned(),
            });
        }
        Decide { keys, pred }
    }
    /// The predicate's answer.
    pub fn wants<U: IntentUnion<Tag = T>, E: 'static>(&self, view: &View<'_, U, E>) -> bool {
        self.pred.is_true() || self.pred.eval(view, &pred_cx(view, &self.keys))
    }
    /// What the answer depends on.
    pub fn watch<U: IntentUnion<Tag = T>, E: 'static>(&self, view: &View<'_, U, E>) -> Watch {
        if self.pred.is_true() {
            Watch::CONSTANT
        } else {
            self.pred.watch(view, &pred_cx(view, &self.keys))
        }
    }
    /// The predicate for tools.
    pub fn describe(&self) -> ClassPredicate {
        self.pred.describe()
    }
}

/// Says (as an info) that `class` names intent `n`, which the union lacks.
pub(crate) fn missing_intent<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    class: &str,
    n: &str,
) {
    cx.info(ProblemKind::BadParams {
        reason: format!(
            "class `{class}` names the user intent `{n}`, which the union `{}` does not have: it can never be pending here",
            U::NAME
        ),
    });
}

/// Assigns what a class-table hook assigns.
pub(crate) fn apply_gates(mods: Mods, m: &mut OperationModifiers) {
    if let Some(v) = mods.carry {
        m.when_carrying = v;
    }
    if let Some(v) = mods.off_treads {
        m.when_off_treads = v;
    }
    if let Some(v) = mods.charger {
        m.when_on_charger = v;
    }
    if let Some(v) = mods.always_delegates {
        m.always_delegates = v;
    }
}

/// The gates of a class that runs anywhere ("+carry +offTreads +charger").
pub(crate) const EVERYWHERE: Mods = Mods::BASE.carry(true).off_treads(true).charger(true);

/// What differs between native classes: the runtime's `Behavior` hooks, with the defaults
/// of the [module documentation](self).
pub trait NativeClass<U: IntentUnion, E: 'static>: Send + 'static {
    /// Behaviors in linked scope whenever it is.
    fn linked_scope(&self) -> Vec<BehaviorId> {
        Vec::new()
    }
    /// Its own operation-modifiers hook, after the base's gates (by default nothing more).
    fn operation_modifiers(
        &self,
        _m: &mut OperationModifiers,
        _hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
    }
    /// Its predicate, when its base has no [`Decide`].
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    /// What its predicate reads, when its base has no [`Decide`] (None: not declared).
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        None
    }
    /// Its predicate for tools, when its base has no [`Decide`].
    fn class_predicate(&self) -> Option<ClassPredicate> {
        None
    }
    /// When its `update` may next act (by default never: it acts on inputs, its actions
    /// and its delegates).
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    /// On activation.
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Every tick while it is active.
    fn update(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// On deactivation.
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// First entry into activatable scope.
    fn on_entered_scope(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// Last exit from activatable scope.
    fn on_left_scope(&mut self, _ctx: &mut Ctx<'_, U, E>) {}
    /// The steps it runs, if it runs its outcome as `Steps`: the base starts the next
    /// one whenever a delegation ends.
    fn steps(&mut self) -> Option<&mut Steps> {
        None
    }
    /// A delegation ended (after the next of its [`steps`](Self::steps) started).
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        _ctx: &mut Ctx<'_, U, E>,
    ) {
    }
    /// Whether it may be stopped now without harm (by default no).
    fn can_be_gently_interrupted(&self, _view: &View<'_, U, E>) -> bool {
        false
    }
    /// Its internal state in words, for tools.
    fn debug_state(&self) -> Option<&str> {
        None
    }
    /// The conditions it owns, for tools.
    fn owned_conditions<'s>(&'s self, _out: &mut Vec<(String, &'s Condition<U, E>)>) {}
    /// The class as [`Any`], for a class that asks it a class-specific question.
    fn as_any(&self) -> Option<&dyn Any> {
        None
    }
}

impl<U: IntentUnion, E: 'static, C: NativeClass<U, E>> Behavior<U, E> for Native<U::Tag, C> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.delegates.clone()
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        self.class.linked_scope()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        apply_gates(self.base.gates, m);
        self.class.operation_modifiers(m, hook);
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        match &self.base.decide {
            Some(d) => d.wants(view),
            None => self.class.wants_to_be_activated(view),
        }
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        match &self.base.decide {
            Some(d) => Some(d.watch(view)),
            None => self.class.activation_watch(view),
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        match &self.base.decide {
            Some(d) => Some(d.describe()),
            None => self.class.class_predicate(),
        }
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        self.class.next_wakeup(view)
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.class.on_activated(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.class.update(ctx);
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.class.on_deactivated(ctx);
    }
    fn on_entered_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.class.on_entered_scope(ctx);
    }
    fn on_left_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.class.on_left_scope(ctx);
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        if let Some(steps) = self.class.steps() {
            steps.next(ctx);
        }
        self.class.on_delegation_done(step, outcome, ctx);
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<U::Tag>>) {
        out.extend(self.base.claims.iter().map(|&tag| ClaimSite {
            tag,
            state: None,
            owner: None,
        }));
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        self.class.can_be_gently_interrupted(view)
    }
    fn debug_state(&self) -> Option<&str> {
        self.class.debug_state()
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        self.class.owned_conditions(out);
    }
    fn as_any(&self) -> Option<&dyn Any> {
        self.class.as_any()
    }
}
