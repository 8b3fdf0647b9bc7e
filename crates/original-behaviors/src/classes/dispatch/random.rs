//! `DispatcherRandom` (§2.3) and `DispatcherQueue` (§2.4): they choose only when nothing
//! is delegated and never interrupt.

use std::time::Duration;

use robot_runtime::behavior::{Behavior, BehaviorId, BuildCx, Continuation, Ctx, View, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::cooldown::Cooldown;
use super::{children_by_name, entries, forced_no_interrupt, Base, DispatchPolicy, Dispatcher};

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
pub struct RandomPolicy {
    children: Vec<RandomChild>,
    end_after: bool,
    last: Option<usize>,
}

impl DispatchPolicy for RandomPolicy {
    fn cooldown_remaining(&self, child: BehaviorId, now: Duration) -> Option<Duration> {
        super::cooldown::remaining_of(
            self.children.iter().map(|c| (c.id, &c.cooldown)),
            child,
            now,
        )
    }
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        Base::idle_wakeup(view)
    }
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, _ctx: &mut Ctx<'_, U, E>) {
        self.end_after = false;
        self.last = None;
    }
    fn on_deactivated<U: IntentUnion, E: 'static>(
        &mut self,
        _base: &Base,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        if let Some(i) = self.last.take() {
            self.children[i].cooldown.start(ctx);
        }
    }
    fn update<U: IntentUnion, E: 'static>(&mut self, _base: &Base, ctx: &mut Ctx<'_, U, E>) {
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
    Some(Box::new(Dispatcher::with(
        Base {
            children: children.iter().map(|c| c.id).collect(),
            interrupt: false,
            gentle: false,
        },
        RandomPolicy {
            children,
            end_after: false,
            last: None,
        },
    )))
}

// ----- DispatcherQueue -----------------------------------------------------------------------

/// `DispatcherQueue` (§2.4): runs its children once each, in order, skipping (for this
/// activation) a child that does not want to run when its turn comes; never interrupts a
/// running child; ends after the last one.
#[derive(Clone, Debug)]
pub struct Queue {
    next: usize,
}

impl Dispatcher<Queue> {
    /// A queue of `children`.
    pub fn new(children: Vec<BehaviorId>) -> Self {
        Self::with(
            Base {
                children,
                interrupt: false,
                gentle: false,
            },
            Queue { next: 0 },
        )
    }
}

impl DispatchPolicy for Queue {
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        Base::idle_wakeup(view)
    }
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, _ctx: &mut Ctx<'_, U, E>) {
        self.next = 0;
    }
    fn update<U: IntentUnion, E: 'static>(&mut self, base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || ctx.is_control_delegated() {
            return;
        }
        if self.next >= base.children.len() {
            let _ = ctx.cancel_self();
            return;
        }
        while let Some(&c) = base.children.get(self.next) {
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
    Some(Box::new(Dispatcher::<Queue>::new(children?)))
}
