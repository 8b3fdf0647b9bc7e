//! `clad-codegen` is a general CLAD compiler: what a robot does with its schemas (user-intent
//! maps, ROS4HRI intents, the robot runtime) plugs in from outside through build extensions
//! (`robot-codegen`). This test keeps it that way: no source file of the crate, comments
//! included, names a robot concept.
//!
//! Words are compared by their parts (split at non-alphanumeric characters and at
//! lower-to-upper case changes, lower-cased), so `UserIntentTag`, `hri_map` and `ROS4HRI`
//! are caught while an unrelated word that merely contains the letters (`shrink`,
//! `intentionally`) is not.

use std::path::{Path, PathBuf};

/// Word parts that belong to the robot, not to a schema compiler.
const ROBOT_WORDS: &[&str] = &["robot", "robots", "intent", "intents", "hri", "ros4hri"];
/// Phrases checked as written (lower-cased).
const ROBOT_PHRASES: &[&str] = &["simple_voice", "robot_runtime", "robot-runtime"];

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

/// The lower-cased parts of every word of `line`.
fn parts(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in line.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut part = String::new();
        let mut prev_lower = false;
        for c in word.chars() {
            if c.is_ascii_uppercase() && prev_lower && !part.is_empty() {
                out.push(std::mem::take(&mut part));
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            part.push(c.to_ascii_lowercase());
        }
        if !part.is_empty() {
            out.push(part);
        }
    }
    out
}

fn robot_words(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        for phrase in ROBOT_PHRASES {
            if lower.contains(phrase) {
                found.push(format!("line {}: `{phrase}`", n + 1));
            }
        }
        for part in parts(line) {
            if ROBOT_WORDS.contains(&part.as_str()) {
                found.push(format!("line {}: `{part}` in {:?}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_word_splitter_catches_names_and_spares_other_words() {
    assert_eq!(robot_words("UserIntentTag").len(), 1);
    assert_eq!(robot_words("mod hri_map;").len(), 1);
    assert_eq!(robot_words("// ROS4HRI intents").len(), 2);
    assert_eq!(robot_words("::robot_runtime::x").len(), 2);
    assert!(robot_words("shrink intentionally; Christmas").is_empty());
}

#[test]
fn no_source_file_names_a_robot_concept() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    assert!(files.len() > 20, "found only {files:?}");
    let mut problems = Vec::new();
    for file in files.iter().chain([&root.join("Cargo.toml")]) {
        let text = std::fs::read_to_string(file).expect("readable source");
        for hit in robot_words(&text) {
            let rel = file.strip_prefix(root).unwrap_or(file);
            problems.push(format!("{}: {hit}", rel.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "clad-codegen must not know the robot (move the code to robot-codegen, or use a \
         neutral example):\n{}",
        problems.join("\n")
    );
}
