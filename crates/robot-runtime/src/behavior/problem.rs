//! What is wrong with a behavior tree: [`Problem`] (file, JSON path, [`ProblemKind`]) and
//! [`LoadError`] (every problem of a load). A leaf: the loader, the class builders and the
//! condition parser all report through these types and nothing here knows any of them.

use std::fmt;

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// Not JSON.
    Syntax {
        /// serde_json's message (with line and column).
        reason: String,
    },
    /// Not an instance object (or array of them).
    NotAnInstance,
    /// A required key is missing.
    MissingKey {
        /// The key.
        key: String,
    },
    /// A key nobody reads (the original engine does not read it either).
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A key the original reads only for a purpose this runtime refuses (`debugLabel` on a
    /// normal instance, `behaviorAlwaysDelegates` in `behaviorModifiers`).
    Refused {
        /// The key.
        key: String,
        /// Why.
        reason: String,
    },
    /// A value outside the key's closed set or range.
    BadValue {
        /// The key.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// A key has the wrong type.
    WrongType {
        /// The key.
        key: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A bad behavior ID.
    BadId {
        /// The ID.
        id: String,
        /// Why.
        reason: String,
    },
    /// The ID is used twice (`first` is where it was first defined).
    DuplicateId {
        /// The ID.
        id: String,
        /// File and path of the first definition.
        first: String,
    },
    /// No such class (not registered).
    UnknownClass {
        /// The class.
        class: String,
    },
    /// A class the registry marks as a stand-in (a class of the original engine its node
    /// library does not implement); loading with stand-ins (`LoadOptions::stand_ins`) runs
    /// it as one.
    NotNative {
        /// The class.
        class: String,
    },
    /// A behavior name that names no behavior.
    UnknownDelegate {
        /// The name.
        name: String,
    },
    /// A key that resolves global IDs only names an anonymous behavior.
    GlobalOnly {
        /// The name.
        name: String,
    },
    /// The named behavior has the wrong class.
    WrongClass {
        /// The name.
        name: String,
        /// Its class.
        class: String,
        /// The class required.
        expected: &'static str,
    },
    /// A behavior ID the class's code names is missing from the tree.
    MissingHardCodedId {
        /// The ID.
        id: String,
        /// The class that names it.
        class: String,
    },
    /// No such base behavior.
    UnknownBase {
        /// The name.
        name: String,
    },
    /// A delegation cycle through this behavior.
    Cycle {
        /// The cycle, as IDs.
        cycle: Vec<String>,
    },
    /// A bad `respondToUserIntents` / `list` matcher (unknown tag, incomplete data...).
    BadMatcher {
        /// Why.
        reason: String,
    },
    /// A bad condition shape or unknown condition type.
    BadCondition {
        /// Why.
        reason: String,
    },
    /// The class rejected its parameters.
    BadParams {
        /// Why.
        reason: String,
    },
    /// The class's own predicate reads an input the robot does not model: that part of the
    /// predicate is false (never silently true).
    Unmodelled {
        /// The class.
        class: String,
        /// The input, as the class library names it.
        input: String,
    },
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { reason } => write!(f, "not valid JSON: {reason}"),
            Self::NotAnInstance => f.write_str("expected a behavior object or an array of them"),
            Self::MissingKey { key } => write!(f, "missing key `{key}`"),
            Self::UnknownKey { key } => write!(f, "unknown key `{key}`"),
            Self::Refused { key, reason } => write!(f, "`{key}` is not accepted: {reason}"),
            Self::BadValue { key, reason } => write!(f, "bad `{key}`: {reason}"),
            Self::WrongType { key, expected } => write!(f, "`{key}` must be {expected}"),
            Self::BadId { id, reason } => write!(f, "bad behavior ID `{id}`: {reason}"),
            Self::DuplicateId { id, first } => {
                write!(f, "duplicate behavior ID `{id}` (first defined at {first})")
            }
            Self::UnknownClass { class } => write!(f, "unknown behavior class `{class}`"),
            Self::NotNative { class } => write!(
                f,
                "class `{class}` of the original engine does not run natively here (load with stand-ins)"
            ),
            Self::UnknownDelegate { name } => write!(f, "unknown behavior `{name}`"),
            Self::GlobalOnly { name } => write!(
                f,
                "`{name}` is an anonymous behavior; this key resolves global behavior IDs only"
            ),
            Self::WrongClass {
                name,
                class,
                expected,
            } => write!(f, "`{name}` is a `{class}`; this key needs a `{expected}`"),
            Self::MissingHardCodedId { id, class } => write!(
                f,
                "class `{class}` needs a behavior `{id}` in the tree (its code names it)"
            ),
            Self::UnknownBase { name } => write!(f, "unknown base behavior `{name}`"),
            Self::Cycle { cycle } => write!(f, "delegation cycle: {}", cycle.join(" -> ")),
            Self::BadMatcher { reason } => write!(f, "bad intent matcher: {reason}"),
            Self::BadCondition { reason } => write!(f, "bad condition: {reason}"),
            Self::BadParams { reason } => write!(f, "bad parameters: {reason}"),
            Self::Unmodelled { class, input } => write!(
                f,
                "class `{class}` decides on `{input}`, which this robot does not model: that part of its predicate is false"
            ),
        }
    }
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The tree does not load.
    #[default]
    Error,
    /// Reported; the tree loads (lenient mode's unread keys, keys the original never
    /// checks inside nested objects).
    Warning,
    /// For information; the tree loads and runs as documented (a class whose predicate
    /// reads something the robot does not model says which input).
    Info,
}

/// One problem: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The source's file name.
    pub file: String,
    /// The JSON path (`$.anonymousBehaviors[0].behaviors[2]`).
    pub path: String,
    /// Line and column (1-based) of the value at `path` (or of the deepest value found on
    /// the way), when known.
    pub line: Option<(u32, u32)>,
    /// Error or warning.
    pub severity: Severity,
    /// What.
    pub kind: ProblemKind,
}

impl Problem {
    /// An error at `file`/`path`.
    pub fn error(file: &str, path: impl Into<String>, kind: ProblemKind) -> Self {
        Self {
            file: file.to_owned(),
            path: path.into(),
            line: None,
            severity: Severity::Error,
            kind,
        }
    }
    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// True for [`Severity::Info`].
    pub fn is_info(&self) -> bool {
        self.severity == Severity::Info
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some((l, c)) => write!(f, "{}:{l}:{c}: ", self.file)?,
            None => write!(f, "{}: ", self.file)?,
        }
        match self.severity {
            Severity::Error => {}
            Severity::Warning => f.write_str("warning: ")?,
            Severity::Info => f.write_str("info: ")?,
        }
        write!(f, "{}: {}", self.path, self.kind)
    }
}

/// Every problem of a tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} problem(s) in the behavior tree:\n{}", .problems.len(), .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct LoadError {
    /// All of them (errors and warnings), in source order.
    pub problems: Vec<Problem>,
}

impl LoadError {
    /// The errors (what made the load fail).
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_error())
    }
}

/// Where problems go while something is being read: the file, and the list every reader
/// of that file appends to (a [`KeyReader`](super::KeyReader)'s readers take one).
pub struct ProblemSink<'a> {
    pub(crate) file: &'a str,
    pub(crate) problems: &'a mut Vec<Problem>,
}

impl ProblemSink<'_> {
    /// Records the error `kind` at `path`.
    pub fn push(&mut self, path: impl Into<String>, kind: ProblemKind) {
        self.problems.push(Problem::error(self.file, path, kind));
    }
    /// Records `kind` at `path` with `severity`.
    pub fn push_as(&mut self, severity: Severity, path: impl Into<String>, kind: ProblemKind) {
        let mut p = Problem::error(self.file, path, kind);
        p.severity = severity;
        self.problems.push(p);
    }
    /// The number of errors so far.
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }
    /// A sink for the same list, reborrowed.
    pub fn reborrow(&mut self) -> ProblemSink<'_> {
        ProblemSink {
            file: self.file,
            problems: self.problems,
        }
    }
}
