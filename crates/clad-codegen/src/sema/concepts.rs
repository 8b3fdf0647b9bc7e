//! Enum concept checks (§3.8).

use super::{Sema, Symbol};
use crate::ast::{self, ConstKind};
use crate::consteval;
use crate::diagnostics::Diagnostic;
use crate::ir::*;

impl Sema<'_> {
    /// Enum concept checks (§3.8).
    pub(super) fn check_concepts(&mut self) {
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
}
