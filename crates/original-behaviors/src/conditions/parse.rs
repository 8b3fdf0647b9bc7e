//! The original engine's condition types from JSON (spec §5.0): each type's keys and
//! defaults, read through the runtime's [`ConditionCx`] (every problem at its JSON path; a
//! `subCondition` parsed by the runtime at its own path). [`register`] registers the parser
//! under every name it handles, and the original's full list of condition types as the
//! registry's condition-type vocabulary, so the types not run natively load as opaque
//! stand-ins (or are errors without stand-ins).

use std::cell::{Cell, RefCell};
use std::time::Duration;

use robot_runtime::behavior::{
    unknown_name, ConditionCx, ConditionType, IntentUnion, Registry, Vocabulary, FRAMEWORK_TYPES,
};

use super::body::{BeingHeld, CliffDetected, OffTreadsState, RobotHeldInPalm, StuckOnEdge};
use super::flags::{self, BeatDetected, FeatureGate, Flag};
use super::mood::{EmotionInRange, MoodTest};
use super::objects::{FaceKnown, ObjectKnown};
use super::sensors::{AngleInRange, ProxInRange, RobotPoked, RobotShaken, RobotTouched};
use super::timers::{BehaviorSuggested, BehaviorTimer, TimerInRange};
use super::wrappers::{BecameTrueThisTick, TimedDedup};
use crate::catalog;
use crate::robot_state::{BatteryLevel, Emotion, OffTreads, SimpleMood};

/// Condition types of the original engine that run natively (the framework's six, which the
/// runtime runs, included).
pub const NATIVE_TYPES: &[&str] = &[
    "TrueCondition",
    "Compound",
    "UserIntentPending",
    "UserIntentActive",
    "AnyUserIntent",
    "TriggerWordPending",
    "OffTreadsState",
    "FeatureGate",
    "OnCharger",
    "OnChargerPlatform",
    "ObjectKnown",
    "ObjectInitialDetection",
    "Emotion",
    "RobotHeldInPalm",
    "BatteryLevel",
    "BeingHeld",
    "CliffDetected",
    "HighTemperature",
    "RobotInHabitat",
    "TimerInRange",
    "UserIsHoldingCube",
    "SimpleMood",
    "BehaviorTimer",
    "BecameTrueThisTick",
    "TimedDedup",
    "BehaviorSuggested",
    "StuckOnEdge",
    "TooHotToCharge",
    "RobotPickedUp",
    "CarryingCube",
    "UnexpectedMovement",
    "EyeContact",
    "ConnectedToCube",
    "RobotShaken",
    "RobotPitchInRange",
    "RobotRollInRange",
    "ProxInRange",
    "RobotPoked",
    "RobotTouched",
    "BeatDetected",
    "MotionDetected",
    "EngineErrorCodeReceived",
    "FaceKnown",
    "IsNightTime",
    "IsMaintenanceReboot",
    "AlexaInteractionActive",
    "RobotPlacedOnSlope",
    "ObstacleDetected",
    "SalientPointDetected",
];

fn ms(x: i64) -> Duration {
    Duration::from_millis(u64::try_from(x).unwrap_or(0))
}

fn secs(x: f64) -> Duration {
    Duration::try_from_secs_f64(x.max(0.0)).unwrap_or(Duration::MAX)
}

/// Registers every condition type of [`NATIVE_TYPES`] the runtime does not run itself, the
/// refusal of `Lambda` (a condition only code can make), and the original's condition types
/// as [`Vocabulary::ConditionTypes`].
pub fn register<U: IntentUnion, E: 'static>(registry: &mut Registry<U, E>) {
    for ty in NATIVE_TYPES.iter().filter(|t| !FRAMEWORK_TYPES.contains(t)) {
        registry.register_condition_type(ty, parse::<U, E>);
    }
    registry.register_condition_type("Lambda", |cx: &mut ConditionCx<'_, U, E>| {
        cx.bad_condition(
            "conditionType",
            "`Lambda` conditions cannot be created from JSON",
        );
        None
    });
    registry.set_vocabulary(
        Vocabulary::ConditionTypes,
        catalog::CONDITION_TYPES.iter().copied(),
    );
}

/// One condition of the type `cx` names (one of [`NATIVE_TYPES`]).
fn parse<U: IntentUnion, E: 'static>(
    cx: &mut ConditionCx<'_, U, E>,
) -> Option<Box<dyn ConditionType<U, E>>> {
    let ty = cx.type_name();
    let features = cx.vocabulary(Vocabulary::Features);
    let (k, mut sink) = cx.keys();
    let s = &mut sink;
    if let Some(f) = Flag::ALL.iter().copied().find(|f| Flag::name(*f) == ty) {
        if f == Flag::MotionDetected {
            k.accept("motionArea");
            k.accept("motionLevel");
        }
        return Some(boxed(f));
    }
    let kind: Option<Box<dyn ConditionType<U, E>>> = match ty {
        "OffTreadsState" => {
            let names: Vec<&str> = OffTreads::ALL.iter().map(|s| s.name()).collect();
            let target = k.req_one_of(s, "targetState", &names);
            let min = k.i64(s, "minTimeSinceChange_ms").unwrap_or(0).max(0);
            let max = k.i64(s, "maxTimeSinceChange_ms").unwrap_or(-1);
            target.map(|t| {
                boxed(OffTreadsState {
                    target: OffTreads::ALL[t],
                    min: ms(min),
                    max: (max >= 0).then(|| ms(max)),
                })
            })
        }
        "FeatureGate" => {
            let feature = k.req_str(s, "feature");
            let expected = k.bool(s, "expected", true);
            let feature = feature?;
            if let Some(names) = features {
                if !names.iter().any(|n| n == feature) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    k.bad(s, "feature", unknown_name(feature, &names));
                    return None;
                }
            }
            Some(boxed(FeatureGate {
                feature: feature.into(),
                expected,
            }))
        }
        "ObjectKnown" | "ObjectInitialDetection" => {
            let types = k.req_array(s, "objectTypes");
            let max_age = k.i64(s, "maxAge_ms");
            let first = ty == "ObjectInitialDetection" && k.bool(s, "firstTimeOnly", false);
            let types = types?;
            let mut mask = 0u32;
            let mut ok = !types.is_empty();
            if types.is_empty() {
                k.bad(s, "objectTypes", "at least one object type is required");
            }
            for (i, t) in types.iter().enumerate() {
                match t
                    .as_str()
                    .and_then(|n| catalog::OBJECT_TYPES.iter().position(|x| *x == n))
                {
                    Some(x) => mask |= 1 << x,
                    None => {
                        ok = false;
                        k.bad(
                            s,
                            &format!("objectTypes[{i}]"),
                            unknown_name(t.as_str().unwrap_or("?"), catalog::OBJECT_TYPES),
                        );
                    }
                }
            }
            if let Some(a) = max_age.filter(|a| *a < 0) {
                k.bad(s, "maxAge_ms", format!("must be >= 0, found {a}"));
                ok = false;
            }
            ok.then(|| {
                boxed(ObjectKnown {
                    types: mask,
                    max_age_ms: max_age.map(|a| a as u64),
                    memory: RefCell::new(Vec::new()),
                    first_time_only: first.then(|| Cell::new(false)),
                })
            })
        }
        "Emotion" => {
            let names: Vec<&str> = Emotion::ALL.iter().map(|e| e.name()).collect();
            let e = k.req_one_of(s, "emotion", &names);
            let value = k.f64(s, "value");
            let min = k.f64(s, "min");
            let max = k.f64(s, "max");
            if value.is_some() && (min.is_some() || max.is_some()) {
                k.bad(s, "value", "give `value` or `min` / `max`, not both");
                return None;
            }
            let (lo, hi) = match value {
                Some(v) => (v - 1e-5, v + 1e-5),
                None => (
                    min.unwrap_or(f64::NEG_INFINITY),
                    max.unwrap_or(f64::INFINITY),
                ),
            };
            e.map(|e| {
                boxed(EmotionInRange {
                    emotion: Emotion::ALL[e],
                    min: lo as f32,
                    max: hi as f32,
                })
            })
        }
        "RobotHeldInPalm" => {
            let should = k.req_bool(s, "shouldBeHeldInPalm");
            let min = k.f64_or(s, "minDuration_s", 0.0);
            let max = k.f64(s, "maxDuration_s");
            should.map(|should| {
                boxed(RobotHeldInPalm {
                    should,
                    min: secs(min),
                    max: max.map_or(Duration::MAX, secs),
                })
            })
        }
        "BatteryLevel" => {
            let names: Vec<&str> = BatteryLevel::ALL.iter().map(|l| l.name()).collect();
            k.req_one_of(s, "targetBatteryLevel", &names)
                .map(|i| boxed(flags::BatteryIs(BatteryLevel::ALL[i])))
        }
        "BeingHeld" => {
            let should = k.req_bool(s, "shouldBeHeld");
            let min = k.i64(s, "minTimeSinceChange_ms").unwrap_or(0);
            let max = k
                .i64(s, "maxTimeSinceChange_ms")
                .unwrap_or(i64::from(i32::MAX));
            should.map(|should| {
                boxed(BeingHeld {
                    should,
                    min: ms(min),
                    max: ms(max),
                })
            })
        }
        "CliffDetected" => {
            let n = k.i64(s, "numCliffDetectionsToTrigger");
            let no = k.bool(s, "shouldDetectNoCliffs", false);
            let min = k.i64(s, "minDuration_ms").unwrap_or(0);
            let max = k.i64(s, "maxDuration_ms").unwrap_or(i64::from(i32::MAX));
            if no && n.is_some() {
                k.bad(
                    s,
                    "shouldDetectNoCliffs",
                    "`shouldDetectNoCliffs` and `numCliffDetectionsToTrigger` exclude each other",
                );
                return None;
            }
            let n = n.unwrap_or(1);
            if !no && !(1..=4).contains(&n) {
                k.bad(
                    s,
                    "numCliffDetectionsToTrigger",
                    format!("must be 1 to 4, found {n}"),
                );
                return None;
            }
            Some(boxed(CliffDetected {
                count: if no { 0 } else { n as u8 },
                no_cliffs: no,
                min: ms(min),
                max: ms(max),
            }))
        }
        "TimerInRange" => {
            let begin = k.f64(s, "begin_s");
            let end = k.f64(s, "end_s");
            let manual = k.bool(s, "manualResetOnly", false);
            if begin.is_none() && end.is_none() && !k.has("begin_s") && !k.has("end_s") {
                k.bad(s, "begin_s", "give `begin_s`, `end_s` or both");
                return None;
            }
            Some(boxed(TimerInRange {
                begin: secs(begin.unwrap_or(0.0)),
                end: end.map(secs),
                manual_reset_only: manual,
                reset_at: Cell::new(Duration::ZERO),
            }))
        }
        "SimpleMood" => {
            let names: Vec<&str> = SimpleMood::ALL.iter().map(|m| m.name()).collect();
            let mood = k.one_of(s, "mood", &names);
            let from = k.one_of(s, "from", &names);
            let to = k.one_of(s, "to", &names);
            match (mood, from, to) {
                (Some(m), None, None) if !k.has("from") && !k.has("to") => {
                    Some(boxed(MoodTest::Is(SimpleMood::ALL[m])))
                }
                (None, f, t) if !k.has("mood") && (f.is_some() || t.is_some()) => {
                    Some(boxed(MoodTest::Transition(
                        f.map(|i| SimpleMood::ALL[i]),
                        t.map(|i| SimpleMood::ALL[i]),
                    )))
                }
                _ => {
                    if s.errors() == 0 || (!k.has("mood") && !k.has("from") && !k.has("to")) {
                        k.bad(s, "mood", "give `mood`, or `from` and/or `to`");
                    }
                    None
                }
            }
        }
        "BehaviorTimer" => {
            let t = k.req_one_of(s, "timerName", catalog::BEHAVIOR_TIMERS);
            let c = k.req_f64(s, "cooldown_s");
            match (t, c) {
                (Some(t), Some(c)) => Some(boxed(BehaviorTimer {
                    timer: t,
                    cooldown: secs(c),
                })),
                _ => None,
            }
        }
        "BecameTrueThisTick" => {
            let sub = k.required(s, "subCondition")?;
            let sub = cx.condition(sub, "subCondition")?;
            Some(boxed(BecameTrueThisTick {
                sub: Box::new(sub),
                last: Cell::new(-1),
            }))
        }
        "TimedDedup" => {
            let sub = k.required(s, "subCondition");
            let interval = k.req_i64(s, "dedupInterval_ms");
            let sub = sub?;
            let interval = interval?;
            let sub = cx.condition(sub, "subCondition")?;
            Some(boxed(TimedDedup {
                sub: Box::new(sub),
                interval: ms(interval),
                next_valid: Cell::new(Duration::ZERO),
            }))
        }
        "BehaviorSuggested" => {
            let sug = k.req_one_of(
                s,
                "postBehaviorSuggestion",
                catalog::POST_BEHAVIOR_SUGGESTIONS,
            );
            let max = k.req_i64(s, "maxTicksForSuggestion");
            match (sug, max) {
                (Some(sug), Some(max)) => Some(boxed(BehaviorSuggested {
                    suggestion: sug,
                    max_ticks: u64::try_from(max).unwrap_or(0),
                })),
                _ => None,
            }
        }
        "StuckOnEdge" => Some(boxed(StuckOnEdge {
            enable_in_palm: k.bool(s, "enableWhileHeldOnPalm", false),
            start: Cell::new(None),
        })),
        "RobotShaken" => Some(boxed(RobotShaken {
            threshold: k.f64_or(s, "minAccelMagnitudeThreshold", 16000.0) as f32,
        })),
        "RobotPitchInRange" | "RobotRollInRange" => {
            let pitch = ty == "RobotPitchInRange";
            let (lo, hi) = if pitch {
                ("minPitchThreshold_deg", "maxPitchThreshold_deg")
            } else {
                ("minRollThreshold_deg", "maxRollThreshold_deg")
            };
            let min = k.req_f64(s, lo);
            let max = k.req_f64(s, hi);
            match (min, max) {
                (Some(a), Some(b)) if a < b => Some(boxed(AngleInRange {
                    pitch,
                    min: a as f32,
                    max: b as f32,
                })),
                (Some(a), Some(b)) => {
                    k.bad(s, lo, format!("must be below `{hi}` ({a} >= {b})"));
                    None
                }
                _ => None,
            }
        }
        "ProxInRange" => {
            let min = k.f64(s, "minProxDist_mm");
            let max = k.f64(s, "maxProxDist_mm");
            let invalid = k.bool(s, "invalidSensorReturn", false);
            if min.is_none()
                && max.is_none()
                && !k.has("minProxDist_mm")
                && !k.has("maxProxDist_mm")
            {
                k.bad(
                    s,
                    "minProxDist_mm",
                    "give `minProxDist_mm`, `maxProxDist_mm` or both",
                );
                return None;
            }
            Some(boxed(ProxInRange {
                min: min.unwrap_or(0.0) as f32,
                max: max.map_or(f32::MAX, |m| m as f32),
                invalid,
            }))
        }
        "RobotPoked" => k
            .req_f64(s, "wasPokedRecentlyTimeThreshold_sec")
            .map(|t| boxed(RobotPoked { threshold: secs(t) })),
        "RobotTouched" => Some(boxed(RobotTouched {
            min: secs(k.f64_or(s, "minTouchTime", 0.0)),
        })),
        "BeatDetected" => Some(boxed(BeatDetected {
            allow_potential: k.bool(s, "allowPotentialBeat", false),
        })),
        "EngineErrorCodeReceived" => k
            .req_one_of(s, "engineErrorCode", catalog::ENGINE_ERROR_CODES)
            .map(|i| boxed(flags::EngineErrorIs(i as u8))),
        "FaceKnown" => Some(boxed(FaceKnown {
            max_distance_mm: k.f64(s, "maxFaceDist_mm").map(|d| d as f32),
            max_age: k.f64(s, "maxFaceAge_s").map(secs),
            must_be_named: k.bool(s, "mustBeNamed", false),
        })),
        _ => {
            cx.bad_condition("conditionType", format!("`{ty}` is not handled"));
            return None;
        }
    };
    kind
}

/// `kind` as the runtime's condition type.
fn boxed<U: IntentUnion, E: 'static>(
    kind: impl ConditionType<U, E> + 'static,
) -> Box<dyn ConditionType<U, E>> {
    Box::new(kind)
}
