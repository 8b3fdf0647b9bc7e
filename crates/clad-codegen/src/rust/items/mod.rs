//! Rust items for one declaration: the type, its constants and methods, its `Wire` impl
//! (pack/unpack) and its serde derives (CLAD-JSON). One sub-module per kind of declaration
//! (`enums`, `structs`, `unions`); this module dispatches and holds what they share (types,
//! derives, the wire expressions of one value, the `Wire` impl's openings).
//!
//! Items are written as text into a [`Code`] (see `code.rs` for why and how it indents).
//! Helpers that produce a fragment (a type, an expression) return it as a `String`.

use super::code::{arm, call, comma, emit, int_lit, str_lit, usize_lit, Code};
use super::Context;
use crate::ir::*;

mod enums;
mod structs;
mod unions;

use enums::enum_variant_path;
pub(super) use structs::{string_runs, struct_wire_bodies, RunCode};

/// Writes the items for declaration `id` of `unit`, placed in `module`.
pub(super) fn decl(c: &mut Code, cx: &Context<'_>, unit: usize, id: DeclId, module: &[String]) {
    let d = cx.units[unit].decl(id);
    match &d.kind {
        DeclKind::Enum(e) => enums::enum_items(c, cx, unit, id, d, e, module),
        DeclKind::Struct(s) => structs::struct_items(c, cx, unit, d, s, module),
        DeclKind::Union(u) => unions::union_items(c, cx, unit, id, d, u, module),
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
    if let Some(hash) = &d.hash {
        emit!(
            c,
            "
            /// Version hash of the declaration (MD5, as the original compiler computes it).
            pub const VERSION_HASH_STR: &'static str = {};
            /// [`Self::VERSION_HASH_STR`] as bytes, in hex-string order.
            pub const VERSION_HASH: [u8; 16] = [
                {}
            ];",
            str_lit(hash),
            hash_bytes(hash),
        );
    }
    if let Some(hash) = &d.schema_hash {
        emit!(
            c,
            "
            /// Schema hash: over this type and every type it refers to (members, nested
            /// types, union tags, enum values), so that any change a peer could decode wrongly
            /// changes it. What transports compare; as bytes, `Wire::SCHEMA_HASH`.
            pub const SCHEMA_HASH_STR: &'static str = {};",
            str_lit(hash),
        );
    }
}

/// `const SCHEMA_HASH` of a `Wire` impl: the declaration's schema hash as bytes, or nothing
/// (the trait's default, `None`) without one.
pub(super) fn wire_schema_hash(c: &mut Code, d: &Decl) {
    if let Some(hash) = &d.schema_hash {
        emit!(
            c,
            "
            const SCHEMA_HASH: ::core::option::Option<[u8; 16]> = ::core::option::Option::Some([
                {}
            ]);",
            hash_bytes(hash),
        );
    }
}

/// 32 hex digits as two rows of eight `0x..` bytes.
fn hash_bytes(hash: &str) -> String {
    let bytes: Vec<String> = (0..hash.len() / 2)
        .filter_map(|i| hash.get(2 * i..2 * i + 2))
        .map(|b| format!("0x{b}"))
        .collect();
    bytes
        .chunks(8)
        .map(|row| format!("{},", comma(row)))
        .collect::<Vec<_>>()
        .join("\n")
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

/// `(size expression, write expression, read expression, read-into expression)` for one
/// value on the wire. `value` is a place (`self.x`) or a reference binding (`v`); `by_ref`
/// is a reference to it (`&self.x`, or the binding `v`, which the read-into expression then
/// uses as a mutable reference).
pub(super) fn wire_parts(
    cx: &Context<'_>,
    unit: usize,
    from: &[String],
    ty: &Type,
    value: &str,
    by_ref: &str,
) -> (String, String, String, String) {
    let rt = &cx.rt;
    let by_mut = match by_ref.strip_prefix('&') {
        Some(place) => format!("&mut {place}"),
        None => by_ref.to_owned(),
    };
    let by_mut = by_mut.as_str();
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
                call(
                    &format!("{rt}::wire::read_string_into::<{l}>"),
                    &["r", &m, by_mut],
                ),
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
                        call(
                            &format!("{rt}::wire::read_string_vec_into::<{l}, {sl}>"),
                            &["r", &m, &sm, by_mut],
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
                    call(
                        &format!("{rt}::wire::read_byte_vec_into::<{l}>"),
                        &["r", &m, by_mut],
                    ),
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
                        call(
                            &format!("{rt}::wire::read_vec_into::<{l}, {t}>"),
                            &["r", &m, by_mut],
                        ),
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
                call(
                    &format!("{rt}::wire::read_strings_into::<{sl}>"),
                    &["r", &sm, by_mut],
                ),
            )
        }
        _ => (
            format!("{value}.packed_size()"),
            format!("{value}.write_to(w)"),
            "r.read()".to_owned(),
            format!("{value}.read_into(r)"),
        ),
    }
}

/// Opens the `Wire` impl of a structure or union: `TYPE_NAME`, the `FIXED_SIZE`, `MIN_SIZE`
/// and (variable size only) `MAX_SIZE` constants, `SCHEMA_HASH` (the declaration's schema hash as bytes, for generic
/// code such as transports), and `packed_size` (returning `size_body`).
fn wire_impl_open(c: &mut Code, rt: &str, ident: &str, d: &Decl, m: &Metrics, size_body: &str) {
    let fqn_lit = &str_lit(&d.fqn());
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
            const MIN_SIZE: usize = {};",
        usize_lit(m.min_size.value())
    );
    if !m.is_fixed_size {
        // A fixed-size type's bound is its size, the trait's default.
        let max = match usize::try_from(m.max_size.value()) {
            Ok(n) => format!("::core::option::Option::Some({n})"),
            Err(_) => "::core::option::Option::None".to_owned(),
        };
        emit!(c, "const MAX_SIZE: ::core::option::Option<usize> = {max};");
    }
    wire_schema_hash(c, d);
    emit!(
        c,
        "
            #[inline]
            fn packed_size(&self) -> usize {{
                {size_body}
            }}"
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

/// The opening of `Wire::read_into`, whose body the caller writes and closes.
fn read_into_head(rt: &str) -> String {
    format!(
        "
        #[inline]
        fn read_into(
            &mut self,
            r: &mut {rt}::wire::Reader<'_>,
        ) -> ::core::result::Result<(), {rt}::wire::UnpackError> {{"
    )
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
