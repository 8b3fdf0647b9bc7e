//! The robot on the network (cargo feature `zenoh`; `--zenoh` on the command line): while it
//! ticks in real time, it takes cloud messages and HRI intents from Zenoh subscribers, so a
//! second process — `cladz pub`, the speech client, a tablet, a supervisor's laptop — can
//! send it intents while it runs.
//!
//! | key (default) | type | what the robot does with it |
//! |---|---|---|
//! | `CloudMic/Message` | `CloudMic::Message` (`schemas/cloud.clad`) | a datagram from the cloud process ([`CloudDatagram`]) |
//! | `Hri/IntentEnvelope` | `Hri::IntentEnvelope` (`schemas/hri.clad`) | an HRI intent ([`HriEnvelopeBytes`]) |
//!
//! Each sample enters the robot through the intent component's one intake
//! ([`Robot::submit`]), like a scenario line of the same kind. Each subscription feeds a
//! bounded queue ([`clad_zenoh::intake`]) that the tick drains: samples of one publisher arrive
//! complete and in order; a sample of another schema version (its schema hash differs), with
//! no type tag, or longer than its type can be (`Wire::MAX_SIZE`: 131,331 bytes for a
//! `CloudMic::Message`) is refused unread. A full queue sheds by importance
//! ([`robot_runtime::intent::shed`]: the lowest priority and oldest first, never a stop: a
//! STOP sent after a flood is taken). Refusals and what was shed appear in the timeline as
//! `ignored: …` lines (and in the `tracing` log) while the robot goes on, and are counted per
//! source ([`LiveInputs::stats`]). Live inputs show `(live)` where a scenario input shows its
//! line.
//!
//! Within one tick the cloud queue is drained before the HRI queue (two publishers are never
//! ordered with respect to each other).
//!
//! With `--ros2` the robot is also a ROS 2 node on the same session ([`crate::ros2`]): it takes
//! `hri_actions_msgs/msg/Intent` from `/intents` (drained after the HRI queue) and, with
//! `--ros-publish`, publishes what its cloud pipeline recognised. In that mode the session is
//! a peer of the ROS 2 router (`tcp/localhost:7447`, as ROS nodes are) and listens on a free
//! port; that is why the plain live mode listens on 7448 and never on 7447.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use std::cell::Cell;

use clad_zenoh::intake::{self, Intake, IntakeReceiver, Packed};
use clad_zenoh::zenoh::Session;
use clad_zenoh::{config, key, Subscriber};
use robot_runtime::intent::shed::hri_importance;
use robot_runtime::intent::Importance;
use robot_runtime::wire::{Wire, WireView};

use crate::clad::cloud_mic::{Message, MessageView};
use crate::hri::{HriEnvelopeBytes, IntentEnvelope};
use crate::intents::{CloudDatagram, RANKER};
use crate::robot::{Arrival, Robot};
use crate::ros2::RosPeer;
use crate::scenario::Scenario;
use crate::timeline::Entry;

/// The longest `run_for` the command line takes, in seconds (one year): a documented limit
/// instead of a `Duration` overflow.
pub const MAX_RUN_FOR_S: f64 = 365.0 * 24.0 * 3600.0;

/// The endpoint the robot listens on when no network option is given. Not Zenoh's usual
/// 7447: that is the port of the ROS 2 router (`rmw_zenohd`), which the robot connects to in
/// ROS mode and must leave free.
pub const DEFAULT_LISTEN: &str = "tcp/127.0.0.1:7448";

/// Where the session listens and connects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Network {
    /// Peer mode with explicit endpoints (Zenoh locators such as `tcp/127.0.0.1:7447`).
    Peer {
        /// Endpoints to listen on.
        listen: Vec<String>,
        /// Endpoints to connect to.
        connect: Vec<String>,
        /// Also find peers by multicast scouting (off: only the endpoints given are used).
        multicast: bool,
    },
    /// A Zenoh JSON5 configuration file (any setting Zenoh has).
    ConfigFile(PathBuf),
}

impl Default for Network {
    /// Peer mode listening on [`DEFAULT_LISTEN`], connecting nowhere, no multicast.
    fn default() -> Self {
        Self::Peer {
            listen: vec![DEFAULT_LISTEN.to_owned()],
            connect: Vec::new(),
            multicast: false,
        }
    }
}

/// Settings of the live inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveConfig {
    /// The session.
    pub network: Network,
    /// Capacity of each input queue (messages between two ticks); when full, the least
    /// important and oldest are shed (never a stop) and the loss is reported.
    pub queue: usize,
    /// Key of the cloud messages (`None`: `CloudMic/Message`).
    pub cloud_key: Option<String>,
    /// Key of the HRI intents (`None`: `Hri/IntentEnvelope`).
    pub hri_key: Option<String>,
}

impl Default for LiveConfig {
    fn default() -> Self {
        Self {
            network: Network::default(),
            queue: 256,
            cloud_key: None,
            hri_key: None,
        }
    }
}

/// The robot's subscriptions and their queues.
pub struct LiveInputs {
    cloud: IntakeReceiver<Packed<Message>>,
    hri: IntakeReceiver<Packed<IntentEnvelope>>,
    cloud_key: String,
    hri_key: String,
    /// The ROS 2 node, when attached (dropped before the session).
    ros: Option<RosPeer>,
    /// What arrived on the cloud and HRI keys.
    counts: Cell<[SourceCounts; 2]>,
    // Dropping a subscriber undeclares it: both live as long as `self`.
    _cloud_sub: Subscriber,
    _hri_sub: Subscriber,
    session: Session,
}

impl std::fmt::Debug for LiveInputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveInputs")
            .field("cloud_key", &self.cloud_key)
            .field("hri_key", &self.hri_key)
            .field("queued", &(self.cloud.len() + self.hri.len()))
            .finish()
    }
}

impl LiveInputs {
    /// Opens a session as `config.network` says and subscribes.
    pub fn open(config: &LiveConfig) -> Result<Self, clad_zenoh::Error> {
        let zenoh_config = match &config.network {
            Network::Peer {
                listen,
                connect,
                multicast,
            } => {
                let l: Vec<&str> = listen.iter().map(String::as_str).collect();
                let c: Vec<&str> = connect.iter().map(String::as_str).collect();
                config::peer(&l, &c, *multicast)?
            }
            Network::ConfigFile(path) => config::from_file(path)?,
        };
        Self::subscribe(config::open(zenoh_config)?, config)
    }

    /// Subscribes on an open session (the robot keeps it for as long as it lives).
    pub fn subscribe(session: Session, config: &LiveConfig) -> Result<Self, clad_zenoh::Error> {
        let queue = config.queue.max(1);
        let cloud_key = key::resolve::<Message>(config.cloud_key.as_deref());
        let hri_key = key::resolve::<IntentEnvelope>(config.hri_key.as_deref());
        let (cloud_sub, cloud) = intake::subscribe_packed_ranked::<Message>(
            &session,
            Some(&cloud_key),
            queue,
            rank_cloud,
        )?;
        let (hri_sub, hri) = intake::subscribe_packed_ranked::<IntentEnvelope>(
            &session,
            Some(&hri_key),
            queue,
            rank_hri,
        )?;
        Ok(Self {
            cloud,
            hri,
            cloud_key,
            hri_key,
            ros: None,
            counts: Cell::default(),
            _cloud_sub: cloud_sub,
            _hri_sub: hri_sub,
            session,
        })
    }

    /// The key of the cloud messages.
    pub fn cloud_key(&self) -> &str {
        &self.cloud_key
    }

    /// The key of the HRI intents.
    pub fn hri_key(&self) -> &str {
        &self.hri_key
    }

    /// Messages the input queues shed so far, counted as they are shed (the timeline and
    /// [`LiveInputs::stats`] report them when the tick drains the queue).
    pub fn shed_so_far(&self) -> u64 {
        self.cloud.dropped()
            + self.hri.dropped()
            + self.ros.as_ref().map_or(0, RosPeer::shed_so_far)
    }

    /// What arrived so far, per source (the ROS 2 topic's when attached).
    pub fn stats(&self) -> InputStats {
        let [cloud, hri] = self.counts.get();
        InputStats {
            cloud,
            hri,
            ros2: self.ros.as_ref().map(|r| r.stats().counts()),
        }
    }

    /// Makes the robot a ROS 2 node on this session too (see [`crate::ros2`]); its intents
    /// are delivered after the HRI queue's.
    pub fn attach_ros(&mut self, ros: RosPeer) {
        self.ros = Some(ros);
    }

    /// The ROS 2 node, when attached.
    pub fn ros(&self) -> Option<&RosPeer> {
        self.ros.as_ref()
    }

    /// The session (for its id, or to declare more on it).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Submits everything queued since the last call to the robot's current tick (between
    /// [`Robot::begin_tick`] and [`Robot::end_tick`]): the cloud queue, then the HRI queue,
    /// then the ROS 2 queue, each in arrival order (and, with a ROS publisher, publishes what
    /// the cloud pipeline recognised). Refused samples and what a full queue shed become
    /// `ignored: …` timeline entries. Returns the number of requests submitted.
    pub fn deliver(&self, robot: &mut Robot, cpu: Duration) -> usize {
        if self.ros.as_ref().is_some_and(|r| r.publisher().is_some()) {
            robot.record_recognised();
        }
        let [mut cloud, mut hri] = self.counts.get();
        let capacity = self.cloud.capacity();
        self.cloud.drain(|item| match item {
            Intake::Message(sample) => {
                cloud.received += 1;
                cloud.submitted += 1;
                robot.submit(CloudDatagram(&sample.bytes()), Arrival::live(), cpu);
            }
            Intake::Refused(e) => {
                cloud.received += 1;
                cloud.refused += 1;
                robot.report_ignored(format!("refused on {}: {e}", self.cloud_key))
            }
            Intake::Overflow { dropped } => {
                cloud.received += dropped;
                cloud.shed += dropped;
                robot.report_ignored(overflow(&self.cloud_key, dropped, capacity))
            }
        });
        self.hri.drain(|item| match item {
            Intake::Message(sample) => {
                hri.received += 1;
                hri.submitted += 1;
                let request = HriEnvelopeBytes {
                    bytes: &sample.bytes(),
                    arrived: robot.now(),
                };
                robot.submit(request, Arrival::live(), cpu);
            }
            Intake::Refused(e) => {
                hri.received += 1;
                hri.refused += 1;
                robot.report_ignored(format!("refused on {}: {e}", self.hri_key))
            }
            Intake::Overflow { dropped } => {
                hri.received += dropped;
                hri.shed += dropped;
                robot.report_ignored(overflow(&self.hri_key, dropped, capacity))
            }
        });
        let before = self.counts.replace([cloud, hri]);
        let mut submitted =
            (cloud.submitted + hri.submitted - before[0].submitted - before[1].submitted) as usize;
        if let Some(ros) = &self.ros {
            submitted += ros.deliver(robot, cpu);
            // What the cloud pipeline recognised this tick (scenario lines included).
            ros.publish_heard(robot);
        }
        submitted
    }
}

/// A cloud sample's rank in a full queue: a `result` by its map entry (a voice "stop" is
/// always admitted), anything else at the default priority.
fn rank_cloud(item: &Intake<Packed<Message>>) -> u16 {
    let Intake::Message(sample) = item else {
        return 0;
    };
    let bytes = sample.bytes();
    match MessageView::unpack_view(&bytes) {
        Ok(MessageView::Result(r)) => RANKER.cloud_result(r.intent).rank(),
        _ => Importance::NORMAL.rank(),
    }
}

/// An HRI envelope's rank in a full queue: its priority, and a stop or cancel is always
/// admitted.
fn rank_hri(item: &Intake<Packed<IntentEnvelope>>) -> u16 {
    let Intake::Message(sample) = item else {
        return 0;
    };
    match IntentEnvelope::unpack(&sample.bytes()) {
        Ok(env) => hri_importance(&env.intent.intent, Some(env.intent.priority)).rank(),
        Err(_) => 0,
    }
}

/// What arrived from one source: every message is exactly one of submitted (to the one
/// intake), refused (by the transport, unread) or shed (by a full queue), and `received` is
/// their sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceCounts {
    /// Messages that reached the robot's queue.
    pub received: u64,
    /// Of those, submitted to the intake (which may still reject them: its events say so).
    pub submitted: u64,
    /// Refused by the transport, unread (another schema, no type tag, too large, another
    /// type on the topic).
    pub refused: u64,
    /// Shed by a full queue.
    pub shed: u64,
}

impl SourceCounts {
    /// `received (submitted, refused, shed)`.
    pub fn summary(&self) -> String {
        format!(
            "{} received ({} submitted, {} refused, {} shed)",
            self.received, self.submitted, self.refused, self.shed
        )
    }
}

impl std::ops::Add for SourceCounts {
    type Output = SourceCounts;
    fn add(self, o: SourceCounts) -> SourceCounts {
        SourceCounts {
            received: self.received + o.received,
            submitted: self.submitted + o.submitted,
            refused: self.refused + o.refused,
            shed: self.shed + o.shed,
        }
    }
}

/// What arrived from each live source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputStats {
    /// `CloudMic/Message`.
    pub cloud: SourceCounts,
    /// `Hri/IntentEnvelope`.
    pub hri: SourceCounts,
    /// The ROS 2 topic, when the robot is a node.
    pub ros2: Option<SourceCounts>,
}

impl InputStats {
    /// Every source together.
    pub fn total(&self) -> SourceCounts {
        self.cloud + self.hri + self.ros2.unwrap_or_default()
    }

    /// One line for the end of a run: the total, then each source, in the same words.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "messages {}: cloud {}, hri {}",
            self.total().summary(),
            self.cloud.received,
            self.hri.received
        );
        if let Some(r) = &self.ros2 {
            s.push_str(&format!(", ros2 {}", r.received));
        }
        s
    }
}

/// The timeline's words for messages a full queue shed (also the ROS 2 topic's).
pub fn overflow(key: &str, dropped: u64, capacity: usize) -> String {
    format!(
        "{dropped} message{} on {key} shed: the input queue ({capacity}) was full (the least important and oldest go first, never a stop)",
        if dropped == 1 { "" } else { "s" }
    )
}

/// What a live run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveSummary {
    /// Ticks run.
    pub ticks: u64,
    /// What arrived, per source.
    pub inputs: InputStats,
    /// The run ended because it was asked to stop ([`run_until`]), not because its time was
    /// up.
    pub interrupted: bool,
}

/// Runs `robot` in real time at its ticks per second: each tick delivers the scenario events
/// due (in scenario time from the start) and what arrived on the network, ticks the robot
/// and hands the tick's timeline entries to `out` (then forgets them, so a long run does not
/// grow). Stops when `run_for` has passed, or never (`None`: until the process is stopped).
pub fn run(
    robot: Robot,
    scenario: &Scenario,
    inputs: &LiveInputs,
    ticks_per_second: u32,
    run_for: Option<Duration>,
    out: impl FnMut(&[Entry]),
) -> LiveSummary {
    run_until(
        robot,
        scenario,
        inputs,
        ticks_per_second,
        run_for,
        &AtomicBool::new(false),
        out,
    )
}

/// [`run`], also ending after the tick in progress once `stop` is set (by a Ctrl-C handler,
/// another thread); the summary says so ([`LiveSummary::interrupted`]).
pub fn run_until(
    mut robot: Robot,
    scenario: &Scenario,
    inputs: &LiveInputs,
    ticks_per_second: u32,
    run_for: Option<Duration>,
    stop: &AtomicBool,
    mut out: impl FnMut(&[Entry]),
) -> LiveSummary {
    let tps = ticks_per_second.max(1);
    let period = Duration::from_secs(1) / tps;
    let mut due = Instant::now();
    let mut ran = Duration::ZERO;
    let mut summary = LiveSummary::default();
    let mut next = 0;
    let mut tick: u64 = 0;
    loop {
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let began = Instant::now();
        robot.begin_tick(tick);
        for e in scenario.due(&mut next, tick, tps) {
            robot.deliver(e, began.elapsed());
        }
        inputs.deliver(&mut robot, began.elapsed());
        robot.end_tick(began.elapsed());
        out(robot.entries());
        robot.clear_entries();
        summary.ticks = tick + 1;
        summary.inputs = inputs.stats();
        ran += period;
        if run_for.is_some_and(|limit| ran >= limit) {
            return summary;
        }
        if stop.load(Ordering::Relaxed) {
            summary.interrupted = true;
            return summary;
        }
        // The next tick is due one period after this one was (not after it ended), so the
        // clock does not drift; a tick that ran late is followed at once.
        due += period;
        tick += 1;
    }
}
