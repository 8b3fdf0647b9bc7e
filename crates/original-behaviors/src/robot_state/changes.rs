//! What changed between two robot states (the inputs the cached tick watches) and which
//! activation gates a state blocks.

use robot_runtime::behavior::Inputs;

use crate::inputs;

use super::{OffTreads, RobotState};

impl RobotState {
    /// The inputs (see [`inputs`]) whose fields differ between this state and `prev`. The
    /// clock (`now`, `tick`, `latest_message_ms`) is time, not an input; the mood-event log
    /// is read by no condition.
    pub fn changed_from(&self, prev: &RobotState) -> Inputs {
        let mut c = Inputs::NONE;
        let mut on = |changed: bool, i: Inputs| {
            if changed {
                c |= i;
            }
        };
        on(
            self.off_treads != prev.off_treads
                || self.off_treads_changed != prev.off_treads_changed,
            inputs::OFF_TREADS,
        );
        on(
            self.being_held != prev.being_held
                || self.being_held_changed != prev.being_held_changed,
            inputs::BEING_HELD,
        );
        on(
            self.held_in_palm != prev.held_in_palm
                || self.palm_since != prev.palm_since
                || self.last_in_palm != prev.last_in_palm,
            inputs::PALM,
        );
        on(
            self.cliffs != prev.cliffs || self.cliff_since != prev.cliff_since,
            inputs::CLIFFS,
        );
        on(
            self.simple_mood != prev.simple_mood || self.mood_transition != prev.mood_transition,
            inputs::MOOD,
        );
        on(self.last_poked != prev.last_poked, inputs::POKE);
        on(self.touched_since != prev.touched_since, inputs::TOUCH);
        on(self.engine_error != prev.engine_error, inputs::ENGINE_ERROR);
        on(
            self.features != prev.features || self.features_default != prev.features_default,
            inputs::FEATURES,
        );
        on(self.picked_up != prev.picked_up, inputs::PICKED_UP);
        on(self.on_charger != prev.on_charger, inputs::ON_CHARGER);
        on(
            self.on_charger_platform != prev.on_charger_platform,
            inputs::ON_CHARGER_PLATFORM,
        );
        on(
            self.carrying_object != prev.carrying_object,
            inputs::CARRYING,
        );
        on(self.battery_level != prev.battery_level, inputs::BATTERY);
        on(
            self.cpu_temp_c != prev.cpu_temp_c || self.battery_temp_c != prev.battery_temp_c,
            inputs::TEMPERATURES,
        );
        on(
            self.too_hot_to_charge != prev.too_hot_to_charge,
            inputs::TOO_HOT,
        );
        on(self.habitat != prev.habitat, inputs::HABITAT);
        on(
            self.user_holding_cube != prev.user_holding_cube,
            inputs::USER_HOLDING_CUBE,
        );
        on(self.prox_mm != prev.prox_mm, inputs::PROX);
        on(
            self.pitch_deg != prev.pitch_deg || self.roll_deg != prev.roll_deg,
            inputs::POSE,
        );
        on(self.accel_magnitude != prev.accel_magnitude, inputs::ACCEL);
        on(self.objects != prev.objects, inputs::OBJECTS);
        on(self.faces != prev.faces, inputs::FACES);
        on(self.eye_contact != prev.eye_contact, inputs::EYE_CONTACT);
        on(self.emotions != prev.emotions, inputs::EMOTIONS);
        on(
            self.cube_connected != prev.cube_connected,
            inputs::CUBE_CONNECTED,
        );
        on(
            self.unexpected_movement != prev.unexpected_movement,
            inputs::UNEXPECTED_MOVEMENT,
        );
        on(self.hours_alive != prev.hours_alive, inputs::HOURS_ALIVE);
        on(self.night_time != prev.night_time, inputs::NIGHT_TIME);
        on(
            self.maintenance_reboot != prev.maintenance_reboot,
            inputs::MAINTENANCE_REBOOT,
        );
        on(self.alexa_active != prev.alexa_active, inputs::ALEXA);
        on(self.placed_on_slope != prev.placed_on_slope, inputs::SLOPE);
        on(
            self.obstacle_detected != prev.obstacle_detected,
            inputs::OBSTACLE,
        );
        on(
            self.salient_point_detected != prev.salient_point_detected,
            inputs::SALIENT_POINT,
        );
        on(self.motion_detected != prev.motion_detected, inputs::MOTION);
        on(
            self.beat_detected != prev.beat_detected
                || self.potential_beat_detected != prev.potential_beat_detected,
            inputs::BEAT,
        );
        on(self.behavior_timers != prev.behavior_timers, inputs::TIMERS);
        on(self.whiteboard != prev.whiteboard, inputs::WHITEBOARD);
        c | self.signals.changed_from(&prev.signals)
    }

    /// The bits of the activation gates this state blocks (spec §0 steps 2–5): 1 off its
    /// treads, 2 on the charger's contacts, 4 carrying, 8 no cube connection (see
    /// [`World::blocking`](robot_runtime::behavior::World::blocking)).
    pub fn blocking_gates(&self) -> u8 {
        let mut bits = 0;
        if self.off_treads != OffTreads::OnTreads {
            bits |= 1;
        }
        if self.on_charger {
            bits |= 2;
        }
        if self.carrying_object {
            bits |= 4;
        }
        if !self.cube_connected {
            bits |= 8;
        }
        bits
    }
}
