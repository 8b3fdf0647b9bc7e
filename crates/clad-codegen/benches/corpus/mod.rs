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
// Vocabulary

/// Spec §1.5: the union of the C, C++, Python and C# keyword lists.
#[rustfmt::skip]
const RESERVED: &[&str] = &[
    "abstract", "and", "and_eq", "as", "asm", "assert", "auto", "base", "bitand", "bitor", "bool",
    "break", "byte", "case", "catch", "char", "checked", "class", "compl", "const", "const_cast",
    "continue", "decimal", "def", "default", "del", "delegate", "delete", "do", "double",
    "dynamic_cast", "elif", "else", "enum", "event", "except", "exec", "explicit", "extern",
    "False", "false", "finally", "fixed", "float", "for", "foreach", "friend", "from", "global",
    "goto", "if", "implicit", "import", "in", "inline", "int", "interface", "internal", "is",
    "lambda", "lock", "long", "mutable", "namespace", "new", "None", "nonlocal", "not", "not_eq",
    "null", "object", "operator", "or", "or_eq", "out", "override", "params", "pass", "print",
    "private", "protected", "public", "raise", "readonly", "ref", "register", "reinterpret_cast",
    "return", "sbyte", "sealed", "short", "signed", "sizeof", "stackalloc", "static",
    "static_cast", "string", "struct", "switch", "template", "this", "throw", "True", "true",
    "try", "type", "typedef", "typeid", "typename", "typeof", "uint", "ulong", "unchecked",
    "union", "unsafe", "unsigned", "ushort", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "with", "xor", "xor_eq", "yield",
];

/// Names of the hand-written declarations, reserved before anything is generated.
#[rustfmt::skip]
const SPECIAL_NAMES: &[&str] = &[
    "CommsConstants", "ActionResultCategory", "ARCBitShift", "ActionResult", "AnimationTrigger",
    "BehaviorID", "UserIntent", "UserIntent_Void", "MessageGameToEngine", "MessageEngineToGame",
    "AnimationStarted", "BehaviorTransition", "UserIntentReceived", "LogEnvelope", "VizColorId",
    "MicVoid", "DocsVoid", "Message", "DocRequest", "TokenRequest", "RtsConnection",
    "RtsConnection_1", "RtsConnection_2", "RtsConnection_3", "RtsConnection_4", "RtsConnection_5",
    "ExternalCommsMessage", "VizMessage", "RobotToEngine", "EngineToRobot", "ExternalToRobot",
    "RobotToExternal", "RobotPublicState", "ActiveFeatureType", "ActiveFeatureId",
];

/// Namespace names (types never take these names).
#[rustfmt::skip]
const NAMESPACES: &[&str] = &[
    "Anki", "Vector", "Vision", "Util", "AudioMetaData", "GameEvent", "ExternalInterface",
    "RobotInterface", "Gateway", "CloudMic", "JDocs", "TokenComms", "LogCollector",
    "ExternalComms", "VizInterface",
];

#[rustfmt::skip]
const TOPICS: &[&str] = &[
    "Anim", "Battery", "Behavior", "Block", "Camera", "Charger", "Cliff", "Cube", "Display",
    "Face", "Feature", "Habitat", "Head", "Imu", "Lift", "Light", "Map", "Mic", "Motor", "Nav",
    "Onboarding", "Path", "Pet", "Pose", "Power", "Prox", "Sdk", "Settings", "Sleep",
    "Stimulation", "Touch", "Tracking", "Update", "Wake", "Wheel", "Wifi", "Alexa", "Jdoc", "Log",
    "Timer", "Weather", "Volume", "Eye", "Photo", "Marker", "Dock", "Emotion", "Sound",
];

/// Extra type files under `types/behaviorComponent/`: (file stem, type-name prefix).
const BEHAVIOR_FILES: &[(&str, &str)] = &[
    ("behaviorTypes", "BehaviorKind"),
    ("beiConditionTypes", "BeiCondition"),
    ("cubeSpinnerTypes", "CubeSpinner"),
    ("attentionTransferTypes", "AttentionTransfer"),
    ("weatherConditionTypes", "WeatherCondition"),
    ("userFacingResults", "UserFacing"),
    ("activeFeatures", "ActiveFeature"),
    ("reactionTriggers", "ReactionTrigger"),
    ("behaviorStats", "BehaviorStat"),
    ("postBehaviorSuggestions", "PostBehavior"),
    ("onboardingStages", "OnboardingStage"),
    ("simpleMoodTypes", "SimpleMood"),
    ("behaviorClasses", "BehaviorClass"),
];

#[rustfmt::skip]
const QUALIFIERS: &[&str] = &[
    "Tap", "Connect", "Move", "Stop", "Play", "Set", "Get", "Clear", "Reset", "Enable",
    "Calibrate", "Select", "Save", "Load", "Erase", "Capture", "Stream", "Sync", "Upload",
    "Refresh", "Abort", "Cancel", "Start", "Verify", "Pair", "Track", "Lock", "Scan",
];

const G2E_NOUNS: &[&str] = &["Request", "Command", "Query", "Params", "Toggle", "Action"];
#[rustfmt::skip]
const E2G_NOUNS: &[&str] = &[
    "Event", "State", "Status", "Result", "Started", "Completed", "Failed", "Changed", "Report",
    "Progress",
];
const SHARED_NOUNS: &[&str] = &["Info", "Update", "Ack", "Stats", "Notification", "Message"];
const ROBOT_NOUNS: &[&str] = &["Msg", "Packet", "Sample", "Cmd", "Reading", "Ack"];
#[rustfmt::skip]
const STRUCT_NOUNS: &[&str] = &[
    "Config", "Data", "Entry", "Snapshot", "Descriptor", "Settings", "Record", "Bounds", "Tuning",
    "Sample", "Spec", "Params",
];
const ENUM_NOUNS: &[&str] = &[
    "Type", "Mode", "Id", "Source", "Reason", "Level", "Category", "Phase", "Error", "Channel",
    "Priority", "Stage", "Kind",
];

#[rustfmt::skip]
const ENUM_WORDS: &[&str] = &[
    "Idle", "Active", "Unknown", "Invalid", "Low", "Medium", "High", "Left", "Right", "Front",
    "Back", "Up", "Down", "Primary", "Secondary", "Manual", "Automatic", "Pending", "Running",
    "Done", "Failed", "Timeout", "Cancelled", "Connected", "Disconnected", "Charging", "Sleeping",
    "Waking", "Searching", "Found", "Lost", "Red", "Green", "Blue", "White", "Off", "On", "Happy",
    "Sad", "Angry", "Bored", "Tired", "Curious", "Short", "Long", "Single", "Double", "Triple",
    "Near", "Far", "Small", "Large", "Ready", "Busy", "Paused", "Resumed", "Started", "Stopped",
    "Error", "Success", "Warning", "Critical", "Custom", "Test", "Debug", "Release",
];

const FIELD_HEADS: &[&str] = &[
    "robot", "object", "face", "cube", "head", "lift", "wheel", "path", "anim", "motor", "track",
    "target", "cliff", "light", "audio", "battery", "charger", "pose", "marker", "camera", "image",
    "touch", "prox", "pet", "timer", "volume", "wifi", "user", "app", "session", "request",
    "behavior", "intent", "action", "sensor", "accel", "gyro", "left", "right", "front", "back",
    "max", "min", "avg", "last", "next", "prev", "start", "end",
];

#[rustfmt::skip]
const FIELD_TAILS: &[&str] = &[
    "Id", "Angle", "Speed", "Duration", "Count", "Index", "Time", "Level", "Mode", "Flags",
    "Value", "Offset", "Threshold", "Radius", "Height", "Name", "State", "Kind", "Tag", "Rad",
    "Mm", "Ms", "Sec", "Percent", "Volts", "Hz", "Color", "Enabled", "Valid", "X", "Y", "Z",
    "Score", "Version", "Data", "Text", "List", "Bytes", "Hash", "Seq", "Timestamp",
];

#[rustfmt::skip]
const MEMBER_NOTES: &[&str] = &[
    "// milliseconds", "// radians", "// mm/s", "// 0 means unlimited", "// see firmware docs",
    "// deprecated, kept for wire compatibility", "// in [0, 1]", "// degrees", "// engine ticks",
    "// set by the cloud",
];

const FLOAT_DEFAULTS: &[&str] = &[
    "0.0", "0.5", "1.0", "-1.0", "0.25", "100.0", "3.14159", "2.5", "-0.75", "1000.0", "0.05",
];

const BUILTINS_WEIGHTED: &[&str] = &[
    "float_32", "float_32", "float_32", "float_32", "float_32", "float_32", "float_32", "uint_32",
    "uint_32", "uint_32", "bool", "bool", "bool", "uint_8", "uint_8", "int_32", "int_32",
    "uint_16", "int_16", "uint_64", "int_8", "int_64", "float_64",
];

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

    // ----- types -------------------------------------------------------------------------

    fn add_type(&mut self, f: &Src, name: &str, kind: Kind, members: Vec<String>) -> usize {
        self.types.push(TypeInfo {
            name: name.to_owned(),
            ns: f.ns.clone(),
            kind,
            file: f.idx,
            members,
        });
        self.types.len() - 1
    }

    fn visible(&self, f: &Src) -> Vis {
        let mut v = Vis::default();
        for (i, t) in self.types.iter().enumerate() {
            if t.file == f.idx || f.closure.contains(&t.file) {
                match t.kind {
                    Kind::Enum => v.enums.push(i),
                    Kind::Structure => v.structures.push(i),
                    Kind::Message => v.messages.push(i),
                    Kind::Union => v.unions.push(i),
                }
            }
        }
        v
    }

    /// How `f` writes the name of type `t`: short when its namespace encloses the use site,
    /// else qualified relative to the common ancestor or fully qualified.
    fn type_ref(&mut self, f: &Src, t: usize) -> String {
        let roll = self.rng.below(100);
        let ty = &self.types[t];
        let common = ty.ns.iter().zip(&f.ns).take_while(|(a, b)| a == b).count();
        let full = format!("{}::{}", ty.ns.join("::"), ty.name);
        if common == ty.ns.len() {
            if roll < 85 {
                ty.name.clone()
            } else {
                full
            }
        } else if roll < 60 {
            format!("{}::{}", ty.ns[common..].join("::"), ty.name)
        } else {
            full
        }
    }

    fn scalar(&mut self, ty: &str, name: &str, with_default: bool) -> String {
        if !with_default {
            return format!("{ty} {name}");
        }
        let value = match ty {
            "float_32" | "float_64" => (*self.rng.pick(FLOAT_DEFAULTS)).to_owned(),
            "bool" => self.rng.range(0, 1).to_string(),
            "uint_8" | "uint_16" | "uint_32" | "uint_64" => self.rng.range(0, 200).to_string(),
            _ => self.rng.range(-100, 100).to_string(),
        };
        format!("{ty} {name} = {value}")
    }

    /// One message/structure member (without the trailing comma).
    fn field(&mut self, f: &Src, vis: &Vis, used: &mut HashSet<String>) -> String {
        let name = self.field_name(used);
        let roll = self.rng.below(100);
        let compound: Vec<usize> = if !vis.structures.is_empty() && self.rng.chance(80) {
            vis.structures.clone()
        } else {
            vis.messages.clone()
        };
        match roll {
            0..=51 => {
                let ty = *self.rng.pick(BUILTINS_WEIGHTED);
                let d = self.rng.chance(30);
                self.scalar(ty, &name, d)
            }
            52..=63 => {
                if !self.once.long_string && f.idx > 60 {
                    self.once.long_string = true;
                    format!("string[uint_32] {name}")
                } else if self.rng.chance(20) {
                    format!("string[uint_16] {name}")
                } else {
                    format!("string {name}")
                }
            }
            64..=73 if !vis.enums.is_empty() => {
                let t = *self.rng.pick(&vis.enums);
                format!("{} {name}", self.type_ref(f, t))
            }
            74..=80 if !compound.is_empty() => {
                let t = *self.rng.pick(&compound);
                format!("{} {name}", self.type_ref(f, t))
            }
            81..=87 => {
                let elem = match self.rng.below(8) {
                    0..=2 if !compound.is_empty() => {
                        let t = *self.rng.pick(&compound);
                        self.type_ref(f, t)
                    }
                    3 if !vis.enums.is_empty() => {
                        let t = *self.rng.pick(&vis.enums);
                        self.type_ref(f, t)
                    }
                    4 => "string".to_owned(),
                    5 => "float_32".to_owned(),
                    6 => (*self.rng.pick(&["int_16", "uint_16", "uint_32"])).to_owned(),
                    _ => "uint_8".to_owned(),
                };
                let len = if self.rng.chance(60) {
                    "uint_8"
                } else {
                    "uint_16"
                };
                if !self.once.capped_array && len == "uint_16" && f.idx > 40 {
                    self.once.capped_array = true;
                    format!("{elem} {name}[{len}:1024]")
                } else {
                    format!("{elem} {name}[{len}]")
                }
            }
            88..=95 => {
                let elem = match self.rng.below(9) {
                    0 if !vis.structures.is_empty() => {
                        let t = *self.rng.pick(&vis.structures);
                        self.type_ref(f, t)
                    }
                    1 | 2 => "float_32".to_owned(),
                    3 => "uint_16".to_owned(),
                    4 | 5 => "uint_32".to_owned(),
                    6 => "int_32".to_owned(),
                    7 => "int_16".to_owned(),
                    _ => "uint_8".to_owned(),
                };
                let n = self.rng.range(2, 16);
                if self.rng.chance(15) {
                    format!("{elem} {name}[0x{n:x}]")
                } else {
                    format!("{elem} {name}[{n}]")
                }
            }
            96..=99 if !vis.unions.is_empty() => {
                let t = *self.rng.pick(&vis.unions);
                format!("{} {name}", self.type_ref(f, t))
            }
            _ => format!("{} {name}", self.rng.pick(BUILTINS_WEIGHTED)),
        }
    }

    /// A `message` or `structure` with `n` members.
    fn record(
        &mut self,
        f: &mut Src,
        kind: Kind,
        name: &str,
        n: usize,
        no_default_constructor: bool,
    ) -> usize {
        let kw = if kind == Kind::Message {
            "message"
        } else {
            "structure"
        };
        self.doc(f, name, kw);
        let vis = self.visible(f);
        let mut used = HashSet::new();
        let fields: Vec<String> = (0..n).map(|_| self.field(f, &vis, &mut used)).collect();
        let ndc = if no_default_constructor {
            "no_default_constructor "
        } else {
            ""
        };
        if fields.is_empty() {
            let _ = writeln!(f.out, "{ndc}{kw} {name} {{\n}}\n");
        } else {
            let _ = writeln!(f.out, "{ndc}{kw} {name} {{");
            let trailing = self.rng.chance(30);
            for (i, m) in fields.iter().enumerate() {
                let comma = if i + 1 < fields.len() || trailing {
                    ","
                } else {
                    ""
                };
                if self.rng.chance(10) {
                    let decl = m.split(" = ").next().unwrap_or(m);
                    let w = decl.rsplit(' ').next().unwrap_or(decl);
                    let w = w.split('[').next().unwrap_or(w);
                    let _ = writeln!(f.out, "  /// The {}.", words(w));
                }
                if self.rng.chance(12) {
                    let note = *self.rng.pick(MEMBER_NOTES);
                    let _ = writeln!(f.out, "  {m}{comma} {note}");
                } else {
                    let _ = writeln!(f.out, "  {m}{comma}");
                }
            }
            let _ = writeln!(f.out, "}}\n");
        }
        self.stats.fields += n;
        if kind == Kind::Message {
            self.stats.messages += 1;
        } else {
            self.stats.structures += 1;
        }
        self.add_type(f, name, kind, Vec::new())
    }

    fn message_members(&mut self) -> usize {
        if self.rng.chance(15) {
            0
        } else {
            self.rng.range(1, 6) as usize
        }
    }

    /// An enum with `n` members; returns the type index.
    fn enum_decl(
        &mut self,
        f: &mut Src,
        name: &str,
        storage: &str,
        style: EnumStyle,
        names: Vec<String>,
        no_cpp_class: bool,
    ) -> usize {
        self.doc(f, name, "enum");
        let ncc = if no_cpp_class { "no_cpp_class " } else { "" };
        let _ = writeln!(f.out, "enum {ncc}{storage} {name} {{");
        let n = names.len();
        let trailing = self.rng.chance(40);
        let mut next: i64 = 0;
        for (i, m) in names.iter().enumerate() {
            check_ident(m);
            let init = match style {
                EnumStyle::Plain => None,
                EnumStyle::Decimal => {
                    if i == 0 && self.rng.chance(50) {
                        next = self.rng.range(1, 10);
                        Some(next.to_string())
                    } else if self.rng.chance(25) {
                        next += self.rng.range(1, 5);
                        Some(next.to_string())
                    } else {
                        None
                    }
                }
                EnumStyle::Hex => {
                    if i == 0 || self.rng.chance(20) {
                        next = (next / 16 + 1) * 16 + self.rng.range(0, 3);
                        Some(format!("0x{next:x}"))
                    } else {
                        None
                    }
                }
                EnumStyle::Flags => {
                    next = 1 << i;
                    Some(format!("0x{next:x}"))
                }
                EnumStyle::Negative => {
                    if i == 0 {
                        next = -1;
                        Some("-1".to_owned())
                    } else if i + 1 == n && n > 3 && self.rng.chance(50) {
                        next = -self.rng.range(10, 100);
                        Some(next.to_string())
                    } else {
                        None
                    }
                }
            };
            let comma = if i + 1 < n || trailing { "," } else { "" };
            match init {
                Some(v) => {
                    let _ = writeln!(f.out, "  {m} = {v}{comma}");
                }
                None => {
                    let _ = writeln!(f.out, "  {m}{comma}");
                }
            }
            next += 1;
        }
        let _ = writeln!(f.out, "}}\n");
        self.stats.enums += 1;
        self.stats.enum_members += n;
        self.add_type(f, name, Kind::Enum, names)
    }

    fn random_enum(&mut self, f: &mut Src, prefix: &str) -> usize {
        let (storage, style) = match self.rng.below(100) {
            0..=62 => (
                "uint_8",
                if self.rng.chance(35) {
                    EnumStyle::Decimal
                } else {
                    EnumStyle::Plain
                },
            ),
            63..=77 => (
                "uint_32",
                *self
                    .rng
                    .pick(&[EnumStyle::Flags, EnumStyle::Hex, EnumStyle::Plain]),
            ),
            78..=87 => ("int_32", EnumStyle::Negative),
            88..=91 => ("int_8", EnumStyle::Negative),
            92..=95 => ("int_16", EnumStyle::Negative),
            _ => ("uint_16", EnumStyle::Hex),
        };
        let n = if self.rng.chance(10) {
            self.rng.range(18, 30)
        } else {
            self.rng.range(2, 12)
        } as usize;
        let n = if matches!(style, EnumStyle::Flags) {
            n.min(12)
        } else {
            n
        };
        let mut names = self.enum_member_names(n);
        if self.rng.chance(20) {
            names.push("Count".to_owned());
        }
        let name = self.compound(prefix, ENUM_NOUNS, 10);
        let no_cpp_class = self.rng.chance(4);
        self.enum_decl(f, &name, storage, style, names, no_cpp_class)
    }

    /// `enum_concept bool Name[Enum] { ... }` over enum type `e` (every member, no trailing
    /// comma).
    fn bool_concept(&mut self, f: &mut Src, e: usize) {
        let ename = self.types[e].name.clone();
        let members = self.types[e].members.clone();
        let adj = *self
            .rng
            .pick(&["Safe", "Interruptible", "Visible", "Enabled", "Terminal"]);
        let _ = writeln!(
            f.out,
            "/// True for the {} values that are {}.",
            words(&ename),
            adj.to_lowercase()
        );
        let _ = writeln!(f.out, "enum_concept bool Is{ename}{adj}[{ename}] {{");
        for (i, m) in members.iter().enumerate() {
            let v = self.rng.range(0, 1);
            let comma = if i + 1 < members.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {m} = {v}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.stats.enum_concepts += 1;
    }

    /// Ascending union tags from `start` with some gaps; `Some` = written explicitly.
    fn tags(&mut self, n: usize, start: i64, explicit_pct: u64) -> Vec<Option<i64>> {
        let mut out = Vec::with_capacity(n);
        let mut t = start;
        for i in 0..n {
            if i == 0 {
                out.push(Some(t));
                continue;
            }
            let remaining = (n - i) as i64;
            if t + 8 + remaining < 250 && self.rng.chance(15) {
                t += 1 + self.rng.range(1, 6);
                out.push(Some(t));
            } else {
                t += 1;
                out.push(if self.rng.chance(explicit_pct) {
                    Some(t)
                } else {
                    None
                });
            }
        }
        out
    }

    /// A union; `members` are (type text, member name, tag).
    fn union_decl(
        &mut self,
        f: &mut Src,
        kw: &str,
        dupes_allowed: bool,
        name: &str,
        members: &[(String, String, Option<i64>)],
    ) -> usize {
        self.doc(f, name, kw);
        let da = if dupes_allowed { "dupes_allowed " } else { "" };
        let _ = writeln!(f.out, "{kw} {da}{name} {{");
        for (i, (ty, m, tag)) in members.iter().enumerate() {
            check_ident(m);
            let comma = if i + 1 < members.len() { "," } else { "" };
            match tag {
                Some(t) => {
                    let _ = writeln!(f.out, "  {ty} {m} = 0x{t:02x}{comma}");
                }
                None => {
                    let _ = writeln!(f.out, "  {ty} {m}{comma}");
                }
            }
        }
        let _ = writeln!(f.out, "}}\n");
        if kw == "autounion" {
            self.stats.autounions += 1;
        } else {
            self.stats.unions += 1;
        }
        self.stats.union_members += members.len();
        self.add_type(f, name, Kind::Union, Vec::new())
    }

    /// Union members for message types `ts` named after the types, with generated tags.
    fn union_members_for(
        &mut self,
        f: &Src,
        ts: &[usize],
        start: i64,
        explicit_pct: u64,
    ) -> Vec<(String, String, Option<i64>)> {
        let tags = self.tags(ts.len(), start, explicit_pct);
        ts.iter()
            .zip(tags)
            .map(|(&t, tag)| {
                let ty = self.type_ref(f, t);
                (ty, lower_first(&self.types[t].name), tag)
            })
            .collect()
    }

    /// `n` messages named `<topic>[<qualifier>]<noun>`.
    fn messages(&mut self, f: &mut Src, topic: &str, nouns: &[&str], n: usize) -> Vec<usize> {
        (0..n)
            .map(|_| {
                let name = self.compound(topic, nouns, 70);
                let k = self.message_members();
                self.record(f, Kind::Message, &name, k, false)
            })
            .collect()
    }

    fn pick_files(&mut self, from: &[usize], lo: i64, hi: i64) -> Vec<usize> {
        let k = (self.rng.range(lo, hi) as usize).min(from.len());
        let mut v = self.rng.sample(from, k);
        v.sort_unstable();
        v
    }

    // ----- the tree ----------------------------------------------------------------------

    fn build(mut self) -> Corpus {
        let types = self.type_files();
        let shared_topics = self.rng.sample(TOPICS, 10);
        let g2e_topics = self.rng.sample(TOPICS, 14);
        let e2g_topics = self.rng.sample(TOPICS, 20);

        // externalInterface/shared: included by both top-level files.
        let mut shared = Vec::new();
        for t in &shared_topics {
            let inc = self.pick_files(&types.generic, 1, 2);
            let path = format!(
                "clad/externalInterface/shared/{}Messages.clad",
                lower_first(t)
            );
            let mut f = self.begin(
                &path,
                &format!("{t} messages shared by both directions of the app protocol."),
                inc,
                &["Anki", "Vector", "ExternalInterface"],
            );
            if self.rng.chance(30) {
                let name = self.compound(t, STRUCT_NOUNS, 30);
                let k = self.rng.range(2, 5) as usize;
                self.record(&mut f, Kind::Structure, &name, k, false);
            }
            let n = self.rng.range(4, 6) as usize;
            self.messages(&mut f, t, SHARED_NOUNS, n);
            shared.push(self.finish(f));
        }

        // externalInterface/gameToEngine.
        let mut g2e = Vec::new();
        for (i, t) in g2e_topics.iter().enumerate() {
            let mut inc = self.pick_files(&types.generic, 1, 2);
            if self.rng.chance(30) {
                inc.push(*self.rng.pick(&shared));
            }
            if i == 0 {
                inc.push(types.action_results);
            }
            let path = format!(
                "clad/externalInterface/gameToEngine/{}Requests.clad",
                lower_first(t)
            );
            let mut f = self.begin(
                &path,
                &format!("Requests from the app to the engine about {}.", words(t)),
                inc,
                &["Anki", "Vector", "ExternalInterface"],
            );
            if self.rng.chance(25) {
                self.random_enum(&mut f, t);
            }
            let n = if i == 0 {
                14
            } else {
                self.rng.range(6, 8) as usize
            };
            self.messages(&mut f, t, G2E_NOUNS, n);
            g2e.push(self.finish(f));
        }

        // externalInterface/engineToGame.
        let mut e2g = Vec::new();
        for t in &e2g_topics {
            let mut inc = self.pick_files(&types.generic, 1, 2);
            if self.rng.chance(30) {
                inc.push(*self.rng.pick(&shared));
            }
            let path = format!(
                "clad/externalInterface/engineToGame/{}Events.clad",
                lower_first(t)
            );
            let mut f = self.begin(
                &path,
                &format!("Events the engine reports to the app about {}.", words(t)),
                inc,
                &["Anki", "Vector", "ExternalInterface"],
            );
            if self.rng.chance(25) {
                let name = self.compound(t, STRUCT_NOUNS, 30);
                let k = self.rng.range(2, 5) as usize;
                self.record(&mut f, Kind::Structure, &name, k, false);
            }
            let n = self.rng.range(3, 4) as usize;
            self.messages(&mut f, t, E2G_NOUNS, n);
            e2g.push(self.finish(f));
        }

        self.game_to_engine(&types, &shared, &g2e);
        self.engine_to_game(&types, &shared, &e2g);
        self.robot_interface(&types);
        self.gateway(&types);
        self.cloud(&types);
        self.external_comms(&types);
        self.viz(&types);

        // Roots: files nobody includes.
        let included: HashSet<usize> = self
            .files
            .iter()
            .flat_map(|f| f.includes.iter().copied())
            .collect();
        let roots = (0..self.files.len())
            .filter(|i| !included.contains(i))
            .map(|i| self.files[i].path.clone())
            .collect();
        let files: Vec<(String, String)> =
            self.files.into_iter().map(|f| (f.path, f.text)).collect();
        self.stats.files = files.len();
        self.stats.lines = files.iter().map(|(_, t)| t.lines().count()).sum();
        Corpus {
            files,
            roots,
            stats: self.stats,
        }
    }

    fn type_files(&mut self) -> TypeFiles {
        let mut generic = Vec::new();

        // Named constants, like the real commsConstants.clad.
        let mut f = self.begin(
            "clad/types/commsConstants.clad",
            "Constants shared by the engine, the robot process and the app.",
            Vec::new(),
            &["Anki", "Vector"],
        );
        let names = [
            ("kDirectCommsBufferSize", "1048576"),
            ("kMaxPacketSize", "0x5dc"),
            ("kMaxMessageSize", "0x7d0"),
            ("kReliableConnectionPort", "5551"),
            ("kUiMessageBufferSize", "0x40000"),
        ];
        let _ = writeln!(
            f.out,
            "/// Named constants (CLAD has no constant declarations)."
        );
        let _ = writeln!(f.out, "enum no_cpp_class uint_32 CommsConstants {{");
        for (i, (n, v)) in names.iter().enumerate() {
            let comma = if i + 1 < names.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {n} = {v}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("CommsConstants".into());
        self.stats.enums += 1;
        self.stats.enum_members += names.len();
        self.add_type(
            &f,
            "CommsConstants",
            Kind::Enum,
            names.iter().map(|(n, _)| n.to_string()).collect(),
        );
        let comms = self.finish(f);

        // Verbatim enum values, like the real actionResults.clad.
        let mut f = self.begin(
            "clad/types/actionResults.clad",
            "Action results: a category in the high bits and a detail code in the low bits.",
            vec![comms],
            &["Anki", "Vector"],
        );
        let cats = [
            "SUCCESS",
            "RUNNING",
            "RETRY",
            "ABORT",
            "CANCELLED_WHILE_RUNNING",
        ];
        let _ = writeln!(f.out, "enum no_cpp_class uint_8 ActionResultCategory {{");
        for (i, c) in cats.iter().enumerate() {
            let comma = if i + 1 < cats.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {c}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        let _ = writeln!(
            f.out,
            "enum no_cpp_class uint_8 ARCBitShift {{\n  NUM_BITS = 8\n}}\n"
        );
        let _ = writeln!(f.out, "/// Every result code of every action.");
        let _ = writeln!(f.out, "enum uint_32 ActionResult {{");
        let mut members = Vec::new();
        for c in cats {
            let _ = writeln!(
                f.out,
                "  {c} = verbatim ActionResultCategory::{c} * ARCBitShift::NUM_BITS,"
            );
            members.push(c.to_owned());
            let k = self.rng.range(1, 4);
            for j in 0..k {
                let name = format!("{c}_DETAIL_{}", j + 1);
                let _ = writeln!(f.out, "  {name},");
                members.push(name);
            }
        }
        let _ = writeln!(f.out, "}}\n");
        for n in ["ActionResultCategory", "ARCBitShift", "ActionResult"] {
            self.names.insert(n.into());
        }
        self.stats.enums += 3;
        self.stats.enum_members += cats.len() + 1 + members.len();
        self.add_type(
            &f,
            "ActionResultCategory",
            Kind::Enum,
            cats.iter().map(|c| c.to_string()).collect(),
        );
        self.add_type(&f, "ARCBitShift", Kind::Enum, vec!["NUM_BITS".into()]);
        self.add_type(&f, "ActionResult", Kind::Enum, members);
        let action_results = self.finish(f);

        let mut animation_trigger = 0;
        let mut behavior_ids = 0;
        let mut user_intent = 0;
        let mut active_features = 0;
        let plan: Vec<(String, String, Vec<&str>)> = TOPICS
            .iter()
            .map(|t| {
                let ns: Vec<&str> = match *t {
                    "Camera" | "Face" | "Eye" | "Photo" | "Marker" => vec!["Anki", "Vision"],
                    "Mic" | "Volume" | "Sound" => vec!["Anki", "AudioMetaData", "GameEvent"],
                    "Log" | "Timer" => vec!["Anki", "Util"],
                    _ => vec!["Anki", "Vector"],
                };
                (
                    format!("clad/types/{}Types.clad", lower_first(t)),
                    t.to_string(),
                    ns,
                )
            })
            .chain(BEHAVIOR_FILES.iter().map(|(stem, prefix)| {
                (
                    format!("clad/types/behaviorComponent/{stem}.clad"),
                    prefix.to_string(),
                    vec!["Anki", "Vector"],
                )
            }))
            .collect();
        for (i, (path, prefix, ns)) in plan.iter().enumerate() {
            if i == 20 {
                animation_trigger = self.animation_trigger();
            }
            if i == 48 {
                behavior_ids = self.behavior_ids();
                let inc = vec![behavior_ids, *self.rng.pick(&generic)];
                user_intent = self.user_intent(inc);
            }
            let mut inc = if generic.is_empty() {
                Vec::new()
            } else {
                self.pick_files(&generic, 0, 2)
            };
            if i > 20 && self.rng.chance(10) {
                inc.push(animation_trigger);
            }
            if i < 48 && self.rng.chance(10) {
                inc.push(comms);
            }
            let mut f = self.begin(
                path,
                &format!("Types of the {} subsystem.", words(prefix)),
                inc,
                ns,
            );
            let n_enums = self.rng.range(1, 2);
            let mut last_enum = 0;
            for _ in 0..n_enums {
                last_enum = self.random_enum(&mut f, prefix);
            }
            if self.types[last_enum].members.len() <= 24 && self.rng.chance(12) {
                self.bool_concept(&mut f, last_enum);
            }
            if prefix == "ActiveFeature" {
                self.active_feature_concept(&mut f);
            }
            let n_structs = if self.rng.chance(15) { 2 } else { 1 };
            for _ in 0..n_structs {
                let name = self.compound(prefix, STRUCT_NOUNS, 15);
                let m = self.rng.range(2, 7) as usize;
                self.record(&mut f, Kind::Structure, &name, m, false);
            }
            let idx = self.finish(f);
            if prefix == "ActiveFeature" {
                active_features = idx;
            }
            generic.push(idx);
        }
        TypeFiles {
            generic,
            comms,
            action_results,
            animation_trigger,
            behavior_ids,
            user_intent,
            active_features,
        }
    }

    /// An enum concept returning another enum, with verbatim values (like the real
    /// `ActiveFeature` -> `ActiveFeatureType` concept).
    fn active_feature_concept(&mut self, f: &mut Src) {
        let kinds = ["Social", "Play", "Utility", "Maintenance"];
        let _ = writeln!(f.out, "enum uint_8 ActiveFeatureType {{");
        for (i, k) in kinds.iter().enumerate() {
            let comma = if i + 1 < kinds.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {k}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("ActiveFeatureType".into());
        self.add_type(
            f,
            "ActiveFeatureType",
            Kind::Enum,
            kinds.iter().map(|k| k.to_string()).collect(),
        );
        self.stats.enums += 1;
        self.stats.enum_members += kinds.len();
        let names = self.enum_member_names(14);
        self.enum_decl(
            f,
            "ActiveFeatureId",
            "uint_8",
            EnumStyle::Plain,
            names.clone(),
            false,
        );
        self.names.insert("ActiveFeatureId".into());
        let _ = writeln!(
            f.out,
            "enum_concept ActiveFeatureType GetActiveFeatureType[ActiveFeatureId] {{"
        );
        for (i, m) in names.iter().enumerate() {
            let comma = if i + 1 < names.len() { "," } else { "" };
            let k = self.rng.pick(&kinds);
            let _ = writeln!(f.out, "  {m} = verbatim ActiveFeatureType::{k}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.stats.enum_concepts += 1;
    }

    fn animation_trigger(&mut self) -> usize {
        #[rustfmt::skip]
        const CONTEXT: &[&str] = &[
            "Cube", "Face", "Pet", "Charger", "Sleep", "Wake", "Dance", "FistBump", "Knock",
            "Petting", "Weather", "Timer", "Photo", "Volume", "Blackjack", "Onboarding",
            "Feeding", "Explore", "Greeting", "Reacting", "Cliff", "Lift", "Drive", "Sound",
        ];
        #[rustfmt::skip]
        const MOOD: &[&str] = &[
            "Happy", "Sad", "Angry", "Curious", "Bored", "Surprised", "Tired", "Excited",
            "Scared", "Proud", "Confused", "Frustrated", "Sneezy", "Sleepy",
        ];
        const PART: &[&str] = &["", "GetIn", "GetOut", "Loop", "Short", "Long"];
        let mut all = Vec::new();
        for c in CONTEXT {
            for m in MOOD {
                for p in PART {
                    all.push(format!("{c}{m}{p}"));
                }
            }
        }
        let mut names = self.rng.sample(&all, ANIMATION_TRIGGER_MEMBERS - 1);
        names.sort();
        let mut f = self.begin(
            ANIMATION_TRIGGER_FILE,
            "Every animation trigger the behavior system can play (auto-generated list).",
            Vec::new(),
            &["Anki", "Vector"],
        );
        let _ = writeln!(
            f.out,
            "/// Animation triggers, sorted by name. Values are not stable"
        );
        let _ = writeln!(f.out, "/// across releases: never store them.");
        let _ = writeln!(f.out, "enum int_32 AnimationTrigger {{");
        let _ = writeln!(f.out, "  InvalidAnimTrigger = -1,");
        let mut section = String::new();
        for (i, n) in names.iter().enumerate() {
            let prefix: String = n
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_uppercase())
                .take(4)
                .collect();
            if prefix != section && i % 20 == 0 {
                let _ = writeln!(f.out, "  // {prefix}...");
                section = prefix;
            }
            let comma = if i + 1 < names.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {n}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("AnimationTrigger".into());
        let mut members = vec!["InvalidAnimTrigger".to_owned()];
        members.extend(names);
        self.stats.enums += 1;
        self.stats.enum_members += members.len();
        self.add_type(&f, "AnimationTrigger", Kind::Enum, members);
        self.finish(f)
    }

    fn behavior_ids(&mut self) -> usize {
        const VERB: &[&str] = &[
            "Wander", "React", "Find", "Play", "Go", "Look", "Drive", "Explore", "Greet",
            "Observe", "Search", "Dance", "Sleep", "Charge", "Pounce", "Fetch", "Roll", "Pickup",
            "Stack", "Knock",
        ];
        const OBJ: &[&str] = &[
            "Cube", "Face", "Charger", "Sound", "Touch", "Cliff", "Light", "Home", "Person", "Pet",
            "Marker", "Obstacle", "Ceiling", "Motion", "Voice",
        ];
        const SUFFIX: &[&str] = &["", "Simple", "Quick", "Internal", "Test"];
        let mut all = Vec::new();
        for v in VERB {
            for o in OBJ {
                for s in SUFFIX {
                    all.push(format!("{v}{o}{s}"));
                }
            }
        }
        let mut names = self.rng.sample(&all, BEHAVIOR_ID_MEMBERS);
        names.sort();
        let mut f = self.begin(
            BEHAVIOR_ID_FILE,
            "Ids of every behavior instance in the behavior tree.",
            Vec::new(),
            &["Anki", "Vector"],
        );
        let _ = writeln!(f.out, "enum uint_16 BehaviorID {{");
        for (i, n) in names.iter().enumerate() {
            if i == 0 {
                let _ = writeln!(f.out, "  {n} = 0,");
            } else if i + 1 < names.len() {
                let _ = writeln!(f.out, "  {n},");
            } else {
                let _ = writeln!(f.out, "  {n}");
            }
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("BehaviorID".into());
        self.stats.enums += 1;
        self.stats.enum_members += names.len();
        self.add_type(&f, "BehaviorID", Kind::Enum, names);
        self.finish(f)
    }

    fn user_intent(&mut self, includes: Vec<usize>) -> usize {
        #[rustfmt::skip]
        const CATS: &[&str] = &[
            "greeting", "imperative", "global", "knowledge", "meet", "movement", "play",
            "seasonal", "show", "system", "weather", "explore", "check", "take",
        ];
        #[rustfmt::skip]
        const WHAT: &[&str] = &[
            "hello", "goodbye", "come", "lookatme", "dance", "fetchcube", "volume", "timer",
            "photo", "forecast", "fistbump", "blackjack", "cube", "charger", "quiet", "sleep",
            "wake", "question", "response", "name", "age", "spin", "scold", "praise", "forward",
            "backward", "turnleft", "turnright", "scan", "home",
        ];
        let mut all = Vec::new();
        for c in CATS {
            for w in WHAT {
                all.push(format!("{c}_{w}"));
            }
        }
        let mut intents = vec!["unmatched_intent".to_owned()];
        intents.extend(self.rng.sample(&all, USER_INTENT_MEMBERS - 1));

        let mut f = self.begin(
            USER_INTENT_FILE,
            "Intents recognised by the cloud and their parameters.",
            includes,
            &["Anki", "Vector"],
        );
        let vis = self.visible(&f);
        let _ = writeln!(f.out, "/// A payload-less intent (\"the user said it\").");
        let _ = writeln!(f.out, "structure UserIntent_Void {{\n}}\n");
        self.names.insert("UserIntent_Void".into());
        self.stats.structures += 1;
        let void = self.add_type(&f, "UserIntent_Void", Kind::Structure, Vec::new());

        // 22 payload structures, each with one to three members.
        let mut payloads = Vec::new();
        for w in self.rng.sample(WHAT, 22) {
            let mut camel = w.to_owned();
            camel[..1].make_ascii_uppercase();
            let name = self.fresh(&format!("UserIntent_{camel}"));
            let _ = writeln!(f.out, "structure {name} {{");
            let k = self.rng.range(1, 3) as usize;
            let mut used = HashSet::new();
            for i in 0..k {
                let m = if i == 0 && w == "timer" {
                    "int_32 time_s".to_owned()
                } else if i == 0 && self.rng.chance(25) {
                    let b = self.types.iter().position(|t| t.name == "BehaviorID");
                    match b {
                        Some(b) if vis.enums.contains(&b) => "BehaviorID behaviorId".to_owned(),
                        _ => format!("string {}", self.field_name(&mut used)),
                    }
                } else {
                    self.field(&f, &vis, &mut used)
                };
                let comma = if i + 1 < k { "," } else { "" };
                let _ = writeln!(f.out, "  {m}{comma}");
            }
            let _ = writeln!(f.out, "}}\n");
            self.stats.structures += 1;
            self.stats.fields += k;
            payloads.push(self.add_type(&f, &name, Kind::Structure, Vec::new()));
        }

        // Every payload once, five of them twice, the rest of the 68 members void.
        let mut member_types: Vec<usize> = payloads.clone();
        member_types.extend(self.rng.sample(&payloads, 5));
        while member_types.len() < USER_INTENT_MEMBERS {
            member_types.push(void);
        }
        self.rng.shuffle(&mut member_types);
        let members: Vec<(String, String, Option<i64>)> = intents
            .iter()
            .zip(&member_types)
            .map(|(i, &t)| (self.types[t].name.clone(), i.clone(), None))
            .collect();
        self.names.insert("UserIntent".into());
        let _ = writeln!(
            f.out,
            "// One member per intent. Many intents share a payload type,"
        );
        let _ = writeln!(f.out, "// hence dupes_allowed.");
        self.union_decl(&mut f, "union", true, "UserIntent", &members);
        self.finish(f)
    }

    fn game_to_engine(&mut self, types: &TypeFiles, shared: &[usize], g2e: &[usize]) {
        let mut inc: Vec<usize> = shared.iter().chain(g2e).copied().collect();
        inc.push(types.comms);
        inc.push(types.action_results);
        inc.sort_unstable();
        let mut f = self.begin(
            GAME_TO_ENGINE_FILE,
            "Every message the app sends to the engine. The autounion collects all messages \
             of this file and of everything it includes.",
            inc,
            &["Anki", "Vector", "ExternalInterface"],
        );
        let included_messages = self
            .types
            .iter()
            .filter(|t| t.kind == Kind::Message && f.closure.contains(&t.file))
            .count();
        // Own messages: the 0x22 explicitly tagged ones plus enough to reach the target.
        let own = (GAME_TO_ENGINE_EXPLICIT + GAME_TO_ENGINE_AUTOMATIC)
            .saturating_sub(included_messages)
            .max(GAME_TO_ENGINE_EXPLICIT + 2);
        let topics = [
            "Ui", "App", "Game", "Debug", "Dev", "Factory", "Demo", "Replay",
        ];
        let mut msgs = Vec::new();
        for i in 0..own {
            if i % 8 == 0 {
                let t = topics[(i / 8) % topics.len()];
                self.section(&mut f, &format!("{t} messages"));
            }
            let t = topics[(i / 8) % topics.len()];
            let name = self.compound(t, G2E_NOUNS, 80);
            let k = self.message_members();
            msgs.push(self.record(&mut f, Kind::Message, &name, k, false));
        }
        self.section(&mut f, "The union of everything above");
        let _ = writeln!(
            f.out,
            "// Members 0x00-0x21 are pinned for old apps; every other message of this"
        );
        let _ = writeln!(f.out, "// translation unit is appended automatically.");
        let members: Vec<(String, String, Option<i64>)> = msgs[..GAME_TO_ENGINE_EXPLICIT]
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let n = self.types[t].name.clone();
                (n.clone(), n, Some(i as i64))
            })
            .collect();
        self.names.insert("MessageGameToEngine".into());
        self.union_decl(&mut f, "autounion", false, "MessageGameToEngine", &members);
        let total = included_messages + own;
        assert!(
            total < 240,
            "MessageGameToEngine would have {total} members"
        );
        self.finish(f);
    }

    fn engine_to_game(&mut self, types: &TypeFiles, shared: &[usize], e2g: &[usize]) {
        let mut inc: Vec<usize> = shared.iter().chain(e2g).copied().collect();
        inc.extend([
            types.animation_trigger,
            types.behavior_ids,
            types.user_intent,
            types.action_results,
            types.active_features,
        ]);
        let extra = self.rng.sample(&types.generic, 7);
        for e in extra {
            if !inc.contains(&e) {
                inc.push(e);
            }
        }
        let mut f = self.begin(
            ENGINE_TO_GAME_FILE,
            "Every message the engine sends to the app, collected by an autounion.",
            inc,
            &["Anki", "Vector", "ExternalInterface"],
        );
        let at = self.types.iter().position(|t| t.name == "AnimationTrigger");
        let bid = self.types.iter().position(|t| t.name == "BehaviorID");
        let ui = self.types.iter().position(|t| t.name == "UserIntent");
        self.section(&mut f, "Engine status");
        let a = self.type_ref(&f, at.expect("AnimationTrigger"));
        let _ = writeln!(f.out, "message AnimationStarted {{");
        let _ = writeln!(f.out, "  uint_32 robotId,");
        let _ = writeln!(f.out, "  {a} trigger,");
        let _ = writeln!(f.out, "  string animName\n}}\n");
        let _ = writeln!(f.out, "message BehaviorTransition {{");
        let b = self.type_ref(&f, bid.expect("BehaviorID"));
        let _ = writeln!(f.out, "  {b} oldBehavior,\n  {b} newBehavior,");
        let _ = writeln!(f.out, "  float_32 timestampSec = 0.0\n}}\n");
        let u = self.type_ref(&f, ui.expect("UserIntent"));
        let _ = writeln!(f.out, "message UserIntentReceived {{");
        let _ = writeln!(f.out, "  {u} intent,");
        let _ = writeln!(f.out, "  bool fromCloud = 1\n}}\n");
        for n in [
            "AnimationStarted",
            "BehaviorTransition",
            "UserIntentReceived",
        ] {
            self.names.insert(n.into());
            self.add_type(&f, n, Kind::Message, Vec::new());
        }
        self.stats.messages += 3;
        self.stats.fields += 3 + 3 + 2;
        let more = self.rng.range(5, 8) as usize;
        self.messages(&mut f, "Engine", E2G_NOUNS, more);
        self.section(&mut f, "The union of everything above");
        self.names.insert("MessageEngineToGame".into());
        let _ = writeln!(
            f.out,
            "// No member is pinned: every message of the translation unit is collected."
        );
        self.union_decl(&mut f, "autounion", false, "MessageEngineToGame", &[]);
        let total = self
            .types
            .iter()
            .filter(|t| t.kind == Kind::Message && (t.file == f.idx || f.closure.contains(&t.file)))
            .count();
        assert!(
            total < 240,
            "MessageEngineToGame would have {total} members"
        );
        self.finish(f);
    }

    fn robot_interface(&mut self, types: &TypeFiles) {
        let ns = ["Anki", "Vector", "RobotInterface"];
        let stems = [
            ("motorMessages", "Motor"),
            ("imuMessages", "Imu"),
            ("cliffMessages", "Cliff"),
            ("bodyMessages", "Body"),
            ("activeObjectMessages", "ActiveObject"),
        ];
        let mut files = Vec::new();
        let mut msgs: Vec<Vec<usize>> = Vec::new();
        for (stem, topic) in stems {
            let inc = self.pick_files(&types.generic, 1, 2);
            let mut f = self.begin(
                &format!("clad/robotInterface/{stem}.clad"),
                &format!("{topic} messages between the robot process and the engine."),
                inc,
                &ns,
            );
            if topic == "Body" {
                self.record(&mut f, Kind::Structure, "RobotPublicState", 6, true);
            }
            let n = self.rng.range(4, 6) as usize;
            msgs.push(self.messages(&mut f, topic, ROBOT_NOUNS, n));
            files.push(self.finish(f));
        }
        for (path, union_name, part, topic) in [
            ("messageRobotToEngine", "RobotToEngine", 0..3, "RobotState"),
            ("messageEngineToRobot", "EngineToRobot", 3..5, "EngineCmd"),
        ] {
            let mut inc: Vec<usize> = files[part.clone()].to_vec();
            inc.push(types.comms);
            let mut f = self.begin(
                &format!("clad/robotInterface/{path}.clad"),
                &format!("The {union_name} union and its top-level messages."),
                inc,
                &ns,
            );
            let n = self.rng.range(3, 5) as usize;
            let own = self.messages(&mut f, topic, ROBOT_NOUNS, n);
            let mut ts: Vec<usize> = msgs[part].iter().flatten().copied().collect();
            ts.extend(own);
            let mut members = self.union_members_for(&f, &ts, 0x01, 60);
            members.push(("uint_32".into(), "pingCounter".into(), None));
            self.union_decl(&mut f, "union", false, union_name, &members);
            self.finish(f);
        }
    }

    fn gateway(&mut self, types: &TypeFiles) {
        let ns = ["Anki", "Vector", "Gateway"];
        let inc = self.pick_files(&types.generic, 1, 2);
        let mut f = self.begin(
            "clad/gateway/gatewayTypes.clad",
            "Types of the gateway protocol (emitted as Go and C++).",
            inc,
            &ns,
        );
        self.random_enum(&mut f, "Gateway");
        self.random_enum(&mut f, "Gateway");
        for _ in 0..3 {
            let name = self.compound("Gateway", STRUCT_NOUNS, 20);
            let k = self.rng.range(2, 6) as usize;
            self.record(&mut f, Kind::Structure, &name, k, false);
        }
        let gtypes = self.finish(f);
        let mut prev = gtypes;
        for (path, union_name, topic) in [
            ("messageExternalToRobot", "ExternalToRobot", "External"),
            ("messageRobotToExternal", "RobotToExternal", "Gateway"),
        ] {
            let mut f = self.begin(
                &format!("clad/gateway/{path}.clad"),
                "Gateway protocol messages; tags are fixed forever.",
                vec![prev],
                &ns,
            );
            let n = self.rng.range(7, 9) as usize;
            let ms = self.messages(&mut f, topic, G2E_NOUNS, n);
            let members = self.union_members_for(&f, &ms, 0x00, 100);
            self.union_decl(&mut f, "union", false, union_name, &members);
            prev = self.finish(f);
        }
    }

    fn cloud(&mut self, types: &TypeFiles) {
        let mut mic_file = 0;
        for (path, ns, void, union_name, prefix) in [
            (
                "clad/cloud/mic.clad",
                "CloudMic",
                "MicVoid",
                "Message",
                "Mic",
            ),
            (
                "clad/cloud/docs.clad",
                "JDocs",
                "DocsVoid",
                "DocRequest",
                "Doc",
            ),
        ] {
            let inc = self.pick_files(&types.generic, 0, 1);
            let mut f = self.begin(
                path,
                &format!(
                    "Messages between the robot and the {} cloud service.",
                    words(ns)
                ),
                inc,
                &["Anki", "Vector", ns],
            );
            let _ = writeln!(f.out, "structure {void} {{\n}}\n");
            self.names.insert(void.into());
            self.stats.structures += 1;
            self.add_type(&f, void, Kind::Structure, Vec::new());
            let n = self.rng.range(5, 7) as usize;
            let ms = self.messages(&mut f, prefix, E2G_NOUNS, n);
            let mut members = Vec::new();
            for (i, &m) in ms.iter().enumerate() {
                members.push((
                    self.types[m].name.clone(),
                    lower_first(&self.types[m].name),
                    None,
                ));
                if i % 2 == 0 {
                    members.push((
                        void.to_owned(),
                        format!("{}Signal{i}", lower_first(prefix)),
                        None,
                    ));
                }
            }
            self.union_decl(&mut f, "union", true, union_name, &members);
            let idx = self.finish(f);
            if ns == "CloudMic" {
                mic_file = idx;
            }
        }
        let mut f = self.begin(
            "clad/cloud/token.clad",
            "Token service requests and responses.",
            Vec::new(),
            &["Anki", "Vector", "TokenComms"],
        );
        self.random_enum(&mut f, "Token");
        let ms = self.messages(&mut f, "Token", G2E_NOUNS, 6);
        let members = self.union_members_for(&f, &ms, 0x01, 100);
        self.union_decl(&mut f, "union", false, "TokenRequest", &members);
        let token = self.finish(f);

        let mut f = self.begin(
            "clad/cloud/logcollector.clad",
            "Log upload requests (embeds cloud unions in messages).",
            vec![mic_file, token],
            &["Anki", "Vector", "LogCollector"],
        );
        let vis = self.visible(&f);
        let _ = writeln!(f.out, "message LogEnvelope {{");
        let mut used = HashSet::new();
        for (i, &u) in vis.unions.iter().enumerate() {
            let ty = self.type_ref(&f, u);
            let _ = writeln!(f.out, "  {ty} payload{i},");
        }
        let extra = self.field(&f, &vis, &mut used);
        let _ = writeln!(f.out, "  {extra}\n}}\n");
        self.names.insert("LogEnvelope".into());
        self.stats.messages += 1;
        self.stats.fields += vis.unions.len() + 1;
        self.add_type(&f, "LogEnvelope", Kind::Message, Vec::new());
        self.messages(&mut f, "LogUpload", E2G_NOUNS, 4);
        self.finish(f);
    }

    fn external_comms(&mut self, types: &TypeFiles) {
        #[rustfmt::skip]
        const NAMES: &[&str] = &[
            "ConnRequest", "ConnResponse", "NonceMessage", "ChallengeMessage",
            "ChallengeSuccessMessage", "WifiConnectRequest", "WifiConnectResponse",
            "WifiIpRequest", "WifiIpResponse", "StatusRequest", "StatusResponse",
            "WifiScanRequest", "WifiScanResponse", "OtaUpdateRequest", "OtaUpdateResponse",
            "Cancel", "Ack", "ForceDisconnect", "WifiForgetRequest", "WifiForgetResponse",
            "WifiAccessPointRequest", "WifiAccessPointResponse", "SshRequest", "SshResponse",
            "LogRequest", "LogResponse", "FileDownload", "CloudSessionRequest",
            "CloudSessionResponse", "AppConnectionIdRequest", "AppConnectionIdResponse",
            "ResponseError",
        ];
        let inc = vec![types.comms];
        let mut f = self.begin(
            "clad/sdk/messageExternalComms.clad",
            "BLE protocol between the app and the robot: a union of versioned unions.",
            inc,
            &["Anki", "Vector", "ExternalComms"],
        );
        self.random_enum(&mut f, "Rts");
        let mut ms = Vec::new();
        for n in NAMES {
            let name = self.fresh(&format!("Rts{n}"));
            let k = self.message_members();
            ms.push(self.record(&mut f, Kind::Message, &name, k, false));
        }
        // RtsConnection_1 (the legacy protocol) and versions 2-5, each a superset of the
        // previous one.
        let mut versions = Vec::new();
        for (v, count) in [(1, 10), (2, 16), (3, 20), (4, 26), (5, 32)] {
            let members = self.union_members_for(&f, &ms[..count], 0x00, 70);
            let name = format!("RtsConnection_{v}");
            versions.push(self.union_decl(&mut f, "union", false, &name, &members));
        }
        let members: Vec<(String, String, Option<i64>)> = versions[1..]
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                let n = self.types[u].name.clone();
                (n.clone(), n, Some(i as i64 + 2))
            })
            .collect();
        let rts = self.union_decl(&mut f, "union", false, "RtsConnection", &members);
        self.names.insert("RtsConnection".into());
        let members = vec![
            (
                self.types[versions[0]].name.clone(),
                "RtsConnection_1".to_owned(),
                Some(0),
            ),
            (
                self.types[rts].name.clone(),
                "RtsConnection".to_owned(),
                Some(1),
            ),
        ];
        self.union_decl(&mut f, "union", false, "ExternalCommsMessage", &members);
        self.finish(f);
    }

    fn viz(&mut self, types: &TypeFiles) {
        let ns = ["Anki", "Vector", "VizInterface"];
        let inc = self.pick_files(&types.generic, 1, 2);
        let mut f = self.begin(
            "clad/vizInterface/vizTypes.clad",
            "Types of the visualisation protocol.",
            inc,
            &ns,
        );
        // One enum with a duplicate value (like the real vizTypes.clad).
        let names: Vec<String> = ["Red", "Green", "Blue", "Yellow", "Cyan", "Magenta"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let _ = writeln!(f.out, "enum uint_8 VizColorId {{");
        for n in &names {
            let _ = writeln!(f.out, "  {n},");
        }
        let _ = writeln!(f.out, "  DefaultColor = 0 // same as Red\n}}\n");
        self.names.insert("VizColorId".into());
        let mut members = names;
        members.push("DefaultColor".into());
        self.stats.enums += 1;
        self.stats.enum_members += members.len();
        self.add_type(&f, "VizColorId", Kind::Enum, members);
        for _ in 0..2 {
            let name = self.compound("Viz", STRUCT_NOUNS, 20);
            let k = self.rng.range(3, 6) as usize;
            self.record(&mut f, Kind::Structure, &name, k, false);
        }
        let vt = self.finish(f);
        let mut f = self.begin(
            "clad/vizInterface/vizShapes.clad",
            "Shapes the engine draws in the visualiser.",
            vec![vt],
            &ns,
        );
        let shapes = self.messages(&mut f, "VizShape", SHARED_NOUNS, 4);
        let vs = self.finish(f);
        let mut f = self.begin(
            "clad/vizInterface/messageViz.clad",
            "Everything the engine sends to the visualiser.",
            vec![vt, vs],
            &ns,
        );
        let mut ms = shapes;
        ms.extend(self.messages(&mut f, "Viz", E2G_NOUNS, 4));
        let members = self.union_members_for(&f, &ms, 0x10, 100);
        self.union_decl(&mut f, "union", false, "VizMessage", &members);
        self.finish(f);
    }
}

struct TypeFiles {
    generic: Vec<usize>,
    comms: usize,
    action_results: usize,
    animation_trigger: usize,
    behavior_ids: usize,
    user_intent: usize,
    active_features: usize,
}
