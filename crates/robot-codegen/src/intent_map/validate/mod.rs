//! Checks a parsed `user_intent_map.json` against the schema and builds the model.

use super::{IntentEntry, IntentMapModel, IntentMapOptions, SimpleVoiceEntry, TagRef};
use crate::json::{self, Member, Node, Value};
use clad_codegen::ir::{Decl, DeclKind, Field, Schema, Type, UnionMember};
use clad_codegen::source::{FileId, SourceDb, Span};
use clad_codegen::Diagnostic;
use robot_runtime::intent::members::{self, SIMPLE_VOICE_RESPONSE as SIMPLE_VOICE_TAG};
use robot_runtime::intent::SimpleVoiceResponse;
use robot_runtime::suggest::closest;
use std::collections::BTreeMap;
use std::ops::Range;

mod sanitation;
mod simple_voice;

const TOP_KEYS: &[&str] = &[
    "user_intent_map",
    "simple_voice_responses",
    "unmatched_intent",
    "is_test",
];
const ENTRY_KEYS: &[&str] = &[
    "user_intent",
    "cloud_intent",
    "app_intent",
    "cloud_substitutions",
    "cloud_numerics",
    "app_substitutions",
    "app_numerics",
    "feature_gate",
    "test_parsing",
];
const SIMPLE_KEYS: &[&str] = &["cloud_intent", "feature_gate", "response"];
/// The payload fields a simple voice response sets (the runtime's list, in its order), with
/// the type each needs.
const RESPONSE_FIELDS: [(&str, &str); 4] = [
    (ANIM_GROUP, "a string"),
    (EMOTION_EVENT, "a string"),
    (ACTIVE_FEATURE, "an enum or a string"),
    (DISABLE_WAKEWORD_TURN, "a bool"),
];
const ANIM_GROUP: &str = SimpleVoiceResponse::PAYLOAD_FIELDS[0];
const EMOTION_EVENT: &str = SimpleVoiceResponse::PAYLOAD_FIELDS[1];
const ACTIVE_FEATURE: &str = SimpleVoiceResponse::PAYLOAD_FIELDS[2];
const DISABLE_WAKEWORD_TURN: &str = SimpleVoiceResponse::PAYLOAD_FIELDS[3];
/// `response.active_feature` when not given (§1.4).
const DEFAULT_ACTIVE_FEATURE: &str = SimpleVoiceResponse::DEFAULT_ACTIVE_FEATURE;

/// Validates the map in `text` (file `file` of `sources`) against `schema`, the unit that
/// declares the union; the enums the map names are looked up in `schema`, then in `others`
/// (every other file of the build).
pub(super) fn validate(
    schema: &Schema,
    others: &[&Schema],
    sources: &SourceDb,
    file: FileId,
    text: &str,
    options: &IntentMapOptions,
) -> (Vec<Diagnostic>, Option<IntentMapModel>) {
    let (root, json_errors) = json::parse(text);
    let mut v = Validator {
        schema,
        others,
        file,
        file_name: sources.get(file).name.clone(),
        union_name: options.union.clone(),
        diags: Vec::new(),
        members: None,
        features: None,
        missing_features: None,
        cloud_seen: BTreeMap::new(),
        app_seen: BTreeMap::new(),
    };
    for e in json_errors {
        let mut d = Diagnostic::error(v.span(&e.span), e.message).with_label(e.label);
        if let Some((span, label)) = e.secondary {
            d = d.with_secondary(v.span(&span), label);
        }
        v.diags.push(d);
    }
    v.resolve_schema(options);
    let model = root.as_ref().and_then(|root| v.root(root, options));
    // A missing feature enum no `feature_gate` value was checked against: at the map itself.
    if let Some(d) = v.missing_features.take() {
        let d = match &root {
            Some(root) => {
                let span = v.start(root);
                d.at(span, "the intent map whose feature gates need it")
            }
            None => d.into(),
        };
        v.push(d);
    }
    let model = model.filter(|_| !v.diags.iter().any(Diagnostic::is_error));
    // Report in reading order: problems without a place first, then by file and position.
    v.diags
        .sort_by_key(|d| d.span.map(|s| (s.file != file, s.file, s.start)));
    (v.diags, model)
}

struct Validator<'s> {
    /// The unit declaring the union.
    schema: &'s Schema,
    /// The other units of the build (where enums the map names may live too).
    others: &'s [&'s Schema],
    file: FileId,
    file_name: String,
    union_name: String,
    diags: Vec<Diagnostic>,
    /// The union's members; None when the union could not be resolved (reported once).
    members: Option<&'s [UnionMember]>,
    /// `(enum fqn, member names)` of the feature enum, when configured and resolved.
    features: Option<(String, Vec<&'s str>)>,
    /// The error for a feature enum no file of the build declares, until it is reported at
    /// the first `feature_gate` value (or at the map).
    missing_features: Option<MissingEnum>,
    cloud_seen: BTreeMap<String, Range<usize>>,
    app_seen: BTreeMap<String, Range<usize>>,
}

/// The payload a member carries, as far as parameters are concerned.
struct Payload<'s> {
    /// The structure's declaration (None for non-structure payloads).
    decl: Option<&'s Decl>,
    fields: &'s [Field],
    /// `UserIntent_TimeInSeconds`, or the type's CLAD name.
    name: String,
}

/// What simple voice responses are checked against.
struct SimpleShape<'s> {
    payload: Payload<'s>,
    /// `(enum fqn, members)` when `active_feature` is an enum field.
    active_features: Option<(String, Vec<&'s str>)>,
}

/// Parameters of one side (cloud or app) of an entry.
struct Side<'n> {
    name: &'static str,
    intent: Option<(&'n str, &'n Node)>,
    subs: Option<&'n Member>,
    numerics: Option<&'n Member>,
}

impl<'s> Validator<'s> {
    fn span(&self, r: &Range<usize>) -> Span {
        Span::new(self.file, r.clone())
    }

    /// The first byte of a node (the `{` of an object, for "this entry" labels).
    fn start(&self, node: &Node) -> Span {
        Span::new(self.file, node.span.start..node.span.start + 1)
    }

    fn error(
        &mut self,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diags
            .push(Diagnostic::error(span, message).with_label(label));
        self.diags.last_mut().expect("just pushed")
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    // ----- schema ---------------------------------------------------------------------------

    fn resolve_schema(&mut self, options: &IntentMapOptions) {
        let schema = self.schema;
        match schema.lookup(&options.union).map(|id| schema.decl(id)) {
            Some(Decl {
                kind: DeclKind::Union(u),
                ..
            }) => self.members = Some(&u.members),
            Some(d) => self.push(Diagnostic::error_global(format!(
                "`{}` is {} {}, not a union",
                options.union,
                article(d.kind_name()),
                d.kind_name()
            ))),
            None => {
                let unions: Vec<String> = schema
                    .iter()
                    .filter(|(_, d)| matches!(d.kind, DeclKind::Union(_)))
                    .map(|(_, d)| format!("`{}`", d.fqn()))
                    .collect();
                let mut d = Diagnostic::error_global(format!(
                    "the schema `{}` has no union `{}` for the intent map",
                    schema.input, options.union
                ));
                d = if unions.is_empty() {
                    d.with_note("it declares no union")
                } else {
                    d.with_note(format!("its unions: {}", unions.join(", ")))
                };
                self.push(d);
            }
        }
        if let Some(fqn) = &options.feature_enum {
            match self.lookup_anywhere(fqn) {
                Some(Decl {
                    kind: DeclKind::Enum(e),
                    ..
                }) => {
                    let names = e.members.iter().map(|m| m.name.as_str()).collect();
                    self.features = Some((fqn.clone(), names));
                }
                Some(d) => self.push(Diagnostic::error_global(format!(
                    "the feature enum `{fqn}` is {} {}, not an enum",
                    article(d.kind_name()),
                    d.kind_name()
                ))),
                None => self.missing_features = Some(self.missing_enum(fqn)),
            }
        }
    }

    /// The declaration `fqn` in the union's unit, else in the first other unit declaring it.
    fn lookup_anywhere(&self, fqn: &str) -> Option<&'s Decl> {
        std::iter::once(self.schema)
            .chain(self.others.iter().copied())
            .find_map(|unit| unit.lookup(fqn).map(|id| unit.decl(id)))
    }

    /// The error for a feature enum no file of the build declares: which files were searched
    /// and the enums with a close or the same short name.
    fn missing_enum(&self, fqn: &str) -> MissingEnum {
        let units: Vec<&Schema> = std::iter::once(self.schema)
            .chain(self.others.iter().copied())
            .collect();
        let mut enums: Vec<String> = units
            .iter()
            .flat_map(|u| u.iter())
            .filter(|(_, d)| matches!(d.kind, DeclKind::Enum(_)))
            .map(|(_, d)| d.fqn())
            .collect();
        enums.sort();
        enums.dedup();
        let short = |n: &str| n.rsplit("::").next().unwrap_or(n).to_owned();
        let mut close: Vec<&str> = enums
            .iter()
            .filter(|e| short(e) == short(fqn))
            .map(String::as_str)
            .collect();
        if let Some(s) = closest(fqn, enums.iter().map(String::as_str)) {
            if !close.contains(&s) {
                close.push(s);
            }
        }
        let mut files: Vec<&str> = units.iter().map(|u| u.input.as_str()).collect();
        files.dedup();
        let mut d = Diagnostic::error_global(format!(
            "no schema of this build declares the enum `{fqn}` for the intent map's feature gates"
        ))
        .with_note(format!(
            "searched: {} (and every file they include)",
            files.join(", ")
        ));
        d = match close.as_slice() {
            [] => d.with_note(
                "give the schema file that declares it to the build (Builder::file), or fix                  IntentMapOptions::feature_enum",
            ),
            [one] => d.with_note(format!("did you mean `{one}`?")),
            many => d.with_note(format!(
                "did you mean one of: {}?",
                many.iter()
                    .map(|e| format!("`{e}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        MissingEnum(d)
    }

    fn member(&self, name: &str) -> Option<&'s UnionMember> {
        self.members?.iter().find(|m| m.name == name)
    }

    /// The member named by the string `node` (reporting unknown names).
    fn tag(&mut self, name: &str, node: &Node) -> Option<&'s UnionMember> {
        let members = self.members?;
        if let Some(m) = self.member(name) {
            return Some(m);
        }
        let suggestion = closest(name, members.iter().map(|m| m.name.as_str()));
        let label = format!("not a member of `{}`", self.union_name);
        let span = self.span(&node.span);
        let d = self.error(span, format!("unknown user intent \"{name}\""), label);
        if let Some(s) = suggestion {
            d.notes.push(format!("did you mean \"{s}\"?"));
        }
        None
    }

    fn payload(&self, m: &UnionMember) -> Payload<'s> {
        let schema = self.schema;
        match &m.ty {
            Type::Struct(id) => {
                let decl = schema.decl(*id);
                match &decl.kind {
                    DeclKind::Struct(s) => Payload {
                        decl: Some(decl),
                        fields: &s.fields,
                        name: decl.name.clone(),
                    },
                    _ => Payload {
                        decl: None,
                        fields: &[],
                        name: decl.name.clone(),
                    },
                }
            }
            ty => Payload {
                decl: None,
                fields: &[],
                name: schema.type_name(ty),
            },
        }
    }

    fn type_desc(&self, ty: &Type) -> String {
        match ty {
            Type::String { .. } => "string".to_owned(),
            ty => self.schema.type_name(ty),
        }
    }

    // ----- JSON types -------------------------------------------------------------------------

    fn type_error(&mut self, node: &Node, what: &str, expected: &str) {
        let span = self.span(&node.span);
        let kind = node.value.kind();
        self.error(
            span,
            format!("{what} must be {expected}, found {kind}"),
            format!("expected {expected}"),
        );
    }

    fn string<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n str> {
        match &node.value {
            Value::String(s) => Some(s),
            _ => {
                self.type_error(node, what, "a string");
                None
            }
        }
    }

    fn bool(&mut self, node: &Node, what: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(b),
            _ => {
                self.type_error(node, what, "a boolean");
                None
            }
        }
    }

    fn object<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Member]> {
        match &node.value {
            Value::Object(m) => Some(m),
            _ => {
                self.type_error(node, what, "an object");
                None
            }
        }
    }

    fn array<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Node]> {
        match &node.value {
            Value::Array(a) => Some(a),
            _ => {
                self.type_error(node, what, "an array");
                None
            }
        }
    }

    /// Reports keys of `members` not in `known`.
    fn unknown_keys(&mut self, members: &[Member], known: &[&str], place: &str) {
        for m in members {
            if known.contains(&m.key.as_str()) {
                continue;
            }
            let span = self.span(&m.key_span);
            let label = match closest(&m.key, known.iter().copied()) {
                Some(s) => format!("did you mean \"{s}\"?"),
                None => "unknown key".to_owned(),
            };
            let key = &m.key;
            let d = self.error(span, format!("unknown key \"{key}\" in {place}"), label);
            d.notes.push(format!("known keys: {}", known.join(", ")));
            if place.contains("user_intent_map entry")
                && (key == "simple_voice_responses" || key == "response")
            {
                d.notes.push(
                    "the original's developer-build key check tolerates this key here (a quirk), \
                     but ignores it"
                        .to_owned(),
                );
            }
        }
    }

    fn feature_gate<'n>(&mut self, node: &'n Node) -> Option<&'n str> {
        let name = self.string(node, "\"feature_gate\"")?;
        if let Some(d) = self.missing_features.take() {
            let span = self.span(&node.span);
            self.push(d.at(span, "a feature gate to check against it"));
        }
        if let Some((fqn, names)) = &self.features {
            if !names.contains(&name) {
                let suggestion = closest(name, names.iter().copied());
                let label = format!("not a member of `{fqn}`");
                let span = self.span(&node.span);
                let d = self.error(span, format!("unknown feature \"{name}\""), label);
                if let Some(s) = suggestion {
                    d.notes.push(format!("did you mean \"{s}\"?"));
                }
            }
        }
        Some(name)
    }

    /// Records an intent string of one namespace, reporting empty strings and duplicates.
    fn claim(&mut self, side: &str, intent: &str, node: &Node) -> bool {
        let span = self.span(&node.span);
        if intent.is_empty() {
            self.error(
                span,
                format!("empty {side} intent"),
                "an intent name is required",
            );
            return false;
        }
        let first = if side == "app" {
            self.app_seen.get(intent)
        } else {
            self.cloud_seen.get(intent)
        };
        if let Some(first) = first {
            let first = Span::new(self.file, first.clone());
            let d = self.error(
                span,
                format!("{side} intent \"{intent}\" is mapped twice"),
                "mapped again here",
            );
            d.secondary.push((first, "first mapped here".to_owned()));
            d.notes.push(if side == "app" {
                "an app intent may appear in one entry only".to_owned()
            } else {
                "a cloud intent may appear once across user_intent_map and simple_voice_responses"
                    .to_owned()
            });
            return false;
        }
        let seen = if side == "app" {
            &mut self.app_seen
        } else {
            &mut self.cloud_seen
        };
        seen.insert(intent.to_owned(), node.span.clone());
        true
    }

    // ----- the file -------------------------------------------------------------------------

    fn root(&mut self, root: &Node, options: &IntentMapOptions) -> Option<IntentMapModel> {
        let top = self.object(root, "the intent map")?;
        self.unknown_keys(top, TOP_KEYS, "the intent map");
        let get = |k: &str| top.iter().find(|m| m.key == k);

        let is_test = match get("is_test") {
            Some(m) => self.bool(&m.value, "\"is_test\"").unwrap_or(false),
            None => false,
        };

        let unmatched = match get("unmatched_intent") {
            None if misspelled(top, TOP_KEYS, "unmatched_intent") => None,
            None => {
                let span = self.start(root);
                let d = self.error(
                    span,
                    "the intent map has no \"unmatched_intent\"",
                    "this object needs an \"unmatched_intent\" key",
                );
                d.notes
                    .push("add \"unmatched_intent\": \"unmatched_intent\"".to_owned());
                None
            }
            Some(m) => self.unmatched(&m.value),
        };

        // Sections in file order, so a duplicate cloud intent is reported at its later
        // occurrence wherever it is.
        let mut cloud = Vec::new();
        let mut app = Vec::new();
        let mut mapped = Vec::new();
        let mut simple = Vec::new();
        let map_section = get("user_intent_map");
        let simple_section = get("simple_voice_responses");
        for m in top {
            if map_section.is_some_and(|s| std::ptr::eq(s, m)) {
                let Some(entries) = self.array(&m.value, "\"user_intent_map\"") else {
                    continue;
                };
                if entries.is_empty() {
                    let span = self.span(&m.value.span);
                    self.error(
                        span,
                        "\"user_intent_map\" is empty",
                        "at least one entry is required",
                    );
                }
                for e in entries {
                    self.entry(e, &mut cloud, &mut app, &mut mapped);
                }
            } else if simple_section.is_some_and(|s| std::ptr::eq(s, m)) {
                let Some(entries) = self.array(&m.value, "\"simple_voice_responses\"") else {
                    continue;
                };
                if entries.is_empty() {
                    continue;
                }
                let Some(shape) = self.simple_shape(m) else {
                    continue;
                };
                for e in entries {
                    if let Some(s) = self.simple_voice(e, &shape) {
                        simple.push(s);
                    }
                }
            }
        }
        if map_section.is_none() && !misspelled(top, TOP_KEYS, "user_intent_map") {
            let span = self.start(root);
            self.error(
                span,
                "the intent map has no \"user_intent_map\"",
                "this object needs a \"user_intent_map\" array",
            );
        }

        if options.warn_unmapped && !is_test {
            let mut named = mapped.clone();
            // Simple voice responses name their member.
            if let (Some(m), false) = (self.member(SIMPLE_VOICE_TAG), simple.is_empty()) {
                named.push(tag_ref(m));
            }
            self.lint_unmapped(&named, unmatched.map(|u| u.name.as_str()));
        }

        let unmatched = unmatched?;
        cloud.sort_by(|a: &IntentEntry, b| a.intent.cmp(&b.intent));
        app.sort_by(|a: &IntentEntry, b| a.intent.cmp(&b.intent));
        simple.sort_by(|a: &SimpleVoiceEntry, b| a.cloud_intent.cmp(&b.cloud_intent));
        mapped.sort_by_key(|t: &TagRef| t.value);
        mapped.dedup();
        Some(IntentMapModel {
            union: options.union.clone(),
            file: self.file_name.clone(),
            static_name: options.static_ident(),
            runtime_path: options.runtime_path.clone(),
            cloud,
            app,
            simple_voice: simple,
            simple_voice_tag: self.member(SIMPLE_VOICE_TAG).map(tag_ref),
            unmatched: tag_ref(unmatched),
            mapped,
            is_test,
        })
    }

    fn unmatched(&mut self, node: &Node) -> Option<&'s UnionMember> {
        let name = self.string(node, "\"unmatched_intent\"")?;
        let m = self.tag(name, node)?;
        let payload = self.payload(m);
        let data = payload.decl.is_none() || !payload.fields.is_empty();
        if data {
            let span = self.span(&node.span);
            let pname = payload.name.clone();
            let d = self.error(
                span,
                format!("the unmatched intent \"{name}\" carries data"),
                format!("its payload `{pname}` is not an empty structure"),
            );
            if let Some(decl) = payload.decl {
                d.secondary
                    .push((decl.span, format!("`{pname}` declared here")));
            }
            d.notes.push(
                "unmatched cloud and app intents have no parameters to fill it: use a member \
                 with an empty structure (the original's `unmatched_intent`)"
                    .to_owned(),
            );
            return None;
        }
        Some(m)
    }

    // ----- user_intent_map entries -------------------------------------------------------------

    fn entry(
        &mut self,
        node: &Node,
        cloud: &mut Vec<IntentEntry>,
        app: &mut Vec<IntentEntry>,
        mapped: &mut Vec<TagRef>,
    ) {
        let Some(members) = self.object(node, "a user_intent_map entry") else {
            return;
        };
        self.unknown_keys(members, ENTRY_KEYS, "a user_intent_map entry");
        let get = |k: &str| members.iter().find(|m| m.key == k);

        let member = match get("user_intent") {
            None if misspelled(members, ENTRY_KEYS, "user_intent") => None,
            None => {
                let span = self.start(node);
                self.error(
                    span,
                    "user_intent_map entry without \"user_intent\"",
                    "this entry needs a \"user_intent\"",
                );
                None
            }
            Some(m) => match self.string(&m.value, "\"user_intent\"") {
                Some(name) => self.tag(name, &m.value),
                None => None,
            },
        };
        if let (Some(member), Some(m)) = (member, get("user_intent")) {
            if member.name == SIMPLE_VOICE_TAG {
                let span = self.span(&m.value.span);
                let d = self.error(
                    span,
                    format!("\"{SIMPLE_VOICE_TAG}\" cannot be the user intent of a user_intent_map entry"),
                    "built from \"simple_voice_responses\" entries only",
                );
                d.notes.push(
                    "declare the cloud intent in \"simple_voice_responses\" with the animation \
                     group to play"
                        .to_owned(),
                );
            }
        }

        let mut sides = [
            Side {
                name: "cloud",
                intent: None,
                subs: get("cloud_substitutions"),
                numerics: get("cloud_numerics"),
            },
            Side {
                name: "app",
                intent: None,
                subs: get("app_substitutions"),
                numerics: get("app_numerics"),
            },
        ];
        for side in &mut sides {
            let key = format!("{}_intent", side.name);
            if let Some(m) = get(&key) {
                if let Some(s) = self.string(&m.value, &format!("\"{key}\"")) {
                    if self.claim(side.name, s, &m.value) {
                        side.intent = Some((s, &m.value));
                    }
                }
            }
        }

        let feature_gate = get("feature_gate").and_then(|m| self.feature_gate(&m.value));
        let test_parsing = match get("test_parsing") {
            Some(m) => self.bool(&m.value, "\"test_parsing\"").unwrap_or(true),
            None => true,
        };

        for side in &sides {
            let has_intent = get(&format!("{}_intent", side.name)).is_some();
            let steps = self.sanitation(side, has_intent, member);
            let (Some(member), Some((intent, _))) = (member, side.intent) else {
                continue;
            };
            let entry = IntentEntry {
                intent: intent.to_owned(),
                tag: tag_ref(member),
                sanitation: steps,
                feature_gate: feature_gate.map(str::to_owned),
                test_parsing,
            };
            if side.name == "app" {
                app.push(entry);
            } else {
                cloud.push(entry);
            }
        }
        if let Some(member) = member {
            mapped.push(tag_ref(member));
        }
    }
}

impl<'s> Validator<'s> {
    // ----- completeness -------------------------------------------------------------------

    fn lint_unmapped(&mut self, mapped: &[TagRef], unmatched: Option<&str>) {
        let Some(members) = self.members else {
            return;
        };
        let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        let required = members::must_appear_in_map(&names);
        let which = if required.len() < names.len() {
            format!("declared above {}", members::TEST_SEPARATOR)
        } else {
            format!(
                "of a union without {} (which ends the members the map must name)",
                members::TEST_SEPARATOR
            )
        };
        for m in &members[..required.len()] {
            let exempt = Some(m.name.as_str()) == unmatched || members::is_test_only(&m.name);
            if exempt || mapped.iter().any(|t| t.name == m.name) {
                continue;
            }
            let file = self.file_name.clone();
            let label = if m.name == SIMPLE_VOICE_TAG {
                format!("no simple voice response of {file} produces this member")
            } else {
                format!("no entry of {file} names this member")
            };
            self.push(
                Diagnostic::warning(m.span, format!("user intent \"{}\" is not mapped", m.name))
                    .with_label(label)
                    .with_note(format!(
                        "the original requires every user intent {which} in the map (as an \
                         entry, gated or not); the unmatched intent and test-only members \
                         ({}*) are exempt, and \"is_test\": true turns this check off",
                        members::TEST_PREFIX
                    )),
            );
        }
    }
}

/// True when an unknown key of `members` looks like a typo of `key` (already reported as
/// such, so a "missing key" error would only repeat it).
fn misspelled(members: &[Member], known: &[&str], key: &str) -> bool {
    members.iter().any(|m| {
        !known.contains(&m.key.as_str()) && closest(&m.key, known.iter().copied()) == Some(key)
    })
}

fn tag_ref(m: &UnionMember) -> TagRef {
    TagRef {
        name: m.name.clone(),
        value: m.tag,
    }
}

/// A diagnostic waiting for its place (see [`Validator::missing_features`]).
struct MissingEnum(Diagnostic);

impl MissingEnum {
    /// The diagnostic at `span` with `label`.
    fn at(self, span: Span, label: &str) -> Diagnostic {
        let MissingEnum(mut d) = self;
        d.span = Some(span);
        d.with_label(label)
    }
}

impl From<MissingEnum> for Diagnostic {
    fn from(MissingEnum(d): MissingEnum) -> Self {
        d
    }
}

/// "a" or "an" for a word.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
