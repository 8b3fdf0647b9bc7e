//! Conditions and intent-matcher lists from JSON: `{"conditionType": ...}`,
//! `{"customCondition": name}`, `Compound`, and the `[{"type": tag, ...}]` lists of
//! `respondToUserIntents` / `UserIntentPending`. Every problem is recorded with its JSON
//! path; a condition is returned only when its whole object is valid.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::{Condition, ConditionFn};
use crate::behavior::problem::{ProblemKind, ProblemSink};
use crate::intent::{IntentMatcher, IntentPredicate, IntentUnion};

/// Builds a user condition from its JSON object (the `conditionType` key removed). An
/// error message becomes a load problem at the condition's path.
pub type ConditionFactory<U, E> =
    Arc<dyn Fn(&Map<String, Value>) -> Result<ConditionFn<U, E>, String> + Send + Sync>;

/// What parsing needs to know: user condition types, `_lambda` predicates, the custom
/// conditions in scope, and whether unknown types become opaque stand-ins.
pub(crate) struct ConditionParser<'a, 'p, U: IntentUnion, E: 'static> {
    pub types: &'a HashMap<String, ConditionFactory<U, E>>,
    pub predicates: &'a HashMap<String, IntentPredicate<U>>,
    pub custom: &'a [(String, Arc<Condition<U, E>>)],
    pub opaque_unknown: bool,
    pub sink: ProblemSink<'p>,
}

impl<U: IntentUnion, E: 'static> ConditionParser<'_, '_, U, E> {
    fn bad<T>(&mut self, path: String, reason: String) -> Option<T> {
        self.sink.push(path, ProblemKind::BadCondition { reason });
        None
    }

    /// A matcher list (`respondToUserIntents`, `list`): every bad matcher is a problem.
    pub fn matchers(&mut self, value: &Value, path: &str) -> Option<Vec<IntentMatcher<U>>> {
        parse_matchers(self.predicates, value, path, &mut self.sink)
    }

    /// One condition at `path`.
    pub fn condition(&mut self, value: &Value, path: &str) -> Option<Condition<U, E>> {
        let Some(o) = value.as_object() else {
            return self.bad(path.into(), "a condition must be an object".into());
        };
        let allowed = |p: &mut Self, keys: &[&str]| -> bool {
            let mut ok = true;
            for k in o.keys() {
                if k != "conditionType" && k != "debugLabel" && !keys.contains(&k.as_str()) {
                    p.sink.push(
                        format!("{path}.{k}"),
                        ProblemKind::UnknownKey { key: k.clone() },
                    );
                    ok = false;
                }
            }
            ok
        };
        if let Some(name) = o.get("customCondition") {
            let Some(name) = name.as_str() else {
                return self.bad(format!("{path}.customCondition"), "must be a string".into());
            };
            if !allowed(self, &["customCondition"]) {
                return None;
            }
            if let Some((_, c)) = self.custom.iter().find(|(n, _)| n == name) {
                return Some(Condition::Shared {
                    name: name.into(),
                    condition: c.clone(),
                });
            }
            if let Some(f) = self.types.get(name) {
                return match f(&Map::new()) {
                    Ok(test) => Some(Condition::User {
                        name: name.into(),
                        test,
                    }),
                    Err(reason) => self.bad(path.into(), reason),
                };
            }
            return self.bad(
                format!("{path}.customCondition"),
                format!("unknown custom condition `{name}`"),
            );
        }
        let Some(ty) = o.get("conditionType").and_then(Value::as_str) else {
            return self.bad(path.into(), "missing string `conditionType`".into());
        };
        let min_s = |p: &mut Self| -> Option<Duration> {
            match o.get("min_s").and_then(Value::as_f64) {
                Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
                _ => p.bad(
                    format!("{path}.min_s"),
                    "`min_s` must be a non-negative number".into(),
                ),
            }
        };
        let list = |p: &mut Self| -> Option<Box<[IntentMatcher<U>]>> {
            let Some(v) = o.get("list") else {
                return p.bad(path.into(), "missing `list`".into());
            };
            p.matchers(v, &format!("{path}.list")).map(Into::into)
        };
        match ty {
            "TrueCondition" => allowed(self, &[]).then_some(Condition::True),
            "FalseCondition" => allowed(self, &[]).then_some(Condition::False),
            "AnyUserIntent" => allowed(self, &[]).then_some(Condition::AnyIntent),
            "TriggerWordPending" => allowed(self, &[]).then_some(Condition::TriggerWordPending),
            "UnclaimedIntent" => allowed(self, &[]).then_some(Condition::UnclaimedIntent),
            "UserIntentPending" => {
                let ok = allowed(self, &["list"]);
                list(self).filter(|_| ok).map(Condition::IntentPending)
            }
            "UserIntentActive" => {
                let ok = allowed(self, &["list"]);
                list(self).filter(|_| ok).map(Condition::IntentActive)
            }
            "TimeInState" => {
                let ok = allowed(self, &["min_s"]);
                min_s(self).filter(|_| ok).map(Condition::InStateFor)
            }
            "TimeActive" => {
                let ok = allowed(self, &["min_s"]);
                min_s(self).filter(|_| ok).map(Condition::ActiveFor)
            }
            "TimerElapsed" => {
                let ok = allowed(self, &["min_s", "timer"]);
                let timer = o.get("timer").and_then(Value::as_str).map(str::to_owned);
                let m = min_s(self);
                match (timer, m, ok) {
                    (Some(t), Some(min), true) => Some(Condition::TimerElapsed {
                        timer: t.into(),
                        min,
                    }),
                    (None, _, _) => {
                        self.bad(format!("{path}.timer"), "missing string `timer`".into())
                    }
                    _ => None,
                }
            }
            "Compound" => self.compound(o, path, allowed),
            other => {
                if let Some(f) = self.types.get(other).cloned() {
                    let mut params = o.clone();
                    params.remove("conditionType");
                    params.remove("debugLabel");
                    return match f(&params) {
                        Ok(test) => Some(Condition::User {
                            name: other.into(),
                            test,
                        }),
                        Err(reason) => self.bad(path.into(), reason),
                    };
                }
                if self.opaque_unknown {
                    return Some(Condition::Opaque {
                        condition_type: other.into(),
                        raw: value.clone(),
                    });
                }
                self.bad(
                    format!("{path}.conditionType"),
                    format!("unknown condition type `{other}`"),
                )
            }
        }
    }

    fn compound(
        &mut self,
        o: &Map<String, Value>,
        path: &str,
        allowed: impl Fn(&mut Self, &[&str]) -> bool,
    ) -> Option<Condition<U, E>> {
        if !allowed(self, &["and", "or", "not"]) {
            return None;
        }
        let ops: Vec<&str> = ["and", "or", "not"]
            .into_iter()
            .filter(|k| o.contains_key(*k))
            .collect();
        if ops.len() != 1 {
            return self.bad(
                path.into(),
                "`Compound` takes exactly one of `and`, `or`, `not`".into(),
            );
        }
        let op = ops[0];
        let v = &o[op];
        if op == "not" {
            return self
                .condition(v, &format!("{path}.not"))
                .map(|c| Condition::Not(Box::new(c)));
        }
        let Some(a) = v.as_array() else {
            return self.bad(format!("{path}.{op}"), format!("`{op}` must be an array"));
        };
        let mut out = Vec::with_capacity(a.len());
        for (k, item) in a.iter().enumerate() {
            if let Some(c) = self.condition(item, &format!("{path}.{op}[{k}]")) {
                out.push(c);
            }
        }
        (out.len() == a.len()).then(|| {
            if op == "and" {
                Condition::And(out.into())
            } else {
                Condition::Or(out.into())
            }
        })
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
