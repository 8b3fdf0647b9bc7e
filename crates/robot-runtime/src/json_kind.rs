//! The names messages give the kinds of JSON value ("a string", "an object", ...), the same
//! in every reader: behavior trees, HRI messages, the maps `robot-codegen` compiles (over its
//! own span-keeping values, through [`JsonKind`]) and the example's scenarios. A leaf.

use serde_json::Value;

/// The kind of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The kind of `v`.
    pub fn of(v: &Value) -> Self {
        match v {
            Value::Null => Self::Null,
            Value::Bool(_) => Self::Bool,
            Value::Number(_) => Self::Number,
            Value::String(_) => Self::String,
            Value::Array(_) => Self::Array,
            Value::Object(_) => Self::Object,
        }
    }

    /// Its name in a message: "null", "a boolean", "a number", "a string", "an array",
    /// "an object".
    pub fn name(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "a boolean",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Array => "an array",
            Self::Object => "an object",
        }
    }
}

/// What a JSON value is, for messages ([`JsonKind::name`]).
pub fn kind_of(v: &Value) -> &'static str {
    JsonKind::of(v).name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_has_its_name() {
        let names: Vec<&str> = [
            json!(null),
            json!(true),
            json!(1),
            json!("s"),
            json!([]),
            json!({}),
        ]
        .iter()
        .map(kind_of)
        .collect();
        assert_eq!(
            names,
            [
                "null",
                "a boolean",
                "a number",
                "a string",
                "an array",
                "an object"
            ]
        );
    }
}
