//! [`Registry`]: behavior classes, condition types and intent predicates by name, so users
//! add their own. It knows the built-in classes (`classes`, `state_machine` hand it their
//! builders); the loader reads it; the classes never see it.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::build_context::{BuildCx, ClassFactory};
use super::condition::parse::ConditionFactory;
use super::condition::ConditionFn;
use super::core::Behavior;
use crate::intent::{IntentPredicate, IntentUnion};

/// Behavior classes, condition types and `_lambda` intent predicates, by name.
pub struct Registry<U: IntentUnion, E: 'static = ()> {
    pub(crate) classes: HashMap<String, ClassFactory<U, E>>,
    pub(crate) conditions: HashMap<String, ConditionFactory<U, E>>,
    pub(crate) predicates: HashMap<String, IntentPredicate<U>>,
}

impl<U: IntentUnion, E: 'static> Default for Registry<U, E> {
    fn default() -> Self {
        Self::with_builtins()
    }
}

impl<U: IntentUnion, E: 'static> Registry<U, E> {
    /// An empty registry (no class at all).
    pub fn empty() -> Self {
        Self {
            classes: HashMap::new(),
            conditions: HashMap::new(),
            predicates: HashMap::new(),
        }
    }

    /// The built-in classes: `Wait`, `DispatcherStrictPriority`, `DispatcherQueue`,
    /// `DispatcherRerun`, `ReactToUnclaimedIntent`, `SimpleVoiceResponse`,
    /// `PlayAnimation`, `InternalStates` and its alias `HighLevelAI`.
    pub fn with_builtins() -> Self {
        let mut r = Self::empty();
        for (name, factory) in super::classes::builtins()
            .into_iter()
            .chain(super::state_machine::builtins())
        {
            r.classes.insert(name.to_owned(), factory);
        }
        r
    }

    /// Adds (or replaces) a class.
    pub fn register_class(
        &mut self,
        name: &str,
        factory: impl Fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>>
            + Send
            + Sync
            + 'static,
    ) -> &mut Self {
        self.classes.insert(name.to_owned(), Arc::new(factory));
        self
    }

    /// Adds (or replaces) a condition type: `{"conditionType": name, ...params}`.
    pub fn register_condition(
        &mut self,
        name: &str,
        factory: impl Fn(&Map<String, Value>) -> Result<ConditionFn<U, E>, String>
            + Send
            + Sync
            + 'static,
    ) -> &mut Self {
        self.conditions.insert(name.to_owned(), Arc::new(factory));
        self
    }

    /// Adds a named predicate for `{"type": tag, "_lambda": name}` matchers.
    pub fn register_predicate(
        &mut self,
        name: &str,
        predicate: impl Fn(&U) -> bool + Send + Sync + 'static,
    ) -> &mut Self {
        self.predicates.insert(name.to_owned(), Arc::new(predicate));
        self
    }

    /// True when a class of this name is registered.
    pub fn has_class(&self, name: &str) -> bool {
        self.classes.contains_key(name)
    }
}
