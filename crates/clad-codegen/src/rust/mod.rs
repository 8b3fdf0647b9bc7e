//! The Rust emitter: [`Schema`]s to Rust source. The only module of the compiler that knows
//! Rust.
//!
//! Several compiled files can be emitted together; each contributes the declarations it owns
//! (not those it includes), and CLAD namespaces are merged into one tree of nested `pub mod`s.
//! References between types are relative paths (`super::...`), so the generated file can be
//! `include!`d in any module. Support code lives in the runtime crate (`clad_runtime` by
//! default): `wire` for packing and `json` plus a re-exported `serde` for CLAD-JSON.

pub mod code;
mod doc_text;
mod items;
pub mod names;
mod naming;
mod views;

use crate::diagnostics::Diagnostic;
use crate::ir::{Decl, DeclId, DeclKind, Schema, Type};
use code::{str_lit, Code};
use naming::{NameTable, TypeNames};
use proc_macro2::TokenStream;
use std::collections::HashMap;

/// Options of the Rust emitter.
#[derive(Clone, Debug)]
pub struct RustOptions {
    /// Path of the runtime crate as seen from the generated code (default `::clad_runtime`):
    /// the wire format, CLAD-JSON and union support every generated type uses.
    pub runtime_path: String,
    /// Extra attributes on generated types: `(CLAD path, attribute)`. The path is `.` (every
    /// type), a namespace (`Anki::Vector`, every type inside) or a fully qualified type name.
    pub type_attributes: Vec<(String, String)>,
    /// Extra attributes on generated fields: `(CLAD path, attribute)` with the path
    /// `Ns::Type.field` (or `Ns::Type` for every field of the type).
    pub field_attributes: Vec<(String, String)>,
    /// Types that also get a borrowed view (`<Name>View<'a>`, decoded without copying
    /// strings and byte arrays): CLAD paths as for `type_attributes` (`.`, a namespace or a
    /// type). Only types that hold strings or `uint_8` variable arrays get one, and every
    /// such type they contain gets one too.
    pub views: Vec<String>,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            runtime_path: "::clad_runtime".to_owned(),
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            views: Vec::new(),
        }
    }
}

/// Everything the item emitters need to know about the whole output.
pub(crate) struct Context<'a> {
    pub units: &'a [Schema],
    pub opts: &'a RustOptions,
    /// The runtime crate's path, as written in the generated code (`::clad_runtime`).
    pub rt: String,
    /// Every Rust name of the output, decided before any item is written.
    pub names: NameTable,
    /// Enum concepts grouped by the enum they belong to (fqn of the enum).
    pub concepts: HashMap<String, Vec<(usize, DeclId)>>,
    /// Every emitted declaration (concepts included), in output order.
    pub owners: Vec<(usize, DeclId)>,
}

impl Context<'_> {
    /// The names of a type referenced from `unit`.
    pub fn placement(&self, unit: usize, id: DeclId) -> &TypeNames {
        self.names_of(&self.units[unit].decl(id).fqn())
    }

    /// The names of the emitted type `fqn`.
    pub fn names_of(&self, fqn: &str) -> &TypeNames {
        self.names
            .get(fqn)
            .expect("every referenced type is placed (checked in context)")
    }

    /// A relative path from module `from` to the type `id` of `unit`.
    pub fn type_path(&self, from: &[String], unit: usize, id: DeclId) -> String {
        let p = self.placement(unit, id);
        relative_path(from, &p.module, &p.ident)
    }
}

/// The runtime crate's path as the generated code spells it, after checking that
/// `opts.runtime_path` is a Rust path.
pub(crate) fn runtime_path(opts: &RustOptions) -> Result<String, Vec<Diagnostic>> {
    checked_path("runtime path", &opts.runtime_path)
}

/// `path` as the generated code spells it (whitespace removed), after checking that it is a
/// Rust path; `what` names it in the error ("runtime path"). Extensions check the paths of
/// their own runtime crates with it.
pub fn checked_path(what: &str, path: &str) -> Result<String, Vec<Diagnostic>> {
    match syn::parse_str::<syn::Path>(path) {
        // A path holds no meaningful whitespace.
        Ok(_) => Ok(path.chars().filter(|c| !c.is_whitespace()).collect()),
        Err(e) => Err(vec![Diagnostic::error_global(format!(
            "invalid {what} `{path}`: {e}"
        ))]),
    }
}

/// `super::super::a::b::Name` from module `from` to `to::name`.
fn relative_path(from: &[String], to: &[String], name: &str) -> String {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    let mut path = String::new();
    for _ in common..from.len() {
        path.push_str("super::");
    }
    for m in &to[common..] {
        path.push_str(m);
        path.push_str("::");
    }
    path.push_str(name);
    path
}

/// A module being assembled: its items as text (already indented for the module's depth)
/// and its child modules.
#[derive(Default)]
struct ModuleTree {
    items: Vec<String>,
    children: Vec<(String, ModuleTree)>,
}

impl ModuleTree {
    fn child(&mut self, path: &[String]) -> &mut ModuleTree {
        let Some((first, rest)) = path.split_first() else {
            return self;
        };
        let idx = match self.children.iter().position(|(n, _)| n == first) {
            Some(i) => i,
            None => {
                self.children.push((first.clone(), ModuleTree::default()));
                self.children.len() - 1
            }
        };
        self.children[idx].1.child(rest)
    }

    /// Appends the module's items, then its child modules, `depth` levels deep. Items are
    /// separated by blank lines.
    fn render(&self, out: &mut String, depth: usize) {
        let indent = code::indent(depth);
        let mut first = true;
        for item in &self.items {
            if !first {
                out.push('\n');
            }
            first = false;
            out.push_str(item);
        }
        for (name, tree) in &self.children {
            if !first {
                out.push('\n');
            }
            first = false;
            out.push_str(&format!(
                "{indent}#[allow(clippy::module_inception)]\n{indent}pub mod {name} {{\n"
            ));
            tree.render(out, depth + 1);
            out.push_str(&format!("{indent}}}\n"));
        }
    }
}

/// The Rust output of one build, planned once: which unit owns each type, and every Rust
/// name (the naming table of `naming.rs`). Everything emitted for the build, the types, their
/// list ([`Emitter::types`]) and the items of build extensions (which read the table through
/// [`Emitter::names`]), reads the same plan, so they cannot disagree about a name.
pub struct Emitter<'a> {
    cx: Context<'a>,
}

impl<'a> Emitter<'a> {
    /// Plans the output for the declarations owned by each of `units` (one compiled file
    /// each). Fails with diagnostics when the units cannot be emitted together (a type
    /// declared by two different files, a reference to a type no unit owns, a bad attribute
    /// or runtime path).
    pub fn new(units: &'a [Schema], opts: &'a RustOptions) -> Result<Self, Vec<Diagnostic>> {
        Ok(Emitter {
            cx: context(units, opts)?,
        })
    }

    /// The generated items as formatted text (no header).
    pub fn code(&self) -> String {
        emit(&self.cx)
    }

    /// The generated file: the `@generated` header, the sources, then [`Emitter::code`].
    pub fn file(&self) -> String {
        // Input names (relative to the include directories), so the header is the same on
        // every machine.
        let mut sources: Vec<String> = self.cx.units.iter().map(|u| u.input.clone()).collect();
        sources.dedup();
        let mut out = String::from(HEADER);
        out.push_str(&format!("// Sources: {}\n\n", sources.join(", ")));
        out.push_str(&self.code());
        out
    }

    /// [`Emitter::code`] as tokens (what `include_clad!` expands to).
    pub fn tokens(&self) -> Result<TokenStream, Vec<Diagnostic>> {
        lex(&self.code(), "generated code")
    }

    /// Every type the output holds: CLAD name, Rust path relative to the generated file's
    /// module, kind and declaring file, in output order.
    pub fn types(&self) -> Vec<GeneratedType> {
        let cx = &self.cx;
        cx.owners
            .iter()
            .filter_map(|&(u, id)| {
                let d = cx.units[u].decl(id);
                if matches!(d.kind, DeclKind::EnumConcept(_)) {
                    return None;
                }
                let p = cx.names.get(&d.fqn())?;
                let in_module = |ident: &str| {
                    let mut path: Vec<&str> = p.module.iter().map(String::as_str).collect();
                    path.push(ident);
                    path.join("::")
                };
                Some(GeneratedType {
                    clad_name: d.fqn(),
                    rust_path: in_module(&p.ident),
                    view_path: p.view_ident.as_deref().map(in_module),
                    kind: d.kind_name(),
                    file: cx.units[u]
                        .sources
                        .get(cx.units[u].main_file())
                        .name
                        .clone(),
                })
            })
            .collect()
    }

    /// The options the output is generated with.
    pub fn options(&self) -> &RustOptions {
        self.cx.opts
    }

    /// The naming table, read-only: what build extensions name generated items by.
    pub fn names(&self) -> Names<'_> {
        Names { cx: &self.cx }
    }
}

/// The naming table of one build, as build extensions see it (from [`Emitter::names`]):
/// the Rust paths of generated items, exactly as the generated code spells them. Paths are
/// relative to the root of the generated file (`self::shapes::Shape`), where
/// extension items are placed.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    cx: &'a Context<'a>,
}

impl std::fmt::Debug for Names<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Names")
            .field("types", &self.cx.names.type_count())
            .finish()
    }
}

impl<'a> Names<'a> {
    /// The runtime crate's path as the generated code spells it (`::clad_runtime`).
    pub fn runtime_path(&self) -> &'a str {
        &self.cx.rt
    }

    /// The path of the generated type `fqn` (a fully qualified CLAD name) from the root of
    /// the generated file: `self::shapes::Shape`. None when the build does not
    /// emit it.
    pub fn type_path(&self, fqn: &str) -> Option<String> {
        let names = self.cx.names.get(fqn.trim_start_matches("::"))?;
        Some(root_path(&names.module, &names.ident))
    }

    /// The tag enum of the emitted union `fqn`: its path from the root of the generated file
    /// (`self::shapes::ShapeTag`) and `(member name, variant)` per member, in
    /// member order. None when the build emits no union `fqn`.
    pub fn union_tag(&self, fqn: &str) -> Option<UnionTag<'a>> {
        let fqn = fqn.trim_start_matches("::");
        let names = self.cx.names.get(fqn)?;
        let tag_ident = names.tag_ident.as_deref()?;
        let (u, id) = *self
            .cx
            .owners
            .iter()
            .find(|&&(u, id)| self.cx.units[u].decl(id).fqn() == fqn)?;
        let DeclKind::Union(union) = &self.cx.units[u].decl(id).kind else {
            return None;
        };
        let variants = union
            .members
            .iter()
            .map(|m| m.name.as_str())
            .zip(names.variants.iter().map(String::as_str))
            .collect();
        Some(UnionTag {
            path: root_path(&names.module, tag_ident),
            variants,
        })
    }

    /// What the generated file already defines at its root under the identifier `ident`
    /// (a type, its tag enum or view, a module, a file-hash constant), described for a
    /// message; None when the name is free.
    pub fn root_item(&self, ident: &str) -> Option<String> {
        self.cx.names.root_item(ident)
    }
}

/// `self::a::b::name`.
fn root_path(module: &[String], name: &str) -> String {
    let mut path = String::from("self::");
    for m in module {
        path.push_str(m);
        path.push_str("::");
    }
    path.push_str(name);
    path
}

/// A union's tag enum as the generated code names it (see [`Names::union_tag`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnionTag<'a> {
    /// `self::shapes::ShapeTag`.
    pub path: String,
    /// `(member name, variant identifier)`, in member order.
    pub variants: Vec<(&'a str, &'a str)>,
}

impl<'a> UnionTag<'a> {
    /// The variant identifier of the member `member` (its schema name).
    pub fn variant(&self, member: &str) -> Option<&'a str> {
        self.variants
            .iter()
            .find(|(m, _)| *m == member)
            .map(|(_, v)| *v)
    }
}

/// A generated type: its CLAD name and where it is in the generated code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedType {
    /// Fully qualified CLAD name (`Cat::MyMessage`).
    pub clad_name: String,
    /// Path relative to the generated file's module (`cat::MyMessage`).
    pub rust_path: String,
    /// Path of its borrowed view (`cat::MyMessageView`), when the build generates one
    /// ([`crate::Builder::view`]).
    pub view_path: Option<String>,
    /// `enum`, `message`, `structure` or `union`.
    pub kind: &'static str,
    /// The schema file that declares it.
    pub file: String,
}

/// `code` as tokens; `what` names it in the (internal) error.
pub(crate) fn lex(code: &str, what: &str) -> Result<TokenStream, Vec<Diagnostic>> {
    code.parse().map_err(|e| {
        vec![Diagnostic::error_global(format!(
            "internal error: the {what} does not lex: {e}"
        ))]
    })
}

/// Generates Rust for the declarations owned by each of `units` (one compiled file each).
/// Returns the tokens, or diagnostics when the units cannot be emitted together (see
/// [`Emitter::new`]).
pub fn generate_tokens(
    units: &[Schema],
    opts: &RustOptions,
) -> Result<TokenStream, Vec<Diagnostic>> {
    Emitter::new(units, opts)?.tokens()
}

fn context<'a>(units: &'a [Schema], opts: &'a RustOptions) -> Result<Context<'a>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let rt = runtime_path(opts)?;

    // 1. Which unit owns each fully qualified name.
    let mut owners: Vec<(usize, DeclId)> = Vec::new();
    let mut owner_of: HashMap<String, (usize, DeclId)> = HashMap::new();
    for (u, schema) in units.iter().enumerate() {
        for (id, decl) in schema.own_decls() {
            if matches!(decl.kind, DeclKind::EnumConcept(_)) {
                owners.push((u, id));
                continue;
            }
            let fqn = decl.fqn();
            match owner_of.get(&fqn) {
                Some(&(other, oid)) => {
                    let a = units[other].decl(oid);
                    let file_a = &units[other].sources.get(a.span.file).name;
                    let file_b = &schema.sources.get(decl.span.file).name;
                    if file_a != file_b {
                        errors.push(
                            Diagnostic::error_global(format!(
                                "type `{fqn}` is declared by both {file_a} and {file_b}"
                            ))
                            .with_note("types from several files are emitted into one module tree, so fully qualified names must be unique; compile the files separately"),
                        );
                    }
                }
                None => {
                    owner_of.insert(fqn, (u, id));
                    owners.push((u, id));
                }
            }
        }
    }

    // 2. Every Rust name (see `naming.rs` for the order, which decides clash suffixes).
    let names = NameTable::build(units, opts, &owners);

    // 3. Every referenced type must be emitted by some unit.
    let mut concepts: HashMap<String, Vec<(usize, DeclId)>> = HashMap::new();
    for &(u, id) in &owners {
        let decl = units[u].decl(id);
        let mut missing = Vec::new();
        for ty in referenced_types(decl) {
            if let Some(rid) = decl_of(ty) {
                let fqn = units[u].decl(rid).fqn();
                if names.get(&fqn).is_none() {
                    missing.push(fqn);
                }
            }
        }
        if let DeclKind::EnumConcept(c) = &decl.kind {
            let efqn = units[u].decl(c.enum_decl).fqn();
            if names.get(&efqn).is_some() {
                concepts.entry(efqn).or_default().push((u, id));
            } else {
                missing.push(efqn);
            }
        }
        for fqn in missing {
            errors.push(
                Diagnostic::error(decl.span, format!("`{}` uses `{fqn}`, which is not part of this build", decl.fqn()))
                    .with_note("emit the file that declares it in the same build (the builder does this for every included file)"),
            );
        }
    }
    for (path, attr) in opts.type_attributes.iter().chain(&opts.field_attributes) {
        if let Err(e) = syn::parse_str::<TokenStream>(attr)
            .map_err(|e| e.to_string())
            .and_then(|ts| syn::parse2::<AttrList>(ts).map_err(|e| e.to_string()))
        {
            errors.push(Diagnostic::error_global(format!(
                "invalid attribute `{attr}` for `{path}`: {e}"
            )));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    Ok(Context {
        units,
        opts,
        rt,
        names,
        concepts,
        owners,
    })
}

fn emit(cx: &Context<'_>) -> String {
    let units = cx.units;
    let owners = &cx.owners;
    // 4. Items.
    let mut root = ModuleTree::default();
    for &(u, id) in owners {
        let decl = units[u].decl(id);
        if matches!(decl.kind, DeclKind::EnumConcept(_)) {
            continue; // emitted with their enum
        }
        let names = cx.names_of(&decl.fqn());
        let module = names.module.clone();
        let mut c = Code::with_depth(module.len());
        items::decl(&mut c, cx, u, id, &module);
        let tree = root.child(&module);
        tree.items.push(c.finish());
        if names.view_ident.is_some() {
            let mut c = Code::with_depth(module.len());
            views::view_items(&mut c, cx, u, id, decl, &module);
            tree.items.push(c.finish());
        }
    }
    let mut file_consts = Code::new();
    for (u, unit) in units.iter().enumerate() {
        let file = &unit.input;
        let name = cx.names.file_hash(u);
        file_consts.doc(&format!(
            "File-level version hash of `{file}` (the original's `ASTHash`)."
        ));
        file_consts.line(&format!(
            "pub const {name}: &str = {};",
            str_lit(&unit.file_hash)
        ));
    }
    root.items.push(file_consts.finish());
    let mut out = String::new();
    root.render(&mut out, 0);
    out
}

/// A comma-separated list of outer attributes, for validating user attributes.
struct AttrList;

impl syn::parse::Parse for AttrList {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        syn::Attribute::parse_outer(input)?;
        Ok(AttrList)
    }
}

/// The header every generated file starts with.
pub const HEADER: &str = "// @generated by clad-codegen. Do not edit: changes are overwritten.\n";

/// Generates a formatted Rust file (with the `@generated` header).
pub fn generate(units: &[Schema], opts: &RustOptions) -> Result<String, Vec<Diagnostic>> {
    Ok(Emitter::new(units, opts)?.file())
}

fn decl_of(ty: &Type) -> Option<DeclId> {
    match ty {
        Type::Enum(id) | Type::Struct(id) | Type::Union(id) => Some(*id),
        Type::VarArray { elem, .. } | Type::FixedArray { elem, .. } => decl_of(elem),
        _ => None,
    }
}

fn referenced_types(decl: &Decl) -> Vec<&Type> {
    match &decl.kind {
        DeclKind::Struct(s) => s.fields.iter().map(|f| &f.ty).collect(),
        DeclKind::Union(u) => u.members.iter().map(|m| &m.ty).collect(),
        DeclKind::EnumConcept(c) => vec![&c.return_type],
        DeclKind::Enum(_) => Vec::new(),
    }
}

/// Every type [`generate`] emits for `units` (see [`Emitter::types`]).
pub fn generated_types(units: &[Schema]) -> Vec<GeneratedType> {
    generated_types_with(units, &RustOptions::default())
}

/// [`generated_types`] for a build with these options (which decide the borrowed views).
/// Empty when the units cannot be emitted together.
pub fn generated_types_with(units: &[Schema], opts: &RustOptions) -> Vec<GeneratedType> {
    Emitter::new(units, opts)
        .map(|e| e.types())
        .unwrap_or_default()
}
