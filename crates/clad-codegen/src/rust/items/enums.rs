//! Enums: the Rust `enum`, its constants, name and value conversions, enum-concept
//! methods and its `Wire` impl.

use super::*;
use std::collections::HashMap;

/// Variants of an enum: one per distinct value; later members with a value already taken
/// become aliases. Built in one pass over the members (a hash map from value to variant),
/// so an enum with many members costs linear time.
struct EnumShape {
    /// `(member index, ident)` of each variant.
    variants: Vec<(usize, String)>,
    /// `(member index, alias ident, variant position)`.
    aliases: Vec<(usize, String, usize)>,
    /// For every member, the position of the variant it is or aliases.
    variant_of: Vec<usize>,
    /// For every variant position, its aliases' member indices.
    aliases_of: Vec<Vec<usize>>,
}

/// `idents`: the naming table's identifier of every member.
fn enum_shape(e: &Enum, idents: &[String]) -> EnumShape {
    let mut variants: Vec<(usize, String)> = Vec::new();
    let mut aliases = Vec::new();
    let mut variant_of = Vec::with_capacity(e.members.len());
    let mut aliases_of: Vec<Vec<usize>> = Vec::new();
    let mut by_value: HashMap<i128, usize> = HashMap::with_capacity(e.members.len());
    for ((i, m), ident) in e.members.iter().enumerate().zip(idents) {
        let ident = ident.clone();
        match by_value.get(&m.value) {
            Some(&pos) => {
                aliases.push((i, ident, pos));
                aliases_of[pos].push(i);
                variant_of.push(pos);
            }
            None => {
                by_value.insert(m.value, variants.len());
                variant_of.push(variants.len());
                variants.push((i, ident));
                aliases_of.push(Vec::new());
            }
        }
    }
    EnumShape {
        variants,
        aliases,
        variant_of,
        aliases_of,
    }
}

pub(super) fn enum_items(
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
        let aliases: Vec<String> = shape.aliases_of[pos]
            .iter()
            .map(|j| format!(", alias = {}", str_lit(&e.members[*j].name)))
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
    for (m, &pos) in e.members.iter().zip(&shape.variant_of) {
        let target = &shape.variants[pos].1;
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
            const MIN_SIZE: usize = {size};"#
    );
    wire_schema_hash(c, d);
    emit!(
        c,
        r#"
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
        // The concept's value of each member, by member index.
        let mut by_member: Vec<Option<&ConceptMember>> = vec![None; shape.variant_of.len()];
        for m in &concept.members {
            if let Some(slot) = by_member.get_mut(m.enum_member) {
                *slot = Some(m);
            }
        }
        for (i, v) in &shape.variants {
            let Some(m) = by_member.get(*i).copied().flatten() else {
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

pub(super) fn enum_variant_path(
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
    id: DeclId,
    value: i128,
) -> String {
    let DeclKind::Enum(e) = &cx.units[unit].decl(id).kind else {
        return "::core::default::Default::default()".to_owned();
    };
    // The first member with the value is the variant (later ones are its aliases).
    let variants = &cx.placement(unit, id).variants;
    match e.members.iter().position(|m| m.value == value) {
        Some(i) => format!("{}::{}", cx.type_path(module, unit, id), variants[i]),
        None => "::core::default::Default::default()".to_owned(),
    }
}
