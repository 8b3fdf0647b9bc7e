//! The doorman: every connection before it is authenticated, held on one thread that never
//! blocks on a peer — reading its request head, writing the public page or an error, and for
//! a page's socket, waiting for its token. Only an authenticated socket gets a thread of its
//! own (and counts against [`Limits::max_clients`]), so nobody without the token can take
//! the places of those who have it.
//!
//! Bounds: at most [`Limits::max_pending`] connections wait at the door, and at most
//! [`Limits::max_pending_per_address`] from one address (an IPv4 address, an IPv6 /64). Each
//! has [`Limits::head_timeout`] to send its request head and, for a socket, its token (a
//! page's answer, [`Limits::io_timeout`] to be written). When a bound is reached, a new
//! connection takes the place of the oldest one of that address (or of any address) that
//! never sent a byte, else of the oldest one with nothing waiting to be read (one that is
//! sending is never dropped); when every one is sending, the new one is closed. A person's
//! browser sends its request at once, so it gets in whatever a peer without the token keeps
//! open, and however fast it reopens what is closed (tested with a flood of idle connections
//! from the same address).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::Limits;

/// How often the doorman looks at the connections it holds (while it holds any).
const POLL: Duration = Duration::from_millis(2);

/// Where a connection comes from, for its budget: an IPv4 address, or an IPv6 /64 (one host
/// has a whole /64). An IPv4-mapped IPv6 address is its IPv4 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddrKey([u8; 8], bool);

impl AddrKey {
    /// The key of `ip`.
    pub fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Self::v4(v4.octets()),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self::v4(v4.octets()),
                None => {
                    let mut k = [0; 8];
                    k.copy_from_slice(&v6.octets()[..8]);
                    Self(k, true)
                }
            },
        }
    }
    fn v4(o: [u8; 4]) -> Self {
        Self([o[0], o[1], o[2], o[3], 0, 0, 0, 0], false)
    }
}

/// A request head, parsed.
#[derive(Debug)]
pub struct Head {
    /// `GET`, ...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// Headers, in order.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The first header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// True when header `name` lists `token` (comma-separated, any case).
    pub fn has_token(&self, name: &str, token: &str) -> bool {
        self.header(name)
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    }
}

/// What the server answers a request head with (the doorman writes it).
pub enum Answer {
    /// Bytes to write, then close.
    Close(Cow<'static, [u8]>, &'static [u8]),
    /// The WebSocket handshake's answer, then the socket: `authenticated` when the request
    /// carried the token (or none is needed); else the page must send it first.
    Upgrade {
        /// The `101` answer.
        response: Vec<u8>,
        /// Whether the socket is authenticated already.
        authenticated: bool,
    },
}

/// What the doorman needs from the server.
pub trait Host: Send + Sync + 'static {
    /// The answer to a request head.
    fn answer(&self, head: &Head) -> Answer;
    /// The token a socket's first message must carry (None: no token needed).
    fn token(&self) -> Option<&str>;
    /// An authenticated socket: it is the server's from now on (the doorman forgets it).
    fn admit(&self, ws: WebSocket<TcpStream>);
}

enum Stage {
    /// Reading the request head.
    Head { stream: TcpStream, buf: Vec<u8> },
    /// Writing an answer: `head` then `body` from `pos`; then the socket (`then`) or close.
    Answer {
        stream: TcpStream,
        head: Cow<'static, [u8]>,
        body: &'static [u8],
        pos: usize,
        then: Option<(Vec<u8>, bool)>,
    },
    /// A socket waiting for its token.
    Token { ws: WebSocket<TcpStream> },
    /// Done with (removed on the next pass).
    Gone,
}

impl Stage {
    fn stream(&self) -> Option<&TcpStream> {
        match self {
            Stage::Head { stream, .. } | Stage::Answer { stream, .. } => Some(stream),
            Stage::Token { ws } => Some(ws.get_ref()),
            Stage::Gone => None,
        }
    }
}

struct Waiting {
    key: AddrKey,
    deadline: Instant,
    stage: Stage,
}

impl Waiting {
    /// It has not sent a byte since it connected.
    fn never_sent(&self) -> bool {
        matches!(&self.stage, Stage::Head { buf, .. } if buf.is_empty())
    }

    /// Nothing it sent waits to be read (an idle connection), or it is closed.
    fn idle(&self) -> bool {
        let Some(s) = self.stage.stream() else {
            return true;
        };
        let mut b = [0u8; 1];
        match s.peek(&mut b) {
            Ok(0) => true,
            Ok(_) => false,
            // Nothing to read (WouldBlock), or a broken connection.
            Err(e) => e.kind() != io::ErrorKind::Interrupted,
        }
    }
}

struct Inner {
    waiting: Mutex<VecDeque<Waiting>>,
    wake: Condvar,
    count: AtomicUsize,
    stop: AtomicBool,
    /// Connections dropped to make room, and new ones closed for want of it (for tests and
    /// logs).
    evicted: AtomicUsize,
    refused: AtomicUsize,
}

/// The doorman's handle (cheap to clone).
#[derive(Clone)]
pub struct Door {
    inner: Arc<Inner>,
    limits: Limits,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Door {
    /// Starts the doorman's thread.
    pub fn start(limits: Limits, host: Arc<dyn Host>) -> io::Result<Door> {
        let door = Door {
            inner: Arc::new(Inner {
                waiting: Mutex::new(VecDeque::new()),
                wake: Condvar::new(),
                count: AtomicUsize::new(0),
                stop: AtomicBool::new(false),
                evicted: AtomicUsize::new(0),
                refused: AtomicUsize::new(0),
            }),
            limits,
        };
        let d = door.clone();
        std::thread::Builder::new()
            .name("inspect-door".into())
            .spawn(move || d.run(&*host))?;
        Ok(door)
    }

    /// Connections at the door now.
    pub fn waiting(&self) -> usize {
        self.inner.count.load(Ordering::Relaxed)
    }

    /// Connections dropped to make room so far, and new ones closed for want of room.
    pub fn dropped(&self) -> (usize, usize) {
        (
            self.inner.evicted.load(Ordering::Relaxed),
            self.inner.refused.load(Ordering::Relaxed),
        )
    }

    /// Stops the doorman (what waits is closed).
    pub fn stop(&self) {
        self.inner.stop.store(true, Ordering::Relaxed);
        self.inner.wake.notify_all();
    }

    /// A new connection from `peer`: held at the door, in the place of an idle one when the
    /// bounds are reached, or closed when every one is sending.
    pub fn take(&self, stream: TcpStream, peer: SocketAddr) {
        if stream.set_nonblocking(true).is_err() {
            return;
        }
        let _ = stream.set_nodelay(true);
        let key = AddrKey::of(peer.ip());
        let l = &self.limits;
        let mut w = lock(&self.inner.waiting);
        let same = w.iter().filter(|x| x.key == key).count();
        let full_here = same >= l.max_pending_per_address.max(1);
        if full_here || w.len() >= l.max_pending.max(1) {
            // The oldest one of this address (or of any, when the whole door is full) that
            // never sent a byte; else the oldest idle one (nothing it sent waits to be read).
            let mine = |x: &Waiting| !full_here || x.key == key;
            let victim = w
                .iter()
                .position(|x| mine(x) && x.never_sent() && x.idle())
                .or_else(|| w.iter().position(|x| mine(x) && x.idle()));
            match victim {
                Some(k) => {
                    w.remove(k);
                    self.inner.evicted.fetch_add(1, Ordering::Relaxed);
                    tracing::debug!(
                        waiting = w.len(),
                        "inspector: an idle unauthenticated connection made room for a new one"
                    );
                }
                None => {
                    self.inner.refused.fetch_add(1, Ordering::Relaxed);
                    tracing::debug!(
                        waiting = w.len(),
                        "inspector: every unauthenticated place is taken by a sending connection: one closed"
                    );
                    return;
                }
            }
        }
        w.push_back(Waiting {
            key,
            deadline: Instant::now() + l.head_timeout,
            stage: Stage::Head {
                stream,
                buf: Vec::new(),
            },
        });
        self.inner.count.store(w.len(), Ordering::Relaxed);
        drop(w);
        self.inner.wake.notify_one();
    }

    fn run(&self, host: &dyn Host) {
        let mut admitted: Vec<WebSocket<TcpStream>> = Vec::new();
        loop {
            let mut w = lock(&self.inner.waiting);
            if self.inner.stop.load(Ordering::Relaxed) {
                w.clear();
                self.inner.count.store(0, Ordering::Relaxed);
                return;
            }
            if w.is_empty() {
                let _ = self
                    .inner
                    .wake
                    .wait_timeout(w, Duration::from_secs(1))
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            let now = Instant::now();
            for x in w.iter_mut() {
                self.step(x, now, host, &mut admitted);
            }
            w.retain(|x| !matches!(x.stage, Stage::Gone));
            self.inner.count.store(w.len(), Ordering::Relaxed);
            drop(w);
            for ws in admitted.drain(..) {
                host.admit(ws);
            }
            std::thread::sleep(POLL);
        }
    }

    /// Moves one connection on as far as it goes without waiting.
    fn step(
        &self,
        x: &mut Waiting,
        now: Instant,
        host: &dyn Host,
        admitted: &mut Vec<WebSocket<TcpStream>>,
    ) {
        let limits = &self.limits;
        loop {
            let stage = std::mem::replace(&mut x.stage, Stage::Gone);
            x.stage = match stage {
                Stage::Gone => return,
                Stage::Head {
                    mut stream,
                    mut buf,
                } => match read_head(&mut stream, &mut buf, limits.max_head) {
                    Ok(None) if now >= x.deadline => {
                        answer_now(&mut stream, status_bytes(Status::Timeout));
                        return;
                    }
                    Ok(None) => {
                        x.stage = Stage::Head { stream, buf };
                        return;
                    }
                    Err(status) => {
                        answer_now(&mut stream, status_bytes(status));
                        return;
                    }
                    Ok(Some((head, used))) => {
                        let rest = buf.split_off(used);
                        x.deadline = now + limits.io_timeout;
                        match host.answer(&head) {
                            Answer::Close(h, body) => Stage::Answer {
                                stream,
                                head: h,
                                body,
                                pos: 0,
                                then: None,
                            },
                            Answer::Upgrade {
                                response,
                                authenticated,
                            } => Stage::Answer {
                                stream,
                                head: Cow::Owned(response),
                                body: b"",
                                pos: 0,
                                then: Some((rest, authenticated)),
                            },
                        }
                    }
                },
                Stage::Answer {
                    mut stream,
                    head,
                    body,
                    mut pos,
                    then,
                } => {
                    let total = head.len() + body.len();
                    while pos < total {
                        let part = if pos < head.len() {
                            &head[pos..]
                        } else {
                            &body[pos - head.len()..]
                        };
                        match stream.write(part) {
                            Ok(0) => return,
                            Ok(n) => pos += n,
                            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            Err(_) => return,
                        }
                    }
                    if pos < total {
                        if now >= x.deadline {
                            return;
                        }
                        x.stage = Stage::Answer {
                            stream,
                            head,
                            body,
                            pos,
                            then,
                        };
                        return;
                    }
                    let Some((rest, authenticated)) = then else {
                        // Answered: closed (what the peer sent beyond its head is not read).
                        let _ = stream.shutdown(std::net::Shutdown::Write);
                        return;
                    };
                    let config = WebSocketConfig::default()
                        .max_message_size(Some(limits.max_message))
                        .max_frame_size(Some(limits.max_message));
                    let ws =
                        WebSocket::from_partially_read(stream, rest, Role::Server, Some(config));
                    if authenticated || host.token().is_none() {
                        admitted.push(ws);
                        return;
                    }
                    x.deadline = now + limits.head_timeout;
                    Stage::Token { ws }
                }
                Stage::Token { mut ws } => match ws.read() {
                    Ok(Message::Text(text)) => {
                        match check_token(text.as_str(), host.token().unwrap_or("")) {
                            Ok(()) => {
                                admitted.push(ws);
                                return;
                            }
                            Err(e) => {
                                refuse(&mut ws, &e);
                                return;
                            }
                        }
                    }
                    Ok(Message::Close(_)) => return,
                    Ok(Message::Binary(_)) => {
                        refuse(
                            &mut ws,
                            "the first message must be {\"cmd\": \"auth\", \"token\": ...}",
                        );
                        return;
                    }
                    Ok(_) => Stage::Token { ws },
                    Err(tungstenite::Error::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {
                        if now >= x.deadline {
                            refuse(&mut ws, "no token: a page of this inspector sends {\"cmd\": \"auth\", \"token\": ...} first");
                            return;
                        }
                        x.stage = Stage::Token { ws };
                        return;
                    }
                    Err(_) => return,
                },
            };
        }
    }
}

/// Checks a socket's first message: `{"cmd": "auth", "token": T}` (an `id` may come along).
fn check_token(text: &str, token: &str) -> Result<(), String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|_| "the first message must be JSON".to_owned())?;
    if v.get("cmd").and_then(serde_json::Value::as_str) != Some("auth") {
        return Err(
            "this inspector needs its token first: {\"cmd\": \"auth\", \"token\": ...}".into(),
        );
    }
    match v.get("token").and_then(serde_json::Value::as_str) {
        Some(t) if super::protocol::token_eq(t, token) => Ok(()),
        _ => Err("wrong token".into()),
    }
}

/// An error and a close, as far as they go without waiting.
fn refuse(ws: &mut WebSocket<TcpStream>, why: &str) {
    let _ = ws.send(Message::text(super::protocol::error(None, why)));
    let _ = ws.close(Some(CloseFrame {
        code: CloseCode::Policy,
        reason: "not authenticated".into(),
    }));
    let _ = ws.flush();
}

/// Writes what goes out without waiting (a small answer on a fresh socket does).
fn answer_now(stream: &mut TcpStream, bytes: Vec<u8>) {
    if !bytes.is_empty() {
        let _ = stream.write(&bytes);
    }
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// Reads what arrived into `buf` and parses it. `Ok(Some((head, used)))` once complete.
fn read_head(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    max: usize,
) -> Result<Option<(Head, usize)>, Status> {
    let mut chunk = [0u8; 2048];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => return Err(Status::Gone),
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() >= max {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Status::Gone),
        }
    }
    match parse_head(buf)? {
        None if buf.len() >= max => Err(Status::TooLarge),
        parsed => Ok(parsed),
    }
}

fn parse_head(buf: &[u8]) -> Result<Option<(Head, usize)>, Status> {
    let mut headers = [httparse::EMPTY_HEADER; 48];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(used)) => {
            let target = req.path.unwrap_or("/");
            let path = target.split_once('?').map_or(target, |(p, _)| p);
            Ok(Some((
                Head {
                    method: req.method.unwrap_or("").to_owned(),
                    path: path.to_owned(),
                    headers: req
                        .headers
                        .iter()
                        .map(|h| {
                            (
                                h.name.to_owned(),
                                String::from_utf8_lossy(h.value).trim().to_owned(),
                            )
                        })
                        .collect(),
                },
                used,
            )))
        }
        Ok(httparse::Status::Partial) => Ok(None),
        Err(httparse::Error::TooManyHeaders) => Err(Status::TooLarge),
        Err(_) => Err(Status::BadRequest),
    }
}

/// The answers other than the page and the socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// 400.
    BadRequest,
    /// 401: a wrong token in `Authorization`.
    Unauthorized,
    /// 403: Host or Origin.
    Forbidden,
    /// 404.
    NotFound,
    /// 405.
    MethodNotAllowed,
    /// 408.
    Timeout,
    /// 431.
    TooLarge,
    /// 503: too many pages.
    Busy,
    /// The peer went away: nothing to answer.
    Gone,
}

impl Status {
    fn line(self) -> (&'static str, &'static str) {
        match self {
            Self::BadRequest => ("400 Bad Request", "malformed request\n"),
            Self::Unauthorized => (
                "401 Unauthorized",
                "wrong token: open the address the inspector printed (its token after #token=)\n",
            ),
            Self::Forbidden => (
                "403 Forbidden",
                "refused: the Host or Origin is not this inspector's own (see --inspect-origin)\n",
            ),
            Self::NotFound => ("404 Not Found", "not found: the page is at /\n"),
            Self::MethodNotAllowed => ("405 Method Not Allowed", "only GET is served\n"),
            Self::Timeout => ("408 Request Timeout", "the request took too long\n"),
            Self::TooLarge => (
                "431 Request Header Fields Too Large",
                "the request head is too large\n",
            ),
            Self::Busy => (
                "503 Service Unavailable",
                "too many pages are connected to this inspector\n",
            ),
            Self::Gone => ("", ""),
        }
    }
}

/// The whole answer of `status` (empty for [`Status::Gone`]).
pub fn status_bytes(status: Status) -> Vec<u8> {
    let (line, body) = status.line();
    if line.is_empty() {
        return Vec::new();
    }
    let extra = if status == Status::MethodNotAllowed {
        "Allow: GET\r\n"
    } else {
        ""
    };
    format!(
        "HTTP/1.1 {line}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         {extra}Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_keys() {
        let k = |s: &str| AddrKey::of(s.parse().unwrap());
        assert_eq!(k("10.0.0.1"), k("::ffff:10.0.0.1"));
        assert_ne!(k("10.0.0.1"), k("10.0.0.2"));
        assert_eq!(k("2001:db8:1:2::1"), k("2001:db8:1:2:ffff::9"), "one /64");
        assert_ne!(k("2001:db8:1:2::1"), k("2001:db8:1:3::1"));
        assert_ne!(k("0.0.0.0"), k("::"));
    }

    #[test]
    fn tokens_in_the_first_message() {
        let t = "0123456789abcdef";
        assert!(check_token(r#"{"cmd":"auth","token":"0123456789abcdef"}"#, t).is_ok());
        assert!(check_token(r#"{"id":1,"cmd":"auth","token":"0123456789abcdef"}"#, t).is_ok());
        for bad in [
            "",
            "nope",
            r#"{"cmd":"pause","token":"0123456789abcdef"}"#,
            r#"{"cmd":"auth","token":"0123456789abcdeX"}"#,
            r#"{"cmd":"auth","token":7}"#,
            r#"{"cmd":"auth"}"#,
        ] {
            let e = check_token(bad, t).unwrap_err();
            // The token is never echoed.
            assert!(!e.contains(t), "{e}");
        }
    }

    #[test]
    fn heads_parse_incrementally_and_refuse_garbage() {
        assert!(matches!(
            parse_head(b"GET / HTTP/1.1\r\nHost: x\r\n"),
            Ok(None)
        ));
        let (h, used) = parse_head(b"GET /ws?x=1 HTTP/1.1\r\nHost: x\r\n\r\nrest")
            .unwrap()
            .unwrap();
        assert_eq!(
            (h.method.as_str(), h.path.as_str(), used),
            ("GET", "/ws", 33)
        );
        assert_eq!(h.header("HOST"), Some("x"));
        assert_eq!(
            parse_head(b"\x00\x01garbage\r\n\r\n").unwrap_err(),
            Status::BadRequest
        );
    }
}
