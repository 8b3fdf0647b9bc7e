//! `SDKInterface` and `SDKLock` ([`Sdk`]).

use robot_runtime::behavior::{Behavior, BuildCx, ClassPredicate, Ctx, IntentUnion, View, Watch};
use serde_json::Value;

use super::data;
use crate::access::RobotAccess;
use crate::classes::native::{Base, Native, NativeClass, EVERYWHERE};
use crate::inputs;
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::robot_state::RobotState;

/// What the SDK class waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SdkWants {
    /// Control at this level (None: at any level, an instance without
    /// `behaviorControlLevel`).
    Control(Option<i64>),
    /// The behavior lock.
    Lock,
}

/// `SDKInterface` and `SDKLock` (OCP §2.4): want to run while the SDK wants control at
/// the instance's `behaviorControlLevel` (`sdk_control`) or wants the behavior lock
/// (`sdk_lock`); once active they hold the stack (every gate open, not always
/// delegating) and end themselves when the SDK releases it. While active, SDKInterface
/// drops the pending intents on its whitelist (the SDK gets them).
pub struct Sdk<T> {
    wants: SdkWants,
    drops: Vec<T>,
}

impl<T> Sdk<T> {
    fn holds(&self, robot: &RobotState) -> bool {
        match self.wants {
            SdkWants::Control(level) => match (robot.signals.sdk_control, level) {
                (Some(_), None) => true,
                (Some(have), Some(want)) => have == want,
                (None, _) => false,
            },
            SdkWants::Lock => robot.signals.sdk_lock,
        }
    }
}

/// Every gate open, not always delegating (its base); it holds the stack and is never
/// gently interrupted.
impl<U: IntentUnion, E: 'static> NativeClass<U, E> for Sdk<U::Tag> {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        self.holds(view.robot())
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(inputs::SDK))
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if !self.holds(ctx.robot()) {
            let _ = ctx.cancel_self();
            return;
        }
        for &t in &self.drops {
            if ctx.intents().is_pending(t) {
                let _ = ctx.intents_mut().drop_pending(t);
            }
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        let text = match self.wants {
            SdkWants::Control(Some(l)) => format!("the SDK wants control at level {l}"),
            SdkWants::Control(None) => "the SDK wants control (at any level)".to_owned(),
            SdkWants::Lock => "the SDK wants the behavior lock".to_owned(),
        };
        Some(ClassPredicate {
            text,
            inputs: vec![reads::SDK.name],
            unmodelled: Vec::new(),
        })
    }
}

pub(crate) fn build_sdk_interface<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("SDKInterface");
    let keys = read_class_keys(cx, data);
    let refs = cx.reference_keys();
    let _ = cx.resolve_reference_keys(refs);
    let level = keys.get("behaviorControlLevel").and_then(Value::as_i64);
    // `simple_voice_response` is dropped only for the anim groups of a fixed table the
    // spec does not give: it is left to SimpleVoiceResponse (see the report).
    let drops = data
        .drops
        .iter()
        .filter(|n| **n != "simple_voice_response")
        .filter_map(|n| U::tag_from_name(n))
        .collect();
    let base = Base::new(EVERYWHERE.always_delegates(false))
        .delegates(cx.declared_delegates().iter().copied());
    Some(Box::new(Native::new(
        base,
        Sdk {
            wants: SdkWants::Control(level),
            drops,
        },
    )))
}

pub(crate) fn build_sdk_lock<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let _ = read_class_keys(cx, data("SDKLock"));
    Some(Box::new(Native::new(
        Base::new(EVERYWHERE.always_delegates(false)),
        Sdk::<U::Tag> {
            wants: SdkWants::Lock,
            drops: Vec::new(),
        },
    )))
}
