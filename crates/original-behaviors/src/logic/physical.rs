//! Class predicates and outcomes of the physical reactions (original-class-predicates.md
//! §2.1; see [`super`]). `ReactToCliff` and `ReactToMotorCalibration` are native
//! (`classes::reactions`); every other class of §2.1 is here.
//!
//! **Decisions.** The three "on its back / face / side" reactions have the class predicate
//! "true" in OCP, and do nothing (AD-end at once) unless the robot rests that way; their
//! predicate here is that resting state, which starts them in exactly the cases where they
//! do something, never for a robot on its treads (the fork's files of
//! `ReactToRobotOnBack` and `ReactToRobotOnSide` carry no JSON condition at all), and lets
//! `WhileHolds` end them when the robot leaves that state, as the original's AD-end does.
//! `ReactToUnexpectedMovement` is the same: its instances gate it with the
//! `UnexpectedMovement` condition, one file of the fork does not, and the class only
//! reacts to a movement. `ReactToRobotShaken` (OCP: true; its instances gate it with
//! `RobotShaken` >= 16000) is, the same way, "shaken at least at its stop threshold": implied
//! by every instance's JSON condition, so it starts exactly as the original does, and it
//! keeps the reaction going while the shake lasts (the original loops its level's animation
//! until the magnitude drops below the stop threshold) instead of ending and starting again.

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Does, Dur, Ref};
use crate::predicate::{Pred, PredCx, Test};
use crate::robot_state::OffTreads;

/// The cliff sensors' bits (`RobotState::cliffs`): FL, FR, BL, BR.
const FRONT_PAIR: u8 = 0b0011;
const BACK_PAIR: u8 = 0b1100;

/// The stop threshold of a shake reaction: `shakeThresholdStop`, else the lowest
/// `shakeAnimations` threshold, else the RobotShaken gate's 16000.
fn shake_stop(cx: &PredCx<'_>) -> f32 {
    let keys = cx.keys;
    if let Some(v) = keys.get("shakeThresholdStop").and_then(|v| v.as_f64()) {
        return v as f32;
    }
    keys.get("shakeAnimations")
        .and_then(|v| v.as_array())
        .and_then(|a| {
            a.iter()
                .filter_map(|e| e.get("threshold").and_then(|t| t.as_f64()))
                .reduce(f64::min)
        })
        .map_or(16_000.0, |t| t as f32)
}

const SHAKEN: Test = Test {
    text: "shaken at least at its stop threshold (`shakeThresholdStop` or the lowest `shakeAnimations` threshold)",
    reads: &[reads::ACCEL],
    eval: |cx: &PredCx<'_>| cx.robot.accel_magnitude >= shake_stop(cx),
    until: None,
};

const ON_BACK: Test = Test {
    text: "the robot lies on its back",
    reads: &[reads::OFF_TREADS],
    eval: |cx: &PredCx<'_>| cx.robot.off_treads().0 == OffTreads::OnBack,
    until: None,
};

const ON_FACE: Test = Test {
    text: "the robot lies on its face",
    reads: &[reads::OFF_TREADS],
    eval: |cx: &PredCx<'_>| cx.robot.off_treads().0 == OffTreads::OnFace,
    until: None,
};

const ON_SIDE: Test = Test {
    text: "the robot lies on its left or right side",
    reads: &[reads::OFF_TREADS],
    eval: |cx: &PredCx<'_>| {
        matches!(
            cx.robot.off_treads().0,
            OffTreads::OnLeftSide | OffTreads::OnRightSide
        )
    },
    until: None,
};

const NO_BACK_CLIFF: Test = Test {
    text: "no back cliff sensor detects (none, or only front sensors)",
    reads: &[reads::CLIFFS],
    eval: |cx: &PredCx<'_>| cx.robot.cliffs() & BACK_PAIR == 0,
    until: None,
};

const UNEXPECTED: Test = Test {
    text: "an unexpected movement is detected",
    reads: &[reads::UNEXPECTED_MOVEMENT],
    eval: |cx: &PredCx<'_>| cx.robot.unexpected_movement,
    until: None,
};

const PALM_EDGE: Test = Test {
    text: "held in a palm with exactly the front pair or exactly the back pair of cliff sensors detecting",
    reads: &[reads::PALM, reads::CLIFFS],
    eval: |cx: &PredCx<'_>| {
        let c = cx.robot.cliffs();
        cx.robot.held_in_palm() && (c == FRONT_PAIR || c == BACK_PAIR)
    },
    until: None,
};

const BUSY_SYSTEM: Test = Test {
    text: "in power-save or an animation playing",
    reads: &[reads::SYSTEM],
    eval: |cx: &PredCx<'_>| cx.robot.signals.power_save || cx.robot.signals.animation_playing,
    until: None,
};

const MOTORS_OUT: Test = Test {
    text: "the head or lift motor is out of bounds or its encoder invalid",
    reads: &[reads::CALIBRATION],
    eval: |cx: &PredCx<'_>| {
        let s = &cx.robot.signals;
        s.head.needs_calibration() || s.lift.needs_calibration()
    },
    until: None,
};

/// The physical reactions' logic.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "AskForHelp",
        // Instances gate it with StuckOnEdge / CliffDetected conditions.
        pred: Pred::True,
        // A get-in, then its idle loop forever (the get-in/idle pair by cliff side is the
        // animation's choice; instances end it with a cancel condition).
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("StuckOnEdgeGetIn")),
            Does::Loop(&Does::Anim(Anim::Trigger("StuckOnEdgeIdle"))),
        ]),
    },
    ClassLogic {
        name: "ReactToRobotOnBack",
        pred: Pred::Test(&ON_BACK),
        // Flips down (a robot on its back sees a cliff under every sensor), waits 0.5 s and
        // tries again while still on its back. `exitIfHeld` (unused by the tree) is not
        // modelled: instances gate it on "not held".
        does: Does::WhileHolds(&Does::Loop(&Does::Seq(&[
            Does::Anim(Anim::Trigger("FlipDownFromBack")),
            Does::Wait(Dur::Secs(0.5)),
        ]))),
    },
    ClassLogic {
        name: "ReactToRobotOnFace",
        pred: Pred::Test(&ON_FACE),
        // Rolls over, and while still on its face waits 0.5 s, shows the failed attempt and
        // tries again.
        does: Does::WhileHolds(&Does::Loop(&Does::Seq(&[
            Does::Anim(Anim::Trigger("FacePlantRoll")),
            Does::Wait(Dur::Secs(0.5)),
            Does::Anim(Anim::Trigger("FailedToRightFromFace")),
        ]))),
    },
    ClassLogic {
        name: "ReactToRobotOnSide",
        pred: Pred::Test(&ON_SIDE),
        // The effort loop while on a side; it ends when the robot is back on its treads
        // (or any other state). Not modelled by the table: the side-specific get-in and
        // get-out and the ask-for-help hand-over after `askForHelpAfter_sec`.
        does: Does::WhileHolds(&Does::Loop(&Does::Anim(Anim::Trigger(
            "ReactToOnSideEffort",
        )))),
    },
    ClassLogic {
        name: "ReactToPlacedOnSlope",
        pred: Pred::Test(&NO_BACK_CLIFF),
        // The perched-on-block reaction (the head-only recalibration of a repeat within
        // 10 s is not modelled); a back cliff sensor firing ends it (WhileHolds).
        does: Does::WhileHolds(&Does::Anim(Anim::Trigger("ReactToPerchedOnBlock"))),
    },
    ClassLogic {
        name: "ReactToUnexpectedMovement",
        pred: Pred::Test(&UNEXPECTED),
        // The reaction animation (the repeated-activation retreat and the hand-over to
        // AskForHelp are not modelled by the table).
        does: Does::Anim(Anim::Trigger("ReactToUnexpectedMovement")),
    },
    ClassLogic {
        name: "ReactToRobotShaken",
        // Instances gate it with RobotShaken; see the module docs.
        pred: Pred::Test(&SHAKEN),
        // The get-in (the shake levels of `shakeAnimations` follow the accelerometer, which
        // the table does not step through), then ends. An instance with the other key set
        // (`shakeThresholdStop/Medium/Hard`, no `getInAnimation`) plays the shake reaction
        // by its trigger, never nothing (an empty reaction would end the tick it starts and
        // start again while the shake lasts).
        does: Does::Seq(&[
            Does::IfKey(
                "getInAnimation",
                &Does::Anim(Anim::Key("getInAnimation")),
                &Does::Anim(Anim::Trigger("ReactToShake")),
            ),
            Does::WhileHolds(&Does::Loop(&Does::Anim(Anim::Trigger("ReactToShakeLoop")))),
        ]),
    },
    ClassLogic {
        name: "ReactToPutDown",
        pred: Pred::True,
        // The put-down reaction, a look up (the head and lift calibration between them is
        // not an action here), then its anonymous wait child until it ends.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("ReactToPutDown")),
            Does::Anim(Anim::Trigger("ObservingLookUp")),
            Does::Delegate(&[Ref::Id("PutDownWaitInternal")]),
        ]),
    },
    ClassLogic {
        name: "ReactToPalmEdge",
        pred: Pred::Test(&PALM_EDGE),
        // The nervous look of a robot on a palm's edge while the edge is still seen (the
        // front/back cliff reaction and the back-up are chosen by code the table does not
        // have); instances cancel it when no longer in the palm.
        does: Does::WhileHolds(&Does::Anim(Anim::Trigger("HeldOnPalmLookingNervous"))),
    },
    ClassLogic {
        name: "InitialHeldInPalmReaction",
        pred: Pred::True,
        // Its anonymous animation child (the jolt and interrupting behaviors that replace
        // it are the tree's own dispatchers' to choose here).
        does: Does::Delegate(&[Ref::Id("InitialHeldInPalmReactionInternal")]),
    },
    ClassLogic {
        name: "ReactToUncalibratedHeadAndLift",
        pred: Pred::All(&[
            Pred::Not(&Pred::Test(&BUSY_SYSTEM)),
            Pred::Not(&Pred::AnyIntentPending),
            Pred::Not(&Pred::AnyIntentActive),
            // The cloud stream is open from the trigger word until the voice command ends.
            Pred::Not(&Pred::TriggerWordPending),
            Pred::Not(&Pred::ClassActive(&["ReactToVoiceCommand"])),
            Pred::Test(&MOTORS_OUT),
            Pred::Not(&Pred::ClassActive(&["BlackJack", "FistBump", "Alexa"])),
        ]),
        // Calibrating: it stays until the motors report themselves back in bounds (the
        // robot's calibration is the robot's; the predicate then turns false and it ends).
        does: Does::WhileHolds(&Does::Forever),
    },
    ClassLogic {
        name: "ReactToFrustration",
        pred: Pred::True,
        // Its animation (the random drive afterwards is not an action here).
        does: Does::Anim(Anim::Key("anim")),
    },
];
