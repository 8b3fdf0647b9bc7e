//! The Rust emitter: [`Schema`]s to Rust source. The only module of the compiler that knows
//! Rust.
//!
//! Several compiled files can be emitted together; each contributes the declarations it owns
//! (not those it includes), and CLAD namespaces are merged into one tree of nested `pub mod`s.
//! References between types are relative paths (`super::...`), so the generated file can be
//! `include!`d in any module. Support code lives in the runtime crate (`clad_runtime` by
//! default): `wire` for packing and `json` plus a re-exported `serde` for CLAD-JSON.

pub(crate) mod code;
mod items;
pub mod names;
mod views;

use crate::diagnostics::Diagnostic;
use crate::ir::{Decl, DeclId, DeclKind, Schema, Type};
use code::{str_lit, Code};
use names::{Case, Scope};
use proc_macro2::TokenStream;
use std::collections::HashMap;

/// Options of the Rust emitter.
#[derive(Clone, Debug)]
pub struct RustOptions {
    /// Path of the runtime crate as seen from the generated code (default `::clad_runtime`):
    /// the wire format, CLAD-JSON and union support every generated type uses.
    pub runtime_path: String,
    /// Path of the crate that holds `intent::StaticIntentMap`, for intent-map statics
    /// (default `::robot_runtime`). Only generated intent maps use it.
    pub intent_runtime_path: String,
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
            intent_runtime_path: "::robot_runtime".to_owned(),
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            views: Vec::new(),
        }
    }
}

/// Where a declaration lands in the generated code.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    /// Module path (snake_case idents), outermost first.
    pub module: Vec<String>,
    /// The type's identifier.
    pub ident: String,
    /// For unions: the tag enum's identifier.
    pub tag_ident: Option<String>,
    /// For types with a borrowed view: the view's identifier.
    pub view_ident: Option<String>,
}

/// Everything the item emitters need to know about the whole output.
pub(crate) struct Context<'a> {
    pub units: &'a [Schema],
    pub opts: &'a RustOptions,
    /// The runtime crate's path, as written in the generated code (`::clad_runtime`).
    pub rt: String,
    /// fqn → placement of every emitted type.
    pub placements: HashMap<String, Placement>,
    /// Enum concepts grouped by the enum they belong to (fqn of the enum).
    pub concepts: HashMap<String, Vec<(usize, DeclId)>>,
    /// Every emitted declaration (concepts included), in output order.
    pub owners: Vec<(usize, DeclId)>,
}

impl Context<'_> {
    /// The placement of a type referenced from `unit`.
    pub fn placement(&self, unit: usize, id: DeclId) -> &Placement {
        let fqn = self.units[unit].decl(id).fqn();
        self.placements
            .get(&fqn)
            .expect("every referenced type is placed (checked in generate)")
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
    checked_path(&opts.runtime_path)
}

/// `path` as the generated code spells it, after checking that it is a Rust path.
pub(crate) fn checked_path(path: &str) -> Result<String, Vec<Diagnostic>> {
    match syn::parse_str::<syn::Path>(path) {
        // A path holds no meaningful whitespace.
        Ok(_) => Ok(path.chars().filter(|c| !c.is_whitespace()).collect()),
        Err(e) => Err(vec![Diagnostic::error_global(format!(
            "invalid runtime path `{path}`: {e}"
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

/// Generates Rust for the declarations owned by each of `units` (one compiled file each).
/// Returns the tokens, or diagnostics when the units cannot be emitted together (a type
/// declared by two different files, a reference to a type no unit owns, a bad attribute).
pub fn generate_tokens(
    units: &[Schema],
    opts: &RustOptions,
) -> Result<TokenStream, Vec<Diagnostic>> {
    let code = generate_code(units, opts)?;
    code.parse().map_err(|e| {
        vec![Diagnostic::error_global(format!(
            "internal error: generated code does not lex: {e}"
        ))]
    })
}

/// The generated items as formatted text (no header).
fn generate_code(units: &[Schema], opts: &RustOptions) -> Result<String, Vec<Diagnostic>> {
    let cx = context(units, opts)?;
    Ok(emit(&cx))
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

    // 2. Names: module paths, then type identifiers per module in declaration order.
    let mut module_scopes: HashMap<Vec<String>, Scope> = HashMap::new();
    let mut module_names: HashMap<Vec<String>, Vec<String>> = HashMap::new();
    let mut placements: HashMap<String, Placement> = HashMap::new();
    let mut module_of = |ns: &[String]| -> Vec<String> {
        let mut path = Vec::new();
        for i in 0..ns.len() {
            let key = ns[..=i].to_vec();
            if let Some(m) = module_names.get(&key) {
                path = m.clone();
                continue;
            }
            let parent = path.clone();
            let scope = module_scopes.entry(parent).or_default();
            let name = scope.assign(&ns[i], Case::Snake);
            path.push(name);
            module_names.insert(key, path.clone());
        }
        path
    };
    let mut type_scopes: HashMap<Vec<String>, Scope> = HashMap::new();
    let mut unions = Vec::new();
    for &(u, id) in &owners {
        let decl = units[u].decl(id);
        if matches!(decl.kind, DeclKind::EnumConcept(_)) {
            continue;
        }
        let module = module_of(&decl.namespace);
        let ident = type_scopes
            .entry(module.clone())
            .or_default()
            .assign(&decl.name, Case::Camel);
        if matches!(decl.kind, DeclKind::Union(_)) {
            unions.push(decl.fqn());
        }
        placements.insert(
            decl.fqn(),
            Placement {
                module,
                ident,
                tag_ident: None,
                view_ident: None,
            },
        );
    }
    for fqn in unions {
        let p = placements.get_mut(&fqn).expect("placed above");
        let scope = type_scopes.entry(p.module.clone()).or_default();
        let base = p.ident.trim_start_matches("r#").trim_end_matches('_');
        p.tag_ident = Some(scope.assign(&format!("{base}Tag"), Case::Camel));
    }
    // Borrowed views: the selected types that borrow, and every borrowing type inside them.
    // Named after the tags, so adding views never renames anything else.
    if !opts.views.is_empty() {
        let mut with_view = std::collections::BTreeSet::new();
        for &(u, id) in &owners {
            let decl = units[u].decl(id);
            if opts
                .views
                .iter()
                .any(|p| items::type_matches(p, &decl.fqn()))
            {
                views::collect(&units[u], decl, &mut with_view);
            }
        }
        for &(u, id) in &owners {
            let fqn = units[u].decl(id).fqn();
            if !with_view.contains(&fqn) {
                continue;
            }
            let Some(p) = placements.get_mut(&fqn) else {
                continue; // not emitted: reported as a missing type below
            };
            let scope = type_scopes.entry(p.module.clone()).or_default();
            let base = p.ident.trim_start_matches("r#").trim_end_matches('_');
            p.view_ident = Some(scope.assign(&format!("{base}View"), Case::Camel));
        }
    }

    // 3. Every referenced type must be emitted by some unit.
    let mut concepts: HashMap<String, Vec<(usize, DeclId)>> = HashMap::new();
    for &(u, id) in &owners {
        let decl = units[u].decl(id);
        let mut missing = Vec::new();
        for ty in referenced_types(decl) {
            if let Some(rid) = decl_of(ty) {
                let fqn = units[u].decl(rid).fqn();
                if !placements.contains_key(&fqn) {
                    missing.push(fqn);
                }
            }
        }
        if let DeclKind::EnumConcept(c) = &decl.kind {
            let efqn = units[u].decl(c.enum_decl).fqn();
            if placements.contains_key(&efqn) {
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
        placements,
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
        let module = cx.placements[&decl.fqn()].module.clone();
        let mut c = Code::with_depth(module.len());
        items::decl(&mut c, cx, u, id, &module);
        let tree = root.child(&module);
        tree.items.push(c.finish());
        if cx.placements[&decl.fqn()].view_ident.is_some() {
            let mut c = Code::with_depth(module.len());
            views::view_items(&mut c, cx, u, id, decl, &module);
            tree.items.push(c.finish());
        }
    }
    let mut hash_scope = Scope::new();
    let mut file_consts = Code::new();
    for unit in units {
        let file = &unit.input;
        let stem = file.strip_suffix(".clad").unwrap_or(file);
        let name = hash_scope
            .assign(&format!("{stem}_file_hash"), Case::Snake)
            .to_uppercase();
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
    let code = generate_code(units, opts)?;
    // Input names (relative to the include directories), so the header is the same on every
    // machine.
    let mut sources: Vec<String> = units.iter().map(|u| u.input.clone()).collect();
    sources.dedup();
    let mut out = String::from(HEADER);
    out.push_str(&format!("// Sources: {}\n\n", sources.join(", ")));
    out.push_str(&code);
    Ok(out)
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

/// Every type [`generate`] emits for `units`: CLAD name, Rust path relative to the generated
/// file's module, kind and declaring file, in output order. Computed with the same naming
/// rules as the code itself.
pub fn generated_types(units: &[Schema]) -> Vec<crate::builder::GeneratedType> {
    generated_types_with(units, &RustOptions::default())
}

/// [`generated_types`] for a build with these options (which decide the borrowed views).
pub fn generated_types_with(
    units: &[Schema],
    opts: &RustOptions,
) -> Vec<crate::builder::GeneratedType> {
    let Ok(cx) = context(units, opts) else {
        return Vec::new();
    };
    cx.owners
        .iter()
        .filter_map(|&(u, id)| {
            let d = units[u].decl(id);
            let p = cx.placements.get(&d.fqn())?;
            if matches!(d.kind, DeclKind::EnumConcept(_)) {
                return None;
            }
            let module: Vec<&str> = p.module.iter().map(String::as_str).collect();
            let in_module = |ident: &str| {
                let mut path = module.clone();
                path.push(ident);
                path.join("::")
            };
            Some(crate::builder::GeneratedType {
                clad_name: d.fqn(),
                rust_path: in_module(&p.ident),
                view_path: p.view_ident.as_deref().map(in_module),
                kind: d.kind_name(),
                file: units[u].sources.get(units[u].main_file()).name.clone(),
            })
        })
        .collect()
}
