//! Cube interactions (OCP §2.7), plus the fork's ConnectToCubeAndThen (in the class list,
//! described by neither spec).

use super::types::KeyType::*;
use super::types::{opt, req, ClassData, Mods};

/// A key the newest class requires that older fork files omit.
const OLDER_FILES_OMIT: &str = "required by the newest class; optional here because older fork files omit it (the original's release build then reads the null value)";

/// A key older fork files carry that the newest class does not read (accepted, not read).
const OLDER_FILES_CARRY: &str =
    "not read by the newest class; older versions of the fork's files carry it";

/// Keepaway's 32 required floats, in the order the fork's constructor reads them (OCP §2.7
/// names them only as "as in the fork's file"; the names here are from the fork's source).
const KEEPAWAY_FLOAT: &str = "float, required (one of Keepaway's 32 tuning floats)";

/// The cube classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "ConnectToCube",
        keys: &[
            opt(
                "delegateBehaviorID",
                Id,
                "none",
                "A (own anonymous first, then global); delegated once connected",
            ),
            opt(
                "delegateOnFailedConnection",
                Bool,
                "false",
                "true: the delegate also runs after ConnectToCubeFailure",
            ),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Cube modifiers (not in Mods): OptionalActive, connect in background, ensures a connection at delegation. Connected -> delegate; else ConnectToCubeGetIn/Loop, then ConnectToCubeSuccess -> delegate, or ConnectToCubeFailure (-> delegate if configured). Ends AD-end.",
    },
    ClassData {
        name: "ConnectToCubeAndThen",
        keys: &[],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "In the fork's class list (catalog.rs) but described by neither OCP nor OBC, and its source is not in the searchable copy of the fork: no keys or modifiers are known, so strict mode rejects every class key and the builder must treat its behavior as unspecified (see REPORT.md).",
    },
    ClassData {
        name: "FindCube",
        keys: &[opt(
            "skipReactToCubeAnim",
            Bool,
            "false",
            "true: ends as soon as the cube is found",
        )],
        mods: Mods::BASE.carry(false),
        claims: &[],
        drops: &[],
        hard_coded: &["DriveOffChargerCube"],
        summary: "Cube modifiers: OptionalActive + background. Drives off the charger (DriveOffChargerCube), checks the last known pose and in front (backing up if prox < 90 mm), quick search, search turns with wait loops; FindCubeReactToCube or FetchCubeFailure. Ends AD-end / self-cancel when found and skipping the reaction.",
    },
    ClassData {
        name: "FindCubeAndThen",
        keys: &[
            opt(
                "followUpBehaviorID",
                Id,
                "none",
                "A (own anonymous first, then global)",
            ),
            opt("skipConnectToCubeBehavior", Bool, "true", "default TRUE"),
        ],
        mods: Mods::BASE.carry(false),
        claims: &[],
        drops: &[],
        hard_coded: &["FindCube", "ConnectToCube"],
        summary: "Cube modifiers: OptionalActive + background. FindCube -> drive to the pre-dock pose -> optional ConnectToCube -> follow-up; failure -> FetchCubeFailure. Ends AD-end.",
    },
    ClassData {
        name: "FetchCube",
        keys: &[opt("skipConnectToCubeBehavior", Bool, "true", "default TRUE")],
        mods: Mods::BASE.carry(false),
        claims: &[],
        drops: &[],
        hard_coded: &[
            "ReactToCliffDuringFetch",
            "DriveOffChargerFace",
            "ConnectToCube",
            "PlaceCubeByCharger",
            "FindFacesFetchCube",
            "FindCube",
            "PickupCubeNoInitialReaction",
            "PutDownBlockAtPose",
        ],
        summary: "Cube modifiers: OptionalActive + background. Off the charger (or notes the start pose), looks for the user, finds the cube, optional connect, picks it up, brings it 150 mm short of the user (or by the charger / back), FetchCubeSetDown, FetchCubeSuccess or FetchCubeFailure. Ends AD-end.",
    },
    ClassData {
        name: "PickUpCube",
        keys: &[
            opt("retryCount", UInt, "1", "uint8"),
            opt("skipInitialReactionAnim", Bool, "false", ""),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A target cube exists (set externally or the interaction cache's best): PickupCubePreperation (skipped with base alwaysStreamline), the pick-up with PickupCubeRetry retries, PickupCubeSuccess. Ends AD-end.",
    },
    ClassData {
        name: "PutDownBlock",
        keys: &[],
        mods: Mods::BASE.carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Carrying an object: backs up a random distance, PutDownBlockPutDown, looks down at the block (PutDownBlockKeepAlive). Ends AD-end.",
    },
    ClassData {
        name: "PutDownBlockAtPose",
        keys: &[],
        mods: Mods::BASE.carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Carrying an object: drives to the destination the parent set and puts the cube down (animation set by the parent, default PutDownBlockPutDown). Ends AD-end.",
    },
    ClassData {
        name: "RollBlock",
        keys: &[
            opt(
                "isBlockRotationImportant",
                Bool,
                "true",
                "true: the target needs the roll-with-axis-check",
            ),
            opt("rollRetryCount", UInt, "1", "uint8"),
        ],
        mods: Mods::BASE.carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A roll target exists: rolls the cube (RollBlockSuccess), retrying. Ends AD-end; self-cancel if the target becomes invalid.",
    },
    ClassData {
        name: "PopAWheelie",
        keys: &[
            opt("numRetries", UInt, "1", ""),
            opt("sayName", Bool, "true", ""),
            opt("playCubeReaction", Bool, "true", "base alwaysStreamline also skips it"),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A wheelie target block (recomputed inside the predicate): turns to it (+PopAWheelieInitial), named/unnamed face pre-action animation, pops a wheelie with cliff detection off, retries (PopAWheelieRetry / Realign), SuccessfulWheelie. Ends AD-end.",
    },
    ClassData {
        name: "PlaceCubeByCharger",
        keys: &[],
        mods: Mods::BASE.charger(false).carry(true),
        claims: &[],
        drops: &[],
        hard_coded: &["PickupCube", "PutDownBlockAtPose", "TurnToLastFace"],
        summary: "The cube-interaction tracker has a target: picks it up (<= 2 attempts), confirms/searches the charger, carries the cube next to it (or 150-400 mm away), PlaceCubeByChargerSuccess/Fail. Ends AD-end.",
    },
    ClassData {
        name: "InspectCube",
        keys: &[opt(
            "PlayWithCubeBehaviorID",
            Id,
            "none",
            "G (global IDs only)",
        )],
        mods: Mods::BASE
            .always_delegates(true)
            .off_treads(false)
            .charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &["DriveOffChargerCube", "Keepaway"],
        summary: "Cube modifiers: OptionalActive + background. InvestigateHeldCubeGetIn, tracks the user-held cube (<= 80 mm -> Keepaway / play behavior), searches 5 s when lost, bored after 30 s. Ends AD-end after the get-outs.",
    },
    ClassData {
        name: "Keepaway",
        keys: &[
            opt("animDistanceOffset_mm", Any, "none", OLDER_FILES_CARRY),
            opt("instaPounceDistance_mm", Any, "none", OLDER_FILES_CARRY),
            opt("naturalGameEndTimeout_s", Any, "none", OLDER_FILES_CARRY),
            opt("noPointsEarnedTimeout_s", Any, "none", OLDER_FILES_CARRY),
            opt("pointsToWin", Any, "none", OLDER_FILES_CARRY),
            opt("minPouncesForSoloPlay", Int, "none", OLDER_FILES_OMIT),
            opt("maxPouncesForSoloPlay", Int, "none", OLDER_FILES_OMIT),
            req("useProxForDistance", Bool, ""),
            req("targetUnmovedGameEndTimeout_s", Float, KEEPAWAY_FLOAT),
            req("noVisibleTargetGameEndTimeout_s", Float, KEEPAWAY_FLOAT),
            opt("outOfPlayGameEndTimeout_s", Float, "none", OLDER_FILES_OMIT),
            req("targetVisibleTimeout_s", Float, KEEPAWAY_FLOAT),
            opt("globalOffsetDist_mm", Float, "none", OLDER_FILES_OMIT),
            req("inPlayDistance_mm", Float, KEEPAWAY_FLOAT),
            req("outOfPlayDistance_mm", Float, KEEPAWAY_FLOAT),
            req("allowablePointingError_deg", Float, KEEPAWAY_FLOAT),
            req("targetUnmovedDistance_mm", Float, KEEPAWAY_FLOAT),
            req("targetUnmovedAngle_deg", Float, KEEPAWAY_FLOAT),
            req("targetUnmovedCreepTimeout_s", Float, KEEPAWAY_FLOAT),
            req("creepDistanceMin_mm", Float, KEEPAWAY_FLOAT),
            req("creepDistanceMax_mm", Float, KEEPAWAY_FLOAT),
            req("creepDelayTimeMin_s", Float, KEEPAWAY_FLOAT),
            req("creepDelayTimeMax_s", Float, KEEPAWAY_FLOAT),
            req("pounceDelayTimeMin_s", Float, KEEPAWAY_FLOAT),
            req("pounceDelayTimeMax_s", Float, KEEPAWAY_FLOAT),
            req("basePounceChance", Float, KEEPAWAY_FLOAT),
            req("pounceChanceIncrement", Float, KEEPAWAY_FLOAT),
            req("nominalPounceDistance_mm", Float, KEEPAWAY_FLOAT),
            opt("mousetrapPounceDistance_mm", Float, "none", OLDER_FILES_OMIT),
            opt("probBackupInsteadOfMousetrap", Float, "none", OLDER_FILES_OMIT),
            req("pounceSuccessPitchDiff_deg", Float, KEEPAWAY_FLOAT),
            opt("excitementIncPerHit", Float, "none", OLDER_FILES_OMIT),
            opt("maxProbExitExcited", Float, "none", OLDER_FILES_OMIT),
            opt("frustrationIncPerMiss", Float, "none", OLDER_FILES_OMIT),
            opt("maxProbExitFrustrated", Float, "none", OLDER_FILES_OMIT),
            opt("minProbToExit", Float, "none", OLDER_FILES_OMIT),
            opt("baseProbReact", Float, "none", OLDER_FILES_OMIT),
            opt("minProbToReact", Float, "none", OLDER_FILES_OMIT),
            opt("probReactIncrement", Float, "none", OLDER_FILES_OMIT),
            opt("probReactMax", Float, "none", OLDER_FILES_OMIT),
        ],
        mods: Mods::BASE
            .carry(false)
            .always_delegates(true)
            .charger(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Cube modifiers: OptionalActive + background. The cube-pounce game with CubePounce... animations (creep, pounce, score, excitement/frustration exits). Ends AD-end after a win/lose/bored get-out.",
    },
    ClassData {
        name: "TrackCube",
        keys: &[
            opt("maxTimeSinceObserved_ms", Int, "2000", ""),
            opt("maxDistance_mm", Int, "1000", ""),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A light cube visible (located, in view, recent and near; a moving cube preferred): tracks it, switching targets. Ends self-cancel when none is visible.",
    },
    ClassData {
        name: "VectorPlaysCubeSpinner",
        keys: &[
            opt("minRoundsToPlay", Int, "none", "need not stated in OCP"),
            opt("maxRoundsToPlay", Int, "none", "need not stated in OCP"),
            opt("maxTimeSearchForCube_ms", Int, "none", "need not stated in OCP"),
            opt(
                "gameConfig",
                Object,
                "none",
                "the cube-spinner game configuration (shape not given by OCP); need not stated",
            ),
            opt(
                "vectorPlayerConfig",
                Object,
                "none",
                "{oddsOfMissingPattern, oddsOfTappingAfterCorrectPattern, oddsOfTappingCorrectPatternOnLock: floats}; need not stated in OCP",
            ),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["CubeSpinnerLookAroundInPlace"],
        summary: "Cube modifier: RequiredManaged. Finds the cube (CubeSpinnerLookAroundInPlace) and plays the spinner game by tapping. Ends self-cancel after the rounds or when the cube is not found.",
    },
];
