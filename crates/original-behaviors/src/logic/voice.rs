//! Class predicates and outcomes of the voice family: voice, intents, timers, weather,
//! clocks, messaging, Alexa (original-class-predicates.md §2.3; see [`super`]).
//!
//! The classes implemented natively (`classes::voice`, `classes::voice_command`,
//! `classes::voice_features`: ReactToVoiceCommand, SimpleVoiceResponse, ReactToUnclaimedIntent,
//! Volume, EyeColorVoiceCommand, EyeColor, TimerUtilityCoordinator, CoordinateWeather,
//! DisplayWeather, TakeAPhotoCoordinator, WallTimeCoordinator, AlexaSignInOut) take their
//! predicates from the `pub const`s here; [`LOGIC`] runs every other class of the family.

use std::time::Duration;

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Does, Dur, Ref};
use crate::predicate::{Pred, PredCx, Test};

/// How long a master-volume change notification makes Volume want to run.
pub const VOLUME_NOTIFICATION_WINDOW: Duration = Duration::from_secs(2);

const VOLUME_NOTIFIED: Test = Test {
    text: "a master-volume change notification heard in scope less than 2 s ago",
    reads: &[reads::SETTINGS],
    eval: |cx: &PredCx<'_>| {
        let at = cx.robot.signals.volume_changed;
        cx.heard(at) && cx.within(at, VOLUME_NOTIFICATION_WINDOW)
    },
    until: Some(|cx: &PredCx<'_>| {
        cx.window_end(cx.robot.signals.volume_changed, VOLUME_NOTIFICATION_WINDOW)
    }),
};

/// Volume: a volume intent pending, or a fresh volume notification with no intent pending.
pub const VOLUME: Pred = Pred::Any(&[
    Pred::IntentPending(&[
        "imperative_volumelevel",
        "imperative_volumeup",
        "imperative_volumedown",
    ]),
    Pred::All(&[
        Pred::Test(&VOLUME_NOTIFIED),
        Pred::Not(&Pred::AnyIntentPending),
    ]),
]);

/// EyeColorVoiceCommand: an eye-color intent pending.
pub const EYE_COLOR_VOICE_COMMAND: Pred =
    Pred::IntentPending(&["imperative_eyecolor_specific", "imperative_eyecolor"]);

const EYE_COLOR_UPDATE: Test = Test {
    text: "an eye-color settings update pending",
    reads: &[reads::SETTINGS],
    eval: |cx: &PredCx<'_>| cx.robot.signals.eye_color_update.is_some(),
    until: None,
};

/// EyeColor: an eye-color settings update pending.
pub const EYE_COLOR: Pred = Pred::Test(&EYE_COLOR_UPDATE);

/// SimpleVoiceResponse.
pub const SIMPLE_VOICE_RESPONSE: Pred = Pred::IntentPending(&["simple_voice_response"]);

/// TakeAPhotoCoordinator.
pub const TAKE_A_PHOTO: Pred = Pred::IntentPending(&["take_a_photo"]);

/// CoordinateWeather, and DisplayWeather's code-added intent condition.
pub const WEATHER: Pred = Pred::IntentPending(&["weather_response"]);

const TIMER_RINGS: Test = Test {
    text: "the timer has 0 s left",
    reads: &[reads::USER_TIMER],
    eval: |cx: &PredCx<'_>| cx.robot.signals.timer.is_some_and(|t| t.rings_at <= cx.now),
    until: None,
};

const STOP_IS_FOR_TIMER: Test = Test {
    text: "its `what_to_stop` is \"timer\"",
    reads: &[reads::INTENTS],
    // The intent's field is read by the class's code (a test sees no intents).
    eval: |_| false,
    until: None,
};

const ANTIC_DUE: Test = Test {
    text: "an antic is due (`anticConfig`)",
    reads: &[reads::USER_TIMER],
    // The class's own antic clock decides (in its code).
    eval: |_| false,
    until: None,
};

/// TimerUtilityCoordinator's predicate, for its text and inputs: the class evaluates it in
/// its code (the `what_to_stop` field and its antic clock are not a robot-state test).
pub const TIMER_UTILITY_COORDINATOR: Pred = Pred::Any(&[
    Pred::IntentPending(&["set_timer"]),
    Pred::Test(&TIMER_RINGS),
    Pred::All(&[
        Pred::IntentPending(&["global_stop", "global_delete"]),
        Pred::Test(&STOP_IS_FOR_TIMER),
    ]),
    Pred::IntentPending(&["check_timer"]),
    Pred::All(&[Pred::Test(&ANTIC_DUE), Pred::Not(&Pred::AnyIntentPending)]),
]);

/// ReactToVoiceCommand (the dev console switch is always on here).
pub const REACT_TO_VOICE_COMMAND: Pred = Pred::TriggerWordPending;

const WALL_TIME_KNOWN: Test = Test {
    text: "the approximate local wall time is known",
    reads: &[reads::SYSTEM],
    eval: |cx: &PredCx<'_>| cx.robot.signals.wall_time_known,
    until: None,
};

const ALEXA_SIGN_REQUEST: Test = Test {
    text: "an Alexa sign-in or sign-out request pending",
    reads: &[reads::ALEXA],
    eval: |cx: &PredCx<'_>| cx.robot.signals.alexa_sign.is_some(),
    until: None,
};

/// AlexaSignInOut: a request pending and no voice-command reaction active.
pub const ALEXA_SIGN_IN_OUT: Pred = Pred::All(&[
    Pred::Test(&ALEXA_SIGN_REQUEST),
    Pred::Not(&Pred::ClassActive(&["ReactToVoiceCommand"])),
]);

const PROMPT_GIVEN: Test = Test {
    text: "its prompt (`vocalPromptKey`) is not empty",
    reads: &[],
    eval: |cx: &PredCx<'_>| cx.non_empty("vocalPromptKey"),
    until: None,
};

const ALEXA_BUSY: Test = Test {
    text: "the Alexa component is not idle",
    reads: &[reads::ALEXA],
    eval: |cx: &PredCx<'_>| !cx.robot.signals.alexa_state.eq_ignore_ascii_case("Idle"),
    until: None,
};

const ATTENTION_TRANSFER: Test = Test {
    text: "feature AttentionTransfer enabled or `animsIfNotRecent` given",
    reads: &[reads::FEATURES],
    eval: |cx: &PredCx<'_>| {
        cx.robot.feature_enabled("AttentionTransfer") || cx.non_empty("animsIfNotRecent")
    },
    until: None,
};

const USER_DEFINED_TREE: Test = Test {
    text: "the user-defined behavior tree is enabled",
    reads: &[reads::SYSTEM],
    eval: |cx: &PredCx<'_>| cx.robot.signals.user_defined_tree,
    until: None,
};

const USER_CONDITION: Test = Test {
    text: "one of the user's customizable conditions holds",
    reads: &[crate::predicate::Read::unmodelled(
        "the user-defined tree's customizable conditions",
    )],
    eval: |_| false,
    until: None,
};

/// The clock classes' outcome: get-in, the clock for `displayClockFor_s`, get-out.
const CLOCK: Does = Does::Seq(&[
    Does::Anim(Anim::Key("getInAnimTrigger")),
    Does::Wait(Dur::KeySecs("displayClockFor_s", 0.0)),
    Does::Anim(Anim::Key("getOutAnimTrigger")),
]);

/// The voice family's table-driven classes.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "PromptUserForVoiceCommand",
        pred: Pred::Test(&PROMPT_GIVEN),
        // Speaks the prompt, listens (get-in, the listening loop for the stream's 5 s
        // window, get-out); the answer stays pending for the caller (unmatched / silence are
        // dropped by the table's `drops`).
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("VC_ListeningGetIn")),
            Does::Anim(Anim::Trigger("VC_ListeningLoop")),
            Does::Wait(Dur::Secs(5.0)),
            Does::Anim(Anim::Trigger("VC_ListeningGetOut")),
        ]),
    },
    ClassLogic {
        name: "WireTest",
        pred: Pred::IntentPending(&["test_wire"]),
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("GreetAfterLongTime")),
            Does::Say("Hello World"),
        ]),
    },
    ClassLogic {
        name: "AestheticallyCenterFaces",
        pred: Pred::True,
        // Searches for the face to center (its hard-coded FindFacesPhoto) and ends.
        does: Does::Delegate(&[Ref::Id("FindFacesPhoto")]),
    },
    ClassLogic {
        name: "ProceduralClock",
        pred: Pred::True,
        does: CLOCK,
    },
    ClassLogic {
        name: "AdvanceClock",
        pred: Pred::True,
        does: CLOCK,
    },
    ClassLogic {
        name: "DisplayWallTime",
        pred: Pred::Test(&WALL_TIME_KNOWN),
        does: CLOCK,
    },
    ClassLogic {
        name: "AttentionTransferIfNeeded",
        pred: Pred::Test(&ATTENTION_TRANSFER),
        // The fallback animations (the look-at-device transfer needs the app's attention
        // history, which the robot does not keep).
        does: Does::Anim(Anim::EachOf("animsIfNotRecent")),
    },
    ClassLogic {
        name: "KnowledgeGraphQuestion",
        pred: Pred::True,
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("KnowledgeGraphGetIn")),
            Does::Anim(Anim::Trigger("KnowledgeGraphListening")),
            Does::Delegate(&[Ref::Id("KnowledgeGraphTTS")]),
        ]),
    },
    ClassLogic {
        name: "HowOldAreYou",
        pred: Pred::True,
        does: Does::Delegate(&[Ref::Id("HowOldAreYouCounting")]),
    },
    ClassLogic {
        name: "CountingAnimation",
        // The count target is set by its parent (HowOldAreYou) right before delegating.
        pred: Pred::ClassActive(&["HowOldAreYou"]),
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("CountingGetInEven")),
            Does::Anim(Anim::Trigger("CountingGetOut")),
        ]),
    },
    ClassLogic {
        name: "LeaveAMessage",
        pred: Pred::True,
        // Records for `recordDuration` (5 s when not given).
        does: Does::Wait(Dur::KeySecs("recordDuration", 5.0)),
    },
    ClassLogic {
        name: "PlaybackMessage",
        pred: Pred::True,
        // The robot keeps no messages: nothing to play, it ends at once.
        does: Does::Nothing,
    },
    ClassLogic {
        name: "Alexa",
        pred: Pred::Test(&ALEXA_BUSY),
        does: Does::WhileHolds(&Does::Forever),
    },
    ClassLogic {
        name: "UserDefinedBehaviorSelector",
        pred: Pred::Test(&USER_DEFINED_TREE),
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("UserDefinedBehaviorTreeTextToSpeech")]),
            Does::Delegate(&[Ref::Id("UserDefinedBehaviorTreeConfirmNewBehavior")]),
        ]),
    },
    ClassLogic {
        name: "UserDefinedBehaviorTreeRouter",
        pred: Pred::All(&[Pred::Test(&USER_DEFINED_TREE), Pred::Test(&USER_CONDITION)]),
        does: Does::Nothing,
    },
    ClassLogic {
        name: "BlackJack",
        pred: Pred::True,
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("BlackJackLookAtFaceInFront")]),
            Does::Delegate(&[Ref::Id("BlackJackGoodLuckTTS")]),
            Does::Delegate(&[Ref::Id("BlackJackHitOrStandPrompt")]),
            Does::Delegate(&[Ref::Id("BlackJackTextToSpeech")]),
            Does::Delegate(&[Ref::Id("BlackJackRequestToPlayAgain")]),
        ]),
    },
];
