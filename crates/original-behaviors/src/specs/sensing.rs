//! Sensing and ambient reactions (OCP §2.2), plus the fork's PetDetection (not in OCP; from
//! the fork's source).

use super::types::KeyType::*;
use super::types::{
    opt, req, ClassData, Mods, FACE_SELECTION_PENALTIES_DEFAULT, FACE_SELECTION_PENALTIES_NOTE,
};

/// The sensing classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "ReactToSound",
        keys: &[
            req(
                "micDirectionReactionBehavior",
                Id,
                "G (global IDs only); must be class ReactToMicDirection; only its CLASS predicate is asked when deciding",
            ),
            req(
                "micAbsolutePowerThreshold",
                Float,
                "a sample at or above this power always counts",
            ),
            req(
                "micMinPowerThreshold",
                Float,
                "a sample at or above this power counts with confidence >= micConfidenceThresholdAtMinPower",
            ),
            req("micConfidenceThresholdAtMinPower", UInt, ""),
            opt(
                "FromSleep",
                Bool,
                "false",
                "not in OCP; read by every version of the class (asleep or awake trigger thresholds in older versions; the newest reads it and uses only the JSON thresholds)",
            ),
        ],
        mods: Mods::BASE.carry(true).charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "No intent pending and a valid loud sound direction (<= 1 s old, heard while in scope): delegates the mic-direction behavior; a new valid sound while active re-reacts. Ends AD-end.",
    },
    ClassData {
        name: "ReactToMicDirection",
        keys: &[req(
            "reaction_list",
            Object,
            "required by assert; optional members Default, OnCharger, OnSurface, OffTreads, each an object with optional enabled (bool, default true) and per-direction members TwelveOClock, OneOClock, ..., ElevenOClock, each {anim: trigger, dir: degrees, enabled: bool}; an unset direction falls back to Default, then to a turn of -30 deg x hour. Nested members are never key-checked in the original (OBC §1): unknown members (the fork's files use Ambient) are ignored",
        )],
        mods: Mods::BASE
            .carry(true)
            .off_treads(true)
            .charger(true)
            .always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A parent (ReactToSound, ReactToVoiceCommand) set a direction and reactions are enabled for the state (OnCharger > OffTreads > OnSurface): the direction's animation, else a point turn by dir if |dir| >= 5 deg. Ends AD-end; the direction is cleared on deactivation.",
    },
    ClassData {
        name: "ReactToTouchPetting",
        keys: &[
            req(
                "timeTilTouchCheck",
                Float,
                "seconds a touch is held before the bliss level advances",
            ),
            opt(
                "animGroupGetin",
                Trigger,
                "none",
                "OCP: required; the fork's reactToTouchPetting.json has none (an older version without a get-in): absent, no get-in",
            ),
            req(
                "animGroupNames",
                Array,
                "array of animation triggers, one per bliss level (the last level loops); need not stated in OCP: required here because the levels come from it",
            ),
            req(
                "animGroupNamesGetout",
                Array,
                "array of animation triggers, the get-out per bliss level; need not stated in OCP: required here like animGroupNames",
            ),
            req("timeTilBlissGetout", Float, ""),
            req("timeTilNonBlissGetout", Float, ""),
            req("numPetsToAdvanceBliss", Int, "int8"),
        ],
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Touch pressed: get-in, moods PettingStarted(+OnPalm), resets timer ReactToTouchPetting, advances bliss levels with purr audio. After release the (non-)bliss timeout -> level get-out -> self-cancel; RobotFallingEvent -> self-cancel at once; suggestion Nothing on deactivation at bliss >= 2.",
    },
    ClassData {
        name: "ReactToDarkness",
        keys: &[
            req("lookHeadAngleMin_deg", Float, ""),
            req("lookHeadAngleMax_deg", Float, ""),
            req("lookTurnAngleMin_deg", Float, ""),
            req("lookTurnAngleMax_deg", Float, ""),
            req(
                "lookWaitTime_s",
                Float,
                "darkness must be confirmed for this long",
            ),
            req("lookMinImages", UInt, "with at least this many images"),
            req("numOffChargerLooks", UInt, ""),
            req("numOnChargerLooks", UInt, ""),
            req("sleepInPlace", Bool, ""),
            req("reactionEmotion", Str, "a mood event name"),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["FindAndGoToHome"],
        summary: "Darkness confirmed by its private IlluminationDetected: random head/turn re-checks; enough dark -> reactionEmotion, resets timer ReactToIllumination, ReactToDarkness animation, then suggestion SleepOnCharger (on contacts), Sleep (no charger or sleepInPlace) or FindAndGoToHome. Ends self-cancel.",
    },
    ClassData {
        name: "ReactToMotion",
        keys: &[
            req("eyeMotionTimeout_s", Float, ""),
            req("eyeMotionShiftTimeout_s", Float, ""),
            req("ticksInIntervalForTurn", UInt, ""),
            req("turnIntervalSize", UInt, ""),
            opt("procedural", Bool, "false", "procedural eyes and turns instead of animations"),
            opt("procHeadAngle_deg", Float, "none", "required when procedural is true"),
            opt("procTurnAngle_deg", Float, "none", "required when procedural is true"),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Motion last tick in Left/Right/Top: eye shift toward the area (ReactToMotionLeft/Right/Up or procedural), turning when motion persists. Ends self-cancel at the eye timeout or when picked up; emergency get-out on interruption.",
    },
    ClassData {
        name: "ReactToHand",
        keys: &[],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "ExploringReactToHandGetIn while creeping toward the prox reading (10 mm if none), stops on unexpected movement; lifted -> Reaction animation, else lift animation (then reaction if lifted); GetOut. Ends AD-end.",
    },
    ClassData {
        name: "CheckForAndReactToSalientPoint",
        keys: &[
            req(
                "reactions",
                Array,
                "array of {salientPointType: string, and exactly one of animTrigger: trigger | behaviorID: behavior ID (A: own anonymous first, then global)}",
            ),
            req("visionMode", Str, "a VisionMode name, run while waiting"),
            opt("numFrames", Int, "1", "images to wait for"),
            opt("waitAnimTrigger", Trigger, "none", "looped while waiting"),
            opt("cooldown_sec", Float, "30", "per reaction; never fired = off cooldown"),
            opt("headAngle_deg", Float, "none", "if given, the head moves there first"),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Some reaction off cooldown: optional head move, waits numFrames images in visionMode; salient points of off-cooldown types seen -> a random one's animation or behavior, restarting its cooldown. Ends AD-end (at once after the wait if nothing seen).",
    },
    ClassData {
        name: "ReactToCubeTap",
        keys: &[
            opt("interactionDuration_s", Float, "0", "optional interaction loop length"),
            opt(
                "onChargerBehavior",
                Id,
                "none",
                "A (own anonymous first, then global); given -> the hook sets the on-charger modifier true",
            ),
        ],
        mods: Mods::BASE
            .carry(false)
            .off_treads(false)
            .always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Unused in the tree. A cube tapped within the response window: optional get-off-charger behavior, search animation by tap intensity, drive to the cube, optional interaction loop. The hook's on-charger modifier = (onChargerBehavior given): the builder sets it from the key. Ends AD-end.",
    },
    ClassData {
        name: "GreetAfterLongTime",
        keys: &[opt(
            "cooldown_s",
            Float,
            "none",
            "not in OCP: the fork's greetAfterLongTime.json gives the older class's fixed cooldown per name in seconds; given, it replaces the cooldown by the robot's age",
        )],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &["DriveOffChargerFace"],
        summary: "A named face back after the age-based cooldown (30 min .. 4 h), <= 5 s ago: drives off the charger platform first, turns to the face, GreetAfterLongTime animation. Ends AD-end.",
    },
    ClassData {
        name: "PossiblePerformance",
        keys: &[
            req("cooldown_hours", Float, ""),
            req("probability", Float, "chance of each roll"),
            req("period_hours", Float, "re-roll period while inactive and off cooldown"),
            req("animTrigger", Trigger, ""),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Off cooldown, last roll passed and a recognizable face seen in the last 2 s: plays animTrigger, starts the cooldown. Ends AD-end, or self-cancel 26 s after activation.",
    },
    ClassData {
        name: "DanceToTheBeatCoordinator",
        keys: &[
            req("listeningBehavior", Id, "G (global IDs only)"),
            req("longListeningBehavior", Id, "G (global IDs only)"),
            req("offChargerDancingBehavior", Id, "G (global IDs only)"),
            req("onChargerDancingBehavior", Id, "G (global IDs only)"),
        ],
        mods: Mods::BASE.carry(false).off_treads(false),
        claims: &[],
        drops: &[],
        hard_coded: &["DriveOffChargerStraight", "Exploring", "FindAndGoToHome"],
        summary: "No touch for 10 s, dance cooldowns expired or a beat: delegates listening; no beat -> ends; beat: on the platform with battery Full -> DriveOffChargerStraight, long listening, off-charger dance; on the platform -> on-charger dance; off -> off-charger dance. Ends AD-end.",
    },
    ClassData {
        name: "DanceToTheBeat",
        keys: &[
            req("useBackpackLights", Bool, ""),
            opt("backpackAnim", Trigger, "none", "need not stated in OCP"),
            opt("eyeHoldAnim", Trigger, "none", "need not stated in OCP"),
            opt("getOutAnim", Trigger, "none", "need not stated in OCP"),
            req(
                "danceSessions",
                Array,
                "non-empty array of {canListenForBeats: bool, playGetoutIfInterrupted: bool, dancePhrases: [{minBeats: int, maxBeats: int, multipleOf: int, anims: [trigger, ...]}]}",
            ),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Builds a dance sequence and plays it on the beat; resets timer DancingCooldown. Ends self-cancel on invalid config, when nothing is queued or delegated, or when the beat is lost (after the get-out if the session says so).",
    },
    ClassData {
        name: "ListenForBeats",
        keys: &[
            opt("preListeningAnim", Trigger, "none", "need not stated in OCP"),
            opt("listeningAnim", Trigger, "none", "need not stated in OCP"),
            opt("postListeningAnim", Trigger, "none", "need not stated in OCP"),
            opt("noBeatAnim", Trigger, "none", "need not stated in OCP"),
            req("minListeningTime_sec", Float, "must be < maxListeningTime_sec"),
            req("maxListeningTime_sec", Float, ""),
            req("cancelSelfIfBeatLost", Bool, ""),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Pre-listening animation, listening loop (resets timer ListenForBeatsCooldown each tick); after the minimum: beat -> post animation; timeout or lost beat (if configured) -> no-beat animation. Ends AD-end after the exit animation.",
    },
    ClassData {
        name: "ReactToGazeDirection",
        keys: &[opt(
            "searchForFaces",
            Bool,
            "false",
            "need and default not stated in OCP; false (the JSON null conversion) assumed",
        )],
        mods: Mods::BASE.carry(false).off_treads(false).charger(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A stable gaze direction from a face updated within 500 ms: turns toward the gazed-at point or face with Gazing... animations. Ends AD-end.",
    },
    ClassData {
        name: "ReactToBody",
        keys: &[
            opt(
                "driveOffChargerBehavior",
                Id,
                "none",
                "G (global IDs only); need not stated in OCP",
            ),
            opt(
                "shouldDriveStraightIfNotOnCharger",
                Bool,
                "false",
                "need and default not stated in OCP",
            ),
            opt(
                "drivingForwardDistance_mm",
                Float,
                "none",
                "need not stated in OCP",
            ),
            opt(
                "upperPortionLookUpPercent",
                Float,
                "none",
                "need not stated in OCP; the top share of the body's bounding box searched for a face",
            ),
            opt("trackingTimeout_sec", Float, "none", "need not stated in OCP"),
            opt(
                "faceSelectionPenalties",
                FacePenalties,
                FACE_SELECTION_PENALTIES_DEFAULT,
                FACE_SELECTION_PENALTIES_NOTE,
            ),
        ],
        mods: Mods::BASE
            .carry(false)
            .off_treads(false)
            .charger(true)
            .always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &["SearchWithinBoundingBox"],
        summary: "Dev folder. Drives off the charger or toward the person, looks up, searches the body's bounding box for a face (SearchWithinBoundingBox). Ends AD-end.",
    },
    ClassData {
        name: "PetDetection",
        keys: &[],
        mods: Mods::BASE
            .off_treads(true)
            .charger(true)
            .always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &["DriveOffChargerFace"],
        summary: "Not in OCP/OBC (a fork addition; from its source). A pet seen >= 6 times with an image height > 100 px while in scope and off cooldown: on the charger platform drives off (DriveOffChargerFace) first, then PetDetectionDog / PetDetectionCat; cooldown 15 s, every third activation 150-200 s. Ends AD-end.",
    },
];
