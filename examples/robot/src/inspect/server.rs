//! The inspector's HTTP server: one accept thread, the [doorman](super::door) (every
//! connection until it is authenticated, on one thread), and one thread per authenticated
//! page socket (bounded). `GET /` is the page (public: it holds no data and no secret), `GET
//! /ws` the WebSocket. See the [module docs](super) for the rules (token, origin, bounds).

use std::borrow::Cow;
use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::TryRecvError;
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::CloseFrame;
use tungstenite::{Message, WebSocket};

use super::door::{self, Answer, Door, Head, Status};
use super::hub::{self, Hub, Request};
use super::protocol;
use super::{check_origin, check_token, Config, Limits, StartError};

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
    /// Origins allowed besides the server's own (`--inspect-origin`: a reverse proxy's).
    origins: Vec<String>,
    limits: Limits,
    /// Bound to a loopback address.
    loopback: bool,
    /// Authenticated page sockets open now.
    pages: Arc<AtomicUsize>,
    stop: AtomicBool,
}

/// A running server. Dropping it leaves it running (until the process ends); call
/// [`shutdown`](Self::shutdown) to stop accepting.
pub struct Server {
    addr: SocketAddr,
    token: Option<String>,
    shared: Arc<Shared>,
    door: Door,
    accept: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token.
        f.debug_struct("Server")
            .field("addr", &self.addr)
            .field("pages", &self.shared.pages.load(Ordering::Relaxed))
            .field("waiting", &self.door.waiting())
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Binds `config.addr` and serves `hub`. Off loopback, or with allowed origins (a
    /// reverse proxy serves the page to other machines), a token is required.
    pub fn start(config: &Config, hub: Hub) -> Result<Server, StartError> {
        if let Some(t) = &config.token {
            check_token(t)?;
        }
        for o in &config.origins {
            check_origin(o)?;
        }
        if config.token.is_none() {
            if !config.addr.ip().is_loopback() {
                return Err(StartError::TokenRequired(config.addr));
            }
            if !config.origins.is_empty() {
                return Err(StartError::OriginNeedsToken);
            }
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
            origins: config
                .origins
                .iter()
                .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
                .collect(),
            limits: config.limits,
            loopback: addr.ip().is_loopback(),
            pages: Arc::new(AtomicUsize::new(0)),
            stop: AtomicBool::new(false),
        });
        let door = Door::start(config.limits, shared.clone()).map_err(StartError::Thread)?;
        let (s, d) = (shared.clone(), door.clone());
        let accept = std::thread::Builder::new()
            .name("inspect-accept".into())
            .spawn(move || accept_loop(listener, &s, &d))
            .map_err(StartError::Thread)?;
        Ok(Server {
            addr,
            token: config.token.clone(),
            shared,
            door,
            accept: Some(accept),
        })
    }

    /// The bound address (with the real port when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, without its token (safe to print anywhere).
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
        format!("http://{host}/")
    }

    /// The page's address with its token after `#` (the fragment: a browser never sends it
    /// to a server, so it reaches no request line, no access log, no proxy; the page reads
    /// it, takes it out of the address bar and sends it on its socket). Print it only where
    /// no log keeps it.
    pub fn url_with_token(&self) -> String {
        match &self.token {
            Some(t) => format!("{}#token={t}", self.url()),
            None => self.url(),
        }
    }

    /// Whether the server has a token.
    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    /// Connections open now: waiting at the door (not authenticated) and pages.
    pub fn connections(&self) -> usize {
        self.door.waiting() + self.shared.pages.load(Ordering::Relaxed)
    }

    /// Connections waiting at the door (not authenticated yet) now.
    pub fn waiting(&self) -> usize {
        self.door.waiting()
    }

    /// Unauthenticated connections dropped so far to make room for new ones, and new ones
    /// closed because every place was taken by a connection that was sending.
    pub fn door_dropped(&self) -> (usize, usize) {
        self.door.dropped()
    }

    /// Stops accepting connections (open pages end on their own).
    pub fn shutdown(mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.door.stop();
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

fn accept_loop(listener: TcpListener, shared: &Shared, door: &Door) {
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
        match stream.peer_addr() {
            Ok(peer) => door.take(stream, peer),
            Err(_) => drop(stream),
        }
    }
}

/// Security headers of the page: everything it needs is inline; it connects only to its
/// own origin; it is never framed; its address is not sent on as a referrer.
const PAGE_HEADERS: &str = "Content-Type: text/html; charset=utf-8\r\n\
    Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
    connect-src 'self'; img-src data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n\
    X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
    Cache-Control: no-store\r\nConnection: close\r\n";

impl door::Host for Shared {
    fn answer(&self, head: &Head) -> Answer {
        let close = |s: Status| Answer::Close(Cow::Owned(door::status_bytes(s)), b"");
        if head.method != "GET" {
            return close(Status::MethodNotAllowed);
        }
        // On loopback without a token, the Host: a page of another site that got a name
        // resolving to 127.0.0.1 must not reach the robot (DNS rebinding).
        if self.loopback
            && self.token.is_none()
            && !head.header("host").is_some_and(is_loopback_host)
        {
            return close(Status::Forbidden);
        }
        match head.path.as_str() {
            "/" | "/index.html" => {
                let body = page();
                let h = format!(
                    "HTTP/1.1 200 OK\r\n{PAGE_HEADERS}Content-Length: {}\r\n\r\n",
                    body.len()
                );
                Answer::Close(Cow::Owned(h.into_bytes()), body.as_bytes())
            }
            "/favicon.ico" => Answer::Close(
                Cow::Borrowed(
                    b"HTTP/1.1 204 No Content\r\nCache-Control: max-age=86400\r\nConnection: close\r\n\r\n",
                ),
                b"",
            ),
            "/ws" => self.upgrade(head).unwrap_or_else(close),
            _ => close(Status::NotFound),
        }
    }

    fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    fn admit(&self, ws: WebSocket<TcpStream>) {
        let hub = self.hub.clone();
        let limits = self.limits;
        let pages = Counted::new(self.pages.clone());
        let spawned = std::thread::Builder::new()
            .name("inspect-page".into())
            .spawn(move || {
                let _counted = pages;
                if let Err(e) = page_thread(ws, &hub, &limits) {
                    tracing::debug!(error = %e, "inspector: a page's connection ended");
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "inspector: cannot start a page thread");
        }
    }
}

/// Counts a page thread while it lives.
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(c: Arc<AtomicUsize>) -> Self {
        c.fetch_add(1, Ordering::Relaxed);
        Self(c)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Shared {
    /// The WebSocket handshake's answer: checked upgrade, an allowed `Origin`, room for one
    /// more page; authenticated when an `Authorization: Bearer` header carries the token
    /// (tools), else the page sends it first on the socket.
    fn upgrade(&self, head: &Head) -> Result<Answer, Status> {
        let upgrade = head.has_token("connection", "upgrade")
            && head.has_token("upgrade", "websocket")
            && head.header("sec-websocket-version") == Some("13");
        let key = head
            .header("sec-websocket-key")
            .filter(|_| upgrade)
            .ok_or(Status::BadRequest)?;
        if !self.origin_allowed(head) {
            return Err(Status::Forbidden);
        }
        let bearer = head
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        let authenticated = match (&self.token, bearer) {
            (None, _) => true,
            (Some(t), Some(given)) if protocol::token_eq(given, t) => true,
            (Some(_), Some(_)) => return Err(Status::Unauthorized),
            (Some(_), None) => false,
        };
        if self.hub.watchers() >= self.limits.max_clients {
            return Err(Status::Busy);
        }
        let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
        Ok(Answer::Upgrade {
            response: format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Accept: {accept}\r\n\r\n"
            )
            .into_bytes(),
            authenticated,
        })
    }

    /// The `Origin` of a browser's handshake must be this server's (the one the `Host`
    /// names, over http) or one allowed by configuration (a TLS reverse proxy's
    /// `https://...`): a page of another site must not open a socket to the robot. Tools
    /// send none.
    fn origin_allowed(&self, head: &Head) -> bool {
        let Some(origin) = head.header("origin") else {
            return true;
        };
        let origin = origin.trim_end_matches('/');
        if self.origins.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return true;
        }
        let (Some(host), Some(rest)) = (head.header("host"), origin.strip_prefix("http://")) else {
            return false;
        };
        rest.eq_ignore_ascii_case(host)
    }
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

/// An authenticated socket's thread: attached to the hub (or refused when the pages are
/// all taken), then [`page_session`] until it ends.
fn page_thread(mut ws: WebSocket<TcpStream>, hub: &Hub, limits: &Limits) -> io::Result<()> {
    let stream = ws.get_mut();
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(POLL))?;
    stream.set_write_timeout(Some(limits.io_timeout))?;
    let Some(attached) = hub.attach() else {
        let _ = ws.send(Message::text(protocol::error(
            None,
            "too many pages are connected to this inspector",
        )));
        close(&mut ws, CloseCode::Again, "too many pages");
        return Ok(());
    };
    let result = page_session(ws, &attached, hub, limits);
    hub.detach(attached.id);
    result
}

/// A page's socket: its `hello`, then its queue out and its commands in, until it closes,
/// breaks a rule of the protocol, or falls behind.
fn page_session(
    mut ws: WebSocket<TcpStream>,
    attached: &hub::Attached,
    hub: &Hub,
    limits: &Limits,
) -> io::Result<()> {
    let io = |e: tungstenite::Error| io::Error::other(e.to_string());
    ws.send(Message::text(attached.hello.clone())).map_err(io)?;
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
        if hub.stopped() {
            close(&mut ws, CloseCode::Away, "the robot stopped");
            return Ok(());
        }
        match ws.read() {
            Ok(Message::Text(text)) => match protocol::parse(text.as_str()) {
                Ok(command) => {
                    let id = command.id.clone();
                    let request = Request {
                        page: attached.id,
                        command,
                        reply: attached.replier.clone(),
                    };
                    if let Err(e) = hub.submit(request) {
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
                        limits.max_message
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
