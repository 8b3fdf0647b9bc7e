//! `ReactToSound` (see the [family's documentation](super)).

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ClassPredicate, Continuation, Ctx, DelegationOutcome,
    IntentUnion, View, Wakeup, Watch,
};
use serde_json::{Map, Value};

use super::mic_direction::ReactToMicDirection;
use super::{bits, data, predicate};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::classes::native::{Base, Native, NativeClass};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::predicate::{pred_cx, PredCx, Read};
use crate::robot_state::MicSample;

/// An unused direction expires this long after it was heard.
const SOUND_MAX_REACTION_TIME: Duration = Duration::from_secs(1);
/// While active, a new sound re-reacts only this long after the last trigger.
const SOUND_RETRIGGER_AFTER: Duration = Duration::from_millis(250);

const SOUND_READS: &[Read] = &[
    reads::SOUND,
    reads::INTENTS,
    reads::ON_PLATFORM,
    reads::PICKED_UP,
];

/// Continuation step of `ReactToSound`: the reaction ended.
const SOUND_DONE: u32 = 1;

/// `ReactToSound` (see the [family's documentation](super)).
pub struct ReactToSound {
    mic: BehaviorId,
    absolute_power: f64,
    min_power: f64,
    confidence_at_min: u64,
    handled: Option<Duration>,
}

impl ReactToSound {
    fn loud(&self, s: &MicSample) -> bool {
        let p = f64::from(s.power);
        p >= self.absolute_power
            || (p >= self.min_power && u64::from(s.confidence) >= self.confidence_at_min)
    }

    /// The valid sound heard in scope and not yet expired, if any.
    fn sound(&self, cx: &PredCx<'_>) -> Option<MicSample> {
        let s = cx.robot.signals.sound?;
        (cx.heard(Some(s.at))
            && cx.now.saturating_sub(s.at) < SOUND_MAX_REACTION_TIME
            && self.loud(&s))
        .then_some(s)
    }

    fn mic_enabled<U: IntentUnion, E: 'static>(&self, view: &View<'_, U, E>) -> bool {
        view.behavior(self.mic)
            .and_then(|b| b.as_any())
            .and_then(|a| a.downcast_ref::<ReactToMicDirection>())
            .is_some_and(|m| m.enabled_for(view.robot()))
    }

    fn respond<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>, s: MicSample) {
        self.handled = Some(s.at);
        let now = ctx.clock().now();
        ctx.robot_mut().signals.mic_reaction = Some((s.direction, now));
        if !ctx.wants_to_activate(self.mic)
            || ctx
                .delegate_if_in_control(self.mic, Continuation::Call(SOUND_DONE))
                .is_err()
        {
            let _ = ctx.cancel_self();
        }
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ReactToSound {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        if view.intents().is_any_pending() {
            return false;
        }
        let keys = Map::new();
        let cx = pred_cx(view, &keys);
        self.sound(&cx).is_some() && self.mic_enabled(view)
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let keys = Map::new();
        let cx = pred_cx(view, &keys);
        let until = match cx.robot.signals.sound {
            Some(s) if cx.now.saturating_sub(s.at) < SOUND_MAX_REACTION_TIME => {
                Wakeup::At(s.at.saturating_add(SOUND_MAX_REACTION_TIME))
            }
            _ => Wakeup::Never,
        };
        Some(Watch::reads(bits(SOUND_READS)).until(until))
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        // A sound that arrived too soon after the last trigger counts once the wait is over.
        match (self.handled, view.robot().signals.sound) {
            (Some(h), Some(s)) if s.at > h => {
                let at = h.saturating_add(SOUND_RETRIGGER_AFTER);
                if view.clock().now() < at {
                    Wakeup::At(at)
                } else {
                    Wakeup::Never
                }
            }
            _ => Wakeup::Never,
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(predicate(
            "no user intent pending, a loud sound heard in scope at most 1 s ago above the mic thresholds, and its mic-direction reaction enabled for the robot's state",
            SOUND_READS,
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let keys = Map::new();
        let sound = {
            let view = ctx.view();
            let cx = pred_cx(&view, &keys);
            self.sound(&cx)
        };
        match sound {
            Some(s) => self.respond(ctx, s),
            None => {
                let _ = ctx.cancel_self();
            }
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let now = ctx.clock().now();
        let Some(s) = ctx.robot().signals.sound else {
            return;
        };
        let new = self.handled.is_none_or(|h| s.at > h);
        let settled = self
            .handled
            .is_none_or(|h| now >= h.saturating_add(SOUND_RETRIGGER_AFTER));
        // Straight ahead (11, 0, 1) is where it already looks.
        let ahead = matches!(s.direction, 11 | 0 | 1);
        if new && settled && !ahead && self.loud(&s) {
            let _ = ctx.cancel_delegates(false);
            ctx.robot_mut().signals.mic_reaction = None;
            self.respond(ctx, s);
        }
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        let _ = ctx.cancel_self();
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.handled = None;
        ctx.robot_mut().signals.mic_reaction = None;
    }
}

pub(crate) fn build_react_to_sound<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("ReactToSound")?;
    let keys = read_class_keys(cx, data);
    let refs = cx.reference_keys();
    let mic = cx
        .resolve_reference_keys(refs)
        .into_iter()
        .find(|(k, _)| k.key == "micDirectionReactionBehavior")
        .map(|(_, id)| id);
    let num = |k: &str| keys.get(k).and_then(Value::as_f64);
    let absolute_power = num("micAbsolutePowerThreshold")?;
    let min_power = num("micMinPowerThreshold")?;
    let confidence_at_min = keys
        .get("micConfidenceThresholdAtMinPower")
        .and_then(Value::as_u64)?;
    let mic = mic?;
    if cx.class_of(mic) != Some("ReactToMicDirection") {
        return None;
    }
    cx.declare_delegate(mic);
    Some(Box::new(Native::<U::Tag, _>::new(
        Base::new(data.mods.always_delegates(false)).delegates([mic]),
        ReactToSound {
            mic,
            absolute_power,
            min_power,
            confidence_at_min,
            handled: None,
        },
    )))
}
