//! Declarations: enums, structures, messages and unions with members of every kind, each
//! written into its file and recorded for later references.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::*;

impl Gen {
    pub(super) fn add_type(
        &mut self,
        f: &Src,
        name: &str,
        kind: Kind,
        members: Vec<String>,
    ) -> usize {
        self.types.push(TypeInfo {
            name: name.to_owned(),
            ns: f.ns.clone(),
            kind,
            file: f.idx,
            members,
        });
        self.types.len() - 1
    }

    pub(super) fn visible(&self, f: &Src) -> Vis {
        let mut v = Vis::default();
        for (i, t) in self.types.iter().enumerate() {
            if t.file == f.idx || f.closure.contains(&t.file) {
                match t.kind {
                    Kind::Enum => v.enums.push(i),
                    Kind::Structure => v.structures.push(i),
                    Kind::Message => v.messages.push(i),
                    Kind::Union => v.unions.push(i),
                }
            }
        }
        v
    }

    /// How `f` writes the name of type `t`: short when its namespace encloses the use site,
    /// else qualified relative to the common ancestor or fully qualified.
    pub(super) fn type_ref(&mut self, f: &Src, t: usize) -> String {
        let roll = self.rng.below(100);
        let ty = &self.types[t];
        let common = ty.ns.iter().zip(&f.ns).take_while(|(a, b)| a == b).count();
        let full = format!("{}::{}", ty.ns.join("::"), ty.name);
        if common == ty.ns.len() {
            if roll < 85 {
                ty.name.clone()
            } else {
                full
            }
        } else if roll < 60 {
            format!("{}::{}", ty.ns[common..].join("::"), ty.name)
        } else {
            full
        }
    }

    pub(super) fn scalar(&mut self, ty: &str, name: &str, with_default: bool) -> String {
        if !with_default {
            return format!("{ty} {name}");
        }
        let value = match ty {
            "float_32" | "float_64" => (*self.rng.pick(FLOAT_DEFAULTS)).to_owned(),
            "bool" => self.rng.range(0, 1).to_string(),
            "uint_8" | "uint_16" | "uint_32" | "uint_64" => self.rng.range(0, 200).to_string(),
            _ => self.rng.range(-100, 100).to_string(),
        };
        format!("{ty} {name} = {value}")
    }

    /// One message/structure member (without the trailing comma).
    pub(super) fn field(&mut self, f: &Src, vis: &Vis, used: &mut HashSet<String>) -> String {
        let name = self.field_name(used);
        let roll = self.rng.below(100);
        let compound: Vec<usize> = if !vis.structures.is_empty() && self.rng.chance(80) {
            vis.structures.clone()
        } else {
            vis.messages.clone()
        };
        match roll {
            0..=51 => {
                let ty = *self.rng.pick(BUILTINS_WEIGHTED);
                let d = self.rng.chance(30);
                self.scalar(ty, &name, d)
            }
            52..=63 => {
                if !self.once.long_string && f.idx > 60 {
                    self.once.long_string = true;
                    format!("string[uint_32] {name}")
                } else if self.rng.chance(20) {
                    format!("string[uint_16] {name}")
                } else {
                    format!("string {name}")
                }
            }
            64..=73 if !vis.enums.is_empty() => {
                let t = *self.rng.pick(&vis.enums);
                format!("{} {name}", self.type_ref(f, t))
            }
            74..=80 if !compound.is_empty() => {
                let t = *self.rng.pick(&compound);
                format!("{} {name}", self.type_ref(f, t))
            }
            81..=87 => {
                let elem = match self.rng.below(8) {
                    0..=2 if !compound.is_empty() => {
                        let t = *self.rng.pick(&compound);
                        self.type_ref(f, t)
                    }
                    3 if !vis.enums.is_empty() => {
                        let t = *self.rng.pick(&vis.enums);
                        self.type_ref(f, t)
                    }
                    4 => "string".to_owned(),
                    5 => "float_32".to_owned(),
                    6 => (*self.rng.pick(&["int_16", "uint_16", "uint_32"])).to_owned(),
                    _ => "uint_8".to_owned(),
                };
                let len = if self.rng.chance(60) {
                    "uint_8"
                } else {
                    "uint_16"
                };
                if !self.once.capped_array && len == "uint_16" && f.idx > 40 {
                    self.once.capped_array = true;
                    format!("{elem} {name}[{len}:1024]")
                } else {
                    format!("{elem} {name}[{len}]")
                }
            }
            88..=95 => {
                let elem = match self.rng.below(9) {
                    0 if !vis.structures.is_empty() => {
                        let t = *self.rng.pick(&vis.structures);
                        self.type_ref(f, t)
                    }
                    1 | 2 => "float_32".to_owned(),
                    3 => "uint_16".to_owned(),
                    4 | 5 => "uint_32".to_owned(),
                    6 => "int_32".to_owned(),
                    7 => "int_16".to_owned(),
                    _ => "uint_8".to_owned(),
                };
                let n = self.rng.range(2, 16);
                if self.rng.chance(15) {
                    format!("{elem} {name}[0x{n:x}]")
                } else {
                    format!("{elem} {name}[{n}]")
                }
            }
            96..=99 if !vis.unions.is_empty() => {
                let t = *self.rng.pick(&vis.unions);
                format!("{} {name}", self.type_ref(f, t))
            }
            _ => format!("{} {name}", self.rng.pick(BUILTINS_WEIGHTED)),
        }
    }

    /// A `message` or `structure` with `n` members.
    pub(super) fn record(
        &mut self,
        f: &mut Src,
        kind: Kind,
        name: &str,
        n: usize,
        no_default_constructor: bool,
    ) -> usize {
        let kw = if kind == Kind::Message {
            "message"
        } else {
            "structure"
        };
        self.doc(f, name, kw);
        let vis = self.visible(f);
        let mut used = HashSet::new();
        let fields: Vec<String> = (0..n).map(|_| self.field(f, &vis, &mut used)).collect();
        let ndc = if no_default_constructor {
            "no_default_constructor "
        } else {
            ""
        };
        if fields.is_empty() {
            let _ = writeln!(f.out, "{ndc}{kw} {name} {{\n}}\n");
        } else {
            let _ = writeln!(f.out, "{ndc}{kw} {name} {{");
            let trailing = self.rng.chance(30);
            for (i, m) in fields.iter().enumerate() {
                let comma = if i + 1 < fields.len() || trailing {
                    ","
                } else {
                    ""
                };
                if self.rng.chance(10) {
                    let decl = m.split(" = ").next().unwrap_or(m);
                    let w = decl.rsplit(' ').next().unwrap_or(decl);
                    let w = w.split('[').next().unwrap_or(w);
                    let _ = writeln!(f.out, "  /// The {}.", words(w));
                }
                if self.rng.chance(12) {
                    let note = *self.rng.pick(MEMBER_NOTES);
                    let _ = writeln!(f.out, "  {m}{comma} {note}");
                } else {
                    let _ = writeln!(f.out, "  {m}{comma}");
                }
            }
            let _ = writeln!(f.out, "}}\n");
        }
        self.stats.fields += n;
        if kind == Kind::Message {
            self.stats.messages += 1;
        } else {
            self.stats.structures += 1;
        }
        self.add_type(f, name, kind, Vec::new())
    }

    pub(super) fn message_members(&mut self) -> usize {
        if self.rng.chance(15) {
            0
        } else {
            self.rng.range(1, 6) as usize
        }
    }

    /// An enum with `n` members; returns the type index.
    pub(super) fn enum_decl(
        &mut self,
        f: &mut Src,
        name: &str,
        storage: &str,
        style: EnumStyle,
        names: Vec<String>,
        no_cpp_class: bool,
    ) -> usize {
        self.doc(f, name, "enum");
        let ncc = if no_cpp_class { "no_cpp_class " } else { "" };
        let _ = writeln!(f.out, "enum {ncc}{storage} {name} {{");
        let n = names.len();
        let trailing = self.rng.chance(40);
        let mut next: i64 = 0;
        for (i, m) in names.iter().enumerate() {
            check_ident(m);
            let init = match style {
                EnumStyle::Plain => None,
                EnumStyle::Decimal => {
                    if i == 0 && self.rng.chance(50) {
                        next = self.rng.range(1, 10);
                        Some(next.to_string())
                    } else if self.rng.chance(25) {
                        next += self.rng.range(1, 5);
                        Some(next.to_string())
                    } else {
                        None
                    }
                }
                EnumStyle::Hex => {
                    if i == 0 || self.rng.chance(20) {
                        next = (next / 16 + 1) * 16 + self.rng.range(0, 3);
                        Some(format!("0x{next:x}"))
                    } else {
                        None
                    }
                }
                EnumStyle::Flags => {
                    next = 1 << i;
                    Some(format!("0x{next:x}"))
                }
                EnumStyle::Negative => {
                    if i == 0 {
                        next = -1;
                        Some("-1".to_owned())
                    } else if i + 1 == n && n > 3 && self.rng.chance(50) {
                        next = -self.rng.range(10, 100);
                        Some(next.to_string())
                    } else {
                        None
                    }
                }
            };
            let comma = if i + 1 < n || trailing { "," } else { "" };
            match init {
                Some(v) => {
                    let _ = writeln!(f.out, "  {m} = {v}{comma}");
                }
                None => {
                    let _ = writeln!(f.out, "  {m}{comma}");
                }
            }
            next += 1;
        }
        let _ = writeln!(f.out, "}}\n");
        self.stats.enums += 1;
        self.stats.enum_members += n;
        self.add_type(f, name, Kind::Enum, names)
    }

    pub(super) fn random_enum(&mut self, f: &mut Src, prefix: &str) -> usize {
        let (storage, style) = match self.rng.below(100) {
            0..=62 => (
                "uint_8",
                if self.rng.chance(35) {
                    EnumStyle::Decimal
                } else {
                    EnumStyle::Plain
                },
            ),
            63..=77 => (
                "uint_32",
                *self
                    .rng
                    .pick(&[EnumStyle::Flags, EnumStyle::Hex, EnumStyle::Plain]),
            ),
            78..=87 => ("int_32", EnumStyle::Negative),
            88..=91 => ("int_8", EnumStyle::Negative),
            92..=95 => ("int_16", EnumStyle::Negative),
            _ => ("uint_16", EnumStyle::Hex),
        };
        let n = if self.rng.chance(10) {
            self.rng.range(18, 30)
        } else {
            self.rng.range(2, 12)
        } as usize;
        let n = if matches!(style, EnumStyle::Flags) {
            n.min(12)
        } else {
            n
        };
        let mut names = self.enum_member_names(n);
        if self.rng.chance(20) {
            names.push("Count".to_owned());
        }
        let name = self.compound(prefix, ENUM_NOUNS, 10);
        let no_cpp_class = self.rng.chance(4);
        self.enum_decl(f, &name, storage, style, names, no_cpp_class)
    }

    /// `enum_concept bool Name[Enum] { ... }` over enum type `e` (every member, no trailing
    /// comma).
    pub(super) fn bool_concept(&mut self, f: &mut Src, e: usize) {
        let ename = self.types[e].name.clone();
        let members = self.types[e].members.clone();
        let adj = *self
            .rng
            .pick(&["Safe", "Interruptible", "Visible", "Enabled", "Terminal"]);
        let _ = writeln!(
            f.out,
            "/// True for the {} values that are {}.",
            words(&ename),
            adj.to_lowercase()
        );
        let _ = writeln!(f.out, "enum_concept bool Is{ename}{adj}[{ename}] {{");
        for (i, m) in members.iter().enumerate() {
            let v = self.rng.range(0, 1);
            let comma = if i + 1 < members.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {m} = {v}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.stats.enum_concepts += 1;
    }

    /// Ascending union tags from `start` with some gaps; `Some` = written explicitly.
    pub(super) fn tags(&mut self, n: usize, start: i64, explicit_pct: u64) -> Vec<Option<i64>> {
        let mut out = Vec::with_capacity(n);
        let mut t = start;
        for i in 0..n {
            if i == 0 {
                out.push(Some(t));
                continue;
            }
            let remaining = (n - i) as i64;
            if t + 8 + remaining < 250 && self.rng.chance(15) {
                t += 1 + self.rng.range(1, 6);
                out.push(Some(t));
            } else {
                t += 1;
                out.push(if self.rng.chance(explicit_pct) {
                    Some(t)
                } else {
                    None
                });
            }
        }
        out
    }

    /// A union; `members` are (type text, member name, tag).
    pub(super) fn union_decl(
        &mut self,
        f: &mut Src,
        kw: &str,
        dupes_allowed: bool,
        name: &str,
        members: &[(String, String, Option<i64>)],
    ) -> usize {
        self.doc(f, name, kw);
        let da = if dupes_allowed { "dupes_allowed " } else { "" };
        let _ = writeln!(f.out, "{kw} {da}{name} {{");
        for (i, (ty, m, tag)) in members.iter().enumerate() {
            check_ident(m);
            let comma = if i + 1 < members.len() { "," } else { "" };
            match tag {
                Some(t) => {
                    let _ = writeln!(f.out, "  {ty} {m} = 0x{t:02x}{comma}");
                }
                None => {
                    let _ = writeln!(f.out, "  {ty} {m}{comma}");
                }
            }
        }
        let _ = writeln!(f.out, "}}\n");
        if kw == "autounion" {
            self.stats.autounions += 1;
        } else {
            self.stats.unions += 1;
        }
        self.stats.union_members += members.len();
        self.add_type(f, name, Kind::Union, Vec::new())
    }

    /// Union members for message types `ts` named after the types, with generated tags.
    pub(super) fn union_members_for(
        &mut self,
        f: &Src,
        ts: &[usize],
        start: i64,
        explicit_pct: u64,
    ) -> Vec<(String, String, Option<i64>)> {
        let tags = self.tags(ts.len(), start, explicit_pct);
        ts.iter()
            .zip(tags)
            .map(|(&t, tag)| {
                let ty = self.type_ref(f, t);
                (ty, lower_first(&self.types[t].name), tag)
            })
            .collect()
    }

    /// `n` messages named `<topic>[<qualifier>]<noun>`.
    pub(super) fn messages(
        &mut self,
        f: &mut Src,
        topic: &str,
        nouns: &[&str],
        n: usize,
    ) -> Vec<usize> {
        (0..n)
            .map(|_| {
                let name = self.compound(topic, nouns, 70);
                let k = self.message_members();
                self.record(f, Kind::Message, &name, k, false)
            })
            .collect()
    }

    pub(super) fn pick_files(&mut self, from: &[usize], lo: i64, hi: i64) -> Vec<usize> {
        let k = (self.rng.range(lo, hi) as usize).min(from.len());
        let mut v = self.rng.sample(from, k);
        v.sort_unstable();
        v
    }
}
