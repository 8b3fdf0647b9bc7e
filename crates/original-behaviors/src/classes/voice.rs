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
//! * `Volume`, `EyeColorVoiceCommand`, `EyeColor`, `AlexaSignInOut`: their predicates are
//!   `logic::voice`'s; each claims what the original claims in code (OCP §4.1) and plays
//!   the original's animations (`Steps`).
//!
//! Each class is a [`Native`] on its [`Base`] (gates, delegates, claimed intents), most
//! deciding with a [`Decide`]: its keys read as its table says and its predicate
//! (`logic::voice`) compiled for the robot's union, evaluated, watched and described as the
//! table-driven class does. What the family's natives share besides: the intent fields, the
//! tags and hard-coded IDs they name, claiming.

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, Continuation, Ctx, Inputs, PlayAnimation, View,
    Watch,
};
use robot_runtime::intent::{IntentMatcher, IntentUnion};

use robot_runtime::behavior::{ClassPredicate, ProblemKind};
use serde_json::Value;

use super::native::{missing_intent, Base, Decide, Native, NativeClass, EVERYWHERE};
use super::steps::{Step, Steps};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::logic::voice as logic;
use crate::robot_state::{eye_color_index, OffTreads, EYE_COLORS};
use crate::specs::Mods;

/// The union's tag for intent `name` (None, said as an info: the union lacks it).
pub(crate) fn tag<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    class: &str,
    name: &str,
) -> Option<U::Tag> {
    let t = U::tag_from_name(name);
    if t.is_none() {
        missing_intent(cx, class, name);
    }
    t
}

/// A behavior ID the class's code names, declared as a delegate (None, said as an info:
/// the tree lacks it, and the class skips that step).
pub(crate) fn hard_coded<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    class: &str,
    id: &str,
) -> Option<BehaviorId> {
    match cx.global_id(id) {
        Some(found) => {
            cx.declare_delegate(found);
            Some(found)
        }
        None => {
            cx.info(ProblemKind::MissingHardCodedId {
                id: id.to_owned(),
                class: class.to_owned(),
            });
            None
        }
    }
}

/// A string field of an intent (its CLAD field name), empty strings as absent.
pub(crate) fn field<U: IntentUnion>(intent: &U, key: &str) -> Option<String> {
    let v = serde_json::to_value(intent).ok()?;
    let found = v.get(key).or_else(|| {
        v.as_object()
            .and_then(|o| o.values().find_map(|inner| inner.get(key)))
    })?;
    match found {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A field of the pending intent, if its tag is `tag`.
pub(crate) fn pending_field<U: IntentUnion, E: 'static>(
    ctx: &Ctx<'_, U, E>,
    tag: U::Tag,
    key: &str,
) -> Option<String> {
    ctx.intents()
        .pending()
        .filter(|p| p.tag() == tag)
        .and_then(|p| field(p.intent(), key))
}

/// Claims the pending intent `tag` (logged when it fails).
pub(crate) fn claim<U: IntentUnion, E: 'static>(ctx: &mut Ctx<'_, U, E>, class: &str, tag: U::Tag) {
    if let Err(e) = ctx.activate_intent(&IntentMatcher::Tag(tag)) {
        tracing::warn!(class, error = %e, "OriginalBehaviors.ClaimFailed");
    }
}

/// `SimpleVoiceResponse` (see the [module documentation](self)).
pub struct SimpleVoiceResponse<T> {
    tag: T,
    length: Option<Duration>,
    predicate: ClassPredicate,
}

impl<T: Copy> SimpleVoiceResponse<T> {
    /// Responds to intents with `tag` (the union's `simple_voice_response`), which it
    /// claims.
    pub fn new(tag: T, length: Option<Duration>) -> Native<T, Self> {
        let class = Self {
            tag,
            length,
            predicate: ClassPredicate {
                text: "simple_voice_response pending".into(),
                inputs: vec!["the pending user intent"],
                unmodelled: Vec::new(),
            },
        };
        Native::new(Base::new(Mods::BASE).claims([Some(tag)]), class)
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for SimpleVoiceResponse<U::Tag> {
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(Inputs::INTENTS))
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
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(self.predicate.clone())
    }
}

pub(crate) fn build_simple_voice_response<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    // The table's keys (none), then the project's `length_s`.
    let decide = Decide::build(cx, "SimpleVoiceResponse", &logic::SIMPLE_VOICE_RESPONSE);
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
    let mut b = SimpleVoiceResponse::new(tag, length);
    b.class_mut().predicate = decide.describe();
    Some(Box::new(b))
}

/// `ReactToUnclaimedIntent` (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct ReactToUnclaimedIntent {
    animation: Option<String>,
    length: Option<Duration>,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ReactToUnclaimedIntent {
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(Inputs::INTENTS))
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
    Some(Box::new(Native::<U::Tag, _>::new(
        Base::new(EVERYWHERE.always_delegates(true)),
        ReactToUnclaimedIntent { animation, length },
    )))
}

/// `Volume` (see the [module documentation](self)): claims the first pending volume intent
/// (level, up, down), sets the master volume, plays `VolumeLevel1..5`; on a notification,
/// plays the current level.
pub struct Volume<T> {
    /// `imperative_volumelevel`, `imperative_volumeup`, `imperative_volumedown`.
    tags: [Option<T>; 3],
    steps: Steps,
}

/// The level a `volume_level` names (None: not a level; the original then stops).
pub fn volume_level(name: &str) -> Option<u8> {
    let n = name.trim().to_ascii_lowercase();
    Some(match n.as_str() {
        "minimum" | "min" | "volume_1" => 1,
        "low" | "volume_2" => 2,
        "medium" | "volume_3" => 3,
        "high" | "volume_4" => 4,
        "maximum" | "max" | "volume_5" => 5,
        _ => return None,
    })
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for Volume<U::Tag> {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let current = ctx.robot().signals.volume;
        let pending = self
            .tags
            .iter()
            .enumerate()
            .find_map(|(i, t)| t.filter(|t| ctx.intents().is_pending(*t)).map(|t| (i, t)));
        let level = match pending {
            Some((i, tag)) => {
                let asked = pending_field(ctx, tag, "volume_level");
                claim(ctx, "Volume", tag);
                let level = match i {
                    0 => asked.as_deref().and_then(volume_level),
                    1 => Some((current + 1).clamp(1, 5)),
                    _ => Some(current.saturating_sub(1).clamp(1, 5)),
                };
                let Some(level) = level else {
                    tracing::info!(level = ?asked, "Volume: not a volume level, no change");
                    let _ = ctx.cancel_self();
                    return;
                };
                if level != current {
                    ctx.robot_mut().signals.volume = level;
                }
                level
            }
            None => current,
        };
        let steps = match level {
            1..=5 => vec![Step::Play(format!("VolumeLevel{level}"))],
            _ => Vec::new(),
        };
        self.steps.start(steps, ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_volume<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let decide = Decide::build(cx, "Volume", &logic::VOLUME);
    let tags = [
        U::tag_from_name("imperative_volumelevel"),
        U::tag_from_name("imperative_volumeup"),
        U::tag_from_name("imperative_volumedown"),
    ];
    Some(Box::new(Native::new(
        Base::new(EVERYWHERE.always_delegates(false))
            .decide(decide)
            .claims(tags),
        Volume {
            tags,
            steps: Steps::default(),
        },
    )))
}

const EYE_COLOR_ANIMS: [&str; 3] = ["EyeColorGetIn", "EyeColorSwitch", "EyeColorGetOut"];

fn eye_color_steps() -> Vec<Step> {
    EYE_COLOR_ANIMS
        .iter()
        .map(|a| Step::Play((*a).to_owned()))
        .collect()
}

/// `EyeColorVoiceCommand` (see the [module documentation](self)): claims
/// `imperative_eyecolor_specific` (its `eye_color`) or `imperative_eyecolor` (the next
/// color); a new color is written to the setting with an update pending (EyeColor reacts to
/// it); an unchanged one plays the eye-color animations itself.
pub struct EyeColorVoiceCommand<T> {
    /// `imperative_eyecolor_specific`, `imperative_eyecolor`.
    tags: [Option<T>; 2],
    steps: Steps,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for EyeColorVoiceCommand<U::Tag> {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let current = ctx.robot().signals.eye_color;
        let next = (current + 1) % EYE_COLORS.len() as u8;
        let color = match self.tags {
            [Some(specific), _] if ctx.intents().is_pending(specific) => {
                let named = pending_field(ctx, specific, "eye_color");
                claim(ctx, "EyeColorVoiceCommand", specific);
                named
                    .as_deref()
                    .and_then(eye_color_index)
                    .unwrap_or(current)
            }
            [_, Some(any)] if ctx.intents().is_pending(any) => {
                claim(ctx, "EyeColorVoiceCommand", any);
                next
            }
            _ => current,
        };
        if color == current {
            self.steps.start(eye_color_steps(), ctx);
        } else {
            let now = ctx.clock().now();
            let r = ctx.robot_mut();
            r.signals.eye_color = color;
            r.signals.eye_color_update = Some(now);
            let _ = ctx.cancel_self();
        }
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_eye_color_voice_command<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let decide = Decide::build(cx, "EyeColorVoiceCommand", &logic::EYE_COLOR_VOICE_COMMAND);
    let tags = [
        U::tag_from_name("imperative_eyecolor_specific"),
        U::tag_from_name("imperative_eyecolor"),
    ];
    Some(Box::new(Native::new(
        Base::new(EVERYWHERE.always_delegates(false))
            .decide(decide)
            .claims(tags),
        EyeColorVoiceCommand {
            tags,
            steps: Steps::default(),
        },
    )))
}

/// `EyeColor` (see the [module documentation](self)): takes the pending eye-color update and
/// plays `EyeColorGetIn`, `EyeColorSwitch`, `EyeColorGetOut`.
pub struct EyeColor {
    steps: Steps,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for EyeColor {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        ctx.robot_mut().signals.eye_color_update = None;
        self.steps.start(eye_color_steps(), ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_eye_color<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let decide = Decide::build(cx, "EyeColor", &logic::EYE_COLOR);
    Some(Box::new(Native::new(
        Base::new(EVERYWHERE.always_delegates(false)).decide(decide),
        EyeColor {
            steps: Steps::default(),
        },
    )))
}

/// `AlexaSignInOut` (see the [module documentation](self)): takes the pending sign-in/out
/// request (dropping `amazon_signin` / `amazon_signout`, as the Alexa component does), looks
/// at a face or up (`LookAtFaceOrUpInternal`), then signs out with `AlexaSignOut` (a sign-in
/// waits for the app's code screen: nothing more here).
pub struct AlexaSignInOut<T> {
    look: Option<BehaviorId>,
    drops: [Option<T>; 2],
    steps: Steps,
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for AlexaSignInOut<U::Tag> {
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let sign = ctx.robot_mut().signals.alexa_sign.take();
        for t in self.drops.iter().flatten() {
            if ctx.intents().is_pending(*t) {
                let _ = ctx.intents_mut().drop_pending(*t);
            }
        }
        let mut steps: Vec<Step> = self.look.map(Step::Delegate).into_iter().collect();
        if sign == Some(crate::robot_state::AlexaSign::Out) {
            steps.push(Step::Play("AlexaSignOut".into()));
        }
        self.steps.start(steps, ctx);
    }
    fn steps(&mut self) -> Option<&mut Steps> {
        Some(&mut self.steps)
    }
}

pub(crate) fn build_alexa_sign_in_out<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let decide = Decide::build(cx, "AlexaSignInOut", &logic::ALEXA_SIGN_IN_OUT);
    let look = cx.delegate("LookAtFaceOrUpInternal", "");
    let drops = [
        U::tag_from_name("amazon_signin"),
        U::tag_from_name("amazon_signout"),
    ];
    let gates = Mods::BASE
        .carry(false)
        .off_treads(false)
        .always_delegates(false);
    Some(Box::new(Native::new(
        Base::new(gates).decide(decide).delegates(look),
        AlexaSignInOut {
            look,
            drops,
            steps: Steps::default(),
        },
    )))
}
