//! Coordinators, modes, sleep, charger, SDK and onboarding (OCP §2.4).

use super::types::KeyType::*;
use super::types::{opt, req, ClassData, Mods};

/// Modifiers "+carry +offTreads +charger".
const ANYWHERE: Mods = Mods::BASE.carry(true).off_treads(true).charger(true);

/// The `delegateID` key of the PassThrough coordinators (OBC §2.5).
const DELEGATE_ID_NOTE: &str = "G (global IDs only); the PassThrough's delegate, in linked scope";

/// `CoordinateWhileInAir`'s hard-coded IDs (OCP §2.4), in the order the class reads them:
/// [`IN_AIR_SUPPRESSING`] of them suppress the in-air reaction, the next
/// [`IN_AIR_UNLOCKING`] keep the treads unlocked, then the in-air dispatcher, the two
/// reactions that (with `HeldInPalmDispatcher`) block the coordinator, and the pickup
/// animation.
pub const IN_AIR_IDS: &[&str] = &[
    "BlackJack",
    "HeldInPalmDispatcher",
    "ReactToTouchPetting",
    "TakeAPhotoCoordinator",
    "WeatherResponses",
    "ShowWallTime",
    "SingletonCancelTimer",
    "SingletonTimerAlreadySet",
    "SingletonAnticShowClock",
    "SingletonTimerCheckTime",
    "SingletonTimerSet",
    "WhatsMyNameVoiceCommand",
    "MeetVictor",
    "WhileInAirDispatcher",
    "ReactToRobotOnBack",
    "ReactToRobotOnFace",
    "InitialPickupAnimation",
];

/// How many of [`IN_AIR_IDS`], from the first, suppress the in-air reaction.
pub const IN_AIR_SUPPRESSING: usize = 11;

/// How many of [`IN_AIR_IDS`], after the suppressing ones, keep the treads unlocked.
pub const IN_AIR_UNLOCKING: usize = 2;

/// The coordinator classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "CoordinateGlobalInterrupts",
        keys: &[req("delegateID", Id, DELEGATE_ID_NOTE)],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[
            "MeetVictor",
            "ReactToTouchPetting",
            "ReactToUnexpectedMovement",
            "ReactToSoundAwake",
            "ReactToDarkness",
            "DanceToTheBeat",
            "ReactToObstacle",
            "PossibleIntentionalPerformance",
            "PossibleUnintentionalPerformance",
            "DanceToTheBeatCoordinator",
            "ListenForBeats",
            "TimerUtilityCoordinator",
            "TriggerWordDetected",
            "ReactToCliff",
        ],
        summary: "PassThrough (modifiers copied from the delegate's class hook; the builder computes them). Each update while active suppresses behaviors for this tick by what is active (MeetVictor, DanceToTheBeat, performances, cube games, BlackJack, FetchCube, system_charger, ...), skips timer antics, disables the voice-command turn for movement / charger / find-cube / photo intents and tells DriveToFace about ReactToCliff. Ends with its delegate.",
    },
    ClassData {
        name: "CoordinateWhileHeldInPalm",
        keys: &[
            req("delegateID", Id, DELEGATE_ID_NOTE),
            opt(
                "suppressingBehaviors",
                Ids,
                "[]",
                "G (global IDs only; references, not delegates); verified in the original; any of them active suppresses HeldInPalmDispatcher",
            ),
            opt(
                "sleepingSupressedBehaviors",
                Ids,
                "[]",
                "the fork's key (spelled so in its files; not in OCP); G (global IDs only; references); decided here: suppressed while held in a palm with a `Sleeping` behavior active",
            ),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &["HeldInPalmDispatcher", "InitialHeldInPalmReaction"],
        summary: "PassThrough (modifiers copied from the delegate). While held in palm and HeldInPalmDispatcher not active: suppresses it if a suppressing behavior is active; suppresses InitialHeldInPalmReaction once held > 1000 ms or after it played this holding. Ends with its delegate.",
    },
    ClassData {
        name: "CoordinateWhileInAir",
        keys: &[req("delegateID", Id, DELEGATE_ID_NOTE)],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: IN_AIR_IDS,
        summary: "PassThrough (modifiers copied from the delegate). While InAir/Falling and no in-air/back/face/palm reaction active: suppresses WhileInAirDispatcher during the listed activities, holds the base (BODY_TRACK: a hold through the arbiter, lent to nobody, not preemptible; a drive is refused, an animation plays without its body track) unless an unlocking behavior runs or the robot is in a palm, giving it back when that no longer applies and at deactivation; suppresses InitialPickupAnimation after 1 s or once played. Ends with its delegate.",
    },
    ClassData {
        name: "CoordinateInHabitat",
        keys: &[
            req("delegateID", Id, DELEGATE_ID_NOTE),
            opt(
                "suppressedBehaviors",
                Ids,
                "[]",
                "G (global IDs only; references, not delegates); a warning if empty",
            ),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "PassThrough (modifiers copied from the delegate). While the habitat belief is InHabitat, suppresses every listed behavior each tick. Ends with its delegate.",
    },
    ClassData {
        name: "QuietModeCoordinator",
        keys: &[
            req("activeTime_s", Float, "x time multiplier; then self-cancel"),
            req("timeToPowerSave_s", Float, "power-save requested after this"),
            req(
                "behaviors",
                Array,
                "array of {behavior: behavior ID, G (global IDs only) (req), audioAllowed: bool (req)}; scanned in order each tick, the first active entry stops the scan, the first wanting entry is delegated with delegate-now",
            ),
        ],
        mods: ANYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &["TriggerWordDetected", "TimerUtilityCoordinator"],
        summary: "Claims imperative_shutup / imperative_quiet through its instances' JSON. Puts down a cube, mutes audio, cube lights SleepNoFade, fixes Stimulated; runs the first wanting entry of behaviors (interrupting lower ones); suppresses TriggerWordDetected while the timer rings. Ends self-cancel on any pending intent but unmatched_intent, after activeTime_s, or when shaken; suggestion Nothing on deactivation.",
    },
    ClassData {
        name: "SleepCycle",
        keys: &[
            req("delegateID", Id, "G (global IDs only); the awake delegate"),
            req("goToChargerBehavior", Id, "G (global IDs only)"),
            opt(
                "wakeReasonConditions",
                Array,
                "[]",
                "array of {reason: WakeReason name, condition: condition object}; need not stated in OCP: optional here; a reason named in alwaysWakeReasons / wakeFromStates that is neither configured nor added in code (SDK, TimerShouldRing, VoiceCommand, Sound, Jolted, PickedUpFromPalm) is reported at load (info) and never wakes it",
            ),
            opt(
                "alwaysWakeReasons",
                Array,
                "[]",
                "array of WakeReason names checked in every sleep state",
            ),
            opt(
                "wakeFromStates",
                Array,
                "[]",
                "array of {fromState: SleepStateID name, reasons: [WakeReason name, ...]}",
            ),
            opt("emergencyCondition", Condition, "none", "true -> emergency sleep"),
        ],
        mods: ANYWHERE,
        claims: &["system_sleep", "greeting_goodnight"],
        drops: &[],
        hard_coded: &[
            "Asleep",
            "GoToSleep",
            "SleepingWakeUp",
            "ReactToSoundAsleep",
            "SleepingTriggerWord",
            "WiggleBackOntoChargerFromPlatform",
            "EmergencyModeAnimDispatcher",
            "SleepingPersonCheck",
            "ReactToJoltInPalm",
            "ReactToPickupFromPalm",
        ],
        summary: "Awake: delegates the awake delegate and goes to sleep on system_sleep (claimed, Comatose), greeting_goodnight (claimed, ReactToGoodNight, to the charger), sleep suggestions, sleepiness while observing, or the emergency condition; asleep: wake reasons per state, person checks, sound / jolt reactions, wake-up re-delegates the awake delegate. Ends AD-end if the awake delegate ends while awake; otherwise never.",
    },
    ClassData {
        name: "Sleeping",
        keys: &[
            opt("enablePowerSave", Bool, "true", ""),
            opt("shouldPlayEmergencyGetOut", Bool, "true", "WakeupGetout on deactivation"),
            opt(
                "canActivateOffTreads",
                Bool,
                "false",
                "the hook copies it into the off-treads modifier (the builder sets it from the key)",
            ),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Clears face world, reloads the album, optional power-save, GoToSleepSleeping, then every 45-90 min a bout of stirs; gentle interruption allowed except during a stir. The off-treads modifier = canActivateOffTreads. Never ends by itself.",
    },
    ClassData {
        name: "StayOnChargerUntilCharged",
        keys: &[req(
            "delegate",
            Id,
            "A (own anonymous first, then global)",
        )],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "On the platform, battery not Full, no intent, within 30 min and outside the 20 min safeguard cooldown: delegates `delegate`. Ends self-cancel on an intent, battery Full or > 30 min (starting the cooldown); AD-end if the delegate ends.",
    },
    ClassData {
        name: "ConfirmHabitat",
        keys: &[
            opt(
                "onTreadsTimeCondition",
                Condition,
                "none",
                "part of the class predicate. OCP: required by assert; optional here because the fork's instance has none: absent, that part holds",
            ),
            opt(
                "searchForChargerBehavior",
                Id,
                "none",
                "G (global IDs only); run to localize to the charger when none is located. OCP: req; the fork's instance omits it",
            ),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Habitat Unknown, no intent, off the platform, during Exploring / ExploringVoiceCommand / Observing: probes (backs from obstacles, localizes to the charger, aligns on white lines, random walks); InHabitat -> ReactToHabitat. Ends self-cancel.",
    },
    ClassData {
        name: "PoweringRobotOff",
        keys: &[
            req(
                "powerButtonHeldToActivate_ms",
                UInt,
                "the button must be held this long (without waitForAnimMsg)",
            ),
            opt(
                "powerButtonHeldToPowerOffEyes_ms",
                UInt,
                "none",
                "the fork's key (not in OCP): how long the button is held before the eyes go off; accepted, no observable effect here",
            ),
            req("powerOnAnimName", Str, "an animation NAME (not a trigger)"),
            req("powerOffAnimName", Str, "an animation NAME (not a trigger)"),
            opt(
                "waitForAnimMsg",
                Bool,
                "false",
                "true: activates on the start-shutdown-animation message instead",
            ),
        ],
        mods: ANYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Power button held (or the shutdown-animation message): plays the power-off animation while held, reversing to power-on from the matching point when released. Ends self-cancel when released before any animation or after the power-on animation.",
    },
    ClassData {
        name: "ResetState",
        keys: &[],
        mods: ANYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["Wait"],
        summary: "Stops motors and paths, delocalizes, waits 0.5 s (3 s off treads), places a carried cube, clears faces, then delegates the caller's behavior (fallback Wait), restarting it when it ends. Never ends by itself.",
    },
    ClassData {
        name: "SDKInterface",
        keys: &[
            opt(
                "behaviorControlLevel",
                Int,
                "none",
                "a valid SDK control priority; the predicate compares the SDK's requested level with it. OCP: req; optional here because the fork's older SDK0 instance has none: then any requested level activates it (the one-level SDK of that version)",
            ),
            opt("disableCliffDetection", Bool, "false", "OCP: req; SDK0 omits it"),
            opt("driveOffChargerBehavior", Id, "none", "G (global IDs only); OCP: req"),
            opt("findAndGoToHomeBehavior", Id, "none", "G (global IDs only); OCP: req; SDK0 omits it"),
            opt("findFacesBehavior", Id, "none", "G (global IDs only); OCP: req; SDK0 omits it"),
            opt("lookAroundInPlaceBehavior", Id, "none", "G (global IDs only); OCP: req; SDK0 omits it"),
            opt("rollBlockBehavior", Id, "none", "G (global IDs only); OCP: req; SDK0 omits it"),
            opt(
                "enrollFaceBehavior",
                Id,
                "none",
                "G (global IDs only); OCP: req; every fork instance omits it (see REPORT.md)",
            ),
            opt(
                "goHomeBehavior",
                Id,
                "none",
                "G (global IDs only); the older SDK0 instance's key (not in OCP), the later findAndGoToHomeBehavior",
            ),
        ],
        mods: ANYWHERE.always_delegates(false),
        claims: &[],
        drops: &[
            "character_age",
            "check_timer",
            "explore_start",
            "global_stop",
            "greeting_goodbye",
            "greeting_goodmorning",
            "imperative_abuse",
            "imperative_affirmative",
            "imperative_apology",
            "imperative_come",
            "imperative_dance",
            "imperative_fetchcube",
            "imperative_findcube",
            "imperative_lookatme",
            "imperative_love",
            "imperative_praise",
            "imperative_negative",
            "imperative_scold",
            "imperative_volumelevel",
            "imperative_volumeup",
            "imperative_volumedown",
            "movement_backward",
            "movement_turnleft",
            "movement_turnright",
            "movement_turnaround",
            "knowledge_question",
            "names_ask",
            "play_anygame",
            "play_anytrick",
            "play_blackjack",
            "play_fistbump",
            "play_pickupcube",
            "play_popawheelie",
            "play_rollcube",
            "seasonal_happyholidays",
            "seasonal_happynewyear",
            "set_timer",
            "show_clock",
            "take_a_photo",
            "weather_response",
            "simple_voice_response",
        ],
        hard_coded: &[],
        summary: "The SDK wants control at behaviorControlLevel: allows external movement, optionally disables stop-on-cliff, runs app-requested sub-behaviors; while active drops whitelisted pending intents (simple_voice_response only for anim groups in a fixed table) and forwards them to the SDK. Ends self-cancel when the SDK releases control.",
    },
    ClassData {
        name: "SDKLock",
        keys: &[],
        mods: ANYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "The SDK wants the behavior lock: does nothing, holding the stack. Ends self-cancel when the lock is released.",
    },
    ClassData {
        name: "PRDemoBase",
        keys: &[],
        mods: ANYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[
            "PRDemoStateMachine",
            "PRDemoSleeping",
            "SleepingWakeUp",
            "ModeSelector",
        ],
        summary: "Disables streaming and face keep-alive, resets the demo, sleeps (PRDemoSleeping) and wakes, then keeps ModeSelector delegated; each tick tells the demo the resume override from pending set_timer / imperative_come or a ringing timer (read, not claimed). Never ends by itself.",
    },
    ClassData {
        name: "OnboardingCoordinator",
        keys: &[
            req(
                "phases",
                Array,
                "need not stated in OCP, required here (the coordinator runs nothing without it); array of {phaseName: OnboardingPhase name, phaseBehaviorID: behavior ID, G (global IDs only), phaseTimeout_s: float, allowCoordinatorPowerOff: bool (default false)}",
            ),
            req("startTimeout_s", Float, ""),
            req("completionTimeout_s", Float, ""),
            req("appDisconnectTimeout_s", Float, ""),
            req("idleTimeout_s", Float, ""),
            req("allowPowerOffFromIdle", Bool, ""),
        ],
        mods: Mods::BASE
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["OnboardingPowerOff"],
        summary: "Runs the phase behavior the app requests, fixes Stimulated at max, reports battery info; may delegate OnboardingPowerOff. Ends when the app marks onboarding complete/skipped or a timeout passes (state saved).",
    },
    ClassData {
        name: "OnboardingEmulate1p0WaitForVC",
        keys: &[],
        mods: Mods::BASE.off_treads(true).charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &["TriggerWordDetected"],
        summary: "Looks at the user; delegates TriggerWordDetected when it wants to run. Ends once an intent is pending.",
    },
    ClassData {
        name: "OnboardingLookAtPhone",
        keys: &[],
        mods: Mods::BASE
            .charger(true)
            .off_treads(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Lift down, head up, phone-loop animation while BLE keys are present; shows a too-hot-to-charge image. Runs until cancelled.",
    },
    ClassData {
        name: "OnboardingLookAtUser",
        keys: &[],
        mods: Mods::BASE.off_treads(true).charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Alternates OnboardingLookAtUserOnCharger / ...OffCharger by the charger state; waits while picked up. Never ends.",
    },
    ClassData {
        name: "OnboardingTeachWakeWord",
        keys: &[opt(
            "simulatedStreamingDuration_ms",
            Int,
            "-1",
            "-1: no simulated streaming",
        )],
        mods: Mods::BASE
            .always_delegates(false)
            .off_treads(true)
            .charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Listens for the wake word with OnboardingListenGetIn/GetOut, clearing the trigger word itself; celebrates after 3 detections. Ends when done.",
    },
    ClassData {
        name: "OnboardingWakeUp",
        keys: &[],
        mods: Mods::BASE.off_treads(true).charger(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "OnboardingWakeUp, drive-off-charger and look-at-phone-down animations. Ends AD-end.",
    },
    ClassData {
        name: "DispatchAfterShake",
        keys: &[req(
            "behaviors",
            Ids,
            "non-empty; G (global IDs only); the entry at the shake count is delegated",
        )],
        mods: Mods::BASE
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Dev. Counts shakes (backpack lights show the count); when put down, delegates the listed behavior selected by the count; the count resets if nothing wants to run.",
    },
];
