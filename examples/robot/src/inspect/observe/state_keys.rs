//! The robot-state keys the page shows ([`STATE_KEYS`]), each with the inputs whose change
//! stamps say when it changed.

use std::time::Duration;

use original_behaviors::catalog;
use original_behaviors::robot_state::{Emotion, Habitat};
use original_behaviors::RobotState;

use robot_runtime::behavior::{BehaviorId, Condition, Inputs, Runner};

use crate::behavior_classes::Event;
use crate::intents::UserIntent;

use super::ms;
use super::records::KeyValue;

/// A robot-state key the page shows: its name, the runner inputs it belongs to (whose change
/// stamps say when it changed), whether it is a number (plotted), and how to read it.
pub struct StateKey {
    /// Its name.
    pub name: &'static str,
    /// The inputs it is part of.
    pub inputs: Inputs,
    /// A number (the page plots it).
    pub numeric: bool,
    pub(super) read: fn(&RobotState, u64) -> KeyValue,
}

fn b(v: bool) -> KeyValue {
    KeyValue::Bool(v)
}
fn n(v: f32) -> KeyValue {
    KeyValue::Num(f64::from(v))
}
fn emotion(r: &RobotState, e: Emotion) -> KeyValue {
    n(r.emotion(e))
}
/// A duration before `now` as robot time (`offset`: the runner's clock minus the robot's).
fn at(now: Duration, ago: Duration, offset: u64) -> KeyValue {
    KeyValue::Num(ms(now.saturating_sub(ago)).saturating_sub(offset) as f64)
}

macro_rules! key {
    ($name:literal, $inputs:ident, $numeric:literal, |$r:ident, $o:ident| $read:expr) => {
        StateKey {
            name: $name,
            inputs: original_behaviors::inputs::$inputs,
            numeric: $numeric,
            read: |$r: &RobotState, $o: u64| {
                let _ = $o;
                $read
            },
        }
    };
}

/// Every key, in the order the page lists them. Features: only their default (the table of
/// features set is not public in `RobotState`).
pub static STATE_KEYS: &[StateKey] = &[
    key!("off_treads", OFF_TREADS, false, |r, o| KeyValue::Text(
        r.off_treads().0.name().into()
    )),
    key!("being_held", BEING_HELD, false, |r, o| b(r.being_held().0)),
    key!("held_in_palm", PALM, false, |r, o| b(r.held_in_palm())),
    key!("picked_up", PICKED_UP, false, |r, o| b(r.picked_up)),
    key!("cliffs", CLIFFS, true, |r, o| KeyValue::Num(f64::from(
        r.cliffs().count_ones()
    ))),
    key!("on_charger", ON_CHARGER, false, |r, o| b(r.on_charger)),
    key!("on_charger_platform", ON_CHARGER_PLATFORM, false, |r, o| b(
        r.on_charger_platform
    )),
    key!("battery_level", BATTERY, false, |r, o| KeyValue::Text(
        r.battery_level.name().into()
    )),
    key!("cpu_temp_c", TEMPERATURES, true, |r, o| n(r.cpu_temp_c)),
    key!("battery_temp_c", TEMPERATURES, true, |r, o| n(
        r.battery_temp_c
    )),
    key!("too_hot_to_charge", TOO_HOT, false, |r, o| b(
        r.too_hot_to_charge
    )),
    key!("carrying_object", CARRYING, false, |r, o| b(
        r.carrying_object
    )),
    key!("cube_connected", CUBE_CONNECTED, false, |r, o| b(
        r.cube_connected
    )),
    key!("user_holding_cube", USER_HOLDING_CUBE, false, |r, o| b(
        r.user_holding_cube
    )),
    key!("objects", OBJECTS, true, |r, o| KeyValue::Num(
        r.objects.len() as f64
    )),
    key!("faces", FACES, true, |r, o| KeyValue::Num(
        r.faces.len() as f64
    )),
    key!("eye_contact", EYE_CONTACT, false, |r, o| b(r.eye_contact)),
    key!("simple_mood", MOOD, false, |r, o| KeyValue::Text(
        r.simple_mood().name().into()
    )),
    key!("emotion_happy", EMOTIONS, true, |r, o| emotion(
        r,
        Emotion::Happy
    )),
    key!("emotion_confident", EMOTIONS, true, |r, o| emotion(
        r,
        Emotion::Confident
    )),
    key!("emotion_social", EMOTIONS, true, |r, o| emotion(
        r,
        Emotion::Social
    )),
    key!("emotion_stimulated", EMOTIONS, true, |r, o| emotion(
        r,
        Emotion::Stimulated
    )),
    key!("emotion_trust", EMOTIONS, true, |r, o| emotion(
        r,
        Emotion::Trust
    )),
    key!("prox_mm", PROX, true, |r, o| r
        .prox_mm
        .map_or(KeyValue::None, n)),
    key!("pitch_deg", POSE, true, |r, o| n(r.pitch_deg)),
    key!("roll_deg", POSE, true, |r, o| n(r.roll_deg)),
    key!("accel_magnitude", ACCEL, true, |r, o| n(r.accel_magnitude)),
    key!("last_poked_ms", POKE, false, |r, o| match r.since_poked() {
        Some(ago) => at(r.now(), ago, o),
        None => KeyValue::None,
    }),
    key!("touched", TOUCH, false, |r, o| b(r.touched_for().is_some())),
    key!(
        "engine_error",
        ENGINE_ERROR,
        false,
        |r, o| match r.engine_error() {
            Some(code) => KeyValue::Text(
                catalog::ENGINE_ERROR_CODES
                    .get(usize::from(code))
                    .map_or_else(|| code.to_string().into(), |s| (*s).into()),
            ),
            None => KeyValue::None,
        }
    ),
    key!("habitat", HABITAT, false, |r, o| KeyValue::Text(
        match r.habitat {
            Habitat::Unknown => "Unknown",
            Habitat::InHabitat => "InHabitat",
            Habitat::NotInHabitat => "NotInHabitat",
        }
        .into()
    )),
    key!("unexpected_movement", UNEXPECTED_MOVEMENT, false, |r, o| b(
        r.unexpected_movement
    )),
    key!("placed_on_slope", SLOPE, false, |r, o| b(r.placed_on_slope)),
    key!("obstacle_detected", OBSTACLE, false, |r, o| b(
        r.obstacle_detected
    )),
    key!("salient_point_detected", SALIENT_POINT, false, |r, o| b(
        r.salient_point_detected
    )),
    key!(
        "motion_detected",
        MOTION,
        false,
        |r, o| b(r.motion_detected)
    ),
    key!("beat_detected", BEAT, false, |r, o| b(r.beat_detected)),
    key!("potential_beat_detected", BEAT, false, |r, o| b(
        r.potential_beat_detected
    )),
    key!("hours_alive", HOURS_ALIVE, true, |r, o| n(r.hours_alive)),
    key!("night_time", NIGHT_TIME, false, |r, o| b(r.night_time)),
    key!("maintenance_reboot", MAINTENANCE_REBOOT, false, |r, o| b(
        r.maintenance_reboot
    )),
    key!("alexa_active", ALEXA, false, |r, o| b(r.alexa_active)),
    key!("features_default", FEATURES, false, |r, o| b(
        r.features_default
    )),
    key!("behavior_timers", TIMERS, false, |r, o| {
        let set: Vec<String> = catalog::BEHAVIOR_TIMERS
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let t = r.behavior_timers.reset_at(i)?;
                Some(format!("{name} reset at {} ms", ms(t).saturating_sub(o)))
            })
            .collect();
        if set.is_empty() {
            KeyValue::None
        } else {
            KeyValue::Text(set.join(", ").into())
        }
    }),
    key!("whiteboard", WHITEBOARD, false, |r, o| {
        let mut parts: Vec<String> = catalog::POST_BEHAVIOR_SUGGESTIONS
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let t = r.whiteboard.offered_at(i)?;
                Some(format!("{name} offered at tick {}", t.saturating_sub(1)))
            })
            .collect();
        if r.whiteboard.exploring_extra_s != 0.0 {
            parts.push(format!("exploring +{} s", r.whiteboard.exploring_extra_s));
        }
        if parts.is_empty() {
            KeyValue::None
        } else {
            KeyValue::Text(parts.join(", ").into())
        }
    }),
];

/// The keys for `hello` (and a `--trace-why` trace's header): each key's name, whether it
/// is a number, and how many of the tree's condition nodes read it (the panel lists the keys
/// the conditions read first).
pub fn state_keys_json(runner: &Runner<UserIntent, Event>) -> serde_json::Value {
    let mut read = vec![0u32; STATE_KEYS.len()];
    let mut count = |c: &Condition<UserIntent, Event>| {
        let inputs = c.inputs();
        for (k, key) in STATE_KEYS.iter().enumerate() {
            if inputs.intersects(key.inputs) {
                read[k] += 1;
            }
        }
    };
    let mut owned = Vec::new();
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let (wants, cancel) = runner.conditions(id);
        for c in wants.into_iter().chain(cancel) {
            count(c);
        }
        if let Some(b) = runner.behavior(id) {
            owned.clear();
            b.owned_conditions(&mut owned);
            for (_, c) in &owned {
                count(c);
            }
        }
    }
    STATE_KEYS
        .iter()
        .zip(read)
        .map(|(k, r)| serde_json::json!({"name": k.name, "numeric": k.numeric, "read_by": r}))
        .collect()
}
