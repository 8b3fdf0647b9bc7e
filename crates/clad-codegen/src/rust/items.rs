//! Rust items for one declaration: the type, its constants and methods, its `Wire` impl
//! (pack/unpack) and its serde derives (CLAD-JSON).
//!
//! Items are written as text into a [`Code`] (see `code.rs` for why and how it indents).
//! Helpers that produce a fragment (a type, an expression) return it as a `String`.

use super::code::{arm, call, comma, emit, int_lit, str_lit, usize_lit, Code};
use super::Context;
use crate::ir::*;

/// Writes the items for declaration `id` of `unit`, placed in `module`.
pub(super) fn decl(c: &mut Code, cx: &Context<'_>, unit: usize, id: DeclId, module: &[String]) {
    let d = cx.units[unit].decl(id);
    match &d.kind {
        DeclKind::Enum(e) => enum_items(c, cx, unit, id, d, e, module),
        DeclKind::Struct(s) => struct_items(c, cx, unit, d, s, module),
        DeclKind::Union(u) => union_items(c, cx, unit, id, d, u, module),
        DeclKind::EnumConcept(_) => {}
    }
}

// ----- shared helpers ------------------------------------------------------------------------

/// Writes the user attributes whose path `matches`, exactly as given (validated as
/// attributes in `context`).
pub(super) fn user_attrs(c: &mut Code, list: &[(String, String)], matches: impl Fn(&str) -> bool) {
    for (_, a) in list.iter().filter(|(path, _)| matches(path)) {
        c.verbatim(a);
    }
}

pub(super) fn type_matches(path: &str, fqn: &str) -> bool {
    let path = path.trim_start_matches("::");
    path.is_empty()
        || path == "."
        || path == fqn
        || fqn
            .strip_prefix(path)
            .is_some_and(|rest| rest.starts_with("::"))
}

/// `#[allow(non_camel_case_types)]` when a clash suffix (`ShapeTag_2`, `MyFoo_2`) leaves an
/// underscore inside a type or variant identifier, which rustc's lint rejects.
pub(super) fn camel_case_allow<'a>(c: &mut Code, idents: impl IntoIterator<Item = &'a str>) {
    let needed = idents
        .into_iter()
        .any(|i| i.trim_start_matches("r#").trim_matches('_').contains('_'));
    if needed {
        c.line("#[allow(non_camel_case_types)]");
    }
}

pub(super) fn hash_consts(c: &mut Code, d: &Decl) {
    c.line("/// The schema's fully qualified name.");
    emit!(c, "pub const NAME: &'static str = {};", str_lit(&d.fqn()));
    let Some(hash) = &d.hash else {
        return;
    };
    // Two rows of eight bytes.
    let bytes: Vec<String> = (0..hash.len() / 2)
        .filter_map(|i| hash.get(2 * i..2 * i + 2))
        .map(|b| format!("0x{b}"))
        .collect();
    let bytes = bytes
        .chunks(8)
        .map(|row| format!("{},", comma(row)))
        .collect::<Vec<_>>()
        .join("\n");
    emit!(
        c,
        "
        /// Version hash of the declaration (MD5, as the original compiler computes it).
        pub const VERSION_HASH_STR: &'static str = {hash};
        /// [`Self::VERSION_HASH_STR`] as bytes, in hex-string order.
        pub const VERSION_HASH: [u8; 16] = [
            {bytes}
        ];",
        hash = str_lit(hash),
    );
}

fn float_lit(v: f64, b: Builtin) -> String {
    // A float_32 constant is the value narrowed to f32: one beyond the f32 range (CLAD does not
    // range-check floats) becomes an infinity instead of an invalid literal.
    let f32 = b == Builtin::Float32;
    let v = if f32 { f64::from(v as f32) } else { v };
    let ty = if f32 { "f32" } else { "f64" };
    if v.is_nan() {
        format!("{ty}::NAN")
    } else if v.is_infinite() {
        if v > 0.0 {
            format!("{ty}::INFINITY")
        } else {
            format!("{ty}::NEG_INFINITY")
        }
    } else {
        // Shortest text that reads back as the same value, always with a `.` or exponent
        // so it is a float literal.
        let mut s = if f32 {
            (v as f32).to_string()
        } else {
            v.to_string()
        };
        if !s.contains(['.', 'e', 'E']) {
            s.push_str(".0");
        }
        s
    }
}

fn builtin_ty(b: Builtin) -> &'static str {
    match b {
        Builtin::Bool => "bool",
        Builtin::Int8 => "i8",
        Builtin::Int16 => "i16",
        Builtin::Int32 => "i32",
        Builtin::Int64 => "i64",
        Builtin::Uint8 => "u8",
        Builtin::Uint16 => "u16",
        Builtin::Uint32 => "u32",
        Builtin::Uint64 => "u64",
        Builtin::Float32 => "f32",
        Builtin::Float64 => "f64",
    }
}

/// Rust representation of an enum's storage (bool storage is held as `u8`).
fn repr_ty(b: Builtin) -> &'static str {
    match b {
        Builtin::Bool => "u8",
        other => builtin_ty(other),
    }
}

pub(super) fn rust_type(cx: &Context<'_>, unit: usize, from: &[String], ty: &Type) -> String {
    match ty {
        Type::Builtin(b) => builtin_ty(*b).to_owned(),
        Type::Enum(id) | Type::Struct(id) | Type::Union(id) => cx.type_path(from, unit, *id),
        Type::String { .. } => "::std::string::String".to_owned(),
        Type::VarArray { elem, .. } => {
            format!("::std::vec::Vec<{}>", rust_type(cx, unit, from, elem))
        }
        Type::FixedArray { elem, len } => format!(
            "[{}; {}]",
            rust_type(cx, unit, from, elem),
            usize_lit(len.value().into())
        ),
    }
}

/// `(is Copy, is Eq + Hash)` for a type.
pub(super) fn traits(cx: &Context<'_>, unit: usize, ty: &Type) -> (bool, bool) {
    match ty {
        Type::Builtin(b) => (true, !b.is_float()),
        Type::Enum(_) => (true, true),
        Type::String { .. } => (false, true),
        Type::VarArray { elem, .. } => (false, traits(cx, unit, elem).1),
        Type::FixedArray { elem, .. } => traits(cx, unit, elem),
        Type::Struct(id) | Type::Union(id) => {
            let d = cx.units[unit].decl(*id);
            let tys: Vec<&Type> = match &d.kind {
                DeclKind::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
                DeclKind::Union(u) => u.members.iter().map(|m| &m.ty).collect(),
                _ => Vec::new(),
            };
            tys.into_iter().fold((true, true), |(c, e), t| {
                let (c2, e2) = traits(cx, unit, t);
                (c && c2, e && e2)
            })
        }
    }
}

/// The `#[derive(..)]` line of the standard traits a type can have.
pub(super) fn derives(copy: bool, eq: bool, default: bool) -> String {
    let mut list = vec!["Clone"];
    if copy {
        list.push("Copy");
    }
    list.push("Debug");
    list.push("PartialEq");
    if eq {
        list.push("Eq");
        list.push("Hash");
    }
    if default {
        list.push("Default");
    }
    format!("#[derive({})]", list.join(", "))
}

pub(super) fn len_ty(b: Builtin) -> &'static str {
    builtin_ty(b)
}

pub(super) fn max_tok(cx: &Context<'_>, max: u64, declared: bool) -> String {
    if declared {
        max.to_string()
    } else {
        format!("{}::wire::NO_MAX", cx.rt)
    }
}

/// The float helper module for serde, if the type holds floats directly.
fn float_kind(ty: &Type) -> Option<Builtin> {
    match ty {
        Type::Builtin(b) if b.is_float() => Some(*b),
        Type::VarArray { elem, .. } | Type::FixedArray { elem, .. } => match elem.as_ref() {
            Type::Builtin(b) if b.is_float() => Some(*b),
            _ => None,
        },
        _ => None,
    }
}

/// A fixed array longer than serde's and `Default`'s 32-element limit.
fn is_long_array(ty: &Type) -> bool {
    matches!(ty, Type::FixedArray { len, .. } if len.value() > 32)
}

/// `(size expression, write expression, read expression)` for one value on the wire.
/// `value` is a place (`self.x`) or a reference binding (`v`); `by_ref` is a reference to it.
pub(super) fn wire_parts(
    cx: &Context<'_>,
    unit: usize,
    from: &[String],
    ty: &Type,
    value: &str,
    by_ref: &str,
) -> (String, String, String) {
    let rt = &cx.rt;
    match ty {
        Type::String {
            length,
            max,
            max_declared,
        } => {
            let l = len_ty(*length);
            let m = max_tok(cx, *max, *max_declared);
            (
                format!("{rt}::wire::string_size::<{l}>({by_ref})"),
                call(
                    &format!("{rt}::wire::write_string::<{l}>"),
                    &["w", by_ref, &m],
                ),
                call(&format!("{rt}::wire::read_string::<{l}>"), &["r", &m]),
            )
        }
        Type::VarArray {
            elem,
            length,
            max,
            max_declared,
        } => {
            let l = len_ty(*length);
            let m = max_tok(cx, *max, *max_declared);
            match elem.as_ref() {
                Type::String {
                    length: sl,
                    max: smax,
                    max_declared: sdecl,
                } => {
                    let sl = len_ty(*sl);
                    let sm = max_tok(cx, *smax, *sdecl);
                    (
                        format!("{rt}::wire::string_vec_size::<{l}, {sl}>({by_ref})"),
                        call(
                            &format!("{rt}::wire::write_string_vec::<{l}, {sl}>"),
                            &["w", by_ref, &m, &sm],
                        ),
                        call(
                            &format!("{rt}::wire::read_string_vec::<{l}, {sl}>"),
                            &["r", &m, &sm],
                        ),
                    )
                }
                Type::Builtin(Builtin::Uint8) => (
                    format!("{rt}::wire::vec_size::<{l}, u8>({by_ref})"),
                    call(
                        &format!("{rt}::wire::write_byte_vec::<{l}>"),
                        &["w", by_ref, &m],
                    ),
                    call(&format!("{rt}::wire::read_byte_vec::<{l}>"), &["r", &m]),
                ),
                other => {
                    let t = rust_type(cx, unit, from, other);
                    (
                        format!("{rt}::wire::vec_size::<{l}, {t}>({by_ref})"),
                        call(
                            &format!("{rt}::wire::write_vec::<{l}, {t}>"),
                            &["w", by_ref, &m],
                        ),
                        call(&format!("{rt}::wire::read_vec::<{l}, {t}>"), &["r", &m]),
                    )
                }
            }
        }
        Type::FixedArray { elem, len } if matches!(elem.as_ref(), Type::String { .. }) => {
            let Type::String {
                length: sl,
                max: smax,
                max_declared: sdecl,
            } = elem.as_ref()
            else {
                unreachable!("matched above")
            };
            let sl = len_ty(*sl);
            let sm = max_tok(cx, *smax, *sdecl);
            let n = usize_lit(len.value().into());
            (
                format!("{rt}::wire::strings_size::<{sl}>({by_ref})"),
                call(
                    &format!("{rt}::wire::write_strings::<{sl}>"),
                    &["w", by_ref, &sm],
                ),
                call(
                    &format!("{rt}::wire::read_string_array::<{sl}, {n}>"),
                    &["r", &sm],
                ),
            )
        }
        _ => (
            format!("{value}.packed_size()"),
            format!("{value}.write_to(w)"),
            "r.read()".to_owned(),
        ),
    }
}

/// Opens the `Wire` impl of a structure or union: `TYPE_NAME`, the `FIXED_SIZE` and
/// `MIN_SIZE` constants and `packed_size` (returning `size_body`).
fn wire_impl_open(
    c: &mut Code,
    rt: &str,
    ident: &str,
    fqn_lit: &str,
    m: &Metrics,
    size_body: &str,
) {
    let fixed = if m.is_fixed_size {
        format!(
            "::core::option::Option::Some({})",
            usize_lit(m.max_size.value())
        )
    } else {
        "::core::option::Option::None".to_owned()
    };
    emit!(
        c,
        "
        impl {rt}::wire::Wire for {ident} {{
            const TYPE_NAME: &'static str = {fqn_lit};
            const FIXED_SIZE: ::core::option::Option<usize> = {fixed};
            const MIN_SIZE: usize = {};
            #[inline]
            fn packed_size(&self) -> usize {{
                {size_body}
            }}",
        usize_lit(m.min_size.value())
    );
}

/// The signatures of `Wire::write_to`, `read_from` (which calls `read_then`) and the
/// opening of `read_then`, whose body the caller writes and closes.
fn wire_method_heads(rt: &str, w: &str) -> (String, String) {
    (
        format!(
            "
            #[inline]
            fn write_to(
                &self,
                {w}: &mut {rt}::wire::Writer<'_>,
            ) -> ::core::result::Result<(), {rt}::wire::PackError> {{"
        ),
        format!(
            "
            #[inline]
            fn read_from(
                r: &mut {rt}::wire::Reader<'_>,
            ) -> ::core::result::Result<Self, {rt}::wire::UnpackError> {{
                Self::read_then(r, |_| ::core::result::Result::Ok(()))
            }}
            {}",
            read_then_head(rt, "read_then", "'_")
        ),
    )
}

/// `#[inline] fn <name><F>(r: &mut Reader<lifetime>, end: F) -> Result<Self, UnpackError>
/// where F: FnOnce(..) {`: the opening of `Wire::read_then` and `WireView::read_view_then`.
pub(super) fn read_then_head(rt: &str, name: &str, lifetime: &str) -> String {
    format!(
        "#[inline]
        fn {name}<F>(
            r: &mut {rt}::wire::Reader<{lifetime}>,
            end: F,
        ) -> ::core::result::Result<Self, {rt}::wire::UnpackError>
        where
            F: ::core::ops::FnOnce(
                &{rt}::wire::Reader<{lifetime}>,
            ) -> ::core::result::Result<(), {rt}::wire::UnpackError>,
        {{"
    )
}

// ----- enums -------------------------------------------------------------------------------

/// Variants of an enum: one per distinct value; later members with a value already taken
/// become aliases.
struct EnumShape {
    /// `(member index, ident)` of each variant.
    variants: Vec<(usize, String)>,
    /// `(member index, alias ident, variant position)`.
    aliases: Vec<(usize, String, usize)>,
}

/// `idents`: the naming table's identifier of every member.
fn enum_shape(e: &Enum, idents: &[String]) -> EnumShape {
    let mut variants: Vec<(usize, String)> = Vec::new();
    let mut aliases = Vec::new();
    for ((i, m), ident) in e.members.iter().enumerate().zip(idents) {
        let ident = ident.clone();
        match variants
            .iter()
            .position(|(j, _)| e.members[*j].value == m.value)
        {
            Some(pos) => aliases.push((i, ident, pos)),
            None => variants.push((i, ident)),
        }
    }
    EnumShape { variants, aliases }
}

fn enum_items(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    e: &Enum,
    module: &[String],
) {
    let rt = &cx.rt;
    let names = cx.placement(unit, id);
    let ident = &names.ident;
    let repr = repr_ty(e.storage);
    let shape = enum_shape(e, &names.variants);
    let fqn = d.fqn();
    let fqn_lit = str_lit(&fqn);

    c.blank();
    c.docs(d.docs.as_deref());
    emit!(
        c,
        "
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[derive({rt}::serde::Serialize, {rt}::serde::Deserialize)]
        #[serde(crate = {})]
        #[repr({repr})]",
        str_lit(&format!("{rt}::serde"))
    );
    camel_case_allow(
        c,
        std::iter::once(ident.as_str()).chain(shape.variants.iter().map(|(_, v)| v.as_str())),
    );
    user_attrs(c, &cx.opts.type_attributes, |p| type_matches(p, &fqn));
    emit!(c, "pub enum {ident} {{");
    for (pos, (i, v)) in shape.variants.iter().enumerate() {
        let m = &e.members[*i];
        c.docs(m.docs.as_deref());
        if pos == 0 {
            c.line("#[default]");
        }
        let aliases: Vec<String> = shape
            .aliases
            .iter()
            .filter(|(_, _, p)| *p == pos)
            .map(|(j, _, _)| format!(", alias = {}", str_lit(&e.members[*j].name)))
            .collect();
        if *v != m.name || !aliases.is_empty() {
            emit!(
                c,
                "#[serde(rename = {}{})]",
                str_lit(&m.name),
                aliases.concat()
            );
        }
        emit!(c, "{v} = {},", int_lit(m.value));
    }
    c.line("}");

    let count = shape.variants.len();
    c.blank();
    emit!(c, "impl {ident} {{");
    hash_consts(c, d);
    c.line("/// Every member, in declaration order (aliases excluded).");
    emit!(c, "pub const ALL: [Self; {count}] = [");
    for (_, v) in &shape.variants {
        emit!(c, "Self::{v},");
    }
    emit!(
        c,
        "
        ];
        /// Number of distinct members.
        pub const COUNT: usize = {count};"
    );
    for (i, a, pos) in &shape.aliases {
        emit!(
            c,
            "
            /// `{}` has the same value as `{}`.
            #[allow(non_upper_case_globals)]
            pub const {a}: Self = Self::{};",
            e.members[*i].name,
            e.members[shape.variants[*pos].0].name,
            shape.variants[*pos].1
        );
    }
    c.lines(
        "
        /// The member's name as written in the schema.
        pub const fn name(self) -> &'static str {
            match self {",
    );
    for (i, v) in &shape.variants {
        emit!(c, "Self::{v} => {},", str_lit(&e.members[*i].name));
    }
    c.lines(
        "
            }
        }

        /// The member with this schema name (aliases included).
        pub fn from_name(name: &str) -> ::core::option::Option<Self> {
            match name {",
    );
    for (i, m) in e.members.iter().enumerate() {
        let target = shape
            .variants
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, v)| v)
            .or_else(|| {
                shape
                    .aliases
                    .iter()
                    .find(|(j, _, _)| *j == i)
                    .map(|(_, _, p)| &shape.variants[*p].1)
            })
            .expect("every member is a variant or an alias");
        c.lines(&arm(
            &str_lit(&m.name),
            &format!("::core::option::Option::Some(Self::{target})"),
        ));
    }
    emit!(
        c,
        "
                _ => ::core::option::Option::None,
            }}
        }}

        /// The value as its storage type (`{}`).
        pub const fn value(self) -> {repr} {{
            self as {repr}
        }}

        /// The member with this value.
        pub const fn from_value(value: {repr}) -> ::core::option::Option<Self> {{
            match value {{",
        e.storage.name()
    );
    for (i, v) in &shape.variants {
        emit!(
            c,
            "{} => ::core::option::Option::Some(Self::{v}),",
            int_lit(e.members[*i].value)
        );
    }
    c.lines(
        "
                _ => ::core::option::Option::None,
            }
        }
        }",
    );

    concept_methods(c, cx, &fqn, ident, &shape, module);

    let size = e.storage.size();
    c.blank();
    emit!(
        c,
        r#"
        impl ::core::convert::From<{ident}> for {repr} {{
            fn from(value: {ident}) -> Self {{
                value as {repr}
            }}
        }}

        impl ::core::convert::TryFrom<{repr}> for {ident} {{
            type Error = {rt}::enums::InvalidEnumValue;
            // Fully qualified: an enum member may be called `Error`.
            fn try_from(
                value: {repr},
            ) -> ::core::result::Result<Self, <Self as ::core::convert::TryFrom<{repr}>>::Error> {{
                Self::from_value(value)
                    .ok_or({rt}::enums::InvalidEnumValue::new(Self::NAME, value as i128))
            }}
        }}

        impl ::core::fmt::Display for {ident} {{
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                f.write_str(self.name())
            }}
        }}

        impl ::core::str::FromStr for {ident} {{
            type Err = {rt}::enums::UnknownEnumName;
            // Fully qualified: an enum member may be called `Err`.
            fn from_str(s: &str) -> ::core::result::Result<Self, <Self as ::core::str::FromStr>::Err> {{
                Self::from_name(s)
                    .ok_or_else(|| {rt}::enums::UnknownEnumName::new(Self::NAME, s))
            }}
        }}

        impl {rt}::wire::Wire for {ident} {{
            const TYPE_NAME: &'static str = {fqn_lit};
            const FIXED_SIZE: ::core::option::Option<usize> = ::core::option::Option::Some({size});
            const MIN_SIZE: usize = {size};
            #[inline]
            fn packed_size(&self) -> usize {{
                {size}
            }}
            #[inline]
            fn write_to(
                &self,
                w: &mut {rt}::wire::Writer<'_>,
            ) -> ::core::result::Result<(), {rt}::wire::PackError> {{
                (*self as {repr}).write_to(w)
            }}
            #[inline]
            fn read_from(
                r: &mut {rt}::wire::Reader<'_>,
            ) -> ::core::result::Result<Self, {rt}::wire::UnpackError> {{
                {rt}::wire::read_enum(r, Self::TYPE_NAME, Self::from_value)
            }}
        }}"#
    );
}

/// Enum concepts become `const fn` methods on their enum.
fn concept_methods(
    c: &mut Code,
    cx: &Context<'_>,
    enum_fqn: &str,
    ident: &str,
    shape: &EnumShape,
    module: &[String],
) {
    let Some(list) = cx.concepts.get(enum_fqn) else {
        return;
    };
    c.blank();
    emit!(
        c,
        "
        // The values are the schema's literals (`3.14159` stays as written).
        #[allow(clippy::approx_constant)]
        impl {ident} {{"
    );
    for &(u, cid) in list {
        let d = cx.units[u].decl(cid);
        let DeclKind::EnumConcept(concept) = &d.kind else {
            continue;
        };
        let method = cx
            .names
            .concept_method(u, cid)
            .expect("named with its enum");
        let ret = match &concept.return_type {
            Type::String { .. } => "&'static str".to_owned(),
            other => rust_type(cx, u, module, other),
        };
        c.blank();
        c.doc(&format!("Enum concept `{}`.", d.fqn()));
        if d.docs.is_some() {
            c.line("///");
        }
        c.docs(d.docs.as_deref());
        emit!(
            c,
            "
            pub const fn {method}(self) -> {ret} {{
                match self {{"
        );
        for (i, v) in &shape.variants {
            let Some(m) = concept.members.iter().find(|m| m.enum_member == *i) else {
                continue;
            };
            let value = concept_value(cx, u, module, &concept.return_type, &m.value.value);
            emit!(c, "Self::{v} => {value},");
        }
        c.lines("}\n}");
    }
    c.line("}");
}

fn concept_value(
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
    ty: &Type,
    v: &ConstValue,
) -> String {
    match (ty, v) {
        (Type::Builtin(Builtin::Bool), ConstValue::Bool(b)) => b.to_string(),
        (Type::Builtin(Builtin::Bool), ConstValue::Int(i)) => (*i != 0).to_string(),
        (Type::Builtin(b), ConstValue::Float(f)) => float_lit(*f, *b),
        (Type::Builtin(b), ConstValue::Int(i)) if b.is_float() => float_lit(*i as f64, *b),
        (Type::Builtin(_), ConstValue::Int(i)) => int_lit(*i),
        (Type::Enum(id), ConstValue::Int(i)) => enum_variant_path(cx, unit, module, *id, *i),
        (_, ConstValue::Str(s)) => str_lit(s),
        _ => "::core::default::Default::default()".to_owned(),
    }
}

fn enum_variant_path(
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
    id: DeclId,
    value: i128,
) -> String {
    let DeclKind::Enum(e) = &cx.units[unit].decl(id).kind else {
        return "::core::default::Default::default()".to_owned();
    };
    let shape = enum_shape(e, &cx.placement(unit, id).variants);
    match shape
        .variants
        .iter()
        .find(|(i, _)| e.members[*i].value == value)
    {
        Some((_, v)) => format!("{}::{v}", cx.type_path(module, unit, id)),
        None => "::core::default::Default::default()".to_owned(),
    }
}

// ----- structs -----------------------------------------------------------------------------

fn serde_with(cx: &Context<'_>, ty: &Type, in_union_value: bool) -> Option<String> {
    let rt = &cx.rt;
    if in_union_value {
        return Some(match float_kind(ty) {
            Some(_) if is_long_array(ty) => format!("{rt}::json::float_array_value"),
            Some(_) => format!("{rt}::json::float_value"),
            None if is_long_array(ty) => format!("{rt}::json::array_value"),
            None => format!("{rt}::json::value"),
        });
    }
    match float_kind(ty) {
        Some(Builtin::Float32) => Some(format!("{rt}::json::f32")),
        Some(_) => Some(format!("{rt}::json::f64")),
        None if is_long_array(ty) => Some(format!("{rt}::json::array")),
        None => None,
    }
}

fn default_expr(cx: &Context<'_>, unit: usize, module: &[String], f: &Field) -> String {
    if let Some(c) = &f.default {
        match (&f.ty, &c.value) {
            (Type::Builtin(Builtin::Bool), ConstValue::Bool(b)) => return b.to_string(),
            (Type::Builtin(b), ConstValue::Float(v)) => return float_lit(*v, *b),
            (Type::Builtin(b), ConstValue::Int(v)) if b.is_float() => {
                return float_lit(*v as f64, *b)
            }
            (Type::Builtin(_), ConstValue::Int(v)) => return int_lit(*v),
            (Type::Enum(id), ConstValue::Int(v)) => {
                return enum_variant_path(cx, unit, module, *id, *v)
            }
            (Type::String { .. }, ConstValue::Str(s)) => {
                return format!("::std::string::String::from({})", str_lit(s))
            }
            _ => {}
        }
    }
    zero_value(&f.ty).to_owned()
}

/// The default value of a type without a declared default: `Default::default()`, or
/// `core::array::from_fn` for fixed arrays longer than 32 elements (no `Default` impl).
fn zero_value(ty: &Type) -> &'static str {
    if is_long_array(ty) {
        "::core::array::from_fn(|_| ::core::default::Default::default())"
    } else {
        "::core::default::Default::default()"
    }
}

fn struct_items(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    d: &Decl,
    s: &Struct,
    module: &[String],
) {
    let rt = &cx.rt;
    let fqn = d.fqn();
    let names = cx.names_of(&fqn);
    let ident = &names.ident;
    let fids = &names.fields;
    let (mut copy, mut eq) = (true, true);
    for f in &s.fields {
        let (c, e) = traits(cx, unit, &f.ty);
        copy &= c;
        eq &= e;
    }
    let manual_default = s
        .fields
        .iter()
        .any(|f| f.default.is_some() || is_long_array(&f.ty));

    // `repr(C)`: fields in memory in schema order, which is wire order (and the original
    // C++ struct's layout). Rust's own reordering groups fields by alignment, so a decoded
    // `u32` and `f32` can land side by side in one 8-byte word; moving such a value into a
    // `Vec` then reads the word right after two 4-byte stores from different register
    // files, a store-forwarding stall per element (measured: `robot_state_218B` unpack
    // 58 -> 38.5 ns).
    c.blank();
    c.docs(d.docs.as_deref());
    emit!(
        c,
        "
        {}
        #[derive({rt}::serde::Serialize, {rt}::serde::Deserialize)]
        #[serde(crate = {}, default)]
        #[repr(C)]",
        derives(copy, eq, !manual_default),
        str_lit(&format!("{rt}::serde"))
    );
    camel_case_allow(c, [ident.as_str()]);
    user_attrs(c, &cx.opts.type_attributes, |p| type_matches(p, &fqn));
    if s.fields.is_empty() {
        emit!(c, "pub struct {ident} {{}}");
    } else {
        emit!(c, "pub struct {ident} {{");
        for (f, fid) in s.fields.iter().zip(fids) {
            c.docs(f.docs.as_deref());
            let name = str_lit(&f.name);
            match serde_with(cx, &f.ty, false) {
                Some(w) => emit!(c, "#[serde(rename = {name}, with = {})]", str_lit(&w)),
                None if *fid != f.name => emit!(c, "#[serde(rename = {name})]"),
                None => {}
            }
            let field_path = format!("{fqn}.{}", f.name);
            user_attrs(c, &cx.opts.field_attributes, |p| {
                p == field_path || p == fqn
            });
            emit!(c, "pub {fid}: {},", rust_type(cx, unit, module, &f.ty));
        }
        c.line("}");
    }

    c.blank();
    emit!(c, "impl {ident} {{");
    hash_consts(c, d);
    if s.metrics.is_fixed_size {
        emit!(
            c,
            "
            /// Every value packs to exactly this many bytes.
            pub const PACKED_SIZE: usize = {};",
            usize_lit(s.metrics.max_size.value())
        );
    }
    c.line("}");

    if manual_default {
        // Spelled out even when every schema default happens to be the zero value.
        c.blank();
        emit!(
            c,
            "
            #[allow(clippy::derivable_impls, clippy::approx_constant)]
            impl ::core::default::Default for {ident} {{
                fn default() -> Self {{
                    Self {{"
        );
        for (f, fid) in s.fields.iter().zip(fids) {
            emit!(c, "{fid}: {},", default_expr(cx, unit, module, f));
        }
        c.lines("}\n}\n}");
    }

    // Wire.
    let mut sizes = Vec::new();
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    for (f, fid) in s.fields.iter().zip(fids) {
        let name = str_lit(&f.name);
        let (size, write, read) = wire_parts(
            cx,
            unit,
            module,
            &f.ty,
            &format!("self.{fid}"),
            &format!("&self.{fid}"),
        );
        sizes.push(size);
        let in_field = format!(".in_field(Self::TYPE_NAME, {name})?");
        writes.push(format!("{};", chain(&write, &in_field)));
        reads.push(chain(&read, &in_field));
    }
    let field_sizes: Vec<Option<u128>> = s
        .fields
        .iter()
        .map(|f| {
            let m = cx.units[unit].type_metrics(&f.ty);
            m.is_fixed_size.then(|| m.max_size.value())
        })
        .collect();
    let (write_body, read_body) = struct_wire_bodies(fids, &field_sizes, &writes, &reads);
    let size_body = if s.metrics.is_fixed_size {
        usize_lit(s.metrics.max_size.value())
    } else {
        sizes.join("\n+ ")
    };
    let w = if s.fields.is_empty() { "_w" } else { "w" };
    let (write_head, read_heads) = wire_method_heads(rt, w);
    c.blank();
    c.line("const _: () = {");
    if !s.fields.is_empty() {
        wire_imports(c, cx);
    }
    wire_impl_open(c, rt, ident, &str_lit(&fqn), &s.metrics, &size_body);
    c.lines(&write_head);
    c.lines(&write_body);
    c.line("}");
    c.lines(&read_heads);
    c.lines(&read_body);
    c.lines("}\n}\n};");
}

/// `expr.call` on one line, or with `.call` on a continuation line when that is long.
pub(super) fn chain(expr: &str, call: &str) -> String {
    if expr.len() + call.len() <= 84 && !expr.contains('\n') {
        format!("{expr}{call}")
    } else {
        format!("{expr}\n{call}")
    }
}

/// The anonymous import of `FieldContext` (for `.in_field(..)`), scoped to the impl's
/// `const _` block so nothing leaks into the user's namespace. (`Wire` itself is in scope
/// inside its own impl.)
fn wire_imports(c: &mut Code, cx: &Context<'_>) {
    emit!(c, "use {}::wire::FieldContext as _;", cx.rt);
}

/// The bodies of a structure's `write_to` and `read_then` from its members' write
/// statements and read expressions (each with its `in_field`).
///
/// Consecutive fixed-size members form runs. A run of two or more members (of at least one
/// byte) goes through one `split_off` of its total size: one bounds check for the run, and
/// a writer/reader of constant length, so the compiler drops the members' own checks after
/// inlining. Members are read into `f_<field>` locals (a run as a tuple), then `end` runs,
/// then the value is assembled in place (see `Wire::read_then`).
pub(super) fn struct_wire_bodies(
    idents: &[String],
    sizes: &[Option<u128>],
    writes: &[String],
    reads: &[String],
) -> (String, String) {
    // (first member, end, bytes of the run or None for a single member).
    let mut segments: Vec<(usize, usize, Option<u128>)> = Vec::new();
    let mut i = 0;
    while i < sizes.len() {
        let mut end = i;
        let mut bytes = 0u128;
        while let Some(Some(n)) = sizes.get(end) {
            bytes = bytes.saturating_add(*n);
            end += 1;
        }
        if end - i >= 2 && bytes > 0 {
            segments.push((i, end, Some(bytes)));
            i = end;
        } else {
            segments.push((i, i + 1, None));
            i += 1;
        }
    }
    let locals: Vec<String> = idents
        .iter()
        .map(|f| format!("f_{}", f.trim_start_matches("r#")))
        .collect();
    let mut write_body = String::new();
    let mut read_body = String::new();
    for (start, end, bytes) in segments {
        let ws = writes[start..end].join("\n");
        let ls = &locals[start..end];
        match bytes {
            Some(bytes) => {
                let n = usize_lit(bytes);
                // The whole structure is one run: split once, at the top.
                if start == 0 && end == idents.len() {
                    write_body.push_str(&format!("let w = &mut w.split_off({n})?;\n{ws}\n"));
                } else {
                    write_body
                        .push_str(&format!("{{\nlet w = &mut w.split_off({n})?;\n{ws}\n}}\n"));
                }
                let rs: String = reads[start..end]
                    .iter()
                    .map(|r| format!("{r},\n"))
                    .collect();
                read_body.push_str(&format!(
                    "let ({}) = {{\nlet r = &mut r.split_off({n})?;\n(\n{rs})\n}};\n",
                    comma(ls)
                ));
            }
            None => {
                write_body.push_str(&ws);
                write_body.push('\n');
                for (l, r) in ls.iter().zip(&reads[start..end]) {
                    read_body.push_str(&format!("let {l} = {r};\n"));
                }
            }
        }
    }
    write_body.push_str("::core::result::Result::Ok(())");
    read_body.push_str("end(r)?;\n::core::result::Result::Ok(Self {\n");
    for (f, l) in idents.iter().zip(&locals) {
        read_body.push_str(&format!("{f}: {l},\n"));
    }
    read_body.push_str("})");
    (write_body, read_body)
}

// ----- unions ------------------------------------------------------------------------------

fn union_items(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    u: &Union,
    module: &[String],
) {
    let rt = &cx.rt;
    let fqn = d.fqn();
    let fqn_lit = str_lit(&fqn);
    let p = cx.placement(unit, id);
    let ident = &p.ident;
    let tag_ident = p.tag_ident.as_deref().unwrap_or("Tag");
    let vids: Vec<String> = p.variants.clone();
    let (mut copy, mut eq) = (true, true);
    for m in &u.members {
        let (c, e) = traits(cx, unit, &m.ty);
        copy &= c;
        eq &= e;
    }
    let tys: Vec<String> = u
        .members
        .iter()
        .map(|m| rust_type(cx, unit, module, &m.ty))
        .collect();
    let empty = u.members.is_empty();
    let serde_crate = str_lit(&format!("{rt}::serde"));

    // The union.
    c.blank();
    c.docs(d.docs.as_deref());
    emit!(
        c,
        "
        {}
        #[derive({rt}::serde::Serialize, {rt}::serde::Deserialize)]",
        derives(copy, eq, false)
    );
    if empty {
        emit!(c, "#[serde(crate = {serde_crate})]");
    } else {
        emit!(c, "#[serde(crate = {serde_crate}, tag = \"type\")]");
    }
    c.line("#[allow(clippy::large_enum_variant, clippy::enum_variant_names)]");
    camel_case_allow(
        c,
        std::iter::once(ident.as_str()).chain(vids.iter().map(String::as_str)),
    );
    user_attrs(c, &cx.opts.type_attributes, |p| type_matches(p, &fqn));
    emit!(c, "pub enum {ident} {{");
    for ((m, v), ty) in u.members.iter().zip(&vids).zip(&tys) {
        c.doc(&format!("`{}`, tag {}.", m.name, m.tag));
        if m.docs.is_some() {
            c.line("///");
        }
        c.docs(m.docs.as_deref());
        let name = str_lit(&m.name);
        if matches!(m.ty, Type::Struct(_)) {
            // Flattened next to `"type"`.
            emit!(c, "#[serde(rename = {name})]");
        } else {
            let w = serde_with(cx, &m.ty, true).expect("value helper");
            emit!(c, "#[serde(rename = {name}, with = {})]", str_lit(&w));
        }
        emit!(c, "{v}({ty}),");
    }
    c.line("}");

    // The tag enum.
    c.blank();
    c.doc(&format!(
        "The tags of [`{}`], with their wire values.",
        ident.trim_start_matches("r#")
    ));
    c.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]");
    // An empty autounion is an enum without variants: `repr(u8)` is rejected on it, and a
    // `match` must be on the (uninhabited) value, not on a reference to it.
    if !empty {
        c.line("#[repr(u8)]");
    }
    c.line("#[allow(clippy::enum_variant_names)]");
    camel_case_allow(
        c,
        std::iter::once(tag_ident).chain(vids.iter().map(String::as_str)),
    );
    emit!(c, "pub enum {tag_ident} {{");
    for (m, v) in u.members.iter().zip(&vids) {
        c.doc(&format!("`{}`", m.name));
        emit!(c, "{v} = {},", m.tag);
    }
    c.line("}");

    let empty_allow = if empty {
        "#[allow(unused_variables, clippy::match_single_binding)]"
    } else {
        ""
    };
    let count = u.members.len();
    c.blank();
    if empty {
        c.line(empty_allow);
    }
    emit!(
        c,
        "
        impl {tag_ident} {{
            /// Every tag, in member order.
            pub const ALL: [Self; {count}] = ["
    );
    for v in &vids {
        emit!(c, "Self::{v},");
    }
    emit!(
        c,
        "
            ];
            /// Number of members.
            pub const COUNT: usize = {count};

            /// The member's name as written in the schema.
            pub const fn name(self) -> &'static str {{
                match self {{"
    );
    for (m, v) in u.members.iter().zip(&vids) {
        emit!(c, "Self::{v} => {},", str_lit(&m.name));
    }
    c.lines(
        "
                }
            }

            /// The tag of the member with this schema name.
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                match name {",
    );
    for (m, v) in u.members.iter().zip(&vids) {
        c.lines(&arm(
            &str_lit(&m.name),
            &format!("::core::option::Option::Some(Self::{v})"),
        ));
    }
    c.lines(
        "
                    _ => ::core::option::Option::None,
                }
            }

            /// The tag byte on the wire.
            pub const fn value(self) -> u8 {
                self as u8
            }

            /// The tag with this wire value.
            pub const fn from_value(value: u8) -> ::core::option::Option<Self> {
                match value {",
    );
    for (m, v) in u.members.iter().zip(&vids) {
        emit!(c, "{} => ::core::option::Option::Some(Self::{v}),", m.tag);
    }
    c.lines(
        "
                    _ => ::core::option::Option::None,
                }
            }
        }",
    );

    // Inherent methods.
    let scrutinee = if empty { "*self" } else { "self" };
    c.blank();
    emit!(c, "impl {ident} {{");
    hash_consts(c, d);
    c.blank();
    emit!(
        c,
        "
        /// Which member this value holds.
        pub const fn tag(&self) -> {tag_ident} {{
            match {scrutinee} {{"
    );
    for v in &vids {
        emit!(c, "Self::{v}(_) => {tag_ident}::{v},");
    }
    c.lines(
        "
            }
        }

        /// The schema name of the member this value holds.
        pub const fn name(&self) -> &'static str {",
    );
    c.line(if empty {
        "match *self {}"
    } else {
        "self.tag().name()"
    });
    c.lines("}\n}");

    if let (Some(v), Some(m)) = (vids.first(), u.members.first()) {
        c.blank();
        emit!(
            c,
            "
            impl ::core::default::Default for {ident} {{
                /// The first member, holding its default value.
                fn default() -> Self {{
                    Self::{v}({})
                }}
            }}",
            zero_value(&m.ty)
        );
    }

    // `From<Payload>` where the payload type is unique in the union.
    if !u.dupes_allowed {
        for (i, (ty, v)) in tys.iter().zip(&vids).enumerate() {
            if tys.iter().filter(|t| *t == &tys[i]).count() > 1 {
                continue;
            }
            c.blank();
            emit!(
                c,
                "
                impl ::core::convert::From<{ty}> for {ident} {{
                    fn from(value: {ty}) -> Self {{
                        Self::{v}(value)
                    }}
                }}"
            );
        }
    }

    if !empty {
        clad_union_impl(c, cx, u, &vids, ident, tag_ident, &fqn_lit);
    }

    // Wire.
    let mut size_arms = Vec::new();
    let mut write_arms = String::new();
    let mut read_arms = String::new();
    for (m, v) in u.members.iter().zip(&vids) {
        let name = str_lit(&m.name);
        let tag = m.tag;
        let (size, write, read) = wire_parts(cx, unit, module, &m.ty, "v", "v");
        size_arms.push(format!("Self::{v}(v) => {size},"));
        let m_metrics = cx.units[unit].type_metrics(&m.ty);
        // Structures and unions of variable size are written and read out of line, so the
        // union's own code stays small enough to inline (see `wire::write_outlined`).
        let outlined = matches!(m.ty, Type::Struct(_) | Type::Union(_)) && !m_metrics.is_fixed_size;
        let (write, read) = if outlined {
            (
                format!("{rt}::wire::write_outlined(v, w)"),
                format!("{rt}::wire::read_outlined(r)"),
            )
        } else {
            (write, read)
        };
        let in_field = format!(".in_field(Self::TYPE_NAME, {name})");
        write_arms.push_str(&format!("Self::{v}(v) => {{\n"));
        // A fixed-size member and its tag: one bounds check (see `struct_wire_bodies`).
        if m_metrics.is_fixed_size && m_metrics.max_size.value() > 0 {
            let n = usize_lit(m_metrics.max_size.value().saturating_add(1));
            write_arms.push_str(&format!("let w = &mut w.split_off({n})?;\n"));
        }
        write_arms.push_str(&format!(
            "w.write_tag({tag_ident}::{v}.value())?;\n{}\n}}\n",
            chain(&write, &in_field)
        ));
        read_arms.push_str(&format!(
            "{tag} => {{\nlet v = {};\nend(r)?;\n::core::result::Result::Ok(Self::{v}(v))\n}}\n",
            chain(&read, &format!("{in_field}?"))
        ));
    }
    let size_body = if u.metrics.is_fixed_size {
        usize_lit(u.metrics.max_size.value())
    } else {
        format!("1 + match self {{\n{}\n}}", size_arms.join("\n"))
    };
    let (write_head, read_heads) = wire_method_heads(rt, "w");
    c.blank();
    c.line("const _: () = {");
    if !empty {
        wire_imports(c, cx);
    }
    if empty {
        c.line(empty_allow);
    }
    wire_impl_open(c, rt, ident, &fqn_lit, &u.metrics, &size_body);
    c.lines(&write_head);
    emit!(c, "match {scrutinee} {{");
    c.lines(&write_arms);
    c.lines("}\n}");
    c.lines(&read_heads);
    if empty {
        c.line("let _ = end;");
    }
    c.line("match r.read_tag(Self::TYPE_NAME)? {");
    c.lines(&read_arms);
    c.lines(
        "
                tag => ::core::result::Result::Err(r.unknown_tag(Self::TYPE_NAME, tag)),
            }
        }
        }
        };",
    );
}

/// The `clad_runtime::union::CladUnion` impl (what the CLAD-JSON union code uses).
fn clad_union_impl(
    c: &mut Code,
    cx: &Context<'_>,
    u: &Union,
    vids: &[String],
    ident: &str,
    tag_ident: &str,
    fqn_lit: &str,
) {
    let rt = &cx.rt;
    c.blank();
    emit!(
        c,
        "
        impl {rt}::union::CladUnion for {ident} {{
            type Tag = {tag_ident};
            const NAME: &'static str = {fqn_lit};
            const TAGS: &'static [{tag_ident}] = &{tag_ident}::ALL;
            fn tag(&self) -> {tag_ident} {{
                {ident}::tag(self)
            }}
            fn tag_name(tag: {tag_ident}) -> &'static str {{
                tag.name()
            }}
            fn tag_from_name(name: &str) -> ::core::option::Option<{tag_ident}> {{
                {tag_ident}::from_name(name)
            }}
            fn tag_value(tag: {tag_ident}) -> u8 {{
                tag as u8
            }}
            fn default_for(tag: {tag_ident}) -> Self {{
                match tag {{"
    );
    for (m, v) in u.members.iter().zip(vids) {
        c.lines(&arm(
            &format!("{tag_ident}::{v}"),
            &format!("Self::{v}({})", zero_value(&m.ty)),
        ));
    }
    emit!(
        c,
        "
                }}
            }}
            fn payload_is_struct(tag: {tag_ident}) -> bool {{
                match tag {{"
    );
    for (m, v) in u.members.iter().zip(vids) {
        emit!(
            c,
            "{tag_ident}::{v} => {},",
            matches!(m.ty, Type::Struct(_))
        );
    }
    c.lines("}\n}");
    // Structure members deserialize straight from their structure's fields.
    let direct: Vec<&String> = u
        .members
        .iter()
        .zip(vids)
        .filter(|(m, _)| matches!(m.ty, Type::Struct(_)))
        .map(|(_, v)| v)
        .collect();
    if !direct.is_empty() {
        emit!(
            c,
            "
            fn deserialize_struct_member<'de, D>(
                tag: {tag_ident},
                fields: D,
            ) -> ::core::option::Option<::core::result::Result<Self, D::Error>>
            where
                D: {rt}::serde::Deserializer<'de>,
            {{
                ::core::option::Option::Some(match tag {{"
        );
        for v in &direct {
            c.lines(&arm(
                &format!("{tag_ident}::{v}"),
                &format!("{rt}::union::struct_member(fields, Self::{v})"),
            ));
        }
        if direct.len() < u.members.len() {
            c.line("_ => return ::core::option::Option::None,");
        }
        c.lines("})\n}");
    }
    c.line("}");
}
