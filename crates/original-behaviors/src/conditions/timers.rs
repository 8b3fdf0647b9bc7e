//! Kinds over timers: `TimerInRange` (the condition's own timer, reset on activation),
//! `BehaviorTimer` (a shared behavior timer's cooldown), `BehaviorSuggested` (a whiteboard
//! suggestion within some ticks) and a state machine's state timer (`stateTimerConditions`).

use std::cell::Cell;
use std::time::Duration;

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::{name_at, range, secs};
use super::time::{reached, timer_change};
use crate::access::RobotAccess;
use crate::catalog;
use crate::inputs;

/// `TimerInRange`: begin ≤ time since reset < end; reset on every `SetActive` unless
/// `manualResetOnly`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerInRange {
    /// `begin_s`.
    pub begin: Duration,
    /// `end_s` (None: float max).
    pub end: Option<Duration>,
    /// `manualResetOnly`.
    pub manual_reset_only: bool,
    /// The last reset.
    pub reset_at: Cell<Duration>,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for TimerInRange {
    fn name(&self) -> &str {
        "TimerInRange"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let d = cx.now().saturating_sub(self.reset_at.get());
        self.begin <= d && self.end.is_none_or(|e| d < e)
    }
    /// Time only.
    fn inputs(&self) -> Inputs {
        Inputs::NONE
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let reset = self.reset_at.get();
        let d = cx.now().saturating_sub(reset);
        if d < self.begin {
            Wakeup::At(reset.saturating_add(self.begin))
        } else {
            match self.end {
                Some(e) if d < e => Wakeup::At(reset.saturating_add(e)),
                _ => Wakeup::Never,
            }
        }
    }
    fn set_active(&self, _on: bool, now: Duration) {
        if !self.manual_reset_only {
            self.reset_at.set(now);
        }
    }
    fn reset(&self, now: Duration) {
        self.reset_at.set(now);
    }
    fn detail(&self) -> String {
        range(self.begin, self.end)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}

/// `BehaviorTimer`: the timer has expired after `cooldown` (never reset: true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BehaviorTimer {
    /// Index into the timer names ([`catalog::BEHAVIOR_TIMERS`]).
    pub timer: usize,
    /// `cooldown_s`.
    pub cooldown: Duration,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for BehaviorTimer {
    fn name(&self) -> &str {
        "BehaviorTimer"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        cx.robot()
            .behavior_timers
            .expired(self.timer, self.cooldown, cx.now(), true)
    }
    fn inputs(&self) -> Inputs {
        inputs::TIMERS
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let timers = &cx.robot().behavior_timers;
        timer_change(timers, Some(self.timer), self.cooldown, cx.now())
    }
    fn detail(&self) -> String {
        format!(
            "{} cooled down {}",
            name_at(catalog::BEHAVIOR_TIMERS, self.timer),
            secs(self.cooldown)
        )
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `BehaviorSuggested`: the suggestion was offered at most `max_ticks` ticks ago.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BehaviorSuggested {
    /// Index into the suggestion names ([`catalog::POST_BEHAVIOR_SUGGESTIONS`]).
    pub suggestion: usize,
    /// `maxTicksForSuggestion`.
    pub max_ticks: u64,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for BehaviorSuggested {
    fn name(&self) -> &str {
        "BehaviorSuggested"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        cx.robot()
            .whiteboard
            .offered_at(self.suggestion)
            .is_some_and(|t| t.saturating_add(self.max_ticks) >= cx.clock().tick())
    }
    fn inputs(&self) -> Inputs {
        inputs::WHITEBOARD
    }
    /// It counts ticks: once true, any tick may end it.
    fn next_change(&self, _: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup {
        if was_true {
            Wakeup::EveryTick
        } else {
            Wakeup::Never
        }
    }
    fn detail(&self) -> String {
        format!(
            "{} within {} ticks",
            name_at(catalog::POST_BEHAVIOR_SUGGESTIONS, self.suggestion),
            self.max_ticks
        )
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// A state machine's `stateTimerConditions` entry: the current state has lasted at least
/// this long (false outside a state machine).
#[derive(Clone, Copy, Debug)]
pub(super) struct StateTimer(pub(super) Duration);

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for StateTimer {
    fn name(&self) -> &str {
        "StateTimer"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        cx.machine()
            .is_some_and(|m| cx.now().saturating_sub(m.adjusted_start) >= self.0)
    }
    /// Time and the machine's times only.
    fn inputs(&self) -> Inputs {
        Inputs::NONE
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        cx.machine().map_or(Wakeup::Never, |m| {
            reached(Some(m.adjusted_start), self.0, cx.now())
        })
    }
    fn detail(&self) -> String {
        format!("≥ {}", secs(self.0))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}
