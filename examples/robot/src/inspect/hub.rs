//! What the tick thread and the server share ([`Hub`]), and the broadcaster thread.
//!
//! The tick thread only ever takes the `pending` lock, for as long as it takes to append
//! its entries or merge in what changed in the robot; the broadcaster takes it for as long as
//! it takes to swap the pending batch out. The broadcaster keeps the robot's whole state (every
//! change sent, merged) for the `hello` of pages that connect later. No browser I/O happens under it. Pages get their updates
//! through their own bounded queue ([`Limits::client_queue`]); a page whose queue is full
//! is disconnected ("kicked"), never waited for. Commands from pages wait for the tick
//! thread in a queue that sheds by importance like every input queue ([`Commands`]): a
//! `pause`, a stop and the highest priority are always taken.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use serde::Serialize;
use serde_json::{Map, Value};
use tungstenite::Utf8Bytes;

use super::observe::Changes;
use robot_runtime::intent::shed::{Pushed, ShedQueue};

use super::protocol::{self, Command};
use super::run::command_importance;
use super::{Limits, FRAME};
use crate::timeline::Entry;

/// Timeline entries kept for pages that connect later (the oldest go first).
pub const HISTORY: usize = 20_000;

/// Entries the tick may hand over between two frames before the oldest are dropped.
pub const PENDING: usize = 8_192;

/// Commands queued for the tick thread; more shed the least important and oldest
/// ([`robot_runtime::intent::shed`]), never a `pause` or a stop.
pub const COMMANDS: usize = 64;

/// The command queue both ends share.
#[derive(Debug)]
struct CommandQueue {
    queue: Mutex<ShedQueue<Request>>,
    /// False once the tick thread's end ([`Commands`]) is gone.
    open: AtomicBool,
}

/// The tick thread's end of the command queue.
#[derive(Debug)]
pub struct Commands(Arc<CommandQueue>);

impl Commands {
    /// The oldest waiting command (never blocks).
    pub fn try_recv(&self) -> Option<Request> {
        lock(&self.0.queue).pop()
    }

    /// Commands shed since the queue was made (the newcomer or an older one).
    pub fn shed(&self) -> u64 {
        lock(&self.0.queue).shed()
    }
}

impl Drop for Commands {
    fn drop(&mut self) {
        self.0.open.store(false, Ordering::Relaxed);
    }
}

/// A command from a page, with the way back to it.
#[derive(Debug)]
pub struct Request {
    /// The page it came from ([`Attached::id`]).
    pub page: u64,
    /// The command.
    pub command: Command,
    /// Where the reply goes.
    pub reply: Replier,
}

/// The way back to one page: its outgoing queue. Sending never blocks: a page whose queue
/// is full is disconnected.
#[derive(Clone, Debug)]
pub struct Replier {
    tx: SyncSender<Utf8Bytes>,
    kicked: Arc<AtomicBool>,
}

impl Replier {
    /// Queues `text` for the page.
    pub fn send(&self, text: String) {
        offer(&self.tx, &self.kicked, Utf8Bytes::from(text));
    }
}

/// Offers a message to a page's queue; false when the page is gone or was kicked for
/// falling behind.
fn offer(tx: &SyncSender<Utf8Bytes>, kicked: &AtomicBool, msg: Utf8Bytes) -> bool {
    match tx.try_send(msg) {
        Ok(()) => true,
        Err(TrySendError::Full(_)) => {
            kicked.store(true, Ordering::Relaxed);
            false
        }
        Err(TrySendError::Disconnected(_)) => false,
    }
}

/// A page's end of the hub.
#[derive(Debug)]
pub struct Attached {
    /// Its number (for [`Hub::detach`]).
    pub id: u64,
    /// The `hello` message.
    pub hello: String,
    /// Its queue of updates and replies.
    pub rx: Receiver<Utf8Bytes>,
    /// Set when it fell behind: the connection must close.
    pub kicked: Arc<AtomicBool>,
    /// Replies to its commands.
    pub replier: Replier,
}

/// Whether the page drives a robot or replays a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A robot runs: updates and commands.
    Live,
    /// A recorded trace: the whole history at once, no commands.
    Replay,
}

#[derive(Default)]
struct Pending {
    entries: Vec<Entry>,
    dropped: u64,
    /// What changed in the robot since the last frame (merged when it changed twice).
    state: Option<Changes>,
}

struct Client {
    id: u64,
    tx: SyncSender<Utf8Bytes>,
    kicked: Arc<AtomicBool>,
}

struct Board {
    history: VecDeque<Value>,
    history_dropped: u64,
    /// The robot as a page that connects now sees it: every change sent so far, merged.
    state: Changes,
    clients: Vec<Client>,
}

struct Inner {
    mode: Mode,
    /// The parts of `hello` that do not change.
    hello: Map<String, Value>,
    limits: Limits,
    commands: Option<Arc<CommandQueue>>,
    pending: Mutex<Pending>,
    board: Mutex<Board>,
    watchers: AtomicUsize,
    next_id: AtomicU64,
    stop: AtomicBool,
}

/// Shared between the tick thread, the broadcaster and the connections. Cheap to clone.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub")
            .field("mode", &self.inner.mode)
            .field("watchers", &self.watchers())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    /// A hub for a running robot. `hello` holds the static parts of the `hello` message
    /// (tree, ticks per second, catalog); the receiver is the tick thread's end of the
    /// command queue.
    pub fn live(hello: Map<String, Value>, limits: Limits) -> (Hub, Commands) {
        let queue = Arc::new(CommandQueue {
            queue: Mutex::new(ShedQueue::new(COMMANDS)),
            open: AtomicBool::new(true),
        });
        (
            Self::new(Mode::Live, hello, limits, Some(queue.clone()), Vec::new()),
            Commands(queue),
        )
    }

    /// A hub for a replay: the whole timeline as history, no commands.
    pub fn replay(hello: Map<String, Value>, history: Vec<Value>, limits: Limits) -> Hub {
        Self::new(Mode::Replay, hello, limits, None, history)
    }

    fn new(
        mode: Mode,
        mut hello: Map<String, Value>,
        limits: Limits,
        commands: Option<Arc<CommandQueue>>,
        history: Vec<Value>,
    ) -> Hub {
        hello.insert("type".into(), "hello".into());
        hello.insert(
            "mode".into(),
            match mode {
                Mode::Live => "live",
                Mode::Replay => "replay",
            }
            .into(),
        );
        hello.insert("commands".into(), commands.is_some().into());
        Hub {
            inner: Arc::new(Inner {
                mode,
                hello,
                limits,
                commands,
                pending: Mutex::default(),
                board: Mutex::new(Board {
                    history: history.into(),
                    history_dropped: 0,
                    state: Changes {
                        full: true,
                        ..Changes::default()
                    },
                    clients: Vec::new(),
                }),
                watchers: AtomicUsize::new(0),
                next_id: AtomicU64::new(1),
                stop: AtomicBool::new(false),
            }),
        }
    }

    /// Live or replay.
    pub fn mode(&self) -> Mode {
        self.inner.mode
    }

    /// Pages connected now.
    pub fn watchers(&self) -> usize {
        self.inner.watchers.load(Ordering::Relaxed)
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    // ----- the tick thread ------------------------------------------------------------------

    /// Hands over a tick's timeline entries (copied; the oldest are dropped and counted
    /// when the broadcaster has fallen [`PENDING`] entries behind).
    pub fn push_entries(&self, entries: &[Entry]) {
        if entries.is_empty() {
            return;
        }
        let mut p = lock(&self.inner.pending);
        p.entries.extend_from_slice(entries);
        if p.entries.len() > PENDING {
            let over = p.entries.len() - PENDING;
            p.entries.drain(..over);
            p.dropped += over as u64;
        }
    }

    /// Hands over what changed in the robot (merged with what was not sent yet).
    pub fn push_changes(&self, changes: Changes) {
        let mut p = lock(&self.inner.pending);
        match &mut p.state {
            Some(s) => s.merge(changes),
            None => p.state = Some(changes),
        }
    }

    // ----- connections ----------------------------------------------------------------------

    /// Registers a page: its `hello` (with the history so far) and its queue. `None` when
    /// [`Limits::max_clients`] pages are connected.
    pub fn attach(&self) -> Option<Attached> {
        let limits = &self.inner.limits;
        let mut board = lock(&self.inner.board);
        if board.clients.len() >= limits.max_clients {
            return None;
        }
        let (tx, rx) = mpsc::sync_channel(limits.client_queue.max(1));
        let kicked = Arc::new(AtomicBool::new(false));
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        #[derive(Serialize)]
        struct Hello<'a> {
            #[serde(flatten)]
            fixed: &'a Map<String, Value>,
            history: &'a VecDeque<Value>,
            history_dropped: u64,
            #[serde(skip_serializing_if = "Option::is_none")]
            state: Option<&'a Changes>,
        }
        let hello = serde_json::to_string(&Hello {
            fixed: &self.inner.hello,
            history: &board.history,
            history_dropped: board.history_dropped,
            state: (self.inner.mode == Mode::Live).then_some(&board.state),
        })
        .unwrap_or_default();
        board.clients.push(Client {
            id,
            tx: tx.clone(),
            kicked: kicked.clone(),
        });
        self.inner
            .watchers
            .store(board.clients.len(), Ordering::Relaxed);
        Some(Attached {
            id,
            hello,
            rx,
            kicked: kicked.clone(),
            replier: Replier { tx, kicked },
        })
    }

    /// Whether page `id` is still connected.
    pub fn is_attached(&self, id: u64) -> bool {
        lock(&self.inner.board).clients.iter().any(|c| c.id == id)
    }

    /// Unregisters a page.
    pub fn detach(&self, id: u64) {
        let mut board = lock(&self.inner.board);
        board.clients.retain(|c| c.id != id);
        self.inner
            .watchers
            .store(board.clients.len(), Ordering::Relaxed);
    }

    /// Queues a command for the tick thread (never blocks). When the queue is full the
    /// least important and oldest command is shed: an older one (its page gets the error) or
    /// this one (the error says why). A `pause`, a stop and the highest priority are always
    /// taken.
    pub fn submit(&self, request: Request) -> Result<(), String> {
        let Some(queue) = &self.inner.commands else {
            return Err("this page replays a trace: there is no robot to command".into());
        };
        if !queue.open.load(Ordering::Relaxed) {
            return Err("the robot has stopped".into());
        }
        let importance = command_importance(&request.command.action);
        let pushed = lock(&queue.queue).push(request, importance);
        match pushed {
            Pushed::Queued => Ok(()),
            Pushed::QueuedShedding(old) => {
                old.reply.send(protocol::error(
                    old.command.id.as_ref(),
                    &format!(
                        "shed: {COMMANDS} commands were waiting and a more important or newer \
                         one came"
                    ),
                ));
                Ok(())
            }
            Pushed::Shed(_) => Err(format!(
                "the robot is busy: {COMMANDS} more important commands are waiting already"
            )),
        }
    }

    // ----- the broadcaster ------------------------------------------------------------------

    /// Starts the broadcaster thread: every [`FRAME`], what the tick handed over since the
    /// last frame is serialized once and offered to every page.
    pub fn start_broadcaster(&self) -> std::io::Result<JoinHandle<()>> {
        let hub = self.clone();
        std::thread::Builder::new()
            .name("inspect-broadcast".into())
            .spawn(move || {
                while !hub.inner.stop.load(Ordering::Relaxed) {
                    std::thread::sleep(FRAME);
                    hub.flush();
                }
            })
    }

    /// Stops the broadcaster (after its current frame).
    pub fn stop(&self) {
        self.inner.stop.store(true, Ordering::Relaxed);
    }

    /// True once [`stop`](Self::stop) was called.
    pub fn stopped(&self) -> bool {
        self.inner.stop.load(Ordering::Relaxed)
    }

    /// One frame: sends what is pending to every page. Returns the number of pages it went
    /// to.
    pub fn flush(&self) -> usize {
        let batch = std::mem::take(&mut *lock(&self.inner.pending));
        if batch.entries.is_empty() && batch.dropped == 0 && batch.state.is_none() {
            return 0;
        }
        let entries: Vec<Value> = batch
            .entries
            .iter()
            .filter_map(|e| serde_json::to_value(e).ok())
            .collect();
        #[derive(Serialize)]
        struct Update<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            entries: &'a [Value],
            dropped: u64,
            #[serde(skip_serializing_if = "Option::is_none")]
            state: Option<&'a Changes>,
        }
        let text = serde_json::to_string(&Update {
            kind: "update",
            entries: &entries,
            dropped: batch.dropped,
            state: batch.state.as_ref(),
        })
        .unwrap_or_default();
        let msg = Utf8Bytes::from(text);
        let mut board = lock(&self.inner.board);
        board.history.extend(entries);
        board.history_dropped += batch.dropped;
        if board.history.len() > HISTORY {
            let over = board.history.len() - HISTORY;
            board.history.drain(..over);
            board.history_dropped += over as u64;
        }
        if let Some(changes) = batch.state {
            board.state.merge(changes);
        }
        board
            .clients
            .retain(|c| !c.kicked.load(Ordering::Relaxed) && offer(&c.tx, &c.kicked, msg.clone()));
        self.inner
            .watchers
            .store(board.clients.len(), Ordering::Relaxed);
        board.clients.len()
    }
}

/// The error reply for a message that was refused before it reached the robot.
pub fn refuse(replier: &Replier, refused: &protocol::Refused) {
    replier.send(protocol::error(refused.id.as_ref(), &refused.error));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::What;

    fn entry(tick: u64) -> Entry {
        Entry {
            tick,
            t_ms: tick * 50,
            what: What::Note {
                text: format!("n{tick}"),
            },
        }
    }

    fn live(limits: Limits) -> (Hub, Commands) {
        Hub::live(Map::new(), limits)
    }

    #[test]
    fn a_page_that_falls_behind_is_dropped_not_waited_for() {
        let limits = Limits {
            client_queue: 3,
            ..Limits::default()
        };
        let (hub, _rx) = live(limits);
        let slow = hub.attach().unwrap();
        let fast = hub.attach().unwrap();
        assert_eq!(hub.watchers(), 2);
        for t in 0..10 {
            hub.push_entries(&[entry(t)]);
            hub.flush();
            while fast.rx.try_recv().is_ok() {}
        }
        // The slow page never read: it was kicked when its queue was full; the fast one
        // got every update.
        assert!(slow.kicked.load(Ordering::Relaxed));
        assert!(!fast.kicked.load(Ordering::Relaxed));
        assert_eq!(hub.watchers(), 1);
        assert!(!hub.is_attached(slow.id) && hub.is_attached(fast.id));
    }

    #[test]
    fn entries_are_bounded_and_the_loss_is_counted() {
        let (hub, _rx) = live(Limits::default());
        let page = hub.attach().unwrap();
        let many: Vec<Entry> = (0..(PENDING as u64 + 10)).map(entry).collect();
        hub.push_entries(&many);
        assert_eq!(hub.flush(), 1);
        let msg = page.rx.try_recv().unwrap();
        let v: Value = serde_json::from_str(msg.as_str()).unwrap();
        assert_eq!(v["dropped"], 10);
        assert_eq!(v["entries"].as_array().unwrap().len(), PENDING);
        assert_eq!(v["entries"][0]["tick"], 10, "the oldest went first");
        // A page that connects now gets the history in its hello.
        let late = hub.attach().unwrap();
        let hello: Value = serde_json::from_str(&late.hello).unwrap();
        assert_eq!(hello["history"].as_array().unwrap().len(), PENDING);
        assert_eq!(hello["history_dropped"], 10);
        assert_eq!(hello["mode"], "live");
        // Nothing new: nothing sent.
        assert_eq!(hub.flush(), 0);
    }

    /// The command queue sheds like every input queue: the oldest of equals goes (its page
    /// is told), a less important newcomer is refused, and a stop or a `pause` after any
    /// flood is taken; every loss is counted.
    #[test]
    fn commands_shed_by_importance_and_a_stop_after_a_flood_is_taken() {
        let (hub, commands) = live(Limits::default());
        let page = hub.attach().unwrap();
        let request = |text: &str| Request {
            page: page.id,
            command: protocol::parse(text).unwrap(),
            reply: page.replier.clone(),
        };
        let low = r#"{"cmd":"hri","message":{"intent":"__intent_greet__","priority":10}}"#;
        for _ in 0..COMMANDS {
            hub.submit(request(r#"{"cmd":"step","id":"flood"}"#))
                .unwrap();
        }
        // A newcomer as important as the least important queued: the oldest goes, its page
        // is told.
        hub.submit(request(r#"{"cmd":"step"}"#)).unwrap();
        let told = page.rx.try_recv().expect("the shed command's page is told");
        assert!(
            told.as_str().contains("shed") && told.as_str().contains("flood"),
            "{told}"
        );
        // Less important than everything queued: refused.
        let e = hub.submit(request(low)).unwrap_err();
        assert!(e.contains("busy"), "{e}");
        // A flood of a thousand, then a stop (HRI, and the stop member as a user intent)
        // and a pause: all taken, the newest.
        for _ in 0..1000 {
            let _ = hub.submit(request(r#"{"cmd":"step"}"#));
        }
        let stop = r#"{"cmd":"hri","message":{"intent":"__intent_stop_activity__","priority":10},"id":"stop"}"#;
        hub.submit(request(stop)).unwrap();
        hub.submit(request(
            r#"{"cmd":"user_intent","intent":{"type":"global_stop"},"id":"member"}"#,
        ))
        .unwrap();
        hub.submit(request(r#"{"cmd":"pause","id":"pause"}"#))
            .unwrap();
        assert_eq!(commands.shed(), 1 + 1 + 1000 + 3);
        let taken: Vec<Request> = std::iter::from_fn(|| commands.try_recv()).collect();
        assert_eq!(taken.len(), COMMANDS);
        let ids: Vec<_> = taken[COMMANDS - 3..]
            .iter()
            .map(|r| r.command.id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["stop", "member", "pause"]);
        drop(commands);
        assert!(hub
            .submit(request(r#"{"cmd":"step"}"#))
            .unwrap_err()
            .contains("stopped"));
        let replay = Hub::replay(Map::new(), Vec::new(), Limits::default());
        assert!(replay
            .submit(request(r#"{"cmd":"step"}"#))
            .unwrap_err()
            .contains("replays"));
        assert!(replay.attach().is_some());
    }

    #[test]
    fn pages_are_bounded() {
        let limits = Limits {
            max_clients: 2,
            ..Limits::default()
        };
        let (hub, _rx) = live(limits);
        let a = hub.attach().unwrap();
        let _b = hub.attach().unwrap();
        assert!(hub.attach().is_none());
        hub.detach(a.id);
        assert!(hub.attach().is_some());
    }
}
