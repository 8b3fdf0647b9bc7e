//! The HRI intent map: `hri_intent_map.json`, a sibling of `user_intent_map.json`, maps a
//! ROS4HRI intent (`hri_actions_msgs/Intent`) and conditions on its thematic roles to a
//! member of the user-intent union, copying roles into payload fields. Checked at build time
//! against the union and the ROS4HRI vocabulary of the runtime itself
//! ([`robot_runtime::hri::IntentKind`]: the constants, their wire values and
//! [`IntentKind::roles`]), emitted as a `robot_runtime::hri::StaticHriMap` static.
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
use crate::json::{self, Member, Node, Value};
use clad_codegen::extension::{self, Context, Extension, Output};
use clad_codegen::ir::{Decl, DeclKind, Field, Schema, Type, UnionMember};
use clad_codegen::rust::code::{str_lit, Code};
use clad_codegen::rust::{checked_path, Names};
use clad_codegen::source::{FileId, SourceDb, SourceFile, Span};
use clad_codegen::{Diagnostic, LoadedSource, SourceLoader};
use robot_runtime::hri::{IntentKind, Role, RoleSpec, Route};
use robot_runtime::suggest::closest;
use std::ops::Range;

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

struct Checker<'s> {
    schema: &'s Schema,
    file: FileId,
    union: String,
    members: Option<&'s [UnionMember]>,
    /// `(enum fqn, member names)` of the feature enum, when configured and found.
    features: Option<(String, Vec<&'s str>)>,
    diags: Vec<Diagnostic>,
}

/// What the map knows about an intent: its wire value and its roles (the runtime's table).
struct IntentInfo {
    wire: String,
    roles: RoleSpec,
}

impl IntentInfo {
    fn allows(&self, key: &str) -> bool {
        self.roles.open || Role::from_key(key).is_some_and(|r| self.roles.allows(r))
    }

    /// Every role key the intent allows (required, optional, and those allowed everywhere).
    fn allowed(&self) -> Vec<&'static str> {
        Role::ALL
            .iter()
            .filter(|r| self.roles.allows(**r))
            .map(|r| r.key())
            .collect()
    }
}

impl<'s> Checker<'s> {
    fn span(&self, r: &Range<usize>) -> Span {
        Span::new(self.file, r.clone())
    }

    fn error(&mut self, r: &Range<usize>, message: impl Into<String>, label: impl Into<String>) {
        let d = Diagnostic::error(self.span(r), message).with_label(label);
        self.diags.push(d);
    }

    fn resolve(&mut self) {
        match self
            .schema
            .lookup(&self.union)
            .map(|id| self.schema.decl(id))
        {
            Some(Decl {
                kind: DeclKind::Union(u),
                ..
            }) => self.members = Some(&u.members),
            _ => self.diags.push(Diagnostic::error_global(format!(
                "the schema `{}` has no union `{}` for the HRI intent map",
                self.schema.input, self.union
            ))),
        }
    }

    fn resolve_features(&mut self, fqn: &str) {
        match self.schema.lookup(fqn).map(|id| self.schema.decl(id)) {
            Some(Decl {
                kind: DeclKind::Enum(e),
                ..
            }) => {
                let names = e.members.iter().map(|m| m.name.as_str()).collect();
                self.features = Some((fqn.to_owned(), names));
            }
            Some(_) => self.diags.push(Diagnostic::error_global(format!(
                "the feature enum `{fqn}` of the HRI intent map is not an enum"
            ))),
            None => self.diags.push(
                Diagnostic::error_global(format!(
                    "the schema `{}` declares no enum `{fqn}` for the HRI intent map's feature gates",
                    self.schema.input
                ))
                .with_note("include the file that declares it from the union's schema"),
            ),
        }
    }

    fn feature_gate(&mut self, node: &Node) -> Option<String> {
        let name = self.string(node, "\"feature_gate\"")?;
        if let Some((fqn, names)) = &self.features {
            if !names.contains(&name) {
                let mut d =
                    Diagnostic::error(self.span(&node.span), format!("unknown feature \"{name}\""))
                        .with_label(format!("not a member of `{fqn}`"));
                if let Some(s) = closest(name, names.iter().copied()) {
                    d = d.with_note(format!("did you mean \"{s}\"?"));
                }
                self.diags.push(d);
            }
        }
        Some(name.to_owned())
    }

    fn route(&mut self, node: &Node) -> Option<Route> {
        let name = self.string(node, "\"to\"")?;
        let route = Route::from_name(name);
        if route.is_none() {
            let names = [Route::Behaviors, Route::Missions, Route::Both].map(Route::name);
            let mut d =
                Diagnostic::error(self.span(&node.span), format!("unknown route \"{name}\""))
                    .with_label("not a route");
            d = match closest(name, names.iter().copied()) {
                Some(s) => d.with_note(format!("did you mean \"{s}\"?")),
                None => d.with_note(format!("routes: {}", names.join(", "))),
            };
            self.diags.push(d);
        }
        route
    }

    fn object<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Member]> {
        match &node.value {
            Value::Object(m) => Some(m),
            other => {
                let msg = format!("{what} must be an object, found {}", other.kind());
                self.error(&node.span, msg, "expected an object");
                None
            }
        }
    }

    fn string<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n str> {
        match &node.value {
            Value::String(s) => Some(s),
            other => {
                let msg = format!("{what} must be a string, found {}", other.kind());
                self.error(&node.span, msg, "expected a string");
                None
            }
        }
    }

    fn unknown_keys(&mut self, members: &[Member], allowed: &[&str], context: &str) {
        for m in members {
            if !allowed.contains(&m.key.as_str()) {
                let mut d = Diagnostic::error(
                    self.span(&m.key_span),
                    format!("unknown key \"{}\" in {context}", m.key),
                )
                .with_label("not recognised");
                d = match closest(&m.key, allowed.iter().copied()) {
                    Some(s) => d.with_note(format!("did you mean \"{s}\"?")),
                    None => d.with_note(format!("allowed keys: {}", allowed.join(", "))),
                };
                self.diags.push(d);
            }
        }
    }

    fn root(&mut self, root: &Node) -> Option<Vec<HriEntry>> {
        let top = self.object(root, "the HRI intent map")?;
        self.unknown_keys(top, TOP_KEYS, "the HRI intent map");
        let Some(list) = top.iter().find(|m| m.key == "hri_intent_map") else {
            self.diags.push(
                Diagnostic::error(
                    self.span(&(root.span.start..root.span.start + 1)),
                    "missing \"hri_intent_map\"",
                )
                .with_label("this object"),
            );
            return None;
        };
        let Value::Array(items) = &list.value.value else {
            let msg = format!(
                "\"hri_intent_map\" must be an array, found {}",
                list.value.value.kind()
            );
            self.error(&list.value.span, msg, "expected an array");
            return None;
        };
        let mut out: Vec<(HriEntry, Range<usize>)> = Vec::new();
        for item in items {
            if let Some(e) = self.entry(item) {
                self.reachable(&out, &e, &item.span);
                out.push((e, item.span.clone()));
            }
        }
        Some(out.into_iter().map(|(e, _)| e).collect())
    }

    fn reachable(
        &mut self,
        earlier: &[(HriEntry, Range<usize>)],
        e: &HriEntry,
        span: &Range<usize>,
    ) {
        let mut sorted = e.when.clone();
        sorted.sort();
        for (prev, prev_span) in earlier.iter().filter(|(p, _)| p.intent == e.intent) {
            let mut p = prev.when.clone();
            p.sort();
            let why = if p == sorted {
                Some("an earlier entry has the same intent and conditions")
            } else if p.iter().all(|c| sorted.contains(c)) {
                Some("an earlier entry of this intent matches whenever this one does")
            } else {
                None
            };
            if let Some(why) = why {
                let d = Diagnostic::error(
                    self.span(&(span.start..span.start + 1)),
                    format!("this entry for {} is never used", e.intent),
                )
                .with_label("unreachable")
                .with_secondary(self.span(&(prev_span.start..prev_span.start + 1)), why)
                .with_note(
                    "entries of an intent are tried in file order; put the more specific one first",
                );
                self.diags.push(d);
                return;
            }
        }
    }

    fn intent(&mut self, node: &Node) -> Option<IntentInfo> {
        let raw = self.string(node, "\"intent\"")?;
        if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') {
            self.diags.push(
                Diagnostic::error(
                    self.span(&node.span),
                    "quoted intent value (the 0.3.x spelling)",
                )
                .with_label("remove the inner quotes")
                .with_note(
                    "the map is written canonically; the robot reads quoted values from old peers",
                ),
            );
            return None;
        }
        if let Some(kind) =
            IntentKind::from_constant_name(raw).or_else(|| IntentKind::from_wire_exact(raw))
        {
            return Some(IntentInfo {
                wire: kind.wire().to_owned(),
                roles: kind.roles(),
            });
        }
        let looks_standard = (raw.starts_with("__intent_") && raw.ends_with("__"))
            || (!raw.is_empty() && raw.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
        if raw.is_empty() || looks_standard {
            let names = IntentKind::STANDARD
                .iter()
                .flat_map(|k| k.constant_name().into_iter().chain([k.wire()]));
            let mut d = Diagnostic::error(
                self.span(&node.span),
                format!("unknown ROS4HRI intent \"{raw}\""),
            )
            .with_label("not an intent constant");
            d = match closest(raw, names) {
                Some(s) => d.with_note(format!("did you mean \"{s}\"?")),
                None => d.with_note(
                    "custom intents must not look like constants (`__intent_…__` or UPPER_CASE)",
                ),
            };
            self.diags.push(d);
            return None;
        }
        let custom = IntentKind::Custom(raw.to_owned());
        Some(IntentInfo {
            roles: custom.roles(),
            wire: raw.to_owned(),
        })
    }

    fn member(&mut self, node: &Node) -> Option<(&'s UnionMember, &'s [Field])> {
        let name = self.string(node, "\"user_intent\"")?;
        let members = self.members?;
        let Some(m) = members.iter().find(|m| m.name == name) else {
            let mut d = Diagnostic::error(
                self.span(&node.span),
                format!("unknown user intent \"{name}\""),
            )
            .with_label(format!("not a member of `{}`", self.union));
            if let Some(s) = closest(name, members.iter().map(|m| m.name.as_str())) {
                d = d.with_note(format!("did you mean \"{s}\"?"));
            }
            self.diags.push(d);
            return None;
        };
        let fields = match &m.ty {
            Type::Struct(id) => match &self.schema.decl(*id).kind {
                DeclKind::Struct(s) => Some(&s.fields[..]),
                _ => None,
            },
            _ => None,
        };
        match fields {
            Some(f) => Some((m, f)),
            None => {
                let ty = self.schema.type_name(&m.ty);
                self.error(
                    &node.span,
                    format!("user intent \"{name}\" carries `{ty}`, not a structure"),
                    "roles can only fill structure fields",
                );
                None
            }
        }
    }

    fn entry(&mut self, item: &Node) -> Option<HriEntry> {
        let members = self.object(item, "an HRI map entry")?;
        self.unknown_keys(members, ENTRY_KEYS, "an HRI map entry");
        let get = |k: &str| members.iter().find(|m| m.key == k).map(|m| &m.value);
        let start = item.span.start..item.span.start + 1;
        let (Some(intent_node), Some(user_node)) = (get("intent"), get("user_intent")) else {
            self.error(
                &start,
                "an HRI map entry needs \"intent\" and \"user_intent\"",
                "this entry",
            );
            return None;
        };
        let info = self.intent(intent_node);
        let member = self.member(user_node);
        let route = match get("to") {
            Some(node) => self.route(node),
            None => Some(Route::default()),
        };
        let feature_gate = get("feature_gate").and_then(|node| self.feature_gate(node));
        let mut when = Vec::new();
        if let Some(node) = get("when") {
            for m in self.object(node, "\"when\"").unwrap_or_default() {
                if let Some(info) = &info {
                    self.check_role(info, m);
                }
                if let Some(v) = self.string(&m.value, "a \"when\" value") {
                    when.push((m.key.clone(), v.to_owned()));
                }
            }
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        if let Some(node) = get("roles") {
            for m in self.object(node, "\"roles\"").unwrap_or_default() {
                if let Some(info) = &info {
                    self.check_role(info, m);
                }
                let Some(field) = self.string(&m.value, "a \"roles\" value") else {
                    continue;
                };
                if let Some((um, payload)) = member {
                    match payload.iter().find(|f| f.name == field) {
                        None => {
                            let mut d = Diagnostic::error(
                                self.span(&m.value.span),
                                format!(
                                    "`{}` has no field `{field}`",
                                    self.schema.type_name(&um.ty)
                                ),
                            )
                            .with_label("not a payload field");
                            if let Some(s) = closest(field, payload.iter().map(|f| f.name.as_str()))
                            {
                                d = d.with_note(format!("did you mean `{s}`?"));
                            }
                            self.diags.push(d);
                        }
                        Some(f) if !matches!(f.ty, Type::String { .. } | Type::Enum(_)) => {
                            let ty = self.schema.type_name(&f.ty);
                            self.error(
                                &m.value.span,
                                format!(
                                    "field `{field}` is `{ty}`; roles are strings (a string or \
                                     enum field, filled by member name)"
                                ),
                                "not a string or enum field",
                            );
                        }
                        Some(_) => {}
                    }
                }
                if fields.iter().any(|(_, f)| f == field) {
                    self.error(
                        &m.value.span,
                        format!("field `{field}` is filled twice"),
                        "second role for this field",
                    );
                }
                fields.push((m.key.clone(), field.to_owned()));
            }
        }
        let (info, (um, _), route) = (info?, member?, route?);
        for role in info.roles.required.iter().map(|r| r.key()) {
            let used = fields.iter().any(|(r, _)| r == role) || when.iter().any(|(r, _)| r == role);
            if !used {
                self.diags.push(
                    Diagnostic::warning(
                        self.span(&start),
                        format!("the required role `{role}` of {} is dropped", info.wire),
                    )
                    .with_label("this entry")
                    .with_note(format!("copy it with \"roles\": {{\"{role}\": \"<field>\"}} or test it in \"when\"")),
                );
            }
        }
        let tag = TagRef {
            name: um.name.clone(),
            value: um.tag,
        };
        Some(HriEntry {
            intent: info.wire,
            when,
            tag,
            fields,
            route,
            feature_gate,
        })
    }

    fn check_role(&mut self, info: &IntentInfo, m: &Member) {
        if info.allows(&m.key) {
            return;
        }
        let allowed = info.allowed();
        let mut d = Diagnostic::error(
            self.span(&m.key_span),
            format!("`{}` is not a thematic role of {}", m.key, info.wire),
        )
        .with_label("unknown role");
        d = match closest(&m.key, allowed.iter().copied()) {
            Some(s) => d.with_note(format!("did you mean `{s}`?")),
            None => d.with_note(format!("its roles: {}", allowed.join(", "))),
        };
        self.diags.push(d);
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
