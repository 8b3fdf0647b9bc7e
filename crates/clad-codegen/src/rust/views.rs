//! Borrowed views (`<Name>View<'a>`): the decoding-side twin of a message, structure or union
//! whose `string` members are `&'a str` and whose `uint_8` variable arrays are `&'a [u8]`,
//! pointing into the packed bytes (see `robot_runtime::wire::WireView`).
//!
//! Views are opt-in (`RustOptions::views`, `Builder::view`). A selected type gets a view when
//! it *borrows*: it holds a string or a variable array, directly or in a member. Inside a
//! view, a string is `&'a str`, a `uint_8` variable array `&'a [u8]`, a variable array of
//! other fixed-size elements a `robot_runtime::wire::ArrayView<'a, T>` (elements decoded on
//! access), and an array of borrowing elements a `Vec` (or array) of their views. Every
//! borrowing type a selected type contains gets a view too; members that borrow nothing keep
//! their owned type inside a view.

use super::items::{
    camel_case_allow, derives, docs, field_names, len_ty, max_tok, rust_type, struct_wire_bodies,
    traits, usize_lit, wire_parts,
};
use super::{names, relative_path, Context};
use crate::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::{quote, ToTokens as _};

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
fn view_path(cx: &Context<'_>, unit: usize, from: &[String], id: DeclId) -> TokenStream {
    let p = cx.placement(unit, id);
    let ident = p
        .view_ident
        .as_deref()
        .expect("every borrowing type inside a view has a view (collect)");
    let path = relative_path(from, &p.module, ident);
    quote!(#path<'a>)
}

/// The type of a member inside a view.
fn view_type(cx: &Context<'_>, unit: usize, from: &[String], ty: &Type) -> TokenStream {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return rust_type(cx, unit, from, ty);
    }
    match ty {
        Type::String { .. } => quote!(&'a str),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            quote!(&'a [u8])
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => {
            let e = rust_type(cx, unit, from, elem);
            let rt = &cx.rt;
            quote!(#rt::wire::ArrayView<'a, #e>)
        }
        Type::VarArray { elem, .. } => {
            let e = view_type(cx, unit, from, elem);
            quote!(::std::vec::Vec<#e>)
        }
        Type::FixedArray { elem, len } => {
            let e = view_type(cx, unit, from, elem);
            let n = usize_lit(len.value().into());
            quote!([#e; #n])
        }
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
fn view_read(cx: &Context<'_>, unit: usize, from: &[String], ty: &Type) -> TokenStream {
    let rt = &cx.rt;
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        let dummy = TokenStream::new();
        return wire_parts(cx, unit, from, ty, &dummy, &dummy).2;
    }
    match ty {
        Type::String {
            length,
            max,
            max_declared,
        } => {
            let l = len_ty(*length);
            let m = max_tok(cx, *max, *max_declared);
            quote!(#rt::wire::read_str::<#l>(r, #m))
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
                Type::Builtin(Builtin::Uint8) => quote!(#rt::wire::read_byte_slice::<#l>(r, #m)),
                Type::String {
                    length: sl,
                    max: smax,
                    max_declared: sdecl,
                } => {
                    let sl = len_ty(*sl);
                    let sm = max_tok(cx, *smax, *sdecl);
                    quote!(#rt::wire::read_str_vec::<#l, #sl>(r, #m, #sm))
                }
                other if !borrows(schema, other) => {
                    let t = rust_type(cx, unit, from, other);
                    quote!(#rt::wire::read_array_view::<#l, #t>(r, #m))
                }
                other => {
                    let v = view_type(cx, unit, from, other);
                    quote!(#rt::wire::read_view_vec::<#l, #v>(r, #m))
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
                    quote!(#rt::wire::read_str_array::<#sl, #n>(r, #sm))
                }
                other => {
                    let v = view_type(cx, unit, from, other);
                    quote!(#rt::wire::read_view_array::<#v, #n>(r))
                }
            }
        }
        Type::Struct(id) | Type::Union(id) => {
            let v = view_path(cx, unit, from, *id);
            quote!(#rt::wire::read_view::<#v>(r))
        }
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// A member's view from the owned member. `recv` is the member as a method receiver
/// (`self.name` or a reference binding `v`); `copied` is it as a value, for `Copy` members
/// (`self.name` or `*v`).
fn to_view(
    cx: &Context<'_>,
    unit: usize,
    ty: &Type,
    recv: &TokenStream,
    copied: &TokenStream,
) -> TokenStream {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return if traits(cx, unit, ty).0 {
            copied.clone()
        } else {
            quote!(#recv.clone())
        };
    }
    match ty {
        Type::String { .. } => quote!(#recv.as_str()),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            quote!(#recv.as_slice())
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => {
            let rt = &cx.rt;
            quote!(#rt::wire::ArrayView::from(#recv.as_slice()))
        }
        Type::VarArray { elem, .. } => {
            let f = elem_to_view(cx, unit, elem);
            quote!(#recv.iter().map(#f).collect())
        }
        Type::FixedArray { elem, .. } => {
            let f = elem_to_view(cx, unit, elem);
            quote!(#recv.each_ref().map(#f))
        }
        Type::Struct(_) | Type::Union(_) => quote!(#recv.view()),
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// A closure from `&Elem` to the element's view (arrays of borrowing elements).
fn elem_to_view(cx: &Context<'_>, unit: usize, elem: &Type) -> TokenStream {
    let x = quote!(x);
    let body = to_view(cx, unit, elem, &x, &quote!(*x));
    quote!(|x| #body)
}

/// The owned member from its view `value` (moved).
fn to_owned(cx: &Context<'_>, unit: usize, ty: &Type, value: &TokenStream) -> TokenStream {
    let schema = &cx.units[unit];
    if !borrows(schema, ty) {
        return value.clone();
    }
    match ty {
        Type::String { .. } => quote!(::std::string::String::from(#value)),
        Type::VarArray { elem, .. } if matches!(elem.as_ref(), Type::Builtin(Builtin::Uint8)) => {
            quote!(#value.to_vec())
        }
        Type::VarArray { elem, .. } if !borrows(schema, elem) => quote!(#value.to_vec()),
        Type::VarArray { elem, .. } => {
            let f = elem_to_owned(cx, unit, elem);
            quote!(#value.into_iter().map(#f).collect())
        }
        Type::FixedArray { elem, .. } => {
            let f = elem_to_owned(cx, unit, elem);
            quote!(#value.map(#f))
        }
        Type::Struct(_) | Type::Union(_) => quote!(#value.into_owned()),
        Type::Builtin(_) | Type::Enum(_) => unreachable!("scalars never borrow"),
    }
}

/// A function from an element's view to the owned element (arrays of borrowing elements).
fn elem_to_owned(cx: &Context<'_>, unit: usize, elem: &Type) -> TokenStream {
    match elem {
        Type::String { .. } => quote!(::std::string::String::from),
        _ => {
            let body = to_owned(cx, unit, elem, &quote!(x));
            quote!(|x| #body)
        }
    }
}

/// The view of declaration `id` of `unit` (which has a `view_ident`), placed in `module`.
pub(super) fn view_items(
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    module: &[String],
) -> TokenStream {
    match &d.kind {
        DeclKind::Struct(s) => struct_view(cx, unit, id, d, s, module),
        DeclKind::Union(u) => union_view(cx, unit, id, d, u, module),
        DeclKind::Enum(_) | DeclKind::EnumConcept(_) => TokenStream::new(),
    }
}

struct Names {
    owned: TokenStream,
    view: TokenStream,
    view_ident: String,
    doc: String,
}

fn names_of(cx: &Context<'_>, unit: usize, id: DeclId) -> Names {
    let p = cx.placement(unit, id);
    let view_ident = p.view_ident.clone().expect("called for types with a view");
    let doc = format!(
        " Borrowed view of [`{owned}`]: strings and byte arrays point into the packed bytes \
         (decode with `WireView::unpack_view`, copy out with [`{view}::into_owned`]).",
        owned = p.ident.trim_start_matches("r#"),
        view = view_ident.trim_start_matches("r#"),
    );
    Names {
        owned: names::ident(&p.ident).into_token_stream(),
        view: names::ident(&view_ident).into_token_stream(),
        view_ident,
        doc,
    }
}

fn struct_view(
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    s: &Struct,
    module: &[String],
) -> TokenStream {
    let fqn = d.fqn();
    let Names {
        owned,
        view,
        view_ident,
        doc,
    } = names_of(cx, unit, id);
    let fnames = field_names(s);
    let fids: Vec<_> = fnames.idents.iter().map(|f| names::ident(f)).collect();
    let (mut copy, mut eq) = (true, true);
    for f in &s.fields {
        let (c, e) = view_traits(cx, unit, &f.ty);
        copy &= c;
        eq &= e;
    }
    let derive = derives(copy, eq, false);
    let camel_allow = camel_case_allow([view_ident.as_str()]);
    let fields = s.fields.iter().zip(&fids).map(|(f, fid)| {
        let ty = view_type(cx, unit, module, &f.ty);
        let fdoc = docs(f.docs.as_deref());
        quote!(#fdoc pub #fid: #ty)
    });
    let to_views = s.fields.iter().zip(&fids).map(|(f, fid)| {
        let place = quote!(self.#fid);
        let v = to_view(cx, unit, &f.ty, &place, &place);
        quote!(#fid: #v)
    });
    let to_owneds = s.fields.iter().zip(&fids).map(|(f, fid)| {
        let v = to_owned(cx, unit, &f.ty, &quote!(self.#fid));
        quote!(#fid: #v)
    });

    // Reading: the owned type's member runs and checks, with view reads.
    let reads: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let read = view_read(cx, unit, module, &f.ty);
            let name = &f.name;
            quote!(#read.in_field(TYPE_NAME, #name)?)
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
    let no_writes = vec![TokenStream::new(); s.fields.len()];
    let (_, read_body) = struct_wire_bodies(&fnames.idents, &field_sizes, &no_writes, &reads);
    let links = view_links(
        cx,
        &fqn,
        &owned,
        &view,
        quote!(#view { #(#to_views,)* }),
        read_body,
    );

    quote! {
        #[doc = #doc]
        #derive
        #[repr(C)]
        #camel_allow
        pub struct #view<'a> {
            #(#fields,)*
        }

        impl #view<'_> {
            /// Copies the borrowed members into an owned value.
            pub fn into_owned(self) -> #owned {
                #owned { #(#to_owneds,)* }
            }
        }

        #links
    }
}

fn union_view(
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    u: &Union,
    module: &[String],
) -> TokenStream {
    let fqn = d.fqn();
    let Names {
        owned,
        view,
        view_ident,
        doc,
    } = names_of(cx, unit, id);
    let p = cx.placement(unit, id);
    let tag_ident = names::ident(p.tag_ident.as_deref().unwrap_or("Tag"));
    // Variant identifiers: the owned union's, assigned by the same rules.
    let mut scope = names::Scope::new();
    let vids: Vec<String> = u
        .members
        .iter()
        .map(|m| scope.assign(&m.name, names::Case::Camel))
        .collect();
    let vs: Vec<_> = vids.iter().map(|v| names::ident(v)).collect();
    let (mut copy, mut eq) = (true, true);
    for m in &u.members {
        let (c, e) = view_traits(cx, unit, &m.ty);
        copy &= c;
        eq &= e;
    }
    let derive = derives(copy, eq, false);
    let camel_allow = camel_case_allow(
        std::iter::once(view_ident.as_str()).chain(vids.iter().map(String::as_str)),
    );
    let variants = u.members.iter().zip(&vs).map(|(m, v)| {
        let ty = view_type(cx, unit, module, &m.ty);
        let tagdoc = format!(" `{}`, tag {}.", m.name, m.tag);
        quote!(#[doc = #tagdoc] #v(#ty))
    });
    let tag_arms = vs.iter().map(|v| quote!(Self::#v(_) => #tag_ident::#v));
    let owned_arms = u.members.iter().zip(&vs).map(|(m, v)| {
        let o = to_owned(cx, unit, &m.ty, &quote!(v));
        quote!(Self::#v(v) => #owned::#v(#o))
    });
    let view_arms = u.members.iter().zip(&vs).map(|(m, v)| {
        let w = to_view(cx, unit, &m.ty, &quote!(v), &quote!(*v));
        quote!(Self::#v(v) => #view::#v(#w))
    });
    let read_arms = u.members.iter().zip(&vs).map(|(m, v)| {
        let tag = Literal::u8_unsuffixed(m.tag);
        let read = view_read(cx, unit, module, &m.ty);
        let name = &m.name;
        quote! {
            #tag => {
                let v = #read.in_field(TYPE_NAME, #name)?;
                end(r)?;
                ::core::result::Result::Ok(Self::#v(v))
            }
        }
    });
    let links = view_links(
        cx,
        &fqn,
        &owned,
        &view,
        quote!(match self { #(#view_arms,)* }),
        quote! {
            match r.read_tag(TYPE_NAME)? {
                #(#read_arms)*
                tag => ::core::result::Result::Err(r.unknown_tag(TYPE_NAME, tag)),
            }
        },
    );
    quote! {
        #[doc = #doc]
        #derive
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        #camel_allow
        pub enum #view<'a> {
            #(#variants,)*
        }

        impl #view<'_> {
            /// Which member this view holds.
            pub const fn tag(&self) -> #tag_ident {
                match self {
                    #(#tag_arms,)*
                }
            }

            /// The schema name of the member this view holds.
            pub const fn name(&self) -> &'static str {
                self.tag().name()
            }

            /// Copies the borrowed members into an owned value.
            pub fn into_owned(self) -> #owned {
                match self {
                    #(#owned_arms,)*
                }
            }
        }

        #links
    }
}

/// What links a view to its owned type, for structures and unions alike: `From<View>`,
/// `Owned::view()` (with `view_body`), and the `WireView` (reading with `read_body`, which
/// may use `TYPE_NAME`) and `HasView` impls.
fn view_links(
    cx: &Context<'_>,
    fqn: &str,
    owned: &TokenStream,
    view: &TokenStream,
    view_body: TokenStream,
    read_body: TokenStream,
) -> TokenStream {
    let rt = &cx.rt;
    quote! {
        impl ::core::convert::From<#view<'_>> for #owned {
            fn from(view: #view<'_>) -> Self {
                view.into_owned()
            }
        }

        impl #owned {
            /// A borrowed view of this value (what decoding its packed bytes as a view gives).
            pub fn view(&self) -> #view<'_> {
                #view_body
            }
        }

        const _: () = {
            use #rt::wire::FieldContext as _;
            const TYPE_NAME: &str = #fqn;
            impl<'a> #rt::wire::WireView<'a> for #view<'a> {
                type Owned = #owned;
                #[inline]
                fn read_view_then<F>(r: &mut #rt::wire::Reader<'a>, end: F) -> ::core::result::Result<Self, #rt::wire::UnpackError>
                where
                    F: ::core::ops::FnOnce(&#rt::wire::Reader<'a>) -> ::core::result::Result<(), #rt::wire::UnpackError>,
                {
                    #read_body
                }
                #[inline]
                fn into_owned(self) -> #owned {
                    #view::into_owned(self)
                }
            }
            impl #rt::wire::HasView for #owned {
                type View<'a> = #view<'a>;
                #[inline]
                fn view(&self) -> #view<'_> {
                    #owned::view(self)
                }
            }
        };
    }
}
