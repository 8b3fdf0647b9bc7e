//! [`Registry`]: behavior classes and condition types by name, so users add their own; and
//! [`BuildCx`], what a class factory gets from the loader.

use std::collections::HashMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::condition::{Condition, ConditionFn};
use super::core::Behavior;
use super::ids::BehaviorId;
use super::loader::{Problem, ProblemKind};
use super::IntentUnion;
use crate::intent::{IntentMatcher, IntentPredicate};

/// Builds a behavior of one class from its JSON. Returns None after recording problems
/// through the [`BuildCx`].
pub type ClassFactory<U, E> =
    Arc<dyn Fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>> + Send + Sync>;

/// Builds a user condition from its JSON object (the `conditionType` key removed). An
/// error message becomes a load problem at the condition's path.
pub type ConditionFactory<U, E> =
    Arc<dyn Fn(&serde_json::Map<String, Value>) -> Result<ConditionFn<U, E>, String> + Send + Sync>;

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
        super::classes::register_builtins(&mut r);
        super::state_machine::register(&mut r);
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
        factory: impl Fn(&serde_json::Map<String, Value>) -> Result<ConditionFn<U, E>, String>
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

/// What a class factory sees: its instance's class parameters (the object without the
/// common keys), and helpers that resolve delegates and parse conditions, recording every
/// problem with the file and JSON path.
pub struct BuildCx<'a, U: IntentUnion, E: 'static> {
    pub(crate) registry: &'a Registry<U, E>,
    pub(crate) file: &'a str,
    pub(crate) path: String,
    pub(crate) name: &'a str,
    pub(crate) class: &'a str,
    pub(crate) params: serde_json::Map<String, Value>,
    pub(crate) ids: &'a HashMap<String, BehaviorId>,
    pub(crate) anonymous: &'a HashMap<String, BehaviorId>,
    pub(crate) custom: Vec<(String, Arc<Condition<U, E>>)>,
    pub(crate) opaque_unknown: bool,
    pub(crate) problems: &'a mut Vec<Problem>,
    pub(crate) delegates: Vec<BehaviorId>,
}

impl<'a, U: IntentUnion, E: 'static> BuildCx<'a, U, E> {
    /// The instance's behavior ID.
    pub fn name(&self) -> &str {
        self.name
    }
    /// The class.
    pub fn class(&self) -> &str {
        self.class
    }
    /// The class parameters (common keys removed).
    pub fn raw_params(&self) -> &serde_json::Map<String, Value> {
        &self.params
    }
    /// The instance's JSON path in its file.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Records a problem at `$path.key` (`key` may be empty).
    pub fn problem(&mut self, key: &str, kind: ProblemKind) {
        let path = if key.is_empty() {
            self.path.clone()
        } else if key.starts_with('[') {
            format!("{}{key}", self.path)
        } else {
            format!("{}.{key}", self.path)
        };
        self.problems.push(Problem {
            file: self.file.to_owned(),
            path,
            kind,
        });
    }

    /// Deserializes the class parameters into `P` (declare it with
    /// `#[serde(deny_unknown_fields)]`; give defaults with `#[serde(default)]`). Unknown
    /// and missing keys become problems naming the key.
    pub fn params<P: DeserializeOwned>(&mut self) -> Option<P> {
        match serde_json::from_value::<P>(Value::Object(self.params.clone())) {
            Ok(p) => Some(p),
            Err(e) => {
                let msg = e.to_string();
                let key = msg
                    .split('`')
                    .nth(1)
                    .filter(|_| {
                        msg.starts_with("unknown field") || msg.starts_with("missing field")
                    })
                    .unwrap_or("")
                    .to_owned();
                let kind = if msg.starts_with("unknown field") {
                    ProblemKind::UnknownKey { key: key.clone() }
                } else if msg.starts_with("missing field") {
                    ProblemKind::MissingKey { key: key.clone() }
                } else {
                    ProblemKind::BadParams { reason: msg }
                };
                self.problem(&key, kind);
                None
            }
        }
    }

    /// Resolves a delegate named at `key` (anonymous behaviors of this instance first, then
    /// behavior IDs) and declares it. Records a problem when it does not exist.
    pub fn delegate(&mut self, name: &str, key: &str) -> Option<BehaviorId> {
        let id = self
            .anonymous
            .get(name)
            .or_else(|| self.ids.get(name))
            .copied();
        match id {
            Some(id) => {
                self.delegates.push(id);
                Some(id)
            }
            None => {
                self.problem(
                    key,
                    ProblemKind::UnknownDelegate {
                        name: name.to_owned(),
                    },
                );
                None
            }
        }
    }

    /// Makes `{"customCondition": name}` resolve to `condition` in this instance's
    /// conditions (the state machine's `stateTimerConditions`).
    pub fn add_custom_condition(&mut self, name: &str, condition: Condition<U, E>) {
        self.custom.push((name.to_owned(), Arc::new(condition)));
    }

    /// Parses a condition at `key`.
    pub fn condition(&mut self, value: &Value, key: &str) -> Option<Condition<U, E>> {
        let before = self.problems.len();
        let path = if key.is_empty() {
            self.path.clone()
        } else {
            format!("{}.{key}", self.path)
        };
        let c = super::loader::parse_condition(self, value, &path);
        (self.problems.len() == before).then_some(c).flatten()
    }

    /// Parses a matcher list at `key`.
    pub fn matchers(&mut self, value: &Value, key: &str) -> Option<Vec<IntentMatcher<U>>> {
        let path = format!("{}.{key}", self.path);
        super::loader::parse_matchers(self.registry, self.file, value, &path, self.problems)
    }
}
