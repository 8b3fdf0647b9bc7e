//! Class predicates and outcomes of the sensing and ambient reactions
//! (original-class-predicates.md §2.2; see [`super`]). `ReactToSound` and
//! `ReactToMicDirection` are native (`classes::reactions`); every other class of §2.2 is
//! here.

use std::time::Duration;

use robot_runtime::behavior::Wakeup;

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Does, Dur, Ref};
use crate::predicate::{Pred, PredCx, Read, Test};
use crate::robot_state::{BehaviorTimers, Illumination};

const TOUCH_PRESSED: Test = Test {
    text: "the touch sensor is pressed",
    reads: &[reads::TOUCH],
    eval: |cx: &PredCx<'_>| cx.robot.touched_for().is_some(),
    until: None,
};

/// When darkness counts as confirmed: `lookWaitTime_s` after it was first seen.
fn dark_confirmed_at(cx: &PredCx<'_>) -> Option<Duration> {
    let (state, since) = cx.robot.signals.illumination;
    (state == Illumination::Darkened).then(|| {
        let wait = cx.f64("lookWaitTime_s", 0.0);
        let wait = if wait.is_finite() && wait > 0.0 {
            Duration::from_secs_f64(wait.min(1.0e6))
        } else {
            Duration::ZERO
        };
        since.saturating_add(wait)
    })
}

const DARK: Test = Test {
    text: "darkness fallen in scope and seen for lookWaitTime_s",
    reads: &[reads::ILLUMINATION],
    // Its private IlluminationDetected condition is switched on when it enters scope and
    // reports the change to dark: darkness that fell before its scope entry or its last
    // run is not new.
    eval: |cx: &PredCx<'_>| {
        cx.heard(Some(cx.robot.signals.illumination.1))
            && dark_confirmed_at(cx).is_some_and(|t| cx.now >= t)
    },
    until: Some(|cx: &PredCx<'_>| match dark_confirmed_at(cx) {
        Some(t) if cx.now < t => Wakeup::At(t),
        _ => Wakeup::Never,
    }),
};

/// Motion "last tick": within this of now.
const MOTION_WINDOW: Duration = Duration::from_millis(100);

const MOTION: Test = Test {
    text: "motion seen in the Left, Right or Top area in the last tick (100 ms)",
    reads: &[reads::MOTION],
    eval: |cx: &PredCx<'_>| {
        cx.robot
            .signals
            .motion
            .iter()
            .any(|t| cx.within(*t, MOTION_WINDOW))
    },
    until: Some(|cx: &PredCx<'_>| {
        cx.robot.signals.motion.iter().fold(Wakeup::Never, |w, t| {
            w.min(cx.window_end(*t, MOTION_WINDOW))
        })
    }),
};

/// A cube tap counts this long (OCP gives no response window).
const TAP_WINDOW: Duration = Duration::from_secs(1);

const CUBE_TAPPED: Test = Test {
    text: "a cube was tapped in scope, at most 1 s ago",
    reads: &[reads::CUBE_EVENTS],
    eval: |cx: &PredCx<'_>| {
        let t = cx.robot.signals.cube_tapped;
        cx.heard(t) && cx.within(t, TAP_WINDOW)
    },
    until: Some(|cx: &PredCx<'_>| cx.window_end(cx.robot.signals.cube_tapped, TAP_WINDOW)),
};

/// GreetAfterLongTime's cooldown per name, by the robot's age.
fn greet_cooldown(hours_alive: f32) -> Duration {
    let mins = match hours_alive {
        h if h < 24.0 => 30,
        h if h < 24.0 * 7.0 => 60,
        h if h < 24.0 * 14.0 => 120,
        _ => 240,
    };
    Duration::from_secs(mins * 60)
}

/// "Activate until" lasts this after the sighting.
const GREET_WINDOW: Duration = Duration::from_secs(5);

/// The sightings that set "activate until": a named face seen in scope, whose previous
/// sighting is at least the cooldown ago (the fork's file's `cooldown_s` when given).
fn greet_sightings<'a>(cx: &'a PredCx<'_>) -> impl Iterator<Item = Duration> + 'a {
    let cooldown = match cx
        .keys
        .get("cooldown_s")
        .and_then(serde_json::Value::as_f64)
    {
        Some(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s.min(1.0e9)),
        _ => greet_cooldown(cx.robot.hours_alive),
    };
    cx.robot
        .signals
        .sightings
        .iter()
        .filter(move |s| {
            s.previous
                .is_some_and(|p| s.last.saturating_sub(p) >= cooldown)
                && cx.heard(Some(s.last))
        })
        .map(|s| s.last)
}

const GREET: Test = Test {
    text: "wall time known and a named face seen again after its cooldown (30 min to 4 h by the robot's age), at most 5 s ago",
    reads: &[reads::FACE_EVENTS, reads::HOURS_ALIVE, reads::SYSTEM],
    eval: |cx: &PredCx<'_>| {
        cx.robot.signals.wall_time_known
            && greet_sightings(cx).any(|t| cx.within(Some(t), GREET_WINDOW))
    },
    until: Some(|cx: &PredCx<'_>| {
        greet_sightings(cx).fold(Wakeup::Never, |w, t| {
            w.min(cx.window_end(Some(t), GREET_WINDOW))
        })
    }),
};

fn hours_key(cx: &PredCx<'_>, key: &str) -> Duration {
    let h = cx.f64(key, 0.0);
    if h.is_finite() && h > 0.0 {
        Duration::from_secs_f64((h * 3600.0).min(1.0e9))
    } else {
        Duration::ZERO
    }
}

const PERFORMANCE_OFF_COOLDOWN: Test = Test {
    text: "cooldown_hours since it last ran",
    reads: &[reads::STACK],
    eval: |cx: &PredCx<'_>| {
        cx.last_ran
            .is_none_or(|t| cx.now.saturating_sub(t) >= hours_key(cx, "cooldown_hours"))
    },
    until: Some(|cx: &PredCx<'_>| match cx.last_ran {
        Some(t) => {
            let end = t.saturating_add(hours_key(cx, "cooldown_hours"));
            if cx.now < end {
                Wakeup::At(end)
            } else {
                Wakeup::Never
            }
        }
        None => Wakeup::Never,
    }),
};

/// PossiblePerformance's roll: a random draw every `period_hours` the class keeps; a
/// predicate of robot state cannot draw it.
const ROLL: Read = Read::unmodelled("PossiblePerformance's probability roll");

const PERFORMANCE_ROLL: Test = Test {
    text: "the last probability roll passed",
    reads: &[ROLL],
    eval: |_| false,
    until: None,
};

const FACE_WINDOW: Duration = Duration::from_secs(2);

/// The latest sighting of a named (recognizable) face.
fn last_named_face(cx: &PredCx<'_>) -> Option<Duration> {
    cx.robot
        .faces
        .iter()
        .filter(|f| f.named)
        .map(|f| f.last_seen)
        .max()
}

const NAMED_FACE_2S: Test = Test {
    text: "a recognizable face seen in the last 2 s",
    reads: &[reads::FACES],
    eval: |cx: &PredCx<'_>| cx.within(last_named_face(cx), FACE_WINDOW),
    until: Some(|cx: &PredCx<'_>| cx.window_end(last_named_face(cx), FACE_WINDOW)),
};

/// Timer `name` expired `secs` (never reset: expired), and when that changes.
fn timer_expired(cx: &PredCx<'_>, name: &str, secs: u64) -> (bool, Wakeup) {
    let Some(i) = BehaviorTimers::index(name) else {
        return (true, Wakeup::Never);
    };
    let cooldown = Duration::from_secs(secs);
    let timers = &cx.robot.behavior_timers;
    let expired = timers.expired(i, cooldown, cx.now, true);
    let until = match timers.reset_at(i) {
        Some(t) if !expired => Wakeup::At(t.saturating_add(cooldown) + Duration::from_nanos(1)),
        _ => Wakeup::Never,
    };
    (expired, until)
}

/// No touch-sensor activity in the last 10 s: not pressed, and the last change older.
fn no_touch_10s(cx: &PredCx<'_>) -> (bool, Wakeup) {
    let window = Duration::from_secs(10);
    let changed = cx.robot.signals.touch_changed;
    let quiet = cx.robot.touched_for().is_none() && !cx.within(changed, window);
    (quiet, cx.window_end(changed, window))
}

fn dance_ready(cx: &PredCx<'_>) -> (bool, Wakeup) {
    let (quiet, w0) = no_touch_10s(cx);
    let (dance10, w1) = timer_expired(cx, "DancingCooldown", 10);
    let (dance20, w2) = timer_expired(cx, "DancingCooldown", 20);
    let (listen20, w3) = timer_expired(cx, "ListenForBeatsCooldown", 20);
    let ok = quiet && dance10 && ((dance20 && listen20) || cx.robot.beat_detected);
    (ok, w0.min(w1).min(w2).min(w3))
}

const DANCE_READY: Test = Test {
    text: "no touch for 10 s, DancingCooldown expired 10 s, and (DancingCooldown and ListenForBeatsCooldown expired 20 s, or a beat detected)",
    reads: &[reads::TOUCH, reads::TIMERS, reads::BEAT],
    eval: |cx: &PredCx<'_>| dance_ready(cx).0,
    until: Some(|cx: &PredCx<'_>| dance_ready(cx).1),
};

const GAZE_WINDOW: Duration = Duration::from_millis(500);

const GAZE: Test = Test {
    text: "a stable gaze direction from a face updated in the last 500 ms",
    reads: &[reads::FACE_EVENTS],
    eval: |cx: &PredCx<'_>| cx.within(cx.robot.signals.gaze, GAZE_WINDOW),
    until: Some(|cx: &PredCx<'_>| cx.window_end(cx.robot.signals.gaze, GAZE_WINDOW)),
};

/// PetDetection's pet sightings (counts and image sizes of detected pets): the robot state
/// has no pets.
const PETS: Read = Read::unmodelled("pet sightings (PetDetection)");

const PET_SEEN: Test = Test {
    text: "a pet seen 6 times with an image height over 100 px in scope, off cooldown",
    reads: &[PETS],
    eval: |_| false,
    until: None,
};

/// The sensing classes' logic.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "ReactToTouchPetting",
        pred: Pred::Test(&TOUCH_PRESSED),
        // Get-in, then the bliss levels' animations in order while the touch is held (the
        // last level repeating); a release ends it (the level get-outs after the bliss /
        // non-bliss timeouts are not modelled by the table).
        does: Does::Seq(&[
            Does::Anim(Anim::Key("animGroupGetin")),
            Does::WhileHolds(&Does::Loop(&Does::Anim(Anim::EachOf("animGroupNames")))),
        ]),
    },
    ClassLogic {
        name: "ReactToDarkness",
        pred: Pred::Test(&DARK),
        // The darkness reaction, then ends (the re-check looks and the hand-over to sleep
        // or FindAndGoToHome are the tree's suggestions, not modelled by the table).
        does: Does::Anim(Anim::Trigger("ReactToDarkness")),
    },
    ClassLogic {
        name: "ReactToMotion",
        pred: Pred::Test(&MOTION),
        // An eye shift toward the motion, repeated while motion keeps coming (the area's
        // own Left/Right/Up animation and the turn are chosen by code the table lacks).
        does: Does::WhileHolds(&Does::Loop(&Does::Anim(Anim::Trigger("ReactToMotionUp")))),
    },
    ClassLogic {
        name: "ReactToHand",
        pred: Pred::True,
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("ExploringReactToHandGetIn")),
            Does::Anim(Anim::Trigger("ExploringReactToHandReaction")),
            Does::Anim(Anim::Trigger("ExploringReactToHandGetOut")),
        ]),
    },
    ClassLogic {
        name: "CheckForAndReactToSalientPoint",
        // Some reaction off cooldown: a reaction's cooldown starts only when it fires on a
        // salient point seen while waiting, which the table does not run, so every reaction
        // stays off cooldown (never fired = off cooldown).
        pred: Pred::True,
        // Waits for its images (about 0.2 s: the fork's 2 frames at 15 images a second),
        // looping the wait animation if it has one, then ends.
        does: Does::Seq(&[
            Does::Anim(Anim::Key("waitAnimTrigger")),
            Does::Wait(Dur::Secs(0.2)),
        ]),
    },
    ClassLogic {
        name: "ReactToCubeTap",
        pred: Pred::Test(&CUBE_TAPPED),
        // Off the charger first (its `onChargerBehavior`, if it wants to), then the
        // interaction with the cube.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Key("onChargerBehavior")]),
            Does::Wait(Dur::KeySecs("interactionDuration_s", 0.0)),
        ]),
    },
    ClassLogic {
        name: "GreetAfterLongTime",
        pred: Pred::Test(&GREET),
        // Drives off the charger first when on it (DriveOffChargerFace wants to run only
        // there), then greets.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("DriveOffChargerFace")]),
            Does::Anim(Anim::Trigger("GreetAfterLongTime")),
        ]),
    },
    ClassLogic {
        name: "PossiblePerformance",
        pred: Pred::All(&[
            Pred::Test(&PERFORMANCE_OFF_COOLDOWN),
            Pred::Test(&PERFORMANCE_ROLL),
            Pred::Test(&NAMED_FACE_2S),
        ]),
        does: Does::Anim(Anim::Key("animTrigger")),
    },
    ClassLogic {
        name: "DanceToTheBeatCoordinator",
        pred: Pred::Test(&DANCE_READY),
        // Listens, then dances (the on-charger dance and the drive off a full charger are
        // chosen by code the table lacks: the off-charger dance, if it wants to run).
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Key("listeningBehavior")]),
            Does::Delegate(&[Ref::Key("offChargerDancingBehavior")]),
        ]),
    },
    ClassLogic {
        name: "DanceToTheBeat",
        pred: Pred::True,
        // The eye hold, then the get-out (the dance phrases of `danceSessions` are built on
        // the beat by code the table lacks).
        does: Does::Seq(&[
            Does::Anim(Anim::Key("eyeHoldAnim")),
            Does::Anim(Anim::Key("getOutAnim")),
        ]),
    },
    ClassLogic {
        name: "ListenForBeats",
        pred: Pred::True,
        // Get-in, the listening loop for the minimum time, then the exit animation.
        does: Does::Seq(&[
            Does::Anim(Anim::Key("preListeningAnim")),
            Does::Anim(Anim::Key("listeningAnim")),
            Does::Wait(Dur::KeySecs("minListeningTime_sec", 0.0)),
            Does::Anim(Anim::Key("postListeningAnim")),
        ]),
    },
    ClassLogic {
        name: "ReactToGazeDirection",
        pred: Pred::Test(&GAZE),
        // Looks where the gaze points (the target point is not modelled), then ends.
        does: Does::Anim(Anim::Trigger("GazingLookAtSurfaces")),
    },
    ClassLogic {
        // Not in OCP (the fork's addition, from its source).
        name: "PetDetection",
        pred: Pred::Test(&PET_SEEN),
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("DriveOffChargerFace")]),
            Does::Anim(Anim::Trigger("PetDetectionDog")),
        ]),
    },
    ClassLogic {
        name: "ReactToBody",
        pred: Pred::True,
        // Off the charger (its `driveOffChargerBehavior`, if it wants to), then the face
        // search in the body's bounding box.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Key("driveOffChargerBehavior")]),
            Does::Delegate(&[Ref::Id("SearchWithinBoundingBox")]),
        ]),
    },
];
