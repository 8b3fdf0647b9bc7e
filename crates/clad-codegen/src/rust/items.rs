//! Rust items for one declaration: the type, its constants and methods, its `Wire` impl
//! (pack/unpack) and its serde derives (CLAD-JSON).

use super::names::{self, Case, Scope};
use super::Context;
use crate::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// Items for declaration `id` of `unit`, placed in `module`.
pub(super) fn decl(cx: &Context<'_>, unit: usize, id: DeclId, module: &[String]) -> TokenStream {
    let d = cx.units[unit].decl(id);
    match &d.kind {
        DeclKind::Enum(e) => enum_items(cx, unit, id, d, e, module),
        DeclKind::Struct(s) => struct_items(cx, unit, d, s, module),
        DeclKind::Union(u) => union_items(cx, unit, id, d, u, module),
        DeclKind::EnumConcept(_) => TokenStream::new(),
    }
}

// ----- shared helpers ------------------------------------------------------------------------

pub(super) fn docs(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = text.lines().map(|l| {
        let l = format!(" {l}");
        quote!(#[doc = #l])
    });
    quote!(#(#lines)*)
}

pub(super) fn user_attrs(list: &[(String, String)], matches: impl Fn(&str) -> bool) -> TokenStream {
    let attrs = list
        .iter()
        .filter(|(path, _)| matches(path))
        .filter_map(|(_, a)| syn::parse_str::<TokenStream>(a).ok());
    quote!(#(#attrs)*)
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
pub(super) fn camel_case_allow<'a>(idents: impl IntoIterator<Item = &'a str>) -> TokenStream {
    let needed = idents
        .into_iter()
        .any(|i| i.trim_start_matches("r#").trim_matches('_').contains('_'));
    if needed {
        quote!(#[allow(non_camel_case_types)])
    } else {
        TokenStream::new()
    }
}

pub(super) fn hash_consts(d: &Decl) -> TokenStream {
    let fqn = d.fqn();
    let name_doc = " The schema's fully qualified name.";
    let Some(hash) = &d.hash else {
        return quote! {
            #[doc = #name_doc]
            pub const NAME: &'static str = #fqn;
        };
    };
    let bytes: Vec<Literal> = (0..hash.len() / 2)
        .filter_map(|i| format!("0x{}", &hash[2 * i..2 * i + 2]).parse().ok())
        .collect();
    quote! {
        #[doc = #name_doc]
        pub const NAME: &'static str = #fqn;
        /// Version hash of the declaration (MD5, as the original compiler computes it).
        pub const VERSION_HASH_STR: &'static str = #hash;
        /// [`Self::VERSION_HASH_STR`] as bytes, in hex-string order.
        pub const VERSION_HASH: [u8; 16] = [#(#bytes),*];
    }
}

fn int_lit(v: i128) -> TokenStream {
    let lit = Literal::u128_unsuffixed(v.unsigned_abs());
    if v < 0 {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

fn float_lit(v: f64, b: Builtin) -> TokenStream {
    // A float_32 constant is the value narrowed to f32: one beyond the f32 range (CLAD does not
    // range-check floats) becomes an infinity instead of an invalid literal.
    let v = if b == Builtin::Float32 {
        f64::from(v as f32)
    } else {
        v
    };
    let ty = if b == Builtin::Float32 {
        quote!(f32)
    } else {
        quote!(f64)
    };
    if v.is_nan() {
        quote!(#ty::NAN)
    } else if v.is_infinite() {
        if v > 0.0 {
            quote!(#ty::INFINITY)
        } else {
            quote!(#ty::NEG_INFINITY)
        }
    } else if b == Builtin::Float32 {
        let lit = Literal::f32_unsuffixed((v as f32).abs());
        if v < 0.0 {
            quote!(-#lit)
        } else {
            quote!(#lit)
        }
    } else {
        let lit = Literal::f64_unsuffixed(v.abs());
        if v < 0.0 {
            quote!(-#lit)
        } else {
            quote!(#lit)
        }
    }
}

fn builtin_ty(b: Builtin) -> TokenStream {
    match b {
        Builtin::Bool => quote!(bool),
        Builtin::Int8 => quote!(i8),
        Builtin::Int16 => quote!(i16),
        Builtin::Int32 => quote!(i32),
        Builtin::Int64 => quote!(i64),
        Builtin::Uint8 => quote!(u8),
        Builtin::Uint16 => quote!(u16),
        Builtin::Uint32 => quote!(u32),
        Builtin::Uint64 => quote!(u64),
        Builtin::Float32 => quote!(f32),
        Builtin::Float64 => quote!(f64),
    }
}

/// Rust representation of an enum's storage (bool storage is held as `u8`).
fn repr_ty(b: Builtin) -> TokenStream {
    match b {
        Builtin::Bool => quote!(u8),
        other => builtin_ty(other),
    }
}

pub(super) fn usize_lit(v: u128) -> TokenStream {
    let v = usize::try_from(v).unwrap_or(usize::MAX);
    let lit = Literal::usize_unsuffixed(v);
    quote!(#lit)
}

pub(super) fn rust_type(cx: &Context<'_>, unit: usize, from: &[String], ty: &Type) -> TokenStream {
    match ty {
        Type::Builtin(b) => builtin_ty(*b),
        Type::Enum(id) | Type::Struct(id) | Type::Union(id) => cx.type_path(from, unit, *id),
        Type::String { .. } => quote!(::std::string::String),
        Type::VarArray { elem, .. } => {
            let e = rust_type(cx, unit, from, elem);
            quote!(::std::vec::Vec<#e>)
        }
        Type::FixedArray { elem, len } => {
            let e = rust_type(cx, unit, from, elem);
            let n = usize_lit(len.value().into());
            quote!([#e; #n])
        }
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

pub(super) fn derives(copy: bool, eq: bool, default: bool) -> TokenStream {
    let mut list = vec![quote!(Clone)];
    if copy {
        list.push(quote!(Copy));
    }
    list.push(quote!(Debug));
    list.push(quote!(PartialEq));
    if eq {
        list.push(quote!(Eq));
        list.push(quote!(Hash));
    }
    if default {
        list.push(quote!(Default));
    }
    quote!(#[derive(#(#list),*)])
}

pub(super) fn len_ty(b: Builtin) -> TokenStream {
    builtin_ty(b)
}

pub(super) fn max_tok(cx: &Context<'_>, max: u64, declared: bool) -> TokenStream {
    let rt = &cx.rt;
    if declared {
        let lit = Literal::u64_unsuffixed(max);
        quote!(#lit)
    } else {
        quote!(#rt::wire::NO_MAX)
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
    value: &TokenStream,
    by_ref: &TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
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
                quote!(#rt::wire::string_size::<#l>(#by_ref)),
                quote!(#rt::wire::write_string::<#l>(w, #by_ref, #m)),
                quote!(#rt::wire::read_string::<#l>(r, #m)),
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
                        quote!(#rt::wire::string_vec_size::<#l, #sl>(#by_ref)),
                        quote!(#rt::wire::write_string_vec::<#l, #sl>(w, #by_ref, #m, #sm)),
                        quote!(#rt::wire::read_string_vec::<#l, #sl>(r, #m, #sm)),
                    )
                }
                Type::Builtin(Builtin::Uint8) => (
                    quote!(#rt::wire::vec_size::<#l, u8>(#by_ref)),
                    quote!(#rt::wire::write_byte_vec::<#l>(w, #by_ref, #m)),
                    quote!(#rt::wire::read_byte_vec::<#l>(r, #m)),
                ),
                other => {
                    let t = rust_type(cx, unit, from, other);
                    (
                        quote!(#rt::wire::vec_size::<#l, #t>(#by_ref)),
                        quote!(#rt::wire::write_vec::<#l, #t>(w, #by_ref, #m)),
                        quote!(#rt::wire::read_vec::<#l, #t>(r, #m)),
                    )
                }
            }
        }
        Type::FixedArray { elem, len } => match elem.as_ref() {
            Type::String {
                length: sl,
                max: smax,
                max_declared: sdecl,
            } => {
                let sl = len_ty(*sl);
                let sm = max_tok(cx, *smax, *sdecl);
                let n = usize_lit(len.value().into());
                (
                    quote!(#rt::wire::strings_size::<#sl>(#by_ref)),
                    quote!(#rt::wire::write_strings::<#sl>(w, #by_ref, #sm)),
                    quote!(#rt::wire::read_string_array::<#sl, #n>(r, #sm)),
                )
            }
            _ => (
                quote!(#value.packed_size()),
                quote!(#value.write_to(w)),
                quote!(r.read()),
            ),
        },
        _ => (
            quote!(#value.packed_size()),
            quote!(#value.write_to(w)),
            quote!(r.read()),
        ),
    }
}

fn size_consts(cx: &Context<'_>, m: &Metrics) -> TokenStream {
    let _ = cx;
    let min = usize_lit(m.min_size.value());
    let fixed = if m.is_fixed_size {
        let n = usize_lit(m.max_size.value());
        quote!(::core::option::Option::Some(#n))
    } else {
        quote!(::core::option::Option::None)
    };
    quote! {
        const FIXED_SIZE: ::core::option::Option<usize> = #fixed;
        const MIN_SIZE: usize = #min;
    }
}

/// The anonymous import of `FieldContext` (for `.in_field(..)`), scoped to the impl's
/// `const _` block so nothing leaks into the user's namespace. (`Wire` itself is in scope
/// inside its own impl.)
fn wire_imports(cx: &Context<'_>, needed: bool) -> TokenStream {
    let rt = &cx.rt;
    if needed {
        quote!(use #rt::wire::FieldContext as _;)
    } else {
        TokenStream::new()
    }
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

fn enum_shape(e: &Enum) -> EnumShape {
    let mut scope =
        Scope::with_reserved(&["NAME", "VERSION_HASH", "VERSION_HASH_STR", "ALL", "COUNT"]);
    let mut variants: Vec<(usize, String)> = Vec::new();
    let mut aliases = Vec::new();
    for (i, m) in e.members.iter().enumerate() {
        let ident = scope.assign(&m.name, Case::Camel);
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
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    e: &Enum,
    module: &[String],
) -> TokenStream {
    let rt = &cx.rt;
    let serde_crate = format!("{}::serde", cx.opts.runtime_path);
    let ident = names::ident(&cx.placement(unit, id).ident);
    let repr = repr_ty(e.storage);
    let shape = enum_shape(e);
    let fqn = d.fqn();
    let doc = docs(d.docs.as_deref());
    let attrs = user_attrs(&cx.opts.type_attributes, |p| type_matches(p, &fqn));
    let camel_allow = camel_case_allow(
        std::iter::once(cx.placement(unit, id).ident.as_str())
            .chain(shape.variants.iter().map(|(_, v)| v.as_str())),
    );

    let variants = shape.variants.iter().enumerate().map(|(pos, (i, v))| {
        let m = &e.members[*i];
        let vid = names::ident(v);
        let vdoc = docs(m.docs.as_deref());
        let name = &m.name;
        let value = int_lit(m.value);
        let default = (pos == 0).then(|| quote!(#[default]));
        let aliases: Vec<&str> = shape
            .aliases
            .iter()
            .filter(|(_, _, p)| *p == pos)
            .map(|(j, _, _)| e.members[*j].name.as_str())
            .collect();
        let serde = if vid == name && aliases.is_empty() {
            TokenStream::new()
        } else {
            quote!(#[serde(rename = #name #(, alias = #aliases)*)])
        };
        quote! {
            #vdoc
            #default
            #serde
            #vid = #value
        }
    });
    let all = shape.variants.iter().map(|(_, v)| {
        let v = names::ident(v);
        quote!(Self::#v)
    });
    let count = usize_lit(shape.variants.len() as u128);
    let alias_consts = shape.aliases.iter().map(|(i, a, pos)| {
        let a = names::ident(a);
        let target = names::ident(&shape.variants[*pos].1);
        let doc = format!(
            " `{}` has the same value as `{}`.",
            e.members[*i].name, e.members[shape.variants[*pos].0].name
        );
        quote! {
            #[doc = #doc]
            #[allow(non_upper_case_globals)]
            pub const #a: Self = Self::#target;
        }
    });
    let name_arms = shape.variants.iter().map(|(i, v)| {
        let v = names::ident(v);
        let n = &e.members[*i].name;
        quote!(Self::#v => #n)
    });
    let from_name_arms = e.members.iter().enumerate().map(|(i, m)| {
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
        let target = names::ident(target);
        let n = &m.name;
        quote!(#n => ::core::option::Option::Some(Self::#target))
    });
    let from_value_arms = shape.variants.iter().map(|(i, v)| {
        let vid = names::ident(v);
        let value = int_lit(e.members[*i].value);
        quote!(#value => ::core::option::Option::Some(Self::#vid))
    });
    let hashes = hash_consts(d);
    let size = usize_lit(e.storage.size().into());
    let concepts = concept_methods(cx, &fqn, &ident, &shape, module);
    let storage_name = e.storage.name();
    let value_doc = format!(" The value as its storage type (`{storage_name}`).");
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, #rt::serde::Serialize, #rt::serde::Deserialize)]
        #[serde(crate = #serde_crate)]
        #[repr(#repr)]
        #camel_allow
        #attrs
        pub enum #ident {
            #(#variants,)*
        }

        impl #ident {
            #hashes
            /// Every member, in declaration order (aliases excluded).
            pub const ALL: [Self; #count] = [#(#all),*];
            /// Number of distinct members.
            pub const COUNT: usize = #count;
            #(#alias_consts)*

            /// The member's name as written in the schema.
            pub const fn name(self) -> &'static str {
                match self {
                    #(#name_arms,)*
                }
            }

            /// The member with this schema name (aliases included).
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                match name {
                    #(#from_name_arms,)*
                    _ => ::core::option::Option::None,
                }
            }

            #[doc = #value_doc]
            pub const fn value(self) -> #repr {
                self as #repr
            }

            /// The member with this value.
            pub const fn from_value(value: #repr) -> ::core::option::Option<Self> {
                match value {
                    #(#from_value_arms,)*
                    _ => ::core::option::Option::None,
                }
            }
        }

        #concepts

        impl ::core::convert::From<#ident> for #repr {
            fn from(value: #ident) -> Self {
                value as #repr
            }
        }

        impl ::core::convert::TryFrom<#repr> for #ident {
            type Error = #rt::enums::InvalidEnumValue;
            // Fully qualified: an enum member may be called `Error`.
            fn try_from(value: #repr) -> ::core::result::Result<Self, <Self as ::core::convert::TryFrom<#repr>>::Error> {
                Self::from_value(value).ok_or(#rt::enums::InvalidEnumValue::new(Self::NAME, value as i128))
            }
        }

        impl ::core::fmt::Display for #ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::core::str::FromStr for #ident {
            type Err = #rt::enums::UnknownEnumName;
            // Fully qualified: an enum member may be called `Err`.
            fn from_str(s: &str) -> ::core::result::Result<Self, <Self as ::core::str::FromStr>::Err> {
                Self::from_name(s).ok_or_else(|| #rt::enums::UnknownEnumName::new(Self::NAME, s))
            }
        }

        impl #rt::wire::Wire for #ident {
                const TYPE_NAME: &'static str = #fqn;
                const FIXED_SIZE: ::core::option::Option<usize> = ::core::option::Option::Some(#size);
                const MIN_SIZE: usize = #size;
                #[inline]
                fn packed_size(&self) -> usize {
                    #size
                }
                #[inline]
                fn write_to(&self, w: &mut #rt::wire::Writer<'_>) -> ::core::result::Result<(), #rt::wire::PackError> {
                    (*self as #repr).write_to(w)
                }
                #[inline]
                fn read_from(r: &mut #rt::wire::Reader<'_>) -> ::core::result::Result<Self, #rt::wire::UnpackError> {
                    #rt::wire::read_enum(r, Self::TYPE_NAME, Self::from_value)
                }
        }
    }
}

/// Enum concepts become `const fn` methods on their enum.
fn concept_methods(
    cx: &Context<'_>,
    enum_fqn: &str,
    ident: &proc_macro2::Ident,
    shape: &EnumShape,
    module: &[String],
) -> TokenStream {
    let Some(list) = cx.concepts.get(enum_fqn) else {
        return TokenStream::new();
    };
    let mut scope = Scope::with_reserved(&["name", "from_name", "value", "from_value"]);
    let methods = list.iter().map(|&(u, cid)| {
        let d = cx.units[u].decl(cid);
        let DeclKind::EnumConcept(c) = &d.kind else {
            return TokenStream::new();
        };
        let method = names::ident(&scope.assign(&d.name, Case::Snake));
        let doc = docs(d.docs.as_deref());
        let cdoc = format!(" Enum concept `{}`.", d.fqn());
        let ret = match &c.return_type {
            Type::String { .. } => quote!(&'static str),
            other => rust_type(cx, u, module, other),
        };
        let arms = shape.variants.iter().filter_map(|(i, v)| {
            let m = c.members.iter().find(|m| m.enum_member == *i)?;
            let vid = names::ident(v);
            let value = concept_value(cx, u, module, &c.return_type, &m.value.value);
            Some(quote!(Self::#vid => #value))
        });
        let sep = d.docs.is_some().then(|| quote!(#[doc = ""]));
        quote! {
            #[doc = #cdoc]
            #sep
            #doc
            pub const fn #method(self) -> #ret {
                match self {
                    #(#arms,)*
                }
            }
        }
    });
    quote! {
        // The values are the schema's literals (`3.14159` stays as written).
        #[allow(clippy::approx_constant)]
        impl #ident {
            #(#methods)*
        }
    }
}

fn concept_value(
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
    ty: &Type,
    v: &ConstValue,
) -> TokenStream {
    match (ty, v) {
        (Type::Builtin(Builtin::Bool), ConstValue::Bool(b)) => quote!(#b),
        (Type::Builtin(Builtin::Bool), ConstValue::Int(i)) => {
            let b = *i != 0;
            quote!(#b)
        }
        (Type::Builtin(b), ConstValue::Float(f)) => float_lit(*f, *b),
        (Type::Builtin(b), ConstValue::Int(i)) if b.is_float() => float_lit(*i as f64, *b),
        (Type::Builtin(_), ConstValue::Int(i)) => int_lit(*i),
        (Type::Enum(id), ConstValue::Int(i)) => enum_variant_path(cx, unit, module, *id, *i),
        (_, ConstValue::Str(s)) => quote!(#s),
        _ => quote!(::core::default::Default::default()),
    }
}

fn enum_variant_path(
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
    id: DeclId,
    value: i128,
) -> TokenStream {
    let path = cx.type_path(module, unit, id);
    let DeclKind::Enum(e) = &cx.units[unit].decl(id).kind else {
        return quote!(::core::default::Default::default());
    };
    let shape = enum_shape(e);
    match shape
        .variants
        .iter()
        .find(|(i, _)| e.members[*i].value == value)
    {
        Some((_, v)) => {
            let v = names::ident(v);
            quote!(#path::#v)
        }
        None => quote!(::core::default::Default::default()),
    }
}

// ----- structs -----------------------------------------------------------------------------

pub(super) struct FieldNames {
    pub idents: Vec<String>,
}

pub(super) fn field_names(s: &Struct) -> FieldNames {
    let mut scope = Scope::new();
    FieldNames {
        idents: s
            .fields
            .iter()
            .map(|f| scope.assign(&f.name, Case::Snake))
            .collect(),
    }
}

fn serde_with(cx: &Context<'_>, ty: &Type, in_union_value: bool) -> Option<String> {
    let rt = &cx.opts.runtime_path;
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

fn default_expr(cx: &Context<'_>, unit: usize, module: &[String], f: &Field) -> TokenStream {
    if let Some(c) = &f.default {
        match (&f.ty, &c.value) {
            (Type::Builtin(Builtin::Bool), ConstValue::Bool(b)) => return quote!(#b),
            (Type::Builtin(b), ConstValue::Float(v)) => return float_lit(*v, *b),
            (Type::Builtin(b), ConstValue::Int(v)) if b.is_float() => {
                return float_lit(*v as f64, *b)
            }
            (Type::Builtin(_), ConstValue::Int(v)) => return int_lit(*v),
            (Type::Enum(id), ConstValue::Int(v)) => {
                return enum_variant_path(cx, unit, module, *id, *v)
            }
            (Type::String { .. }, ConstValue::Str(s)) => {
                return quote!(::std::string::String::from(#s))
            }
            _ => {}
        }
    }
    zero_value(&f.ty)
}

/// The default value of a type without a declared default: `Default::default()`, or
/// `core::array::from_fn` for fixed arrays longer than 32 elements (no `Default` impl).
fn zero_value(ty: &Type) -> TokenStream {
    if is_long_array(ty) {
        return quote!(::core::array::from_fn(|_| {
            ::core::default::Default::default()
        }));
    }
    quote!(::core::default::Default::default())
}

fn struct_items(
    cx: &Context<'_>,
    unit: usize,
    d: &Decl,
    s: &Struct,
    module: &[String],
) -> TokenStream {
    let rt = &cx.rt;
    let serde_crate = format!("{}::serde", cx.opts.runtime_path);
    let fqn = d.fqn();
    let ident = names::ident(&cx.placements[&fqn].ident);
    let doc = docs(d.docs.as_deref());
    let attrs = user_attrs(&cx.opts.type_attributes, |p| type_matches(p, &fqn));
    let fnames = field_names(s);
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
    let derive = derives(copy, eq, !manual_default);
    let camel_allow = camel_case_allow([cx.placements[&fqn].ident.as_str()]);

    let fields = s.fields.iter().zip(&fnames.idents).map(|(f, fid)| {
        let fid = names::ident(fid);
        let ty = rust_type(cx, unit, module, &f.ty);
        let fdoc = docs(f.docs.as_deref());
        let name = &f.name;
        let serde = match serde_with(cx, &f.ty, false) {
            Some(w) => quote!(#[serde(rename = #name, with = #w)]),
            None => quote!(#[serde(rename = #name)]),
        };
        let fattrs = user_attrs(&cx.opts.field_attributes, |p| {
            p == format!("{fqn}.{name}") || p == fqn
        });
        let serde =
            if serde.to_string() == quote!(#[serde(rename = #name)]).to_string() && fid == name {
                TokenStream::new()
            } else {
                serde
            };
        quote! {
            #fdoc
            #serde
            #fattrs
            pub #fid: #ty
        }
    });

    let default_impl = manual_default.then(|| {
        let inits = s.fields.iter().zip(&fnames.idents).map(|(f, fid)| {
            let fid = names::ident(fid);
            let v = default_expr(cx, unit, module, f);
            quote!(#fid: #v)
        });
        // Spelled out even when every schema default happens to be the zero value.
        quote! {
            #[allow(clippy::derivable_impls, clippy::approx_constant)]
            impl ::core::default::Default for #ident {
                fn default() -> Self {
                    Self { #(#inits,)* }
                }
            }
        }
    });

    let hashes = hash_consts(d);
    let packed_const = s.metrics.is_fixed_size.then(|| {
        let n = usize_lit(s.metrics.max_size.value());
        quote! {
            /// Every value packs to exactly this many bytes.
            pub const PACKED_SIZE: usize = #n;
        }
    });

    // Wire.
    let mut sizes = Vec::new();
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    for (f, fid) in s.fields.iter().zip(&fnames.idents) {
        let fid = names::ident(fid);
        let name = &f.name;
        let (size, write, read) = wire_parts(
            cx,
            unit,
            module,
            &f.ty,
            &quote!(self.#fid),
            &quote!(&self.#fid),
        );
        sizes.push(size);
        writes.push(quote!(#write.in_field(Self::TYPE_NAME, #name)?;));
        reads.push(quote!(#read.in_field(Self::TYPE_NAME, #name)?));
    }
    let field_sizes: Vec<Option<u128>> = s
        .fields
        .iter()
        .map(|f| {
            let m = cx.units[unit].type_metrics(&f.ty);
            m.is_fixed_size.then(|| m.max_size.value())
        })
        .collect();
    let (write_body, read_body) = struct_wire_bodies(&fnames.idents, &field_sizes, &writes, &reads);
    let size_body = if s.metrics.is_fixed_size {
        usize_lit(s.metrics.max_size.value())
    } else {
        quote!(#(#sizes)+*)
    };
    let w = if s.fields.is_empty() {
        quote!(_w)
    } else {
        quote!(w)
    };
    let consts = size_consts(cx, &s.metrics);
    let imports = wire_imports(cx, !s.fields.is_empty());
    // `repr(C)`: fields in memory in schema order, which is wire order (and the original
    // C++ struct's layout). Rust's own reordering groups fields by alignment, so a decoded
    // `u32` and `f32` can land side by side in one 8-byte word; moving such a value into a
    // `Vec` then reads the word right after two 4-byte stores from different register
    // files, a store-forwarding stall per element (measured: `robot_state_218B` unpack
    // 58 -> 38.5 ns).
    quote! {
        #doc
        #derive
        #[derive(#rt::serde::Serialize, #rt::serde::Deserialize)]
        #[serde(crate = #serde_crate, default)]
        #[repr(C)]
        #camel_allow
        #attrs
        pub struct #ident {
            #(#fields,)*
        }

        impl #ident {
            #hashes
            #packed_const
        }

        #default_impl

        const _: () = {
            #imports
            impl #rt::wire::Wire for #ident {
                const TYPE_NAME: &'static str = #fqn;
                #consts
                #[inline]
                fn packed_size(&self) -> usize {
                    #size_body
                }
                #[inline]
                fn write_to(&self, #w: &mut #rt::wire::Writer<'_>) -> ::core::result::Result<(), #rt::wire::PackError> {
                    #write_body
                }
                #[inline]
                fn read_from(r: &mut #rt::wire::Reader<'_>) -> ::core::result::Result<Self, #rt::wire::UnpackError> {
                    Self::read_then(r, |_| ::core::result::Result::Ok(()))
                }
                #[inline]
                fn read_then<F>(r: &mut #rt::wire::Reader<'_>, end: F) -> ::core::result::Result<Self, #rt::wire::UnpackError>
                where
                    F: ::core::ops::FnOnce(&#rt::wire::Reader<'_>) -> ::core::result::Result<(), #rt::wire::UnpackError>,
                {
                    #read_body
                }
            }
        };
    }
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
    writes: &[TokenStream],
    reads: &[TokenStream],
) -> (TokenStream, TokenStream) {
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
    let fids: Vec<_> = idents.iter().map(|f| names::ident(f)).collect();
    let locals: Vec<_> = idents
        .iter()
        .map(|f| names::ident(&format!("f_{}", f.trim_start_matches("r#"))))
        .collect();
    let ok = quote!(::core::result::Result::Ok);
    let mut write_body = TokenStream::new();
    let mut read_body = TokenStream::new();
    for (start, end, bytes) in segments {
        let ws = &writes[start..end];
        let rs = &reads[start..end];
        let ls = &locals[start..end];
        match bytes {
            // The whole structure is one run: split once, at the top.
            Some(bytes) if start == 0 && end == idents.len() => {
                let n = usize_lit(bytes);
                write_body.extend(quote! {
                    let w = &mut w.split_off(#n)?;
                    #(#ws)*
                });
                read_body.extend(quote! {
                    let (#(#ls,)*) = {
                        let r = &mut r.split_off(#n)?;
                        (#(#rs,)*)
                    };
                });
            }
            Some(bytes) => {
                let n = usize_lit(bytes);
                write_body.extend(quote! {
                    {
                        let w = &mut w.split_off(#n)?;
                        #(#ws)*
                    }
                });
                read_body.extend(quote! {
                    let (#(#ls,)*) = {
                        let r = &mut r.split_off(#n)?;
                        (#(#rs,)*)
                    };
                });
            }
            None => {
                write_body.extend(quote!(#(#ws)*));
                read_body.extend(quote!(#(let #ls = #rs;)*));
            }
        }
    }
    (
        quote! { #write_body #ok(()) },
        quote! {
            #read_body
            end(r)?;
            #ok(Self { #(#fids: #locals,)* })
        },
    )
}

// ----- unions ------------------------------------------------------------------------------

fn union_items(
    cx: &Context<'_>,
    unit: usize,
    id: DeclId,
    d: &Decl,
    u: &Union,
    module: &[String],
) -> TokenStream {
    let rt = &cx.rt;
    let serde_crate = format!("{}::serde", cx.opts.runtime_path);
    let fqn = d.fqn();
    let p = cx.placement(unit, id);
    let ident = names::ident(&p.ident);
    let tag_ident = names::ident(p.tag_ident.as_deref().unwrap_or("Tag"));
    let doc = docs(d.docs.as_deref());
    let attrs = user_attrs(&cx.opts.type_attributes, |p| type_matches(p, &fqn));
    let mut scope = Scope::new();
    let vids: Vec<String> = u
        .members
        .iter()
        .map(|m| scope.assign(&m.name, Case::Camel))
        .collect();
    let (mut copy, mut eq) = (true, true);
    for m in &u.members {
        let (c, e) = traits(cx, unit, &m.ty);
        copy &= c;
        eq &= e;
    }
    let derive = derives(copy, eq, false);
    let camel_allow =
        camel_case_allow(std::iter::once(p.ident.as_str()).chain(vids.iter().map(String::as_str)));
    let tag_camel_allow = camel_case_allow(
        std::iter::once(p.tag_ident.as_deref().unwrap_or("Tag"))
            .chain(vids.iter().map(String::as_str)),
    );
    let tys: Vec<TokenStream> = u
        .members
        .iter()
        .map(|m| rust_type(cx, unit, module, &m.ty))
        .collect();

    let variants = u.members.iter().zip(&vids).zip(&tys).map(|((m, v), ty)| {
        let v = names::ident(v);
        let name = &m.name;
        let flattened = matches!(m.ty, Type::Struct(_));
        let serde = if flattened {
            quote!(#[serde(rename = #name)])
        } else {
            let w = serde_with(cx, &m.ty, true).expect("value helper");
            quote!(#[serde(rename = #name, with = #w)])
        };
        let mdoc = docs(m.docs.as_deref());
        let tagdoc = format!(" `{}`, tag {}.", m.name, m.tag);
        let sep = m.docs.is_some().then(|| quote!(#[doc = ""]));
        quote! {
            #[doc = #tagdoc]
            #sep
            #mdoc
            #serde
            #v(#ty)
        }
    });
    let tag_variants = u.members.iter().zip(&vids).map(|(m, v)| {
        let v = names::ident(v);
        let tag = Literal::u8_unsuffixed(m.tag);
        let doc = format!(" `{}`", m.name);
        quote!(#[doc = #doc] #v = #tag)
    });
    let count = usize_lit(u.members.len() as u128);
    let all_tags = vids.iter().map(|v| {
        let v = names::ident(v);
        quote!(Self::#v)
    });
    let tag_name_arms = u.members.iter().zip(&vids).map(|(m, v)| {
        let v = names::ident(v);
        let n = &m.name;
        quote!(Self::#v => #n)
    });
    let tag_from_name_arms = u.members.iter().zip(&vids).map(|(m, v)| {
        let v = names::ident(v);
        let n = &m.name;
        quote!(#n => ::core::option::Option::Some(Self::#v))
    });
    let tag_from_value_arms = u.members.iter().zip(&vids).map(|(m, v)| {
        let v = names::ident(v);
        let t = Literal::u8_unsuffixed(m.tag);
        quote!(#t => ::core::option::Option::Some(Self::#v))
    });
    let tag_of_arms = vids.iter().map(|v| {
        let v = names::ident(v);
        quote!(Self::#v(_) => #tag_ident::#v)
    });
    let hashes = hash_consts(d);
    let default_impl = vids.first().map(|v| {
        let v = names::ident(v);
        let zero = zero_value(&u.members[0].ty);
        quote! {
            impl ::core::default::Default for #ident {
                /// The first member, holding its default value.
                fn default() -> Self {
                    Self::#v(#zero)
                }
            }
        }
    });
    // `From<Payload>` where the payload type is unique in the union.
    let from_impls = (!u.dupes_allowed).then(|| {
        let keys: Vec<String> = tys.iter().map(|t| t.to_string()).collect();
        let impls = tys
            .iter()
            .zip(&vids)
            .enumerate()
            .filter_map(|(i, (ty, v))| {
                if keys.iter().filter(|k| **k == keys[i]).count() > 1 {
                    return None;
                }
                let v = names::ident(v);
                Some(quote! {
                    impl ::core::convert::From<#ty> for #ident {
                        fn from(value: #ty) -> Self {
                            Self::#v(value)
                        }
                    }
                })
            });
        quote!(#(#impls)*)
    });

    // Wire.
    let mut size_arms = Vec::new();
    let mut write_arms = Vec::new();
    let mut read_arms = Vec::new();
    for (m, v) in u.members.iter().zip(&vids) {
        let v = names::ident(v);
        let name = &m.name;
        let tag = Literal::u8_unsuffixed(m.tag);
        let (size, write, read) = wire_parts(cx, unit, module, &m.ty, &quote!(v), &quote!(v));
        size_arms.push(quote!(Self::#v(v) => #size));
        let m_metrics = cx.units[unit].type_metrics(&m.ty);
        // Structures and unions of variable size are written and read out of line, so the
        // union's own code stays small enough to inline (see `wire::write_outlined`).
        let outlined = matches!(m.ty, Type::Struct(_) | Type::Union(_)) && !m_metrics.is_fixed_size;
        let (write, read) = if outlined {
            (
                quote!(#rt::wire::write_outlined(v, w)),
                quote!(#rt::wire::read_outlined(r)),
            )
        } else {
            (write, read)
        };
        // A fixed-size member and its tag: one bounds check (see `struct_wire_bodies`).
        let split = (m_metrics.is_fixed_size && m_metrics.max_size.value() > 0).then(|| {
            let n = usize_lit(m_metrics.max_size.value().saturating_add(1));
            quote!(let w = &mut w.split_off(#n)?;)
        });
        write_arms.push(quote! {
            Self::#v(v) => {
                #split
                w.write_tag(#tag)?;
                #write.in_field(Self::TYPE_NAME, #name)
            }
        });
        read_arms.push(quote! {
            #tag => {
                let v = #read.in_field(Self::TYPE_NAME, #name)?;
                end(r)?;
                ::core::result::Result::Ok(Self::#v(v))
            }
        });
    }
    let unused_end = u.members.is_empty().then(|| quote!(let _ = end;));
    let size_body = if u.metrics.is_fixed_size {
        usize_lit(u.metrics.max_size.value())
    } else {
        quote!(1 + match self { #(#size_arms,)* })
    };
    let consts = size_consts(cx, &u.metrics);
    let imports = wire_imports(cx, !u.members.is_empty());
    let clad_union = (!u.members.is_empty()).then(|| {
        let default_arms = u.members.iter().zip(&vids).map(|(m, v)| {
            let v = names::ident(v);
            let zero = zero_value(&m.ty);
            quote!(#tag_ident::#v => Self::#v(#zero))
        });
        let struct_arms = u.members.iter().zip(&vids).map(|(m, v)| {
            let v = names::ident(v);
            let is_struct = matches!(m.ty, Type::Struct(_));
            quote!(#tag_ident::#v => #is_struct)
        });
        // Structure members deserialize straight from their structure's fields.
        let direct_arms: Vec<TokenStream> = u
            .members
            .iter()
            .zip(&vids)
            .filter(|(m, _)| matches!(m.ty, Type::Struct(_)))
            .map(|(_, v)| {
                let v = names::ident(v);
                quote!(#tag_ident::#v => #rt::union::struct_member(fields, Self::#v),)
            })
            .collect();
        let direct = (!direct_arms.is_empty()).then(|| {
            let rest = (direct_arms.len() < u.members.len())
                .then(|| quote!(_ => return ::core::option::Option::None,));
            quote! {
                fn deserialize_struct_member<'de, D>(
                    tag: #tag_ident,
                    fields: D,
                ) -> ::core::option::Option<::core::result::Result<Self, D::Error>>
                where
                    D: #rt::serde::Deserializer<'de>,
                {
                    ::core::option::Option::Some(match tag {
                        #(#direct_arms)*
                        #rest
                    })
                }
            }
        });
        quote! {
            impl #rt::union::CladUnion for #ident {
                type Tag = #tag_ident;
                const NAME: &'static str = #fqn;
                const TAGS: &'static [#tag_ident] = &#tag_ident::ALL;
                fn tag(&self) -> #tag_ident {
                    #ident::tag(self)
                }
                fn tag_name(tag: #tag_ident) -> &'static str {
                    tag.name()
                }
                fn tag_from_name(name: &str) -> ::core::option::Option<#tag_ident> {
                    #tag_ident::from_name(name)
                }
                fn tag_value(tag: #tag_ident) -> u8 {
                    tag as u8
                }
                fn default_for(tag: #tag_ident) -> Self {
                    match tag {
                        #(#default_arms,)*
                    }
                }
                fn payload_is_struct(tag: #tag_ident) -> bool {
                    match tag {
                        #(#struct_arms,)*
                    }
                }
                #direct
            }
        }
    });
    // An empty autounion is an enum without variants: `repr(u8)` is rejected on it, and a
    // `match` must be on the (uninhabited) value, not on a reference to it.
    let tag_repr = (!u.members.is_empty()).then(|| quote!(#[repr(u8)]));
    let (scrutinee, name_body, empty_allow) = if u.members.is_empty() {
        (
            quote!(*self),
            quote!(match *self {}),
            quote!(#[allow(unused_variables, clippy::match_single_binding)]),
        )
    } else {
        (quote!(self), quote!(self.tag().name()), TokenStream::new())
    };
    let tag_doc = format!(
        " The tags of [`{}`], with their wire values.",
        p.ident.trim_start_matches("r#")
    );
    let serde_attr = if u.members.is_empty() {
        quote!(#[serde(crate = #serde_crate)])
    } else {
        quote!(#[serde(crate = #serde_crate, tag = "type")])
    };
    quote! {
        #doc
        #derive
        #[derive(#rt::serde::Serialize, #rt::serde::Deserialize)]
        #serde_attr
        #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
        #camel_allow
        #attrs
        pub enum #ident {
            #(#variants,)*
        }

        #[doc = #tag_doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #tag_repr
        #[allow(clippy::enum_variant_names)]
        #tag_camel_allow
        pub enum #tag_ident {
            #(#tag_variants,)*
        }

        #empty_allow
        impl #tag_ident {
            /// Every tag, in member order.
            pub const ALL: [Self; #count] = [#(#all_tags),*];
            /// Number of members.
            pub const COUNT: usize = #count;

            /// The member's name as written in the schema.
            pub const fn name(self) -> &'static str {
                match self {
                    #(#tag_name_arms,)*
                }
            }

            /// The tag of the member with this schema name.
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                match name {
                    #(#tag_from_name_arms,)*
                    _ => ::core::option::Option::None,
                }
            }

            /// The tag byte on the wire.
            pub const fn value(self) -> u8 {
                self as u8
            }

            /// The tag with this wire value.
            pub const fn from_value(value: u8) -> ::core::option::Option<Self> {
                match value {
                    #(#tag_from_value_arms,)*
                    _ => ::core::option::Option::None,
                }
            }
        }

        impl #ident {
            #hashes

            /// Which member this value holds.
            pub const fn tag(&self) -> #tag_ident {
                match #scrutinee {
                    #(#tag_of_arms,)*
                }
            }

            /// The schema name of the member this value holds.
            pub const fn name(&self) -> &'static str {
                #name_body
            }
        }

        #default_impl
        #from_impls
        #clad_union

        const _: () = {
            #imports
            #empty_allow
            impl #rt::wire::Wire for #ident {
                const TYPE_NAME: &'static str = #fqn;
                #consts
                #[inline]
                fn packed_size(&self) -> usize {
                    #size_body
                }
                #[inline]
                fn write_to(&self, w: &mut #rt::wire::Writer<'_>) -> ::core::result::Result<(), #rt::wire::PackError> {
                    match #scrutinee {
                        #(#write_arms)*
                    }
                }
                #[inline]
                fn read_from(r: &mut #rt::wire::Reader<'_>) -> ::core::result::Result<Self, #rt::wire::UnpackError> {
                    Self::read_then(r, |_| ::core::result::Result::Ok(()))
                }
                #[inline]
                fn read_then<F>(r: &mut #rt::wire::Reader<'_>, end: F) -> ::core::result::Result<Self, #rt::wire::UnpackError>
                where
                    F: ::core::ops::FnOnce(&#rt::wire::Reader<'_>) -> ::core::result::Result<(), #rt::wire::UnpackError>,
                {
                    #unused_end
                    match r.read_tag(Self::TYPE_NAME)? {
                        #(#read_arms)*
                        tag => ::core::result::Result::Err(r.unknown_tag(Self::TYPE_NAME, tag)),
                    }
                }
            }
        };
    }
}
