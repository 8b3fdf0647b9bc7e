//! Size metrics of every message and union (§3.11, computed by [`crate::metrics`]), with
//! cycle detection, and the type nesting limit ([`crate::MAX_TYPE_DEPTH`]). Run before
//! hashing: union alignment is hashed.

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

    /// Reports every structure or union nested deeper than [`crate::MAX_TYPE_DEPTH`] whose
    /// members are not (so one error per over-deep chain, at its first declaration too deep).
    /// Depths are computed with an explicit stack: no recursion whatever the chain length.
    pub(super) fn check_type_depth(&mut self) {
        fn children(d: &Decl) -> Vec<usize> {
            fn walk(ty: &Type, out: &mut Vec<usize>) {
                match ty {
                    Type::Struct(id) | Type::Union(id) => out.push(id.0 as usize),
                    Type::VarArray { elem, .. } | Type::FixedArray { elem, .. } => walk(elem, out),
                    _ => {}
                }
            }
            let mut out = Vec::new();
            match &d.kind {
                DeclKind::Struct(s) => s.fields.iter().for_each(|f| walk(&f.ty, &mut out)),
                DeclKind::Union(u) => u.members.iter().for_each(|m| walk(&m.ty, &mut out)),
                _ => {}
            }
            out
        }
        let n = self.decls.len();
        let kids: Vec<Vec<usize>> = self.decls.iter().map(children).collect();
        // 0: not visited; 1: on the stack (a cycle, reported by `compute_metrics`); 2: done.
        let mut state = vec![0u8; n];
        let mut depth = vec![0usize; n];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            stack.push((root, 0));
            while let Some((top, next)) = stack.last_mut() {
                let top = *top;
                if let Some(&c) = kids[top].get(*next) {
                    *next += 1;
                    if state[c] == 0 {
                        state[c] = 1;
                        stack.push((c, 0));
                    }
                    continue;
                }
                stack.pop();
                state[top] = 2;
                let deepest = kids[top].iter().map(|&c| depth[c]).max().unwrap_or(0);
                depth[top] = deepest + 1;
            }
        }
        for (i, d) in self.decls.iter().enumerate() {
            let too_deep = |i: usize| depth[i] > crate::MAX_TYPE_DEPTH;
            if too_deep(i) && !kids[i].iter().any(|&c| too_deep(c)) {
                self.diags.push(
                    Diagnostic::error(
                        d.span,
                        format!(
                            "type '{}' nests types more than {} deep",
                            d.fqn(),
                            crate::MAX_TYPE_DEPTH
                        ),
                    )
                    .with_label(
                        "a structure or union holding a structure or union is one level deeper",
                    )
                    .with_note(format!(
                        "types may nest at most {} deep (clad_codegen::MAX_TYPE_DEPTH)",
                        crate::MAX_TYPE_DEPTH
                    )),
                );
            }
        }
    }
}
