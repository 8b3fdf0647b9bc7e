//! [`Registry`]: what a tree's names mean. Behavior classes (with what the loader knows of
//! them, [`ClassInfo`]), condition types (user functions, and node libraries' types with
//! their parsers), intent predicates, the vocabularies the base keys are checked against
//! ([`Vocabulary`]) and the world a loaded tree's runner starts with. The runtime registers
//! nothing: a node library installs its classes, condition types, vocabularies and world
//! in one call (the original engine's is `original_behaviors::install`), and users add
//! their own. The loader reads it; the classes never see it.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::build_context::{BuildCx, ClassFactory};
use super::condition::parse::{ConditionCx, ConditionFactory, ConditionTypeParser};
use super::condition::{ConditionFn, ConditionType};
use super::core::Behavior;
use super::references::ClassInfo;
use super::vocabulary::{Vocabularies, Vocabulary};
use super::world::{World, WorldFactory};
use crate::intent::{IntentPredicate, IntentUnion};

/// A registered class: its builder and, for a node library's class, what the loader knows
/// of it (None: a user class, whose code is its own).
pub(crate) struct ClassEntry<U: IntentUnion, E: 'static> {
    pub factory: ClassFactory<U, E>,
    pub info: Option<ClassInfo>,
}

/// Behavior classes, condition types, `_lambda` intent predicates, vocabularies and the
/// world factory. The runtime registers nothing: a node library installs its classes,
/// condition types, vocabularies and world in one call, and users add their own.
pub struct Registry<U: IntentUnion, E: 'static = ()> {
    pub(crate) classes: HashMap<String, ClassEntry<U, E>>,
    pub(crate) conditions: HashMap<String, ConditionFactory<U, E>>,
    pub(crate) condition_types: HashMap<String, ConditionTypeParser<U, E>>,
    pub(crate) predicates: HashMap<String, IntentPredicate<U>>,
    pub(crate) vocabularies: Vocabularies,
    world: Option<WorldFactory>,
}

impl<U: IntentUnion, E: 'static> Default for Registry<U, E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<U: IntentUnion, E: 'static> Registry<U, E> {
    /// An empty registry: no class, no condition type beyond the framework's, no
    /// vocabulary, the world `()`.
    pub fn new() -> Self {
        Self {
            classes: HashMap::new(),
            conditions: HashMap::new(),
            condition_types: HashMap::new(),
            predicates: HashMap::new(),
            vocabularies: Default::default(),
            world: None,
        }
    }

    /// An empty registry (the same as [`new`](Self::new)).
    pub fn empty() -> Self {
        Self::new()
    }

    /// Sets the names of `vocabulary` (see [`Vocabulary`]).
    pub fn set_vocabulary(
        &mut self,
        vocabulary: Vocabulary,
        names: impl IntoIterator<Item = impl Into<String>>,
    ) -> &mut Self {
        self.vocabularies
            .set(vocabulary, names.into_iter().map(Into::into).collect());
        self
    }

    /// The names of `vocabulary`, when set.
    pub fn vocabulary(&self, vocabulary: Vocabulary) -> Option<&[String]> {
        self.vocabularies.get(vocabulary)
    }

    /// The feature names feature conditions may name (the robot's `FeatureType` enum):
    /// [`Vocabulary::Features`].
    pub fn set_feature_names(
        &mut self,
        names: impl IntoIterator<Item = impl Into<String>>,
    ) -> &mut Self {
        self.set_vocabulary(Vocabulary::Features, names)
    }

    /// The names `associatedActiveFeature` may take (the robot's `ActiveFeature` enum):
    /// [`Vocabulary::ActiveFeatures`].
    pub fn set_active_feature_names(
        &mut self,
        names: impl IntoIterator<Item = impl Into<String>>,
    ) -> &mut Self {
        self.set_vocabulary(Vocabulary::ActiveFeatures, names)
    }

    /// The world each loaded tree's runner starts with: `make()` (see [`World`]). Without
    /// one, `()`.
    pub fn set_world<W: World>(
        &mut self,
        make: impl Fn() -> W + Send + Sync + 'static,
    ) -> &mut Self {
        self.world = Some(Arc::new(move || Box::new(make()) as Box<dyn World>));
        self
    }

    /// A new world from the factory ([`set_world`](Self::set_world); `()` without one).
    pub fn new_world(&self) -> Box<dyn World> {
        match &self.world {
            Some(make) => make(),
            None => Box::new(()),
        }
    }

    /// The registered class names, sorted.
    pub fn class_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.classes.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }

    /// Adds (or replaces) a user class: its code is its own, so nothing of a class of the
    /// same name a node library registered (its [`ClassInfo`]) applies.
    pub fn register_class(
        &mut self,
        name: &str,
        factory: impl Fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>>
            + Send
            + Sync
            + 'static,
    ) -> &mut Self {
        self.classes.insert(
            name.to_owned(),
            ClassEntry {
                factory: Arc::new(factory),
                info: None,
            },
        );
        self
    }

    /// Adds (or replaces) a node library's class, with what the loader knows of it
    /// ([`ClassInfo`]: its reference keys, the IDs its code names, whether it is a
    /// stand-in).
    pub fn register_class_with(
        &mut self,
        name: &str,
        info: ClassInfo,
        factory: ClassFactory<U, E>,
    ) -> &mut Self {
        self.classes.insert(
            name.to_owned(),
            ClassEntry {
                factory,
                info: Some(info),
            },
        );
        self
    }

    /// What the loader knows of class `name` (None: not registered, or a user class).
    pub fn class_info(&self, name: &str) -> Option<&ClassInfo> {
        self.classes.get(name)?.info.as_ref()
    }

    /// Adds (or replaces) a user condition type: `{"conditionType": name, ...params}` or
    /// `{"customCondition": name}`, a function of what conditions see. Tried before every
    /// other type of that name.
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

    /// Adds (or replaces) a node library's condition type: `{"conditionType": name, ...}`
    /// parsed by `parse` (see [`ConditionCx`]) into a [`ConditionType`].
    pub fn register_condition_type(
        &mut self,
        name: &str,
        parse: impl Fn(&mut ConditionCx<'_, U, E>) -> Option<Box<dyn ConditionType<U, E>>>
            + Send
            + Sync
            + 'static,
    ) -> &mut Self {
        self.condition_types
            .insert(name.to_owned(), Arc::new(parse));
        self
    }

    /// True when a parser of condition type `name` is registered.
    pub fn has_condition_type(&self, name: &str) -> bool {
        self.condition_types.contains_key(name)
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
