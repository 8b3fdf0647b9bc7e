//! The HRI intent map: `hri_intent_map.json`, a sibling of `user_intent_map.json`, maps a
//! ROS4HRI intent (`hri_actions_msgs/Intent`) and conditions on its thematic roles to a
//! member of the user-intent union, copying roles into payload fields. Checked at build
//! time against the union and the ROS4HRI vocabulary of the runtime itself
//! ([`robot_runtime::hri::IntentKind`]: the constants, their wire values and
//! [`IntentKind::roles`](robot_runtime::hri::IntentKind::roles)), emitted as a
//! `robot_runtime::hri::StaticHriMap` static.
//!
//! ```json
//! {
//!   "hri_intent_map": [
//!     { "intent": "MOVE_TO", "when": { "goal": "poi_docking" }, "user_intent": "system_charger" },
//!     { "intent": "MOVE_TO", "user_intent": "hri_move_to", "to": "missions",
//!       "roles": { "goal": "goal", "agent": "agent" } }
//!   ]
//! }
//! ```
//!
//! What is checked (errors unless noted):
//! - JSON syntax and types; unknown keys at the top level and in entries; `hri_intent_map`
//!   present;
//! - `intent` is a constant name (`MOVE_TO`), a canonical wire value (`__intent_move_to__`)
//!   or a custom string; a string shaped like a constant (`__intent_…__`, upper-case name)
//!   that is none is an error with a "did you mean"; a quoted 0.3.x value is an error (write
//!   the canonical value);
//! - `user_intent` is a member of the union whose payload is a structure;
//! - `roles` and `when` keys are thematic roles the intent allows (`agent` and `other_data`
//!   everywhere; custom intents and `START_ACTIVITY` are open); `roles` values are fields of
//!   the payload of string or enum type (an enum is filled by member name), each field
//!   filled once; `when` values are strings;
//! - `to` says where the request goes: `behaviors` (the pending user intent, the default),
//!   `missions` (the mission controller) or `both` (`robot_runtime::hri::Route`);
//! - `feature_gate` names a member of the feature enum, when [`HriMap::feature_enum`] is
//!   given (a gated entry whose feature is off makes the request the unmatched intent, as
//!   for cloud and app intents);
//! - an entry is reachable: not a repeat of an earlier entry's intent and conditions, and not
//!   after an unconditional entry of the same intent;
//! - a required role of the intent that is neither copied nor tested is a warning (its value
//!   would be lost).

use crate::intent_map::emit::{check_ident, TagPaths};
use crate::intent_map::TagRef;
use crate::json;
use clad_codegen::extension::{self, Context, Extension, Output};
use clad_codegen::ir::Schema;
use clad_codegen::rust::code::{str_lit, Code};
use clad_codegen::rust::{checked_path, Names};
use clad_codegen::source::{FileId, SourceDb, SourceFile};
use clad_codegen::{Diagnostic, LoadedSource, SourceLoader};
use robot_runtime::hri::Route;

mod check;

use check::Checker;

const TOP_KEYS: &[&str] = &["hri_intent_map"];
const ENTRY_KEYS: &[&str] = &[
    "intent",
    "when",
    "user_intent",
    "roles",
    "to",
    "feature_gate",
];

/// The HRI map as a build extension: compiles `file` with [`compile`] against the union and
/// appends its static (`HRI_INTENT_MAP` by default, a `robot_runtime::hri::StaticHriMap`).
///
/// ```no_run
/// // build.rs
/// clad_codegen::Builder::new()
///     .include_dir("schemas")
///     .file("userIntent.clad")
///     .extension(robot_codegen::HriMap::new("hri_intent_map.json", "Anki::Vector::UserIntent"))
///     .build();
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HriMap {
    /// The map file, as given (found like a schema file).
    pub file: String,
    /// The union and the static's name.
    pub options: HriMapOptions,
}

impl HriMap {
    /// The map `file` for the union `union` (fully qualified); the static is
    /// `HRI_INTENT_MAP`.
    pub fn new(file: impl Into<String>, union: impl Into<String>) -> Self {
        HriMap {
            file: file.into(),
            options: HriMapOptions::new(union),
        }
    }

    /// Names the generated static.
    pub fn static_name(mut self, name: impl Into<String>) -> Self {
        self.options = self.options.static_name(name);
        self
    }

    /// Path of the crate whose `hri` module holds `StaticHriMap`, as generated code names it
    /// (default [`crate::DEFAULT_RUNTIME_PATH`]).
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.options.runtime_path = path.into();
        self
    }

    /// Checks `feature_gate` values against the members of this enum (fully qualified,
    /// declared by the union's schema or a file it includes).
    pub fn feature_enum(mut self, fqn: impl Into<String>) -> Self {
        self.options.feature_enum = Some(fqn.into());
        self
    }
}

impl Extension for HriMap {
    fn describe(&self) -> String {
        format!("the HRI intent map \"{}\"", self.file)
    }

    fn inputs(&self) -> Vec<String> {
        vec![self.file.clone()]
    }

    fn generate(&self, cx: &mut Context<'_>) -> Output {
        let union = &self.options.union;
        let Some(schema) = crate::intent_map::union_unit(cx.units(), union) else {
            return Output::from_diagnostics(vec![Diagnostic::error_global(format!(
                "no schema of this build declares the union `{union}` of HRI intent map \"{}\"",
                self.file
            ))
            .with_note("add the schema file that declares it with Builder::file")]);
        };
        if let Err(d) = cx.claim_root_name(&self.options.static_name, &self.describe()) {
            return Output::from_diagnostics(vec![d]);
        }
        let mut sources = cx.sources_of(schema);
        let file = match cx.load(&mut sources, &self.file) {
            Ok(file) => file,
            Err(e) => {
                return Output {
                    diagnostics: vec![extension::load_error("HRI intent map", &self.file, e)],
                    sources,
                    ..Output::default()
                }
            }
        };
        let mut compiled = compile_in(schema, sources, file, &self.options);
        if let Some(model) = &mut compiled.model {
            self.file.clone_into(&mut model.file);
        }
        compiled.into_output(|model| generate(model, cx.names()))
    }
}

/// Options of an HRI intent map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HriMapOptions {
    /// Fully qualified name of the user-intent union.
    pub union: String,
    /// Name of the generated static (default `HRI_INTENT_MAP`).
    pub static_name: String,
    /// Path of the crate whose `hri` module holds `StaticHriMap`, as generated code names
    /// it (default [`crate::DEFAULT_RUNTIME_PATH`]).
    pub runtime_path: String,
    /// The enum whose member names are the valid `feature_gate` values (`None`: not
    /// checked).
    pub feature_enum: Option<String>,
}

impl HriMapOptions {
    /// Options for `union` (fully qualified); the static is `HRI_INTENT_MAP`.
    pub fn new(union: impl Into<String>) -> Self {
        HriMapOptions {
            union: union.into(),
            static_name: "HRI_INTENT_MAP".to_owned(),
            runtime_path: crate::DEFAULT_RUNTIME_PATH.to_owned(),
            feature_enum: None,
        }
    }

    /// Names the generated static.
    pub fn static_name(mut self, name: impl Into<String>) -> Self {
        self.static_name = name.into();
        self
    }
}

/// One validated entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HriEntry {
    /// The intent's canonical wire value (or the custom string).
    pub intent: String,
    /// `(role, value)` conditions, in file order.
    pub when: Vec<(String, String)>,
    /// The user-intent member.
    pub tag: TagRef,
    /// `(role, payload field)` copies, in file order.
    pub fields: Vec<(String, String)>,
    /// Where the request goes.
    pub route: Route,
    /// The feature that must be enabled for the entry to exist.
    pub feature_gate: Option<String>,
}

/// A validated HRI map: entries grouped by intent (byte order), file order within an intent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HriMapModel {
    /// The union's fully qualified name.
    pub union: String,
    /// The file name as given.
    pub file: String,
    /// The static's name.
    pub static_name: String,
    /// The runtime crate's path in the generated static.
    pub runtime_path: String,
    /// The entries.
    pub entries: Vec<HriEntry>,
}

/// The result of compiling an HRI map.
pub type HriMapCompilation = crate::Compilation<HriMapModel>;

/// Compiles the HRI map `source` against `schema` (which declares `options.union`).
pub fn compile(
    schema: &Schema,
    source: LoadedSource,
    options: &HriMapOptions,
) -> HriMapCompilation {
    let mut sources = schema.sources.clone();
    let file = sources.add(SourceFile::new(source.name, source.path, source.text));
    compile_in(schema, sources, file, options)
}

/// [`compile`] of the file `file` of `sources` (which holds `schema`'s files too).
fn compile_in(
    schema: &Schema,
    sources: SourceDb,
    file: FileId,
    options: &HriMapOptions,
) -> HriMapCompilation {
    let name = sources.get(file).name.clone();
    let text = sources.get(file).text.clone();
    let mut v = Checker {
        schema,
        file,
        union: options.union.clone(),
        members: None,
        features: None,
        diags: Vec::new(),
    };
    let (root, errors) = json::parse(&text);
    for e in errors {
        let mut d = Diagnostic::error(v.span(&e.span), e.message).with_label(e.label);
        if let Some((span, label)) = e.secondary {
            d = d.with_secondary(v.span(&span), label);
        }
        v.diags.push(d);
    }
    v.resolve();
    if let Some(fqn) = &options.feature_enum {
        v.resolve_features(fqn);
    }
    let entries = root.and_then(|r| v.root(&r));
    let model = entries
        .filter(|_| !v.diags.iter().any(Diagnostic::is_error))
        .map(|mut entries| {
            entries.sort_by(|a, b| a.intent.as_bytes().cmp(b.intent.as_bytes()));
            HriMapModel {
                union: options.union.clone(),
                file: name,
                static_name: options.static_name.clone(),
                runtime_path: options.runtime_path.clone(),
                entries,
            }
        });
    HriMapCompilation {
        sources,
        diagnostics: v.diags,
        model,
    }
}

/// Loads `name` through `loader` and compiles it with [`compile`].
pub fn compile_file(
    schema: &Schema,
    loader: &mut dyn SourceLoader,
    name: &str,
    options: &HriMapOptions,
) -> HriMapCompilation {
    match loader.load_main(name) {
        Ok(source) => {
            let mut out = compile(schema, source, options);
            if let Some(m) = &mut out.model {
                name.clone_into(&mut m.file);
            }
            out
        }
        Err(e) => HriMapCompilation {
            sources: schema.sources.clone(),
            diagnostics: vec![extension::load_error("HRI intent map", name, e)],
            model: None,
        },
    }
}

/// The Rust code of the static, for the generated file whose naming table is `names` (it
/// must emit the map's union).
pub fn generate(model: &HriMapModel, names: Names<'_>) -> Result<String, Vec<Diagnostic>> {
    let rt = checked_path("HRI intent map runtime path", &model.runtime_path)?;
    check_ident("HRI intent map static", &model.static_name)?;
    let tags = TagPaths::new(names, &model.union)?;
    let tag_path = &tags.path;
    let mut c = Code::new();
    c.doc(&format!(
        "The HRI intent map compiled from `{}` for `{}`: {} entries.",
        model.file,
        model.union,
        model.entries.len()
    ));
    emit!(
        c,
        "
        pub static {}: {rt}::hri::StaticHriMap<{tag_path}> = {{
            #[allow(unused_imports)]
            use {rt}::hri::{{HriMapEntry, RoleCondition, RoleField, Route, StaticHriMap}};
            use {tag_path} as Tag;
            StaticHriMap {{
                entries: &[",
        model.static_name
    );
    for e in &model.entries {
        emit!(c, "HriMapEntry {{");
        emit!(c, "intent: {},", str_lit(&e.intent));
        if e.when.is_empty() {
            c.line("when: &[],");
        } else {
            c.line("when: &[");
            for (role, value) in &e.when {
                emit!(
                    c,
                    "RoleCondition {{ role: {}, value: {} }},",
                    str_lit(role),
                    str_lit(value)
                );
            }
            c.line("],");
        }
        emit!(c, "tag: Tag::{},", tags.variant(&e.tag.name)?);
        if e.fields.is_empty() {
            c.line("fields: &[],");
        } else {
            c.line("fields: &[");
            for (role, field) in &e.fields {
                emit!(
                    c,
                    "RoleField {{ role: {}, field: {} }},",
                    str_lit(role),
                    str_lit(field)
                );
            }
            c.line("],");
        }
        let route = match e.route {
            Route::Behaviors => "Behaviors",
            Route::Missions => "Missions",
            Route::Both => "Both",
        };
        emit!(c, "route: Route::{route},");
        match &e.feature_gate {
            Some(f) => emit!(
                c,
                "feature_gate: ::core::option::Option::Some({}),",
                str_lit(f)
            ),
            None => c.line("feature_gate: ::core::option::Option::None,"),
        }
        c.line("},");
    }
    emit!(
        c,
        "
                ],
            }}
        }};"
    );
    Ok(c.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clad_codegen::MemoryLoader;

    const SCHEMA: &str = "structure Void {}\n\
        structure Goal { string agent, string goal }\n\
        enum uint_8 Mode { IDLE, GROUP }\n\
        structure Gaze { Mode gaze_mode, string target }\n\
        structure Timed { uint_32 time_s }\n\
        union dupes_allowed UserIntent { Void unmatched_intent, Goal move_to, Void charger,\n\
          Gaze gaze, Timed timer, uint_8 raw }\n";

    fn run(json: &str) -> HriMapCompilation {
        let mut files = MemoryLoader::new().file("u.clad", SCHEMA);
        let schema = clad_codegen::compile(&mut files, "u.clad")
            .schema
            .expect("schema");
        let source = LoadedSource {
            name: "hri.json".into(),
            path: None,
            text: json.into(),
        };
        compile(&schema, source, &HriMapOptions::new("UserIntent"))
    }

    fn errors(json: &str) -> Vec<String> {
        run(json)
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn a_valid_map_is_sorted_by_intent_in_file_order_within() {
        let out = run(r#"{"hri_intent_map": [
            {"intent": "MOVE_TO", "when": {"goal": "dock"}, "user_intent": "charger"},
            {"intent": "__intent_move_to__", "user_intent": "move_to", "roles": {"goal": "goal", "agent": "agent"}},
            {"intent": "GAZE", "user_intent": "gaze", "roles": {"gaze_mode": "gaze_mode", "target": "target"}},
            {"intent": "make_coffee", "user_intent": "move_to", "roles": {"cup": "goal"}}
        ]}"#);
        assert!(!out.has_errors(), "{}", out.render());
        let m = out.model.clone().unwrap();
        let order: Vec<_> = m
            .entries
            .iter()
            .map(|e| (e.intent.as_str(), e.tag.name.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                ("__intent_gaze__", "gaze"),
                ("__intent_move_to__", "charger"),
                ("__intent_move_to__", "move_to"),
                ("make_coffee", "move_to"),
            ]
        );
        // The charger entry drops nothing: `goal` is tested.
        assert!(out.diagnostics.is_empty(), "{}", out.render());
    }

    #[test]
    fn every_problem_is_reported() {
        let e = errors(
            r#"{"hri_intent_map": [
            {"intent": "MOVE_TOO", "user_intent": "move_to"},
            {"intent": "\"__intent_move_to__\"", "user_intent": "move_to"},
            {"intent": "MOVE_TO", "user_intent": "move_too", "roles": {"goal": "goal"}},
            {"intent": "MOVE_TO", "user_intent": "move_to", "roles": {"gaol": "goal", "agent": "gaol"}},
            {"intent": "MOVE_TO", "user_intent": "timer", "roles": {"goal": "time_s"}},
            {"intent": "MOVE_TO", "user_intent": "raw", "roles": {"goal": "x"}},
            {"intent": "GREET", "user_intent": "move_to", "roles": {"recipient": "goal", "agent": "goal"}},
            {"intent": "SAY", "user_intent": "move_to", "extra": 1, "roles": {"object": "goal"}}
        ], "other": []}"#,
        );
        let expected = [
            "unknown ROS4HRI intent \"MOVE_TOO\"",
            "quoted intent value (the 0.3.x spelling)",
            "unknown user intent \"move_too\"",
            "`gaol` is not a thematic role of __intent_move_to__",
            "`Goal` has no field `gaol`",
            "field `time_s` is `uint_32`; roles are strings (a string or enum field, filled by member name)",
            "user intent \"raw\" carries `uint_8`, not a structure",
            "field `goal` is filled twice",
            "unknown key \"extra\" in an HRI map entry",
            "unknown key \"other\" in the HRI intent map",
        ];
        for x in expected {
            assert!(e.iter().any(|m| m == x), "missing {x:?} in {e:#?}");
        }
    }

    #[test]
    fn unreachable_entries_and_dropped_roles() {
        let e = errors(
            r#"{"hri_intent_map": [
            {"intent": "MOVE_TO", "user_intent": "move_to", "roles": {"goal": "goal"}},
            {"intent": "MOVE_TO", "when": {"goal": "dock"}, "user_intent": "charger"}
        ]}"#,
        );
        assert_eq!(e, ["this entry for __intent_move_to__ is never used"]);
        let out = run(r#"{"hri_intent_map": [{"intent": "MOVE_TO", "user_intent": "charger"}]}"#);
        assert!(!out.has_errors());
        assert!(out
            .render()
            .contains("the required role `goal` of __intent_move_to__ is dropped"));
    }

    #[test]
    fn routes_and_feature_gates() {
        const GATED: &str = "structure Void {}\n\
            structure Goal { string agent, string goal }\n\
            enum uint_8 Feature { Navigation, Talking }\n\
            union dupes_allowed UserIntent { Void unmatched_intent, Goal move_to, Void stop }\n";
        let mut files = MemoryLoader::new().file("g.clad", GATED);
        let schema = clad_codegen::compile(&mut files, "g.clad")
            .schema
            .expect("schema");
        let run = |json: &str, features: Option<&str>| {
            let mut options = HriMapOptions::new("UserIntent");
            options.feature_enum = features.map(str::to_owned);
            let source = LoadedSource {
                name: "hri.json".into(),
                path: None,
                text: json.into(),
            };
            compile(&schema, source, &options)
        };
        let out = run(
            r#"{"hri_intent_map": [
            {"intent": "MOVE_TO", "user_intent": "move_to", "to": "missions",
             "feature_gate": "Navigation", "roles": {"goal": "goal"}},
            {"intent": "STOP_ACTIVITY", "user_intent": "stop", "to": "both"},
            {"intent": "SAY", "user_intent": "stop"}
        ]}"#,
            Some("Feature"),
        );
        assert!(!out.has_errors(), "{}", out.render());
        let m = out.model.unwrap();
        let routes: Vec<_> = m
            .entries
            .iter()
            .map(|e| (e.intent.as_str(), e.route, e.feature_gate.as_deref()))
            .collect();
        assert_eq!(
            routes,
            [
                ("__intent_move_to__", Route::Missions, Some("Navigation")),
                ("__intent_say__", Route::Behaviors, None),
                ("__intent_stop_activity__", Route::Both, None),
            ]
        );
        let bad = r#"{"hri_intent_map": [
            {"intent": "MOVE_TO", "user_intent": "move_to", "to": "mission",
             "feature_gate": "Navigaton", "roles": {"goal": "goal"}},
            {"intent": "SAY", "user_intent": "stop", "to": 3}
        ]}"#;
        let e: Vec<_> = run(bad, Some("Feature"))
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.message.clone(), d.notes.clone()))
            .collect();
        assert_eq!(
            e,
            [
                (
                    "unknown route \"mission\"".to_owned(),
                    vec!["did you mean \"missions\"?".to_owned()]
                ),
                (
                    "unknown feature \"Navigaton\"".to_owned(),
                    vec!["did you mean \"Navigation\"?".to_owned()]
                ),
                ("\"to\" must be a string, found a number".to_owned(), vec![]),
            ]
        );
        // Without a feature enum, gates are not checked; a missing one is an error.
        let unchecked = r#"{"hri_intent_map": [
            {"intent": "SAY", "user_intent": "stop", "feature_gate": "Anything"}]}"#;
        assert!(!run(unchecked, None).has_errors());
        assert!(run(unchecked, Some("Feature")).has_errors());
        assert!(run(r#"{"hri_intent_map": []}"#, Some("Nope"))
            .render()
            .contains("declares no enum `Nope`"));
    }

    #[test]
    fn syntax_errors_and_garbage_do_not_panic() {
        assert!(!errors("{").is_empty());
        assert!(!errors("[]").is_empty());
        assert_eq!(errors("{}"), ["missing \"hri_intent_map\""]);
        assert!(
            !errors(r#"{"hri_intent_map": [1, {"intent": 2}, {"user_intent": "x"}]}"#).is_empty()
        );
    }

    #[test]
    fn emitted_static_parses() {
        let mut files = MemoryLoader::new().file("u.clad", SCHEMA);
        let schema = clad_codegen::compile(&mut files, "u.clad")
            .schema
            .expect("schema");
        let out = compile(
            &schema,
            LoadedSource {
                name: "hri.json".into(),
                path: None,
                text: r#"{"hri_intent_map": [
                  {"intent": "MOVE_TO", "when": {"goal": "dock"}, "user_intent": "charger"},
                  {"intent": "MOVE_TO", "user_intent": "move_to", "roles": {"goal": "goal"}}]}"#
                    .into(),
            },
            &HriMapOptions::new("UserIntent"),
        );
        let units = [schema];
        let opts = clad_codegen::rust::RustOptions::default();
        let emitter = clad_codegen::rust::Emitter::new(&units, &opts).unwrap();
        let code = generate(&out.model.unwrap(), emitter.names()).unwrap();
        syn::parse_file(&code).expect("valid Rust");
        assert!(
            code.contains("RoleCondition { role: \"goal\", value: \"dock\" }"),
            "{code}"
        );
        assert!(code.contains("tag: Tag::Charger,"), "{code}");
    }
}
