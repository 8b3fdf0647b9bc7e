//! Scoped effects: what a behavior acquired while active, undone in reverse order on deactivation.

use std::fmt;

use crate::intent::{
    ActiveIntentGuard, IntentComponent, IntentUnion, TimeoutHold, TriggerWordSuppression,
};

/// Identifies one scoped effect of one behavior (see [`Ctx::release_effect`](super::Ctx::release_effect)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectId(pub(super) u64);

impl EffectId {
    pub(crate) fn new(n: u64) -> Self {
        Self(n)
    }
}

/// A cleanup closure run when its behavior is deactivated.
pub type Cleanup<U> = Box<dyn FnOnce(&mut IntentComponent<U>) + Send>;

/// Something a behavior acquired while active; undone in reverse order when it is
/// deactivated, whatever the reason.
pub enum Effect<U: IntentUnion> {
    /// An activated user intent: released (not merely dropped) so the same tick sees it.
    Intent(ActiveIntentGuard<U>),
    /// A claim-timeout hold.
    TimeoutHold(TimeoutHold),
    /// A trigger-word suppression.
    TriggerWordSuppression(TriggerWordSuppression),
    /// An arbitrary cleanup.
    Cleanup(Cleanup<U>),
}

impl<U: IntentUnion> Effect<U> {
    /// A short name for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Intent(_) => "intent",
            Self::TimeoutHold(_) => "timeout_hold",
            Self::TriggerWordSuppression(_) => "trigger_word_suppression",
            Self::Cleanup(_) => "cleanup",
        }
    }

    pub(crate) fn undo(self, intents: &mut IntentComponent<U>) {
        match self {
            Self::Intent(g) => {
                if g.is_current() {
                    if let Err(e) = g.release(intents) {
                        tracing::debug!(error = %e, "Behavior.Effect.IntentAlreadyEnded");
                    }
                }
            }
            Self::TimeoutHold(h) => drop(h),
            Self::TriggerWordSuppression(s) => drop(s),
            Self::Cleanup(f) => f(intents),
        }
    }
}

impl<U: IntentUnion> fmt::Debug for Effect<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind())
    }
}
