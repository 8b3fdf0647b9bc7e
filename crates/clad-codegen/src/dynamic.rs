//! A schema-driven encoder/decoder: CLAD-JSON to bytes and back by interpreting the IR, with
//! no code generation. Behind `cladc encode`, `cladc decode` and `cladc explain`.
//!
//! It follows exactly the rules of the generated code (proven by the conformance tests, which
//! run every golden vector through both): little-endian packed wire format; strict decoding
//! (truncation, trailing bytes, unknown or `0xFF` union tags, lengths above a declared max,
//! non-member enum values and invalid UTF-8 are errors with the byte offset and field path);
//! CLAD-JSON with enums by name, unions as `{"type": ...}` (structure payloads flattened,
//! others under `"value"`), floats that JSON cannot carry as `"NaN"`/`"Infinity"`/
//! `"-Infinity"`, missing keys taking the schema default and unknown keys ignored (as the
//! generated serde code does) — or, with [`encode_strict`] (what `cladc encode` and `cladz pub`
//! use for what a person typed), unknown keys refused with their name.

use crate::ir::*;
use serde_json::{Map, Number, Value};
use std::fmt;

/// An encoding or decoding failure.
#[derive(Clone, Debug, PartialEq)]
pub struct DynError {
    /// Field path (`Type.field[2].member`).
    pub path: String,
    /// Byte offset, for decoding errors.
    pub offset: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for DynError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(f, "at byte {o}, {}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for DynError {}

/// One row of [`explain`]: a leaf value (or a length prefix / tag) and where it sits.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// First byte.
    pub offset: usize,
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// Field path.
    pub path: String,
    /// Decoded value, as text.
    pub value: String,
}

/// The annotated decoding of a buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The type decoded.
    pub type_name: String,
    /// Total input length.
    pub len: usize,
    /// Every leaf read, in order (up to the failure).
    pub rows: Vec<Row>,
    /// The failure, if any.
    pub error: Option<DynError>,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {} bytes", self.type_name, self.len)?;
        // Row paths are shown relative to the decoded type, named in the header.
        let short = |p: &'_ str| -> String {
            let p = p.strip_prefix(self.type_name.as_str()).unwrap_or(p);
            let p = p.strip_prefix('.').unwrap_or(p).trim_start();
            p.to_owned()
        };
        let path_w = self
            .rows
            .iter()
            .map(|r| short(&r.path).len())
            .max()
            .unwrap_or(5)
            .clamp(5, 48);
        writeln!(
            f,
            "{:>6}  {:<24}  {:<path_w$}  value",
            "offset", "bytes", "field"
        )?;
        for r in &self.rows {
            // At most 24 columns: up to 8 bytes, or 6 and the total count.
            let shown = if r.bytes.len() > 8 { 6 } else { 8 };
            let mut hex: String = r
                .bytes
                .iter()
                .take(shown)
                .map(|b| format!("{b:02x} "))
                .collect();
            if r.bytes.len() > 8 {
                hex.push_str(&format!("…({})", r.bytes.len()));
            }
            writeln!(
                f,
                "{:>6}  {:<24}  {:<path_w$}  {}",
                r.offset,
                hex.trim_end(),
                short(&r.path),
                r.value
            )?;
        }
        match &self.error {
            Some(e) => writeln!(f, "error: {e}"),
            None => writeln!(f, "ok: all {} bytes decoded", self.len),
        }
    }
}

/// The type to use for a top-level CLAD name (`Ns::Type`).
pub fn type_by_name(schema: &Schema, fqn: &str) -> Result<Type, DynError> {
    let id = schema.lookup(fqn).ok_or_else(|| DynError {
        path: fqn.to_owned(),
        offset: None,
        message: "no such type in this schema".to_owned(),
    })?;
    Ok(match &schema.decl(id).kind {
        DeclKind::Enum(_) => Type::Enum(id),
        DeclKind::Struct(_) => Type::Struct(id),
        DeclKind::Union(_) => Type::Union(id),
        DeclKind::EnumConcept(_) => unreachable!("lookup never returns concepts"),
    })
}

/// Encodes the CLAD-JSON `value` as the type named `fqn`. Keys that name no member are
/// ignored, as the generated serde code ignores them.
pub fn encode(schema: &Schema, fqn: &str, value: &Value) -> Result<Vec<u8>, DynError> {
    let ty = type_by_name(schema, fqn)?;
    let mut out = Vec::new();
    Encoder {
        schema,
        strict: false,
    }
    .value(&ty, Some(value), None, fqn, &mut out)?;
    Ok(out)
}

/// [`encode`], but a key that names no member (of a structure, or of a union object beside
/// `"type"` and, for a member that is not a structure, `"value"`) is an error naming the key:
/// a typo such as `"priorty"` is refused instead of silently taking the default.
pub fn encode_strict(schema: &Schema, fqn: &str, value: &Value) -> Result<Vec<u8>, DynError> {
    let ty = type_by_name(schema, fqn)?;
    let mut out = Vec::new();
    Encoder {
        schema,
        strict: true,
    }
    .value(&ty, Some(value), None, fqn, &mut out)?;
    Ok(out)
}

/// Decodes `bytes` (all of them) as the type named `fqn` into canonical CLAD-JSON.
pub fn decode(schema: &Schema, fqn: &str, bytes: &[u8]) -> Result<Value, DynError> {
    let ty = type_by_name(schema, fqn)?;
    let mut d = Decoder {
        schema,
        bytes,
        pos: 0,
        rows: None,
    };
    let v = d.value(&ty, fqn)?;
    d.finish(fqn)?;
    Ok(v)
}

/// Decodes `bytes` as `fqn`, recording every leaf with its offset and raw bytes.
pub fn explain(schema: &Schema, fqn: &str, bytes: &[u8]) -> Explanation {
    let mut rows = Vec::new();
    let error = match type_by_name(schema, fqn) {
        Err(e) => Some(e),
        Ok(ty) => {
            let mut d = Decoder {
                schema,
                bytes,
                pos: 0,
                rows: Some(&mut rows),
            };
            d.value(&ty, fqn).and_then(|_| d.finish(fqn)).err()
        }
    };
    Explanation {
        type_name: fqn.to_owned(),
        len: bytes.len(),
        rows,
        error,
    }
}

// ----- encoding ----------------------------------------------------------------------------

struct Encoder<'a> {
    schema: &'a Schema,
    /// Refuse keys that name no member.
    strict: bool,
}

/// The error for the first key of `obj` that `known` does not accept.
fn unknown_key<'k>(
    obj: &Map<String, Value>,
    path: &str,
    known: impl Fn(&str) -> bool,
    expected: impl FnOnce() -> Vec<&'k str>,
) -> Result<(), DynError> {
    match obj.keys().find(|k| !known(k)) {
        None => Ok(()),
        Some(key) => {
            let expected = expected();
            let list = if expected.is_empty() {
                "it has no members".to_owned()
            } else {
                format!("expected one of: {}", expected.join(", "))
            };
            Err(err(path, format!("unknown key {key:?} ({list})")))
        }
    }
}

fn err(path: &str, message: impl Into<String>) -> DynError {
    DynError {
        path: path.to_owned(),
        offset: None,
        message: message.into(),
    }
}

fn describe(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

impl Encoder<'_> {
    /// Encodes `value` (None: the key was missing, use `default` or the type's zero value).
    fn value(
        &self,
        ty: &Type,
        value: Option<&Value>,
        default: Option<&Constant>,
        path: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), DynError> {
        let owned;
        let value = match value {
            Some(v) => v,
            None => {
                owned = default_json(self.schema, ty, default);
                &owned
            }
        };
        match ty {
            Type::Builtin(b) => self.builtin(*b, value, path, out),
            Type::Enum(id) => {
                let DeclKind::Enum(e) = &self.schema.decl(*id).kind else {
                    return Err(err(path, "not an enum"));
                };
                let name = value.as_str().ok_or_else(|| {
                    err(
                        path,
                        format!("expected an enumerator name, found {}", describe(value)),
                    )
                })?;
                let m = e.members.iter().find(|m| m.name == name).ok_or_else(|| {
                    err(
                        path,
                        format!(
                            "`{name}` is not a member of {}",
                            self.schema.decl(*id).fqn()
                        ),
                    )
                })?;
                write_int(e.storage, m.value, out);
                Ok(())
            }
            Type::String { length, max, .. } => {
                let s = value.as_str().ok_or_else(|| {
                    err(
                        path,
                        format!("expected a string, found {}", describe(value)),
                    )
                })?;
                write_len(*length, *max, s.len(), "string", path, out)?;
                out.extend_from_slice(s.as_bytes());
                Ok(())
            }
            Type::VarArray {
                elem, length, max, ..
            } => {
                let items = value.as_array().ok_or_else(|| {
                    err(
                        path,
                        format!("expected an array, found {}", describe(value)),
                    )
                })?;
                write_len(*length, *max, items.len(), "array", path, out)?;
                for (i, item) in items.iter().enumerate() {
                    self.value(elem, Some(item), None, &format!("{path}[{i}]"), out)?;
                }
                Ok(())
            }
            Type::FixedArray { elem, len } => {
                let items = value.as_array().ok_or_else(|| {
                    err(
                        path,
                        format!("expected an array, found {}", describe(value)),
                    )
                })?;
                let n = len.value();
                if items.len() as u64 != n {
                    return Err(err(
                        path,
                        format!("expected exactly {n} elements, found {}", items.len()),
                    ));
                }
                for (i, item) in items.iter().enumerate() {
                    self.value(elem, Some(item), None, &format!("{path}[{i}]"), out)?;
                }
                Ok(())
            }
            Type::Struct(id) => {
                let DeclKind::Struct(s) = &self.schema.decl(*id).kind else {
                    return Err(err(path, "not a structure"));
                };
                let obj = value.as_object().ok_or_else(|| {
                    err(
                        path,
                        format!("expected an object, found {}", describe(value)),
                    )
                })?;
                self.fields(s, obj, false, path, out)
            }
            Type::Union(id) => {
                let DeclKind::Union(u) = &self.schema.decl(*id).kind else {
                    return Err(err(path, "not a union"));
                };
                let obj = value.as_object().ok_or_else(|| {
                    err(
                        path,
                        format!("expected an object, found {}", describe(value)),
                    )
                })?;
                let name = obj
                    .get("type")
                    .and_then(Value::as_str)
                    .ok_or_else(|| err(path, "a union needs a \"type\" key naming the member"))?;
                let m = u.members.iter().find(|m| m.name == name).ok_or_else(|| {
                    let names: Vec<&str> = u.members.iter().map(|m| m.name.as_str()).collect();
                    err(
                        path,
                        format!(
                            "`{name}` is not a member of {} (members: {})",
                            self.schema.decl(*id).fqn(),
                            names.join(", ")
                        ),
                    )
                })?;
                out.push(m.tag);
                let mpath = format!("{path}.{name}");
                match &m.ty {
                    // A structure member's fields sit in the union object itself.
                    Type::Struct(sid) => match &self.schema.decl(*sid).kind {
                        DeclKind::Struct(s) => self.fields(s, obj, true, &mpath, out),
                        _ => Err(err(&mpath, "not a structure")),
                    },
                    ty => {
                        if self.strict {
                            unknown_key(
                                obj,
                                &mpath,
                                |k| k == "type" || k == "value",
                                || vec!["type", "value"],
                            )?;
                        }
                        self.value(ty, obj.get("value"), None, &mpath, out)
                    }
                }
            }
        }
    }

    /// A structure's fields from `obj` (`in_union`: the object is a union's, which also holds
    /// its `"type"` key).
    fn fields(
        &self,
        s: &Struct,
        obj: &Map<String, Value>,
        in_union: bool,
        path: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), DynError> {
        if self.strict {
            unknown_key(
                obj,
                path,
                |k| (in_union && k == "type") || s.fields.iter().any(|f| f.name == k),
                || s.fields.iter().map(|f| f.name.as_str()).collect(),
            )?;
        }
        for f in &s.fields {
            self.value(
                &f.ty,
                obj.get(&f.name),
                f.default.as_ref(),
                &format!("{path}.{}", f.name),
                out,
            )?;
        }
        Ok(())
    }

    fn builtin(
        &self,
        b: Builtin,
        v: &Value,
        path: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), DynError> {
        match b {
            Builtin::Bool => {
                let x = v.as_bool().ok_or_else(|| {
                    err(
                        path,
                        format!("expected true or false, found {}", describe(v)),
                    )
                })?;
                out.push(u8::from(x));
            }
            Builtin::Float32 => {
                let x = json_float(v, path)?;
                if x.is_finite() && (x as f32).is_infinite() {
                    return Err(err(path, format!("{x} is outside the range of float_32")));
                }
                out.extend_from_slice(&(x as f32).to_le_bytes());
            }
            Builtin::Float64 => out.extend_from_slice(&json_float(v, path)?.to_le_bytes()),
            int => {
                let x: i128 = if let Some(u) = v.as_u64() {
                    u.into()
                } else if let Some(i) = v.as_i64() {
                    i.into()
                } else {
                    return Err(err(
                        path,
                        format!("expected an integer, found {}", describe(v)),
                    ));
                };
                let (min, max) = (int.min().unwrap_or(0), int.max().unwrap_or(0));
                if x < min || x > max {
                    return Err(err(
                        path,
                        format!("{x} is out of range for {} ({min} to {max})", int.name()),
                    ));
                }
                write_int(int, x, out);
            }
        }
        Ok(())
    }
}

fn json_float(v: &Value, path: &str) -> Result<f64, DynError> {
    match v {
        Value::Number(n) => n.as_f64().ok_or_else(|| err(path, "bad number")),
        Value::String(s) if s == "NaN" => Ok(f64::NAN),
        Value::String(s) if s == "Infinity" => Ok(f64::INFINITY),
        Value::String(s) if s == "-Infinity" => Ok(f64::NEG_INFINITY),
        other => Err(err(
            path,
            format!(
                "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), found {}",
                describe(other)
            ),
        )),
    }
}

fn write_int(b: Builtin, v: i128, out: &mut Vec<u8>) {
    let n = b.size() as usize;
    out.extend_from_slice(&v.to_le_bytes()[..n]);
}

fn write_len(
    length: Builtin,
    max: u64,
    n: usize,
    what: &str,
    path: &str,
    out: &mut Vec<u8>,
) -> Result<(), DynError> {
    let unit = if what == "string" {
        "bytes"
    } else {
        "elements"
    };
    let lmax = length.max().unwrap_or(0) as u128;
    if n as u128 > lmax {
        return Err(err(
            path,
            format!(
                "{what} of {n} {unit} does not fit its {} length prefix",
                length.name()
            ),
        ));
    }
    if n as u64 > max {
        return Err(err(
            path,
            format!("{what} of {n} {unit}, declared maximum is {max}"),
        ));
    }
    write_int(length, n as i128, out);
    Ok(())
}

/// The CLAD-JSON of a type's default value (schema default, else zero / empty / first).
pub fn default_json(schema: &Schema, ty: &Type, default: Option<&Constant>) -> Value {
    if let Some(c) = default {
        match (&c.value, ty) {
            (ConstValue::Bool(b), _) => return Value::Bool(*b),
            (ConstValue::Float(f), _) => return float_json(*f),
            (ConstValue::Int(i), Type::Enum(id)) => {
                if let DeclKind::Enum(e) = &schema.decl(*id).kind {
                    if let Some(m) = e.members.iter().find(|m| m.value == *i) {
                        return Value::String(m.name.clone());
                    }
                }
            }
            (ConstValue::Int(i), Type::Builtin(b)) if b.is_float() => return float_json(*i as f64),
            (ConstValue::Int(i), _) => return int_json(*i),
            (ConstValue::Str(s), _) => return Value::String(s.clone()),
        }
    }
    match ty {
        Type::Builtin(Builtin::Bool) => Value::Bool(false),
        Type::Builtin(b) if b.is_float() => float_json(0.0),
        Type::Builtin(_) => Value::from(0),
        Type::Enum(id) => match &schema.decl(*id).kind {
            DeclKind::Enum(e) => Value::String(e.members[0].name.clone()),
            _ => Value::Null,
        },
        Type::String { .. } => Value::String(String::new()),
        Type::VarArray { .. } => Value::Array(Vec::new()),
        Type::FixedArray { elem, len } => {
            let one = default_json(schema, elem, None);
            Value::Array(vec![one; len.value().min(1 << 20) as usize])
        }
        Type::Struct(id) => {
            let mut m = Map::new();
            if let DeclKind::Struct(s) = &schema.decl(*id).kind {
                for f in &s.fields {
                    m.insert(
                        f.name.clone(),
                        default_json(schema, &f.ty, f.default.as_ref()),
                    );
                }
            }
            Value::Object(m)
        }
        Type::Union(id) => match &schema.decl(*id).kind {
            DeclKind::Union(u) if !u.members.is_empty() => {
                let first = &u.members[0];
                let payload = default_json(schema, &first.ty, None);
                union_json(&first.name, &first.ty, payload)
            }
            _ => Value::Null,
        },
    }
}

fn union_json(member: &str, ty: &Type, payload: Value) -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String(member.to_owned()));
    match (ty, payload) {
        (Type::Struct(_), Value::Object(fields)) => m.extend(fields),
        (_, payload) => {
            m.insert("value".to_owned(), payload);
        }
    }
    Value::Object(m)
}

fn float_json(f: f64) -> Value {
    if f.is_nan() {
        Value::String("NaN".into())
    } else if f.is_infinite() {
        Value::String(if f > 0.0 { "Infinity" } else { "-Infinity" }.into())
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

fn int_json(i: i128) -> Value {
    if let Ok(u) = u64::try_from(i) {
        Value::from(u)
    } else if let Ok(s) = i64::try_from(i) {
        Value::from(s)
    } else {
        Value::from(i as f64)
    }
}

// ----- decoding ----------------------------------------------------------------------------

struct Decoder<'a, 'r> {
    schema: &'a Schema,
    bytes: &'a [u8],
    pos: usize,
    rows: Option<&'r mut Vec<Row>>,
}

/// Most elements of zero wire size accepted in one array (as the runtime).
const MAX_ZERO_SIZED: u64 = 1 << 16;

impl Decoder<'_, '_> {
    fn fail(&self, path: &str, message: impl Into<String>) -> DynError {
        DynError {
            path: path.to_owned(),
            offset: Some(self.pos),
            message: message.into(),
        }
    }

    fn take(&mut self, n: usize, path: &str) -> Result<&[u8], DynError> {
        let left = self.bytes.len() - self.pos;
        if n > left {
            return Err(self.fail(
                path,
                format!("truncated input: need {n} bytes, {left} left"),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn row(&mut self, start: usize, path: &str, value: impl FnOnce() -> String) {
        if let Some(rows) = self.rows.as_deref_mut() {
            rows.push(Row {
                offset: start,
                bytes: self.bytes[start..self.pos].to_vec(),
                path: path.to_owned(),
                value: value(),
            });
        }
    }

    fn finish(&self, fqn: &str) -> Result<(), DynError> {
        if self.pos != self.bytes.len() {
            return Err(self.fail(
                fqn,
                format!(
                    "{} trailing bytes after a complete value",
                    self.bytes.len() - self.pos
                ),
            ));
        }
        Ok(())
    }

    fn int(&mut self, b: Builtin, path: &str) -> Result<i128, DynError> {
        let n = b.size() as usize;
        let raw = self.take(n, path)?;
        let mut buf = [0u8; 16];
        buf[..n].copy_from_slice(raw);
        let unsigned = u128::from_le_bytes(buf);
        Ok(if b.is_unsigned() || b == Builtin::Bool {
            unsigned as i128
        } else {
            let shift = 128 - 8 * n as u32;
            ((unsigned << shift) as i128) >> shift
        })
    }

    fn len(
        &mut self,
        length: Builtin,
        max: u64,
        unit_size: u128,
        what: &str,
        path: &str,
    ) -> Result<u64, DynError> {
        let start = self.pos;
        let n = self.int(length, path)? as u64;
        self.row(start, &format!("{path} (length)"), || n.to_string());
        if n > max {
            self.pos = start;
            return Err(self.fail(
                path,
                format!("{what} length {n} is above the declared maximum {max}"),
            ));
        }
        let left = (self.bytes.len() - self.pos) as u128;
        if unit_size == 0 && n > MAX_ZERO_SIZED {
            self.pos = start;
            return Err(self.fail(
                path,
                format!("{n} elements of zero size: more than {MAX_ZERO_SIZED} accepted"),
            ));
        }
        if u128::from(n) * unit_size > left {
            self.pos = start;
            return Err(self.fail(
                path,
                format!(
                    "{what} length {n} needs at least {} bytes, {left} left",
                    u128::from(n) * unit_size
                ),
            ));
        }
        Ok(n)
    }

    fn value(&mut self, ty: &Type, path: &str) -> Result<Value, DynError> {
        match ty {
            Type::Builtin(b) => {
                let start = self.pos;
                let v = match b {
                    Builtin::Bool => Value::Bool(self.int(*b, path)? != 0),
                    Builtin::Float32 => {
                        let raw = self.take(4, path)?;
                        let x = f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
                        float_json(f64::from(x))
                    }
                    Builtin::Float64 => {
                        let raw = self.take(8, path)?;
                        let mut a = [0u8; 8];
                        a.copy_from_slice(raw);
                        float_json(f64::from_le_bytes(a))
                    }
                    int => int_json(self.int(*int, path)?),
                };
                self.row(start, path, || v.to_string());
                Ok(v)
            }
            Type::Enum(id) => {
                let start = self.pos;
                let DeclKind::Enum(e) = &self.schema.decl(*id).kind else {
                    return Err(self.fail(path, "not an enum"));
                };
                let raw = self.int(e.storage, path)?;
                let Some(m) = e.members.iter().find(|m| m.value == raw) else {
                    self.pos = start;
                    return Err(self.fail(
                        path,
                        format!(
                            "{raw} is not a member of enum {}",
                            self.schema.decl(*id).fqn()
                        ),
                    ));
                };
                let name = m.name.clone();
                self.row(start, path, || format!("{name} ({raw})"));
                Ok(Value::String(name))
            }
            Type::String { length, max, .. } => {
                let n = self.len(*length, *max, 1, "string", path)? as usize;
                let start = self.pos;
                let raw = self.take(n, path)?.to_vec();
                match String::from_utf8(raw) {
                    Ok(s) => {
                        self.row(start, path, || format!("{s:?}"));
                        Ok(Value::String(s))
                    }
                    Err(e) => {
                        self.pos = start + e.utf8_error().valid_up_to();
                        Err(self.fail(path, "invalid UTF-8 in string"))
                    }
                }
            }
            Type::VarArray {
                elem, length, max, ..
            } => {
                let unit = self.schema.type_metrics(elem).min_size.value();
                let n = self.len(*length, *max, unit, "array", path)?;
                let mut items = Vec::with_capacity(n.min(1024) as usize);
                for i in 0..n {
                    items.push(self.value(elem, &format!("{path}[{i}]"))?);
                }
                Ok(Value::Array(items))
            }
            Type::FixedArray { elem, len } => {
                let n = len.value();
                let unit = self.schema.type_metrics(elem).min_size.value();
                let left = (self.bytes.len() - self.pos) as u128;
                if u128::from(n) * unit > left {
                    return Err(self.fail(
                        path,
                        format!(
                            "truncated input: {n} elements need at least {} bytes, {left} left",
                            u128::from(n) * unit
                        ),
                    ));
                }
                let mut items = Vec::with_capacity(n.min(1024) as usize);
                for i in 0..n {
                    items.push(self.value(elem, &format!("{path}[{i}]"))?);
                }
                Ok(Value::Array(items))
            }
            Type::Struct(id) => {
                let DeclKind::Struct(s) = &self.schema.decl(*id).kind else {
                    return Err(self.fail(path, "not a structure"));
                };
                let mut m = Map::new();
                for f in &s.fields {
                    let v = self.value(&f.ty, &format!("{path}.{}", f.name))?;
                    m.insert(f.name.clone(), v);
                }
                Ok(Value::Object(m))
            }
            Type::Union(id) => {
                let DeclKind::Union(u) = &self.schema.decl(*id).kind else {
                    return Err(self.fail(path, "not a union"));
                };
                let start = self.pos;
                let tag = self.take(1, path)?[0];
                let Some(member) = u.members.iter().find(|m| m.tag == tag) else {
                    self.pos = start;
                    let what = if tag == 0xFF {
                        "tag 0xFF (INVALID): the union is empty".to_owned()
                    } else {
                        format!("unknown tag {tag}")
                    };
                    return Err(self.fail(
                        path,
                        format!("{what} for union {}", self.schema.decl(*id).fqn()),
                    ));
                };
                let name = member.name.clone();
                self.row(start, &format!("{path} (tag)"), || {
                    format!("{name} ({tag})")
                });
                let payload = self.value(&member.ty, &format!("{path}.{name}"))?;
                Ok(union_json(&name, &member.ty, payload))
            }
        }
    }
}
