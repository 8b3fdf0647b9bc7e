//! The dispatchers (spec §2).
//!
//! The common base of strict priority, strict priority with cooldown, random, queue and
//! scoring (`IBehaviorDispatcher`, §2.0): every tick, after its own bookkeeping, when
//! nothing is delegated **or** it should interrupt (`interruptActiveBehavior`, and with
//! `requireGentleInterruption` only when its delegate allows a gentle interruption), it asks
//! for its desired child and switches to it if it differs from the current one (a `None`
//! leaves the current delegate running). Its activation gates are the OR of its children's
//! class hooks; it always delegates, so it ends on any update that leaves it with nothing
//! delegated. It can be gently interrupted when nothing is delegated or its delegate can.
//! A running child is never re-asked whether it wants to run.
//!
//! `DispatcherPassThrough` and `DispatcherRerun` are not of that base (§2.5, §2.6).
//!
//! One [`Dispatcher`] carries the hooks every dispatcher shares (not updated while
//! inactive, its children as delegates and, with `linkScope`, as linked scope, its
//! operation modifiers, its gentle interruption) and hands the rest to its
//! [`DispatchPolicy`], one per class (`priority`: strict priority and with cooldown;
//! `random`: random and queue; `scoring`; `single`: pass-through and rerun, over one
//! delegate). `cooldown` is the cooldown clock of §2.2.

mod cooldown;
mod priority;
mod random;
mod scoring;
mod single;

use std::fmt;
use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, Continuation, Ctx, Inputs, KeyReader, LifecycleState,
    OperationModifiers, ProblemKind, Severity, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

pub(crate) use priority::{build_strict_priority, build_with_cooldown};
pub use priority::{CooldownPolicy, StrictPriority};
pub(crate) use random::{build_queue, build_random};
pub use random::{Queue, RandomPolicy};
pub(crate) use scoring::build_scoring;
pub use scoring::Scoring;
pub(crate) use single::{build_pass_through, build_rerun};
pub use single::{PassThrough, Rerun};

/// `DispatcherStrictPriority` (§2.1).
pub type StrictPriorityDispatcher = Dispatcher<StrictPriority>;
/// `DispatcherStrictPriorityWithCooldown` (§2.2).
pub type CooldownDispatcher = Dispatcher<CooldownPolicy>;
/// `DispatcherRandom` (§2.3).
pub type RandomDispatcher = Dispatcher<RandomPolicy>;
/// `DispatcherQueue` (§2.4).
pub type QueueDispatcher = Dispatcher<Queue>;
/// `DispatcherScoring` (§2.7).
pub type ScoringDispatcher = Dispatcher<Scoring>;
/// `DispatcherPassThrough` (§2.5).
pub type PassThroughDispatcher = Dispatcher<PassThrough>;
/// `DispatcherRerun` (§2.6).
pub type RerunDispatcher = Dispatcher<Rerun>;

// ----- the dispatcher and its policy -------------------------------------------------------

/// A dispatcher: its [`Base`] (children, interruption) and the policy that chooses among
/// the children. The one implementation of the runtime's `Behavior` for every dispatcher.
#[derive(Clone, Debug)]
pub struct Dispatcher<P> {
    base: Base,
    policy: P,
}

impl<P: DispatchPolicy> Dispatcher<P> {
    fn with(base: Base, policy: P) -> Self {
        Self { base, policy }
    }
}

/// What differs between dispatchers. Every hook gets the dispatcher's [`Base`]; the
/// defaults are those of the `IBehaviorDispatcher` base (§2.0).
pub trait DispatchPolicy: Clone + fmt::Debug + Send + 'static {
    /// Whether the children are the dispatcher's linked scope (`linkScope`).
    fn links_scope(&self) -> bool {
        false
    }
    /// The class's operation modifiers hook: by default the OR of the children's gates,
    /// always delegating.
    fn operation_modifiers(
        &self,
        base: &Base,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        base.modifiers(m, hook);
    }
    /// By default: nothing delegated, or the delegate allows a gentle interruption.
    fn can_be_gently_interrupted<U: IntentUnion, E: 'static>(&self, view: &View<'_, U, E>) -> bool {
        Base::gentle_now(view)
    }
    /// For tools: how long `child` stays on cooldown (None: it has none).
    fn cooldown_remaining(&self, _child: BehaviorId, _now: Duration) -> Option<Duration> {
        None
    }
    /// By default it always wants to run.
    fn wants_to_be_activated<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        _view: &View<'_, U, E>,
    ) -> bool {
        true
    }
    /// What `wants_to_be_activated` reads (by default nothing: it is constant).
    fn activation_watch<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        _view: &View<'_, U, E>,
    ) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// When its `update` may next act.
    fn next_wakeup<U: IntentUnion, E: 'static>(&self, base: &Base, view: &View<'_, U, E>)
        -> Wakeup;
    /// On activation.
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, _ctx: &mut Ctx<'_, U, E>) {
    }
    /// On deactivation.
    fn on_deactivated<U: IntentUnion, E: 'static>(
        &mut self,
        _base: &Base,
        _ctx: &mut Ctx<'_, U, E>,
    ) {
    }
    /// Every tick while it is active.
    fn update<U: IntentUnion, E: 'static>(&mut self, base: &Base, ctx: &mut Ctx<'_, U, E>);
}

impl<U: IntentUnion, E: 'static, P: DispatchPolicy> Behavior<U, E> for Dispatcher<P> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.children.clone()
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        if self.policy.links_scope() {
            self.base.children.clone()
        } else {
            Vec::new()
        }
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        self.policy.operation_modifiers(&self.base, m, hook);
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        self.policy.can_be_gently_interrupted(view)
    }
    fn cooldown_remaining(&self, child: BehaviorId, now: Duration) -> Option<Duration> {
        self.policy.cooldown_remaining(child, now)
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        self.policy.wants_to_be_activated(&self.base, view)
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        self.policy.activation_watch(&self.base, view)
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        self.policy.next_wakeup(&self.base, view)
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.policy.on_activated(&self.base, ctx);
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.policy.on_deactivated(&self.base, ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.policy.update(&self.base, ctx);
    }
}

// ----- the common base ---------------------------------------------------------------------

/// What every dispatcher has: its children (in priority order) and when it interrupts
/// them.
#[derive(Clone, Debug)]
pub struct Base {
    children: Vec<BehaviorId>,
    interrupt: bool,
    gentle: bool,
}

impl Base {
    fn modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.or_over(self.children.iter().map(|&c| hook(c)));
        m.always_delegates = true;
    }
    /// Nothing delegated, or the delegate allows a gentle interruption.
    fn gentle_now<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> bool {
        match view.delegate_of(view.me()) {
            None => !view.is_delegating(view.me()),
            Some(d) => view.can_be_gently_interrupted(d),
        }
    }
    fn should_interrupt<U: IntentUnion, E: 'static>(&self, ctx: &Ctx<'_, U, E>) -> bool {
        self.interrupt && (!self.gentle || Self::gentle_now(&ctx.view()))
    }
    /// The wake-up of a dispatcher that chooses among its children every tick while it
    /// delegates (see `Behavior::next_wakeup`): inactive, its update does nothing; active
    /// and not delegating, it acts (delegates or ends) at once; delegating without
    /// interrupting, only a stack change moves it; interrupting, its scan asks the children
    /// before the current delegate (skipping those `skip` refuses, a cooldown), so it may
    /// choose differently when one of their activation watches ends, or at `extra`.
    fn scan_wakeup<U: IntentUnion, E: 'static>(
        &self,
        view: &View<'_, U, E>,
        skip: impl Fn(usize) -> Option<Wakeup>,
    ) -> Wakeup {
        let me = view.me();
        if view.state_of(me) != Some(LifecycleState::Active) {
            return Wakeup::Never;
        }
        if !view.is_delegating(me) {
            return Wakeup::EveryTick;
        }
        // The gentle test reads only the stack and the delegates' own state (the
        // contract of `can_be_gently_interrupted`).
        if !self.interrupt || (self.gentle && !Self::gentle_now(view)) {
            return Wakeup::Never;
        }
        let current = view.delegate_of(me);
        let mut w = Wakeup::Never;
        for (k, &c) in self.children.iter().enumerate() {
            if Some(c) == current {
                break;
            }
            w = w.min(match skip(k) {
                Some(until) => until,
                None => view.activation_watch(c).until,
            });
            if w == Wakeup::EveryTick {
                break;
            }
        }
        w
    }
    /// The activation watch of "some child (that `skip` does not refuse) wants to run"
    /// (`linkScope`): every child's, as a false answer asked them all.
    fn any_child_watch<U: IntentUnion, E: 'static>(
        &self,
        view: &View<'_, U, E>,
        skip: impl Fn(usize) -> Option<Wakeup>,
    ) -> Watch {
        let mut w = Watch::reads(Inputs::STACK);
        for (k, &c) in self.children.iter().enumerate() {
            w = w.and(match skip(k) {
                Some(until) => Watch::reads(Inputs::STACK).until(until),
                None => view.activation_watch(c),
            });
        }
        w
    }
    /// Active: a dispatcher that chooses only when nothing is delegated.
    fn idle_wakeup<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> Wakeup {
        let me = view.me();
        if view.state_of(me) != Some(LifecycleState::Active) || view.is_delegating(me) {
            Wakeup::Never
        } else {
            Wakeup::EveryTick
        }
    }
    /// Switches to `desired` if it differs from the current delegate.
    fn switch_to<U: IntentUnion, E: 'static>(ctx: &mut Ctx<'_, U, E>, desired: Option<BehaviorId>) {
        let Some(c) = desired else {
            return;
        };
        match ctx.current_delegate() {
            Some(cur) if cur == c => {}
            Some(_) => {
                let _ = ctx.delegate_now(c, Continuation::None);
            }
            None if ctx.is_control_delegated() => {
                let _ = ctx.delegate_now(c, Continuation::None);
            }
            None => {
                let _ = ctx.delegate_if_in_control(c, Continuation::None);
            }
        }
    }
}

/// Reads `interruptActiveBehavior` (required) and `requireGentleInterruption`.
fn read_interrupt<U: IntentUnion, E: 'static>(cx: &mut BuildCx<'_, U, E>) -> Option<(bool, bool)> {
    let interrupt = cx.req_bool("interruptActiveBehavior");
    let gentle = cx.bool("requireGentleInterruption", false);
    let interrupt = interrupt?;
    if gentle && !interrupt {
        cx.bad_value(
            "requireGentleInterruption",
            "needs `interruptActiveBehavior: true` (it only restricts interruptions)",
        );
        return None;
    }
    Some((interrupt, gentle))
}

/// `interruptActiveBehavior` of a dispatcher that forces it false: accepted; `true` is a
/// warning (the original warned and ignored it).
fn forced_no_interrupt<U: IntentUnion, E: 'static>(cx: &mut BuildCx<'_, U, E>) {
    if cx.bool("interruptActiveBehavior", false) {
        let path = cx.path().to_owned() + ".interruptActiveBehavior";
        let mut s = cx.sink();
        s.push_as(
            Severity::Warning,
            path,
            ProblemKind::BadValue {
                key: "interruptActiveBehavior".into(),
                reason: "this dispatcher never interrupts; `true` is ignored".into(),
            },
        );
    }
}

/// `behaviors`: an array of names (anonymous behaviors first, then global IDs).
fn children_by_name<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Vec<BehaviorId>> {
    let names = cx.req_array("behaviors")?;
    let mut out = Vec::with_capacity(names.len());
    let mut ok = true;
    for (i, v) in names.iter().enumerate() {
        let key = format!("behaviors[{i}]");
        match v.as_str() {
            Some(n) => match cx.delegate(n, &key) {
                Some(id) => out.push(id),
                None => ok = false,
            },
            None => {
                ok = false;
                cx.problem(
                    &key,
                    ProblemKind::WrongType {
                        key: "behaviors".into(),
                        expected: "an array of behavior names",
                    },
                );
            }
        }
    }
    ok.then_some(out)
}

/// Reads `behaviors[]` entries `{"behavior": name, ...}` with `entry` reading the rest.
fn entries<U: IntentUnion, E: 'static, T>(
    cx: &mut BuildCx<'_, U, E>,
    mut entry: impl FnMut(&mut KeyReader<'_>, &mut BuildCx<'_, U, E>, BehaviorId) -> Option<T>,
    name_key: &str,
    global_only: bool,
) -> Option<Vec<T>> {
    let list = cx.req_array("behaviors")?;
    let mut out = Vec::with_capacity(list.len());
    let mut ok = true;
    for (i, v) in list.iter().enumerate() {
        let key = format!("behaviors[{i}]");
        let Some(o) = v.as_object() else {
            ok = false;
            cx.problem(
                &key,
                ProblemKind::WrongType {
                    key: "behaviors".into(),
                    expected: "an array of objects",
                },
            );
            continue;
        };
        let got = cx.nested(o, &key, |k, cx| {
            let mut s = cx.sink();
            let name = k.req_str(&mut s, name_key);
            let at = format!("{key}.{name_key}");
            let id = match name {
                Some(n) if global_only => cx.delegate_global(n, &at),
                Some(n) => cx.delegate(n, &at),
                None => None,
            };
            let t = entry(k, cx, id.unwrap_or(BehaviorId::from_index(usize::MAX)));
            id.and(t)
        });
        match got {
            Some(t) => out.push(t),
            None => ok = false,
        }
    }
    ok.then_some(out)
}
