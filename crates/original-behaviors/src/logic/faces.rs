//! Class predicates and outcomes of the face classes (original-class-predicates.md §2.6;
//! see [`super`]).

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Does};
use crate::predicate::{Pred, PredCx, Test};

/// RespondToRenameFace: a face-renamed message (non-empty name) heard in scope.
const RENAMED: Test = Test {
    text: "a face was renamed since it last ran",
    reads: &[reads::FACE_EVENTS],
    eval: |cx: &PredCx<'_>| cx.heard(cx.robot.signals.face_renamed),
    until: None,
};

/// The face classes' logic.
pub const LOGIC: &[ClassLogic] = &[ClassLogic {
    name: "RespondToRenameFace",
    pred: Pred::Test(&RENAMED),
    // Says the new name twice.
    does: Does::Seq(&[
        Does::Anim(Anim::Trigger("MeetVictorSayName")),
        Does::Anim(Anim::Trigger("MeetVictorSayNameAgain")),
    ]),
}];
