//! `cladc describe`: the semantic model of a file as JSON.
//!
//! The structure is exactly that of the conformance suite's `semantics.json` entries: the
//! file hash, then the file's own declarations in source order (namespaces before their
//! content), each with its kind, fully qualified name (`::`-prefixed when the original marks it
//! possibly ambiguous), version hash, enum values, union tags, members and wire sizes. One key
//! is ours, not the reference's: `schema_hash` on every enum, message, structure and union
//! (the hash over the type and every type inside it, [`crate::schema_hash`]).

use crate::ir::*;
use serde::Serialize;
use serde_json::{Map, Value};

/// A size: a number (which may exceed 64 bits) or `expr:...` for verbatim array lengths.
#[derive(Clone, Debug, PartialEq)]
pub enum SizeValue {
    /// Bytes.
    Bytes(u128),
    /// The original's symbolic form.
    Expr(String),
}

impl Serialize for SizeValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SizeValue::Bytes(n) => match u64::try_from(*n) {
                Ok(small) => s.serialize_u64(small),
                Err(_) => s.serialize_u128(*n),
            },
            SizeValue::Expr(e) => s.serialize_str(e),
        }
    }
}

fn size_value(size: &SizeExpr) -> SizeValue {
    if size.terms.is_empty() {
        return SizeValue::Bytes(size.constant);
    }
    let mut parts = Vec::new();
    for (text, _, count) in &size.terms {
        for _ in 0..(*count).min(10_000) {
            parts.push(text.clone());
        }
    }
    parts.push(size.constant.to_string());
    SizeValue::Expr(format!("expr:{}", parts.join("+")))
}

/// One declaration entry.
#[derive(Serialize)]
struct DeclEntry {
    kind: &'static str,
    fqn: String,
    hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    schema_hash: Option<String>,
    #[serde(flatten)]
    extra: Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    members: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_size: Option<SizeValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_size: Option<SizeValue>,
}

/// The whole description of a file.
#[derive(Serialize)]
pub struct Description {
    file_hash: String,
    decls: Vec<DeclEntry>,
}

fn literal_json(lit: &Literal) -> (Value, &'static str) {
    match lit {
        Literal::Int { value, hex } => (int_json(*value), if *hex { "hex" } else { "dec" }),
        Literal::Float(f) => (
            serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
            "dec",
        ),
        Literal::Verbatim(s) => (Value::String(s.clone()), "str"),
    }
}

fn int_json(v: i128) -> Value {
    if let Ok(u) = u64::try_from(v) {
        Value::from(u)
    } else if let Ok(i) = i64::try_from(v) {
        Value::from(i)
    } else {
        Value::String(v.to_string())
    }
}

/// Builds the description of the main file of `schema`.
pub fn describe(schema: &Schema) -> Description {
    let mut decls = Vec::new();
    walk(schema, &schema.items, &mut decls);
    Description {
        file_hash: schema.file_hash.clone(),
        decls,
    }
}

/// The description as pretty JSON.
pub fn describe_json(schema: &Schema) -> String {
    serde_json::to_string_pretty(&describe(schema)).unwrap_or_default()
}

fn walk(schema: &Schema, items: &[Item], out: &mut Vec<DeclEntry>) {
    for item in items {
        match item {
            Item::Include(_) => {}
            Item::Namespace(ns) => {
                out.push(DeclEntry {
                    kind: "namespace",
                    fqn: ns.path.join("::"),
                    hash: ns.hash.clone(),
                    schema_hash: None,
                    extra: Map::new(),
                    members: None,
                    min_size: None,
                    max_size: None,
                });
                walk(schema, &ns.items, out);
            }
            Item::Decl(id) => out.push(entry(schema, schema.decl(*id))),
        }
    }
}

fn entry(schema: &Schema, d: &Decl) -> DeclEntry {
    let mut extra = Map::new();
    let flag = |extra: &mut Map<String, Value>, key: &str, on: bool| {
        if on {
            extra.insert(key.to_owned(), Value::Bool(true));
        }
    };
    let members: Vec<Value> = match &d.kind {
        DeclKind::Enum(e) => {
            extra.insert("storage".into(), e.storage.name().into());
            flag(&mut extra, "no_cpp_class", e.no_cpp_class);
            e.members
                .iter()
                .map(|m| {
                    let v = match &m.display {
                        EnumValueText::Int(i) => int_json(*i),
                        EnumValueText::Text(t) => Value::String(t.clone()),
                    };
                    let mut row = vec![Value::String(m.name.clone()), v];
                    if m.is_duplicate {
                        row.push("dup".into());
                    }
                    Value::Array(row)
                })
                .collect()
        }
        DeclKind::Struct(s) => {
            flag(
                &mut extra,
                "no_default_constructor",
                s.no_default_constructor,
            );
            s.fields
                .iter()
                .map(|f| {
                    let mut row = vec![
                        Value::String(f.name.clone()),
                        Value::String(schema.type_name(&f.ty)),
                    ];
                    match &f.ty {
                        Type::String { max, .. } | Type::VarArray { max, .. } => {
                            row.push(Value::from(*max))
                        }
                        _ => {}
                    }
                    if let Some(c) = &f.default {
                        let (v, lit) = literal_json(&c.literal);
                        let mut m = Map::new();
                        m.insert("default".into(), v);
                        m.insert("lit".into(), lit.into());
                        row.push(Value::Object(m));
                    }
                    Value::Array(row)
                })
                .collect()
        }
        DeclKind::Union(u) => {
            flag(&mut extra, "autounion", u.autounion);
            flag(&mut extra, "dupes_allowed", u.dupes_allowed);
            u.members
                .iter()
                .map(|m| {
                    Value::Array(vec![
                        Value::String(m.name.clone()),
                        Value::String(schema.type_name(&m.ty)),
                        Value::from(m.tag),
                    ])
                })
                .collect()
        }
        DeclKind::EnumConcept(c) => {
            extra.insert("enum".into(), c.enum_name_written.clone().into());
            extra.insert("returns".into(), schema.type_name(&c.return_type).into());
            c.members
                .iter()
                .map(|m| {
                    Value::Array(vec![
                        Value::String(m.name.clone()),
                        literal_json(&m.value.literal).0,
                    ])
                })
                .collect()
        }
    };
    let metrics = d.metrics();
    DeclEntry {
        kind: d.kind_name(),
        fqn: if d.possibly_ambiguous {
            format!("::{}", d.fqn())
        } else {
            d.fqn()
        },
        hash: d.hash.clone(),
        schema_hash: d.schema_hash.clone(),
        extra,
        members: Some(members),
        min_size: metrics.map(|m| size_value(&m.min_size)),
        max_size: metrics.map(|m| size_value(&m.max_size)),
    }
}
