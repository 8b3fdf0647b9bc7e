//! Size metrics of every message and union (§3.11, computed by [`crate::metrics`]), with
//! cycle detection. Run before hashing: union alignment is hashed.

use super::Sema;
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use crate::metrics;

impl Sema<'_> {
    /// Sizes and alignment for every message and union, with cycle detection.
    pub(super) fn compute_metrics(&mut self) {
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
}
