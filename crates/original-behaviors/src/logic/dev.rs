//! Class predicates and outcomes of the dev and self-test classes
//! (original-class-predicates.md §2.10; see [`super`]): predicate true unless stated, the
//! tools run until cancelled, a self-test step is one timed step.

use super::reads;
use super::ClassLogic;
use crate::does::{Count, Does, Dur};
use crate::predicate::{Pred, PredCx, Test};

/// A dev build (`dev_build`).
const DEV_BUILD: Test = Test {
    text: "a dev build",
    reads: &[reads::SYSTEM],
    eval: |cx: &PredCx<'_>| cx.robot.signals.dev_build,
    until: None,
};

const fn until_cancelled(name: &'static str) -> ClassLogic {
    ClassLogic {
        name,
        pred: Pred::True,
        does: Does::Forever,
    }
}

const fn step(name: &'static str) -> ClassLogic {
    ClassLogic {
        name,
        pred: Pred::True,
        does: Does::Work,
    }
}

/// The dev classes' logic.
pub const LOGIC: &[ClassLogic] = &[
    until_cancelled("CubeDrive"),
    until_cancelled("DevBatteryLogging"),
    until_cancelled("DevCubeSpinnerConsole"),
    until_cancelled("DevDesignCubeLights"),
    until_cancelled("DevDisplayReadingsOnFace"),
    until_cancelled("DevTestBlackjackViz"),
    until_cancelled("DevTestSpriteBoxRemaps"),
    until_cancelled("DevTouchDataCollection"),
    until_cancelled("DevViewCubeBackpackLights"),
    until_cancelled("DevImageCapture"),
    until_cancelled("DevEventSequenceCapture"),
    ClassLogic {
        name: "DevSquawkBoxTest",
        pred: Pred::Test(&DEV_BUILD),
        does: Does::Work,
    },
    ClassLogic {
        name: "DevTurnInPlaceTest",
        pred: Pred::Test(&DEV_BUILD),
        // Each run, then the gap; forever with `loopForever`.
        does: Does::IfKey(
            "loopForever",
            &Does::Loop(&TURN_TEST_RUN),
            &Does::Repeat(Count::Key("nRunsPerTest", 1), &TURN_TEST_RUN),
        ),
    },
    // Its state is Init (it has not run) / can run with the state Init or TestComplete:
    // both hold whenever it is not running.
    step("DockingTestSimple"),
    step("FactoryCentroidExtractor"),
    step("LiftLoadTest"),
    until_cancelled("PlannerTest"),
    until_cancelled("PowerSaveTest"),
    until_cancelled("PowerSaveStressTest"),
    step("SelfTest"),
    step("SelfTestButton"),
    step("SelfTestDockWithCharger"),
    step("SelfTestDriftCheck"),
    step("SelfTestDriveForwards"),
    step("SelfTestInitChecks"),
    step("SelfTestLookAtCharger"),
    step("SelfTestMotorCalibration"),
    step("SelfTestPickup"),
    step("SelfTestPutOnCharger"),
    step("SelfTestScreenAndBackpack"),
    step("SelfTestSoundCheck"),
    step("SelfTestTouch"),
];

/// One DevTurnInPlaceTest run.
const TURN_TEST_RUN: Does = Does::Seq(&[
    Does::Work,
    Does::Wait(Dur::KeySecs("gapBetweenTests_s", 0.0)),
]);
