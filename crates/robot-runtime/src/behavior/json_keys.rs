//! [`KeyReader`]: reads one JSON object key by key, typed, recording a problem for every
//! missing, mistyped or out-of-range value, and remembering which keys were read, so the
//! keys nobody read can be reported afterwards. The loader, the class builders and the
//! condition parser all read JSON this way, so every problem of an object is reported, not
//! the first.

use serde_json::{Map, Value};

use super::problem::{ProblemKind, ProblemSink, Severity};
pub use crate::json_kind::kind_of;
pub use crate::suggest::did_you_mean;

/// Reads one JSON object key by key, typed, recording a problem for every missing,
/// mistyped or out-of-range value: each reader records its
/// problems into a [`ProblemSink`] (a class builder's is [`BuildCx::sink`](super::BuildCx::sink),
/// a condition parser's [`ConditionCx::keys`](super::ConditionCx::keys)); a read key is
/// remembered, so the keys nobody read can be reported.
#[derive(Clone, Debug)]
pub struct KeyReader<'o> {
    obj: &'o Map<String, Value>,
    path: String,
    read: Vec<&'o str>,
}

impl<'o> KeyReader<'o> {
    /// A reader of `obj`, found at JSON `path`.
    pub fn new(obj: &'o Map<String, Value>, path: impl Into<String>) -> Self {
        Self {
            obj,
            path: path.into(),
            read: Vec::new(),
        }
    }

    /// The object.
    pub fn object(&self) -> &'o Map<String, Value> {
        self.obj
    }
    /// The object's path.
    pub fn path(&self) -> &str {
        &self.path
    }
    /// The path of `key` in the object.
    pub fn at(&self, key: &str) -> String {
        if key.is_empty() {
            self.path.clone()
        } else if key.starts_with('[') {
            format!("{}{key}", self.path)
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn mark(&mut self, key: &'o str) {
        if !self.read.contains(&key) {
            self.read.push(key);
        }
    }

    /// The value of `key`, marked read.
    pub fn get(&mut self, key: &str) -> Option<&'o Value> {
        let (k, v) = self.obj.get_key_value(key)?;
        self.mark(k.as_str());
        Some(v)
    }

    /// Marks `key` read without using it (a key the original reads and ignores).
    pub fn accept(&mut self, key: &str) {
        let _ = self.get(key);
    }

    /// Marks read every key `other` (a reader of the same object) read.
    pub(crate) fn accept_read(&mut self, other: &KeyReader<'_>) {
        for k in &other.read {
            self.accept(k);
        }
    }

    /// True when `key` is present (not marked read).
    pub fn has(&self, key: &str) -> bool {
        self.obj.contains_key(key)
    }

    fn wrong(&self, sink: &mut ProblemSink<'_>, key: &str, expected: &'static str) {
        sink.push(
            self.at(key),
            ProblemKind::WrongType {
                key: key.to_owned(),
                expected,
            },
        );
    }

    /// A required value: missing is a problem.
    pub fn required(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<&'o Value> {
        let v = self.get(key);
        if v.is_none() {
            sink.push(
                self.path.clone(),
                ProblemKind::MissingKey {
                    key: key.to_owned(),
                },
            );
        }
        v
    }

    /// An optional boolean (`default` when absent or mistyped).
    pub fn bool(&mut self, sink: &mut ProblemSink<'_>, key: &str, default: bool) -> bool {
        match self.get(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                self.wrong(sink, key, "a boolean");
                default
            }
        }
    }

    /// A required boolean.
    pub fn req_bool(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<bool> {
        match self.required(sink, key)? {
            Value::Bool(b) => Some(*b),
            _ => {
                self.wrong(sink, key, "a boolean");
                None
            }
        }
    }

    /// An optional finite number.
    pub fn f64(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<f64> {
        let v = self.get(key)?;
        match v.as_f64().filter(|x| x.is_finite()) {
            Some(x) => Some(x),
            None => {
                self.wrong(sink, key, "a finite number");
                None
            }
        }
    }

    /// An optional finite number, `default` when absent.
    pub fn f64_or(&mut self, sink: &mut ProblemSink<'_>, key: &str, default: f64) -> f64 {
        self.f64(sink, key).unwrap_or(default)
    }

    /// A required finite number.
    pub fn req_f64(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<f64> {
        self.required(sink, key)?;
        self.f64(sink, key)
    }

    /// An optional integer.
    pub fn i64(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<i64> {
        let v = self.get(key)?;
        match v.as_i64() {
            Some(x) => Some(x),
            None => {
                self.wrong(sink, key, "an integer");
                None
            }
        }
    }

    /// A required integer.
    pub fn req_i64(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<i64> {
        self.required(sink, key)?;
        self.i64(sink, key)
    }

    /// An optional string.
    pub fn str(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<&'o str> {
        match self.get(key)? {
            Value::String(s) => Some(s),
            _ => {
                self.wrong(sink, key, "a string");
                None
            }
        }
    }

    /// A required string.
    pub fn req_str(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<&'o str> {
        self.required(sink, key)?;
        self.str(sink, key)
    }

    /// An optional string from a closed set: its index in `names`.
    pub fn one_of(
        &mut self,
        sink: &mut ProblemSink<'_>,
        key: &str,
        names: &[&str],
    ) -> Option<usize> {
        let s = self.str(sink, key)?;
        match names.iter().position(|n| *n == s) {
            Some(i) => Some(i),
            None => {
                sink.push(
                    self.at(key),
                    ProblemKind::BadValue {
                        key: key.to_owned(),
                        reason: unknown_name(s, names),
                    },
                );
                None
            }
        }
    }

    /// A required string from a closed set.
    pub fn req_one_of(
        &mut self,
        sink: &mut ProblemSink<'_>,
        key: &str,
        names: &[&str],
    ) -> Option<usize> {
        self.required(sink, key)?;
        self.one_of(sink, key, names)
    }

    /// An optional array.
    pub fn array(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<&'o [Value]> {
        match self.get(key)? {
            Value::Array(a) => Some(a),
            _ => {
                self.wrong(sink, key, "an array");
                None
            }
        }
    }

    /// A required array.
    pub fn req_array(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<&'o [Value]> {
        self.required(sink, key)?;
        self.array(sink, key)
    }

    /// An optional array of strings (each bad item is a problem; None if any is).
    pub fn strings(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<Vec<&'o str>> {
        let a = self.array(sink, key)?;
        let mut out = Vec::with_capacity(a.len());
        let mut ok = true;
        for (i, v) in a.iter().enumerate() {
            match v.as_str() {
                Some(s) => out.push(s),
                None => {
                    ok = false;
                    sink.push(
                        self.at(&format!("{key}[{i}]")),
                        ProblemKind::WrongType {
                            key: key.to_owned(),
                            expected: "an array of strings",
                        },
                    );
                }
            }
        }
        ok.then_some(out)
    }

    /// An optional object.
    pub fn obj(&mut self, sink: &mut ProblemSink<'_>, key: &str) -> Option<&'o Map<String, Value>> {
        match self.get(key)? {
            Value::Object(o) => Some(o),
            _ => {
                self.wrong(sink, key, "an object");
                None
            }
        }
    }

    /// Records a bad value of `key`.
    pub fn bad(&self, sink: &mut ProblemSink<'_>, key: &str, reason: impl Into<String>) {
        sink.push(
            self.at(key),
            ProblemKind::BadValue {
                key: key.to_owned(),
                reason: reason.into(),
            },
        );
    }

    /// Keys not read, in the object's order.
    pub fn unread(&self) -> impl Iterator<Item = &'o str> + '_ {
        self.obj
            .keys()
            .map(String::as_str)
            .filter(|k| !self.read.contains(k))
    }

    /// Reports every unread key with `severity`.
    pub fn report_unread(&self, sink: &mut ProblemSink<'_>, severity: Severity) {
        for k in self.unread() {
            sink.push_as(
                severity,
                self.at(k),
                ProblemKind::UnknownKey { key: k.to_owned() },
            );
        }
    }
}

/// "unknown name `x` (expected one of a, b, c)"; for a long list, the close names only.
pub fn unknown_name(s: &str, names: &[&str]) -> String {
    if names.len() <= 12 {
        format!("unknown name `{s}` (expected one of {})", names.join(", "))
    } else {
        format!("unknown name `{s}`{}", did_you_mean(s, names))
    }
}
