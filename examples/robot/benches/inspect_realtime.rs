//! The inspector's cost in real time: the robot ticking at 50 Hz for a while (idle, then
//! playing the default scenario), without a page and with two pages connected (WebSocket
//! clients reading every update, as two open browsers do), measured as the CPU time the
//! tick thread used (`/proc/thread-self/schedstat`: nanoseconds on a CPU, sleeps and wakes
//! included) and the whole process's (`/proc/self/stat`).
//!
//! The tick thread's time is mostly the kernel's work of sleeping and waking it (tens of µs a
//! tick, which vary with what else the machine does), so the configurations are run in
//! rounds, interleaved (no page, two pages, no page, ...), and each figure is the median of
//! its rounds, with their range.
//!
//! `cargo bench -p robot-example --features inspect --bench inspect_realtime`
//! (`INSPECT_BENCH_SECONDS`, default 10: each run lasts this long; `INSPECT_BENCH_ROUNDS`,
//! default 3). Linux only.
//!
//! `INSPECT_BENCH_ONLY=idle:2` (or `idle:0`, `scenario:0`, `scenario:2`) runs that one
//! configuration once, for counting the tick thread's instructions under callgrind, which
//! the kernel's sleeping and waking do not blur (see BENCHMARKS.md):
//!
//! ```sh
//! INSPECT_BENCH_ONLY=idle:2 valgrind --tool=callgrind --separate-threads=yes \
//!     --toggle-collect='robot_example::inspect::run::run*' target/release/deps/inspect_realtime-*
//! ```

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
            why: false,
        },
        None,
        &mut inspector,
        |_, _, _| 0,
        |_, _| {},
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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported here.
    let env = |k: &str, d: f64| {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let seconds = env("INSPECT_BENCH_SECONDS", 10.0);
    let rounds = env("INSPECT_BENCH_ROUNDS", 3.0).max(1.0) as usize;
    let scenario = Scenario::parse(DEFAULT_SCENARIO, TPS);
    if let Ok(only) = std::env::var("INSPECT_BENCH_ONLY") {
        let parsed = only.split_once(':').and_then(|(robot, pages)| {
            let sc = match robot {
                "idle" => Scenario::default(),
                "scenario" => scenario.clone(),
                _ => return None,
            };
            Some((sc, pages.parse::<usize>().ok()?))
        });
        let Some((sc, pages)) = parsed else {
            eprintln!("INSPECT_BENCH_ONLY={only}: expected idle:N or scenario:N (N pages)");
            std::process::exit(2);
        };
        let m = measure(&sc, pages, seconds);
        println!("{only}: {} ticks, tick thread {} ns", m.ticks, m.thread_ns);
        return;
    }
    println!(
        "{:<10} {:>6} {:>7} {:>26} {:>14} {:>10}",
        "robot", "pages", "ticks", "tick thread µs/tick (range)", "tick thread %", "process %"
    );
    for (name, sc) in [("idle", Scenario::default()), ("scenario", scenario)] {
        // [pages] -> per round (µs per tick, thread %, process %, ticks)
        let mut runs: [Vec<(f64, f64, f64, u64)>; 2] = [Vec::new(), Vec::new()];
        for _ in 0..rounds {
            for (k, pages) in [0, 2].into_iter().enumerate() {
                let m = measure(&sc, pages, seconds);
                runs[k].push((
                    m.thread_ns as f64 / 1000.0 / m.ticks.max(1) as f64,
                    m.thread_ns as f64 / 1e9 / seconds * 100.0,
                    m.process_ticks as f64 / 100.0 / seconds * 100.0,
                    m.ticks,
                ));
            }
        }
        let mut base = None;
        for (k, pages) in [0, 2].into_iter().enumerate() {
            let r = &runs[k];
            let per_tick = median(r.iter().map(|x| x.0).collect());
            let lo = r.iter().map(|x| x.0).fold(f64::INFINITY, f64::min);
            let hi = r.iter().map(|x| x.0).fold(0.0, f64::max);
            let thread_pct = median(r.iter().map(|x| x.1).collect());
            let process_pct = median(r.iter().map(|x| x.2).collect());
            let ticks = r.iter().map(|x| x.3).sum::<u64>() / r.len() as u64;
            let more = match base {
                None => {
                    base = Some(per_tick);
                    String::new()
                }
                Some(b) => format!("  ({:+.1}% per tick)", (per_tick / b - 1.0) * 100.0),
            };
            println!(
                "{name:<10} {pages:>6} {ticks:>7} {:>26} {thread_pct:>13.3}% {process_pct:>9.2}%{more}",
                format!("{per_tick:.2} ({lo:.1}–{hi:.1})")
            );
        }
    }
}
