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
//! nested modules in one output file.

use crate::diagnostics::{self, Diagnostic};
use crate::intent_map::{self, IntentMapOptions};
use crate::ir::{Item, Schema};
use crate::loader::{FsLoader, LoadError, LoadedSource, SourceLoader};
use crate::rust::{self, Emitter, GeneratedType, RustOptions};
use crate::source::SourceDb;
use std::fmt;
use std::path::{Path, PathBuf};

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
    intent_maps: Vec<(String, IntentMapOptions)>,
    hri_maps: Vec<(String, intent_map::hri::HriMapOptions)>,
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
    /// Warnings (intent maps), rendered with source snippets; empty when there are none.
    /// [`Builder::compile`] prints them as `cargo::warning=` lines.
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
    ///     .file("cloud.clad")
    ///     .view("CloudMic::Message") // MessageView<'a>, IntentResultView<'a>, ...
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

    /// Path of the crate whose `intent` module holds `StaticIntentMap` (and whose `hri`
    /// module holds `StaticHriMap`), the types of the intent-map statics
    /// ([`Builder::intent_map`], [`Builder::hri_intent_map`]), in generated code (default
    /// `::robot_runtime`). Independent of [`Builder::runtime_path`]: the wire runtime and the
    /// intent runtime may live in different crates.
    pub fn intent_map_runtime_path(mut self, path: impl Into<String>) -> Self {
        self.options.intent_runtime_path = path.into();
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

    /// Compiles an intent map (a `user_intent_map.json` in the original robot's format)
    /// against the union `union` (fully qualified, e.g. `Anki::Vector::UserIntent`) and emits it
    /// into the output as `pub static <UNION>_MAP` (e.g. `USER_INTENT_MAP`) at the root of the
    /// generated file: a `robot_runtime::intent::StaticIntentMap<UserIntentTag>` (the crate is
    /// [`Builder::intent_map_runtime_path`]). The JSON file is found like a schema file (a
    /// plain path, or a path inside an include directory); a schema of the build must declare
    /// the union, and the enums the map is checked against may be declared by any file of the
    /// build. Map errors fail the build like schema errors. See [`crate::intent_map`] for what
    /// is checked.
    pub fn intent_map(self, json: impl Into<String>, union: impl Into<String>) -> Self {
        self.intent_map_with(json, IntentMapOptions::new(union))
    }

    /// [`Builder::intent_map`] with options: the feature enum `feature_gate` values must
    /// name, the unmapped-member lint, the static's name.
    pub fn intent_map_with(mut self, json: impl Into<String>, options: IntentMapOptions) -> Self {
        self.intent_maps.push((json.into(), options));
        self
    }

    /// Compiles an HRI intent map (`hri_intent_map.json`: ROS4HRI intent + role conditions →
    /// user-intent member + payload fields) against the union `options.union` and appends its
    /// static (`HRI_INTENT_MAP` by default). See [`crate::intent_map::hri`] for what is
    /// checked.
    pub fn hri_intent_map(
        mut self,
        json: impl Into<String>,
        options: intent_map::hri::HriMapOptions,
    ) -> Self {
        self.hri_maps.push((json.into(), options));
        self
    }

    /// Compiles every file (and every file they include) and generates the code, without
    /// writing anything.
    pub fn generate(&self) -> Result<Generated, BuildError> {
        let (units, mut files_read) = self.compile_units()?;
        let emitter = Emitter::new(&units, &self.options).map_err(error_from)?;
        let mut code = emitter.file();
        let maps = self.compile_intent_maps(&units, &emitter, &mut files_read)?;
        for map in maps.code {
            code.push('\n');
            code.push_str(&map);
        }
        let types = emitter.types();
        Ok(Generated {
            code,
            files_read,
            types,
            warnings: maps.warnings,
        })
    }

    /// Like [`Builder::generate`], but returns the code as tokens (what `include_clad!`
    /// expands to) and the files read.
    pub fn generate_tokens(&self) -> Result<(proc_macro2::TokenStream, Vec<PathBuf>), BuildError> {
        let (units, mut files_read) = self.compile_units()?;
        let emitter = Emitter::new(&units, &self.options).map_err(error_from)?;
        let mut tokens = emitter.tokens().map_err(error_from)?;
        let maps = self.compile_intent_maps(&units, &emitter, &mut files_read)?;
        for map in maps.code {
            tokens.extend(rust::lex(&map, "generated intent map").map_err(error_from)?);
        }
        Ok((tokens, files_read))
    }

    /// Compiles every intent map against the units of the build (the union from the unit
    /// declaring it, enums from any unit) and emits its static with the build's `emitter`.
    fn compile_intent_maps(
        &self,
        units: &[Schema],
        emitter: &Emitter<'_>,
        files_read: &mut Vec<PathBuf>,
    ) -> Result<IntentMaps, BuildError> {
        let mut out = IntentMaps::default();
        let mut errors = BuildError {
            rendered: String::new(),
            diagnostics: Vec::new(),
        };
        let mut statics: Vec<String> = Vec::new();
        for (json, options) in &self.intent_maps {
            let mut fail = |d: Vec<Diagnostic>, rendered: String| {
                errors.rendered.push_str(&rendered);
                errors.diagnostics.extend(d);
            };
            let name = options.static_ident();
            if statics.contains(&name) {
                let d = vec![Diagnostic::error_global(format!(
                    "two intent maps are emitted as `{name}`"
                ))
                .with_note("give one a different name with IntentMapOptions::static_name")];
                fail(d.clone(), diagnostics::render(&d, &SourceDb::new(), false));
                continue;
            }
            statics.push(name);
            if intent_map::union_unit(units, &options.union).is_none() {
                let d = vec![Diagnostic::error_global(format!(
                    "no schema of this build declares the union `{}` of intent map \"{json}\"",
                    options.union
                ))
                .with_note("add the schema file that declares it with Builder::file")];
                fail(d.clone(), diagnostics::render(&d, &SourceDb::new(), false));
                continue;
            };
            let mut loader = self.loader();
            let compiled = intent_map::compile_file(units, &mut loader, json, options);
            files_read.extend(loader.fs.files_read().iter().cloned());
            let rendered = compiled.render();
            let Some(model) = compiled.model.as_ref().filter(|_| !compiled.has_errors()) else {
                fail(compiled.diagnostics, rendered);
                continue;
            };
            out.warnings.push_str(&rendered);
            match intent_map::generate(model, emitter) {
                Ok(code) => out.code.push(code),
                Err(d) => {
                    let rendered = diagnostics::render(&d, &SourceDb::new(), false);
                    fail(d, rendered);
                }
            }
        }
        for (json, options) in &self.hri_maps {
            let mut fail = |d: Vec<Diagnostic>, rendered: String| {
                errors.rendered.push_str(&rendered);
                errors.diagnostics.extend(d);
            };
            if statics.contains(&options.static_name) {
                let d = vec![Diagnostic::error_global(format!(
                    "two intent maps are emitted as `{}`",
                    options.static_name
                ))
                .with_note("give one a different name with HriMapOptions::static_name")];
                fail(d.clone(), diagnostics::render(&d, &SourceDb::new(), false));
                continue;
            }
            statics.push(options.static_name.clone());
            let Some(schema) = intent_map::union_unit(units, &options.union) else {
                let d = vec![Diagnostic::error_global(format!(
                    "no schema of this build declares the union `{}` of HRI intent map \"{json}\"",
                    options.union
                ))
                .with_note("add the schema file that declares it with Builder::file")];
                fail(d.clone(), diagnostics::render(&d, &SourceDb::new(), false));
                continue;
            };
            let mut loader = self.loader();
            let compiled = intent_map::hri::compile_file(schema, &mut loader, json, options);
            files_read.extend(loader.fs.files_read().iter().cloned());
            let rendered = compiled.render();
            let Some(model) = compiled.model.as_ref().filter(|_| !compiled.has_errors()) else {
                fail(compiled.diagnostics, rendered);
                continue;
            };
            out.warnings.push_str(&rendered);
            match intent_map::hri::generate(model, emitter) {
                Ok(code) => out.code.push(code),
                Err(d) => {
                    let rendered = diagnostics::render(&d, &SourceDb::new(), false);
                    fail(d, rendered);
                }
            }
        }
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
    /// `cargo:rerun-if-changed` for every schema file read. Returns the output path.
    pub fn compile(&self) -> Result<PathBuf, BuildError> {
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
        Ok(path)
    }

    /// [`Builder::compile`] for build scripts: on error, prints every diagnostic line as
    /// `cargo::error=` and exits with status 1 (no panic, no backtrace).
    pub fn build(&self) -> PathBuf {
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
        let hri = self.hri_maps.iter().map(|(j, _)| j);
        for json in self.intent_maps.iter().map(|(j, _)| j).chain(hri) {
            let mut loader = self.loader();
            let _ = loader.load_main(json);
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

/// What [`Builder::compile_intent_maps`] produces.
#[derive(Default)]
struct IntentMaps {
    /// One static per map, as Rust code.
    code: Vec<String>,
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
