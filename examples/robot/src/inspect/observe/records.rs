//! The records a look hands over: behaviors, why they do or do not run, intents, keys,
//! breakpoint hits, and [`Changes`], the differences since the last look.

use std::borrow::Cow;

use serde::ser::Serializer;
use serde::Serialize;

use robot_runtime::behavior::LifecycleState;
use robot_runtime::intent::{IntentMeta, IntentSource, Match};
use robot_runtime::union::CladUnion;

use crate::intents::UserIntent;
use crate::robot::{describe_match, map_entry, payload_json};
use crate::timeline::MapEntryInfo;

use super::{state_str, Tag};

/// One behavior's state (its name and class are the tree's).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeRec {
    /// Its index in the tree.
    pub index: usize,
    /// `out_of_scope`, `in_scope`, `active`.
    #[serde(serialize_with = "state_str")]
    pub state: LifecycleState,
    /// Its position on the stack, when active.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_position: Option<usize>,
    /// It said it wants to be activated on the last tick (asked, or its kept answer reused).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wants: bool,
    /// In scope, when it did not say yes on the last tick: the answer the runner keeps for
    /// it (the cached tick), while that holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remembered: Option<bool>,
    /// The last tick it said it wants to run, when that was not the last tick (in scope or
    /// active).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wanted_tick: Option<u64>,
    /// When its cooldown (kept by a dispatcher in scope) ends, robot time (≥ [`FOREVER_MS`]:
    /// never).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cooling_until_ms: Option<u64>,
    /// The action its frame runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<Box<str>>,
    /// Its debug state (a state machine's state; out of scope, the one it resumes in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debug_state: Option<Box<str>>,
    /// When it was activated, robot time (active).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_since_ms: Option<u64>,
}

/// The parts of a [`NodeRec`] without text, compared in one go.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Fast {
    pub(super) state: LifecycleState,
    pub(super) stack_position: Option<usize>,
    pub(super) wants: bool,
    pub(super) remembered: Option<bool>,
    pub(super) wanted_tick: Option<u64>,
    pub(super) cooling_until_ms: Option<u64>,
    pub(super) active_since_ms: Option<u64>,
}

impl NodeRec {
    pub(super) fn fast(&self) -> Fast {
        Fast {
            state: self.state,
            stack_position: self.stack_position,
            wants: self.wants,
            remembered: self.remembered,
            wanted_tick: self.wanted_tick,
            cooling_until_ms: self.cooling_until_ms,
            active_since_ms: self.active_since_ms,
        }
    }
    pub(super) fn set_fast(&mut self, f: Fast) {
        self.state = f.state;
        self.stack_position = f.stack_position;
        self.wants = f.wants;
        self.remembered = f.remembered;
        self.wanted_tick = f.wanted_tick;
        self.cooling_until_ms = f.cooling_until_ms;
        self.active_since_ms = f.active_since_ms;
    }
    pub(super) fn blank(index: usize) -> Self {
        Self {
            index,
            state: LifecycleState::OutOfScope,
            stack_position: None,
            wants: false,
            remembered: None,
            wanted_tick: None,
            cooling_until_ms: None,
            action: None,
            debug_state: None,
            active_since_ms: None,
        }
    }
    /// Out of scope with nothing to show (the page reads a missing behavior so).
    pub(super) fn is_blank(&self) -> bool {
        self.state == LifecycleState::OutOfScope
            && self.cooling_until_ms.is_none()
            && self.debug_state.is_none()
    }
}

/// A condition's last value: null (never evaluated), `[value]` (evaluated on the state's
/// tick), `[value, tick]` (last evaluated on that tick: its value has held since, the runner
/// reused it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondValue {
    /// Never evaluated.
    Never,
    /// Evaluated on the current tick.
    Now(bool),
    /// Last evaluated on this (robot) tick.
    At(bool, u64),
}

impl Serialize for CondValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            CondValue::Never => s.serialize_none(),
            CondValue::Now(v) => [v].serialize(s),
            CondValue::At(v, t) => (v, t).serialize(s),
        }
    }
}

/// Why one behavior does or does not run: its closed gates, whether a listed intent is
/// pending, its conditions' last values (in the order of the tree's `conditions`; a
/// behavior's own class conditions, a state machine's transitions, only while a page looks
/// at it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WhyRec {
    /// The behavior.
    pub index: usize,
    /// The activation gates closed in the current robot state.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<&'static str>,
    /// With `respondToUserIntents`: a listed intent is pending now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intent_pending: Option<bool>,
    /// The conditions' last values.
    pub values: Vec<CondValue>,
}

/// An intent's metadata.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Meta {
    pub(super) source: String,
    pub(super) modality: String,
    pub(super) priority: u8,
    /// `None`: the producer did not say.
    pub(super) confidence: Option<f32>,
}

impl From<IntentMeta> for Meta {
    fn from(m: IntentMeta) -> Self {
        Self {
            // Who sent it and how came from outside: shown escaped, as in the timeline.
            source: crate::timeline::escape(m.source.wire()).into_owned(),
            modality: crate::timeline::escape(m.modality.wire()).into_owned(),
            priority: m.priority.0,
            confidence: m.confidence.value(),
        }
    }
}

/// The pending or the active intent. Kept as the component has it (a copy of the intent
/// and of how it got its tag); its text (payload, map entry, "via") is written when it is
/// serialized, on the broadcaster's thread, not on the tick's.
#[derive(Clone, Debug, PartialEq)]
pub struct Intent {
    pub(super) intent: UserIntent,
    pub(super) source: IntentSource,
    pub(super) matched: Match<Tag>,
    pub(super) meta: Meta,
    /// The robot tick it became pending (pending) or was claimed (active).
    pub(super) since_tick: u64,
    /// The behavior that claimed it (active).
    pub(super) owner: Option<String>,
}

impl Serialize for Intent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Text<'a> {
            intent: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            payload: Option<String>,
            /// `Voice`, `App`, `Dev`, `Unknown`.
            origin: String,
            /// How it got its tag.
            via: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            map_entry: Option<MapEntryInfo>,
            meta: &'a Meta,
            since_tick: u64,
            #[serde(skip_serializing_if = "Option::is_none")]
            owner: &'a Option<String>,
        }
        Text {
            intent: UserIntent::tag_name(self.intent.tag()),
            payload: payload_json(&self.intent),
            origin: self.source.to_string(),
            via: describe_match(&self.matched),
            map_entry: map_entry(&self.matched, self.intent.tag()),
            meta: &self.meta,
            since_tick: self.since_tick,
            owner: &self.owner,
        }
        .serialize(s)
    }
}

/// The intent component.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Intents {
    pub(super) pending: Option<Intent>,
    pub(super) active: Option<Intent>,
    pub(super) trigger_word_pending: bool,
    pub(super) unclaimed_flag: bool,
    pub(super) error_flag: bool,
    pub(super) stream_open: bool,
    pub(super) deadline_held: bool,
}

/// A behavior forced to run again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Forced {
    /// Its name.
    pub behavior: String,
    /// Runs left after the current one.
    pub runs_left: u32,
}

/// A robot-state key's value: a flag, a number, a name or a summary (null: none).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum KeyValue {
    /// No value (nothing sensed, never happened).
    None,
    /// A flag.
    Bool(bool),
    /// A number (plotted).
    Num(f64),
    /// A name or a summary.
    Text(Cow<'static, str>),
}

/// A robot-state key's value and the robot tick it last changed (None: not since the robot
/// started), as `[key, value, tick]` (`key`: its index in `hello`'s `state_keys`).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRec {
    /// The key's index.
    pub key: usize,
    /// The value.
    pub value: KeyValue,
    /// When it last changed.
    pub changed_tick: Option<u64>,
}

impl Serialize for KeyRec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.key, &self.value, self.changed_tick).serialize(s)
    }
}

/// A breakpoint, as the pages list it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BreakpointInfo {
    /// Its number.
    pub id: u32,
    /// `activation`, `pending`, `unclaimed`, `preemption`, `condition`.
    pub on: &'static str,
    /// What it watches (a behavior, an intent, a resource, `Behavior: condition label`);
    /// empty: any.
    pub target: String,
    /// Times it paused the robot.
    pub hits: u32,
}

/// Why the robot paused on its own: a breakpoint hit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hit {
    /// The breakpoint.
    pub breakpoint: u32,
    /// The robot tick it happened on (the robot is paused after it).
    pub tick: u64,
    /// What happened, for a person.
    pub what: String,
}

/// The robot as a page sees it, as changes (a delta) or whole (`full`, in `hello` and after
/// a page connects): a key that is absent did not change; `nodes`, `why` and `robot` list
/// only the entries that changed (a node back to out of scope with nothing to show comes as
/// `{"index": i, "state": "out_of_scope"}`); `explained` is the new list of explained
/// behaviors when it changed.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Changes {
    /// A whole state (the page replaces what it has).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub full: bool,
    /// The last tick run (`None` before the first).
    pub tick: Option<u64>,
    /// Its time.
    pub t_ms: u64,
    /// Whether the robot is paused.
    pub paused: bool,
    /// Behaviors whose state changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<NodeRec>,
    /// The behaviors explained now (the active dispatcher's children, what pages look at),
    /// when that changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explained: Option<Vec<usize>>,
    /// Explained behaviors whose "why" changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<WhyRec>,
    /// The active dispatcher (the highest behavior of the stack that has delegates), when it
    /// changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatcher: Option<Option<usize>>,
    /// The intent component, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intents: Option<Intents>,
    /// Robot-state keys that changed, by index in `hello`'s `state_keys`: `[key, value,
    /// tick]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub robot: Vec<KeyRec>,
    /// The behavior forced to run again, when that changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<Option<Forced>>,
    /// The breakpoints, when they changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakpoints: Option<Vec<BreakpointInfo>>,
    /// The last breakpoint hit (null once the robot runs again), when that changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit: Option<Option<Hit>>,
}

/// Replaces the entry of `list` whose key is `key` by `item`, or appends it (`drop`: removes
/// it instead).
pub(super) fn put<T>(list: &mut Vec<T>, item: T, key: impl Fn(&T) -> usize, drop: bool) {
    let k = key(&item);
    match list.iter().position(|x| key(x) == k) {
        Some(i) if drop => {
            list.remove(i);
        }
        Some(i) => list[i] = item,
        None if drop => {}
        None => list.push(item),
    }
}

impl Changes {
    /// Nothing but the clock (and the pause flag).
    pub fn only_clock(&self) -> bool {
        self.nodes.is_empty()
            && self.explained.is_none()
            && self.why.is_empty()
            && self.dispatcher.is_none()
            && self.intents.is_none()
            && self.robot.is_empty()
            && self.forced.is_none()
            && self.breakpoints.is_none()
            && self.hit.is_none()
    }

    /// `later` on top of this: what changed in both, the later value winning. On a whole
    /// state (`full`), the result is the whole state after `later` (behaviors back to
    /// nothing to show and behaviors no longer explained are dropped).
    pub fn merge(&mut self, later: Changes) {
        if later.full {
            // A whole state replaces what there was.
            *self = later;
            return;
        }
        self.tick = later.tick;
        self.t_ms = later.t_ms;
        self.paused = later.paused;
        for n in later.nodes {
            let blank = self.full && n.is_blank();
            put(&mut self.nodes, n, |n| n.index, blank);
        }
        if let Some(e) = later.explained {
            if self.full {
                self.why.retain(|w| e.contains(&w.index));
            }
            self.explained = Some(e);
        }
        for w in later.why {
            put(&mut self.why, w, |w| w.index, false);
        }
        for r in later.robot {
            put(&mut self.robot, r, |r| r.key, false);
        }
        if later.dispatcher.is_some() {
            self.dispatcher = later.dispatcher;
        }
        if later.intents.is_some() {
            self.intents = later.intents;
        }
        if later.forced.is_some() {
            self.forced = later.forced;
        }
        if later.breakpoints.is_some() {
            self.breakpoints = later.breakpoints;
        }
        if later.hit.is_some() {
            self.hit = later.hit;
        }
    }
}
