//! The reactions a robot idle on its treads meets first (original-class-predicates.md §2.1,
//! §2.2, §6), ported in code: each reads its keys through the class table
//! ([`read_class_keys`](crate::keys::read_class_keys)), decides with the original's class
//! predicate on the robot state (events heard in scope as
//! [`PredCx::heard`](crate::predicate::PredCx::heard) on
//! [`Signals`](crate::robot_state::Signals) times), declares exactly what that reads
//! ([`Behavior::activation_watch`](robot_runtime::behavior::Behavior::activation_watch))
//! and acts:
//!
//! * `ReactToCliff` — wants to run after a cliff stop (`cliff_stop`) or a put-down onto a
//!   cliff heard in scope, on its treads, settled (pitch below ≈0.17°, the literal value of
//!   the original's twice-converted 10°, or 1 s since the last off-treads change); a flag
//!   clears while picked up, or once its event is older than `eventFlagTimeout_ms` while no
//!   cliff is detected. Fires mood `CliffReact`, plays the cliff animation of the detected
//!   sensors (ReactToCliffFront / FrontLeft / FrontRight / BackLeft / BackRight / Back;
//!   skipped with `alwaysStreamline`); a cliff still detected after it → waits 200 ms and
//!   reacts again; gone → the turn away (ReactToCliffTurnLeft/Right180 for a cliff behind)
//!   and ReactToCliff, then backs up `cliffBackupDistance_mm` at `cliffBackupSpeed_mmps`;
//!   a cliff still there after backing up, more than 2 attempts, more than 5 stops in one
//!   activation or an undecidable sensor set → `StuckOnEdge` (if it wants to run) else
//!   `ForceStuckOnEdge`, until it ends. A new cliff stop while active restarts the
//!   reaction. Ends when done; self-cancels at once when no cliff sensor detects on
//!   activation (the stop left no cliff flags), when picked up with more than 2 cliffs or
//!   for more than 2 s. Not modelled: the suspicious-cliff abort (raw sensor values), the
//!   head and lift calibration and visual cliff extension after a put-down onto a cliff.
//! * `ReactToMotorCalibration` — wants to run after an auto-started head or lift
//!   calibration (`motor_calibration`) heard in scope with no "stopped" since; holds the
//!   pending-intent timeout while active, waits until head and lift report calibrated (at
//!   most 5 s), then ends.
//! * `ReactToMicDirection` — wants to run while a parent handed it a direction
//!   (`mic_reaction`) and reactions are enabled in `reaction_list` for the robot's state
//!   (OnCharger: on the platform › OffTreads: picked up › OnSurface); plays the direction's
//!   animation, else turns by its `dir` when at least 5° (an unset direction falls back to
//!   `Default`, then to −30° per hour); clears the direction when it ends.
//! * `ReactToSound` — wants to run when no user intent is pending, a loud sound (`sound`)
//!   was heard in scope at most 1 s ago above its thresholds (power ≥
//!   `micAbsolutePowerThreshold`, or ≥ `micMinPowerThreshold` with confidence ≥
//!   `micConfidenceThresholdAtMinPower`), and its `micDirectionReactionBehavior` is enabled
//!   for the robot's state (that behavior's class predicate only, OCP §5.8); hands it the
//!   direction and delegates to it; a new valid sound while active (not from straight ahead)
//!   re-reacts; ends with it. Not modelled: the lift-motion filter (lift movement is not in
//!   the robot state).
//!
//! One module a class: `cliff`, `motor_calibration`, `mic_direction`, `sound`.

mod cliff;
mod mic_direction;
mod motor_calibration;
mod sound;

use std::time::Duration;

use robot_runtime::behavior::{ClassPredicate, Inputs, Wakeup};

use crate::predicate::Read;
use crate::specs::{self, ClassData};

pub(crate) use cliff::build_react_to_cliff;
pub use cliff::{cliff_animation, ReactToCliff, CLIFF_LEVEL_PITCH_DEG};
pub(crate) use mic_direction::build_react_to_mic_direction;
pub use mic_direction::{ReactToMicDirection, CLOCK_DIRECTIONS};
pub(crate) use motor_calibration::build_react_to_motor_calibration;
pub use motor_calibration::ReactToMotorCalibration;
pub(crate) use sound::build_react_to_sound;
pub use sound::ReactToSound;

/// The class table's entry of a native class (always there: a test checks every native
/// reaction has one).
fn data(name: &str) -> Option<&'static ClassData> {
    specs::class(name)
}

fn predicate(text: &str, reads: &[Read]) -> ClassPredicate {
    ClassPredicate {
        text: text.to_owned(),
        inputs: reads.iter().map(|r| r.name).collect(),
        unmodelled: Vec::new(),
    }
}

fn bits(reads: &[Read]) -> Inputs {
    reads.iter().fold(Inputs::STACK, |acc, r| acc.with(r.bits))
}

fn at_after(t: Duration) -> Wakeup {
    Wakeup::At(t.saturating_add(Duration::from_nanos(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_native_reaction_has_its_table_entry() {
        for c in [
            "ReactToCliff",
            "ReactToMotorCalibration",
            "ReactToMicDirection",
            "ReactToSound",
        ] {
            assert!(data(c).is_some(), "{c}");
        }
    }
}
