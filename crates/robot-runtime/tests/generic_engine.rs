//! `robot-runtime` is the behavior engine; the original robot's classes, condition types,
//! robot state and catalog are a node library of it (`original-behaviors`), as
//! `clad-codegen` is a compiler that names no robot concept (`generic_compiler.rs` there).
//! These tests keep the boundary: no source file of the runtime, comments included, names a
//! class or a condition type of the original engine (beyond the framework's conditions) or
//! a type of the library, and the runtime does not depend on the library, not even for its
//! tests (`cargo tree` shows every kind of dependency).
//!
//! The names come from the library's catalog (`../original-behaviors/src/catalog.rs`, read
//! as text: depending on it would be the circle this test forbids), so a class added there
//! is checked here too. Identifiers are compared whole (split at non-alphanumeric
//! characters), so `OffTreadsState` is caught and `OffTreads` alone is not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Names of the original that are also the runtime's own, for a reason each.
const SHARED: &[&str] = &[
    // The framework's conditions (the base keys `respondToUserIntents` and the intent
    // component are the runtime's).
    "TrueCondition",
    "Compound",
    "UserIntentPending",
    "UserIntentActive",
    "AnyUserIntent",
    "TriggerWordPending",
    // Simulated actions (`ActionRequest::Turn`, the `PlayAnimation` action).
    "Turn",
    "PlayAnimation",
    // The intent component's: the map's simple-voice entries (`intent::map`), the
    // translator's feature gate (`intent::translate`).
    "SimpleVoiceResponse",
    "FeatureGate",
    // An English word ("Wait in the queue").
    "Wait",
];

/// Types of the library, which the runtime must not know either.
const LIBRARY_TYPES: &[&str] = &[
    "RobotState",
    "OriginalCondition",
    "HighLevelAiCondition",
    "MoodTest",
    "BehaviorTimers",
    "Whiteboard",
    "StateMachine",
    "StrictPriorityDispatcher",
    "RobotAccess",
    "RobotAccessMut",
];

/// The string literals of `const NAME: &[&str] = &[ ... ];` in `text`.
fn list(text: &str, name: &str) -> Vec<String> {
    let start = text
        .find(&format!("pub const {name}: &[&str] = &["))
        .unwrap_or_else(|| panic!("{name} not found in the catalog"));
    let body = &text[start..];
    let end = body.find("];").expect("the list ends");
    body[..end]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

fn forbidden() -> BTreeSet<String> {
    let catalog =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../original-behaviors/src/catalog.rs");
    let text = std::fs::read_to_string(&catalog).expect("the library's catalog is readable");
    let mut names: BTreeSet<String> = list(&text, "ORIGINAL_CLASSES").into_iter().collect();
    assert!(names.len() > 150, "{} classes", names.len());
    let conditions = list(&text, "CONDITION_TYPES");
    assert!(
        conditions.len() > 50,
        "{} condition types",
        conditions.len()
    );
    names.extend(conditions);
    names.extend(LIBRARY_TYPES.iter().map(|s| s.to_string()));
    for s in SHARED {
        names.remove(*s);
    }
    names
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn hits(text: &str, names: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for word in line.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
            if names.contains(word) {
                found.push(format!("line {}: `{word}` in {:?}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn whole_identifiers_are_compared() {
    let names: BTreeSet<String> = ["ReactToCliff".to_owned(), "RobotState".to_owned()].into();
    assert_eq!(hits("// a `ReactToCliff` stand-in", &names).len(), 1);
    assert_eq!(hits("use x::{RobotState};", &names).len(), 1);
    assert!(hits("ReactToCliffDuringFetch RobotStateView", &names).is_empty());
}

#[test]
fn the_engine_names_no_class_condition_type_or_type_of_the_original() {
    let names = forbidden();
    for probe in [
        "ReactToCliff",
        "HighLevelAI",
        "DispatcherStrictPriority",
        "AnimSequence",
    ] {
        assert!(names.contains(probe), "{probe} is checked");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    assert!(files.len() > 40, "found only {files:?}");
    let mut problems = Vec::new();
    for file in files.iter().chain([&root.join("Cargo.toml")]) {
        let text = std::fs::read_to_string(file).expect("readable source");
        for hit in hits(&text, &names) {
            let rel = file.strip_prefix(root).unwrap_or(file);
            problems.push(format!("{}: {hit}", rel.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "robot-runtime must not know the original engine's classes (move the code to \
         original-behaviors, or use a neutral example):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_engine_does_not_depend_on_the_original_behaviors() {
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tree",
            "--offline",
            "--package",
            "robot-runtime",
            "--edges",
            "all",
            "--prefix",
            "none",
        ])
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        tree.lines()
            .any(|l| l.split_whitespace().next() == Some("clad-runtime")),
        "{tree}"
    );
    assert!(
        !tree
            .lines()
            .any(|l| l.split_whitespace().next() == Some("original-behaviors")),
        "{tree}"
    );
}
