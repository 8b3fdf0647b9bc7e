//! [`Action`]: multi-tick work a behavior delegates to (drive, animate, speak...), and the
//! simulated built-ins ([`WaitFor`], [`PlayAnimation`], [`DriveToPose`]) that make
//! behaviors testable without hardware.
//!
//! A behavior starts an action with
//! [`Ctx::delegate_action`](super::Ctx::delegate_action). The runner steps the action once
//! per tick, right before the delegating behavior's frame is processed, and tells the action
//! how it ended through [`Action::on_end`]; the delegating behavior's continuation receives
//! the matching [`DelegationOutcome`](super::DelegationOutcome).

use std::fmt;
use std::time::Duration;

use super::clock::VirtualClock;

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
