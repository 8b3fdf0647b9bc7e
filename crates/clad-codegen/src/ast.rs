//! Syntax tree: what the parser read, before any name is resolved.

use crate::ir::Builtin;
use crate::source::Span;

/// A name as written, with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The text (may be `::`-qualified).
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

/// A literal constant.
#[derive(Clone, Debug, PartialEq)]
pub struct Const {
    /// The value.
    pub kind: ConstKind,
    /// Where it was written.
    pub span: Span,
}

/// The three kinds of CLAD constant.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstKind {
    /// Integer literal; `hex` records a `0x` literal.
    Int {
        /// The value.
        value: i128,
        /// Written in hexadecimal.
        hex: bool,
    },
    /// Decimal float literal.
    Float(f64),
    /// `verbatim` text.
    Verbatim(String),
}

/// A type as written.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    /// A builtin keyword type.
    Builtin(Builtin, Span),
    /// `string`, `string[L]` or `string[L:max]`.
    String {
        /// The length type as written (must be an unsigned builtin).
        length: Option<Box<TypeExpr>>,
        /// Declared maximum length.
        max: Option<Const>,
        /// The whole type.
        span: Span,
    },
    /// A declared type name.
    Named(Ident),
}

impl TypeExpr {
    /// Where the type was written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Builtin(_, s) => *s,
            TypeExpr::String { span, .. } => *span,
            TypeExpr::Named(i) => i.span,
        }
    }
}

/// How a member is declared: plain, variable array or fixed array.
#[derive(Clone, Debug, PartialEq)]
pub enum MemberShape {
    /// `T name`
    Scalar,
    /// `T name[L]` or `T name[L:max]`
    VarArray {
        /// Length type keyword and its location.
        length: (Builtin, Span),
        /// Declared maximum.
        max: Option<Const>,
    },
    /// `T name[N]` or `T name[verbatim ...]`
    FixedArray {
        /// The length constant.
        length: Const,
    },
}

/// A member of a message, structure or union.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Element type.
    pub ty: TypeExpr,
    /// Member name.
    pub name: Ident,
    /// Array shape.
    pub shape: MemberShape,
    /// `= constant`: a default value (messages) or an explicit tag (unions).
    pub init: Option<Const>,
    /// Documentation comments.
    pub docs: Option<String>,
    /// The whole member.
    pub span: Span,
}

/// `message`/`structure`.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// `message` (true) or `structure` (false).
    pub is_message: bool,
    /// `no_default_constructor` was written.
    pub no_default_constructor: bool,
    /// The declared name.
    pub name: Ident,
    /// Members in order.
    pub members: Vec<Member>,
    /// Documentation comments.
    pub docs: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// An enumerator.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumMember {
    /// Its name.
    pub name: Ident,
    /// `= constant`.
    pub init: Option<Const>,
    /// Documentation comments.
    pub docs: Option<String>,
}

/// `enum`.
#[derive(Clone, Debug, PartialEq)]
pub struct Enum {
    /// `no_cpp_class` was written.
    pub no_cpp_class: bool,
    /// Storage type and its location.
    pub storage: (Builtin, Span),
    /// The declared name.
    pub name: Ident,
    /// Enumerators in order.
    pub members: Vec<EnumMember>,
    /// Documentation comments.
    pub docs: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// `union`/`autounion`.
#[derive(Clone, Debug, PartialEq)]
pub struct Union {
    /// `autounion`.
    pub autounion: bool,
    /// `dupes_allowed`.
    pub dupes_allowed: bool,
    /// The declared name.
    pub name: Ident,
    /// Explicit members in order.
    pub members: Vec<Member>,
    /// Documentation comments.
    pub docs: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// `enum_concept`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumConcept {
    /// Return type.
    pub return_type: TypeExpr,
    /// The concept's name.
    pub name: Ident,
    /// The enum it maps, as written.
    pub enum_name: Ident,
    /// `member = value` pairs.
    pub members: Vec<(Ident, Const)>,
    /// Documentation comments.
    pub docs: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// A top-level or namespace-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `namespace N { ... }`
    Namespace {
        /// Its name.
        name: Ident,
        /// Its content.
        items: Vec<Item>,
        /// The whole block.
        span: Span,
    },
    /// `include "path" { ... }` (written by the preprocessor or by hand).
    Include {
        /// The path.
        path: String,
        /// Its content.
        items: Vec<Item>,
        /// The block.
        span: Span,
    },
    /// A message or structure.
    Message(Message),
    /// An enum.
    Enum(Enum),
    /// A union or autounion.
    Union(Union),
    /// An enum concept.
    EnumConcept(EnumConcept),
}
