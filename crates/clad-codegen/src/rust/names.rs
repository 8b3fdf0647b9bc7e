//! CLAD names to Rust identifiers.
//!
//! Namespaces become `snake_case` modules, types `UpperCamelCase`, fields `snake_case`, enum
//! members and union members `UpperCamelCase` variants (via `heck`). The schema name stays
//! reachable through `NAME` constants, `name()`/`from_name()` and serde renames.
//!
//! Deterministic clash handling, in declaration order within one scope:
//! - a name that is a Rust keyword becomes a raw identifier (`type` → `r#type`); the four that
//!   cannot be raw (`self`, `Self`, `super`, `crate`) and `_` get a trailing underscore;
//! - a name that, after case conversion, equals an earlier one in the same scope gets the
//!   suffix `_2`, `_3`, ... (`myFoo` and `my_foo` → `my_foo`, `my_foo_2`);
//! - a name that would be empty or start with a digit after conversion is prefixed with `_`.

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};
use std::collections::{HashMap, HashSet};

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Case styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// `snake_case` (modules, fields, functions).
    Snake,
    /// `UpperCamelCase` (types, variants).
    Camel,
}

/// Converts a CLAD name to the given case (without keyword handling).
pub fn convert(name: &str, case: Case) -> String {
    let mut s = match case {
        Case::Snake => name.to_snake_case(),
        Case::Camel => name.to_upper_camel_case(),
    };
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// Allocates unique identifiers within one scope.
#[derive(Debug, Default)]
pub struct Scope {
    taken: HashSet<String>,
    /// For each base name that clashed, the next suffix to try: many names converting to
    /// the same identifier (`a`, `a_`, `a__`, ...) cost linear time, not quadratic.
    next_suffix: HashMap<String, u64>,
}

impl Scope {
    /// An empty scope.
    pub fn new() -> Self {
        Self::default()
    }

    /// A scope where `reserved` names are already taken (e.g. generated method names).
    pub fn with_reserved(reserved: &[&str]) -> Self {
        Scope {
            taken: reserved.iter().map(|s| (*s).to_owned()).collect(),
            next_suffix: HashMap::new(),
        }
    }

    /// The identifier text for `name` in `case`, unique in this scope. The text may start with
    /// `r#` for keywords.
    pub fn assign(&mut self, name: &str, case: Case) -> String {
        let base = convert(name, case);
        let mut candidate = base.clone();
        if self.taken.contains(&candidate) {
            let n = self.next_suffix.entry(base.clone()).or_insert(2);
            loop {
                candidate = format!("{base}_{n}");
                *n += 1;
                if !self.taken.contains(&candidate) {
                    break;
                }
            }
        }
        self.taken.insert(candidate.clone());
        escape(&candidate)
    }
}

/// Makes a keyword usable: `r#kw`, or `kw_` for the few that cannot be raw.
pub fn escape(text: &str) -> String {
    if NOT_RAW.contains(&text) {
        format!("{text}_")
    } else if KEYWORDS.contains(&text) {
        format!("r#{text}")
    } else {
        text.to_owned()
    }
}

/// A `proc_macro2::Ident` from identifier text (handles `r#`).
pub fn ident(text: &str) -> Ident {
    match text.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(text, Span::call_site()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_conversion() {
        assert_eq!(convert("Shape_Circle", Case::Camel), "ShapeCircle");
        assert_eq!(convert("od432", Case::Camel), "Od432");
        assert_eq!(convert("myOD432", Case::Snake), "my_od432");
        assert_eq!(convert("AnkiTypes", Case::Snake), "anki_types");
        assert_eq!(convert("e1", Case::Camel), "E1");
        assert_eq!(convert("_", Case::Snake), "_");
    }

    #[test]
    fn clashes_and_keywords() {
        let mut s = Scope::new();
        assert_eq!(s.assign("myFoo", Case::Snake), "my_foo");
        assert_eq!(s.assign("my_foo", Case::Snake), "my_foo_2");
        assert_eq!(s.assign("MyFoo", Case::Snake), "my_foo_3");
        assert_eq!(s.assign("type", Case::Snake), "r#type");
        assert_eq!(s.assign("Match", Case::Snake), "r#match");
        assert_eq!(s.assign("Self", Case::Camel), "Self_");
        assert_eq!(s.assign("self", Case::Snake), "self_");
        let mut t = Scope::with_reserved(&["name"]);
        assert_eq!(t.assign("name", Case::Snake), "name_2");
        assert_eq!(ident("r#type").to_string(), "r#type");
    }
}
