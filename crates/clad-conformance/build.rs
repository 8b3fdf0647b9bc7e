//! Generates Rust for every schema of the conformance tree (any tree described by a
//! `vectors/MANIFEST.json`, see `src/corpus.rs`; `CLAD_CONFORMANCE_DIR` names it and
//! `CLAD_CONFORMANCE_REQUIRE=1` makes its absence stop the build), one module per schema file,
//! plus a registry that maps each CLAD type name to the generated type. Also generates our own
//! schemas (`schemas/edge_cases.clad`, `views.clad`, `doc_example.clad`,
//! `empty_autounion.clad`), which exist even when the conformance data is absent.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The synthetic corpus shaped like the real robot schema tree (130 files): its generated code
/// is compiled here, so `cargo clippy -- -D warnings` proves it compiles without warnings.
#[path = "../clad-codegen/benches/corpus/mod.rs"]
mod synthetic;

/// Where the conformance data is and what its manifest says (shared with the library).
#[allow(dead_code)]
#[path = "src/corpus.rs"]
mod corpus;

/// Root name used in the registry for `schemas/edge_cases.clad` of this crate.
const EDGE_ROOT: &str = "@edge";
const EDGE_SCHEMA: &str = "edge_cases.clad";
const EMPTY_SCHEMA: &str = "empty_autounion.clad";
const VIEWS_SCHEMA: &str = "views.clad";
const DOC_SCHEMA: &str = "doc_example.clad";

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-env-changed={}", corpus::DIR_VAR);
    println!("cargo:rerun-if-env-changed={}", corpus::REQUIRE_VAR);
    // `#[cfg(conformance_reference)]` for tests that name modules of the reference corpus
    // (`../shared/conformance/message-buffers`) directly: set only when that corpus is built.
    println!("cargo::rustc-check-cfg=cfg(conformance_reference)");
    // `#[cfg_attr(conformance_data_absent, ignore = "...")]`: without the data, the tests
    // that need it show as ignored, with the reason, in cargo's summary.
    println!("cargo::rustc-check-cfg=cfg(conformance_data_absent)");
    let manifest = match corpus::locate(crate_dir) {
        Ok(Some(dir)) => match corpus::Manifest::load(&dir) {
            Ok(m) => Some(m),
            Err(e) => panic!("conformance data: {e}"),
        },
        Ok(None) => {
            println!(
                "cargo:rerun-if-changed={}",
                corpus::default_dir(crate_dir)
                    .join("vectors/MANIFEST.json")
                    .display()
            );
            println!(
                "cargo:warning={}: the conformance tests are ignored",
                corpus::skip_message(crate_dir)
            );
            println!("cargo::rustc-cfg=conformance_data_absent");
            None
        }
        Err(e) => panic!("{e}"),
    };
    synthetic_tree(&out);

    let mut roots_rs = String::new();
    let mut visit_arms = String::new();
    let mut view_visit_arms = String::new();
    let mut schema_list = String::new();

    // Our own edge cases, with user attributes (Builder::type_attribute/field_attribute).
    let edge_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let edge = clad_codegen::Builder::new()
        .include_dir(&edge_dir)
        .file(EDGE_SCHEMA)
        .out_dir(&out)
        .output_file("edge_cases.rs")
        .type_attribute("Edge::Attrs", "#[derive(PartialOrd)]")
        .type_attribute("Edge::Circle", "#[derive(PartialOrd)]")
        .type_attribute("a_b", "#[doc = \"(type attribute on namespace a_b)\"]")
        .field_attribute(
            "Edge::Attrs.rank",
            "#[doc = \"(field attribute on Attrs.rank)\"]",
        )
        .field_attribute("Edge::Attrs", "#[allow(clippy::struct_field_names)]")
        .field_attribute("Edge::SerdeAttrs.label", "#[serde(alias = \"name\")]")
        .view(".");
    emit_module(
        &edge,
        EDGE_ROOT,
        EDGE_SCHEMA,
        "edge_cases",
        &edge_dir,
        &mut roots_rs,
        &mut visit_arms,
        &mut view_visit_arms,
        &mut schema_list,
    );

    // Every member shape of borrowed views (`schemas/views.clad`).
    let views = clad_codegen::Builder::new()
        .include_dir(&edge_dir)
        .file(VIEWS_SCHEMA)
        .out_dir(&out)
        .output_file("views.rs")
        .view(".");
    emit_module(
        &views,
        EDGE_ROOT,
        VIEWS_SCHEMA,
        "views",
        &edge_dir,
        &mut roots_rs,
        &mut visit_arms,
        &mut view_visit_arms,
        &mut schema_list,
    );

    // The wire module documentation's example and the spec's Foo (`tests/doc_example.rs`).
    let doc = clad_codegen::Builder::new()
        .include_dir(&edge_dir)
        .file(DOC_SCHEMA)
        .out_dir(&out)
        .output_file("doc_example.rs");
    emit_module(
        &doc,
        EDGE_ROOT,
        DOC_SCHEMA,
        "doc_example",
        &edge_dir,
        &mut roots_rs,
        &mut visit_arms,
        &mut view_visit_arms,
        &mut schema_list,
    );

    let empty = clad_codegen::Builder::new()
        .include_dir(&edge_dir)
        .file(EMPTY_SCHEMA)
        .out_dir(&out)
        .output_file("empty_autounion.rs");
    emit_module(
        &empty,
        EDGE_ROOT,
        EMPTY_SCHEMA,
        "empty_autounion",
        &edge_dir,
        &mut roots_rs,
        &mut visit_arms,
        &mut view_visit_arms,
        &mut schema_list,
    );

    match &manifest {
        Some(manifest) => {
            println!(
                "cargo:rerun-if-changed={}",
                manifest.dir.join("vectors/MANIFEST.json").display()
            );
            let dir = manifest
                .dir
                .canonicalize()
                .unwrap_or_else(|_| manifest.dir.clone());
            let _ = writeln!(
                roots_rs,
                "/// The conformance tree compiled here (`CLAD_CONFORMANCE_DIR` or the default).\n\
                 pub const DATA_DIR: Option<&str> = Some({:?});\n\
                 /// The conformance data was found and compiled.\npub const AVAILABLE: bool = true;\n\
                 /// The tree is the reference compiler's own test schemas (see \
                 /// [`corpus::REFERENCE_BASE`]).\npub const REFERENCE_SUITE: bool = {};",
                dir.display().to_string(),
                manifest.is_reference_suite()
            );
            if manifest.is_reference_suite() {
                println!("cargo::rustc-cfg=conformance_reference");
            }
            // One module per schema file (with everything it includes), like the original's
            // one header per file: two files of one root may declare the same type name.
            for f in manifest.ok_files() {
                let module = module_name(&f.root, &f.schema);
                let root_dir = manifest.schemas_dir().join(&f.root);
                let mut builder = clad_codegen::Builder::new();
                // The file's root, then the manifest's `include_dirs` in order.
                for d in manifest.search_dirs(&f.root) {
                    builder = builder.include_dir(d);
                }
                let builder = builder
                    .file(&f.schema)
                    // Borrowed views for every type that has strings or byte arrays, so
                    // every vector and every fuzz input also goes through them.
                    .view(".")
                    .out_dir(&out)
                    .output_file(format!("{module}.rs"));
                emit_module(
                    &builder,
                    &f.root,
                    &f.schema,
                    &module,
                    &root_dir,
                    &mut roots_rs,
                    &mut visit_arms,
                    &mut view_visit_arms,
                    &mut schema_list,
                );
            }
        }
        None => {
            roots_rs.push_str(
                "/// The conformance tree compiled here: none was found.\n\
                 pub const DATA_DIR: Option<&str> = None;\n\
                 /// The conformance data was found and compiled.\npub const AVAILABLE: bool = false;\n\
                 /// The tree is the reference compiler's own test schemas.\n\
                 pub const REFERENCE_SUITE: bool = false;\n",
            );
        }
    }

    let _ = writeln!(
        roots_rs,
        "/// Calls `visitor` with the generated type `ty` (CLAD name) of `schema` compiled in \
         `root`; `None` when there is no such type.\npub fn visit<V: crate::TypeVisitor>(root: &str, schema: &str, ty: &str, visitor: V) -> Option<V::Output> {{\n    match (root, schema) {{\n{visit_arms}        _ => None,\n    }}\n}}\n\n/// Like [`visit`], for types with a borrowed view; `None` for the others.\npub fn visit_view<V: crate::ViewVisitor>(root: &str, schema: &str, ty: &str, visitor: V) -> Option<V::Output> {{\n    match (root, schema) {{\n{view_visit_arms}        _ => None,\n    }}\n}}\n\n/// Every compiled schema: `(root, schema, module, types)`.\npub const SCHEMAS: &[crate::SchemaInfo] = &[\n{schema_list}];"
    );
    std::fs::write(out.join("roots.rs"), roots_rs).unwrap();
}

/// Generates one module and its registry.
#[allow(clippy::too_many_arguments)]
fn emit_module(
    builder: &clad_codegen::Builder,
    root: &str,
    schema: &str,
    module: &str,
    root_dir: &Path,
    roots_rs: &mut String,
    visit_arms: &mut String,
    view_visit_arms: &mut String,
    schema_list: &mut String,
) {
    let generated = match builder.generate() {
        Ok(g) => g,
        Err(e) => {
            for line in e.rendered.lines() {
                println!("cargo::error={line}");
            }
            std::process::exit(1);
        }
    };
    builder.build();
    let mut arms = String::new();
    let mut view_arms = String::new();
    let mut types = String::new();
    for t in generated.types.iter().filter(|t| t.kind != "enum") {
        if t.view_path.is_some() {
            let _ = writeln!(
                view_arms,
                "                {:?} => Some(visitor.visit::<super::{}>()),",
                t.clad_name, t.rust_path
            );
        }
        let _ = writeln!(
            arms,
            "                {:?} => Some(visitor.visit::<super::{}>()),",
            t.clad_name, t.rust_path
        );
        // The file that declares the type, relative to the compile root: the IR of that file
        // (compiled on its own, as the builder does) is the one the type was generated from.
        let file = Path::new(&t.file);
        let rel = file
            .strip_prefix(root_dir)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_else(|_| t.file.clone());
        let _ = writeln!(
            types,
            "        crate::TypeInfo {{ clad_name: {:?}, rust_path: {:?}, kind: {:?}, file: {:?} }},",
            t.clad_name, t.rust_path, t.kind, rel
        );
    }
    let _ = writeln!(
        roots_rs,
        "pub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\"));\n    /// The generated messages, structures and unions by CLAD name.\n    pub mod registry {{\n        /// Calls `visitor` with the generated type named `ty`.\n        #[allow(unused_variables, clippy::match_single_binding)]\n        pub fn visit<V: crate::TypeVisitor>(ty: &str, visitor: V) -> Option<V::Output> {{\n            match ty {{\n{arms}                _ => None,\n            }}\n        }}\n        /// Calls `visitor` with the generated type named `ty` if it has a borrowed view.\n        #[allow(unused_variables, clippy::match_single_binding)]\n        pub fn visit_view<V: crate::ViewVisitor>(ty: &str, visitor: V) -> Option<V::Output> {{\n            match ty {{\n{view_arms}                _ => None,\n            }}\n        }}\n    }}\n}}"
    );
    let _ = writeln!(
        visit_arms,
        "        ({root:?}, {schema:?}) => {module}::registry::visit(ty, visitor),"
    );
    let _ = writeln!(
        view_visit_arms,
        "        ({root:?}, {schema:?}) => {module}::registry::visit_view(ty, visitor),"
    );
    let _ = writeln!(
        schema_list,
        "    crate::SchemaInfo {{ root: {root:?}, schema: {schema:?}, module: {module:?}, types: &[\n{types}    ] }},"
    );
}

/// `DirTreeTests` + `Foo/Foo.clad` -> `dir_tree_tests__foo_foo`.
fn module_name(root: &str, schema: &str) -> String {
    let clean = |s: &str| -> String {
        let mut out = String::new();
        let mut prev_lower = false;
        for c in s.chars() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('_');
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            });
        }
        out
    };
    let stem = schema.strip_suffix(".clad").unwrap_or(schema);
    let root = if root == "." { "top" } else { root };
    format!("{}_{}", clean(root), clean(stem)).replace("__", "_")
}

/// Generates Rust for every file of the synthetic corpus at once into `synthetic_tree.rs`.
fn synthetic_tree(out: &Path) {
    println!("cargo:rerun-if-changed=../clad-codegen/benches/corpus/mod.rs");
    let corpus = synthetic::corpus();
    let mut loader = synthetic::loader_for(&corpus.files);
    let mut units = Vec::new();
    for (path, _) in &corpus.files {
        let compiled = clad_codegen::compile(&mut loader, path);
        match compiled.schema {
            Some(schema) => units.push(schema),
            None => {
                for line in compiled.render().lines() {
                    println!("cargo::error={line}");
                }
                std::process::exit(1);
            }
        }
    }
    match clad_codegen::rust::generate(&units, &Default::default()) {
        Ok(code) => {
            clad_codegen::builder::write_if_changed(&out.join("synthetic_tree.rs"), &code)
                .expect("write synthetic_tree.rs");
        }
        Err(diagnostics) => {
            for d in diagnostics {
                println!("cargo::error={}", d.message);
            }
            std::process::exit(1);
        }
    }
}
