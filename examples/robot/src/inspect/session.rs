//! The tick thread's side of the inspector ([`Inspector`]): what it hands over after each
//! tick, and the commands it takes. Nothing here waits on a page.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{Map, Value};

use robot_runtime::behavior::BehaviorId;
use robot_runtime::hri::IntentKind;
use robot_runtime::union::CladUnion;

use super::hub::{Hub, Request};
use super::snapshot;
use super::{Limits, FRAME, HEARTBEAT};
use crate::intents::{UserIntent, USER_INTENT_MAP};
use crate::robot::Robot;
use crate::timeline::Entry;
use crate::trace::TreeJson;

/// The static parts of the `hello` message for `robot`: its tree, its tick rate, and the
/// catalog the page's forms offer (every user intent with its default payload, the cloud
/// and app intents of the map, the standard HRI intents).
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

/// Where the run loop stands, for the snapshot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress<'a> {
    /// Ticks run so far (0: none yet).
    pub ticks_run: u64,
    /// The loop is paused.
    pub paused: bool,
    /// A behavior forced to run again: its name and the runs left.
    pub forced: Option<(&'a str, u32)>,
}

/// The tick thread's handle.
#[derive(Debug)]
pub struct Inspector {
    hub: Hub,
    commands: Receiver<Request>,
    ticks_per_second: u32,
    /// Ticks in a frame: a snapshot follows something that happened at most this late.
    frame_ticks: u64,
    /// Ticks in a heartbeat: a snapshot at least this often while a page is open.
    heartbeat_ticks: u64,
    /// `ticks_run` at the last snapshot.
    last_snapshot: Option<u64>,
    /// Entries were handed over since the last snapshot.
    changed: bool,
    /// The [fingerprint](snapshot::fingerprint) at the last heartbeat, when the state sent
    /// then (or the clock) still stands: `None` after any other snapshot.
    fingerprint: Option<Vec<u8>>,
    /// The buffer the next fingerprint is written to (kept: no allocation once warm).
    scratch: Vec<u8>,
    seen_watchers: usize,
    dirty: bool,
    /// What each page's "why" panel looks at.
    watches: Vec<(u64, BehaviorId)>,
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
            last_snapshot: None,
            changed: false,
            fingerprint: None,
            scratch: Vec::new(),
            seen_watchers: 0,
            dirty: true,
            watches: Vec::new(),
        }
    }

    /// The hub.
    pub fn hub(&self) -> &Hub {
        &self.hub
    }

    /// The next command from a page, if any (never blocks).
    pub fn next_request(&self) -> Option<Request> {
        self.commands.try_recv().ok()
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
    /// [`publish`](Self::publish) sends a snapshot even within the frame.
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// After a tick (or a command while paused): hands over `entries` and, while a page is
    /// open, a snapshot of `robot` when one is due: within a [`FRAME`] of something
    /// happening (the tick had entries), at least every [`HEARTBEAT`] (durations, timers),
    /// at once when the state is [dirty](Self::mark_dirty) or a page just connected; while
    /// paused only when dirty. Frames are counted in ticks: a tick reads no clock here.
    ///
    /// A heartbeat on which nothing but the clock moved (the [fingerprint](snapshot::fingerprint)
    /// is the last heartbeat's) hands over the clock instead of a snapshot: a robot waiting
    /// with a page open costs a fingerprint a second (a few thousand instructions), not a
    /// snapshot.
    pub fn publish(&mut self, robot: &Robot, entries: &[Entry], progress: &Progress<'_>) {
        if !entries.is_empty() {
            self.hub.push_entries(entries);
            self.changed = true;
        }
        let watchers = self.hub.watchers();
        if watchers > self.seen_watchers {
            self.dirty = true;
        }
        self.seen_watchers = watchers;
        if watchers == 0 {
            return;
        }
        let due = !progress.paused
            && self.last_snapshot.is_none_or(|t| {
                let ticks = progress.ticks_run.saturating_sub(t);
                (self.changed && ticks >= self.frame_ticks) || ticks >= self.heartbeat_ticks
            });
        if !(due || self.dirty) {
            return;
        }
        let hub = &self.hub;
        self.watches.retain(|(page, _)| hub.is_attached(*page));
        let watched: Vec<BehaviorId> = self.watches.iter().map(|(_, b)| *b).collect();
        let heartbeat = !self.dirty && !self.changed;
        if heartbeat {
            snapshot::fingerprint(robot, progress, &watched, &mut self.scratch);
            if self.fingerprint.as_ref() == Some(&self.scratch) {
                self.hub.set_clock(snapshot::clock(
                    progress.ticks_run.saturating_sub(1),
                    self.ticks_per_second,
                ));
                self.last_snapshot = Some(progress.ticks_run);
                return;
            }
            // Keep this one; the old buffer becomes the next scratch.
            let old = self.fingerprint.replace(std::mem::take(&mut self.scratch));
            self.scratch = old.unwrap_or_default();
        } else if let Some(old) = self.fingerprint.take() {
            self.scratch = old;
        }
        self.hub.set_state(snapshot::build(
            robot,
            self.ticks_per_second,
            progress,
            &watched,
        ));
        self.last_snapshot = Some(progress.ticks_run);
        self.changed = false;
        self.dirty = false;
    }
}

/// The snapshot a page would get of `robot` now, as the JSON it reads, with the "why" of
/// `watched` (for tests and benches: its size and cost on a big tree).
pub fn snapshot_json(robot: &Robot, ticks_per_second: u32, watched: &[BehaviorId]) -> String {
    let progress = Progress {
        ticks_run: robot.tick() + 1,
        ..Progress::default()
    };
    serde_json::to_string(&snapshot::build(
        robot,
        ticks_per_second,
        &progress,
        watched,
    ))
    .unwrap_or_default()
}

/// Whole ticks in `d` at `ticks_per_second` (at least 1).
fn ticks_in(ticks_per_second: u32, d: Duration) -> u64 {
    let t = u128::from(ticks_per_second.max(1)) * d.as_millis() / 1000;
    u64::try_from(t).unwrap_or(u64::MAX).max(1)
}
