//! The checks of an HRI map against the union and the runtime's ROS4HRI vocabulary: every
//! problem found, each at its key or value.

use crate::intent_map::TagRef;
use crate::json::{Member, Node, Value};
use clad_codegen::ir::{Decl, DeclKind, Field, Schema, Type, UnionMember};
use clad_codegen::source::{FileId, Span};
use clad_codegen::Diagnostic;
use robot_runtime::hri::{IntentKind, Role, RoleSpec, Route};
use robot_runtime::suggest::closest;
use std::ops::Range;

use super::{HriEntry, ENTRY_KEYS, TOP_KEYS};

pub(super) struct Checker<'s> {
    pub(super) schema: &'s Schema,
    pub(super) file: FileId,
    pub(super) union: String,
    pub(super) members: Option<&'s [UnionMember]>,
    /// `(enum fqn, member names)` of the feature enum, when configured and found.
    pub(super) features: Option<(String, Vec<&'s str>)>,
    pub(super) diags: Vec<Diagnostic>,
}

/// What the map knows about an intent: its wire value and its roles (the runtime's table).
struct IntentInfo {
    pub(super) wire: String,
    pub(super) roles: RoleSpec,
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
    pub(super) fn span(&self, r: &Range<usize>) -> Span {
        Span::new(self.file, r.clone())
    }

    fn error(&mut self, r: &Range<usize>, message: impl Into<String>, label: impl Into<String>) {
        let d = Diagnostic::error(self.span(r), message).with_label(label);
        self.diags.push(d);
    }

    pub(super) fn resolve(&mut self) {
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

    pub(super) fn resolve_features(&mut self, fqn: &str) {
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

    pub(super) fn root(&mut self, root: &Node) -> Option<Vec<HriEntry>> {
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
