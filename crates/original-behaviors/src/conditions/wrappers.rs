//! Kinds that wrap a `subCondition` and keep state between evaluations:
//! `BecameTrueThisTick` (false → true since the previous evaluation) and `TimedDedup` (true
//! at most once per interval). They read what their sub-condition reads; once true, their
//! next evaluation may answer differently by itself.

use std::cell::Cell;
use std::time::Duration;

use robot_runtime::behavior::{Condition, ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::secs;

/// `BecameTrueThisTick`: false → true since the previous evaluation.
pub struct BecameTrueThisTick<U: IntentUnion, E: 'static> {
    /// `subCondition`.
    pub sub: Box<Condition<U, E>>,
    /// −1 unknown, 0 false, 1 true.
    pub last: Cell<i8>,
}

impl<U: IntentUnion, E: 'static> Clone for BecameTrueThisTick<U, E> {
    fn clone(&self) -> Self {
        Self {
            sub: self.sub.clone(),
            last: self.last.clone(),
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for BecameTrueThisTick<U, E> {
    fn name(&self) -> &str {
        "BecameTrueThisTick"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let v = self.sub.eval(cx);
        let prev = self.last.replace(i8::from(v));
        prev == 0 && v
    }
    fn inputs(&self) -> Inputs {
        self.sub.inputs()
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup {
        if was_true || self.last.get() < 0 {
            Wakeup::EveryTick
        } else {
            self.sub.next_change(cx)
        }
    }
    /// Forgets on deactivation.
    fn set_active(&self, on: bool, _now: Duration) {
        if !on {
            self.last.set(-1);
        }
    }
    fn reset(&self, _now: Duration) {
        self.last.set(-1);
    }
    fn children(&self) -> &[Condition<U, E>] {
        std::slice::from_ref(&*self.sub)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}

/// `TimedDedup`: the sub-condition, not evaluated (false) for `interval` after it was
/// true.
pub struct TimedDedup<U: IntentUnion, E: 'static> {
    /// `subCondition`.
    pub sub: Box<Condition<U, E>>,
    /// `dedupInterval_ms`.
    pub interval: Duration,
    /// The time before which the sub is not evaluated.
    pub next_valid: Cell<Duration>,
}

impl<U: IntentUnion, E: 'static> Clone for TimedDedup<U, E> {
    fn clone(&self) -> Self {
        Self {
            sub: self.sub.clone(),
            interval: self.interval,
            next_valid: self.next_valid.clone(),
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for TimedDedup<U, E> {
    fn name(&self) -> &str {
        "TimedDedup"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let now = cx.now();
        if now < self.next_valid.get() {
            return false;
        }
        let v = self.sub.eval(cx);
        if v {
            self.next_valid.set(now.saturating_add(self.interval));
        }
        v
    }
    fn inputs(&self) -> Inputs {
        self.sub.inputs()
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup {
        if was_true {
            Wakeup::EveryTick
        } else if cx.now() < self.next_valid.get() {
            Wakeup::At(self.next_valid.get())
        } else {
            self.sub.next_change(cx)
        }
    }
    fn reset(&self, _now: Duration) {
        self.next_valid.set(Duration::ZERO);
    }
    fn detail(&self) -> String {
        format!("every {}", secs(self.interval))
    }
    fn children(&self) -> &[Condition<U, E>] {
        std::slice::from_ref(&*self.sub)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}
