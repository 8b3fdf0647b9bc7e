//! Scenario `state` lines: [`RobotState::apply_json`], its keys ([`STATE_KEYS`]) and
//! [`StateError`].

use serde_json::{Map, Value};

use crate::catalog;

use super::{
    BatteryLevel, BehaviorTimers, Emotion, Face, Habitat, OffTreads, RobotState, SimpleMood,
    Whiteboard, CLIFF_SENSORS, SIGNAL_KEYS,
};

impl RobotState {
    /// Applies a JSON patch (scenario `state` lines): every valid key is applied, every bad
    /// one reported (the others still apply). Keys: see [`STATE_KEYS`].
    pub fn apply_json(&mut self, patch: &Map<String, Value>) -> Vec<StateError> {
        let mut errors = Vec::new();
        for (key, v) in patch {
            if let Err(reason) = self.apply_key(key, v) {
                errors.push(StateError {
                    key: key.clone(),
                    reason,
                });
            }
        }
        errors
    }

    fn apply_key(&mut self, key: &str, v: &Value) -> Result<(), String> {
        let b = || {
            v.as_bool()
                .ok_or_else(|| format!("expected a boolean, found {v}"))
        };
        let f = || {
            v.as_f64()
                .filter(|x| x.is_finite())
                .map(|x| x as f32)
                .ok_or_else(|| format!("expected a number, found {v}"))
        };
        let s = || {
            v.as_str()
                .ok_or_else(|| format!("expected a string, found {v}"))
        };
        let one_of = |names: &[&str]| format!("expected one of {}, found {v}", names.join(", "));
        match key {
            "on_charger" => self.on_charger = b()?,
            "on_charger_platform" => self.on_charger_platform = b()?,
            "off_treads" => {
                let names: Vec<&str> = OffTreads::ALL.iter().map(|s| s.name()).collect();
                let st = OffTreads::from_name(s()?).ok_or_else(|| one_of(&names))?;
                self.set_off_treads(st);
            }
            "picked_up" => self.picked_up = b()?,
            "being_held" => self.set_being_held(b()?),
            "held_in_palm" => self.set_held_in_palm(b()?),
            "carrying_object" => self.carrying_object = b()?,
            "cliffs" => {
                let bits = match v {
                    Value::Number(_) => match v.as_u64() {
                        Some(n @ 0..=4) => ((1u16 << n) - 1) as u8,
                        _ => return Err(format!("expected 0 to 4 sensors, found {v}")),
                    },
                    Value::Array(a) => {
                        let mut bits = 0u8;
                        for x in a {
                            let i = x
                                .as_str()
                                .and_then(|n| CLIFF_SENSORS.iter().position(|c| *c == n))
                                .ok_or_else(|| {
                                    format!(
                                        "expected sensors of {}, found {x}",
                                        CLIFF_SENSORS.join(", ")
                                    )
                                })?;
                            bits |= 1 << i;
                        }
                        bits
                    }
                    _ => return Err(format!("expected a count or a list of sensors, found {v}")),
                };
                self.set_cliffs(bits);
            }
            "battery_level" => {
                let names: Vec<&str> = BatteryLevel::ALL.iter().map(|s| s.name()).collect();
                self.battery_level = BatteryLevel::from_name(s()?).ok_or_else(|| one_of(&names))?;
            }
            "cpu_temp_c" => self.cpu_temp_c = f()?,
            "battery_temp_c" => self.battery_temp_c = f()?,
            "too_hot_to_charge" => self.too_hot_to_charge = b()?,
            "in_habitat" => {
                self.habitat = match v {
                    Value::Bool(true) => Habitat::InHabitat,
                    Value::Bool(false) => Habitat::NotInHabitat,
                    Value::Null => Habitat::Unknown,
                    _ => return Err(format!("expected a boolean or null, found {v}")),
                }
            }
            "user_holding_cube" => self.user_holding_cube = b()?,
            "prox_mm" => {
                self.prox_mm = match v {
                    Value::Null => None,
                    _ => Some(f()?),
                }
            }
            "pitch_deg" => self.pitch_deg = f()?,
            "roll_deg" => self.roll_deg = f()?,
            "accel_magnitude" => self.accel_magnitude = f()?,
            "features" => {
                let o = v
                    .as_object()
                    .ok_or_else(|| format!("expected an object of feature: bool, found {v}"))?;
                let mut bad = Vec::new();
                for (name, on) in o {
                    match on.as_bool() {
                        Some(on) => self.set_feature(name, on),
                        None => bad.push(name.clone()),
                    }
                }
                if !bad.is_empty() {
                    return Err(format!("features {} must be booleans", bad.join(", ")));
                }
            }
            "emotions" => {
                let o = v
                    .as_object()
                    .ok_or_else(|| format!("expected an object of emotion: value, found {v}"))?;
                for (name, x) in o {
                    let e = Emotion::from_name(name).ok_or_else(|| {
                        let names: Vec<&str> = Emotion::ALL.iter().map(|e| e.name()).collect();
                        format!(
                            "unknown emotion {name:?} (expected one of {})",
                            names.join(", ")
                        )
                    })?;
                    let x = x
                        .as_f64()
                        .filter(|x| (-1.0..=1.0).contains(x))
                        .ok_or_else(|| format!("emotion {name} must be a number from -1 to 1"))?;
                    self.emotions[e as usize] = x as f32;
                }
            }
            "simple_mood" => {
                let names: Vec<&str> = SimpleMood::ALL.iter().map(|s| s.name()).collect();
                let m = SimpleMood::from_name(s()?).ok_or_else(|| one_of(&names))?;
                self.set_simple_mood(m);
            }
            "objects" => {
                let a = v
                    .as_array()
                    .ok_or_else(|| format!("expected an array of objects, found {v}"))?;
                let mut list = Vec::with_capacity(a.len());
                for o in a {
                    let ty = o
                        .get("type")
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("each object needs a string \"type\", found {o}"))?;
                    let i = catalog::OBJECT_TYPES
                        .iter()
                        .position(|n| *n == ty)
                        .ok_or_else(|| format!("unknown object type {ty:?}"))?;
                    let d = match o.get("distance_mm") {
                        None => 300.0,
                        Some(d) => d
                            .as_f64()
                            .filter(|d| d.is_finite() && *d >= 0.0)
                            .ok_or_else(|| {
                                format!("distance_mm must be a number >= 0, found {d}")
                            })? as f32,
                    };
                    list.push((i as u8, d));
                }
                self.objects.clear();
                for (i, d) in list {
                    self.observe_object(i, d);
                }
            }
            "faces" => {
                let a = v
                    .as_array()
                    .ok_or_else(|| format!("expected an array of faces, found {v}"))?;
                let mut faces = Vec::with_capacity(a.len());
                for o in a {
                    let d = match o.get("distance_mm") {
                        None | Some(Value::Null) => None,
                        Some(d) => Some(
                            d.as_f64()
                                .filter(|d| d.is_finite() && *d >= 0.0)
                                .ok_or_else(|| {
                                    format!("distance_mm must be a number >= 0, found {d}")
                                })? as f32,
                        ),
                    };
                    let name: Option<Box<str>> = match o.get("name") {
                        None | Some(Value::Null) => None,
                        Some(n) => Some(
                            n.as_str()
                                .map(str::trim)
                                .filter(|n| !n.is_empty())
                                .ok_or_else(|| {
                                    format!("name must be a non-empty string, found {n}")
                                })?
                                .into(),
                        ),
                    };
                    let named = match o.get("named") {
                        None => name.is_some(),
                        Some(n) => n
                            .as_bool()
                            .ok_or_else(|| format!("named must be a boolean, found {n}"))?,
                    };
                    if let Some(k) = o.as_object().and_then(|m| {
                        m.keys()
                            .find(|k| !["distance_mm", "named", "name"].contains(&k.as_str()))
                    }) {
                        return Err(format!(
                            "unknown key `{k}` in a face (distance_mm, named, name)"
                        ));
                    }
                    faces.push(Face {
                        distance_mm: d,
                        named,
                        name,
                        last_seen: self.now,
                    });
                }
                let now = self.now;
                self.signals
                    .sight_names(faces.iter().filter_map(|f| f.name.as_deref()), now);
                self.faces = faces;
            }
            "eye_contact" => self.eye_contact = b()?,
            "cube_connected" => self.cube_connected = b()?,
            "unexpected_movement" => self.unexpected_movement = b()?,
            "poked" => {
                if b()? {
                    self.poke();
                }
            }
            "touched" => self.set_touched(b()?),
            "engine_error" => {
                let name = s()?;
                let i = catalog::ENGINE_ERROR_CODES
                    .iter()
                    .position(|n| *n == name)
                    .ok_or_else(|| one_of(catalog::ENGINE_ERROR_CODES))?;
                self.receive_engine_error(i as u8);
            }
            "hours_alive" => self.hours_alive = f()?.max(0.0),
            "night_time" => self.night_time = b()?,
            "maintenance_reboot" => self.maintenance_reboot = b()?,
            "alexa_active" => self.alexa_active = b()?,
            "placed_on_slope" => self.placed_on_slope = b()?,
            "obstacle_detected" => self.obstacle_detected = b()?,
            "salient_point_detected" => self.salient_point_detected = b()?,
            "motion_detected" => self.motion_detected = b()?,
            "beat_detected" => self.beat_detected = b()?,
            "reset_timers" => {
                let a = v
                    .as_array()
                    .ok_or_else(|| format!("expected an array of timer names, found {v}"))?;
                for t in a {
                    let i = t
                        .as_str()
                        .and_then(BehaviorTimers::index)
                        .ok_or_else(|| one_of(catalog::BEHAVIOR_TIMERS))?;
                    let now = self.now;
                    self.behavior_timers.reset(i, now);
                }
            }
            "suggestion" => {
                let i = Whiteboard::index(s()?)
                    .ok_or_else(|| one_of(catalog::POST_BEHAVIOR_SUGGESTIONS))?;
                let tick = self.tick;
                self.whiteboard.offer(i, tick);
            }
            other => {
                let now = self.now;
                return match self.signals.apply(other, v, now) {
                    Some(r) => r,
                    None => Err(format!(
                        "unknown key (expected one of {}, {})",
                        STATE_KEYS.join(", "),
                        SIGNAL_KEYS.join(", ")
                    )),
                };
            }
        }
        Ok(())
    }
}

/// The keys of [`RobotState::apply_json`].
pub const STATE_KEYS: &[&str] = &[
    "on_charger",
    "on_charger_platform",
    "off_treads",
    "picked_up",
    "being_held",
    "held_in_palm",
    "carrying_object",
    "cliffs",
    "battery_level",
    "cpu_temp_c",
    "battery_temp_c",
    "too_hot_to_charge",
    "in_habitat",
    "user_holding_cube",
    "prox_mm",
    "pitch_deg",
    "roll_deg",
    "accel_magnitude",
    "features",
    "emotions",
    "simple_mood",
    "objects",
    "faces",
    "eye_contact",
    "cube_connected",
    "unexpected_movement",
    "poked",
    "touched",
    "engine_error",
    "hours_alive",
    "night_time",
    "maintenance_reboot",
    "alexa_active",
    "placed_on_slope",
    "obstacle_detected",
    "salient_point_detected",
    "motion_detected",
    "beat_detected",
    "reset_timers",
    "suggestion",
];

/// A bad key of a robot-state patch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("robot state `{key}`: {reason}")]
pub struct StateError {
    /// The key.
    pub key: String,
    /// What is wrong.
    pub reason: String,
}
