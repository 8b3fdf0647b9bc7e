//! `cladz`: CLAD messages over Zenoh from the terminal — publish CLAD-JSON lines as packed
//! messages, echo any key expression as CLAD-JSON. The `cladc encode`/`decode` machinery
//! (`clad_codegen::dynamic`, the schema interpreted at run time) over the network.

use std::collections::HashMap;
use std::io::{ErrorKind, Write as _};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clad_codegen::lines::Lines;
use clad_codegen::{compile, dynamic, ir::Schema, FsLoader};
use clad_zenoh::zenoh::{self, Wait};
use clad_zenoh::{config, key, CongestionControl, Hash, TypeTag};
use serde_json::{json, Value};

const USAGE: &str = r#"cladz: CLAD messages over Zenoh from the terminal

USAGE:
    cladz pub  [-I DIR]... SCHEMA [--type T] [--key KEY] [--wait MS] [NETWORK]
        Publishes each stdin line as a packed message. A line is {"type": T, "value": V}
        (the `cladc encode` line), or only V when --type T is given; a key that names
        nothing (a typo) is an error. The key is --key, or the type's default
        (CloudMic::Message -> CloudMic/Message). A message is only sent when a subscriber
        matches its key (waiting up to --wait for one); otherwise the line is reported as
        not delivered. Prints `ok line N: KEY B bytes` or `error: line N: ...` per line on
        stderr; a bad line never stops the lines after it.
    cladz echo [-I DIR]... SCHEMA [--key KEY] [--count N] [NETWORK]
        Prints every sample on KEY (default `**`: everything) as one JSON line on stdout:
        {"key": K, "type": T, "value": V}, or {"key": K, "error": "..."} for a sample whose
        type tag is missing, unknown to SCHEMA, of another schema hash, or whose payload
        does not decode. Stops after N samples when --count is given.

NETWORK (peer mode):
    --listen EP       listen on EP, e.g. tcp/127.0.0.1:7448 (repeatable)
    --connect EP      connect to EP, e.g. tcp/127.0.0.1:7447 (repeatable)
    --multicast       also find peers by multicast scouting (off by default: only the
                      endpoints given are used)
    --config FILE     a Zenoh JSON5 configuration file (replaces the three options above)
    --wait MS         pub: how long to wait for a subscriber matching a key, the first
                      time the key is used (default 3000). Zenoh keeps no message for
                      later: with no subscriber the line is not sent and is reported.

OPTIONS:
    -I DIR, --include-dir DIR   search DIR for #include files (repeatable)
    -h, --help                  print this help

Exit status: 0 on success, 1 when a schema or a line has errors or a line found no
subscriber, 2 on a usage or network error."#;

#[derive(Default)]
struct Args {
    command: String,
    include_dirs: Vec<String>,
    schema: Option<String>,
    type_name: Option<String>,
    key: Option<String>,
    count: Option<u64>,
    listen: Vec<String>,
    connect: Vec<String>,
    multicast: bool,
    config: Option<String>,
    wait_ms: u64,
}

fn parse_args(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut a = Args {
        wait_ms: 3000,
        ..Args::default()
    };
    let mut positional = Vec::new();
    while let Some(arg) = argv.next() {
        let mut value = |name: &str| argv.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "-I" | "--include-dir" => a.include_dirs.push(value("-I")?),
            "--type" => a.type_name = Some(value("--type")?),
            "--key" => a.key = Some(value("--key")?),
            "--count" => {
                let n = value("--count")?;
                a.count = Some(n.parse().map_err(|_| format!("bad --count {n:?}"))?);
            }
            "--listen" => a.listen.push(value("--listen")?),
            "--connect" => a.connect.push(value("--connect")?),
            "--multicast" => a.multicast = true,
            "--config" => a.config = Some(value("--config")?),
            "--wait" => {
                let n = value("--wait")?;
                a.wait_ms = n.parse().map_err(|_| format!("bad --wait {n:?}"))?;
            }
            s if s.starts_with("-I") && s.len() > 2 => a.include_dirs.push(s[2..].to_owned()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ => positional.push(arg),
        }
    }
    let mut positional = positional.into_iter();
    a.command = positional.next().ok_or("missing command (pub or echo)")?;
    if !matches!(a.command.as_str(), "pub" | "echo") {
        return Err(format!("unknown command {:?}", a.command));
    }
    a.schema = Some(positional.next().ok_or("missing SCHEMA file")?);
    if let Some(extra) = positional.next() {
        return Err(format!("unexpected argument {extra:?}"));
    }
    Ok(Some(a))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => {
            let _ = writeln!(std::io::stdout().lock(), "{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            report(&format!("cladz: {e}\n\n{USAGE}"));
            return ExitCode::from(2);
        }
    };
    let schema_file = args.schema.as_deref().unwrap_or_default();
    let mut loader = FsLoader::new(&args.include_dirs);
    let out = compile(&mut loader, schema_file);
    let _ = std::io::stderr()
        .lock()
        .write_all(out.render_colored(false).as_bytes());
    let Some(schema) = out.schema else {
        return ExitCode::from(1);
    };
    let session = match open(&args) {
        Ok(s) => s,
        Err(e) => {
            report(&format!("cladz: {e}"));
            return ExitCode::from(2);
        }
    };
    let code = if args.command == "pub" {
        publish(&args, &schema, &session)
    } else {
        echo(&args, &schema, &session)
    };
    if let Err(e) = session.close().wait() {
        report(&format!("cladz: closing the session: {e}"));
    }
    code
}

fn open(args: &Args) -> Result<zenoh::Session, clad_zenoh::Error> {
    let cfg = match &args.config {
        Some(file) => config::from_file(file)?,
        None => {
            let listen: Vec<&str> = args.listen.iter().map(String::as_str).collect();
            let connect: Vec<&str> = args.connect.iter().map(String::as_str).collect();
            config::peer(&listen, &connect, args.multicast)?
        }
    };
    config::open(cfg)
}

/// The schema hash the schema gives `fqn` (`None` for unknown names).
fn schema_hash(schema: &Schema, fqn: &str) -> Option<[u8; 16]> {
    let id = schema.lookup(fqn)?;
    let hex = schema.decl(id).schema_hash.as_deref()?;
    Hash::from_hex(hex).map(|h| h.0)
}

/// One stdin line → (type, packed bytes). Unknown keys are errors, at the top level (only
/// `type` and `value`) and inside the value.
fn encode_line(args: &Args, schema: &Schema, line: &str) -> Result<(String, Vec<u8>), String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let (ty, value) = match &args.type_name {
        Some(t) => (t.clone(), v),
        None => {
            let obj = v
                .as_object()
                .ok_or(r#"expected an object {"type": ..., "value": ...} (or give --type)"#)?;
            if let Some(extra) = obj.keys().find(|k| *k != "type" && *k != "value") {
                return Err(format!(
                    r#"unknown key {extra:?} (a line has only "type" and "value")"#
                ));
            }
            let ty = obj
                .get("type")
                .and_then(Value::as_str)
                .ok_or("the line has no \"type\" string (or give --type)")?
                .to_owned();
            let value = obj
                .get("value")
                .cloned()
                .ok_or("the line has no \"value\"")?;
            (ty, value)
        }
    };
    let bytes = dynamic::encode_strict(schema, &ty, &value).map_err(|e| e.to_string())?;
    Ok((ty, bytes))
}

/// A publisher per key, with whether a subscriber was already waited for.
struct KeyPublisher {
    publisher: zenoh::pubsub::Publisher<'static>,
    waited: bool,
}

/// Whether a subscriber matches `p` now, or (the first time the key is used) within `wait`.
fn has_subscriber(p: &mut KeyPublisher, wait: Duration) -> Result<bool, zenoh::Error> {
    let deadline = Instant::now() + if p.waited { Duration::ZERO } else { wait };
    p.waited = true;
    loop {
        if p.publisher.matching_status().wait()?.matching() {
            return Ok(true);
        }
        if Instant::now() >= deadline {
            return Ok(false);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn publish(args: &Args, schema: &Schema, session: &zenoh::Session) -> ExitCode {
    let mut failed = false;
    let mut publishers: HashMap<String, KeyPublisher> = HashMap::new();
    let wait = Duration::from_millis(args.wait_ms);
    // Line by line: a line that is not UTF-8, not JSON or not the schema's is reported with
    // its number and the next line is read.
    for (number, line) in Lines::new(std::io::stdin().lock()) {
        let line = match line {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => line,
            Err(e) => {
                report(&format!("error: line {number}: {e}"));
                failed = true;
                continue;
            }
        };
        let (ty, bytes) = match encode_line(args, schema, &line) {
            Ok(x) => x,
            Err(e) => {
                report(&format!("error: line {number}: {e}"));
                failed = true;
                continue;
            }
        };
        let key = args.key.clone().unwrap_or_else(|| key::for_name(&ty));
        let tag = TypeTag {
            name: &ty,
            hash: schema_hash(schema, &ty),
        };
        let sent = (|| -> Result<bool, clad_zenoh::Error> {
            let p = match publishers.entry(key.clone()) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => e.insert(KeyPublisher {
                    publisher: session
                        .declare_publisher(key.clone())
                        .congestion_control(CongestionControl::Block)
                        .wait()?,
                    waited: false,
                }),
            };
            if !has_subscriber(p, wait)? {
                return Ok(false);
            }
            p.publisher
                .put(bytes.clone())
                .attachment(tag.encode()?)
                .wait()?;
            Ok(true)
        })();
        match sent {
            Ok(true) => report(&format!("ok line {number}: {key} {} bytes", bytes.len())),
            Ok(false) => {
                report(&format!(
                    "error: line {number}: not delivered: no subscriber on {key} \
                     (waited {} ms the first time; is the receiver running and connected?)",
                    args.wait_ms
                ));
                failed = true;
            }
            Err(e) => {
                report(&format!("error: line {number}: {e}"));
                return ExitCode::from(2);
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A line on stderr; a closed stderr is ignored (nobody is left to tell).
fn report(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// One sample → its JSON line.
fn describe_sample(schema: &Schema, sample: &zenoh::sample::Sample) -> Value {
    let key = sample.key_expr().as_str();
    let result = (|| -> Result<Value, String> {
        let att = sample
            .attachment()
            .ok_or("no CLAD type tag (not sent as a CLAD message)")?
            .to_bytes();
        let tag = TypeTag::decode(&att).map_err(|e| format!("bad CLAD type tag: {e}"))?;
        if schema.lookup(tag.name).is_none() {
            return Err(format!("type `{}` is not in the schema", tag.name));
        }
        let ours = schema_hash(schema, tag.name);
        if tag.hash != ours {
            let show = |h: Option<[u8; 16]>| h.map_or("(none)".into(), |h| Hash(h).to_string());
            return Err(format!(
                "refused: `{}` has schema hash {} on the sender, {} in {}: the sender was built \
                 from another version of the schema (of `{}` or of a type inside it)",
                tag.name,
                show(tag.hash),
                show(ours),
                schema.input,
                tag.name
            ));
        }
        let value = dynamic::decode(schema, tag.name, &sample.payload().to_bytes())
            .map_err(|e| format!("does not decode as `{}`: {e}", tag.name))?;
        Ok(json!({ "key": key, "type": tag.name, "value": value }))
    })();
    result.unwrap_or_else(|error| json!({ "key": key, "error": error }))
}

fn echo(args: &Args, schema: &Schema, session: &zenoh::Session) -> ExitCode {
    let key = args.key.clone().unwrap_or_else(|| "**".to_owned());
    let (tx, rx) = mpsc::channel();
    let sub = match session
        .declare_subscriber(key)
        .callback(move |s| {
            // The receiver only goes away when echo returns.
            let _ = tx.send(s);
        })
        .wait()
    {
        Ok(s) => s,
        Err(e) => {
            report(&format!("cladz: {e}"));
            return ExitCode::from(2);
        }
    };
    let mut stdout = std::io::stdout().lock();
    let mut seen = 0u64;
    while args.count.is_none_or(|n| seen < n) {
        let Ok(sample) = rx.recv() else { break };
        seen += 1;
        let line = describe_sample(schema, &sample);
        match writeln!(stdout, "{line}").and_then(|()| stdout.flush()) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::BrokenPipe => break, // `| head`: stop quietly
            Err(e) => {
                report(&format!("cladz: cannot write standard output: {e}"));
                drop(sub);
                return ExitCode::from(1);
            }
        }
    }
    drop(sub);
    ExitCode::SUCCESS
}
