//! Errors of the conversions generated enums provide (`TryFrom<storage>`, `FromStr`).

use std::fmt;

/// A number that is not a value of the enum (`TryFrom<storage>`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{value} is not a value of enum {enum_name}")]
pub struct InvalidEnumValue {
    /// The enum's CLAD name.
    pub enum_name: &'static str,
    /// The rejected number.
    pub value: i128,
}

impl InvalidEnumValue {
    /// An error for `value` of enum `enum_name`.
    pub const fn new(enum_name: &'static str, value: i128) -> Self {
        InvalidEnumValue { enum_name, value }
    }
}

/// A string that is not a member name of the enum (`FromStr`).
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is not a member of enum {enum_name}")]
pub struct UnknownEnumName {
    /// The enum's CLAD name.
    pub enum_name: &'static str,
    /// The rejected name.
    pub name: String,
}

impl UnknownEnumName {
    /// An error for `name` of enum `enum_name`.
    pub fn new(enum_name: &'static str, name: &str) -> Self {
        UnknownEnumName {
            enum_name,
            name: name.to_owned(),
        }
    }
}

impl fmt::Debug for UnknownEnumName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UnknownEnumName({}::{:?})", self.enum_name, self.name)
    }
}
