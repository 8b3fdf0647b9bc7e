//! `clad-codegen`: a compiler for CLAD (C-Like Algebraic Data) schema files.
//!
//! The front end turns a `.clad` file and its includes into a resolved [`ir::Schema`] with
//! exactly the enum values, union tags and version hashes of the original compiler:
//!
//! ```text
//! SourceLoader ─▶ preprocess (#include) ─▶ lexer ─▶ parser (AST) ─▶ sema ─▶ ir::Schema
//! ```
//!
//! ```
//! use clad_codegen::{compile, MemoryLoader};
//!
//! let mut files = MemoryLoader::new().file(
//!     "shapes.clad",
//!     "enum uint_8 Color { Red, Green = 5, Blue = 0x10 }\n\
//!      message Px { Color c, float_32 f = 0.5, string[uint_16:100] s, int_16 v[uint_8:4] }\n\
//!      union U { Px p = 3, bool b }\n",
//! );
//! let out = compile(&mut files, "shapes.clad");
//! let schema = out.schema.expect("valid schema");
//! let color = schema.decl(schema.lookup("Color").unwrap());
//! assert_eq!(color.hash.as_deref(), Some("72cac815c7e8f7cd4e65c2bef1cbaeaf"));
//! assert_eq!(schema.file_hash, "28abb49f211efe02e4843f430ab85904");
//! ```
//!
//! Errors never panic and are all collected: [`Compilation::diagnostics`] holds every problem
//! with its `file:line:col`, rendered with source snippets by [`Compilation::render`].

#![warn(missing_docs)]

mod ast;
pub mod builder;
mod consteval;
pub mod describe;
pub mod diagnostics;
pub mod dynamic;
pub mod extension;
mod hash;
pub mod ir;
mod lexer;
pub mod lines;
pub mod loader;
#[doc(hidden)]
pub mod macro_support;
mod metrics;
mod parser;
mod preprocess;
pub mod rust;
pub mod schema_hash;
mod sema;
pub mod source;

pub use builder::{BuildError, Builder, Compiled, Generated};
pub use diagnostics::{Diagnostic, Severity};
pub use extension::Extension;
pub use loader::{FsLoader, LoadError, LoadedSource, MemoryLoader, SourceLoader};
pub use rust::GeneratedType;
pub use source::{FileId, SourceDb, SourceFile, Span};

/// The result of compiling one translation unit.
#[derive(Debug)]
pub struct Compilation {
    /// Every file read (for rendering diagnostics). When `schema` is set it holds a copy.
    pub sources: SourceDb,
    /// Errors and warnings, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The schema, present only when there was no error.
    pub schema: Option<ir::Schema>,
}

impl Compilation {
    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// All diagnostics rendered with source snippets (no colour).
    pub fn render(&self) -> String {
        diagnostics::render(&self.diagnostics, &self.sources, false)
    }

    /// All diagnostics rendered with source snippets, optionally coloured.
    pub fn render_colored(&self, color: bool) -> String {
        diagnostics::render(&self.diagnostics, &self.sources, color)
    }
}

/// Most diagnostics one compilation reports; beyond this, errors are usually cascades.
const MAX_DIAGNOSTICS: usize = 200;

/// The deepest nesting of blocks a schema may have: `namespace` blocks and `#include`s
/// together (an `#include` expands to an `include "..." { }` block), and so also the longest
/// chain of files including each other. The original corpus nests 3 deep. Beyond the limit
/// the compiler reports an error at the block (or `#include`) that goes too deep instead of
/// recursing on: every pass (preprocessor, parser, resolution, the original's namespace
/// hashing, whose text grows with the cube of the depth) stays bounded.
pub const MAX_NESTING: usize = 64;

/// The deepest nesting of types a schema may have: a structure or union holding a structure
/// or union (directly or in an array) is one level deeper than it. The original corpus
/// nests a handful of levels (a union of unions of unions of messages). Every consumer that walks a value type by type (generated code, the
/// schema-driven codec of `cladc`/`cladz`, default values) then recurses at most this deep.
pub const MAX_TYPE_DEPTH: usize = 64;

/// Compiles the file `input` (resolved by `loader`) and everything it includes.
pub fn compile(loader: &mut dyn SourceLoader, input: &str) -> Compilation {
    let mut sources = SourceDb::new();
    let mut diags = Vec::new();
    let main = match loader.load_main(input) {
        Ok(f) => sources.add(SourceFile::new(f.name, f.path, f.text)),
        Err(e) => {
            let d = match e {
                LoadError::NotFound { searched } => {
                    Diagnostic::error_global(format!("could not find file \"{input}\"")).with_note(
                        format!("searched: the path itself, then {}", searched.join(", ")),
                    )
                }
                LoadError::Unreadable { path, reason } => {
                    Diagnostic::error_global(format!("error reading file \"{path}\": {reason}"))
                }
            };
            return Compilation {
                sources,
                diagnostics: vec![d],
                schema: None,
            };
        }
    };
    if sources.get(main).text.is_empty() {
        let span = Span::new(main, 0..0);
        return Compilation {
            sources,
            diagnostics: vec![Diagnostic::error(span, "the file is empty")
                .with_label("expected at least one declaration")
                .with_note("the original compiler crashes on an empty file")],
            schema: None,
        };
    }
    let expanded = preprocess::Preprocessor::new(loader, &mut sources, &mut diags).run(main);
    let tokens = lexer::lex(&expanded, &mut diags);
    let items = parser::parse(&tokens, &mut diags);
    let schema = if diags.iter().any(Diagnostic::is_error) {
        // Resolution still runs so that one pass reports name errors too.
        sema::analyze(&items, sources.clone(), &mut diags);
        None
    } else {
        sema::analyze(&items, sources.clone(), &mut diags)
    };
    if diags.len() > MAX_DIAGNOSTICS {
        let more = diags.len() - MAX_DIAGNOSTICS;
        diags.truncate(MAX_DIAGNOSTICS);
        diags.push(Diagnostic::error_global(format!(
            "{more} more diagnostics were not shown"
        )));
    }
    let schema = if diags.iter().any(Diagnostic::is_error) {
        None
    } else {
        schema.map(|s| ir::Schema {
            input: input.to_owned(),
            ..s
        })
    };
    Compilation {
        sources,
        diagnostics: diags,
        schema,
    }
}
