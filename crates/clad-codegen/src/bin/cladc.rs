//! `cladc`: the CLAD compiler's command line.

use clad_codegen::{compile, describe, dynamic, ir::Schema, FsLoader};
use std::io::IsTerminal;
use std::io::Write as _;
use std::process::ExitCode;

const USAGE: &str = r#"cladc: compiler for CLAD schema files

USAGE:
    cladc check    [-I DIR]... FILE...          validate schemas; diagnostics on stderr
    cladc describe [-I DIR]... FILE...          the semantic model (hashes, values, tags, sizes)
                                                as JSON; several files: an object keyed by file
    cladc rust     [-I DIR]... [--view PATH]... -o DIR FILE...
                                                generate Rust into DIR/clad.rs (`-o -`: stdout)
    cladc encode   [-I DIR]... FILE             stdin lines {"type": T, "value": V} -> hex lines
    cladc decode   [-I DIR]... FILE             stdin lines {"type": T, "hex": H} -> CLAD-JSON lines
    cladc explain  [-I DIR]... FILE TYPE HEX    annotated dump: offset, bytes, field, value

OPTIONS:
    -I DIR, --include-dir DIR   search DIR for #include files (repeatable, searched in order;
                                the first one plays the role of the original's -C directory).
                                With no -I, the current directory is searched.
    -o DIR, --out-dir DIR       output directory of `cladc rust`
    --view PATH                 `cladc rust`: also generate borrowed views (`<Name>View<'a>`)
                                for the types at PATH (`.`, a namespace or Ns::Type; repeatable)
    -h, --help                  print this help
    -V, --version               print the version

FILE is a path, or a path inside one of the -I directories. T is a fully qualified CLAD
type name (Ns::Type). encode/decode write `error: <message>` for a line that fails.
Exit status: 0 on success, 1 when a schema or a line has errors, 2 on a usage error."#;

struct Args {
    command: String,
    out_dir: Option<String>,
    include_dirs: Vec<String>,
    views: Vec<String>,
    files: Vec<String>,
}

fn parse_args(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut command = None;
    let mut include_dirs = Vec::new();
    let mut files = Vec::new();
    let mut out_dir = None;
    let mut views = Vec::new();
    while let Some(arg) = argv.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "-V" | "--version" => {
                println!("cladc {}", env!("CARGO_PKG_VERSION"));
                std::process::exit(0);
            }
            "-I" | "--include-dir" => {
                include_dirs.push(argv.next().ok_or("-I needs a directory")?);
            }
            "-o" | "--out-dir" => out_dir = Some(argv.next().ok_or("-o needs a directory")?),
            "--view" => views.push(argv.next().ok_or("--view needs a CLAD path")?),
            s if s.starts_with("-I") && s.len() > 2 => include_dirs.push(s[2..].to_owned()),
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option `{s}`")),
            _ if command.is_none() => command = Some(arg),
            _ => files.push(arg),
        }
    }
    let command = command.ok_or("missing command")?;
    Ok(Some(Args {
        command,
        out_dir,
        include_dirs,
        views,
        files,
    }))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("cladc: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match args.command.as_str() {
        "check" => {
            if args.files.is_empty() {
                eprintln!("cladc check: no input file\n\n{USAGE}");
                return ExitCode::from(2);
            }
            let mut failed = false;
            for file in &args.files {
                let mut loader = FsLoader::new(&args.include_dirs);
                let out = compile(&mut loader, file);
                eprint!("{}", out.render_colored(color));
                if out.has_errors() {
                    failed = true;
                }
            }
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        "describe" => {
            if args.files.is_empty() {
                eprintln!("cladc describe: no input file\n\n{USAGE}");
                return ExitCode::from(2);
            }
            // One file: its entry. Several: an object keyed by file, like semantics.json. The
            // text is assembled directly so sizes above 64 bits stay exact.
            let mut entries = Vec::new();
            let mut failed = false;
            for file in &args.files {
                let mut loader = FsLoader::new(&args.include_dirs);
                let out = compile(&mut loader, file);
                eprint!("{}", out.render_colored(color));
                match &out.schema {
                    Some(schema) => entries.push((file, describe::describe_json(schema))),
                    None => failed = true,
                }
            }
            if let [(_, text)] = entries.as_slice() {
                if args.files.len() == 1 {
                    println!("{text}");
                }
            }
            if args.files.len() > 1 {
                let body: Vec<String> = entries
                    .iter()
                    .map(|(file, text)| {
                        let key = serde_json::to_string(file).unwrap_or_default();
                        format!("  {key}: {}", text.replace('\n', "\n  "))
                    })
                    .collect();
                println!("{{\n{}\n}}", body.join(",\n"));
            }
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        "encode" | "decode" => {
            let [file] = args.files.as_slice() else {
                eprintln!(
                    "cladc {}: expected exactly one schema file\n\n{USAGE}",
                    args.command
                );
                return ExitCode::from(2);
            };
            let Some(schema) = load(&args, file, color) else {
                return ExitCode::from(1);
            };
            let encode = args.command == "encode";
            let mut failed = false;
            let stdin = std::io::stdin();
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for line in std::io::BufRead::lines(stdin.lock()) {
                let Ok(line) = line else {
                    eprintln!("cladc: cannot read standard input");
                    return ExitCode::from(1);
                };
                if line.trim().is_empty() {
                    continue;
                }
                let result = if encode {
                    encode_line(&schema, &line)
                } else {
                    decode_line(&schema, &line)
                };
                let text = match result {
                    Ok(t) => t,
                    Err(e) => {
                        failed = true;
                        format!("error: {e}")
                    }
                };
                if writeln!(out, "{text}").is_err() {
                    return ExitCode::from(1);
                }
            }
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        "explain" => {
            let [file, ty, hex] = args.files.as_slice() else {
                eprintln!("cladc explain: expected FILE TYPE HEX\n\n{USAGE}");
                return ExitCode::from(2);
            };
            let Some(schema) = load(&args, file, color) else {
                return ExitCode::from(1);
            };
            let Some(bytes) = parse_hex(hex) else {
                eprintln!("cladc explain: `{hex}` is not hex (two digits per byte)");
                return ExitCode::from(2);
            };
            let explanation = dynamic::explain(&schema, ty, &bytes);
            print!("{explanation}");
            if explanation.error.is_some() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        "rust" => {
            let Some(out_dir) = &args.out_dir else {
                eprintln!("cladc rust: missing -o DIR\n\n{USAGE}");
                return ExitCode::from(2);
            };
            if args.files.is_empty() {
                eprintln!("cladc rust: no input file\n\n{USAGE}");
                return ExitCode::from(2);
            }
            let mut builder = clad_codegen::Builder::new().emit_cargo_directives(false);
            for dir in &args.include_dirs {
                builder = builder.include_dir(dir);
            }
            for view in &args.views {
                builder = builder.view(view);
            }
            builder = builder.files(args.files.iter().cloned());
            if out_dir == "-" {
                return match builder.generate() {
                    Ok(g) => {
                        print!("{}", g.code);
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprint!("{}", e.rendered);
                        ExitCode::from(1)
                    }
                };
            }
            match builder.out_dir(out_dir).compile() {
                Ok(compiled) => {
                    eprint!("{}", compiled.warnings);
                    eprintln!("wrote {}", compiled.path.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprint!("{}", e.rendered);
                    ExitCode::from(1)
                }
            }
        }
        other => {
            eprintln!("cladc: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn load(args: &Args, file: &str, color: bool) -> Option<Schema> {
    let mut loader = FsLoader::new(&args.include_dirs);
    let out = compile(&mut loader, file);
    eprint!("{}", out.render_colored(color));
    out.schema
}

fn parse_hex(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

fn line_fields(line: &str, key: &str) -> Result<(String, serde_json::Value), String> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let ty = v
        .get("type")
        .and_then(|t| t.as_str())
        .ok_or("the line has no \"type\" string")?
        .to_owned();
    let field = v
        .get(key)
        .cloned()
        .ok_or_else(|| format!("the line has no \"{key}\""))?;
    Ok((ty, field))
}

fn encode_line(schema: &Schema, line: &str) -> Result<String, String> {
    let (ty, value) = line_fields(line, "value")?;
    let bytes = dynamic::encode(schema, &ty, &value).map_err(|e| e.to_string())?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn decode_line(schema: &Schema, line: &str) -> Result<String, String> {
    let (ty, hex) = line_fields(line, "hex")?;
    let hex = hex.as_str().ok_or("\"hex\" must be a string")?;
    let bytes = parse_hex(hex).ok_or("\"hex\" is not hex (two digits per byte)")?;
    let value = dynamic::decode(schema, &ty, &bytes).map_err(|e| e.to_string())?;
    Ok(value.to_string())
}
