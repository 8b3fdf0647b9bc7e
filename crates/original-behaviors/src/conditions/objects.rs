//! Kinds over what the robot has seen: `ObjectKnown` / `ObjectInitialDetection` (located
//! objects, by type, seen recently or seen anew) and `FaceKnown` (a face that passes its
//! distance, age and name tests).

use std::cell::{Cell, RefCell};
use std::time::Duration;

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::secs;
use super::time::NS;
use crate::access::RobotAccess;
use crate::catalog;
use crate::inputs;
use crate::robot_state::{Face, LocatedObject, RobotState};

/// `ObjectKnown` (and `ObjectInitialDetection`): an object of these types is located
/// (seen within `maxAge_ms`; with `maxAge_ms: 0`, seen anew since the previous
/// evaluation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectKnown {
    /// `objectTypes` as a bit mask of [`catalog::OBJECT_TYPES`] indices.
    pub types: u32,
    /// `maxAge_ms`.
    pub max_age_ms: Option<u64>,
    /// Objects seen at the previous evaluation (type, last observed), for `maxAge_ms: 0`;
    /// cleared on every `SetActive`.
    pub memory: RefCell<Vec<(u8, u64)>>,
    /// `ObjectInitialDetection`'s `firstTimeOnly`: once true, false for the condition's
    /// lifetime.
    pub first_time_only: Option<Cell<bool>>,
}

impl ObjectKnown {
    /// The located objects of its types.
    fn matching<'r>(&self, r: &'r RobotState) -> impl Iterator<Item = &'r LocatedObject> + Clone {
        let types = self.types;
        r.objects
            .iter()
            .filter(move |o| types & (1 << o.object_type.min(31)) != 0)
    }
    /// `maxAge_ms: 0`: a matching object observed since the previous evaluation (or, one
    /// not remembered, by the latest message); remembers what it saw.
    fn seen_anew(&self, r: &RobotState) -> bool {
        let mut mem = self.memory.borrow_mut();
        let mut hit = false;
        for o in self.matching(r) {
            match mem.iter_mut().find(|(t, _)| *t == o.object_type) {
                Some((_, seen)) => {
                    hit |= o.last_observed_ms > *seen;
                    *seen = o.last_observed_ms;
                }
                None => {
                    hit |= o.last_observed_ms == r.latest_message_ms;
                    mem.push((o.object_type, o.last_observed_ms));
                }
            }
        }
        hit
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for ObjectKnown {
    fn name(&self) -> &str {
        if self.first_time_only.is_some() {
            "ObjectInitialDetection"
        } else {
            "ObjectKnown"
        }
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        if self.first_time_only.as_ref().is_some_and(Cell::get) {
            return false;
        }
        let r = cx.robot();
        let v = match self.max_age_ms {
            None => self.matching(r).next().is_some(),
            Some(0) => self.seen_anew(r),
            Some(age) => self
                .matching(r)
                .any(|o| o.last_observed_ms.saturating_add(age) >= r.latest_message_ms),
        };
        if v {
            if let Some(done) = &self.first_time_only {
                done.set(true);
            }
        }
        v
    }
    fn inputs(&self) -> Inputs {
        inputs::OBJECTS
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, was_true: bool) -> Wakeup {
        if was_true && (self.first_time_only.is_some() || self.max_age_ms == Some(0)) {
            // The next evaluation answers false by itself.
            return Wakeup::EveryTick;
        }
        if self.first_time_only.as_ref().is_some_and(Cell::get) {
            return Wakeup::Never;
        }
        let r = cx.robot();
        match self.max_age_ms {
            Some(age) if age > 0 => {
                // True while the freshest matching object is younger than `age` (the
                // latest message's timestamp is the clock, in ms).
                match self.matching(r).map(|o| o.last_observed_ms).max() {
                    Some(t) if t.saturating_add(age) >= r.latest_message_ms => Wakeup::At(
                        Duration::from_millis(t.saturating_add(age).saturating_add(1)),
                    ),
                    _ => Wakeup::Never,
                }
            }
            _ => Wakeup::Never,
        }
    }
    fn set_active(&self, _on: bool, _now: Duration) {
        self.memory.borrow_mut().clear();
    }
    fn reset(&self, _now: Duration) {
        self.memory.borrow_mut().clear();
        if let Some(done) = &self.first_time_only {
            done.set(false);
        }
    }
    fn detail(&self) -> String {
        let names: Vec<&str> = (0..32)
            .filter(|b| self.types & (1 << b) != 0)
            .filter_map(|b| catalog::OBJECT_TYPES.get(b).copied())
            .collect();
        match self.max_age_ms {
            Some(a) => format!("[{}] seen ≤ {a} ms ago", names.join(", ")),
            None => format!("[{}]", names.join(", ")),
        }
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}

/// `FaceKnown`: a face in memory that is near enough, seen recently enough and named if it
/// must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceKnown {
    /// `maxFaceDist_mm`.
    pub max_distance_mm: Option<f32>,
    /// `maxFaceAge_s`.
    pub max_age: Option<Duration>,
    /// `mustBeNamed`.
    pub must_be_named: bool,
}

impl FaceKnown {
    fn passes(&self, f: &Face, now: Duration) -> bool {
        (!self.must_be_named || f.named)
            && self
                .max_distance_mm
                .is_none_or(|m| f.distance_mm.is_some_and(|d| d <= m))
            && self
                .max_age
                .is_none_or(|a| now.saturating_sub(f.last_seen) <= a)
    }
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for FaceKnown {
    fn name(&self) -> &str {
        "FaceKnown"
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let now = cx.now();
        cx.robot().faces.iter().any(|f| self.passes(f, now))
    }
    fn inputs(&self) -> Inputs {
        inputs::FACES
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let Some(age) = self.max_age else {
            return Wakeup::Never;
        };
        let now = cx.now();
        // True until the last face that passes ages out.
        cx.robot()
            .faces
            .iter()
            .filter(|f| self.passes(f, now))
            .map(|f| f.last_seen.saturating_add(age).saturating_add(NS))
            .max()
            .map_or(Wakeup::Never, Wakeup::At)
    }
    fn detail(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.max_distance_mm {
            parts.push(format!("≤ {d} mm"));
        }
        if let Some(a) = self.max_age {
            parts.push(format!("seen within {}", secs(a)));
        }
        if self.must_be_named {
            parts.push("named".to_owned());
        }
        parts.join(", ")
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(*self)
    }
}
