//! Dev and self-test classes (OCP §2.10): predicate true unless stated, no intents.

use super::types::KeyType::*;
use super::types::{opt, req, ClassData, Key, Mods};

/// The common self-test base: −AD, +charger.
const SELF_TEST: Mods = Mods::BASE.always_delegates(false).charger(true);

/// A dev class with no keys, no intents and no hard-coded IDs.
const fn plain(name: &'static str, mods: Mods, summary: &'static str) -> ClassData {
    ClassData {
        name,
        keys: &[],
        mods,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary,
    }
}

/// The capture keys DevImageCapture and DevEventSequenceCapture share (OCP §2.10 lists some
/// and ends with "…"; the full set and needs are from the fork's source).
const IMAGE_SAVE_PATH: Key = req(
    "save_path",
    Str,
    "folder under the camera cache; OCP lists it",
);
const IMAGE_QUALITY: Key = req("quality", Int, "int8 image save quality; OCP lists it");
const IMAGE_SCALE: Key = req("image_scale", Str, "an image cache size name; OCP lists it");
const IMAGE_RESIZE: Key = req(
    "resize_method",
    Str,
    "not named by OCP (its list ends with ...); read required by the fork's constructor with image_scale",
);
const USE_CAP_TOUCH: Key = req(
    "use_capacitive_touch",
    Bool,
    "OCP lists it; true: the touch sensor triggers, false: the power button",
);
const CLASS_NAMES: Key = opt(
    "class_names",
    Any,
    "[]",
    "OCP lists it; an array of strings or one string (lift-down switches class)",
);

/// The dev classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "CubeDrive",
        keys: &[
            opt("triggerLiftGs", Float, "0.5", "not in OCP: read by the fork's source"),
            opt("deadZoneSize", Float, "13.0", "not in OCP: read by the fork's source"),
            opt(
                "timeBetweenLiftActions",
                Float,
                "0.75",
                "not in OCP: read by the fork's source",
            ),
            opt("highHeadAngle", Float, "0.3", "not in OCP: read by the fork's source (rad)"),
            opt("lowHeadAngle", Float, "0.0", "not in OCP: read by the fork's source (rad)"),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Cube modifiers: RequiredLazy, connect in background. Drives with the connected cube's accelerometer as a steering wheel; lift toggles on a cube shake. Ends self-cancel when the cube connection is lost.",
    },
    ClassData {
        name: "DevBatteryLogging",
        keys: &[
            opt("wheelSpeed_mmps", Float, "none", "need not stated in OCP"),
            opt("liftSpeed_degps", Float, "none", "need not stated in OCP"),
            opt("headSpeed_degps", Float, "none", "need not stated in OCP"),
            opt("startMovingVoltage", Float, "none", "need not stated in OCP"),
            opt("stressCPU", Bool, "false", "need and default not stated in OCP"),
            opt("stressSpeaker", Bool, "false", "need and default not stated in OCP"),
            opt("driveOffChargerWhenFull", Bool, "false", "need and default not stated in OCP"),
            opt("doExploring", Bool, "false", "need and default not stated in OCP"),
        ],
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["ModeSelector"],
        summary: "Battery logging with optional motion / CPU / speaker stress, driving off the charger when full or exploring via ModeSelector. Runs until cancelled.",
    },
    ClassData {
        name: "DevCubeSpinnerConsole",
        keys: &[opt(
            "gameConfig",
            Object,
            "none",
            "the cube-spinner game configuration (shape not given by OCP)",
        )],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Cube modifier: RequiredLazy. The cube-spinner game driven from the console. Runs until cancelled.",
    },
    plain(
        "DevDesignCubeLights",
        Mods::BASE.always_delegates(false),
        "Cube light design tool. Runs until cancelled.",
    ),
    plain(
        "DevDisplayReadingsOnFace",
        Mods::BASE.always_delegates(false),
        "Shows sensor readings on the face. Runs until cancelled.",
    ),
    plain(
        "DevTestBlackjackViz",
        Mods::BASE.always_delegates(false),
        "Blackjack face-display test. Runs until cancelled.",
    ),
    plain(
        "DevTestSpriteBoxRemaps",
        Mods::BASE.always_delegates(false),
        "Sprite-box remap test. Runs until cancelled.",
    ),
    plain(
        "DevTouchDataCollection",
        Mods::BASE.always_delegates(false),
        "Touch-sensor data collection. Runs until cancelled.",
    ),
    ClassData {
        name: "DevViewCubeBackpackLights",
        keys: &[
            opt("cubeTriggers", Array, "[]", "array of cube light animation triggers; need not stated in OCP"),
            opt(
                "backpackTriggers",
                Array,
                "[]",
                "array of backpack light animation triggers; need not stated in OCP",
            ),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Cycles through the given cube and backpack light animations. Runs until cancelled.",
    },
    plain(
        "DevSquawkBoxTest",
        Mods::BASE,
        "Predicate: dev build only. Squawk-box audio test.",
    ),
    ClassData {
        name: "DevTurnInPlaceTest",
        keys: &[
            opt("loopForever", Bool, "false", "need and default not stated in OCP"),
            opt("gapBetweenTests_s", Float, "none", "need not stated in OCP"),
            opt("nRunsPerTest", Int, "none", "need not stated in OCP"),
            opt("tests", Array, "none", "the turn tests to run (shape not given by OCP)"),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Predicate: dev build only. Runs the turn-in-place tests nRunsPerTest times each, gapBetweenTests_s apart, optionally forever.",
    },
    ClassData {
        name: "DevImageCapture",
        keys: &[
            IMAGE_SAVE_PATH,
            IMAGE_QUALITY,
            IMAGE_SCALE,
            IMAGE_RESIZE,
            USE_CAP_TOUCH,
            req(
                "use_shutter_sound",
                Bool,
                "not named by OCP (its list ends with ...); read required by the fork's constructor",
            ),
            opt(
                "save_sensor_data",
                Bool,
                "false",
                "not named by OCP; read by the fork's constructor",
            ),
            CLASS_NAMES,
            opt(
                "vision_modes",
                Any,
                "[]",
                "not named by OCP; a VisionMode name or an array of them, run at Standard while active",
            ),
            opt(
                "multi_image_mode",
                Object,
                "none",
                "not named by OCP; {num_images_per_capture: int (req), distance_range_mm, head_angle_range_deg, body_angle_range_deg: [min, max]}: several images per capture at random poses",
            ),
        ],
        mods: Mods::BASE
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Mirror mode; a short touch saves an image (or a multi-pose series), a long touch toggles streaming to disk; lowering the lift switches class. Runs until cancelled.",
    },
    ClassData {
        name: "DevEventSequenceCapture",
        keys: &[
            IMAGE_SAVE_PATH,
            IMAGE_QUALITY,
            IMAGE_SCALE,
            IMAGE_RESIZE,
            USE_CAP_TOUCH,
            CLASS_NAMES,
            req(
                "sequence_setup_time",
                Float,
                "not named by OCP; seconds before streaming starts",
            ),
            req(
                "pre_event_capture_time",
                Float,
                "not named by OCP; seconds streamed before the event beep",
            ),
            req(
                "post_event_capture_time",
                Float,
                "not named by OCP; seconds streamed after it",
            ),
            req(
                "enable_random_head_tilt",
                Bool,
                "not named by OCP; read required by the fork's constructor but missing from its expected-key list (a dev build reports it as unexpected)",
            ),
        ],
        mods: Mods::BASE
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Touch release starts a timed sequence: setup, stream images before and after an event beep, write the sequence timings. Runs until cancelled.",
    },
    plain(
        "DockingTestSimple",
        Mods::BASE.always_delegates(false),
        "Predicate: its state is Init. Repeated docking test.",
    ),
    plain(
        "FactoryCentroidExtractor",
        Mods::BASE.carry(true).always_delegates(false),
        "Predicate: not delegating and not waiting for dots. Factory centroid extraction.",
    ),
    plain(
        "LiftLoadTest",
        Mods::BASE.always_delegates(false),
        "Predicate: can run and state Init or TestComplete. Lift load test.",
    ),
    plain(
        "PlannerTest",
        Mods::BASE.always_delegates(false),
        "Path planner test. Runs until cancelled.",
    ),
    plain(
        "PowerSaveTest",
        Mods::BASE
            .carry(true)
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        "Power-save test. Runs until cancelled.",
    ),
    plain(
        "PowerSaveStressTest",
        Mods::BASE
            .carry(true)
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        "Power-save stress test. Runs until cancelled.",
    ),
    plain(
        "SelfTest",
        SELF_TEST.off_treads(true),
        "Runs the self-test sequence (the SelfTest... steps), reading each step's result.",
    ),
    plain(
        "SelfTestButton",
        SELF_TEST.off_treads(true),
        "Self-test step (button), guarded by a timeout that sets a failure result.",
    ),
    plain(
        "SelfTestDockWithCharger",
        SELF_TEST,
        "Self-test step (dock with the charger), guarded by a timeout.",
    ),
    plain(
        "SelfTestDriftCheck",
        SELF_TEST,
        "Self-test step (drift check), guarded by a timeout.",
    ),
    plain(
        "SelfTestDriveForwards",
        SELF_TEST,
        "Self-test step (drive forwards), guarded by a timeout.",
    ),
    plain(
        "SelfTestInitChecks",
        SELF_TEST,
        "Self-test step (initial checks), guarded by a timeout.",
    ),
    ClassData {
        name: "SelfTestLookAtCharger",
        keys: &[
            opt("AngleToTurnToSeeTarget_deg", Float, "none", "need not stated in OCP"),
            opt("DistanceToDriveToSeeTarget_mm", Float, "none", "need not stated in OCP"),
            opt("ExpectedObjectType", Str, "none", "an ObjectType name; need not stated in OCP"),
            opt("ExpectedDistance_mm", Float, "none", "need not stated in OCP"),
        ],
        mods: SELF_TEST.carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Self-test step: turns and drives to see the charger marker and checks its distance, guarded by a timeout.",
    },
    plain(
        "SelfTestMotorCalibration",
        SELF_TEST,
        "Self-test step (motor calibration), guarded by a timeout.",
    ),
    plain(
        "SelfTestPickup",
        SELF_TEST,
        "Self-test step (pick-up), guarded by a timeout.",
    ),
    plain(
        "SelfTestPutOnCharger",
        SELF_TEST.off_treads(true),
        "Self-test step (put on the charger), guarded by a timeout.",
    ),
    plain(
        "SelfTestScreenAndBackpack",
        SELF_TEST,
        "Self-test step (screen and backpack lights), guarded by a timeout.",
    ),
    plain(
        "SelfTestSoundCheck",
        SELF_TEST,
        "Self-test step (sound check), guarded by a timeout.",
    ),
    plain(
        "SelfTestTouch",
        SELF_TEST.off_treads(true),
        "Self-test step (touch), guarded by a timeout.",
    ),
];
