//! [`Action`]: multi-tick work a behavior delegates to (drive, animate, speak...), the
//! simulated built-ins ([`WaitFor`], [`PlayAnimation`], [`DriveToPose`], [`Timed`]) that
//! make behaviors testable without hardware, and the [`ActionFactory`] the animation and
//! speech wrappers ask for their actions ([`SimulatedActions`] with a robot-provided
//! [`AnimationDurations`] table by default).
//!
//! A behavior starts an action with
//! [`Ctx::delegate_action`](super::Ctx::delegate_action). The runner steps the action once
//! per tick, right before the delegating behavior's frame is processed, and tells the action
//! how it ended through [`Action::on_end`]; the delegating behavior's continuation receives
//! the matching [`DelegationOutcome`](super::DelegationOutcome).

use std::fmt;
use std::time::Duration;

use super::clock::VirtualClock;
use super::track_locks::LockedParts;
use super::wakeup::Wakeup;

/// What one step of an action reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionStatus {
    /// Still working.
    Running,
    /// Done, successfully.
    Succeeded,
    /// Done, unsuccessfully.
    Failed,
}

/// How an action ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionEnd {
    /// [`Action::step`] returned [`ActionStatus::Succeeded`].
    Succeeded,
    /// [`Action::step`] returned [`ActionStatus::Failed`].
    Failed,
    /// The delegating behavior cancelled it (`cancel_delegates`).
    Cancelled,
    /// The delegating behavior was deactivated (finished, cancelled by its parent, failed):
    /// the action was stopped on its behalf.
    Interrupted,
}

/// Multi-tick work. Implement it for real robot capabilities (a mission controller plugs
/// its skills in here); the runner owns the action while it runs.
///
/// ```
/// use robot_runtime::behavior::{Action, ActionEnd, ActionStatus, VirtualClock};
///
/// struct Beep { left: u32 }
/// impl Action for Beep {
///     fn name(&self) -> &str { "beep" }
///     fn step(&mut self, _clock: &VirtualClock) -> ActionStatus {
///         if self.left == 0 { return ActionStatus::Succeeded; }
///         self.left -= 1;
///         ActionStatus::Running
///     }
/// }
/// ```
pub trait Action: Send + 'static {
    /// A name for logs, the DOT export and the outcome.
    fn name(&self) -> &str;
    /// Called once when the runner accepts the delegation, before the first step.
    fn start(&mut self, _clock: &VirtualClock) {}
    /// Called once per tick while the action runs (the first call is on the tick after it
    /// was started, or the same tick if the delegating behavior's frame has not been
    /// processed yet).
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus;
    /// Called exactly once when the action ends, whatever the reason. Stop actuators here
    /// for [`ActionEnd::Cancelled`] / [`ActionEnd::Interrupted`].
    fn on_end(&mut self, _end: ActionEnd) {}
    /// The wake-up contract (see [`wakeup`](super::wakeup)): the first virtual time at
    /// which [`step`](Self::step) may do anything but return [`ActionStatus::Running`]
    /// unchanged, if no input arrives. Default [`Wakeup::EveryTick`] (steps are never
    /// skipped): right for an action that moves something every step.
    fn next_wakeup(&self, _clock: &VirtualClock) -> Wakeup {
        Wakeup::EveryTick
    }
    /// Called once before [`start`](Self::start) when the behaviors on the action's stack
    /// lock parts of the body (`tracksToLockWhileActivated`; see
    /// [`track_locks`](super::track_locks)): `locked` are those parts. They are the stack's:
    /// an action that claims parts leaves these out of its claim (an animation plays without
    /// the locked tracks, as the original masked them; a turn under a `BODY_TRACK` lock
    /// drives under it) and returns the ones it uses. The runner starts it only once the
    /// locks hold those, and stops it (ended as [`ActionEnd::Cancelled`]) if a higher claim
    /// takes them from the lock. Default: claims nothing, uses nothing.
    fn run_under_locks(&mut self, _locked: LockedParts) -> LockedParts {
        LockedParts::NONE
    }
    /// Called once before [`run_under_locks`](Self::run_under_locks) and
    /// [`start`](Self::start) when a behavior holds parts of the body from everyone (a hold:
    /// see [`track_locks`](super::track_locks); the original's in-air coordinator holds the
    /// treads while the robot is lifted): `held_back` are those parts. An action that can do
    /// without some of them leaves them out of its claim and plays without them (an
    /// animation without its body track, as the original's lock masked it) and returns the
    /// ones it left out; an action that needs them (a turn) keeps them in its claim, is
    /// refused them and waits or fails as its class says. Default: masks nothing.
    fn run_masked(&mut self, _held_back: LockedParts) -> LockedParts {
        LockedParts::NONE
    }
}

impl fmt::Debug for dyn Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Action({})", self.name())
    }
}

/// Waits for a duration of virtual time, then succeeds.
#[derive(Clone, Debug)]
pub struct WaitFor {
    duration: Duration,
    until: Option<Duration>,
}

impl WaitFor {
    /// Waits `duration`.
    pub fn new(duration: Duration) -> Self {
        Self {
            duration,
            until: None,
        }
    }
}

impl Action for WaitFor {
    fn name(&self) -> &str {
        "WaitFor"
    }
    fn start(&mut self, clock: &VirtualClock) {
        self.until = Some(clock.now().saturating_add(self.duration));
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        match self.until {
            Some(t) if clock.now() < t => ActionStatus::Running,
            _ => ActionStatus::Succeeded,
        }
    }
    /// Its end.
    fn next_wakeup(&self, _clock: &VirtualClock) -> Wakeup {
        self.until.map_or(Wakeup::EveryTick, Wakeup::At)
    }
}

/// Plays a named animation for its length (simulated: waits `length`). An empty name
/// fails at once, as an unknown animation would on the robot.
#[derive(Clone, Debug)]
pub struct PlayAnimation {
    animation: String,
    wait: WaitFor,
    ended: Option<ActionEnd>,
}

impl PlayAnimation {
    /// Plays `animation`, which lasts `length`.
    pub fn new(animation: impl Into<String>, length: Duration) -> Self {
        Self {
            animation: animation.into(),
            wait: WaitFor::new(length),
            ended: None,
        }
    }
    /// The animation's name.
    pub fn animation(&self) -> &str {
        &self.animation
    }
    /// How it ended, once it has.
    pub fn ended(&self) -> Option<ActionEnd> {
        self.ended
    }
}

impl Action for PlayAnimation {
    fn name(&self) -> &str {
        &self.animation
    }
    fn start(&mut self, clock: &VirtualClock) {
        tracing::debug!(animation = %self.animation, "PlayAnimation.Start");
        self.wait.start(clock);
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        if self.animation.is_empty() {
            return ActionStatus::Failed;
        }
        self.wait.step(clock)
    }
    fn on_end(&mut self, end: ActionEnd) {
        tracing::debug!(animation = %self.animation, ?end, "PlayAnimation.End");
        self.ended = Some(end);
    }
    /// Its end.
    fn next_wakeup(&self, clock: &VirtualClock) -> Wakeup {
        if self.animation.is_empty() {
            return Wakeup::EveryTick;
        }
        self.wait.next_wakeup(clock)
    }
}

/// A planar pose (millimetres, radians).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose2 {
    /// x, mm.
    pub x: f32,
    /// y, mm.
    pub y: f32,
    /// Heading, rad.
    pub theta: f32,
}

/// Drives in a straight line from `from` to `to` at `speed_mm_s` (simulated; the pose is
/// interpolated over virtual time). A non-positive or non-finite speed, or non-finite
/// poses, fail at the first step.
#[derive(Clone, Debug)]
pub struct DriveToPose {
    from: Pose2,
    to: Pose2,
    speed_mm_s: f32,
    started: Option<Duration>,
    pose: Pose2,
}

impl DriveToPose {
    /// Drives from `from` to `to`.
    pub fn new(from: Pose2, to: Pose2, speed_mm_s: f32) -> Self {
        Self {
            from,
            to,
            speed_mm_s,
            started: None,
            pose: from,
        }
    }
    /// The simulated pose after the last step.
    pub fn pose(&self) -> Pose2 {
        self.pose
    }
    fn valid(&self) -> bool {
        let finite = |p: &Pose2| p.x.is_finite() && p.y.is_finite() && p.theta.is_finite();
        self.speed_mm_s.is_finite()
            && self.speed_mm_s > 0.0
            && finite(&self.from)
            && finite(&self.to)
    }
}

impl Action for DriveToPose {
    fn name(&self) -> &str {
        "DriveToPose"
    }
    fn start(&mut self, clock: &VirtualClock) {
        self.started = Some(clock.now());
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        if !self.valid() {
            return ActionStatus::Failed;
        }
        let (dx, dy) = (self.to.x - self.from.x, self.to.y - self.from.y);
        let dist = (dx * dx + dy * dy).sqrt();
        let elapsed = clock
            .now()
            .saturating_sub(self.started.unwrap_or_default())
            .as_secs_f32();
        let travelled = elapsed * self.speed_mm_s;
        if dist == 0.0 || travelled >= dist {
            self.pose = self.to;
            return ActionStatus::Succeeded;
        }
        let f = travelled / dist;
        self.pose = Pose2 {
            x: self.from.x + dx * f,
            y: self.from.y + dy * f,
            theta: self.from.theta + (self.to.theta - self.from.theta) * f,
        };
        ActionStatus::Running
    }
}

/// What a behavior asks the robot to do, for the [`ActionFactory`] to turn into an
/// [`Action`]: the animation and speech wrappers, the motion classes and stand-ins go
/// through it, so a robot with a real animation system plugs it in here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ActionRequest<'a> {
    /// Play an animation (a trigger names a group; the original picks one of its members
    /// each time) `loops` times (0: forever).
    Animation {
        /// The trigger or animation name.
        name: &'a str,
        /// Loops (0: forever).
        loops: u32,
    },
    /// Say a text.
    Speech {
        /// The text.
        text: &'a str,
    },
    /// Turn in place by `degrees` (positive: counter-clockwise).
    Turn {
        /// The angle.
        degrees: f32,
    },
    /// Move the head to `degrees`.
    MoveHead {
        /// The angle.
        degrees: f32,
    },
    /// What a stand-in for a class not run natively does while active: `class`'s work for
    /// `behavior`, simulated.
    StandIn {
        /// The original class.
        class: &'a str,
    },
}

/// Makes the actions behaviors request (see [`ActionRequest`]). The runner's default is
/// [`SimulatedActions`].
pub trait ActionFactory: Send {
    /// The action for `request`, made for the behavior named `behavior`.
    fn make(&mut self, behavior: &str, request: &ActionRequest<'_>) -> Box<dyn Action>;
}

/// Durations of simulated actions: a table from animation (trigger or name) or class name to
/// length, robot-provided, and documented defaults for anything not in it.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimationDurations {
    table: std::collections::HashMap<Box<str>, Duration>,
    /// An animation not in the table (default 1 s).
    pub default_animation: Duration,
    /// A stand-in whose class is not in the table (default 2 s).
    pub default_stand_in: Duration,
    /// Speech: per character (default 60 ms) ...
    pub speech_per_char: Duration,
    /// ... plus this (default 500 ms).
    pub speech_base: Duration,
    /// Turning speed, degrees per second (default 180).
    pub turn_deg_per_s: f32,
    /// Head speed, degrees per second (default 120).
    pub head_deg_per_s: f32,
}

impl Default for AnimationDurations {
    fn default() -> Self {
        Self {
            table: std::collections::HashMap::new(),
            default_animation: Duration::from_secs(1),
            default_stand_in: Duration::from_secs(2),
            speech_per_char: Duration::from_millis(60),
            speech_base: Duration::from_millis(500),
            turn_deg_per_s: 180.0,
            head_deg_per_s: 120.0,
        }
    }
}

impl AnimationDurations {
    /// Sets the length of animation (trigger or name) or stand-in class `name`.
    pub fn set(&mut self, name: &str, length: Duration) -> &mut Self {
        self.table.insert(name.into(), length);
        self
    }
    /// The table's length for `name`, if any.
    pub fn get(&self, name: &str) -> Option<Duration> {
        self.table.get(name).copied()
    }
    /// The length of one play of animation `name`.
    pub fn animation(&self, name: &str) -> Duration {
        self.get(name).unwrap_or(self.default_animation)
    }
    /// How long `request` takes (None: forever).
    pub fn length(&self, request: &ActionRequest<'_>) -> Option<Duration> {
        let secs = |deg: f32, speed: f32| {
            Duration::try_from_secs_f32((deg.abs() / speed.max(1e-3)).min(3600.0))
                .unwrap_or_default()
        };
        match *request {
            ActionRequest::Animation { loops: 0, .. } => None,
            ActionRequest::Animation { name, loops } => {
                Some(self.animation(name).saturating_mul(loops))
            }
            ActionRequest::Speech { text } => Some(
                self.speech_base.saturating_add(
                    self.speech_per_char
                        .saturating_mul(text.chars().count() as u32),
                ),
            ),
            ActionRequest::Turn { degrees } => Some(secs(degrees, self.turn_deg_per_s)),
            ActionRequest::MoveHead { degrees } => Some(secs(degrees, self.head_deg_per_s)),
            ActionRequest::StandIn { class } => {
                Some(self.get(class).unwrap_or(self.default_stand_in))
            }
        }
    }
}

/// The default [`ActionFactory`]: every request becomes a [`Timed`] action lasting what
/// the [`AnimationDurations`] table says.
#[derive(Clone, Debug, Default)]
pub struct SimulatedActions {
    /// The durations.
    pub durations: AnimationDurations,
}

impl ActionFactory for SimulatedActions {
    fn make(&mut self, _behavior: &str, request: &ActionRequest<'_>) -> Box<dyn Action> {
        Box::new(Timed::new(
            request_name(request),
            self.durations.length(request),
        ))
    }
}

/// A short name for a request (the action's name in logs and exports).
pub fn request_name(request: &ActionRequest<'_>) -> String {
    match request {
        ActionRequest::Animation { name, .. } => (*name).to_owned(),
        ActionRequest::Speech { .. } => "Speech".to_owned(),
        ActionRequest::Turn { .. } => "Turn".to_owned(),
        ActionRequest::MoveHead { .. } => "MoveHead".to_owned(),
        ActionRequest::StandIn { class } => format!("StandIn:{class}"),
    }
}

/// An action that succeeds after a length of virtual time (None: runs until stopped).
#[derive(Clone, Debug)]
pub struct Timed {
    name: String,
    length: Option<Duration>,
    until: Option<Duration>,
}

impl Timed {
    /// `name`, lasting `length` (None: forever).
    pub fn new(name: impl Into<String>, length: Option<Duration>) -> Self {
        Self {
            name: name.into(),
            length,
            until: None,
        }
    }
    /// Its length (None: forever).
    pub fn length(&self) -> Option<Duration> {
        self.length
    }
}

impl Action for Timed {
    fn name(&self) -> &str {
        &self.name
    }
    fn start(&mut self, clock: &VirtualClock) {
        self.until = self.length.map(|l| clock.now().saturating_add(l));
    }
    fn step(&mut self, clock: &VirtualClock) -> ActionStatus {
        match (self.length, self.until) {
            (None, _) => ActionStatus::Running,
            (Some(_), Some(t)) if clock.now() < t => ActionStatus::Running,
            _ => ActionStatus::Succeeded,
        }
    }
    /// Its end (never, when it runs until stopped).
    fn next_wakeup(&self, _clock: &VirtualClock) -> Wakeup {
        match (self.length, self.until) {
            (None, _) => Wakeup::Never,
            (Some(_), Some(t)) => Wakeup::At(t),
            (Some(_), None) => Wakeup::EveryTick,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &mut dyn Action, dt_ms: u64, max: usize) -> (ActionStatus, usize) {
        let mut clock = VirtualClock::default();
        a.start(&clock);
        for i in 1..=max {
            clock.advance(Duration::from_millis(dt_ms));
            let s = a.step(&clock);
            if s != ActionStatus::Running {
                return (s, i);
            }
        }
        (ActionStatus::Running, max)
    }

    #[test]
    fn simulated_actions_take_their_virtual_time() {
        assert_eq!(
            run(&mut WaitFor::new(Duration::from_millis(100)), 10, 100),
            (ActionStatus::Succeeded, 10)
        );
        assert_eq!(
            run(
                &mut PlayAnimation::new("anim", Duration::from_millis(50)),
                10,
                100
            ),
            (ActionStatus::Succeeded, 5)
        );
        assert_eq!(
            run(
                &mut PlayAnimation::new("", Duration::from_millis(50)),
                10,
                100
            ),
            (ActionStatus::Failed, 1)
        );
        let to = Pose2 {
            x: 100.0,
            y: 0.0,
            theta: 0.0,
        };
        let mut d = DriveToPose::new(Pose2::default(), to, 100.0);
        assert_eq!(run(&mut d, 100, 100), (ActionStatus::Succeeded, 10));
        assert_eq!(d.pose(), to);
        let mut bad = DriveToPose::new(Pose2::default(), to, f32::NAN);
        assert_eq!(run(&mut bad, 100, 100), (ActionStatus::Failed, 1));
    }
}
