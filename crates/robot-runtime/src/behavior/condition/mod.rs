//! [`Condition`]: predicates over what the runner knows (intents, trigger word, timers,
//! user conditions), combinable with and / or / not. Used by `wantsToBeActivatedCondition`,
//! `wantsToCancelSelfCondition` and the state machine's transitions. Evaluation takes an
//! [`EvalCx`] (shared references only): it cannot delegate, claim or mutate. `parse` reads
//! conditions and matcher lists from JSON.
//!
//! This module knows nothing of behaviors or the runner: the runner builds the [`EvalCx`].

pub(crate) mod parse;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::behavior::clock::VirtualClock;
use crate::intent::{IntentComponent, IntentMatcher, IntentUnion};

/// A user-registered condition: a pure function of what conditions see.
pub type ConditionFn<U, E> = Arc<dyn Fn(&EvalCx<'_, U, E>) -> bool + Send + Sync>;

/// What a condition sees when it is evaluated: the intent component, the clock, the
/// runner's named timers, this tick's user events, and, for the behavior it is evaluated
/// for, since when it is active and since when its state machine's current state lasts.
pub struct EvalCx<'a, U: IntentUnion, E: 'static = ()> {
    pub(crate) intents: &'a IntentComponent<U>,
    pub(crate) clock: VirtualClock,
    pub(crate) active_since: Option<Duration>,
    pub(crate) state_since: Option<Duration>,
    pub(crate) timers: &'a [(Box<str>, Duration)],
    pub(crate) events: &'a [E],
}

impl<'a, U: IntentUnion, E: 'static> EvalCx<'a, U, E> {
    /// The intent component.
    pub fn intents(&self) -> &'a IntentComponent<U> {
        self.intents
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.clock
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
    /// How long the current state of the state machine evaluating the condition has lasted
    /// (None outside a state machine).
    pub fn in_state_for(&self) -> Option<Duration> {
        self.state_since.map(|t| self.clock.now().saturating_sub(t))
    }
    /// Age of a named timer (reset by `resetTimers`); never reset: time since start.
    pub fn timer_age(&self, name: &str) -> Duration {
        let since = self
            .timers
            .iter()
            .find(|(n, _)| &**n == name)
            .map_or(Duration::ZERO, |(_, t)| *t);
        self.clock.now().saturating_sub(since)
    }
}

/// A condition tree.
pub enum Condition<U: IntentUnion, E: 'static = ()> {
    /// Always true (`TrueCondition`).
    True,
    /// Always false (`FalseCondition`).
    False,
    /// The pending intent matches one of the matchers (`UserIntentPending`, key `"list"`).
    IntentPending(Box<[IntentMatcher<U>]>),
    /// The active intent matches one of the matchers (`UserIntentActive`).
    IntentActive(Box<[IntentMatcher<U>]>),
    /// Some intent is pending or active (`AnyUserIntent`).
    AnyIntent,
    /// A trigger word is pending (`TriggerWordPending`).
    TriggerWordPending,
    /// The unclaimed-intent flag is set (`UnclaimedIntent`).
    UnclaimedIntent,
    /// The evaluating behavior has been active at least this long (`TimeActive`, `"min_s"`).
    ActiveFor(Duration),
    /// The state machine's current state has lasted at least this long (`TimeInState`,
    /// `"min_s"`; also the state machine's `stateTimerConditions`). False outside a state
    /// machine.
    InStateFor(Duration),
    /// A named runner timer was reset at least this long ago (`TimerElapsed`, `"timer"`,
    /// `"min_s"`); a timer never reset counts from the runner's start.
    TimerElapsed {
        /// The timer.
        timer: Box<str>,
        /// The minimum age.
        min: Duration,
    },
    /// All hold (`Compound` `"and"`).
    And(Box<[Condition<U, E>]>),
    /// One holds (`Compound` `"or"`).
    Or(Box<[Condition<U, E>]>),
    /// Does not hold (`Compound` `"not"`).
    Not(Box<Condition<U, E>>),
    /// A user-registered condition.
    User {
        /// Its registered type name.
        name: Box<str>,
        /// The predicate.
        test: ConditionFn<U, E>,
    },
    /// A named condition shared by several places (the state machine's timer conditions,
    /// `{"customCondition": name}`).
    Shared {
        /// Its name.
        name: Box<str>,
        /// The condition.
        condition: Arc<Condition<U, E>>,
    },
    /// A condition type the registry does not know, loaded as an opaque stand-in (never
    /// true); only with `LoadOptions::opaque_unknown`.
    Opaque {
        /// The unknown `conditionType`.
        condition_type: Box<str>,
        /// Its JSON, kept for inspection.
        raw: serde_json::Value,
    },
}

impl<U: IntentUnion, E: 'static> Condition<U, E> {
    /// Evaluates the condition.
    pub fn eval(&self, v: &EvalCx<'_, U, E>) -> bool {
        match self {
            Self::True => true,
            Self::False => false,
            Self::IntentPending(list) => v
                .intents()
                .pending()
                .is_some_and(|p| list.iter().any(|m| m.matches(p.intent()))),
            Self::IntentActive(list) => v
                .intents()
                .active()
                .is_some_and(|a| list.iter().any(|m| m.matches(a.intent()))),
            Self::AnyIntent => v.intents().is_any_pending_or_active(),
            Self::TriggerWordPending => v.intents().is_trigger_word_pending(),
            Self::UnclaimedIntent => v.intents().was_unclaimed(),
            Self::ActiveFor(d) => v.active_for().is_some_and(|t| t >= *d),
            Self::InStateFor(d) => v.in_state_for().is_some_and(|t| t >= *d),
            Self::TimerElapsed { timer, min } => v.timer_age(timer) >= *min,
            Self::And(c) => c.iter().all(|c| c.eval(v)),
            Self::Or(c) => c.iter().any(|c| c.eval(v)),
            Self::Not(c) => !c.eval(v),
            Self::User { test, .. } => test(v),
            Self::Shared { condition, .. } => condition.eval(v),
            Self::Opaque { .. } => false,
        }
    }

    /// Tags this condition can claim: the matchers of `UserIntentPending` conditions that
    /// are not under a `not` (used by coverage).
    pub fn pending_tags(&self, out: &mut Vec<U::Tag>) {
        match self {
            Self::IntentPending(list) => out.extend(list.iter().map(IntentMatcher::target_tag)),
            Self::And(c) | Self::Or(c) => c.iter().for_each(|c| c.pending_tags(out)),
            Self::Shared { condition, .. } => condition.pending_tags(out),
            _ => {}
        }
    }

    /// True when the condition contains an opaque stand-in.
    pub fn has_opaque(&self) -> bool {
        match self {
            Self::Opaque { .. } => true,
            Self::And(c) | Self::Or(c) => c.iter().any(Self::has_opaque),
            Self::Not(c) => c.has_opaque(),
            Self::Shared { condition, .. } => condition.has_opaque(),
            _ => false,
        }
    }
}

impl<U: IntentUnion, E: 'static> fmt::Debug for Condition<U, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::True => f.write_str("True"),
            Self::False => f.write_str("False"),
            Self::IntentPending(l) => f.debug_tuple("IntentPending").field(l).finish(),
            Self::IntentActive(l) => f.debug_tuple("IntentActive").field(l).finish(),
            Self::AnyIntent => f.write_str("AnyIntent"),
            Self::TriggerWordPending => f.write_str("TriggerWordPending"),
            Self::UnclaimedIntent => f.write_str("UnclaimedIntent"),
            Self::ActiveFor(d) => f.debug_tuple("ActiveFor").field(d).finish(),
            Self::InStateFor(d) => f.debug_tuple("InStateFor").field(d).finish(),
            Self::TimerElapsed { timer, min } => f
                .debug_struct("TimerElapsed")
                .field("timer", timer)
                .field("min", min)
                .finish(),
            Self::And(c) => f.debug_tuple("And").field(c).finish(),
            Self::Or(c) => f.debug_tuple("Or").field(c).finish(),
            Self::Not(c) => f.debug_tuple("Not").field(c).finish(),
            Self::User { name, .. } => f.debug_tuple("User").field(name).finish(),
            Self::Shared { name, .. } => f.debug_tuple("Shared").field(name).finish(),
            Self::Opaque { condition_type, .. } => {
                f.debug_tuple("Opaque").field(condition_type).finish()
            }
        }
    }
}
