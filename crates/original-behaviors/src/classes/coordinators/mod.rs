//! The coordinators, modes, sleep, charger and SDK classes of original-class-predicates.md
//! §2.4, natively:
//!
//! * the four pass-through coordinators ([`Coordinator`]): `CoordinateGlobalInterrupts`,
//!   `CoordinateWhileHeldInPalm`, `CoordinateWhileInAir`, `CoordinateInHabitat` — a
//!   [`PassThroughDispatcher`](crate::classes::PassThroughDispatcher) (wants to run when
//!   its delegate does, has its modifiers, ends with it) that, in each update while active,
//!   tells behaviors not to activate on this tick (`Ctx::suppress_this_tick`, the
//!   original's `SetDontActivateThisTick`, §1.5). The coordinator sits below its delegate
//!   on the stack, so its update runs first and the dispatchers above it ask their children
//!   after the suppression is set. What it suppresses this tick is its
//!   [`debug_state`](robot_runtime::behavior::Behavior::debug_state) (tools see it).
//!   `CoordinateWhileInAir` also holds the base (`BODY_TRACK`) while the robot is lifted
//!   (`Ctx::hold_tracks`: a claim in the robot's arbiter lent to nobody, so no action
//!   drives the treads and an animation plays without its body track; see
//!   `robot_runtime::arbiter`, "Holds") and gives it back when its rule stops applying
//!   and at its deactivation (its `debug_state` then ends with `holding the treads`);
//! * `QuietModeCoordinator` ([`QuietMode`]), `SDKInterface` and `SDKLock` ([`Sdk`]),
//!   `StayOnChargerUntilCharged` ([`StayOnCharger`]), `ConfirmHabitat` ([`ConfirmHabitat`])
//!   and `SleepCycle` ([`SleepCycle`]).
//!
//! What `CoordinateGlobalInterrupts` *tells* classes of other families (skip timer antics,
//! no voice-command turn, DriveToFace interrupted by a cliff) is a pure function of the
//! stack and the intents, so those classes ask it themselves: [`timer_antics_skipped`],
//! [`voice_turn_disabled`], [`drive_to_face_interrupted`].
//!
//! Every class reads its keys with [`read_class_keys`](crate::keys::read_class_keys)
//! (strict mode accepts exactly the table's keys), declares what its predicate reads
//! (`activation_watch`) and when its update may next act (`next_wakeup`), and says its
//! predicate for tools.
//!
//! One module a class or family: `global_interrupts` (its rules, and what it tells other
//! classes), `pass_through` (the four pass-through coordinators), `quiet_mode`, `sdk`,
//! `charger` (`StayOnChargerUntilCharged`), `habitat` (`ConfirmHabitat`), `sleep_cycle`.

mod charger;
mod global_interrupts;
mod habitat;
mod pass_through;
mod quiet_mode;
mod sdk;
mod sleep_cycle;

use std::time::Duration;

use robot_runtime::behavior::{
    BehaviorId, BuildCx, ClassPredicate, IntentUnion, LifecycleState, View, Wakeup,
};
use serde_json::{Map, Value};

use crate::specs::{self, ClassData};

pub(crate) use charger::build_stay_on_charger;
pub use charger::StayOnCharger;
pub(crate) use global_interrupts::build_global_interrupts;
pub use global_interrupts::{drive_to_face_interrupted, timer_antics_skipped, voice_turn_disabled};
pub(crate) use habitat::build_confirm_habitat;
pub use habitat::ConfirmHabitat;
pub use pass_through::Coordinator;
pub(crate) use pass_through::{build_in_habitat, build_while_held_in_palm, build_while_in_air};
pub(crate) use quiet_mode::build_quiet_mode;
pub use quiet_mode::QuietMode;
pub use sdk::Sdk;
pub(crate) use sdk::{build_sdk_interface, build_sdk_lock};
pub(crate) use sleep_cycle::build_sleep_cycle;
pub use sleep_cycle::SleepCycle;

fn data(class: &str) -> &'static ClassData {
    specs::class(class).unwrap_or_else(|| unreachable!("{class} has a table entry"))
}

fn active_since<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> Option<Duration> {
    let me = view.me();
    if view.state_of(me) != Some(LifecycleState::Active) {
        return None;
    }
    view.active_for()
        .map(|d| view.clock().now().saturating_sub(d))
}

fn id_on_stack<U: IntentUnion, E: 'static>(view: &View<'_, U, E>, ids: &[BehaviorId]) -> bool {
    !ids.is_empty() && view.stack().any(|s| ids.contains(&s))
}

fn class_on_stack<U: IntentUnion, E: 'static>(view: &View<'_, U, E>, classes: &[&str]) -> bool {
    view.stack()
        .any(|s| view.class_of(s).is_some_and(|c| classes.contains(&c)))
}

fn names_on_stack<U: IntentUnion, E: 'static>(view: &View<'_, U, E>, names: &[&str]) -> bool {
    view.stack()
        .any(|s| view.name_of(s).is_some_and(|n| names.contains(&n.as_str())))
}

fn pred(text: &str, inputs: &[&'static str]) -> ClassPredicate {
    ClassPredicate {
        text: text.to_owned(),
        inputs: inputs.to_vec(),
        unmodelled: Vec::new(),
    }
}

fn wake_at(t: Duration) -> Wakeup {
    Wakeup::At(t.saturating_add(Duration::from_nanos(1)))
}

/// The end of a window `[from, from + len]` still open at `now` (Never once closed).
fn window_end(from: Option<Duration>, len: Duration, now: Duration) -> Wakeup {
    match from {
        Some(t) if now.saturating_sub(t) <= len => wake_at(t.saturating_add(len)),
        _ => Wakeup::Never,
    }
}

fn within(from: Option<Duration>, len: Duration, now: Duration) -> bool {
    from.is_some_and(|t| now.saturating_sub(t) <= len)
}

fn secs(keys: &Map<String, Value>, key: &str) -> Option<Duration> {
    keys.get(key)
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(1.0e9)))
}

fn resolve_ids<U: IntentUnion, E: 'static>(
    cx: &BuildCx<'_, U, E>,
    names: &[&str],
) -> Vec<BehaviorId> {
    names.iter().filter_map(|n| cx.global_id(n)).collect()
}
