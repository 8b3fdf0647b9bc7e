//! The expansion of `include_clad!` (crate `clad-macros`).
//!
//! The proc-macro crate only forwards its input to [`expand`]; everything else lives here so
//! that the expansion can be unit-tested against [`Builder`] (a proc-macro crate can export
//! nothing but macros). Not a stable API.
//!
//! ```text
//! include_clad!("path/to/file.clad", include_dirs = ["dir", ...], runtime = "::path",
//!               views = ["Ns::Type", ...])
//! ```
//!
//! * The file path and the include directories are relative to the calling crate's
//!   `CARGO_MANIFEST_DIR` (read when the macro expands). The file is looked up as a path
//!   first, then inside each include directory, as the builder does.
//! * Without `include_dirs`, the single include directory is `CARGO_MANIFEST_DIR` itself (the
//!   builder would search the current directory, which is not the crate's inside a macro).
//!   As everywhere in CLAD, the directory of the including file is not searched.
//! * `runtime` is the path of the runtime crate in generated code (default `::clad_runtime`).
//! * `views` lists the CLAD paths that get borrowed views, as [`Builder::view`].
//!
//! The expansion is exactly [`Builder::generate_tokens`] of a builder configured with
//! [`Builder::base_dir`]`(CARGO_MANIFEST_DIR)`, followed by one
//! `const _: &[u8] = include_bytes!("<absolute path>");` per schema file read, so that rustc
//! rebuilds the crate when a schema changes. Every error is a `compile_error!`: argument
//! errors at the offending token, schema errors at the path literal with the rendered
//! diagnostics (paths relative to `CARGO_MANIFEST_DIR`).

use crate::Builder;
use proc_macro2::TokenStream;
use quote::quote;
use std::path::{Path, PathBuf};
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

/// The arguments of `include_clad!`.
#[derive(Clone)]
pub struct Args {
    /// The schema file.
    pub file: LitStr,
    /// `include_dirs = [...]`, in order.
    pub include_dirs: Vec<LitStr>,
    /// `runtime = "..."`.
    pub runtime: Option<LitStr>,
    /// `views = [...]`: CLAD paths that get borrowed views ([`Builder::view`]).
    pub views: Vec<LitStr>,
}

const USAGE: &str =
    "usage: include_clad!(\"path/to/file.clad\", include_dirs = [\"dir\", ...], runtime = \"::path\", views = [\"Ns::Type\", ...])";

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(syn::Error::new(
                proc_macro2::Span::call_site(),
                format!("missing the schema file path; {USAGE}"),
            ));
        }
        let file = string(input, "the schema file path")?;
        let mut include_dirs: Option<Vec<LitStr>> = None;
        let mut runtime: Option<LitStr> = None;
        let mut views: Option<Vec<LitStr>> = None;
        while !input.is_empty() {
            if !input.peek(Token![,]) {
                return Err(input.error("expected `,`"));
            }
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break; // trailing comma
            }
            let key: syn::Ident = input.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected an argument name: `include_dirs`, `runtime` or `views`",
                )
            })?;
            if !input.peek(Token![=]) {
                return Err(input.error(format!("expected `=` after `{key}`")));
            }
            input.parse::<Token![=]>()?;
            if key == "include_dirs" {
                if include_dirs.is_some() {
                    return Err(syn::Error::new(key.span(), "`include_dirs` given twice"));
                }
                include_dirs = Some(string_list(input)?);
            } else if key == "runtime" {
                if runtime.is_some() {
                    return Err(syn::Error::new(key.span(), "`runtime` given twice"));
                }
                runtime = Some(string(input, "the runtime crate path")?);
            } else if key == "views" {
                if views.is_some() {
                    return Err(syn::Error::new(key.span(), "`views` given twice"));
                }
                views = Some(string_list(input)?);
            } else {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown argument `{key}`: expected `include_dirs`, `runtime` or `views`"
                    ),
                ));
            }
        }
        Ok(Args {
            file,
            include_dirs: include_dirs.unwrap_or_default(),
            runtime,
            views: views.unwrap_or_default(),
        })
    }
}

/// A string literal, or an error at the offending token naming `what` was expected.
fn string(input: ParseStream, what: &str) -> syn::Result<LitStr> {
    if input.peek(LitStr) {
        input.parse()
    } else {
        Err(input.error(format!("expected {what} as a string literal")))
    }
}

/// `["a", "b", ...]` (possibly empty, trailing comma allowed).
fn string_list(input: ParseStream) -> syn::Result<Vec<LitStr>> {
    if !input.peek(syn::token::Bracket) {
        return Err(input.error("expected a list of directories: `[\"dir\", ...]`"));
    }
    let content;
    syn::bracketed!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        out.push(string(&content, "an include directory")?);
        if content.is_empty() {
            break;
        }
        if !content.peek(Token![,]) {
            return Err(content.error("expected `,` or `]`"));
        }
        content.parse::<Token![,]>()?;
    }
    Ok(out)
}

/// What a successful expansion consists of.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// Exactly [`Builder::generate_tokens`].
    pub code: TokenStream,
    /// Every schema file read (absolute paths), one `include_bytes!` guard each.
    pub files_read: Vec<PathBuf>,
}

impl Expansion {
    /// The code followed by the rebuild guards: what the macro expands to.
    pub fn into_tokens(self) -> TokenStream {
        let Expansion { code, files_read } = self;
        let mut out = code;
        for path in &files_read {
            // A path that is not UTF-8 cannot be named in a literal; the file is still
            // compiled, only the rebuild guard is lost (`generate` rejects this case before).
            if let Some(p) = path.to_str() {
                out.extend(quote! { const _: &[u8] = ::core::include_bytes!(#p); });
            }
        }
        out
    }
}

/// The macro's expansion: generated code plus rebuild guards, or `compile_error!`s.
/// Reads `CARGO_MANIFEST_DIR` from the environment.
pub fn expand(input: TokenStream) -> TokenStream {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    expand_in(input, manifest_dir.as_deref())
}

/// [`expand`] with an explicit manifest directory (`None`: not set).
pub fn expand_in(input: TokenStream, manifest_dir: Option<&Path>) -> TokenStream {
    match generate(input, manifest_dir) {
        Ok(expansion) => expansion.into_tokens(),
        Err(e) => e.to_compile_error(),
    }
}

/// Parses the arguments and runs the builder.
pub fn generate(input: TokenStream, manifest_dir: Option<&Path>) -> syn::Result<Expansion> {
    let args: Args = syn::parse2(input)?;
    let Some(manifest_dir) = manifest_dir else {
        return Err(syn::Error::new(
            args.file.span(),
            "CARGO_MANIFEST_DIR is not set: include_clad! resolves paths against it, so the \
             crate must be built by cargo",
        ));
    };
    let builder = builder(&args, manifest_dir)?;
    let (code, files_read) = builder.generate_tokens().map_err(|e| {
        let mut message = format!(
            "could not compile the CLAD schema \"{}\"\n\n{}",
            args.file.value(),
            e.rendered.trim_end()
        );
        if e.diagnostics
            .iter()
            .any(|d| d.message.starts_with("could not find file"))
        {
            message.push_str(
                "\n\nnote: include_clad! paths are relative to the crate's CARGO_MANIFEST_DIR",
            );
        }
        syn::Error::new(args.file.span(), message)
    })?;
    if let Some(bad) = files_read.iter().find(|p| p.to_str().is_none()) {
        return Err(syn::Error::new(
            args.file.span(),
            format!(
                "the schema path {} is not valid UTF-8: include_clad! cannot track it for \
                 rebuilds; use a build script (clad_codegen::Builder) instead",
                bad.display()
            ),
        ));
    }
    Ok(Expansion { code, files_read })
}

/// The builder `include_clad!` runs for `args` in the crate at `manifest_dir`. Checks that
/// every include directory exists and that the runtime path parses.
pub fn builder(args: &Args, manifest_dir: &Path) -> syn::Result<Builder> {
    let mut builder = Builder::new()
        .emit_cargo_directives(false)
        .base_dir(manifest_dir);
    let mut errors: Option<syn::Error> = None;
    let mut push = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    if args.include_dirs.is_empty() {
        builder = builder.include_dir(manifest_dir);
    }
    for dir in &args.include_dirs {
        let value = dir.value();
        if !manifest_dir.join(&value).is_dir() {
            push(syn::Error::new(
                dir.span(),
                format!(
                    "include directory \"{value}\" does not exist (include_clad! paths are \
                     relative to the crate's CARGO_MANIFEST_DIR)"
                ),
            ));
        }
        builder = builder.include_dir(value);
    }
    if let Some(rt) = &args.runtime {
        let value = rt.value();
        if syn::parse_str::<syn::Path>(&value).is_err() {
            push(syn::Error::new(
                rt.span(),
                format!("invalid runtime path \"{value}\": expected a Rust path such as `::clad_runtime`"),
            ));
        }
        builder = builder.runtime_path(value);
    }
    for view in &args.views {
        builder = builder.view(view.value());
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(builder.file(args.file.value())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A scratch directory standing in for a crate's `CARGO_MANIFEST_DIR`.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("clad-macro-support-{}-{name}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        fn file(&self, path: &str, text: &str) -> &Self {
            let path = self.0.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
            self
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn workspace_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// Splits an expansion into the generated file and the paths of its `include_bytes!`
    /// rebuild guards.
    fn split_guards(expansion: TokenStream) -> (syn::File, Vec<String>) {
        let mut file: syn::File = syn::parse2(expansion).expect("the expansion parses");
        let mut guards = Vec::new();
        file.items.retain(|item| {
            let syn::Item::Const(c) = item else {
                return true;
            };
            let syn::Expr::Macro(m) = &*c.expr else {
                return true;
            };
            if c.ident != "_" || !m.mac.path.is_ident("include_bytes") {
                return true;
            }
            let path: LitStr = m.mac.parse_body().expect("a path literal");
            guards.push(path.value());
            false
        });
        (file, guards)
    }

    /// `::core::include_bytes!` → `include_bytes` for [`split_guards`].
    fn normalize(expansion: TokenStream) -> TokenStream {
        let text = expansion
            .to_string()
            .replace(":: core :: include_bytes !", "include_bytes !");
        text.parse().unwrap()
    }

    fn errors(input: TokenStream, manifest_dir: &Path) -> Vec<String> {
        match generate(input, Some(manifest_dir)) {
            Ok(_) => panic!("expected an error"),
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn expansion_is_the_builder_output_plus_rebuild_guards() {
        let root = workspace_root();
        let expansion = expand_in(
            quote!("cloud.clad", include_dirs = ["schemas"]),
            Some(&root),
        );
        let (tokens, files_read) = Builder::new()
            .emit_cargo_directives(false)
            .include_dir(root.join("schemas"))
            .file("cloud.clad")
            .generate_tokens()
            .unwrap();
        assert!(files_read.len() >= 2, "cloud.clad includes common.clad");

        // The rebuild guards: one per file read, absolute paths, at the end.
        let (file, guards) = split_guards(normalize(expansion.clone()));
        let expected: Vec<String> = files_read
            .iter()
            .map(|p| p.to_str().unwrap().to_owned())
            .collect();
        assert_eq!(guards, expected);
        assert!(guards.iter().all(|g| Path::new(g).is_absolute()));

        // Minus the guards, exactly the builder's tokens.
        let builder_file: syn::File = syn::parse2(tokens.clone()).unwrap();
        assert_eq!(quote!(#file).to_string(), quote!(#builder_file).to_string());
        assert!(expansion.to_string().starts_with(&tokens.to_string()));

        // And the file the builder writes, parsed back, is the same code.
        let out = TempDir::new("written");
        let written = Builder::new()
            .emit_cargo_directives(false)
            .include_dir(root.join("schemas"))
            .file("cloud.clad")
            .out_dir(&out.0)
            .compile()
            .unwrap();
        let written = fs::read_to_string(written).unwrap();
        let written: syn::File = syn::parse_file(&written).unwrap();
        assert_eq!(
            prettyplease::unparse(&written),
            prettyplease::unparse(&file)
        );
    }

    #[test]
    fn paths_are_relative_to_the_manifest_dir() {
        let dir = TempDir::new("relative");
        dir.file(
            "schemas/main.clad",
            "#include \"schemas/shared.clad\"\nmessage M { S s }\n",
        )
        .file("schemas/shared.clad", "message S { uint_8 x }\n");
        // No include_dirs: the manifest dir is the include directory, so the include is
        // written relative to it.
        let ok = generate(quote!("schemas/main.clad"), Some(&dir.0)).unwrap();
        assert_eq!(
            ok.files_read,
            [
                dir.0.join("schemas/main.clad"),
                dir.0.join("schemas/shared.clad")
            ]
        );
        let code = ok.code.to_string();
        // The constant is named after the file, not after how its path was spelled.
        assert!(code.contains("pub const MAIN_FILE_HASH"), "{code}");
        assert!(code.contains("pub const SHARED_FILE_HASH"), "{code}");

        // With include_dirs, the file is found inside them and the manifest dir is not an
        // include directory any more.
        let e = errors(quote!("main.clad", include_dirs = ["schemas"]), &dir.0);
        assert_eq!(e.len(), 1);
        assert!(
            e[0].contains("could not find file \"schemas/shared.clad\""),
            "{}",
            e[0]
        );
        assert!(e[0].contains("in order: schemas\n"), "{}", e[0]);

        // Diagnostics never show the absolute manifest dir.
        let e = errors(
            quote!("schemas/main.clad", include_dirs = ["schemas"]),
            &dir.0,
        );
        assert!(!e[0].contains(dir.0.to_str().unwrap()), "{}", e[0]);
        assert!(e[0].contains("┌─ schemas/main.clad:1:11"), "{}", e[0]);
    }

    #[test]
    fn schema_errors_carry_the_rendered_snippet() {
        let dir = TempDir::new("schema-error");
        dir.file("bad.clad", "message M {\n  Hotwrod h,\n}\n");
        let e = errors(quote!("bad.clad"), &dir.0);
        assert_eq!(
            e,
            ["could not compile the CLAD schema \"bad.clad\"\n\n\
              error: unknown type: Hotwrod\n  \
              ┌─ bad.clad:2:3\n  \
              │\n\
              2 │   Hotwrod h,\n  \
              │   ^^^^^^^ not declared before this point"]
        );

        let e = errors(quote!("nowhere.clad"), &dir.0);
        assert_eq!(
            e,
            ["could not compile the CLAD schema \"nowhere.clad\"\n\n\
              error: could not find file \"nowhere.clad\"\n \
              = searched: the path itself, then .\n\n\
              note: include_clad! paths are relative to the crate's CARGO_MANIFEST_DIR"]
        );
    }

    #[test]
    fn argument_errors() {
        let dir = TempDir::new("args");
        dir.file("a.clad", "message A { uint_8 x }\n");
        let cases = [
            (quote!(), "missing the schema file path"),
            (
                quote!(a.clad),
                "expected the schema file path as a string literal",
            ),
            (quote!("a.clad" runtime = "::x"), "expected `,`"),
            (quote!("a.clad", dirs = []), "unknown argument `dirs`"),
            (quote!("a.clad", 3 = []), "expected an argument name"),
            (
                quote!("a.clad", runtime "::x"),
                "expected `=` after `runtime`",
            ),
            (
                quote!("a.clad", include_dirs = "."),
                "expected a list of directories",
            ),
            (
                quote!("a.clad", include_dirs = [x]),
                "expected an include directory",
            ),
            (
                quote!("a.clad", include_dirs = ["." "."]),
                "expected `,` or `]`",
            ),
            (
                quote!("a.clad", include_dirs = [], include_dirs = []),
                "`include_dirs` given twice",
            ),
            (
                quote!("a.clad", runtime = ::x),
                "expected the runtime crate path",
            ),
            (
                quote!("a.clad", runtime = "a b"),
                "invalid runtime path \"a b\"",
            ),
            (
                quote!("a.clad", include_dirs = ["nope"]),
                "include directory \"nope\" does not exist",
            ),
        ];
        for (input, expected) in cases {
            let e = errors(input.clone(), &dir.0);
            assert!(e[0].contains(expected), "{input}: {e:?}");
        }
        // Trailing commas are fine; an empty list means the manifest dir.
        for input in [
            quote!("a.clad",),
            quote!("a.clad", include_dirs = [],),
            quote!("a.clad", include_dirs = ["."], runtime = "::clad_runtime",),
        ] {
            generate(input, Some(&dir.0)).unwrap();
        }
        // No CARGO_MANIFEST_DIR.
        let e = generate(quote!("a.clad"), None).err().unwrap();
        assert!(e.to_string().contains("CARGO_MANIFEST_DIR is not set"));
        assert!(expand_in(quote!(), None)
            .to_string()
            .contains("compile_error"));
    }

    #[test]
    fn runtime_path_reaches_the_code() {
        let dir = TempDir::new("runtime");
        dir.file("a.clad", "message A { uint_8 x }\n");
        let ok = generate(quote!("a.clad", runtime = "crate::rt"), Some(&dir.0)).unwrap();
        let code = ok.code.to_string();
        assert!(code.contains("crate :: rt :: wire :: Wire"), "{code}");
        assert!(!code.contains("clad_runtime"), "{code}");
    }
}
