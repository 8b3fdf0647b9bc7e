//! Charger, navigation, observing and exploring (OCP §2.5).

use super::types::KeyType::*;
use super::types::{opt, req, ClassData, Mods};

/// A key the newest class requires that older fork files omit.
const OLDER_FILES_OMIT: &str = "required by the newest class; optional here because older fork files omit it (the original's release build then reads the null value)";

/// A key older fork files carry that the newest class does not read (accepted, not read).
const OLDER_FILES_CARRY: &str =
    "not read by the newest class; older versions of the fork's files carry it";

/// The `driveDirectionCues` values (OCP §2.5 DriveOffCharger).
const DRIVE_DIRECTION_CUES_NOTE: &str = "verified non-empty in the original (an error log, not an assert) and omitted by three fork instances, so optional here: absent or empty leaves only the final procedural-straight attempts; array of strings, each one of straight, proceduralStraight, randomly, face, cube, micDirection, left, right; tried in order";

/// LookAroundInPlace's `params` object (OCP §2.5).
const LOOK_AROUND_PARAMS_NOTE: &str = "an object whose members are all required unless noted: behavior_DistanceFromRecentLocationMin_mm (float), behavior_CanCarryCube (bool; the hook copies it into the carry modifier), behavior_RecentLocationsMax (int), behavior_ShouldResetTurnDirection (bool), behavior_ResetBodyFacingOnStart (bool), behavior_ShouldLowerLift (bool), behavior_AngleOfFocus_deg (float; != 0 also requires behavior_NumberOfScansBeforeStop), behavior_LockTreadsDuringWaitAnims (bool, default false), s0_MainTurnCWChance, the s1_..s6_ body/head angle ranges, waits and head-change counts, s2_WaitAnimTrigger and s4_WaitAnimTrigger (triggers), and EITHER motionProfile (object) OR the three turn speeds sx_BodyTurnSpeed_degPerSec, sxt_HeadTurnSpeed_degPerSec, sxh_HeadTurnSpeed_degPerSec (both is a verify error)";

/// The navigation classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "DriveOffCharger",
        keys: &[
            opt("driveDirectionCues", Array, "[]", DRIVE_DIRECTION_CUES_NOTE),
            opt("extraDistanceToDrive_mm", Float, "60", "added to the charger length for proceduralStraight"),
            opt("maxFaceAge_s", Int, "600", "the face cue skips older faces"),
            opt("maxCubeAge_s", Int, "600", "the cube cue skips older cubes"),
        ],
        mods: Mods::BASE
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["DriveOffChargerRandomlyAnim"],
        summary: "On the charger platform: launch driving animations, then the cues in order (DriveOffChargerStraight/Left/Right animations, procedural straight, DriveOffChargerRandomlyAnim (only if randomly is listed), toward a face / cube, mic direction), then procedural straight, up to 10 attempts; off treads cancels the drive. Ends self-cancel (mood DriveOffCharger) once off the platform with nothing delegated.",
    },
    ClassData {
        name: "GoHome",
        keys: &[
            opt("backupStartAnimTrigger", Any, "none", OLDER_FILES_CARRY),
            opt("backupEndAnimTrigger", Any, "none", OLDER_FILES_CARRY),
            opt("backupLoopAnimTrigger", Any, "none", OLDER_FILES_CARRY),
            req("useCliffSensorCorrection", Bool, ""),
            opt("leftTurnAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("rightTurnAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("drivingStartAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("drivingEndAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("drivingLoopAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("raiseLiftAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("nuzzleAnimTrigger", Trigger, "none", "need not stated in OCP"),
            req("driveToRetryCount", Int, ""),
            req("turnToDockRetryCount", Int, ""),
            req("mountChargerRetryCount", Int, ""),
        ],
        mods: Mods::BASE.charger(false).carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &[
            "ClearChargerArea",
            "RequestHomeBecauseStuck",
            "WiggleBackOntoChargerFromPlatform",
            "RobustChargerObservation",
        ],
        summary: "Not on the contacts and a charger located: > 3 activations in 60 s -> ChargerDockingFailure only; else faces and observes the charger, clears the docking area, drives to the pre-dock pose, turns, backs onto the contacts (wiggling if only on the platform), nuzzles; repeated failures -> RequestHomeBecauseStuck. Ends AD-end.",
    },
    ClassData {
        name: "FindHome",
        keys: &[
            opt("searchTurnEndAnimTrigger", Any, "none", OLDER_FILES_CARRY),
            opt("searchTurnWaitingForImagesAnimTrigger", Any, "none", OLDER_FILES_CARRY),
            opt("useExposureCycling", Any, "none", OLDER_FILES_CARRY),
            opt("numImagesToWaitFor", Any, "none", OLDER_FILES_CARRY),
            opt("searchTurnAnimTrigger", Trigger, "none", "need not stated in OCP"),
            opt("postSearchAnimTrigger", Trigger, "none", "need not stated in OCP"),
            req("minSearchAngleSweep_deg", Float, ""),
            req("recentSearchWindow_sec", Float, ""),
            req("minDrivingDist_mm", Float, ""),
            req("maxDrivingDist_mm", Float, ""),
            req("maxSearchTurns", UInt, "uint8"),
            req("maxNumRecentSearches", UInt, "uint8"),
            opt("numSearchesBeforePlayingPostSearchAnim", Int, "0", OLDER_FILES_OMIT),
        ],
        mods: Mods::BASE.charger(false).carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &["RobustChargerObservation"],
        summary: "Places a carried cube; search turns in place, random drives to new search poses; post-search animation after N searches. Ends self-cancel after maxNumRecentSearches searches within recentSearchWindow_sec (else by the instance's cancel condition).",
    },
    ClassData {
        name: "RequestToGoHome",
        keys: &[
            req(
                "normal",
                Object,
                "{numRequests: uint8 (req), requestAnimTrigger, getoutAnimTrigger, waitLoopAnimTrigger: triggers, idleWaitTime_sec: float (req)}; need of the object itself not stated in OCP: required here because its members are",
            ),
            req(
                "severe",
                Object,
                "same shape as normal; played after the normal requests",
            ),
            opt("pickupAnimTrigger", Trigger, "none", ""),
            req("maxFaceAge_sec", Float, ""),
        ],
        mods: Mods::BASE.charger(false).carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &["ObservingFindFaces"],
        summary: "Places a carried cube, turns to a recent face or searches (ObservingFindFaces), then request -> wait loop -> get-out, normal then severe. Ends AD-end after both counts (the low-power step is a no-op).",
    },
    ClassData {
        name: "ClearChargerArea",
        keys: &[
            req("maxNumAttempts", Int, "must be > 0"),
            opt("tryToPickUpCube", Bool, "false", OLDER_FILES_OMIT),
        ],
        mods: Mods::BASE.charger(false).carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &["PickupCube", "RequestHomeBecauseStuck"],
        summary: "A light cube in the charger's docking area: puts a carried cube down, then picks the cube up and moves it or rams it out; too many attempts -> RequestHomeBecauseStuck. Ends AD-end.",
    },
    ClassData {
        name: "WiggleOntoChargerContacts",
        keys: &[],
        mods: Mods::BASE.charger(true).off_treads(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Not on the contacts and on treads (or InAir with pitch -25..10 deg): backs 15 mm, forward 6 mm, verifies after 0.25 s, repeats. Ends AD-end once verified on the contacts.",
    },
    ClassData {
        name: "RobustChargerObservation",
        keys: &[
            req("numImageCompositingCyclesToWaitFor", Int, ""),
            req("numCyclingExposureCyclesToWaitFor", Int, ""),
        ],
        mods: Mods::BASE.charger(false).carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Checks illumination, levels the head; low light: LowlightChargerSearchGetin, max LCD brightness, image compositing / exposure cycling while looping; else waits for images. Ends AD-end (low-light get-out on interruption).",
    },
    ClassData {
        name: "ConfirmObject",
        keys: &[
            req("objectTypes", Array, "array of ObjectType names"),
            opt(
                "minAgeForActivation_s",
                Float,
                "none",
                "used as MILLISECONDS in the object-age test (OCP §5 item 2)",
            ),
            opt("maxNumAttempts", Int, "-1", "-1 = unlimited"),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "An old known object of objectTypes not seen now: drives to look at the known objects, farthest first. Ends self-cancel when one is seen, none remain, or attempts run out.",
    },
    ClassData {
        name: "Exploring",
        keys: &[
            req("minSearchRadius_m", Float, ""),
            req("maxSearchRadius_m", Float, ""),
            req("maxChargerDistance_m", Float, ""),
            req("pAcceptKnownAreas", Float, "probability"),
            opt("allowNoCharger", Bool, "false", "true: runs without a known charger"),
            opt("motionProfile", Object, "none", "a path motion profile object"),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[
            "ExploringExamineObstacle",
            "ExploringReferenceHuman",
            "ShortLookAroundForFaceAndCube",
        ],
        summary: "Samples goal poses toward prox obstacles and unexplored areas around the charger, drives to them, examining obstacles, referencing humans and taking look-around pit stops (gentle interruption allowed there). Ends self-cancel with an end reason (no poses, on charger, interruptions, charger unknown, no plan, done).",
    },
    ClassData {
        name: "ExploringExamineObstacle",
        keys: &[],
        mods: Mods::BASE.carry(true).off_treads(true).charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &["ExploringBumpObject", "ExploringReferenceHuman", "ReactToHand"],
        summary: "An obstacle ahead within activation distance or a new side obstacle, with a navigation map: turns to it (ExploringHuhFar / huh close-far), checks for a hand (ReactToHand), scans with prox, may drive closer, bumps or references a human. Ends AD-end / self-cancel when the scan completes.",
    },
    ClassData {
        name: "BumpObject",
        keys: &[
            req("minDist_mm", Int, ""),
            opt("maxDist_mm", Float, "infinity", ""),
            opt("pEvil", Float, "0", "probability"),
            opt("pBumpWhenNotEvil", Float, "0", "probability"),
            opt("pBumpWhenEvil", Float, "0", "probability"),
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &["ExploringReferenceHuman"],
        summary: "Prox object within [minDist_mm, maxDist_mm]: slow driving, PokeObjectGetIn/DriveLoop/GetOut up to the object, maybe an evil second bump or BumpObjectFastGetOut, maybe references a human. Ends AD-end.",
    },
    ClassData {
        name: "LookAroundInPlace",
        keys: &[req("params", Object, LOOK_AROUND_PARAMS_NOTE)],
        mods: Mods::BASE.off_treads(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Not near one of the last recent places it ran: optional lift down, then opposite turn -> pause -> main turn -> head looks -> final turn, within a cone if behavior_AngleOfFocus_deg != 0. The carry modifier = params.behavior_CanCarryCube (the builder sets it). Ends AD-end after the cone's scans; without a cone never.",
    },
    ClassData {
        name: "ObservingWithoutTurn",
        keys: &[
            req(
                "small_motion_period_s",
                Graph,
                "x = seconds of the named timer, y = seconds between small motions; need not stated in OCP: required here (the periods come from it)",
            ),
            opt("small_motion_period_random_factor", Float, "0", ""),
            req("look_up_period_multiplier", Float, ""),
            req("look_straight_period_multiplier", Float, ""),
            opt(
                "behaviorTimer",
                Str,
                "none",
                "a BehaviorTimer name whose elapsed time scales the periods; required by the newest class, optional here because the older class (ObservingOnCharger) has none and scales by the time on the charger",
            ),
        ],
        mods: Mods::BASE.charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Alternates looking up / straight with small idle motions (Observing... animations), the periods from the graph of the named timer's elapsed time; gentle interruption allowed except while transitioning. Never ends by itself.",
    },
    ClassData {
        name: "ObservingLookAtFaces",
        keys: &[
            opt("searchBehavior", Id, "none", "A (own anonymous first, then global); required by the newest class, optional here because older fork files omit it (then no search)"),
            opt("searchTimeout_sec", Float, "-1", "-1 = no timeout"),
            opt("staringTime_sec", Float, "6", ""),
        ],
        mods: Mods::BASE.off_treads(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A recent face -> turns to it (InteractWithFacesInitialNamed/Unnamed) and stares; else runs the search behavior; gentle interruption allowed except while turning. Ends self-cancel at the search timeout.",
    },
    ClassData {
        name: "LookForFaceAndCube",
        keys: &[
            req("bodyTurnSpeed_degPerSec", Float, ""),
            req("headTurnSpeed_degPerSec", Float, ""),
            req("face_headAngleAbsRangeMin_deg", Float, ""),
            req("face_headAngleAbsRangeMax_deg", Float, ""),
            req("face_bodyAngleRelRangeMin_deg", Float, ""),
            req("face_bodyAngleRelRangeMax_deg", Float, ""),
            req("face_sidePicks", UInt, "uint8"),
            req("cube_sidePicks", UInt, "uint8"),
            req(
                "cube_headAngleAbsRangeMin_rad",
                Float,
                "the key says _rad but the value is DEGREES (converted; OCP §5 item 4)",
            ),
            req(
                "cube_headAngleAbsRangeMax_rad",
                Float,
                "the key says _rad but the value is DEGREES (OCP §5 item 4)",
            ),
            req(
                "cube_bodyAngleRelRangeMin_rad",
                Float,
                "the key says _rad but the value is DEGREES (OCP §5 item 4)",
            ),
            req(
                "cube_bodyAngleRelRangeMax_rad",
                Float,
                "the key says _rad but the value is DEGREES (OCP §5 item 4)",
            ),
            req("verifySeenFaces", Bool, ""),
            req("stopBehaviorOnAnyFace", Bool, ""),
            req("stopBehaviorOnNamedFace", Bool, ""),
            opt(
                "stopBehaviorOnCube",
                Bool,
                "false",
                "true: the class predicate is false while a cube exists",
            ),
            req("lookInPlaceAnimTrigger", Trigger, "may be the empty string (no animation)"),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Looks center and to the sides for faces, then for cubes. Ends AD-end, or self-cancel when a stop condition is seen.",
    },
    ClassData {
        name: "ProxGetToDistance",
        keys: &[
            req("goalDistance_mm", Float, ""),
            req("tolerence_mm", Float, "spelled tolerence"),
            req("endWhenGoalReached", Bool, ""),
            opt(
                "distMM_speedMM_Graph",
                Graph,
                "none",
                "x = prox distance (mm), y = driving speed (mm/s)",
            ),
        ],
        mods: Mods::BASE.carry(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Not within tolerence_mm of goalDistance_mm: drives straight to close the distance at the graph's speed. Ends self-cancel when the prox loses the object, or at the goal if endWhenGoalReached.",
    },
    ClassData {
        name: "PounceWithProx",
        keys: &[],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Re-reads the base wantsToBeActivatedCondition as its private in-range condition. Head to ground, lift to carry, waits for motion or 5 s, pounces (resets timer PounceOnMotion), PounceSuccess/Fail by lift/pitch. Ends self-cancel when the in-range condition fails while waiting or the prox loses the object.",
    },
];
