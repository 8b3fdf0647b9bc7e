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
        origins: Vec::new(),
        limits,
    }
}

/// The robot as a page keeps it: the whole state of `hello`, then every update's changes
/// applied as `inspector.js` applies them (the protocol's rules: absent keys unchanged, listed
/// entries replaced, a blank behavior dropped, `explained` trimming `why`).
#[derive(Default)]
struct PageState {
    state: Value,
}

impl PageState {
    fn apply(&mut self, changes: &Value) {
        if changes.get("full") == Some(&Value::Bool(true)) || self.state.is_null() {
            self.state = changes.clone();
            return;
        }
        let st = self.state.as_object_mut().unwrap();
        for (k, v) in changes.as_object().unwrap() {
            match k.as_str() {
                "nodes" | "why" => {
                    let list = st.entry(k.clone()).or_insert_with(|| json!([]));
                    let list = list.as_array_mut().unwrap();
                    for n in v.as_array().unwrap() {
                        list.retain(|x| x["index"] != n["index"]);
                        let blank = k == "nodes"
                            && n["state"] == "out_of_scope"
                            && n.get("debug_state").is_none()
                            && n.get("cooling_until_ms").is_none();
                        if !blank {
                            list.push(n.clone());
                        }
                    }
                }
                "robot" => {
                    let list = st.entry("robot").or_insert_with(|| json!([]));
                    let list = list.as_array_mut().unwrap();
                    for r in v.as_array().unwrap() {
                        list.retain(|x| x[0] != r[0]);
                        list.push(r.clone());
                    }
                }
                "explained" => {
                    let keep: Vec<Value> = v.as_array().unwrap().clone();
                    if let Some(w) = st.get_mut("why").and_then(Value::as_array_mut) {
                        w.retain(|x| keep.contains(&x["index"]));
                    }
                    st.insert(k.clone(), v.clone());
                }
                _ => {
                    st.insert(k.clone(), v.clone());
                }
            }
        }
    }
    fn tick(&self) -> Option<u64> {
        self.state["tick"].as_u64()
    }
    fn node(&self, index: &Value) -> Option<&Value> {
        self.state["nodes"]
            .as_array()?
            .iter()
            .find(|n| &n["index"] == index)
    }
    /// The stack's behaviors, bottom first, by index.
    fn stack(&self) -> Vec<u64> {
        let mut frames: Vec<(u64, u64)> = self.state["nodes"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|n| Some((n["stack_position"].as_u64()?, n["index"].as_u64()?)))
                    .collect()
            })
            .unwrap_or_default();
        frames.sort_unstable();
        frames.into_iter().map(|(_, i)| i).collect()
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

/// A page on the socket: every update it reads is applied to its state, whatever the test
/// waits for.
struct Page {
    ws: WebSocket<TcpStream>,
    hello: Value,
    seen: PageState,
    next_id: u64,
}

impl Page {
    fn open(addr: SocketAddr) -> Page {
        let mut ws = connect(addr, "", &[]).unwrap();
        let hello = next_of(&mut ws, &["hello"]);
        let mut seen = PageState::default();
        seen.apply(&hello["state"]);
        Page {
            ws,
            hello,
            seen,
            next_id: 0,
        }
    }
    fn index(&self, name: &str) -> Value {
        self.hello["tree"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == name)
            .map(|n| n["index"].clone())
            .unwrap_or_else(|| panic!("no {name}"))
    }
    fn name(&self, index: u64) -> String {
        self.hello["tree"]["nodes"][index as usize]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    }
    fn stack_names(&self) -> Vec<String> {
        self.seen
            .stack()
            .into_iter()
            .map(|i| self.name(i))
            .collect()
    }
    /// The next message of `kinds`, applying every update on the way.
    fn next_of(&mut self, kinds: &[&str]) -> Value {
        loop {
            let v = next_of(&mut self.ws, &["update", "reply", "error"]);
            if v["type"] == "update" {
                if let Some(st) = v.get("state") {
                    self.seen.apply(st);
                }
            }
            if kinds.contains(&v["type"].as_str().unwrap_or("")) {
                return v;
            }
        }
    }
    /// Sends a command and returns its reply (or error).
    fn cmd(&mut self, c: Value) -> Value {
        self.next_id += 1;
        let mut c = c;
        c["id"] = self.next_id.into();
        self.ws.send(Message::text(c.to_string())).unwrap();
        loop {
            let v = self.next_of(&["reply", "error"]);
            if v["id"] == self.next_id {
                return v;
            }
        }
    }
    /// Reads updates until the page's state satisfies `f` (20 s at most).
    fn until(&mut self, what: &str, f: impl Fn(&PageState) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !f(&self.seen) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            self.next_of(&["update"]);
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
        head_timeout: Duration::from_millis(300),
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

/// Waits until `f` holds (the server counts on its own threads: a loaded machine closes and
/// accepts late), failing after 20 s.
fn settle(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn pages_are_bounded_and_idle_connections_make_room() {
    let limits = Limits {
        max_clients: 2,
        max_pending_per_address: 4,
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
    settle("the refused page's connection to end", || {
        server.waiting() == 0
    });
    // Idle connections up to the address's budget wait at the door...
    let idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
    settle("four idle connections", || server.waiting() == 4);
    // ... and a fifth takes the place of the oldest idle one (closed unanswered), so a
    // request that comes is answered.
    drop(a);
    settle("a page's place", || server.connections() == 5);
    assert_eq!(status(&get(addr, "/", "")), 200);
    let mut oldest = idle.into_iter().next().unwrap();
    oldest
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut buf = [0u8; 16];
    assert!(
        matches!(oldest.read(&mut buf), Ok(0) | Err(_)),
        "the oldest idle connection was closed without an answer"
    );
    assert!(server.door_dropped().0 >= 1);
    drop(b);
    server.shutdown();
}

/// Issue 30: a peer without the token holding 40 idle connections from the same address
/// (reopening each one that closes, as fast as it can) kept the token holder out 12 times
/// of 12. Now every unauthenticated connection waits at the door, where an idle one makes
/// room for one that sends: the token holder gets in every time. A flood from another
/// address does not even touch this address's budget.
#[test]
fn a_flood_of_idle_connections_does_not_keep_the_token_holder_out() {
    let hub = replay_hub(Limits::default());
    let config = Config {
        addr: "0.0.0.0:0".parse().unwrap(),
        token: Some(TOKEN.into()),
        origins: Vec::new(),
        limits: Limits::default(),
    };
    let server = Server::start(&config, hub).unwrap();
    let port = server.addr().port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opened = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    // 100 idle connections (more than the per-address budget), each reopened as soon as it
    // is closed, from the token holder's own address.
    let flooders: Vec<_> = (0..4)
        .map(|_| {
            let (stop, opened) = (stop.clone(), opened.clone());
            std::thread::spawn(move || {
                let mut held: Vec<TcpStream> = Vec::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    held.retain(|s| {
                        let mut b = [0u8; 1];
                        s.set_nonblocking(true).unwrap();
                        !matches!(s.peek(&mut b), Ok(0))
                    });
                    while held.len() < 25 {
                        match TcpStream::connect(addr) {
                            Ok(s) => {
                                opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                held.push(s);
                            }
                            Err(_) => break,
                        }
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
        })
        .collect();
    settle("the flood", || {
        opened.load(std::sync::atomic::Ordering::Relaxed) >= 100
    });
    let mut admitted = 0;
    for round in 0..12 {
        // As the page does: the public page, then the socket and the token as its first
        // message.
        assert_eq!(status(&get(addr, "/", "")), 200, "round {round}: the page");
        let mut ws = connect(addr, "", &[]).unwrap_or_else(|s| panic!("round {round}: {s}"));
        ws.send(Message::text(
            json!({"cmd": "auth", "token": TOKEN}).to_string(),
        ))
        .unwrap();
        assert_eq!(
            next_of(&mut ws, &["hello"])["type"],
            "hello",
            "round {round}"
        );
        admitted += 1;
        drop(ws);
        std::thread::sleep(Duration::from_millis(250));
    }
    let (evicted, refused) = server.door_dropped();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for f in flooders {
        f.join().unwrap();
    }
    assert_eq!(admitted, 12);
    // The flood did fill the door: idle connections were dropped to make room.
    assert!(evicted > 0, "evicted {evicted}, refused {refused}");
    eprintln!(
        "flood: {} connections opened, {evicted} idle ones dropped, {refused} refused",
        opened.load(std::sync::atomic::Ordering::Relaxed)
    );
    server.shutdown();
}

#[test]
fn the_token_is_required_off_loopback_and_checked_before_anything_is_sent() {
    let hub = replay_hub(Limits::default());
    let open = Config {
        addr: "0.0.0.0:0".parse().unwrap(),
        token: None,
        origins: Vec::new(),
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
        limits: Limits {
            head_timeout: Duration::from_millis(500),
            ..Limits::default()
        },
        ..open
    };
    let server = Server::start(&config, hub).unwrap();
    // The address to print carries the token in its fragment (never sent to a server).
    assert!(server
        .url_with_token()
        .ends_with(&format!("/#token={TOKEN}")));
    assert!(!server.url().contains(TOKEN));
    let addr = SocketAddr::from(([127, 0, 0, 1], server.addr().port()));
    // The page is public: it holds nothing.
    assert_eq!(status(&get(addr, "/", "")), 200);
    // The socket: a wrong token in the handshake is refused at once; the right one in the
    // handshake (tools) or as the first message (the page) gets the hello.
    assert_eq!(
        connect(
            addr,
            "",
            &[("Authorization", "Bearer 0123456789abcdef-tokeX")]
        )
        .err(),
        Some(401)
    );
    let mut ws = connect(addr, "", &[("Authorization", &format!("Bearer {TOKEN}"))]).unwrap();
    assert_eq!(next_of(&mut ws, &["hello"])["type"], "hello");
    let mut ws = connect(addr, "", &[]).unwrap();
    ws.send(Message::text(
        json!({"cmd": "auth", "token": TOKEN}).to_string(),
    ))
    .unwrap();
    assert_eq!(next_of(&mut ws, &["hello"])["type"], "hello");
    // A wrong token, a command before the token, or nothing at all: an error, then the
    // socket closes; no hello, no data.
    for first in [
        Some(json!({"cmd": "auth", "token": "0123456789abcdef-tokeX"})),
        Some(json!({"cmd": "pause"})),
        None,
    ] {
        let mut ws = connect(addr, &format!("?token={TOKEN}"), &[]).unwrap();
        if let Some(m) = &first {
            ws.send(Message::text(m.to_string())).unwrap();
        }
        let v = next_of(&mut ws, &["error", "hello"]);
        assert_eq!(v["type"], "error", "{first:?}: {v}");
        assert!(!v.to_string().contains(TOKEN), "the token is never echoed");
        ws.get_mut()
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        loop {
            match ws.read() {
                Ok(Message::Close(_)) | Err(_) => break,
                Ok(Message::Text(t)) => assert!(!t.contains("hello"), "{t}"),
                Ok(_) => {}
            }
        }
    }
    server.shutdown();
}

#[test]
fn a_reverse_proxys_origin_is_allowed_by_configuration_only() {
    let hub = replay_hub(Limits::default());
    let base = Config {
        origins: vec!["https://robot.example:8443".into()],
        ..loopback(Limits::default())
    };
    assert!(matches!(
        Server::start(&base, hub.clone()),
        Err(StartError::OriginNeedsToken)
    ));
    let bad = Config {
        token: Some(TOKEN.into()),
        origins: vec!["robot.example".into()],
        ..base.clone()
    };
    assert!(matches!(
        Server::start(&bad, hub.clone()),
        Err(StartError::BadOrigin(_))
    ));
    let config = Config {
        token: Some(TOKEN.into()),
        ..base
    };
    let server = Server::start(&config, hub).unwrap();
    let addr = server.addr();
    let bearer = format!("Bearer {TOKEN}");
    let with = |origin: &str| {
        connect(
            addr,
            "",
            &[("Origin", origin), ("Authorization", bearer.as_str())],
        )
        .map(|_| ())
    };
    assert_eq!(with("https://robot.example:8443"), Ok(()));
    assert_eq!(with("https://ROBOT.example:8443/"), Ok(()), "case, slash");
    assert_eq!(with("https://robot.example"), Err(403), "another port");
    assert_eq!(
        with("http://robot.example:8443"),
        Err(403),
        "another scheme"
    );
    assert_eq!(with("https://evil.example"), Err(403));
    // The server's own origin (the page loaded from it directly) still works.
    assert_eq!(with(&format!("http://{addr}")), Ok(()));
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
            why: false,
        };
        let summary = inspect::run(
            robot,
            &scenario,
            &options,
            None,
            &mut inspector,
            |_, _, _| 0,
            |e: &[Entry], _| sink.lock().unwrap().extend_from_slice(e),
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
    let mut page = Page::open(run.addr);
    let index = |page: &Page, name: &str| page.index(name);
    assert_eq!(
        page.cmd(json!({"cmd": "pause"}))["message"],
        "already paused"
    );
    assert_eq!(
        page.cmd(json!({"cmd": "step", "ticks": 3}))["message"],
        "stepping 3 ticks"
    );
    let v = page.cmd(json!({"cmd": "user_intent", "intent": {"type": "set_timer", "time_s": 30}}));
    assert!(v["message"].as_str().unwrap().contains("paused"), "{v}");
    let v = page.cmd(json!({"cmd": "force", "behavior": "Nope"}));
    assert_eq!(v["error"], "force: no behavior is named \"Nope\"");
    assert_eq!(
        page.cmd(json!({"cmd": "watch", "behavior": "VoiceFeatures"}))["message"],
        "watching VoiceFeatures"
    );
    // The queued intent is delivered on the next tick and claimed.
    page.cmd(json!({"cmd": "step", "ticks": 2}));
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
    // Paused at tick 4, the page's state (every change applied) shows the stack and why each
    // of VoiceFeatures' children runs or not.
    page.until("tick 4", |s| s.tick() == Some(4));
    assert_eq!(
        page.stack_names(),
        ["GlobalInterruptions", "VoiceFeatures", "TimerSet"]
    );
    let state = page.seen.state.clone();
    assert_eq!(state["paused"], true);
    assert_eq!(state["intents"]["active"]["intent"], "set_timer");
    assert_eq!(state["intents"]["active"]["owner"], "TimerSet");
    assert_eq!(state["intents"]["active"]["origin"], "Dev");
    let why = state["why"].as_array().unwrap();
    let timer_check = why
        .iter()
        .find(|g| g["index"] == index(&page, "TimerCheck"))
        .expect("TimerCheck explained (a child of the watched VoiceFeatures)");
    assert_eq!(timer_check["intent_pending"], false, "{timer_check}");
    assert!(
        timer_check.get("closed").is_none(),
        "no gate closed: {timer_check}"
    );
    // Its condition values line up with the tree's condition list (sent once, in hello).
    let shape = &page.hello["tree"]["nodes"][timer_check["index"].as_u64().unwrap() as usize];
    let count = |c: &Value| -> usize {
        fn n(c: &Value) -> usize {
            1 + c["children"]
                .as_array()
                .map_or(0, |k| k.iter().map(n).sum())
        }
        c.as_array().map_or(0, |l| l.iter().map(n).sum())
    };
    assert_eq!(
        timer_check["values"].as_array().unwrap().len(),
        count(&shape["conditions"]),
        "{timer_check} / {shape}"
    );
    // Each behavior not out of scope is listed; TimerSet is active on top.
    assert_eq!(
        page.seen.node(&index(&page, "TimerSet")).unwrap()["state"],
        "active"
    );
    assert_eq!(
        page.seen.node(&index(&page, "TimerCheck")).unwrap()["state"],
        "in_scope"
    );
    // Forcing: the behavior is put on the stack through its parents.
    let v = page.cmd(json!({"cmd": "force", "behavior": "ShowClock", "runs": 2}));
    assert_eq!(
        v["message"],
        "forced ShowClock (run 1 of 2): stack GlobalInterruptions > VoiceFeatures > ShowClock"
    );
    let show_clock = index(&page, "ShowClock").as_u64();
    page.until("ShowClock on the stack", |s| {
        s.stack().last() == show_clock.as_ref()
    });
    assert_eq!(page.cmd(json!({"cmd": "resume"}))["message"], "resumed");
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
    drop(page);
    let summary = run.handle.join().unwrap();
    assert_eq!(summary.commands, 8, "{summary:?}");
}

/// A breakpoint pauses the robot on the tick the event happens, and the state says why:
/// on the activation of a behavior, an intent going pending, and a condition turning true.
#[test]
fn breakpoints_pause_on_the_tick_it_happens() {
    let run = start("", 20, Duration::from_secs(15), true);
    let mut page = Page::open(run.addr);
    let v = page.cmd(json!({"cmd": "break", "on": "activation", "behavior": "TimerSet"}));
    assert_eq!(v["message"], "breakpoint 1 set", "{v}");
    let v = page.cmd(json!({"cmd": "break", "on": "activation", "behavior": "Nope"}));
    assert!(v["error"].as_str().unwrap().contains("no behavior"), "{v}");
    page.until("the breakpoint listed", |s| {
        s.state["breakpoints"]
            .as_array()
            .is_some_and(|b| b.len() == 1)
    });
    page.cmd(json!({"cmd": "user_intent", "intent": {"type": "set_timer", "time_s": 30}}));
    assert_eq!(page.cmd(json!({"cmd": "resume"}))["message"], "resumed");
    page.until("the hit", |s| s.state["hit"].is_object());
    let hit = page.seen.state["hit"].clone();
    page.until("the state of the hit's tick", |s| {
        s.tick() == hit["tick"].as_u64() && s.state["paused"] == true
    });
    // The tick TimerSet was activated on, as the timeline has it; the robot stopped there.
    let entries = run.entries.lock().unwrap().clone();
    let activated = entries
        .iter()
        .find(|e| e.what.text() == "TimerSet activated")
        .expect("TimerSet activated");
    assert_eq!(hit["tick"], activated.tick, "{hit}");
    assert_eq!(hit["breakpoint"], 1);
    assert!(
        hit["what"].as_str().unwrap().contains("TimerSet activated"),
        "{hit}"
    );
    assert!(
        entries.iter().all(|e| e.tick <= activated.tick),
        "nothing ran after the breakpoint's tick"
    );
    assert_eq!(
        page.stack_names().last().map(String::as_str),
        Some("TimerSet")
    );
    assert_eq!(page.seen.state["breakpoints"][0]["hits"], 1);
    // An intent going pending.
    page.cmd(json!({"cmd": "unbreak"}));
    let v = page.cmd(json!({"cmd": "break", "on": "pending", "intent": "check_timer"}));
    assert_eq!(v["message"], "breakpoint 2 set", "{v}");
    page.cmd(json!({"cmd": "user_intent", "intent": "check_timer"}));
    page.cmd(json!({"cmd": "resume"}));
    page.until("the second hit", |s| s.state["hit"]["breakpoint"] == 2);
    let hit = page.seen.state["hit"].clone();
    let entries = run.entries.lock().unwrap().clone();
    let pending = entries
        .iter()
        .find(|e| e.what.text().starts_with("pending check_timer"))
        .expect("check_timer pending");
    assert_eq!(hit["tick"], pending.tick, "{hit}");
    // A condition turning true: HighLevelAI's transition to its voice-command state, once
    // the robot is back in Observing and `explore_start` goes pending.
    page.cmd(json!({"cmd": "unbreak"}));
    page.cmd(json!({"cmd": "resume"}));
    let hla = page.index("HighLevelAI");
    page.until("HighLevelAI observing", |s| {
        s.node(&hla)
            .is_some_and(|n| n["debug_state"] == "Observing" && n["state"] == "active")
    });
    let label = page.hello["tree"]["nodes"][hla.as_u64().unwrap() as usize]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["label"].as_str())
        .find(|l| l.starts_with("Observing -> ExploringVoiceCommand"))
        .expect("the transition's label in the tree")
        .to_owned();
    let v = page.cmd(
        json!({"cmd": "break", "on": "condition", "behavior": "HighLevelAI",
                             "condition": label}),
    );
    assert_eq!(v["message"], "breakpoint 3 set", "{v}");
    page.cmd(json!({"cmd": "user_intent", "intent": "explore_start"}));
    page.until("the condition's hit", |s| s.state["hit"]["breakpoint"] == 3);
    let hit = page.seen.state["hit"].clone();
    let entries = run.entries.lock().unwrap().clone();
    let pending = entries
        .iter()
        .find(|e| e.what.text().starts_with("pending explore_start"))
        .expect("explore_start pending");
    assert_eq!(hit["tick"], pending.tick, "{hit}");
    assert!(
        hit["what"].as_str().unwrap().ends_with("turned true"),
        "{hit}"
    );
    drop(page);
    run.handle.join().unwrap();
}

/// The original robot's tree (232 files, 281 behaviors) with the default scenario:
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
                || n.get("cooling_until_ms").is_some()));
            assert!(nodes.iter().any(|n| n.get("stack_position").is_some()));
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
    // What an update's state carries besides the clock.
    let kind = |u: &Value| match u.get("state").and_then(Value::as_object) {
        Some(st)
            if st
                .keys()
                .any(|k| !["tick", "t_ms", "paused"].contains(&k.as_str())) =>
        {
            "changes"
        }
        Some(_) => "clock",
        None => "entries",
    };
    let kinds: Vec<&str> = updates.iter().map(kind).collect();
    let states = kinds.iter().filter(|k| **k == "changes").count();
    let clocks: Vec<&Value> = updates
        .iter()
        .filter(|u| kind(u) == "clock")
        .filter_map(|u| u.get("state"))
        .collect();
    // The whole state when the page connected, changes while the stack settled; then, while
    // the robot waits, the clock alone once a second (durations are the page's to compute).
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
        updates[before..].iter().any(|u| kind(u) == "changes"),
        "{:?}",
        &updates[before..]
    );
}

/// Issue 30 (states as deltas): on every tick of the default scenario and a long wait after
/// it, on the shipped tree and the original robot's, whenever the page gets an update, the
/// page's state (the whole state of its hello, every change applied) is the robot's state
/// at that tick, as a fresh whole look gives it — also when the update brought only the
/// clock (the runner was quiet: nothing else could move). And it stays cheap: most updates
/// of a waiting robot are the clock alone.
#[test]
fn the_page_state_built_from_changes_is_the_robots_at_every_update() {
    use robot_example::inspect::Progress;
    use robot_example::tree_files;
    use robot_runtime::behavior::{LoadOptions, Source};
    let tps = 50;
    let config = RunConfig {
        ticks_per_second: tps,
        ..RunConfig::default()
    };
    let original = || {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/behaviors/original");
        let files = tree_files::read_tree(std::path::Path::new(dir))
            .unwrap()
            .files;
        let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
        let base = tree_files::default_base(&files).unwrap().to_owned();
        Robot::with_sources(
            &sources,
            &base,
            &LoadOptions::with_stand_ins(),
            config.clone(),
        )
        .unwrap()
        .0
    };
    let scenario = Scenario::parse(robot_example::robot::DEFAULT_SCENARIO, tps);
    let last = scenario.events.last().map_or(0, |e| e.when.tick(tps));
    // What a whole look says, without what a fresh look cannot know (when each robot-state
    // key changed: it saw none of the changes) and the lists' order.
    let comparable = |v: &Value| -> Value {
        let mut v = v.clone();
        let o = v.as_object_mut().unwrap();
        for k in [
            "tick",
            "t_ms",
            "paused",
            "full",
            "breakpoints",
            "hit",
            "forced",
        ] {
            o.remove(k);
        }
        o.retain(|_, x| x.as_array().is_none_or(|a| !a.is_empty()));
        for k in ["nodes", "why"] {
            if let Some(l) = o.get_mut(k).and_then(Value::as_array_mut) {
                l.sort_by_key(|x| x["index"].as_u64());
            }
        }
        if let Some(l) = o.get_mut("robot").and_then(Value::as_array_mut) {
            for r in l.iter_mut() {
                r.as_array_mut().unwrap().truncate(2);
            }
            l.sort_by_key(|x| x[0].as_u64());
        }
        v
    };
    for (name, mut robot) in [("shipped", robot(tps)), ("original", original())] {
        let mut inspector = Inspector::new(&robot, tps, Limits::default());
        let page = inspector.hub().attach().unwrap();
        let mut seen = PageState::default();
        seen.apply(&serde_json::from_str::<Value>(&page.hello).unwrap()["state"]);
        let (mut next, mut clocks, mut looks) = (0, 0, 0);
        for t in 0..last + 40 * u64::from(tps) {
            robot.begin_tick(t);
            for e in scenario.due(&mut next, t, tps) {
                robot.deliver(e, Duration::ZERO);
            }
            robot.end_tick(Duration::ZERO);
            let progress = Progress {
                ticks_run: t + 1,
                ..Progress::default()
            };
            inspector.publish(&robot, robot.entries(), &progress);
            robot.clear_entries();
            inspector.hub().flush();
            let mut updated = false;
            for m in page.rx.try_iter() {
                let v: Value = serde_json::from_str(m.as_str()).unwrap();
                if let Some(st) = v.get("state") {
                    if st.as_object().unwrap().len() <= 3 {
                        clocks += 1;
                    } else {
                        looks += 1;
                    }
                    seen.apply(st);
                    updated = true;
                }
            }
            if !updated {
                continue;
            }
            assert_eq!(seen.tick(), Some(t), "{name}: the page's clock");
            let whole: Value =
                serde_json::from_str(&inspect::snapshot_json(&robot, tps, &[])).unwrap();
            let (a, b) = (comparable(&seen.state), comparable(&whole));
            if a != b {
                let mut diffs = Vec::new();
                differences("", &a, &b, &mut diffs);
                panic!("{name}, tick {t}: page != robot: {diffs:#?}");
            }
        }
        eprintln!("{name}: {clocks} clocks, {looks} looks");
        // Where the robot mostly waits (the shipped tree), most updates are only the clock.
        // The original's tree does not wait: an idle robot's Observing looks around without
        // pause, as the original's LookAroundInPlace does, so its state moves on most ticks.
        if name == "shipped" {
            assert!(clocks > looks, "{name}: {clocks} clocks, {looks} looks");
        } else {
            assert!(looks > 0, "{name}: {clocks} clocks, {looks} looks");
        }
    }
}

/// Where `a` and `b` differ, as `path: a != b` lines.
fn differences(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                let (u, v) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                differences(&format!("{path}.{k}"), u, v, out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                differences(&format!("{path}[{i}]"), u, v, out);
            }
        }
        _ if a != b => out.push(format!("{path}: {a} != {b}")),
        _ => {}
    }
}
