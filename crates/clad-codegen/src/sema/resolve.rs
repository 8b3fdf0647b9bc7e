//! Name resolution (§3.1–3.2): namespaces, scopes and lookups in textual order (no
//! forward references), type expressions, member types, registration of declarations.

use super::{fqn_of, NsNode, Sema, Symbol};
use crate::ast::{self, ConstKind, MemberShape, TypeExpr};
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use crate::source::Span;
use std::collections::HashMap;

impl Sema<'_> {
    pub(super) fn items(&mut self, items: &[ast::Item]) -> Vec<Item> {
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
    pub(super) fn lookup_from(&self, scope: usize, name: &str) -> Option<Symbol> {
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

    /// The declarations named like `name`'s last part, in declaration order (looked up by
    /// name: an unknown type costs no scan of every declaration, so 100,000 of them are
    /// checked in linear time).
    fn suggest(&self, name: &str) -> Option<String> {
        let short = name.rsplit("::").next().unwrap_or(name);
        let found: Vec<String> = self
            .by_name
            .get(short)
            .into_iter()
            .flatten()
            .map(|id| &self.decls[id.0 as usize])
            .filter(|d| !matches!(d.kind, DeclKind::EnumConcept(_)))
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

    pub(super) fn resolve_type(&mut self, ty: &TypeExpr) -> Option<Type> {
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

    pub(super) fn member_type(&mut self, m: &ast::Member, owner: &str) -> Option<Type> {
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
    pub(super) fn register(&mut self, decl: Decl, register: bool) -> DeclId {
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
        self.by_name.entry(decl.name.clone()).or_default().push(id);
        self.decls.push(decl);
        self.decl_ns.push(self.cur_ns);
        id
    }

    pub(super) fn new_decl(
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
            schema_hash: None,
            possibly_ambiguous: false,
        }
    }

    pub(super) fn check_duplicate_members<'m>(
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
}
