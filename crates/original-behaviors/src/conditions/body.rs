//! Kinds over the body's state and how long it has lasted: `OffTreadsState`,
//! `RobotHeldInPalm`, `BeingHeld`, `CliffDetected` (a state held for a time in a
//! [`Window`]: how long it has lasted, and the window's bounds) and `StuckOnEdge` (a cliff
//! configuration held for 550 ms, timed from its first evaluation).

use std::cell::Cell;
use std::time::Duration;

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::range;
use super::time::{Window, NS};
use crate::access::RobotAccess;
use crate::inputs;
use crate::robot_state::{OffTreads, RobotState};

/// `OffTreadsState`: in this off-treads state for a time in `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffTreadsState {
    /// `targetState`.
    pub target: OffTreads,
    /// `minTimeSinceChange_ms` (negative clamped to 0).
    pub min: Duration,
    /// `maxTimeSinceChange_ms` (−1: none).
    pub max: Option<Duration>,
}

impl OffTreadsState {
    /// The time in the target state (None: not in it).
    fn lasted(&self, r: &RobotState, now: Duration) -> Option<Duration> {
        let (s, changed) = r.off_treads();
        (s == self.target).then(|| now.saturating_sub(changed))
    }
    fn window(&self) -> Window {
        Window {
            min: self.min,
            max: self.max.unwrap_or(Duration::MAX),
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for OffTreadsState {
    fn name(&self) -> &str {
        "OffTreadsState"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.window().holds(self.lasted(cx.robot(), cx.now()))
    }
    fn inputs(&self) -> Inputs {
        inputs::OFF_TREADS
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let now = cx.now();
        self.window().next_change(self.lasted(cx.robot(), now), now)
    }
    fn detail(&self) -> String {
        format!("{} {}", self.target.name(), range(self.min, self.max))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `RobotHeldInPalm`: held in a palm (or not) for a time in `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RobotHeldInPalm {
    /// `shouldBeHeldInPalm`.
    pub should: bool,
    /// `minDuration_s`.
    pub min: Duration,
    /// `maxDuration_s`.
    pub max: Duration,
}

impl RobotHeldInPalm {
    /// The time in the wanted palm state (None: not in it).
    fn lasted(&self, r: &RobotState) -> Option<Duration> {
        if r.held_in_palm() != self.should {
            return None;
        }
        let (in_palm, since) = r.palm_durations();
        Some(if self.should { in_palm } else { since })
    }
    fn window(&self) -> Window {
        Window {
            min: self.min,
            max: self.max,
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for RobotHeldInPalm {
    fn name(&self) -> &str {
        "RobotHeldInPalm"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.window().holds(self.lasted(cx.robot()))
    }
    fn inputs(&self) -> Inputs {
        inputs::PALM
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        self.window().next_change(self.lasted(cx.robot()), cx.now())
    }
    fn detail(&self) -> String {
        format!("{} for {}", self.should, range(self.min, Some(self.max)))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `BeingHeld`: held (or not) for a time in `[min, max]` since it last changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeingHeld {
    /// `shouldBeHeld`.
    pub should: bool,
    /// `minTimeSinceChange_ms`.
    pub min: Duration,
    /// `maxTimeSinceChange_ms`.
    pub max: Duration,
}

impl BeingHeld {
    /// The time in the wanted state (None: not in it).
    fn lasted(&self, r: &RobotState, now: Duration) -> Option<Duration> {
        let (held, changed) = r.being_held();
        (held == self.should).then(|| now.saturating_sub(changed))
    }
    fn window(&self) -> Window {
        Window {
            min: self.min,
            max: self.max,
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for BeingHeld {
    fn name(&self) -> &str {
        "BeingHeld"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        self.window().holds(self.lasted(cx.robot(), cx.now()))
    }
    fn inputs(&self) -> Inputs {
        inputs::BEING_HELD
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let now = cx.now();
        self.window().next_change(self.lasted(cx.robot(), now), now)
    }
    fn detail(&self) -> String {
        format!("{} for {}", self.should, range(self.min, Some(self.max)))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `CliffDetected`: at least `count` cliff sensors (or none, with `no_cliffs`) for a time
/// in `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CliffDetected {
    /// `numCliffDetectionsToTrigger` (1–4; 0 with `shouldDetectNoCliffs`).
    pub count: u8,
    /// `shouldDetectNoCliffs`.
    pub no_cliffs: bool,
    /// `minDuration_ms`.
    pub min: Duration,
    /// `maxDuration_ms`.
    pub max: Duration,
}

impl CliffDetected {
    /// Since when the wanted count has held (None: it does not; Some(None): it does, for a
    /// duration that stays 0).
    fn held_since(&self, r: &RobotState) -> Option<Option<Duration>> {
        let n = r.cliffs().count_ones() as u8;
        let hit = if self.no_cliffs {
            n == 0
        } else {
            n >= self.count
        };
        let level = if self.no_cliffs {
            0
        } else {
            usize::from(self.count)
        };
        hit.then(|| r.cliff_level_since(level))
    }
    fn window(&self) -> Window {
        Window {
            min: self.min,
            max: self.max,
        }
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for CliffDetected {
    fn name(&self) -> &str {
        "CliffDetected"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let now = cx.now();
        let lasted = self
            .held_since(cx.robot())
            .map(|since| since.map_or(Duration::ZERO, |t| now.saturating_sub(t)));
        self.window().holds(lasted)
    }
    fn inputs(&self) -> Inputs {
        inputs::CLIFFS
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let now = cx.now();
        // Held since an unknown time: a duration that stays 0, a constant answer.
        let growing = self.held_since(cx.robot()).flatten();
        self.window()
            .next_change(growing.map(|t| now.saturating_sub(t)), now)
    }
    fn detail(&self) -> String {
        let what = if self.no_cliffs {
            "no cliff".to_owned()
        } else {
            format!("{} sensor(s)", self.count)
        };
        format!("{what} for {}", range(self.min, Some(self.max)))
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}

/// `StuckOnEdge`: two cliff sensors of one side (or, off a palm, of one diagonal) for more
/// than 550 ms, timed from the first evaluation that saw it; not while picked up, unless
/// in a palm with `enableWhileHeldOnPalm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StuckOnEdge {
    /// `enableWhileHeldOnPalm`.
    pub enable_in_palm: bool,
    /// When the stuck configuration started (None: 0 in the original).
    pub start: Cell<Option<Duration>>,
}

/// How long `StuckOnEdge` waits.
const STUCK_FOR: Duration = Duration::from_millis(550);

impl StuckOnEdge {
    /// The stuck configuration holds (sensors: bit 0 FL, 1 FR, 2 BL, 3 BR).
    fn stuck(r: &RobotState) -> bool {
        let c = r.cliffs();
        c == 0b0101 || c == 0b1010 || (!r.held_in_palm() && (c == 0b1001 || c == 0b0110))
    }
    /// Picked up, outside a palm that enables it.
    fn lifted(&self, r: &RobotState) -> bool {
        r.picked_up && !(r.held_in_palm() && self.enable_in_palm)
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for StuckOnEdge {
    fn name(&self) -> &str {
        "StuckOnEdge"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        if !Self::stuck(r) {
            return false;
        }
        if self.lifted(r) {
            self.start.set(None);
            return false;
        }
        let now = cx.now();
        match self.start.get() {
            None => {
                self.start.set(Some(now));
                false
            }
            Some(t) => now.saturating_sub(t) > STUCK_FOR,
        }
    }
    fn inputs(&self) -> Inputs {
        inputs::CLIFFS | inputs::PALM | inputs::PICKED_UP
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let r = cx.robot();
        if !Self::stuck(r) || self.lifted(r) {
            return Wakeup::Never;
        }
        match self.start.get() {
            Some(t) => {
                let at = t.saturating_add(STUCK_FOR).saturating_add(NS);
                if cx.now() >= at {
                    Wakeup::Never
                } else {
                    Wakeup::At(at)
                }
            }
            // The next evaluation starts the clock.
            None => Wakeup::EveryTick,
        }
    }
    fn reset(&self, _now: Duration) {
        self.start.set(None);
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}
