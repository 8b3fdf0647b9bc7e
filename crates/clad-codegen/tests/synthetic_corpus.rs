//! The synthetic robot-shaped corpus of `benches/corpus` (used by `benches/frontend.rs`):
//! every file compiles cleanly and the corpus has the size and shape of the real schema tree
//! (spec §8). No timing assertions here: timings live in the benchmark.

#[path = "../benches/corpus/mod.rs"]
mod corpus;

use clad_codegen::ir::{DeclKind, Schema};
use clad_codegen::{compile, Compilation};

fn compile_ok(loader: &mut clad_codegen::MemoryLoader, path: &str) -> Schema {
    let out: Compilation = compile(loader, path);
    assert!(
        !out.has_errors(),
        "{path} does not compile:\n{}",
        out.render()
    );
    out.schema.expect("a schema when there is no error")
}

#[test]
fn the_corpus_is_deterministic() {
    assert_eq!(corpus::files(), corpus::files());
}

#[test]
fn every_file_compiles_without_errors() {
    let files = corpus::files();
    let mut loader = corpus::loader_for(&files);
    let mut failures = Vec::new();
    for (path, _) in &files {
        let out = compile(&mut loader, path);
        if out.has_errors() {
            failures.push(format!("=== {path}\n{}", out.render()));
        } else if !out.diagnostics.is_empty() {
            eprintln!("=== {path} (warnings)\n{}", out.render());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn the_corpus_has_the_size_of_the_real_tree() {
    let c = corpus::corpus();
    let lines: usize = c.files.iter().map(|(_, t)| t.lines().count()).sum();
    let s = &c.stats;
    eprintln!("{s:#?}");
    assert_eq!(s.files, c.files.len());
    assert_eq!(s.lines, lines);
    assert!(c.files.len() >= 125, "{} files", c.files.len());
    assert!(lines >= 8000, "{lines} lines");
    assert!(s.messages + s.structures >= 420, "{s:?}");
    assert!(s.enums >= 80, "{s:?}");
    assert!(s.enum_concepts >= 3, "{s:?}");
    assert!(s.includes >= 100, "{s:?}");
    // Paths are unique.
    let mut paths: Vec<&str> = c.files.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(paths.len(), c.files.len());
    // Both top-level files are roots.
    assert!(c.roots.iter().any(|r| r == corpus::GAME_TO_ENGINE_FILE));
    assert!(c.roots.iter().any(|r| r == corpus::ENGINE_TO_GAME_FILE));
}

#[test]
fn the_big_enums_and_the_dupes_allowed_union() {
    let mut loader = corpus::loader();
    let s = compile_ok(&mut loader, corpus::ANIMATION_TRIGGER_FILE);
    let DeclKind::Enum(e) = &s.decl(s.lookup(corpus::ANIMATION_TRIGGER).unwrap()).kind else {
        panic!("AnimationTrigger is not an enum")
    };
    assert!(e.members.len() >= 500, "{} members", e.members.len());
    assert_eq!(e.members.len(), corpus::ANIMATION_TRIGGER_MEMBERS);
    assert_eq!(e.storage.name(), "int_32");
    assert_eq!(e.members[0].value, -1);
    assert_eq!(e.members.last().unwrap().value, 518);

    let s = compile_ok(&mut loader, corpus::BEHAVIOR_ID_FILE);
    let DeclKind::Enum(e) = &s.decl(s.lookup(corpus::BEHAVIOR_ID).unwrap()).kind else {
        panic!("BehaviorID is not an enum")
    };
    assert_eq!(e.members.len(), corpus::BEHAVIOR_ID_MEMBERS);
    assert_eq!(e.storage.name(), "uint_16");

    let s = compile_ok(&mut loader, corpus::USER_INTENT_FILE);
    let DeclKind::Union(u) = &s.decl(s.lookup(corpus::USER_INTENT).unwrap()).kind else {
        panic!("UserIntent is not a union")
    };
    assert!(u.dupes_allowed);
    assert_eq!(u.members.len(), corpus::USER_INTENT_MEMBERS);
    assert!(u.members.iter().filter(|m| m.has_duplicates).count() > 30);
}

#[test]
fn the_autounions_collect_the_whole_translation_unit() {
    let mut loader = corpus::loader();
    let s = compile_ok(&mut loader, corpus::GAME_TO_ENGINE_FILE);
    let DeclKind::Union(u) = &s.decl(s.lookup(corpus::GAME_TO_ENGINE_UNION).unwrap()).kind else {
        panic!("MessageGameToEngine is not a union")
    };
    assert!(u.autounion);
    let explicit = u.members.iter().take_while(|m| !m.automatic).count();
    assert_eq!(explicit, corpus::GAME_TO_ENGINE_EXPLICIT);
    for (i, m) in u.members[..explicit].iter().enumerate() {
        assert_eq!(usize::from(m.tag), i, "{}", m.name);
    }
    let first_auto = &u.members[explicit];
    assert!(first_auto.automatic);
    assert_eq!(first_auto.tag, 0x22);
    let automatic = u.members.iter().filter(|m| m.automatic).count();
    eprintln!(
        "MessageGameToEngine: {explicit} explicit + {automatic} automatic members, last tag {:#04x}",
        u.members.last().unwrap().tag
    );
    assert!(automatic >= 150, "{automatic} automatic members");
    assert!(u.members.len() >= 150);
    // Every message of the translation unit is a member.
    let messages = s
        .decls
        .iter()
        .filter(|d| matches!(&d.kind, DeclKind::Struct(st) if st.is_message))
        .count();
    assert_eq!(u.members.len(), messages);

    let s = compile_ok(&mut loader, corpus::ENGINE_TO_GAME_FILE);
    let DeclKind::Union(u) = &s.decl(s.lookup(corpus::ENGINE_TO_GAME_UNION).unwrap()).kind else {
        panic!("MessageEngineToGame is not a union")
    };
    assert!(u.autounion);
    assert!(u.members.iter().all(|m| m.automatic));
    eprintln!("MessageEngineToGame: {} automatic members", u.members.len());
    assert!(u.members.len() >= 100, "{} members", u.members.len());
}

#[test]
fn the_largest_root_is_the_engine_to_game_file() {
    let files = corpus::files();
    let mut loader = corpus::loader_for(&files);
    let text = &files
        .iter()
        .find(|(p, _)| p == corpus::largest_root())
        .unwrap()
        .1;
    let includes = text.lines().filter(|l| l.starts_with("#include")).count();
    eprintln!("{}: {includes} #include lines", corpus::largest_root());
    assert!((35..=45).contains(&includes), "{includes} includes");
    let size = |loader: &mut clad_codegen::MemoryLoader, root: &str| -> usize {
        let out = compile(loader, root);
        assert!(!out.has_errors(), "{root}:\n{}", out.render());
        out.sources.files().map(|(_, f)| f.text.len()).sum()
    };
    let largest = size(&mut loader, corpus::largest_root());
    for root in corpus::roots() {
        assert!(size(&mut loader, &root) <= largest, "{root} is larger");
    }
}

#[test]
fn the_whole_tree_generates_rust_that_parses() {
    let corpus = corpus::corpus();
    let mut loader = corpus::loader_for(&corpus.files);
    let units: Vec<_> = corpus
        .files
        .iter()
        .map(|(path, _)| {
            clad_codegen::compile(&mut loader, path)
                .schema
                .expect("compiles")
        })
        .collect();
    let code = clad_codegen::rust::generate(&units, &Default::default())
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(code.starts_with("// @generated"));
    syn::parse_file(&code).expect("generated code parses");
    // One type per non-concept declaration of the tree, plus one tag enum per union.
    assert!(code.matches("pub enum ").count() > 100);
}
