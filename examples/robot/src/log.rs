//! The shared log every source of the timeline writes through: the intent component's
//! subscriber, the behaviors and their actions, the mission controller's capabilities. The
//! robot drains it into the timeline after each step.

use std::sync::{Arc, Mutex, PoisonError};

use robot_runtime::intent::IntentEvent;

use crate::intents::Tag;
use crate::timeline::What;

/// What the behaviors and the intent component report, in the order it happened.
#[derive(Debug)]
pub enum Item {
    /// An event of the intent component.
    Intent(IntentEvent<Tag>),
    /// A timeline entry of a behavior or an action.
    What(What),
}

/// The shared log: the intent component's subscriber, the robot's classes and actions
/// append; the robot drains it into the timeline after each step.
#[derive(Clone, Debug, Default)]
pub struct Log(Arc<Mutex<Vec<Item>>>);

impl Log {
    /// Appends.
    pub fn push(&self, item: Item) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(item);
    }

    /// Takes everything logged so far.
    pub fn take(&self) -> Vec<Item> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}
