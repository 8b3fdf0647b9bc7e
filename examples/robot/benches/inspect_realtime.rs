//! The inspector's cost in real time: the robot ticking at 50 Hz for a while (idle, then
//! playing the default scenario), without a page and with two pages connected (WebSocket
//! clients reading every update, as two open browsers do), measured as the CPU time the
//! tick thread used (`/proc/thread-self/schedstat`: nanoseconds on a CPU, sleeps and wakes
//! included) and the whole process's (`/proc/self/stat`).
//!
//! `cargo bench -p robot-example --features inspect --bench inspect_realtime`
//! (`INSPECT_BENCH_SECONDS`, default 20: each configuration runs this long). Linux only.

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use robot_example::inspect::{self, Config, Inspector, Limits, RunOptions, Server};
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO};
use robot_example::scenario::Scenario;

const TPS: u32 = 50;

/// Nanoseconds the calling thread has run on a CPU.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// Clock ticks (1/100 s) the process has run (user + system).
fn process_cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime is the 14th field.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    n(11) + n(12)
}

struct Measured {
    ticks: u64,
    thread_ns: u64,
    process_ticks: u64,
}

fn measure(scenario: &Scenario, pages: usize, seconds: f64) -> Measured {
    let robot = Robot::new(RunConfig {
        ticks_per_second: TPS,
        ..RunConfig::default()
    });
    let mut inspector = Inspector::new(&robot, TPS, Limits::default());
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..Config::loopback()
    };
    let server = Server::start(&config, inspector.hub().clone()).unwrap();
    inspector.hub().start_broadcaster().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..pages)
        .map(|_| {
            let url = format!("ws://{}/ws", server.addr());
            let stream = TcpStream::connect(server.addr()).unwrap();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let (mut ws, _) = tungstenite::client(url.as_str(), stream).unwrap();
                ws.get_mut()
                    .set_read_timeout(Some(Duration::from_millis(100)))
                    .unwrap();
                while !stop.load(Ordering::Relaxed) {
                    let _ = ws.read();
                }
            })
        })
        .collect();
    while inspector.hub().watchers() < pages {
        std::thread::sleep(Duration::from_millis(10));
    }
    let process0 = process_cpu_ticks();
    let thread0 = thread_cpu_ns();
    let summary = inspect::run(
        robot,
        scenario,
        &RunOptions {
            ticks_per_second: TPS,
            run_for: Some(Duration::from_secs_f64(seconds)),
            start_paused: false,
        },
        None,
        &mut inspector,
        |_, _, _| 0,
        |_| {},
    );
    let thread_ns = thread_cpu_ns() - thread0;
    let process_ticks = process_cpu_ticks() - process0;
    stop.store(true, Ordering::Relaxed);
    inspector.hub().stop();
    for c in clients {
        let _ = c.join();
    }
    server.shutdown();
    Measured {
        ticks: summary.ticks,
        thread_ns,
        process_ticks,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported here.
    let seconds: f64 = std::env::var("INSPECT_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20.0);
    let scenario = Scenario::parse(DEFAULT_SCENARIO, TPS);
    println!(
        "{:<10} {:>6} {:>7} {:>16} {:>14} {:>13}",
        "robot", "pages", "ticks", "tick thread µs/tick", "tick thread %", "process %"
    );
    for (name, sc) in [("idle", Scenario::default()), ("scenario", scenario)] {
        let mut base = None;
        for pages in [0, 2] {
            let m = measure(&sc, pages, seconds);
            let per_tick = m.thread_ns as f64 / 1000.0 / m.ticks.max(1) as f64;
            let thread_pct = m.thread_ns as f64 / 1e9 / seconds * 100.0;
            let process_pct = m.process_ticks as f64 / 100.0 / seconds * 100.0;
            let more = match base {
                None => {
                    base = Some(per_tick);
                    String::new()
                }
                Some(b) => format!("  ({:+.1}% per tick)", (per_tick / b - 1.0) * 100.0),
            };
            println!(
                "{name:<10} {pages:>6} {:>7} {per_tick:>16.2} {thread_pct:>13.3}% {process_pct:>12.2}%{more}",
                m.ticks
            );
        }
    }
}
