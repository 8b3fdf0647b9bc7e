//! What the binary's `--inspect` and `inspect TRACE` do, so that `main.rs` only passes its
//! options on: start the server, print the page's address (`inspect: open URL in a
//! browser`, on stderr), then run the robot (printing its timeline as it happens, and
//! writing `--trace-json` as it goes) or serve the trace.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::hub::Hub;
use super::observe::{state_keys_json, Changes};
use super::run::{self, RunOptions, Summary};
use super::{parse_addr, replay, Config, Inspector, Limits, Server};
use crate::robot::Robot;
use crate::scenario::Scenario;
use crate::timeline::{self, Entry};
use crate::trace::{self, TraceWriter, TreeJson};

/// The options of `--inspect`.
#[derive(Clone, Debug, Default)]
pub struct LiveOptions<'a> {
    /// `--inspect`'s address text (empty: the default).
    pub addr: &'a str,
    /// `--inspect-token`.
    pub token: Option<&'a str>,
    /// `--inspect-origin`: origins allowed besides the server's own (a reverse proxy's).
    pub origins: &'a [String],
    /// `--inspect-paused`: start paused.
    pub paused: bool,
    /// Ticks per second.
    pub ticks_per_second: u32,
    /// Stop after this long (wall time).
    pub run_for: Option<Duration>,
    /// `--trace-json`, written as the robot runs.
    pub trace: Option<&'a Path>,
    /// `--trace-why`: the trace also records what changed in the robot on each tick.
    pub trace_why: bool,
    /// Set (by a Ctrl-C handler) to end the run after the tick in progress.
    pub stop: Option<&'a AtomicBool>,
}

fn config(addr: &str, token: Option<&str>, origins: &[String]) -> Result<Config, String> {
    let addr = if addr.trim().is_empty() {
        super::DEFAULT_ADDR
    } else {
        parse_addr(addr).map_err(|e| format!("--inspect: {e}"))?
    };
    Ok(Config {
        addr,
        token: token.map(str::to_owned),
        origins: origins.to_vec(),
        limits: Limits::default(),
    })
}

/// What the announce line says to open: the address with its token when standard error is a
/// terminal (a person reads it), else the address and where the token goes — the token never
/// reaches a log file or a journal.
fn announced_url(server: &Server, terminal: bool) -> String {
    if terminal || !server.has_token() {
        server.url_with_token()
    } else {
        format!("{}#token=<--inspect-token>", server.url())
    }
}

fn announce(server: &Server, what: &str) {
    let _ = writeln!(
        anstream::stderr(),
        "inspect: open {} in a browser ({what}; Ctrl-C stops)",
        announced_url(server, std::io::stderr().is_terminal())
    );
}

/// Runs `robot` in real time with the inspector. `inputs` delivers live inputs into each
/// tick (see [`run::run`]); pass `|_, _, _| 0` when there are none.
pub fn live(
    robot: Robot,
    scenario: &Scenario,
    options: &LiveOptions<'_>,
    inputs: impl FnMut(&mut Robot, u64, Duration) -> usize,
) -> Result<Summary, String> {
    let config = config(options.addr, options.token, options.origins)?;
    let tps = options.ticks_per_second.max(1);
    let mut inspector = Inspector::new(&robot, tps, config.limits);
    let mut trace = match options.trace {
        Some(path) => {
            let file = fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            let header = if options.trace_why {
                trace::header_with(&robot, tps, "state_keys", state_keys_json(robot.runner()))
            } else {
                trace::header(&robot, tps)
            };
            Some(
                TraceWriter::new(&header, std::io::BufWriter::new(file))
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let server = Server::start(&config, inspector.hub().clone()).map_err(|e| e.to_string())?;
    inspector
        .hub()
        .start_broadcaster()
        .map_err(|e| format!("--inspect: cannot start the broadcaster: {e}"))?;
    announce(&server, if options.paused { "paused" } else { "live" });
    let mut stdout = anstream::stdout();
    let _ = write!(stdout, "{}", timeline::render_header(true));
    let mut last_tick = None;
    let mut trace_error = None;
    let summary = run::run(
        robot,
        scenario,
        &RunOptions {
            ticks_per_second: tps,
            run_for: options.run_for,
            start_paused: options.paused,
            why: options.trace_why && options.trace.is_some(),
        },
        options.stop,
        &mut inspector,
        inputs,
        |entries: &[Entry], why: Option<&Changes>| {
            if !entries.is_empty() {
                let _ = write!(
                    stdout,
                    "{}",
                    timeline::render_rows(entries, true, &mut last_tick)
                );
                let _ = stdout.flush();
            }
            if let Some(t) = &mut trace {
                let mut r = t.append(entries);
                if let (Some(w), Ok(())) = (why, &r) {
                    r = t.append_line(&why_line(w));
                }
                if let Err(e) = r {
                    trace_error.get_or_insert(e);
                }
            }
        },
    );
    inspector.hub().stop();
    server.shutdown();
    if let (Some(e), Some(path)) = (trace_error, options.trace) {
        return Err(format!("cannot write {}: {e}", path.display()));
    }
    Ok(summary)
}

/// A `--trace-why` line: what changed in the robot on a tick (the inspector's state
/// changes, as `event: "why"`).
fn why_line(changes: &Changes) -> String {
    #[derive(serde::Serialize)]
    struct Why<'a> {
        event: &'static str,
        #[serde(flatten)]
        changes: &'a Changes,
    }
    serde_json::to_string(&Why {
        event: "why",
        changes,
    })
    .unwrap_or_default()
}

/// The options of `inspect TRACE`.
#[derive(Clone, Debug)]
pub struct ReplayOptions<'a> {
    /// The trace.
    pub trace: &'a Path,
    /// `--addr`.
    pub addr: &'a str,
    /// `--token`.
    pub token: Option<&'a str>,
    /// `--origin`.
    pub origins: &'a [String],
    /// Stop after this long.
    pub run_for: Option<Duration>,
    /// Set (by a Ctrl-C handler) to stop serving.
    pub stop: Option<&'a AtomicBool>,
}

/// Serves a recorded trace until `run_for` has passed (or forever). `robot` gives the tree
/// for a trace without a header.
pub fn replay(
    options: &ReplayOptions<'_>,
    robot: &Robot,
    ticks_per_second: u32,
) -> Result<(), String> {
    let path = options.trace;
    let size = fs::metadata(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    if size > replay::MAX_TRACE {
        return Err(format!(
            "{} is {size} bytes; traces of up to {} bytes are replayed",
            path.display(),
            replay::MAX_TRACE
        ));
    }
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let trace = replay::read(&text);
    let mut err = anstream::stderr();
    for p in &trace.problems {
        let _ = writeln!(
            err,
            "warning: {}: {p} (skipped; the rest replays)",
            path.display()
        );
    }
    if trace.entries.is_empty() {
        return Err(format!("{}: no events to replay", path.display()));
    }
    let config = config(options.addr, options.token, options.origins)?;
    let fallback = serde_json::to_value(TreeJson::of(robot.runner())).unwrap_or_default();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let hello = replay::hello(&trace, &name, fallback, ticks_per_second);
    let events = trace.entries.len();
    let hub = Hub::replay(hello, trace.entries, config.limits);
    let server = Server::start(&config, hub).map_err(|e| e.to_string())?;
    announce(&server, &format!("replay of {name}, {events} events"));
    let started = Instant::now();
    let stopped = || options.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    while !stopped() {
        let left = match options.run_for {
            Some(d) if started.elapsed() >= d => break,
            Some(d) => d - started.elapsed(),
            None => Duration::MAX,
        };
        std::thread::sleep(left.min(Duration::from_millis(100)));
    }
    server.shutdown();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_printed_to_a_terminal_only() {
        let hub = Hub::replay(serde_json::Map::new(), Vec::new(), Limits::default());
        let config = Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            token: Some("0123456789abcdef-secret".into()),
            origins: Vec::new(),
            limits: Limits::default(),
        };
        let server = Server::start(&config, hub).unwrap();
        let logged = announced_url(&server, false);
        assert!(!logged.contains("secret"), "{logged}");
        assert!(logged.ends_with("/#token=<--inspect-token>"), "{logged}");
        let shown = announced_url(&server, true);
        assert!(
            shown.ends_with("/#token=0123456789abcdef-secret"),
            "{shown}"
        );
        assert!(!format!("{server:?} {config:?}").contains("secret"));
        server.shutdown();
    }
}
