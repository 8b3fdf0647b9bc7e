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
    // `u32` and `f32` could share one 8-byte word; moving such a value into a `Vec` would
    // then read that word while its two halves are still being stored, which the CPU cannot
    // forward and waits for. Wire order keeps each decoded field in its own slot (the
    // measurement is in BENCHMARKS.md, under the wire figures' `#[repr(C)]` note).
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
    // Runs of strings are read with one UTF-8 validation (`wire::read_str_run`) and
    // written with one space check (`wire::write_str_run`).
    let runs = string_runs(cx, &s.fields);
    let read_runs: Vec<RunCode> = runs
        .iter()
        .map(|run| {
            let members: Vec<String> = run
                .fields
                .clone()
                .map(|i| format!("&self.{}", fids[i]))
                .collect();
            let strings = format!("[{}]", comma(&members));
            RunCode {
                fields: run.fields.clone(),
                read: format!(
                    "{}?",
                    run.call(
                        &format!("{rt}::wire::read_string_run"),
                        "Self::TYPE_NAME",
                        None
                    )
                ),
                write: Some(format!(
                    "{}?;",
                    run.call_with(
                        &format!("{rt}::wire::write_str_run"),
                        "w",
                        "Self::TYPE_NAME",
                        Some(&strings),
                    )
                )),
            }
        })
        .collect();
    let (write_body, read_body) =
        struct_wire_bodies(fids, &field_sizes, &writes, &reads, &read_runs);
    // `read_into` reads member by member in place, in the same runs as `write_to` (whose
    // body has the same shape: one statement per member).
    let into_runs: Vec<RunCode> = runs
        .iter()
        .map(|run| {
            let places: Vec<String> = run
                .fields
                .clone()
                .map(|i| format!("&mut self.{}", fids[i]))
                .collect();
            let strings = format!("[{}]", comma(&places));
            RunCode {
                fields: run.fields.clone(),
                read: String::new(),
                write: Some(format!(
                    "{}?;",
                    run.call(
                        &format!("{rt}::wire::read_string_run_into"),
                        "Self::TYPE_NAME",
                        Some(&strings),
                    )
                )),
            }
        })
        .collect();
    let (into_body, _) = struct_wire_bodies(fids, &field_sizes, &intos, &reads, &into_runs);
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
    // (Not needed when every member is handled by a helper that names it itself, as a
    // structure of strings only is.)
    if [&write_body, &read_body, &into_body]
        .iter()
        .any(|b| b.contains(".in_field("))
    {
        wire_imports(c, cx);
    }
    wire_impl_open(c, rt, ident, d, &s.metrics, &size_body);
    c.lines(&write_head);
    c.lines(&write_body);
    c.line("}");
    // `read_then` through `read_then_wrap`, which assembles the value inside what `wrap`
    // makes of it (a union's member in the union being returned).
    c.lines(&read_heads);
    c.line("Self::read_then_wrap(r, end, |v| v)");
    c.line("}");
    emit!(
        c,
        "
        #[inline]
        fn read_then_wrap<U, F, W>(
            r: &mut {rt}::wire::Reader<'_>,
            end: F,
            wrap: W,
        ) -> ::core::result::Result<U, {rt}::wire::UnpackError>
        where
            F: ::core::ops::FnOnce(
                &{rt}::wire::Reader<'_>,
            ) -> ::core::result::Result<(), {rt}::wire::UnpackError>,
            W: ::core::ops::FnOnce(Self) -> U,
        {{"
    );
    let assemble = "::core::result::Result::Ok(Self {";
    let at = read_body
        .rfind(assemble)
        .expect("the value is assembled last");
    c.lines(&format!(
        "{}::core::result::Result::Ok(wrap(Self {{{})",
        &read_body[..at],
        &read_body[at + assemble.len()..]
    ));
    c.line("}");
    if !s.fields.is_empty() {
        c.lines(&read_into_head(rt));
        c.lines(&into_body);
        c.line("}");
    }
    c.lines("}\n};");
}

/// Two or more consecutive `string` members with the same length type (the members
/// `fields`), read together by `wire::read_str_run` and its owned and in-place variants.
pub(in crate::rust) struct StringRun {
    /// The members of the run.
    pub fields: std::ops::Range<usize>,
    /// Their length type (`u8`, ...).
    len_ty: &'static str,
    /// The `fields` argument: `&[("name", max), ...]`.
    names: String,
}

impl StringRun {
    /// `helper::<L, N>(r, type_name, &[("name", max), ...][, strings])`.
    pub fn call(&self, helper: &str, type_name: &str, strings: Option<&str>) -> String {
        self.call_with(helper, "r", type_name, strings)
    }

    /// [`StringRun::call`] on the reader or writer `on`.
    pub fn call_with(
        &self,
        helper: &str,
        on: &str,
        type_name: &str,
        strings: Option<&str>,
    ) -> String {
        let head = format!("{helper}::<{}, {}>", self.len_ty, self.fields.len());
        let mut args = vec![on, type_name, self.names.as_str()];
        args.extend(strings);
        call(&head, &args)
    }
}

/// The runs of two or more consecutive `string` members with the same length type.
pub(in crate::rust) fn string_runs(cx: &Context<'_>, fields: &[Field]) -> Vec<StringRun> {
    let string_len = |f: &Field| match f.ty {
        Type::String { length, .. } => Some(length),
        _ => None,
    };
    let mut runs = Vec::new();
    let mut i = 0;
    while i < fields.len() {
        let Some(length) = string_len(&fields[i]) else {
            i += 1;
            continue;
        };
        let mut end = i + 1;
        while end < fields.len() && string_len(&fields[end]) == Some(length) {
            end += 1;
        }
        if end - i >= 2 {
            let names: Vec<String> = fields[i..end]
                .iter()
                .map(|f| match f.ty {
                    Type::String {
                        max, max_declared, ..
                    } => format!("({}, {})", str_lit(&f.name), max_tok(cx, max, max_declared)),
                    _ => unreachable!("a run holds strings only"),
                })
                .collect();
            let names = if names.iter().map(|n| n.len() + 2).sum::<usize>() <= 64 {
                format!("&[{}]", comma(&names))
            } else {
                let mut list = String::from("&[\n");
                for n in &names {
                    list.push_str(n);
                    list.push_str(",\n");
                }
                list.push(']');
                list
            };
            runs.push(StringRun {
                fields: i..end,
                len_ty: len_ty(length),
                names,
            });
        }
        i = end;
    }
    runs
}

/// The code of one [`StringRun`] in [`struct_wire_bodies`]: `read` is the expression of
/// the run's members as an array (with its `?`), `write` a statement that replaces the
/// members' own write statements (`None`: keep them).
pub(in crate::rust) struct RunCode {
    pub fields: std::ops::Range<usize>,
    pub read: String,
    pub write: Option<String>,
}

/// The bodies of a structure's `write_to` and `read_then` from its members' write
/// statements and read expressions (each with its `in_field`).
///
/// Consecutive fixed-size members form runs. A run of two or more members (of at least one
/// byte) goes through one `split_off` of its total size: one bounds check for the run, and
/// a writer/reader of constant length, so the compiler drops the members' own checks after
/// inlining. The members of a `string_runs` run are read (and, with `write`, written)
/// by one statement of their own. Members are read into `f_<field>` locals (a run as a
/// tuple or an array), then `end` runs, then the value is assembled in place (see
/// `Wire::read_then`).
pub(in crate::rust) fn struct_wire_bodies(
    idents: &[String],
    sizes: &[Option<u128>],
    writes: &[String],
    reads: &[String],
    runs: &[RunCode],
) -> (String, String) {
    /// Members `start..end`: a run of fixed-size members of `bytes` bytes, one member
    /// (`None`), or the string run `run`.
    enum Segment<'r> {
        Members(usize, usize, Option<u128>),
        Strings(&'r RunCode),
    }
    let mut segments: Vec<Segment<'_>> = Vec::new();
    let mut i = 0;
    while i < sizes.len() {
        if let Some(run) = runs.iter().find(|run| run.fields.start == i) {
            segments.push(Segment::Strings(run));
            i = run.fields.end.max(i + 1);
            continue;
        }
        let mut end = i;
        let mut bytes = 0u128;
        while let Some(Some(n)) = sizes.get(end) {
            bytes = bytes.saturating_add(*n);
            end += 1;
        }
        if end - i >= 2 && bytes > 0 {
            segments.push(Segment::Members(i, end, Some(bytes)));
            i = end;
        } else {
            segments.push(Segment::Members(i, i + 1, None));
            i += 1;
        }
    }
    let locals: Vec<String> = idents
        .iter()
        .map(|f| format!("f_{}", f.trim_start_matches("r#")))
        .collect();
    let mut write_body = String::new();
    let mut read_body = String::new();
    for segment in segments {
        let (start, end, bytes) = match segment {
            Segment::Members(start, end, bytes) => (start, end, bytes),
            Segment::Strings(run) => {
                let members = run.fields.clone();
                match &run.write {
                    Some(write) => write_body.push_str(write),
                    None => write_body.push_str(&writes[members.clone()].join("\n")),
                }
                write_body.push('\n');
                let ls = &locals[members];
                if ls.iter().map(|l| l.len() + 2).sum::<usize>() <= 48 {
                    read_body.push_str(&format!("let [{}] = {};\n", comma(ls), run.read));
                } else {
                    read_body.push_str("let [\n");
                    for l in ls {
                        read_body.push_str(&format!("{l},\n"));
                    }
                    read_body.push_str(&format!("] = {};\n", run.read));
                }
                continue;
            }
        };
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
