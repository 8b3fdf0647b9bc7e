//! Version hashes (spec §3.12), byte for byte.
//!
//! Both hashes are MD5 digests of a serialisation of the syntax tree in the original's
//! Python class names: `Class <label>: key=value, ...` for each node, children appended with
//! no separator. Per-declaration hashes are computed before ambiguity marking and show
//! `hash_str=None` for the declaration being hashed; the file hash serialises the whole tree
//! afterwards, include blocks and `::` ambiguity prefixes included.

use crate::ir::*;
use md5::{Digest, Md5};
use std::fmt::Write;

/// Which of the two serialisations is being produced.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Per-declaration: no ambiguity prefixes.
    Declaration,
    /// File level: after post-processing.
    File,
}

pub(crate) struct Serializer<'a> {
    pub decls: &'a [Decl],
    pub mode: Mode,
    out: String,
}

/// MD5 hex digest of `s`.
pub(crate) fn md5_hex(s: &str) -> String {
    let digest = Md5::digest(s.as_bytes());
    let mut out = String::with_capacity(32);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Python 3 `repr(float)`.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddddeX`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let decpt = exp + 1; // value = 0.DIGITS * 10^decpt
    let sign = if x < 0.0 { "-" } else { "" };
    let n = digits.len() as i32;
    if (-4..16).contains(&exp) {
        if decpt <= 0 {
            format!("{sign}0.{}{digits}", "0".repeat((-decpt) as usize))
        } else if decpt >= n {
            format!("{sign}{digits}{}.0", "0".repeat((decpt - n) as usize))
        } else {
            let (a, b) = digits.split_at(decpt as usize);
            format!("{sign}{a}.{b}")
        }
    } else {
        let (a, b) = digits.split_at(1);
        let frac = if b.is_empty() {
            String::new()
        } else {
            format!(".{b}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{a}{frac}e{esign}{:02}", exp.abs())
    }
}

fn py_opt(v: Option<i128>) -> String {
    v.map_or_else(|| "None".to_owned(), |v| v.to_string())
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

impl<'a> Serializer<'a> {
    pub fn new(decls: &'a [Decl], mode: Mode) -> Self {
        Serializer {
            decls,
            mode,
            out: String::new(),
        }
    }

    pub fn finish(self) -> String {
        self.out
    }

    fn node(&mut self, class: &str, label: Option<&str>, attrs: &[(&str, String)]) {
        self.out.push_str(class);
        if let Some(l) = label {
            self.out.push_str(" <");
            self.out.push_str(l);
            self.out.push('>');
        }
        self.out.push_str(": ");
        for (i, (k, v)) in attrs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(k);
            self.out.push('=');
            self.out.push_str(v);
        }
    }

    fn fqn(&self, d: &Decl) -> String {
        if self.mode == Mode::File && d.possibly_ambiguous {
            format!("::{}", d.fqn())
        } else {
            d.fqn()
        }
    }

    fn hash_attr(d: &Decl) -> String {
        d.hash.clone().unwrap_or_else(|| "None".to_owned())
    }

    /// The root `DeclList`.
    pub fn root(&mut self, items: &[Item]) {
        self.decl_list(items, None);
    }

    fn decl_list(&mut self, items: &[Item], label: Option<&str>) {
        self.node("DeclList", label, &[]);
        for (i, item) in items.iter().enumerate() {
            let label = format!("decl[{i}]");
            self.item(item, Some(&label));
        }
    }

    pub fn item(&mut self, item: &Item, label: Option<&str>) {
        match item {
            Item::Decl(id) => self.decl(*id, label),
            Item::Namespace(ns) => self.namespace(ns, label),
            Item::Include(inc) => {
                self.node("IncludeDecl", label, &[("name", inc.path.clone())]);
                if !inc.items.is_empty() {
                    self.decl_list(&inc.items, Some("members"));
                }
            }
        }
    }

    pub fn namespace(&mut self, ns: &NamespaceBlock, label: Option<&str>) {
        self.node(
            "NamespaceDecl",
            label,
            &[
                ("name", ns.name.clone()),
                ("fully_qualified_name", ns.path.join("::")),
            ],
        );
        self.decl_list(&ns.items, Some("members"));
    }

    pub fn decl(&mut self, id: DeclId, label: Option<&str>) {
        let d = &self.decls[id.0 as usize];
        match &d.kind {
            DeclKind::Enum(e) => {
                self.node(
                    "EnumDecl",
                    label,
                    &[
                        ("name", d.name.clone()),
                        ("fully_qualified_name", self.fqn(d)),
                        ("storage_type", e.storage.name().to_owned()),
                        ("hash_str", Self::hash_attr(d)),
                    ],
                );
                self.node("EnumMemberList", Some("member_list"), &[]);
                for (i, m) in e.members.iter().enumerate() {
                    self.node(
                        "EnumMember",
                        Some(&format!("member[{i}]")),
                        &[("name", m.name.clone())],
                    );
                    if let Some(init) = &m.initializer {
                        self.literal(init, "initializer");
                    }
                }
            }
            DeclKind::Struct(s) => {
                self.node(
                    "MessageDecl",
                    label,
                    &[
                        ("name", d.name.clone()),
                        ("fully_qualified_name", self.fqn(d)),
                        ("hash_str", Self::hash_attr(d)),
                    ],
                );
                self.node(
                    "MessageMemberDeclList",
                    Some("members"),
                    &[("length", s.fields.len().to_string())],
                );
                for (i, f) in s.fields.iter().enumerate() {
                    let init = f.default.as_ref().map(|c| &c.literal);
                    self.member(i, &f.name, &f.ty, init);
                }
            }
            DeclKind::Union(u) => {
                self.node(
                    "UnionDecl",
                    label,
                    &[
                        ("name", d.name.clone()),
                        ("fully_qualified_name", self.fqn(d)),
                        ("alignment", u.metrics.alignment.to_string()),
                        ("hash_str", Self::hash_attr(d)),
                    ],
                );
                self.node(
                    "MessageMemberDeclList",
                    Some("member_list"),
                    &[("length", u.members.len().to_string())],
                );
                for (i, m) in u.members.iter().enumerate() {
                    self.member(i, &m.name, &m.ty, m.explicit_tag.as_ref());
                }
            }
            DeclKind::EnumConcept(c) => {
                let ret = self.type_name(&c.return_type);
                self.node(
                    "EnumConceptDecl",
                    label,
                    &[
                        ("name", d.name.clone()),
                        ("fully_qualified_name", self.fqn(d)),
                        ("return_type_as_string", ret),
                        ("enum", c.enum_name_written.clone()),
                        ("hash_str", Self::hash_attr(d)),
                    ],
                );
                self.node("EnumConceptMemberList", Some("member_list"), &[]);
                for (i, m) in c.members.iter().enumerate() {
                    self.node(
                        "EnumConceptMember",
                        Some(&format!("member[{i}]")),
                        &[("name", m.name.clone())],
                    );
                    self.literal(&m.value.literal, "value");
                }
            }
        }
    }

    fn member(&mut self, i: usize, name: &str, ty: &Type, init: Option<&Literal>) {
        let tn = self.type_name(ty);
        self.node(
            "MessageMemberDecl",
            Some(&format!("member[{i}]")),
            &[("name", name.to_owned()), ("type", tn)],
        );
        self.type_node(ty, "type");
        if let Some(init) = init {
            self.literal(init, "init");
        }
    }

    fn type_name(&self, ty: &Type) -> String {
        type_name(self.decls, ty)
    }

    fn builtin(&mut self, b: Builtin, label: &str) {
        let kind = if b.is_float() { "float" } else { "int" };
        self.node(
            "BuiltinType",
            Some(label),
            &[
                ("name", b.name().to_owned()),
                ("size", b.size().to_string()),
                ("type", kind.to_owned()),
                ("unsigned", py_bool(b.is_unsigned()).to_owned()),
                ("min", py_opt(b.min())),
                ("max", py_opt(b.max())),
            ],
        );
    }

    fn type_node(&mut self, ty: &Type, label: &str) {
        match ty {
            Type::Builtin(b) => self.builtin(*b, label),
            Type::Enum(id) => {
                let name = self.decls[id.0 as usize].name.clone();
                self.node("DefinedType", Some(label), &[("name", name)]);
            }
            Type::Struct(id) | Type::Union(id) => {
                let name = self.decls[id.0 as usize].name.clone();
                self.node("CompoundType", Some(label), &[("name", name)]);
            }
            Type::String { length, .. } => {
                self.node(
                    "PascalStringType",
                    Some(label),
                    &[("length_type", length.name().to_owned())],
                );
                self.builtin(Builtin::Uint8, "member_type");
                self.builtin(*length, "length_type");
            }
            Type::VarArray { elem, length, .. } => {
                self.node(
                    "VariableArrayType",
                    Some(label),
                    &[("length_type", length.name().to_owned())],
                );
                self.type_node(elem, "member_type");
                self.builtin(*length, "length_type");
            }
            Type::FixedArray { elem, len } => {
                let length = match len {
                    FixedLen::Literal(n) => n.to_string(),
                    FixedLen::Verbatim { text, .. } => text.clone(),
                };
                self.node("FixedArrayType", Some(label), &[("length", length)]);
                self.type_node(elem, "member_type");
            }
        }
    }

    fn literal(&mut self, lit: &Literal, label: &str) {
        match lit {
            Literal::Int { value, hex } => self.node(
                "IntConst",
                Some(label),
                &[
                    ("value", value.to_string()),
                    ("type", if *hex { "hex" } else { "dec" }.to_owned()),
                ],
            ),
            Literal::Float(f) => self.node(
                "FloatConst",
                Some(label),
                &[("value", py_float_repr(*f)), ("type", "dec".to_owned())],
            ),
            Literal::Verbatim(s) => self.node(
                "StringConst",
                Some(label),
                &[("value", s.clone()), ("type", "str".to_owned())],
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::py_float_repr;

    #[test]
    fn python_float_repr() {
        for (x, s) in [
            (0.5, "0.5"),
            (12.0, "12.0"),
            (-2.0, "-2.0"),
            (0.42, "0.42"),
            (10.0101, "10.0101"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (123456.789, "123456.789"),
            (1.5e-7, "1.5e-07"),
            (-0.0, "-0.0"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ] {
            assert_eq!(py_float_repr(x), s, "{x:?}");
        }
    }
}
