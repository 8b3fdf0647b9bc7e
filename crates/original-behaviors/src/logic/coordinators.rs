//! Class predicates and outcomes of the coordinators family (original-class-predicates.md
//! §2.4; see [`super`]). The coordinators, QuietModeCoordinator, SleepCycle,
//! StayOnChargerUntilCharged, ConfirmHabitat and the SDK classes are native
//! (`classes::coordinators`); the rest of the family runs from these entries.

use std::time::Duration;

use super::reads;
use super::ClassLogic;
use crate::does::{Anim, Does, Dur, Ref};
use crate::predicate::{Pred, PredCx, Test};
use robot_runtime::behavior::Wakeup;

fn held_for(cx: &PredCx<'_>) -> Duration {
    Duration::from_millis(cx.f64("powerButtonHeldToActivate_ms", 0.0).max(0.0) as u64)
}

/// PoweringRobotOff without `waitForAnimMsg`: the power button held at least
/// `powerButtonHeldToActivate_ms`.
const BUTTON_HELD: Test = Test {
    text: "the power button held at least powerButtonHeldToActivate_ms (without waitForAnimMsg)",
    reads: &[reads::POWER_BUTTON],
    eval: |cx: &PredCx<'_>| {
        !cx.bool("waitForAnimMsg", false)
            && cx
                .robot
                .signals
                .power_button
                .is_some_and(|t| cx.now.saturating_sub(t) >= held_for(cx))
    },
    until: Some(|cx: &PredCx<'_>| match cx.robot.signals.power_button {
        Some(t) if cx.now.saturating_sub(t) < held_for(cx) => Wakeup::At(t + held_for(cx)),
        _ => Wakeup::Never,
    }),
};

/// PoweringRobotOff with `waitForAnimMsg`: a start-shutdown-animation message heard in
/// scope.
const SHUTDOWN_MESSAGE: Test = Test {
    text: "a start-shutdown-animation message heard in scope (with waitForAnimMsg)",
    reads: &[reads::POWER_BUTTON],
    eval: |cx: &PredCx<'_>| {
        cx.bool("waitForAnimMsg", false) && cx.heard(cx.robot.signals.shutdown_anim)
    },
    until: None,
};

/// The family's table-driven classes.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "Sleeping",
        pred: Pred::True,
        // GoToSleepSleeping, then asleep until interrupted (the stirs every 45-90 min are
        // a bout of idle animations; the emergency get-out plays on deactivation in the
        // original). `canActivateOffTreads` is read but the table's modifiers are fixed:
        // see the report.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("GoToSleepSleeping")),
            Does::Forever,
        ]),
    },
    ClassLogic {
        name: "PoweringRobotOff",
        pred: Pred::Any(&[Pred::Test(&BUTTON_HELD), Pred::Test(&SHUTDOWN_MESSAGE)]),
        // The power-off animation while the button stays held (released: it ends), then
        // the power-on animation.
        does: Does::Seq(&[
            Does::WhileHolds(&Does::Anim(Anim::Key("powerOffAnimName"))),
            Does::Anim(Anim::Key("powerOnAnimName")),
        ]),
    },
    ClassLogic {
        name: "ResetState",
        pred: Pred::True,
        // Stops, waits 0.5 s, then holds the stack for the behavior its caller chose.
        does: Does::Seq(&[Does::Wait(Dur::Secs(0.5)), Does::Forever]),
    },
    ClassLogic {
        name: "PRDemoBase",
        pred: Pred::True,
        // Sleeps, wakes, then keeps ModeSelector delegated.
        does: Does::Seq(&[
            Does::Delegate(&[Ref::Id("PRDemoSleeping")]),
            Does::Delegate(&[Ref::Id("SleepingWakeUp")]),
            Does::Loop(&Does::Delegate(&[Ref::Id("ModeSelector")])),
        ]),
    },
    ClassLogic {
        name: "OnboardingCoordinator",
        pred: Pred::True,
        // Runs the phases the app requests until the app completes onboarding.
        does: Does::Forever,
    },
    ClassLogic {
        name: "OnboardingEmulate1p0WaitForVC",
        pred: Pred::True,
        // Looks at the user, running TriggerWordDetected whenever it wants to.
        does: Does::Loop(&Does::Seq(&[
            Does::Delegate(&[Ref::Id("TriggerWordDetected")]),
            Does::Anim(Anim::Trigger("OnboardingLookAtUser")),
        ])),
    },
    ClassLogic {
        name: "OnboardingLookAtPhone",
        pred: Pred::True,
        does: Does::Loop(&Does::Anim(Anim::Trigger("OnboardingLookAtPhoneLoop"))),
    },
    ClassLogic {
        name: "OnboardingLookAtUser",
        pred: Pred::True,
        does: Does::Loop(&Does::Anim(Anim::Trigger("OnboardingLookAtUserOffCharger"))),
    },
    ClassLogic {
        name: "OnboardingTeachWakeWord",
        pred: Pred::True,
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("OnboardingListenGetIn")),
            Does::Anim(Anim::Trigger("OnboardingListenGetOut")),
            Does::Forever,
        ]),
    },
    ClassLogic {
        name: "OnboardingWakeUp",
        pred: Pred::True,
        does: Does::Anim(Anim::Trigger("OnboardingWakeUp")),
    },
    ClassLogic {
        name: "DispatchAfterShake",
        pred: Pred::True,
        // Dev: counts shakes, delegates the entry at the count when put down.
        does: Does::Forever,
    },
];
