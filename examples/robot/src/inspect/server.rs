//! The inspector's HTTP server: one accept thread, one thread per connection (bounded),
//! `GET /` the page, `GET /ws` the WebSocket. See the [module docs](super) for the rules
//! (token, origin, bounds).

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::TryRecvError;
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::hub::{self, Hub, Request};
use super::protocol;
use super::{check_token, Config, Limits, StartError};

const PAGE_HTML: &str = include_str!("assets/index.html");
const PAGE_CSS: &str = include_str!("assets/inspector.css");
const PAGE_JS: &str = include_str!("assets/inspector.js");

/// The page: the HTML with its style sheet and script inlined (one request, no CDN).
pub fn page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        PAGE_HTML
            .replacen("/*STYLE*/", PAGE_CSS, 1)
            .replacen("/*SCRIPT*/", PAGE_JS, 1)
    })
}

/// How long a page's socket read waits before the connection thread looks at its queue.
const POLL: Duration = Duration::from_millis(50);

struct Shared {
    hub: Hub,
    token: Option<String>,
    limits: Limits,
    /// Bound to a loopback address.
    loopback: bool,
    connections: AtomicUsize,
    stop: AtomicBool,
}

/// A running server. Dropping it leaves it running (until the process ends); call
/// [`shutdown`](Self::shutdown) to stop accepting.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    token: Option<String>,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("connections", &self.connections.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Binds `config.addr` and serves `hub`. Off loopback a token is required.
    pub fn start(config: &Config, hub: Hub) -> Result<Server, StartError> {
        if let Some(t) = &config.token {
            check_token(t)?;
        }
        if !config.addr.ip().is_loopback() && config.token.is_none() {
            return Err(StartError::TokenRequired(config.addr));
        }
        let listener = TcpListener::bind(config.addr).map_err(|source| StartError::Bind {
            addr: config.addr,
            source,
        })?;
        let addr = listener.local_addr().map_err(|source| StartError::Bind {
            addr: config.addr,
            source,
        })?;
        let shared = Arc::new(Shared {
            hub,
            token: config.token.clone(),
            limits: config.limits,
            loopback: addr.ip().is_loopback(),
            connections: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        let accept = std::thread::Builder::new()
            .name("inspect-accept".into())
            .spawn(move || accept_loop(listener, s))
            .map_err(StartError::Thread)?;
        Ok(Server {
            addr,
            token: config.token.clone(),
            shared,
            accept: Some(accept),
        })
    }

    /// The bound address (with the real port when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, with the token when there is one.
    pub fn url(&self) -> String {
        let host = if self.addr.ip().is_unspecified() {
            // Bound to every interface: loopback reaches it from this machine.
            match self.addr {
                SocketAddr::V4(_) => format!("127.0.0.1:{}", self.addr.port()),
                SocketAddr::V6(_) => format!("[::1]:{}", self.addr.port()),
            }
        } else {
            self.addr.to_string()
        };
        match &self.token {
            Some(t) => format!("http://{host}/?token={t}"),
            None => format!("http://{host}/"),
        }
    }

    /// Connections open now.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::Relaxed)
    }

    /// Stops accepting connections (open ones end on their own).
    pub fn shutdown(mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&wake_addr(self.addr), Duration::from_secs(1));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

fn wake_addr(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() {
        match addr {
            SocketAddr::V4(_) => SocketAddr::from(([127, 0, 0, 1], addr.port())),
            SocketAddr::V6(_) => SocketAddr::from(([0, 0, 0, 0, 0, 0, 0, 1], addr.port())),
        }
    } else {
        addr
    }
}

/// Decrements the connection count when a connection thread ends, however it ends.
struct Slot(Arc<Shared>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                // Out of file descriptors and the like: wait a little instead of spinning.
                tracing::warn!(error = %e, "inspector: accept failed");
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let open = shared.connections.fetch_add(1, Ordering::Relaxed);
        let slot = Slot(shared.clone());
        if open >= shared.limits.max_connections {
            // Over the limit: close at once, no thread.
            tracing::warn!(open, "inspector: too many connections, one closed");
            drop(stream);
            drop(slot);
            continue;
        }
        let s = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("inspect-conn".into())
            .spawn(move || {
                let _slot = slot;
                if let Err(e) = connection(stream, &s) {
                    tracing::debug!(error = %e, "inspector: connection ended");
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "inspector: cannot start a connection thread");
        }
    }
}

/// A request head, parsed.
struct Head {
    method: String,
    path: String,
    query: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn has_token(&self, name: &str, token: &str) -> bool {
        self.header(name)
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    }
    fn query_param(&self, key: &str) -> Option<&str> {
        self.query.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k == key).then_some(v)
        })
    }
}

/// Reads a request head: at most `limits.max_head` bytes within `limits.io_timeout`.
/// Returns the head and the bytes read after it.
fn read_head(stream: &mut TcpStream, limits: &Limits) -> Result<(Head, Vec<u8>), Status> {
    let deadline = Instant::now() + limits.io_timeout;
    let mut buf = vec![0u8; limits.max_head];
    let mut len = 0;
    loop {
        if Instant::now() >= deadline {
            return Err(Status::Timeout);
        }
        let n = match stream.read(&mut buf[len..]) {
            Ok(0) => return Err(Status::Gone),
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(Status::Timeout)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(Status::Gone),
        };
        len += n;
        let mut headers = [httparse::EMPTY_HEADER; 48];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..len]) {
            Ok(httparse::Status::Complete(used)) => {
                let target = req.path.unwrap_or("/");
                let (path, query) = target.split_once('?').unwrap_or((target, ""));
                let head = Head {
                    method: req.method.unwrap_or("").to_owned(),
                    path: path.to_owned(),
                    query: query.to_owned(),
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
                };
                return Ok((head, buf[used..len].to_vec()));
            }
            Ok(httparse::Status::Partial) if len == buf.len() => return Err(Status::TooLarge),
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => return Err(Status::TooLarge),
            Err(_) => return Err(Status::BadRequest),
        }
    }
}

/// The answers other than the page and the socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    BadRequest,
    Unauthorized,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    Timeout,
    TooLarge,
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
                "this inspector needs its token: open the address it printed, with ?token=...\n",
            ),
            Self::Forbidden => (
                "403 Forbidden",
                "refused: the Host or Origin is not this inspector's own\n",
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

fn respond(stream: &mut TcpStream, status: Status) -> io::Result<()> {
    let (line, body) = status.line();
    if line.is_empty() {
        return Ok(());
    }
    let extra = if status == Status::MethodNotAllowed {
        "Allow: GET\r\n"
    } else {
        ""
    };
    write!(
        stream,
        "HTTP/1.1 {line}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         {extra}Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

/// Security headers of the page: everything it needs is inline; it connects only to its
/// own origin; it is never framed; the token in its URL is not sent on as a referrer.
const PAGE_HEADERS: &str = "Content-Type: text/html; charset=utf-8\r\n\
    Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
    connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n\
    X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
    Cache-Control: no-store\r\nConnection: close\r\n";

fn connection(mut stream: TcpStream, shared: &Shared) -> io::Result<()> {
    let limits = &shared.limits;
    stream.set_read_timeout(Some(limits.io_timeout))?;
    stream.set_write_timeout(Some(limits.io_timeout))?;
    let _ = stream.set_nodelay(true);
    let (head, rest) = match read_head(&mut stream, limits) {
        Ok(h) => h,
        Err(status) => return respond(&mut stream, status),
    };
    if head.method != "GET" {
        return respond(&mut stream, Status::MethodNotAllowed);
    }
    if let Err(status) = admit(&head, shared) {
        return respond(&mut stream, status);
    }
    match head.path.as_str() {
        "/" | "/index.html" => {
            let body = page();
            write!(
                stream,
                "HTTP/1.1 200 OK\r\n{PAGE_HEADERS}Content-Length: {}\r\n\r\n",
                body.len()
            )?;
            stream.write_all(body.as_bytes())?;
            stream.flush()
        }
        "/ws" => websocket(stream, &head, rest, shared),
        "/favicon.ico" => {
            write!(
                stream,
                "HTTP/1.1 204 No Content\r\nCache-Control: max-age=86400\r\nConnection: close\r\n\r\n"
            )?;
            stream.flush()
        }
        _ => respond(&mut stream, Status::NotFound),
    }
}

/// The token (when there is one) and, on loopback without one, the `Host` (a page of
/// another site that got a name resolving to 127.0.0.1 must not reach the robot).
fn admit(head: &Head, shared: &Shared) -> Result<(), Status> {
    if let Some(token) = &shared.token {
        let given = head.query_param("token").or_else(|| {
            head.header("authorization")
                .and_then(|v| v.strip_prefix("Bearer ").map(str::trim))
        });
        return match given {
            Some(t) if protocol::token_eq(t, token) => Ok(()),
            _ => Err(Status::Unauthorized),
        };
    }
    if shared.loopback && !head.header("host").is_some_and(is_loopback_host) {
        return Err(Status::Forbidden);
    }
    Ok(())
}

/// `127.x.x.x`, `localhost` or `[::1]`, with or without a port.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(h, _)| h),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The `Origin` of a browser's handshake must be this server's (the one the `Host` names):
/// a page of another site must not open a socket to the robot. Tools send none.
fn same_origin(head: &Head) -> bool {
    let Some(origin) = head.header("origin") else {
        return true;
    };
    let Some(host) = head.header("host") else {
        return false;
    };
    let Some(rest) = origin.strip_prefix("http://") else {
        return false;
    };
    rest.trim_end_matches('/').eq_ignore_ascii_case(host)
}

fn websocket(mut stream: TcpStream, head: &Head, rest: Vec<u8>, shared: &Shared) -> io::Result<()> {
    let key = head.header("sec-websocket-key");
    let upgrade = head.has_token("connection", "upgrade")
        && head.has_token("upgrade", "websocket")
        && head.header("sec-websocket-version") == Some("13");
    let Some(key) = key.filter(|_| upgrade) else {
        return respond(&mut stream, Status::BadRequest);
    };
    if !same_origin(head) {
        return respond(&mut stream, Status::Forbidden);
    }
    let Some(attached) = shared.hub.attach() else {
        return respond(&mut stream, Status::Busy);
    };
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let result = (|| {
        write!(
            stream,
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Accept: {accept}\r\n\r\n"
        )?;
        stream.flush()?;
        let config = WebSocketConfig::default()
            .max_message_size(Some(shared.limits.max_message))
            .max_frame_size(Some(shared.limits.max_message));
        let ws = WebSocket::from_partially_read(stream, rest, Role::Server, Some(config));
        page_session(ws, &attached, shared)
    })();
    shared.hub.detach(attached.id);
    result
}

/// A page's socket: its `hello`, then its queue out and its commands in, until it closes,
/// breaks a rule of the protocol, or falls behind.
fn page_session(
    mut ws: WebSocket<TcpStream>,
    attached: &hub::Attached,
    shared: &Shared,
) -> io::Result<()> {
    let io = |e: tungstenite::Error| io::Error::other(e.to_string());
    ws.send(Message::text(attached.hello.clone())).map_err(io)?;
    ws.get_mut().set_read_timeout(Some(POLL))?;
    let token = shared.token.as_deref();
    loop {
        if attached.kicked.load(Ordering::Relaxed) {
            tracing::info!("inspector: a page fell behind and was disconnected");
            close(
                &mut ws,
                CloseCode::Policy,
                "too slow: the page fell behind its updates",
            );
            return Ok(());
        }
        if shared.hub.stopped() {
            close(&mut ws, CloseCode::Away, "the robot stopped");
            return Ok(());
        }
        match ws.read() {
            Ok(Message::Text(text)) => match protocol::parse(text.as_str(), token) {
                Ok(command) => {
                    let id = command.id.clone();
                    let request = Request {
                        page: attached.id,
                        command,
                        reply: attached.replier.clone(),
                    };
                    if let Err(e) = shared.hub.submit(request) {
                        attached.replier.send(protocol::error(id.as_ref(), &e));
                    }
                }
                Err(refused) => hub::refuse(&attached.replier, &refused),
            },
            Ok(Message::Binary(_)) => attached.replier.send(protocol::error(
                None,
                "binary messages are not accepted: send a JSON command as text",
            )),
            Ok(Message::Close(_)) => {
                let _ = ws.flush();
                return Ok(());
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(tungstenite::Error::Capacity(e)) => {
                let msg = protocol::error(
                    None,
                    &format!(
                        "message too large ({e}); the limit is {} bytes: closing",
                        shared.limits.max_message
                    ),
                );
                let _ = ws.send(Message::text(msg));
                close(&mut ws, CloseCode::Size, "message too large");
                return Ok(());
            }
            Err(tungstenite::Error::Protocol(e)) => {
                let _ = ws.send(Message::text(protocol::error(
                    None,
                    &format!("WebSocket protocol error: {e}"),
                )));
                close(&mut ws, CloseCode::Protocol, "protocol error");
                return Ok(());
            }
            Err(tungstenite::Error::Utf8(_)) => {
                close(&mut ws, CloseCode::Invalid, "text that is not UTF-8");
                return Ok(());
            }
            Err(e) => return Err(io(e)),
        }
        // What the hub queued for this page.
        let mut wrote = false;
        loop {
            match attached.rx.try_recv() {
                Ok(msg) => {
                    ws.write(Message::Text(msg)).map_err(io)?;
                    wrote = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        }
        if wrote {
            ws.flush().map_err(io)?;
        }
    }
}

fn close(ws: &mut WebSocket<TcpStream>, code: CloseCode, reason: &'static str) {
    let _ = ws.close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }));
    let _ = ws.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for h in [
            "127.0.0.1",
            "127.0.0.1:7480",
            "localhost:1",
            "LOCALHOST",
            "[::1]:80",
            "127.9.9.9",
        ] {
            assert!(is_loopback_host(h), "{h}");
        }
        for h in [
            "",
            "evil.example:7480",
            "10.0.0.1",
            "[::2]:80",
            "127.0.0.1.evil.example",
        ] {
            assert!(!is_loopback_host(h), "{h}");
        }
    }

    #[test]
    fn the_page_is_whole() {
        let p = page();
        assert!(p.starts_with("<!doctype html>"), "{}", &p[..40]);
        assert!(!p.contains("/*STYLE*/") && !p.contains("/*SCRIPT*/"));
        // Nothing is fetched from elsewhere: no external script, style or font.
        for bad in ["http://", "https://", "<script src", "<link"] {
            assert!(!p.contains(bad), "the page refers to {bad}");
        }
    }
}
