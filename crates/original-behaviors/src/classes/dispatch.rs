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

use std::time::Duration;

use serde_json::Value;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ChoiceCache, Continuation, Ctx, Inputs, KeyReader,
    OperationModifiers, ProblemKind, Severity, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

// ----- the common base ---------------------------------------------------------------------

/// What every `IBehaviorDispatcher` has.
#[derive(Clone, Debug)]
struct Base {
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
        if view.state_of(me) != Some(robot_runtime::behavior::LifecycleState::Active) {
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
        if view.state_of(me) != Some(robot_runtime::behavior::LifecycleState::Active)
            || view.is_delegating(me)
        {
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

// ----- cooldowns ----------------------------------------------------------------------------

/// One child's cooldown (the shared cooldown helper of §2.2): how long, and until when.
#[derive(Clone, Debug)]
struct Cooldown {
    /// `cooldown_s` (None: ≤ 0, no cooldown; `Duration::MAX`: forever).
    length: Option<Duration>,
    /// `cooldown_random_factor`.
    random: f64,
    /// On cooldown until (None: not on cooldown).
    until: Option<Duration>,
}

impl Cooldown {
    fn read<U: IntentUnion, E: 'static>(
        k: &mut KeyReader<'_>,
        cx: &mut BuildCx<'_, U, E>,
    ) -> Option<Self> {
        let mut s = cx.sink();
        let secs = k.req_f64(&mut s, "cooldown_s");
        let random = k.f64_or(&mut s, "cooldown_random_factor", 0.0);
        // With a time multiplier fixed at 1, fast-forward changes nothing.
        k.accept("ignoreFastForward");
        let secs = secs?;
        if random < 0.0 {
            k.bad(
                &mut s,
                "cooldown_random_factor",
                format!("must be >= 0, found {random}"),
            );
            return None;
        }
        let (length, random) = if secs < 0.0 {
            (Some(Duration::MAX), 0.0)
        } else if secs == 0.0 {
            (None, random)
        } else {
            (
                Some(Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)),
                random,
            )
        };
        Some(Self {
            length,
            random,
            until: None,
        })
    }
    fn on_cooldown(&self, now: Duration) -> bool {
        self.until.is_some_and(|t| now < t)
    }
    /// When on cooldown at `now`: when it comes off.
    fn off_at(&self, now: Duration) -> Option<Wakeup> {
        self.until.filter(|t| now < *t).map(|t| {
            if t == Duration::MAX {
                Wakeup::Never
            } else {
                Wakeup::At(t)
            }
        })
    }
    fn remaining(&self, now: Duration) -> Duration {
        self.until.map_or(Duration::ZERO, |t| t.saturating_sub(now))
    }
    fn start<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(len) = self.length else {
            return;
        };
        let now = ctx.clock().now();
        if len == Duration::MAX {
            self.until = Some(Duration::MAX);
            return;
        }
        let mut secs = len.as_secs_f64();
        if self.random > 0.0 {
            let lo = (1.0 - self.random).max(0.0);
            let hi = 1.0 + self.random;
            secs *= lo + (hi - lo) * ctx.random();
        }
        self.until =
            Some(now.saturating_add(Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)));
    }
    fn reset(&mut self) {
        self.until = None;
    }
}

// ----- DispatcherStrictPriority -------------------------------------------------------------

/// `DispatcherStrictPriority` (§2.1): the first child, in list order, that is active or
/// wants to be activated. `actAsSelector`: the first pick of an activation is final.
/// `linkScope`: the children are linked scope, and the dispatcher wants to be activated
/// only when one of them does.
#[derive(Clone, Debug)]
pub struct StrictPriorityDispatcher {
    base: Base,
    link_scope: bool,
    act_as_selector: bool,
    has_chosen: bool,
    choice: ChoiceCache,
}

impl StrictPriorityDispatcher {
    /// A dispatcher over `children` (highest priority first).
    pub fn new(children: Vec<BehaviorId>, interrupt_active: bool) -> Self {
        Self {
            base: Base {
                children,
                interrupt: interrupt_active,
                gentle: false,
            },
            link_scope: false,
            act_as_selector: false,
            has_chosen: false,
            choice: ChoiceCache::new(),
        }
    }
    /// With `linkScope`.
    pub fn linked(mut self) -> Self {
        self.link_scope = true;
        self
    }
    /// With `actAsSelector`.
    pub fn selector(mut self) -> Self {
        self.act_as_selector = true;
        self
    }
    /// With `requireGentleInterruption`.
    pub fn gentle(mut self) -> Self {
        self.base.gentle = true;
        self
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for StrictPriorityDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.children.clone()
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        if self.link_scope {
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
        self.base.modifiers(m, hook);
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        Base::gentle_now(view)
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        !self.link_scope
            || self
                .base
                .children
                .iter()
                .any(|&c| view.wants_to_activate(c))
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        Some(if self.link_scope {
            self.base.any_child_watch(view, |_| None)
        } else {
            Watch::CONSTANT
        })
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        if self.act_as_selector && self.has_chosen && view.is_delegating(view.me()) {
            return Wakeup::Never;
        }
        self.base.scan_wakeup(view, |_| None)
    }
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.has_chosen = false;
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if ctx.is_control_delegated() && !self.base.should_interrupt(ctx) {
            return;
        }
        if self.act_as_selector && self.has_chosen {
            return;
        }
        let current = ctx.current_delegate();
        let desired = ctx.view().first_wanting_cached(
            &self.base.children,
            current,
            |_| None,
            &mut self.choice,
        );
        self.has_chosen = true;
        Base::switch_to(ctx, desired);
    }
}

pub(crate) fn build_strict_priority<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let children = children_by_name(cx);
    let interrupt = read_interrupt(cx);
    let link_scope = cx.bool("linkScope", false);
    let act_as_selector = cx.bool("actAsSelector", false);
    let (interrupt, gentle) = interrupt?;
    Some(Box::new(StrictPriorityDispatcher {
        base: Base {
            children: children?,
            interrupt,
            gentle,
        },
        link_scope,
        act_as_selector,
        has_chosen: false,
        choice: ChoiceCache::new(),
    }))
}

// ----- DispatcherStrictPriorityWithCooldown -------------------------------------------------

/// One child of a cooldown dispatcher.
#[derive(Clone, Debug)]
struct CooldownChild {
    id: BehaviorId,
    cooldown: Cooldown,
    /// `linkedBehaviorTimer` (a behavior-timer index).
    timer: Option<usize>,
    /// `resetLinkedTimerOnDispatcherActivation`.
    reset_on_activation: bool,
}

/// `DispatcherStrictPriorityWithCooldown` (§2.2): strict priority over the children that
/// are not on cooldown; a child's cooldown starts when it stops (seen at the dispatcher's
/// next update), not when it is interrupted.
#[derive(Clone, Debug)]
pub struct CooldownDispatcher {
    base: Base,
    children: Vec<CooldownChild>,
    link_scope: bool,
    reset_on_deactivation: bool,
    last: Option<usize>,
    choice: ChoiceCache,
}

impl CooldownDispatcher {
    fn child_stopped<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>, i: usize) {
        let c = &mut self.children[i];
        c.cooldown.start(ctx);
        if let Some(t) = c.timer {
            ctx.reset_behavior_timer(t);
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for CooldownDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.children.clone()
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        if self.link_scope {
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
        self.base.modifiers(m, hook);
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        Base::gentle_now(view)
    }
    fn cooldown_remaining(&self, child: BehaviorId, now: Duration) -> Option<Duration> {
        self.children
            .iter()
            .find(|c| c.id == child)
            .map(|c| c.cooldown.remaining(now))
            .filter(|d| !d.is_zero())
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let now = view.clock().now();
        !self.link_scope
            || self
                .children
                .iter()
                .any(|c| !c.cooldown.on_cooldown(now) && view.wants_to_activate(c.id))
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let now = view.clock().now();
        Some(if self.link_scope {
            self.base
                .any_child_watch(view, |k| self.children[k].cooldown.off_at(now))
        } else {
            Watch::CONSTANT
        })
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        let now = view.clock().now();
        self.base
            .scan_wakeup(view, |k| self.children[k].cooldown.off_at(now))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        for c in &self.children {
            if let (Some(t), true) = (c.timer, c.reset_on_activation) {
                ctx.reset_behavior_timer(t);
            }
        }
        self.last = None;
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(i) = self.last.take() {
            if !self.reset_on_deactivation {
                self.children[i].cooldown.start(ctx);
            }
            if let Some(t) = self.children[i].timer {
                ctx.reset_behavior_timer(t);
            }
        }
        if self.reset_on_deactivation {
            self.children.iter_mut().for_each(|c| c.cooldown.reset());
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let delegated = ctx.is_control_delegated();
        if let (Some(i), false) = (self.last, delegated) {
            self.child_stopped(ctx, i);
            self.last = None;
        }
        if delegated && !self.base.should_interrupt(ctx) {
            return;
        }
        let now = ctx.clock().now();
        let current = ctx.current_delegate();
        let children = &self.children;
        let desired = ctx.view().first_wanting_cached(
            &self.base.children,
            current,
            |k| children[k].cooldown.off_at(now),
            &mut self.choice,
        );
        if let Some(d) = desired {
            self.last = self.base.children.iter().position(|c| *c == d);
        }
        Base::switch_to(ctx, desired);
    }
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

pub(crate) fn build_with_cooldown<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let children = entries(
        cx,
        |k, cx, id| {
            let cooldown = Cooldown::read(k, cx);
            let mut s = cx.sink();
            let timer = match k.str(&mut s, "linkedBehaviorTimer") {
                Some(t) => match crate::robot_state::BehaviorTimers::index(t) {
                    Some(i) => Some(i),
                    None => {
                        k.bad(
                            &mut s,
                            "linkedBehaviorTimer",
                            format!("unknown behavior timer `{t}`"),
                        );
                        return None;
                    }
                },
                None => None,
            };
            let reset =
                timer.is_some() && k.bool(&mut s, "resetLinkedTimerOnDispatcherActivation", false);
            Some(CooldownChild {
                id,
                cooldown: cooldown?,
                timer,
                reset_on_activation: reset,
            })
        },
        "behavior",
        false,
    );
    let interrupt = read_interrupt(cx);
    let link_scope = cx.bool("linkScope", false);
    let reset = cx.bool("resetCooldownOnDeactivation", false);
    let children = children?;
    let (interrupt, gentle) = interrupt?;
    Some(Box::new(CooldownDispatcher {
        base: Base {
            children: children.iter().map(|c| c.id).collect(),
            interrupt,
            gentle,
        },
        children,
        link_scope,
        reset_on_deactivation: reset,
        last: None,
        choice: ChoiceCache::new(),
    }))
}

// ----- DispatcherRandom ----------------------------------------------------------------------

#[derive(Clone, Debug)]
struct RandomChild {
    id: BehaviorId,
    weight: f64,
    cooldown: Cooldown,
}

/// `DispatcherRandom` (§2.3): when nothing is delegated, a child off cooldown that wants to
/// run, drawn with probability weight / Σ weights; exactly one child runs per activation;
/// its cooldown starts when it ends or when the dispatcher is interrupted.
#[derive(Clone, Debug)]
pub struct RandomDispatcher {
    base: Base,
    children: Vec<RandomChild>,
    end_after: bool,
    last: Option<usize>,
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for RandomDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.children.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        self.base.modifiers(m, hook);
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        Base::gentle_now(view)
    }
    fn cooldown_remaining(&self, child: BehaviorId, now: Duration) -> Option<Duration> {
        self.children
            .iter()
            .find(|c| c.id == child)
            .map(|c| c.cooldown.remaining(now))
            .filter(|d| !d.is_zero())
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        Base::idle_wakeup(view)
    }
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.end_after = false;
        self.last = None;
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(i) = self.last.take() {
            self.children[i].cooldown.start(ctx);
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || ctx.is_control_delegated() {
            return;
        }
        if self.end_after {
            let _ = ctx.cancel_self();
            return;
        }
        if let Some(i) = self.last.take() {
            self.children[i].cooldown.start(ctx);
        }
        self.end_after = true;
        let now = ctx.clock().now();
        // Ask every child once (the original's candidates list).
        let wanting: Vec<bool> = self
            .children
            .iter()
            .map(|c| ctx.wants_to_activate(c.id))
            .collect();
        let total: f64 = self
            .children
            .iter()
            .zip(&wanting)
            .filter(|(c, w)| **w && !c.cooldown.on_cooldown(now))
            .map(|(c, _)| c.weight)
            .sum();
        let pick = if total > 1e-5 {
            let mut x = ctx.random() * total;
            let mut chosen = None;
            for (i, (c, w)) in self.children.iter().zip(&wanting).enumerate() {
                if !*w || c.cooldown.on_cooldown(now) || c.weight <= 0.0 {
                    continue;
                }
                chosen = Some(i);
                if x < c.weight {
                    break;
                }
                x -= c.weight;
            }
            chosen
        } else {
            // The smallest remaining cooldown among the children that want to run,
            // ignoring cooldowns (ties: the earliest).
            self.children
                .iter()
                .zip(&wanting)
                .enumerate()
                .filter(|(_, (_, w))| **w)
                .min_by_key(|(i, (c, _))| (c.cooldown.remaining(now), *i))
                .map(|(i, _)| i)
        };
        if let Some(i) = pick {
            self.last = Some(i);
            let _ = ctx.delegate_if_in_control(self.children[i].id, Continuation::None);
        }
    }
}

pub(crate) fn build_random<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let children = entries(
        cx,
        |k, cx, id| {
            let mut s = cx.sink();
            let weight = k.req_f64(&mut s, "weight");
            if let Some(w) = weight.filter(|w| *w < 0.0) {
                k.bad(&mut s, "weight", format!("must be >= 0, found {w}"));
                return None;
            }
            let cooldown = Cooldown::read(k, cx);
            Some(RandomChild {
                id,
                weight: weight?,
                cooldown: cooldown?,
            })
        },
        "behavior",
        false,
    );
    forced_no_interrupt(cx);
    let children = children?;
    Some(Box::new(RandomDispatcher {
        base: Base {
            children: children.iter().map(|c| c.id).collect(),
            interrupt: false,
            gentle: false,
        },
        children,
        end_after: false,
        last: None,
    }))
}

// ----- DispatcherQueue -----------------------------------------------------------------------

/// `DispatcherQueue` (§2.4): runs its children once each, in order, skipping (for this
/// activation) a child that does not want to run when its turn comes; never interrupts a
/// running child; ends after the last one.
#[derive(Clone, Debug)]
pub struct QueueDispatcher {
    base: Base,
    next: usize,
}

impl QueueDispatcher {
    /// A queue of `children`.
    pub fn new(children: Vec<BehaviorId>) -> Self {
        Self {
            base: Base {
                children,
                interrupt: false,
                gentle: false,
            },
            next: 0,
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for QueueDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.children.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        self.base.modifiers(m, hook);
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        Base::gentle_now(view)
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        Base::idle_wakeup(view)
    }
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.next = 0;
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || ctx.is_control_delegated() {
            return;
        }
        if self.next >= self.base.children.len() {
            let _ = ctx.cancel_self();
            return;
        }
        while let Some(&c) = self.base.children.get(self.next) {
            self.next += 1;
            if ctx.wants_to_activate(c) && ctx.delegate_if_in_control(c, Continuation::None).is_ok()
            {
                return;
            }
        }
    }
}

pub(crate) fn build_queue<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let children = children_by_name(cx);
    forced_no_interrupt(cx);
    Some(Box::new(QueueDispatcher::new(children?)))
}

// ----- DispatcherScoring ---------------------------------------------------------------------

/// A piecewise-linear curve `{nodes: [{x, y}, ...]}`, clamped at both ends.
#[derive(Clone, Debug, PartialEq)]
struct Curve(Vec<(f64, f64)>);

impl Curve {
    fn at(&self, x: f64) -> f64 {
        let n = &self.0;
        match n.len() {
            0 => 1.0,
            1 => n[0].1,
            _ => {
                if x <= n[0].0 {
                    return n[0].1;
                }
                for w in n.windows(2) {
                    let ((x0, y0), (x1, y1)) = (w[0], w[1]);
                    if x <= x1 {
                        let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 1.0 };
                        return y0 + (y1 - y0) * t;
                    }
                }
                n[n.len() - 1].1
            }
        }
    }
}

#[derive(Clone, Debug)]
struct ScoredChild {
    id: BehaviorId,
    flat: f64,
    repetition: Curve,
    activated: Curve,
    chosen_at: Option<Duration>,
    replaced_at: Option<Duration>,
}

/// `DispatcherScoring` (§2.7): the child with the highest score among those active or
/// wanting to run (it must beat 0, and every earlier candidate, by more than 1e-5). Score
/// = `flatScore` × the activated penalty (time since chosen) while it is the current
/// choice, else × the repetition penalty (time since it was replaced). `emotionScorers`
/// is not supported (its format is not specified).
#[derive(Clone, Debug)]
pub struct ScoringDispatcher {
    base: Base,
    children: Vec<ScoredChild>,
    current: Option<usize>,
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ScoringDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.base.children.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        self.base.modifiers(m, hook);
    }
    fn can_be_gently_interrupted(&self, view: &View<'_, U, E>) -> bool {
        Base::gentle_now(view)
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Its scores change with time while it may interrupt: every tick then.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match self.base.scan_wakeup(view, |_| None) {
            Wakeup::Never => Wakeup::Never,
            _ => Wakeup::EveryTick,
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if ctx.is_control_delegated() && !self.base.should_interrupt(ctx) {
            return;
        }
        let now = ctx.clock().now();
        let current = ctx.current_delegate();
        let mut best: Option<(usize, f64)> = None;
        for (i, c) in self.children.iter().enumerate() {
            let candidate = Some(c.id) == current || ctx.wants_to_activate(c.id);
            if !candidate {
                continue;
            }
            let since =
                |t: Option<Duration>| t.map_or(f64::MAX, |t| now.saturating_sub(t).as_secs_f64());
            let score = if self.current == Some(i) {
                c.flat * c.activated.at(since(c.chosen_at))
            } else {
                c.flat * c.repetition.at(since(c.replaced_at))
            };
            let beats = best.map_or(score > 1e-5, |(_, b)| score > b + 1e-5);
            if beats {
                best = Some((i, score));
            }
        }
        let Some((i, _)) = best else {
            return;
        };
        if self.current != Some(i) {
            if let Some(p) = self.current {
                self.children[p].replaced_at = Some(now);
            }
            self.children[i].chosen_at = Some(now);
            self.current = Some(i);
        }
        Base::switch_to(ctx, Some(self.children[i].id));
    }
}

fn read_curve<U: IntentUnion, E: 'static>(
    k: &mut KeyReader<'_>,
    cx: &mut BuildCx<'_, U, E>,
    key: &str,
) -> Option<Curve> {
    let mut s = cx.sink();
    let Some(o) = k.obj(&mut s, key) else {
        return if k.has(key) {
            None
        } else {
            Some(Curve(Vec::new()))
        };
    };
    let nodes = o.get("nodes").and_then(Value::as_array);
    let Some(nodes) = nodes else {
        k.bad(&mut s, key, "needs `nodes`: [{\"x\": .., \"y\": ..}, ...]");
        return None;
    };
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        let x = n.get("x").and_then(Value::as_f64);
        let y = n.get("y").and_then(Value::as_f64);
        match (x, y) {
            (Some(x), Some(y)) if out.last().is_none_or(|(px, _): &(f64, f64)| x >= *px) => {
                out.push((x, y))
            }
            _ => {
                k.bad(
                    &mut s,
                    key,
                    "nodes must be {\"x\": number, \"y\": number} with x ascending",
                );
                return None;
            }
        }
    }
    Some(Curve(out))
}

pub(crate) fn build_scoring<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let children = entries(
        cx,
        |k, cx, id| {
            let mut s = cx.sink();
            let Some(scoring) = k.obj(&mut s, "scoring") else {
                k.required(&mut s, "scoring");
                return None;
            };
            cx.nested_at(scoring, k.at("scoring"), |sk, cx| {
                let mut s = cx.sink();
                if sk.has("emotionScorers") {
                    sk.accept("emotionScorers");
                    sk.bad(&mut s, "emotionScorers", "mood scoring is not supported (its format is not specified); use `flatScore`");
                    return None;
                }
                let flat = sk.f64_or(&mut s, "flatScore", 0.0);
                let repetition = read_curve(sk, cx, "repetitionPenalty");
                let activated = read_curve(sk, cx, "activatedPenalty");
                Some(ScoredChild {
                    id,
                    flat,
                    repetition: repetition?,
                    activated: activated?,
                    chosen_at: None,
                    replaced_at: None,
                })
            })
        },
        "behaviorID",
        true,
    );
    let interrupt = read_interrupt(cx);
    let children = children?;
    let (interrupt, gentle) = interrupt?;
    Some(Box::new(ScoringDispatcher {
        base: Base {
            children: children.iter().map(|c| c.id).collect(),
            interrupt,
            gentle,
        },
        children,
        current: None,
    }))
}

// ----- DispatcherPassThrough -----------------------------------------------------------------

/// `DispatcherPassThrough` (§2.5): wants to run when its delegate (global ID, linked scope)
/// does, has its delegate's operation modifiers, delegates to it on activation, and ends as
/// soon as nothing is delegated. Never allows a gentle interruption.
#[derive(Clone, Debug)]
pub struct PassThroughDispatcher {
    delegate: BehaviorId,
}

impl PassThroughDispatcher {
    /// A pass-through to `delegate`.
    pub fn new(delegate: BehaviorId) -> Self {
        Self { delegate }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for PassThroughDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        vec![self.delegate]
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        vec![self.delegate]
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        *m = hook(self.delegate);
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        view.wants_to_activate(self.delegate)
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        Some(view.activation_watch(self.delegate))
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        Base::idle_wakeup(view)
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.wants_to_activate(self.delegate) {
            let _ = ctx.delegate_if_in_control(self.delegate, Continuation::None);
        } else {
            tracing::error!(behavior = %ctx.my_name(), "PassThrough.DelegateDoesNotWantToRun");
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_active() && !ctx.is_control_delegated() {
            let _ = ctx.cancel_self();
        }
    }
}

pub(crate) fn build_pass_through<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let name = cx.req_str("delegateID")?;
    let id = cx.delegate_global(name, "delegateID")?;
    Some(Box::new(PassThroughDispatcher::new(id)))
}

// ----- DispatcherRerun -----------------------------------------------------------------------

/// `DispatcherRerun` (§2.6): delegates to `delegateID` (global ID) `numRuns` times (any
/// negative value: forever), each time nothing is delegated and the delegate wants to run
/// (otherwise it waits); ends when the runs are used up (`numRuns` 0: at once). Every gate
/// open; does not always delegate.
#[derive(Clone, Debug)]
pub struct RerunDispatcher {
    child: BehaviorId,
    runs: Option<u32>,
    remaining: Option<u32>,
}

impl RerunDispatcher {
    /// Reruns `child` `runs` times (None: forever).
    pub fn new(child: BehaviorId, runs: Option<u32>) -> Self {
        Self {
            child,
            runs,
            remaining: runs,
        }
    }
    fn step<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_control_delegated() {
            return;
        }
        if self.remaining == Some(0) {
            let _ = ctx.cancel_self();
            return;
        }
        if ctx.wants_to_activate(self.child)
            && ctx
                .delegate_if_in_control(self.child, Continuation::None)
                .is_ok()
        {
            if let Some(r) = self.remaining.as_mut() {
                *r -= 1;
            }
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for RerunDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        vec![self.child]
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = false;
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Not delegating, it waits for its delegate to want to run.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match Base::idle_wakeup(view) {
            Wakeup::EveryTick if self.remaining != Some(0) => {
                view.activation_watch(self.child).until
            }
            w => w,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.remaining = self.runs;
        self.step(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_active() {
            self.step(ctx);
        }
    }
}

pub(crate) fn build_rerun<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let name = cx.req_str("delegateID");
    let runs = cx.req_i64("numRuns");
    cx.accept("presetConditions");
    cx.bool("presetConditions", false);
    cx.accept("behaviors");
    let id = cx.delegate_global(name?, "delegateID");
    let runs = runs?;
    if !(i64::from(i8::MIN)..=i64::from(i8::MAX)).contains(&runs) {
        cx.bad_value(
            "numRuns",
            format!("must fit an int8 (-128 to 127), found {runs}"),
        );
        return None;
    }
    let runs = (runs >= 0).then_some(runs as u32);
    Some(Box::new(RerunDispatcher::new(id?, runs)))
}
