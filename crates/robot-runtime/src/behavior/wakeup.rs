//! When an answer can change: the one mechanism behind idle-tick skipping (a discrete-event
//! run jumps over ticks in which nothing can happen, [`Runner::next_wakeup`],
//! [`Runner::skip_idle_ticks`]) and the cached tick (a behavior's wish to run, a
//! dispatcher's choice and a state machine's transitions are not recomputed while nothing
//! they read changed).
//!
//! An answer — a condition's value, a behavior's `WantsToBeActivated`, a dispatcher's choice
//! among its children — is described by a [`Watch`]: the [`Inputs`] it read (robot-state
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
//! The runner stamps every change of an input (`changes.rs`): the robot state per field (a
//! mutable borrow marks it touched, and every answer that reads the robot counts as changed
//! until the next tick starts and finds the fields that really changed by comparing with a
//! copy), the intent component on every mutable
//! access and every tick whose update emitted events, the stack on every push, pop and scope
//! change. A cached answer is valid while none of its inputs was stamped after it was
//! computed and its time has not come.
//!
//! **Why a reused answer is the original's answer.** The original asks every behavior in
//! reach on every tick, and some conditions keep state between evaluations. An answer is
//! kept only when asking again would return the same value *and* change no state:
//! `next_change` is [`Wakeup::EveryTick`] whenever the next evaluation would answer
//! differently by itself (a `BecameTrueThisTick`, `TimedDedup`, `ObjectKnown` with
//! `maxAge_ms: 0` or `ObjectInitialDetection` that was just true; a `StuckOnEdge` whose
//! clock has not started), and every other stateful condition's evaluation is idempotent
//! while its inputs stand still (a `TimerInRange` is reset only by its activation window,
//! which is a stack change). Where the runner cannot see an input (user conditions and
//! classes that do not declare, the active intent, whose guard may be dropped anywhere),
//! nothing is kept. `robot-runtime-tests/tests/behavior_cache.rs` runs a caching runner
//! beside one that asks everything on every tick ([`Runner::set_caching`]) on random
//! original-shaped trees and checks they agree on every tick.
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
    /// Only an input (a robot-state change, an intent, a trigger word, a stack change, a
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

/// A set of inputs an answer read: robot-state fields (one bit per field or group of fields
/// that change together), the intent component and the stack. A bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inputs(u64);

macro_rules! inputs {
    ($($(#[$doc:meta])* $name:ident = $bit:expr;)*) => {
        impl Inputs {
            $($(#[$doc])* pub const $name: Inputs = Inputs(1 << $bit);)*
        }
    };
}

inputs! {
    /// The off-treads state and its change time.
    OFF_TREADS = 0;
    /// Being held and its change time.
    BEING_HELD = 1;
    /// Held in a palm and its times.
    PALM = 2;
    /// The cliff sensors and their per-count times.
    CLIFFS = 3;
    /// The simple mood and its transitions.
    MOOD = 4;
    /// The last poke.
    POKE = 5;
    /// The touch sensor.
    TOUCH = 6;
    /// The last engine error code.
    ENGINE_ERROR = 7;
    /// The feature flags and their default.
    FEATURES = 8;
    /// Picked up.
    PICKED_UP = 9;
    /// On the charger's contacts.
    ON_CHARGER = 10;
    /// On the charger platform.
    ON_CHARGER_PLATFORM = 11;
    /// Carrying an object.
    CARRYING = 12;
    /// The battery level.
    BATTERY = 13;
    /// CPU and battery temperatures.
    TEMPERATURES = 14;
    /// Too hot to charge.
    TOO_HOT = 15;
    /// The habitat belief.
    HABITAT = 16;
    /// The user holds a cube.
    USER_HOLDING_CUBE = 17;
    /// The proximity sensor.
    PROX = 18;
    /// Pitch and roll.
    POSE = 19;
    /// The accelerometer magnitude.
    ACCEL = 20;
    /// Located objects.
    OBJECTS = 21;
    /// Face memory.
    FACES = 22;
    /// Eye contact.
    EYE_CONTACT = 23;
    /// Emotion values.
    EMOTIONS = 24;
    /// The cube connection.
    CUBE_CONNECTED = 25;
    /// Unexpected movement.
    UNEXPECTED_MOVEMENT = 26;
    /// Hours alive.
    HOURS_ALIVE = 27;
    /// Night time.
    NIGHT_TIME = 28;
    /// Maintenance reboot.
    MAINTENANCE_REBOOT = 29;
    /// An Alexa interaction.
    ALEXA = 30;
    /// Placed on a slope.
    SLOPE = 31;
    /// An obstacle.
    OBSTACLE = 32;
    /// A salient point.
    SALIENT_POINT = 33;
    /// Motion.
    MOTION = 34;
    /// A beat or a possible beat.
    BEAT = 35;
    /// The behavior timers.
    TIMERS = 36;
    /// The whiteboard (suggestions, exploring cooldown).
    WHITEBOARD = 37;
    /// The intent component (pending intent, trigger word, flags).
    INTENTS = 62;
    /// The stack and the activatable scope (and with them the activation windows of
    /// conditions).
    STACK = 63;
}

impl Inputs {
    /// Nothing.
    pub const NONE: Inputs = Inputs(0);
    /// Every robot-state field (bits 0 to 37).
    pub const ROBOT: Inputs = Inputs((1 << 38) - 1);
    /// Everything.
    pub const ALL: Inputs = Inputs(u64::MAX);

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
