//! Semantic analysis: syntax tree to [`Schema`] (spec §3), one sub-module per pass:
//!
//! | pass | module |
//! |------|--------|
//! | name resolution, scopes, type expressions | `resolve` |
//! | declarations met during resolution (defaults §3.3) | `declarations` |
//! | enum values (§3.4) | `enum_values` |
//! | verbatim expressions (array lengths, defaults) | `verbatim` |
//! | autounions, `dupes_allowed`, union tags (§3.5–3.7) | `unions` |
//! | enum concepts (§3.8) | `concepts` |
//! | size metrics (§3.11), type nesting limit | `sizes` |
//! | declaration and file hashes (§3.12), schema hashes | `hashes` |
//! | ambiguity marking (§3.9) | `ambiguity` |
//!
//! The evaluator, the metrics rules and the hash serialisation they use live beside this
//! module (`consteval`, `metrics`, `hash`).
//!
//! Names are resolved in textual order, as the original does at parse time (so there are no
//! forward references). Then the post-processing steps run in the reference order (§3.10):
//! enum values, autounion expansion + `dupes_allowed` flags + union tags, enum concepts,
//! per-declaration hashes, ambiguity marking; and finally the file hash. Verbatim
//! expressions (fixed-array lengths, defaults, concept values) are evaluated once enum values
//! are known. Size metrics are computed before hashing because union alignment is hashed.

mod ambiguity;
mod concepts;
mod declarations;
mod enum_values;
mod hashes;
mod resolve;
mod sizes;
mod unions;
mod verbatim;

use crate::ast::{self};
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use crate::source::{SourceDb, Span};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug)]
enum Symbol {
    Namespace(usize),
    Type(DeclId),
}

struct NsNode {
    parent: Option<usize>,
    children: HashMap<String, Symbol>,
}

/// A verbatim expression to evaluate once enum values are known.
enum Fixup {
    ArrayLength { decl: DeclId, field: usize },
    Default { decl: DeclId, field: usize },
}

struct ConceptSource {
    decl: DeclId,
    enum_name: ast::Ident,
    members: Vec<(ast::Ident, ast::Const)>,
}

struct Sema<'a> {
    diags: &'a mut Vec<Diagnostic>,
    decls: Vec<Decl>,
    /// Namespace node of each declaration.
    decl_ns: Vec<usize>,
    ns: Vec<NsNode>,
    cur_ns: usize,
    ns_path: Vec<String>,
    include_depth: usize,
    fixups: Vec<(Fixup, Span)>,
    concepts: Vec<ConceptSource>,
    /// Spans of written union member tags/names, for tag errors.
    name_spans: HashMap<DeclId, Span>,
    /// Every declaration so far by its short name, in order (for the "exists as" note of an
    /// unknown type: looked up, never iterated, so no hash order reaches an output).
    by_name: HashMap<String, Vec<DeclId>>,
}

/// Runs every semantic step. Returns the schema when no error was found.
pub(crate) fn analyze(
    items: &[ast::Item],
    sources: SourceDb,
    diags: &mut Vec<Diagnostic>,
) -> Option<Schema> {
    let mut s = Sema {
        diags,
        decls: Vec::new(),
        decl_ns: Vec::new(),
        ns: vec![NsNode {
            parent: None,
            children: HashMap::new(),
        }],
        cur_ns: 0,
        ns_path: Vec::new(),
        include_depth: 0,
        fixups: Vec::new(),
        concepts: Vec::new(),
        name_spans: HashMap::new(),
        by_name: HashMap::new(),
    };
    let tree = s.items(items);
    s.assign_enum_values();
    s.run_fixups();
    s.expand_unions();
    s.check_concepts();
    s.compute_metrics();
    s.check_type_depth();
    if s.diags.iter().any(Diagnostic::is_error) {
        return None;
    }
    let mut tree = tree;
    s.hash_declarations(&mut tree);
    s.schema_hashes();
    s.mark_ambiguous();
    if s.diags.iter().any(Diagnostic::is_error) {
        return None;
    }
    let file_hash = s.file_hash(&tree);
    Some(Schema {
        input: String::new(),
        sources,
        decls: s.decls,
        items: tree,
        file_hash,
    })
}

fn fqn_of(path: &[String], name: &str) -> String {
    let mut s = path.join("::");
    if !s.is_empty() {
        s.push_str("::");
    }
    s.push_str(name);
    s
}

impl Sema<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
}

/// A value as the user would write it, for diagnostics.
fn show_value(v: &ConstValue) -> String {
    match v {
        ConstValue::Int(i) => i.to_string(),
        ConstValue::Float(f) => format!("the float {}", crate::hash::py_float_repr(*f)),
        ConstValue::Str(s) => format!("the string {s:?}"),
        ConstValue::Bool(b) => b.to_string(),
    }
}
