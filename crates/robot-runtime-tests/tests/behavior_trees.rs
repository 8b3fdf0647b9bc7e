//! Whole trees: hundred-behavior trees shaped like the original's (`shaped_tree`) load with
//! zero problems and run under changing robot states and intents; a property test of the
//! dispatchers' invariants on them; garbage fed to the loader never panics and comes back as
//! typed problems; a 10,000-deep delegation chain runs.

use std::collections::HashMap;
use std::time::Duration;

use proptest::prelude::*;
use robot_runtime::behavior::{
    check_tree, export, inspect, load, BehaviorId, LoadOptions, ProblemKind, Runner, Source,
};
use robot_runtime::intent::{IntentComponent, IntentSource};
use robot_runtime_tests::shaped_tree;
use robot_runtime_tests::world::{apply, change};
use robot_runtime_tests::{UserIntent, Void, MAP};

const DT: Duration = Duration::from_millis(60);

fn sources(files: &[(String, String)]) -> Vec<Source<'_>> {
    files.iter().map(|(n, t)| Source::new(n, t)).collect()
}

fn runner(files: &[(String, String)]) -> Runner<UserIntent> {
    let loaded = load(
        &original_behaviors::registry(),
        &sources(files),
        "InitNormalOperation",
        &LoadOptions::with_stand_ins(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.report.problems, []);
    Runner::new(loaded.tree, IntentComponent::new(&MAP))
}

#[test]
fn shaped_trees_of_every_size_load_with_zero_problems_and_resolve_every_reference() {
    for (files, seed) in [(60, 1), (350, 2), (1000, 3)] {
        let tree = shaped_tree::tree(files, seed);
        assert!(
            tree.len() >= files - 12 && tree.len() <= files + 12,
            "{}",
            tree.len()
        );
        let report = check_tree(
            &original_behaviors::registry::<UserIntent, ()>(),
            &sources(&tree),
            &LoadOptions::with_stand_ins(),
        );
        assert_eq!(report.problems, [], "{files} files");
        // As the original's: more behaviors than files (anonymous ones in their parents'
        // files); 350 files hold about 430.
        assert!(
            report.behaviors >= files + files / 10 && report.anonymous > 0,
            "{files} files: {} behaviors ({} anonymous)",
            report.behaviors,
            report.anonymous
        );
        if files == 350 {
            assert!(
                (400..=480).contains(&report.behaviors),
                "{}",
                report.behaviors
            );
        }
        assert_eq!(report.references.resolved, report.references.checked);
        assert!(report.classes.values().any(|c| !c.native), "stand-ins");
        assert!(report.conditions.len() > 15);
    }
}

/// The children of cooldown dispatchers that are cooling down, per child.
fn cooling(r: &Runner<UserIntent>) -> HashMap<BehaviorId, Duration> {
    let mut out = HashMap::new();
    for i in 0..r.len() {
        let id = BehaviorId::from_index(i);
        if let Some(s) = inspect::status(r, id) {
            if let Some(d) = s.cooling_down {
                out.insert(id, d);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// On a tree shaped like the original's, under any sequence of world changes and
    /// intents: every runner invariant holds (one frame per behavior, every frame a declared
    /// delegate of the one below, scope counts equal to what the stack and linked scopes
    /// imply, one update per tick); no runner error; a child on cooldown is never started
    /// before its cooldown is over; every active intent's owner is on the stack.
    #[test]
    fn dispatchers_keep_their_invariants_on_original_shaped_trees(
        seed in any::<u64>(),
        changes in proptest::collection::vec(change(), 40..160),
    ) {
        let files = shaped_tree::tree(80, seed);
        let mut r = runner(&files);
        r.set_seed(seed);
        for c in &changes {
            apply(&mut r, c);
            let before = cooling(&r);
            let starts: Vec<u64> = before.keys().map(|id| r.starts(*id)).collect();
            r.tick(DT, &[]);
            prop_assert_eq!(r.check_invariants(), Ok(()));
            prop_assert_eq!(r.errors(), &[][..]);
            for ((id, left), was) in before.iter().zip(starts) {
                if r.starts(*id) > was {
                    prop_assert!(*left <= DT, "{} started with {:?} of cooldown left", r.name(*id).unwrap(), left);
                }
            }
            if let Some(a) = r.intents().active() {
                let owner = a.owner().behavior().unwrap();
                prop_assert!(r.is_on_stack(owner) || r.stack().any(|f| f == owner));
            }
        }
    }

    /// Garbage never panics the loader: arbitrary text, and valid trees with bytes
    /// deleted, replaced or inserted, come back as a tree or as typed problems naming
    /// their file.
    #[test]
    fn garbage_trees_never_panic_the_loader(
        seed in any::<u64>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..12),
        noise in ".{0,200}",
    ) {
        let mut files = shaped_tree::tree(40, seed);
        for (at, byte, op) in &edits {
            let k = at % files.len();
            let text = &mut files[k].1;
            let mut bytes = std::mem::take(text).into_bytes();
            let i = at % bytes.len().max(1);
            let b = b"{}[]\",:0aZ \n/*-"[usize::from(*byte) % 15];
            match op {
                0 if !bytes.is_empty() => { bytes.remove(i); }
                1 if !bytes.is_empty() => bytes[i] = b,
                _ => bytes.insert(i.min(bytes.len()), b),
            }
            *text = String::from_utf8_lossy(&bytes).into_owned();
        }
        files.push(("noise.json".into(), noise));
        let reg = original_behaviors::registry::<UserIntent, ()>();
        match load(&reg, &sources(&files), "InitNormalOperation", &LoadOptions::with_stand_ins()) {
            Ok(l) => {
                let mut r = Runner::new(l.tree, IntentComponent::new(&MAP));
                for _ in 0..20 {
                    r.tick(DT, &[]);
                }
                prop_assert_eq!(r.check_invariants(), Ok(()));
            }
            Err(e) => {
                prop_assert!(!e.problems.is_empty());
                for p in &e.problems {
                    prop_assert!(files.iter().any(|(n, _)| *n == p.file) || p.file.is_empty(), "{}", p);
                    let _ = p.to_string();
                }
            }
        }
    }
}

#[test]
fn shaped_trees_run_claim_intents_and_export() {
    let files = shaped_tree::tree(350, 11);
    let mut r = runner(&files);
    for _ in 0..40 {
        r.tick(DT, &[]);
        r.check_invariants().unwrap();
    }
    let ai = r.id("HighLevelAI").unwrap();
    assert!(r.is_on_stack(ai), "{:?}", r.stack_names());
    assert_eq!(r.debug_state(ai), Some("Observing"));
    // The state machine claims imperative_come for its state's behavior.
    r.intents_mut()
        .set_pending(UserIntent::ImperativeCome(Void {}), IntentSource::Voice);
    let mut owner = None;
    for _ in 0..3 {
        r.tick(DT, &[]);
        if let Some(a) = r.intents().active() {
            owner = a.owner().behavior();
            break;
        }
    }
    let owner = owner.expect("claimed within the claim window");
    assert!(
        !r.respond_matchers(owner).is_empty()
            || r.name(owner).unwrap().as_str() == "ExploringVoiceCommandBehavior"
    );
    // The whole tree exports.
    let dot = export::to_dot(&r);
    assert!(dot.lines().count() > 2 * r.len());
    let mm = export::to_mermaid(&r);
    assert!(mm.contains("==>"));
    // Introspection of the active dispatchers' children.
    let gi = r.id("GlobalInterruptions").unwrap();
    let kids = inspect::children(&r, gi);
    assert_eq!(kids.len(), r.delegates(gi).len());
    assert!(kids.iter().any(|k| !k.conditions.is_empty()));
}

#[test]
fn a_ten_thousand_deep_delegation_chain_runs() {
    let text = shaped_tree::chain(10_000);
    let loaded = load(
        &original_behaviors::registry::<UserIntent, ()>(),
        &[Source::new("chain.json", &text)],
        "Link0",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut r = Runner::new(loaded.tree, IntentComponent::new(&MAP));
    for _ in 0..3 {
        r.tick(DT, &[]);
    }
    assert_eq!(r.stack().len(), 10_001);
    assert_eq!(r.errors(), []);
    r.check_invariants().unwrap();
    // Forcing a behavior rebuilds the stack along the shortest chain of delegates.
    let mid = r.id("Link5000").unwrap();
    r.force_behavior(mid).unwrap();
    assert_eq!(r.top(), Some(mid));
    let dot = export::to_dot(&r);
    assert!(dot.contains("[stack 5000]"));
}

#[test]
fn load_errors_are_typed() {
    let files = vec![
        (
            "a.json".to_owned(),
            "{\"behaviorID\": \"A\", \"behaviorClass\": 3}".to_owned(),
        ),
        ("b.json".to_owned(), "[1, {}]".to_owned()),
    ];
    let err = load(
        &original_behaviors::registry::<UserIntent, ()>(),
        &sources(&files),
        "A",
        &LoadOptions::default(),
    )
    .err()
    .unwrap();
    let kinds: Vec<&ProblemKind> = err.problems.iter().map(|p| &p.kind).collect();
    assert!(
        matches!(kinds[0], ProblemKind::WrongType { key, .. } if key == "behaviorClass"),
        "{kinds:?}"
    );
    assert!(kinds.contains(&&ProblemKind::NotAnInstance));
    assert!(kinds
        .iter()
        .any(|k| matches!(k, ProblemKind::MissingKey { key } if key == "behaviorID")));
}
