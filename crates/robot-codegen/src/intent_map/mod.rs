//! The intent-map compiler: `user_intent_map.json` (the original robot's file format) checked
//! against a compiled schema's user-intent union and turned into a static lookup table.
//!
//! ```text
//! user_intent_map.json ──json (spans)──▶ validate against ir::Schema ──▶ IntentMapModel ──▶ emit
//!                                         (union, payload fields,          (plain data,       (pub static
//!                                          FeatureType, ActiveFeature)      sorted tables)     StaticIntentMap)
//! ```
//!
//! The original robot read this file at start-up and checked most of it only in developer
//! builds (unknown keys, completeness) or not at all (substitution targets, numeric fields,
//! collisions), so a typo surfaced as a voice command that silently did nothing. Here every
//! problem is a [`Diagnostic`] pointing into the JSON (the file is added to the [`SourceDb`],
//! so it renders with the same snippets as schema errors), all problems of a run are
//! reported, and the robot gets a `'static` table with no parsing left to do.
//!
//! What is checked (each one an error unless noted):
//! - JSON syntax (strict, comments allowed, duplicate keys rejected) and the type of every
//!   value; unknown keys at the top level, in entries, in simple voice responses and in their
//!   `response` (the original's developer-build assert);
//! - `user_intent_map` present and non-empty; `unmatched_intent` present, a member of the union,
//!   and without data (its payload has no fields);
//! - every `user_intent` is a member of the union (with a "did you mean");
//! - a cloud intent appears once across `user_intent_map` and `simple_voice_responses`; an app
//!   intent appears once;
//! - every substitution target is a field of the member's payload structure; two sources are
//!   not renamed to the same target; a target is not another source of the same entry; a
//!   numerics name is the incoming (pre-substitution) name, listed once, and lands on an
//!   integer or float field; substitutions and numerics only where the entry has an intent of
//!   that side; a rename to itself is a warning;
//! - `feature_gate` names a member of the feature enum, when [`IntentMapOptions::feature_enum`]
//!   is set; the enum is looked up in every file of the build (the union's file need not
//!   include it), and when no file declares it the error points at the first `feature_gate`
//!   (else at the map) and names the files searched and the enums of a close name;
//! - simple voice responses: the union has `simple_voice_response`, `anim_group` is given,
//!   values fit the payload fields, `active_feature` names a member of its enum;
//! - optionally ([`IntentMapOptions::warn_unmapped`], a warning): the original's "every user
//!   intent found in clad must appear in json": every member the runtime's rule
//!   ([`robot_runtime::intent::members::must_appear_in_map`]: declared above
//!   `test_SEPARATOR`) demands and no entry names, except the unmatched intent and test-only
//!   members ([`robot_runtime::intent::members::is_test_only`]: `test_*`);
//!   `simple_voice_response` counts as named when the map has simple voice responses;
//!   `"is_test": true` turns it off.
//!
//! Sanitation steps are compiled as the original does (§1.3 of the intent-runtime notes): one
//! step per substitution, a numerics name marks the step with the same `from` as numeric or
//! adds a numeric-only step. Steps are sorted by `from`, which is the order the original
//! applies them in (it walks the incoming parameters in jsoncpp's sorted key order).

pub(crate) mod emit;
mod validate;

pub use emit::generate;

use clad_codegen::extension::{self, Context, Extension, Output};
use clad_codegen::ir::{DeclKind, Schema};
use clad_codegen::source::{FileId, SourceDb, SourceFile};
use clad_codegen::{Diagnostic, LoadedSource, SourceLoader};

/// The user-intent map as a build extension: compiles `file` with [`compile`] against the
/// build's schemas and appends its static (see the [module docs](self) for what is checked).
///
/// ```no_run
/// // build.rs
/// clad_codegen::Builder::new()
///     .include_dir("schemas")
///     .file("userIntent.clad")
///     .extension(
///         robot_codegen::IntentMap::new("user_intent_map.json", "Anki::Vector::UserIntent")
///             .feature_enum("Anki::Vector::FeatureType"),
///     )
///     .build();
/// ```
///
/// The JSON file is found like a schema file (a plain path, or a path inside an include
/// directory); a schema of the build must declare the union, and the enums the map is
/// checked against may be declared by any file of the build. The static is
/// `pub static <UNION>_MAP` (e.g. `USER_INTENT_MAP`) at the root of the generated file, a
/// `robot_runtime::intent::StaticIntentMap<UserIntentTag>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntentMap {
    /// The map file, as given.
    pub file: String,
    /// What it is checked against and how the static is named.
    pub options: IntentMapOptions,
}

impl IntentMap {
    /// The map `file` of the union `union` (fully qualified), default options.
    pub fn new(file: impl Into<String>, union: impl Into<String>) -> Self {
        IntentMap {
            file: file.into(),
            options: IntentMapOptions::new(union),
        }
    }

    /// The map `file` with `options`.
    pub fn with_options(file: impl Into<String>, options: IntentMapOptions) -> Self {
        IntentMap {
            file: file.into(),
            options,
        }
    }

    /// Checks `feature_gate` values against the members of this enum (fully qualified).
    pub fn feature_enum(mut self, fqn: impl Into<String>) -> Self {
        self.options = self.options.feature_enum(fqn);
        self
    }

    /// Warns about union members the map should name and does not.
    pub fn warn_unmapped(mut self, on: bool) -> Self {
        self.options = self.options.warn_unmapped(on);
        self
    }

    /// Names the generated static.
    pub fn static_name(mut self, name: impl Into<String>) -> Self {
        self.options = self.options.static_name(name);
        self
    }

    /// Path of the crate whose `intent` module holds `StaticIntentMap`, as generated code
    /// names it (default [`crate::DEFAULT_RUNTIME_PATH`]).
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.options = self.options.runtime_path(path);
        self
    }
}

impl Extension for IntentMap {
    fn describe(&self) -> String {
        format!("the intent map \"{}\"", self.file)
    }

    fn inputs(&self) -> Vec<String> {
        vec![self.file.clone()]
    }

    fn generate(&self, cx: &mut Context<'_>) -> Output {
        let union = &self.options.union;
        let Some(unit) = union_unit(cx.units(), union) else {
            return Output::from_diagnostics(vec![Diagnostic::error_global(format!(
                "no schema of this build declares the union `{union}` of intent map \"{}\"",
                self.file
            ))
            .with_note("add the schema file that declares it with Builder::file")]);
        };
        if let Err(d) = cx.claim_root_name(&self.options.static_ident(), &self.describe()) {
            return Output::from_diagnostics(vec![d]);
        }
        let mut sources = cx.sources_of(unit);
        let file = match cx.load(&mut sources, &self.file) {
            Ok(file) => file,
            Err(e) => {
                return Output {
                    diagnostics: vec![extension::load_error("intent map", &self.file, e)],
                    sources,
                    ..Output::default()
                }
            }
        };
        let mut compiled = compile_in(cx.units(), sources, file, &self.options);
        // The generated code names the file as the build script wrote it, not as found on
        // disk (an absolute path would make the output machine-dependent).
        if let Some(model) = &mut compiled.model {
            self.file.clone_into(&mut model.file);
        }
        compiled.into_output(|model| generate(model, cx.names()))
    }
}

/// What to check an intent map against, and how to name the generated static.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntentMapOptions {
    /// Fully qualified name of the user-intent union (`Anki::Vector::UserIntent`).
    pub union: String,
    /// Fully qualified name of an enum whose member names are the valid `feature_gate`
    /// values (`Anki::Vector::FeatureType`), declared by any file of the build. `None`:
    /// feature names are not checked.
    pub feature_enum: Option<String>,
    /// Warn about union members that no entry maps (off by default).
    pub warn_unmapped: bool,
    /// Name of the generated static (default: the union's name in `SCREAMING_SNAKE_CASE`
    /// plus `_MAP`, e.g. `USER_INTENT_MAP`).
    pub static_name: Option<String>,
    /// Path of the crate whose `intent` module holds `StaticIntentMap`, as generated code
    /// names it (default [`crate::DEFAULT_RUNTIME_PATH`]).
    pub runtime_path: String,
}

impl IntentMapOptions {
    /// Options for the union `union` (fully qualified), everything else default.
    pub fn new(union: impl Into<String>) -> Self {
        IntentMapOptions {
            union: union.into(),
            feature_enum: None,
            warn_unmapped: false,
            static_name: None,
            runtime_path: crate::DEFAULT_RUNTIME_PATH.to_owned(),
        }
    }

    /// Names the runtime crate in the generated static (see
    /// [`IntentMapOptions::runtime_path`]).
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime_path = path.into();
        self
    }

    /// Checks `feature_gate` values against the members of this enum (fully qualified).
    pub fn feature_enum(mut self, fqn: impl Into<String>) -> Self {
        self.feature_enum = Some(fqn.into());
        self
    }

    /// Warns about union members no entry maps.
    pub fn warn_unmapped(mut self, on: bool) -> Self {
        self.warn_unmapped = on;
        self
    }

    /// Names the generated static.
    pub fn static_name(mut self, name: impl Into<String>) -> Self {
        self.static_name = Some(name.into());
        self
    }

    /// The generated static's name: [`IntentMapOptions::static_name`], or the union's short
    /// name in `SCREAMING_SNAKE_CASE` plus `_MAP`.
    pub fn static_ident(&self) -> String {
        if let Some(name) = &self.static_name {
            return name.clone();
        }
        let short = self.union.rsplit("::").next().unwrap_or(&self.union);
        let snake =
            clad_codegen::rust::names::convert(short, clad_codegen::rust::names::Case::Snake);
        format!("{}_MAP", snake.trim_start_matches('_').to_uppercase())
    }
}

/// A union member, by schema name and wire tag.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TagRef {
    /// The member's name as written in the schema (`set_timer`).
    pub name: String,
    /// Its tag.
    pub value: u8,
}

/// One step applied to an incoming parameter: rename `from` to `to` (when set), then convert
/// the value to a number (when `numeric`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanitationStep {
    /// The incoming (cloud or app) parameter name.
    pub from: String,
    /// The payload field it becomes, if renamed.
    pub to: Option<String>,
    /// Convert the string value to a number.
    pub numeric: bool,
}

/// A cloud or app intent entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntentEntry {
    /// The cloud or app intent string.
    pub intent: String,
    /// The user intent it maps to.
    pub tag: TagRef,
    /// Parameter renames and numeric conversions, sorted by `from`.
    pub sanitation: Vec<SanitationStep>,
    /// The feature that must be enabled for the entry to exist.
    pub feature_gate: Option<String>,
    /// `test_parsing` (default true): whether the cloud sample-file test covers this intent.
    pub test_parsing: bool,
}

/// A `simple_voice_responses` entry with the defaults of the original filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimpleVoiceEntry {
    /// The cloud intent string.
    pub cloud_intent: String,
    /// Animation group to play.
    pub anim_group: String,
    /// Mood event ("" when not given).
    pub emotion_event: String,
    /// Active feature member name (`BasicVoiceCommand` when not given).
    pub active_feature: String,
    /// Do not turn toward the speaker after the wake word (false when not given).
    pub disable_wakeword_turn: bool,
    /// The feature that must be enabled for the entry to exist.
    pub feature_gate: Option<String>,
}

/// A validated intent map as plain data: what the generated static holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntentMapModel {
    /// The union's fully qualified name.
    pub union: String,
    /// The JSON file's name, as given to [`compile_file`] (or the [`LoadedSource`] name).
    pub file: String,
    /// The generated static's name.
    pub static_name: String,
    /// The runtime crate's path in the generated static.
    pub runtime_path: String,
    /// Cloud intents, sorted by intent (byte order).
    pub cloud: Vec<IntentEntry>,
    /// App intents, sorted by intent (byte order).
    pub app: Vec<IntentEntry>,
    /// Simple voice responses, sorted by cloud intent (byte order).
    pub simple_voice: Vec<SimpleVoiceEntry>,
    /// The tag simple voice responses become, when the union has `simple_voice_response`.
    pub simple_voice_tag: Option<TagRef>,
    /// The tag of unmatched intents.
    pub unmatched: TagRef,
    /// Every user intent some `user_intent_map` entry names (gated or not), by tag.
    pub mapped: Vec<TagRef>,
    /// `"is_test": true` was set.
    pub is_test: bool,
}

/// What a cloud intent resolves to (see [`IntentMapModel::match_cloud`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloudMatch<'a> {
    /// A `user_intent_map` entry.
    Entry(&'a IntentEntry),
    /// A simple voice response (tag `simple_voice_response`).
    SimpleVoice(&'a SimpleVoiceEntry),
    /// Nothing (or only feature-gated entries whose feature is off): the unmatched tag.
    Unmatched,
}

impl IntentMapModel {
    /// The cloud entry for `intent`, ignoring feature gates.
    pub fn cloud(&self, intent: &str) -> Option<&IntentEntry> {
        find(&self.cloud, intent, |e| &e.intent)
    }

    /// The app entry for `intent`, ignoring feature gates.
    pub fn app(&self, intent: &str) -> Option<&IntentEntry> {
        find(&self.app, intent, |e| &e.intent)
    }

    /// The simple voice response for `intent`, ignoring feature gates.
    pub fn simple_voice_response(&self, intent: &str) -> Option<&SimpleVoiceEntry> {
        find(&self.simple_voice, intent, |e| &e.cloud_intent)
    }

    /// Step 2 of the original pipeline: the normal table, then simple voice responses, else
    /// unmatched. An entry whose feature is disabled (`enabled(name)` false) does not exist.
    pub fn match_cloud(&self, intent: &str, enabled: impl Fn(&str) -> bool) -> CloudMatch<'_> {
        if let Some(e) = self
            .cloud(intent)
            .filter(|e| gate_open(&e.feature_gate, &enabled))
        {
            return CloudMatch::Entry(e);
        }
        if let Some(s) = self
            .simple_voice_response(intent)
            .filter(|s| gate_open(&s.feature_gate, &enabled))
        {
            return CloudMatch::SimpleVoice(s);
        }
        CloudMatch::Unmatched
    }

    /// The app entry for `intent` if it exists and its feature is enabled (else the app
    /// intent is unmatched).
    pub fn match_app(&self, intent: &str, enabled: impl Fn(&str) -> bool) -> Option<&IntentEntry> {
        self.app(intent)
            .filter(|e| gate_open(&e.feature_gate, &enabled))
    }
}

/// True when there is no gate or its feature is enabled.
fn gate_open(gate: &Option<String>, enabled: &impl Fn(&str) -> bool) -> bool {
    match gate {
        None => true,
        Some(feature) => enabled(feature),
    }
}

fn find<'a, E>(table: &'a [E], key: &str, key_of: impl Fn(&E) -> &String) -> Option<&'a E> {
    table
        .binary_search_by(|e| key_of(e).as_bytes().cmp(key.as_bytes()))
        .ok()
        .and_then(|i| table.get(i))
}

/// The result of compiling one intent map.
pub type IntentMapCompilation = crate::Compilation<IntentMapModel>;

/// Compiles the intent map `source` against `schemas`, the files of one build: the union
/// `options.union` is taken from the file that declares it (else one that includes it), and
/// the enums the map names (the feature enum) are looked up in that file, then in every
/// other one, so a feature enum may live in a file the union's file does not include.
///
/// ```
/// use robot_codegen::intent_map::{compile, IntentMapOptions};
/// use clad_codegen::{LoadedSource, MemoryLoader};
///
/// let mut files = MemoryLoader::new().file(
///     "intents.clad",
///     "structure Void {}\n structure Time { uint_32 time_s }\n\
///      union dupes_allowed UserIntent { Void unmatched_intent, Time set_timer }\n",
/// );
/// let schema = clad_codegen::compile(&mut files, "intents.clad").schema.unwrap();
/// let json = r#"{
///   "user_intent_map": [
///     { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
///       "cloud_substitutions": { "timer_duration": "time_s" },
///       "cloud_numerics": ["timer_duration"] }
///   ],
///   "unmatched_intent": "unmatched_intent"
/// }"#;
/// let source = LoadedSource { name: "map.json".into(), path: None, text: json.into() };
/// let out = compile(&[schema], source, &IntentMapOptions::new("UserIntent"));
/// let map = out.model.expect("valid map");
/// let entry = map.cloud("intent_clock_settimer_extend").unwrap();
/// assert_eq!((entry.tag.name.as_str(), entry.tag.value), ("set_timer", 1));
/// assert_eq!(entry.sanitation[0].to.as_deref(), Some("time_s"));
/// assert!(entry.sanitation[0].numeric);
/// ```
pub fn compile(
    schemas: &[Schema],
    source: LoadedSource,
    options: &IntentMapOptions,
) -> IntentMapCompilation {
    let Some(schema) = union_unit(schemas, &options.union).or(schemas.first()) else {
        return IntentMapCompilation {
            sources: SourceDb::new(),
            diagnostics: vec![Diagnostic::error_global(format!(
                "no schema to check the intent map \"{}\" against",
                source.name
            ))],
            model: None,
        };
    };
    let mut sources = schema.sources.clone();
    let file = sources.add(SourceFile::new(source.name, source.path, source.text));
    compile_in(schemas, sources, file, options)
}

/// [`compile`] of the file `file` of `sources`, a source database holding the files of the
/// unit that declares the union (and `file`).
fn compile_in(
    schemas: &[Schema],
    sources: SourceDb,
    file: FileId,
    options: &IntentMapOptions,
) -> IntentMapCompilation {
    let Some(schema) = union_unit(schemas, &options.union).or(schemas.first()) else {
        return IntentMapCompilation {
            sources,
            diagnostics: vec![Diagnostic::error_global(
                "no schema to check the intent map against",
            )],
            model: None,
        };
    };
    let others: Vec<&Schema> = schemas
        .iter()
        .filter(|s| !std::ptr::eq(*s, schema))
        .collect();
    let text = sources.get(file).text.clone();
    let (diagnostics, model) = validate::validate(schema, &others, &sources, file, &text, options);
    IntentMapCompilation {
        sources,
        diagnostics,
        model,
    }
}

/// Loads `name` through `loader` (as a main file: a plain path, or a path inside a search
/// directory) and compiles it with [`compile`]. A missing or unreadable file is a diagnostic.
pub fn compile_file(
    schemas: &[Schema],
    loader: &mut dyn SourceLoader,
    name: &str,
    options: &IntentMapOptions,
) -> IntentMapCompilation {
    match loader.load_main(name) {
        Ok(source) => {
            let mut out = compile(schemas, source, options);
            // The generated code names the file as the caller wrote it, not as found on
            // disk (an absolute path would make the output machine-dependent).
            if let Some(model) = &mut out.model {
                name.clone_into(&mut model.file);
            }
            out
        }
        Err(e) => IntentMapCompilation {
            sources: union_unit(schemas, &options.union)
                .or(schemas.first())
                .map(|s| s.sources.clone())
                .unwrap_or_default(),
            diagnostics: vec![extension::load_error("intent map", name, e)],
            model: None,
        },
    }
}

/// The schema of `schemas` that declares `union` (else one that includes it).
pub(crate) fn union_unit<'a>(schemas: &'a [Schema], union: &str) -> Option<&'a Schema> {
    let union = union.trim_start_matches("::");
    let declares = |u: &&Schema| {
        u.own_decls()
            .any(|(_, d)| d.fqn() == union && matches!(d.kind, DeclKind::Union(_)))
    };
    schemas
        .iter()
        .find(declares)
        .or_else(|| schemas.iter().find(|u| u.lookup(union).is_some()))
}
