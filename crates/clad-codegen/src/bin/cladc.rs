//! `cladc`: the CLAD compiler's command line.
//!
//! Arguments are parsed by clap (derive). Exit status, the contract scripts rely on:
//! 0 on success, 1 when a schema or an input line has errors (diagnostics on stderr),
//! 2 on a usage error (clap reports its own argument errors with 2 as well).
//!
//! When the reader of standard output goes away (`cladc describe x.clad | head -1`), cladc
//! stops quietly with the status of what it did so far, as Unix tools do; a closed standard
//! error is ignored (there is nobody left to tell).

use clad_codegen::lines::Lines;
use clad_codegen::{compile, describe, dynamic, ir::Schema, schema_hash, FsLoader};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueHint};
use clap_complete::Shell;
use std::io::{ErrorKind, IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status when a schema, an input line or writing the output fails.
const EXIT_ERRORS: u8 = 1;
/// Exit status of a usage error; the same value clap exits with for its argument errors.
const EXIT_USAGE: u8 = 2;

const AFTER_HELP: &str = "\
FILE is a path, or a path inside one of the -I directories. TYPE is a fully qualified CLAD type \
name (Ns::Type).

Exit status: 0 on success, 1 when a schema or an input line has errors, 2 on a usage error. \
When standard output is closed early (`| head`), cladc stops quietly.";

/// cladc: compiler for CLAD schema files.
#[derive(Parser, Debug)]
#[command(
    name = "cladc",
    version,
    arg_required_else_help = true,
    after_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate schemas; every error with file:line:col and a snippet on stderr
    ///
    /// Every FILE is compiled on its own and all of their errors are reported. Nothing is
    /// written on stdout; the exit status is 1 when any file has an error.
    Check {
        #[command(flatten)]
        includes: Includes,
        /// Schema files to validate
        #[arg(required = true, value_name = "FILE", value_hint = ValueHint::FilePath)]
        files: Vec<String>,
    },
    /// The semantic model (hashes, enum values, tags, sizes) as JSON
    ///
    /// One FILE: its model. Several: an object keyed by file, the structure of the
    /// conformance suite's semantics.json. Each type shows both hashes: `hash`, the original
    /// compiler's per-declaration version hash, and `schema_hash`, the hash over the type and
    /// every type inside it that transports compare. Diagnostics go to stderr.
    Describe {
        #[command(flatten)]
        includes: Includes,
        /// Print the canonical form of TYPE (the text its schema_hash is the MD5 of) instead
        #[arg(long = "canonical", value_name = "TYPE")]
        canonical: Option<String>,
        /// Schema files to describe
        #[arg(required = true, value_name = "FILE", value_hint = ValueHint::FilePath)]
        files: Vec<String>,
    },
    /// Generate Rust into DIR/clad.rs, the same code the build.rs Builder writes
    Rust {
        #[command(flatten)]
        includes: Includes,
        /// Output directory; `-` prints the code on stdout
        #[arg(short = 'o', long = "out-dir", value_name = "DIR", value_hint = ValueHint::DirPath)]
        out_dir: String,
        /// Also generate borrowed views for the types at PATH (repeatable)
        ///
        /// Views are `<Name>View<'a>` types that borrow strings and arrays from the received
        /// bytes. PATH is `.` (everything), a namespace or Ns::Type.
        #[arg(long = "view", value_name = "PATH")]
        views: Vec<String>,
        /// Schema files to compile
        #[arg(required = true, value_name = "FILE", value_hint = ValueHint::FilePath)]
        files: Vec<String>,
    },
    /// Encode stdin lines {"type": T, "value": V} into hex lines
    ///
    /// One output line per non-empty input line; a line that fails (not UTF-8, not JSON, a
    /// key that names nothing, a value that does not fit) gives `error: line N: <message>`
    /// and the others are still encoded (exit status 1).
    Encode(Codec),
    /// Decode stdin lines {"type": T, "hex": H} into CLAD-JSON lines
    ///
    /// One output line per non-empty input line; a line that fails gives
    /// `error: line N: <message>` and the others are still decoded (exit status 1).
    Decode(Codec),
    /// Annotated dump of captured bytes: offset, bytes, field, value
    ///
    /// Exit status 1 when the bytes do not decode as TYPE; the dump shows where it stopped.
    Explain {
        #[command(flatten)]
        includes: Includes,
        /// The schema file
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: String,
        /// Fully qualified CLAD type name (Ns::Type)
        #[arg(value_name = "TYPE")]
        ty: String,
        /// The bytes, two hex digits per byte (e.g. 090e69)
        #[arg(value_name = "HEX", value_parser = parse_hex_arg)]
        hex: Hex,
    },
    /// Print a completion script for SHELL on stdout
    ///
    /// For example `cladc completions bash > ~/.local/share/bash-completion/completions/cladc`.
    Completions {
        /// The shell to complete for
        #[arg(value_name = "SHELL")]
        shell: Shell,
    },
}

/// `-I DIR`, shared by every command that reads schemas.
#[derive(Args, Debug)]
struct Includes {
    /// Search DIR for #include files (repeatable, searched in order)
    ///
    /// Directories are searched in the order given; the first one plays the role of the original
    /// tool's -C directory. The directory of the including file is not searched. With no -I, the
    /// current directory is searched.
    #[arg(
        short = 'I',
        long = "include-dir",
        value_name = "DIR",
        value_hint = ValueHint::DirPath
    )]
    dirs: Vec<PathBuf>,
}

/// Arguments of `encode` and `decode`.
#[derive(Args, Debug)]
struct Codec {
    #[command(flatten)]
    includes: Includes,
    /// The schema file
    #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
    file: String,
}

/// Bytes given as hex on the command line.
#[derive(Clone, Debug)]
struct Hex(Vec<u8>);

fn parse_hex_arg(s: &str) -> Result<Hex, String> {
    parse_hex(s)
        .map(Hex)
        .ok_or_else(|| "not hex (two digits per byte)".to_owned())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` arrive here too: printed on stdout, status 0.
            // Everything else is a usage error, printed on stderr.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match cli.command {
        Command::Check { includes, files } => check(&includes, &files, color),
        Command::Describe {
            includes,
            canonical,
            files,
        } => match canonical {
            Some(ty) => canonical_form(&includes, &files, &ty, color),
            None => describe(&includes, &files, color),
        },
        Command::Rust {
            includes,
            out_dir,
            views,
            files,
        } => rust(&includes, &out_dir, &views, files),
        Command::Encode(args) => codec(&args, true, color),
        Command::Decode(args) => codec(&args, false, color),
        Command::Explain {
            includes,
            file,
            ty,
            hex,
        } => explain(&includes, &file, &ty, &hex.0, color),
        Command::Completions { shell } => completions(shell),
    }
}

fn status(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(EXIT_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}

fn check(includes: &Includes, files: &[String], color: bool) -> ExitCode {
    let mut failed = false;
    for file in files {
        let mut loader = FsLoader::new(&includes.dirs);
        let out = compile(&mut loader, file);
        to_stderr(&out.render_colored(color));
        failed |= out.has_errors();
    }
    status(failed)
}

fn describe(includes: &Includes, files: &[String], color: bool) -> ExitCode {
    // One file: its entry. Several: an object keyed by file, like semantics.json. The text is
    // assembled directly so sizes above 64 bits stay exact.
    let mut entries = Vec::new();
    let mut failed = false;
    for file in files {
        let mut loader = FsLoader::new(&includes.dirs);
        let out = compile(&mut loader, file);
        to_stderr(&out.render_colored(color));
        match &out.schema {
            Some(schema) => entries.push((file, describe::describe_json(schema))),
            None => failed = true,
        }
    }
    let text = if files.len() == 1 {
        entries.first().map(|(_, text)| text.clone())
    } else {
        let body: Vec<String> = entries
            .iter()
            .map(|(file, text)| {
                let key = serde_json::to_string(file).unwrap_or_default();
                format!("  {key}: {}", text.replace('\n', "\n  "))
            })
            .collect();
        Some(format!("{{\n{}\n}}", body.join(",\n")))
    };
    if let Some(text) = text {
        if let Err(e) = writeln!(std::io::stdout().lock(), "{text}") {
            return write_failed(e, failed);
        }
    }
    status(failed)
}

fn canonical_form(includes: &Includes, files: &[String], ty: &str, color: bool) -> ExitCode {
    let mut failed = false;
    for file in files {
        let Some(schema) = load(includes, file, color) else {
            failed = true;
            continue;
        };
        let form = schema
            .lookup(ty)
            .and_then(|id| schema_hash::canonical_form(&schema, id));
        let Some(form) = form else {
            to_stderr(&format!("cladc: {file}: no type `{ty}`\n"));
            failed = true;
            continue;
        };
        if let Err(e) = std::io::stdout().lock().write_all(form.as_bytes()) {
            return write_failed(e, failed);
        }
    }
    status(failed)
}

fn rust(includes: &Includes, out_dir: &str, views: &[String], files: Vec<String>) -> ExitCode {
    let mut builder = clad_codegen::Builder::new().emit_cargo_directives(false);
    for dir in &includes.dirs {
        builder = builder.include_dir(dir);
    }
    for view in views {
        builder = builder.view(view);
    }
    builder = builder.files(files);
    if out_dir == "-" {
        return match builder.generate() {
            Ok(g) => {
                if let Err(e) = std::io::stdout().lock().write_all(g.code.as_bytes()) {
                    return write_failed(e, false);
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                to_stderr(&e.rendered);
                ExitCode::from(EXIT_ERRORS)
            }
        };
    }
    match builder.out_dir(out_dir).compile() {
        Ok(compiled) => {
            to_stderr(&compiled.warnings);
            to_stderr(&format!("wrote {}\n", compiled.path.display()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            to_stderr(&e.rendered);
            ExitCode::from(EXIT_ERRORS)
        }
    }
}

fn codec(args: &Codec, encode: bool, color: bool) -> ExitCode {
    let Some(schema) = load(&args.includes, &args.file, color) else {
        return ExitCode::from(EXIT_ERRORS);
    };
    let mut failed = false;
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Line by line: a line that is not UTF-8 (or too long) is one error line, and reading
    // goes on with the next.
    for (number, line) in Lines::new(stdin.lock()) {
        let result = match &line {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) if encode => encode_line(&schema, text),
            Ok(text) => decode_line(&schema, text),
            Err(e) => Err(e.to_string()),
        };
        let text = result.unwrap_or_else(|e| {
            failed = true;
            format!("error: line {number}: {e}")
        });
        if let Err(e) = writeln!(out, "{text}") {
            return write_failed(e, failed);
        }
    }
    if let Err(e) = out.flush() {
        return write_failed(e, failed);
    }
    status(failed)
}

fn explain(includes: &Includes, file: &str, ty: &str, bytes: &[u8], color: bool) -> ExitCode {
    let Some(schema) = load(includes, file, color) else {
        return ExitCode::from(EXIT_ERRORS);
    };
    let explanation = dynamic::explain(&schema, ty, bytes);
    let failed = explanation.error.is_some();
    if let Err(e) = write!(std::io::stdout().lock(), "{explanation}") {
        return write_failed(e, failed);
    }
    status(failed)
}

fn completions(shell: Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "cladc", &mut script);
    if let Err(e) = std::io::stdout().lock().write_all(&script) {
        return write_failed(e, false);
    }
    ExitCode::SUCCESS
}

/// Writing standard output failed. Its reader went away (a closed pipe: `| head`): stop
/// quietly with the status of what was done (`failed`), as Unix tools do. Anything else (a
/// full disk): say so, exit 1.
fn write_failed(e: std::io::Error, failed: bool) -> ExitCode {
    if e.kind() == ErrorKind::BrokenPipe {
        return status(failed);
    }
    to_stderr(&format!("cladc: cannot write standard output: {e}\n"));
    ExitCode::from(EXIT_ERRORS)
}

/// Diagnostics and messages. A closed or failing standard error is ignored: there is nobody
/// left to tell, and the exit status still says how it went.
fn to_stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

fn load(includes: &Includes, file: &str, color: bool) -> Option<Schema> {
    let mut loader = FsLoader::new(&includes.dirs);
    let out = compile(&mut loader, file);
    to_stderr(&out.render_colored(color));
    out.schema
}

/// Two hex digits per byte, nothing else (surrounding whitespace aside).
fn parse_hex(s: &str) -> Option<Vec<u8>> {
    let digits = s.trim().as_bytes();
    if !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let pairs = digits.chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return None;
    }
    pairs
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// Keys an input line may have besides `type` and the command's own (`value` to encode,
/// `hex` to decode): those of the golden-vector lines (`{"schema", "type", "value", "hex"}`),
/// so a vector file can be fed as it is. Any other key is an error naming it.
const LINE_KEYS: [&str; 4] = ["type", "value", "hex", "schema"];

/// The type and the `key` field of an input line.
fn line_fields(line: &str, key: &str) -> Result<(String, serde_json::Value), String> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let obj = v
        .as_object()
        .ok_or_else(|| format!("expected an object {{\"type\": ..., \"{key}\": ...}}"))?;
    if let Some(extra) = obj.keys().find(|k| !LINE_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key {extra:?} (a line has \"type\" and \"{key}\"; \"schema\" and \
             \"hex\"/\"value\" of a golden-vector line are accepted too)"
        ));
    }
    let ty = obj
        .get("type")
        .and_then(|t| t.as_str())
        .ok_or("the line has no \"type\" string")?
        .to_owned();
    let field = obj
        .get(key)
        .cloned()
        .ok_or_else(|| format!("the line has no \"{key}\""))?;
    Ok((ty, field))
}

fn encode_line(schema: &Schema, line: &str) -> Result<String, String> {
    let (ty, value) = line_fields(line, "value")?;
    let bytes = dynamic::encode_strict(schema, &ty, &value).map_err(|e| e.to_string())?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn decode_line(schema: &Schema, line: &str) -> Result<String, String> {
    let (ty, hex) = line_fields(line, "hex")?;
    let hex = hex.as_str().ok_or("\"hex\" must be a string")?;
    let bytes = parse_hex(hex).ok_or("\"hex\" is not hex (two digits per byte)")?;
    let value = dynamic::decode(schema, &ty, &bytes).map_err(|e| e.to_string())?;
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn hex_arguments() {
        assert_eq!(parse_hex("00ff10").as_deref(), Some(&[0, 255, 16][..]));
        assert_eq!(parse_hex(" 0A ").as_deref(), Some(&[10][..]));
        assert_eq!(parse_hex("").as_deref(), Some(&[][..]));
        for bad in ["0", "0g", "zz", "+1", "é1"] {
            assert!(parse_hex(bad).is_none(), "{bad}");
            assert!(parse_hex_arg(bad).is_err(), "{bad}");
        }
    }
}
