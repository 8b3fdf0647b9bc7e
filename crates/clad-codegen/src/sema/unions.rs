//! Unions (§3.5–3.7): autounion expansion, `dupes_allowed` flags and tags.

use super::Sema;
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use std::collections::{HashMap, HashSet};

impl Sema<'_> {
    /// Autounion expansion, `dupes_allowed` flags, then tags for every union (§3.5–3.7).
    pub(super) fn expand_unions(&mut self) {
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
