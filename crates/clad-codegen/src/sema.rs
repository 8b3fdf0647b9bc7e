//! Semantic analysis: syntax tree to [`Schema`] (spec §3).
//!
//! Names are resolved in textual order, as the original does at parse time (so there are no
//! forward references). Then the post-processing steps run in the reference order (§3.10):
//! enum values, autounion expansion + `dupes_allowed` flags + union tags, enum concepts,
//! per-declaration hashes, ambiguity marking; and finally the file hash. Verbatim
//! expressions (fixed-array lengths, defaults, concept values) are evaluated once enum values
//! are known. Size metrics are computed before hashing because union alignment is hashed.

use crate::ast::{self, ConstKind, MemberShape, TypeExpr};
use crate::consteval;
use crate::diagnostics::Diagnostic;
use crate::hash::{md5_hex, Mode, Serializer};
use crate::ir::*;
use crate::metrics;
use crate::source::{SourceDb, Span};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug)]
enum Symbol {
    Namespace(usize),
    Type(DeclId),
}

struct NsNode {
    parent: Option<usize>,
    children: HashMap<String, Symbol>,
}

/// A verbatim expression to evaluate once enum values are known.
enum Fixup {
    ArrayLength { decl: DeclId, field: usize },
    Default { decl: DeclId, field: usize },
}

struct ConceptSource {
    decl: DeclId,
    enum_name: ast::Ident,
    members: Vec<(ast::Ident, ast::Const)>,
}

struct Sema<'a> {
    diags: &'a mut Vec<Diagnostic>,
    decls: Vec<Decl>,
    /// Namespace node of each declaration.
    decl_ns: Vec<usize>,
    ns: Vec<NsNode>,
    cur_ns: usize,
    ns_path: Vec<String>,
    include_depth: usize,
    fixups: Vec<(Fixup, Span)>,
    concepts: Vec<ConceptSource>,
    /// Spans of written union member tags/names, for tag errors.
    name_spans: HashMap<DeclId, Span>,
}

/// Runs every semantic step. Returns the schema when no error was found.
pub(crate) fn analyze(
    items: &[ast::Item],
    sources: SourceDb,
    diags: &mut Vec<Diagnostic>,
) -> Option<Schema> {
    let mut s = Sema {
        diags,
        decls: Vec::new(),
        decl_ns: Vec::new(),
        ns: vec![NsNode {
            parent: None,
            children: HashMap::new(),
        }],
        cur_ns: 0,
        ns_path: Vec::new(),
        include_depth: 0,
        fixups: Vec::new(),
        concepts: Vec::new(),
        name_spans: HashMap::new(),
    };
    let tree = s.items(items);
    s.assign_enum_values();
    s.run_fixups();
    s.expand_unions();
    s.check_concepts();
    s.compute_metrics();
    if s.diags.iter().any(Diagnostic::is_error) {
        return None;
    }
    let mut tree = tree;
    s.hash_declarations(&mut tree);
    s.mark_ambiguous();
    if s.diags.iter().any(Diagnostic::is_error) {
        return None;
    }
    let mut ser = Serializer::new(&s.decls, Mode::File);
    ser.root(&tree);
    let file_hash = md5_hex(&ser.finish());
    Some(Schema {
        input: String::new(),
        sources,
        decls: s.decls,
        items: tree,
        file_hash,
    })
}

fn fqn_of(path: &[String], name: &str) -> String {
    let mut s = path.join("::");
    if !s.is_empty() {
        s.push_str("::");
    }
    s.push_str(name);
    s
}

impl Sema<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    // ----- resolution ---------------------------------------------------------------------

    fn items(&mut self, items: &[ast::Item]) -> Vec<Item> {
        let mut out = Vec::new();
        for item in items {
            match item {
                ast::Item::Namespace { name, items, span } => {
                    out.extend(self.namespace(name, items, *span));
                }
                ast::Item::Include { path, items, span } => {
                    self.include_depth += 1;
                    let inner = self.items(items);
                    self.include_depth -= 1;
                    out.push(Item::Include(IncludeBlock {
                        path: path.clone(),
                        items: inner,
                        span: *span,
                    }));
                }
                ast::Item::Message(m) => out.extend(self.message(m).map(Item::Decl)),
                ast::Item::Enum(e) => out.extend(self.enum_decl(e).map(Item::Decl)),
                ast::Item::Union(u) => out.extend(self.union(u).map(Item::Decl)),
                ast::Item::EnumConcept(c) => out.extend(self.concept(c).map(Item::Decl)),
            }
        }
        out
    }

    fn namespace(&mut self, name: &ast::Ident, items: &[ast::Item], span: Span) -> Option<Item> {
        let parts: Vec<&str> = name.text.split("::").collect();
        if parts.len() > 1 {
            self.error(
                Diagnostic::error(
                    name.span,
                    format!("qualified namespace name `{}`", name.text),
                )
                .with_label("write nested namespace blocks instead")
                .with_note(format!(
                    "write `namespace {} {{ ... }}` inside the enclosing namespace",
                    parts.last().copied().unwrap_or_default()
                )),
            );
            return None;
        }
        let saved = self.cur_ns;
        let node = match self.ns[self.cur_ns].children.get(&name.text).copied() {
            Some(Symbol::Namespace(id)) => id,
            Some(Symbol::Type(existing)) => {
                let prev = self.decls[existing.0 as usize].span;
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!(
                            "namespace `{}` has the name of an existing type",
                            fqn_of(&self.ns_path, &name.text)
                        ),
                    )
                    .with_label("already declared as a type")
                    .with_secondary(prev, "type declared here"),
                );
                return None;
            }
            None => {
                self.ns.push(NsNode {
                    parent: Some(self.cur_ns),
                    children: HashMap::new(),
                });
                let id = self.ns.len() - 1;
                self.ns[self.cur_ns]
                    .children
                    .insert(name.text.clone(), Symbol::Namespace(id));
                id
            }
        };
        self.cur_ns = node;
        self.ns_path.push(name.text.clone());
        let inner = self.items(items);
        let path = self.ns_path.clone();
        self.ns_path.pop();
        self.cur_ns = saved;
        Some(Item::Namespace(NamespaceBlock {
            name: name.text.clone(),
            path,
            items: inner,
            span,
            from_include: self.include_depth > 0,
            hash: None,
        }))
    }

    /// Looks up a possibly qualified name from namespace `scope`, innermost scope first.
    fn lookup_from(&self, scope: usize, name: &str) -> Option<Symbol> {
        let parts: Vec<&str> = name.split("::").collect();
        let mut start = Some(scope);
        while let Some(ns) = start {
            if let Some(sym) = self.walk(ns, &parts) {
                return Some(sym);
            }
            start = self.ns[ns].parent;
        }
        None
    }

    fn walk(&self, ns: usize, parts: &[&str]) -> Option<Symbol> {
        let mut cur = ns;
        for (i, part) in parts.iter().enumerate() {
            match self.ns[cur].children.get(*part)? {
                Symbol::Namespace(id) => cur = *id,
                Symbol::Type(t) => {
                    return (i == parts.len() - 1).then_some(Symbol::Type(*t));
                }
            }
        }
        Some(Symbol::Namespace(cur))
    }

    fn resolve_named(&mut self, ident: &ast::Ident) -> Option<Type> {
        match self.lookup_from(self.cur_ns, &ident.text) {
            Some(Symbol::Type(id)) => Some(match self.decls[id.0 as usize].kind {
                DeclKind::Enum(_) => Type::Enum(id),
                DeclKind::Struct(_) => Type::Struct(id),
                DeclKind::Union(_) => Type::Union(id),
                DeclKind::EnumConcept(_) => unreachable!("concepts are never registered"),
            }),
            Some(Symbol::Namespace(_)) => {
                self.error(
                    Diagnostic::error(
                        ident.span,
                        format!("`{}` is a namespace, not a type", ident.text),
                    )
                    .with_label("expected a type"),
                );
                None
            }
            None => {
                let mut d = Diagnostic::error(ident.span, format!("unknown type: {}", ident.text))
                    .with_label("not declared before this point");
                if let Some(later) = self.suggest(&ident.text) {
                    d = d.with_note(later);
                }
                self.error(d);
                None
            }
        }
    }

    fn suggest(&self, name: &str) -> Option<String> {
        let short = name.rsplit("::").next().unwrap_or(name);
        let found: Vec<String> = self
            .decls
            .iter()
            .filter(|d| d.name == short && !matches!(d.kind, DeclKind::EnumConcept(_)))
            .map(Decl::fqn)
            .collect();
        (!found.is_empty()).then(|| {
            format!(
                "a type with this name exists as `{}`; qualify the name or check the namespace",
                found.join("`, `")
            )
        })
    }

    fn length_type(&mut self, ty: &TypeExpr) -> Option<Builtin> {
        match ty {
            TypeExpr::Builtin(b @ (Builtin::Uint8 | Builtin::Uint16 | Builtin::Uint32), _) => {
                Some(*b)
            }
            other => {
                let shown = match other {
                    TypeExpr::Builtin(b, _) => b.name().to_owned(),
                    TypeExpr::String { .. } => "string".to_owned(),
                    TypeExpr::Named(i) => i.text.clone(),
                };
                self.error(
                    Diagnostic::error(
                        other.span(),
                        format!("{shown} is not a valid string length type"),
                    )
                    .with_label("expected uint_8, uint_16 or uint_32"),
                );
                None
            }
        }
    }

    fn resolve_type(&mut self, ty: &TypeExpr) -> Option<Type> {
        match ty {
            TypeExpr::Builtin(b, _) => Some(Type::Builtin(*b)),
            TypeExpr::Named(i) => self.resolve_named(i),
            TypeExpr::String { length, max, .. } => {
                let length = match length {
                    Some(l) => self.length_type(l)?,
                    None => Builtin::Uint8,
                };
                let lmax = length.max().unwrap_or(0) as u64;
                let (max, declared) = match max {
                    Some(c) => match self.max_length(c, u64::MAX) {
                        Some(v) => (v, true),
                        None => {
                            self.error(
                                Diagnostic::error(
                                    c.span,
                                    "the maximum length of a string cannot be negative",
                                )
                                .with_label("expected a length of 0 or more"),
                            );
                            return None;
                        }
                    },
                    None => (lmax, false),
                };
                Some(Type::String {
                    length,
                    max,
                    max_declared: declared,
                })
            }
        }
    }

    fn max_length(&mut self, c: &ast::Const, limit: u64) -> Option<u64> {
        match c.kind {
            ConstKind::Int { value, .. } if value >= 0 && value <= i128::from(limit) => {
                Some(value as u64)
            }
            _ => None,
        }
    }

    fn member_type(&mut self, m: &ast::Member, owner: &str) -> Option<Type> {
        let elem = self.resolve_type(&m.ty);
        match &m.shape {
            MemberShape::Scalar => elem,
            MemberShape::VarArray { length, max } => {
                let (len_ty, len_span) = *length;
                let name = &m.name.text;
                if len_ty == Builtin::Bool {
                    self.error(
                        Diagnostic::error(
                            len_span,
                            format!("{owner}.{name} is a variable-length array with a bool length, which isn't supported"),
                        )
                        .with_label("use uint_8, uint_16, uint_32 or uint_64"),
                    );
                    return None;
                }
                if !len_ty.is_unsigned() {
                    self.error(
                        Diagnostic::error(
                            len_span,
                            format!(
                                "{owner}.{name} uses a signed datatype for the length field ({}); you must use an unsigned type",
                                len_ty.name()
                            ),
                        )
                        .with_label("signed length type"),
                    );
                    return None;
                }
                let lmax = len_ty.max().unwrap_or(0) as u64;
                let (max, declared) = match max {
                    Some(c) => match self.max_length(c, lmax) {
                        Some(v) => (v, true),
                        None => {
                            self.error(
                                Diagnostic::error(
                                    c.span,
                                    format!(
                                        "{owner}.{name} specifies a max length that is not within the range of the length field ({})",
                                        len_ty.name()
                                    ),
                                )
                                .with_label(format!("must be between 0 and {lmax}")),
                            );
                            return None;
                        }
                    },
                    None => (lmax, false),
                };
                Some(Type::VarArray {
                    elem: Box::new(elem?),
                    length: len_ty,
                    max,
                    max_declared: declared,
                })
            }
            MemberShape::FixedArray { length } => {
                let len = match &length.kind {
                    ConstKind::Int { value, .. } => {
                        if *value < 0 {
                            self.error(
                                Diagnostic::error(
                                    length.span,
                                    format!("array index must be positive, got {value}"),
                                )
                                .with_label("negative array length"),
                            );
                            return None;
                        }
                        match u64::try_from(*value) {
                            Ok(v) => FixedLen::Literal(v),
                            Err(_) => {
                                self.error(
                                    Diagnostic::error(length.span, "array length is too large")
                                        .with_label("does not fit in 64 bits"),
                                );
                                return None;
                            }
                        }
                    }
                    ConstKind::Verbatim(text) => FixedLen::Verbatim {
                        text: text.clone(),
                        value: 0,
                    },
                    ConstKind::Float(_) => return None,
                };
                Some(Type::FixedArray {
                    elem: Box::new(elem?),
                    len,
                })
            }
        }
    }

    /// Registers a type name in the current namespace; reports `already exists`.
    fn register(&mut self, decl: Decl, register: bool) -> DeclId {
        let id = DeclId(self.decls.len() as u32);
        if register {
            match self.ns[self.cur_ns].children.get(&decl.name).copied() {
                Some(existing) => {
                    let prev = match existing {
                        Symbol::Type(t) => Some(self.decls[t.0 as usize].span),
                        Symbol::Namespace(_) => None,
                    };
                    let mut d = Diagnostic::error(
                        decl.span,
                        format!("name '{}' already exists", decl.fqn()),
                    )
                    .with_label("declared again here");
                    if let Some(prev) = prev {
                        d = d.with_secondary(prev, "first declared here");
                    } else {
                        d = d.with_note("a namespace with this name exists");
                    }
                    self.error(d);
                }
                None => {
                    self.ns[self.cur_ns]
                        .children
                        .insert(decl.name.clone(), Symbol::Type(id));
                }
            }
        }
        self.decls.push(decl);
        self.decl_ns.push(self.cur_ns);
        id
    }

    fn new_decl(
        &self,
        name: &ast::Ident,
        kind: DeclKind,
        docs: &Option<String>,
        span: Span,
    ) -> Decl {
        Decl {
            name: name.text.clone(),
            namespace: self.ns_path.clone(),
            kind,
            docs: docs.clone(),
            span,
            from_include: self.include_depth > 0,
            hash: None,
            possibly_ambiguous: false,
        }
    }

    fn check_duplicate_members<'m>(
        &mut self,
        kind: &str,
        owner: &str,
        names: impl Iterator<Item = &'m ast::Ident>,
    ) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for n in names {
            if let Some(prev) = seen.get(n.text.as_str()) {
                let prev = *prev;
                self.error(
                    Diagnostic::error(
                        n.span,
                        format!("{kind} '{owner}' has duplicate member {}", n.text),
                    )
                    .with_label("duplicate name")
                    .with_secondary(prev, "first used here"),
                );
            } else {
                seen.insert(&n.text, n.span);
            }
        }
    }

    fn message(&mut self, m: &ast::Message) -> Option<DeclId> {
        let fqn = fqn_of(&self.ns_path, &m.name.text);
        let kind_word = if m.is_message { "message" } else { "structure" };
        self.check_duplicate_members(kind_word, &fqn, m.members.iter().map(|x| &x.name));
        let mut fields = Vec::new();
        let mut pending = Vec::new();
        for member in &m.members {
            let Some(ty) = self.member_type(member, &fqn) else {
                continue;
            };
            let default = match &member.init {
                None => None,
                Some(c) => match self.default_value(&ty, c) {
                    Some(d) => {
                        if matches!(c.kind, ConstKind::Verbatim(_)) {
                            pending.push((fields.len(), c.span, true));
                        }
                        Some(d)
                    }
                    None => continue,
                },
            };
            if matches!(
                ty,
                Type::FixedArray {
                    len: FixedLen::Verbatim { .. },
                    ..
                }
            ) {
                pending.push((fields.len(), member.span, false));
            }
            fields.push(Field {
                name: member.name.text.clone(),
                ty,
                default,
                docs: member.docs.clone(),
                span: member.span,
            });
        }
        let decl = self.new_decl(
            &m.name,
            DeclKind::Struct(Struct {
                is_message: m.is_message,
                no_default_constructor: m.no_default_constructor,
                fields,
                metrics: metrics::of_struct(&[]),
            }),
            &m.docs,
            m.span,
        );
        let id = self.register(decl, true);
        for (field, span, is_default) in pending {
            let fixup = if is_default {
                Fixup::Default { decl: id, field }
            } else {
                Fixup::ArrayLength { decl: id, field }
            };
            self.fixups.push((fixup, span));
        }
        Some(id)
    }

    /// Default-value checks of spec §3.3, in the original's order.
    fn default_value(&mut self, ty: &Type, c: &ast::Const) -> Option<Constant> {
        let literal = match &c.kind {
            ConstKind::Int { value, hex } => Literal::Int {
                value: *value,
                hex: *hex,
            },
            ConstKind::Float(f) => Literal::Float(*f),
            ConstKind::Verbatim(s) => Literal::Verbatim(s.clone()),
        };
        if let ConstKind::Verbatim(_) = c.kind {
            // Evaluated later, once enum values are known.
            return Some(Constant {
                literal,
                value: ConstValue::Int(0),
                span: c.span,
            });
        }
        let shown = match &c.kind {
            ConstKind::Int { value, .. } => value.to_string(),
            ConstKind::Float(f) => crate::hash::py_float_repr(*f),
            ConstKind::Verbatim(s) => s.clone(),
        };
        let Type::Builtin(b) = ty else {
            let tn = self.type_name(ty);
            self.error(
                Diagnostic::error(c.span, format!("{tn} is not a built in data type"))
                    .with_label("only builtin members take a literal default")
                    .with_note("use a verbatim default, e.g. `= verbatim Enum::member` or `= verbatim \"text\"`"),
            );
            return None;
        };
        let value = match (b, &c.kind) {
            (Builtin::Bool, _) => {
                let v = match c.kind {
                    ConstKind::Int { value, .. } => value as f64,
                    ConstKind::Float(f) => f,
                    ConstKind::Verbatim(_) => unreachable!(),
                };
                if v != 0.0 && v != 1.0 {
                    self.error(
                        Diagnostic::error(c.span, "bool initializer value must be 0 or 1")
                            .with_label(format!("got {shown}")),
                    );
                    return None;
                }
                ConstValue::Bool(v == 1.0)
            }
            (b, ConstKind::Float(_)) if !b.is_float() => {
                self.error(
                    Diagnostic::error(
                        c.span,
                        format!("{} is an int type, but {shown} is not", b.name()),
                    )
                    .with_label("expected an integer"),
                );
                return None;
            }
            (b, ConstKind::Int { .. }) if b.is_float() => {
                self.error(
                    Diagnostic::error(
                        c.span,
                        format!("{} is a float type, but {shown} is not", b.name()),
                    )
                    .with_label(format!("write {shown}.0")),
                );
                return None;
            }
            (_, ConstKind::Float(f)) => ConstValue::Float(*f),
            (b, ConstKind::Int { value, .. }) => {
                let (min, max) = (b.min().unwrap_or(0), b.max().unwrap_or(0));
                if *value < min {
                    self.error(
                        Diagnostic::error(
                            c.span,
                            format!(
                                "{value} is smaller than the minimum value ({min}) for type {}",
                                b.name()
                            ),
                        )
                        .with_label("out of range"),
                    );
                    return None;
                }
                if *value > max {
                    self.error(
                        Diagnostic::error(
                            c.span,
                            format!(
                                "{value} is larger than the maximum value ({max}) for type {}",
                                b.name()
                            ),
                        )
                        .with_label("out of range"),
                    );
                    return None;
                }
                ConstValue::Int(*value)
            }
            (_, ConstKind::Verbatim(_)) => unreachable!(),
        };
        Some(Constant {
            literal,
            value,
            span: c.span,
        })
    }

    fn type_name(&self, ty: &Type) -> String {
        type_name(&self.decls, ty)
    }

    fn enum_decl(&mut self, e: &ast::Enum) -> Option<DeclId> {
        let fqn = fqn_of(&self.ns_path, &e.name.text);
        let (storage, storage_span) = e.storage;
        if storage.is_float() {
            self.error(
                Diagnostic::error(
                    storage_span,
                    format!("enum '{fqn}' has a floating-point storage type"),
                )
                .with_label("enums need an integer storage type")
                .with_note("the original compiler crashes on float enums"),
            );
        }
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for m in &e.members {
            if let Some(prev) = seen.insert(&m.name.text, m.name.span) {
                self.error(
                    Diagnostic::error(
                        m.name.span,
                        format!("enum '{fqn}' has duplicate member {}", m.name.text),
                    )
                    .with_label("duplicate name")
                    .with_secondary(prev, "first declared here")
                    .with_note(
                        "the original compiler accepts this, but no generated code compiles",
                    ),
                );
            }
        }
        let members = e
            .members
            .iter()
            .map(|m| EnumMember {
                name: m.name.text.clone(),
                initializer: m.init.as_ref().map(|c| match &c.kind {
                    ConstKind::Int { value, hex } => Literal::Int {
                        value: *value,
                        hex: *hex,
                    },
                    ConstKind::Float(f) => Literal::Float(*f),
                    ConstKind::Verbatim(s) => Literal::Verbatim(s.clone()),
                }),
                value: 0,
                display: EnumValueText::Int(0),
                is_duplicate: false,
                docs: m.docs.clone(),
                span: m
                    .name
                    .span
                    .to(m.init.as_ref().map_or(m.name.span, |c| c.span)),
            })
            .collect();
        let decl = self.new_decl(
            &e.name,
            DeclKind::Enum(Enum {
                storage,
                no_cpp_class: e.no_cpp_class,
                members,
            }),
            &e.docs,
            e.span,
        );
        Some(self.register(decl, true))
    }

    fn union(&mut self, u: &ast::Union) -> Option<DeclId> {
        let fqn = fqn_of(&self.ns_path, &u.name.text);
        self.check_duplicate_members("union", &fqn, u.members.iter().map(|x| &x.name));
        if u.members.is_empty() && (!u.autounion || u.dupes_allowed) {
            self.error(
                Diagnostic::error(u.name.span, format!("union '{fqn}' has no members"))
                    .with_label("empty union")
                    .with_note("the original compiler crashes on an empty union (only a plain `autounion` may have an empty body)"),
            );
        }
        let mut members = Vec::new();
        for m in &u.members {
            let Some(ty) = self.member_type(m, &fqn) else {
                continue;
            };
            let explicit_tag = m.init.as_ref().map(|c| match c.kind {
                ConstKind::Int { value, hex } => Literal::Int { value, hex },
                _ => Literal::Int {
                    value: 0,
                    hex: false,
                },
            });
            members.push(UnionMember {
                name: m.name.text.clone(),
                ty,
                tag: 0,
                explicit_tag,
                automatic: false,
                has_duplicates: false,
                docs: m.docs.clone(),
                span: m.span,
            });
        }
        let decl = self.new_decl(
            &u.name,
            DeclKind::Union(Union {
                autounion: u.autounion,
                dupes_allowed: u.dupes_allowed,
                members,
                metrics: metrics::of_union(&[]),
            }),
            &u.docs,
            u.span,
        );
        let id = self.register(decl, true);
        self.name_spans.insert(id, u.name.span);
        Some(id)
    }

    fn concept(&mut self, c: &ast::EnumConcept) -> Option<DeclId> {
        let return_type = self.resolve_type(&c.return_type)?;
        let decl = self.new_decl(
            &c.name,
            DeclKind::EnumConcept(EnumConcept {
                return_type,
                enum_name_written: c.enum_name.text.clone(),
                enum_decl: DeclId(u32::MAX),
                members: Vec::new(),
            }),
            &c.docs,
            c.span,
        );
        let id = self.register(decl, false);
        self.concepts.push(ConceptSource {
            decl: id,
            enum_name: c.enum_name.clone(),
            members: c.members.clone(),
        });
        Some(id)
    }

    // ----- post-processing ----------------------------------------------------------------

    /// Resolves a name inside a verbatim expression to an enum member value.
    fn enum_member_value(
        &self,
        scope: usize,
        name: &str,
        current: Option<(DeclId, usize)>,
    ) -> Result<i128, String> {
        let value_of = |id: DeclId, member: &str, limit: Option<usize>| -> Option<i128> {
            let DeclKind::Enum(e) = &self.decls[id.0 as usize].kind else {
                return None;
            };
            let n = limit.unwrap_or(e.members.len());
            e.members[..n]
                .iter()
                .find(|m| m.name == member)
                .map(|m| m.value)
        };
        let assigned_limit = |id: DeclId| match current {
            Some((cur, upto)) if cur == id => Some(upto),
            Some((cur, _)) if id.0 > cur.0 => Some(0),
            _ => None,
        };
        match name.rsplit_once("::") {
            None => {
                if let Some((cur, upto)) = current {
                    if let Some(v) = value_of(cur, name, Some(upto)) {
                        return Ok(v);
                    }
                }
                // Members of plain (`no_cpp_class`) enums are visible in their namespace.
                let mut ns = Some(scope);
                while let Some(n) = ns {
                    if let Some(v) = self.plain_enum_member(n, name, &assigned_limit) {
                        return Ok(v);
                    }
                    ns = self.ns[n].parent;
                }
                Err(format!("unknown name `{name}`"))
            }
            Some((prefix, member)) => match self.lookup_from(scope, prefix) {
                Some(Symbol::Type(id)) => {
                    if !matches!(self.decls[id.0 as usize].kind, DeclKind::Enum(_)) {
                        return Err(format!("`{prefix}` is not an enum"));
                    }
                    if assigned_limit(id) == Some(0) {
                        return Err(format!(
                            "`{prefix}` is declared later; its values are not known here"
                        ));
                    }
                    value_of(id, member, assigned_limit(id))
                        .ok_or_else(|| format!("`{prefix}` has no member `{member}`"))
                }
                Some(Symbol::Namespace(ns)) => self
                    .plain_enum_member(ns, member, &assigned_limit)
                    .ok_or_else(|| format!("unknown name `{name}`")),
                None => Err(format!("unknown name `{name}`")),
            },
        }
    }

    fn plain_enum_member(
        &self,
        ns: usize,
        member: &str,
        limit: &dyn Fn(DeclId) -> Option<usize>,
    ) -> Option<i128> {
        let mut ids: Vec<DeclId> = self.ns[ns]
            .children
            .values()
            .filter_map(|s| match s {
                Symbol::Type(id) => Some(*id),
                Symbol::Namespace(_) => None,
            })
            .collect();
        ids.sort();
        ids.into_iter()
            .find_map(|id| match &self.decls[id.0 as usize].kind {
                DeclKind::Enum(e) if e.no_cpp_class => {
                    let n = limit(id).unwrap_or(e.members.len());
                    e.members[..n]
                        .iter()
                        .find(|m| m.name == member)
                        .map(|m| m.value)
                }
                _ => None,
            })
    }

    /// Spec §3.4, including the original's hex/verbatim text rendering and duplicate keys.
    fn assign_enum_values(&mut self) {
        #[derive(PartialEq, Eq, Hash)]
        enum Key {
            Int(i128),
            Text(String),
        }
        for idx in 0..self.decls.len() {
            let id = DeclId(idx as u32);
            let DeclKind::Enum(e) = &self.decls[idx].kind else {
                continue;
            };
            let storage = e.storage;
            let count = e.members.len();
            let fqn = self.decls[idx].fqn();
            let scope = self.decl_ns[idx];
            let (min, max) = (storage.min().unwrap_or(0), storage.max().unwrap_or(0));
            let mut counter: i128 = 0;
            let mut base: Option<(String, i128)> = None;
            let mut seen: HashSet<Key> = HashSet::new();
            for i in 0..count {
                let (init, span, mname) = {
                    let DeclKind::Enum(e) = &self.decls[idx].kind else {
                        unreachable!()
                    };
                    (
                        e.members[i].initializer.clone(),
                        e.members[i].span,
                        e.members[i].name.clone(),
                    )
                };
                let mut dup_key = None;
                match &init {
                    Some(Literal::Int { value, hex: false }) => {
                        base = None;
                        counter = *value;
                    }
                    Some(Literal::Int { value, hex: true }) => {
                        base = Some((format!("{value:#x}"), *value));
                        counter = 0;
                        dup_key = Some(Key::Int(*value));
                    }
                    Some(Literal::Verbatim(text)) => {
                        let r = consteval::eval(text, &mut |n| {
                            self.enum_member_value(scope, n, Some((id, i)))
                        });
                        let v = match r {
                            Ok(ConstValue::Int(v)) => v,
                            Ok(ConstValue::Bool(b)) => i128::from(b),
                            Ok(other) => {
                                self.error(
                                    Diagnostic::error(
                                        span,
                                        format!("enum value of '{fqn}::{mname}' is not an integer"),
                                    )
                                    .with_label(format!("evaluates to {}", show_value(&other))),
                                );
                                0
                            }
                            Err(why) => {
                                self.error(
                                    Diagnostic::error(span, format!("cannot evaluate the verbatim value of '{fqn}::{mname}'"))
                                        .with_label(why)
                                        .with_note("verbatim enum values may use integer literals, + - * / % << >> & | ^ ~, parentheses, and members of enums declared earlier"),
                                );
                                0
                            }
                        };
                        base = Some((text.clone(), v));
                        counter = 0;
                    }
                    Some(Literal::Float(_)) | None => {}
                }
                let counter_out_of_range = counter < min || counter > max;
                if counter_out_of_range && !storage.is_float() {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "enum '{fqn}' has a value '{mname}' outside the range of '{}'",
                                storage.name()
                            ),
                        )
                        .with_label(format!("value {counter} does not fit {}", storage.name())),
                    );
                }
                let (display, value) = match &base {
                    Some((text, v)) => {
                        let t = if counter != 0 {
                            format!("{text} + {counter}")
                        } else {
                            text.clone()
                        };
                        (EnumValueText::Text(t), v.saturating_add(counter))
                    }
                    None => (EnumValueText::Int(counter), counter),
                };
                if base.is_some()
                    && (value < min || value > max)
                    && !storage.is_float()
                    && !counter_out_of_range
                {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "enum member '{fqn}::{mname}' has the value {value}, which does not fit its storage type {}",
                                storage.name()
                            ),
                        )
                        .with_label("out of range")
                        .with_note("the original compiler does not check values given in hex or verbatim form; the generated code would not compile"),
                    );
                }
                let key = dup_key.unwrap_or(match &display {
                    EnumValueText::Int(v) => Key::Int(*v),
                    EnumValueText::Text(t) => Key::Text(t.clone()),
                });
                let is_duplicate = !seen.insert(key);
                let DeclKind::Enum(e) = &mut self.decls[idx].kind else {
                    unreachable!()
                };
                let m = &mut e.members[i];
                m.value = value;
                m.display = display;
                m.is_duplicate = is_duplicate;
                // Saturating: a literal near i128::MAX was already reported as out of range.
                counter = counter.saturating_add(1);
            }
        }
    }

    fn run_fixups(&mut self) {
        let fixups = std::mem::take(&mut self.fixups);
        for (fixup, span) in fixups {
            let (decl, field) = match fixup {
                Fixup::ArrayLength { decl, field } | Fixup::Default { decl, field } => {
                    (decl, field)
                }
            };
            let scope = self.decl_ns[decl.0 as usize];
            let DeclKind::Struct(s) = &self.decls[decl.0 as usize].kind else {
                continue;
            };
            let f = &s.fields[field];
            match fixup {
                Fixup::ArrayLength { .. } => {
                    let Type::FixedArray {
                        len: FixedLen::Verbatim { text, .. },
                        ..
                    } = &f.ty
                    else {
                        continue;
                    };
                    let text = text.clone();
                    let r = consteval::eval(&text, &mut |n| self.enum_member_value(scope, n, None));
                    let value = match r {
                        Ok(v) => match v {
                            ConstValue::Int(i) if i >= 0 && i <= i128::from(u32::MAX) => {
                                Some(i as u64)
                            }
                            other => {
                                self.error(
                                    Diagnostic::error(
                                        span,
                                        format!(
                                            "verbatim array length `{}` is not a usable length",
                                            text.trim()
                                        ),
                                    )
                                    .with_label(format!(
                                        "evaluates to {}; a length must be between 0 and {}",
                                        show_value(&other),
                                        u32::MAX
                                    )),
                                );
                                None
                            }
                        },
                        Err(why) => {
                            self.error(
                                Diagnostic::error(span, format!("cannot evaluate the verbatim array length `{}`", text.trim()))
                                    .with_label(why)
                                    .with_note("verbatim lengths may use integer literals, arithmetic and enum members declared earlier"),
                            );
                            None
                        }
                    };
                    if let Some(value) = value {
                        if let DeclKind::Struct(s) = &mut self.decls[decl.0 as usize].kind {
                            if let Type::FixedArray {
                                len: FixedLen::Verbatim { value: v, .. },
                                ..
                            } = &mut s.fields[field].ty
                            {
                                *v = value;
                            }
                        }
                    }
                }
                Fixup::Default { .. } => {
                    let Some(Constant {
                        literal: Literal::Verbatim(text),
                        ..
                    }) = &f.default
                    else {
                        continue;
                    };
                    let (text, ty, fname) = (text.clone(), f.ty.clone(), f.name.clone());
                    let r = consteval::eval(&text, &mut |n| self.enum_member_value(scope, n, None));
                    let checked = r.and_then(|v| self.check_default_type(&ty, v));
                    match checked {
                        Ok(v) => {
                            if let DeclKind::Struct(s) = &mut self.decls[decl.0 as usize].kind {
                                if let Some(d) = &mut s.fields[field].default {
                                    d.value = v;
                                }
                            }
                        }
                        Err(why) => self.error(
                            Diagnostic::error(
                                span,
                                format!("cannot use the verbatim default of '{fname}'"),
                            )
                            .with_label(why),
                        ),
                    }
                }
            }
        }
    }

    /// Checks an evaluated verbatim default against the member type.
    fn check_default_type(&self, ty: &Type, v: ConstValue) -> Result<ConstValue, String> {
        match (ty, v) {
            (Type::Builtin(Builtin::Bool), ConstValue::Bool(b)) => Ok(ConstValue::Bool(b)),
            (Type::Builtin(Builtin::Bool), ConstValue::Int(i)) if i == 0 || i == 1 => {
                Ok(ConstValue::Bool(i == 1))
            }
            (Type::Builtin(b), v) if b.is_float() => match v {
                ConstValue::Float(f) => Ok(ConstValue::Float(f)),
                ConstValue::Int(i) => Ok(ConstValue::Float(i as f64)),
                other => Err(format!("expected a number, got {}", show_value(&other))),
            },
            (Type::Builtin(b), ConstValue::Int(i)) => {
                if i < b.min().unwrap_or(0) || i > b.max().unwrap_or(0) {
                    Err(format!("{i} does not fit {}", b.name()))
                } else {
                    Ok(ConstValue::Int(i))
                }
            }
            (Type::Enum(id), ConstValue::Int(i)) => {
                let DeclKind::Enum(e) = &self.decls[id.0 as usize].kind else {
                    return Err("not an enum".into());
                };
                if e.members.iter().any(|m| m.value == i) {
                    Ok(ConstValue::Int(i))
                } else {
                    Err(format!(
                        "{i} is not a value of enum {}",
                        self.decls[id.0 as usize].name
                    ))
                }
            }
            (Type::String { max, .. }, ConstValue::Str(s)) => {
                if s.len() as u64 > *max {
                    Err(format!(
                        "the string is longer than the maximum of {max} bytes"
                    ))
                } else {
                    Ok(ConstValue::Str(s))
                }
            }
            (ty, v) => Err(format!(
                "a {} member cannot take the value {}",
                self.type_name(ty),
                show_value(&v)
            )),
        }
    }

    /// Autounion expansion, `dupes_allowed` flags, then tags for every union (§3.5–3.7).
    fn expand_unions(&mut self) {
        let messages: Vec<DeclId> = (0..self.decls.len())
            .map(|i| DeclId(i as u32))
            .filter(
                |id| matches!(&self.decls[id.0 as usize].kind, DeclKind::Struct(s) if s.is_message),
            )
            .collect();
        for idx in 0..self.decls.len() {
            let DeclKind::Union(u) = &self.decls[idx].kind else {
                continue;
            };
            let fqn = self.decls[idx].fqn();
            let span = self.decls[idx].span;
            if u.autounion {
                let mut by_name: HashMap<&str, DeclId> = HashMap::new();
                let mut clashes = Vec::new();
                for m in &messages {
                    let d = &self.decls[m.0 as usize];
                    if let Some(prev) = by_name.insert(&d.name, *m) {
                        clashes.push((prev, *m));
                    }
                }
                for (a, b) in clashes {
                    let (da, db) = (&self.decls[a.0 as usize], &self.decls[b.0 as usize]);
                    let d = Diagnostic::error(
                        span,
                        format!(
                            "autounion '{}' would contain two members with the name '{}': '{}' and '{}'",
                            self.decls[idx].name,
                            da.name,
                            da.fqn(),
                            db.fqn()
                        ),
                    )
                    .with_label("this autounion collects every message of the translation unit")
                    .with_secondary(da.span, "one message")
                    .with_secondary(db.span, "the other");
                    self.diags.push(d);
                }
                let explicit: HashSet<String> = u.members.iter().map(|m| m.name.clone()).collect();
                let auto: Vec<UnionMember> = messages
                    .iter()
                    .filter(|m| !explicit.contains(&self.decls[m.0 as usize].name))
                    .map(|m| UnionMember {
                        name: self.decls[m.0 as usize].name.clone(),
                        ty: Type::Struct(*m),
                        tag: 0,
                        explicit_tag: None,
                        automatic: true,
                        has_duplicates: false,
                        docs: self.decls[m.0 as usize].docs.clone(),
                        span,
                    })
                    .collect();
                if let DeclKind::Union(u) = &mut self.decls[idx].kind {
                    u.members.extend(auto);
                }
            }
            // dupes_allowed: identical declared or builtin payload types.
            if let DeclKind::Union(u) = &mut self.decls[idx].kind {
                if u.dupes_allowed {
                    let keys: Vec<Option<String>> =
                        u.members.iter().map(|m| shared_type_key(&m.ty)).collect();
                    for (i, m) in u.members.iter_mut().enumerate() {
                        m.has_duplicates = keys[i].is_some()
                            && keys
                                .iter()
                                .enumerate()
                                .any(|(j, k)| j != i && k == &keys[i]);
                    }
                }
            }
            self.assign_tags(idx, &fqn);
        }
    }

    fn assign_tags(&mut self, idx: usize, fqn: &str) {
        let DeclKind::Union(u) = &self.decls[idx].kind else {
            return;
        };
        let mut errors = Vec::new();
        let mut tags: Vec<u8> = Vec::with_capacity(u.members.len());
        let mut by_tag: HashMap<i128, usize> = HashMap::new();
        let mut value: i128 = 0;
        for (i, m) in u.members.iter().enumerate() {
            if let Some(Literal::Int { value: v, .. }) = &m.explicit_tag {
                value = *v;
                if !(0..=255).contains(&value) {
                    errors.push(
                        Diagnostic::error(m.span, format!("union '{fqn}' has a tag value that is out of range: '{}' = '{value}'", m.name))
                            .with_label("tags are 0 to 254"),
                    );
                }
            }
            if let Some(prev) = by_tag.get(&value) {
                let p = &u.members[*prev];
                errors.push(
                    Diagnostic::error(
                        m.span,
                        format!("union '{fqn}' would contain two members with the same value '{value}': '{}' and '{}'", m.name, p.name),
                    )
                    .with_label(format!("tag {value}"))
                    .with_secondary(p.span, "this member already has that tag")
                    .with_note("implicit tags continue from the previous member's tag + 1"),
                );
            } else if value == 255 {
                errors.push(
                    Diagnostic::error(
                        m.span,
                        format!("union '{fqn}' has a tag that would be equal to invalid tag value '255': '{}' = '255'", m.name),
                    )
                    .with_label("255 is reserved for INVALID")
                    .with_note("a union holds at most 255 members (tags 0 to 254)"),
                );
            }
            // Duplicate member names were reported when the union was declared (explicit
            // members) or as an autounion name clash (automatic ones).
            by_tag.entry(value).or_insert(i);
            tags.push(value.clamp(0, 255) as u8);
            value += 1;
        }
        self.diags.extend(errors);
        if let DeclKind::Union(u) = &mut self.decls[idx].kind {
            for (m, t) in u.members.iter_mut().zip(tags) {
                m.tag = t;
            }
        }
    }

    /// Enum concept checks (§3.8).
    fn check_concepts(&mut self) {
        let concepts = std::mem::take(&mut self.concepts);
        for c in concepts {
            let fqn = self.decls[c.decl.0 as usize].fqn();
            let scope = self.decl_ns[c.decl.0 as usize];
            let enum_id = if c.enum_name.text.contains("::") {
                match self.lookup_from(scope, &c.enum_name.text) {
                    Some(Symbol::Type(id))
                        if matches!(self.decls[id.0 as usize].kind, DeclKind::Enum(_)) =>
                    {
                        Some(id)
                    }
                    _ => None,
                }
            } else {
                self.decls
                    .iter()
                    .position(|d| d.name == c.enum_name.text && matches!(d.kind, DeclKind::Enum(_)))
                    .map(|i| DeclId(i as u32))
            };
            let Some(enum_id) = enum_id else {
                self.error(
                    Diagnostic::error(
                        c.enum_name.span,
                        format!(
                            "enum '{}' in EnumConcept '{fqn}' does not exist",
                            c.enum_name.text
                        ),
                    )
                    .with_label("no enum with this name"),
                );
                continue;
            };
            let DeclKind::Enum(e) = &self.decls[enum_id.0 as usize].kind else {
                continue;
            };
            let enum_members: Vec<String> = e.members.iter().map(|m| m.name.clone()).collect();
            let enum_fqn = self.decls[enum_id.0 as usize].fqn();
            self.check_duplicate_members("enum_concept", &fqn, c.members.iter().map(|(n, _)| n));
            let unknown: Vec<&ast::Ident> = c
                .members
                .iter()
                .map(|(n, _)| n)
                .filter(|n| !enum_members.contains(&n.text))
                .collect();
            if !unknown.is_empty() {
                let names: Vec<String> = unknown.iter().map(|n| format!("'{}'", n.text)).collect();
                let mut d = Diagnostic::error(
                    unknown[0].span,
                    format!(
                        "entries [{}] in EnumConcept '{fqn}' do not exist in enum '{enum_fqn}'",
                        names.join(", ")
                    ),
                )
                .with_label("not a member of the enum");
                for n in &unknown[1..] {
                    d = d.with_secondary(n.span, "not a member either");
                }
                self.error(d);
            }
            let missing: Vec<String> = enum_members
                .iter()
                .filter(|m| !c.members.iter().any(|(n, _)| &n.text == *m))
                .map(|m| format!("'{m}'"))
                .collect();
            if !missing.is_empty() {
                let span = self.decls[c.decl.0 as usize].span;
                self.error(
                    Diagnostic::error(
                        span,
                        format!(
                            "EnumConcept '{fqn}' is missing entries for [{}] of enum '{enum_fqn}'",
                            missing.join(", ")
                        ),
                    )
                    .with_label("an enum concept must map every member"),
                );
            }
            let DeclKind::EnumConcept(concept) = &self.decls[c.decl.0 as usize].kind else {
                continue;
            };
            let ret = concept.return_type.clone();
            let mut members = Vec::new();
            for (name, value) in &c.members {
                let Some(index) = enum_members.iter().position(|m| *m == name.text) else {
                    continue;
                };
                let (literal, evaluated) = match &value.kind {
                    ConstKind::Int { value: v, hex } => (
                        Literal::Int {
                            value: *v,
                            hex: *hex,
                        },
                        Ok(ConstValue::Int(*v)),
                    ),
                    ConstKind::Float(f) => (Literal::Float(*f), Ok(ConstValue::Float(*f))),
                    ConstKind::Verbatim(t) => (
                        Literal::Verbatim(t.clone()),
                        consteval::eval(t, &mut |n| self.enum_member_value(scope, n, None)),
                    ),
                };
                let checked =
                    evaluated.and_then(|v| self.check_concept_value(&ret, v, &value.kind));
                match checked {
                    Ok(v) => members.push(ConceptMember {
                        name: name.text.clone(),
                        enum_member: index,
                        value: Constant {
                            literal,
                            value: v,
                            span: value.span,
                        },
                    }),
                    Err(why) => self.error(
                        Diagnostic::error(
                            value.span,
                            format!(
                                "entry '{}' in EnumConcept '{fqn}' contains invalid value",
                                name.text
                            ),
                        )
                        .with_label(why),
                    ),
                }
            }
            if let DeclKind::EnumConcept(concept) = &mut self.decls[c.decl.0 as usize].kind {
                concept.enum_decl = enum_id;
                concept.members = members;
            }
        }
    }

    fn check_concept_value(
        &self,
        ret: &Type,
        v: ConstValue,
        written: &ConstKind,
    ) -> Result<ConstValue, String> {
        let literal_int = matches!(written, ConstKind::Int { .. });
        match (ret, &v) {
            (Type::Builtin(b), ConstValue::Int(i)) if !b.is_float() && literal_int => {
                if *i < b.min().unwrap_or(0) || *i > b.max().unwrap_or(0) {
                    return Err(format!("{i} is outside the range of {}", b.name()));
                }
                Ok(if *b == Builtin::Bool {
                    ConstValue::Bool(*i == 1)
                } else {
                    v
                })
            }
            _ => self.check_default_type(ret, v),
        }
    }

    /// Sizes and alignment for every message and union, with cycle detection.
    fn compute_metrics(&mut self) {
        struct Memo {
            done: Vec<Option<Metrics>>,
            busy: Vec<bool>,
            cycles: Vec<DeclId>,
        }
        fn metrics_of(decls: &[Decl], id: DeclId, memo: &mut Memo) -> Metrics {
            let i = id.0 as usize;
            if let Some(m) = &memo.done[i] {
                return m.clone();
            }
            if memo.busy[i] {
                memo.cycles.push(id);
                return metrics::of_struct(&[]);
            }
            memo.busy[i] = true;
            let member_types: Vec<&Type> = match &decls[i].kind {
                DeclKind::Struct(st) => st.fields.iter().map(|f| &f.ty).collect(),
                DeclKind::Union(u) => u.members.iter().map(|m| &m.ty).collect(),
                _ => Vec::new(),
            };
            let ms: Vec<Metrics> = member_types
                .into_iter()
                .map(|ty| metrics::compute(ty, decls, &mut |c| metrics_of(decls, c, memo)))
                .collect();
            let result = match &decls[i].kind {
                DeclKind::Union(_) => metrics::of_union(&ms),
                _ => metrics::of_struct(&ms),
            };
            memo.busy[i] = false;
            memo.done[i] = Some(result.clone());
            result
        }
        let n = self.decls.len();
        let mut memo = Memo {
            done: vec![None; n],
            busy: vec![false; n],
            cycles: Vec::new(),
        };
        for i in 0..n {
            if matches!(self.decls[i].kind, DeclKind::Struct(_) | DeclKind::Union(_)) {
                metrics_of(&self.decls, DeclId(i as u32), &mut memo);
            }
        }
        memo.cycles.sort();
        memo.cycles.dedup();
        for id in memo.cycles {
            let d = &self.decls[id.0 as usize];
            self.diags.push(
                Diagnostic::error(d.span, format!("type '{}' contains itself", d.fqn()))
                    .with_label("this type would be infinitely large")
                    .with_note("an autounion collects every message of the translation unit, including messages that contain the autounion itself"),
            );
        }
        for (i, m) in memo.done.into_iter().enumerate() {
            if let Some(m) = m {
                match &mut self.decls[i].kind {
                    DeclKind::Struct(st) => st.metrics = m,
                    DeclKind::Union(u) => u.metrics = m,
                    _ => {}
                }
            }
        }
    }

    /// Per-declaration hashes for everything outside include blocks (§3.12).
    fn hash_declarations(&mut self, tree: &mut [Item]) {
        for i in 0..self.decls.len() {
            if self.decls[i].from_include {
                continue;
            }
            let mut ser = Serializer::new(&self.decls, Mode::Declaration);
            ser.decl(DeclId(i as u32), None);
            let h = md5_hex(&ser.finish());
            self.decls[i].hash = Some(h);
        }
        fn namespaces(decls: &[Decl], items: &mut [Item]) {
            for item in items {
                match item {
                    Item::Namespace(ns) => {
                        namespaces(decls, &mut ns.items);
                        if !ns.from_include {
                            let mut ser = Serializer::new(decls, Mode::Declaration);
                            ser.namespace(ns, None);
                            ns.hash = Some(md5_hex(&ser.finish()));
                        }
                    }
                    Item::Include(inc) => namespaces(decls, &mut inc.items),
                    Item::Decl(_) => {}
                }
            }
        }
        namespaces(&self.decls, tree);
    }

    /// Ambiguity marking (§3.9): a member named like a global type marks that type.
    fn mark_ambiguous(&mut self) {
        let mut marks = Vec::new();
        let mut errors = Vec::new();
        for d in &self.decls {
            let members: Vec<(&str, Span)> = match &d.kind {
                DeclKind::Struct(s) => s.fields.iter().map(|f| (f.name.as_str(), f.span)).collect(),
                DeclKind::Union(u) => u
                    .members
                    .iter()
                    .map(|m| (m.name.as_str(), m.span))
                    .collect(),
                _ => continue,
            };
            for (name, span) in members {
                match self.ns[0].children.get(name) {
                    Some(Symbol::Type(id)) => marks.push(*id),
                    Some(Symbol::Namespace(_)) => errors.push(
                        Diagnostic::error(span, format!("member '{name}' has the name of the global namespace '{name}'"))
                            .with_label("rename this member")
                            .with_note("the original compiler crashes on this, so the schema cannot have a version hash"),
                    ),
                    None => {}
                }
            }
        }
        for id in marks {
            self.decls[id.0 as usize].possibly_ambiguous = true;
        }
        self.diags.extend(errors);
    }
}

/// A value as the user would write it, for diagnostics.
fn show_value(v: &ConstValue) -> String {
    match v {
        ConstValue::Int(i) => i.to_string(),
        ConstValue::Float(f) => format!("the float {}", crate::hash::py_float_repr(*f)),
        ConstValue::Str(s) => format!("the string {s:?}"),
        ConstValue::Bool(b) => b.to_string(),
    }
}

/// Identity of a payload type for `dupes_allowed`: declared types and builtins are shared
/// objects in the original; strings and arrays are always fresh.
fn shared_type_key(ty: &Type) -> Option<String> {
    match ty {
        Type::Builtin(b) => Some(b.name().to_owned()),
        Type::Enum(id) | Type::Struct(id) | Type::Union(id) => Some(format!("#{}", id.0)),
        _ => None,
    }
}
