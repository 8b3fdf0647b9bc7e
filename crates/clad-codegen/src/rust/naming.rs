//! The naming table: every Rust name a build writes, decided once.
//!
//! Module names, type names, union tag enums (`<Name>Tag`), borrowed views (`<Name>View`),
//! enum and union variants, structure fields, enum-concept methods and the file-hash
//! constants are all assigned here, with the clash rules of [`super::names`], before any
//! item is written. The item emitters (`items.rs`, `views.rs`) and build extensions (through
//! [`super::Names`]) only read the table, so a naming rule changed here changes every
//! reference to the name with it.
//!
//! Assignment order (it decides clash suffixes, so it is part of the output):
//! 1. module names, per parent module, in output order of the types inside them;
//! 2. type names, per module, in output order;
//! 3. tag enums of the unions, per module, in output order;
//! 4. views of the selected types, per module, in output order;
//! 5. members, fields and concept methods, each in their own scope;
//! 6. file-hash constants, one scope for the whole file, in unit order.

use super::names::{Case, Scope};
use super::{items, views, RustOptions};
use crate::ir::{DeclId, DeclKind, Schema};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The Rust names of one emitted type.
#[derive(Clone, Debug)]
pub(crate) struct TypeNames {
    /// Module path (snake_case idents), outermost first.
    pub module: Vec<String>,
    /// The type's identifier.
    pub ident: String,
    /// For unions: the tag enum's identifier.
    pub tag_ident: Option<String>,
    /// For types with a borrowed view: the view's identifier.
    pub view_ident: Option<String>,
    /// Enums and unions: the variant identifier of every member, in member order (for
    /// enums, aliases of an earlier value included; they become constants).
    pub variants: Vec<String>,
    /// Structures: the identifier of every field, in field order.
    pub fields: Vec<String>,
}

/// Names reserved in an enum's scope (its associated constants).
const ENUM_RESERVED: &[&str] = &[
    "NAME",
    "VERSION_HASH",
    "VERSION_HASH_STR",
    "SCHEMA_HASH",
    "SCHEMA_HASH_STR",
    "ALL",
    "COUNT",
];
/// Names reserved among an enum's concept methods (its inherent methods).
const CONCEPT_RESERVED: &[&str] = &["name", "from_name", "value", "from_value"];

/// Every Rust name of a build.
#[derive(Debug, Default)]
pub(crate) struct NameTable {
    /// fqn → names of every emitted type (concepts excluded).
    types: HashMap<String, TypeNames>,
    /// `(unit, concept)` → the concept's method identifier.
    concept_methods: HashMap<(usize, DeclId), String>,
    /// The file-hash constant of each unit, by unit index.
    file_hashes: Vec<String>,
}

impl NameTable {
    /// Names every declaration of `owners` (the emitted declarations of `units`, in output
    /// order, each fully qualified name once; concepts included) and every unit's
    /// file-hash constant.
    pub fn build(units: &[Schema], opts: &RustOptions, owners: &[(usize, DeclId)]) -> Self {
        let mut table = NameTable::default();
        let mut module_scopes: HashMap<Vec<String>, Scope> = HashMap::new();
        let mut module_names: HashMap<Vec<String>, Vec<String>> = HashMap::new();
        let mut module_of = |ns: &[String]| -> Vec<String> {
            let mut path = Vec::new();
            for i in 0..ns.len() {
                let key = ns[..=i].to_vec();
                if let Some(m) = module_names.get(&key) {
                    path = m.clone();
                    continue;
                }
                let scope = module_scopes.entry(path.clone()).or_default();
                path.push(scope.assign(&ns[i], Case::Snake));
                module_names.insert(key, path.clone());
            }
            path
        };

        // 1, 2. Modules and types.
        let mut type_scopes: HashMap<Vec<String>, Scope> = HashMap::new();
        let mut unions = Vec::new();
        for &(u, id) in owners {
            let decl = units[u].decl(id);
            if matches!(decl.kind, DeclKind::EnumConcept(_)) {
                continue;
            }
            let module = module_of(&decl.namespace);
            let ident = type_scopes
                .entry(module.clone())
                .or_default()
                .assign(&decl.name, Case::Camel);
            let (variants, fields) = member_names(&decl.kind);
            if matches!(decl.kind, DeclKind::Union(_)) {
                unions.push(decl.fqn());
            }
            table.types.insert(
                decl.fqn(),
                TypeNames {
                    module,
                    ident,
                    tag_ident: None,
                    view_ident: None,
                    variants,
                    fields,
                },
            );
        }

        // 3. Tag enums, named after every type of their module.
        for fqn in unions {
            let t = table.types.get_mut(&fqn).expect("named above");
            let scope = type_scopes.entry(t.module.clone()).or_default();
            t.tag_ident = Some(scope.assign(&format!("{}Tag", base(&t.ident)), Case::Camel));
        }

        // 4. Views: the selected types that borrow, and every borrowing type inside them.
        // Named after the tags, so adding views never renames anything else.
        if !opts.views.is_empty() {
            let mut with_view = BTreeSet::new();
            for &(u, id) in owners {
                let decl = units[u].decl(id);
                if opts
                    .views
                    .iter()
                    .any(|p| items::type_matches(p, &decl.fqn()))
                {
                    views::collect(&units[u], decl, &mut with_view);
                }
            }
            for &(u, id) in owners {
                let fqn = units[u].decl(id).fqn();
                if !with_view.contains(&fqn) {
                    continue;
                }
                let Some(t) = table.types.get_mut(&fqn) else {
                    continue; // not emitted: reported as a missing type by the caller
                };
                let scope = type_scopes.entry(t.module.clone()).or_default();
                t.view_ident = Some(scope.assign(&format!("{}View", base(&t.ident)), Case::Camel));
            }
        }

        // 5. Concept methods, per enum, in output order.
        let mut concept_scopes: HashMap<String, Scope> = HashMap::new();
        for &(u, id) in owners {
            let decl = units[u].decl(id);
            let DeclKind::EnumConcept(c) = &decl.kind else {
                continue;
            };
            let enum_fqn = units[u].decl(c.enum_decl).fqn();
            let method = concept_scopes
                .entry(enum_fqn)
                .or_insert_with(|| Scope::with_reserved(CONCEPT_RESERVED))
                .assign(&decl.name, Case::Snake);
            table.concept_methods.insert((u, id), method);
        }

        // 6. File hashes.
        let mut hash_scope = Scope::new();
        table.file_hashes = units
            .iter()
            .map(|unit| {
                hash_scope
                    .assign(
                        &format!("{}_file_hash", file_stem(&unit.input)),
                        Case::Snake,
                    )
                    .to_uppercase()
            })
            .collect();
        table
    }

    /// The names of the emitted type `fqn`.
    pub fn get(&self, fqn: &str) -> Option<&TypeNames> {
        self.types.get(fqn)
    }

    /// The method of the enum concept `id` of `unit`.
    pub fn concept_method(&self, unit: usize, id: DeclId) -> Option<&str> {
        self.concept_methods.get(&(unit, id)).map(String::as_str)
    }

    /// The file-hash constant of unit `unit`.
    pub fn file_hash(&self, unit: usize) -> &str {
        &self.file_hashes[unit]
    }

    /// Number of named types.
    pub fn type_count(&self) -> usize {
        self.types.len()
    }

    /// What the root of the generated file defines under `ident` (see
    /// [`super::Names::root_item`]).
    pub fn root_item(&self, ident: &str) -> Option<String> {
        if let Some(i) = self.file_hashes.iter().position(|h| h == ident) {
            return Some(format!("file-hash constant of unit {i}"));
        }
        let mut fqns: Vec<&String> = self.types.keys().collect();
        fqns.sort();
        for fqn in fqns {
            let t = &self.types[fqn];
            if t.module.first().is_some_and(|m| m == ident) {
                return Some(format!("module of `{fqn}`"));
            }
            if !t.module.is_empty() {
                continue;
            }
            if t.ident == ident {
                return Some(format!("type `{fqn}`"));
            }
            if t.tag_ident.as_deref() == Some(ident) {
                return Some(format!("tag enum of `{fqn}`"));
            }
            if t.view_ident.as_deref() == Some(ident) {
                return Some(format!("view of `{fqn}`"));
            }
        }
        None
    }
}

/// The variant identifiers (enums, unions) or field identifiers (structures) of a type.
fn member_names(kind: &DeclKind) -> (Vec<String>, Vec<String>) {
    match kind {
        DeclKind::Enum(e) => {
            let mut scope = Scope::with_reserved(ENUM_RESERVED);
            let variants = e
                .members
                .iter()
                .map(|m| scope.assign(&m.name, Case::Camel))
                .collect();
            (variants, Vec::new())
        }
        DeclKind::Union(u) => {
            let mut scope = Scope::new();
            let variants = u
                .members
                .iter()
                .map(|m| scope.assign(&m.name, Case::Camel))
                .collect();
            (variants, Vec::new())
        }
        DeclKind::Struct(s) => {
            let mut scope = Scope::new();
            let fields = s
                .fields
                .iter()
                .map(|f| scope.assign(&f.name, Case::Snake))
                .collect();
            (Vec::new(), fields)
        }
        DeclKind::EnumConcept(_) => (Vec::new(), Vec::new()),
    }
}

/// A type identifier without raw prefix or keyword underscore, to derive `<Name>Tag` from.
fn base(ident: &str) -> &str {
    ident.trim_start_matches("r#").trim_end_matches('_')
}

/// The file name of an input without directories and without `.clad`: the file-hash
/// constant's name does not depend on how the input's path was spelled (`cloud.clad`,
/// `schemas/cloud.clad` and `./schemas/cloud.clad` all give `CLOUD_FILE_HASH`).
pub(crate) fn file_stem(input: &str) -> &str {
    let name = Path::new(input)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(input);
    // `Path` splits on `/` only on Unix; an input spelled with `\` is split here too.
    let name = name.rsplit('\\').next().unwrap_or(name);
    name.strip_suffix(".clad").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn file_stem_ignores_the_directories() {
        assert_eq!(file_stem("cloud.clad"), "cloud");
        assert_eq!(file_stem("schemas/cloud.clad"), "cloud");
        assert_eq!(file_stem("./schemas/cloud.clad"), "cloud");
        assert_eq!(file_stem("/abs/schemas/cloud.clad"), "cloud");
        assert_eq!(file_stem("schemas\\cloud.clad"), "cloud");
        assert_eq!(file_stem("noext"), "noext");
        assert_eq!(file_stem("a.b.clad"), "a.b");
    }
}
