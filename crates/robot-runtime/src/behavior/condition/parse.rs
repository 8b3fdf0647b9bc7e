//! Conditions and intent-matcher lists from JSON (spec §5.0): `{"conditionType": ...}` with
//! each type's keys and defaults, `{"customCondition": name}` (the conditions a class
//! injects, user conditions, or opaque stand-ins), `Compound` (node type `not` > `and` >
//! `or`; children that are not conditions are nested nodes), and the `[{"type": tag, ...}]`
//! lists of `respondToUserIntents` / `UserIntentPending`.
//!
//! Every problem is recorded with its JSON path; a condition is returned only when its whole
//! object is valid. Keys a condition does not read are warnings (the original never checks
//! keys inside conditions); `debugLabel` is accepted and ignored.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::{Condition, ConditionFn, Flag, Kind, MoodTest, Op};
use crate::behavior::catalog;
use crate::behavior::json_keys::{did_you_mean, kind_of, unknown_name, KeyReader};
use crate::behavior::problem::{ProblemKind, ProblemSink, Severity};
use crate::behavior::robot_state::{BatteryLevel, BehaviorTimers, Emotion, OffTreads, SimpleMood};
use crate::intent::{IntentMatcher, IntentPredicate, IntentUnion};

/// Builds a user condition from its JSON object (the `conditionType` key removed). An
/// error message becomes a load problem at the condition's path.
pub type ConditionFactory<U, E> =
    Arc<dyn Fn(&Map<String, Value>) -> Result<ConditionFn<U, E>, String> + Send + Sync>;

/// The values of conditions loaded as stand-ins (see `LoadOptions::stand_ins`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpaqueValues {
    /// The value of a condition type of the original engine not run natively.
    pub condition_type: bool,
    /// The value of an unknown `customCondition`.
    pub custom_condition: bool,
}

/// What parsing needs to know (see the [module documentation](self)).
pub(crate) struct ConditionParser<'a, 'p, U: IntentUnion, E: 'static> {
    /// User condition types, by name (tried before the native types).
    pub types: &'a HashMap<String, ConditionFactory<U, E>>,
    /// `_lambda` predicates.
    pub predicates: &'a HashMap<String, IntentPredicate<U>>,
    /// Custom conditions in scope (injected by the class being built).
    pub custom: &'a [(String, Condition<U, E>)],
    /// Stand-in values, when stand-ins are on.
    pub opaque: Option<OpaqueValues>,
    /// The feature names `FeatureGate` may name (None: any).
    pub features: Option<&'a [String]>,
    pub sink: ProblemSink<'p>,
}

/// Condition types of the original engine that run natively.
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

impl<U: IntentUnion, E: 'static> ConditionParser<'_, '_, U, E> {
    fn bad<T>(&mut self, path: String, reason: impl Into<String>) -> Option<T> {
        self.sink.push(
            path,
            ProblemKind::BadCondition {
                reason: reason.into(),
            },
        );
        None
    }

    /// A matcher list (`respondToUserIntents`, `list`): every bad matcher is a problem.
    pub fn matchers(&mut self, value: &Value, path: &str) -> Option<Vec<IntentMatcher<U>>> {
        parse_matchers(self.predicates, value, path, &mut self.sink)
    }

    /// One condition at `path`.
    pub fn condition(&mut self, value: &Value, path: &str) -> Option<Condition<U, E>> {
        let before = self.sink.problems.len();
        let c = self.condition_inner(value, path);
        let failed = self.sink.problems[before..].iter().any(|p| p.is_error());
        c.filter(|_| !failed)
    }

    fn condition_inner(&mut self, value: &Value, path: &str) -> Option<Condition<U, E>> {
        let Some(o) = value.as_object() else {
            return self.bad(
                path.into(),
                format!("a condition must be an object, found {}", kind_of(value)),
            );
        };
        let mut k = KeyReader::new(o, path);
        k.accept("debugLabel");
        let custom = k.get("customCondition").filter(|v| !v.is_null());
        if let Some(name) = custom {
            if k.has("conditionType") {
                return self.bad(
                    path.into(),
                    "both `customCondition` and `conditionType`: give one",
                );
            }
            let Some(name) = name.as_str() else {
                return self.bad(k.at("customCondition"), "must be a string");
            };
            k.report_unread(&mut self.sink, Severity::Warning);
            return self.custom(name, value, &k);
        }
        let ty = k.req_str(&mut self.sink, "conditionType")?;
        let c = self.typed(ty, value, &mut k);
        k.report_unread(&mut self.sink, Severity::Warning);
        c
    }

    fn custom(&mut self, name: &str, raw: &Value, k: &KeyReader<'_>) -> Option<Condition<U, E>> {
        if let Some((_, c)) = self.custom.iter().find(|(n, _)| n == name) {
            return Some(c.clone());
        }
        if let Some(f) = self.types.get(name) {
            return match f(&Map::new()) {
                Ok(test) => Some(Condition::new(Kind::User {
                    name: name.into(),
                    test,
                })),
                Err(reason) => self.bad(k.path().into(), reason),
            };
        }
        if let Some(values) = self.opaque {
            return Some(Condition::new(Kind::Opaque {
                name: name.into(),
                raw: raw.clone(),
                value: values.custom_condition,
            }));
        }
        let known: Vec<&str> = self.custom.iter().map(|(n, _)| n.as_str()).collect();
        self.bad(
            k.at("customCondition"),
            if known.is_empty() {
                format!("unknown custom condition `{name}` (none is defined here)")
            } else {
                format!(
                    "unknown custom condition `{name}` (defined here: {})",
                    known.join(", ")
                )
            },
        )
    }

    fn typed(&mut self, ty: &str, raw: &Value, k: &mut KeyReader<'_>) -> Option<Condition<U, E>> {
        if let Some(f) = self.types.get(ty).cloned() {
            let mut params = k.object().clone();
            params.remove("conditionType");
            params.remove("debugLabel");
            for key in params.keys() {
                k.accept(key);
            }
            return match f(&params) {
                Ok(test) => Some(Condition::new(Kind::User {
                    name: ty.into(),
                    test,
                })),
                Err(reason) => self.bad(k.path().into(), reason),
            };
        }
        if !NATIVE_TYPES.contains(&ty) {
            let at = k.at("conditionType");
            if ty == "Lambda" {
                return self.bad(at, "`Lambda` conditions cannot be created from JSON");
            }
            if !catalog::contains(catalog::CONDITION_TYPES, ty) {
                return self.bad(
                    at,
                    format!(
                        "unknown condition type `{ty}`{}",
                        did_you_mean(ty, catalog::CONDITION_TYPES)
                    ),
                );
            }
            if let Some(values) = self.opaque {
                for key in k.object().keys() {
                    k.accept(key);
                }
                return Some(Condition::new(Kind::Opaque {
                    name: ty.into(),
                    raw: raw.clone(),
                    value: values.condition_type,
                }));
            }
            return self.bad(
                at,
                format!("condition type `{ty}` of the original engine does not run natively here (load with stand-ins)"),
            );
        }
        let s = &mut self.sink;
        let flag = |f| Some(Kind::Flag(f));
        let kind = match ty {
            "TrueCondition" => Some(Kind::True),
            "Compound" => {
                // The node reads (and reports) its own keys.
                for key in k.object().keys() {
                    k.accept(key);
                }
                return self.node(k.object(), k.path(), true).map(Condition::new);
            }
            "UserIntentPending" | "UserIntentActive" => {
                let v = k.required(s, "list")?;
                let list: Arc<[IntentMatcher<U>]> = self.matchers(v, &k.at("list"))?.into();
                Some(if ty == "UserIntentPending" {
                    Kind::UserIntentPending(list)
                } else {
                    Kind::UserIntentActive(list)
                })
            }
            "AnyUserIntent" => Some(Kind::AnyUserIntent),
            "TriggerWordPending" => Some(Kind::TriggerWordPending),
            "OnCharger" => flag(Flag::OnCharger),
            "OnChargerPlatform" => flag(Flag::OnChargerPlatform),
            "HighTemperature" => flag(Flag::HighTemperature),
            "RobotInHabitat" => flag(Flag::RobotInHabitat),
            "UserIsHoldingCube" => flag(Flag::UserIsHoldingCube),
            "TooHotToCharge" => flag(Flag::TooHotToCharge),
            "RobotPickedUp" => flag(Flag::RobotPickedUp),
            "CarryingCube" => flag(Flag::CarryingCube),
            "UnexpectedMovement" => flag(Flag::UnexpectedMovement),
            "EyeContact" => flag(Flag::EyeContact),
            "ConnectedToCube" => flag(Flag::ConnectedToCube),
            "IsNightTime" => flag(Flag::IsNightTime),
            "IsMaintenanceReboot" => flag(Flag::IsMaintenanceReboot),
            "AlexaInteractionActive" => flag(Flag::AlexaInteractionActive),
            "RobotPlacedOnSlope" => flag(Flag::RobotPlacedOnSlope),
            "ObstacleDetected" => flag(Flag::ObstacleDetected),
            "SalientPointDetected" => flag(Flag::SalientPointDetected),
            "MotionDetected" => {
                k.accept("motionArea");
                k.accept("motionLevel");
                flag(Flag::MotionDetected)
            }
            "OffTreadsState" => {
                let names: Vec<&str> = OffTreads::ALL.iter().map(|s| s.name()).collect();
                let target = k.req_one_of(s, "targetState", &names);
                let min = k.i64(s, "minTimeSinceChange_ms").unwrap_or(0).max(0);
                let max = k.i64(s, "maxTimeSinceChange_ms").unwrap_or(-1);
                target.map(|t| Kind::OffTreadsState {
                    target: OffTreads::ALL[t],
                    min: ms(min),
                    max: (max >= 0).then(|| ms(max)),
                })
            }
            "FeatureGate" => {
                let feature = k.req_str(s, "feature");
                let expected = k.bool(s, "expected", true);
                let feature = feature?;
                if let Some(names) = self.features {
                    if !names.iter().any(|n| n == feature) {
                        let names: Vec<&str> = names.iter().map(String::as_str).collect();
                        k.bad(s, "feature", unknown_name(feature, &names));
                        return None;
                    }
                }
                Some(Kind::FeatureGate {
                    feature: feature.into(),
                    expected,
                })
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
                ok.then(|| Kind::ObjectKnown {
                    types: mask,
                    max_age_ms: max_age.map(|a| a as u64),
                    memory: RefCell::new(Vec::new()),
                    first_time_only: first.then(|| Cell::new(false)),
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
                e.map(|e| Kind::Emotion {
                    emotion: Emotion::ALL[e],
                    min: lo as f32,
                    max: hi as f32,
                })
            }
            "RobotHeldInPalm" => {
                let should = k.req_bool(s, "shouldBeHeldInPalm");
                let min = k.f64_or(s, "minDuration_s", 0.0);
                let max = k.f64(s, "maxDuration_s");
                should.map(|should| Kind::RobotHeldInPalm {
                    should,
                    min: secs(min),
                    max: max.map_or(Duration::MAX, secs),
                })
            }
            "BatteryLevel" => {
                let names: Vec<&str> = BatteryLevel::ALL.iter().map(|l| l.name()).collect();
                k.req_one_of(s, "targetBatteryLevel", &names)
                    .map(|i| Kind::BatteryLevel(BatteryLevel::ALL[i]))
            }
            "BeingHeld" => {
                let should = k.req_bool(s, "shouldBeHeld");
                let min = k.i64(s, "minTimeSinceChange_ms").unwrap_or(0);
                let max = k
                    .i64(s, "maxTimeSinceChange_ms")
                    .unwrap_or(i64::from(i32::MAX));
                should.map(|should| Kind::BeingHeld {
                    should,
                    min: ms(min),
                    max: ms(max),
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
                Some(Kind::CliffDetected {
                    count: if no { 0 } else { n as u8 },
                    no_cliffs: no,
                    min: ms(min),
                    max: ms(max),
                })
            }
            "TimerInRange" => {
                let begin = k.f64(s, "begin_s");
                let end = k.f64(s, "end_s");
                let manual = k.bool(s, "manualResetOnly", false);
                if begin.is_none() && end.is_none() && !k.has("begin_s") && !k.has("end_s") {
                    k.bad(s, "begin_s", "give `begin_s`, `end_s` or both");
                    return None;
                }
                Some(Kind::TimerInRange {
                    begin: secs(begin.unwrap_or(0.0)),
                    end: end.map(secs),
                    manual_reset_only: manual,
                    reset_at: Cell::new(Duration::ZERO),
                })
            }
            "SimpleMood" => {
                let names: Vec<&str> = SimpleMood::ALL.iter().map(|m| m.name()).collect();
                let mood = k.one_of(s, "mood", &names);
                let from = k.one_of(s, "from", &names);
                let to = k.one_of(s, "to", &names);
                match (mood, from, to) {
                    (Some(m), None, None) if !k.has("from") && !k.has("to") => {
                        Some(Kind::SimpleMood(MoodTest::Is(SimpleMood::ALL[m])))
                    }
                    (None, f, t) if !k.has("mood") && (f.is_some() || t.is_some()) => {
                        Some(Kind::SimpleMood(MoodTest::Transition(
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
                    (Some(t), Some(c)) => Some(Kind::BehaviorTimer {
                        timer: t,
                        cooldown: secs(c),
                    }),
                    _ => None,
                }
            }
            "BecameTrueThisTick" => {
                let sub = k.required(s, "subCondition")?;
                let path = k.at("subCondition");
                let sub = self.condition(sub, &path)?;
                Some(Kind::BecameTrueThisTick {
                    sub: Box::new(sub),
                    last: Cell::new(-1),
                })
            }
            "TimedDedup" => {
                let sub = k.required(s, "subCondition");
                let interval = k.req_i64(s, "dedupInterval_ms");
                let sub = sub?;
                let path = k.at("subCondition");
                let sub = self.condition(sub, &path)?;
                Some(Kind::TimedDedup {
                    sub: Box::new(sub),
                    interval: ms(interval?),
                    next_valid: Cell::new(Duration::ZERO),
                })
            }
            "BehaviorSuggested" => {
                let sug = k.req_one_of(
                    s,
                    "postBehaviorSuggestion",
                    catalog::POST_BEHAVIOR_SUGGESTIONS,
                );
                let max = k.req_i64(s, "maxTicksForSuggestion");
                match (sug, max) {
                    (Some(sug), Some(max)) => Some(Kind::BehaviorSuggested {
                        suggestion: sug,
                        max_ticks: u64::try_from(max).unwrap_or(0),
                    }),
                    _ => None,
                }
            }
            "StuckOnEdge" => Some(Kind::StuckOnEdge {
                enable_in_palm: k.bool(s, "enableWhileHeldOnPalm", false),
                start: Cell::new(None),
            }),
            "RobotShaken" => Some(Kind::RobotShaken {
                threshold: k.f64_or(s, "minAccelMagnitudeThreshold", 16000.0) as f32,
            }),
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
                    (Some(a), Some(b)) if a < b => Some(Kind::AngleInRange {
                        pitch,
                        min: a as f32,
                        max: b as f32,
                    }),
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
                Some(Kind::ProxInRange {
                    min: min.unwrap_or(0.0) as f32,
                    max: max.map_or(f32::MAX, |m| m as f32),
                    invalid,
                })
            }
            "RobotPoked" => k
                .req_f64(s, "wasPokedRecentlyTimeThreshold_sec")
                .map(|t| Kind::RobotPoked { threshold: secs(t) }),
            "RobotTouched" => Some(Kind::RobotTouched {
                min: secs(k.f64_or(s, "minTouchTime", 0.0)),
            }),
            "BeatDetected" => Some(Kind::BeatDetected {
                allow_potential: k.bool(s, "allowPotentialBeat", false),
            }),
            "EngineErrorCodeReceived" => k
                .req_one_of(s, "engineErrorCode", catalog::ENGINE_ERROR_CODES)
                .map(|i| Kind::EngineErrorCodeReceived(i as u8)),
            "FaceKnown" => Some(Kind::FaceKnown {
                max_distance_mm: k.f64(s, "maxFaceDist_mm").map(|d| d as f32),
                max_age: k.f64(s, "maxFaceAge_s").map(secs),
                must_be_named: k.bool(s, "mustBeNamed", false),
            }),
            _ => return self.bad(k.at("conditionType"), format!("`{ty}` is not handled")),
        };
        kind.map(Condition::new)
    }

    /// A `Compound` node (`root`: the object also has `conditionType`).
    fn node(&mut self, o: &Map<String, Value>, path: &str, root: bool) -> Option<Kind<U, E>> {
        let mut k = KeyReader::new(o, path);
        if root {
            k.accept("conditionType");
        }
        k.accept("debugLabel");
        let op = if k.has("not") {
            Op::Not
        } else if k.has("and") {
            Op::And
        } else if k.has("or") {
            Op::Or
        } else {
            return self.bad(path.into(), "a `Compound` node needs `not`, `and` or `or`");
        };
        let key = match op {
            Op::Not => "not",
            Op::And => "and",
            Op::Or => "or",
        };
        let v = k.get(key)?;
        // Lower-priority node keys are ignored, as the original does: reported as unread.
        k.report_unread(&mut self.sink, Severity::Warning);
        if op == Op::Not {
            if !v.is_object() {
                return self.bad(k.at("not"), "`not` takes one condition object");
            }
            let c = self.child(v, &k.at("not"))?;
            return Some(Kind::Compound {
                op,
                children: vec![c].into(),
            });
        }
        let Some(a) = v.as_array() else {
            return self.bad(k.at(key), format!("`{key}` must be an array"));
        };
        let mut out = Vec::with_capacity(a.len());
        let mut ok = true;
        for (i, item) in a.iter().enumerate() {
            match self.child(item, &format!("{}[{i}]", k.at(key))) {
                Some(c) => out.push(c),
                None => ok = false,
            }
        }
        ok.then(|| Kind::Compound {
            op,
            children: out.into(),
        })
    }

    /// A `Compound` child: a condition when it names a type or a custom condition, else a
    /// nested node.
    fn child(&mut self, v: &Value, path: &str) -> Option<Condition<U, E>> {
        match v.as_object() {
            Some(o) if !o.contains_key("conditionType") && !o.contains_key("customCondition") => {
                self.node(o, path, false).map(Condition::new)
            }
            _ => self.condition(v, path),
        }
    }
}

/// A matcher list at `path` (a single matcher object is a list of one).
pub(crate) fn parse_matchers<U: IntentUnion>(
    predicates: &HashMap<String, IntentPredicate<U>>,
    value: &Value,
    path: &str,
    sink: &mut ProblemSink<'_>,
) -> Option<Vec<IntentMatcher<U>>> {
    let lookup = |n: &str| predicates.get(n).cloned();
    let items: Vec<&Value> = match value {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let mut ok = true;
    for (k, v) in items.iter().enumerate() {
        if let Err(e) = IntentMatcher::<U>::from_json(v, &lookup) {
            ok = false;
            let at = if value.is_array() {
                format!("{path}[{k}]")
            } else {
                path.into()
            };
            sink.push(
                at,
                ProblemKind::BadMatcher {
                    reason: e.to_string(),
                },
            );
        }
    }
    if !ok {
        return None;
    }
    match IntentMatcher::list_from_json(value, &lookup) {
        Ok(l) => Some(l),
        Err(e) => {
            sink.push(
                path,
                ProblemKind::BadMatcher {
                    reason: e.to_string(),
                },
            );
            None
        }
    }
}

/// The index of timer `name` (for classes that reset timers).
pub(crate) fn timer_index(name: &str) -> Option<usize> {
    BehaviorTimers::index(name)
}
