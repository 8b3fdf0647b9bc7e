//! The robot's behaviors on the behavior system (`robot_runtime::behavior`): the tree of
//! `behaviors/robot.json` (the original engine's format), the robot's own classes and
//! actions, and the log they write the timeline through.
//!
//! Classes the robot adds to the built-ins (`Wait`, `DispatcherStrictPriority`,
//! `ReactToUnclaimedIntent`, `SimpleVoiceResponse`, `HighLevelAI`, ...):
//!
//! | `behaviorClass` | wants to be activated when | does |
//! |---|---|---|
//! | `ReactToVoiceCommand` | the trigger word is pending | clears it, pauses the claim deadline (scoped) and listens (`listenTimeout_s`) until an intent is pending (then ends so that its handler claims it), the error flag is set, or time is up; claims `unmatched_intent` and `silence` itself and plays `huhAnimation` |
//! | `VoiceCommand` | its `respondToUserIntents` match the pending intent | the runner claims the intent for it; it runs its `action` and ends with it |
//!
//! An `action` is `{"name": ..., "duration_ms": N}` (an animation: ends by itself) or
//! `{"name": ..., "timeout_ms": N}` (hardware work: ends when the scenario reports
//! `action_done` for it, fails after the timeout).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use robot_runtime::behavior::{
    load_tree, Action, ActionEnd, ActionStatus, Behavior, BuildCx, ClaimSite, Continuation, Ctx,
    DelegationOutcome, LoadError, LoadOptions, Registry, Source, Tree, View, VirtualClock, Wakeup,
};
use robot_runtime::intent::{IntentEvent, IntentMatcher};
use serde::Deserialize;

use crate::intents::{Tag, UserIntent};
use crate::scenario::ActionResult;
use crate::timeline::What;

/// What the behaviors and the intent component report, in the order it happened.
#[derive(Debug)]
pub enum Item {
    /// An event of the intent component.
    Intent(IntentEvent<Tag>),
    /// A timeline entry of a behavior or an action.
    What(What),
}

/// The shared log: the intent component's subscriber, the robot's classes and actions
/// append; the robot drains it into the timeline after each step.
#[derive(Clone, Debug, Default)]
pub struct Log(Arc<Mutex<Vec<Item>>>);

impl Log {
    /// Appends.
    pub fn push(&self, item: Item) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(item);
    }

    /// Takes everything logged so far.
    pub fn take(&self) -> Vec<Item> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Actions waiting for a completion from outside (`action_done` in a scenario): name →
/// the result once reported.
#[derive(Clone, Debug, Default)]
pub struct Completions(Arc<Mutex<HashMap<String, Option<ActionResult>>>>);

impl Completions {
    /// Reports that the running action `name` ended. False when no action of that name is
    /// running.
    pub fn complete(&self, name: &str, result: ActionResult) -> bool {
        let mut m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match m.get_mut(name) {
            Some(slot @ None) => {
                *slot = Some(result);
                true
            }
            _ => false,
        }
    }

    /// An action of this name started (its completion is now awaited).
    pub fn start(&self, name: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(name.to_owned(), None);
    }

    /// The reported result of the running action `name`, if reported yet.
    pub fn poll(&self, name: &str) -> Option<ActionResult> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(name)
            .copied()
            .flatten()
    }

    /// The action `name` ended.
    pub fn end(&self, name: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(name);
    }
}

/// The behavior tree's user event type (none: completions arrive through [`Completions`]).
pub type Event = ();

/// How a robot action ends.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// Its name.
    pub name: String,
    /// A timed action (an animation): its length.
    #[serde(default)]
    pub duration_ms: Option<u64>,
    /// An action ended from outside: its timeout.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// A running robot action: timed, or waiting for its completion. Reports its start and end
/// to the log.
struct RobotAction {
    behavior: String,
    name: String,
    length: Duration,
    external: bool,
    until: Option<Duration>,
    log: Log,
    completions: Completions,
}

impl Action for RobotAction {
    fn name(&self) -> &str {
        &self.name
    }
    fn start(&mut self, clock: &VirtualClock) {
        self.until = Some(clock.now().saturating_add(self.length));
        if self.external {
            self.completions.start(&self.name);
        }
        self.log.push(Item::What(What::Action {
            behavior: self.behavior.clone(),
            action: self.name.clone(),
            change: "started",
            duration_ms: (!self.external).then_some(self.length.as_millis() as u64),
        }));
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        if self.external {
            match self.completions.poll(&self.name) {
                Some(ActionResult::Succeeded) => return ActionStatus::Succeeded,
                Some(_) => return ActionStatus::Failed,
                None => {}
            }
        }
        match self.until {
            Some(t) if clock.now() < t => ActionStatus::Running,
            _ if self.external => ActionStatus::Failed,
            _ => ActionStatus::Succeeded,
        }
    }
    fn on_end(&mut self, end: ActionEnd) {
        let reported = self
            .external
            .then(|| self.completions.poll(&self.name))
            .flatten();
        if self.external {
            self.completions.end(&self.name);
        }
        let change = match (end, reported) {
            (ActionEnd::Succeeded, _) => "succeeded",
            (ActionEnd::Failed, Some(ActionResult::Cancelled)) => "cancelled",
            (ActionEnd::Failed, Some(_)) => "failed",
            (ActionEnd::Failed, None) => "timed out",
            (ActionEnd::Cancelled, _) => "cancelled",
            (ActionEnd::Interrupted, _) => "interrupted",
        };
        self.log.push(Item::What(What::Action {
            behavior: self.behavior.clone(),
            action: self.name.clone(),
            change,
            duration_ms: None,
        }));
    }
}

fn robot_action(
    spec: &ActionSpec,
    behavior: &str,
    log: &Log,
    completions: &Completions,
) -> RobotAction {
    let (length, external) = match (spec.duration_ms, spec.timeout_ms) {
        (Some(d), _) => (d, false),
        (None, Some(t)) => (t, true),
        (None, None) => (0, false),
    };
    RobotAction {
        behavior: behavior.to_owned(),
        name: spec.name.clone(),
        length: Duration::from_millis(length),
        external,
        until: None,
        log: log.clone(),
        completions: completions.clone(),
    }
}

/// `VoiceCommand`: runs its action once the runner has claimed its intent; ends with it.
struct VoiceCommand {
    action: ActionSpec,
    log: Log,
    completions: Completions,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoiceCommandParams {
    action: ActionSpec,
}

impl Behavior<UserIntent, Event> for VoiceCommand {
    /// Ends with its action.
    fn always_delegates(&self) -> bool {
        true
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, UserIntent, Event>) {
        let me = ctx.my_name().to_string();
        let action = robot_action(&self.action, &me, &self.log, &self.completions);
        if let Err(e) = ctx.delegate_action(Box::new(action), Continuation::None) {
            tracing::warn!(behavior = %me, error = %e, "could not start its action");
        }
    }
}

/// `ReactToVoiceCommand`: the trigger-word reaction (see the module docs).
struct ReactToVoiceCommand {
    log: Log,
    completions: Completions,
    listen: Duration,
    huh: String,
    huh_length: Duration,
    reacting: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReactParams {
    #[serde(rename = "listenTimeout_s", default = "five")]
    listen_timeout_s: f64,
    #[serde(default = "huh")]
    huh_animation: String,
    #[serde(rename = "huhLength_s", default = "point_eight")]
    huh_length_s: f64,
}

fn five() -> f64 {
    5.0
}
fn huh() -> String {
    "anim_huh".into()
}
fn point_eight() -> f64 {
    0.8
}

impl Behavior<UserIntent, Event> for ReactToVoiceCommand {
    fn always_delegates(&self) -> bool {
        false
    }
    fn wants_to_be_activated(&self, view: &View<'_, UserIntent, Event>) -> bool {
        view.intents().is_trigger_word_pending()
    }
    /// Inactive, it waits for the trigger word (an input); active, it listens with a timeout.
    fn next_wakeup(&self, view: &View<'_, UserIntent, Event>) -> Wakeup {
        if view.active_for().is_some() {
            Wakeup::EveryTick
        } else {
            Wakeup::Never
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, UserIntent, Event>) {
        self.reacting = false;
        ctx.intents_mut().clear_trigger_word();
        ctx.hold_timeout();
    }
    fn update(&mut self, ctx: &mut Ctx<'_, UserIntent, Event>) {
        if !ctx.is_active() || self.reacting {
            return;
        }
        let pending = ctx.intents().pending_tag();
        match pending {
            Some(tag @ (Tag::UnmatchedIntent | Tag::Silence)) => {
                self.reacting = true;
                let _ = ctx.activate_intent(&IntentMatcher::tag(tag));
                let spec = ActionSpec {
                    name: self.huh.clone(),
                    duration_ms: Some(self.huh_length.as_millis() as u64),
                    timeout_ms: None,
                };
                let me = ctx.my_name().to_string();
                let anim = robot_action(&spec, &me, &self.log, &self.completions);
                let _ = ctx.delegate_action(Box::new(anim), Continuation::Call(1));
            }
            Some(_) => {
                let _ = ctx.cancel_self();
            }
            None if ctx.intents().was_error() => {
                ctx.intents_mut().reset_error();
                let _ = ctx.cancel_self();
            }
            None if ctx.view().active_for().is_some_and(|t| t >= self.listen) => {
                let _ = ctx.cancel_self();
            }
            None => {}
        }
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, UserIntent, Event>,
    ) {
        let _ = ctx.cancel_self();
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<Tag>>) {
        out.push(ClaimSite {
            tag: Tag::UnmatchedIntent,
            state: None,
        });
        out.push(ClaimSite {
            tag: Tag::Silence,
            state: None,
        });
    }
}

fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or_default()
}

/// The built-in classes plus the robot's.
pub fn registry(log: &Log, completions: &Completions) -> Registry<UserIntent, Event> {
    let mut r = Registry::with_builtins();
    {
        let (log, completions) = (log.clone(), completions.clone());
        r.register_class(
            "VoiceCommand",
            move |cx: &mut BuildCx<'_, UserIntent, Event>| {
                let p: VoiceCommandParams = cx.params()?;
                Some(Box::new(VoiceCommand {
                    action: p.action,
                    log: log.clone(),
                    completions: completions.clone(),
                }) as Box<dyn Behavior<UserIntent, Event>>)
            },
        );
    }
    let (log, completions) = (log.clone(), completions.clone());
    r.register_class(
        "ReactToVoiceCommand",
        move |cx: &mut BuildCx<'_, UserIntent, Event>| {
            let p: ReactParams = cx.params()?;
            Some(Box::new(ReactToVoiceCommand {
                log: log.clone(),
                completions: completions.clone(),
                listen: secs(p.listen_timeout_s),
                huh: p.huh_animation,
                huh_length: secs(p.huh_length_s),
                reacting: false,
            }) as Box<dyn Behavior<UserIntent, Event>>)
        },
    );
    r
}

/// Loads the robot's tree (`root` is the base behavior's ID).
pub fn load(
    file: &str,
    text: &str,
    root: &str,
    log: &Log,
    completions: &Completions,
) -> Result<Tree<UserIntent, Event>, LoadError> {
    let registry = registry(log, completions);
    load_tree(
        &registry,
        &[Source::new(file, text)],
        root,
        &LoadOptions::default(),
    )
}
