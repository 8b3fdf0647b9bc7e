//! `include_clad!`: the CLAD code generator behind a procedural macro.
//!
//! A thin front door: argument parsing, compilation and emission all live in
//! `clad_codegen` (`clad_codegen::macro_support`), so the macro expands to exactly the code
//! `clad_codegen::Builder` writes from a build script.

use proc_macro::TokenStream;

/// Compiles a CLAD schema (and every file it includes) and expands to the generated Rust:
/// exactly the code `clad_codegen::Builder` writes from a build script.
///
/// ```
/// // This crate sits in crates/clad-macros; the repository's schemas are in ../../schemas.
/// pub mod clad {
///     clad_macros::include_clad!("cloud.clad", include_dirs = ["../../schemas"]);
/// }
///
/// use clad::cloud_mic::{Hotword, Message, StreamType};
/// use clad_runtime::wire::Wire;
///
/// let msg = Message::Hotword(Hotword {
///     mode: StreamType::KnowledgeGraph,
///     locale: "en-US".to_owned(),
///     ..Default::default()
/// });
/// let bytes = msg.pack().unwrap();
/// assert_eq!(bytes[..2], [0, 2]); // union tag `hotword`, then `mode`
/// assert_eq!(Message::unpack(&bytes).unwrap(), msg);
/// ```
///
/// `include_clad!("path/to/file.clad", include_dirs = ["dir", ...], runtime = "::path", views = [...])`:
///
/// * Paths (the file and `include_dirs`) are relative to the calling crate's
///   `CARGO_MANIFEST_DIR`. The file is looked up as a path first, then in each include
///   directory, in order. Without `include_dirs`, the only include directory is
///   `CARGO_MANIFEST_DIR`; as everywhere in CLAD, the including file's own directory is not
///   searched.
/// * `runtime = "::path"`: the runtime crate as seen from the generated code (default
///   `::clad_runtime`).
/// * `views = ["Ns::Type", ...]`: types that also get a borrowed view `<Name>View<'a>`
///   (strings as `&'a str` into the packed bytes; see `clad_codegen::Builder::view`).
/// * The crate is rebuilt when any schema file read changes (the expansion ends with one
///   `include_bytes!` per file).
/// * Schema errors are reported at the path literal, with the same rendered diagnostics
///   (`file:line:col` and a snippet) as `cladc check` and the builder; argument errors at the
///   offending token.
#[proc_macro]
pub fn include_clad(input: TokenStream) -> TokenStream {
    clad_codegen::macro_support::expand(input.into()).into()
}
