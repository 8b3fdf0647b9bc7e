//! Faces (OCP §2.6).

use super::types::KeyType::*;

/// A key older fork files carry that the newest class does not read (accepted, not read).
const OLDER_FILES_CARRY: &str =
    "not read by the newest class; older versions of the fork's files carry it";

use super::types::{
    opt, req, ClassData, Mods, FACE_SELECTION_PENALTIES_DEFAULT, FACE_SELECTION_PENALTIES_NOTE,
};

/// The face classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "FindFaceAndThen",
        keys: &[
            req("timeUntilCancelFaceLooking_s", Float, ""),
            opt("timeUntilCancelFollowup_s", Float, "-1", "-1 = the follow-up is never cancelled"),
            req("shouldLeaveChargerFirst", Bool, ""),
            opt(
                "driveOffChargerBehavior",
                Id,
                "none",
                "A (own anonymous first, then global); required when shouldLeaveChargerFirst is true",
            ),
            opt("startsWithMicDirection", Bool, "true", ""),
            opt(
                "alwaysDetectFaces",
                Bool,
                "false",
                "true: Faces vision (low) while merely in scope",
            ),
            opt(
                "searchForFaceBehavior",
                Id,
                "none",
                "A (own anonymous first, then global); given -> timeUntilCancelFaceSearch_s is required",
            ),
            opt(
                "timeUntilCancelFaceSearch_s",
                Float,
                "none",
                "required when searchForFaceBehavior is given",
            ),
            opt(
                "behavior",
                Id,
                "none",
                "A (own anonymous first, then global); the follow-up, handed the face",
            ),
            opt("callSetFaceOnBehavior", Bool, "true", ""),
            opt(
                "exitOnceFound",
                Bool,
                "false",
                "must equal (behavior not given)",
            ),
            opt(
                "useBodyDetector",
                Bool,
                "true",
                "true: additionalLookTimeIfSawBody_s and additionalSearchTimeIfSawBody_s are required",
            ),
            opt(
                "additionalLookTimeIfSawBody_s",
                Float,
                "none",
                "required when useBodyDetector is true (its default)",
            ),
            opt(
                "additionalSearchTimeIfSawBody_s",
                Float,
                "none",
                "required when useBodyDetector is true (its default)",
            ),
            opt("upperPortionLookUpPercent", Float, "0.3", "read with the body detector"),
            opt("animWhenSeesFace", Trigger, "none", ""),
            opt("animWhileSearching", Trigger, "none", ""),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["SearchWithinBoundingBox"],
        summary: "On the charger platform: drive off first if configured; else mic direction, a recent face or the current direction; then the search behavior (a seen body extends the time, SearchWithinBoundingBox). Found: optional animation, then exit or the follow-up behavior (cancelled after its timeout). Ends self-cancel when the timers run out or after the follow-up.",
    },
    ClassData {
        name: "FindFaces",
        keys: &[
            opt("maxFaceAgeToLook_ms", Int, "0", ""),
            req(
                "stoppingCondition",
                Enum(&["AnyFace", "NewFace", "Timeout", "None"]),
                "None: older fork files' value (no stopping condition of its own: the search runs until it ends)",
            ),
            req("searchBehavior", Id, "G (global IDs only)"),
            opt(
                "timeout_sec",
                Float,
                "none",
                "must be > 0 with stoppingCondition Timeout",
            ),
        ],
        mods: Mods::BASE.off_treads(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "AnyFace with a recent face -> nothing; else delegates the search behavior and stops it on the stopping condition. Ends AD-end.",
    },
    ClassData {
        name: "DriveToFace",
        keys: &[
            req("minDriveToFaceDistanceKey_mm", Float, ""),
            opt(
                "trackFaceOnceKnown",
                Bool,
                "true",
                "true: timeUntilCancelFaceTrack_s is required",
            ),
            opt(
                "timeUntilCancelFaceTrack_s",
                Float,
                "none",
                "required when trackFaceOnceKnown is true (its default)",
            ),
            opt(
                "animTooClose",
                Trigger,
                "none",
                "need not stated in OCP; played when the face is already closer than the minimum",
            ),
            opt("animDriveOverride", Trigger, "none", ""),
            opt("initialAnimation", Trigger, "none", ""),
            opt("animationAfterDrive", Trigger, "none", ""),
            opt("resumeAnimation", Trigger, "none", "must be given with maxNumResumes"),
            opt("maxNumResumes", Int, "0", "must be given with resumeAnimation"),
            opt("maxNumFailures", Int, "2", ""),
            opt(
                "findFaceBehavior",
                Id,
                "none",
                "A (own anonymous first, then global); must be class FindFaceAndThen; required by the newest class (its predicate needs it resolved), optional here because older fork files omit it (their class found the face itself)",
            ),
            opt("motionProfile", Object, "none", "a path motion profile object"),
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &["imperative_come"],
        drops: &[],
        hard_coded: &[],
        summary: "imperative_come pending (claimed, resumes reset) or resumed <= 3 ticks after ReactToCliff interrupted it: finds a face, drives to minDriveToFaceDistanceKey_mm (too close -> animTooClose), success animation, tracks the face. Ends self-cancel when tracking time runs out; AD-end after maxNumFailures failed drives.",
    },
    ClassData {
        name: "LookAtMe",
        keys: &[
            opt("panTolerance_deg", Float, "-1", ""),
            opt("animGetIn", Trigger, "none", ""),
            opt("animLoop", Trigger, "none", ""),
            opt("animGetOut", Trigger, "none", ""),
            opt("numLoops", Int, "0", "read only with animLoop"),
            opt("playEmergencyGetOut", Bool, "false", "read only with animGetOut"),
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A parent handed it a face: tracks it (head only on the contacts) alongside get-in -> loop -> get-out; when tracking ends the loop stops after its pass. Ends AD-end.",
    },
    ClassData {
        name: "SayName",
        keys: &[
            opt("knowNameAnimation", Trigger, "MeetVictorSayNameAgain", ""),
            opt("dontKnowNameAnimation", Trigger, "MeetVictorSawWrongFace", ""),
            opt("dontKnowTextKey", LocaleKey, "none", ""),
            opt("waitForRecognitionMaxTime_sec", Float, "none", ""),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["DefaultTextToSpeechLoop"],
        summary: "A parent handed it a face: says the best-guess name (as a guess if unconfirmed) via DefaultTextToSpeechLoop, or \"don't know\" after the wait. Ends when done.",
    },
    ClassData {
        name: "SearchWithinBoundingBox",
        keys: &[
            req("howManySearches", Int, "int8"),
            req("waitBeforeTurning_s", Float, ""),
        ],
        mods: Mods::BASE
            .carry(false)
            .charger(false)
            .always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Turns head/body to random points inside the person bounding box set by the parent, waiting between. Ends AD-end after the searches.",
    },
    ClassData {
        name: "LookAtFaceInFront",
        keys: &[opt("confirmFace", Bool, "true", "")],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Turns to a face seen since activation; else head to max, waits for face images and turns when one appears. Ends AD-end.",
    },
    ClassData {
        name: "TurnToFace",
        keys: &[],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A face observed at the last face-observation time (stored as the target by the predicate): turns toward it. Ends AD-end.",
    },
    ClassData {
        name: "InteractWithFaces",
        keys: &[
            opt("chanceSayName", Any, "none", OLDER_FILES_CARRY),
            req("minTimeToTrackFaceLowerBound_s", Float, ""),
            req("minTimeToTrackFaceUpperBound_s", Float, ""),
            req("maxTimeToTrackFaceLowerBound_s", Float, ""),
            req(
                "maxTimeToTrackFaceUpperBound_s",
                Float,
                "an inconsistent value is repaired with the min LOWER bound (OCP §5 item 3)",
            ),
            req("noEyeContactTimeout_s", Float, ""),
            req("trackingTimeout_s", Float, ""),
            req("minTrackingTiltAngle_deg", Float, ""),
            req("minTrackingPanAngle_deg", Float, ""),
            req("eyeContactWithinLast_ms", Int, ""),
            req(
                "clampSmallAngles",
                Bool,
                "true: minClampPeriod_s is required",
            ),
            opt(
                "minClampPeriod_s",
                Float,
                "none",
                "required when clampSmallAngles is true; also read for the max clamp period (bug, OCP §5 item 3)",
            ),
            opt(
                "maxClampPeriod_s",
                Float,
                "none",
                "declared but never read: the code reads minClampPeriod_s instead (OCP §5 item 3)",
            ),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A selectable face seen since it last ran (unnamed faces heavily penalized; stored as the target): InteractWithFacesInitialNamed/Unnamed, then tracks it for a random time, ending early without eye contact. Ends AD-end.",
    },
    ClassData {
        name: "TrackFace",
        keys: &[opt(
            "faceSelectionPenalties",
            FacePenalties,
            FACE_SELECTION_PENALTIES_DEFAULT,
            FACE_SELECTION_PENALTIES_NOTE,
        )],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Tracks the best face, switching on a new best face or a charger change. Never ends by itself.",
    },
    ClassData {
        name: "EnrollFace",
        keys: &[
            opt("maxFacesVisible", Int, "none", ""),
            opt("tooManyFacesTimeout_sec", Float, "none", ""),
            opt("tooManyFacesRecentTime_sec", Float, "none", ""),
            opt(
                "faceSelectionPenalties",
                FacePenalties,
                FACE_SELECTION_PENALTIES_DEFAULT,
                FACE_SELECTION_PENALTIES_NOTE,
            ),
        ],
        mods: Mods::BASE,
        claims: &["meet_victor"],
        drops: &[
            "imperative_affirmative",
            "imperative_negative",
            "blackjack_playagain",
        ],
        hard_coded: &[
            "DriveOffChargerStraight",
            "PutDownBlock",
            "DefaultTextToSpeechLoop",
            "MeetVictorAlreadyKnowYouPrompt",
        ],
        summary: "meet_victor with a username pending (claimed; no feedback with scanning lights), a resume or a rescan: looks for and enrolls the face with MeetVictor... animations and says the name; an already-known face -> MeetVictorAlreadyKnowYouPrompt, consuming the yes/no answer by dropping it. Ends self-cancel on completion, timeout or failure.",
    },
    ClassData {
        name: "RespondToRenameFace",
        keys: &[opt("animationTrigger", Any, "none", OLDER_FILES_CARRY)],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A face-renamed message with a non-empty name arrived while in scope: says the new name twice (MeetVictorSayName, MeetVictorSayNameAgain). Ends AD-end.",
    },
    ClassData {
        name: "FistBump",
        keys: &[
            opt("maxTimeToLookForFace_s", Float, "0", "0 = do not look for a face"),
            opt(
                "abortIfNoFaceFound",
                Bool,
                "true",
                "must be false when not looking for a face",
            ),
            opt("updateLastCompletionTime", Bool, "false", "completion resets timer FistBump"),
        ],
        mods: Mods::BASE
            .carry(true)
            .always_delegates(false)
            .charger(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Puts down a cube, looks for a face, FistBumpRequestOnce/Retry, waits for a lift/gyro/accel bump, FistBumpSuccess or FistBumpLeftHanging. Ends self-cancel when done or off treads too long.",
    },
];
