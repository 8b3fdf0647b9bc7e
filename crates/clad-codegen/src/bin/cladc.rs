//! `cladc`: the CLAD compiler's command line.

use clad_codegen::{compile, describe, FsLoader};
use std::io::IsTerminal;
use std::process::ExitCode;

const USAGE: &str = "\
cladc: compiler for CLAD schema files

USAGE:
    cladc check    [-I DIR]... FILE...   validate schemas; diagnostics on stderr
    cladc rust     [-I DIR]... -o DIR FILE...   generate Rust (DIR/clad.rs; `-o -` prints it)
    cladc describe [-I DIR]... FILE...   print the semantic model (hashes, values, tags, sizes) as JSON;
                                         with several files, an object keyed by file

OPTIONS:
    -I DIR, --include-dir DIR   search DIR for #include files (repeatable, searched in order;
                                the first one plays the role of the original's -C directory).
                                With no -I, the current directory is searched.
    -o DIR, --out-dir DIR       output directory of `cladc rust` (`-` for stdout)
    -h, --help                  print this help
    -V, --version               print the version

FILE is a path, or a path inside one of the -I directories.
Exit status: 0 on success, 1 when a schema has errors, 2 on a usage error.";

struct Args {
    command: String,
    out_dir: Option<String>,
    include_dirs: Vec<String>,
    files: Vec<String>,
}

fn parse_args(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut command = None;
    let mut include_dirs = Vec::new();
    let mut files = Vec::new();
    let mut out_dir = None;
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
                Ok(path) => {
                    eprintln!("wrote {}", path.display());
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
