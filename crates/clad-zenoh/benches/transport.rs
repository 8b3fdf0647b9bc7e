//! CLAD messages over Zenoh on the loopback interface, beside the same messages over a plain
//! Unix datagram socket pair (what the original robot used between its processes).
//!
//! ```sh
//! cargo bench -p clad-zenoh --bench transport -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Messages (`CloudMic::Message`, `schemas/cloud.clad`): `5B` is a `streamOpen` with a
//! three-letter session; `1300B` is a `result` whose parameters are a 1,270-byte JSON object.
//!
//! - `round_trip/<transport>/<size>`: one message there and back. Zenoh: two peer sessions
//!   in this process connected over `tcp/127.0.0.1` (multicast scouting off); the far side
//!   is a typed subscriber that republishes each decoded message with a typed publisher on
//!   another key, and the near side waits for it with a typed subscriber. Unix: a
//!   `socketpair(AF_UNIX, SOCK_DGRAM)`; the far side is a thread that unpacks each datagram
//!   and sends it packed again, the near side packs, sends, receives and unpacks. Both do
//!   the same CLAD work per message.
//! - `throughput/<transport>/<size>`: messages per second one way, the receiver unpacking
//!   every message; the time runs until the last one is received.

use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use clad_runtime::wire::Wire;
use clad_zenoh::zenoh::Session;
use clad_zenoh::{config, Publisher};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use clad_zenoh_fixtures::clad::cloud_mic::{IntentResult, Message, StreamOpen};

const WAIT: Duration = Duration::from_secs(10);

fn small() -> Message {
    Message::StreamOpen(StreamOpen {
        session: "abc".into(),
    })
}

fn large() -> Message {
    let mut parameters = String::from("{");
    let mut i = 0;
    while parameters.len() < 1_240 {
        parameters.push_str(&format!(r#""slot_{i:02}":"value number {i:04}","#));
        i += 1;
    }
    parameters.pop();
    parameters.push('}');
    while parameters.len() < 1_270 {
        parameters.insert(1, ' ');
    }
    Message::Result(IntentResult {
        intent: "intent_weather_forecast".into(),
        parameters,
        metadata: String::new(),
    })
}

fn pair() -> (Session, Session) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port();
    let ep = format!("tcp/127.0.0.1:{port}");
    let a = config::open(config::peer(&[&ep], &[], false).unwrap()).expect("listening peer");
    let b = config::open(config::peer(&[], &[&ep], false).unwrap()).expect("connecting peer");
    (a, b)
}

fn publisher(session: &Session, key: &str) -> Publisher<Message> {
    let p = Publisher::declare(session, Some(key)).unwrap();
    assert!(
        p.wait_for_subscribers(WAIT).unwrap(),
        "no subscriber on {key}"
    );
    p
}

fn zenoh_round_trip(c: &mut Criterion, sessions: &(Session, Session)) {
    let (near, far) = sessions;
    let pong = Publisher::<Message>::declare(far, Some("bench/pong")).unwrap();
    let _echo = clad_zenoh::subscribe::<Message, _>(far, Some("bench/ping"), move |m| {
        pong.put(&m.expect("ping decodes")).expect("pong sent");
    })
    .unwrap();
    let (tx, rx) = mpsc::sync_channel(1);
    let _back = clad_zenoh::subscribe::<Message, _>(near, Some("bench/pong"), move |m| {
        tx.send(m.expect("pong decodes")).expect("bench alive");
    })
    .unwrap();
    let ping = publisher(near, "bench/ping");
    // The pong publisher's subscriber is `_back`: wait for one full round trip first.
    let deadline = Instant::now() + WAIT;
    loop {
        ping.put(&small()).unwrap();
        if rx.recv_timeout(Duration::from_millis(50)).is_ok() {
            break;
        }
        assert!(Instant::now() < deadline, "no pong");
    }
    while rx.try_recv().is_ok() {}
    let mut g = c.benchmark_group("round_trip/zenoh");
    for (name, msg) in [("5B", small()), ("1300B", large())] {
        g.throughput(Throughput::Elements(1));
        g.bench_function(name, |b| {
            b.iter(|| {
                ping.put(&msg).unwrap();
                rx.recv_timeout(WAIT).expect("pong")
            })
        });
    }
    g.finish();
}

fn unix_round_trip(c: &mut Criterion) {
    let (near, far) = UnixDatagram::pair().unwrap();
    far.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let stop = Arc::new(AtomicU64::new(0));
    let stop2 = stop.clone();
    let echo = std::thread::spawn(move || {
        let mut buf = vec![0u8; 70_000];
        while stop2.load(Ordering::Relaxed) == 0 {
            let Ok(n) = far.recv(&mut buf) else { continue };
            let m = Message::unpack(&buf[..n]).expect("ping decodes");
            far.send(&m.pack().unwrap()).unwrap();
        }
    });
    let mut buf = vec![0u8; 70_000];
    let mut g = c.benchmark_group("round_trip/unix");
    for (name, msg) in [("5B", small()), ("1300B", large())] {
        g.throughput(Throughput::Elements(1));
        g.bench_function(name, |b| {
            b.iter(|| {
                near.send(&msg.pack().unwrap()).unwrap();
                let n = near.recv(&mut buf).unwrap();
                Message::unpack(&buf[..n]).unwrap()
            })
        });
    }
    g.finish();
    stop.store(1, Ordering::Relaxed);
    echo.join().unwrap();
}

fn zenoh_throughput(c: &mut Criterion, sessions: &(Session, Session)) {
    let (rx_side, tx_side) = sessions;
    let count = Arc::new(AtomicU64::new(0));
    let target = Arc::new(AtomicU64::new(u64::MAX));
    let (done_tx, done_rx) = mpsc::sync_channel(1);
    let (c2, t2) = (count.clone(), target.clone());
    let _sink = clad_zenoh::subscribe::<Message, _>(rx_side, Some("bench/flood"), move |m| {
        m.expect("decodes");
        if c2.fetch_add(1, Ordering::AcqRel) + 1 == t2.load(Ordering::Acquire) {
            done_tx.send(()).unwrap();
        }
    })
    .unwrap();
    let p = publisher(tx_side, "bench/flood");
    let mut g = c.benchmark_group("throughput/zenoh");
    for (name, msg) in [("5B", small()), ("1300B", large())] {
        g.throughput(Throughput::Elements(1));
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                count.store(0, Ordering::Release);
                target.store(iters, Ordering::Release);
                let start = Instant::now();
                for _ in 0..iters {
                    p.put(&msg).unwrap();
                }
                done_rx
                    .recv_timeout(Duration::from_secs(120))
                    .expect("all arrive");
                let t = start.elapsed();
                target.store(u64::MAX, Ordering::Release);
                t
            })
        });
    }
    g.finish();
}

fn unix_throughput(c: &mut Criterion) {
    let mut g = c.benchmark_group("throughput/unix");
    for (name, msg) in [("5B", small()), ("1300B", large())] {
        g.throughput(Throughput::Elements(1));
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let (tx, rx) = UnixDatagram::pair().unwrap();
                let sink = std::thread::spawn(move || {
                    let mut buf = vec![0u8; 70_000];
                    for _ in 0..iters {
                        let n = rx.recv(&mut buf).unwrap();
                        Message::unpack(&buf[..n]).expect("decodes");
                    }
                });
                let start = Instant::now();
                for _ in 0..iters {
                    // Blocks while the receiver's queue is full: nothing is lost.
                    tx.send(&msg.pack().unwrap()).unwrap();
                }
                sink.join().unwrap();
                start.elapsed()
            })
        });
    }
    g.finish();
}

fn transport(c: &mut Criterion) {
    assert_eq!(small().packed_size(), 5);
    let n = large().packed_size();
    assert!((1_250..=1_350).contains(&n), "large message is {n} bytes");
    let sessions = pair();
    zenoh_round_trip(c, &sessions);
    unix_round_trip(c);
    zenoh_throughput(c, &sessions);
    unix_throughput(c);
}

criterion_group!(benches, transport);
criterion_main!(benches);
