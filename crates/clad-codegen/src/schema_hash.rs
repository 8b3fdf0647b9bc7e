//! The schema hash: one hash over a type and every type it refers to.
//!
//! The original compiler's per-declaration version hash (§3.12, `crate::hash`) covers a
//! declaration's own text only: a structure that holds another structure hashes that member
//! as `CompoundType: name=Inner`, so a change *inside* `Inner` leaves it unchanged. A
//! transport that promises to refuse a peer built from another schema instead of decoding
//! garbage needs more: this hash covers the whole closure of types a value of the type can
//! contain. Both the generated code (`SCHEMA_HASH`) and the schema-driven codec
//! ([`crate::dynamic`], `cladz`) take it from [`crate::ir::Decl::schema_hash`], computed here
//! once per compilation.
//!
//! # The canonical form (version 1)
//!
//! This is a contract between processes: two programs built from schemas whose types have
//! the same canonical form exchange values safely, whatever compiler version, file layout,
//! comments or Rust names they have. It is stable: a change of this text is a new version
//! (a new first line), never a silent edit (a test pins its hashes).
//!
//! The schema hash of an enum, message, structure or union `T` is the MD5 digest of the
//! ASCII text
//!
//! ```text
//! clad-schema-hash 1\n
//! <the block of T>
//! ```
//!
//! Every line ends with `\n`; names are CLAD identifiers (no spaces); integers are decimal
//! with a leading `-` when negative. The block of a declaration is:
//!
//! | declaration | first line | then one line per member |
//! |---|---|---|
//! | `enum` | `enum <storage>` (`enum uint_8`) | `<name> <value>`, in declaration order, with the value the compiler assigned |
//! | `message` / `structure` | `struct` | `<name> <type>`, in declaration (wire) order |
//! | `union` / `autounion` | `union` | `<tag> <name> <type>`, by ascending tag |
//!
//! and a `<type>` is written:
//!
//! | type | form | example |
//! |---|---|---|
//! | builtin | its keyword | `float_32`, `bool` |
//! | string | `string[<length type>:<max bytes>]` | `string[uint_8:255]` |
//! | variable array | `<element>[<length type>:<max count>]` | `int_16[uint_8:4]` |
//! | fixed array | `<element>[<count>]` | `uint_8[16]` |
//! | enum, structure, union | `<enum\|struct\|union>:<schema hash of it, 32 hex digits>` | `struct:5f0e...` |
//!
//! The maximum of a string or variable array is the declared one, else the largest count its
//! length type can hold (so `string` and `string[uint_8:255]` are the same type); a fixed
//! array's count is the evaluated number (however it was written).
//!
//! So the hash covers member names and order, member types, union tags, enum storage types
//! and values, string and array limits, and, through the hashes of the types referred to,
//! every nested declaration. It leaves out what cannot change what a value's bytes or its
//! CLAD-JSON mean: the names of the type and of the types it refers to (the receiver checks
//! the top-level name separately), namespaces, files and includes, comments, default values,
//! `message` versus `structure`, `autounion` versus `union` (only the resulting members
//! count), `dupes_allowed`, `no_default_constructor`, `no_cpp_class`, the order in which
//! union members are written (their tags count), and how literals were spelled (`0x10` and
//! `16`, `verbatim` array lengths).
//!
//! MD5 is used as the original compiler uses it: to detect drift, not to authenticate.

use crate::ir::{Decl, DeclId, DeclKind, Schema, Type};
use md5::{Digest, Md5};
use std::fmt::Write;

/// The first line of every canonical form (the form's name and version).
pub const HEADER: &str = "clad-schema-hash 1\n";

/// Computes the schema hash of every enum, message, structure and union of `decls`
/// (`None` for enum concepts, and for a declaration caught in a cycle, which a valid schema
/// never has). References may point forward (autounions collect later messages), so the
/// declarations are visited depth first, with an explicit stack: no recursion, whatever the
/// nesting.
pub(crate) fn compute(decls: &[Decl]) -> Vec<Option<[u8; 16]>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let refs: Vec<Vec<usize>> = decls.iter().map(referenced).collect();
    let mut hashes: Vec<Option<[u8; 16]>> = vec![None; decls.len()];
    let mut state = vec![State::New; decls.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..decls.len() {
        if state[root] != State::New || matches!(decls[root].kind, DeclKind::EnumConcept(_)) {
            continue;
        }
        state[root] = State::Open;
        stack.push((root, 0));
        while let Some((top, next)) = stack.last_mut() {
            let top = *top;
            if let Some(&r) = refs[top].get(*next) {
                *next += 1;
                if state[r] == State::New {
                    state[r] = State::Open;
                    stack.push((r, 0));
                }
                // `Open`: a cycle, left without a hash (reported by the metrics pass).
                continue;
            }
            stack.pop();
            state[top] = State::Done;
            hashes[top] = block(decls, top, &hashes).map(|text| digest(&text));
        }
    }
    hashes
}

/// The canonical form of a declaration of a compiled schema: the text its schema hash is
/// the MD5 of (for `cladc describe --canonical`, and for anyone reimplementing the hash).
/// `None` for enum concepts.
pub fn canonical_form(schema: &Schema, id: DeclId) -> Option<String> {
    let hashes: Vec<Option<[u8; 16]>> = schema
        .decls
        .iter()
        .map(|d| d.schema_hash.as_deref().and_then(parse_hex))
        .collect();
    block(&schema.decls, id.0 as usize, &hashes)
}

fn parse_hex(s: &str) -> Option<[u8; 16]> {
    let mut out = [0u8; 16];
    if s.len() != 32 {
        return None;
    }
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn digest(text: &str) -> [u8; 16] {
    Md5::digest(text.as_bytes()).into()
}

/// Lower-case hex of a hash.
pub(crate) fn hex(hash: &[u8; 16]) -> String {
    let mut s = String::with_capacity(32);
    for b in hash {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The declarations a declaration's members refer to, each once.
fn referenced(d: &Decl) -> Vec<usize> {
    fn walk(ty: &Type, out: &mut Vec<usize>) {
        match ty {
            Type::Enum(id) | Type::Struct(id) | Type::Union(id) => out.push(id.0 as usize),
            Type::VarArray { elem, .. } | Type::FixedArray { elem, .. } => walk(elem, out),
            Type::Builtin(_) | Type::String { .. } => {}
        }
    }
    let mut out = Vec::new();
    match &d.kind {
        DeclKind::Struct(s) => s.fields.iter().for_each(|f| walk(&f.ty, &mut out)),
        DeclKind::Union(u) => u.members.iter().for_each(|m| walk(&m.ty, &mut out)),
        DeclKind::Enum(_) | DeclKind::EnumConcept(_) => {}
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn block(decls: &[Decl], id: usize, hashes: &[Option<[u8; 16]>]) -> Option<String> {
    let mut out = String::from(HEADER);
    match &decls[id].kind {
        DeclKind::Enum(e) => {
            out.push_str("enum ");
            out.push_str(e.storage.name());
            out.push('\n');
            for m in &e.members {
                let _ = writeln!(out, "{} {}", m.name, m.value);
            }
        }
        DeclKind::Struct(s) => {
            out.push_str("struct\n");
            for f in &s.fields {
                out.push_str(&f.name);
                out.push(' ');
                type_form(hashes, &f.ty, &mut out)?;
                out.push('\n');
            }
        }
        DeclKind::Union(u) => {
            out.push_str("union\n");
            let mut members: Vec<_> = u.members.iter().collect();
            members.sort_by_key(|m| m.tag);
            for m in members {
                let _ = write!(out, "{} {} ", m.tag, m.name);
                type_form(hashes, &m.ty, &mut out)?;
                out.push('\n');
            }
        }
        DeclKind::EnumConcept(_) => return None,
    }
    Some(out)
}

fn type_form(hashes: &[Option<[u8; 16]>], ty: &Type, out: &mut String) -> Option<()> {
    match ty {
        Type::Builtin(b) => out.push_str(b.name()),
        Type::String { length, max, .. } => {
            let _ = write!(out, "string[{}:{max}]", length.name());
        }
        Type::VarArray {
            elem, length, max, ..
        } => {
            type_form(hashes, elem, out)?;
            let _ = write!(out, "[{}:{max}]", length.name());
        }
        Type::FixedArray { elem, len } => {
            type_form(hashes, elem, out)?;
            let _ = write!(out, "[{}]", len.value());
        }
        Type::Enum(id) | Type::Struct(id) | Type::Union(id) => {
            let kind = match ty {
                Type::Enum(_) => "enum",
                Type::Struct(_) => "struct",
                _ => "union",
            };
            let hash = hashes.get(id.0 as usize).copied().flatten()?;
            out.push_str(kind);
            out.push(':');
            out.push_str(&hex(&hash));
        }
    }
    Some(())
}
