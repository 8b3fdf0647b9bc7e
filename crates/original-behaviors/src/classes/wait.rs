//! `Wait` (spec §4.4): does nothing; always wants to be activated; can always be gently
//! interrupted; every activation gate open; never ends by itself (trees end it with a
//! `wantsToCancelSelfCondition`). `duration_s` is a project extension: end after that long.

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, Ctx, OperationModifiers, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

/// `Wait` (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct Wait {
    duration: Option<Duration>,
}

impl Wait {
    /// Waits until cancelled.
    pub fn new() -> Self {
        Self { duration: None }
    }
    /// Ends itself after `d` of activity (the project's `duration_s`).
    pub fn for_duration(d: Duration) -> Self {
        Self { duration: Some(d) }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Wait {
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = false;
    }
    fn can_be_gently_interrupted(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// With a duration, when it is up.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match (self.duration, view.active_for()) {
            (Some(d), Some(t)) if t < d => Wakeup::after(view.clock().now(), d - t),
            (Some(_), Some(_)) => Wakeup::EveryTick,
            _ => Wakeup::Never,
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(d) = self.duration else {
            return;
        };
        if ctx.view().active_for().is_some_and(|t| t >= d) {
            let _ = ctx.cancel_self();
        }
    }
}

pub(crate) fn build<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let d = cx.seconds("duration_s");
    if cx.has("duration_s") && d.is_none() {
        return None;
    }
    Some(Box::new(Wait { duration: d }))
}
