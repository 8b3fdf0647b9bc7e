//! The live inspector's cost on the robot's tick (cargo feature `inspect`): the tick thread's
//! time per tick at 50 Hz without a page, and with two pages connected (real WebSocket
//! clients reading every update, the broadcaster running).
//!
//! The inspector counts its frames in ticks, so this loop (which does not sleep) looks at
//! the robot exactly as a 50 Hz robot does: within 5 ticks ([`FRAME`]) of something
//! happening, else every 50 ([`HEARTBEAT`](robot_example::inspect::HEARTBEAT)). Everything
//! else a page costs — merging, serializing, sending — runs on the broadcaster and
//! connection threads. `benches/inspect_realtime.rs` measures the same in real time, sleeps
//! included (and under callgrind, its instructions: see BENCHMARKS.md).
//!
//! * `tick_50hz/idle/*`: the robot idle (Observing), the common case.
//! * `tick_50hz/scenario/*`: the default scenario's events, one tick each, round and round
//!   (entries every tick: the inspector copies them).
//! * `snapshot`: one look at the robot alone when nothing changed (what a heartbeat pays
//!   with a page open).
//! * `snapshot_json/*`: the whole state built and serialized (what a page that connects
//!   gets), of the shipped tree and of the original robot's (`behaviors/original`, 232
//!   files, 281 behaviors; BENCHMARKS.md's figures were taken on its earlier 162 files)
//!   in the middle of the default scenario, a page watching HighLevelAI; its size is
//!   printed.
//!
//! `cargo bench -p robot-example --features inspect --bench inspect -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use robot_example::inspect::{snapshot_json, Config, Inspector, Limits, Progress, Server, FRAME};
use robot_example::robot::{Robot, RunConfig, DEFAULT_SCENARIO};
use robot_example::scenario::Scenario;
use robot_example::tree_files;
use robot_runtime::behavior::{LoadOptions, Source};

const TPS: u32 = 50;

fn idle_robot() -> Robot {
    let mut robot = Robot::new(RunConfig {
        ticks_per_second: TPS,
        ..RunConfig::default()
    });
    for t in 0..3 {
        robot.begin_tick(t);
        robot.end_tick(Duration::ZERO);
    }
    robot.clear_entries();
    robot
}

/// One tick as the inspector's run loop does it.
fn tick(robot: &mut Robot, inspector: &mut Inspector, t: u64, scenario: Option<&Scenario>) {
    robot.begin_tick(t);
    if let Some(s) = scenario {
        let e = &s.events[t as usize % s.events.len()];
        robot.deliver(e, Duration::ZERO);
    }
    robot.end_tick(Duration::ZERO);
    let progress = Progress {
        ticks_run: t + 1,
        ..Progress::default()
    };
    inspector.publish(robot, robot.entries(), &progress);
    robot.clear_entries();
}

/// Two pages: WebSocket clients that read everything, on their own threads.
fn two_pages(server: &Server, stop: &Arc<AtomicBool>) -> Vec<std::thread::JoinHandle<()>> {
    (0..2)
        .map(|_| {
            let url = format!("ws://{}/ws", server.addr());
            let stop = stop.clone();
            let stream = TcpStream::connect(server.addr()).unwrap();
            std::thread::spawn(move || {
                let (mut ws, _) = tungstenite::client(url.as_str(), stream).unwrap();
                ws.get_mut()
                    .set_read_timeout(Some(Duration::from_millis(50)))
                    .unwrap();
                while !stop.load(Ordering::Relaxed) {
                    let _ = black_box(ws.read());
                }
            })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let scenario = Scenario::parse(DEFAULT_SCENARIO, TPS);
    let mut g = c.benchmark_group("tick_50hz");
    for (name, sc) in [("idle", None), ("scenario", Some(&scenario))] {
        let mut robot = idle_robot();
        let mut inspector = Inspector::new(&robot, TPS, Limits::default());
        let mut t = 3;
        g.bench_function(format!("{name}/no_page"), |b| {
            b.iter(|| {
                tick(&mut robot, &mut inspector, t, sc);
                t += 1;
            })
        });

        let mut robot = idle_robot();
        let mut inspector = Inspector::new(&robot, TPS, Limits::default());
        let config = Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            ..Config::loopback()
        };
        let server = Server::start(&config, inspector.hub().clone()).unwrap();
        inspector.hub().start_broadcaster().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let clients = two_pages(&server, &stop);
        while inspector.hub().watchers() < 2 {
            std::thread::sleep(FRAME / 10);
        }
        let mut t = 3;
        g.bench_function(format!("{name}/two_pages"), |b| {
            b.iter(|| {
                tick(&mut robot, &mut inspector, t, sc);
                t += 1;
            })
        });
        stop.store(true, Ordering::Relaxed);
        inspector.hub().stop();
        for c in clients {
            let _ = c.join();
        }
        server.shutdown();
    }
    g.finish();

    // One look alone: a page is open, every publish is dirty (nothing changed: the look
    // compares and hands over the clock).
    let mut robot = idle_robot();
    let mut inspector = Inspector::new(&robot, TPS, Limits::default());
    let _page = inspector.hub().attach().unwrap();
    let progress = Progress::default();
    c.bench_function("snapshot", |b| {
        b.iter(|| {
            inspector.mark_dirty();
            inspector.publish(&robot, &[], &progress);
        })
    });
    robot.clear_entries();
}

/// `robot` after `ticks` ticks of the default scenario.
fn played(mut robot: Robot, ticks: u64) -> Robot {
    let scenario = Scenario::parse(DEFAULT_SCENARIO, TPS);
    let mut next = 0;
    for t in 0..ticks {
        robot.begin_tick(t);
        for e in scenario.due(&mut next, t, TPS) {
            robot.deliver(e, Duration::ZERO);
        }
        robot.end_tick(Duration::ZERO);
        robot.clear_entries();
    }
    robot
}

fn snapshots(c: &mut Criterion) {
    let config = RunConfig {
        ticks_per_second: TPS,
        ..RunConfig::default()
    };
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/behaviors/original");
    let files = tree_files::read_tree(std::path::Path::new(dir))
        .unwrap()
        .files;
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let base = tree_files::default_base(&files).unwrap();
    let original = Robot::with_sources(
        &sources,
        base,
        &LoadOptions::with_stand_ins(),
        config.clone(),
    )
    .unwrap()
    .0;
    let mut g = c.benchmark_group("snapshot_json");
    for (name, robot) in [
        ("shipped", Robot::new(config.clone())),
        ("original", original),
    ] {
        // 12 s in: HighLevelAI and the voice commands have run.
        let robot = played(robot, u64::from(TPS) * 12);
        let watched: Vec<_> = robot.runner().id("HighLevelAI").into_iter().collect();
        let json = snapshot_json(&robot, TPS, &watched);
        eprintln!(
            "snapshot_json/{name}: {} behaviors, {} bytes",
            robot.runner().len(),
            json.len()
        );
        g.bench_function(name, |b| {
            b.iter(|| black_box(snapshot_json(&robot, TPS, &watched)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench, snapshots);
criterion_main!(benches);
