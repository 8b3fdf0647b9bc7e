//! The `robot-example` binary's tree options: `--check-tree` over the original-shaped
//! directory (exit 0, every reference resolved), over a directory with problems (exit 1,
//! each problem at file:line:col), `--lenient`, and `--tree DIR` playing the default
//! scenario on it.

use std::path::Path;
mod cli_support;

use cli_support::run;

fn original() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("behaviors/original")
        .display()
        .to_string()
}

#[test]
fn check_tree_on_the_original_shape_passes() {
    let (code, out, err) = run(&["--check-tree", &original()]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    // Infos (a predicate input the robot does not model) are reported, not failures.
    let problems = out
        .lines()
        .find(|l| l.starts_with("problems "))
        .expect("a problems line");
    assert!(problems.ends_with("(0 errors, 0 warnings)"), "{out}");
    let refs = out
        .lines()
        .find(|l| l.starts_with("references "))
        .expect("a references line");
    let w: Vec<&str> = refs.split_whitespace().collect();
    assert_eq!(w[1], w[3], "{refs}");
    // The tree from its base, children in the order the files declare them (the loader's
    // order is by file name: ReactToCliff's file sorts before ReactToRobotOnBack's, and both
    // before StuckOnEdge's).
    let outline: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("tree from InitNormalOperation"))
        .collect();
    assert!(!outline.is_empty(), "{out}");
    let after = |parent: &str, n: usize| -> Vec<String> {
        let at = outline
            .iter()
            .position(|l| l.trim_start().contains(&format!("{parent} (")))
            .unwrap_or_else(|| panic!("{parent} in {out}"));
        let depth = outline[at].len() - outline[at].trim_start().len();
        outline[at + 1..]
            .iter()
            .filter(|l| l.len() - l.trim_start().len() == depth + 2)
            .take(n)
            .map(|l| l.trim().to_owned())
            .collect()
    };
    let first = after("MandatoryPhysicalReactions", 2);
    assert!(first[0].starts_with("1. StuckOnEdge ("), "{first:?}");
    assert!(first[1].starts_with("2. ReactToRobotOnBack ("), "{first:?}");
    let gi = after("GlobalInterruptions", 3);
    assert!(
        gi[0].starts_with("1. MandatoryPhysicalReactions ("),
        "{gi:?}"
    );
    assert!(gi[1].starts_with("2. SDKDefault ("), "{gi:?}");
    // Then what each class decides beyond its JSON conditions.
    assert!(
        out.contains("class predicates (what a class decides beyond its JSON conditions)"),
        "{out}"
    );
    assert!(
        out.contains("RespondToRenameFace (")
            && out.contains("a face was renamed since it last ran; reads"),
        "{out}"
    );
}

/// Issue 28 item 6: `--check-tree` shows, per table-driven class or stand-in, the predicate
/// it runs and the inputs it reads, once per distinct predicate with how many behaviors run
/// it; a class that adds nothing to its JSON conditions says so.
#[test]
fn check_tree_shows_each_class_predicate_and_the_inputs_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "globalInterruptions.json",
        r#"{"behaviorID": "GlobalInterruptions", "behaviorClass": "DispatcherStrictPriority",
            "interruptActiveBehavior": true,
            "behaviors": ["RespondToRenameFace", "AlsoRename", "Idle"]}"#,
    );
    write(
        "respondToRenameFace.json",
        r#"{"behaviorID": "RespondToRenameFace", "behaviorClass": "RespondToRenameFace"}"#,
    );
    write(
        "alsoRename.json",
        r#"{"behaviorID": "AlsoRename", "behaviorClass": "RespondToRenameFace"}"#,
    );
    write(
        "idle.json",
        r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#,
    );
    let d = dir.path().display().to_string();
    // The base: the shipped tree's (`GlobalInterruptions`), as `--check-tree` finds it.
    let (code, out, err) = run(&["--check-tree", &d]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let section: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("class predicates"))
        .collect();
    assert!(!section.is_empty(), "{out}");
    let rename: Vec<&&str> = section
        .iter()
        .filter(|l| l.trim_start().starts_with("RespondToRenameFace ("))
        .collect();
    assert_eq!(rename.len(), 1, "one line for both behaviors: {section:?}");
    assert!(rename[0].contains(", 2): "), "{rename:?}");
    assert!(
        rename[0].contains("a face was renamed since it last ran; reads ")
            && rename[0].contains("face_renamed"),
        "{rename:?}"
    );
    // Dispatchers and Wait run natively and add nothing: not listed.
    assert!(
        !section.iter().any(|l| l.trim_start().starts_with("Wait (")),
        "{section:?}"
    );
}

#[test]
fn check_tree_reports_every_problem_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("base.json"),
        r#"{
  "behaviorID": "Base",
  "behaviorClass": "DispatcherStrictPriority",
  "behaviors": ["Missing"],
  "surprise": 1,
  "interruptActiveBehavior": true
}
"#,
    )
    .unwrap();
    let d = dir.path().display().to_string();
    let (code, out, err) = run(&["--check-tree", &d]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        out.contains("base.json:4:"),
        "the missing reference's place: {out}"
    );
    assert!(
        out.contains("base.json:5:"),
        "the unknown key's place: {out}"
    );
    assert!(out.contains("surprise"), "{out}");

    // Lenient: the unknown key is a warning; the missing reference stays an error.
    let (code, out, _) = run(&["--check-tree", &d, "--lenient"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("problems 2 (1 errors, 1 warnings)"), "{out}");
}

#[test]
fn tree_dir_plays_the_default_scenario() {
    let (code, out, err) = run(&["--tree", &original()]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("HighLevelAI("), "{out}");
}

/// A FIFO named like a tree file is skipped with a warning (opening one would wait forever
/// for a writer); a file that starts with a UTF-8 byte-order mark loses nothing: its first
/// line's problem is still found at line 2 of it, and the rest of the tree is checked.
#[cfg(unix)]
#[test]
fn special_files_are_skipped_and_a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("x.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    std::fs::write(
        dir.path().join("base.json"),
        "\u{feff}{\n  \"behaviorID\": \"Base\", \"behaviorClass\": \"Wait\", \"surprise\": 1\n}\n",
    )
    .unwrap();
    let d = dir.path().display().to_string();
    let (code, out, err) = run(&["--check-tree", &d]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        err.contains("x.json is a FIFO, not a file: skipped"),
        "{err}"
    );
    assert!(out.contains("files 1,"), "{out}");
    assert!(
        out.contains("base.json:2:"),
        "the unknown key, on line 2: {out}"
    );
    assert!(out.contains("surprise"), "{out}");
    // Named alone, a FIFO is refused, not opened.
    let (code, _, err) = run(&["--check-tree", fifo.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("is a FIFO, not a file or a directory"),
        "{err}"
    );
}
