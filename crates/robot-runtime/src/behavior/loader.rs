//! The JSON loader: behavior instances in the original engine's format (spec §3.4–3.6),
//! JSON with `//` and `/* */` comments, validated whole at load. Every problem is reported,
//! each with its file and JSON path; a tree that loads cannot fail these checks later.
//!
//! An instance is one object (one per file in the original; a file may also hold an array of
//! them):
//!
//! | Key | Meaning |
//! |---|---|
//! | `behaviorID` | the instance's ID (a [`BehaviorName`](super::BehaviorName)) |
//! | `behaviorClass` | a class of the [`Registry`] |
//! | `debugLabel` | label for logs and exports |
//! | `wantsToBeActivatedCondition` | one condition (see below) |
//! | `wantsToCancelSelfCondition` | one condition, checked after each update while active |
//! | `respondToUserIntents` | matcher list: `{"type": tag}`, `{"type": tag, ...all fields}`, `{"type": tag, "_lambda": name}` |
//! | `resetTimers` | names of timers reset on activation |
//! | `anonymousBehaviors` | inline instances with `behaviorName` instead of `behaviorID`, named `Parent@name`, found by their short name before IDs |
//! | the class's own keys | beside the common keys, checked by the class (unknown keys rejected) |
//!
//! The original's keys this runtime does not interpret (`associatedActiveFeature`,
//! `behaviorModifiers`, `emotionEventOnActivated`, `postBehaviorSuggestion`,
//! `showActiveIntentFeedback`, `autoShutOffIntentFeedback`, `behaviorStatToIncrement`,
//! `tracksToLockWhileActivated`, `alterStreamAfterWakeword`, `pushTriggerWordResponse`,
//! `alwaysStreamline`) are accepted and kept as metadata
//! ([`Runner::raw_params`](super::Runner::raw_params)), so trees written for the original
//! load unchanged.
//!
//! Conditions: `{"conditionType": "UserIntentPending", "list": [...]}`, `UserIntentActive`
//! (`list`), `AnyUserIntent`, `TriggerWordPending`, `UnclaimedIntent`, `TrueCondition`,
//! `FalseCondition`, `TimeInState` / `TimeActive` (`min_s`), `TimerElapsed` (`timer`,
//! `min_s`), `Compound` with exactly one of `and` / `or` (arrays) / `not` (object),
//! `{"customCondition": name}` (the state machine's timer conditions), or a type registered
//! with [`Registry::register_condition`]. `debugLabel` is allowed everywhere.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::build_context::BuildCx;
use super::core::{Behavior, View};
use super::ids::{BehaviorId, BehaviorName};
use super::jsonc::strip_comments;
use super::problem::{LoadError, Problem, ProblemKind};
use super::registry::Registry;
use super::tree::{find_cycle_in, Spec, Tree, TreeBuilder, TreeError};
use crate::intent::IntentUnion;

/// One JSON text and the name used in problems (usually its file name).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The name.
    pub file: &'a str,
    /// The text.
    pub text: &'a str,
}

impl<'a> Source<'a> {
    /// A source.
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Self { file, text }
    }
}

/// Loader options.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Load a class or condition type the registry lacks as an opaque stand-in (raw
    /// params kept, never activates / never true) instead of reporting it, so a foreign
    /// tree can be loaded and inspected before every class is ported. Delegates of an
    /// opaque behavior are taken from the usual keys (`behaviors`, `delegateID`,
    /// `behavior`, `states[].behavior`, `behaviors[].behavior`) when they name behaviors.
    pub opaque_unknown: bool,
}

const COMMON: &[&str] = &[
    "behaviorID",
    "behaviorClass",
    "behaviorName",
    "debugLabel",
    "wantsToBeActivatedCondition",
    "wantsToCancelSelfCondition",
    "respondToUserIntents",
    "resetTimers",
    "anonymousBehaviors",
];

const ORIGINAL_METADATA: &[&str] = &[
    "alwaysStreamline",
    "behaviorModifiers",
    "showActiveIntentFeedback",
    "autoShutOffIntentFeedback",
    "emotionEventOnActivated",
    "postBehaviorSuggestion",
    "associatedActiveFeature",
    "behaviorStatToIncrement",
    "tracksToLockWhileActivated",
    "alterStreamAfterWakeword",
    "pushTriggerWordResponse",
];

struct Instance<'v> {
    file: usize,
    path: String,
    name: String,
    obj: &'v Map<String, Value>,
    anonymous: HashMap<String, BehaviorId>,
}

/// Loads and validates a whole tree from `sources`, with `base` as its root. Either every
/// check passes or every problem is returned.
pub fn load_tree<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    sources: &[Source<'_>],
    base: &str,
    options: &LoadOptions,
) -> Result<Tree<U, E>, LoadError> {
    let mut problems = Vec::new();
    let mut values = Vec::with_capacity(sources.len());
    for s in sources {
        match serde_json::from_str::<Value>(&strip_comments(s.text)) {
            Ok(v) => values.push(Some(v)),
            Err(e) => {
                problems.push(Problem {
                    file: s.file.to_owned(),
                    path: "$".into(),
                    kind: ProblemKind::Syntax {
                        reason: e.to_string(),
                    },
                });
                values.push(None);
            }
        }
    }
    // Phase 1: every instance gets its ID.
    let mut instances: Vec<Instance<'_>> = Vec::new();
    let mut ids: HashMap<String, BehaviorId> = HashMap::new();
    let mut first_def: HashMap<String, String> = HashMap::new();
    for (fi, v) in values.iter().enumerate() {
        let Some(v) = v else { continue };
        let file = sources[fi].file;
        match v {
            Value::Object(o) => collect(
                o,
                fi,
                file,
                "$".into(),
                None,
                &mut instances,
                &mut ids,
                &mut first_def,
                &mut problems,
            ),
            Value::Array(a) => {
                for (k, item) in a.iter().enumerate() {
                    match item {
                        Value::Object(o) => collect(
                            o,
                            fi,
                            file,
                            format!("$[{k}]"),
                            None,
                            &mut instances,
                            &mut ids,
                            &mut first_def,
                            &mut problems,
                        ),
                        _ => problems.push(Problem {
                            file: file.into(),
                            path: format!("$[{k}]"),
                            kind: ProblemKind::NotAnInstance,
                        }),
                    }
                }
            }
            _ => problems.push(Problem {
                file: file.into(),
                path: "$".into(),
                kind: ProblemKind::NotAnInstance,
            }),
        }
    }
    // Phase 2: build each instance.
    let mut builder = TreeBuilder::<U, E>::new();
    let mut edges: Vec<Vec<usize>> = Vec::with_capacity(instances.len());
    for inst in &instances {
        let file = sources[inst.file].file;
        let (spec, behavior, delegates) =
            build_instance(registry, file, inst, &ids, options, &mut problems);
        edges.push(delegates.iter().map(|d| d.index()).collect());
        if let (Some(spec), Some(b)) = (spec, behavior) {
            if problems.is_empty() {
                if let Err(e) = builder.add_boxed(&inst.name, spec, b) {
                    problems.push(Problem {
                        file: file.into(),
                        path: inst.path.clone(),
                        kind: ProblemKind::BadParams {
                            reason: e.to_string(),
                        },
                    });
                }
            }
        }
    }
    if let Some(cycle) = find_cycle_in(instances.len(), |i| edges[i].clone()) {
        let at = &instances[cycle[0]];
        problems.push(Problem {
            file: sources[at.file].file.into(),
            path: at.path.clone(),
            kind: ProblemKind::Cycle {
                cycle: cycle.iter().map(|i| instances[*i].name.clone()).collect(),
            },
        });
    }
    if !ids.contains_key(base) {
        problems.push(Problem {
            file: sources.first().map_or("", |s| s.file).into(),
            path: "$".into(),
            kind: ProblemKind::UnknownBase { name: base.into() },
        });
    }
    if !problems.is_empty() {
        return Err(LoadError { problems });
    }
    builder.build(base).map_err(|e| LoadError {
        problems: vec![Problem {
            file: String::new(),
            path: "$".into(),
            kind: match e {
                TreeError::UnknownBase(name) => ProblemKind::UnknownBase { name },
                other => ProblemKind::BadParams {
                    reason: other.to_string(),
                },
            },
        }],
    })
}

#[allow(clippy::too_many_arguments)]
fn collect<'v>(
    o: &'v Map<String, Value>,
    fi: usize,
    file: &str,
    path: String,
    parent: Option<(usize, &str)>,
    instances: &mut Vec<Instance<'v>>,
    ids: &mut HashMap<String, BehaviorId>,
    first_def: &mut HashMap<String, String>,
    problems: &mut Vec<Problem>,
) {
    let mut problem = |path: &str, kind| {
        problems.push(Problem {
            file: file.into(),
            path: path.into(),
            kind,
        })
    };
    let (key, name) = match parent {
        None => ("behaviorID", o.get("behaviorID")),
        Some(_) => ("behaviorName", o.get("behaviorName")),
    };
    let name = match name {
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            problem(
                &format!("{path}.{key}"),
                ProblemKind::WrongType {
                    key: key.into(),
                    expected: "a string",
                },
            );
            return;
        }
        None => {
            problem(&path, ProblemKind::MissingKey { key: key.into() });
            return;
        }
    };
    if parent.is_none() && o.contains_key("behaviorName") {
        problem(
            &format!("{path}.behaviorName"),
            ProblemKind::UnknownKey {
                key: "behaviorName".into(),
            },
        );
    }
    if let Err(e) = BehaviorName::new(&name) {
        problem(
            &format!("{path}.{key}"),
            ProblemKind::BadId {
                id: name.clone(),
                reason: e.to_string(),
            },
        );
        return;
    }
    let full = match parent {
        None => name.clone(),
        Some((_, p)) => format!("{p}@{name}"),
    };
    let here = format!("{file}: {path}");
    if let Some(first) = first_def.get(&full) {
        problem(
            &path,
            ProblemKind::DuplicateId {
                id: full.clone(),
                first: first.clone(),
            },
        );
        return;
    }
    first_def.insert(full.clone(), here);
    let id = BehaviorId::from_index(instances.len());
    ids.insert(full.clone(), id);
    if let Some((pi, _)) = parent {
        instances[pi].anonymous.insert(name.clone(), id);
    }
    let me = instances.len();
    instances.push(Instance {
        file: fi,
        path: path.clone(),
        name: full.clone(),
        obj: o,
        anonymous: HashMap::new(),
    });
    match o.get("anonymousBehaviors") {
        None => {}
        Some(Value::Array(a)) => {
            for (k, item) in a.iter().enumerate() {
                let p = format!("{path}.anonymousBehaviors[{k}]");
                match item {
                    Value::Object(ao) => collect(
                        ao,
                        fi,
                        file,
                        p,
                        Some((me, &full)),
                        instances,
                        ids,
                        first_def,
                        problems,
                    ),
                    _ => problems.push(Problem {
                        file: file.into(),
                        path: p,
                        kind: ProblemKind::NotAnInstance,
                    }),
                }
            }
        }
        Some(_) => problems.push(Problem {
            file: file.into(),
            path: format!("{path}.anonymousBehaviors"),
            kind: ProblemKind::WrongType {
                key: "anonymousBehaviors".into(),
                expected: "an array",
            },
        }),
    }
}

type Built<U, E> = (
    Option<Spec<U, E>>,
    Option<Box<dyn Behavior<U, E>>>,
    Vec<BehaviorId>,
);

fn build_instance<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    file: &str,
    inst: &Instance<'_>,
    ids: &HashMap<String, BehaviorId>,
    options: &LoadOptions,
    problems: &mut Vec<Problem>,
) -> Built<U, E> {
    let o = inst.obj;
    let path = &inst.path;
    let class = match o.get("behaviorClass") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => {
            problems.push(Problem {
                file: file.into(),
                path: format!("{path}.behaviorClass"),
                kind: ProblemKind::WrongType {
                    key: "behaviorClass".into(),
                    expected: "a string",
                },
            });
            return (None, None, Vec::new());
        }
        None => {
            problems.push(Problem {
                file: file.into(),
                path: path.clone(),
                kind: ProblemKind::MissingKey {
                    key: "behaviorClass".into(),
                },
            });
            return (None, None, Vec::new());
        }
    };
    let mut params = Map::new();
    let mut metadata = Map::new();
    for (k, v) in o {
        if ORIGINAL_METADATA.contains(&k.as_str()) {
            metadata.insert(k.clone(), v.clone());
        } else if !COMMON.contains(&k.as_str()) {
            params.insert(k.clone(), v.clone());
        }
    }
    let factory = registry.classes.get(class);
    let opaque = factory.is_none();
    if opaque && !options.opaque_unknown {
        problems.push(Problem {
            file: file.into(),
            path: format!("{path}.behaviorClass"),
            kind: ProblemKind::UnknownClass {
                class: class.into(),
            },
        });
    }
    let mut cx = BuildCx {
        conditions: &registry.conditions,
        predicates: &registry.predicates,
        file,
        path: path.clone(),
        name: &inst.name,
        class,
        params,
        ids,
        anonymous: &inst.anonymous,
        custom: Vec::new(),
        opaque_unknown: options.opaque_unknown,
        problems,
        delegates: Vec::new(),
    };
    let behavior: Option<Box<dyn Behavior<U, E>>> = match factory {
        Some(f) => {
            let before = cx.problems.len();
            let b = f(&mut cx);
            if b.is_none() && cx.problems.len() == before {
                cx.problem(
                    "",
                    ProblemKind::BadParams {
                        reason: format!("class `{class}` rejected its parameters"),
                    },
                );
            }
            b
        }
        None if options.opaque_unknown => {
            opaque_delegates(&mut cx);
            Some(Box::new(Opaque {
                delegates: cx.delegates.clone(),
            }))
        }
        None => None,
    };
    let mut spec = Spec::new(class);
    spec.opaque = opaque;
    if let Some(l) = o.get("debugLabel") {
        match l.as_str() {
            Some(s) => spec.label = Some(s.to_owned()),
            None => cx.problem(
                "debugLabel",
                ProblemKind::WrongType {
                    key: "debugLabel".into(),
                    expected: "a string",
                },
            ),
        }
    }
    if let Some(v) = o.get("respondToUserIntents") {
        if let Some(m) = cx.matchers(v, "respondToUserIntents") {
            spec.respond = m;
        }
    }
    if let Some(v) = o.get("wantsToBeActivatedCondition") {
        spec.wants = cx.condition(v, "wantsToBeActivatedCondition");
    }
    if let Some(v) = o.get("wantsToCancelSelfCondition") {
        spec.cancel_when = cx.condition(v, "wantsToCancelSelfCondition");
    }
    if let Some(v) = o.get("resetTimers") {
        match v.as_array().and_then(|a| {
            a.iter()
                .map(|t| t.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        }) {
            Some(t) => spec.reset_timers = t,
            None => cx.problem(
                "resetTimers",
                ProblemKind::WrongType {
                    key: "resetTimers".into(),
                    expected: "an array of strings",
                },
            ),
        }
    }
    if opaque {
        let mut raw = cx.params.clone();
        raw.extend(metadata);
        spec.raw = Some(Value::Object(raw));
    } else if !metadata.is_empty() {
        spec.raw = Some(Value::Object(metadata));
    }
    let delegates = cx.delegates.clone();
    (Some(spec), behavior, delegates)
}

/// Delegates of an opaque stand-in, from the keys the original's classes use.
fn opaque_delegates<U: IntentUnion, E: 'static>(cx: &mut BuildCx<'_, U, E>) {
    let mut names: Vec<(String, String)> = Vec::new();
    let p = cx.params.clone();
    for key in ["delegateID", "behavior"] {
        if let Some(Value::String(s)) = p.get(key) {
            names.push((s.clone(), key.into()));
        }
    }
    for key in ["behaviors", "states"] {
        if let Some(Value::Array(a)) = p.get(key) {
            for (k, item) in a.iter().enumerate() {
                match item {
                    Value::String(s) => names.push((s.clone(), format!("{key}[{k}]"))),
                    Value::Object(o) => {
                        if let Some(Value::String(s)) = o.get("behavior") {
                            names.push((s.clone(), format!("{key}[{k}].behavior")));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    for (n, key) in names {
        cx.delegate(&n, &key);
    }
}

/// The stand-in for a class the registry lacks.
struct Opaque {
    delegates: Vec<BehaviorId>,
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Opaque {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        false
    }
}
