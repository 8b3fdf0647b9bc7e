//! [`Wakeup`]: when the behaviors may next act on their own, so that a caller can run the
//! runner as a discrete-event simulation and skip idle stretches instead of ticking through
//! them ([`Runner::next_wakeup`], [`Runner::skip_idle_ticks`]).
//!
//! What makes a tick do something without any input:
//!
//! * the clock: `TimeActive` / `TimeInState` / `TimerElapsed` conditions (state machine
//!   timers included), `Wait` with a duration, timed actions, a behavior's own timeouts;
//! * behaviors that count ticks or otherwise change in every `update`;
//! * running actions (the runner steps them every tick);
//! * the intent component's own deadlines (pending intents, the trigger word) — not the
//!   runner's business: a caller skips only while it has nothing pending.
//!
//! Each behavior declares the first (see [`Behavior::next_wakeup`](super::Behavior::next_wakeup); the conservative
//! default is [`Wakeup::EveryTick`]), conditions know their own
//! ([`Condition::next_change`]), and [`Runner::next_wakeup`] combines them over the stack
//! and the behaviors in scope. The answer holds only for a runner whose last tick changed
//! nothing (the caller checks that: no stack change, no event, no error).

use std::time::Duration;

use super::condition::Condition;
use super::core::{LifecycleState, View};
use super::ids::BehaviorId;
use super::runner::Runner;
use super::IntentUnion;

/// When something may next happen without input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wakeup {
    /// On the next tick (nothing may be skipped).
    EveryTick,
    /// Not before this virtual time ([`VirtualClock::now`](super::VirtualClock::now)): ticks
    /// that end before it may be skipped.
    At(Duration),
    /// Only an input (an intent, a trigger word, a user event) can make it act.
    Never,
}

impl Wakeup {
    /// The earlier of the two.
    pub fn min(self, other: Wakeup) -> Wakeup {
        std::cmp::min(self, other)
    }

    /// `At(now + left)`, or [`Wakeup::EveryTick`] when nothing is left.
    pub fn after(now: Duration, left: Duration) -> Wakeup {
        if left.is_zero() {
            Wakeup::EveryTick
        } else {
            Wakeup::At(now.saturating_add(left))
        }
    }
}

impl<U: IntentUnion, E: 'static> Condition<U, E> {
    /// The earliest virtual time at which the condition's value may change, if no input
    /// arrives and the runner's state stays as it is: time conditions that have not yet
    /// become true change when their minimum is reached (and never again), the intent and
    /// trigger-word conditions only with input, user conditions at any tick.
    pub fn next_change(&self, v: &View<'_, U, E>) -> Wakeup {
        let now = v.clock().now();
        let until = |elapsed: Option<Duration>, min: Duration| match elapsed {
            // Not running (not active, no state): it starts only with a stack change.
            None => Wakeup::Never,
            Some(t) if t >= min => Wakeup::Never,
            Some(t) => Wakeup::after(now, min - t),
        };
        match self {
            Self::True | Self::False | Self::Opaque { .. } => Wakeup::Never,
            Self::IntentPending(_)
            | Self::IntentActive(_)
            | Self::AnyIntent
            | Self::TriggerWordPending
            | Self::UnclaimedIntent => Wakeup::Never,
            Self::ActiveFor(d) => until(v.active_for(), *d),
            Self::InStateFor(d) => until(v.in_state_for(), *d),
            Self::TimerElapsed { timer, min } => until(Some(v.timer_age(timer)), *min),
            Self::And(c) | Self::Or(c) => {
                c.iter().fold(Wakeup::Never, |w, c| w.min(c.next_change(v)))
            }
            Self::Not(c) => c.next_change(v),
            Self::Shared { condition, .. } => condition.next_change(v),
            Self::User { .. } => Wakeup::EveryTick,
        }
    }
}

impl<U: IntentUnion, E: 'static> View<'_, U, E> {
    /// When `id`, in scope and not active, may start wanting to be activated (or its
    /// `update` may act while inactive), if no input arrives: its declared gates first
    /// (`respondToUserIntents` needs a pending intent, which only input brings; a false
    /// `wantsToBeActivatedCondition` until it may change), then its class
    /// ([`Behavior::next_wakeup`](super::Behavior::next_wakeup)).
    pub fn activation_wakeup(&self, id: BehaviorId) -> Wakeup {
        let Some(n) = self.s.nodes.get(id.index()) else {
            return Wakeup::Never;
        };
        let Some(b) = self.behaviors.get(id) else {
            return Wakeup::Never;
        };
        let v = View {
            me: id,
            state_since: None,
            ..*self
        };
        let class = || b.next_wakeup(&v);
        // An opaque stand-in never wants to run; `respondToUserIntents` needs a pending intent.
        let closed = n.opaque
            || (!n.respond.is_empty()
                && !self
                    .m
                    .intents
                    .pending()
                    .is_some_and(|p| n.respond.iter().any(|m| m.matches(p.intent()))));
        let gate = if closed {
            Wakeup::Never
        } else {
            match &n.wants {
                Some(c) if !c.eval(&v) => c.next_change(&v),
                // The gates hold: the class decides.
                _ => return class(),
            }
        };
        if n.updates_inactive && n.state == LifecycleState::InScope {
            gate.min(class())
        } else {
            gate
        }
    }
}

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// When the behaviors may next act on their own (see the module documentation): the
    /// earliest of every active behavior's [`Behavior::next_wakeup`](super::Behavior::next_wakeup) and
    /// `wantsToCancelSelfCondition`, and every in-scope behavior's
    /// [`activation_wakeup`](View::activation_wakeup). [`Wakeup::EveryTick`] while an action
    /// runs, while the stack is empty, or after a tick that reported errors.
    ///
    /// Valid after a tick that changed nothing; the caller must also have nothing pending in
    /// the intent component (its deadlines count ticks).
    pub fn next_wakeup(&self) -> Wakeup {
        if self.is_empty() || self.stack().len() == 0 || !self.errors().is_empty() {
            return Wakeup::EveryTick;
        }
        let mut w = Wakeup::Never;
        for id in self.stack() {
            if self.is_running_action(id) {
                return Wakeup::EveryTick;
            }
            let Some(b) = self.behavior(id) else {
                continue;
            };
            let v = self.view(id);
            w = w.min(b.next_wakeup(&v));
            if let (_, Some(cancel)) = self.conditions(id) {
                w = w.min(if cancel.eval(&v) {
                    Wakeup::EveryTick
                } else {
                    cancel.next_change(&v)
                });
            }
            if w == Wakeup::EveryTick {
                return w;
            }
        }
        for &id in self.in_scope() {
            if self.state(id) == Some(LifecycleState::Active) {
                continue;
            }
            w = w.min(self.view(id).activation_wakeup(id));
            if w == Wakeup::EveryTick {
                return w;
            }
        }
        w
    }
}
