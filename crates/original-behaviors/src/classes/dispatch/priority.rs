//! `DispatcherStrictPriority` (§2.1) and `DispatcherStrictPriorityWithCooldown` (§2.2).

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ChoiceCache, Ctx, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

use super::cooldown::Cooldown;
use super::{children_by_name, entries, read_interrupt, Base, DispatchPolicy, Dispatcher};

// ----- DispatcherStrictPriority -------------------------------------------------------------

/// `DispatcherStrictPriority` (§2.1): the first child, in list order, that is active or
/// wants to be activated. `actAsSelector`: the first pick of an activation is final.
/// `linkScope`: the children are linked scope, and the dispatcher wants to be activated
/// only when one of them does.
#[derive(Clone, Debug)]
pub struct StrictPriority {
    link_scope: bool,
    act_as_selector: bool,
    has_chosen: bool,
    choice: ChoiceCache,
}

impl Dispatcher<StrictPriority> {
    /// A dispatcher over `children` (highest priority first).
    pub fn new(children: Vec<BehaviorId>, interrupt_active: bool) -> Self {
        Self::with(
            Base {
                children,
                interrupt: interrupt_active,
                gentle: false,
            },
            StrictPriority {
                link_scope: false,
                act_as_selector: false,
                has_chosen: false,
                choice: ChoiceCache::new(),
            },
        )
    }
    /// With `linkScope`.
    pub fn linked(mut self) -> Self {
        self.policy.link_scope = true;
        self
    }
    /// With `actAsSelector`.
    pub fn selector(mut self) -> Self {
        self.policy.act_as_selector = true;
        self
    }
    /// With `requireGentleInterruption`.
    pub fn gentle(mut self) -> Self {
        self.base.gentle = true;
        self
    }
}

impl DispatchPolicy for StrictPriority {
    fn links_scope(&self) -> bool {
        self.link_scope
    }
    fn wants_to_be_activated<U: IntentUnion, E: 'static>(
        &self,
        base: &Base,
        view: &View<'_, U, E>,
    ) -> bool {
        !self.link_scope || base.children.iter().any(|&c| view.wants_to_activate(c))
    }
    fn activation_watch<U: IntentUnion, E: 'static>(
        &self,
        base: &Base,
        view: &View<'_, U, E>,
    ) -> Option<Watch> {
        Some(if self.link_scope {
            base.any_child_watch(view, |_| None)
        } else {
            Watch::CONSTANT
        })
    }
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        if self.act_as_selector && self.has_chosen && view.is_delegating(view.me()) {
            return Wakeup::Never;
        }
        base.scan_wakeup(view, |_| None)
    }
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, _ctx: &mut Ctx<'_, U, E>) {
        self.has_chosen = false;
    }
    fn update<U: IntentUnion, E: 'static>(&mut self, base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if ctx.is_control_delegated() && !base.should_interrupt(ctx) {
            return;
        }
        if self.act_as_selector && self.has_chosen {
            return;
        }
        let current = ctx.current_delegate();
        let desired =
            ctx.view()
                .first_wanting_cached(&base.children, current, |_| None, &mut self.choice);
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
    Some(Box::new(Dispatcher::with(
        Base {
            children: children?,
            interrupt,
            gentle,
        },
        StrictPriority {
            link_scope,
            act_as_selector,
            has_chosen: false,
            choice: ChoiceCache::new(),
        },
    )))
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
pub struct CooldownPolicy {
    children: Vec<CooldownChild>,
    link_scope: bool,
    reset_on_deactivation: bool,
    last: Option<usize>,
    choice: ChoiceCache,
}

impl CooldownPolicy {
    fn child_stopped<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>, i: usize) {
        let c = &mut self.children[i];
        c.cooldown.start(ctx);
        if let Some(t) = c.timer {
            ctx.reset_behavior_timer(t);
        }
    }
}

impl DispatchPolicy for CooldownPolicy {
    fn links_scope(&self) -> bool {
        self.link_scope
    }
    fn cooldown_remaining(&self, child: BehaviorId, now: Duration) -> Option<Duration> {
        super::cooldown::remaining_of(
            self.children.iter().map(|c| (c.id, &c.cooldown)),
            child,
            now,
        )
    }
    fn wants_to_be_activated<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> bool {
        let now = view.clock().now();
        !self.link_scope
            || self
                .children
                .iter()
                .any(|c| !c.cooldown.on_cooldown(now) && view.wants_to_activate(c.id))
    }
    fn activation_watch<U: IntentUnion, E: 'static>(
        &self,
        base: &Base,
        view: &View<'_, U, E>,
    ) -> Option<Watch> {
        let now = view.clock().now();
        Some(if self.link_scope {
            base.any_child_watch(view, |k| self.children[k].cooldown.off_at(now))
        } else {
            Watch::CONSTANT
        })
    }
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        let now = view.clock().now();
        base.scan_wakeup(view, |k| self.children[k].cooldown.off_at(now))
    }
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, ctx: &mut Ctx<'_, U, E>) {
        for c in &self.children {
            if let (Some(t), true) = (c.timer, c.reset_on_activation) {
                ctx.reset_behavior_timer(t);
            }
        }
        self.last = None;
    }
    fn on_deactivated<U: IntentUnion, E: 'static>(
        &mut self,
        _base: &Base,
        ctx: &mut Ctx<'_, U, E>,
    ) {
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
    fn update<U: IntentUnion, E: 'static>(&mut self, base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let delegated = ctx.is_control_delegated();
        if let (Some(i), false) = (self.last, delegated) {
            self.child_stopped(ctx, i);
            self.last = None;
        }
        if delegated && !base.should_interrupt(ctx) {
            return;
        }
        let now = ctx.clock().now();
        let current = ctx.current_delegate();
        let children = &self.children;
        let desired = ctx.view().first_wanting_cached(
            &base.children,
            current,
            |k| children[k].cooldown.off_at(now),
            &mut self.choice,
        );
        if let Some(d) = desired {
            self.last = base.children.iter().position(|c| *c == d);
        }
        Base::switch_to(ctx, desired);
    }
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
    Some(Box::new(Dispatcher::with(
        Base {
            children: children.iter().map(|c| c.id).collect(),
            interrupt,
            gentle,
        },
        CooldownPolicy {
            children,
            link_scope,
            reset_on_deactivation: reset,
            last: None,
            choice: ChoiceCache::new(),
        },
    )))
}
