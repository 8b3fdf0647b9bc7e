//! HighLevelAI's injected custom conditions (spec §3.3, [`HighLevelAiCondition`]): behavior
//! timers' cooldowns, a state's exit cooldown, faces and objects in reach. One family of five:
//! what each answers, reads and when it next changes are the arms of the three matches below,
//! in the same order.

use std::time::Duration;

use robot_runtime::behavior::{ConditionType, EvalCx, Inputs, MachineTimes, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::text::secs;
use super::time::{reached, timer_change};
use crate::access::RobotAccess;
use crate::inputs;
use crate::robot_state::BehaviorTimers;

/// HighLevelAI's injected custom conditions (spec §3.3).
#[derive(Clone, Debug, PartialEq)]
pub enum HighLevelAiCondition {
    /// `CloseFaceForSocializing`.
    CloseFaceForSocializing {
        /// `socializeKnownFaceCooldown_s`.
        cooldown: Duration,
        /// `maxFaceDistanceToSocialize_mm`.
        max_distance_mm: f32,
    },
    /// `ChargerLocated`.
    ChargerLocated,
    /// `WantsToLeaveChargerForPlay`.
    WantsToLeaveChargerForPlay {
        /// `playWithCubeOnChargerCooldown_s`.
        charger_cooldown: Duration,
        /// `playWithCubeCooldown_s`.
        cube_cooldown: Duration,
        /// The index of state `ObservingDriveOffCharger`, if the machine has it.
        drive_off_state: Option<usize>,
    },
    /// `CloseCubeForPlaying`.
    CloseCubeForPlaying {
        /// `playWithCubeCooldown_s`.
        cube_cooldown: Duration,
    },
    /// `ExploringCooldownMet`.
    ExploringCooldownMet {
        /// The index of state `Exploring`, if the machine has it.
        exploring_state: Option<usize>,
    },
}

/// How long `ExploringCooldownMet` waits after the machine's last state change.
const EXPLORING_SETTLE: Duration = Duration::from_secs(10);

/// When `state` last ended (None: never, or no such state).
fn ended(m: &MachineTimes<'_>, state: Option<usize>) -> Option<Duration> {
    state.and_then(|s| m.last_ended.get(s).copied().flatten())
}

/// `Some(base) + t ≤ now` (None: never).
fn has_reached(base: Option<Duration>, t: Duration, now: Duration) -> bool {
    base.is_some_and(|b| b.saturating_add(t) <= now)
}

impl<U: IntentUnion, E: 'static> ConditionType<U, E> for HighLevelAiCondition {
    fn name(&self) -> &str {
        match self {
            Self::CloseFaceForSocializing { .. } => "CloseFaceForSocializing",
            Self::ChargerLocated => "ChargerLocated",
            Self::WantsToLeaveChargerForPlay { .. } => "WantsToLeaveChargerForPlay",
            Self::CloseCubeForPlaying { .. } => "CloseCubeForPlaying",
            Self::ExploringCooldownMet { .. } => "ExploringCooldownMet",
        }
    }
    fn eval(&self, cx: &EvalCx<'_, U, E>) -> bool {
        let r = cx.robot();
        let now = cx.now();
        let timers = &r.behavior_timers;
        let expired = |name, cooldown, never_reset| {
            BehaviorTimers::index(name)
                .is_some_and(|t| timers.expired(t, cooldown, now, never_reset))
        };
        match self {
            Self::CloseFaceForSocializing {
                cooldown,
                max_distance_mm,
            } => {
                expired("Socializing", *cooldown, true)
                    && r.faces
                        .iter()
                        .any(|f| f.distance_mm.is_some_and(|d| d < *max_distance_mm))
            }
            Self::ChargerLocated => r.objects.iter().any(|o| o.is_charger()),
            Self::WantsToLeaveChargerForPlay {
                charger_cooldown,
                cube_cooldown,
                drive_off_state,
            } => cx.machine().is_some_and(|m| {
                has_reached(ended(&m, *drive_off_state), *charger_cooldown, now)
                    && expired("PlayingWithCube", *cube_cooldown, false)
            }),
            Self::CloseCubeForPlaying { cube_cooldown } => {
                expired("PlayingWithCube", *cube_cooldown, true)
                    && r.objects.iter().any(|o| o.is_light_cube())
            }
            Self::ExploringCooldownMet { exploring_state } => cx.machine().is_some_and(|m| {
                has_reached(Some(m.last_started), EXPLORING_SETTLE, now)
                    && has_reached(
                        Some(ended(&m, *exploring_state).unwrap_or(m.first_activation)),
                        r.exploring_cooldown(),
                        now,
                    )
            }),
        }
    }
    fn inputs(&self) -> Inputs {
        match self {
            Self::CloseFaceForSocializing { .. } => inputs::TIMERS | inputs::FACES,
            Self::ChargerLocated => inputs::OBJECTS,
            Self::WantsToLeaveChargerForPlay { .. } => inputs::TIMERS,
            Self::CloseCubeForPlaying { .. } => inputs::TIMERS | inputs::OBJECTS,
            Self::ExploringCooldownMet { .. } => inputs::HOURS_ALIVE | inputs::WHITEBOARD,
        }
    }
    fn next_change(&self, cx: &EvalCx<'_, U, E>, _: bool) -> Wakeup {
        let r = cx.robot();
        let now = cx.now();
        let timers = &r.behavior_timers;
        let expires =
            |name, cooldown| timer_change(timers, BehaviorTimers::index(name), cooldown, now);
        match self {
            Self::CloseFaceForSocializing { cooldown, .. } => expires("Socializing", *cooldown),
            Self::ChargerLocated => Wakeup::Never,
            Self::WantsToLeaveChargerForPlay {
                charger_cooldown,
                cube_cooldown,
                drive_off_state,
            } => cx.machine().map_or(Wakeup::Never, |m| {
                reached(ended(&m, *drive_off_state), *charger_cooldown, now)
                    .min(expires("PlayingWithCube", *cube_cooldown))
            }),
            Self::CloseCubeForPlaying { cube_cooldown } => {
                expires("PlayingWithCube", *cube_cooldown)
            }
            Self::ExploringCooldownMet { exploring_state } => {
                cx.machine().map_or(Wakeup::Never, |m| {
                    let ended = ended(&m, *exploring_state).unwrap_or(m.first_activation);
                    reached(Some(m.last_started), EXPLORING_SETTLE, now).min(reached(
                        Some(ended),
                        r.exploring_cooldown(),
                        now,
                    ))
                })
            }
        }
    }
    fn detail(&self) -> String {
        match self {
            Self::CloseFaceForSocializing {
                cooldown,
                max_distance_mm,
            } => format!("≤ {max_distance_mm} mm, cooldown {}", secs(*cooldown)),
            Self::WantsToLeaveChargerForPlay {
                charger_cooldown,
                cube_cooldown,
                ..
            } => format!(
                "charger cooldown {}, cube cooldown {}",
                secs(*charger_cooldown),
                secs(*cube_cooldown)
            ),
            Self::CloseCubeForPlaying { cube_cooldown } => {
                format!("cube cooldown {}", secs(*cube_cooldown))
            }
            Self::ChargerLocated | Self::ExploringCooldownMet { .. } => String::new(),
        }
    }
    fn clone_type(&self) -> Box<dyn ConditionType<U, E>> {
        Box::new(self.clone())
    }
}
