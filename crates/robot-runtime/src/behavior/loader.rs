//! The JSON loader: behavior instances in the original engine's format (spec §1, §6), JSON
//! with `//` and `/* */` comments, validated whole. Every problem of every instance is
//! reported, each with its file, line, column and JSON path; a tree that loads cannot fail
//! these checks later.
//!
//! An instance is one object (one per file in the original; a file may also hold an array
//! of them). Its common keys are the original's 18 base keys plus `behaviorName` and
//! `debugLabel` on anonymous instances:
//!
//! | Key | What the loader does |
//! |---|---|
//! | `behaviorID` | the ID (a [`BehaviorName`](super::ids::BehaviorName)); unique; a warning when a file holding one instance is not named after it (the original's dev check) |
//! | `behaviorClass` | a registered class; a class the registry marks as a stand-in ([`ClassInfo::stand_in`](super::ClassInfo)) loads only with [`LoadOptions::stand_ins`] (else an error); any other name is an error (the original's release build silently used its first class) |
//! | `wantsToBeActivatedCondition`, `wantsToCancelSelfCondition` | one condition each |
//! | `respondToUserIntents` | matcher list: `{"type": tag}`, `{"type": tag, ...all fields}`, `{"type": tag, "_lambda": name}` |
//! | `showActiveIntentFeedback`, `autoShutOffIntentFeedback`, `alwaysStreamline` | booleans (accepted) |
//! | `emotionEventOnActivated` | a name, fired on activation ([`World::emotion_event`](super::World::emotion_event)) |
//! | `resetTimers` | names of the registry's behavior timers ([`Vocabulary::Timers`]), reset on activation ([`World::reset_timer`](super::World::reset_timer)) |
//! | `anonymousBehaviors` | inline instances with `behaviorName`, named `Owner@name`; found by their owner before global IDs |
//! | `postBehaviorSuggestion` | a name of the registry's suggestions ([`Vocabulary::Suggestions`]), offered at every deactivation ([`World::offer_suggestion`](super::World::offer_suggestion)) |
//! | `associatedActiveFeature` | the active feature ([`Runner::active_feature`](super::runner::Runner::active_feature)); checked against the registry's names ([`Vocabulary::ActiveFeatures`]) |
//! | `tracksToLockWhileActivated` | checked against the registry's names ([`Vocabulary::AnimTracks`]); locked from activation to deactivation through the runner's [`TrackLocks`](super::TrackLocks) (see [`crate::arbiter`], "Tracks") |
//! | `behaviorStatToIncrement`, `alterStreamAfterWakeword`, `pushTriggerWordResponse` | checked against the registry's vocabularies ([`Vocabulary::Stats`], [`Vocabulary::StreamEffects`]), accepted |
//! | `behaviorModifiers` | the activation gates (see [`OperationModifiers`](super::core::OperationModifiers)); `behaviorAlwaysDelegates` is refused, as the original refused it |
//!
//! A vocabulary the registry does not have (see [`Vocabulary`]): a key only checked against
//! it accepts any name; `resetTimers` and `postBehaviorSuggestion`, which the world acts on,
//! are errors (this robot's world has no timers or suggestions to act on).
//!
//! Every other top-level key must be read by the class: a key nobody reads is an error in
//! [`KeyCheck::Strict`] mode and a warning in [`KeyCheck::Lenient`] mode (the original's
//! release build never checked). Keys inside nested objects (conditions, states,
//! `behaviors[]` entries) are never errors: the original never checked them; the ones
//! nobody reads are warnings. A stand-in's class keys are kept as they are (its reference
//! keys are resolved; the others are not known to this runtime).
//!
//! Behavior references: every class-specific key that names behaviors (spec §6) is resolved
//! by its class's rule (own anonymous behaviors first, or global IDs only), by the class
//! itself, a stand-in through the reference keys its registration gives
//! ([`ClassInfo::reference_keys`](super::ClassInfo), [`BuildCx::resolve_reference_keys`]);
//! a name that resolves nothing, a global-only key naming an anonymous behavior, and a
//! behavior of the wrong class are errors. IDs a class's code names
//! ([`ClassInfo::hard_coded_ids`](super::ClassInfo)) must exist. Delegation cycles are
//! errors.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::build_context::{BuildCx, Instances, ReferenceCount};
use super::condition::parse::{ConditionParser, OpaqueValues};
use super::condition::{Condition, Kind};
use super::core::{Behavior, CubeRequirement};
use super::ids::{BehaviorId, BehaviorName};
use super::json_keys::{unknown_name, KeyReader};
use super::jsonc::{strip_comments, Locator};
use super::problem::{LoadError, Problem, ProblemKind, ProblemSink, Severity};
use super::references::Role;
use super::registry::Registry;
use super::tree::{find_cycle_in, ModifierOverrides, Spec, Tree, TreeBuilder, TreeError};
use super::vocabulary::Vocabulary;
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

/// What to do with top-level keys nobody reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyCheck {
    /// An error (the default; the original's dev build).
    #[default]
    Strict,
    /// A warning (the original's release build only logged).
    Lenient,
}

/// Loader options.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Unread top-level keys: errors or warnings.
    pub keys: KeyCheck,
    /// Load the classes the registry marks as stand-ins, the condition types it knows
    /// without running them and unknown custom conditions, the conditions with these fixed
    /// values (None: they are errors).
    pub stand_ins: Option<OpaqueValues>,
}

impl LoadOptions {
    /// Strict keys, stand-ins on (conditions not run natively are false): what a tree
    /// written for another engine, of which the registry knows only some classes, needs.
    pub fn with_stand_ins() -> Self {
        Self {
            keys: KeyCheck::Strict,
            stand_ins: Some(OpaqueValues::default()),
        }
    }
}

/// How many instances of one class, and whether it runs natively.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCount {
    /// Built in (else a stand-in or unknown).
    pub native: bool,
    /// Instances.
    pub count: u32,
}

/// What a load found (see [`check_tree`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Sources read.
    pub files: usize,
    /// Instances (anonymous ones included).
    pub behaviors: usize,
    /// Anonymous instances.
    pub anonymous: usize,
    /// Per class name.
    pub classes: BTreeMap<String, ClassCount>,
    /// Per condition type (custom conditions by name), every node counted.
    pub conditions: BTreeMap<String, ClassCount>,
    /// Behavior names looked up, and resolved.
    pub references: ReferenceCount,
    /// Every problem, errors and warnings, in source order.
    pub problems: Vec<Problem>,
}

impl LoadReport {
    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_error())
    }
    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| p.severity == super::problem::Severity::Warning)
    }
    /// The notes for information ([`Severity::Info`](super::Severity::Info)).
    pub fn infos(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_info())
    }
}

/// A loaded tree and what the load found (its warnings).
pub struct Loaded<U: IntentUnion, E: 'static> {
    /// The tree.
    pub tree: Tree<U, E>,
    /// The report.
    pub report: LoadReport,
}

/// Loads and validates a whole tree from `sources`, with `base` as its root. Either every
/// check passes or every problem (errors and warnings) is returned.
pub fn load_tree<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    sources: &[Source<'_>],
    base: &str,
    options: &LoadOptions,
) -> Result<Tree<U, E>, LoadError> {
    load(registry, sources, base, options).map(|l| l.tree)
}

/// Like [`load_tree`], also returning the [`LoadReport`] (warnings included).
pub fn load<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    sources: &[Source<'_>],
    base: &str,
    options: &LoadOptions,
) -> Result<Loaded<U, E>, LoadError> {
    let (report, builder) = run(registry, sources, Some(base), options);
    match builder {
        Some(b) => match b.build(base) {
            Ok(tree) => Ok(Loaded { tree, report }),
            Err(e) => {
                let mut problems = report.problems;
                problems.push(Problem::error(
                    sources.first().map_or("", |s| s.file),
                    "$",
                    match e {
                        TreeError::UnknownBase(name) => ProblemKind::UnknownBase { name },
                        other => ProblemKind::BadParams {
                            reason: other.to_string(),
                        },
                    },
                ));
                Err(LoadError { problems })
            }
        },
        None => Err(LoadError {
            problems: report.problems,
        }),
    }
}

/// Validates every instance of `sources` (no base behavior needed) and reports what it
/// found: files, behaviors, classes native or stand-in, conditions native or opaque,
/// references resolved, every problem.
pub fn check_tree<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    sources: &[Source<'_>],
    options: &LoadOptions,
) -> LoadReport {
    run(registry, sources, None, options).0
}

/// The keys of the base class every instance may have (spec §1).
const BASE_KEYS: &[&str] = &[
    "behaviorID",
    "behaviorClass",
    "wantsToBeActivatedCondition",
    "wantsToCancelSelfCondition",
    "respondToUserIntents",
    "showActiveIntentFeedback",
    "autoShutOffIntentFeedback",
    "emotionEventOnActivated",
    "resetTimers",
    "anonymousBehaviors",
    "postBehaviorSuggestion",
    "associatedActiveFeature",
    "behaviorStatToIncrement",
    "tracksToLockWhileActivated",
    "alterStreamAfterWakeword",
    "pushTriggerWordResponse",
    "alwaysStreamline",
    "behaviorModifiers",
];

struct Instance<'v> {
    file: usize,
    path: String,
    name: String,
    obj: &'v Map<String, Value>,
    anonymous: HashMap<String, BehaviorId>,
    is_anonymous: bool,
}

fn run<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    sources: &[Source<'_>],
    base: Option<&str>,
    options: &LoadOptions,
) -> (LoadReport, Option<TreeBuilder<U, E>>) {
    let mut problems: Vec<Problem> = Vec::new();
    let mut report = LoadReport {
        files: sources.len(),
        ..LoadReport::default()
    };
    let mut values = Vec::with_capacity(sources.len());
    for s in sources {
        match serde_json::from_str::<Value>(&strip_comments(s.text)) {
            Ok(v) => values.push(Some(v)),
            Err(e) => {
                let mut p = Problem::error(
                    s.file,
                    "$",
                    ProblemKind::Syntax {
                        reason: e.to_string(),
                    },
                );
                p.line = Some((e.line() as u32, e.column() as u32));
                problems.push(p);
                values.push(None);
            }
        }
    }
    // Phase 1: every instance gets its ID.
    let mut instances: Vec<Instance<'_>> = Vec::new();
    let mut ids: HashMap<String, BehaviorId> = HashMap::new();
    let mut globals: HashMap<String, BehaviorId> = HashMap::new();
    let mut first_def: HashMap<String, String> = HashMap::new();
    for (fi, v) in values.iter().enumerate() {
        let Some(v) = v else { continue };
        let file = sources[fi].file;
        let mut sink = ProblemSink {
            file,
            problems: &mut problems,
        };
        let mut c = Collector {
            fi,
            instances: &mut instances,
            ids: &mut ids,
            globals: &mut globals,
            first_def: &mut first_def,
        };
        match v {
            Value::Object(o) => {
                c.collect(o, "$".into(), None, &mut sink);
                stem_check(file, o, &mut sink);
            }
            Value::Array(a) => {
                for (k, item) in a.iter().enumerate() {
                    match item {
                        Value::Object(o) => c.collect(o, format!("$[{k}]"), None, &mut sink),
                        _ => sink.push(format!("$[{k}]"), ProblemKind::NotAnInstance),
                    }
                }
            }
            _ => sink.push("$", ProblemKind::NotAnInstance),
        }
    }
    report.behaviors = instances.len();
    report.anonymous = instances.iter().filter(|i| i.is_anonymous).count();
    let classes: Vec<&str> = instances
        .iter()
        .map(|i| {
            i.obj
                .get("behaviorClass")
                .and_then(Value::as_str)
                .unwrap_or("")
        })
        .collect();
    // Phase 2: build each instance.
    let vocabs = Vocabs::of(registry);
    let mut builder = TreeBuilder::<U, E>::new();
    builder.set_world(registry.new_world());
    let mut edges: Vec<Vec<usize>> = Vec::with_capacity(instances.len());
    let mut ok = true;
    for inst in &instances {
        let file = sources[inst.file].file;
        let errors_before = problems.len();
        let built = build_instance(
            registry,
            &vocabs,
            file,
            inst,
            Instances {
                ids: &globals,
                classes: &classes,
            },
            options,
            &mut problems,
            &mut report,
        );
        let failed = problems[errors_before..].iter().any(Problem::is_error);
        match built {
            Some((spec, behavior, delegates)) => {
                edges.push(delegates.iter().map(|d| d.index()).collect());
                if ok && !failed {
                    if let Err(e) = builder.add_boxed(&inst.name, spec, behavior) {
                        problems.push(Problem::error(
                            file,
                            inst.path.clone(),
                            ProblemKind::BadParams {
                                reason: e.to_string(),
                            },
                        ));
                    }
                }
            }
            None => edges.push(Vec::new()),
        }
        ok &= !failed && built_ok(&problems, errors_before);
    }
    if let Some(cycle) = find_cycle_in(instances.len(), |i| edges[i].clone()) {
        let at = &instances[cycle[0]];
        problems.push(Problem::error(
            sources[at.file].file,
            at.path.clone(),
            ProblemKind::Cycle {
                cycle: cycle.iter().map(|i| instances[*i].name.clone()).collect(),
            },
        ));
    }
    if let Some(base) = base {
        if !globals.contains_key(base) {
            problems.push(Problem::error(
                sources.first().map_or("", |s| s.file),
                "$",
                ProblemKind::UnknownBase { name: base.into() },
            ));
        }
    }
    // Lines and columns, from each problem's path in its file: one locator per file, made
    // when the first of its problems needs it (each answer then costs no rescan).
    let mut locators: HashMap<&str, Locator<'_>> = HashMap::new();
    let texts: HashMap<&str, &str> = sources.iter().map(|s| (s.file, s.text)).collect();
    for p in &mut problems {
        if p.line.is_none() {
            if let Some((file, t)) = texts.get_key_value(p.file.as_str()) {
                let locator = locators.entry(file).or_insert_with(|| Locator::new(t));
                p.line = locator.locate(&p.path);
            }
        }
    }
    // Source order: by file, then position.
    let order: HashMap<&str, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (s.file, i))
        .collect();
    problems.sort_by_key(|p| {
        (
            order.get(p.file.as_str()).copied().unwrap_or(usize::MAX),
            p.line,
        )
    });
    let failed = problems.iter().any(Problem::is_error);
    report.problems = problems;
    (report, (!failed).then_some(builder))
}

fn built_ok(problems: &[Problem], before: usize) -> bool {
    !problems[before..].iter().any(Problem::is_error)
}

/// A file holding one instance is named after it (the original's dev check): a warning.
fn stem_check(file: &str, o: &Map<String, Value>, sink: &mut ProblemSink<'_>) {
    let Some(id) = o.get("behaviorID").and_then(Value::as_str) else {
        return;
    };
    let stem = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if !stem.is_empty() && stem != id.to_lowercase() {
        sink.push_as(
            Severity::Warning,
            "$.behaviorID",
            ProblemKind::BadValue {
                key: "behaviorID".into(),
                reason: format!(
                    "the file of `{id}` should be named `{}.json` (the original's rule)",
                    id.to_lowercase()
                ),
            },
        );
    }
}

struct Collector<'v, 'c> {
    fi: usize,
    instances: &'c mut Vec<Instance<'v>>,
    /// Every instance (anonymous ones as `Owner@name`).
    ids: &'c mut HashMap<String, BehaviorId>,
    /// Global behavior IDs only (the original's `BehaviorID` namespace).
    globals: &'c mut HashMap<String, BehaviorId>,
    first_def: &'c mut HashMap<String, String>,
}

impl<'v> Collector<'v, '_> {
    /// Records the instance `o` at `path` (and its anonymous behaviors); `parent`: the
    /// owner's index and name for an anonymous one.
    fn collect(
        &mut self,
        o: &'v Map<String, Value>,
        path: String,
        parent: Option<(usize, &str, &str)>,
        sink: &mut ProblemSink<'_>,
    ) {
        let name = match parent {
            None => match o.get("behaviorID") {
                Some(Value::String(s)) => s.clone(),
                Some(_) => {
                    sink.push(
                        format!("{path}.behaviorID"),
                        ProblemKind::WrongType {
                            key: "behaviorID".into(),
                            expected: "a string",
                        },
                    );
                    return;
                }
                None => {
                    sink.push(
                        path,
                        ProblemKind::MissingKey {
                            key: "behaviorID".into(),
                        },
                    );
                    return;
                }
            },
            Some((_, owner, _)) => {
                if o.contains_key("behaviorID") {
                    sink.push(
                        format!("{path}.behaviorID"),
                        ProblemKind::Refused {
                            key: "behaviorID".into(),
                            reason: "an anonymous behavior is named by `behaviorName`".into(),
                        },
                    );
                }
                match o.get("behaviorName") {
                    Some(Value::String(s)) => format!("{owner}@{s}"),
                    Some(_) => {
                        sink.push(
                            format!("{path}.behaviorName"),
                            ProblemKind::WrongType {
                                key: "behaviorName".into(),
                                expected: "a string",
                            },
                        );
                        return;
                    }
                    None => {
                        sink.push(
                            path,
                            ProblemKind::MissingKey {
                                key: "behaviorName".into(),
                            },
                        );
                        return;
                    }
                }
            }
        };
        if let Err(e) = BehaviorName::new(&name) {
            let key = if parent.is_some() {
                "behaviorName"
            } else {
                "behaviorID"
            };
            sink.push(
                format!("{path}.{key}"),
                ProblemKind::BadId {
                    id: name,
                    reason: e.to_string(),
                },
            );
            return;
        }
        let here = format!("{}: {path}", sink.file);
        if let Some(first) = self.first_def.get(&name) {
            sink.push(
                path,
                ProblemKind::DuplicateId {
                    id: name,
                    first: first.clone(),
                },
            );
            return;
        }
        let id = BehaviorId::from_index(self.instances.len());
        self.first_def.insert(name.clone(), here);
        self.ids.insert(name.clone(), id);
        if parent.is_none() {
            self.globals.insert(name.clone(), id);
        }
        let index = self.instances.len();
        self.instances.push(Instance {
            file: self.fi,
            path: path.clone(),
            name: name.clone(),
            obj: o,
            anonymous: HashMap::new(),
            is_anonymous: parent.is_some(),
        });
        if let Some((owner, _, short)) = parent {
            self.instances[owner].anonymous.insert(short.to_owned(), id);
        }
        match o.get("anonymousBehaviors") {
            None => {}
            Some(Value::Array(a)) => {
                for (k, item) in a.iter().enumerate() {
                    let p = format!("{path}.anonymousBehaviors[{k}]");
                    let Value::Object(ao) = item else {
                        sink.push(p, ProblemKind::NotAnInstance);
                        continue;
                    };
                    let Some(short) = ao.get("behaviorName").and_then(Value::as_str) else {
                        self.collect(ao, p, Some((index, &name, "")), sink);
                        continue;
                    };
                    if self.instances[index].anonymous.contains_key(short) {
                        sink.push(
                            format!("{p}.behaviorName"),
                            ProblemKind::DuplicateId {
                                id: short.to_owned(),
                                first: format!("{}: {path}.anonymousBehaviors", sink.file),
                            },
                        );
                        continue;
                    }
                    if self.globals.contains_key(short) {
                        sink.push_as(
                            Severity::Warning,
                            format!("{p}.behaviorName"),
                            ProblemKind::BadValue {
                                key: "behaviorName".into(),
                                reason: format!("`{short}` is also a behavior ID; the anonymous one hides it from its owner"),
                            },
                        );
                    }
                    self.collect(ao, p, Some((index, &name, short)), sink);
                }
            }
            Some(_) => sink.push(
                format!("{path}.anonymousBehaviors"),
                ProblemKind::WrongType {
                    key: "anonymousBehaviors".into(),
                    expected: "an array",
                },
            ),
        }
    }
}

type Built<U, E> = (Spec<U, E>, Box<dyn Behavior<U, E>>, Vec<BehaviorId>);

/// The registry's vocabularies as name lists, made once per load.
struct Vocabs<'r>([Option<Vec<&'r str>>; Vocabulary::ALL.len()]);

impl<'r> Vocabs<'r> {
    fn of<U: IntentUnion, E: 'static>(registry: &'r Registry<U, E>) -> Self {
        Self(Vocabulary::ALL.map(|v| {
            registry
                .vocabulary(v)
                .map(|names| names.iter().map(String::as_str).collect())
        }))
    }
    fn get(&self, v: Vocabulary) -> Option<&[&'r str]> {
        self.0[v as usize].as_deref()
    }
}

/// The world has nothing `key` could act on: no vocabulary `v` is registered.
fn no_vocabulary(keys: &KeyReader<'_>, sink: &mut ProblemSink<'_>, key: &str, v: Vocabulary) {
    keys.bad(
        sink,
        key,
        format!(
            "this robot has no {} (the registry has no vocabulary of them)",
            v.label()
        ),
    );
}

/// An optional string of `v` at `key`: its index; any string without the vocabulary
/// (index 0, unused).
fn one_of_vocabulary(
    keys: &mut KeyReader<'_>,
    sink: &mut ProblemSink<'_>,
    key: &str,
    names: Option<&[&str]>,
) -> Option<usize> {
    match names {
        Some(names) => keys.one_of(sink, key, names),
        None => keys.str(sink, key).map(|_| 0),
    }
}

/// Builds one instance: its base keys, its class (or stand-in), its references.
#[allow(clippy::too_many_arguments)]
fn build_instance<U: IntentUnion, E: 'static>(
    registry: &Registry<U, E>,
    vocabs: &Vocabs<'_>,
    file: &str,
    inst: &Instance<'_>,
    instances: Instances<'_>,
    options: &LoadOptions,
    problems: &mut Vec<Problem>,
    report: &mut LoadReport,
) -> Option<Built<U, E>> {
    let o = inst.obj;
    let mut keys = KeyReader::new(o, inst.path.clone());
    let mut sink = ProblemSink {
        file,
        problems: &mut *problems,
    };
    keys.accept("behaviorID");
    keys.accept("behaviorName");
    keys.accept("anonymousBehaviors");
    let class = keys.req_str(&mut sink, "behaviorClass")?;
    let entry = registry.classes.get(class);
    let info = entry.and_then(|e| e.info.as_ref());
    let stand_in = info.is_some_and(|i| i.stand_in);
    let count = report.classes.entry(class.to_owned()).or_default();
    count.native = entry.is_some() && !stand_in;
    count.count += 1;
    let Some(entry) = entry else {
        sink.push(
            keys.at("behaviorClass"),
            ProblemKind::UnknownClass {
                class: class.to_owned(),
            },
        );
        return None;
    };
    if stand_in && options.stand_ins.is_none() {
        sink.push(
            keys.at("behaviorClass"),
            ProblemKind::NotNative {
                class: class.to_owned(),
            },
        );
        return None;
    }
    let opaque = options.stand_ins;
    // The base keys.
    let mut spec = Spec::new(class);
    spec.stand_in = stand_in;
    if inst.is_anonymous {
        spec.label = keys.str(&mut sink, "debugLabel").map(str::to_owned);
    }
    {
        let mut parser = ConditionParser::<U, E> {
            conditions: &registry.conditions,
            types: &registry.condition_types,
            predicates: &registry.predicates,
            vocabularies: &registry.vocabularies,
            custom: &[],
            opaque,
            sink: sink.reborrow(),
        };
        if let Some(v) = keys.get("wantsToBeActivatedCondition") {
            spec.wants = parser.condition(v, &keys.at("wantsToBeActivatedCondition"));
        }
        if let Some(v) = keys.get("wantsToCancelSelfCondition") {
            spec.cancel_when = parser.condition(v, &keys.at("wantsToCancelSelfCondition"));
        }
        if let Some(v) = keys.get("respondToUserIntents") {
            if let Some(m) = parser.matchers(v, &keys.at("respondToUserIntents")) {
                spec.respond = m;
            }
        }
    }
    keys.bool(&mut sink, "showActiveIntentFeedback", true);
    keys.bool(&mut sink, "autoShutOffIntentFeedback", false);
    keys.bool(&mut sink, "alwaysStreamline", false);
    spec.emotion_event = keys
        .str(&mut sink, "emotionEventOnActivated")
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    if let Some(list) = keys.strings(&mut sink, "resetTimers") {
        match vocabs.get(Vocabulary::Timers) {
            Some(timers) => {
                for (i, t) in list.iter().enumerate() {
                    match timers.iter().position(|n| n == t) {
                        Some(x) => spec.reset_timers.push(x),
                        None => keys.bad(
                            &mut sink,
                            &format!("resetTimers[{i}]"),
                            unknown_name(t, timers),
                        ),
                    }
                }
            }
            None if list.is_empty() => {}
            None => no_vocabulary(&keys, &mut sink, "resetTimers", Vocabulary::Timers),
        }
    }
    // A non-string suggestion or feature is ignored by the original: only strings are read.
    if keys
        .get("postBehaviorSuggestion")
        .is_some_and(Value::is_string)
    {
        match vocabs.get(Vocabulary::Suggestions) {
            Some(names) => {
                spec.post_suggestion = keys.one_of(&mut sink, "postBehaviorSuggestion", names)
            }
            None => no_vocabulary(
                &keys,
                &mut sink,
                "postBehaviorSuggestion",
                Vocabulary::Suggestions,
            ),
        }
    }
    if let Some(f) = keys.get("associatedActiveFeature").and_then(Value::as_str) {
        match vocabs.get(Vocabulary::ActiveFeatures) {
            Some(names) if !names.contains(&f) => {
                keys.bad(&mut sink, "associatedActiveFeature", unknown_name(f, names));
            }
            _ => {}
        }
        if f != "NoFeature" {
            spec.active_feature = Some(f.to_owned());
        }
    }
    if keys
        .get("behaviorStatToIncrement")
        .is_some_and(Value::is_string)
    {
        one_of_vocabulary(
            &mut keys,
            &mut sink,
            "behaviorStatToIncrement",
            vocabs.get(Vocabulary::Stats),
        );
    }
    if let Some(tracks) = keys.strings(&mut sink, "tracksToLockWhileActivated") {
        spec.tracks = tracks.iter().map(|t| (*t).to_owned()).collect();
        if let Some(names) = vocabs.get(Vocabulary::AnimTracks) {
            for (i, t) in tracks.iter().enumerate() {
                if !names.contains(t) {
                    keys.bad(
                        &mut sink,
                        &format!("tracksToLockWhileActivated[{i}]"),
                        unknown_name(t, names),
                    );
                }
            }
        }
    }
    let effects = vocabs.get(Vocabulary::StreamEffects);
    let alter = one_of_vocabulary(&mut keys, &mut sink, "alterStreamAfterWakeword", effects);
    if let Some(push) = keys.obj(&mut sink, "pushTriggerWordResponse") {
        let mut pk = KeyReader::new(push, keys.at("pushTriggerWordResponse"));
        pk.str(&mut sink, "postAudioEvent");
        pk.i64(&mut sink, "minStreamingDuration_ms");
        one_of_vocabulary(&mut pk, &mut sink, "streamAndLightEffect", effects);
        pk.str(&mut sink, "getInTrigger");
        pk.report_unread(&mut sink, Severity::Warning);
        if alter.is_some() {
            keys.bad(
                &mut sink,
                "pushTriggerWordResponse",
                "`pushTriggerWordResponse` and `alterStreamAfterWakeword` exclude each other",
            );
        }
    }
    if let Some(m) = keys.obj(&mut sink, "behaviorModifiers") {
        spec.modifiers = modifiers(m, &keys.at("behaviorModifiers"), &mut sink);
    }
    // The class.
    let errors_before = sink.problems.len();
    let mut cx = BuildCx {
        conditions: &registry.conditions,
        types: &registry.condition_types,
        predicates: &registry.predicates,
        vocabularies: &registry.vocabularies,
        opaque,
        file,
        name: &inst.name,
        class,
        info,
        activation_declared: spec.wants.is_some() || !spec.respond.is_empty(),
        raw: None,
        keys,
        instances,
        anonymous: &inst.anonymous,
        custom: Vec::new(),
        problems: &mut *problems,
        delegates: Vec::new(),
        references: ReferenceCount::default(),
    };
    let behavior: Option<Box<dyn Behavior<U, E>>> = (entry.factory)(&mut cx);
    if behavior.is_none() && !cx.problems[errors_before..].iter().any(Problem::is_error) {
        cx.problem(
            "",
            ProblemKind::BadParams {
                reason: format!("class `{class}` rejected its parameters"),
            },
        );
    }
    if let Some(raw) = cx.raw.take() {
        spec.raw = Some(Value::Object(raw));
    }
    // Behavior IDs the class's code names (a user class has other code: none).
    if let Some(info) = info {
        for id in info.hard_coded_ids {
            match cx.global_id(id) {
                Some(found) if info.hard_coded_role == Role::Delegate && stand_in => {
                    cx.declare_delegate(found)
                }
                Some(_) => {}
                None => cx.problem(
                    "behaviorClass",
                    ProblemKind::MissingHardCodedId {
                        id: (*id).to_owned(),
                        class: class.to_owned(),
                    },
                ),
            }
        }
    }
    let severity = match options.keys {
        KeyCheck::Strict => Severity::Error,
        KeyCheck::Lenient => Severity::Warning,
    };
    let unread: Vec<String> = cx.keys.unread().map(str::to_owned).collect();
    for k in unread {
        let kind = match k.as_str() {
            "debugLabel" => ProblemKind::Refused {
                key: k.clone(),
                reason: "allowed on anonymous behaviors only".into(),
            },
            _ if BASE_KEYS.contains(&k.as_str()) => continue,
            _ => ProblemKind::UnknownKey { key: k.clone() },
        };
        let path = cx.keys.at(&k);
        cx.sink().push_as(severity, path, kind);
    }
    report.references.checked += cx.references.checked;
    report.references.resolved += cx.references.resolved;
    let delegates = cx.delegates.clone();
    // Condition counts: the base conditions and the ones the class owns.
    if let Some(b) = &behavior {
        let mut owned = Vec::new();
        b.owned_conditions(&mut owned);
        let all = spec
            .wants
            .iter()
            .chain(spec.cancel_when.iter())
            .chain(owned.iter().map(|(_, c)| *c));
        for c in all {
            count_conditions(c, &mut report.conditions);
        }
    }
    Some((spec, behavior?, delegates))
}

fn count_conditions<U: IntentUnion, E: 'static>(
    c: &Condition<U, E>,
    out: &mut BTreeMap<String, ClassCount>,
) {
    c.visit(&mut |c| {
        let native = !matches!(c.kind(), Kind::Opaque { .. });
        let name = c.type_name().to_owned();
        let e = out.entry(name).or_default();
        e.native = native || e.native;
        e.count += 1;
    });
}

/// `behaviorModifiers` (spec §1).
fn modifiers(m: &Map<String, Value>, path: &str, sink: &mut ProblemSink<'_>) -> ModifierOverrides {
    let mut k = KeyReader::new(m, path);
    let b = |k: &mut KeyReader<'_>, sink: &mut ProblemSink<'_>, key: &str| {
        k.has(key).then(|| k.bool(sink, key, false))
    };
    let out = ModifierOverrides {
        when_carrying: b(&mut k, sink, "wantsToBeActivatedWhenCarryingObject"),
        when_off_treads: b(&mut k, sink, "wantsToBeActivatedWhenOffTreads"),
        when_on_charger: b(&mut k, sink, "wantsToBeActivatedWhenOnCharger"),
        connect_to_cube_in_background: b(&mut k, sink, "connectToCubeInBackground"),
        ensures_cube_connection_at_delegation: b(&mut k, sink, "ensuresCubeConnectionAtDelegation"),
        cube: k
            .one_of(sink, "cubeConnectionRequirements", &CubeRequirement::NAMES)
            .map(|i| CubeRequirement::ALL[i]),
    };
    if k.has("behaviorAlwaysDelegates") {
        k.accept("behaviorAlwaysDelegates");
        sink.push(
            k.at("behaviorAlwaysDelegates"),
            ProblemKind::Refused {
                key: "behaviorAlwaysDelegates".into(),
                reason:
                    "each class decides whether it always delegates (the original refused it too)"
                        .into(),
            },
        );
    }
    k.report_unread(sink, Severity::Error);
    out
}
