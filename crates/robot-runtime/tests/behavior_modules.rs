//! The module graph of `src/behavior` (ARCHITECTURE.md, "Module dependencies"): every
//! import between its modules is one the table below allows, and the graph has no cycle.
//! Read from the sources, as a reviewer would read the imports.

use std::path::Path;

/// Module → the sibling modules it may import. A module missing here may import nothing
/// of `behavior`.
const ALLOWED: &[(&str, &[&str])] = &[
    ("ids", &[]),
    ("clock", &[]),
    ("problem", &[]),
    ("jsonc", &[]),
    ("references", &[]),
    ("vocabulary", &[]),
    ("json_keys", &["problem"]),
    ("wakeup", &[]),
    ("world", &["wakeup"]),
    ("changes", &["wakeup", "world"]),
    ("track_locks", &[]),
    ("action", &["clock", "track_locks", "wakeup"]),
    ("condition", &["clock", "wakeup", "world"]),
    (
        "condition::parse",
        &["condition", "json_keys", "problem", "vocabulary"],
    ),
    (
        "core",
        &[
            "action",
            "changes",
            "clock",
            "condition",
            "ids",
            "track_locks",
            "wakeup",
            "world",
        ],
    ),
    ("tree", &["condition", "core", "ids", "world"]),
    (
        "runner",
        &[
            "action",
            "changes",
            "clock",
            "condition",
            "core",
            "ids",
            "track_locks",
            "tree",
            "wakeup",
            "world",
        ],
    ),
    (
        "build_context",
        &[
            "condition",
            "condition::parse",
            "core",
            "ids",
            "json_keys",
            "problem",
            "references",
            "vocabulary",
        ],
    ),
    (
        "registry",
        &[
            "build_context",
            "condition",
            "condition::parse",
            "core",
            "references",
            "vocabulary",
            "world",
        ],
    ),
    (
        "loader",
        &[
            "build_context",
            "condition",
            "condition::parse",
            "core",
            "ids",
            "json_keys",
            "jsonc",
            "problem",
            "references",
            "registry",
            "tree",
            "vocabulary",
        ],
    ),
    ("coverage", &["core", "ids", "jsonc", "runner"]),
    ("export", &["core", "ids", "runner"]),
    ("inspect", &["condition", "core", "ids", "runner"]),
];

#[path = "module_graph/mod.rs"]
mod module_graph;

#[test]
fn behavior_modules_import_only_what_the_architecture_allows_and_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/behavior");
    let modules = module_graph::check(&root, "crate::behavior::", ALLOWED);
    assert!(modules >= 15, "found {modules} modules");
}
