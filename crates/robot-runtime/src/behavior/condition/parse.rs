//! Conditions and intent-matcher lists from JSON (spec §5.0): `{"conditionType": ...}`,
//! `{"customCondition": name}` (the conditions a class injects, user conditions, or opaque
//! stand-ins), `Compound` (node type `not` > `and` > `or`; children that are not conditions
//! are nested nodes), and the `[{"type": tag, ...}]` lists of `respondToUserIntents` /
//! `UserIntentPending`.
//!
//! A `conditionType` is looked up in this order: the user's condition types
//! ([`Registry::register_condition`](crate::behavior::Registry::register_condition)); the
//! framework's (`TrueCondition`, `Compound`, `UserIntentPending`, `UserIntentActive`,
//! `AnyUserIntent`, `TriggerWordPending`); the condition types node libraries registered with
//! their parsers ([`Registry::register_condition_type`](crate::behavior::Registry::register_condition_type)),
//! which read their keys through a [`ConditionCx`]; a name of the registry's condition-type
//! vocabulary ([`Vocabulary::ConditionTypes`])
//! that no parser handles is known but not run natively: an opaque stand-in when the load
//! allows stand-ins, else an error; any other name is unknown (with the vocabulary's close
//! names as suggestions).
//!
//! Every problem is recorded with its JSON path; a condition is returned only when its whole
//! object is valid. Keys a condition does not read are warnings (the original never checks
//! keys inside conditions); `debugLabel` is accepted and ignored.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Condition, ConditionFn, ConditionType, Kind, Op};
use crate::behavior::json_keys::{did_you_mean, kind_of, KeyReader};
use crate::behavior::problem::{ProblemKind, ProblemSink, Severity};
use crate::behavior::vocabulary::{Vocabularies, Vocabulary};
use crate::intent::{IntentMatcher, IntentPredicate, IntentUnion};

/// Builds a user condition from its JSON object (the `conditionType` key removed). An
/// error message becomes a load problem at the condition's path.
pub type ConditionFactory<U, E> =
    Arc<dyn Fn(&Map<String, Value>) -> Result<ConditionFn<U, E>, String> + Send + Sync>;

/// Parses one condition of a registered type from its JSON object (see [`ConditionCx`]):
/// the condition, or None after recording its problems.
pub type ConditionTypeParser<U, E> =
    Arc<dyn Fn(&mut ConditionCx<'_, U, E>) -> Option<Box<dyn ConditionType<U, E>>> + Send + Sync>;

/// The condition types of the framework (see the [module documentation](self)).
pub const FRAMEWORK_TYPES: &[&str] = &[
    "TrueCondition",
    "Compound",
    "UserIntentPending",
    "UserIntentActive",
    "AnyUserIntent",
    "TriggerWordPending",
];

/// The values of conditions loaded as stand-ins (see `LoadOptions::stand_ins`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpaqueValues {
    /// The value of a condition type the registry knows but does not run natively.
    pub condition_type: bool,
    /// The value of an unknown `customCondition`.
    pub custom_condition: bool,
}

/// What parsing needs to know (see the [module documentation](self)).
pub(crate) struct ConditionParser<'a, 'p, U: IntentUnion, E: 'static> {
    /// User condition types, by name (tried before every other type).
    pub conditions: &'a HashMap<String, ConditionFactory<U, E>>,
    /// Node libraries' condition types, by name.
    pub types: &'a HashMap<String, ConditionTypeParser<U, E>>,
    /// `_lambda` predicates.
    pub predicates: &'a HashMap<String, IntentPredicate<U>>,
    /// The registry's vocabularies.
    pub vocabularies: &'a Vocabularies,
    /// Custom conditions in scope (injected by the class being built).
    pub custom: &'a [(String, Condition<U, E>)],
    /// Stand-in values, when stand-ins are on.
    pub opaque: Option<OpaqueValues>,
    pub sink: ProblemSink<'p>,
}

/// What a registered condition type's parser gets: its type name, its JSON object's keys
/// (read through a [`KeyReader`], each problem recorded at its path; keys it leaves unread
/// are warnings), nested conditions and matcher lists parsed at their paths, and the
/// registry's vocabularies.
///
/// ```
/// # use robot_runtime::behavior::{ConditionCx, ConditionType, EvalCx, Inputs, IntentUnion, Wakeup};
/// /// `{"conditionType": "Coin", "heads": true}`: true when `heads` is.
/// struct Coin(bool);
/// impl<U: IntentUnion, E: 'static> ConditionType<U, E> for Coin {
///     fn name(&self) -> &str { "Coin" }
///     fn eval(&self, _: &EvalCx<'_, U, E>) -> bool { self.0 }
///     fn inputs(&self) -> Inputs { Inputs::NONE }
///     fn next_change(&self, _: &EvalCx<'_, U, E>, _: bool) -> Wakeup { Wakeup::Never }
///     fn clone_type(&self) -> Box<dyn ConditionType<U, E>> { Box::new(Coin(self.0)) }
/// }
/// fn parse<U: IntentUnion, E: 'static>(cx: &mut ConditionCx<'_, U, E>) -> Option<Box<dyn ConditionType<U, E>>> {
///     let (keys, mut sink) = cx.keys();
///     let heads = keys.req_bool(&mut sink, "heads")?;
///     Some(Box::new(Coin(heads)))
/// }
/// fn install<U: IntentUnion, E: 'static>(registry: &mut robot_runtime::behavior::Registry<U, E>) {
///     registry.register_condition_type("Coin", parse::<U, E>);
/// }
/// ```
pub struct ConditionCx<'c, U: IntentUnion, E: 'static> {
    ty: &'c str,
    keys: KeyReader<'c>,
    parser: ConditionParser<'c, 'c, U, E>,
}

impl<'c, U: IntentUnion, E: 'static> ConditionCx<'c, U, E> {
    /// The `conditionType` being parsed (a parser may serve several names).
    pub fn type_name(&self) -> &'c str {
        self.ty
    }
    /// The condition object's key reader and the problem sink its readers record into.
    pub fn keys(&mut self) -> (&mut KeyReader<'c>, ProblemSink<'_>) {
        (&mut self.keys, self.parser.sink.reborrow())
    }
    /// The path of `key` in the condition object.
    pub fn at(&self, key: &str) -> String {
        self.keys.at(key)
    }
    /// Records a bad value of `key`.
    pub fn bad(&mut self, key: &str, reason: impl Into<String>) {
        let (k, mut s) = self.keys();
        k.bad(&mut s, key, reason);
    }
    /// Records a bad condition at `key` (the condition's own path when `key` is empty).
    pub fn bad_condition(&mut self, key: &str, reason: impl Into<String>) {
        let at = self.keys.at(key);
        self.parser.sink.push(
            at,
            ProblemKind::BadCondition {
                reason: reason.into(),
            },
        );
    }
    /// Errors recorded so far in this load.
    pub fn errors(&self) -> usize {
        self.parser.sink.errors()
    }
    /// A nested condition (`subCondition`) at `key` of this object: every problem at its
    /// own path. None when it has an error.
    pub fn condition(&mut self, value: &Value, key: &str) -> Option<Condition<U, E>> {
        let path = self.keys.at(key);
        self.parser.condition(value, &path)
    }
    /// A matcher list at `key` of this object.
    pub fn matchers(&mut self, value: &Value, key: &str) -> Option<Vec<IntentMatcher<U>>> {
        let path = self.keys.at(key);
        self.parser.matchers(value, &path)
    }
    /// The registry's names of `vocabulary`, when it has them.
    pub fn vocabulary(&self, vocabulary: Vocabulary) -> Option<&'c [String]> {
        self.parser.vocabularies.get(vocabulary)
    }
}

impl<U: IntentUnion, E: 'static> ConditionParser<'_, '_, U, E> {
    fn bad<T>(&mut self, path: String, reason: impl Into<String>) -> Option<T> {
        self.sink.push(
            path,
            ProblemKind::BadCondition {
                reason: reason.into(),
            },
        );
        None
    }

    /// A matcher list (`respondToUserIntents`, `list`): every bad matcher is a problem.
    pub fn matchers(&mut self, value: &Value, path: &str) -> Option<Vec<IntentMatcher<U>>> {
        parse_matchers(self.predicates, value, path, &mut self.sink)
    }

    /// One condition at `path`.
    pub fn condition(&mut self, value: &Value, path: &str) -> Option<Condition<U, E>> {
        let before = self.sink.problems.len();
        let c = self.condition_inner(value, path);
        let failed = self.sink.problems[before..].iter().any(|p| p.is_error());
        c.filter(|_| !failed)
    }

    fn condition_inner(&mut self, value: &Value, path: &str) -> Option<Condition<U, E>> {
        let Some(o) = value.as_object() else {
            return self.bad(
                path.into(),
                format!("a condition must be an object, found {}", kind_of(value)),
            );
        };
        let mut k = KeyReader::new(o, path);
        k.accept("debugLabel");
        let custom = k.get("customCondition").filter(|v| !v.is_null());
        if let Some(name) = custom {
            if k.has("conditionType") {
                return self.bad(
                    path.into(),
                    "both `customCondition` and `conditionType`: give one",
                );
            }
            let Some(name) = name.as_str() else {
                return self.bad(k.at("customCondition"), "must be a string");
            };
            k.report_unread(&mut self.sink, Severity::Warning);
            return self.custom(name, value, &k);
        }
        let ty = k.req_str(&mut self.sink, "conditionType")?;
        let c = self.typed(ty, value, &mut k);
        k.report_unread(&mut self.sink, Severity::Warning);
        c
    }

    fn custom(&mut self, name: &str, raw: &Value, k: &KeyReader<'_>) -> Option<Condition<U, E>> {
        if let Some((_, c)) = self.custom.iter().find(|(n, _)| n == name) {
            return Some(c.clone());
        }
        if let Some(f) = self.conditions.get(name) {
            return match f(&Map::new()) {
                Ok(test) => Some(Condition::new(Kind::User {
                    name: name.into(),
                    test,
                })),
                Err(reason) => self.bad(k.path().into(), reason),
            };
        }
        if let Some(values) = self.opaque {
            return Some(Condition::new(Kind::Opaque {
                name: name.into(),
                raw: raw.clone(),
                value: values.custom_condition,
            }));
        }
        let known: Vec<&str> = self.custom.iter().map(|(n, _)| n.as_str()).collect();
        self.bad(
            k.at("customCondition"),
            if known.is_empty() {
                format!("unknown custom condition `{name}` (none is defined here)")
            } else {
                format!(
                    "unknown custom condition `{name}` (defined here: {})",
                    known.join(", ")
                )
            },
        )
    }

    /// A condition of type `ty`.
    fn typed(&mut self, ty: &str, raw: &Value, k: &mut KeyReader<'_>) -> Option<Condition<U, E>> {
        if let Some(f) = self.conditions.get(ty).cloned() {
            let mut params = k.object().clone();
            params.remove("conditionType");
            params.remove("debugLabel");
            for key in params.keys() {
                k.accept(key);
            }
            return match f(&params) {
                Ok(test) => Some(Condition::new(Kind::User {
                    name: ty.into(),
                    test,
                })),
                Err(reason) => self.bad(k.path().into(), reason),
            };
        }
        let s = &mut self.sink;
        let kind = match ty {
            "TrueCondition" => Some(Kind::True),
            "Compound" => {
                // The node reads (and reports) its own keys.
                for key in k.object().keys() {
                    k.accept(key);
                }
                return self.node(k.object(), k.path(), true).map(Condition::new);
            }
            "UserIntentPending" | "UserIntentActive" => {
                let v = k.required(s, "list")?;
                let list: Arc<[IntentMatcher<U>]> = self.matchers(v, &k.at("list"))?.into();
                Some(if ty == "UserIntentPending" {
                    Kind::UserIntentPending(list)
                } else {
                    Kind::UserIntentActive(list)
                })
            }
            "AnyUserIntent" => Some(Kind::AnyUserIntent),
            "TriggerWordPending" => Some(Kind::TriggerWordPending),
            _ => return self.registered(ty, raw, k),
        };
        kind.map(Condition::new)
    }

    /// A condition type of a node library, a known name without a parser (a stand-in), or
    /// an unknown name.
    fn registered(
        &mut self,
        ty: &str,
        raw: &Value,
        k: &mut KeyReader<'_>,
    ) -> Option<Condition<U, E>> {
        let (types, vocabularies) = (self.types, self.vocabularies);
        if let Some(parse) = types.get(ty) {
            let mut cx = ConditionCx {
                ty,
                keys: k.clone(),
                parser: ConditionParser {
                    conditions: self.conditions,
                    types,
                    predicates: self.predicates,
                    vocabularies,
                    custom: self.custom,
                    opaque: self.opaque,
                    sink: self.sink.reborrow(),
                },
            };
            let c = parse(&mut cx).map(|t| Condition::new(Kind::Plugin(t)));
            k.accept_read(&cx.keys);
            return c;
        }
        let at = k.at("conditionType");
        let known = vocabularies.get(Vocabulary::ConditionTypes);
        if !known.is_some_and(|names| names.iter().any(|n| n == ty)) {
            let names: Vec<&str> = match known {
                Some(names) => names.iter().map(String::as_str).collect(),
                None => {
                    let mut v: Vec<&str> = FRAMEWORK_TYPES
                        .iter()
                        .copied()
                        .chain(types.keys().map(String::as_str))
                        .collect();
                    v.sort_unstable();
                    v
                }
            };
            return self.bad(
                at,
                format!("unknown condition type `{ty}`{}", did_you_mean(ty, &names)),
            );
        }
        if let Some(values) = self.opaque {
            for key in k.object().keys() {
                k.accept(key);
            }
            return Some(Condition::new(Kind::Opaque {
                name: ty.into(),
                raw: raw.clone(),
                value: values.condition_type,
            }));
        }
        self.bad(
            at,
            format!("condition type `{ty}` of the original engine does not run natively here (load with stand-ins)"),
        )
    }

    /// A `Compound` node (`root`: the object also has `conditionType`).
    fn node(&mut self, o: &Map<String, Value>, path: &str, root: bool) -> Option<Kind<U, E>> {
        let mut k = KeyReader::new(o, path);
        if root {
            k.accept("conditionType");
        }
        k.accept("debugLabel");
        let op = if k.has("not") {
            Op::Not
        } else if k.has("and") {
            Op::And
        } else if k.has("or") {
            Op::Or
        } else {
            return self.bad(path.into(), "a `Compound` node needs `not`, `and` or `or`");
        };
        let key = match op {
            Op::Not => "not",
            Op::And => "and",
            Op::Or => "or",
        };
        let v = k.get(key)?;
        // Lower-priority node keys are ignored, as the original does: reported as unread.
        k.report_unread(&mut self.sink, Severity::Warning);
        if op == Op::Not {
            if !v.is_object() {
                return self.bad(k.at("not"), "`not` takes one condition object");
            }
            let c = self.child(v, &k.at("not"))?;
            return Some(Kind::Compound {
                op,
                children: vec![c].into(),
            });
        }
        let Some(a) = v.as_array() else {
            return self.bad(k.at(key), format!("`{key}` must be an array"));
        };
        let mut out = Vec::with_capacity(a.len());
        let mut ok = true;
        for (i, item) in a.iter().enumerate() {
            match self.child(item, &format!("{}[{i}]", k.at(key))) {
                Some(c) => out.push(c),
                None => ok = false,
            }
        }
        ok.then(|| Kind::Compound {
            op,
            children: out.into(),
        })
    }

    /// A `Compound` child: a condition when it names a type or a custom condition, else a
    /// nested node.
    fn child(&mut self, v: &Value, path: &str) -> Option<Condition<U, E>> {
        match v.as_object() {
            Some(o) if !o.contains_key("conditionType") && !o.contains_key("customCondition") => {
                self.node(o, path, false).map(Condition::new)
            }
            _ => self.condition(v, path),
        }
    }
}

/// A matcher list at `path` (a single matcher object is a list of one).
pub(crate) fn parse_matchers<U: IntentUnion>(
    predicates: &HashMap<String, IntentPredicate<U>>,
    value: &Value,
    path: &str,
    sink: &mut ProblemSink<'_>,
) -> Option<Vec<IntentMatcher<U>>> {
    let lookup = |n: &str| predicates.get(n).cloned();
    let items: Vec<&Value> = match value {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let mut ok = true;
    for (k, v) in items.iter().enumerate() {
        if let Err(e) = IntentMatcher::<U>::from_json(v, &lookup) {
            ok = false;
            let at = if value.is_array() {
                format!("{path}[{k}]")
            } else {
                path.into()
            };
            sink.push(
                at,
                ProblemKind::BadMatcher {
                    reason: e.to_string(),
                },
            );
        }
    }
    if !ok {
        return None;
    }
    match IntentMatcher::list_from_json(value, &lookup) {
        Ok(l) => Some(l),
        Err(e) => {
            sink.push(
                path,
                ProblemKind::BadMatcher {
                    reason: e.to_string(),
                },
            );
            None
        }
    }
}
