//! The module graph of `original-behaviors` (ARCHITECTURE.md, its "Module dependencies"
//! table): every import between its modules is one the table below allows, and the graph
//! has no cycle. Read from the sources with the same reader as robot-runtime's
//! `behavior_modules.rs`.

use std::path::Path;

/// Module → the modules of the crate it may import. A module missing here may import
/// nothing of the crate (the runtime's, std's and serde's items are not modules of it).
const ALLOWED: &[(&str, &[&str])] = &[
    ("catalog", &[]),
    ("inputs", &[]),
    ("robot_state", &["catalog", "inputs"]),
    ("access", &["robot_state"]),
    (
        "conditions",
        &["access", "catalog", "inputs", "robot_state"],
    ),
    ("specs", &[]),
    ("keys", &["specs"]),
    ("does", &["predicate"]),
    ("predicate", &["access", "robot_state"]),
    ("logic", &["does", "inputs", "predicate", "robot_state"]),
    (
        "classes",
        &[
            "access",
            "catalog",
            "conditions",
            "does",
            "inputs",
            "keys",
            "logic",
            "predicate",
            "robot_state",
            "specs",
        ],
    ),
];

#[path = "../../robot-runtime/tests/module_graph/mod.rs"]
mod module_graph;

#[test]
fn modules_import_only_what_the_architecture_allows_and_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = module_graph::check(&root, "crate::", ALLOWED);
    assert!(modules >= 12, "found {modules} modules");
}
