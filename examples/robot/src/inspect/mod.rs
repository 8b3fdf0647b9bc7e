//! The live inspector (cargo feature `inspect`): a single web page, served by the robot
//! while it runs, that shows it think — the behavior tree (a list, or a zoomable graph with
//! the running path lit; children in declared order; searchable) with the running stack and
//! each behavior's state, a chart and the text of the timeline, why each child of the active
//! dispatcher does or does not run, the robot state the conditions read (with the tick each
//! key last changed, numbers plotted over time), the intents, the mission's resources — and
//! acts on it: send a user, cloud or HRI intent, force a behavior, pause, step and resume the
//! tick, pause on a breakpoint, save what it received as a trace. `robot-example inspect
//! TRACE` opens a recorded `--trace-json` in the same page, with a time slider (and, for a
//! trace recorded with `--trace-why`, each behavior's state, the conditions' values and the
//! robot state at any tick).
//!
//! ```sh
//! cargo run --release -p robot-example --features inspect -- --inspect
//! # inspect: open http://127.0.0.1:7480/ in a browser
//! cargo run --release -p robot-example --features inspect -- inspect trace.jsonl
//! ```
//!
//! # Pieces
//!
//! * [`server`]: the HTTP server on its own threads: `GET /` is the page (its HTML, CSS and
//!   script are embedded in the binary: it works offline, with no CDN and no build step),
//!   `GET /ws` the WebSocket (tungstenite) that carries updates to the page and commands
//!   from it. [`door`]: every connection until it is authenticated, on one thread.
//! * [`hub`]: what the tick thread and the server share, and the broadcaster thread that
//!   coalesces updates per frame ([`FRAME`]) and sends each to every page.
//! * [`session`]: the tick thread's side ([`Inspector`]): hands over each tick's timeline
//!   entries and, only while a page is open, what changed in the robot ([`observe`]) —
//!   within a frame of something happening, else once a [`HEARTBEAT`]; takes the pages'
//!   commands.
//! * [`run`]: the robot ticking in real time with the inspector (scenario or live inputs),
//!   pausable, with breakpoints ([`breakpoints`]).
//! * [`protocol`]: the messages on the socket. [`replay`]: a trace as the page's history.
//!
//! # Safe by default
//!
//! The server binds to loopback ([`DEFAULT_ADDR`]). Any other address, and any allowed
//! origin besides the server's own (`--inspect-origin`, for a TLS reverse proxy), needs a
//! token (`--inspect-token`). The page itself is public (it holds no data and no secret);
//! its WebSocket is not: the page reads the token from its address's fragment
//! (`#token=...`, which a browser never sends to a server, so it reaches no request line,
//! access log or proxy) and sends it as its socket's first message; a tool may give it in an
//! `Authorization: Bearer` header of the handshake. The token is never logged, and the
//! address with the token is printed only to a terminal. The WebSocket handshake also checks
//! the `Origin` (a page of another site may not drive the robot) and, on loopback without a
//! token, the `Host` (no DNS rebinding).
//!
//! Authentication comes before anything is counted against those who have the token: every
//! connection waits at the [door](door) until it is authenticated — at most
//! [`Limits::max_pending`] of them, [`Limits::max_pending_per_address`] per address, each with
//! [`Limits::head_timeout`] to send its request and token, an idle one making room for a new
//! one — and only then takes one of the [`Limits::max_clients`] pages. Request heads are
//! bounded, socket messages are limited to [`Limits::max_message`] bytes. A malformed or
//! hostile message gets an error reply (an oversized one closes that socket); the robot
//! never stops and loses no input for it.
//!
//! # Cheap
//!
//! The tick never waits on a browser: it hands its entries to a bounded queue (the oldest
//! are dropped, and counted, if the broadcaster falls behind) and what changed in the robot
//! to a slot that merges it with what was not sent yet. What changed is looked at only while
//! a page is open, at most once a frame, and when nothing happens once a [`HEARTBEAT`]; it
//! carries no static text (names, classes, condition texts are the tree's, in `hello`) and
//! no value that moves with the clock alone (the page computes durations), so a waiting
//! robot changes nothing (see [`observe`]). The broadcaster serializes each frame's update
//! once and offers it to each page's bounded queue; a page whose queue is full (a slow or
//! stalled browser) is disconnected, not waited for. `cargo bench -p robot-example
//! --features inspect --bench inspect` measures the tick's cost with and without two pages,
//! and callgrind counts it in real time (see BENCHMARKS.md).
//!
//! # Why these crates
//!
//! `tungstenite` is the WebSocket implementation the Rust ecosystem builds on (tokio-tungstenite,
//! axum's and warp's WebSockets); without its default features it is a synchronous library
//! over any `Read + Write`, so the server runs on plain threads. `httparse` (the parser under
//! hyper and tungstenite's own handshake) reads the request head; the server answers one page
//! and one socket, so no router or HTTP framework is needed. Measured cold debug builds on the
//! 2-core CI machine: these two with their dependencies, 15 s; axum + tokio with WebSockets,
//! 33 s and 83 crates; tiny_http (which bounds neither connections nor request time) would add
//! its own three crates to tungstenite's.

pub mod breakpoints;
pub mod cli;
pub mod door;
pub mod hub;
pub mod observe;
pub mod protocol;
pub mod replay;
pub mod run;
pub mod server;
pub mod session;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

pub use hub::Hub;
pub use run::{run, RunOptions, Summary};
pub use server::Server;
pub use session::{snapshot_json, Inspector, Progress};

/// The address `--inspect` serves on when given none: loopback, port 7480.
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), DEFAULT_PORT);

/// The port of [`DEFAULT_ADDR`], and of an address given without one.
pub const DEFAULT_PORT: u16 = 7480;

/// How often updates go to the pages, and how late a look at the robot follows something
/// that happened (at most once a frame).
pub const FRAME: Duration = Duration::from_millis(100);

/// A look at the robot at least this often while a page is open, also when nothing happened:
/// what changes without a timeline entry (an answer, a condition's value) shows within it,
/// and the page's clock moves on.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// Bounds of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Pages connected at once (authenticated WebSockets); more are refused (`503`).
    pub max_clients: usize,
    /// Connections waiting at the door (not authenticated yet: reading their request, being
    /// answered, a socket waiting for its token) at once.
    pub max_pending: usize,
    /// Of those, from one address (an IPv4 address, an IPv6 /64).
    pub max_pending_per_address: usize,
    /// Bytes of a request head (request line and headers).
    pub max_head: usize,
    /// Bytes of one message from a page.
    pub max_message: usize,
    /// Updates queued for one page; a page that falls this far behind is disconnected.
    pub client_queue: usize,
    /// How long a connection may take to send its request head, and a page's socket its
    /// token.
    pub head_timeout: Duration,
    /// How long an answer may take to be written, and a write to a page may block.
    pub io_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_clients: 8,
            max_pending: 256,
            max_pending_per_address: 64,
            max_head: 8 * 1024,
            max_message: 64 * 1024,
            client_queue: 64,
            head_timeout: Duration::from_secs(2),
            io_timeout: Duration::from_secs(5),
        }
    }
}

/// Where and how the inspector serves.
#[derive(Clone, PartialEq, Eq)]
pub struct Config {
    /// The address to bind.
    pub addr: SocketAddr,
    /// The token pages must send (required off loopback and with `origins`).
    pub token: Option<String>,
    /// Origins allowed to open the socket besides the server's own (`http://` + its
    /// `Host`): a TLS reverse proxy's (`https://robot.example`).
    pub origins: Vec<String>,
    /// Bounds.
    pub limits: Limits,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token.
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("origins", &self.origins)
            .field("limits", &self.limits)
            .finish()
    }
}

impl Config {
    /// The default address, no token.
    pub fn loopback() -> Self {
        Self {
            addr: DEFAULT_ADDR,
            token: None,
            origins: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// Why the inspector cannot start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// Not an address.
    #[error("{0:?} is not an address: give IP, IP:PORT, [IPv6]:PORT, localhost[:PORT] or :PORT")]
    BadAddress(String),
    /// Off loopback without a token.
    #[error(
        "{0} is not a loopback address: anyone who can reach it could drive the robot, so \
         give a token with --inspect-token (at least 16 characters), and open the page with ?token=..."
    )]
    TokenRequired(SocketAddr),
    /// A token that is too short or has characters that do not fit in a URL.
    #[error("the token must be 16 to 256 characters of A-Z, a-z, 0-9, '-', '_', '.' or '~'")]
    BadToken,
    /// An allowed origin without a token: a proxy serves the page to other machines.
    #[error(
        "--inspect-origin lets a page served by another host (a reverse proxy) drive the robot: \
         give a token with --inspect-token too"
    )]
    OriginNeedsToken,
    /// Not an origin.
    #[error("{0:?} is not an origin: give SCHEME://HOST[:PORT] (http or https, no path), as a browser sends it")]
    BadOrigin(String),
    /// The socket could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The error.
        source: std::io::Error,
    },
    /// A thread could not be started.
    #[error("cannot start the server thread: {0}")]
    Thread(std::io::Error),
}

/// Parses `--inspect`'s address: `IP`, `IP:PORT`, `[IPv6]:PORT`, `localhost`,
/// `localhost:PORT` or `:PORT` (loopback); a missing port is [`DEFAULT_PORT`].
pub fn parse_addr(text: &str) -> Result<SocketAddr, StartError> {
    let t = text.trim();
    let bad = || StartError::BadAddress(text.to_owned());
    if let Ok(a) = t.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Ok(ip) = t
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        return Ok(SocketAddr::new(ip, DEFAULT_PORT));
    }
    let port = |p: &str| p.parse::<u16>().map_err(|_| bad());
    if let Some(p) = t.strip_prefix(':') {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port(p)?));
    }
    match t.split_once(':') {
        None if t.eq_ignore_ascii_case("localhost") => Ok(DEFAULT_ADDR),
        Some((h, p)) if h.eq_ignore_ascii_case("localhost") => {
            Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port(p)?))
        }
        _ => Err(bad()),
    }
}

/// Checks an allowed origin's form: `http://` or `https://`, a host (name, IPv4 or
/// `[IPv6]`) and an optional port, nothing after (see [`StartError::BadOrigin`]).
pub fn check_origin(origin: &str) -> Result<(), StartError> {
    let bad = || StartError::BadOrigin(origin.to_owned());
    let rest = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .ok_or_else(bad)?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (host, port) = match rest.strip_prefix('[') {
        Some(v6) => {
            let (h, after) = v6.split_once(']').ok_or_else(bad)?;
            h.parse::<std::net::Ipv6Addr>().map_err(|_| bad())?;
            (h, after.strip_prefix(':'))
        }
        None => match rest.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (rest, None),
        },
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b':'));
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok_and(|p| p > 0));
    if host_ok && port_ok {
        Ok(())
    } else {
        Err(bad())
    }
}

/// Checks a token's form (see [`StartError::BadToken`]).
pub fn check_token(token: &str) -> Result<(), StartError> {
    let ok = (16..=256).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'));
    if ok {
        Ok(())
    } else {
        Err(StartError::BadToken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(parse_addr("127.0.0.1:9000").unwrap().port(), 9000);
        assert_eq!(
            parse_addr("0.0.0.0").unwrap(),
            "0.0.0.0:7480".parse().unwrap()
        );
        assert_eq!(parse_addr("[::1]:81").unwrap(), "[::1]:81".parse().unwrap());
        assert_eq!(parse_addr("::1").unwrap(), "[::1]:7480".parse().unwrap());
        assert_eq!(parse_addr(":0").unwrap(), "127.0.0.1:0".parse().unwrap());
        assert_eq!(parse_addr("localhost").unwrap(), DEFAULT_ADDR);
        assert_eq!(parse_addr("LOCALHOST:5").unwrap().port(), 5);
        for bad in [
            "",
            "example.com",
            "1.2.3.4:99999",
            "localhost:x",
            ":",
            "1.2.3",
        ] {
            assert!(parse_addr(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn origins() {
        for good in [
            "https://robot.example",
            "https://robot.example:8443",
            "http://10.0.0.5:7480/",
            "https://[::1]:8443",
        ] {
            assert!(check_origin(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "robot.example",
            "ftp://robot.example",
            "https://",
            "https://robot.example/path",
            "https://robot.example:0",
            "https://robot.example:99999",
            "https://evil.example\r\nX: y",
            "https://[nope]:1",
        ] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tokens() {
        assert!(check_token("0123456789abcdef").is_ok());
        assert!(check_token("short").is_err());
        assert!(check_token("0123456789abcdef ").is_err());
        assert!(check_token("0123456789abcdef&x=1").is_err());
        assert!(check_token(&"a".repeat(257)).is_err());
    }
}
