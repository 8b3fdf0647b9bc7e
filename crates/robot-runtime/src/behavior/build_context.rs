//! [`BuildCx`]: what a class's builder gets while the loader builds one instance: its class
//! parameters, helpers that resolve delegates and parse conditions, and the problem list
//! every helper reports to. [`ClassFactory`] is the builder's type. Built-in classes and
//! user classes see exactly this; neither sees the loader or the registry.

use std::collections::HashMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::condition::parse::{ConditionFactory, ConditionParser};
use super::condition::Condition;
use super::core::Behavior;
use super::ids::BehaviorId;
use super::problem::{Problem, ProblemKind, ProblemSink};
use crate::intent::{IntentMatcher, IntentPredicate, IntentUnion};

/// Builds a behavior of one class from its JSON. Returns None after recording problems
/// through the [`BuildCx`].
pub type ClassFactory<U, E> =
    Arc<dyn Fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>> + Send + Sync>;

/// What a class factory sees: its instance's class parameters (the object without the
/// common keys), and helpers that resolve delegates and parse conditions, recording every
/// problem with the file and JSON path.
pub struct BuildCx<'a, U: IntentUnion, E: 'static> {
    pub(crate) conditions: &'a HashMap<String, ConditionFactory<U, E>>,
    pub(crate) predicates: &'a HashMap<String, IntentPredicate<U>>,
    pub(crate) file: &'a str,
    pub(crate) path: String,
    pub(crate) name: &'a str,
    pub(crate) class: &'a str,
    pub(crate) params: Map<String, Value>,
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
    pub fn raw_params(&self) -> &Map<String, Value> {
        &self.params
    }
    /// The instance's JSON path in its file.
    pub fn path(&self) -> &str {
        &self.path
    }
    /// Number of problems recorded so far (for all instances of the load).
    pub fn problem_count(&self) -> usize {
        self.problems.len()
    }

    fn at(&self, key: &str) -> String {
        if key.is_empty() {
            self.path.clone()
        } else if key.starts_with('[') {
            format!("{}{key}", self.path)
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Records a problem at `$path.key` (`key` may be empty).
    pub fn problem(&mut self, key: &str, kind: ProblemKind) {
        let path = self.at(key);
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

    fn parser(&mut self) -> ConditionParser<'_, '_, U, E> {
        ConditionParser {
            types: self.conditions,
            predicates: self.predicates,
            custom: &self.custom,
            opaque_unknown: self.opaque_unknown,
            sink: ProblemSink {
                file: self.file,
                problems: self.problems,
            },
        }
    }

    /// Parses a condition at `key`.
    pub fn condition(&mut self, value: &Value, key: &str) -> Option<Condition<U, E>> {
        let before = self.problems.len();
        let path = self.at(key);
        let c = self.parser().condition(value, &path);
        (self.problems.len() == before).then_some(c).flatten()
    }

    /// Parses a matcher list at `key`.
    pub fn matchers(&mut self, value: &Value, key: &str) -> Option<Vec<IntentMatcher<U>>> {
        let path = self.at(key);
        self.parser().matchers(value, &path)
    }
}
