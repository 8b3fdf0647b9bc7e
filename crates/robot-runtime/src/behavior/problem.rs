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
    /// A key nobody reads.
    UnknownKey {
        /// The key.
        key: String,
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
    /// No such class.
    UnknownClass {
        /// The class.
        class: String,
    },
    /// A delegate that is no behavior.
    UnknownDelegate {
        /// The name.
        name: String,
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
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { reason } => write!(f, "not valid JSON: {reason}"),
            Self::NotAnInstance => f.write_str("expected a behavior object or an array of them"),
            Self::MissingKey { key } => write!(f, "missing key `{key}`"),
            Self::UnknownKey { key } => write!(f, "unknown key `{key}`"),
            Self::WrongType { key, expected } => write!(f, "`{key}` must be {expected}"),
            Self::BadId { id, reason } => write!(f, "bad behavior ID `{id}`: {reason}"),
            Self::DuplicateId { id, first } => {
                write!(f, "duplicate behavior ID `{id}` (first defined at {first})")
            }
            Self::UnknownClass { class } => write!(f, "unknown behavior class `{class}`"),
            Self::UnknownDelegate { name } => write!(f, "unknown delegate `{name}`"),
            Self::UnknownBase { name } => write!(f, "unknown base behavior `{name}`"),
            Self::Cycle { cycle } => write!(f, "delegation cycle: {}", cycle.join(" -> ")),
            Self::BadMatcher { reason } => write!(f, "bad intent matcher: {reason}"),
            Self::BadCondition { reason } => write!(f, "bad condition: {reason}"),
            Self::BadParams { reason } => write!(f, "bad parameters: {reason}"),
        }
    }
}

/// One problem: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The source's file name.
    pub file: String,
    /// The JSON path (`$.anonymousBehaviors[0].behaviors[2]`).
    pub path: String,
    /// What.
    pub kind: ProblemKind,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.path, self.kind)
    }
}

/// Every problem of a tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} problem(s) in the behavior tree:\n{}", .problems.len(), .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct LoadError {
    /// All of them, in source order.
    pub problems: Vec<Problem>,
}

/// Where problems go while something is being read: the file, and the list every reader
/// of that file appends to.
pub(crate) struct ProblemSink<'a> {
    pub file: &'a str,
    pub problems: &'a mut Vec<Problem>,
}

impl ProblemSink<'_> {
    /// Records `kind` at `path`.
    pub fn push(&mut self, path: impl Into<String>, kind: ProblemKind) {
        self.problems.push(Problem {
            file: self.file.to_owned(),
            path: path.into(),
            kind,
        });
    }
}
