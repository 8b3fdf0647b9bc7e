//! Class predicates and outcomes of the face classes (original-class-predicates.md §2.6;
//! see [`super`]).
//!
//! **A face a parent hands over.** LookAtMe and SayName run on the face their parent found
//! (FindFaceAndThen's `callSetFaceOnBehavior`); the runtime has no such hand-over, so they
//! take the face the parent would hand: one in face memory. A "recent" face, where the
//! spec gives no age, is one seen within [`RECENT_FACE`].

use std::time::Duration;

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Check, Count, Does, Dur, Ref};
use crate::predicate::{Pred, PredCx, Test};
use crate::robot_state::Face;

/// How long a face counts as recent where the spec gives no age of its own.
pub const RECENT_FACE: Duration = Duration::from_secs(10);

fn latest_face(cx: &PredCx<'_>, named_only: bool) -> Option<Duration> {
    cx.robot
        .faces
        .iter()
        .filter(|f| f.named || !named_only)
        .map(|f| f.last_seen)
        .max()
}

/// RespondToRenameFace: a face-renamed message (non-empty name) heard in scope.
const RENAMED: Test = Test {
    text: "a face was renamed since it last ran",
    reads: &[reads::FACE_EVENTS],
    eval: |cx: &PredCx<'_>| cx.heard(cx.robot.signals.face_renamed),
    until: None,
};

/// A face seen within [`RECENT_FACE`].
pub(crate) const FACE_RECENT: Test = Test {
    text: "a face was seen in the last 10 s",
    reads: &[reads::FACES],
    eval: |cx: &PredCx<'_>| cx.within(latest_face(cx, false), RECENT_FACE),
    until: Some(|cx: &PredCx<'_>| cx.window_end(latest_face(cx, false), RECENT_FACE)),
};

/// A named face seen within [`RECENT_FACE`].
pub(crate) const NAMED_FACE_RECENT: Test = Test {
    text: "a named face was seen in the last 10 s",
    reads: &[reads::FACES],
    eval: |cx: &PredCx<'_>| cx.within(latest_face(cx, true), RECENT_FACE),
    until: Some(|cx: &PredCx<'_>| cx.window_end(latest_face(cx, true), RECENT_FACE)),
};

/// A face in face memory (the face a parent hands over; TurnToFace's last observed face).
const FACE_KNOWN: Test = Test {
    text: "a face is in face memory",
    reads: &[reads::FACES],
    eval: |cx: &PredCx<'_>| !cx.robot.faces.is_empty(),
    until: None,
};

/// InteractWithFaces: a face seen since it last ran (any face when it never ran).
const FACE_SINCE_LAST_RUN: Test = Test {
    text: "a face was seen since it last ran",
    reads: &[reads::FACES, reads::STACK],
    eval: |cx: &PredCx<'_>| {
        let since = cx.last_ran;
        cx.robot
            .faces
            .iter()
            .any(|f: &Face| since.is_none_or(|t| f.last_seen > t))
    },
    until: None,
};

/// FindFaces: stopping on AnyFace with a face seen within `maxFaceAgeToLook_ms`.
const ANY_FACE_ALREADY: Test = Test {
    text: "`stoppingCondition` AnyFace and a face seen within `maxFaceAgeToLook_ms`",
    reads: &[reads::FACES],
    eval: |cx: &PredCx<'_>| {
        let age =
            Duration::from_secs_f64(cx.f64("maxFaceAgeToLook_ms", 0.0).clamp(0.0, 1e12) / 1000.0);
        cx.str("stoppingCondition") == Some("AnyFace") && cx.within(latest_face(cx, false), age)
    },
    until: None,
};

/// FindFaceAndThen: `shouldLeaveChargerFirst` and on the charger platform.
const LEAVE_CHARGER_FIRST: Test = Test {
    text: "`shouldLeaveChargerFirst` and on the charger platform",
    reads: &[reads::ON_PLATFORM],
    eval: |cx: &PredCx<'_>| {
        cx.bool("shouldLeaveChargerFirst", false) && cx.robot.on_charger_platform
    },
    until: None,
};

/// The face classes' logic.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "RespondToRenameFace",
        pred: Pred::Test(&RENAMED),
        // Says the new name twice.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("MeetVictorSayName")),
            Does::Anim(Anim::Trigger("MeetVictorSayNameAgain")),
        ]),
    },
    ClassLogic {
        name: "FindFaceAndThen",
        pred: Pred::True,
        // Drives off the charger first if configured, looks (and searches) for a face;
        // found: its animation, then its follow-up behavior. Not found: ends.
        does: Does::Seq(&[
            Does::If(
                Check(&LEAVE_CHARGER_FIRST),
                &Does::Delegate(&[Ref::Key("driveOffChargerBehavior")]),
                &Does::Nothing,
            ),
            Does::If(
                Check(&FACE_RECENT),
                &Does::Nothing,
                &Does::Seq(&[
                    Does::Anim(Anim::Key("animWhileSearching")),
                    Does::Delegate(&[Ref::Key("searchForFaceBehavior")]),
                ]),
            ),
            Does::If(
                Check(&FACE_RECENT),
                &Does::Seq(&[
                    Does::Anim(Anim::Key("animWhenSeesFace")),
                    Does::Delegate(&[Ref::Key("behavior")]),
                ]),
                &Does::Nothing,
            ),
        ]),
    },
    ClassLogic {
        name: "FindFaces",
        pred: Pred::True,
        // AnyFace with a recent face: nothing; else the search.
        does: Does::If(
            Check(&ANY_FACE_ALREADY),
            &Does::Nothing,
            &Does::Delegate(&[Ref::Key("searchBehavior")]),
        ),
    },
    ClassLogic {
        name: "DriveToFace",
        // (The resume after a cliff interruption is not modelled: see the report.)
        pred: Pred::IntentPending(&["imperative_come"]),
        // Claims imperative_come (the table's claims), finds a face, drives to it, success
        // animation, tracks it until the face-tracking time runs out.
        does: Does::Seq(&[
            Does::Anim(Anim::Key("initialAnimation")),
            Does::Delegate(&[Ref::Key("findFaceBehavior")]),
            Does::Work,
            Does::Anim(Anim::Key("animationAfterDrive")),
            Does::Wait(Dur::KeySecs("timeUntilCancelFaceTrack_s", 0.0)),
        ]),
    },
    ClassLogic {
        name: "LookAtMe",
        pred: Pred::Test(&FACE_KNOWN),
        does: Does::Seq(&[
            Does::Anim(Anim::Key("animGetIn")),
            Does::Repeat(
                Count::Key("numLoops", 1),
                &Does::Anim(Anim::Key("animLoop")),
            ),
            Does::Anim(Anim::Key("animGetOut")),
        ]),
    },
    ClassLogic {
        name: "SayName",
        pred: Pred::Test(&FACE_KNOWN),
        // Knows the name: says it; else waits for recognition, then "don't know".
        does: Does::If(
            Check(&NAMED_FACE_RECENT),
            &Does::Anim(Anim::KeyOr("knowNameAnimation", "MeetVictorSayNameAgain")),
            &Does::Seq(&[
                Does::Wait(Dur::KeySecs("waitForRecognitionMaxTime_sec", 0.0)),
                Does::Anim(Anim::KeyOr(
                    "dontKnowNameAnimation",
                    "MeetVictorSawWrongFace",
                )),
            ]),
        ),
    },
    ClassLogic {
        name: "SearchWithinBoundingBox",
        pred: Pred::True,
        does: Does::Repeat(
            Count::Key("howManySearches", 1),
            &Does::Seq(&[
                Does::Wait(Dur::KeySecs("waitBeforeTurning_s", 0.0)),
                Does::Work,
            ]),
        ),
    },
    ClassLogic {
        name: "LookAtFaceInFront",
        pred: Pred::True,
        // Turns to a face seen since activation, else looks up and waits for one.
        does: Does::Work,
    },
    ClassLogic {
        name: "TurnToFace",
        pred: Pred::Test(&FACE_KNOWN),
        does: Does::Work,
    },
    ClassLogic {
        name: "InteractWithFaces",
        pred: Pred::Test(&FACE_SINCE_LAST_RUN),
        // The initial named/unnamed animation, then tracks the face for its minimum time.
        does: Does::Seq(&[
            Does::If(
                Check(&NAMED_FACE_RECENT),
                &Does::Anim(Anim::Trigger("InteractWithFacesInitialNamed")),
                &Does::Anim(Anim::Trigger("InteractWithFacesInitialUnnamed")),
            ),
            Does::Wait(Dur::KeySecs("minTimeToTrackFaceLowerBound_s", 0.0)),
        ]),
    },
    ClassLogic {
        name: "TrackFace",
        pred: Pred::True,
        // Tracks the best face; never ends by itself.
        does: Does::Forever,
    },
    ClassLogic {
        name: "EnrollFace",
        // (A resume or a rescan set by a parent is not modelled: see the report.)
        pred: Pred::IntentPending(&["meet_victor"]),
        // Claims meet_victor; scans the face, says the name.
        does: Does::Seq(&[Does::Work, Does::Anim(Anim::Trigger("MeetVictorSayName"))]),
    },
    ClassLogic {
        name: "FistBump",
        pred: Pred::True,
        // Looks for a face (if configured), requests the bump, waits for it; no bump felt
        // (the bump is not modelled): left hanging.
        does: Does::Seq(&[
            Does::IfKey("maxTimeToLookForFace_s", &Does::Work, &Does::Nothing),
            Does::Anim(Anim::Trigger("FistBumpRequestOnce")),
            Does::Anim(Anim::Trigger("FistBumpLeftHanging")),
        ]),
    },
];
