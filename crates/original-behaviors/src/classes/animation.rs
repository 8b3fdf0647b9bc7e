//! The animation and speech wrappers (spec §4) as timed actions through the action layer:
//! each animation, turn and utterance is an [`ActionRequest`] the runner's action factory
//! turns into an action (simulated by default, lasting what the robot's duration table
//! says), so a tree runs without an animation system.
//!
//! * `AnimSequence` (§4.1): `animTriggers` or `animNames` (exactly one non-empty),
//!   `num_loops` (default 1, 0 = forever), `tracksToLock`, `renderInEyeHue`. One animation:
//!   one action played `num_loops` times. Several: passes of all of them in order, a pass
//!   counted when it starts, a failed action counting as played. Ends after the last pass.
//!   Every gate open; always delegates.
//! * `AnimSequenceWithFace`: plus `faceSelectionPenalties`, `requireFaceForActivation`,
//!   `requireFaceConfirmation`, `returnToOriginalPose`, `setFastTurn`. With a face known it
//!   first turns toward it (a simulated turn of 45°); with `returnToOriginalPose` it turns
//!   back at the end.
//! * `AnimSequenceWithObject`: plus `objectType` (default: any); wants to run only while a
//!   located object of that type exists; turns toward it first.
//! * `AnimGetInLoop` (§4.2): get-in, loops every `loopInterval_s` until its
//!   `loopEndCondition` holds (checked, and latched, during animations too; never checked
//!   when `shouldCheckEndCondDuringAnim` is false, as written in the original), then the
//!   get-out; interrupted in get-in or loop, it plays `emergencyGetOut` outside the behavior
//!   system (logged here).
//! * `TextToSpeechLoop` (§4.3): wants to run while it has an utterance (here: its
//!   `DEV_TEST_UTTERANCE`; the original's owning behaviors set one in code); get-in, the
//!   speech (length from the text), get-out.
//! * `PlayAnimation` (a project class): one animation of a given length.

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, Condition, Continuation, Ctx, DelegationOutcome,
    OperationModifiers, PlayAnimation, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

use crate::access::RobotAccess;
use crate::catalog;

const NEXT: u32 = 1;
const TURNED: u32 = 2;
const RETURNED: u32 = 3;

/// What a sequence turns toward before playing.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    /// Nothing: plays at once.
    None,
    /// The best face (`AnimSequenceWithFace`).
    Face { require: bool, return_to_pose: bool },
    /// A located object of this type (None: any) (`AnimSequenceWithObject`).
    Object(Option<u8>),
}

/// `AnimSequence`, `AnimSequenceWithFace`, `AnimSequenceWithObject` (see the
/// [module documentation](self)).
#[derive(Clone, Debug)]
pub struct AnimSequence {
    animations: Vec<String>,
    loops: u32,
    target: Target,
    index: usize,
    passes: u32,
    turned: bool,
}

impl AnimSequence {
    /// Plays `animations` (triggers or names) `loops` times (0: forever).
    pub fn new(animations: Vec<String>, loops: u32) -> Self {
        Self {
            animations,
            loops,
            target: Target::None,
            index: 0,
            passes: 0,
            turned: false,
        }
    }

    fn play_current<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if self.animations.len() == 1 {
            let req = ActionRequest::Animation {
                name: &self.animations[0],
                loops: self.loops,
            };
            let _ = ctx.play(&req, Continuation::Call(NEXT));
            self.passes = self.loops.max(1);
            self.index = 1;
            return;
        }
        let req = ActionRequest::Animation {
            name: &self.animations[self.index],
            loops: 1,
        };
        let _ = ctx.play(&req, Continuation::Call(NEXT));
    }

    fn start_pass<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.passes += 1;
        self.index = 0;
        self.play_current(ctx);
    }

    fn finish<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let (
            Target::Face {
                return_to_pose: true,
                ..
            },
            true,
        ) = (&self.target, self.turned)
        {
            self.turned = false;
            let _ = ctx.play(
                &ActionRequest::Turn { degrees: -45.0 },
                Continuation::Call(RETURNED),
            );
            return;
        }
        let _ = ctx.cancel_self();
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for AnimSequence {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = true;
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(match &self.target {
            Target::None | Target::Face { require: false, .. } => Watch::CONSTANT,
            Target::Face { .. } => Watch::reads(crate::inputs::FACES),
            Target::Object(_) => Watch::reads(crate::inputs::OBJECTS),
        })
    }
    /// Its update does nothing: its animations are actions.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        match &self.target {
            Target::None => !self.animations.is_empty(),
            Target::Face { require, .. } => !*require || !view.robot().faces.is_empty(),
            Target::Object(t) => view
                .robot()
                .objects
                .iter()
                .any(|o| t.is_none_or(|t| o.object_type == t)),
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.passes = 0;
        self.index = 0;
        self.turned = false;
        let turn = match &self.target {
            Target::None => false,
            Target::Face { .. } => !ctx.robot().faces.is_empty(),
            Target::Object(_) => true,
        };
        if turn {
            self.turned = true;
            let _ = ctx.play(
                &ActionRequest::Turn { degrees: 45.0 },
                Continuation::Call(TURNED),
            );
        } else {
            self.start_pass(ctx);
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match step {
            TURNED => self.start_pass(ctx),
            RETURNED => {
                let _ = ctx.cancel_self();
            }
            _ => {
                self.index += 1;
                if self.index < self.animations.len() {
                    self.play_current(ctx);
                } else if self.animations.len() > 1 && (self.loops == 0 || self.passes < self.loops)
                {
                    self.start_pass(ctx);
                } else {
                    self.finish(ctx);
                }
            }
        }
    }
}

fn read_sequence<U: IntentUnion, E: 'static>(cx: &mut BuildCx<'_, U, E>) -> Option<AnimSequence> {
    let triggers = cx.strings("animTriggers").unwrap_or_default();
    let names = cx.strings("animNames").unwrap_or_default();
    let loops = cx.i64("num_loops").unwrap_or(1);
    let tracks = cx.strings("tracksToLock").unwrap_or_default();
    cx.bool("renderInEyeHue", true);
    for (i, t) in tracks.iter().enumerate() {
        if !catalog::contains(catalog::ANIM_TRACKS, t) {
            cx.bad_value(
                &format!("tracksToLock[{i}]"),
                format!(
                    "unknown track `{t}` (expected one of {})",
                    catalog::ANIM_TRACKS.join(", ")
                ),
            );
        }
    }
    if triggers.is_empty() == names.is_empty() {
        cx.bad_value(
            "animTriggers",
            "exactly one of `animTriggers` and `animNames` must be non-empty",
        );
        return None;
    }
    if loops < 0 {
        cx.bad_value(
            "num_loops",
            format!("must be >= 0 (0: forever), found {loops}"),
        );
        return None;
    }
    let list = if triggers.is_empty() { names } else { triggers };
    Some(AnimSequence::new(
        list.into_iter().map(str::to_owned).collect(),
        u32::try_from(loops).unwrap_or(u32::MAX),
    ))
}

pub(crate) fn build_anim_sequence<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    Some(Box::new(read_sequence(cx)?))
}

pub(crate) fn build_with_face<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let s = read_sequence(cx);
    // The array of {factor, multiplier} the robot's files use (or the object shorthand),
    // checked as the class table says (OCP §2.9).
    if let Some(key) = crate::specs::class("AnimSequenceWithFace")
        .and_then(|c| c.keys.iter().find(|k| k.name == "faceSelectionPenalties"))
    {
        crate::keys::read_keys(cx, std::slice::from_ref(key));
    }
    let require = cx.bool("requireFaceForActivation", false);
    cx.bool("requireFaceConfirmation", false);
    let back = cx.bool("returnToOriginalPose", false);
    cx.bool("setFastTurn", false);
    let mut s = s?;
    s.target = Target::Face {
        require,
        return_to_pose: back,
    };
    Some(Box::new(s))
}

pub(crate) fn build_with_object<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let s = read_sequence(cx);
    let t = cx.one_of("objectType", catalog::OBJECT_TYPES);
    if cx.has("objectType") && t.is_none() {
        return None;
    }
    let mut s = s?;
    s.target = Target::Object(t.map(|i| i as u8));
    Some(Box::new(s))
}

// ----- AnimGetInLoop -------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    GetIn,
    Loop,
    GetOut,
}

/// `AnimGetInLoop` (see the [module documentation](self)).
pub struct AnimGetInLoop<U: IntentUnion, E: 'static> {
    get_in: String,
    loop_anim: String,
    get_out: String,
    emergency: Option<String>,
    end: Option<Condition<U, E>>,
    check_during_anim: bool,
    interval: Duration,
    stage: Stage,
    end_requested: bool,
    next_loop: Duration,
}

const GOT_IN: u32 = 1;
const LOOPED: u32 = 2;
const GOT_OUT: u32 = 3;

impl<U: IntentUnion, E: 'static> Behavior<U, E> for AnimGetInLoop<U, E> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.when_carrying = false;
        m.when_off_treads = true;
        m.when_on_charger = true;
        m.always_delegates = false;
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Active: its end condition's next change (it is evaluated every update, and a true
    /// value latches), the next loop when it waits between loops.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        if view.active_for().is_none() {
            return Wakeup::Never;
        }
        let mut w = Wakeup::Never;
        if self.check_during_anim {
            if let Some(c) = &self.end {
                w = match c.last() {
                    Some((_, false)) => c.next_change(&view.eval_cx()),
                    _ => Wakeup::EveryTick,
                };
            }
        }
        if view.is_delegating(view.me()) || self.stage == Stage::GetOut {
            return w;
        }
        if self.end_requested {
            return Wakeup::EveryTick;
        }
        w.min(Wakeup::At(
            self.next_loop.saturating_add(Duration::from_nanos(1)),
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        if let Some(c) = &self.end {
            c.set_active(true, now);
        }
        self.stage = Stage::GetIn;
        self.end_requested = false;
        self.next_loop = Duration::ZERO;
        let _ = ctx.play(
            &ActionRequest::Animation {
                name: &self.get_in,
                loops: 1,
            },
            Continuation::Call(GOT_IN),
        );
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match step {
            GOT_IN => self.stage = Stage::Loop,
            GOT_OUT => {
                let _ = ctx.cancel_self();
            }
            _ => {}
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if self.check_during_anim {
            if let Some(c) = &self.end {
                self.end_requested |= ctx.eval(c);
            }
        }
        if ctx.is_control_delegated() || self.stage == Stage::GetOut {
            return;
        }
        let now = ctx.clock().now();
        if self.end_requested {
            self.stage = Stage::GetOut;
            let _ = ctx.play(
                &ActionRequest::Animation {
                    name: &self.get_out,
                    loops: 1,
                },
                Continuation::Call(GOT_OUT),
            );
        } else if self.next_loop < now {
            self.next_loop = now.saturating_add(self.interval);
            self.stage = Stage::Loop;
            let _ = ctx.play(
                &ActionRequest::Animation {
                    name: &self.loop_anim,
                    loops: 1,
                },
                Continuation::Call(LOOPED),
            );
        }
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        if let Some(c) = &self.end {
            c.set_active(false, now);
        }
        if let (Stage::GetIn | Stage::Loop, Some(e)) = (self.stage, &self.emergency) {
            tracing::debug!(behavior = %ctx.my_name(), animation = %e, "AnimGetInLoop.EmergencyGetOut");
        }
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        if let Some(c) = &self.end {
            out.push(("loopEndCondition".into(), c));
        }
    }
}

pub(crate) fn build_get_in_loop<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let get_in = cx.req_str("getIn");
    let loop_anim = cx.req_str("loopAnimation");
    let get_out = cx.req_str("getOut");
    let emergency = cx.str("emergencyGetOut").map(str::to_owned);
    let end = match cx.get("loopEndCondition") {
        Some(v) => Some(cx.condition(v, "loopEndCondition")?),
        None => None,
    };
    let check = cx.bool("shouldCheckEndCondDuringAnim", true);
    let interval = cx.seconds("loopInterval_s").unwrap_or_default();
    cx.bool("lockTreads", false);
    cx.accept("shouldForceLoopGetOutAnim");
    Some(Box::new(AnimGetInLoop {
        get_in: get_in?.to_owned(),
        loop_anim: loop_anim?.to_owned(),
        get_out: get_out?.to_owned(),
        emergency,
        end,
        check_during_anim: check,
        interval,
        stage: Stage::GetIn,
        end_requested: false,
        next_loop: Duration::ZERO,
    }))
}

// ----- TextToSpeechLoop ----------------------------------------------------------------------

/// `TextToSpeechLoop` (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct TextToSpeechLoop {
    get_in: Option<String>,
    loop_anim: String,
    get_out: Option<String>,
    utterance: Option<String>,
    step: u32,
}

impl TextToSpeechLoop {
    /// Sets the utterance (what the original's owning behaviors do in code).
    pub fn set_utterance(&mut self, text: impl Into<String>) {
        self.utterance = Some(text.into());
    }
    fn next<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.step += 1;
        let text = self.utterance.clone().unwrap_or_default();
        let r = match self.step {
            1 => self
                .get_in
                .as_deref()
                .map(|a| ActionRequest::Animation { name: a, loops: 1 }),
            2 => Some(ActionRequest::Speech { text: &text }),
            3 => self
                .get_out
                .as_deref()
                .map(|a| ActionRequest::Animation { name: a, loops: 1 }),
            _ => {
                let _ = ctx.cancel_self();
                return;
            }
        };
        match r {
            Some(r) => {
                let loop_name = &self.loop_anim;
                tracing::trace!(loop_animation = %loop_name, step = self.step, "TextToSpeechLoop.Step");
                let _ = ctx.play(&r, Continuation::Call(NEXT));
            }
            None => self.next(ctx),
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for TextToSpeechLoop {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.when_carrying = false;
        m.when_off_treads = true;
        m.when_on_charger = true;
        m.always_delegates = false;
    }
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        self.utterance.as_deref().is_some_and(|u| !u.is_empty())
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.step = 0;
        self.next(ctx);
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        self.next(ctx);
    }
}

pub(crate) fn build_tts_loop<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let loop_anim = cx.req_str("loopAnimation");
    let get_in = cx.str("getInAnimation").map(str::to_owned);
    let get_out = cx.str("getOutAnimation").map(str::to_owned);
    cx.str("emergencyGetOutAnimation");
    cx.str("idleAnimation");
    cx.bool("lockTreads", false);
    let utterance = cx.str("DEV_TEST_UTTERANCE").map(str::to_owned);
    Some(Box::new(TextToSpeechLoop {
        get_in,
        loop_anim: loop_anim?.to_owned(),
        get_out,
        utterance,
        step: 0,
    }))
}

// ----- PlayAnimation (project class) ---------------------------------------------------------

/// `PlayAnimation` (a project class): plays `animation` for `length_s` seconds and ends.
#[derive(Clone, Debug)]
pub struct PlayAnimationBehavior {
    animation: String,
    length: Duration,
}

impl PlayAnimationBehavior {
    /// Plays `animation` of `length`.
    pub fn new(animation: impl Into<String>, length: Duration) -> Self {
        Self {
            animation: animation.into(),
            length,
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for PlayAnimationBehavior {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Its animation is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let a = PlayAnimation::new(self.animation.clone(), self.length);
        let _ = ctx.delegate_action(Box::new(a), Continuation::None);
    }
}

pub(crate) fn build_play_animation<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let animation = cx.req_str("animation");
    let length = cx.req_f64("length_s").and_then(|_| cx.seconds("length_s"));
    Some(Box::new(PlayAnimationBehavior::new(animation?, length?)))
}
