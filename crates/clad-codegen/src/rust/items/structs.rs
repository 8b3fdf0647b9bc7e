//! Messages and structures: the `#[repr(C)]` struct, its constants, `Default` when it is
//! not derived, and its `Wire` impl (runs of fixed-size members, `read_then`, `read_into`).

use super::*;

pub(super) fn struct_items(
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
    let mut intos = Vec::new();
    for (f, fid) in s.fields.iter().zip(fids) {
        let name = str_lit(&f.name);
        let (size, write, read, into) = wire_parts(
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
        intos.push(format!("{};", chain(&into, &in_field)));
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
    // `read_into` reads member by member in place, in the same runs as `write_to` (whose
    // body has the same shape: one statement per member).
    let (into_body, _) = struct_wire_bodies(fids, &field_sizes, &intos, &reads);
    let into_body = into_body.replace("let w = &mut w.split_off(", "let r = &mut r.split_off(");
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
    wire_impl_open(
        c,
        rt,
        ident,
        &str_lit(&fqn),
        &s.metrics,
        d.hash.is_some(),
        &size_body,
    );
    c.lines(&write_head);
    c.lines(&write_body);
    c.line("}");
    c.lines(&read_heads);
    c.lines(&read_body);
    c.line("}");
    if !s.fields.is_empty() {
        c.lines(&read_into_head(rt));
        c.lines(&into_body);
        c.line("}");
    }
    c.lines("}\n};");
}

/// The bodies of a structure's `write_to` and `read_then` from its members' write
/// statements and read expressions (each with its `in_field`).
///
/// Consecutive fixed-size members form runs. A run of two or more members (of at least one
/// byte) goes through one `split_off` of its total size: one bounds check for the run, and
/// a writer/reader of constant length, so the compiler drops the members' own checks after
/// inlining. Members are read into `f_<field>` locals (a run as a tuple), then `end` runs,
/// then the value is assembled in place (see `Wire::read_then`).
pub(in crate::rust) fn struct_wire_bodies(
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
