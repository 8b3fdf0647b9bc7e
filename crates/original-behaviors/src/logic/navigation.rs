//! Class predicates and outcomes of the charger, navigation, observing and exploring
//! classes (original-class-predicates.md §2.5; see [`super`]).
//!
//! **What the robot does not model here, and how the entries read it.** The robot's pose
//! is not modelled (it does not move in the simulation): a class that remembers the places
//! it ran (LookAroundInPlace) is therefore near every one of them once it has run. Driving,
//! turning, docking and searching are one timed action per step ([`Does::Work`]); their
//! effect on the robot state (leaving the platform, reaching the contacts) comes from the
//! robot or the scenario, and the classes that wait for it end when their predicate turns
//! false ([`Does::WhileHolds`]).

use std::time::Duration;

use serde_json::Value;

use super::reads;
use super::ClassLogic;
use crate::does::{lookup, Anim, Check, Count, Does, Dur, Ref};
use crate::predicate::{Pred, PredCx, Test};
use crate::robot_state::{LocatedObject, OffTreads};

/// On the charger platform (contacts not required).
pub(crate) const ON_PLATFORM: Test = Test {
    text: "on the charger platform",
    reads: &[reads::ON_PLATFORM],
    eval: |cx: &PredCx<'_>| cx.robot.on_charger_platform,
    until: None,
};

/// On the charger's contacts.
const ON_CONTACTS: Test = Test {
    text: "on the charger contacts",
    reads: &[reads::ON_CHARGER],
    eval: |cx: &PredCx<'_>| cx.robot.on_charger,
    until: None,
};

/// A charger is located (its pose is known).
pub(crate) const CHARGER_KNOWN: Test = Test {
    text: "a charger is located",
    reads: &[reads::OBJECTS],
    eval: |cx: &PredCx<'_>| cx.robot.objects.iter().any(LocatedObject::is_charger),
    until: None,
};

/// Exploring's `allowNoCharger`.
const ALLOW_NO_CHARGER: Test = Test {
    text: "`allowNoCharger`",
    reads: &[],
    eval: |cx: &PredCx<'_>| cx.bool("allowNoCharger", false),
    until: None,
};

/// A light cube lies in the charger's docking area.
const CUBE_IN_CHARGER_AREA: Test = Test {
    text: "a light cube is in the charger's docking area",
    reads: &[reads::CUBE_EVENTS],
    eval: |cx: &PredCx<'_>| cx.robot.signals.cube_in_charger_area,
    until: None,
};

/// WiggleOntoChargerContacts: on treads, or in the air pitched −25° to 10°.
const WIGGLE_POSE: Test = Test {
    text: "on treads, or in the air with pitch -25..10 deg",
    reads: &[reads::OFF_TREADS, reads::POSE],
    eval: |cx: &PredCx<'_>| match cx.robot.off_treads().0 {
        OffTreads::OnTreads => true,
        OffTreads::InAir => (-25.0..=10.0).contains(&cx.robot.pitch_deg),
        _ => false,
    },
    until: None,
};

/// ExploringExamineObstacle: an obstacle seen ahead or at the side (the navigation map is
/// the robot's own and always there).
const OBSTACLE: Test = Test {
    text: "an obstacle is seen ahead or at the side",
    reads: &[reads::OBSTACLE],
    eval: |cx: &PredCx<'_>| cx.robot.obstacle_detected,
    until: None,
};

/// BumpObject: the prox sensor sees something within [`minDist_mm`, `maxDist_mm`].
const PROX_IN_BUMP_RANGE: Test = Test {
    text: "the prox sensor sees an object within [`minDist_mm`, `maxDist_mm`]",
    reads: &[reads::PROX],
    eval: |cx: &PredCx<'_>| {
        let (min, max) = (
            cx.f64("minDist_mm", 0.0),
            cx.f64("maxDist_mm", f64::INFINITY),
        );
        cx.robot
            .prox_mm
            .is_some_and(|d| (min..=max).contains(&f64::from(d)))
    },
    until: None,
};

/// ProxGetToDistance: the prox sensor sees something not within `tolerence_mm` of
/// `goalDistance_mm`.
const PROX_OFF_GOAL: Test = Test {
    text: "the prox sensor sees an object not within `tolerence_mm` of `goalDistance_mm`",
    reads: &[reads::PROX],
    eval: |cx: &PredCx<'_>| {
        let (goal, tol) = (cx.f64("goalDistance_mm", 0.0), cx.f64("tolerence_mm", 0.0));
        cx.robot
            .prox_mm
            .is_some_and(|d| (f64::from(d) - goal).abs() > tol)
    },
    until: None,
};

/// LookAroundInPlace: not within `behavior_DistanceFromRecentLocationMin_mm` of one of the
/// last `behavior_RecentLocationsMax` places it ran. It keeps no places when either is 0;
/// otherwise, the robot's pose not being modelled (it never moves), every place it ran is
/// here: it holds until it has run once.
const NOT_NEAR_RECENT_PLACE: Test = Test {
    text: "not near a place it recently ran (keeps none, or has not run yet: the robot's pose is not modelled)",
    reads: &[reads::STACK],
    eval: |cx: &PredCx<'_>| {
        let num = |k: &str| {
            lookup(cx.keys, k)
                .and_then(Value::as_f64)
                .unwrap_or(0.0)
        };
        let keeps_none = num("params.behavior_RecentLocationsMax") <= 0.0
            || num("params.behavior_DistanceFromRecentLocationMin_mm") <= 0.0;
        keeps_none || cx.last_ran.is_none()
    },
    until: None,
};

/// The object types of ConfirmObject's `objectTypes`.
fn confirm_types<'a>(cx: &'a PredCx<'_>) -> impl Iterator<Item = &'a LocatedObject> + 'a {
    let names: Vec<&str> = cx
        .keys
        .get("objectTypes")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    cx.robot
        .objects
        .iter()
        .filter(move |o| names.contains(&o.type_name()))
}

/// ConfirmObject's minimum age: `minAgeForActivation_s` taken as MILLISECONDS (OCP §5
/// item 2, kept as the original reads it).
fn confirm_min_age_ms(cx: &PredCx<'_>) -> u64 {
    let v = cx.f64("minAgeForActivation_s", 0.0);
    if v.is_finite() && v > 0.0 {
        v.min(1.0e12) as u64
    } else {
        0
    }
}

/// ConfirmObject: a known object of `objectTypes` not seen recently, none seen right now.
const OLD_OBJECT_NOT_SEEN_NOW: Test = Test {
    text: "a known object of `objectTypes` not seen for `minAgeForActivation_s` (read as ms), none of them seen now",
    reads: &[reads::OBJECTS],
    eval: |cx: &PredCx<'_>| {
        let latest = cx.robot.latest_message_ms;
        let min_age = confirm_min_age_ms(cx);
        let mut old = false;
        for o in confirm_types(cx) {
            let age = latest.saturating_sub(o.last_observed_ms);
            if age == 0 {
                return false;
            }
            old |= age > min_age;
        }
        old
    },
    until: Some(|cx: &PredCx<'_>| {
        // The answer moves when an object stops being "seen now" (1 ms after it was seen)
        // and when it grows older than the minimum age.
        let min_age = confirm_min_age_ms(cx);
        let at = confirm_types(cx)
            .flat_map(|o| {
                [
                    o.last_observed_ms.saturating_add(1),
                    o.last_observed_ms.saturating_add(min_age).saturating_add(1),
                ]
            })
            .filter(|t| *t > cx.robot.latest_message_ms)
            .min();
        match at {
            Some(ms) => robot_runtime::behavior::Wakeup::At(Duration::from_millis(ms)),
            None => robot_runtime::behavior::Wakeup::Never,
        }
    }),
};

/// DriveOffCharger's cues and the animation each plays.
const DRIVE_CUES: &[(&str, &str)] = &[
    ("straight", "DriveOffChargerStraight"),
    ("left", "DriveOffChargerLeft"),
    ("right", "DriveOffChargerRight"),
];

/// The navigation classes' logic.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "DriveOffCharger",
        pred: Pred::Test(&ON_PLATFORM),
        // While on the platform: the animation cues in order (the procedural and
        // face/cube/mic cues are the drive below), then the procedural straight drive, up
        // to 10 attempts; ends as soon as it is off the platform.
        does: Does::WhileHolds(&Does::Seq(&[
            Does::Anim(Anim::EachMapped("driveDirectionCues", DRIVE_CUES)),
            Does::Repeat(Count::Fixed(10), &Does::Work),
        ])),
    },
    ClassLogic {
        name: "GoHome",
        pred: Pred::All(&[
            Pred::Not(&Pred::Test(&ON_CONTACTS)),
            Pred::Test(&CHARGER_KNOWN),
        ]),
        // Faces and observes the charger, clears the docking area, drives and docks, nuzzles.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("RobustChargerObservation")]),
            Does::Delegate(&[Ref::Id("ClearChargerArea")]),
            Does::Anim(Anim::Key("drivingStartAnimTrigger")),
            Does::Work,
            Does::Anim(Anim::Key("drivingEndAnimTrigger")),
            Does::Anim(Anim::Key("nuzzleAnimTrigger")),
        ]),
    },
    ClassLogic {
        name: "FindHome",
        pred: Pred::True,
        // Search turns, random drives to new poses, the post-search animation; the
        // instance's cancel condition (charger seen) usually ends it first.
        does: Does::Seq(&[
            Does::Repeat(
                Count::Key("maxNumRecentSearches", 1),
                &Does::Seq(&[
                    Does::Anim(Anim::Key("searchTurnAnimTrigger")),
                    Does::Delegate(&[Ref::Id("RobustChargerObservation")]),
                    Does::Work,
                ]),
            ),
            Does::Anim(Anim::Key("postSearchAnimTrigger")),
        ]),
    },
    ClassLogic {
        name: "RequestToGoHome",
        pred: Pred::True,
        // Finds a face, then request -> wait loop -> get-out, the normal requests then the
        // severe ones; the "low power" step is a no-op, so it ends.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("ObservingFindFaces")]),
            Does::Repeat(
                Count::Key("normal.numRequests", 1),
                &Does::Seq(&[
                    Does::Anim(Anim::Key("normal.requestAnimTrigger")),
                    Does::Anim(Anim::Key("normal.waitLoopAnimTrigger")),
                    Does::Wait(Dur::KeySecs("normal.idleWaitTime_sec", 0.0)),
                    Does::Anim(Anim::Key("normal.getoutAnimTrigger")),
                ]),
            ),
            Does::Repeat(
                Count::Key("severe.numRequests", 1),
                &Does::Seq(&[
                    Does::Anim(Anim::Key("severe.requestAnimTrigger")),
                    Does::Anim(Anim::Key("severe.waitLoopAnimTrigger")),
                    Does::Wait(Dur::KeySecs("severe.idleWaitTime_sec", 0.0)),
                    Does::Anim(Anim::Key("severe.getoutAnimTrigger")),
                ]),
            ),
        ]),
    },
    ClassLogic {
        name: "ClearChargerArea",
        pred: Pred::Test(&CUBE_IN_CHARGER_AREA),
        // Picks the cube up and moves it (or rams it out).
        does: Does::Seq(&[Does::Delegate(&[Ref::Id("PickupCube")]), Does::Work]),
    },
    ClassLogic {
        name: "WiggleOntoChargerContacts",
        pred: Pred::All(&[
            Pred::Not(&Pred::Test(&ON_CONTACTS)),
            Pred::Test(&WIGGLE_POSE),
        ]),
        // Back 15 mm at 100 mm/s, forward 6 mm, verify after 0.25 s; again until on the
        // contacts.
        does: Does::WhileHolds(&Does::Loop(&Does::Wait(Dur::Secs(0.46)))),
    },
    ClassLogic {
        name: "RobustChargerObservation",
        pred: Pred::True,
        // Levels the head and waits for images (low light: the get-in first).
        does: Does::Work,
    },
    ClassLogic {
        name: "ConfirmObject",
        pred: Pred::Test(&OLD_OBJECT_NOT_SEEN_NOW),
        // Drives to look at the known objects, farthest first; ends when one is seen (the
        // predicate turns false), none remain, or the attempts run out.
        does: Does::WhileHolds(&Does::Repeat(
            Count::Key("maxNumAttempts", crate::does::MAX_REPEAT),
            &Does::Work,
        )),
    },
    ClassLogic {
        name: "Exploring",
        pred: Pred::Any(&[Pred::Test(&ALLOW_NO_CHARGER), Pred::Test(&CHARGER_KNOWN)]),
        // Drives to sampled poses, examining obstacles on the way, with look-around pit
        // stops; ends when it has visited them (or the charger becomes unknown).
        does: Does::WhileHolds(&Does::Repeat(
            Count::Fixed(3),
            &Does::Seq(&[
                Does::Work,
                Does::Delegate(&[Ref::Id("ExploringExamineObstacle")]),
                Does::Delegate(&[Ref::Id("ShortLookAroundForFaceAndCube")]),
            ]),
        )),
    },
    ClassLogic {
        name: "ExploringExamineObstacle",
        pred: Pred::Test(&OBSTACLE),
        // Huh, checks for a hand, scans with the prox sensor, then bumps the obstacle or
        // references a human.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("ExploringHuhFar")),
            Does::Delegate(&[Ref::Id("ReactToHand")]),
            Does::Work,
            Does::Delegate(&[
                Ref::Id("ExploringBumpObject"),
                Ref::Id("ExploringReferenceHuman"),
            ]),
        ]),
    },
    ClassLogic {
        name: "BumpObject",
        pred: Pred::Test(&PROX_IN_BUMP_RANGE),
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("PokeObjectGetIn")),
            Does::Anim(Anim::Trigger("PokeObjectDriveLoop")),
            Does::Anim(Anim::Trigger("PokeObjectGetOut")),
        ]),
    },
    ClassLogic {
        name: "LookAroundInPlace",
        pred: Pred::Test(&NOT_NEAR_RECENT_PLACE),
        // Opposite turn, pause, main turn, head looks, final turn: with a cone, for
        // `behavior_NumberOfScansBeforeStop` sweeps; without, forever.
        does: Does::IfKey(
            "params.behavior_AngleOfFocus_deg",
            &Does::Repeat(
                Count::Key("params.behavior_NumberOfScansBeforeStop", 1),
                &LOOK_AROUND_SWEEP,
            ),
            &Does::Loop(&LOOK_AROUND_SWEEP),
        ),
    },
    ClassLogic {
        name: "ObservingWithoutTurn",
        pred: Pred::True,
        // Looks up, idles, looks straight, idles; never ends by itself.
        does: Does::Loop(&Does::Seq(&[
            Does::Anim(Anim::Trigger("ObservingLookUp")),
            Does::Anim(Anim::Trigger("ObservingIdleWithHeadLookingUp")),
            Does::Anim(Anim::Trigger("ObservingLookStraight")),
            Does::Anim(Anim::Trigger("ObservingIdleWithHeadLookingStraight")),
        ])),
    },
    ClassLogic {
        name: "ObservingLookAtFaces",
        pred: Pred::True,
        // A recent face: turns to it and stares; else the search behavior. The search
        // timeout ends it.
        does: Does::If(
            Check(&super::faces::FACE_RECENT),
            &Does::Seq(&[
                Does::If(
                    Check(&super::faces::NAMED_FACE_RECENT),
                    &Does::Anim(Anim::Trigger("InteractWithFacesInitialNamed")),
                    &Does::Anim(Anim::Trigger("InteractWithFacesInitialUnnamed")),
                ),
                Does::Wait(Dur::KeySecs("staringTime_sec", 6.0)),
            ]),
            &Does::Delegate(&[Ref::Key("searchBehavior")]),
        ),
    },
    ClassLogic {
        name: "LookForFaceAndCube",
        pred: Pred::Not(&Pred::All(&[
            Pred::Test(&STOP_ON_CUBE),
            Pred::Test(&super::cubes::CUBE_KNOWN),
        ])),
        // Looks center and to the sides for faces, then for cubes.
        does: Does::WhileHolds(&Does::Seq(&[
            Does::Repeat(
                Count::Key("face_sidePicks", 1),
                &Does::Seq(&[Does::Work, Does::Anim(Anim::Key("lookInPlaceAnimTrigger"))]),
            ),
            Does::Repeat(
                Count::Key("cube_sidePicks", 1),
                &Does::Seq(&[Does::Work, Does::Anim(Anim::Key("lookInPlaceAnimTrigger"))]),
            ),
        ])),
    },
    ClassLogic {
        name: "ProxGetToDistance",
        pred: Pred::Test(&PROX_OFF_GOAL),
        // Drives to close the distance; ends at the goal or when the prox loses the object.
        does: Does::WhileHolds(&Does::Loop(&Does::Work)),
    },
    ClassLogic {
        name: "PounceWithProx",
        pred: Pred::True,
        // Head down, lift up, waits for motion (or 5 s), pounces, success or fail.
        does: Does::Seq(&[Does::Wait(Dur::Secs(5.0)), Does::Work]),
    },
];

/// LookForFaceAndCube's `stopBehaviorOnCube`.
const STOP_ON_CUBE: Test = Test {
    text: "`stopBehaviorOnCube`",
    reads: &[],
    eval: |cx: &PredCx<'_>| cx.bool("stopBehaviorOnCube", false),
    until: None,
};

/// One LookAroundInPlace sweep.
const LOOK_AROUND_SWEEP: Does = Does::Seq(&[
    Does::Work,
    Does::Anim(Anim::Key("params.s2_WaitAnimTrigger")),
    Does::Work,
    Does::Anim(Anim::Key("params.s4_WaitAnimTrigger")),
    Does::Work,
]);
