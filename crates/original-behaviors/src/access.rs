//! [`RobotAccess`] / [`RobotAccessMut`]: how the original's classes and conditions read the
//! robot. The runtime hands them its world type-erased ([`View::world`], [`Ctx::world_mut`],
//! [`EvalCx::world`]); these traits give them the [`RobotState`] directly, so class code
//! reads `view.robot().faces` and `ctx.robot_mut().carrying_object = false`.
//!
//! **A world that is not a `RobotState`** (a runner given another world, a tree built in
//! code without one) is a setup error, and the robot never stops for it: reading gives a
//! default robot state (every flag off, on its treads, no object, no face), writing first
//! replaces the world with a default robot state. Each time this happens it is counted
//! ([`world_fallbacks`]) and the first time it is logged (`tracing::error!`, once per
//! process: the same mistake on every tick would flood the log).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::LazyLock;

use robot_runtime::behavior::{Ctx, EvalCx, IntentUnion, Runner, View};

use crate::robot_state::RobotState;

static DEFAULT_ROBOT: LazyLock<RobotState> = LazyLock::new(RobotState::default);
static LOGGED: AtomicBool = AtomicBool::new(false);
static FALLBACKS: AtomicU64 = AtomicU64::new(0);

/// How many times, in this process, a class or condition of the original found a world that
/// is not a [`RobotState`] and used the documented fallback (see the
/// [module documentation](self)). Zero on a well-configured robot.
pub fn world_fallbacks() -> u64 {
    FALLBACKS.load(Ordering::Relaxed)
}

fn fallback(what: &'static str) {
    FALLBACKS.fetch_add(1, Ordering::Relaxed);
    if !LOGGED.swap(true, Ordering::Relaxed) {
        tracing::error!(
            reader = what,
            "OriginalBehaviors.WorldIsNotARobotState: the runner's world is not the original robot's state; its classes and conditions read a default one (install `original_behaviors` in the registry the tree is loaded with, or give the runner a `RobotState`)"
        );
    }
}

fn or_default<'a>(robot: Option<&'a RobotState>, what: &'static str) -> &'a RobotState {
    match robot {
        Some(r) => r,
        None => {
            fallback(what);
            &DEFAULT_ROBOT
        }
    }
}

/// Reading the original robot's state (see the [module documentation](self)).
pub trait RobotAccess {
    /// The robot state (a default one when the world is of another type).
    fn robot(&self) -> &RobotState;
}

/// Changing the original robot's state (see the [module documentation](self)).
pub trait RobotAccessMut {
    /// The robot state, mutably (the world is replaced by a default robot state first
    /// when it is of another type). The fields that change are stamped as every mutable
    /// access to the world is.
    fn robot_mut(&mut self) -> &mut RobotState;
}

impl<U: IntentUnion, E: 'static> RobotAccess for View<'_, U, E> {
    fn robot(&self) -> &RobotState {
        or_default(self.world::<RobotState>(), "View::robot")
    }
}

impl<U: IntentUnion, E: 'static> RobotAccess for EvalCx<'_, U, E> {
    fn robot(&self) -> &RobotState {
        or_default(self.world::<RobotState>(), "EvalCx::robot")
    }
}

impl<U: IntentUnion, E: 'static> RobotAccess for Ctx<'_, U, E> {
    fn robot(&self) -> &RobotState {
        or_default(self.world::<RobotState>(), "Ctx::robot")
    }
}

impl<U: IntentUnion, E: 'static> RobotAccessMut for Ctx<'_, U, E> {
    fn robot_mut(&mut self) -> &mut RobotState {
        if self.world::<RobotState>().is_none() {
            fallback("Ctx::robot_mut");
        }
        self.world_mut_or_insert(RobotState::default)
    }
}

impl<U: IntentUnion, E: 'static> RobotAccess for Runner<U, E> {
    fn robot(&self) -> &RobotState {
        or_default(self.world::<RobotState>(), "Runner::robot")
    }
}

impl<U: IntentUnion, E: 'static> RobotAccessMut for Runner<U, E> {
    fn robot_mut(&mut self) -> &mut RobotState {
        if self.world::<RobotState>().is_none() {
            fallback("Runner::robot_mut");
        }
        self.world_mut_or_insert(RobotState::default)
    }
}
