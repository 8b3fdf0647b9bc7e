//! [`Registry`]: behavior classes, condition types and intent predicates by name, so users
//! add their own, and the robot's vocabularies the loader checks names against (feature
//! names for `FeatureGate`, active features for `associatedActiveFeature`). It knows the
//! built-in classes (`classes` hands it their builders); the loader reads it; the classes
//! never see it.

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
    pub(crate) features: Option<Vec<String>>,
    pub(crate) active_features: Option<Vec<String>>,
    /// Classes registered by the user (not built in), which may reuse an original class
    /// name with other code.
    pub(crate) user_classes: std::collections::HashSet<String>,
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
            features: None,
            active_features: None,
            user_classes: std::collections::HashSet::new(),
        }
    }

    /// The built-in classes (see [`BUILTIN_CLASSES`]).
    pub fn with_builtins() -> Self {
        let mut r = Self::empty();
        for (name, factory) in super::classes::builtins() {
            r.classes.insert(name.to_owned(), factory);
        }
        r
    }

    /// The feature names `FeatureGate` conditions may name (the robot's `FeatureType`
    /// enum); without them any name is accepted.
    pub fn set_feature_names(
        &mut self,
        names: impl IntoIterator<Item = impl Into<String>>,
    ) -> &mut Self {
        self.features = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// The names `associatedActiveFeature` may take (the robot's `ActiveFeature` enum);
    /// without them any name is accepted.
    pub fn set_active_feature_names(
        &mut self,
        names: impl IntoIterator<Item = impl Into<String>>,
    ) -> &mut Self {
        self.active_features = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// The registered class names, sorted.
    pub fn class_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.classes.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
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
        self.user_classes.insert(name.to_owned());
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

/// The classes [`Registry::with_builtins`] registers.
pub const BUILTIN_CLASSES: &[&str] = &[
    "Wait",
    "DispatcherStrictPriority",
    "DispatcherStrictPriorityWithCooldown",
    "DispatcherRandom",
    "DispatcherQueue",
    "DispatcherScoring",
    "DispatcherPassThrough",
    "DispatcherRerun",
    "HighLevelAI",
    "PRDemo",
    "InternalStates",
    "AnimSequence",
    "AnimSequenceWithFace",
    "AnimSequenceWithObject",
    "AnimGetInLoop",
    "TextToSpeechLoop",
    "PlayAnimation",
    "MoveHeadToAngle",
    "Turn",
    "PutDownBlock",
    "SimpleVoiceResponse",
    "ReactToUnclaimedIntent",
];
