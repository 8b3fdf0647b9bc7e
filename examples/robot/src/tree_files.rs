//! Behavior trees from disk, as the original engine loads them (every `.json` file under a
//! directory, one behavior per file), and the `--check-tree` report: files, behaviors,
//! classes built in or stand-ins, conditions native or opaque, references resolved, the tree
//! from its base with each behavior's children in declared order (a strict-priority
//! dispatcher's priority), the class predicate each stand-in or table-driven class runs with
//! the inputs it reads, every problem with file:line.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use robot_runtime::behavior::{
    check_tree, BehaviorId, ClassPredicate, LoadOptions, LoadReport, Runner, Source, Tree,
};

use crate::actions::Completions;
use crate::behavior_classes::{load_sources, registry};
use crate::intents;
use crate::log::Log;
use crate::robot::ROOT;

/// The files of a tree read from disk, and what was left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeFiles {
    /// `(name, text)` of each file read, sorted by path.
    pub files: Vec<(String, String)>,
    /// Why each `.json` entry that is not a regular file (a FIFO, a socket, a device) was
    /// skipped: reading one could block forever or never end.
    pub skipped: Vec<String>,
}

/// The files of a tree: `path` itself when it is a file, else every `.json` regular file
/// under it (recursively, sorted by path; a FIFO, socket or device named `*.json` is
/// skipped and reported, never opened). Names are relative to `path` for a directory. A
/// UTF-8 byte-order mark at the start of a file is dropped (its first line is read as
/// written).
pub fn read_tree(path: &Path) -> Result<TreeFiles, String> {
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .map(|t| match t.strip_prefix('\u{feff}') {
                Some(rest) => rest.to_owned(),
                None => t,
            })
            .map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let kind = |p: &Path| std::fs::metadata(p).map(|m| m.file_type());
    let meta = kind(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_dir() {
        if !meta.is_file() {
            return Err(format!(
                "{} is {}, not a file or a directory",
                path.display(),
                special(&meta)
            ));
        }
        return Ok(TreeFiles {
            files: vec![(path.display().to_string(), read(path)?)],
            skipped: Vec::new(),
        });
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let mut skipped = Vec::new();
    let mut todo = vec![path.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for e in entries {
            let p = e
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .path();
            // Followed through symbolic links, as reading would.
            let Ok(t) = kind(&p) else {
                continue;
            };
            if t.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                if t.is_file() {
                    files.push(p);
                } else {
                    skipped.push(format!(
                        "{} is {}, not a file: skipped",
                        p.display(),
                        special(&t)
                    ));
                }
            }
        }
    }
    files.sort();
    skipped.sort();
    if files.is_empty() {
        return Err(format!("no .json file under {}", path.display()));
    }
    let files = files
        .iter()
        .map(|p| {
            let name = p.strip_prefix(path).unwrap_or(p).display().to_string();
            Ok((name, read(p)?))
        })
        .collect::<Result<_, String>>()?;
    Ok(TreeFiles { files, skipped })
}

/// What a non-regular file is, for a person.
fn special(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    let _ = t;
    "not a regular file"
}

/// The base behavior of a tree read from disk when none is given: `InitNormalOperation`
/// (the original's), else [`ROOT`] (the robot's own), if the tree defines it.
pub fn default_base(files: &[(String, String)]) -> Option<&'static str> {
    ["InitNormalOperation", ROOT].into_iter().find(|id| {
        let key = format!("\"behaviorID\": \"{id}\"");
        let tight = format!("\"behaviorID\":\"{id}\"");
        files
            .iter()
            .any(|(_, t)| t.contains(&key) || t.contains(&tight))
    })
}

/// Checks the tree of `files` with the robot's registry and `options`.
pub fn check(files: &[(String, String)], options: &LoadOptions) -> LoadReport {
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let reg = registry(
        &Log::default(),
        &Completions::default(),
        &Default::default(),
    );
    check_tree(&reg, &sources, options)
}

/// The tree of `files` from `base` as an indented outline, each behavior's children in
/// declared order (numbered: a strict-priority dispatcher's priority), a behavior that
/// several parents delegate to opened once and marked `(above)` elsewhere, then the
/// behaviors no chain of delegates reaches. None when the tree does not load (the report
/// says why).
pub fn outline(files: &[(String, String)], base: &str, options: &LoadOptions) -> Option<String> {
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let loaded = load_sources(
        &sources,
        base,
        options,
        &Log::default(),
        &Completions::default(),
        &Default::default(),
    )
    .ok()?;
    Some(render_outline(&loaded.tree))
}

fn render_outline<U: robot_runtime::behavior::IntentUnion, E>(tree: &Tree<U, E>) -> String {
    let mut out = String::new();
    let base = tree.base();
    let _ = writeln!(
        out,
        "tree from {}, children in declared order (a strict-priority dispatcher's priority):",
        tree.name(base).map_or("?", |n| n.as_str())
    );
    let mut opened = vec![false; tree.len()];
    // Depth first, iteratively: (behavior, depth, its number among its siblings).
    let mut todo: Vec<(BehaviorId, usize, usize)> = vec![(base, 0, 0)];
    while let Some((id, depth, number)) = todo.pop() {
        let name = tree.name(id).map_or("?", |n| n.as_str());
        let class = tree.class(id).unwrap_or("?");
        let stand_in = if tree.is_stand_in(id) {
            ", stand-in"
        } else {
            ""
        };
        let indent = "  ".repeat(depth + 1);
        let num = if depth == 0 {
            String::new()
        } else {
            format!("{number}. ")
        };
        let kids = tree.delegates(id);
        let above = opened[id.index()] && !kids.is_empty();
        let _ = writeln!(
            out,
            "{indent}{num}{name} ({class}{stand_in}){}",
            if above { " (above)" } else { "" }
        );
        if above || opened[id.index()] {
            continue;
        }
        opened[id.index()] = true;
        for (k, &d) in kids.iter().enumerate().rev() {
            todo.push((d, depth + 1, k + 1));
        }
    }
    let unreached: Vec<&str> = tree
        .ids()
        .filter(|id| !opened[id.index()])
        .filter_map(|id| tree.name(id).map(|n| n.as_str()))
        .collect();
    if !unreached.is_empty() {
        let _ = writeln!(
            out,
            "not reached from the base ({}): {}",
            unreached.len(),
            unreached.join(", ")
        );
    }
    out
}

/// What each class of the tree of `files` decides beyond its JSON conditions (step 7 of the
/// original's `WantsToBeActivated`): for every class that has a class predicate, and every
/// stand-in, the predicate in words with the inputs it reads (and, of those, the ones this
/// robot does not model), once per distinct predicate with the number of behaviors that run
/// it. None when the tree does not load (the report says why).
pub fn predicates(files: &[(String, String)], base: &str, options: &LoadOptions) -> Option<String> {
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let loaded = load_sources(
        &sources,
        base,
        options,
        &Log::default(),
        &Completions::default(),
        &robot_runtime::arbiter::SharedArbiter::new(),
    )
    .ok()?;
    let runner = Runner::new(loaded.tree, intents::component());
    Some(render_predicates(&runner))
}

fn render_predicates<U: robot_runtime::behavior::IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
) -> String {
    // (class, predicate text, inputs, unmodelled, stand-in) -> behaviors.
    type Key = (String, Option<String>, String, String, bool);
    let mut by: BTreeMap<Key, u32> = BTreeMap::new();
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let class = runner.class(id).unwrap_or("?").to_owned();
        let stand_in = runner.is_stand_in(id);
        let p: Option<ClassPredicate> = runner.behavior(id).and_then(|b| b.class_predicate());
        if p.is_none() && !stand_in {
            continue;
        }
        let key = match p {
            Some(p) => (
                class,
                Some(p.text),
                p.inputs.join(", "),
                p.unmodelled.join(", "),
                stand_in,
            ),
            None => (class, None, String::new(), String::new(), stand_in),
        };
        *by.entry(key).or_default() += 1;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "class predicates (what a class decides beyond its JSON conditions), {}:",
        by.len()
    );
    for ((class, text, inputs, unmodelled, stand_in), n) in &by {
        let kind = if *stand_in { "stand-in" } else { "built in" };
        match text {
            Some(text) => {
                let inputs = if inputs.is_empty() { "nothing" } else { inputs };
                let _ = write!(out, "  {class} ({kind}, {n}): {text}; reads {inputs}");
                if !unmodelled.is_empty() {
                    let _ = write!(out, "; not modelled: {unmodelled}");
                }
                let _ = writeln!(out);
            }
            None => {
                let _ = writeln!(
                    out,
                    "  {class} ({kind}, {n}): no class predicate: its JSON conditions alone decide"
                );
            }
        }
    }
    out
}

/// The report as text (what `--check-tree` prints).
pub fn render(name: &str, r: &LoadReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "tree {name}");
    let _ = writeln!(
        out,
        "files {}, behaviors {} ({} anonymous)",
        r.files, r.behaviors, r.anonymous
    );
    let native = r.classes.values().filter(|c| c.native).count();
    let native_uses: u32 = r
        .classes
        .values()
        .filter(|c| c.native)
        .map(|c| c.count)
        .sum();
    let all_uses: u32 = r.classes.values().map(|c| c.count).sum();
    let _ = writeln!(
        out,
        "classes {}: {native} built in ({native_uses} behaviors), {} stand-ins ({} behaviors)",
        r.classes.len(),
        r.classes.len() - native,
        all_uses - native_uses
    );
    let mut classes: Vec<_> = r.classes.iter().collect();
    classes.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
    for (c, n) in classes {
        let _ = writeln!(
            out,
            "  {c:<40} {:>4}  {}",
            n.count,
            if n.native { "built in" } else { "stand-in" }
        );
    }
    let nodes: u32 = r.conditions.values().map(|c| c.count).sum();
    let native = r.conditions.values().filter(|c| c.native).count();
    let _ = writeln!(
        out,
        "conditions {nodes} ({} types: {native} native, {} opaque)",
        r.conditions.len(),
        r.conditions.len() - native
    );
    let mut conds: Vec<_> = r.conditions.iter().collect();
    conds.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
    for (c, n) in conds {
        let _ = writeln!(
            out,
            "  {c:<40} {:>4}  {}",
            n.count,
            if n.native { "native" } else { "opaque" }
        );
    }
    let _ = writeln!(
        out,
        "references {} of {} resolved",
        r.references.resolved, r.references.checked
    );
    let errors = r.errors().count();
    let warnings = r.warnings().count();
    let _ = writeln!(
        out,
        "problems {} ({errors} errors, {warnings} warnings)",
        r.problems.len()
    );
    for p in &r.problems {
        let _ = writeln!(out, "  {p}");
    }
    out
}
