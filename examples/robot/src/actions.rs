//! The robot's actions on `robot_runtime::behavior::Action`: timed (an animation: ends by
//! itself) or ended from outside (hardware work: ends when the scenario reports
//! `action_done` for it, through [`Completions`], and fails after its timeout). Each reports
//! its start and end to the [`Log`], and claims the parts of the body it moves from the
//! robot's one arbiter before it starts ([`ActionSpec::needs`], [`arbitrated`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use robot_runtime::arbiter::{
    self, ArbitratedAction, Body, ResourceSet, SharedArbiter, WhenBlocked,
};
use robot_runtime::behavior::{
    request_name, Action, ActionEnd, ActionFactory, ActionRequest, ActionStatus,
    AnimationDurations, Timed, VirtualClock, Wakeup,
};
use robot_runtime::hri::Priority;
use serde::Deserialize;

use crate::log::{Item, Log};
use crate::scenario::ActionResult;
use crate::timeline::What;

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
    /// The parts of the body it moves (`"base"`, `"head"`, ...: `robot_runtime::arbiter::Body`).
    /// Default: a timed action is an animation (every track: head, lift, base, screen,
    /// backpack lights, audio); an action ended from outside names its own (none when it
    /// does not say).
    #[serde(default)]
    pub needs: Option<Vec<Body>>,
}

impl ActionSpec {
    /// What it claims (see [`needs`](Self::needs)).
    pub fn resources(&self) -> ResourceSet<Body> {
        match (&self.needs, self.duration_ms) {
            (Some(parts), _) => ResourceSet::of(parts),
            (None, Some(_)) => arbiter::needs(&ActionRequest::Animation { name: "", loops: 1 }),
            (None, None) => ResourceSet::EMPTY,
        }
    }

    /// The parts of its claim it can play without while a hold keeps them from everyone
    /// (`CoordinateWhileInAir` holds the base while the robot is lifted): every part of an
    /// animation (a timed action naming no parts), none of an action that names its own.
    pub fn maskable(&self) -> ResourceSet<Body> {
        match (&self.needs, self.duration_ms) {
            (None, Some(_)) => self.resources(),
            _ => ResourceSet::EMPTY,
        }
    }

    /// How long it waits for its parts before it fails: its length, or its timeout.
    pub fn wait_limit(&self) -> Duration {
        Duration::from_millis(self.duration_ms.or(self.timeout_ms).unwrap_or(0))
    }
}

/// `action`, run once the arbiter grants it `resources` at `priority`, for `behavior`
/// (the label `behavior/action` in the timeline); refused, it waits or fails as `blocked`
/// says. While a hold keeps parts from everyone, it plays without those of them in
/// `maskable` (an animation's tracks: [`arbiter::maskable`]) and claims the others.
pub fn arbitrated(
    action: Box<dyn Action>,
    arbiter: &SharedArbiter<Body>,
    (resources, maskable): (ResourceSet<Body>, ResourceSet<Body>),
    priority: Priority,
    behavior: &str,
    blocked: WhenBlocked,
) -> Box<dyn Action> {
    if resources.is_empty() {
        return action;
    }
    let label = format!("{behavior}/{}", action.name());
    Box::new(
        ArbitratedAction::new(action, arbiter, resources, priority, label)
            .when_blocked(blocked)
            .maskable(maskable),
    )
}

/// A running robot action: timed, or waiting for its completion. Reports its start and end
/// to the log.
pub struct RobotAction {
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
    /// Its end or timeout (a completion is an input: the scenario line that reports it).
    fn next_wakeup(&self, _clock: &VirtualClock) -> Wakeup {
        self.until.map_or(Wakeup::EveryTick, Wakeup::At)
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

/// The action `spec` describes, run for `behavior`.
pub fn robot_action(
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

/// The robot's action factory (`robot_runtime::behavior::ActionFactory`): the animations,
/// speech, turns and stand-in work the behavior classes ask for, simulated as timed actions
/// (lengths from [`durations`](Self::durations), the runtime's documented defaults
/// otherwise) that report their start and end to the [`Log`], so they show in the timeline.
/// Each claims what its kind needs ([`arbiter::needs`]) at [`Priority::DEFAULT`] (the
/// factory is not told which intent its behavior serves) and waits at most its own length.
pub struct RobotActions {
    /// The lengths of animations (by trigger or name) and stand-in classes.
    pub durations: AnimationDurations,
    log: Log,
    arbiter: SharedArbiter<Body>,
}

impl RobotActions {
    /// The factory, logging to `log`, claiming through `arbiter`.
    pub fn new(log: &Log, arbiter: &SharedArbiter<Body>) -> Self {
        Self {
            durations: AnimationDurations::default(),
            log: log.clone(),
            arbiter: arbiter.clone(),
        }
    }
}

impl ActionFactory for RobotActions {
    fn make(&mut self, behavior: &str, request: &ActionRequest<'_>) -> Box<dyn Action> {
        let length = self.durations.length(request);
        let action = Box::new(LoggedAction {
            behavior: behavior.to_owned(),
            inner: Timed::new(request_name(request), length),
            log: self.log.clone(),
        });
        arbitrated(
            action,
            &self.arbiter,
            (arbiter::needs(request), arbiter::maskable(request)),
            Priority::DEFAULT,
            behavior,
            WhenBlocked::Wait { up_to: length },
        )
    }
}

/// A timed action that reports its start and end.
struct LoggedAction {
    behavior: String,
    inner: Timed,
    log: Log,
}

impl Action for LoggedAction {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn start(&mut self, clock: &VirtualClock) {
        self.inner.start(clock);
        self.log.push(Item::What(What::Action {
            behavior: self.behavior.clone(),
            action: self.inner.name().to_owned(),
            change: "started",
            duration_ms: self.inner.length().map(|l| l.as_millis() as u64),
        }));
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        self.inner.step(clock)
    }
    fn next_wakeup(&self, clock: &VirtualClock) -> Wakeup {
        self.inner.next_wakeup(clock)
    }
    fn on_end(&mut self, end: ActionEnd) {
        let change = match end {
            ActionEnd::Succeeded => "succeeded",
            ActionEnd::Failed => "failed",
            ActionEnd::Cancelled => "cancelled",
            ActionEnd::Interrupted => "interrupted",
        };
        self.log.push(Item::What(What::Action {
            behavior: self.behavior.clone(),
            action: self.inner.name().to_owned(),
            change,
            duration_ms: None,
        }));
    }
}
