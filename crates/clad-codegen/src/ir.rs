//! The resolved intermediate representation: a whole translation unit after name resolution,
//! enum value and union tag assignment, autounion expansion, size metrics and version hashes.
//!
//! This is plain data. It knows nothing about Rust (or any target language) and is the single
//! input of every emitter: `cladc describe`, the Rust emitter, the dynamic encoder. Nothing in
//! here can be in an invalid state: a [`Schema`] exists only for a schema without errors.

use crate::source::{FileId, SourceDb, Span};

/// Index of a declaration in [`Schema::decls`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u32);

/// A builtin scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Builtin {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float32,
    Float64,
}

impl Builtin {
    /// Every builtin, in keyword order.
    pub const ALL: [Builtin; 11] = [
        Builtin::Bool,
        Builtin::Int8,
        Builtin::Int16,
        Builtin::Int32,
        Builtin::Int64,
        Builtin::Uint8,
        Builtin::Uint16,
        Builtin::Uint32,
        Builtin::Uint64,
        Builtin::Float32,
        Builtin::Float64,
    ];

    /// The CLAD keyword.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Bool => "bool",
            Builtin::Int8 => "int_8",
            Builtin::Int16 => "int_16",
            Builtin::Int32 => "int_32",
            Builtin::Int64 => "int_64",
            Builtin::Uint8 => "uint_8",
            Builtin::Uint16 => "uint_16",
            Builtin::Uint32 => "uint_32",
            Builtin::Uint64 => "uint_64",
            Builtin::Float32 => "float_32",
            Builtin::Float64 => "float_64",
        }
    }

    /// Size on the wire, in bytes.
    pub fn size(self) -> u32 {
        match self {
            Builtin::Bool | Builtin::Int8 | Builtin::Uint8 => 1,
            Builtin::Int16 | Builtin::Uint16 => 2,
            Builtin::Int32 | Builtin::Uint32 | Builtin::Float32 => 4,
            Builtin::Int64 | Builtin::Uint64 | Builtin::Float64 => 8,
        }
    }

    /// `float_32` or `float_64`.
    pub fn is_float(self) -> bool {
        matches!(self, Builtin::Float32 | Builtin::Float64)
    }

    /// Unsigned integer types (`bool` is not one).
    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            Builtin::Uint8 | Builtin::Uint16 | Builtin::Uint32 | Builtin::Uint64
        )
    }

    /// Smallest value (None for floats).
    pub fn min(self) -> Option<i128> {
        Some(match self {
            Builtin::Bool => 0,
            Builtin::Int8 => i8::MIN.into(),
            Builtin::Int16 => i16::MIN.into(),
            Builtin::Int32 => i32::MIN.into(),
            Builtin::Int64 => i64::MIN.into(),
            Builtin::Uint8 | Builtin::Uint16 | Builtin::Uint32 | Builtin::Uint64 => 0,
            Builtin::Float32 | Builtin::Float64 => return None,
        })
    }

    /// Largest value (None for floats).
    pub fn max(self) -> Option<i128> {
        Some(match self {
            Builtin::Bool => 1,
            Builtin::Int8 => i8::MAX.into(),
            Builtin::Int16 => i16::MAX.into(),
            Builtin::Int32 => i32::MAX.into(),
            Builtin::Int64 => i64::MAX.into(),
            Builtin::Uint8 => u8::MAX.into(),
            Builtin::Uint16 => u16::MAX.into(),
            Builtin::Uint32 => u32::MAX.into(),
            Builtin::Uint64 => u64::MAX.into(),
            Builtin::Float32 | Builtin::Float64 => return None,
        })
    }
}

/// The length of a fixed-size array.
#[derive(Clone, Debug, PartialEq)]
pub enum FixedLen {
    /// An integer literal.
    Literal(u64),
    /// `verbatim EXPR`: the text as written and its evaluated value.
    Verbatim {
        /// The expression text (with `verbatim ` removed).
        text: String,
        /// Its value, evaluated by the compiler.
        value: u64,
    },
}

impl FixedLen {
    /// The number of elements.
    pub fn value(&self) -> u64 {
        match self {
            FixedLen::Literal(n) => *n,
            FixedLen::Verbatim { value, .. } => *value,
        }
    }
}

/// A resolved type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// A builtin scalar.
    Builtin(Builtin),
    /// An enum declaration.
    Enum(DeclId),
    /// A message or structure declaration.
    Struct(DeclId),
    /// A union declaration.
    Union(DeclId),
    /// A length-prefixed UTF-8 string.
    String {
        /// Length prefix type: `Uint8`, `Uint16` or `Uint32`.
        length: Builtin,
        /// Largest length in bytes (the declared max, else the length type's max).
        max: u64,
        /// True when a `:max` was written.
        max_declared: bool,
    },
    /// `T name[L]` / `T name[L:max]`.
    VarArray {
        /// Element type.
        elem: Box<Type>,
        /// Count prefix type (an unsigned builtin).
        length: Builtin,
        /// Largest count (the declared max, else the length type's max).
        max: u64,
        /// True when a `:max` was written.
        max_declared: bool,
    },
    /// `T name[N]`.
    FixedArray {
        /// Element type.
        elem: Box<Type>,
        /// Number of elements.
        len: FixedLen,
    },
}

/// An evaluated constant (defaults, enum-concept values).
#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    /// Integer (also enum values and `bool` as 0/1).
    Int(i128),
    /// Floating point.
    Float(f64),
    /// String.
    Str(String),
    /// Boolean (from `true`/`false` in verbatim text).
    Bool(bool),
}

/// A literal as written in the schema.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// Integer; `hex` when written `0x...`.
    Int {
        /// The value.
        value: i128,
        /// Written in hexadecimal.
        hex: bool,
    },
    /// Decimal float.
    Float(f64),
    /// `verbatim` text.
    Verbatim(String),
}

/// A literal plus its evaluated value.
#[derive(Clone, Debug, PartialEq)]
pub struct Constant {
    /// As written.
    pub literal: Literal,
    /// As evaluated (verbatim text is evaluated by the compiler's expression evaluator).
    pub value: ConstValue,
    /// Where it was written.
    pub span: Span,
}

/// Size metrics of a type (spec §3.11).
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Smallest encoding, in bytes.
    pub min_size: SizeExpr,
    /// Largest encoding, in bytes.
    pub max_size: SizeExpr,
    /// Alignment as the original C emitters compute it.
    pub alignment: u32,
    /// Every value encodes to the same number of bytes.
    pub is_fixed_size: bool,
}

/// A size that may involve verbatim array lengths. The original compiler keeps those
/// symbolic; we keep both the symbolic form (for `describe`) and the evaluated number.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SizeExpr {
    /// The literal part of the sum.
    pub constant: u128,
    /// Symbolic terms: `(verbatim text, its value, how many times it is added)`.
    pub terms: Vec<(String, u64, u128)>,
}

impl SizeExpr {
    /// A plain number.
    pub fn bytes(n: u128) -> Self {
        SizeExpr {
            constant: n,
            terms: Vec::new(),
        }
    }

    /// The evaluated number of bytes (saturating).
    pub fn value(&self) -> u128 {
        self.terms.iter().fold(self.constant, |acc, (_, v, k)| {
            acc.saturating_add(u128::from(*v).saturating_mul(*k))
        })
    }

    /// `self + other`.
    pub fn add(&mut self, other: &SizeExpr) {
        self.constant = self.constant.saturating_add(other.constant);
        self.terms.extend(other.terms.iter().cloned());
    }

    /// `self * k`.
    pub fn times(&self, k: u128) -> SizeExpr {
        SizeExpr {
            constant: self.constant.saturating_mul(k),
            terms: self
                .terms
                .iter()
                .map(|(t, v, n)| (t.clone(), *v, n.saturating_mul(k)))
                .collect(),
        }
    }
}

/// A member of a message or structure.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Name as written.
    pub name: String,
    /// Resolved type.
    pub ty: Type,
    /// Declared default value.
    pub default: Option<Constant>,
    /// Documentation comment.
    pub docs: Option<String>,
    /// Where it was declared.
    pub span: Span,
}

/// A `message` or `structure`.
#[derive(Clone, Debug, PartialEq)]
pub struct Struct {
    /// `message` (true; collected into autounions) or `structure` (false).
    pub is_message: bool,
    /// `no_default_constructor` was written.
    pub no_default_constructor: bool,
    /// Members in order.
    pub fields: Vec<Field>,
    /// Size metrics.
    pub metrics: Metrics,
}

/// A member of a union.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionMember {
    /// Name as written (for automatic members: the message's short name).
    pub name: String,
    /// Payload type.
    pub ty: Type,
    /// The wire tag.
    pub tag: u8,
    /// The tag literal, when written.
    pub explicit_tag: Option<Literal>,
    /// Added by autounion expansion.
    pub automatic: bool,
    /// Another member has the identical payload type (only set for `dupes_allowed` unions;
    /// string and array payloads are never identical, as in the original).
    pub has_duplicates: bool,
    /// Documentation comment.
    pub docs: Option<String>,
    /// Where it was declared (for automatic members: the autounion).
    pub span: Span,
}

/// A `union` or `autounion`.
#[derive(Clone, Debug, PartialEq)]
pub struct Union {
    /// Declared with `autounion`.
    pub autounion: bool,
    /// Declared with `dupes_allowed`.
    pub dupes_allowed: bool,
    /// Members in tag-assignment order (explicit ones first, then automatic ones).
    pub members: Vec<UnionMember>,
    /// Size metrics.
    pub metrics: Metrics,
}

/// An enumerator.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumMember {
    /// Name as written.
    pub name: String,
    /// The initializer, when written.
    pub initializer: Option<Literal>,
    /// The numeric value.
    pub value: i128,
    /// The value as the original compiler renders it: an integer, or text such as `"0xf + 1"`
    /// for members at or after a hex or verbatim initializer.
    pub display: EnumValueText,
    /// The original compiler's duplicate flag (spec §3.4: compares the display form, so it can
    /// miss numeric duplicates after hex initializers).
    pub is_duplicate: bool,
    /// Documentation comment.
    pub docs: Option<String>,
    /// Where it was declared.
    pub span: Span,
}

/// How the original renders an enum value.
#[derive(Clone, Debug, PartialEq)]
pub enum EnumValueText {
    /// A plain integer.
    Int(i128),
    /// Text (hex or verbatim base, with ` + k` when offset).
    Text(String),
}

/// An `enum`.
#[derive(Clone, Debug, PartialEq)]
pub struct Enum {
    /// Storage type.
    pub storage: Builtin,
    /// `no_cpp_class` was written.
    pub no_cpp_class: bool,
    /// Enumerators in order.
    pub members: Vec<EnumMember>,
}

/// A member of an enum concept.
#[derive(Clone, Debug, PartialEq)]
pub struct ConceptMember {
    /// The enum member it maps.
    pub name: String,
    /// Index of that member in the enum.
    pub enum_member: usize,
    /// The mapped value.
    pub value: Constant,
}

/// An `enum_concept`: a total map from an enum's members to constants.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumConcept {
    /// The value type.
    pub return_type: Type,
    /// The enum, as written in the declaration.
    pub enum_name_written: String,
    /// The enum.
    pub enum_decl: DeclId,
    /// Mapped values, in written order.
    pub members: Vec<ConceptMember>,
}

/// What a declaration declares.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// An enum.
    Enum(Enum),
    /// A message or structure.
    Struct(Struct),
    /// A union or autounion.
    Union(Union),
    /// An enum concept.
    EnumConcept(EnumConcept),
}

/// A declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// Short name.
    pub name: String,
    /// Enclosing namespaces, outermost first.
    pub namespace: Vec<String>,
    /// The contents.
    pub kind: DeclKind,
    /// Documentation comment.
    pub docs: Option<String>,
    /// Where it was declared.
    pub span: Span,
    /// Declared inside an `include` block (from an included file, or a hand-written block).
    pub from_include: bool,
    /// Per-declaration version hash (None for declarations from includes, as in the original).
    pub hash: Option<String>,
    /// The schema hash: over the canonical form of the type and every type it refers to
    /// ([`crate::schema_hash`]; 32 hex digits). Set for every enum, message, structure and
    /// union, included ones too; `None` for enum concepts. Not the original's: this is what
    /// transports compare.
    pub schema_hash: Option<String>,
    /// The original marks this name as possibly ambiguous (a member somewhere has the same
    /// name); it affects only generated text and the file hash.
    pub possibly_ambiguous: bool,
}

impl Decl {
    /// `A::B::Name`.
    pub fn fqn(&self) -> String {
        let mut s = String::new();
        for ns in &self.namespace {
            s.push_str(ns);
            s.push_str("::");
        }
        s.push_str(&self.name);
        s
    }

    /// Size metrics, for messages, structures and unions.
    pub fn metrics(&self) -> Option<&Metrics> {
        match &self.kind {
            DeclKind::Struct(s) => Some(&s.metrics),
            DeclKind::Union(u) => Some(&u.metrics),
            _ => None,
        }
    }

    /// `"enum"`, `"message"`, `"structure"`, `"union"` or `"enumconcept"`.
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            DeclKind::Enum(_) => "enum",
            DeclKind::Struct(s) if s.is_message => "message",
            DeclKind::Struct(_) => "structure",
            DeclKind::Union(_) => "union",
            DeclKind::EnumConcept(_) => "enumconcept",
        }
    }
}

/// An item of the declaration tree, in source order.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A declaration.
    Decl(DeclId),
    /// A `namespace` block (re-opened namespaces give several blocks).
    Namespace(NamespaceBlock),
    /// An `include` block: the declarations of an included file (or a hand-written block).
    Include(IncludeBlock),
}

/// One `namespace N { ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceBlock {
    /// Short name.
    pub name: String,
    /// Full path including this namespace.
    pub path: Vec<String>,
    /// Contents.
    pub items: Vec<Item>,
    /// Where it was written.
    pub span: Span,
    /// Inside an include block.
    pub from_include: bool,
    /// Version hash of the block (None inside includes).
    pub hash: Option<String>,
}

/// One `include "path" { ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct IncludeBlock {
    /// The path as written.
    pub path: String,
    /// The included declarations (empty when the path was already included).
    pub items: Vec<Item>,
    /// The `#include` line.
    pub span: Span,
}

/// A compiled translation unit.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The input name the file was compiled as (relative to the include directories, or as
    /// given).
    pub input: String,
    /// Every file that was read; the main file is `FileId(0)`.
    pub sources: SourceDb,
    /// All declarations (including included ones) in source order.
    pub decls: Vec<Decl>,
    /// The declaration tree.
    pub items: Vec<Item>,
    /// The file-level hash (the original's `ASTHash` emitter).
    pub file_hash: String,
}

impl Schema {
    /// The main file.
    pub fn main_file(&self) -> FileId {
        FileId(0)
    }

    /// A declaration by id.
    pub fn decl(&self, id: DeclId) -> &Decl {
        &self.decls[id.0 as usize]
    }

    /// Every declaration with its id.
    pub fn iter(&self) -> impl Iterator<Item = (DeclId, &Decl)> {
        self.decls
            .iter()
            .enumerate()
            .map(|(i, d)| (DeclId(i as u32), d))
    }

    /// Declarations written in the main file itself (not in include blocks).
    pub fn own_decls(&self) -> impl Iterator<Item = (DeclId, &Decl)> {
        self.iter().filter(|(_, d)| !d.from_include)
    }

    /// Finds a type declaration by fully qualified name (`A::B::Name`).
    pub fn lookup(&self, fqn: &str) -> Option<DeclId> {
        self.iter()
            .find(|(_, d)| !matches!(d.kind, DeclKind::EnumConcept(_)) && d.fqn() == fqn)
            .map(|(id, _)| id)
    }

    /// The CLAD name of a type, as the original spells it in hashes (`string[uint_8]`,
    /// `Foo[uint_16]`, `int_16[20]`...).
    pub fn type_name(&self, ty: &Type) -> String {
        type_name(&self.decls, ty)
    }
}

/// The CLAD name of a type as the original spells it: builtins by keyword, declared types by
/// short name, `string[<len>]` (even for the default `uint_8`), `<elem>[<len type>]` and
/// `<elem>[<N or verbatim text>]`.
pub fn type_name(decls: &[Decl], ty: &Type) -> String {
    match ty {
        Type::Builtin(b) => b.name().to_owned(),
        Type::Enum(id) | Type::Struct(id) | Type::Union(id) => decls[id.0 as usize].name.clone(),
        Type::String { length, .. } => format!("string[{}]", length.name()),
        Type::VarArray { elem, length, .. } => {
            format!("{}[{}]", type_name(decls, elem), length.name())
        }
        Type::FixedArray { elem, len } => match len {
            FixedLen::Literal(n) => format!("{}[{n}]", type_name(decls, elem)),
            FixedLen::Verbatim { text, .. } => format!("{}[{text}]", type_name(decls, elem)),
        },
    }
}
