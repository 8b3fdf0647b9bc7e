//! Borrowed views (`<Name>View<'a>`): the decoding-side twin of a message, structure or union
//! whose `string` members are `&'a str` and whose `uint_8` variable arrays are `&'a [u8]`,
//! pointing into the packed bytes (see `clad_runtime::wire::WireView`).
//!
//! Views are opt-in (`RustOptions::views`, `Builder::view`). A selected type gets a view when
//! it *borrows*: it holds a string or a variable array, directly or in a member. Inside a
//! view, a string is `&'a str`, a `uint_8` variable array `&'a [u8]`, a variable array of
//! other fixed-size elements a `clad_runtime::wire::ArrayView<'a, T>` (elements decoded on
//! access), and an array of borrowing elements a `Vec` (or array) of their views. Every
//! borrowing type a selected type contains gets a view too; members that borrow nothing keep
//! their owned type inside a view.

use super::code::{call, emit, str_lit, usize_lit, Code};
use super::items::{
    camel_case_allow, chain, derives, len_ty, max_tok, read_then_head, rust_type, string_runs,
    struct_wire_bodies, traits, wire_parts, RunCode,
};
use super::{relative_path, Context};
use crate::ir::*;

/// Whether values of `ty` hold bytes a view borrows instead of copying.
pub(super) fn borrows(schema: &Schema, ty: &Type) -> bool {
    match ty {
        Type::String { .. } => true,
        Type::VarArray { elem, .. } => {
            matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8))
                || borrows(schema, elem)
                || schema.type_metrics(elem).is_fixed_size
        }
        Type::FixedArray { elem, .. } => borrows(schema, elem),
        Type::Struct(id) | Type::Union(id) => decl_borrows(schema, schema.decl(*id)),
        Type::Builtin(_) | Type::Enum(_) => false,
    }
}

/// Whether a declaration's members borrow (see [`borrows`]).
pub(super) fn decl_borrows(schema: &Schema, decl: &Decl) -> bool {
    match &decl.kind {
        DeclKind::Struct(s) => s.fields.iter().any(|f| borrows(schema, &f.ty)),
        DeclKind::Union(u) => u.members.iter().any(|m| borrows(schema, &m.ty)),
        DeclKind::Enum(_) | DeclKind::EnumConcept(_) => false,
    }
}

/// Adds the fully qualified names of `decl` (when it borrows) and of every borrowing type it
/// contains to `out`.
pub(super) fn collect(schema: &Schema, decl: &Decl, out: &mut std::collections::BTreeSet<String>) {
    if !decl_borrows(schema, decl) || !out.insert(decl.fqn()) {
        return;
    }
    let tys: Vec<&Type> = match &decl.kind {
        DeclKind::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
        DeclKind::Union(u) => u.members.iter().map(|m| &m.ty).collect(),
        DeclKind::Enum(_) | DeclKind::EnumConcept(_) => Vec::new(),
    };
    for ty in tys {
        let mut ty = ty;
        while let Type::VarArray { elem, .. } | Type::FixedArray { elem, .. } = ty {
            ty = elem;
        }
        if let Type::Struct(id) | Type::Union(id) = ty {
            collect(schema, schema.decl(*id), out);
        }
    }
}

/// Path of the view of the borrowing type `id`, with the `'a` lifetime.
fn view_path(cx: &Context<'_>, unit: usize, from: &[String], id: DeclId) -> String {
    let p = cx.placement(unit, id);
    let ident = p
        .view_ident
        .as_deref()
        .expect("every borrowing type inside a view has a view (collect)");
    format!("{}<'a>", relative_path(from, &p.module, ident))
}

/// The type of a member inside a view.
fn view_type(cx: &Context<'_>, unit: usize, from: &[String], ty: &Type) -> String {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return rust_type(cx, unit, from, ty);
    }
    match ty {
        Type::String { .. } => "&'a str".to_owned(),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            "&'a [u8]".to_owned()
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => format!(
            "{}::wire::ArrayView<'a, {}>",
            cx.rt,
            rust_type(cx, unit, from, elem)
        ),
        Type::VarArray { elem, .. } => {
            format!("::std::vec::Vec<{}>", view_type(cx, unit, from, elem))
        }
        Type::FixedArray { elem, len } => format!(
            "[{}; {}]",
            view_type(cx, unit, from, elem),
            usize_lit(len.value().into())
        ),
        Type::Struct(id) | Type::Union(id) => view_path(cx, unit, from, *id),
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// `(is Copy, is Eq + Hash)` for a member's view type.
fn view_traits(cx: &Context<'_>, unit: usize, ty: &Type) -> (bool, bool) {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return traits(cx, unit, ty);
    }
    match ty {
        Type::String { .. } => (true, true),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            (true, true)
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => (true, traits(cx, unit, elem).1),
        Type::VarArray { elem, .. } => (false, view_traits(cx, unit, elem).1),
        Type::FixedArray { elem, .. } => view_traits(cx, unit, elem),
        Type::Struct(id) | Type::Union(id) => {
            let tys: Vec<&Type> = match &schema.decl(*id).kind {
                DeclKind::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
                DeclKind::Union(u) => u.members.iter().map(|m| &m.ty).collect(),
                _ => Vec::new(),
            };
            tys.into_iter().fold((true, true), |(c, e), t| {
                let (c2, e2) = view_traits(cx, unit, t);
                (c && c2, e && e2)
            })
        }
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// The expression that reads a member's view from `r: &mut Reader<'a>`.
fn view_read(cx: &Context<'_>, unit: usize, from: &[String], ty: &Type) -> String {
    let rt = &cx.rt;
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return wire_parts(cx, unit, from, ty, "", "").2;
    }
    match ty {
        Type::String {
            length,
            max,
            max_declared,
        } => {
            let l = len_ty(*length);
            let m = max_tok(cx, *max, *max_declared);
            call(&format!("{rt}::wire::read_str::<{l}>"), &["r", &m])
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
                Type::Builtin(Builtin::Uint8) => {
                    call(&format!("{rt}::wire::read_byte_slice::<{l}>"), &["r", &m])
                }
                Type::String {
                    length: sl,
                    max: smax,
                    max_declared: sdecl,
                } => {
                    let sl = len_ty(*sl);
                    let sm = max_tok(cx, *smax, *sdecl);
                    call(
                        &format!("{rt}::wire::read_str_vec::<{l}, {sl}>"),
                        &["r", &m, &sm],
                    )
                }
                other if !borrows(schema, other) => {
                    let t = rust_type(cx, unit, from, other);
                    call(
                        &format!("{rt}::wire::read_array_view::<{l}, {t}>"),
                        &["r", &m],
                    )
                }
                other => {
                    let v = view_type(cx, unit, from, other);
                    call(
                        &format!("{rt}::wire::read_view_vec::<{l}, {v}>"),
                        &["r", &m],
                    )
                }
            }
        }
        Type::FixedArray { elem, len } => {
            let n = usize_lit(len.value().into());
            match elem.as_ref() {
                Type::String {
                    length: sl,
                    max: smax,
                    max_declared: sdecl,
                } => {
                    let sl = len_ty(*sl);
                    let sm = max_tok(cx, *smax, *sdecl);
                    call(
                        &format!("{rt}::wire::read_str_array::<{sl}, {n}>"),
                        &["r", &sm],
                    )
                }
                other => {
                    let v = view_type(cx, unit, from, other);
                    format!("{rt}::wire::read_view_array::<{v}, {n}>(r)")
                }
            }
        }
        Type::Struct(id) | Type::Union(id) => {
            format!(
                "{rt}::wire::read_view::<{}>(r)",
                view_path(cx, unit, from, *id)
            )
        }
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// A member's view from the owned member. `recv` is the member as a method receiver
/// (`self.name` or a reference binding `v`); `copied` is it as a value, for `Copy` members
/// (`self.name` or `*v`).
fn to_view(cx: &Context<'_>, unit: usize, ty: &Type, recv: &str, copied: &str) -> String {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return if traits(cx, unit, ty).0 {
            copied.to_owned()
        } else {
            format!("{recv}.clone()")
        };
    }
    match ty {
        Type::String { .. } => format!("{recv}.as_str()"),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            format!("{recv}.as_slice()")
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => {
            format!("{}::wire::ArrayView::from({recv}.as_slice())", cx.rt)
        }
        Type::VarArray { elem, .. } => {
            format!(
                "{recv}.iter().map({}).collect()",
                elem_to_view(cx, unit, elem)
            )
        }
        Type::FixedArray { elem, .. } => {
            format!("{recv}.each_ref().map({})", elem_to_view(cx, unit, elem))
        }
        Type::Struct(_) | Type::Union(_) => format!("{recv}.view()"),
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// A closure from `&Elem` to the element's view (arrays of borrowing elements).
fn elem_to_view(cx: &Context<'_>, unit: usize, elem: &Type) -> String {
    format!("|x| {}", to_view(cx, unit, elem, "x", "*x"))
}

/// The owned member from its view `value` (moved).
fn to_owned(cx: &Context<'_>, unit: usize, ty: &Type, value: &str) -> String {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return value.to_owned();
    }
    match ty {
        Type::String { .. } => format!("::std::string::String::from({value})"),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            format!("{value}.to_vec()")
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => format!("{value}.to_vec()"),
        Type::VarArray { elem, .. } => {
            format!(
                "{value}.into_iter().map({}).collect()",
                elem_to_owned(cx, unit, elem)
            )
        }
        Type::FixedArray { elem, .. } => {
            format!("{value}.map({})", elem_to_owned(cx, unit, elem))
        }
        Type::Struct(_) | Type::Union(_) => format!("{value}.into_owned()"),
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// A function from an element's view to the owned element (arrays of borrowing elements).
fn elem_to_owned(cx: &Context<'_>, unit: usize, elem: &Type) -> String {
    match elem {
        Type::String { .. } => "::std::string::String::from".to_owned(),
        _ => format!("|x| {}", to_owned(cx, unit, elem, "x")),
    }
}

/// Writes the view of declaration `id` of `unit` (which has a `view_ident`), placed in
/// `module`.
pub(super) fn view_items(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    module: &[String],
) {
    match &d.kind {
        DeclKind::Struct(s) => struct_view(c, cx, unit, id, d, s, module),
        DeclKind::Union(u) => union_view(c, cx, unit, id, d, u, module),
        DeclKind::Enum(_) | DeclKind::EnumConcept(_) => {}
    }
}

struct Names {
    owned: String,
    view: String,
    doc: String,
}

fn names_of(cx: &Context<'_>, unit: usize, id: DeclId) -> Names {
    let p = cx.placement(unit, id);
    let view = p.view_ident.clone().expect("called for types with a view");
    let doc = format!(
        "Borrowed view of [`{owned}`]: strings and byte arrays point into the packed bytes \
         (decode with `WireView::unpack_view`, copy out with [`{view}::into_owned`]).",
        owned = p.ident.trim_start_matches("r#"),
        view = view.trim_start_matches("r#"),
    );
    Names {
        owned: p.ident.clone(),
        view,
        doc,
    }
}

fn struct_view(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    s: &Struct,
    module: &[String],
) {
    let fqn = d.fqn();
    let Names { owned, view, doc } = names_of(cx, unit, id);
    let fids = &cx.placement(unit, id).fields;
    let (mut copy, mut eq) = (true, true);
    for f in &s.fields {
        let (c, e) = view_traits(cx, unit, &f.ty);
        copy &= c;
        eq &= e;
    }
    c.blank();
    c.doc(&doc);
    c.line(&derives(copy, eq, false));
    c.line("#[repr(C)]");
    camel_case_allow(c, [view.as_str()]);
    emit!(c, "pub struct {view}<'a> {{");
    for (f, fid) in s.fields.iter().zip(fids) {
        c.docs(f.docs.as_deref());
        emit!(c, "pub {fid}: {},", view_type(cx, unit, module, &f.ty));
    }
    emit!(
        c,
        "
        }}

        impl {view}<'_> {{
            /// Copies the borrowed members into an owned value.
            pub fn into_owned(self) -> {owned} {{
                {owned} {{"
    );
    for (f, fid) in s.fields.iter().zip(fids) {
        emit!(
            c,
            "{fid}: {},",
            to_owned(cx, unit, &f.ty, &format!("self.{fid}"))
        );
    }
    c.lines("}\n}\n}");

    // Reading: the owned type's member runs and checks, with view reads.
    let reads: Vec<String> = s
        .fields
        .iter()
        .map(|f| {
            let read = view_read(cx, unit, module, &f.ty);
            chain(
                &read,
                &format!(".in_field(TYPE_NAME, {})?", str_lit(&f.name)),
            )
        })
        .collect();
    let field_sizes: Vec<Option<u128>> = s
        .fields
        .iter()
        .map(|f| {
            let m = cx.units[unit].type_metrics(&f.ty);
            m.is_fixed_size.then(|| m.max_size.value())
        })
        .collect();
    let no_writes = vec![String::new(); s.fields.len()];
    // Runs of strings: one UTF-8 validation (`wire::read_str_run`).
    let runs: Vec<RunCode> = string_runs(cx, &s.fields)
        .iter()
        .map(|run| RunCode {
            fields: run.fields.clone(),
            read: format!(
                "{}?",
                run.call(&format!("{}::wire::read_str_run", cx.rt), "TYPE_NAME", None)
            ),
            write: None,
        })
        .collect();
    let (_, read_body) = struct_wire_bodies(fids, &field_sizes, &no_writes, &reads, &runs);
    let mut view_body = format!("{view} {{\n");
    for (f, fid) in s.fields.iter().zip(fids) {
        let place = format!("self.{fid}");
        view_body.push_str(&format!(
            "{fid}: {},\n",
            to_view(cx, unit, &f.ty, &place, &place)
        ));
    }
    view_body.push('}');
    view_links(c, cx, &fqn, &owned, &view, &view_body, &read_body);
}

fn union_view(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    u: &Union,
    module: &[String],
) {
    let fqn = d.fqn();
    let Names { owned, view, doc } = names_of(cx, unit, id);
    let p = cx.placement(unit, id);
    let tag_ident = p.tag_ident.as_deref().unwrap_or("Tag");
    // Variant identifiers: the owned union's.
    let vids: Vec<String> = p.variants.clone();
    let (mut copy, mut eq) = (true, true);
    for m in &u.members {
        let (c, e) = view_traits(cx, unit, &m.ty);
        copy &= c;
        eq &= e;
    }
    c.blank();
    c.doc(&doc);
    c.line(&derives(copy, eq, false));
    c.line("#[allow(clippy::large_enum_variant, clippy::enum_variant_names)]");
    camel_case_allow(
        c,
        std::iter::once(view.as_str()).chain(vids.iter().map(String::as_str)),
    );
    emit!(c, "pub enum {view}<'a> {{");
    for (m, v) in u.members.iter().zip(&vids) {
        c.doc(&format!("`{}`, tag {}.", m.name, m.tag));
        emit!(c, "{v}({}),", view_type(cx, unit, module, &m.ty));
    }
    emit!(
        c,
        "
        }}

        impl {view}<'_> {{
            /// Which member this view holds.
            pub const fn tag(&self) -> {tag_ident} {{
                match self {{"
    );
    for v in &vids {
        emit!(c, "Self::{v}(_) => {tag_ident}::{v},");
    }
    emit!(
        c,
        "
                }}
            }}

            /// The schema name of the member this view holds.
            pub const fn name(&self) -> &'static str {{
                self.tag().name()
            }}

            /// Copies the borrowed members into an owned value.
            pub fn into_owned(self) -> {owned} {{
                match self {{"
    );
    for (m, v) in u.members.iter().zip(&vids) {
        emit!(
            c,
            "Self::{v}(v) => {owned}::{v}({}),",
            to_owned(cx, unit, &m.ty, "v")
        );
    }
    c.lines("}\n}\n}");

    let mut view_body = String::from("match self {\n");
    let mut read_body = String::from("match r.read_tag(TYPE_NAME)? {\n");
    for (m, v) in u.members.iter().zip(&vids) {
        view_body.push_str(&format!(
            "Self::{v}(v) => {view}::{v}({}),\n",
            to_view(cx, unit, &m.ty, "v", "*v")
        ));
        let read = view_read(cx, unit, module, &m.ty);
        read_body.push_str(&format!(
            "{} => {{\nlet v = {};\nend(r)?;\n::core::result::Result::Ok(Self::{v}(v))\n}}\n",
            m.tag,
            chain(
                &read,
                &format!(".in_field(TYPE_NAME, {})?", str_lit(&m.name))
            )
        ));
    }
    view_body.push('}');
    read_body.push_str("tag => ::core::result::Result::Err(r.unknown_tag(TYPE_NAME, tag)),\n}");
    view_links(c, cx, &fqn, &owned, &view, &view_body, &read_body);
}

/// What links a view to its owned type, for structures and unions alike: `From<View>`,
/// `Owned::view()` (with `view_body`), and the `WireView` (reading with `read_body`, which
/// may use `TYPE_NAME`) and `HasView` impls.
fn view_links(
    c: &mut Code,
    cx: &Context<'_>,
    fqn: &str,
    owned: &str,
    view: &str,
    view_body: &str,
    read_body: &str,
) {
    let rt = &cx.rt;
    c.blank();
    emit!(
        c,
        "
        impl ::core::convert::From<{view}<'_>> for {owned} {{
            fn from(view: {view}<'_>) -> Self {{
                view.into_owned()
            }}
        }}

        impl {owned} {{
            /// A borrowed view of this value (what decoding its packed bytes as a view gives).
            pub fn view(&self) -> {view}<'_> {{"
    );
    c.lines(view_body);
    emit!(
        c,
        "
            }}
        }}

        const _: () = {{"
    );
    // (Not needed when every member is read by a helper that names it itself.)
    if read_body.contains(".in_field(") {
        emit!(c, "use {rt}::wire::FieldContext as _;");
    }
    emit!(
        c,
        "
            const TYPE_NAME: &str = {};
            impl<'a> {rt}::wire::WireView<'a> for {view}<'a> {{
                type Owned = {owned};",
        str_lit(fqn)
    );
    c.lines(&read_then_head(rt, "read_view_then", "'a"));
    c.lines(read_body);
    emit!(
        c,
        "
                }}
                #[inline]
                fn into_owned(self) -> {owned} {{
                    {view}::into_owned(self)
                }}
            }}
            impl {rt}::wire::HasView for {owned} {{
                type View<'a> = {view}<'a>;
                #[inline]
                fn view(&self) -> {view}<'_> {{
                    {owned}::view(self)
                }}
            }}
        }};"
    );
}
