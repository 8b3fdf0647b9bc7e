//! The original engine's closed vocabularies, as facts a loader checks names against: its
//! behavior classes, condition types, behavior timers, post-behavior suggestions, object
//! types, stats, error codes, tracks; and, per class, the keys that name other behaviors
//! (spec §6) and the behavior IDs its code names ([`class_info`], what the plugin registers
//! each class with). Plain data: `install` hands it to the runtime's registry.
//!
//! The class list is the `BehaviorClass` enum of the newest community fork of the original
//! robot (175 classes); the condition types are the `BEIConditionType` enum
//! (61 types besides `Invalid`).

/// Every behavior class of the original engine.
pub const ORIGINAL_CLASSES: &[&str] = &[
    "GreetAfterLongTime",
    "HighLevelAI",
    "LookAroundInPlace",
    "ResetState",
    "SimpleVoiceResponse",
    "StayOnChargerUntilCharged",
    "Wait",
    "Alexa",
    "AlexaSignInOut",
    "AnimGetInLoop",
    "AnimSequence",
    "AnimSequenceWithFace",
    "AnimSequenceWithObject",
    "CountingAnimation",
    "TextToSpeechLoop",
    "EyeColor",
    "AttentionTransferIfNeeded",
    "PickUpCube",
    "PutDownBlock",
    "PutDownBlockAtPose",
    "RollBlock",
    "BumpObject",
    "ClearChargerArea",
    "DriveOffCharger",
    "FetchCube",
    "FindCube",
    "FindCubeAndThen",
    "FindFaces",
    "FindHome",
    "GoHome",
    "InteractWithFaces",
    "LookAtFaceInFront",
    "MoveHeadToAngle",
    "PlaceCubeByCharger",
    "PopAWheelie",
    "RequestToGoHome",
    "Turn",
    "TurnToFace",
    "WiggleOntoChargerContacts",
    "BlackJack",
    "HowOldAreYou",
    "CoordinateGlobalInterrupts",
    "CoordinateInHabitat",
    "CoordinateWhileHeldInPalm",
    "CoordinateWhileInAir",
    "QuietModeCoordinator",
    "VectorPlaysCubeSpinner",
    "DanceToTheBeat",
    "DanceToTheBeatCoordinator",
    "ListenForBeats",
    "CubeDrive",
    "DevBatteryLogging",
    "DevCubeSpinnerConsole",
    "DevDesignCubeLights",
    "DevDisplayReadingsOnFace",
    "DevEventSequenceCapture",
    "DevImageCapture",
    "DevSquawkBoxTest",
    "DevTestBlackjackViz",
    "DevTestSpriteBoxRemaps",
    "DevTouchDataCollection",
    "DevTurnInPlaceTest",
    "DevViewCubeBackpackLights",
    "DispatchAfterShake",
    "DockingTestSimple",
    "FactoryCentroidExtractor",
    "LiftLoadTest",
    "PlannerTest",
    "PowerSaveStressTest",
    "PowerSaveTest",
    "ReactToBody",
    "ReactToGazeDirection",
    "SelfTest",
    "SelfTestButton",
    "SelfTestDockWithCharger",
    "SelfTestDriftCheck",
    "SelfTestDriveForwards",
    "SelfTestInitChecks",
    "SelfTestLookAtCharger",
    "SelfTestMotorCalibration",
    "SelfTestPickup",
    "SelfTestPutOnCharger",
    "SelfTestScreenAndBackpack",
    "SelfTestSoundCheck",
    "SelfTestTouch",
    "DispatcherPassThrough",
    "DispatcherQueue",
    "DispatcherRandom",
    "DispatcherRerun",
    "DispatcherScoring",
    "DispatcherStrictPriority",
    "DispatcherStrictPriorityWithCooldown",
    "Exploring",
    "ExploringExamineObstacle",
    "EyeColorVoiceCommand",
    "LookForFaceAndCube",
    "FistBump",
    "InspectCube",
    "Keepaway",
    "PounceWithProx",
    "PuzzleMaze",
    "ConnectToCube",
    "ConnectToCubeAndThen",
    "ConfirmHabitat",
    "InitialHeldInPalmReaction",
    "ReactToPalmEdge",
    "KnowledgeGraphQuestion",
    "EnrollFace",
    "RespondToRenameFace",
    "LeaveAMessage",
    "PlaybackMessage",
    "ObservingLookAtFaces",
    "ObservingWithoutTurn",
    "OnboardingCoordinator",
    "OnboardingEmulate1p0WaitForVC",
    "OnboardingLookAtPhone",
    "OnboardingLookAtUser",
    "OnboardingTeachWakeWord",
    "OnboardingWakeUp",
    "PossiblePerformance",
    "AestheticallyCenterFaces",
    "TakeAPhotoCoordinator",
    "PRDemo",
    "PRDemoBase",
    "ProxGetToDistance",
    "AskForHelp",
    "CheckForAndReactToSalientPoint",
    "ReactToCliff",
    "ReactToCubeTap",
    "ReactToDarkness",
    "ReactToFrustration",
    "ReactToHand",
    "ReactToMicDirection",
    "ReactToMotion",
    "ReactToMotorCalibration",
    "ReactToPlacedOnSlope",
    "ReactToPutDown",
    "ReactToRobotOnBack",
    "ReactToRobotOnFace",
    "ReactToRobotOnSide",
    "ReactToRobotShaken",
    "ReactToSound",
    "ReactToUncalibratedHeadAndLift",
    "ReactToUnexpectedMovement",
    "ReactToVoiceCommand",
    "PromptUserForVoiceCommand",
    "SDKInterface",
    "SDKLock",
    "DriveToFace",
    "FindFaceAndThen",
    "LookAtMe",
    "SayName",
    "SearchWithinBoundingBox",
    "SleepCycle",
    "Sleeping",
    "AdvanceClock",
    "DisplayWallTime",
    "ProceduralClock",
    "TimerUtilityCoordinator",
    "WallTimeCoordinator",
    "UserDefinedBehaviorSelector",
    "UserDefinedBehaviorTreeRouter",
    "ConfirmObject",
    "PetDetection",
    "PoweringRobotOff",
    "ReactToTouchPetting",
    "ReactToUnclaimedIntent",
    "RobustChargerObservation",
    "SnakeGame",
    "TrackCube",
    "TrackFace",
    "WireTest",
    "Volume",
    "CoordinateWeather",
    "DisplayWeather",
];

/// Every condition type of the original engine (`conditionType` values).
pub const CONDITION_TYPES: &[&str] = &[
    "TrueCondition",
    "AlexaInteractionActive",
    "AnyStimuli",
    "AnyUserIntent",
    "BatteryLevel",
    "BeatDetected",
    "BecameTrueThisTick",
    "BehaviorSuggested",
    "BehaviorTimer",
    "BeingHeld",
    "CarryingCube",
    "CliffDetected",
    "Compound",
    "ConnectedToCube",
    "ConsoleVar",
    "CubeTapped",
    "Emotion",
    "EngineErrorCodeReceived",
    "EyeContact",
    "FaceKnown",
    "FacePositionUpdated",
    "FeatureGate",
    "HighTemperature",
    "IlluminationDetected",
    "IsMaintenanceReboot",
    "IsNightTime",
    "Lambda",
    "MotionDetected",
    "ObjectInitialDetection",
    "ObjectKnown",
    "ObjectMoved",
    "ObjectPositionUpdated",
    "ObstacleDetected",
    "OffTreadsState",
    "OnCharger",
    "OnChargerPlatform",
    "PetInitialDetection",
    "ProxInRange",
    "RobotHeldInPalm",
    "RobotInHabitat",
    "RobotPickedUp",
    "RobotPitchInRange",
    "RobotPlacedOnSlope",
    "RobotPoked",
    "RobotRollInRange",
    "RobotShaken",
    "RobotTouched",
    "SalientPointDetected",
    "SettingsUpdatePending",
    "SimpleMood",
    "StuckOnEdge",
    "TimePowerButtonPressed",
    "TimedDedup",
    "TimerInRange",
    "TooHotToCharge",
    "TriggerWordPending",
    "UnexpectedMovement",
    "UserIntentActive",
    "UserIntentPending",
    "UserIsHoldingCube",
    "UnitTestCondition",
];

/// `BehaviorTimer` names (`resetTimers`, `resetBehaviorTimer`, `BehaviorTimer.timerName`).
pub const BEHAVIOR_TIMERS: &[&str] = &[
    "DancingCooldown",
    "FistBump",
    "ListenForBeatsCooldown",
    "ObservingOnCharger",
    "ObservingOffCharger",
    "PlayingWithCube",
    "PounceOnMotion",
    "ReactToIllumination",
    "ReactToTouchPetting",
    "Socializing",
];

/// `PostBehaviorSuggestions` values (`postBehaviorSuggestion`, HighLevelAI's resume
/// overrides, `BehaviorSuggested`).
pub const POST_BEHAVIOR_SUGGESTIONS: &[&str] = &[
    "Socialize",
    "PlayWithCube",
    "Nothing",
    "ReactToPutDownFromPalm",
    "Sleep",
    "SleepOnCharger",
    "SleepOnPalm",
];

/// `ObjectType` values (`ObjectKnown.objectTypes`, `AnimSequenceWithObject.objectType`).
pub const OBJECT_TYPES: &[&str] = &[
    "UnknownObject",
    "Block_LIGHTCUBE1",
    "Block_LIGHTCUBE2",
    "Block_LIGHTCUBE3",
    "Block_LIGHTCUBE_GHOST",
    "Charger_Basic",
    "CustomType00",
    "CustomType01",
    "CustomType02",
    "CustomType03",
    "CustomType04",
    "CustomType05",
    "CustomType06",
    "CustomType07",
    "CustomType08",
    "CustomType09",
    "CustomType10",
    "CustomType11",
    "CustomType12",
    "CustomType13",
    "CustomType14",
    "CustomType15",
    "CustomType16",
    "CustomType17",
    "CustomType18",
    "CustomType19",
    "CustomFixedObstacle",
];

/// `BehaviorStat` values (`behaviorStatToIncrement`).
pub const BEHAVIOR_STATS: &[&str] = &[
    "AVS",
    "AnimationPlayed",
    "AttemptedFistBump",
    "AttemptedPounceOnCube",
    "BehaviorActivated",
    "BlackjackDealerWon",
    "BlackjackGameComplete",
    "EnrolledFace",
    "FistBumpSuccess",
    "MountedCharger",
    "PettingBlissIncrease",
    "PettingReachedMaxBliss",
    "PickedUpCube",
    "PounceOnCubeSuccess",
    "ReactedToCliff",
    "ReactedToEyeContact",
    "ReactedToMotion",
    "ReactedToSound",
    "ReactedToTriggerWord",
    "RolledCube",
];

/// `EngineErrorCode` values (`EngineErrorCodeReceived.engineErrorCode`).
pub const ENGINE_ERROR_CODES: &[&str] = &[
    "RobotNVStorageFull",
    "WriteUnlocksToRobot",
    "ReadUnlocksFromRobot",
    "WriteFacesToRobot",
    "ImageQualityTooDark",
    "ImageQualityTooBright",
    "ImageQualityGood",
];

/// `AnimTrackFlag` names (`tracksToLockWhileActivated`, `tracksToLock`).
pub const ANIM_TRACKS: &[&str] = &[
    "HEAD_TRACK",
    "LIFT_TRACK",
    "BODY_TRACK",
    "FACE_TRACK",
    "EVENT_TRACK",
    "BACKPACK_LIGHTS_TRACK",
    "AUDIO_TRACK",
];

/// `StreamAndLightEffect` values (`alterStreamAfterWakeword`,
/// `pushTriggerWordResponse.streamAndLightEffect`).
pub const STREAM_EFFECTS: &[&str] = &[
    "StreamingDisabled",
    "StreamingEnabled",
    "StreamingDisabledButWithLight",
];

/// `CubeConnectionRequirements` values (`behaviorModifiers.cubeConnectionRequirements`).
pub const CUBE_CONNECTION_REQUIREMENTS: &[&str] = &robot_runtime::behavior::CubeRequirement::NAMES;

/// True when `name` is in `set`.
pub fn contains(set: &[&str], name: &str) -> bool {
    set.contains(&name)
}

pub use robot_runtime::behavior::{ReferenceKey, Resolution, Role};

const fn rk(key: &'static str, resolution: Resolution) -> ReferenceKey {
    ReferenceKey::new(key, resolution)
}

const fn required(k: ReferenceKey) -> ReferenceKey {
    k.required()
}

const fn reference(k: ReferenceKey) -> ReferenceKey {
    k.reference()
}

const fn must_be(k: ReferenceKey, class: &'static str) -> ReferenceKey {
    k.must_be(class)
}

use Resolution::{AnonymousThenGlobal as A, GlobalOnly as G};

/// The reference table (spec §6): per class, every key that names behaviors.
pub const REFERENCE_KEYS: &[(&str, &[ReferenceKey])] = &[
    (
        "DispatcherStrictPriority",
        &[required(rk("behaviors[]", A))],
    ),
    ("DispatcherQueue", &[required(rk("behaviors[]", A))]),
    (
        "DispatcherStrictPriorityWithCooldown",
        &[required(rk("behaviors[].behavior", A))],
    ),
    (
        "DispatcherRandom",
        &[required(rk("behaviors[].behavior", A))],
    ),
    (
        "DispatcherScoring",
        &[required(rk("behaviors[].behaviorID", G))],
    ),
    ("DispatcherPassThrough", &[required(rk("delegateID", G))]),
    (
        "CoordinateGlobalInterrupts",
        &[required(rk("delegateID", G))],
    ),
    (
        "CoordinateInHabitat",
        &[
            required(rk("delegateID", G)),
            reference(rk("suppressedBehaviors[]", G)),
        ],
    ),
    (
        "CoordinateWhileHeldInPalm",
        &[
            required(rk("delegateID", G)),
            reference(rk("suppressingBehaviors[]", G)),
            reference(rk("sleepingSupressedBehaviors[]", G)),
        ],
    ),
    ("CoordinateWhileInAir", &[required(rk("delegateID", G))]),
    ("DispatcherRerun", &[required(rk("delegateID", G))]),
    (
        "HighLevelAI",
        &[rk("states[].behavior", G), rk("states[].getInBehavior", G)],
    ),
    (
        "PRDemo",
        &[rk("states[].behavior", G), rk("states[].getInBehavior", G)],
    ),
    ("QuietModeCoordinator", &[rk("behaviors[].behavior", G)]),
    ("DispatchAfterShake", &[rk("behaviors[]", G)]),
    (
        "FindFaceAndThen",
        &[
            rk("searchForFaceBehavior", A),
            rk("driveOffChargerBehavior", A),
            rk("behavior", A),
        ],
    ),
    ("FindCubeAndThen", &[rk("followUpBehaviorID", A)]),
    (
        "DriveToFace",
        &[must_be(rk("findFaceBehavior", A), "FindFaceAndThen")],
    ),
    ("ConnectToCube", &[rk("delegateBehaviorID", A)]),
    ("StayOnChargerUntilCharged", &[rk("delegate", A)]),
    ("ObservingLookAtFaces", &[rk("searchBehavior", A)]),
    (
        "InitialHeldInPalmReaction",
        &[rk("interruptingBehaviors[]", A)],
    ),
    (
        "ReactToVoiceCommand",
        &[must_be(rk("behaviorOnIntent", A), "ReactToMicDirection")],
    ),
    ("ReactToCubeTap", &[rk("onChargerBehavior", A)]),
    (
        "CheckForAndReactToSalientPoint",
        &[rk("reactions[].behaviorID", A)],
    ),
    ("FindFaces", &[rk("searchBehavior", G)]),
    (
        "ReactToSound",
        &[must_be(
            rk("micDirectionReactionBehavior", G),
            "ReactToMicDirection",
        )],
    ),
    ("ReactToRobotOnSide", &[rk("askForHelpBehavior", G)]),
    ("ReactToBody", &[rk("driveOffChargerBehavior", G)]),
    (
        "SDKInterface",
        &[
            rk("driveOffChargerBehavior", G),
            rk("findAndGoToHomeBehavior", G),
            rk("findFacesBehavior", G),
            rk("lookAroundInPlaceBehavior", G),
            rk("rollBlockBehavior", G),
            rk("enrollFaceBehavior", G),
            rk("goHomeBehavior", G),
        ],
    ),
    (
        "DanceToTheBeatCoordinator",
        &[
            rk("listeningBehavior", G),
            rk("longListeningBehavior", G),
            rk("offChargerDancingBehavior", G),
            rk("onChargerDancingBehavior", G),
        ],
    ),
    ("InspectCube", &[rk("PlayWithCubeBehaviorID", G)]),
    ("ConfirmHabitat", &[rk("searchForChargerBehavior", G)]),
    ("CoordinateWeather", &[rk("responseMap[].BehaviorID", G)]),
    (
        "OnboardingCoordinator",
        &[rk("phases[].phaseBehaviorID", G)],
    ),
    (
        "TimerUtilityCoordinator",
        &[rk("timerRingingBehaviorID", G)],
    ),
    (
        "SleepCycle",
        &[rk("delegateID", G), rk("goToChargerBehavior", G)],
    ),
    (
        "PromptUserForVoiceCommand",
        &[ReferenceKey {
            default: Some("DefaultTextToSpeechLoop"),
            must_be: Some("TextToSpeechLoop"),
            ..rk("textToSpeechBehaviorID", G)
        }],
    ),
];

/// The class's reference keys (empty for a class without any).
pub fn reference_keys(class: &str) -> &'static [ReferenceKey] {
    REFERENCE_KEYS
        .iter()
        .find(|(c, _)| *c == class)
        .map_or(&[], |(_, k)| k)
}

/// Behavior IDs a class's code names (spec §6 "Hard-coded IDs"): they must exist in any
/// tree that uses the class. `Role::Delegate` ones are delegates of the instance.
pub const HARD_CODED_IDS: &[(&str, Role, &[&str])] = &[
    ("HighLevelAI", Role::Delegate, &["PutDownBlock"]),
    ("PRDemo", Role::Delegate, &["PutDownBlock"]),
    (
        "FetchCube",
        Role::Delegate,
        &[
            "ReactToCliffDuringFetch",
            "DriveOffChargerFace",
            "ConnectToCube",
            "PlaceCubeByCharger",
            "FindFacesFetchCube",
            "FindCube",
            "PickupCubeNoInitialReaction",
            "PutDownBlockAtPose",
        ],
    ),
    (
        "CoordinateGlobalInterrupts",
        Role::Reference,
        &[
            "TriggerWordDetected",
            "ReactToObstacle",
            "MeetVictor",
            "DanceToTheBeat",
            "ReactToCliff",
            "TimerUtilityCoordinator",
        ],
    ),
    (
        "SleepCycle",
        Role::Delegate,
        &[
            "Asleep",
            "GoToSleep",
            "SleepingWakeUp",
            "ReactToSoundAsleep",
        ],
    ),
    (
        "ReactToVoiceCommand",
        Role::Delegate,
        &[
            "IntentUnmatched",
            "TriggerWordWithoutIntent",
            "NoCloud",
            "NoWifi",
        ],
    ),
];

/// The behavior IDs `class`'s code names, and what they are to it.
pub fn hard_coded_ids(class: &str) -> (Role, &'static [&'static str]) {
    HARD_CODED_IDS
        .iter()
        .find(|(c, _, _)| *c == class)
        .map_or((Role::Reference, &[][..]), |(_, r, ids)| (*r, *ids))
}

/// What the runtime's loader knows of `class` (its reference keys and hard-coded IDs;
/// `stand_in`: registered as a stand-in).
pub fn class_info(class: &str, stand_in: bool) -> robot_runtime::behavior::ClassInfo {
    let (hard_coded_role, hard_coded_ids) = hard_coded_ids(class);
    robot_runtime::behavior::ClassInfo {
        reference_keys: reference_keys(class),
        hard_coded_ids,
        hard_coded_role,
        stand_in,
    }
}
