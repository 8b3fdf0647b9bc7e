//! Ambiguity marking (§3.9): a member named like a global type marks that type.

use super::{Sema, Symbol};
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use crate::source::Span;

impl Sema<'_> {
    /// Ambiguity marking (§3.9): a member named like a global type marks that type.
    pub(super) fn mark_ambiguous(&mut self) {
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
