//! Unions: the Rust `enum` of members, its tag enum, `CladUnion` and its `Wire` impl
//! (members of variable size out of line, read in place by `read_into`).

use super::*;

pub(super) fn union_items(
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
        clad_union_impl(c, cx, unit, module, u, &vids, ident, tag_ident, &fqn_lit);
    }

    // Wire.
    let mut size_arms = Vec::new();
    let mut write_arms = String::new();
    let mut read_arms = String::new();
    let mut into_arms = String::new();
    for (m, v) in u.members.iter().zip(&vids) {
        let name = str_lit(&m.name);
        let tag = m.tag;
        let (size, write, read, into) = wire_parts(cx, unit, module, &m.ty, "v", "v");
        size_arms.push(format!("Self::{v}(v) => {size},"));
        let m_metrics = cx.units[unit].type_metrics(&m.ty);
        // Structures and unions of variable size are written and read out of line, so the
        // union's own code stays small enough to inline (see `wire::write_outlined`).
        let outlined = matches!(m.ty, Type::Struct(_) | Type::Union(_)) && !m_metrics.is_fixed_size;
        let (write, read, into) = if outlined {
            (
                format!("{rt}::wire::write_outlined(v, w)"),
                format!("{rt}::wire::read_outlined(r)"),
                format!("{rt}::wire::read_outlined_into(v, r)"),
            )
        } else {
            (write, read, into)
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
        // A fixed-size structure of more than 16 bytes is decoded in place too, inline.
        let in_place = matches!(m.ty, Type::Struct(_))
            && m_metrics.is_fixed_size
            && m_metrics.max_size.value() > 16;
        if outlined || in_place {
            // Decoded where the union is returned (see `wire::read_member_then`).
            let helper = if outlined {
                "read_outlined_then"
            } else {
                "read_member_then"
            };
            let call = call(
                &format!("{rt}::wire::{helper}"),
                &["r", "end", &format!("Self::{v}"), "Self::TYPE_NAME", &name],
            );
            read_arms.push_str(&format!("{tag} => {call},\n"));
        } else {
            read_arms.push_str(&format!(
                "{tag} => {{\nlet v = {};\nend(r)?;\n::core::result::Result::Ok(Self::{v}(v))\n}}\n",
                chain(&read, &format!("{in_field}?"))
            ));
        }
        // Read into the member in place when the union already holds it (a union of one
        // member always does).
        if u.members.len() == 1 {
            into_arms.push_str(&format!(
                "{tag} => {{\nlet Self::{v}(v) = self;\n{}\n}}\n",
                chain(&into, &in_field),
            ));
            continue;
        }
        into_arms.push_str(&format!(
            "{tag} => {{\nif let Self::{v}(v) = self {{\n{}\n}} else {{\nlet v = {};\n*self = Self::{v}(v);\n::core::result::Result::Ok(())\n}}\n}}\n",
            chain(&into, &in_field),
            chain(&read, &format!("{in_field}?")),
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
    wire_impl_open(c, rt, ident, d, &u.metrics, &size_body);
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
        }",
    );
    if !empty {
        c.lines(&read_into_head(rt));
        c.line("match r.read_tag(Self::TYPE_NAME)? {");
        c.lines(&into_arms);
        c.lines(
            "
                tag => ::core::result::Result::Err(r.unknown_tag(Self::TYPE_NAME, tag)),
            }
            }",
        );
    }
    c.lines("}\n};");
}

/// The `clad_runtime::union::CladUnion` impl (what the CLAD-JSON union code uses).
#[allow(clippy::too_many_arguments)]
fn clad_union_impl(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
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
        struct_member_from_text(c, cx, unit, module, u, vids, tag_ident);
    }
    c.line("}");
}

/// `CladUnion::struct_member_from_text`: one builder per payload structure serde reads as
/// derived (no user attribute naming serde on the structure or its fields), nested in the
/// method, and an arm per member whose payload it builds.
fn struct_member_from_text(
    c: &mut Code,
    cx: &Context<'_>,
    unit: usize,
    module: &[String],
    u: &Union,
    vids: &[String],
    tag_ident: &str,
) {
    let rt = &cx.rt;
    // The payload structures, each once, in member order; `None` for a member left to serde.
    let mut builders: Vec<DeclId> = Vec::new();
    let mut arms: Vec<(String, usize)> = Vec::new();
    for (m, v) in u.members.iter().zip(vids) {
        let Type::Struct(id) = m.ty else { continue };
        let d = cx.units[unit].decl(id);
        let DeclKind::Struct(s) = &d.kind else {
            continue;
        };
        // A user attribute that names serde (`#[serde(alias = ...)]`, ...) may change how
        // the derived `Deserialize` reads the structure: such a member is left to serde.
        let fqn = d.fqn();
        let serde_attribute = |(path, attribute): &(String, String), field: Option<&str>| {
            attribute.contains("serde")
                && match field {
                    None => type_matches(path, &fqn),
                    Some(f) => *path == format!("{fqn}.{f}") || *path == fqn,
                }
        };
        let left_to_serde = cx
            .opts
            .type_attributes
            .iter()
            .any(|a| serde_attribute(a, None))
            || s.fields.iter().any(|f| {
                cx.opts
                    .field_attributes
                    .iter()
                    .any(|a| serde_attribute(a, Some(&f.name)))
            });
        if left_to_serde {
            continue;
        }
        let index = match builders.iter().position(|b| *b == id) {
            Some(i) => i,
            None => {
                builders.push(id);
                builders.len() - 1
            }
        };
        arms.push((v.clone(), index));
    }
    if arms.is_empty() {
        return;
    }
    emit!(
        c,
        "
        fn struct_member_from_text<'f, 't, I, E>(
            tag: {tag_ident},
            fields: I,
        ) -> ::core::option::Option<::core::result::Result<Self, E>>
        where
            I: ::core::iter::IntoIterator<Item = (&'f str, ::std::borrow::Cow<'t, str>)>,
            E: {rt}::serde::de::Error,
        {{"
    );
    for (i, id) in builders.iter().enumerate() {
        let d = cx.units[unit].decl(*id);
        let DeclKind::Struct(s) = &d.kind else {
            unreachable!("only structures are kept")
        };
        let ty = rust_type(cx, unit, module, &Type::Struct(*id));
        let fids = &cx.names_of(&d.fqn()).fields;
        c.doc(&format!(
            "`{}` from its fields' texts, as its derived `Deserialize` reads them.",
            d.fqn()
        ));
        emit!(
            c,
            "
            fn payload_{i}<'f, 't, I, E>(fields: I) -> ::core::result::Result<{ty}, E>
            where
                I: ::core::iter::IntoIterator<Item = (&'f str, ::std::borrow::Cow<'t, str>)>,
                E: {rt}::serde::de::Error,
            {{"
        );
        if s.fields.is_empty() {
            // Every name is unknown, and serde ignores unknown names.
            emit!(
                c,
                "
                let _ = fields;
                ::core::result::Result::Ok(<{ty} as ::core::default::Default>::default())
                }}"
            );
            continue;
        }
        emit!(
            c,
            "
            let mut payload = <{ty} as ::core::default::Default>::default();
            let mut seen = [false; {}];
            for (field, text) in fields {{",
            s.fields.len()
        );
        // One field: an `if` (a `match` of one arm and `_` is clippy's `single_match`).
        let single = s.fields.len() == 1;
        if !single {
            c.line("match field {");
        }
        for (k, (f, fid)) in s.fields.iter().zip(fids).enumerate() {
            let name = str_lit(&f.name);
            // A string field takes the text; any other is deserialized from it, as serde's
            // derived code does (through the field's `with` helper when it has one).
            let set = match (serde_with(cx, &f.ty, false), &f.ty) {
                (None, Type::String { .. }) => format!("payload.{fid} = text.into_owned();"),
                (with, other) => {
                    let read = match with {
                        Some(w) => format!("{w}::deserialize"),
                        None => format!(
                            "<{} as {rt}::serde::Deserialize>::deserialize",
                            rust_type(cx, unit, module, other)
                        ),
                    };
                    format!(
                        "let text = {rt}::serde::de::value::CowStrDeserializer::<E>::new(text);\n\
                         payload.{fid} = {read}(text)?;"
                    )
                }
            };
            let pattern = if single {
                format!("if field == {name}")
            } else {
                format!("{name} =>")
            };
            emit!(
                c,
                "
                {pattern} {{
                    if ::core::mem::replace(&mut seen[{k}], true) {{
                        return ::core::result::Result::Err(E::duplicate_field({name}));
                    }}
                    {set}
                }}"
            );
        }
        if !single {
            c.lines("_ => {}\n}");
        }
        c.lines("}\n::core::result::Result::Ok(payload)\n}");
    }
    c.line("::core::option::Option::Some(match tag {");
    for (v, i) in &arms {
        c.lines(&arm(
            &format!("{tag_ident}::{v}"),
            &format!("payload_{i}(fields).map(Self::{v})"),
        ));
    }
    if arms.len() < u.members.len() {
        c.line("_ => return ::core::option::Option::None,");
    }
    c.lines("})\n}");
}
