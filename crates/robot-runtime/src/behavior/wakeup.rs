//! When an answer can change: the one mechanism behind idle-tick skipping (a discrete-event
//! run jumps over ticks in which nothing can happen, [`Runner::next_wakeup`],
//! [`Runner::skip_idle_ticks`]) and the cached tick (a behavior's wish to run, a
//! dispatcher's choice and a state machine's transitions are not recomputed while nothing
//! they read changed).
//!
//! An answer — a condition's value, a behavior's `WantsToBeActivated`, a dispatcher's choice
//! among its children — is described by a [`Watch`]: the [`Inputs`] it read (world
//! fields, the intent component, the stack) and the time until which it holds if none of
//! them changes ([`Wakeup`]). Conditions know both exactly
//! ([`Condition::inputs`](super::Condition::inputs),
//! [`Condition::next_change`](super::Condition::next_change)); behavior classes declare
//! what their `wants_to_be_activated` reads
//! ([`Behavior::activation_watch`](super::Behavior::activation_watch)) and when their own
//! `update` may next act ([`Behavior::next_wakeup`](super::Behavior::next_wakeup)); actions
//! when they end ([`Action::next_wakeup`](super::Action::next_wakeup)). Anything that does
//! not declare is asked every tick.
//!
//! The runner stamps every change of an input (`changes.rs`): the world per field (a
//! mutable borrow marks it touched, and every answer that reads the world counts as changed
//! until the next tick starts and finds the fields that really changed by comparing with a
//! copy, [`World::changed_inputs`](super::World::changed_inputs)), the intent component on every mutable
//! access and every tick whose update emitted events, the stack on every push, pop and scope
//! change. A cached answer is valid while none of its inputs was stamped after it was
//! computed and its time has not come.
//!
//! **Why a reused answer is the original's answer.** The original asks every behavior in
//! reach on every tick, and some conditions keep state between evaluations. An answer is
//! kept only when asking again would return the same value *and* change no state: that is
//! the contract of every condition type
//! ([`ConditionType::next_change`](super::ConditionType::next_change)): it is
//! [`Wakeup::EveryTick`] whenever the next evaluation would answer differently by itself (a
//! condition that reports a change since its previous evaluation and was just true, a
//! de-duplicating one, one whose clock starts on its next evaluation), and every other
//! stateful condition's evaluation is idempotent while its inputs stand still (a timer reset
//! only by its activation window changes with the stack). Where the runner cannot see an
//! input (user conditions and classes that do not declare, the active intent, whose guard
//! may be dropped anywhere), nothing is kept. `robot-runtime-tests/tests/behavior_cache.rs`
//! runs a caching runner beside one that asks everything on every tick
//! ([`Runner::set_caching`]) on random original-shaped trees and checks they agree on every
//! tick.
//!
//! What is kept: each behavior's last `WantsToBeActivated` with its watch (a
//! per-node cell), each strict-priority dispatcher's choice
//! ([`ChoiceCache`](super::ChoiceCache): while it keeps the current delegate or finds
//! nothing, and none of the children it asked can change, its children are not asked), and
//! each state machine's "no transition holds" per kind ([`AnswerCache`](super::AnswerCache)).
//! Condition evaluations that are reused are not evaluations:
//! [`Condition::last`](super::Condition::last) keeps the tick the value was computed on.
//!
//! [`Runner::next_wakeup`]: super::Runner::next_wakeup
//! [`Runner::skip_idle_ticks`]: super::Runner::skip_idle_ticks
//! [`Runner::set_caching`]: super::Runner::set_caching

use std::time::Duration;

/// When something may next happen without input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wakeup {
    /// On the next tick (nothing may be skipped, nothing cached).
    EveryTick,
    /// At the first tick whose virtual time ([`VirtualClock::now`](super::VirtualClock::now))
    /// reaches this: ticks before it may be skipped.
    At(Duration),
    /// Only an input (a world change, an intent, a trigger word, a stack change, a
    /// user event) can make it change.
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

    /// How many ticks of `dt` from the clock's `now` until the first tick that may act:
    /// 1 for [`Wakeup::EveryTick`]; for [`Wakeup::At`], the ticks until the first whose
    /// time reaches it (0 when it has passed; `u64::MAX` at most); `None` for
    /// [`Wakeup::Never`]. A caller may skip the ticks before that one
    /// ([`Runner::skip_idle_ticks`](super::Runner::skip_idle_ticks)).
    pub fn ticks_from(self, now: Duration, dt: Duration) -> Option<u64> {
        match self {
            Wakeup::EveryTick => Some(1),
            Wakeup::At(at) => {
                let left = at.saturating_sub(now).as_nanos();
                Some(u64::try_from(left.div_ceil(dt.as_nanos().max(1))).unwrap_or(u64::MAX))
            }
            Wakeup::Never => None,
        }
    }

    /// The virtual time before which the answer holds, in nanoseconds (0: none; `u64::MAX`:
    /// forever).
    pub(crate) fn until_ns(self) -> u64 {
        match self {
            Wakeup::EveryTick => 0,
            Wakeup::At(t) => u64::try_from(t.as_nanos()).unwrap_or(u64::MAX - 1).max(1),
            Wakeup::Never => u64::MAX,
        }
    }

    /// The inverse of [`until_ns`](Self::until_ns).
    pub(crate) fn from_until_ns(ns: u64) -> Wakeup {
        match ns {
            0 => Wakeup::EveryTick,
            u64::MAX => Wakeup::Never,
            t => Wakeup::At(Duration::from_nanos(t)),
        }
    }
}

/// A set of inputs an answer read: the world's fields (bits 0 to 60, each a field or a group
/// of fields that a [`World`](super::World) reports changed together), the coordinators'
/// suppressions, the intent component and the stack. A bit set.
///
/// The runtime owns [`SUPPRESSION`](Self::SUPPRESSION), [`INTENTS`](Self::INTENTS) and
/// [`STACK`](Self::STACK); the 61 world bits
/// belong to the world ([`Inputs::world`]): a node library names them as constants of its own
/// (the original engine's are `original_behaviors::inputs`). A world with more fields than
/// bits groups them, a bit per group of fields that tend to change together: a bit shared by
/// two fields only costs a cached answer that reads one of them a recomputation when the
/// other changes, never a wrong answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inputs(u64);

impl Inputs {
    /// Nothing.
    pub const NONE: Inputs = Inputs(0);
    /// The behaviors a coordinator told not to activate this tick
    /// ([`Ctx::suppress_this_tick`](super::Ctx::suppress_this_tick)): stamped when one is
    /// suppressed and when a tick starts after a tick that had some.
    pub const SUPPRESSION: Inputs = Inputs(1 << 61);
    /// The intent component (pending intent, trigger word, flags).
    pub const INTENTS: Inputs = Inputs(1 << 62);
    /// The stack and the activatable scope (and with them the activation windows of
    /// conditions).
    pub const STACK: Inputs = Inputs(1 << 63);
    /// Every world input (bits 0 to 60).
    pub const WORLD: Inputs = Inputs((1 << 61) - 1);
    /// Everything.
    pub const ALL: Inputs = Inputs(u64::MAX);

    /// World input `bit` (0 to 60; the three highest bits are the runtime's, so a larger
    /// `bit` does not compile in a constant and panics elsewhere: it is a programming
    /// error, never an input).
    pub const fn world(bit: u32) -> Inputs {
        assert!(bit < 61, "world inputs are bits 0 to 60");
        Inputs(1 << bit)
    }
    /// Both sets.
    pub const fn with(self, other: Inputs) -> Inputs {
        Inputs(self.0 | other.0)
    }
    /// True when the two sets share an input.
    pub const fn intersects(self, other: Inputs) -> bool {
        self.0 & other.0 != 0
    }
    /// True when empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }
    pub(crate) const fn from_bit(bit: usize) -> Inputs {
        Inputs(1 << bit)
    }
}

impl std::ops::BitOr for Inputs {
    type Output = Inputs;
    fn bitor(self, rhs: Inputs) -> Inputs {
        self.with(rhs)
    }
}

impl std::ops::BitOrAssign for Inputs {
    fn bitor_assign(&mut self, rhs: Inputs) {
        *self = self.with(rhs);
    }
}

/// What an answer depends on: the [`Inputs`] it read, and until when it holds if none of
/// them changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Watch {
    /// What it read.
    pub inputs: Inputs,
    /// When it may change on its own.
    pub until: Wakeup,
}

impl Watch {
    /// An answer that never changes.
    pub const CONSTANT: Watch = Watch {
        inputs: Inputs::NONE,
        until: Wakeup::Never,
    };
    /// An answer that must be recomputed every time.
    pub const EVERY_TICK: Watch = Watch {
        inputs: Inputs::ALL,
        until: Wakeup::EveryTick,
    };

    /// An answer that changes only when `inputs` change.
    pub const fn reads(inputs: Inputs) -> Watch {
        Watch {
            inputs,
            until: Wakeup::Never,
        }
    }
    /// This, also holding only until `until`.
    pub fn until(self, until: Wakeup) -> Watch {
        Watch {
            inputs: self.inputs,
            until: self.until.min(until),
        }
    }
    /// Both: the union of the inputs, the earlier time.
    pub fn and(self, other: Watch) -> Watch {
        Watch {
            inputs: self.inputs | other.inputs,
            until: self.until.min(other.until),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_from_counts_to_the_first_tick_that_reaches_the_wakeup() {
        let ms = Duration::from_millis;
        let (now, dt) = (ms(1_000), ms(50));
        assert_eq!(Wakeup::EveryTick.ticks_from(now, dt), Some(1));
        assert_eq!(Wakeup::Never.ticks_from(now, dt), None);
        assert_eq!(Wakeup::At(ms(1_050)).ticks_from(now, dt), Some(1));
        assert_eq!(Wakeup::At(ms(1_051)).ticks_from(now, dt), Some(2));
        assert_eq!(Wakeup::At(ms(1_500)).ticks_from(now, dt), Some(10));
        assert_eq!(Wakeup::At(ms(900)).ticks_from(now, dt), Some(0), "passed");
        assert_eq!(
            Wakeup::At(Duration::MAX).ticks_from(Duration::ZERO, Duration::from_nanos(1)),
            Some(u64::MAX)
        );
        assert_eq!(
            Wakeup::At(ms(1)).ticks_from(Duration::ZERO, Duration::ZERO),
            Some(1_000_000)
        );
    }
}
