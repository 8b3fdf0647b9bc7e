//! Build extensions: how another crate adds generated items to a build, as tonic-build adds
//! services to prost-build through `ServiceGenerator`.
//!
//! The compiler knows CLAD and Rust, nothing of what a particular program does with its
//! schemas. A crate that checks some other input against the schemas and emits tables for
//! them (a lookup table typed by a generated union's tag, say) implements [`Extension`] and
//! is registered with [`Builder::extension`](crate::Builder::extension). After the schemas are
//! compiled and the output is planned, the builder calls each extension in registration order
//! with a [`Context`]:
//!
//! - the compiled IR of every file of the build ([`Context::units`]);
//! - the emitter's naming table ([`Context::names`]): the path of every generated type and
//!   the variants of every union's tag enum, exactly as the generated code spells them, so an
//!   extension never derives a Rust name itself;
//! - the build's loader ([`Context::load`]): files are found like schema files (a plain path,
//!   then the include directories), are added to a source database that starts with a
//!   unit's own files ([`Context::sources_of`]), so the extension's diagnostics render with
//!   the same snippets as schema errors and may point into the schema too, and are
//!   registered for `cargo:rerun-if-changed`;
//! - [`Context::watch`] for any other file the extension reads, and
//!   [`Context::claim_root_name`] to make sure two items of the output do not share a name.
//!
//! The extension returns an [`Output`]: Rust items (formatted text, best written with
//! [`rust::code::Code`](crate::rust::code::Code), as the emitter writes its own) appended to
//! the root of the generated file, and diagnostics. An error fails the build like a schema
//! error; warnings are printed as `cargo::warning=` lines.
//!
//! ```
//! use clad_codegen::extension::{Context, Extension, Output};
//! use clad_codegen::{Builder, MemoryLoader};
//!
//! /// Emits `pub const <UNION>_MEMBERS: usize` for one union.
//! #[derive(Debug)]
//! struct CountMembers(&'static str);
//!
//! impl Extension for CountMembers {
//!     fn describe(&self) -> String {
//!         format!("member count of `{}`", self.0)
//!     }
//!
//!     fn generate(&self, cx: &mut Context<'_>) -> Output {
//!         let Some(tag) = cx.names().union_tag(self.0) else {
//!             return Output::error(format!("no union `{}` in this build", self.0));
//!         };
//!         let name = format!("{}_MEMBERS", self.0.to_uppercase());
//!         if let Err(d) = cx.claim_root_name(&name, &self.describe()) {
//!             return Output::from_diagnostics(vec![d]);
//!         }
//!         Output::item(format!("pub const {name}: usize = {};\n", tag.variants.len()))
//!     }
//! }
//!
//! let mut files = MemoryLoader::new().file("u.clad", "union U { bool a, uint_8 b }\n");
//! let units = vec![clad_codegen::compile(&mut files, "u.clad").schema.unwrap()];
//! let options = clad_codegen::rust::RustOptions::default();
//! let emitter = clad_codegen::rust::Emitter::new(&units, &options).unwrap();
//! let mut cx = Context::new(&units, &emitter, &mut files);
//! let out = CountMembers("U").generate(&mut cx);
//! assert_eq!(out.items, ["pub const U_MEMBERS: usize = 2;\n"]);
//!
//! // In a build script:
//! // Builder::new().file("u.clad").extension(CountMembers("U")).build();
//! # let _ = Builder::new().extension(CountMembers("U"));
//! ```

use crate::diagnostics::Diagnostic;
use crate::ir::{DeclKind, Schema};
use crate::loader::{LoadError, SourceLoader};
use crate::rust::{Emitter, Names};
use crate::source::{FileId, SourceDb, SourceFile};
use std::fmt;
use std::path::PathBuf;

/// A crate that adds generated items to a build (see the [module docs](self)).
///
/// `Debug` is required so a [`Builder`](crate::Builder) holding extensions can still be
/// printed.
pub trait Extension: fmt::Debug {
    /// What the extension generates, for messages ("the shape tables
    /// `tables.json`").
    fn describe(&self) -> String;

    /// The files the extension will read (names as given to [`Context::load`]). The builder
    /// watches them even when the build fails before the extension runs (a schema error), so
    /// editing one of them alone reruns the build script. Default: none.
    fn inputs(&self) -> Vec<String> {
        Vec::new()
    }

    /// Generates the extension's items for the build `cx` describes.
    fn generate(&self, cx: &mut Context<'_>) -> Output;
}

/// What an extension adds to a build.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// Rust items, as formatted text, appended to the root of the generated file (after the
    /// schema's own items, separated by blank lines). They name generated types by the paths
    /// of [`Context::names`], which are relative to that root.
    pub items: Vec<String>,
    /// Errors and warnings. Any error fails the build (the items are then discarded).
    pub diagnostics: Vec<Diagnostic>,
    /// The files the diagnostics point into: usually [`Context::sources_of`] a unit, plus the
    /// files added by [`Context::load`]. Global diagnostics need none.
    pub sources: SourceDb,
}

impl Output {
    /// One item and nothing else.
    pub fn item(code: impl Into<String>) -> Self {
        Output {
            items: vec![code.into()],
            ..Output::default()
        }
    }

    /// Only diagnostics without a place (the build fails when one is an error).
    pub fn from_diagnostics(diagnostics: Vec<Diagnostic>) -> Self {
        Output {
            diagnostics,
            ..Output::default()
        }
    }

    /// One error without a place.
    pub fn error(message: impl Into<String>) -> Self {
        Self::from_diagnostics(vec![Diagnostic::error_global(message)])
    }

    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics rendered with source snippets (no colour).
    pub fn render(&self) -> String {
        crate::diagnostics::render(&self.diagnostics, &self.sources, false)
    }
}

/// What an extension sees of the build it runs in.
pub struct Context<'b> {
    units: &'b [Schema],
    emitter: &'b Emitter<'b>,
    loader: &'b mut dyn SourceLoader,
    files_read: Vec<PathBuf>,
    claimed: Vec<(String, String)>,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("units", &self.units.len())
            .field("files_read", &self.files_read)
            .field("claimed", &self.claimed)
            .finish_non_exhaustive()
    }
}

impl<'b> Context<'b> {
    /// A context over `units` (the compiled files of one build, as [`Emitter::new`] received
    /// them), the output plan `emitter` made for them, and `loader` for the files extensions
    /// read. The [`Builder`](crate::Builder) makes one per build; tests and tools may make
    /// their own (with a [`MemoryLoader`](crate::MemoryLoader), say).
    pub fn new(
        units: &'b [Schema],
        emitter: &'b Emitter<'b>,
        loader: &'b mut dyn SourceLoader,
    ) -> Self {
        Context {
            units,
            emitter,
            loader,
            files_read: Vec::new(),
            claimed: Vec::new(),
        }
    }

    /// Every compiled file of the build, one unit per schema file (the inputs and every file
    /// they include), in build order. Each unit sees the declarations of the files it
    /// includes; it owns (and the output emits from it) only its own.
    pub fn units(&self) -> &'b [Schema] {
        self.units
    }

    /// The unit whose own file declares `fqn` (e.g. `Shapes::Shape`), else the
    /// first unit that can see it through its includes.
    pub fn unit_declaring(&self, fqn: &str) -> Option<&'b Schema> {
        let fqn = fqn.trim_start_matches("::");
        let declares = |u: &&Schema| {
            u.own_decls()
                .any(|(_, d)| d.fqn() == fqn && !matches!(d.kind, DeclKind::EnumConcept(_)))
        };
        self.units
            .iter()
            .find(declares)
            .or_else(|| self.units.iter().find(|u| u.lookup(fqn).is_some()))
    }

    /// The naming table of the output: every generated type's path and every union tag
    /// enum's variants, as the generated code spells them.
    pub fn names(&self) -> Names<'b> {
        self.emitter.names()
    }

    /// A source database holding `unit`'s files, to which [`Context::load`] adds the files
    /// the extension reads, so diagnostics can point at both (a JSON key and the union member
    /// it names, say).
    pub fn sources_of(&self, unit: &Schema) -> SourceDb {
        unit.sources.clone()
    }

    /// Loads `name` as the builder finds schema files (a plain path, then each include
    /// directory), adds it to `sources` and registers it for `cargo:rerun-if-changed`.
    /// Returns its id in `sources`; a missing or unreadable file is the [`LoadError`], for
    /// the extension to report in its own words.
    pub fn load(&mut self, sources: &mut SourceDb, name: &str) -> Result<FileId, LoadError> {
        let loaded = self.loader.load_main(name)?;
        if let Some(path) = &loaded.path {
            self.files_read.push(path.clone());
        }
        Ok(sources.add(SourceFile::new(loaded.name, loaded.path, loaded.text)))
    }

    /// Registers a file the extension read by other means, so cargo reruns the build script
    /// when it changes.
    pub fn watch(&mut self, path: impl Into<PathBuf>) {
        self.files_read.push(path.into());
    }

    /// Every file read through [`Context::load`] or registered with [`Context::watch`].
    pub fn files_read(&self) -> &[PathBuf] {
        &self.files_read
    }

    /// Reserves `name` for an item at the root of the generated file, on behalf of `owner`
    /// (an [`Extension::describe`] text). Fails, with a diagnostic naming both owners, when
    /// the schema's output already has a root item or module of that name (the Rust
    /// identifier) or another extension of the build claimed it.
    pub fn claim_root_name(&mut self, name: &str, owner: &str) -> Result<(), Diagnostic> {
        if let Some((_, first)) = self.claimed.iter().find(|(n, _)| n == name) {
            return Err(Diagnostic::error_global(format!(
                "two items of this build are named `{name}`: {first} and {owner}"
            ))
            .with_note("give one of them another name"));
        }
        if let Some(what) = self.names().root_item(name) {
            return Err(Diagnostic::error_global(format!(
                "{owner} would be named `{name}`, the name of the generated {what}"
            ))
            .with_note("give it another name"));
        }
        self.claimed.push((name.to_owned(), owner.to_owned()));
        Ok(())
    }
}

/// The diagnostic for a file an extension could not load: `could not find {what} "name"`
/// with the directories searched, or `error reading {what} ...`.
pub fn load_error(what: &str, name: &str, error: LoadError) -> Diagnostic {
    match error {
        LoadError::NotFound { searched } => {
            Diagnostic::error_global(format!("could not find {what} \"{name}\"")).with_note(
                format!("searched: the path itself, then {}", searched.join(", ")),
            )
        }
        LoadError::Unreadable { path, reason } => {
            Diagnostic::error_global(format!("error reading {what} \"{path}\": {reason}"))
        }
    }
}
