//! The `build.rs` front door, in the style of `prost-build`.
//!
//! ```no_run
//! // build.rs: on schema errors, `build()` prints them as cargo::error= lines and exits 1.
//! clad_codegen::Builder::new()
//!     .include_dir("schemas")
//!     .file("cloud.clad")
//!     .type_attribute("CloudMic::Hotword", "#[non_exhaustive]")
//!     .build();
//! ```
//!
//! ```ignore
//! // src/lib.rs
//! pub mod clad {
//!     include!(concat!(env!("OUT_DIR"), "/clad.rs"));
//! }
//! ```
//!
//! Every file an input includes is compiled too (on its own, as the original compiler would
//! compile it), so the output holds every type the inputs refer to. CLAD namespaces become
//! nested modules in one output file. Build extensions ([`Builder::extension`]) append their
//! items to the same file.

use crate::diagnostics::{self, Diagnostic};
use crate::extension::{self, Extension};
use crate::ir::{Item, Schema};
use crate::loader::{FsLoader, LoadError, LoadedSource, SourceLoader};
use crate::rust::{self, Emitter, GeneratedType, RustOptions};
use crate::source::SourceDb;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Configures and runs code generation.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    include_dirs: Vec<PathBuf>,
    files: Vec<String>,
    out_dir: Option<PathBuf>,
    output_file: Option<String>,
    options: RustOptions,
    emit_cargo: bool,
    base_dir: Option<PathBuf>,
    extensions: Vec<Arc<dyn Extension>>,
}

/// The result of [`Builder::generate`].
#[derive(Clone, Debug)]
pub struct Generated {
    /// The Rust source, starting with the `@generated` header.
    pub code: String,
    /// Every schema file read (resolved paths, sorted, no duplicates).
    pub files_read: Vec<PathBuf>,
    /// Every generated type, in output order.
    pub types: Vec<GeneratedType>,
    /// Warnings (unused view paths, build extensions), rendered with source snippets; empty
    /// when there are none.
    /// [`Builder::compile`] prints them as `cargo::warning=` lines.
    pub warnings: String,
}

/// The result of [`Builder::compile`] and [`Builder::build`]: where the code was written and
/// what [`Builder::generate`] knows about it, so a `build.rs` can generate dispatch tables
/// (CLAD name → Rust path, view path) without generating twice.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The output file.
    pub path: PathBuf,
    /// Every generated type, in output order.
    pub types: Vec<GeneratedType>,
    /// Every file read (resolved paths, sorted, no duplicates); cargo was told to rerun the
    /// build script when one changes.
    pub files_read: Vec<PathBuf>,
    /// The warnings printed as `cargo::warning=` lines (empty when none).
    pub warnings: String,
}

/// Why generation failed.
#[derive(Debug)]
pub struct BuildError {
    /// Diagnostics rendered with source snippets.
    pub rendered: String,
    /// The diagnostics themselves.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rendered.trim_end())
    }
}

impl std::error::Error for BuildError {}

impl Builder {
    /// A builder with no files; output goes to `$OUT_DIR/clad.rs`.
    pub fn new() -> Self {
        Builder {
            emit_cargo: true,
            ..Default::default()
        }
    }

    /// Adds an include directory (searched in order; the first plays the role of the original
    /// tool's `-C` input directory).
    pub fn include_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.include_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Adds a schema file: a path inside an include directory, or a plain path.
    pub fn file(mut self, file: impl Into<String>) -> Self {
        self.files.push(file.into());
        self
    }

    /// Adds several schema files.
    pub fn files<S: Into<String>>(mut self, files: impl IntoIterator<Item = S>) -> Self {
        self.files.extend(files.into_iter().map(Into::into));
        self
    }

    /// Where to write the output (default: the `OUT_DIR` environment variable).
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Name of the output file (default `clad.rs`).
    pub fn output_file(mut self, name: impl Into<String>) -> Self {
        self.output_file = Some(name.into());
        self
    }

    /// Adds an attribute to generated types matching `path`: `.` for all, a namespace
    /// (`Anki::Vector`) for everything inside, or a fully qualified type name.
    pub fn type_attribute(mut self, path: impl Into<String>, attribute: impl Into<String>) -> Self {
        self.options
            .type_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Adds an attribute to generated fields matching `path`: `Ns::Type.field`, or `Ns::Type`
    /// for every field of the type.
    pub fn field_attribute(
        mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> Self {
        self.options
            .field_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Also generates a borrowed view `<Name>View<'a>` for the types matching `path` (`.`, a
    /// namespace or a fully qualified type name, as for [`Builder::type_attribute`]): the
    /// same members, with `string`s as `&'a str`, `uint_8` variable arrays as `&'a [u8]` and
    /// other variable arrays of fixed-size elements as `clad_runtime::wire::ArrayView`, all
    /// pointing into the packed bytes, so decoding allocates nothing for them
    /// (`clad_runtime::wire::WireView`: same checks and errors as `unpack`). Only types
    /// holding strings or variable arrays get a view; every such type they contain gets one
    /// too. Views come with `into_owned()`, `From<View> for Owned` and `Owned::view()`.
    ///
    /// ```no_run
    /// clad_codegen::Builder::new()
    ///     .include_dir("schemas")
    ///     .file("telemetry.clad")
    ///     .view("Telemetry::Frame") // FrameView<'a>, LogLineView<'a>, ...
    ///     .build();
    /// ```
    pub fn view(mut self, path: impl Into<String>) -> Self {
        self.options.views.push(path.into());
        self
    }

    /// Path of the runtime crate in generated code (default `::clad_runtime`): the `wire`,
    /// `json` and `serde` the generated types use.
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.options.runtime_path = path.into();
        self
    }

    /// Whether to print `cargo:rerun-if-changed` lines (default true). Turn off outside
    /// build scripts.
    pub fn emit_cargo_directives(mut self, on: bool) -> Self {
        self.emit_cargo = on;
        self
    }

    /// Resolves relative include directories and schema paths against `dir` instead of the
    /// current directory, and shows paths in diagnostics relative to `dir`. With no include
    /// directory, `dir` itself is searched. `include_clad!` passes the calling crate's
    /// `CARGO_MANIFEST_DIR`, because a proc macro's current directory is not the crate's.
    pub fn base_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.base_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Adds a build extension: after the schemas are compiled, `extension` gets the IR, the
    /// output's naming table and the build's loader, and its items are appended to the
    /// generated file (see [`crate::extension`]). Extensions run in the order they are added;
    /// their errors fail the build like schema errors, their warnings are printed.
    ///
    /// ```ignore
    /// // build.rs (the extension comes from another crate, a build dependency)
    /// clad_codegen::Builder::new()
    ///     .include_dir("schemas")
    ///     .file("shapes.clad")
    ///     .extension(shape_tables::Tables::new("tables.json", "Shapes::Shape"))
    ///     .build();
    /// ```
    pub fn extension(mut self, extension: impl Extension + 'static) -> Self {
        self.extensions.push(Arc::new(extension));
        self
    }

    /// Compiles every file (and every file they include) and generates the code, without
    /// writing anything.
    pub fn generate(&self) -> Result<Generated, BuildError> {
        let (units, mut files_read) = self.compile_units()?;
        let emitter = Emitter::new(&units, &self.options).map_err(error_from)?;
        let mut code = emitter.file();
        let added = self.run_extensions(&units, &emitter, &mut files_read)?;
        for item in added.items {
            code.push('\n');
            code.push_str(&item);
        }
        let types = emitter.types();
        let mut warnings = self.view_warnings(&types);
        warnings.push_str(&added.warnings);
        Ok(Generated {
            code,
            files_read,
            types,
            warnings,
        })
    }

    /// A warning per [`Builder::view`] path that gives no view: a type with nothing to
    /// borrow (no string, no variable array, in itself or in what it holds), or a namespace
    /// none of whose types borrows. (A path that names nothing at all is an error.)
    fn view_warnings(&self, types: &[GeneratedType]) -> String {
        let mut out = String::new();
        for path in &self.options.views {
            let fqn = path.trim_start_matches("::");
            if let Some(t) = types.iter().find(|t| t.clad_name == fqn) {
                if t.view_path.is_none() {
                    out.push_str(&format!(
                        "view(\"{path}\"): the {} {} has nothing to borrow (no string or \
                         variable array), so it has no view; decode it with `unpack`\n",
                        t.kind, t.clad_name
                    ));
                }
                continue;
            }
            let prefix = format!("{fqn}::");
            let matched: Vec<&GeneratedType> = types
                .iter()
                .filter(|t| t.clad_name.starts_with(&prefix))
                .collect();
            if !matched.is_empty() && matched.iter().all(|t| t.view_path.is_none()) {
                out.push_str(&format!(
                    "view(\"{path}\"): no type in namespace {fqn} has anything to borrow \
                     (no string or variable array), so none has a view\n"
                ));
            }
        }
        out
    }

    /// Like [`Builder::generate`], but returns the code as tokens (what `include_clad!`
    /// expands to) and the files read.
    pub fn generate_tokens(&self) -> Result<(proc_macro2::TokenStream, Vec<PathBuf>), BuildError> {
        let (units, mut files_read) = self.compile_units()?;
        let emitter = Emitter::new(&units, &self.options).map_err(error_from)?;
        let mut tokens = emitter.tokens().map_err(error_from)?;
        let added = self.run_extensions(&units, &emitter, &mut files_read)?;
        for item in added.items {
            tokens.extend(rust::lex(&item, "item of a build extension").map_err(error_from)?);
        }
        Ok((tokens, files_read))
    }

    /// Runs every extension over the build, in order, with one [`extension::Context`] (so
    /// root names claimed by one are seen by the next). Fails with the diagnostics of every
    /// extension that reported an error.
    fn run_extensions(
        &self,
        units: &[Schema],
        emitter: &Emitter<'_>,
        files_read: &mut Vec<PathBuf>,
    ) -> Result<ExtensionItems, BuildError> {
        let mut out = ExtensionItems::default();
        if self.extensions.is_empty() {
            return Ok(out);
        }
        let mut errors = BuildError {
            rendered: String::new(),
            diagnostics: Vec::new(),
        };
        let mut loader = self.loader();
        let mut cx = extension::Context::new(units, emitter, &mut loader);
        for ext in &self.extensions {
            let added = ext.generate(&mut cx);
            let rendered = added.render();
            if added.has_errors() {
                errors.rendered.push_str(&rendered);
                errors.diagnostics.extend(added.diagnostics);
                continue;
            }
            out.warnings.push_str(&rendered);
            out.items.extend(added.items);
        }
        files_read.extend(cx.files_read().iter().cloned());
        files_read.extend(loader.fs.files_read().iter().cloned());
        files_read.sort();
        files_read.dedup();
        if errors.diagnostics.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// Compiles the inputs and, transitively, every file they include (each on its own, as
    /// the original compiler would), returning the compiled files and every file read.
    fn compile_units(&self) -> Result<(Vec<Schema>, Vec<PathBuf>), BuildError> {
        let mut units: Vec<Schema> = Vec::new();
        let mut files_read: Vec<PathBuf> = Vec::new();
        let mut diags: Vec<(Vec<Diagnostic>, SourceDb)> = Vec::new();
        let mut queue: Vec<String> = self.files.clone();
        let mut seen_inputs: Vec<String> = Vec::new();
        let mut seen_mains: Vec<String> = Vec::new();
        if queue.is_empty() {
            return Err(error_from(vec![Diagnostic::error_global(
                "no schema file given (use Builder::file)",
            )]));
        }
        let mut i = 0;
        while i < queue.len() {
            let input = queue[i].clone();
            i += 1;
            if seen_inputs.contains(&input) {
                continue;
            }
            seen_inputs.push(input.clone());
            let mut loader = self.loader();
            let out = crate::compile(&mut loader, &input);
            files_read.extend(loader.fs.files_read().iter().cloned());
            let Some(schema) = out.schema else {
                diags.push((out.diagnostics, out.sources));
                continue;
            };
            let main_name = schema.sources.get(schema.main_file()).name.clone();
            if seen_mains.contains(&main_name) {
                continue;
            }
            seen_mains.push(main_name);
            queue.extend(include_paths(&schema.items));
            units.push(schema);
        }
        files_read.sort();
        files_read.dedup();
        if !diags.is_empty() {
            let mut rendered = String::new();
            let mut all = Vec::new();
            for (d, sources) in diags {
                rendered.push_str(&diagnostics::render(&d, &sources, false));
                all.extend(d);
            }
            return Err(BuildError {
                rendered,
                diagnostics: all,
            });
        }
        Ok((units, files_read))
    }

    /// Generates and writes the output file (only when its content changed), printing
    /// `cargo:rerun-if-changed` for every schema file read and `cargo::warning=` for every
    /// warning line. Returns the output path with the generated types and the files read.
    pub fn compile(&self) -> Result<Compiled, BuildError> {
        let generated = self.generate();
        if self.emit_cargo {
            // Even on failure, rerun when a schema changes.
            let read = match &generated {
                Ok(g) => g.files_read.clone(),
                Err(_) => self.files_read_best_effort(),
            };
            for f in read {
                println!("cargo:rerun-if-changed={}", f.display());
            }
        }
        let generated = generated?;
        if self.emit_cargo {
            for line in generated.warnings.lines() {
                println!("cargo::warning={line}");
            }
        }
        let dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => match std::env::var_os("OUT_DIR") {
                Some(d) => PathBuf::from(d),
                None => {
                    return Err(error_from(vec![Diagnostic::error_global(
                        "OUT_DIR is not set: call Builder::out_dir outside build scripts",
                    )]))
                }
            },
        };
        let path = dir.join(self.output_file.as_deref().unwrap_or("clad.rs"));
        write_if_changed(&path, &generated.code).map_err(|e| {
            error_from(vec![Diagnostic::error_global(format!(
                "cannot write {}: {e}",
                path.display()
            ))])
        })?;
        Ok(Compiled {
            path,
            types: generated.types,
            files_read: generated.files_read,
            warnings: generated.warnings,
        })
    }

    /// [`Builder::compile`] for build scripts: on error, prints every diagnostic line as
    /// `cargo::error=` and exits with status 1 (no panic, no backtrace).
    pub fn build(&self) -> Compiled {
        match self.compile() {
            Ok(p) => p,
            Err(e) => {
                for line in e.rendered.lines() {
                    println!("cargo::error={line}");
                }
                std::process::exit(1);
            }
        }
    }

    fn files_read_best_effort(&self) -> Vec<PathBuf> {
        let mut read = Vec::new();
        for f in &self.files {
            let mut loader = self.loader();
            let _ = crate::compile(&mut loader, f);
            read.extend(loader.fs.files_read().iter().cloned());
        }
        for input in self.extensions.iter().flat_map(|e| e.inputs()) {
            let mut loader = self.loader();
            let _ = loader.load_main(&input);
            read.extend(loader.fs.files_read().iter().cloned());
        }
        read.sort();
        read.dedup();
        read
    }

    fn loader(&self) -> BuilderLoader {
        let Some(base) = &self.base_dir else {
            return BuilderLoader {
                fs: FsLoader::new(&self.include_dirs),
                base: None,
            };
        };
        let dirs: Vec<PathBuf> = if self.include_dirs.is_empty() {
            vec![base.clone()]
        } else {
            self.include_dirs.iter().map(|d| base.join(d)).collect()
        };
        BuilderLoader {
            fs: FsLoader::new(dirs),
            base: Some(base.clone()),
        }
    }
}

/// What [`Builder::run_extensions`] produces.
#[derive(Default)]
struct ExtensionItems {
    /// Every item, as Rust code, in order.
    items: Vec<String>,
    /// Rendered warnings.
    warnings: String,
}

/// [`FsLoader`], rooted at [`Builder::base_dir`] when one is set.
struct BuilderLoader {
    fs: FsLoader,
    base: Option<PathBuf>,
}

impl BuilderLoader {
    /// A path as shown in diagnostics: relative to the base directory when inside it.
    fn display(&self, path: &str) -> String {
        let Some(base) = &self.base else {
            return path.to_owned();
        };
        match Path::new(path).strip_prefix(base) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.to_owned(),
        }
    }

    fn relative(&self, loaded: Result<LoadedSource, LoadError>) -> Result<LoadedSource, LoadError> {
        match loaded {
            Ok(source) => Ok(LoadedSource {
                name: self.display(&source.name),
                ..source
            }),
            Err(LoadError::NotFound { searched }) => Err(LoadError::NotFound {
                searched: searched.iter().map(|d| self.display(d)).collect(),
            }),
            Err(LoadError::Unreadable { path, reason }) => Err(LoadError::Unreadable {
                path: self.display(&path),
                reason,
            }),
        }
    }
}

impl SourceLoader for BuilderLoader {
    fn load_main(&mut self, name: &str) -> Result<LoadedSource, LoadError> {
        let Some(base) = &self.base else {
            return self.fs.load_main(name);
        };
        // The plain path, relative to the base directory (never the current directory),
        // then the include directories.
        let plain = base.join(name);
        let loaded = match plain.to_str() {
            Some(p) if plain.is_file() => self.fs.load_main(p),
            _ => self.fs.load_include(name),
        };
        self.relative(loaded)
    }

    fn load_include(&mut self, path: &str) -> Result<LoadedSource, LoadError> {
        let loaded = self.fs.load_include(path);
        self.relative(loaded)
    }
}

fn error_from(diagnostics: Vec<Diagnostic>) -> BuildError {
    let rendered = diagnostics::render(&diagnostics, &SourceDb::new(), false);
    BuildError {
        rendered,
        diagnostics,
    }
}

/// Every include path of a schema (transitively through include blocks), in order.
fn include_paths(items: &[Item]) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Include(inc) => {
                out.push(inc.path.clone());
                out.extend(include_paths(&inc.items));
            }
            Item::Namespace(ns) => out.extend(include_paths(&ns.items)),
            Item::Decl(_) => {}
        }
    }
    out
}

/// Writes `content` to `path` unless the file already holds exactly that.
pub fn write_if_changed(path: &Path, content: &str) -> std::io::Result<bool> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == content) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, content)?;
    Ok(true)
}
