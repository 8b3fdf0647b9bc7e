//! The README's schema author's walkthrough, performed: on a temporary copy of the robot crate
//! (`schemas/` + `examples/robot`, in a workspace whose dependencies point at this
//! repository's crates), add a user intent in exactly the README's steps and run the coverage
//! check. Then show that skipping any one step fails, with the diagnostics the README quotes.
//!
//! The copy shares this test's build directory (`build.build-dir`: the intermediate artifacts,
//! so the dependencies this workspace already compiled are reused, not built a second time;
//! only this repository's crates, which the copy's workspace does not count as members and so
//! builds with the dependencies' profile, and the robot itself are compiled again) and has a
//! target directory of its own under it (the final artifacts: its `robot-example` binary never
//! replaces the one the other tests run). The copy itself is deleted afterwards.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One edit: insert `text` into `file` right after (or before) the line containing `anchor`.
#[derive(Clone, Copy)]
struct Edit {
    file: &'static str,
    anchor: &'static str,
    after: bool,
    text: &'static str,
}

/// One step of the walkthrough: its edits.
struct Step {
    name: &'static str,
    edits: &'static [Edit],
}

const STEPS: [Step; 4] = [
    Step {
        name: "1. the union member",
        edits: &[Edit {
            file: "schemas/userIntent.clad",
            anchor: "hri_suspend,",
            after: true,
            text: r#"  UserIntent_TimeInSeconds   take_a_nap,             // "take a nap for ten minutes""#,
        }],
    },
    Step {
        name: "2. the map entry",
        edits: &[Edit {
            file: "schemas/user_intent_map.json",
            anchor: r#"{"cloud_intent": "intent_system_sleep", "user_intent": "system_sleep"},"#,
            after: true,
            text: r#"    {
      "cloud_intent": "intent_system_nap_extend",
      "user_intent": "take_a_nap",
      "cloud_substitutions": {"nap_duration": "time_s"},
      "cloud_numerics": ["nap_duration"]
    },"#,
        }],
    },
    Step {
        name: "3. the behavior",
        edits: &[
            Edit {
                file: "examples/robot/behaviors/robot.json",
                anchor: "      \"Greet\"\n",
                after: false,
                text: r#"      "TakeANap","#,
            },
            Edit {
                file: "examples/robot/behaviors/robot.json",
                anchor: "// Nobody claimed what the user asked for",
                after: false,
                text: r#"  {
    "behaviorID": "TakeANap",
    "behaviorClass": "VoiceCommand",
    "respondToUserIntents": [{"type": "take_a_nap"}],
    "action": {"name": "anim_nap", "duration_ms": 3000}
  },
"#,
            },
        ],
    },
    Step {
        name: "4. the completed-intents row",
        edits: &[Edit {
            file: "examples/robot/behaviors/completed_intents.json",
            anchor: r#""handled": {"#,
            after: true,
            text: r#"    "take a nap": {"cloud_intent": "intent_system_nap_extend", "parameters": {"nap_duration": "600"}, "claimedBy": "TakeANap"},"#,
        }],
    },
];

/// The mistakes the README shows: (what, step index, wrong text).
const MISTAKES: [(&str, usize, &str, &str); 2] = [
    (
        "a typo in the map's intent name",
        1,
        r#""user_intent": "take_a_nap","#,
        r#""user_intent": "take_a_nab","#,
    ),
    (
        "a payload field the union lacks",
        1,
        r#"{"nap_duration": "time_s"}"#,
        r#"{"nap_duration": "duration_s"}"#,
    ),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The build directory this test was built in: the test binary is
/// `<build-dir>/<profile>/deps/walkthrough-<hash>`.
fn build_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .expect("the test binary lies in <build-dir>/<profile>/deps")
        .to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&path, &to.join(&name));
        } else {
            fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// A workspace with only the robot crate; the other crates are this repository's, by
/// absolute path.
fn workspace_manifest(repo: &Path) -> String {
    let text = fs::read_to_string(repo.join("Cargo.toml")).unwrap();
    let crates = repo.join("crates");
    let mut out = String::new();
    let mut in_members = false;
    for line in text.lines() {
        if in_members {
            // A `members` list over several lines: skipped up to its closing bracket.
            in_members = !line.contains(']');
        } else if line.trim_start().starts_with("members") {
            out.push_str("members = [\"examples/robot\"]\n");
            in_members = !line.contains(']');
        } else {
            out.push_str(&line.replace(
                "path = \"crates/",
                &format!("path = \"{}/", crates.display()),
            ));
            out.push('\n');
        }
    }
    out
}

fn insert(text: &str, step: &Edit) -> String {
    let at = text
        .find(step.anchor)
        .unwrap_or_else(|| panic!("anchor {:?} not found in {}", step.anchor, step.file));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    if step.after {
        format!("{}{}\n{}", &text[..line_end], step.text, &text[line_end..])
    } else {
        let text_block = if step.text.ends_with('\n') {
            step.text.to_owned()
        } else {
            format!("{}\n", step.text)
        };
        format!(
            "{}{}{}",
            &text[..line_start],
            text_block,
            &text[line_start..]
        )
    }
}

struct Copy {
    dir: tempfile::TempDir,
    originals: Vec<(PathBuf, String)>,
    target: PathBuf,
}

impl Copy {
    fn new() -> Self {
        let repo = repo();
        let base = build_dir().join("walkthrough");
        fs::create_dir_all(&base).unwrap();
        let dir = tempfile::Builder::new()
            .prefix("robot-copy")
            .tempdir_in(&base)
            .unwrap();
        copy_dir(&repo.join("schemas"), &dir.path().join("schemas"));
        copy_dir(
            &repo.join("examples/robot"),
            &dir.path().join("examples/robot"),
        );
        fs::write(dir.path().join("Cargo.toml"), workspace_manifest(&repo)).unwrap();
        fs::copy(repo.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
        let mut originals: Vec<(PathBuf, String)> = Vec::new();
        for edit in STEPS.iter().flat_map(|s| s.edits) {
            let p = dir.path().join(edit.file);
            if !originals.iter().any(|(q, _)| *q == p) {
                let t = fs::read_to_string(&p).unwrap();
                originals.push((p, t));
            }
        }
        Self {
            dir,
            originals,
            target: base.join("target"),
        }
    }

    /// Resets the files, then performs the steps whose index `do_step` accepts, with
    /// `edit` applied to the inserted texts of step `i`.
    fn perform(&self, do_step: impl Fn(usize) -> bool, edit: impl Fn(usize, &str) -> String) {
        for (path, original) in &self.originals {
            let mut text = original.clone();
            for (i, step) in STEPS.iter().enumerate() {
                if !do_step(i) {
                    continue;
                }
                for e in step.edits {
                    if self.dir.path().join(e.file) == *path {
                        let edited = Edit {
                            text: Box::leak(edit(i, e.text).into_boxed_str()),
                            ..*e
                        };
                        text = insert(&text, &edited);
                    }
                }
            }
            fs::write(path, text).unwrap();
        }
    }

    /// `cargo run -p robot-example -- --coverage` in the copy: (success, output).
    fn coverage(&self) -> (bool, String) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "run",
                "-q",
                "--offline",
                "-p",
                "robot-example",
                "--",
                "--coverage",
            ])
            .current_dir(self.dir.path())
            .env("CARGO_BUILD_BUILD_DIR", build_dir())
            .env("CARGO_TARGET_DIR", &self.target)
            .env("NO_COLOR", "1")
            .env_remove("CARGO_MAKEFLAGS")
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .output()
            .expect("cargo runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    }
}

fn unchanged(_: usize, t: &str) -> String {
    t.to_owned()
}

#[test]
fn the_readme_walkthrough_adds_an_intent_and_every_step_matters() {
    // The README shows exactly these texts.
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    for step in &STEPS {
        for e in step.edits {
            assert!(
                readme.contains(e.text.trim_end()),
                "README.md does not show step {:?} as the test performs it:\n{}",
                step.name,
                e.text
            );
        }
    }

    let copy = Copy::new();

    // All steps: the coverage check passes and lists the new intent with its proof.
    copy.perform(|_| true, unchanged);
    let (ok, out) = copy.coverage();
    assert!(
        ok,
        "all steps performed, yet the coverage check failed:\n{out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("take_a_nap ")
            && l.contains("TakeANap")
            && l.contains("\"take a nap\" ok")),
        "{out}"
    );

    // Any one step skipped: the check fails and says what is missing.
    let expected_when_skipped = [
        // 1: the map names a member the union lacks: the build fails.
        "unknown user intent",
        // 2: nothing produces the intent.
        "`take_a_nap` is claimed by TakeANap, but no entry of user_intent_map.json produces it",
        // 3: nobody claims it.
        "user intent `take_a_nap` is claimed by no behavior",
        // 4: no proof.
        "`take_a_nap` is claimed by TakeANap but has no row in \"handled\"",
    ];
    for (skip, expected) in expected_when_skipped.iter().enumerate() {
        copy.perform(|i| i != skip, unchanged);
        let (ok, out) = copy.coverage();
        assert!(
            !ok,
            "step {:?} skipped, yet the check passed:\n{out}",
            STEPS[skip].name
        );
        assert!(
            out.contains(expected),
            "step {:?} skipped: expected {expected:?} in:\n{out}",
            STEPS[skip].name
        );
        if skip == 0 || skip == 2 {
            println!("--- {} skipped:\n{out}", STEPS[skip].name);
        }
    }

    // The mistakes the README shows, as the author sees them.
    for (what, step, right, wrong) in MISTAKES {
        copy.perform(
            |_| true,
            |i, t| {
                if i == step {
                    t.replace(right, wrong)
                } else {
                    t.to_owned()
                }
            },
        );
        let (ok, out) = copy.coverage();
        assert!(!ok, "{what}: the build passed:\n{out}");
        println!("--- {what}:\n{out}");
        let expected = match wrong {
            w if w.contains("take_a_nab") => "unknown user intent",
            _ => "duration_s",
        };
        assert!(
            out.contains(expected),
            "{what}: expected {expected:?} in:\n{out}"
        );
    }
}
