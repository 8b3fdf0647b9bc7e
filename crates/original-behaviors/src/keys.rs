//! Reading a class's own keys as its table says ([`crate::specs`]): every key the class
//! reads, with its type and need, so strict mode accepts exactly the keys the original
//! class reads (a key no class reads stays an error) and a wrong type is an error at the
//! key's line and column. Native classes and the table-driven class both read their keys
//! through [`read_class_keys`], so the table is the one truth of what a class accepts.

use robot_runtime::behavior::{BuildCx, IntentUnion, ProblemKind};
use serde_json::{Map, Value};

use crate::specs::{ClassData, Key, KeyType, Need, FACE_SELECTION_FACTORS};

/// What a value of `ty` is, for an error message (None: any value fits).
fn expected(ty: KeyType) -> Option<&'static str> {
    Some(match ty {
        KeyType::Bool => "a boolean",
        KeyType::Int => "an integer",
        KeyType::UInt => "a whole number >= 0",
        KeyType::Float => "a number",
        KeyType::Str => "a string",
        KeyType::Trigger => "an animation trigger name",
        KeyType::AudioEvent => "an audio event name",
        KeyType::LocaleKey => "a localization key",
        KeyType::Id => "a behavior name",
        KeyType::Ids => "an array of behavior names",
        KeyType::Array => "an array",
        KeyType::Object | KeyType::Graph => "an object",
        KeyType::Condition => "a condition object",
        KeyType::IntentMatchers => "an array of intent matchers",
        KeyType::Enum(_) => "one of the listed names",
        KeyType::FacePenalties => {
            "an array of {factor, multiplier} (or an object of factor: multiplier)"
        }
        KeyType::Any => return None,
    })
}

fn fits(ty: KeyType, v: &Value) -> bool {
    match ty {
        KeyType::Bool => v.is_boolean(),
        KeyType::Int => v.is_i64() || v.is_u64(),
        KeyType::UInt => v.is_u64(),
        KeyType::Float => v.is_number(),
        KeyType::Str
        | KeyType::Trigger
        | KeyType::AudioEvent
        | KeyType::LocaleKey
        | KeyType::Id => v.is_string(),
        KeyType::Ids => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        KeyType::Array | KeyType::IntentMatchers => v.is_array(),
        KeyType::Object | KeyType::Condition => v.is_object(),
        KeyType::Graph => v
            .get("nodes")
            .and_then(Value::as_array)
            .is_some_and(|nodes| {
                nodes.iter().all(|n| {
                    n.get("x").is_some_and(Value::is_number)
                        && n.get("y").is_some_and(Value::is_number)
                })
            }),
        KeyType::Enum(names) => v.as_str().is_some_and(|s| names.contains(&s)),
        KeyType::FacePenalties => face_penalties(v).is_ok(),
        KeyType::Any => true,
    }
}

/// `faceSelectionPenalties` read as the original reads it (OCP §2.9): the array of
/// `{factor, multiplier}`, or this project's object shorthand `{factor: multiplier}`.
/// One bad entry fails the whole value (the original then keeps its defaults; here it is a
/// load problem naming the entry).
pub fn face_penalties(v: &Value) -> Result<Vec<(&'static str, f64)>, String> {
    let factor = |name: &str| {
        FACE_SELECTION_FACTORS
            .iter()
            .find(|f| **f == name)
            .copied()
            .ok_or_else(|| {
                format!(
                    "unknown factor `{name}` (one of {})",
                    FACE_SELECTION_FACTORS.join(", ")
                )
            })
    };
    let multiplier = |m: Option<&Value>, at: &str| {
        m.and_then(Value::as_f64)
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{at}: `multiplier` must be a number"))
    };
    match v {
        Value::Array(entries) => entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let at = format!("[{i}]");
                let o = e
                    .as_object()
                    .ok_or_else(|| format!("{at}: expected {{factor, multiplier}}, found {e}"))?;
                if let Some(k) = o.keys().find(|k| *k != "factor" && *k != "multiplier") {
                    return Err(format!("{at}: unknown key `{k}` (factor, multiplier)"));
                }
                let f = o
                    .get("factor")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{at}: `factor` must be a string"))?;
                Ok((factor(f)?, multiplier(o.get("multiplier"), &at)?))
            })
            .collect(),
        Value::Object(o) => o
            .iter()
            .map(|(k, m)| Ok((factor(k)?, multiplier(Some(m), k)?)))
            .collect(),
        _ => Err(format!(
            "expected an array of {{factor, multiplier}}, found {v}"
        )),
    }
}

/// The default of an optional key as a JSON value (None: "not configured").
fn default_value(key: &Key) -> Option<Value> {
    match key.need {
        Need::Required | Need::Optional("none") => None,
        Need::Optional(text) => {
            serde_json::from_str::<Value>(text)
                .ok()
                .or_else(|| match key.ty {
                    // A default given as a bare name (an animation trigger, a behavior ID).
                    KeyType::Str
                    | KeyType::Trigger
                    | KeyType::AudioEvent
                    | KeyType::LocaleKey
                    | KeyType::Id
                    | KeyType::Enum(_) => Some(Value::String(text.to_owned())),
                    _ => None,
                })
        }
    }
}

/// Classes whose instances give exactly one of several key sets, whole: the fork's files
/// use an older set of keys than the class the spec describes (the keys of both sets are
/// optional in the class table; this says which combinations are whole). An instance giving
/// keys of two sets, or part of a set, is an error at load; one giving none misses the
/// first set's keys.
pub const KEY_SETS: &[(&str, &[&[&str]])] = &[
    // reactions
    (
        "ReactToCliff",
        &[&["eventFlagTimeout_ms"], &["eventFlagTimeout_sec"]],
    ),
    (
        "ReactToRobotShaken",
        &[
            &["getInAnimation", "shakeAnimations"],
            &[
                "shakeThresholdStop",
                "shakeThresholdMedium",
                "shakeThresholdHard",
            ],
        ],
    ),
];

/// Checks [`KEY_SETS`] for `class` against the instance (see there).
fn check_key_sets<U: IntentUnion, E: 'static>(cx: &mut BuildCx<'_, U, E>, class: &str) {
    let Some((_, sets)) = KEY_SETS.iter().find(|(c, _)| *c == class) else {
        return;
    };
    let given: Vec<usize> = sets
        .iter()
        .enumerate()
        .filter(|(_, set)| set.iter().any(|k| cx.has(k)))
        .map(|(i, _)| i)
        .collect();
    match given.as_slice() {
        [] => {
            for k in sets[0] {
                cx.problem(
                    "",
                    ProblemKind::MissingKey {
                        key: (*k).to_owned(),
                    },
                );
            }
        }
        [one] => {
            let missing: Vec<&str> = sets[*one].iter().copied().filter(|k| !cx.has(k)).collect();
            for k in missing {
                cx.problem("", ProblemKind::MissingKey { key: k.to_owned() });
            }
        }
        [first, second, ..] => {
            let key = sets[*second].iter().find(|k| cx.has(k)).copied();
            cx.bad_value(
                key.unwrap_or(""),
                format!(
                    "give the keys {} or {}, not both",
                    sets[*first].join(", "),
                    sets[*second].join(", ")
                ),
            );
        }
    }
}

/// Reads every key of `data` from the instance being built: a present key of the wrong
/// type, a missing required key, a bad nested condition or intent matcher list are
/// problems (at the key). Returns the keys' values, with the defaults of the optional keys
/// that are absent, for the class to read.
pub fn read_class_keys<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    data: &ClassData,
) -> Map<String, Value> {
    let out = read_keys(cx, data.keys);
    check_key_sets(cx, data.name);
    out
}

/// [`read_class_keys`] for some keys only (a native class that reads the rest itself).
pub fn read_keys<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    keys: &[Key],
) -> Map<String, Value> {
    let mut out = Map::new();
    for key in keys {
        match cx.get(key.name) {
            Some(v) => {
                if !fits(key.ty, v) {
                    match key.ty {
                        KeyType::FacePenalties => {
                            let why = face_penalties(v).err().unwrap_or_default();
                            cx.bad_value(key.name, why);
                        }
                        KeyType::Enum(names) => cx.bad_value(
                            key.name,
                            format!("expected one of {}, found {v}", names.join(", ")),
                        ),
                        ty => cx.problem(
                            key.name,
                            ProblemKind::WrongType {
                                key: key.name.to_owned(),
                                expected: expected(ty).unwrap_or("a value"),
                            },
                        ),
                    }
                    continue;
                }
                match key.ty {
                    KeyType::Condition => {
                        let _ = cx.condition(v, key.name);
                    }
                    KeyType::IntentMatchers => {
                        let _ = cx.matchers(v, key.name);
                    }
                    _ => {}
                }
                out.insert(key.name.to_owned(), v.clone());
            }
            None => match key.need {
                Need::Required => cx.problem(
                    "",
                    ProblemKind::MissingKey {
                        key: key.name.to_owned(),
                    },
                ),
                Need::Optional(_) => {
                    if let Some(d) = default_value(key) {
                        out.insert(key.name.to_owned(), d);
                    }
                }
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn types_fit_as_the_original_reads_them() {
        assert!(fits(KeyType::UInt, &json!(3)));
        assert!(!fits(KeyType::UInt, &json!(-3)));
        assert!(fits(KeyType::Float, &json!(3)));
        assert!(!fits(KeyType::Bool, &json!("true")));
        assert!(fits(KeyType::Ids, &json!(["A", "B"])));
        assert!(!fits(KeyType::Ids, &json!(["A", 1])));
        assert!(fits(
            KeyType::Graph,
            &json!({"nodes": [{"x": 0, "y": 1}, {"x": 2, "y": 3}]})
        ));
        assert!(!fits(KeyType::Graph, &json!([[0, 1]])));
        assert!(fits(KeyType::Enum(&["A", "B"]), &json!("B")));
        assert!(!fits(KeyType::Enum(&["A", "B"]), &json!("C")));
    }

    #[test]
    fn face_selection_penalties_are_the_array_the_robot_files_use() {
        let ok = json!([{"factor": "Distance_m", "multiplier": 4},
            {"factor": "UnnamedFace", "multiplier": 0.5}]);
        assert_eq!(
            face_penalties(&ok).unwrap(),
            [("Distance_m", 4.0), ("UnnamedFace", 0.5)]
        );
        assert!(fits(KeyType::FacePenalties, &ok));
        assert!(fits(KeyType::FacePenalties, &json!({"TrackingOnly": 100})));
        assert!(fits(KeyType::FacePenalties, &json!([])));
        for (bad, says) in [
            (
                json!([{"factor": "Nose", "multiplier": 1}]),
                "unknown factor `Nose`",
            ),
            (
                json!([{"factor": 3, "multiplier": 1}]),
                "`factor` must be a string",
            ),
            (
                json!([{"factor": "Distance_m", "multiplier": "x"}]),
                "`multiplier`",
            ),
            (
                json!([{"factor": "Distance_m", "multiplier": 1, "z": 0}]),
                "unknown key `z`",
            ),
            (json!([1]), "expected {factor, multiplier}"),
            (json!("Distance_m"), "expected an array"),
            (json!({"Distance_m": null}), "`multiplier`"),
        ] {
            let e = face_penalties(&bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
            assert!(!fits(KeyType::FacePenalties, &bad));
        }
        let default: Value =
            serde_json::from_str(crate::specs::FACE_SELECTION_PENALTIES_DEFAULT).unwrap();
        assert!(fits(KeyType::FacePenalties, &default));
    }

    #[test]
    fn defaults_read_as_json_or_as_names() {
        let k = |ty, d| Key {
            name: "k",
            ty,
            need: Need::Optional(d),
            note: "",
        };
        assert_eq!(default_value(&k(KeyType::Bool, "true")), Some(json!(true)));
        assert_eq!(default_value(&k(KeyType::Float, "60")), Some(json!(60)));
        assert_eq!(
            default_value(&k(KeyType::Trigger, "VC_ListeningLoop")),
            Some(json!("VC_ListeningLoop"))
        );
        assert_eq!(default_value(&k(KeyType::Float, "none")), None);
    }
}
