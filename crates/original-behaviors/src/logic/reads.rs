//! The inputs class predicates read, named once for every family (a [`Read`] per robot-state
//! field or group, with the scenario `state` key that sets it).

use robot_runtime::behavior::Inputs;

use crate::inputs;
use crate::predicate::Read;

/// Off-treads state and its change time (`off_treads`).
pub const OFF_TREADS: Read = Read::new("off-treads state (`off_treads`)", inputs::OFF_TREADS);
/// Being held (`being_held`).
pub const BEING_HELD: Read = Read::new("being held (`being_held`)", inputs::BEING_HELD);
/// Held in a palm (`held_in_palm`).
pub const PALM: Read = Read::new("held in a palm (`held_in_palm`)", inputs::PALM);
/// The cliff sensors (`cliffs`).
pub const CLIFFS: Read = Read::new("cliff sensors (`cliffs`)", inputs::CLIFFS);
/// Cliff stops and put-downs onto a cliff (`cliff_stop`; put-downs derived).
pub const CLIFF_EVENTS: Read = Read::new(
    "cliff stops and put-downs on a cliff (`cliff_stop`)",
    inputs::CLIFF_EVENTS,
);
/// Picked up (`picked_up`).
pub const PICKED_UP: Read = Read::new("picked up (`picked_up`)", inputs::PICKED_UP);
/// On the charger's contacts (`on_charger`).
pub const ON_CHARGER: Read =
    Read::new("on the charger contacts (`on_charger`)", inputs::ON_CHARGER);
/// On the charger platform (`on_charger_platform`), and since when.
pub const ON_PLATFORM: Read = Read::new(
    "on the charger platform (`on_charger_platform`)",
    inputs::ON_CHARGER_PLATFORM,
);
/// Carrying an object (`carrying_object`).
pub const CARRYING: Read = Read::new("carrying an object (`carrying_object`)", inputs::CARRYING);
/// The battery level and when it left Full (`battery_level`).
pub const BATTERY: Read = Read::new("battery level (`battery_level`)", inputs::BATTERY);
/// The touch sensor, its presses and changes (`touched`).
pub const TOUCH: Read = Read::new("touch sensor (`touched`)", inputs::TOUCH);
/// Head and lift calibration (`motor_calibration`, `head_calibrated`, ...).
pub const CALIBRATION: Read = Read::new(
    "head and lift calibration (`motor_calibration`, `head_out_of_bounds`, ...)",
    inputs::CALIBRATION,
);
/// The last loud sound (`sound`).
pub const SOUND: Read = Read::new("loud sound direction (`sound`)", inputs::SOUND);
/// The SDK's control request and lock (`sdk_control`, `sdk_lock`).
pub const SDK: Read = Read::new(
    "SDK control and lock (`sdk_control`, `sdk_lock`)",
    inputs::SDK,
);
/// Settings: volume and its notifications, the eye color and its updates (`volume`,
/// `volume_changed`, `eye_color`, `eye_color_update`).
pub const SETTINGS: Read = Read::new(
    "settings: volume, eye color (`volume`, `volume_changed`, `eye_color`, `eye_color_update`)",
    inputs::SETTINGS,
);
/// The ambient light (`illumination`).
pub const ILLUMINATION: Read = Read::new("ambient light (`illumination`)", inputs::ILLUMINATION);
/// Motion in the camera image (`motion`, `motion_detected`).
pub const MOTION: Read = Read::new("motion seen (`motion`)", inputs::MOTION);
/// Face memory (`faces`).
pub const FACES: Read = Read::new("faces (`faces`)", inputs::FACES);
/// Face events: renamed faces, gaze, named sightings (`face_renamed`, `gaze`, `faces`).
pub const FACE_EVENTS: Read = Read::new(
    "face events (`face_renamed`, `gaze`, named `faces`)",
    inputs::FACE_EVENTS,
);
/// Eye contact (`eye_contact`).
pub const EYE_CONTACT: Read = Read::new("eye contact (`eye_contact`)", inputs::EYE_CONTACT);
/// Located objects: chargers and cubes (`objects`).
pub const OBJECTS: Read = Read::new("located objects (`objects`)", inputs::OBJECTS);
/// The cube connection (`cube_connected`).
pub const CUBE_CONNECTED: Read = Read::new(
    "the cube connection (`cube_connected`)",
    inputs::CUBE_CONNECTED,
);
/// Cube taps, a cube in the charger area (`cube_tapped`, `cube_in_charger_area`).
pub const CUBE_EVENTS: Read = Read::new(
    "cube taps and the charger area (`cube_tapped`, `cube_in_charger_area`)",
    inputs::CUBE_EVENTS,
);
/// The proximity sensor (`prox_mm`).
pub const PROX: Read = Read::new("proximity sensor (`prox_mm`)", inputs::PROX);
/// Pitch and roll (`pitch_deg`, `roll_deg`).
pub const POSE: Read = Read::new("pitch and roll (`pitch_deg`, `roll_deg`)", inputs::POSE);
/// The accelerometer (`accel_magnitude`).
pub const ACCEL: Read = Read::new("accelerometer (`accel_magnitude`)", inputs::ACCEL);
/// The power button and the shutdown animation (`power_button_held`, `shutdown_anim`).
pub const POWER_BUTTON: Read = Read::new(
    "power button (`power_button_held`, `shutdown_anim`)",
    inputs::POWER_BUTTON,
);
/// Alexa (`alexa_state`, `alexa_sign`, `alexa_active`).
pub const ALEXA: Read = Read::new("Alexa (`alexa_state`, `alexa_sign`)", inputs::ALEXA);
/// The user timer (`timer_s`, `timer_cleared`).
pub const USER_TIMER: Read = Read::new("the user timer (`timer_s`)", inputs::USER_TIMER);
/// System facts (`wall_time_known`, `storage_full`, `power_save`, `animation_playing`,
/// `user_defined_tree`, `dev_build`).
pub const SYSTEM: Read = Read::new(
    "system facts (`wall_time_known`, `storage_full`, `power_save`, ...)",
    inputs::SYSTEM,
);
/// Feature flags (`features`).
pub const FEATURES: Read = Read::new("features (`features`)", inputs::FEATURES);
/// The behavior timers (`reset_timers`).
pub const TIMERS: Read = Read::new("behavior timers (`reset_timers`)", inputs::TIMERS);
/// The whiteboard's suggestions (`suggestion`).
pub const WHITEBOARD: Read = Read::new("whiteboard (`suggestion`)", inputs::WHITEBOARD);
/// Beats (`beat_detected`).
pub const BEAT: Read = Read::new("beats (`beat_detected`)", inputs::BEAT);
/// Salient points (`salient_point_detected`).
pub const SALIENT_POINT: Read = Read::new(
    "salient points (`salient_point_detected`)",
    inputs::SALIENT_POINT,
);
/// Obstacles (`obstacle_detected`).
pub const OBSTACLE: Read = Read::new("obstacles (`obstacle_detected`)", inputs::OBSTACLE);
/// The habitat belief (`in_habitat`).
pub const HABITAT: Read = Read::new("habitat belief (`in_habitat`)", inputs::HABITAT);
/// Mood (`simple_mood`, `emotions`).
pub const MOOD: Read = Read::new(
    "mood (`simple_mood`, `emotions`)",
    inputs::MOOD.with(inputs::EMOTIONS),
);
/// Hours alive (`hours_alive`).
pub const HOURS_ALIVE: Read = Read::new("robot age (`hours_alive`)", inputs::HOURS_ALIVE);
/// Night time (`night_time`).
pub const NIGHT_TIME: Read = Read::new("night time (`night_time`)", inputs::NIGHT_TIME);
/// Unexpected movement (`unexpected_movement`).
pub const UNEXPECTED_MOVEMENT: Read = Read::new(
    "unexpected movement (`unexpected_movement`)",
    inputs::UNEXPECTED_MOVEMENT,
);
/// The stack and scope (what is active).
pub const STACK: Read = Read::new("the behavior stack", Inputs::STACK);
/// The intent component.
pub const INTENTS: Read = Read::new("user intents", Inputs::INTENTS);
