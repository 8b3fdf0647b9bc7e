//! Helpers shared by the property tests: where the schemas are, their IR (compiled at test
//! time with `clad_codegen::compile`), proptest strategies that produce CLAD-JSON values for
//! any IR type, the golden vectors, and a schema-driven walk over encoded bytes.
#![allow(dead_code)]

use clad_codegen::ir::{Builtin, DeclId, DeclKind, Schema, Type};
use clad_conformance::{SchemaInfo, TypeInfo, EDGE_ROOT};
use proptest::prelude::*;
use proptest::strategy::Union as OneOf;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::PathBuf;

/// The manifest of the conformance tree `build.rs` compiled (`None` when there was none).
pub fn manifest() -> Option<&'static clad_conformance::corpus::Manifest> {
    static MANIFEST: std::sync::OnceLock<Option<clad_conformance::corpus::Manifest>> =
        std::sync::OnceLock::new();
    MANIFEST
        .get_or_init(clad_conformance::built_manifest)
        .as_ref()
}

/// The include directories of a compile root: ours for [`EDGE_ROOT`], else the root under
/// the tree's `schemas/` followed by the manifest's `include_dirs`.
pub fn search_dirs(root: &str) -> Vec<PathBuf> {
    if root == EDGE_ROOT {
        vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schemas")]
    } else {
        manifest()
            .expect("a conformance root without conformance data")
            .search_dirs(root)
    }
}

/// Number of proptest cases per type: `PROPTEST_CASES`, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Every generated message, structure and union, with its schema.
pub fn all_types() -> impl Iterator<Item = (&'static SchemaInfo, &'static TypeInfo)> {
    clad_conformance::SCHEMAS
        .iter()
        .flat_map(|s| s.types.iter().map(move |t| (s, t)))
}

/// Compiled schemas, cached by `(root, file)`.
#[derive(Default)]
pub struct Schemas {
    cache: HashMap<(String, String), Schema>,
}

impl Schemas {
    /// The IR of `file` compiled in `root`, as the builder compiles it.
    pub fn get(&mut self, root: &str, file: &str) -> &Schema {
        self.cache
            .entry((root.to_owned(), file.to_owned()))
            .or_insert_with(|| {
                let mut loader = clad_codegen::FsLoader::new(search_dirs(root));
                let out = clad_codegen::compile(&mut loader, file);
                match out.schema {
                    Some(s) => s,
                    None => panic!("{root}/{file} does not compile:\n{}", out.render()),
                }
            })
    }

    /// The IR the generated type `t` of schema `s` was made from, and its declaration.
    pub fn decl(&mut self, s: &SchemaInfo, t: &TypeInfo) -> (&Schema, DeclId) {
        let schema = self.get(s.root, t.file);
        let id = schema
            .lookup(t.clad_name)
            .unwrap_or_else(|| panic!("{} not found in {}/{}", t.clad_name, s.root, t.file));
        (schema, id)
    }
}

// ----- value strategies ----------------------------------------------------------------------

/// Options of the value strategies.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gen {
    /// Also produce NaN and the infinities (as `"NaN"`, `"Infinity"`, `"-Infinity"`).
    pub special_floats: bool,
}

/// Longest generated string, in bytes (the declared maximum applies when smaller).
const STRING_CAP: u64 = 12;
/// Most elements of a generated variable array (the declared maximum applies when smaller).
const ARRAY_CAP: u64 = 4;

fn int_json(v: i128) -> Value {
    match u64::try_from(v) {
        Ok(u) => Value::from(u),
        Err(_) => Value::from(i64::try_from(v).expect("CLAD integers fit i64 or u64")),
    }
}

fn float_json(v: f64) -> Value {
    if v.is_nan() {
        Value::from("NaN")
    } else if v == f64::INFINITY {
        Value::from("Infinity")
    } else if v == f64::NEG_INFINITY {
        Value::from("-Infinity")
    } else {
        Value::from(v)
    }
}

fn builtin_strategy(b: Builtin, gen: Gen) -> BoxedStrategy<Value> {
    match b {
        Builtin::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        Builtin::Float32 => {
            let finite = any::<u32>().prop_map(|bits| {
                let f = f32::from_bits(bits);
                // Clear the top exponent bit of NaN/infinity patterns: still arbitrary, finite.
                let f = if f.is_finite() {
                    f
                } else {
                    f32::from_bits(bits & !0x4000_0000)
                };
                f64::from(f)
            });
            let edges = prop::sample::select(vec![
                0.0f32,
                -0.0,
                1.0,
                0.42,
                f32::MAX,
                f32::MIN,
                f32::MIN_POSITIVE,
                f32::from_bits(1),
                -f32::from_bits(1),
            ])
            .prop_map(f64::from);
            float_choices(finite.boxed(), edges.boxed(), gen)
        }
        Builtin::Float64 => {
            let finite = any::<u64>().prop_map(|bits| {
                let f = f64::from_bits(bits);
                if f.is_finite() {
                    f
                } else {
                    f64::from_bits(bits & !0x4000_0000_0000_0000)
                }
            });
            let edges = prop::sample::select(vec![
                0.0f64,
                -0.0,
                1.0,
                0.1,
                f64::MAX,
                f64::MIN,
                f64::MIN_POSITIVE,
                f64::from_bits(1),
                -f64::from_bits(1),
            ]);
            float_choices(finite.boxed(), edges.boxed(), gen)
        }
        _ => {
            let (min, max) = (b.min().unwrap(), b.max().unwrap());
            prop_oneof![
                1 => Just(min),
                1 => Just(max),
                2 => (-2i128..=2).prop_map(move |v| v.clamp(min, max)),
                4 => min..=max,
            ]
            .prop_map(int_json)
            .boxed()
        }
    }
}

fn float_choices(
    finite: BoxedStrategy<f64>,
    edges: BoxedStrategy<f64>,
    gen: Gen,
) -> BoxedStrategy<Value> {
    let mut choices = vec![(6, finite), (2, edges)];
    if gen.special_floats {
        choices.push((
            3,
            prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY]).boxed(),
        ));
    }
    OneOf::new_weighted(choices).prop_map(float_json).boxed()
}

/// UTF-8 strings of at most `max` bytes (and at most [`STRING_CAP`], except for a rare
/// string of exactly `min(max, 300)` bytes) mixing ASCII, 2-, 3- and 4-byte characters,
/// escapes and NUL.
fn string_strategy(max: u64) -> BoxedStrategy<Value> {
    let cap = max.min(STRING_CAP) as usize;
    let ch = prop_oneof![
        4 => proptest::char::range('a', 'z'),
        1 => any::<char>(),
        2 => prop::sample::select(vec![
            'é', 'ß', 'Ω', '€', '中', '\u{FFFD}', '😀', '𝄞', '"', '\\', '\n', '\t', '\0', '\u{7f}',
        ]),
    ];
    let short = prop::collection::vec(ch, 0..=cap)
        .prop_map(move |chars| {
            let mut s = String::new();
            for c in chars {
                if s.len() + c.len_utf8() > cap {
                    break;
                }
                s.push(c);
            }
            Value::String(s)
        })
        .boxed();
    let long = max.min(300) as usize;
    if long <= cap {
        return short;
    }
    prop_oneof![
        15 => short,
        1 => Just(Value::String("é".repeat(long / 2) + &"x".repeat(long % 2))),
    ]
    .boxed()
}

/// A strategy for CLAD-JSON values of `ty`; `None` when the type has no values (it holds an
/// empty union).
pub fn value_strategy(schema: &Schema, ty: &Type, gen: Gen) -> Option<BoxedStrategy<Value>> {
    Some(match ty {
        Type::Builtin(b) => builtin_strategy(*b, gen),
        Type::Enum(id) => {
            let DeclKind::Enum(e) = &schema.decl(*id).kind else {
                unreachable!()
            };
            // The canonical name of each value: the first member that has it.
            let mut names: Vec<String> = Vec::new();
            for (i, m) in e.members.iter().enumerate() {
                if !e.members[..i].iter().any(|p| p.value == m.value) {
                    names.push(m.name.clone());
                }
            }
            prop::sample::select(names).prop_map(Value::String).boxed()
        }
        Type::Struct(id) | Type::Union(id) => decl_strategy(schema, *id, gen, None)?,
        Type::String { max, .. } => string_strategy(*max),
        Type::VarArray { elem, max, .. } => {
            let e = value_strategy(schema, elem, gen);
            let n = (*max).min(ARRAY_CAP) as usize;
            match e {
                Some(e) => prop::collection::vec(e, 0..=n)
                    .prop_map(Value::Array)
                    .boxed(),
                None => Just(Value::Array(Vec::new())).boxed(),
            }
        }
        Type::FixedArray { elem, len } => {
            let n = len.value() as usize;
            if n == 0 {
                Just(Value::Array(Vec::new())).boxed()
            } else {
                prop::collection::vec(value_strategy(schema, elem, gen)?, n..=n)
                    .prop_map(Value::Array)
                    .boxed()
            }
        }
    })
}

/// A strategy for a message/structure (an object with every member) or a union (an object
/// with `"type"`, the member's fields flattened for structure members, else under
/// `"value"`). For a union, `only_member` restricts it to one member (by index).
pub fn decl_strategy(
    schema: &Schema,
    id: DeclId,
    gen: Gen,
    only_member: Option<usize>,
) -> Option<BoxedStrategy<Value>> {
    match &schema.decl(id).kind {
        DeclKind::Struct(s) => {
            let mut fields = Vec::new();
            for f in &s.fields {
                fields.push(value_strategy(schema, &f.ty, gen)?);
            }
            let names: Vec<String> = s.fields.iter().map(|f| f.name.clone()).collect();
            Some(
                fields
                    .prop_map(move |values| {
                        Value::Object(names.iter().cloned().zip(values).collect::<Map<_, _>>())
                    })
                    .boxed(),
            )
        }
        DeclKind::Union(u) => {
            let mut members = Vec::new();
            for (i, m) in u.members.iter().enumerate() {
                if only_member.is_some_and(|only| only != i) {
                    continue;
                }
                let Some(payload) = value_strategy(schema, &m.ty, gen) else {
                    continue;
                };
                let name = m.name.clone();
                let flattened = matches!(m.ty, Type::Struct(_));
                members.push(
                    payload
                        .prop_map(move |v| {
                            let mut obj = Map::new();
                            obj.insert("type".to_owned(), Value::String(name.clone()));
                            match v {
                                Value::Object(fields) if flattened => obj.extend(fields),
                                other => {
                                    obj.insert("value".to_owned(), other);
                                }
                            }
                            Value::Object(obj)
                        })
                        .boxed(),
                );
            }
            (!members.is_empty()).then(|| OneOf::new(members).boxed())
        }
        _ => None,
    }
}

/// Whether values of `ty` can hold a float.
pub fn has_float(schema: &Schema, ty: &Type) -> bool {
    match ty {
        Type::Builtin(b) => b.is_float(),
        Type::Enum(_) | Type::String { .. } => false,
        Type::VarArray { elem, .. } | Type::FixedArray { elem, .. } => has_float(schema, elem),
        Type::Struct(id) | Type::Union(id) => decl_has_float(schema, *id),
    }
}

/// Whether values of the declaration can hold a float.
pub fn decl_has_float(schema: &Schema, id: DeclId) -> bool {
    match &schema.decl(id).kind {
        DeclKind::Struct(s) => s.fields.iter().any(|f| has_float(schema, &f.ty)),
        DeclKind::Union(u) => u.members.iter().any(|m| has_float(schema, &m.ty)),
        _ => false,
    }
}

/// Number of members of a union declaration (0 for other declarations).
pub fn union_members(schema: &Schema, id: DeclId) -> usize {
    match &schema.decl(id).kind {
        DeclKind::Union(u) => u.members.len(),
        _ => 0,
    }
}

// ----- golden vectors --------------------------------------------------------------------------

/// One golden vector.
pub struct Vector {
    pub root: String,
    pub schema: String,
    pub ty: String,
    pub bytes: Vec<u8>,
    /// `path:line`, for messages.
    pub origin: String,
}

/// Every golden vector (empty when the conformance data is absent).
pub fn vectors() -> Vec<Vector> {
    let Some(manifest) = manifest() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in manifest.ok_files() {
        for v in manifest.vectors(f).unwrap_or_else(|e| panic!("{e}")) {
            out.push(Vector {
                root: f.root.clone(),
                schema: f.schema.clone(),
                ty: v.ty,
                bytes: v.bytes,
                origin: v.origin,
            });
        }
    }
    out
}

// ----- walking encoded bytes -------------------------------------------------------------------

/// A string length or array count in an encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LengthPrefix {
    /// Offset of its first byte.
    pub offset: usize,
    /// Its size in bytes (1, 2, 4 or 8).
    pub width: usize,
    /// True for a string length, false for an array count.
    pub string: bool,
}

/// Every length prefix in the valid encoding `bytes` of `ty`, found by decoding it with the
/// IR alone; `None` when the bytes are not a valid encoding.
pub fn length_prefixes(schema: &Schema, ty: &Type, bytes: &[u8]) -> Option<Vec<LengthPrefix>> {
    let mut out = Vec::new();
    let mut pos = 0;
    walk(schema, ty, bytes, &mut pos, &mut out)?;
    (pos == bytes.len()).then_some(out)
}

fn read_uint(bytes: &[u8], pos: &mut usize, width: usize) -> Option<u64> {
    let b = bytes.get(*pos..*pos + width)?;
    *pos += width;
    Some(
        b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)),
    )
}

fn walk(
    schema: &Schema,
    ty: &Type,
    bytes: &[u8],
    pos: &mut usize,
    out: &mut Vec<LengthPrefix>,
) -> Option<()> {
    match ty {
        Type::Builtin(b) => {
            read_uint(bytes, pos, b.size() as usize)?;
        }
        Type::Enum(id) => {
            let DeclKind::Enum(e) = &schema.decl(*id).kind else {
                return None;
            };
            read_uint(bytes, pos, e.storage.size() as usize)?;
        }
        Type::String { length, .. } => {
            let width = length.size() as usize;
            out.push(LengthPrefix {
                offset: *pos,
                width,
                string: true,
            });
            let n = read_uint(bytes, pos, width)?;
            let n = usize::try_from(n).ok()?;
            bytes.get(*pos..pos.checked_add(n)?)?;
            *pos += n;
        }
        Type::VarArray { elem, length, .. } => {
            let width = length.size() as usize;
            out.push(LengthPrefix {
                offset: *pos,
                width,
                string: false,
            });
            let n = read_uint(bytes, pos, width)?;
            for _ in 0..n.min(bytes.len() as u64 + 1) {
                walk(schema, elem, bytes, pos, out)?;
            }
        }
        Type::FixedArray { elem, len } => {
            for _ in 0..len.value() {
                walk(schema, elem, bytes, pos, out)?;
            }
        }
        Type::Struct(id) => {
            let DeclKind::Struct(s) = &schema.decl(*id).kind else {
                return None;
            };
            for f in &s.fields {
                walk(schema, &f.ty, bytes, pos, out)?;
            }
        }
        Type::Union(id) => {
            let DeclKind::Union(u) = &schema.decl(*id).kind else {
                return None;
            };
            let tag = read_uint(bytes, pos, 1)?;
            let m = u.members.iter().find(|m| u64::from(m.tag) == tag)?;
            walk(schema, &m.ty, bytes, pos, out)?;
        }
    }
    Some(())
}

/// The IR type of a declaration.
pub fn decl_type(schema: &Schema, id: DeclId) -> Type {
    match &schema.decl(id).kind {
        DeclKind::Union(_) => Type::Union(id),
        _ => Type::Struct(id),
    }
}
