//! The original engine's classes this crate implements, one family per file (or folder,
//! a file a class), each reading
//! its keys through the runtime's [`BuildCx`] (every problem reported) and handing
//! `install` its builder (`builtins`):
//!
//! * `wait` — `Wait`;
//! * `dispatch` — the dispatchers of spec §2: `DispatcherStrictPriority`,
//!   `DispatcherStrictPriorityWithCooldown`, `DispatcherRandom`, `DispatcherQueue`,
//!   `DispatcherScoring`, `DispatcherPassThrough`, `DispatcherRerun`: one `Dispatcher`
//!   carrying the hooks they share, a `DispatchPolicy` per class, the cooldown clock;
//! * `state_machine` — `HighLevelAI`, `PRDemo` (the original's `InternalStatesBehavior`) and
//!   the project's `InternalStates` alias;
//! * `animation` — `AnimSequence`, `AnimSequenceWithFace`, `AnimSequenceWithObject`,
//!   `AnimGetInLoop`, `TextToSpeechLoop` and the project's `PlayAnimation`, as timed actions
//!   through the action layer;
//! * `motion` — `MoveHeadToAngle`, `Turn`, `PutDownBlock`;
//! * `voice` — `SimpleVoiceResponse`, `ReactToUnclaimedIntent`, `Volume`,
//!   `EyeColorVoiceCommand`, `EyeColor`, `AlexaSignInOut` (and what the voice family's
//!   natives share: intent fields, tags, hard-coded IDs, claiming);
//! * `voice_command` — `ReactToVoiceCommand`;
//! * `voice_features` — `TakeAPhotoCoordinator`, `WallTimeCoordinator`,
//!   `CoordinateWeather`, `DisplayWeather`, `TimerUtilityCoordinator`;
//! * `native` — the base of the voice family, the coordinators and the reactions: one
//!   `Native` carrying what they declare alike (gates, delegates, the `Decide` predicate, claimed
//!   intents, not updated while inactive, the next step when a delegation ends), a
//!   `NativeClass` per class for its own hooks;
//! * `steps` — a native class's outcome as timed steps;
//! * `coordinators` — the coordinators (`CoordinateGlobalInterrupts`, `...WhileHeldInPalm`,
//!   `...WhileInAir`, `CoordinateInHabitat`: pass-throughs that suppress behaviors this
//!   tick; the in-air one also holds the treads while lifted), `QuietModeCoordinator`, `SDKInterface`, `SDKLock`, `StayOnChargerUntilCharged`,
//!   `ConfirmHabitat`, `SleepCycle`;
//! * `reactions` — `ReactToCliff`, `ReactToMotorCalibration`, `ReactToSound`,
//!   `ReactToMicDirection` (the reactions an idle robot meets first; the rest of their
//!   families run from `crate::logic` through `table`);
//! * `stand_in` — what runs for a class of the original engine this crate does not
//!   implement.
//!
//! **Adding a class** (one that today runs as a stand-in):
//! 1. Write it in the family's file (or a new one): a struct implementing the runtime's
//!    `Behavior` (or, in the native families, `NativeClass` on a `native::Base`), and a
//!    builder `fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>>`
//!    that reads its keys with `BuildCx`'s typed readers (`cx.seconds("..")`,
//!    `cx.req_str("..")`, nested objects with `cx.nested`, conditions with `cx.condition`,
//!    delegates with `cx.delegate` / `cx.delegate_global`, as spec §6 resolves its keys).
//! 2. Read the robot with `use crate::access::{RobotAccess, RobotAccessMut}`:
//!    `view.robot().faces`, `ctx.robot_mut().carrying_object = false`.
//! 3. Declare what its `wants_to_be_activated` reads (`activation_watch`, in
//!    [`inputs`](crate::inputs)) and when its `update` may next act (`next_wakeup`), so the
//!    cached tick and idle-tick skipping cover it; leaving them undeclared is always
//!    correct, only slower.
//! 4. Add its builder to `builtins` below and its name to
//!    [`BUILTIN_CLASSES`](crate::BUILTIN_CLASSES) (a test checks they agree): `install`
//!    then registers it instead of its stand-in, with its reference keys and hard-coded IDs
//!    from the catalog.
//! 5. A robot-state field it needs: a field of [`RobotState`](crate::RobotState), its input
//!    bit in [`inputs`](crate::inputs) (shared by group when the bits run short), its line in
//!    `changed_from`, and a key of `apply_json` (`STATE_KEYS`) so scenarios can set it.

pub mod animation;
pub mod coordinators;
pub mod dispatch;
pub mod motion;
pub mod native;
pub mod reactions;
pub mod stand_in;
pub mod state_machine;
pub(crate) mod steps;
pub mod table;
pub mod voice;
pub mod voice_command;
pub mod voice_features;
pub mod wait;

use std::sync::Arc;

use robot_runtime::behavior::{Behavior, BuildCx, ClassFactory};
use robot_runtime::intent::IntentUnion;

pub use animation::{AnimGetInLoop, AnimSequence, PlayAnimationBehavior, TextToSpeechLoop};
pub use dispatch::{
    CooldownDispatcher, PassThroughDispatcher, QueueDispatcher, RandomDispatcher, RerunDispatcher,
    ScoringDispatcher, StrictPriorityDispatcher,
};
pub use motion::{MoveHeadToAngle, PutDownBlock, Turn};
pub use reactions::{ReactToCliff, ReactToMicDirection, ReactToMotorCalibration, ReactToSound};
pub use stand_in::StandIn;
pub use state_machine::StateMachine;
pub use voice::{
    AlexaSignInOut, EyeColor, EyeColorVoiceCommand, ReactToUnclaimedIntent, SimpleVoiceResponse,
    Volume,
};
pub use voice_command::ReactToVoiceCommand;
pub use voice_features::{
    CoordinateWeather, DisplayWeather, TakeAPhotoCoordinator, TimerUtilityCoordinator,
    WallTimeCoordinator,
};
pub use wait::Wait;

type Builder<U, E> = fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>>;

/// The builders of the classes this crate implements, by class name (`install` registers
/// them).
pub(crate) fn builtins<U: IntentUnion, E: 'static>() -> Vec<(&'static str, ClassFactory<U, E>)> {
    let list: Vec<(&'static str, Builder<U, E>)> = vec![
        ("Wait", wait::build),
        ("DispatcherStrictPriority", dispatch::build_strict_priority),
        (
            "DispatcherStrictPriorityWithCooldown",
            dispatch::build_with_cooldown,
        ),
        ("DispatcherRandom", dispatch::build_random),
        ("DispatcherQueue", dispatch::build_queue),
        ("DispatcherScoring", dispatch::build_scoring),
        ("DispatcherPassThrough", dispatch::build_pass_through),
        ("DispatcherRerun", dispatch::build_rerun),
        ("HighLevelAI", state_machine::build_high_level_ai),
        ("PRDemo", state_machine::build_pr_demo),
        ("InternalStates", state_machine::build_internal_states),
        ("AnimSequence", animation::build_anim_sequence),
        ("AnimSequenceWithFace", animation::build_with_face),
        ("AnimSequenceWithObject", animation::build_with_object),
        ("AnimGetInLoop", animation::build_get_in_loop),
        ("TextToSpeechLoop", animation::build_tts_loop),
        ("PlayAnimation", animation::build_play_animation),
        ("MoveHeadToAngle", motion::build_move_head),
        ("Turn", motion::build_turn),
        ("PutDownBlock", motion::build_put_down_block),
        ("SimpleVoiceResponse", voice::build_simple_voice_response),
        ("ReactToUnclaimedIntent", voice::build_react_to_unclaimed),
        // voice family
        (
            "ReactToVoiceCommand",
            voice_command::build_react_to_voice_command,
        ),
        ("Volume", voice::build_volume),
        ("EyeColorVoiceCommand", voice::build_eye_color_voice_command),
        ("EyeColor", voice::build_eye_color),
        ("AlexaSignInOut", voice::build_alexa_sign_in_out),
        ("TakeAPhotoCoordinator", voice_features::build_take_a_photo),
        ("WallTimeCoordinator", voice_features::build_wall_time),
        (
            "CoordinateWeather",
            voice_features::build_coordinate_weather,
        ),
        ("DisplayWeather", voice_features::build_display_weather),
        (
            "TimerUtilityCoordinator",
            voice_features::build_timer_coordinator,
        ),
        // coordinators (OCP §2.4)
        (
            "CoordinateGlobalInterrupts",
            coordinators::build_global_interrupts,
        ),
        (
            "CoordinateWhileHeldInPalm",
            coordinators::build_while_held_in_palm,
        ),
        ("CoordinateWhileInAir", coordinators::build_while_in_air),
        ("CoordinateInHabitat", coordinators::build_in_habitat),
        ("QuietModeCoordinator", coordinators::build_quiet_mode),
        ("SDKInterface", coordinators::build_sdk_interface),
        ("SDKLock", coordinators::build_sdk_lock),
        (
            "StayOnChargerUntilCharged",
            coordinators::build_stay_on_charger,
        ),
        ("ConfirmHabitat", coordinators::build_confirm_habitat),
        ("SleepCycle", coordinators::build_sleep_cycle),
        // reactions
        ("ReactToCliff", reactions::build_react_to_cliff),
        (
            "ReactToMotorCalibration",
            reactions::build_react_to_motor_calibration,
        ),
        ("ReactToSound", reactions::build_react_to_sound),
        (
            "ReactToMicDirection",
            reactions::build_react_to_mic_direction,
        ),
    ];
    list.into_iter()
        .map(|(name, f)| (name, Arc::new(f) as ClassFactory<U, E>))
        .collect()
}
