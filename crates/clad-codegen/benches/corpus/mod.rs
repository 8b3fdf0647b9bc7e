//! A deterministic synthetic CLAD corpus shaped like the real robot schema tree (spec
//! `clad-language.md` §8): about 130 files and 8,000+ lines in `Anki::…` namespaces of depth
//! 2-3, `#include` chains, ~100 enums (uint_8/uint_16/int_8/int_16/int_32/uint_32 storage,
//! explicit decimal, hex, negative and verbatim values), one 520-member `int_32` enum (like
//! `animationTrigger.clad`), one 360-member `uint_16` enum (like `behaviorIDs.clad`), ~470
//! messages and structures with members of every kind, unions with explicit hex tags, a
//! 68-member `union dupes_allowed` (like `userIntent.clad`), a union of unions (like
//! `messageExternalComms.clad`), enum concepts and two autounions in the top-level files
//! (like `messageGameToEngine.clad` and `messageEngineToGame.clad`).
//!
//! Shared by `benches/frontend.rs` and `tests/synthetic_corpus.rs`:
//!
//! ```ignore
//! #[path = "../benches/corpus/mod.rs"]
//! mod corpus;
//! ```
//!
//! No randomness crate: a xorshift64 generator seeded with a constant makes the corpus
//! byte-for-byte identical on every run and every machine.
//!
//! Rules the generator keeps so that every file compiles on its own:
//! * every type and message short name is unique in the whole corpus (an autounion collects
//!   every `message` of its translation unit and rejects two with the same short name);
//! * a file only uses types of the files it includes (directly or not) and its own earlier
//!   declarations;
//! * only the two top-level files declare autounions and nothing includes them, and their
//!   translation units hold far fewer than 255 messages (union tags are `uint_8`);
//! * identifiers avoid every reserved word of spec §1.5.

#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;

use clad_codegen::MemoryLoader;

mod decls;
mod tree;
mod vocab;

use vocab::*;

/// Top-level file with `autounion MessageGameToEngine` (explicit tags 0x00-0x21, then
/// automatic members).
pub const GAME_TO_ENGINE_FILE: &str = "clad/externalInterface/messageGameToEngine.clad";
/// Top-level file with ~40 includes and `autounion MessageEngineToGame`: the largest
/// translation unit.
pub const ENGINE_TO_GAME_FILE: &str = "clad/externalInterface/messageEngineToGame.clad";
/// Fully qualified name of the game-to-engine autounion.
pub const GAME_TO_ENGINE_UNION: &str = "Anki::Vector::ExternalInterface::MessageGameToEngine";
/// Fully qualified name of the engine-to-game autounion.
pub const ENGINE_TO_GAME_UNION: &str = "Anki::Vector::ExternalInterface::MessageEngineToGame";
/// Number of explicitly tagged members of `MessageGameToEngine` (0x00-0x21).
pub const GAME_TO_ENGINE_EXPLICIT: usize = 0x22;
/// Least number of automatic members of `MessageGameToEngine` (the generator adds own
/// messages to the top-level file until the translation unit has this many).
pub const GAME_TO_ENGINE_AUTOMATIC: usize = 156;

/// File of the big `int_32` enum.
pub const ANIMATION_TRIGGER_FILE: &str = "clad/types/animationTrigger.clad";
/// The big `int_32` enum.
pub const ANIMATION_TRIGGER: &str = "Anki::Vector::AnimationTrigger";
/// Its number of members.
pub const ANIMATION_TRIGGER_MEMBERS: usize = 520;
/// File of the `uint_16` behavior-id enum.
pub const BEHAVIOR_ID_FILE: &str = "clad/types/behaviorComponent/behaviorIDs.clad";
/// The `uint_16` behavior-id enum.
pub const BEHAVIOR_ID: &str = "Anki::Vector::BehaviorID";
/// Its number of members.
pub const BEHAVIOR_ID_MEMBERS: usize = 360;
/// File of the `dupes_allowed` union.
pub const USER_INTENT_FILE: &str = "clad/types/behaviorComponent/userIntent.clad";
/// The `dupes_allowed` union.
pub const USER_INTENT: &str = "Anki::Vector::UserIntent";
/// Its number of members.
pub const USER_INTENT_MEMBERS: usize = 68;

/// The generated corpus.
pub struct Corpus {
    /// `(path, text)` of every file, in generation order (a file only includes earlier ones).
    pub files: Vec<(String, String)>,
    /// Files that no other file includes (the top-level files of the tree).
    pub roots: Vec<String>,
    /// What the generator wrote.
    pub stats: Stats,
}

/// Counts of what the generator wrote (each file's own declarations).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Files.
    pub files: usize,
    /// Lines over all files.
    pub lines: usize,
    /// `#include` lines.
    pub includes: usize,
    /// `namespace` blocks.
    pub namespaces: usize,
    /// Enums.
    pub enums: usize,
    /// Enumerators.
    pub enum_members: usize,
    /// `message`s.
    pub messages: usize,
    /// `structure`s.
    pub structures: usize,
    /// Message and structure members.
    pub fields: usize,
    /// Unions (not autounions).
    pub unions: usize,
    /// Autounions.
    pub autounions: usize,
    /// Union members written in the source (automatic members not counted).
    pub union_members: usize,
    /// Enum concepts.
    pub enum_concepts: usize,
}

impl Stats {
    /// Declarations other than namespaces.
    pub fn declarations(&self) -> usize {
        self.enums
            + self.messages
            + self.structures
            + self.unions
            + self.autounions
            + self.enum_concepts
    }
}

/// Generates the corpus.
pub fn corpus() -> Corpus {
    Gen::new().build()
}

/// `(path, text)` of every file.
pub fn files() -> Vec<(String, String)> {
    corpus().files
}

/// The top-level files (not included by any other file).
pub fn roots() -> Vec<String> {
    corpus().roots
}

/// A loader serving every file of the corpus (include paths are relative to the top).
pub fn loader() -> MemoryLoader {
    loader_for(&files())
}

/// A loader serving `files`.
pub fn loader_for(files: &[(String, String)]) -> MemoryLoader {
    files.iter().fold(MemoryLoader::new(), |l, (p, t)| {
        l.file(p.clone(), t.clone())
    })
}

/// The root with the largest translation unit (~40 includes and an autounion).
pub fn largest_root() -> &'static str {
    ENGINE_TO_GAME_FILE
}

// ---------------------------------------------------------------------------------------------
// Randomness

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// xorshift64 (Marsaglia): enough for picking words.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// True with probability `pct` %.
    fn chance(&mut self, pct: u64) -> bool {
        self.next_u64() % 100 < pct
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i + 1);
            xs.swap(i, j);
        }
    }

    /// `k` distinct elements of `xs` (k <= len), in random order.
    fn sample<T: Clone>(&mut self, xs: &[T], k: usize) -> Vec<T> {
        let mut v = xs.to_vec();
        self.shuffle(&mut v);
        v.truncate(k);
        v
    }
}

// ---------------------------------------------------------------------------------------------
// Generator state

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Enum,
    Structure,
    Message,
    Union,
}

struct TypeInfo {
    name: String,
    ns: Vec<String>,
    kind: Kind,
    file: usize,
    /// Enum members (empty for other kinds).
    members: Vec<String>,
}

struct FileRec {
    path: String,
    text: String,
    includes: Vec<usize>,
    closure: BTreeSet<usize>,
}

/// A file being written.
struct Src {
    idx: usize,
    path: String,
    out: String,
    ns: Vec<String>,
    includes: Vec<usize>,
    closure: BTreeSet<usize>,
}

/// Types a file can use.
#[derive(Default)]
struct Vis {
    enums: Vec<usize>,
    structures: Vec<usize>,
    messages: Vec<usize>,
    unions: Vec<usize>,
}

#[derive(Clone, Copy)]
enum EnumStyle {
    Plain,
    Decimal,
    Hex,
    Flags,
    Negative,
}

#[derive(Default)]
struct Once {
    long_string: bool,
    capped_array: bool,
}

struct Gen {
    rng: Rng,
    names: HashSet<String>,
    types: Vec<TypeInfo>,
    files: Vec<FileRec>,
    stats: Stats,
    once: Once,
}

fn check_ident(s: &str) {
    assert!(
        !RESERVED.contains(&s) && !s.starts_with("verbatim") && !s.is_empty(),
        "generator produced a reserved identifier: {s}"
    );
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_lowercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// `CubeTapRequest` -> `cube tap request`.
fn words(name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch == '_' {
            out.push(' ');
        } else if ch.is_ascii_uppercase() {
            if i > 0 && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

impl Gen {
    fn new() -> Self {
        Gen {
            rng: Rng(SEED),
            names: NAMESPACES
                .iter()
                .chain(SPECIAL_NAMES)
                .map(|s| s.to_string())
                .collect(),
            types: Vec::new(),
            files: Vec::new(),
            stats: Stats::default(),
            once: Once::default(),
        }
    }

    // ----- names -------------------------------------------------------------------------

    /// `base` if unused, else `base2`, `base3`...
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        let mut i = 2;
        while self.names.contains(&name) {
            name = format!("{base}{i}");
            i += 1;
        }
        check_ident(&name);
        self.names.insert(name.clone());
        name
    }

    /// `<prefix>[<qualifier>]<noun>`, avoiding numbered names when possible.
    fn compound(&mut self, prefix: &str, nouns: &[&str], qualifier_pct: u64) -> String {
        for _ in 0..12 {
            let q = if self.rng.chance(qualifier_pct) {
                *self.rng.pick(QUALIFIERS)
            } else {
                ""
            };
            let n = *self.rng.pick(nouns);
            let name = format!("{prefix}{q}{n}");
            if !self.names.contains(&name) {
                return self.fresh(&name);
            }
        }
        let n = *self.rng.pick(nouns);
        self.fresh(&format!("{prefix}{n}"))
    }

    fn field_name(&mut self, used: &mut HashSet<String>) -> String {
        loop {
            let h = *self.rng.pick(FIELD_HEADS);
            let t = *self.rng.pick(FIELD_TAILS);
            let name = format!("{h}{t}");
            if used.insert(name.clone()) {
                check_ident(&name);
                return name;
            }
        }
    }

    fn enum_member_names(&mut self, n: usize) -> Vec<String> {
        let mut out: Vec<String> = self
            .rng
            .sample(ENUM_WORDS, n.min(ENUM_WORDS.len()))
            .into_iter()
            .map(str::to_owned)
            .collect();
        let mut seen: HashSet<String> = out.iter().cloned().collect();
        while out.len() < n {
            let name = format!("{}{}", self.rng.pick(ENUM_WORDS), self.rng.pick(ENUM_WORDS));
            if seen.insert(name.clone()) {
                out.push(name);
            }
        }
        out
    }

    // ----- files -------------------------------------------------------------------------

    fn begin(&mut self, path: &str, summary: &str, includes: Vec<usize>, ns: &[&str]) -> Src {
        let mut closure = BTreeSet::new();
        for &i in &includes {
            closure.insert(i);
            closure.extend(self.files[i].closure.iter().copied());
        }
        let mut out = String::new();
        let base = path.rsplit('/').next().unwrap_or(path);
        if self.rng.chance(15) {
            let _ = writeln!(out, "/**");
            let _ = writeln!(out, " * File: {base}");
            let _ = writeln!(out, " *");
            let _ = writeln!(out, " * Description: {summary}");
            let _ = writeln!(out, " *");
            let _ = writeln!(
                out,
                " * Synthetic benchmark corpus (benches/corpus/mod.rs)."
            );
            let _ = writeln!(out, " **/");
        } else {
            let _ = writeln!(out, "// {base}");
            let _ = writeln!(out, "//");
            let _ = writeln!(out, "// {summary}");
            let _ = writeln!(out, "//");
            let _ = writeln!(
                out,
                "// Synthetic benchmark corpus, generated by benches/corpus/mod.rs."
            );
        }
        out.push('\n');
        if !includes.is_empty() {
            for &i in &includes {
                let p = &self.files[i].path;
                if self.rng.chance(8) {
                    let _ = writeln!(out, "#include \"{p}\" // types used below");
                } else {
                    let _ = writeln!(out, "#include \"{p}\"");
                }
            }
            out.push('\n');
        }
        for n in ns {
            let _ = writeln!(out, "namespace {n} {{");
        }
        out.push('\n');
        self.stats.includes += includes.len();
        self.stats.namespaces += ns.len();
        Src {
            idx: self.files.len(),
            path: path.to_owned(),
            out,
            ns: ns.iter().map(|s| s.to_string()).collect(),
            includes,
            closure,
        }
    }

    fn finish(&mut self, mut f: Src) -> usize {
        for n in f.ns.iter().rev() {
            let _ = writeln!(f.out, "}} // namespace {n}");
        }
        self.files.push(FileRec {
            path: f.path,
            text: f.out,
            includes: f.includes,
            closure: f.closure,
        });
        self.files.len() - 1
    }

    fn section(&mut self, f: &mut Src, title: &str) {
        let _ = writeln!(f.out, "// {}", "-".repeat(76));
        let _ = writeln!(f.out, "// {title}");
        let _ = writeln!(f.out, "// {}", "-".repeat(76));
        f.out.push('\n');
    }

    fn doc(&mut self, f: &mut Src, name: &str, what: &str) {
        let w = words(name);
        match self.rng.below(100) {
            0..=49 => {
                let line = match self.rng.below(5) {
                    0 => format!("/// {what}: {w}."),
                    1 => format!("/// Carries the {w} payload."),
                    2 => format!("/// Sent when the {w} changes."),
                    3 => format!("/// {w} (see the behavior system docs)."),
                    _ => format!("/// The {w}."),
                };
                let _ = writeln!(f.out, "{line}");
                if self.rng.chance(25) {
                    let _ = writeln!(f.out, "/// Field order is part of the wire format.");
                }
            }
            50..=59 => {
                let _ = writeln!(f.out, "/*");
                let _ = writeln!(f.out, " * {what} {name}");
                let _ = writeln!(f.out, " * Keep in sync with the engine-side handler.");
                let _ = writeln!(f.out, " */");
            }
            60..=69 => {
                let _ = writeln!(f.out, "// {w}");
            }
            _ => {}
        }
    }
}
