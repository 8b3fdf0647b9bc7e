//! The tick thread's side of the inspector ([`Inspector`]): what it hands over after each
//! tick, and the commands it takes. Nothing here waits on a page.

use std::time::Duration;

use serde_json::{Map, Value};

use robot_runtime::behavior::BehaviorId;
use robot_runtime::hri::IntentKind;
use robot_runtime::union::CladUnion;

use super::hub::{Commands, Hub, Request};
use super::observe::{state_keys_json, BreakpointInfo, Detail, Forced, Hit, Observer};
use super::{Limits, FRAME, HEARTBEAT};
use crate::intents::{UserIntent, USER_INTENT_MAP};
use crate::robot::Robot;
use crate::timeline::Entry;
use crate::trace::TreeJson;

/// The static parts of the `hello` message for `robot`: its tree (with every condition's
/// text), the robot-state keys, its tick rate, and the catalog the page's forms offer (every
/// user intent with its default payload, the cloud and app intents of the map, the standard
/// HRI intents).
pub fn hello(robot: &Robot, ticks_per_second: u32) -> Map<String, Value> {
    let user_intents: Vec<Value> = UserIntent::TAGS
        .iter()
        .map(|&t| {
            let default = serde_json::to_value(UserIntent::default_for(t)).unwrap_or(Value::Null);
            serde_json::json!({"type": UserIntent::tag_name(t), "default": default})
        })
        .collect();
    let cloud: Vec<&str> = USER_INTENT_MAP.cloud.iter().map(|e| e.intent).collect();
    let app: Vec<&str> = USER_INTENT_MAP.app.iter().map(|e| e.intent).collect();
    let hri: Vec<&str> = IntentKind::STANDARD.iter().map(IntentKind::wire).collect();
    let mut m = Map::new();
    m.insert(
        "tree".into(),
        serde_json::to_value(TreeJson::of(robot.runner())).unwrap_or(Value::Null),
    );
    m.insert("state_keys".into(), state_keys_json(robot.runner()));
    m.insert("ticks_per_second".into(), ticks_per_second.into());
    m.insert(
        "catalog".into(),
        serde_json::json!({
            "user_intents": user_intents,
            "cloud_intents": cloud,
            "app_intents": app,
            "hri_intents": hri,
        }),
    );
    m
}

/// Where the run loop stands, for the state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress<'a> {
    /// Ticks run so far (0: none yet).
    pub ticks_run: u64,
    /// The loop is paused.
    pub paused: bool,
    /// A behavior forced to run again: its name and the runs left.
    pub forced: Option<(&'a str, u32)>,
    /// The breakpoints.
    pub breakpoints: &'a [BreakpointInfo],
    /// The breakpoint the robot paused on (until it runs again).
    pub hit: Option<&'a Hit>,
}

/// The tick thread's handle.
pub struct Inspector {
    hub: Hub,
    commands: Commands,
    ticks_per_second: u32,
    /// Ticks in a frame: a state follows something that happened at most this late.
    frame_ticks: u64,
    /// Ticks in a heartbeat: a state at least this often while a page is open.
    heartbeat_ticks: u64,
    /// `ticks_run` at the last look.
    last_look: Option<u64>,
    /// `ticks_run` when entries were first handed over since the last look.
    changed_at: Option<u64>,
    /// Ticks a look waits after the first entries.
    settle_ticks: u64,
    /// The `ticks_run` at which the next look is due (see `next_due`).
    due_at: u64,
    /// What the pages were last told (compared on each look: only changes go out).
    observer: Observer,
    forced: Option<Forced>,
    breakpoints: Vec<BreakpointInfo>,
    hit: Option<Hit>,
    seen_watchers: usize,
    dirty: bool,
    /// The next look is a whole state (nobody was told anything since the last page left).
    full: bool,
    /// What each page's "why" panel looks at.
    watches: Vec<(u64, BehaviorId)>,
    watched: Vec<BehaviorId>,
}

impl std::fmt::Debug for Inspector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inspector")
            .field("hub", &self.hub)
            .field("ticks_per_second", &self.ticks_per_second)
            .finish_non_exhaustive()
    }
}

impl Inspector {
    /// The inspector of `robot`: its hub (give it to a [`Server`](super::Server)) and the
    /// handle the run loop keeps.
    pub fn new(robot: &Robot, ticks_per_second: u32, limits: Limits) -> Self {
        let (hub, commands) = Hub::live(hello(robot, ticks_per_second), limits);
        Self {
            hub,
            commands,
            ticks_per_second,
            frame_ticks: ticks_in(ticks_per_second, FRAME),
            heartbeat_ticks: ticks_in(ticks_per_second, HEARTBEAT),
            last_look: None,
            changed_at: None,
            settle_ticks: (ticks_in(ticks_per_second, FRAME) / 2).max(1),
            due_at: 0,
            observer: Observer::new(robot, Detail::Live),
            forced: None,
            breakpoints: Vec::new(),
            hit: None,
            seen_watchers: 0,
            dirty: true,
            full: true,
            watches: Vec::new(),
            watched: Vec::new(),
        }
    }

    /// The hub.
    pub fn hub(&self) -> &Hub {
        &self.hub
    }

    /// Commands the full command queue shed so far.
    pub fn commands_shed(&self) -> u64 {
        self.commands.shed()
    }

    /// The next command from a page, if any (never blocks).
    pub fn next_request(&self) -> Option<Request> {
        self.commands.try_recv()
    }

    /// Page `page` looks at `behavior` (`None`: at the active dispatcher). At most one
    /// behavior per page; pages that left are forgotten.
    pub fn watch(&mut self, page: u64, behavior: Option<BehaviorId>) {
        self.watches.retain(|(p, _)| *p != page);
        if let Some(b) = behavior {
            self.watches.push((page, b));
        }
        self.dirty = true;
    }

    /// The state changed outside a tick (a forced behavior, a pause): the next
    /// [`publish`](Self::publish) sends it even within the frame.
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// After a tick (or a command while paused): hands over `entries` and, while a page is
    /// open, what changed in the robot when a look is due: within a [`FRAME`] of something
    /// happening (the tick had entries; the look waits half a frame for what follows in the
    /// next ticks, so that a burst comes in one look), at least every [`HEARTBEAT`] (a look
    /// at a runner that stayed quiet since the last one compares only the conditions: see
    /// [`Observer::look`]), at once when the state is [dirty](Self::mark_dirty) or a page just
    /// connected (then the whole state); while paused only when dirty. Frames are counted in ticks: a tick reads no clock here.
    /// Every tick notes the runner's revision (one compare), so that a robot-state key's
    /// change can be given its tick.
    pub fn publish(&mut self, robot: &Robot, entries: &[Entry], progress: &Progress<'_>) {
        self.observer.note_tick(robot);
        if !entries.is_empty() {
            self.hub.push_entries(entries);
            if self.changed_at.is_none() {
                self.changed_at = Some(progress.ticks_run);
                self.due_at = self.next_due();
            }
        }
        let watchers = self.hub.watchers();
        if watchers > self.seen_watchers && self.seen_watchers == 0 {
            // The first page since none: what the pages were told is stale (nobody was
            // told anything); start again from the whole state.
            self.observer.reset();
            self.full = true;
        }
        if watchers > self.seen_watchers {
            self.dirty = true;
        }
        self.seen_watchers = watchers;
        if watchers == 0 {
            return;
        }
        if !self.dirty && (progress.paused || progress.ticks_run < self.due_at) {
            return;
        }
        let hub = &self.hub;
        self.watches.retain(|(page, _)| hub.is_attached(*page));
        self.watched.clear();
        self.watched.extend(self.watches.iter().map(|(_, b)| *b));
        let mut changes = self.observer.look(
            robot,
            &self.watched,
            progress.ticks_run,
            self.ticks_per_second,
        );
        changes.paused = progress.paused;
        let full = std::mem::take(&mut self.full);
        let forced = progress.forced.map(|(behavior, runs_left)| Forced {
            behavior: behavior.to_owned(),
            runs_left,
        });
        if full || forced != self.forced {
            changes.forced = Some(forced.clone());
            self.forced = forced;
        }
        if full || progress.breakpoints != self.breakpoints.as_slice() {
            self.breakpoints = progress.breakpoints.to_vec();
            changes.breakpoints = Some(self.breakpoints.clone());
        }
        if full || progress.hit != self.hit.as_ref() {
            self.hit = progress.hit.cloned();
            changes.hit = Some(self.hit.clone());
        }
        if full {
            changes.full = true;
            changes.explained = Some(self.observer.explained().to_vec());
            changes.dispatcher.get_or_insert(None);
        }
        self.hub.push_changes(changes);
        self.last_look = Some(progress.ticks_run);
        self.changed_at = None;
        self.dirty = false;
        self.due_at = self.next_due();
    }

    /// The `ticks_run` at which the next look is due: within a frame of the last one when
    /// entries came (half a frame after the first, so that what happens over a few ticks —
    /// a claim, the stack, an action — comes in one look), else a heartbeat after it.
    fn next_due(&self) -> u64 {
        let Some(last) = self.last_look else {
            return 0;
        };
        let heartbeat = last + self.heartbeat_ticks;
        match self.changed_at {
            Some(first) => heartbeat.min((first + self.settle_ticks).max(last + self.frame_ticks)),
            None => heartbeat,
        }
    }
}

/// The whole state a page would get of `robot` now, as the JSON it reads, with the "why" of
/// `watched` (for tests and benches: its size and cost on a big tree).
pub fn snapshot_json(robot: &Robot, ticks_per_second: u32, watched: &[BehaviorId]) -> String {
    let mut observer = Observer::new(robot, Detail::Live);
    let mut changes = observer.look(robot, watched, robot.tick() + 1, ticks_per_second);
    changes.full = true;
    changes.explained = Some(observer.explained().to_vec());
    serde_json::to_string(&changes).unwrap_or_default()
}

/// Whole ticks in `d` at `ticks_per_second` (at least 1).
fn ticks_in(ticks_per_second: u32, d: Duration) -> u64 {
    let t = u128::from(ticks_per_second.max(1)) * d.as_millis() / 1000;
    u64::try_from(t).unwrap_or(u64::MAX).max(1)
}
