//! Voice, intents, timers, weather, clocks, messaging and Alexa (OCP §2.3).

use super::types::KeyType::*;
use super::types::{opt, req, ClassData, Key, Mods, RECENT_OCCURRENCE_NOTE};

/// The shape of ReactToVoiceCommand's `notifyOnWifiErrors` / `notifyOnCloudErrors`.
const NOTIFY_ON_ERRORS_NOTE: &str = "{recentOccurrence: {numberOfTimes: int (default 1), amountOfSeconds: float (default infinity)}}: how many errors within how long before delegating NoWifi / NoCloud; absent = never notify";

/// The note of `clockLayout`, read by every ProceduralClock-derived class (ProceduralClock,
/// AdvanceClock, DisplayWallTime).
const CLOCK_KEYS_NOTE_LAYOUT: &str = "not in OCP: read by the fork's ProceduralClock constructor, which only verifies it (error log) and the fork's SingletonAnticShowClock omits it, so optional: absent, no clock digits are drawn; a composite-image layout (the face layout the clock is drawn in, with a Clock_Display layer): the robot's files give it as an array of layers, an object is accepted too";

/// The keys every ProceduralClock-derived class reads (the fork's ProceduralClock
/// constructor): ProceduralClock, AdvanceClock (and its run-down keys), DisplayWallTime.
const CLOCK_KEYS: [Key; 8] = [
    req("getInAnimTrigger", Trigger, ""),
    req("getOutAnimTrigger", Trigger, ""),
    req("displayClockFor_s", UInt, "uint8: seconds the clock is shown"),
    opt("shouldTurnToFace", Bool, "false", ""),
    opt("shouldPlayAudioOnClockUpdates", Bool, "true", ""),
    opt("clockLayout", Any, "none", CLOCK_KEYS_NOTE_LAYOUT),
    opt(
        "digitImageMap",
        Array,
        "none",
        "not in OCP: read by the fork's ProceduralClock constructor; exactly 10 sprite names, the images of the digits 0..9 (only verified: optional like clockLayout)",
    ),
    opt(
        "staticElements",
        Object,
        "{}",
        "not in OCP: read by the fork's ProceduralClock constructor; sprite-box name -> sprite name, drawn unchanged",
    ),
];

/// AdvanceClock's keys: the clock's, and the run-down it reads without declaring them.
const ADVANCE_CLOCK_KEYS: [Key; 10] = {
    let c = CLOCK_KEYS;
    [
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
        c[7],
        opt(
            "startTime_sec",
            Int,
            "none",
            "read but not declared by the class (a dev build reports it as unexpected, OCP §5 item 6); the run-down start",
        ),
        opt(
            "endTime_sec",
            Int,
            "none",
            "read but not declared by the class (OCP §5 item 6); the run-down end",
        ),
    ]
};

/// A key the robot's files carry that the newest class does not read (accepted, no effect).
const FILES_CARRY: &str =
    "not in OCP: the robot's files carry it and the newest class does not read it; accepted, no effect";

/// Modifiers of the voice-command-style classes: "+carry +offTreads +charger".
const ANYWHERE: Mods = Mods::BASE.carry(true).off_treads(true).charger(true);

/// The voice classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "ReactToVoiceCommand",
        keys: &[
            opt(
                "earConAudioEventBegin",
                AudioEvent,
                "none",
                "posted with the trigger-word response pushed on entering scope",
            ),
            opt(
                "earConAudioEventSuccess",
                AudioEvent,
                "none",
                "played when listening ends with an intent heard",
            ),
            opt(
                "earConAudioEventNeutral",
                AudioEvent,
                "none",
                "played when listening ends without a usable intent",
            ),
            opt("backpackLights", Bool, "true", "loop cyan backpack lights while listening"),
            opt(
                "behaviorOnIntent",
                Id,
                "none",
                "A (own anonymous first, then global); must be class ReactToMicDirection: turns toward the speaker",
            ),
            opt(
                "animListeningGetIn",
                Trigger,
                "VC_ListeningGetIn",
                "played by the animation process as the trigger-word response",
            ),
            opt("animListeningLoop", Trigger, "VC_ListeningLoop", ""),
            opt("animListeningGetOut", Trigger, "VC_ListeningGetOut", ""),
            opt("exitAfterGetIn", Bool, "false", "end right after the get-in"),
            opt(
                "exitAfterListeningIfNotStreaming",
                Bool,
                "false",
                "if the trigger word will not open a cloud stream: VC_IntentNeutral and end after listening",
            ),
            opt(
                "pushResponse",
                Bool,
                "true",
                "push a trigger-word response (get-in, ear-con, streaming) on entering scope, pop on leaving",
            ),
            opt("notifyOnWifiErrors", Object, "none", NOTIFY_ON_ERRORS_NOTE),
            opt("notifyOnCloudErrors", Object, "none", NOTIFY_ON_ERRORS_NOTE),
            opt(
                "whiteListedIntents",
                IntentMatchers,
                "none",
                "absent: every intent is accepted; a heard intent matching none is DROPPED and treated as unknown",
            ),
        ],
        mods: ANYWHERE.always_delegates(false),
        claims: &["unmatched_intent", "silence"],
        drops: &[],
        hard_coded: &[
            "IntentUnmatched",
            "TriggerWordWithoutIntent",
            "NoCloud",
            "NoWifi",
        ],
        summary: "Trigger word pending: clears it, WakeWordBegin, mood ReactToTriggerWord, listens (loop until an intent or 5 s / 10 s after streaming); heard -> turns toward the speaker via behaviorOnIntent (the intent stays pending); not whitelisted (DROPPED: every intent outside whiteListedIntents) or unmatched_intent -> IntentUnmatched; silence -> TriggerWordWithoutIntent; errors -> NoCloud / NoWifi or VC_IntentNeutral. Ends self-cancel past the get-in with nothing delegated; WakeWordEnd on deactivation.",
    },
    ClassData {
        name: "PromptUserForVoiceCommand",
        keys: &[
            req("streamType", Str, "a CloudMic stream type name"),
            opt("earConAudioEventSuccess", AudioEvent, "none", ""),
            opt("earConAudioEventNeutral", AudioEvent, "none", ""),
            opt("shouldTurnToFaceBeforePrompting", Bool, "false", ""),
            opt(
                "textToSpeechBehaviorID",
                Id,
                "DefaultTextToSpeechLoop",
                "G (global IDs only); must be class TextToSpeechLoop",
            ),
            opt(
                "vocalPromptKey",
                LocaleKey,
                "none",
                "the prompt when the parent set no dynamic prompt; an empty prompt keeps the class from activating",
            ),
            opt("vocalResponseToIntentKey", LocaleKey, "none", ""),
            opt("vocalResponseToBadIntentKey", LocaleKey, "none", ""),
            opt("vocalRepromptKey", LocaleKey, "none", ""),
            opt("stopListeningOnIntents", Bool, "true", "a bool (not a list)"),
            opt("playListeningGetIn", Bool, "true", ""),
            opt("playListeningGetOut", Bool, "true", ""),
            opt("maxNumberOfReprompts", Int, "0", ""),
            opt("vocalPromptString", Str, "none", FILES_CARRY),
            opt("earConAudioEventBegin", AudioEvent, "none", FILES_CARRY),
            opt("backpackLights", Any, "none", FILES_CARRY),
            opt("listenAnimOverrideTrigger", Trigger, "none", FILES_CARRY),
        ],
        mods: ANYWHERE.always_delegates(false),
        claims: &[],
        drops: &["unmatched_intent", "silence"],
        hard_coded: &[],
        summary: "Prompt text non-empty: pushes a trigger-word response, optional turn to the last face, speaks the prompt, opens wake-wordless streaming with listening animations; other intents stay pending for the caller; optional responses and reprompts. Ends self-cancel after the exchange.",
    },
    ClassData {
        name: "ReactToUnclaimedIntent",
        keys: &[],
        mods: ANYWHERE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "The intent component's unclaimed flag is set: clears it, plays ReactToUnclaimedIntent (…InAir off treads; body locked on the charger platform). Ends AD-end.",
    },
    ClassData {
        name: "SimpleVoiceResponse",
        keys: &[],
        mods: ANYWHERE,
        claims: &["simple_voice_response"],
        drops: &[],
        hard_coded: &[],
        summary: "simple_voice_response pending: claims it, fires its emotion_event, sets its active_feature (if not NoFeature), plays its anim_group. Ends AD-end.",
    },
    ClassData {
        name: "Volume",
        keys: &[],
        mods: ANYWHERE,
        claims: &[
            "imperative_volumelevel",
            "imperative_volumeup",
            "imperative_volumedown",
        ],
        drops: &[],
        hard_coded: &[],
        summary: "A volume intent pending, or a master-volume notification < 2 s old with no intent pending: claims the first pending intent (level maps to 1..5; up/down step ±1 clamped), sets the volume if different, plays VolumeLevel1..5. Ends AD-end (same tick without an animation).",
    },
    ClassData {
        name: "EyeColorVoiceCommand",
        keys: &[],
        mods: ANYWHERE,
        claims: &["imperative_eyecolor_specific", "imperative_eyecolor"],
        drops: &[],
        hard_coded: &[],
        summary: "imperative_eyecolor(_specific) pending: claims it (specific first), writes the eye-color setting; unchanged -> EyeColorGetIn/Switch/GetOut itself, else EyeColor reacts to the settings update. Ends AD-end.",
    },
    ClassData {
        name: "EyeColor",
        keys: &[],
        mods: ANYWHERE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "An eye-color settings update pending: claims the update (a settings claim, not an intent), EyeColorGetIn -> Switch -> GetOut; applies a still-pending update on deactivation. Ends AD-end.",
    },
    ClassData {
        name: "WireTest",
        keys: &[],
        mods: Mods::BASE,
        claims: &["test_wire"],
        drops: &[],
        hard_coded: &[],
        summary: "test_wire pending: claims it, GreetAfterLongTime animation, then speaks \"Hello World\". Ends AD-end.",
    },
    ClassData {
        name: "TakeAPhotoCoordinator",
        keys: &[],
        mods: Mods::BASE.off_treads(true),
        claims: &["take_a_photo"],
        drops: &[],
        hard_coded: &["FrameFaces", "SingletonICantDoThat", "DriveOffChargerFace"],
        summary: "take_a_photo pending: claims it; storage full -> SingletonICantDoThat; selfie on treads -> drive off the contacts, FrameFaces, capture; else head to 25 deg, TakeAPictureFocusing, wait <= 3 s, TakeAPictureCapture + capture. Ends AD-end.",
    },
    ClassData {
        name: "AestheticallyCenterFaces",
        keys: &[],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &["FindFacesPhoto"],
        summary: "Turns toward the best face to center (body-angle weighted), searching with FindFacesPhoto if none; re-centers on a better face. Ends AD-end.",
    },
    ClassData {
        name: "CoordinateWeather",
        keys: &[req(
            "responseMap",
            Array,
            "verified in the original (error log); array of {CladType: weather condition name, BehaviorID: behavior ID, G (global IDs only)}; `Condition` is accepted for `CladType` (the OCP entry says verify)",
        )],
        mods: Mods::BASE.off_treads(true),
        claims: &["weather_response"],
        drops: &[],
        hard_coded: &["SingletonICantDoThat"],
        summary: "weather_response pending: forecasts, unmapped conditions or an unwilling mapped behavior -> SingletonICantDoThat and claims the intent itself; else delegates the mapped DisplayWeather (which claims it); still pending afterwards -> claims it. Ends AD-end.",
    },
    ClassData {
        name: "DisplayWeather",
        keys: &[
            req(
                "animationName",
                Str,
                "an animation NAME (not a trigger): the composite animation played",
            ),
            opt(
                "imageLayouts",
                Array,
                "none",
                "not in OCP: read by the fork's constructor; give both imageLayouts and imageMaps or neither (neither: the fork logs an error and the instance cannot draw the report; three generic fork instances omit both); array of CompositeImageLayout names merged into the face image",
            ),
            opt(
                "imageMaps",
                Array,
                "none",
                "not in OCP: read by the fork's constructor with imageLayouts (both or neither); array of CompositeImageMap names whose sprite boxes fill the layers",
            ),
        ],
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &["weather_response"],
        drops: &[],
        hard_coded: &["SingletonFindFaceInFrontWallTime"],
        summary: "Only with weather_response pending (a code-added intent condition; claimed implicitly at activation): TTS of the report, SingletonFindFaceInFrontWallTime, LookAtUserEndearingly, then animationName with the temperature sprites and the utterance. Ends self-cancel when the animation finishes.",
    },
    ClassData {
        name: "TimerUtilityCoordinator",
        keys: &[
            req("minValidTimer_s", UInt, "set_timer below -> I-can't"),
            req("maxValidTimer_s", UInt, "set_timer above -> I-can't"),
            opt(
                "touchTimeToCancelTimer_ms",
                UInt,
                "0",
                "OCP: req; optional here because the fork copy's two instances omit it (see REPORT.md), and the original in release then reads the null conversion, 0: a touch held longer than this after a release cancels the ringing",
            ),
            opt(
                "anticConfig",
                Array,
                "[]",
                "need not stated in OCP; array, in descending order and non-overlapping, of {recurIntervalMin_s: uint (req), recurIntervalMax_s: uint (req), ruleMin_s: uint (default 0), ruleMax_s: uint (default infinity)}; [] = no antics",
            ),
            opt(
                "timerRingingBehaviorID",
                Id,
                "SingletonTimerRinging",
                "G (global IDs only)",
            ),
        ],
        mods: Mods::BASE.off_treads(true).always_delegates(true),
        claims: &["set_timer", "global_stop", "global_delete", "check_timer"],
        drops: &[],
        hard_coded: &[
            "SingletonTimerSet",
            "SingletonAnticShowClock",
            "SingletonTimerCheckTime",
            "SingletonCancelTimer",
            "SingletonTimerAntic",
            "SingletonTimerAlreadySet",
            "SingletonICantDoThat",
        ],
        summary: "Timer should ring -> clears and rings (cancelled by a trigger word, a long touch or a pick-up -> self-cancel); otherwise, not delegated: set_timer (already set / set / I-can't), global_stop/delete (cancel with the advance-clock animation / I-can't), a due antic, check_timer (antic / I-can't). Ends AD-end.",
    },
    ClassData {
        name: "ProceduralClock",
        keys: &CLOCK_KEYS,
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Optional turn to a face -> get-in -> procedural mm:ss clock (count-up unless the parent sets the digit function) for displayClockFor_s -> get-out. Ends self-cancel after the get-out.",
    },
    ClassData {
        name: "AdvanceClock",
        keys: &ADVANCE_CLOCK_KEYS,
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A ProceduralClock that runs the display down from startTime_sec to endTime_sec (the timer-cancel animation): get-in -> clock -> get-out. Ends self-cancel after the get-out.",
    },
    ClassData {
        name: "DisplayWallTime",
        keys: &CLOCK_KEYS,
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A time override from its coordinator or the approximate local wall time known: get-in -> wall-time clock for displayClockFor_s -> get-out. Ends self-cancel after the get-out.",
    },
    ClassData {
        name: "WallTimeCoordinator",
        keys: &[],
        mods: Mods::BASE.off_treads(true).always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[
            "ShowWallTime",
            "SingletonFindFaceInFrontWallTime",
            "SingletonICantDoThat",
        ],
        summary: "Wall time unknown -> SingletonICantDoThat; else TTS of the time, SingletonFindFaceInFrontWallTime, LookAtUserEndearingly, then ShowWallTime speaking as the clock appears (the instance claims show_clock through JSON). Ends AD-end.",
    },
    ClassData {
        name: "AttentionTransferIfNeeded",
        keys: &[
            req(
                "attentionTransferReason",
                Str,
                "an AttentionTransferReason name",
            ),
            opt(
                "recentOccurrence",
                Object,
                "none",
                RECENT_OCCURRENCE_NOTE,
            ),
            opt("animIfNotRecent", Any, "none", FILES_CARRY),
            opt(
                "animsIfNotRecent",
                Array,
                "[]",
                "array of animation triggers played in order when the transfer does not happen; need not stated in OCP",
            ),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Feature AttentionTransfer enabled or fallback animations given: records the occurrence; feature on and threshold met -> LookAtDeviceGetIn, LookAtDevice, LookAtDeviceGetOut (transfer marked); else animsIfNotRecent. Ends AD-end.",
    },
    ClassData {
        name: "KnowledgeGraphQuestion",
        keys: &[
            opt("streamingTimeout", Float, "none", "seconds"),
            opt(
                "readyStringID",
                LocaleKey,
                "BehaviorKnowledgeGraphQuestion.Ready",
                "the ready text (empty for the bypass intent)",
            ),
            opt("earConAudioEventEnd", AudioEvent, "none", ""),
        ],
        mods: ANYWHERE.always_delegates(true),
        claims: &[],
        drops: &["knowledge_response", "knowledge_unknown", "unmatched_intent"],
        hard_coded: &["KnowledgeGraphTTS"],
        summary: "Claims knowledge_question / knowledge_response_bypass through its instance's JSON. Says the ready text with KnowledgeGraphGetIn, listens while streaming, drops the response intent, speaks the answer via KnowledgeGraphTTS or plays the fail animations; a touch or fall while speaking interrupts. Ends AD-end.",
    },
    ClassData {
        name: "HowOldAreYou",
        keys: &[],
        mods: Mods::BASE.off_treads(true),
        claims: &[],
        drops: &[],
        hard_coded: &["HowOldAreYouCounting"],
        summary: "Claims character_age through its instance's JSON. Computes the robot's age from the onboarding date, rounds to days/months, sets the counting target and delegates HowOldAreYouCounting. Ends AD-end.",
    },
    ClassData {
        name: "CountingAnimation",
        keys: &[
            opt("SlowLoopBeginSize", Int, "none", "need not stated in OCP"),
            opt("SlowLoopEndSize", Int, "none", "need not stated in OCP"),
        ],
        mods: Mods::BASE.off_treads(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A parent set a count target: CountingGetInEven/Odd, slow then fast counting loops up to the target, CountingGetOut showing the number. Ends when done.",
    },
    ClassData {
        name: "LeaveAMessage",
        keys: &[
            req("ttsNoRecipientKey", LocaleKey, ""),
            req("ttsUnknownRecipientKey", LocaleKey, ""),
            req("ttsMailboxFullKey", LocaleKey, ""),
            opt("recordDuration", Float, "none", "seconds"),
            opt("requireKnownUser", Bool, "true", ""),
        ],
        mods: ANYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &["MessagingRecordTTS"],
        summary: "Claims message_record through its instance's JSON; reads given_name from the active intent; records a voice message with Messaging animations, or says no-recipient / unknown-recipient / mailbox-full via MessagingRecordTTS. Ends AD-end (self-cancel on a recorder error).",
    },
    ClassData {
        name: "PlaybackMessage",
        keys: &[
            opt("ttsAnnounceSingleKey", LocaleKey, "none", "need not stated in OCP"),
            opt("ttsAnnouncePluralKey", LocaleKey, "none", "need not stated in OCP"),
            opt("ttsNoRecipientKey", LocaleKey, "none", "need not stated in OCP"),
            opt("ttsNoMessagesKey", LocaleKey, "none", "need not stated in OCP"),
        ],
        mods: ANYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Claims message_playback through its instance's JSON; announces and plays the recipient's messages, deleting them. Ends AD-end.",
    },
    ClassData {
        name: "Alexa",
        keys: &[opt(
            "responseData",
            Object,
            "none",
            "verified in the original (error log only) and omitted by the fork's instance, so optional here; per AlexaUXState name: {fromIdle: {animTrigger, audioEvent}, transitions: {...}, loop}; pushed to the Alexa component while in scope",
        )],
        mods: Mods::BASE
            .carry(true)
            .off_treads(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "The Alexa component is not idle: plays the UX state's loop animation and transition animations on state changes. Ends self-cancel when the component is idle again and the animations are done.",
    },
    ClassData {
        name: "AlexaSignInOut",
        keys: &[],
        mods: Mods::BASE
            .carry(false)
            .off_treads(false)
            .always_delegates(false),
        claims: &[],
        drops: &["amazon_signin", "amazon_signout"],
        hard_coded: &[],
        summary: "Needs a behavior named `LookAtFaceOrUpInternal` (A: own anonymous first). A sign-in/out request pending and no ReactToVoiceCommand active: claims the request (the Alexa component drops amazon_signin / amazon_signout), looks at a face or up, then signs in (code screen) or plays AlexaSignOut. Ends self-cancel.",
    },
    ClassData {
        name: "UserDefinedBehaviorSelector",
        keys: &[],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &["imperative_affirmative", "imperative_negative"],
        hard_coded: &[
            "UserDefinedBehaviorTreeTextToSpeech",
            "UserDefinedBehaviorTreeConfirmNewBehavior",
        ],
        summary: "Fork addition; the user-defined-tree feature (console variable, default off) enabled: offers each option by TTS and asks for confirmation, dropping the yes/no answers. Ends self-cancel.",
    },
    ClassData {
        name: "UserDefinedBehaviorTreeRouter",
        keys: &[],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Fork addition; the user-defined-tree feature enabled and one of its customizable conditions true: delegates the user's chosen behavior, or runs the Selector. Ends AD-end.",
    },
    ClassData {
        name: "BlackJack",
        keys: &[],
        mods: Mods::BASE.off_treads(true).always_delegates(false),
        claims: &[],
        drops: &[
            "blackjack_hit",
            "blackjack_stand",
            "blackjack_playagain",
            "imperative_affirmative",
            "imperative_negative",
            "silence",
        ],
        hard_coded: &[
            "BlackJackLookAtFaceInFront",
            "BlackJackHitOrStandPrompt",
            "BlackJackRequestToPlayAgain",
            "BlackJackTextToSpeech",
            "BlackJackGoodLuckTTS",
        ],
        summary: "Turns to the face, deals on the face display, prompts hit/stand and play-again, consuming the answers by dropping them; win/lose animations and TTS. Ends self-cancel on quit or no replay.",
    },
];
