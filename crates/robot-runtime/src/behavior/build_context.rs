//! [`BuildCx`]: what a class's builder gets while the loader builds one instance: its keys
//! (typed readers that record every problem and remember what was read, so the loader can
//! report the keys nobody reads), delegate and reference resolution by the original's rules
//! (own anonymous behaviors first, or global IDs only), condition parsing, and the problem
//! list. [`ClassFactory`] is the builder's type. A node library's classes and user classes
//! see exactly this; neither sees the loader or the registry.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::condition::parse::{
    ConditionFactory, ConditionParser, ConditionTypeParser, OpaqueValues,
};
use super::condition::Condition;
use super::core::Behavior;
use super::ids::BehaviorId;
use super::json_keys::KeyReader;
use super::problem::{Problem, ProblemKind, ProblemSink};
use super::references::{ClassInfo, ReferenceKey, Resolution, Role};
use super::vocabulary::{Vocabularies, Vocabulary};
use crate::intent::{IntentMatcher, IntentPredicate, IntentUnion};

/// Builds a behavior of one class from its JSON. Returns None after recording problems
/// through the [`BuildCx`].
pub type ClassFactory<U, E> =
    Arc<dyn Fn(&mut BuildCx<'_, U, E>) -> Option<Box<dyn Behavior<U, E>>> + Send + Sync>;

/// What the loader knows about every instance while one is built.
pub(crate) struct Instances<'a> {
    /// Global behavior IDs.
    pub ids: &'a HashMap<String, BehaviorId>,
    /// The class of every instance, by arena index.
    pub classes: &'a [&'a str],
}

/// Counts of one instance's behavior references (for the load report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReferenceCount {
    /// Names looked up.
    pub checked: u32,
    /// Names that resolved.
    pub resolved: u32,
}

/// What a class factory sees (see the [module documentation](self)).
pub struct BuildCx<'a, U: IntentUnion, E: 'static> {
    pub(crate) conditions: &'a HashMap<String, ConditionFactory<U, E>>,
    pub(crate) types: &'a HashMap<String, ConditionTypeParser<U, E>>,
    pub(crate) predicates: &'a HashMap<String, IntentPredicate<U>>,
    pub(crate) vocabularies: &'a Vocabularies,
    pub(crate) opaque: Option<OpaqueValues>,
    pub(crate) file: &'a str,
    pub(crate) name: &'a str,
    pub(crate) class: &'a str,
    pub(crate) info: Option<&'a ClassInfo>,
    /// The instance has a valid `wantsToBeActivatedCondition` or `respondToUserIntents`.
    pub(crate) activation_declared: bool,
    /// The class's own keys kept for tools ([`BuildCx::keep_raw_params`]).
    pub(crate) raw: Option<Map<String, Value>>,
    pub(crate) keys: KeyReader<'a>,
    pub(crate) instances: Instances<'a>,
    pub(crate) anonymous: &'a HashMap<String, BehaviorId>,
    pub(crate) custom: Vec<(String, Condition<U, E>)>,
    pub(crate) problems: &'a mut Vec<Problem>,
    pub(crate) delegates: Vec<BehaviorId>,
    pub(crate) references: ReferenceCount,
}

impl<'a, U: IntentUnion, E: 'static> BuildCx<'a, U, E> {
    /// The instance's behavior ID (`Parent@name` for an anonymous behavior).
    pub fn name(&self) -> &str {
        self.name
    }
    /// The class.
    pub fn class(&self) -> &str {
        self.class
    }
    /// The instance's JSON path in its file.
    pub fn path(&self) -> &str {
        self.keys.path()
    }
    /// The instance object (every key, common ones included).
    pub fn object(&self) -> &'a Map<String, Value> {
        self.keys.object()
    }
    /// The class's own keys (the object without the common keys the loader read).
    pub fn raw_params(&self) -> Map<String, Value> {
        self.keys
            .unread()
            .filter_map(|k| Some((k.to_owned(), self.keys.object().get(k)?.clone())))
            .collect()
    }
    /// Errors recorded so far in this load (all instances).
    pub fn problem_count(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }

    /// The problem sink [`KeyReader`]s of this instance record into (see
    /// [`nested`](Self::nested)).
    pub fn sink(&mut self) -> ProblemSink<'_> {
        ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        }
    }

    /// Records a problem at `$path.key` (`key` may be empty, or start with `[`).
    pub fn problem(&mut self, key: &str, kind: ProblemKind) {
        let path = self.keys.at(key);
        self.sink().push(path, kind);
    }

    /// Records a note for information at the instance (not an error: the tree loads).
    pub fn info(&mut self, kind: ProblemKind) {
        let path = self.keys.at("");
        self.sink()
            .push_as(super::problem::Severity::Info, path, kind);
    }

    /// Records a bad value of `key`.
    pub fn bad_value(&mut self, key: &str, reason: impl Into<String>) {
        self.problem(
            key,
            ProblemKind::BadValue {
                key: key.to_owned(),
                reason: reason.into(),
            },
        );
    }

    /// The raw value of `key` (marked read).
    pub fn get(&mut self, key: &str) -> Option<&'a Value> {
        self.keys.get(key)
    }
    /// Marks `key` read without using it (a key the original reads and ignores).
    pub fn accept(&mut self, key: &str) {
        self.keys.accept(key);
    }
    /// True when `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.keys.has(key)
    }
    /// An optional boolean.
    pub fn bool(&mut self, key: &str, default: bool) -> bool {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.bool(&mut s, key, default)
    }
    /// A required boolean.
    pub fn req_bool(&mut self, key: &str) -> Option<bool> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.req_bool(&mut s, key)
    }
    /// An optional finite number.
    pub fn f64(&mut self, key: &str) -> Option<f64> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.f64(&mut s, key)
    }
    /// An optional finite number with a default.
    pub fn f64_or(&mut self, key: &str, default: f64) -> f64 {
        self.f64(key).unwrap_or(default)
    }
    /// A required finite number.
    pub fn req_f64(&mut self, key: &str) -> Option<f64> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.req_f64(&mut s, key)
    }
    /// An optional integer.
    pub fn i64(&mut self, key: &str) -> Option<i64> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.i64(&mut s, key)
    }
    /// A required integer.
    pub fn req_i64(&mut self, key: &str) -> Option<i64> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.req_i64(&mut s, key)
    }
    /// An optional string.
    pub fn str(&mut self, key: &str) -> Option<&'a str> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.str(&mut s, key)
    }
    /// A required string.
    pub fn req_str(&mut self, key: &str) -> Option<&'a str> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.req_str(&mut s, key)
    }
    /// An optional string of a closed set: its index in `names`.
    pub fn one_of(&mut self, key: &str, names: &[&str]) -> Option<usize> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.one_of(&mut s, key, names)
    }
    /// An optional array.
    pub fn array(&mut self, key: &str) -> Option<&'a [Value]> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.array(&mut s, key)
    }
    /// A required array.
    pub fn req_array(&mut self, key: &str) -> Option<&'a [Value]> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.req_array(&mut s, key)
    }
    /// An optional array of strings.
    pub fn strings(&mut self, key: &str) -> Option<Vec<&'a str>> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.strings(&mut s, key)
    }
    /// An optional object.
    pub fn obj(&mut self, key: &str) -> Option<&'a Map<String, Value>> {
        let mut s = ProblemSink {
            file: self.file,
            problems: &mut *self.problems,
        };
        self.keys.obj(&mut s, key)
    }
    /// An optional number of seconds (finite, ≥ 0; a negative or huge one is a problem).
    pub fn seconds(&mut self, key: &str) -> Option<Duration> {
        let s = self.f64(key)?;
        match Duration::try_from_secs_f64(s) {
            Ok(d) if s >= 0.0 => Some(d),
            _ => {
                self.bad_value(key, format!("must be a number of seconds >= 0, found {s}"));
                None
            }
        }
    }

    /// Reads a nested object (a `behaviors[]` entry, a state) at `key` with `read`, which
    /// gets the object's [`KeyReader`] (its readers take [`sink`](Self::sink)); keys it
    /// leaves unread are warnings (the original never checks keys of nested objects).
    pub fn nested<'o, T>(
        &mut self,
        obj: &'o Map<String, Value>,
        key: &str,
        read: impl FnOnce(&mut KeyReader<'o>, &mut Self) -> T,
    ) -> T {
        let path = self.keys.at(key);
        self.nested_at(obj, path, read)
    }

    /// [`nested`](Self::nested) at a full JSON path.
    pub fn nested_at<'o, T>(
        &mut self,
        obj: &'o Map<String, Value>,
        path: String,
        read: impl FnOnce(&mut KeyReader<'o>, &mut Self) -> T,
    ) -> T {
        let mut k = KeyReader::new(obj, path);
        k.accept("debugLabel");
        let out = read(&mut k, self);
        let mut s = self.sink();
        k.report_unread(&mut s, super::problem::Severity::Warning);
        out
    }

    /// Deserializes the class's own keys into `P` (declare it with
    /// `#[serde(deny_unknown_fields)]`; give defaults with `#[serde(default)]`). Every
    /// unknown key is a problem naming it; a missing or mistyped key is one problem (serde
    /// stops there). On success every key counts as read.
    pub fn params<P: DeserializeOwned>(&mut self) -> Option<P> {
        let mut params = self.raw_params();
        let keys: Vec<String> = params.keys().cloned().collect();
        let mut ok = true;
        // Each unknown field is reported and removed, then deserializing is tried again.
        for _ in 0..=keys.len() {
            match serde_json::from_value::<P>(Value::Object(params.clone())) {
                Ok(p) => {
                    for k in &keys {
                        self.keys.accept(k);
                    }
                    return ok.then_some(p);
                }
                Err(e) => {
                    let msg = e.to_string();
                    let key = msg.split('`').nth(1).unwrap_or("").to_owned();
                    if msg.starts_with("unknown field") && params.remove(&key).is_some() {
                        ok = false;
                        self.keys.accept(&key);
                        self.problem(&key, ProblemKind::UnknownKey { key: key.clone() });
                        continue;
                    }
                    for k in &keys {
                        self.keys.accept(k);
                    }
                    if msg.starts_with("missing field") {
                        self.problem("", ProblemKind::MissingKey { key });
                    } else {
                        self.problem("", ProblemKind::BadParams { reason: msg });
                    }
                    return None;
                }
            }
        }
        None
    }

    /// Looks `name` up by `resolution`; records a problem when it names nothing (or, for
    /// global-only keys, an anonymous behavior).
    pub fn resolve(&mut self, name: &str, key: &str, resolution: Resolution) -> Option<BehaviorId> {
        self.references.checked += 1;
        let anonymous = self.anonymous.get(name).copied();
        let found = match resolution {
            Resolution::AnonymousThenGlobal => {
                anonymous.or_else(|| self.instances.ids.get(name).copied())
            }
            Resolution::GlobalOnly => self.instances.ids.get(name).copied(),
        };
        match found {
            Some(id) => {
                self.references.resolved += 1;
                Some(id)
            }
            None if anonymous.is_some() => {
                self.problem(
                    key,
                    ProblemKind::GlobalOnly {
                        name: name.to_owned(),
                    },
                );
                None
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

    /// Resolves a delegate named at `key` (own anonymous behaviors first, then global IDs)
    /// and declares it.
    pub fn delegate(&mut self, name: &str, key: &str) -> Option<BehaviorId> {
        self.delegate_by(name, key, Resolution::AnonymousThenGlobal)
    }

    /// Resolves a delegate named at a key that resolves global IDs only, and declares it.
    pub fn delegate_global(&mut self, name: &str, key: &str) -> Option<BehaviorId> {
        self.delegate_by(name, key, Resolution::GlobalOnly)
    }

    /// Resolves a delegate by `resolution` and declares it.
    pub fn delegate_by(
        &mut self,
        name: &str,
        key: &str,
        resolution: Resolution,
    ) -> Option<BehaviorId> {
        let id = self.resolve(name, key, resolution)?;
        if !self.delegates.contains(&id) {
            self.delegates.push(id);
        }
        Some(id)
    }

    /// The global behavior `name`, if the tree has it (nothing recorded otherwise).
    pub fn global_id(&self, name: &str) -> Option<BehaviorId> {
        self.instances.ids.get(name).copied()
    }

    /// Declares `id` a delegate (resolved some other way).
    pub fn declare_delegate(&mut self, id: BehaviorId) {
        if !self.delegates.contains(&id) {
            self.delegates.push(id);
        }
    }

    /// The class of behavior `id`.
    pub fn class_of(&self, id: BehaviorId) -> Option<&'a str> {
        self.instances.classes.get(id.index()).copied()
    }

    /// Records a problem unless `id` (named `name` at `key`) has class `expected`.
    pub fn require_class(
        &mut self,
        id: BehaviorId,
        name: &str,
        key: &str,
        expected: &'static str,
    ) -> bool {
        match self.class_of(id) {
            Some(c) if c == expected => true,
            c => {
                let class = c.unwrap_or("?").to_owned();
                self.problem(
                    key,
                    ProblemKind::WrongClass {
                        name: name.to_owned(),
                        class,
                        expected,
                    },
                );
                false
            }
        }
    }

    /// The registry's names of `vocabulary`, when it has them.
    pub fn vocabulary(&self, vocabulary: Vocabulary) -> Option<&'a [String]> {
        self.vocabularies.get(vocabulary)
    }

    /// The behaviors declared delegates so far (resolved keys, declared IDs).
    pub fn declared_delegates(&self) -> &[BehaviorId] {
        &self.delegates
    }

    /// True when the instance has a `wantsToBeActivatedCondition` or
    /// `respondToUserIntents` (what a stand-in, whose class predicate is unknown, decides
    /// by).
    pub fn has_activation_conditions(&self) -> bool {
        self.activation_declared
    }

    /// Keeps the class's own keys as they are, for tools (a stand-in's, whose meaning this
    /// robot does not know), and marks them read.
    pub fn keep_raw_params(&mut self) {
        let raw = self.raw_params();
        for k in raw.keys() {
            self.keys.accept(k);
        }
        self.raw = Some(raw);
    }

    /// The class's reference keys (spec §6) as registered ([`ClassInfo`]; none for a user
    /// class).
    pub fn reference_keys(&self) -> &'a [ReferenceKey] {
        self.info.map_or(&[], |i| i.reference_keys)
    }

    /// Resolves every name the reference `keys` give (see [`ReferenceKey`]): a delegate
    /// key declares what it names, a reference key checks it; a missing required key, a
    /// value of the wrong shape, a name that resolves nothing, a global-only key naming an
    /// anonymous behavior and a behavior of the wrong class are problems. Returns each
    /// resolved name with its key, in order (what a stand-in runs with: its pass-through
    /// `delegateID`).
    pub fn resolve_reference_keys(
        &mut self,
        keys: &[ReferenceKey],
    ) -> Vec<(ReferenceKey, BehaviorId)> {
        let mut out = Vec::new();
        for rk in keys {
            let (base, field) = match rk.key.split_once("[]") {
                Some((b, rest)) => (b, Some(rest.trim_start_matches('.'))),
                None => (rk.key, None),
            };
            let mut names: Vec<(String, String)> = Vec::new();
            match (self.get(base), field) {
                (None, _) => {
                    if let Some(d) = rk.default {
                        names.push((d.to_owned(), base.to_owned()));
                    } else if rk.required {
                        self.problem(
                            "",
                            ProblemKind::MissingKey {
                                key: base.to_owned(),
                            },
                        );
                    }
                }
                (Some(Value::String(s)), None) => names.push((s.clone(), base.to_owned())),
                (Some(Value::Array(a)), Some(f)) => {
                    for (i, item) in a.iter().enumerate() {
                        let at = if f.is_empty() {
                            format!("{base}[{i}]")
                        } else {
                            format!("{base}[{i}].{f}")
                        };
                        let v = if f.is_empty() {
                            Some(item)
                        } else {
                            item.get(f)
                        };
                        match v.and_then(Value::as_str) {
                            Some(s) => names.push((s.to_owned(), at)),
                            None if f.is_empty() || item.get(f).is_some() => self.problem(
                                &at,
                                ProblemKind::WrongType {
                                    key: rk.key.into(),
                                    expected: "a behavior name",
                                },
                            ),
                            None => {}
                        }
                    }
                }
                (Some(_), _) => self.problem(
                    base,
                    ProblemKind::WrongType {
                        key: base.into(),
                        expected: if field.is_some() {
                            "an array"
                        } else {
                            "a behavior name"
                        },
                    },
                ),
            }
            for (name, at) in names {
                let id = match rk.role {
                    Role::Delegate => self.delegate_by(&name, &at, rk.resolution),
                    Role::Reference => self.resolve(&name, &at, rk.resolution),
                };
                if let (Some(id), Some(expected)) = (id, rk.must_be) {
                    self.require_class(id, &name, &at, expected);
                }
                if let Some(id) = id {
                    out.push((*rk, id));
                }
            }
        }
        out
    }

    /// Makes `{"customCondition": name}` resolve to a copy of `condition` in this
    /// instance's conditions (a state machine's state timers, the conditions a class
    /// injects).
    pub fn add_custom_condition(&mut self, name: &str, condition: Condition<U, E>) {
        self.custom.push((name.to_owned(), condition));
    }

    fn parser(&mut self) -> ConditionParser<'_, '_, U, E> {
        ConditionParser {
            conditions: self.conditions,
            types: self.types,
            predicates: self.predicates,
            vocabularies: self.vocabularies,
            custom: &self.custom,
            opaque: self.opaque,
            sink: ProblemSink {
                file: self.file,
                problems: &mut *self.problems,
            },
        }
    }

    /// Parses a condition at `key` (a key of the instance, or a path below it such as
    /// `transitionDefinitions[0].exitTransitions[1].condition`).
    pub fn condition(&mut self, value: &Value, key: &str) -> Option<Condition<U, E>> {
        let path = self.keys.at(key);
        self.parser().condition(value, &path)
    }

    /// Parses a matcher list at `key`.
    pub fn matchers(&mut self, value: &Value, key: &str) -> Option<Vec<IntentMatcher<U>>> {
        let path = self.keys.at(key);
        self.parser().matchers(value, &path)
    }
}
