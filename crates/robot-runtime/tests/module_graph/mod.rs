//! The module graph of a source tree, read from its `use` lines as a reviewer reads them:
//! every import between its modules must be one a table allows, and the graph (families of
//! submodules collapsed) has no cycle. Shared by `robot-runtime/tests/behavior_modules.rs`
//! (`src/behavior`) and `original-behaviors/tests/modules.rs` (`src`) through `#[path]`
//! (a directory, so Cargo does not take it for a test of its own).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The module a file is (`classes/mod.rs` → `classes`, `condition/parse.rs` →
/// `condition::parse`; a file under a module directory belongs to that module's family).
pub fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The modules a file of the tree rooted at `prefix` imports (`use super::x`, `use
/// crate::behavior::x` with `prefix` `crate::behavior::`, `super::super::x` from a
/// submodule), resolved against the file's own module.
pub fn imports(prefix: &str, module: &str, text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let depth = module.split("::").count();
    // Whole `use` statements (rustfmt wraps long ones over several lines).
    let mut statements = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        // A file's unit tests (`#[cfg(test)] mod tests { use super::*; }`) come last; their
        // `super` is the file itself.
        if t == "#[cfg(test)]" {
            break;
        }
        if let Some(c) = current.as_mut() {
            c.push_str(t);
        } else if t.starts_with("use ")
            || t.starts_with("pub use ")
            || t.starts_with("pub(crate) use ")
        {
            current = Some(t.to_owned());
        }
        if current.as_ref().is_some_and(|c| c.ends_with(';')) {
            statements.extend(current.take());
        }
    }
    for line in &statements {
        let line = line
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ");
        let Some(rest) = line.strip_prefix("use ") else {
            continue;
        };
        let (base, mut path): (Vec<&str>, &str) = if let Some(p) = rest.strip_prefix(prefix) {
            (Vec::new(), p)
        } else if rest.starts_with("super::") {
            let mut p = rest;
            let mut up = 0;
            while let Some(q) = p.strip_prefix("super::") {
                p = q;
                up += 1;
            }
            let parts: Vec<&str> = module.split("::").collect();
            // `super` of a file module is its parent; of a `mod.rs` module, too.
            let keep = depth.saturating_sub(up);
            (parts[..keep].to_vec(), p)
        } else {
            continue;
        };
        // `super::{a, b::c}` or `super::a::...`
        path = path.trim_end_matches(';');
        let heads: Vec<String> = if let Some(inner) = path.strip_prefix('{') {
            inner
                .trim_end_matches('}')
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or("").to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        } else {
            let mut segs: Vec<&str> = path.split("::").collect();
            // `condition::parse::X` names the submodule `condition::parse`.
            if segs.len() > 2 && segs[1].starts_with(|c: char| c.is_ascii_lowercase()) {
                segs.truncate(2);
                vec![segs.join("::")]
            } else {
                vec![segs[0].to_owned()]
            }
        };
        for h in heads {
            // An item (a type, a trait) belongs to `base`; a lowercase head is a module.
            let item = h.starts_with(|c: char| c.is_ascii_uppercase());
            let mut full: Vec<&str> = base.clone();
            if !item {
                full.push(&h);
            }
            let name = if full.is_empty() {
                "<root re-exports>".to_owned()
            } else {
                full.join("::")
            };
            if name != module && !module.starts_with(&format!("{name}::")) {
                out.insert(name);
            }
        }
    }
    out
}

/// Checks the module graph of the tree at `root` (its root `mod.rs` / `lib.rs` skipped: it
/// declares the modules) against `table` (module → the sibling modules it may import; a
/// module missing from it may import nothing; a family's submodules follow the family's
/// row and may import each other) and for cycles. `prefix` is how the tree's files name its
/// root (`crate::behavior::`, `crate::`). Panics with every breach; returns the number of
/// modules found.
pub fn check(root: &Path, prefix: &str, table: &[(&str, &[&str])]) -> usize {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs")
                || p.file_name()
                    .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
                    && p.parent() == Some(root)
            {
                continue;
            }
            let module = module_of(p.strip_prefix(root).unwrap());
            let text = std::fs::read_to_string(&p).unwrap();
            graph
                .entry(module.clone())
                .or_default()
                .extend(imports(prefix, &module, &text));
        }
    }
    let allowed: BTreeMap<&str, &[&str]> = table.iter().copied().collect();
    let mut bad = Vec::new();
    for (m, deps) in &graph {
        // A submodule of a family (e.g. `classes::wait`) follows its family's row.
        let family = m.split("::").next().unwrap();
        let row = allowed
            .get(m.as_str())
            .or_else(|| allowed.get(family))
            .copied()
            .unwrap_or(&[]);
        for d in deps {
            let same_family = d.split("::").next() == Some(family);
            if !row.contains(&d.as_str()) && !same_family {
                bad.push(format!("{m} imports {d}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports outside the table:\n{}",
        bad.join("\n")
    );
    // No cycle (families collapsed: a family's submodules may import each other).
    let fam = |m: &str| m.split("::").next().unwrap().to_owned();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in &graph {
        for d in deps {
            if fam(d) != fam(m) {
                edges.entry(fam(m)).or_default().insert(fam(d));
            }
        }
    }
    let mut state: BTreeMap<String, u8> = BTreeMap::new();
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let i = path.iter().position(|p| p == n).unwrap();
                let mut c = path[i..].to_vec();
                c.push(n.to_owned());
                return Some(c);
            }
            _ => {}
        }
        state.insert(n.to_owned(), 1);
        path.push(n.to_owned());
        for d in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(d, edges, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_owned(), 2);
        None
    }
    for n in edges.keys() {
        let mut path = Vec::new();
        if let Some(c) = visit(n, &edges, &mut state, &mut path) {
            panic!("import cycle: {}", c.join(" -> "));
        }
    }
    graph.len()
}
