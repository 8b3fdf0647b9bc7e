//! Built-in behavior classes. Each has a typed params struct (serde, unknown keys
//! rejected); defaults are documented on the fields.

use std::time::Duration;

use serde::Deserialize;

use super::action::PlayAnimation;
use super::core::{Behavior, Continuation, Ctx, View};
use super::ids::BehaviorId;
use super::loader::ProblemKind;
use super::registry::{BuildCx, Registry};
use super::wakeup::Wakeup;
use super::IntentUnion;

fn secs(cx_key: &str, s: f64) -> Result<Duration, String> {
    if (0.0..1.0e9).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "`{cx_key}` must be a non-negative number of seconds"
        ))
    }
}

fn duration<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    key: &str,
    s: f64,
) -> Option<Duration> {
    match secs(key, s) {
        Ok(d) => Some(d),
        Err(reason) => {
            cx.problem(key, ProblemKind::BadParams { reason });
            None
        }
    }
}

fn resolve_all<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    key: &str,
    names: &[String],
) -> Option<Vec<BehaviorId>> {
    let mut out = Vec::with_capacity(names.len());
    let mut ok = true;
    for (k, n) in names.iter().enumerate() {
        match cx.delegate(n, &format!("{key}[{k}]")) {
            Some(id) => out.push(id),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

// ----- Wait --------------------------------------------------------------------------------

/// `Wait`: does nothing; always wants to be activated (the original's do-nothing behavior
/// that keeps the stack non-empty). With `duration_s`, ends itself after that long.
#[derive(Clone, Debug, Default)]
pub struct Wait {
    duration: Option<Duration>,
}

/// Params of [`Wait`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct WaitParams {
    /// Optional: end after this many seconds (default: wait forever).
    #[serde(default)]
    duration_s: Option<f64>,
}

impl Wait {
    /// Waits forever.
    pub fn new() -> Self {
        Self { duration: None }
    }
    /// Ends itself after `d` of activity.
    pub fn for_duration(d: Duration) -> Self {
        Self { duration: Some(d) }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Wait {
    fn can_be_gently_interrupted(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(d) = self.duration else {
            return;
        };
        if ctx.view().active_for().is_some_and(|t| t >= d) {
            let _ = ctx.cancel_self();
        }
    }
    /// Always wants to run; acts only when its duration is up.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match (self.duration, view.active_for()) {
            (Some(d), Some(t)) if t < d => Wakeup::after(view.clock().now(), d - t),
            (Some(_), Some(_)) => Wakeup::EveryTick,
            _ => Wakeup::Never,
        }
    }
}

// ----- DispatcherStrictPriority -----------------------------------------------------------

/// `DispatcherStrictPriority`: every tick while active, runs the first child (in
/// priority order) that is active or wants to be activated. With
/// `interruptActiveBehavior`, a higher-priority child that wants to run interrupts the
/// running one; without, the running child finishes first. Always delegates (ends when no
/// child runs). Wants to be activated: always, or with `linkScope` only when some child
/// would.
#[derive(Clone, Debug)]
pub struct StrictPriorityDispatcher {
    children: Vec<BehaviorId>,
    interrupt: bool,
    link_scope: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PriorityParams {
    /// Children, highest priority first (required).
    behaviors: Vec<String>,
    /// Required (the original had no default either).
    interrupt_active_behavior: bool,
    /// Default false.
    #[serde(default)]
    link_scope: bool,
}

impl StrictPriorityDispatcher {
    /// A dispatcher over `children` (highest priority first).
    pub fn new(children: Vec<BehaviorId>, interrupt_active: bool) -> Self {
        Self {
            children,
            interrupt: interrupt_active,
            link_scope: false,
        }
    }
    /// Wants to activate only when a child would.
    pub fn linked(mut self) -> Self {
        self.link_scope = true;
        self
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for StrictPriorityDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.children.clone()
    }
    fn always_delegates(&self) -> bool {
        true
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        !self.link_scope
            || self
                .children
                .iter()
                .any(|c| view.would_want_to_activate(*c))
    }
    /// Active, it runs whichever child wants to: the children are in scope, and the runner
    /// counts their wake-ups. Inactive with `linkScope`, it wants to run when a child would.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        if self.link_scope && view.active_for().is_none() {
            self.children
                .iter()
                .fold(Wakeup::Never, |w, c| w.min(view.activation_wakeup(*c)))
        } else {
            Wakeup::Never
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let current = ctx.current_delegate();
        if current.is_some() && !self.interrupt {
            return;
        }
        let chosen = ctx.view().first_wanting(&self.children, current);
        match chosen {
            Some(c) if Some(c) == current => {}
            Some(c) if current.is_some() => drop(ctx.delegate_now(c, Continuation::None)),
            Some(c) => drop(ctx.delegate_if_in_control(c, Continuation::None)),
            None => {}
        }
    }
}

// ----- DispatcherQueue ---------------------------------------------------------------------

/// `DispatcherQueue`: runs its children once each, in order, skipping (for this
/// activation) a child that does not want to run when its turn comes; never interrupts a
/// running child. Always delegates: ends after the last child.
#[derive(Clone, Debug)]
pub struct QueueDispatcher {
    children: Vec<BehaviorId>,
    next: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueueParams {
    /// Children in order (required).
    behaviors: Vec<String>,
}

impl QueueDispatcher {
    /// A queue of `children`.
    pub fn new(children: Vec<BehaviorId>) -> Self {
        Self { children, next: 0 }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for QueueDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.children.clone()
    }
    fn always_delegates(&self) -> bool {
        true
    }
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.next = 0;
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || ctx.is_control_delegated() {
            return;
        }
        while let Some(&c) = self.children.get(self.next) {
            self.next += 1;
            if ctx.wants_to_activate(c) && ctx.delegate_if_in_control(c, Continuation::None).is_ok()
            {
                return;
            }
        }
    }
}

// ----- DispatcherRerun ---------------------------------------------------------------------

/// `DispatcherRerun`: delegates to `delegateID` `numRuns` times (−1: forever), each time
/// the previous run ended and the child wants to run again, then ends itself. Does not
/// always delegate (it waits while the child does not want to run).
#[derive(Clone, Debug)]
pub struct RerunDispatcher {
    child: BehaviorId,
    runs: Option<u32>,
    done: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RerunParams {
    /// The child (required).
    #[serde(rename = "delegateID")]
    delegate_id: String,
    /// Runs; −1 = forever (required).
    num_runs: i64,
}

impl RerunDispatcher {
    /// Reruns `child` `runs` times (None: forever).
    pub fn new(child: BehaviorId, runs: Option<u32>) -> Self {
        Self {
            child,
            runs,
            done: 0,
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for RerunDispatcher {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        vec![self.child]
    }
    fn on_activated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.done = 0;
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() || ctx.is_control_delegated() {
            return;
        }
        if self.runs.is_some_and(|n| self.done >= n) {
            let _ = ctx.cancel_self();
            return;
        }
        if ctx.wants_to_activate(self.child)
            && ctx
                .delegate_if_in_control(self.child, Continuation::None)
                .is_ok()
        {
            self.done += 1;
        }
    }
}

// ----- PlayAnimation -----------------------------------------------------------------------

/// `PlayAnimation`: plays one animation (simulated [`PlayAnimation`] action) and ends.
#[derive(Clone, Debug)]
pub struct PlayAnimationBehavior {
    animation: String,
    length: Duration,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayAnimationParams {
    /// The animation (required).
    animation: String,
    /// Its length in seconds (required).
    length_s: f64,
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
    /// Always wants to run; active, its animation is an action (the runner counts it).
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn always_delegates(&self) -> bool {
        true
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let a = PlayAnimation::new(self.animation.clone(), self.length);
        let _ = ctx.delegate_action(Box::new(a), Continuation::None);
    }
}

// ----- ReactToUnclaimedIntent --------------------------------------------------------------

/// `ReactToUnclaimedIntent`: wants to be activated iff the intent component's unclaimed
/// flag is set; on activation clears it and plays `animation` (default
/// `"ReactToUnclaimedIntent"`, `length_s` default 1.0), then ends.
#[derive(Clone, Debug)]
pub struct ReactToUnclaimedIntent {
    animation: String,
    length: Duration,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnclaimedParams {
    #[serde(default)]
    animation: Option<String>,
    #[serde(default)]
    length_s: Option<f64>,
}

impl Default for ReactToUnclaimedIntent {
    fn default() -> Self {
        Self {
            animation: "ReactToUnclaimedIntent".into(),
            length: Duration::from_secs(1),
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ReactToUnclaimedIntent {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn always_delegates(&self) -> bool {
        true
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        view.intents().was_unclaimed()
    }
    /// Wants to run on the unclaimed flag (set by the intent component: not on its own);
    /// active, its animation runs as an action (the runner counts it).
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        ctx.intents_mut().reset_unclaimed();
        let a = PlayAnimation::new(self.animation.clone(), self.length);
        let _ = ctx.delegate_action(Box::new(a), Continuation::None);
    }
}

// ----- SimpleVoiceResponse -----------------------------------------------------------------

/// `SimpleVoiceResponse`: for intents that are answered by one animation group (the map's
/// `simple_voice_responses`). Declare `respondToUserIntents` (e.g. `[{"type":
/// "simple_voice_response"}]`); on activation it plays the animation named by the claimed
/// intent's `animField` (default `"anim_group"`) for `length_s` (default 1.0), then ends.
/// An intent without that string field makes it fail.
#[derive(Clone, Debug)]
pub struct SimpleVoiceResponse {
    field: String,
    length: Duration,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SimpleVoiceParams {
    #[serde(default)]
    anim_field: Option<String>,
    #[serde(default, rename = "length_s")]
    length_s: Option<f64>,
}

impl SimpleVoiceResponse {
    /// Plays the animation in the intent's `field`.
    pub fn new(field: impl Into<String>, length: Duration) -> Self {
        Self {
            field: field.into(),
            length,
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for SimpleVoiceResponse {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    /// Its intent gate is the runner's; active, its animation is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn always_delegates(&self) -> bool {
        true
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let anim = ctx.intents().active().and_then(|a| {
            serde_json::to_value(a.intent())
                .ok()?
                .get(&self.field)?
                .as_str()
                .map(str::to_owned)
        });
        match anim {
            Some(anim) => {
                let _ = ctx.delegate_action(
                    Box::new(PlayAnimation::new(anim, self.length)),
                    Continuation::None,
                );
            }
            None => {
                let _ = ctx.fail("the active intent has no animation field");
            }
        }
    }
}

// ----- registration ------------------------------------------------------------------------

pub(crate) fn register_builtins<U: IntentUnion, E: 'static>(r: &mut Registry<U, E>) {
    r.register_class("Wait", |cx| {
        let p: WaitParams = cx.params()?;
        let d = match p.duration_s {
            Some(s) => Some(duration(cx, "duration_s", s)?),
            None => None,
        };
        Some(Box::new(Wait { duration: d }))
    });
    r.register_class("DispatcherStrictPriority", |cx| {
        let p: PriorityParams = cx.params()?;
        let children = resolve_all(cx, "behaviors", &p.behaviors)?;
        Some(Box::new(StrictPriorityDispatcher {
            children,
            interrupt: p.interrupt_active_behavior,
            link_scope: p.link_scope,
        }))
    });
    r.register_class("DispatcherQueue", |cx| {
        let p: QueueParams = cx.params()?;
        let children = resolve_all(cx, "behaviors", &p.behaviors)?;
        Some(Box::new(QueueDispatcher::new(children)))
    });
    r.register_class("DispatcherRerun", |cx| {
        let p: RerunParams = cx.params()?;
        let child = cx.delegate(&p.delegate_id, "delegateID")?;
        let runs = match p.num_runs {
            -1 => None,
            n if n >= 0 => Some(u32::try_from(n).unwrap_or(u32::MAX)),
            _ => {
                cx.problem(
                    "numRuns",
                    ProblemKind::BadParams {
                        reason: "`numRuns` must be -1 or non-negative".into(),
                    },
                );
                return None;
            }
        };
        Some(Box::new(RerunDispatcher::new(child, runs)))
    });
    r.register_class("PlayAnimation", |cx| {
        let p: PlayAnimationParams = cx.params()?;
        let length = duration(cx, "length_s", p.length_s)?;
        Some(Box::new(PlayAnimationBehavior::new(p.animation, length)))
    });
    r.register_class("ReactToUnclaimedIntent", |cx| {
        let p: UnclaimedParams = cx.params()?;
        let mut b = ReactToUnclaimedIntent::default();
        if let Some(a) = p.animation {
            b.animation = a;
        }
        if let Some(s) = p.length_s {
            b.length = duration(cx, "length_s", s)?;
        }
        Some(Box::new(b))
    });
    r.register_class("SimpleVoiceResponse", |cx| {
        let p: SimpleVoiceParams = cx.params()?;
        let length = match p.length_s {
            Some(s) => duration(cx, "length_s", s)?,
            None => Duration::from_secs(1),
        };
        Some(Box::new(SimpleVoiceResponse::new(
            p.anim_field.unwrap_or_else(|| "anim_group".into()),
            length,
        )))
    });
}

pub(crate) fn secs_opt(s: f64) -> Option<Duration> {
    secs("", s).ok()
}
