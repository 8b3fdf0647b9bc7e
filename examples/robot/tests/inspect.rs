//! The inspector's server and run loop without a browser (cargo feature `inspect`; the
//! browser tests are in `tests/browser/`): what it refuses and how, its bounds, and that
//! nothing a page sends — garbage included — stops the robot or changes what it does with
//! its own inputs.
//!
//! `cargo test -p robot-example --features inspect --test inspect`

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use robot_example::inspect::hub::Hub;
use robot_example::inspect::{self, Config, Inspector, Limits, RunOptions, Server, StartError};
use robot_example::robot::{Robot, RunConfig};
use robot_example::scenario::Scenario;
use robot_example::timeline::Entry;
use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

const TOKEN: &str = "0123456789abcdef-token";

fn loopback(limits: Limits) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: None,
        limits,
    }
}

/// A replay hub over two events: a server with no robot behind it.
fn replay_hub(limits: Limits) -> Hub {
    let mut hello = serde_json::Map::new();
    hello.insert("tree".into(), json!({"base": 0, "nodes": []}));
    let history = vec![
        json!({"tick": 0, "t_ms": 0, "event": "note", "text": "a"}),
        json!({"tick": 1, "t_ms": 50, "event": "note", "text": "b"}),
    ];
    Hub::replay(hello, history, limits)
}

/// A raw HTTP exchange: sends `request`, returns what came back (until the server closed).
fn raw(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn get(addr: SocketAddr, target: &str, extra: &str) -> String {
    raw(
        addr,
        format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n").as_bytes(),
    )
}

fn status(response: &str) -> u16 {
    response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn connect(
    addr: SocketAddr,
    query: &str,
    headers: &[(&str, &str)],
) -> Result<WebSocket<TcpStream>, u16> {
    let mut req = format!("ws://{addr}/ws{query}")
        .into_client_request()
        .unwrap();
    for (k, v) in headers {
        let name = tungstenite::http::HeaderName::from_bytes(k.as_bytes()).unwrap();
        req.headers_mut().insert(name, v.parse().unwrap());
    }
    let stream = TcpStream::connect(addr).unwrap();
    match tungstenite::client(req, stream) {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r))) => {
            Err(r.status().as_u16())
        }
        Err(e) => panic!("handshake: {e}"),
    }
}

/// The next message of `kinds` (others, updates, are skipped).
fn next_of(ws: &mut WebSocket<TcpStream>, kinds: &[&str]) -> Value {
    ws.get_mut()
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    loop {
        match ws.read().expect("a message") {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if kinds.contains(&v["type"].as_str().unwrap_or("")) {
                    return v;
                }
            }
            Message::Close(_) => panic!("closed while waiting for {kinds:?}"),
            _ => {}
        }
    }
}

#[test]
fn the_page_and_what_is_refused() {
    let server =
        Server::start(&loopback(Limits::default()), replay_hub(Limits::default())).unwrap();
    let addr = server.addr();
    let page = get(addr, "/", "");
    assert_eq!(status(&page), 200);
    assert!(
        page.contains("Content-Security-Policy: default-src 'none'"),
        "{page}"
    );
    assert!(page.contains("<title>Robot inspector</title>"));
    assert_eq!(status(&get(addr, "/nope", "")), 404);
    assert_eq!(
        status(&raw(
            addr,
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        )),
        405
    );
    assert_eq!(status(&raw(addr, b"\x00\x01garbage\r\n\r\n")), 400);
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Pad: {}\r\n\r\n",
        "a".repeat(9000)
    );
    assert_eq!(status(&raw(addr, huge.as_bytes())), 431);
    // DNS rebinding: a page served under another name that resolves to 127.0.0.1.
    let rebound = raw(addr, b"GET / HTTP/1.1\r\nHost: evil.example:7480\r\n\r\n");
    assert_eq!(status(&rebound), 403);
    // A page of another site may not open the socket; tools (no Origin) and the page may.
    assert_eq!(
        connect(addr, "", &[("Origin", "http://evil.example")]).err(),
        Some(403)
    );
    let origin = format!("http://{addr}");
    let mut ws = connect(addr, "", &[("Origin", origin.as_str())]).unwrap();
    let hello = next_of(&mut ws, &["hello"]);
    assert_eq!(hello["mode"], "replay");
    assert_eq!(hello["history"].as_array().unwrap().len(), 2);
    assert_eq!(hello["commands"], false);
    // A replay takes no command.
    ws.send(Message::text(r#"{"id":1,"cmd":"pause"}"#)).unwrap();
    let e = next_of(&mut ws, &["error", "reply"]);
    assert_eq!(e["type"], "error");
    assert!(
        e["error"].as_str().unwrap().contains("replays a trace"),
        "{e}"
    );
    // A plain GET on the socket's path is not an upgrade.
    assert_eq!(status(&get(addr, "/ws", "")), 400);
    server.shutdown();
}

#[test]
fn slow_request_heads_time_out() {
    let limits = Limits {
        io_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = Server::start(&loopback(limits), replay_hub(limits)).unwrap();
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let started = Instant::now();
    let mut out = String::new();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.read_to_string(&mut out);
    assert_eq!(status(&out), 408, "{out}");
    assert!(started.elapsed() < Duration::from_secs(10));
    server.shutdown();
}

#[test]
fn connections_and_pages_are_bounded() {
    let limits = Limits {
        max_clients: 2,
        max_connections: 4,
        ..Limits::default()
    };
    let server = Server::start(&loopback(limits), replay_hub(limits)).unwrap();
    let addr = server.addr();
    let mut a = connect(addr, "", &[]).unwrap();
    let mut b = connect(addr, "", &[]).unwrap();
    next_of(&mut a, &["hello"]);
    next_of(&mut b, &["hello"]);
    assert_eq!(
        connect(addr, "", &[]).err(),
        Some(503),
        "a third page is refused"
    );
    // Idle connections up to the limit; the next one is closed at once, unanswered. The
    // server counts on its own threads, so the test waits for its count (a loaded machine
    // closes and accepts late) instead of guessing a time.
    let settled = |n: usize| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while server.connections() != n {
            assert!(
                Instant::now() < deadline,
                "{} connections, not {n}",
                server.connections()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    settled(2); // the refused page's connection has ended
    let _c = TcpStream::connect(addr).unwrap();
    let _d = TcpStream::connect(addr).unwrap();
    settled(4);
    let mut over = TcpStream::connect(addr).unwrap();
    over.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut buf = [0u8; 16];
    let _ = over.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assert!(
        matches!(over.read(&mut buf), Ok(0) | Err(_)),
        "closed without an answer"
    );
    drop((a, b));
    server.shutdown();
}

#[test]
fn the_token_is_required_off_loopback_and_checked_everywhere() {
    let hub = replay_hub(Limits::default());
    let open = Config {
        addr: "0.0.0.0:0".parse().unwrap(),
        token: None,
        limits: Limits::default(),
    };
    assert!(matches!(
        Server::start(&open, hub.clone()),
        Err(StartError::TokenRequired(_))
    ));
    let weak = Config {
        token: Some("short".into()),
        ..open.clone()
    };
    assert!(matches!(
        Server::start(&weak, hub.clone()),
        Err(StartError::BadToken)
    ));
    let config = Config {
        token: Some(TOKEN.into()),
        ..open
    };
    let server = Server::start(&config, hub).unwrap();
    assert!(server.url().ends_with(&format!("/?token={TOKEN}")));
    let addr = SocketAddr::from(([127, 0, 0, 1], server.addr().port()));
    assert_eq!(status(&get(addr, "/", "")), 401);
    assert_eq!(
        status(&get(addr, "/?token=0123456789abcdef-tokeX", "")),
        401
    );
    assert_eq!(status(&get(addr, &format!("/?token={TOKEN}"), "")), 200);
    assert_eq!(
        status(&get(
            addr,
            "/",
            &format!("Authorization: Bearer {TOKEN}\r\n")
        )),
        200
    );
    assert_eq!(connect(addr, "", &[]).err(), Some(401));
    let mut ws = connect(addr, &format!("?token={TOKEN}"), &[]).unwrap();
    assert_eq!(next_of(&mut ws, &["hello"])["type"], "hello");
    server.shutdown();
}

/// A scenario in ticks: the voice flow, an app intent, an HRI guide, a stop.
const SCENARIO: &str = r#"
{"tick": 2, "trigger_word": {}}
{"tick": 8, "cloud": {"type": "result", "intent": "intent_clock_settimer_extend", "parameters": "{\"timer_duration\":\"60\"}", "metadata": ""}}
{"tick": 60, "app_intent": {"intent": "intent_clock_settimer", "param": "30"}}
{"tick": 90, "hri": {"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "person_1"}, "priority": 128}}
{"tick": 120, "hri": {"intent": "__intent_stop_activity__", "data": {}, "priority": 255}}
"#;

fn robot(tps: u32) -> Robot {
    Robot::new(RunConfig {
        ticks_per_second: tps,
        ..RunConfig::default()
    })
}

/// Runs the robot with the inspector on a thread until `ticks` ticks ran; returns the
/// server's address, and a handle giving the entries.
struct Running {
    addr: SocketAddr,
    entries: Arc<Mutex<Vec<Entry>>>,
    handle: std::thread::JoinHandle<inspect::Summary>,
}

fn start(scenario: &'static str, tps: u32, run_for: Duration, paused: bool) -> Running {
    let entries = Arc::new(Mutex::new(Vec::new()));
    let sink = entries.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    // The robot is not `Send` (its capabilities need not be): it lives on its thread.
    let handle = std::thread::spawn(move || {
        let robot = robot(tps);
        let mut inspector = Inspector::new(&robot, tps, Limits::default());
        let server = Server::start(&loopback(Limits::default()), inspector.hub().clone()).unwrap();
        inspector.hub().start_broadcaster().unwrap();
        tx.send(server.addr()).unwrap();
        let scenario = Scenario::parse(scenario, tps);
        let options = RunOptions {
            ticks_per_second: tps,
            run_for: Some(run_for),
            start_paused: paused,
        };
        let summary = inspect::run(
            robot,
            &scenario,
            &options,
            None,
            &mut inspector,
            |_, _, _| 0,
            |e: &[Entry]| sink.lock().unwrap().extend_from_slice(e),
        );
        inspector.hub().stop();
        server.shutdown();
        summary
    });
    Running {
        addr: rx.recv().unwrap(),
        entries,
        handle,
    }
}

#[test]
fn garbage_on_the_socket_changes_nothing_the_robot_does() {
    let tps = 100;
    let run = start(SCENARIO, tps, Duration::from_secs(4), false);
    let mut ws = connect(run.addr, "", &[]).unwrap();
    next_of(&mut ws, &["hello"]);
    let garbage: Vec<Message> = vec![
        Message::text(""),
        Message::text("not json"),
        Message::text("[1,2,3]"),
        Message::text("{\"cmd\":\"explode\"}"),
        Message::text("{\"cmd\":\"step\",\"ticks\":1e99}"),
        Message::text("{\"cmd\":\"force\",\"behavior\":\"NoSuchBehavior\"}"),
        Message::text(
            "{\"cmd\":\"user_intent\",\"intent\":{\"type\":\"set_timer\",\"time_s\":-1}}",
        ),
        Message::text("{\"cmd\":\"cloud\",\"text\":\"{\\\"type\\\":42}\"}"),
        Message::text("{\"cmd\":\"hri\",\"message\":[]}"),
        Message::text("{\"cmd\":\"watch\",\"behavior\":\"Nope\"}"),
        Message::text("{\"id\":{\"a\":1},\"cmd\":\"pause\"}"),
        Message::text("\u{0}\u{1}\u{2}"),
        Message::binary(vec![0xff; 64]),
    ];
    let mut sent = 0;
    for _ in 0..20 {
        for g in &garbage {
            ws.send(g.clone()).unwrap();
            sent += 1;
        }
    }
    let mut errors = 0;
    while errors < sent {
        let v = next_of(&mut ws, &["error", "reply"]);
        assert_eq!(v["type"], "error", "garbage is refused: {v}");
        errors += 1;
    }
    // A message over the limit: an error reply, then the socket closes (1009).
    ws.send(Message::text(format!(
        "{{\"cmd\":\"cloud\",\"text\":\"{}\"}}",
        "x".repeat(70 * 1024)
    )))
    .unwrap();
    let v = next_of(&mut ws, &["error"]);
    assert!(v["error"].as_str().unwrap().contains("too large"), "{v}");
    let summary = run.handle.join().unwrap();
    assert!(summary.ticks >= 150, "the robot kept ticking: {summary:?}");
    // Only the two well-formed commands naming an unknown behavior reached the robot (and
    // were refused there, changing nothing).
    assert_eq!(summary.commands, 40, "{summary:?}");

    // Tick for tick, the robot did what it does with no page at all.
    let live: Vec<Entry> = run.entries.lock().unwrap().clone();
    let alone = robot(tps).run(&Scenario::parse(SCENARIO, tps)).entries;
    let upto = 150;
    let cut = |v: &[Entry]| {
        v.iter()
            .filter(|e| e.tick < upto)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(cut(&live), cut(&alone));
    assert!(cut(&alone)
        .iter()
        .any(|e| e.what.text().contains("TimerSet claimed set_timer")));
}

#[test]
fn commands_pause_step_send_and_force() {
    let run = start("", 20, Duration::from_secs(10), true);
    let mut ws = connect(run.addr, "", &[]).unwrap();
    let hello = next_of(&mut ws, &["hello"]);
    let index = |name: &str| {
        hello["tree"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == name)
            .map(|n| n["index"].clone())
            .unwrap()
    };
    let mut id = 0;
    let mut cmd = |ws: &mut WebSocket<TcpStream>, c: Value| {
        id += 1;
        let mut c = c;
        c["id"] = id.into();
        ws.send(Message::text(c.to_string())).unwrap();
        let v = next_of(ws, &["reply", "error"]);
        assert_eq!(v["id"], id, "{v}");
        v
    };
    assert_eq!(
        cmd(&mut ws, json!({"cmd": "pause"}))["message"],
        "already paused"
    );
    assert_eq!(
        cmd(&mut ws, json!({"cmd": "step", "ticks": 3}))["message"],
        "stepping 3 ticks"
    );
    let v = cmd(
        &mut ws,
        json!({"cmd": "user_intent", "intent": {"type": "set_timer", "time_s": 30}}),
    );
    assert!(v["message"].as_str().unwrap().contains("paused"), "{v}");
    let v = cmd(&mut ws, json!({"cmd": "force", "behavior": "Nope"}));
    assert_eq!(v["error"], "force: no behavior is named \"Nope\"");
    assert_eq!(
        cmd(
            &mut ws,
            json!({"cmd": "watch", "behavior": "VoiceFeatures"})
        )["message"],
        "watching VoiceFeatures"
    );
    // The queued intent is delivered on the next tick and claimed.
    cmd(&mut ws, json!({"cmd": "step", "ticks": 2}));
    let deadline = Instant::now() + Duration::from_secs(20);
    let claimed = |entries: &[Entry]| {
        entries
            .iter()
            // A page's input is an input like any other: its latency is shown.
            .any(|e| {
                e.what.text()
                    == "TimerSet claimed set_timer (activation #1)  (0 ticks after arrival)"
            })
    };
    while !claimed(&run.entries.lock().unwrap()) {
        assert!(
            Instant::now() < deadline,
            "the intent sent from the page was not claimed: {}",
            robot_example::timeline::render(&run.entries.lock().unwrap(), false)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Paused, the state shows the stack and why each of VoiceFeatures' children runs or not.
    let state = loop {
        let v = next_of(&mut ws, &["update"]);
        if let Some(s) = v.get("state").filter(|s| s["tick"] == 4) {
            break s.clone();
        }
    };
    let names: Vec<&str> = state["stack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["GlobalInterruptions", "VoiceFeatures", "TimerSet"]);
    assert_eq!(state["intents"]["active"]["intent"], "set_timer");
    assert_eq!(state["intents"]["active"]["owner"], "TimerSet");
    assert_eq!(state["intents"]["active"]["origin"], "Dev");
    let why = state["why"].as_array().unwrap();
    let timer_check = why
        .iter()
        .find(|g| g["index"] == index("TimerCheck"))
        .expect("TimerCheck explained (a child of the watched VoiceFeatures)");
    assert_eq!(timer_check["wants_to_run"], false);
    assert_eq!(timer_check["intent_pending"], false, "{timer_check}");
    assert!(
        timer_check["gates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["open"] == true),
        "{timer_check}"
    );
    // Each behavior not out of scope is listed; TimerSet is active on top.
    let node = |name: &str| {
        state["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["index"] == index(name))
            .cloned()
    };
    assert_eq!(node("TimerSet").unwrap()["state"], "active");
    assert_eq!(node("TimerCheck").unwrap()["state"], "in_scope");
    // Forcing: the behavior is put on the stack through its parents.
    let v = cmd(
        &mut ws,
        json!({"cmd": "force", "behavior": "ShowClock", "runs": 2}),
    );
    assert_eq!(
        v["message"],
        "forced ShowClock (run 1 of 2): stack GlobalInterruptions > VoiceFeatures > ShowClock"
    );
    assert_eq!(cmd(&mut ws, json!({"cmd": "resume"}))["message"], "resumed");
    // Its second run follows the first.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let runs = run
            .entries
            .lock()
            .unwrap()
            .iter()
            .filter(|e| {
                e.what
                    .text()
                    .starts_with("ShowClock: anim_show_clock started")
            })
            .count();
        if runs == 2 {
            break;
        }
        assert!(Instant::now() < deadline, "ShowClock ran {runs} times");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(ws);
    let summary = run.handle.join().unwrap();
    assert_eq!(summary.commands, 8, "{summary:?}");
}

/// The original robot's tree (162 files, 169 behaviors) with the default scenario:
/// every snapshot a page gets stays small (behaviors out of scope with nothing to say are
/// left out; "why" covers only what the page looks at). Its cost: `benches/inspect.rs`.
#[test]
fn snapshots_of_the_original_tree_are_bounded() {
    use robot_example::tree_files;
    use robot_runtime::behavior::{LoadOptions, Source};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/behaviors/original");
    let files = tree_files::read_tree(std::path::Path::new(dir))
        .unwrap()
        .files;
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let base = tree_files::default_base(&files).unwrap().to_owned();
    let tps = 20;
    let (mut robot, _) = Robot::with_sources(
        &sources,
        &base,
        &LoadOptions::with_stand_ins(),
        RunConfig {
            ticks_per_second: tps,
            ..RunConfig::default()
        },
    )
    .unwrap();
    assert!(robot.runner().len() > 150, "{}", robot.runner().len());
    let scenario = Scenario::parse(robot_example::robot::DEFAULT_SCENARIO, tps);
    let hla = robot.runner().id("HighLevelAI").unwrap();
    let mut next = 0;
    let (mut largest, mut nodes_most) = (0, 0);
    for tick in 0..700u64 {
        robot.begin_tick(tick);
        for e in scenario.due(&mut next, tick, tps) {
            robot.deliver(e, Duration::ZERO);
        }
        robot.end_tick(Duration::ZERO);
        robot.clear_entries();
        if tick % 7 == 0 {
            // A page watching HighLevelAI (its transitions, its states' behaviors).
            let json = inspect::snapshot_json(&robot, tps, &[hla]);
            let v: Value = serde_json::from_str(&json).unwrap();
            largest = largest.max(json.len());
            let nodes = v["nodes"].as_array().unwrap();
            nodes_most = nodes_most.max(nodes.len());
            // Out of scope, a behavior is listed only with something to say.
            assert!(nodes.iter().all(|n| n["state"] != "out_of_scope"
                || n.get("debug_state").is_some()
                || n.get("cooldown_ms").is_some()));
            assert!(!v["stack"].as_array().unwrap().is_empty());
        }
    }
    eprintln!(
        "original tree: {} behaviors; largest snapshot {largest} bytes, at most {nodes_most} behaviors listed",
        robot.runner().len()
    );
    assert!(
        largest < 64 * 1024,
        "the largest snapshot is {largest} bytes"
    );
}

/// A robot waiting with a page open: after a state, each heartbeat brings only the clock
/// (nothing else moved); something happening brings a state again.
#[test]
fn waiting_costs_the_clock_not_a_state() {
    use robot_example::inspect::Progress;
    let tps = 50;
    let mut robot = robot(tps);
    let mut inspector = Inspector::new(&robot, tps, Limits::default());
    let page = inspector.hub().attach().unwrap();
    let mut tick = |robot: &mut Robot, t: u64, event: Option<&str>| -> Vec<Value> {
        robot.begin_tick(t);
        if let Some(e) = event {
            robot.deliver(&Scenario::parse(e, tps).events[0], Duration::ZERO);
        }
        robot.end_tick(Duration::ZERO);
        let progress = Progress {
            ticks_run: t + 1,
            ..Progress::default()
        };
        inspector.publish(robot, robot.entries(), &progress);
        robot.clear_entries();
        inspector.hub().flush();
        page.rx
            .try_iter()
            .map(|m| serde_json::from_str(m.as_str()).unwrap())
            .collect()
    };
    // Ten seconds of waiting.
    let mut updates: Vec<Value> = Vec::new();
    for t in 0..500 {
        updates.extend(tick(&mut robot, t, None));
    }
    let kind = |u: &Value| match (u.get("state"), u.get("clock")) {
        (Some(_), _) => "state",
        (None, Some(_)) => "clock",
        _ => "entries",
    };
    let kinds: Vec<&str> = updates.iter().map(kind).collect();
    let states = kinds.iter().filter(|k| **k == "state").count();
    let clocks: Vec<&Value> = updates.iter().filter_map(|u| u.get("clock")).collect();
    // A state when the page connected, one when the stack settled, one at the first
    // heartbeat after it (the hash is taken there); then a clock a second.
    assert!(states <= 4, "{kinds:?}");
    assert!(clocks.len() >= 6, "{kinds:?}");
    let last = clocks.last().unwrap();
    let t = last["tick"].as_u64().unwrap();
    assert!((450..500).contains(&t), "{last}");
    assert_eq!(last["t_ms"], t * 20);
    // Something happens: a state again, within a frame.
    let before = updates.len();
    updates.extend(tick(
        &mut robot,
        500,
        Some(r#"{"tick": 500, "trigger_word": {}}"#),
    ));
    for t in 501..510 {
        updates.extend(tick(&mut robot, t, None));
    }
    assert!(
        updates[before..].iter().any(|u| kind(u) == "state"),
        "{:?}",
        &updates[before..]
    );
}
