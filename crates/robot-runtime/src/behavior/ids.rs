//! Typed identifiers: [`BehaviorId`] (an arena index) and [`BehaviorName`] (a validated
//! string, the `behaviorID` of the JSON).

use std::fmt;

/// A behavior in a runner's arena. Cheap to copy; only meaningful for the tree that issued
/// it. Displays as `#index`; use [`Runner::name`](super::Runner::name) for the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BehaviorId(pub(crate) u32);

impl BehaviorId {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The ID at arena index `index` (for tools that iterate a tree).
    pub fn from_index(index: usize) -> Self {
        Self(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

impl fmt::Display for BehaviorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A validated behavior name: 1 to 128 characters, ASCII letters, digits, `_`, `-`, `.`,
/// and `@` (anonymous behaviors are named `Parent@name`). The first character is a letter,
/// a digit, `_` or `@`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BehaviorName(Box<str>);

/// Why a string is not a [`BehaviorName`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty.
    #[error("a behavior ID cannot be empty")]
    Empty,
    /// Longer than 128 characters.
    #[error("a behavior ID is at most 128 characters (got {0})")]
    TooLong(usize),
    /// A character outside the allowed set.
    #[error("character {0:?} is not allowed in a behavior ID (letters, digits, _ - . @)")]
    BadChar(char),
}

impl BehaviorName {
    /// Validates `s`.
    pub fn new(s: &str) -> Result<Self, NameError> {
        if s.is_empty() {
            return Err(NameError::Empty);
        }
        if s.len() > 128 {
            return Err(NameError::TooLong(s.len()));
        }
        for (i, c) in s.chars().enumerate() {
            let ok = c.is_ascii_alphanumeric()
                || c == '_'
                || c == '@'
                || (i > 0 && (c == '-' || c == '.'));
            if !ok {
                return Err(NameError::BadChar(c));
            }
        }
        Ok(Self(s.into()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BehaviorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for BehaviorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl AsRef<str> for BehaviorName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_validated() {
        assert!(BehaviorName::new("IdleLoop").is_ok());
        assert!(BehaviorName::new("Parent@anon_1").is_ok());
        assert!(BehaviorName::new("v2.x-test").is_ok());
        assert_eq!(BehaviorName::new(""), Err(NameError::Empty));
        assert_eq!(BehaviorName::new("a b"), Err(NameError::BadChar(' ')));
        assert_eq!(BehaviorName::new("-a"), Err(NameError::BadChar('-')));
        assert_eq!(
            BehaviorName::new(&"x".repeat(129)),
            Err(NameError::TooLong(129))
        );
    }
}
