//! Class predicates and outcomes of the cube classes (original-class-predicates.md §2.7;
//! see [`super`]).
//!
//! **The target cube.** The original's object-interaction cache picks the best cube for
//! picking up, rolling or a wheelie; the robot state keeps located objects only, so a
//! class with a target wants to run when a light cube is located. The cube connection is
//! the robot's (`cube_connected`); connecting is work the robot does, not modelled here.

use std::time::Duration;

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Check, Does, Ref};
use crate::predicate::{Pred, PredCx, Test};
use crate::robot_state::LocatedObject;

/// A light cube is located.
pub(crate) const CUBE_KNOWN: Test = Test {
    text: "a light cube is located",
    reads: &[reads::OBJECTS],
    eval: |cx: &PredCx<'_>| cx.robot.objects.iter().any(LocatedObject::is_light_cube),
    until: None,
};

/// Carrying an object.
const CARRYING: Test = Test {
    text: "carrying an object",
    reads: &[reads::CARRYING],
    eval: |cx: &PredCx<'_>| cx.robot.carrying_object,
    until: None,
};

/// A cube connection is active.
const CONNECTED: Test = Test {
    text: "a cube is connected",
    reads: &[reads::CUBE_CONNECTED],
    eval: |cx: &PredCx<'_>| cx.robot.cube_connected,
    until: None,
};

/// TrackCube's visible cubes: light cubes observed within `maxTimeSinceObserved_ms` and at
/// most `maxDistance_mm` away; the latest observation among them.
fn visible_cube(cx: &PredCx<'_>) -> Option<Duration> {
    let max_age = cx.f64("maxTimeSinceObserved_ms", 2000.0).clamp(0.0, 1e12) as u64;
    let max_d = cx.f64("maxDistance_mm", 1000.0);
    let latest = cx.robot.latest_message_ms;
    cx.robot
        .objects
        .iter()
        .filter(|o| o.is_light_cube() && f64::from(o.distance_mm) <= max_d)
        .filter(|o| latest.saturating_sub(o.last_observed_ms) <= max_age)
        .map(|o| Duration::from_millis(o.last_observed_ms))
        .max()
}

fn max_age(cx: &PredCx<'_>) -> Duration {
    Duration::from_millis(cx.f64("maxTimeSinceObserved_ms", 2000.0).clamp(0.0, 1e12) as u64)
}

/// TrackCube: a light cube visible.
const CUBE_VISIBLE: Test = Test {
    text: "a light cube seen within `maxTimeSinceObserved_ms`, at most `maxDistance_mm` away",
    reads: &[reads::OBJECTS],
    eval: |cx: &PredCx<'_>| visible_cube(cx).is_some(),
    until: Some(|cx: &PredCx<'_>| cx.window_end(visible_cube(cx), max_age(cx))),
};

/// The cube classes' logic.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "ConnectToCube",
        pred: Pred::True,
        // Connected: the delegate. Else get-in, loop, then success and the delegate.
        does: Does::Seq(&[
            Does::If(
                Check(&CONNECTED),
                &Does::Nothing,
                &Does::Seq(&[
                    Does::Anim(Anim::Trigger("ConnectToCubeGetIn")),
                    Does::Anim(Anim::Trigger("ConnectToCubeLoop")),
                    Does::Anim(Anim::Trigger("ConnectToCubeSuccess")),
                ]),
            ),
            Does::Delegate(&[Ref::Key("delegateBehaviorID")]),
        ]),
    },
    ClassLogic {
        name: "FindCube",
        pred: Pred::True,
        // Off the charger, checks the last known pose and in front, searches; found: the
        // reaction (unless skipped); else FetchCubeFailure.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("DriveOffChargerCube")]),
            Does::If(Check(&CUBE_KNOWN), &Does::Nothing, &Does::Work),
            Does::If(
                Check(&CUBE_KNOWN),
                &Does::IfKey(
                    "skipReactToCubeAnim",
                    &Does::Nothing,
                    &Does::Anim(Anim::Trigger("FindCubeReactToCube")),
                ),
                &Does::Anim(Anim::Trigger("FetchCubeFailure")),
            ),
        ]),
    },
    ClassLogic {
        name: "FindCubeAndThen",
        pred: Pred::True,
        // FindCube, the pre-dock pose, the optional connection, the follow-up; failure:
        // FetchCubeFailure.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("FindCube")]),
            Does::If(
                Check(&CUBE_KNOWN),
                &Does::Seq(&[
                    Does::Work,
                    Does::IfKey(
                        "skipConnectToCubeBehavior",
                        &Does::Nothing,
                        &Does::Delegate(&[Ref::Id("ConnectToCube")]),
                    ),
                    Does::Delegate(&[Ref::Key("followUpBehaviorID")]),
                ]),
                &Does::Anim(Anim::Trigger("FetchCubeFailure")),
            ),
        ]),
    },
    ClassLogic {
        name: "FetchCube",
        pred: Pred::True,
        // Off the charger, looks for the user, finds the cube, picks it up, brings it
        // back, sets it down: success or failure.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("DriveOffChargerFace")]),
            Does::Delegate(&[Ref::Id("FindFacesFetchCube")]),
            Does::Delegate(&[Ref::Id("FindCube")]),
            Does::If(
                Check(&CUBE_KNOWN),
                &Does::Seq(&[
                    Does::IfKey(
                        "skipConnectToCubeBehavior",
                        &Does::Nothing,
                        &Does::Delegate(&[Ref::Id("ConnectToCube")]),
                    ),
                    Does::Delegate(&[Ref::Id("PickupCubeNoInitialReaction")]),
                    Does::Work,
                    Does::Anim(Anim::Trigger("FetchCubeSetDown")),
                    Does::Anim(Anim::Trigger("FetchCubeSuccess")),
                ]),
                &Does::Anim(Anim::Trigger("FetchCubeFailure")),
            ),
        ]),
    },
    ClassLogic {
        name: "PickUpCube",
        pred: Pred::Test(&CUBE_KNOWN),
        does: Does::Seq(&[
            Does::IfKey(
                "skipInitialReactionAnim",
                &Does::Nothing,
                &Does::Anim(Anim::Trigger("PickupCubePreperation")),
            ),
            Does::Work,
            Does::Anim(Anim::Trigger("PickupCubeSuccess")),
        ]),
    },
    ClassLogic {
        name: "PutDownBlockAtPose",
        pred: Pred::Test(&CARRYING),
        // Drives to the destination and puts the cube down.
        does: Does::Seq(&[Does::Work, Does::Anim(Anim::Trigger("PutDownBlockPutDown"))]),
    },
    ClassLogic {
        name: "RollBlock",
        pred: Pred::Test(&CUBE_KNOWN),
        does: Does::Seq(&[Does::Work, Does::Anim(Anim::Trigger("RollBlockSuccess"))]),
    },
    ClassLogic {
        name: "PopAWheelie",
        pred: Pred::Test(&CUBE_KNOWN),
        does: Does::Seq(&[
            Does::IfKey(
                "playCubeReaction",
                &Does::Anim(Anim::Trigger("PopAWheelieInitial")),
                &Does::Nothing,
            ),
            Does::Work,
            Does::Anim(Anim::Trigger("SuccessfulWheelie")),
        ]),
    },
    ClassLogic {
        name: "PlaceCubeByCharger",
        pred: Pred::Test(&CUBE_KNOWN),
        // Picks the cube up, finds the charger, carries the cube next to it.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("PickupCube")]),
            Does::Work,
            Does::Delegate(&[Ref::Id("PutDownBlockAtPose")]),
            Does::Anim(Anim::Trigger("PlaceCubeByChargerSuccess")),
        ]),
    },
    ClassLogic {
        name: "InspectCube",
        pred: Pred::True,
        // Get-in, then plays with the held cube (the play behavior or Keepaway), bored
        // after a while.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("InvestigateHeldCubeGetIn")),
            Does::Delegate(&[Ref::Key("PlayWithCubeBehaviorID"), Ref::Id("Keepaway")]),
        ]),
    },
    ClassLogic {
        name: "Keepaway",
        pred: Pred::True,
        // The pounce game, ending with a get-out.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("CubePounceGetIn")),
            Does::Work,
            Does::Anim(Anim::Trigger("CubePounceGetOutBored")),
        ]),
    },
    ClassLogic {
        name: "TrackCube",
        pred: Pred::Test(&CUBE_VISIBLE),
        // Tracks it; ends when none is visible.
        does: Does::WhileHolds(&Does::Forever),
    },
    ClassLogic {
        name: "VectorPlaysCubeSpinner",
        pred: Pred::True,
        // Finds the cube and plays the rounds.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("CubeSpinnerLookAroundInPlace")]),
            Does::Work,
        ]),
    },
];
