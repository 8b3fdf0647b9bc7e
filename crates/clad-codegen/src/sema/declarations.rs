//! Declarations as the resolution pass meets them: messages and structures (with their
//! default values, §3.3), enums, unions and enum concepts.

use super::{fqn_of, ConceptSource, Fixup, Sema};
use crate::ast::{self, ConstKind};
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use crate::metrics;
use crate::source::Span;
use std::collections::HashMap;

impl Sema<'_> {
    pub(super) fn message(&mut self, m: &ast::Message) -> Option<DeclId> {
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

    pub(super) fn type_name(&self, ty: &Type) -> String {
        type_name(&self.decls, ty)
    }

    pub(super) fn enum_decl(&mut self, e: &ast::Enum) -> Option<DeclId> {
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

    pub(super) fn union(&mut self, u: &ast::Union) -> Option<DeclId> {
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

    pub(super) fn concept(&mut self, c: &ast::EnumConcept) -> Option<DeclId> {
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
}
