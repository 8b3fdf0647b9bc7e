//! When a condition's value can change (the runtime's caching contract,
//! [`ConditionType::next_change`](robot_runtime::behavior::ConditionType::next_change)): the
//! inputs each type reads ([`inputs_of`]) and, given the state its last evaluation left, the
//! first virtual time at which its value may differ if none of them changes
//! ([`next_change`]). Exact for every type of the original that depends on time;
//! [`Wakeup::EveryTick`] where the next evaluation itself changes the answer (a stateful
//! condition that was just true).

use std::time::Duration;

use robot_runtime::behavior::{EvalCx, Inputs, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::{Flag, HighLevelAiCondition, MoodTest, OriginalCondition as Kind};
use crate::access::RobotAccess;
use crate::inputs;
use crate::robot_state::BehaviorTimers;

const NS: Duration = Duration::from_nanos(1);

impl Flag {
    fn input(self) -> Inputs {
        match self {
            Self::OnCharger => inputs::ON_CHARGER,
            Self::OnChargerPlatform => inputs::ON_CHARGER_PLATFORM,
            Self::HighTemperature => inputs::TEMPERATURES,
            Self::RobotInHabitat => inputs::HABITAT,
            Self::UserIsHoldingCube => inputs::USER_HOLDING_CUBE,
            Self::TooHotToCharge => inputs::TOO_HOT,
            Self::RobotPickedUp => inputs::PICKED_UP,
            Self::CarryingCube => inputs::CARRYING,
            Self::UnexpectedMovement => inputs::UNEXPECTED_MOVEMENT,
            Self::EyeContact => inputs::EYE_CONTACT,
            Self::ConnectedToCube => inputs::CUBE_CONNECTED,
            Self::IsNightTime => inputs::NIGHT_TIME,
            Self::IsMaintenanceReboot => inputs::MAINTENANCE_REBOOT,
            Self::AlexaInteractionActive => inputs::ALEXA,
            Self::RobotPlacedOnSlope => inputs::SLOPE,
            Self::ObstacleDetected => inputs::OBSTACLE,
            Self::SalientPointDetected => inputs::SALIENT_POINT,
            Self::MotionDetected => inputs::MOTION,
        }
    }
}

/// The inputs a condition of `kind` reads, its sub-conditions included.
pub(super) fn inputs_of<U: IntentUnion, E: 'static>(kind: &Kind<U, E>) -> Inputs {
    match kind {
        Kind::TimerInRange { .. } | Kind::StateTime(_) => Inputs::NONE,
        Kind::BecameTrueThisTick { sub, .. } | Kind::TimedDedup { sub, .. } => sub.inputs(),
        Kind::Flag(f) => f.input(),
        Kind::OffTreadsState { .. } => inputs::OFF_TREADS,
        Kind::FeatureGate { .. } => inputs::FEATURES,
        Kind::ObjectKnown { .. } => inputs::OBJECTS,
        Kind::Emotion { .. } => inputs::EMOTIONS,
        Kind::RobotHeldInPalm { .. } => inputs::PALM,
        Kind::BatteryLevel(_) => inputs::BATTERY,
        Kind::BeingHeld { .. } => inputs::BEING_HELD,
        Kind::CliffDetected { .. } => inputs::CLIFFS,
        Kind::SimpleMood(_) => inputs::MOOD,
        Kind::BehaviorTimer { .. } => inputs::TIMERS,
        Kind::BehaviorSuggested { .. } => inputs::WHITEBOARD,
        Kind::StuckOnEdge { .. } => inputs::CLIFFS | inputs::PALM | inputs::PICKED_UP,
        Kind::RobotShaken { .. } => inputs::ACCEL | inputs::PICKED_UP,
        Kind::AngleInRange { .. } => inputs::POSE,
        Kind::ProxInRange { .. } => inputs::PROX,
        Kind::RobotPoked { .. } => inputs::POKE,
        Kind::RobotTouched { .. } => inputs::TOUCH,
        Kind::BeatDetected { .. } => inputs::BEAT,
        Kind::EngineErrorCodeReceived(_) => inputs::ENGINE_ERROR,
        Kind::FaceKnown { .. } => inputs::FACES,
        Kind::HighLevelAi(h) => match h {
            HighLevelAiCondition::CloseFaceForSocializing { .. } => inputs::TIMERS | inputs::FACES,
            HighLevelAiCondition::ChargerLocated => inputs::OBJECTS,
            HighLevelAiCondition::WantsToLeaveChargerForPlay { .. } => inputs::TIMERS,
            HighLevelAiCondition::CloseCubeForPlaying { .. } => inputs::TIMERS | inputs::OBJECTS,
            HighLevelAiCondition::ExploringCooldownMet { .. } => {
                inputs::HOURS_ALIVE | inputs::WHITEBOARD
            }
        },
    }
}

/// A duration `d` that grows with time, tested against `min ≤ d ≤ max`: when the test's
/// value next changes, `now` being the time `d` was read at.
fn window(d: Duration, min: Duration, max: Duration, now: Duration) -> Wakeup {
    if d < min {
        Wakeup::At(now.saturating_add(min - d))
    } else if d <= max {
        Wakeup::At(now.saturating_add(max - d).saturating_add(NS))
    } else {
        Wakeup::Never
    }
}

/// When "timer `index` has expired after `cooldown`" (elapsed > cooldown) next changes.
fn timer_change(
    timers: &BehaviorTimers,
    index: Option<usize>,
    cooldown: Duration,
    now: Duration,
) -> Wakeup {
    match index.and_then(|i| timers.reset_at(i)) {
        Some(t) if now.saturating_sub(t) <= cooldown => {
            Wakeup::At(t.saturating_add(cooldown).saturating_add(NS))
        }
        _ => Wakeup::Never,
    }
}

/// When "`base` + `t` ≤ now" next changes (None: `base` unknown, a constant).
fn reached(base: Option<Duration>, t: Duration, now: Duration) -> Wakeup {
    match base {
        Some(b) if b.saturating_add(t) > now => Wakeup::At(b.saturating_add(t)),
        _ => Wakeup::Never,
    }
}

/// After an evaluation with `cx` that returned `was_true`, the first virtual time at which
/// `c`'s value may differ if none of its inputs changes: [`Wakeup::Never`] for a value that
/// only inputs can change, [`Wakeup::At`] for a value waiting on time (a timer, the time
/// since a change, a cooldown), [`Wakeup::EveryTick`] when the next evaluation may answer
/// differently on its own (a stateful condition that was just true: `BecameTrueThisTick`,
/// `TimedDedup`, `ObjectKnown` with `maxAge_ms: 0`, `ObjectInitialDetection`; a
/// `SimpleMood` transition or a `BehaviorSuggested` that counts ticks). Pure.
pub(super) fn next_change<U: IntentUnion, E: 'static>(
    c: &Kind<U, E>,
    cx: &EvalCx<'_, U, E>,
    was_true: bool,
) -> Wakeup {
    let r = cx.robot();
    let now = cx.now();
    match c {
        Kind::Flag(_)
        | Kind::FeatureGate { .. }
        | Kind::Emotion { .. }
        | Kind::BatteryLevel(_)
        | Kind::RobotShaken { .. }
        | Kind::AngleInRange { .. }
        | Kind::ProxInRange { .. }
        | Kind::BeatDetected { .. }
        | Kind::EngineErrorCodeReceived(_) => Wakeup::Never,
        Kind::OffTreadsState { target, min, max } => {
            let (s, changed) = r.off_treads();
            if s != *target {
                return Wakeup::Never;
            }
            window(
                now.saturating_sub(changed),
                *min,
                max.unwrap_or(Duration::MAX),
                now,
            )
        }
        Kind::ObjectKnown {
            max_age_ms,
            first_time_only,
            types,
            ..
        } => {
            if was_true && (first_time_only.is_some() || *max_age_ms == Some(0)) {
                // The next evaluation answers false by itself.
                return Wakeup::EveryTick;
            }
            if first_time_only.as_ref().is_some_and(|d| d.get()) {
                return Wakeup::Never;
            }
            match max_age_ms {
                Some(age) if *age > 0 => {
                    // True while the freshest matching object is younger than `age`
                    // (the latest message's timestamp is the clock, in ms).
                    let freshest = r
                        .objects
                        .iter()
                        .filter(|o| types & (1 << o.object_type.min(31)) != 0)
                        .map(|o| o.last_observed_ms)
                        .max();
                    match freshest {
                        Some(t) if t.saturating_add(*age) >= r.latest_message_ms => Wakeup::At(
                            Duration::from_millis(t.saturating_add(*age).saturating_add(1)),
                        ),
                        _ => Wakeup::Never,
                    }
                }
                _ => Wakeup::Never,
            }
        }
        Kind::RobotHeldInPalm { should, min, max } => {
            if r.held_in_palm() != *should {
                return Wakeup::Never;
            }
            let (in_palm, since) = r.palm_durations();
            window(if *should { in_palm } else { since }, *min, *max, now)
        }
        Kind::BeingHeld { should, min, max } => {
            let (held, changed) = r.being_held();
            if held != *should {
                return Wakeup::Never;
            }
            window(now.saturating_sub(changed), *min, *max, now)
        }
        Kind::CliffDetected {
            count,
            no_cliffs,
            min,
            max,
        } => {
            let n = r.cliffs().count_ones() as u8;
            let hit = if *no_cliffs { n == 0 } else { n >= *count };
            if !hit {
                return Wakeup::Never;
            }
            let level = if *no_cliffs { 0 } else { usize::from(*count) };
            match r.cliff_level_since(level) {
                Some(t) => window(now.saturating_sub(t), *min, *max, now),
                // The duration stays 0.
                None => Wakeup::Never,
            }
        }
        Kind::TimerInRange {
            begin,
            end,
            reset_at,
            ..
        } => {
            let d = now.saturating_sub(reset_at.get());
            if d < *begin {
                Wakeup::At(reset_at.get().saturating_add(*begin))
            } else {
                match end {
                    Some(e) if d < *e => Wakeup::At(reset_at.get().saturating_add(*e)),
                    _ => Wakeup::Never,
                }
            }
        }
        Kind::SimpleMood(MoodTest::Is(_)) => Wakeup::Never,
        // A transition counts on its tick only.
        Kind::SimpleMood(MoodTest::Transition(..)) | Kind::BehaviorSuggested { .. } => {
            if was_true {
                Wakeup::EveryTick
            } else {
                Wakeup::Never
            }
        }
        Kind::BehaviorTimer { timer, cooldown } => {
            timer_change(&r.behavior_timers, Some(*timer), *cooldown, now)
        }
        Kind::BecameTrueThisTick { sub, last } => {
            if was_true || last.get() < 0 {
                Wakeup::EveryTick
            } else {
                sub.next_change(cx)
            }
        }
        Kind::TimedDedup {
            sub, next_valid, ..
        } => {
            if was_true {
                Wakeup::EveryTick
            } else if now < next_valid.get() {
                Wakeup::At(next_valid.get())
            } else {
                sub.next_change(cx)
            }
        }
        Kind::StuckOnEdge {
            enable_in_palm,
            start,
        } => {
            let c = r.cliffs();
            let in_palm = r.held_in_palm();
            let stuck = c == 0b0101 || c == 0b1010 || (!in_palm && (c == 0b1001 || c == 0b0110));
            if !stuck || (r.picked_up && !(in_palm && *enable_in_palm)) {
                return Wakeup::Never;
            }
            match start.get() {
                Some(t) => {
                    let at = t
                        .saturating_add(Duration::from_millis(550))
                        .saturating_add(NS);
                    if now >= at {
                        Wakeup::Never
                    } else {
                        Wakeup::At(at)
                    }
                }
                // The next evaluation starts the clock.
                None => Wakeup::EveryTick,
            }
        }
        Kind::RobotPoked { threshold } => match r.since_poked() {
            Some(d) => window(d, Duration::ZERO, *threshold, now),
            None => Wakeup::Never,
        },
        Kind::RobotTouched { min } => match r.touched_for() {
            Some(d) => window(d, *min, Duration::MAX, now),
            None => Wakeup::Never,
        },
        Kind::FaceKnown {
            max_distance_mm,
            max_age,
            must_be_named,
        } => {
            let Some(age) = max_age else {
                return Wakeup::Never;
            };
            // True until the last face that passes ages out.
            r.faces
                .iter()
                .filter(|f| {
                    (!*must_be_named || f.named)
                        && max_distance_mm.is_none_or(|m| f.distance_mm.is_some_and(|d| d <= m))
                        && now.saturating_sub(f.last_seen) <= *age
                })
                .map(|f| f.last_seen.saturating_add(*age).saturating_add(NS))
                .max()
                .map_or(Wakeup::Never, Wakeup::At)
        }
        Kind::StateTime(begin) => match cx.machine() {
            Some(m) => reached(Some(m.adjusted_start), *begin, now),
            None => Wakeup::Never,
        },
        Kind::HighLevelAi(h) => high_level_ai_change(h, cx),
    }
}

fn high_level_ai_change<U: IntentUnion, E: 'static>(
    h: &HighLevelAiCondition,
    cx: &EvalCx<'_, U, E>,
) -> Wakeup {
    let r = cx.robot();
    let now = cx.now();
    let timers = &r.behavior_timers;
    let socializing = BehaviorTimers::index("Socializing");
    let playing = BehaviorTimers::index("PlayingWithCube");
    match h {
        HighLevelAiCondition::CloseFaceForSocializing { cooldown, .. } => {
            timer_change(timers, socializing, *cooldown, now)
        }
        HighLevelAiCondition::ChargerLocated => Wakeup::Never,
        HighLevelAiCondition::WantsToLeaveChargerForPlay {
            charger_cooldown,
            cube_cooldown,
            drive_off_state,
        } => {
            let Some(m) = cx.machine() else {
                return Wakeup::Never;
            };
            let ended = drive_off_state.and_then(|s| m.last_ended.get(s).copied().flatten());
            reached(ended, *charger_cooldown, now).min(timer_change(
                timers,
                playing,
                *cube_cooldown,
                now,
            ))
        }
        HighLevelAiCondition::CloseCubeForPlaying { cube_cooldown } => {
            timer_change(timers, playing, *cube_cooldown, now)
        }
        HighLevelAiCondition::ExploringCooldownMet { exploring_state } => {
            let Some(m) = cx.machine() else {
                return Wakeup::Never;
            };
            let ended = exploring_state
                .and_then(|s| m.last_ended.get(s).copied().flatten())
                .unwrap_or(m.first_activation);
            reached(Some(m.last_started), Duration::from_secs(10), now).min(reached(
                Some(ended),
                r.exploring_cooldown(),
                now,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_growing_duration_changes_at_both_ends_of_its_window() {
        let s = Duration::from_secs;
        // d = 1 s at now = 10 s; window [3 s, 5 s]: true from 12 s, false after 14 s.
        assert_eq!(window(s(1), s(3), s(5), s(10)), Wakeup::At(s(12)));
        assert_eq!(window(s(4), s(3), s(5), s(10)), Wakeup::At(s(11) + NS));
        assert_eq!(window(s(6), s(3), s(5), s(10)), Wakeup::Never);
        assert_eq!(
            window(s(1), Duration::ZERO, Duration::MAX, s(10)),
            Wakeup::At(Duration::MAX)
        );
    }

    #[test]
    fn every_robot_input_is_a_world_bit() {
        for f in [
            inputs::OFF_TREADS,
            inputs::WHITEBOARD,
            inputs::TIMERS,
            inputs::BEAT,
        ] {
            assert!(f.intersects(inputs::ROBOT));
            assert!(f.intersects(Inputs::WORLD));
        }
        assert!(!Inputs::INTENTS.intersects(inputs::ROBOT));
        assert!(!Inputs::STACK.intersects(inputs::ROBOT));
    }
}
