//! Kinds over the mood: `Emotion` (a value in a range) and `SimpleMood` ([`MoodTest`]: the
//! current mood, or a transition that counts on its own tick only).

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use crate::access::RobotAccess;
use crate::inputs;
use crate::robot_state::{Emotion, SimpleMood};

/// `Emotion`: min ≤ value ≤ max (inclusive).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmotionInRange {
    /// `emotion`.
    pub emotion: Emotion,
    /// `min` (−∞ when absent; `value` − 1e-5 for `value`).
    pub min: f32,
    /// `max` (+∞ when absent; `value` + 1e-5 for `value`).
    pub max: f32,
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for EmotionInRange {
    fn name(&self) -> &str {
        "Emotion"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let v = cx.robot().emotion(self.emotion);
        self.min <= v && v <= self.max
    }
    fn inputs(&self) -> Inputs {
        inputs::EMOTIONS
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        Wakeup::Never
    }
    fn detail(&self) -> String {
        format!("{} in [{}, {}]", self.emotion.name(), self.min, self.max)
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// Which test a `SimpleMood` condition makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoodTest {
    /// The current mood is this one (`mood`).
    Is(SimpleMood),
    /// A transition happened this tick, with these ends (`from` / `to`, either may be
    /// absent).
    Transition(Option<SimpleMood>, Option<SimpleMood>),
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for MoodTest {
    fn name(&self) -> &str {
        "SimpleMood"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        match self {
            Self::Is(m) => r.simple_mood() == *m,
            Self::Transition(from, to) => match r.mood_transition_this_tick() {
                Some((a, b)) => from.is_none_or(|f| f == a) && to.is_none_or(|t| t == b),
                None => false,
            },
        }
    }
    fn inputs(&self) -> Inputs {
        inputs::MOOD
    }
    fn next_change(&self, _: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup {
        match self {
            // A transition counts on its tick only.
            Self::Transition(..) if was_true => Wakeup::EveryTick,
            _ => Wakeup::Never,
        }
    }
    fn detail(&self) -> String {
        match self {
            Self::Is(m) => m.name().to_owned(),
            Self::Transition(from, to) => format!(
                "{} -> {}",
                from.map_or("*", |m| m.name()),
                to.map_or("*", |m| m.name())
            ),
        }
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}
