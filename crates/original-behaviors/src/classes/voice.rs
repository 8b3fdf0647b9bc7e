//! Voice reactions.
//!
//! * `SimpleVoiceResponse`: wants to run while a `simple_voice_response` intent is pending,
//!   claims it itself on activation (as the original's class did; a
//!   `respondToUserIntents` listing it is not needed, and when present it is the one claim),
//!   fires the intent's `emotion_event`, plays its `anim_group` animation and ends. The
//!   project's `length_s` fixes the animation's length (default: the robot's duration
//!   table).
//! * `ReactToUnclaimedIntent` (intent-runtime spec §3.9): wants to run while the intent
//!   component's unclaimed flag is set; on activation it clears the flag and plays
//!   `ReactToUnclaimedIntentInAir` when off treads, else `ReactToUnclaimedIntent` (the
//!   project's `animation` key overrides both; `length_s` fixes the length), then ends.
//!   Every gate open.

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClaimSite, Continuation, Ctx, Inputs,
    OperationModifiers, PlayAnimation, View, Wakeup, Watch,
};
use robot_runtime::intent::{IntentMatcher, IntentUnion};

use crate::access::{RobotAccess, RobotAccessMut};
use crate::robot_state::OffTreads;

/// `SimpleVoiceResponse` (see the [module documentation](self)).
pub struct SimpleVoiceResponse<T> {
    tag: T,
    length: Option<Duration>,
}

impl<T> SimpleVoiceResponse<T> {
    /// Responds to intents with `tag` (the union's `simple_voice_response`).
    pub fn new(tag: T, length: Option<Duration>) -> Self {
        Self { tag, length }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for SimpleVoiceResponse<U::Tag> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(Inputs::INTENTS))
    }
    /// Its animation is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        view.intents().is_pending(self.tag)
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let mine = ctx
            .intents()
            .active()
            .is_some_and(|a| a.tag() == self.tag && a.owner().behavior() == Some(ctx.me()));
        if !mine {
            if let Err(e) = ctx.activate_intent(&IntentMatcher::Tag(self.tag)) {
                let _ = ctx.fail(&format!("could not claim the simple voice response: {e}"));
                return;
            }
        }
        let fields = ctx
            .intents()
            .active()
            .and_then(|a| serde_json::to_value(a.intent()).ok());
        let field = |k: &str| {
            fields
                .as_ref()
                .and_then(|v| v.get(k))
                .and_then(|v| v.as_str())
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        if let Some(e) = field("emotion_event") {
            ctx.robot_mut().fire_emotion_event(&e);
        }
        let Some(anim) = field("anim_group") else {
            let _ = ctx.fail("the simple voice response has no anim_group");
            return;
        };
        let _ = match self.length {
            Some(l) => {
                ctx.delegate_action(Box::new(PlayAnimation::new(anim, l)), Continuation::None)
            }
            None => ctx.play(
                &ActionRequest::Animation {
                    name: &anim,
                    loops: 1,
                },
                Continuation::None,
            ),
        };
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<U::Tag>>) {
        out.push(ClaimSite {
            tag: self.tag,
            state: None,
            owner: None,
        });
    }
}

pub(crate) fn build_simple_voice_response<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let length = cx.seconds("length_s");
    if cx.has("length_s") && length.is_none() {
        return None;
    }
    let Some(tag) = U::tag_from_name("simple_voice_response") else {
        cx.bad_value(
            "",
            format!(
                "the union `{}` has no `simple_voice_response` member",
                U::NAME
            ),
        );
        return None;
    };
    Some(Box::new(SimpleVoiceResponse::new(tag, length)))
}

/// `ReactToUnclaimedIntent` (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct ReactToUnclaimedIntent {
    animation: Option<String>,
    length: Option<Duration>,
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ReactToUnclaimedIntent {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(Inputs::INTENTS))
    }
    /// Its animation is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = true;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        view.intents().was_unclaimed()
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        ctx.intents_mut().reset_unclaimed();
        let in_air = ctx.robot().off_treads().0 != OffTreads::OnTreads;
        let name = self.animation.clone().unwrap_or_else(|| {
            if in_air {
                "ReactToUnclaimedIntentInAir".into()
            } else {
                "ReactToUnclaimedIntent".into()
            }
        });
        let _ = match self.length {
            Some(l) => {
                ctx.delegate_action(Box::new(PlayAnimation::new(name, l)), Continuation::None)
            }
            None => ctx.play(
                &ActionRequest::Animation {
                    name: &name,
                    loops: 1,
                },
                Continuation::None,
            ),
        };
    }
}

pub(crate) fn build_react_to_unclaimed<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let animation = cx.str("animation").map(str::to_owned);
    let length = cx.seconds("length_s");
    Some(Box::new(ReactToUnclaimedIntent { animation, length }))
}
