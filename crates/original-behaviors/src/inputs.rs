//! The world inputs of the original robot's state ([`RobotState`](crate::RobotState)): one
//! [`Inputs`] bit per field, or per group of fields that change together, of the 61 bits
//! the runtime leaves to the world ([`Inputs::world`]). Conditions declare what they read
//! in these terms, and [`RobotState::changed_inputs`](crate::RobotState) reports them, so
//! the runner's cached answers are recomputed exactly when what they read changed.
//!
//! **Room to grow.** 49 bits are used (38 for the conditions' fields, 11 for the class
//! predicates' [`Signals`](crate::robot_state::Signals), which share bits by group: the
//! `ALEXA`, `MOTION`, `TOUCH`, `BATTERY` and `ON_CHARGER_PLATFORM` bits also cover the
//! signals of the same subsystem). Fields share a bit by group (the sensors of one
//! subsystem, the notifications of one service): a shared bit only costs an answer that reads one field a
//! recomputation when another of its group changes, never a wrong answer. Keep a group's
//! fields ones that tend to change together, and say here which fields share a bit.

use robot_runtime::behavior::Inputs;

macro_rules! inputs {
    ($($(#[$doc:meta])* $name:ident = $bit:expr;)*) => {
        $($(#[$doc])* pub const $name: Inputs = Inputs::world($bit);)*
        /// Every input of the robot state.
        pub const ROBOT: Inputs = Inputs::NONE$(.with($name))*;
    };
}

inputs! {
    /// The off-treads state and its change time.
    OFF_TREADS = 0;
    /// Being held and its change time.
    BEING_HELD = 1;
    /// Held in a palm and its times.
    PALM = 2;
    /// The cliff sensors and their per-count times.
    CLIFFS = 3;
    /// The simple mood and its transitions.
    MOOD = 4;
    /// The last poke.
    POKE = 5;
    /// The touch sensor.
    TOUCH = 6;
    /// The last engine error code.
    ENGINE_ERROR = 7;
    /// The feature flags and their default.
    FEATURES = 8;
    /// Picked up.
    PICKED_UP = 9;
    /// On the charger's contacts.
    ON_CHARGER = 10;
    /// On the charger platform.
    ON_CHARGER_PLATFORM = 11;
    /// Carrying an object.
    CARRYING = 12;
    /// The battery level.
    BATTERY = 13;
    /// CPU and battery temperatures.
    TEMPERATURES = 14;
    /// Too hot to charge.
    TOO_HOT = 15;
    /// The habitat belief.
    HABITAT = 16;
    /// The user holds a cube.
    USER_HOLDING_CUBE = 17;
    /// The proximity sensor.
    PROX = 18;
    /// Pitch and roll.
    POSE = 19;
    /// The accelerometer magnitude.
    ACCEL = 20;
    /// Located objects.
    OBJECTS = 21;
    /// Face memory.
    FACES = 22;
    /// Eye contact.
    EYE_CONTACT = 23;
    /// Emotion values.
    EMOTIONS = 24;
    /// The cube connection.
    CUBE_CONNECTED = 25;
    /// Unexpected movement.
    UNEXPECTED_MOVEMENT = 26;
    /// Hours alive.
    HOURS_ALIVE = 27;
    /// Night time.
    NIGHT_TIME = 28;
    /// Maintenance reboot.
    MAINTENANCE_REBOOT = 29;
    /// An Alexa interaction.
    ALEXA = 30;
    /// Placed on a slope.
    SLOPE = 31;
    /// An obstacle.
    OBSTACLE = 32;
    /// A salient point.
    SALIENT_POINT = 33;
    /// Motion.
    MOTION = 34;
    /// A beat or a possible beat.
    BEAT = 35;
    /// The behavior timers.
    TIMERS = 36;
    /// The whiteboard (suggestions, exploring cooldown).
    WHITEBOARD = 37;
    /// Cliff stops and put-downs onto a cliff ([`Signals`](crate::robot_state::Signals)).
    CLIFF_EVENTS = 38;
    /// Head and lift calibration: started/stopped, calibrated, out of bounds, encoders.
    CALIBRATION = 39;
    /// The last loud sound (mic direction), and the direction handed to the mic-direction
    /// reaction.
    SOUND = 40;
    /// The SDK's control level and behavior lock.
    SDK = 41;
    /// Settings: the master volume and its notifications, the eye color and its updates.
    SETTINGS = 42;
    /// The ambient-light belief.
    ILLUMINATION = 43;
    /// Face events: renamed faces, gaze, named faces' sightings.
    FACE_EVENTS = 44;
    /// The power button and the shutdown-animation message.
    POWER_BUTTON = 45;
    /// The user timer.
    USER_TIMER = 46;
    /// System facts: wall time known, storage full, power save, an animation playing, the
    /// user-defined tree, a dev build, a wifi network configured.
    SYSTEM = 47;
    /// Cube taps and a cube in the charger's docking area.
    CUBE_EVENTS = 48;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_robot_input_is_a_world_bit() {
        for f in [OFF_TREADS, WHITEBOARD, TIMERS, BEAT] {
            assert!(f.intersects(ROBOT));
            assert!(f.intersects(Inputs::WORLD));
        }
        assert!(!Inputs::INTENTS.intersects(ROBOT));
        assert!(!Inputs::STACK.intersects(ROBOT));
    }
}
