//! What the robot shows of itself, as changes since the last look ([`Changes`]): each
//! behavior's state, why the behaviors the pages look at do or do not run (their gates and
//! their conditions' last values), the intents, and the robot-state keys the conditions read
//! with the tick each last changed. Built on the tick thread from the runner's read-only
//! introspection (`behavior::inspect`: last values only, nothing evaluated) and the robot
//! state's public fields; serialized later, on the broadcaster's thread.
//!
//! Cheap by construction, so that a page costs the busy tick little (BENCHMARKS.md):
//!
//! * no text that does not change: names, classes, the conditions' labels, types and
//!   parameters are the tree's (sent once, in `hello`); a state carries indices and values;
//! * no value that moves with the clock alone: a behavior's activation time, a cooldown's
//!   end, an intent's arrival tick, a condition evaluated on the current tick (marked as
//!   such, not by its number) — so a robot that only waits changes nothing, and the page
//!   computes durations from the clock;
//! * only what changed: each look compares with the last one and hands over the
//!   differences; a behavior's record is built without allocating and compared in place
//!   (text is copied only when it changed), and only the behaviors in scope or active, and
//!   those that were at the last look, are looked at;
//! * what reads only the robot state or the intents (a robot-state key, a behavior's gates,
//!   whether one of its intents is pending) is looked at again only when the runner's change
//!   stamps say it moved.
//!
//! A look at a runner that stayed quiet since the last one (its revision unchanged, its next
//! wake-up not reached) compares only the conditions: the runner's decisions cannot have
//! moved (see [`Observer::look`]).
//!
//! Ticks are the robot's (the timeline's, from 0); the runner counts its own from 1 (its
//! tick N is the robot's N − 1) and its clock runs one period ahead, so its ticks and times
//! are shifted.

use std::collections::VecDeque;
use std::time::Duration;

use serde::ser::Serializer;

use original_behaviors::RobotAccess;
use robot_runtime::behavior::inspect;
use robot_runtime::behavior::{BehaviorId, Condition, Inputs, LifecycleState, Runner, Wakeup};
use robot_runtime::union::CladUnion;

use crate::behavior_classes::Event;
use crate::intents::UserIntent;
use crate::robot::Robot;

mod records;
mod state_keys;

use records::Fast;
pub use records::{
    BreakpointInfo, Changes, CondValue, Forced, Hit, Intent, Intents, KeyRec, KeyValue, Meta,
    NodeRec, WhyRec,
};
pub use state_keys::{state_keys_json, StateKey, STATE_KEYS};

/// A cooldown's end at or beyond this (2^53 ms, the largest integer a page's number holds
/// exactly) never comes.
pub const FOREVER_MS: u64 = 1 << 53;

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn state_str<S: Serializer>(state: &LifecycleState, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(state_name(*state))
}

/// `out_of_scope`, `in_scope` or `active`.
pub(crate) fn state_name(s: LifecycleState) -> &'static str {
    match s {
        LifecycleState::OutOfScope => "out_of_scope",
        LifecycleState::InScope => "in_scope",
        LifecycleState::Active => "active",
    }
}

// ----- the observer -----------------------------------------------------------------------

/// How the conditions' values are compared: live (a page shows "at tick T", or "now") or
/// for a trace (only a change of value is recorded, with its tick).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// For pages.
    Live,
    /// For `--trace-why`.
    Trace,
}

pub(super) type Tag = <UserIntent as CladUnion>::Tag;

/// What the intents' record is rebuilt on (compared on every look; the record's text only
/// when this moved).
#[derive(Clone, Debug, PartialEq)]
struct IntentKey {
    pending: Option<(Tag, u64, u8)>,
    active: Option<(Tag, u64, robot_runtime::intent::Owner)>,
    flags: [bool; 5],
}

/// The tick thread's memory of the last look (see the [module docs](self)).
pub struct Observer {
    detail: Detail,
    nodes: Vec<NodeRec>,
    /// Behaviors whose last record was not out of scope.
    live: Vec<usize>,
    /// The explained behaviors and their last records, in the same order.
    explained: Vec<usize>,
    why: Vec<WhyRec>,
    explain: Vec<usize>,
    dispatcher: Option<Option<usize>>,
    intents: Option<IntentKey>,
    keys: Vec<Option<KeyRec>>,
    /// The runner's revision at the last look (None: none yet).
    last_rev: Option<u64>,
    /// After a look at a quiet runner: its revision then, and the virtual time before which
    /// nothing changes on its own (its next wake-up).
    quiet: Option<(u64, Duration)>,
    /// `(robot tick, runner revision after it)` for the recent ticks whose revision moved:
    /// which tick a revision belongs to.
    rev_ticks: VecDeque<(u64, u64)>,
    /// Per behavior, the end of its cooldown found at this look, and who has one.
    cooling: Vec<Option<u64>>,
    cooled: Vec<usize>,
    /// The dispatcher and the watched behaviors the explained list was made for.
    explained_for: Option<(Option<usize>, Vec<BehaviorId>)>,
    /// Scratch lists (kept: no allocation once warm).
    walk: Vec<usize>,
    seen: Vec<bool>,
}

/// Ticks of revision moves remembered (a key that changed longer ago shows the oldest).
const REV_TICKS: usize = 1024;

impl Observer {
    /// An observer that has seen nothing yet (its first look is the whole state).
    pub fn new(robot: &Robot, detail: Detail) -> Self {
        let n = robot.runner().len();
        Self {
            detail,
            nodes: (0..n).map(NodeRec::blank).collect(),
            live: Vec::new(),
            explained: Vec::new(),
            why: Vec::new(),
            explain: Vec::new(),
            dispatcher: None,
            intents: None,
            keys: vec![None; STATE_KEYS.len()],
            last_rev: None,
            quiet: None,
            rev_ticks: VecDeque::new(),
            cooling: vec![None; n],
            cooled: Vec::new(),
            explained_for: None,
            walk: Vec::new(),
            seen: vec![false; n],
        }
    }

    /// Forgets what it saw (the next look is the whole state), keeping what it knows of
    /// when revisions happened.
    pub fn reset(&mut self) {
        for (i, n) in self.nodes.iter_mut().enumerate() {
            *n = NodeRec::blank(i);
        }
        self.live.clear();
        self.why.clear();
        self.explained.clear();
        self.dispatcher = None;
        self.intents = None;
        self.keys.iter_mut().for_each(|k| *k = None);
        self.last_rev = None;
        self.quiet = None;
        self.explained_for = None;
    }

    /// The behaviors explained at the last look.
    pub fn explained(&self) -> &[usize] {
        &self.explained
    }

    /// After every tick (cheap: one compare): remembers which tick the runner's revision
    /// moved on, so that a key's last change can be given its tick.
    pub fn note_tick(&mut self, robot: &Robot) {
        let rev = robot.runner().revision();
        if self.rev_ticks.back().is_none_or(|&(_, r)| r != rev) {
            if self.rev_ticks.len() == REV_TICKS {
                self.rev_ticks.pop_front();
            }
            self.rev_ticks.push_back((robot.tick(), rev));
        }
    }

    /// The robot tick a revision belongs to: the first noted tick whose revision reached it
    /// (None: before anything was noted, or not noted yet: the current tick).
    fn tick_of(&self, rev: u64, now: u64) -> Option<u64> {
        if rev == 0 {
            return None;
        }
        let k = self.rev_ticks.partition_point(|&(_, r)| r < rev);
        match self.rev_ticks.get(k) {
            Some(&(t, _)) => Some(t),
            None => Some(now),
        }
    }

    /// What changed since the last look. `watched`: the behaviors pages look at (explained
    /// with their delegates, their own class conditions included); `ticks_run`: ticks run so
    /// far (0: none); `tps`: ticks per second.
    pub fn look(
        &mut self,
        robot: &Robot,
        watched: &[BehaviorId],
        ticks_run: u64,
        tps: u32,
    ) -> Changes {
        let runner = robot.runner();
        let tick = ticks_run.checked_sub(1);
        let t_ms = tick.unwrap_or(0) * 1000 / u64::from(tps.max(1));
        let now = runner.clock().now();
        // The runner's clock runs ahead of the robot's by its first tick's period.
        let offset = ms(now).saturating_sub(t_ms);
        let mut out = Changes {
            tick,
            t_ms,
            ..Changes::default()
        };
        // The runner's own contract (what lets it skip idle ticks): after a tick that changed
        // nothing, until its next wake-up and without an input (which moves its revision),
        // its decisions stay as they are. Then no behavior's state, no intent and no
        // robot-state key can have moved since the last look, and they need no compare (a
        // waiting robot costs a heartbeat a few compares; tested against a whole look on
        // every tick). The conditions' values are compared anyway: the runner may ask a
        // condition again or keep its answer on a quiet tick, which the page shows ("on this
        // tick", or "kept since").
        let rev = runner.revision();
        let quiet = self.quiet.is_some_and(|(r, until)| r == rev && now < until);
        // What moved since the last look, in one question to the change stamps.
        let moved = match self.last_rev {
            None => Inputs::ALL,
            Some(r) if r == rev => Inputs::NONE,
            Some(r) => runner.changed_since(r),
        };
        self.last_rev = Some(rev);
        if !quiet {
            self.look_nodes(runner, now, offset, &mut out);
        }
        let dispatcher = runner
            .stack()
            .rev()
            .find(|id| !runner.delegates(*id).is_empty())
            .map(BehaviorId::index);
        if self.dispatcher != Some(dispatcher) {
            self.dispatcher = Some(dispatcher);
            out.dispatcher = Some(dispatcher);
        }
        self.look_why(runner, dispatcher, watched, moved, &mut out);
        self.quiet = match runner.next_wakeup() {
            Wakeup::EveryTick => None,
            Wakeup::At(t) => Some((rev, t)),
            Wakeup::Never => Some((rev, Duration::MAX)),
        };
        if !quiet {
            self.look_intents(robot, &mut out);
        }
        self.look_keys(runner, offset, tick.unwrap_or(0), moved, &mut out);
        out
    }

    fn look_nodes(
        &mut self,
        runner: &Runner<UserIntent, Event>,
        now: Duration,
        offset: u64,
        out: &mut Changes,
    ) {
        let tick = runner.clock().tick();
        // Cooldowns, asked of each parent in scope or active (as `inspect::statuses` does):
        // the latest end per child.
        for &c in &self.cooled {
            self.cooling[c] = None;
        }
        self.cooled.clear();
        for p in runner.stack().chain(runner.in_scope().iter().copied()) {
            let Some(b) = runner.behavior(p) else {
                continue;
            };
            for &c in runner.delegates(p) {
                if let Some(d) = b.cooldown_remaining(c, now) {
                    let until = if d == Duration::MAX {
                        FOREVER_MS
                    } else {
                        ms(now.saturating_add(d))
                            .saturating_sub(offset)
                            .min(FOREVER_MS)
                    };
                    let slot = &mut self.cooling[c.index()];
                    if slot.is_none() {
                        self.cooled.push(c.index());
                    }
                    *slot = Some(slot.map_or(until, |u: u64| u.max(until)));
                }
            }
        }
        // Who to look at: active, in scope, cooling, and whoever was at the last look.
        self.walk.clear();
        let seen = &mut self.seen;
        let mut add = |i: usize, walk: &mut Vec<usize>| {
            if i < seen.len() && !seen[i] {
                seen[i] = true;
                walk.push(i);
            }
        };
        for id in runner.stack().chain(runner.in_scope().iter().copied()) {
            add(id.index(), &mut self.walk);
        }
        for &c in &self.cooled {
            add(c, &mut self.walk);
        }
        for &i in &self.live {
            add(i, &mut self.walk);
        }
        self.live.clear();
        for k in 0..self.walk.len() {
            let i = self.walk[k];
            self.seen[i] = false;
            let id = BehaviorId::from_index(i);
            let Some(state) = runner.state(id) else {
                continue;
            };
            let wanted = runner.wanted_on_tick(id);
            let stack_position = runner.stack_pos(id);
            let mut fast = Fast {
                state,
                stack_position,
                wants: false,
                remembered: None,
                wanted_tick: None,
                cooling_until_ms: self.cooling[i],
                active_since_ms: None,
            };
            match state {
                LifecycleState::OutOfScope => {}
                LifecycleState::InScope => {
                    fast.wants = wanted == tick && tick > 0;
                    if fast.wants {
                        // The kept answer says something only when the behavior did not
                        // say yes on the last tick.
                    } else {
                        fast.wanted_tick = wanted.checked_sub(1);
                        fast.remembered = runner.view(id).remembered_answer(id);
                    }
                }
                LifecycleState::Active => {
                    fast.wants = wanted == tick && tick > 0;
                    if !fast.wants {
                        fast.wanted_tick = wanted.checked_sub(1);
                    }
                    fast.active_since_ms = runner
                        .view(id)
                        .active_for()
                        .map(|d| ms(now.saturating_sub(d)).saturating_sub(offset));
                }
            }
            // Text only on the stack (an action) or for classes that have a state.
            let action = stack_position.and_then(|_| runner.action_of(id));
            let debug = runner.debug_state(id);
            let rec = &mut self.nodes[i];
            let same = rec.fast() == fast
                && rec.action.as_deref() == action
                && rec.debug_state.as_deref() == debug;
            if !same {
                rec.set_fast(fast);
                if rec.action.as_deref() != action {
                    rec.action = action.map(Into::into);
                }
                if rec.debug_state.as_deref() != debug {
                    rec.debug_state = debug.map(Into::into);
                }
                if out.nodes.capacity() == 0 {
                    // Room for every one left (one allocation).
                    out.nodes.reserve(self.walk.len() - k);
                }
                out.nodes.push(rec.clone());
            }
            if state != LifecycleState::OutOfScope || !rec.is_blank() {
                self.live.push(i);
            }
        }
    }

    fn look_why(
        &mut self,
        runner: &Runner<UserIntent, Event>,
        dispatcher: Option<usize>,
        watched: &[BehaviorId],
        moved: Inputs,
        out: &mut Changes,
    ) {
        // The active dispatcher's children, and each watched behavior with its children
        // (the `seen` marks keep each once; they are all clear between uses): the same as at
        // the last look while the dispatcher and what the pages watch are.
        let all = self.detail == Detail::Trace;
        let same_set = self
            .explained_for
            .as_ref()
            .is_some_and(|(d, w)| *d == dispatcher && w.as_slice() == watched);
        if !same_set {
            self.rebuild_explained(runner, dispatcher, watched, out);
            self.explained_for = Some((dispatcher, watched.to_vec()));
        }
        // A behavior's gates read the robot state only, whether one of its intents is
        // pending the intent component only: each is looked at again when what it reads
        // moved since the last look (or the list is new).
        let robot_moved = !same_set || moved.intersects(original_behaviors::inputs::ROBOT);
        let intents_moved = !same_set || moved.intersects(Inputs::INTENTS);
        self.look_explained(runner, watched, all, robot_moved, intents_moved, out);
    }

    /// The list of explained behaviors for `dispatcher` and `watched`, their records kept.
    fn rebuild_explained(
        &mut self,
        runner: &Runner<UserIntent, Event>,
        dispatcher: Option<usize>,
        watched: &[BehaviorId],
        out: &mut Changes,
    ) {
        let all = self.detail == Detail::Trace;
        let mut explain = std::mem::take(&mut self.explain);
        explain.clear();
        let seen = &mut self.seen;
        let mut add = |i: usize| {
            if i < seen.len() && !seen[i] {
                seen[i] = true;
                explain.push(i);
            }
        };
        for &w in watched {
            add(w.index());
        }
        if all {
            (0..runner.len()).for_each(&mut add);
        } else {
            for p in dispatcher.map(BehaviorId::from_index).iter().chain(watched) {
                for &d in runner.delegates(*p) {
                    add(d.index());
                }
            }
        }
        for &i in &explain {
            self.seen[i] = false;
        }
        if explain != self.explained {
            // Keep the records of those still explained, in the new order.
            let mut old = std::mem::take(&mut self.why);
            self.why = explain
                .iter()
                .map(|&i| match old.iter().position(|w| w.index == i) {
                    Some(k) => old.swap_remove(k),
                    None => WhyRec {
                        index: i,
                        closed: Vec::new(),
                        intent_pending: None,
                        values: Vec::new(),
                    },
                })
                .collect();
            out.explained = Some(explain.clone());
            std::mem::swap(&mut self.explained, &mut explain);
        }
        self.explain = explain;
    }

    /// Each explained behavior's record, compared in place.
    fn look_explained(
        &mut self,
        runner: &Runner<UserIntent, Event>,
        watched: &[BehaviorId],
        all: bool,
        robot_moved: bool,
        intents_moved: bool,
        out: &mut Changes,
    ) {
        let tick = runner.clock().tick();
        let mut owned = Vec::new();
        for k in 0..self.explained.len() {
            let i = self.explained[k];
            let id = BehaviorId::from_index(i);
            let (wants, cancel) = runner.conditions(id);
            // A class's own conditions (a state machine's transitions: labels built on each
            // call) only for what a page selected, or for a trace.
            let with_owned = all || watched.contains(&id);
            let conditions = wants.is_some() || cancel.is_some() || with_owned;
            if !(robot_moved || intents_moved || conditions) {
                continue;
            }
            let rec = &mut self.why[k];
            let mut changed = false;
            if robot_moved {
                let Some(gates) = inspect::gates(runner, id) else {
                    continue;
                };
                let closed = gates.iter().filter(|g| !g.open).map(|g| g.name);
                if !rec.closed.iter().copied().eq(closed.clone()) {
                    rec.closed = closed.collect();
                    changed = true;
                }
            }
            if intents_moved {
                let pending = inspect::intent_pending(runner, id);
                if rec.intent_pending != pending {
                    rec.intent_pending = pending;
                    changed = true;
                }
            }
            let mut n = 0;
            let detail = self.detail;
            let mut visit = |c: &Condition<UserIntent, Event>, values: &mut Vec<CondValue>| {
                walk_condition(c, tick, detail, values, &mut n, &mut changed);
            };
            for c in wants.into_iter().chain(cancel) {
                visit(c, &mut rec.values);
            }
            if with_owned {
                if let Some(b) = runner.behavior(id) {
                    owned.clear();
                    b.owned_conditions(&mut owned);
                    for (_, c) in &owned {
                        visit(c, &mut rec.values);
                    }
                }
            }
            if rec.values.len() != n {
                rec.values.truncate(n);
                changed = true;
            }
            if changed {
                if out.why.capacity() == 0 {
                    out.why.reserve(self.explained.len() - k);
                }
                out.why.push(rec.clone());
            }
        }
    }

    fn look_intents(&mut self, robot: &Robot, out: &mut Changes) {
        let runner = robot.runner();
        let c = runner.intents();
        let key = IntentKey {
            pending: c
                .pending()
                .map(|p| (p.tag(), p.since_tick(), p.meta().priority.0)),
            active: c
                .active()
                .map(|a| (a.tag(), a.activated_tick(), a.owner().clone())),
            flags: [
                c.is_trigger_word_pending(),
                c.was_unclaimed(),
                c.was_error(),
                c.is_cloud_stream_open(),
                c.is_timeout_held(),
            ],
        };
        if self.intents.as_ref() == Some(&key) {
            return;
        }
        // The component counts its own ticks: an age in them is an age in the robot's.
        let now = c.tick();
        let robot_now = robot.tick();
        let since = |t: u64| robot_now.saturating_sub(now.saturating_sub(t));
        let pending = c.pending().map(|p| Intent {
            intent: p.intent().clone(),
            source: p.source(),
            matched: p.matched().clone(),
            meta: p.meta().into(),
            since_tick: since(p.since_tick()),
            owner: None,
        });
        let active = c.active().map(|a| Intent {
            intent: a.intent().clone(),
            source: a.source(),
            matched: a.matched().clone(),
            meta: a.meta().into(),
            since_tick: since(a.activated_tick()),
            owner: runner.owner_name(a.owner()).map(str::to_owned),
        });
        let [trigger_word_pending, unclaimed_flag, error_flag, stream_open, deadline_held] =
            key.flags;
        out.intents = Some(Intents {
            pending,
            active,
            trigger_word_pending,
            unclaimed_flag,
            error_flag,
            stream_open,
            deadline_held,
        });
        self.intents = Some(key);
    }

    fn look_keys(
        &mut self,
        runner: &Runner<UserIntent, Event>,
        offset: u64,
        tick: u64,
        moved: Inputs,
        out: &mut Changes,
    ) {
        // Only the keys whose inputs moved since the last look are read.
        if !moved.intersects(original_behaviors::inputs::ROBOT) {
            return;
        }
        let r = runner.robot();
        for (k, key) in STATE_KEYS.iter().enumerate() {
            if !moved.intersects(key.inputs) && self.keys[k].is_some() {
                continue;
            }
            let value = (key.read)(r, offset);
            let changed_tick = self.tick_of(runner.changed_at(key.inputs), tick);
            let rec = KeyRec {
                key: k,
                value,
                changed_tick,
            };
            if self.keys[k].as_ref() != Some(&rec) {
                if out.robot.capacity() == 0 {
                    out.robot.reserve(STATE_KEYS.len() - k);
                }
                out.robot.push(rec.clone());
                self.keys[k] = Some(rec);
            }
        }
    }
}

/// One condition and its sub-conditions, depth first, compared in place with `values`
/// from position `k` on.
fn walk_condition(
    c: &Condition<UserIntent, Event>,
    tick: u64,
    detail: Detail,
    values: &mut Vec<CondValue>,
    k: &mut usize,
    changed: &mut bool,
) {
    let v = match c.last() {
        None => CondValue::Never,
        Some((t, v)) if t == tick && detail == Detail::Live => CondValue::Now(v),
        Some((t, v)) => CondValue::At(v, t.saturating_sub(1)),
    };
    match values.get_mut(*k) {
        Some(old) => {
            let same = match (detail, *old, v) {
                // A trace records a change of value, with its tick.
                (Detail::Trace, CondValue::At(a, _), CondValue::At(b, _)) => a == b,
                _ => *old == v,
            };
            if !same {
                *old = v;
                *changed = true;
            }
        }
        None => {
            values.push(v);
            *changed = true;
        }
    }
    *k += 1;
    for s in c.children() {
        walk_condition(s, tick, detail, values, k, changed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::RunConfig;

    #[test]
    fn every_key_reads_and_the_names_are_unique() {
        let robot = Robot::new(RunConfig::default());
        let keys = state_keys_json(robot.runner());
        let names: Vec<&str> = STATE_KEYS.iter().map(|k| k.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(keys.as_array().unwrap().len(), names.len());
        for k in STATE_KEYS {
            let v = (k.read)(robot.runner().robot(), 0);
            assert_eq!(
                k.numeric,
                matches!(v, KeyValue::Num(_)) || (k.name == "prox_mm" && v == KeyValue::None),
                "{}",
                k.name
            );
        }
    }

    const TPS: u32 = 50;

    fn original(config: RunConfig) -> Robot {
        use crate::tree_files;
        use robot_runtime::behavior::{LoadOptions, Source};
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/behaviors/original");
        let files = tree_files::read_tree(std::path::Path::new(dir))
            .unwrap()
            .files;
        let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
        let base = tree_files::default_base(&files).unwrap();
        Robot::with_sources(&sources, base, &LoadOptions::with_stand_ins(), config)
            .unwrap()
            .0
    }

    /// On every tick of the default scenario and a wait after it, on the shipped and the
    /// original robot's tree, with and without a page watching HighLevelAI, live and for a
    /// trace: the changes of each look, merged one after the other, are exactly the whole
    /// state a fresh look gives (nothing is lost, nothing stale stays); and a robot that only
    /// waits changes nothing but the clock (the test fails both ways).
    #[test]
    fn merged_changes_are_the_whole_state_and_waiting_changes_nothing() {
        use crate::robot::DEFAULT_SCENARIO;
        use crate::scenario::Scenario;
        let config = RunConfig {
            ticks_per_second: TPS,
            ..RunConfig::default()
        };
        let scenario = Scenario::parse(DEFAULT_SCENARIO, TPS);
        let last = scenario.events.last().map_or(0, |e| e.when.tick(TPS));
        for (name, make) in [
            ("shipped", Robot::new as fn(RunConfig) -> Robot),
            ("original", original),
        ] {
            for (watch, detail) in [
                (false, Detail::Live),
                (true, Detail::Live),
                (false, Detail::Trace),
            ] {
                let mut robot = make(config.clone());
                let watched: Vec<BehaviorId> = if watch {
                    robot.runner().id("HighLevelAI").into_iter().collect()
                } else {
                    Vec::new()
                };
                let mut observer = Observer::new(&robot, detail);
                let mut merged = Changes {
                    full: true,
                    ..Changes::default()
                };
                let (mut next, mut quiet, mut moved) = (0, 0, 0);
                for t in 0..last + 20 * u64::from(TPS) {
                    robot.begin_tick(t);
                    for e in scenario.due(&mut next, t, TPS) {
                        robot.deliver(e, Duration::ZERO);
                    }
                    robot.end_tick(Duration::ZERO);
                    robot.clear_entries();
                    observer.note_tick(&robot);
                    let changes = observer.look(&robot, &watched, t + 1, TPS);
                    if changes.only_clock() {
                        quiet += 1;
                    } else {
                        moved += 1;
                    }
                    merged.merge(changes);
                    // Every tick on the shipped tree, every 7th on the original's (the whole
                    // check costs a whole look).
                    if name == "original" && t % 7 != 0 && t > 20 {
                        continue;
                    }
                    let mut fresh = Observer::new(&robot, detail);
                    fresh.rev_ticks = observer.rev_ticks.clone();
                    let mut whole = fresh.look(&robot, &watched, t + 1, TPS);
                    whole.full = true;
                    whole.explained = Some(fresh.explained().to_vec());
                    let mut m = merged.clone();
                    if m.explained.is_none() {
                        m.explained = Some(Vec::new());
                    }
                    m.dispatcher.get_or_insert(None);
                    whole.dispatcher.get_or_insert(None);
                    // Lists are sets by index: their order says nothing.
                    let sorted = |mut v: serde_json::Value| {
                        for k in ["nodes", "why", "robot"] {
                            if let Some(l) = v[k].as_array_mut() {
                                l.sort_by_key(|x| {
                                    x.get("index").or_else(|| x.get(0)).and_then(|i| i.as_u64())
                                });
                            }
                        }
                        v
                    };
                    let (a, b) = (
                        sorted(serde_json::to_value(&m).unwrap()),
                        sorted(serde_json::to_value(&whole).unwrap()),
                    );
                    if detail == Detail::Trace {
                        // A trace keeps the tick a value changed on, a fresh look the last
                        // evaluation's: compare the values only.
                        let strip = |v: &serde_json::Value| {
                            let mut v = v.clone();
                            for w in v["why"].as_array_mut().into_iter().flatten() {
                                for c in w["values"].as_array_mut().into_iter().flatten() {
                                    if let Some(a) = c.as_array_mut() {
                                        a.truncate(1);
                                    }
                                }
                            }
                            v
                        };
                        assert_eq!(strip(&a), strip(&b), "{name}, trace, tick {t}");
                    } else {
                        assert_eq!(a, b, "{name}, watching {watch}, tick {t}");
                    }
                }
                assert!(
                    quiet > 5 * moved && moved > 5,
                    "{name}, watching {watch}, {detail:?}: {quiet} quiet looks, {moved} with changes"
                );
            }
        }
    }

    #[test]
    fn merging_keeps_the_later_value_and_a_whole_state_drops_what_went_blank() {
        let node = |i: usize, state: LifecycleState| NodeRec {
            state,
            ..NodeRec::blank(i)
        };
        let mut full = Changes {
            full: true,
            ..Changes::default()
        };
        let a = Changes {
            nodes: vec![
                node(1, LifecycleState::Active),
                node(2, LifecycleState::InScope),
            ],
            ..Changes::default()
        };
        full.merge(a);
        let b = Changes {
            tick: Some(7),
            nodes: vec![node(1, LifecycleState::OutOfScope)],
            explained: Some(vec![2]),
            why: vec![WhyRec {
                index: 2,
                closed: vec![],
                intent_pending: None,
                values: vec![CondValue::Now(true)],
            }],
            ..Changes::default()
        };
        let mut delta = b.clone();
        full.merge(b);
        assert_eq!(full.tick, Some(7));
        assert_eq!(full.nodes.iter().map(|n| n.index).collect::<Vec<_>>(), [2]);
        assert!(full.full);
        // A delta keeps the blank record (the page must hear of it).
        delta.merge(Changes {
            explained: Some(vec![]),
            ..Changes::default()
        });
        assert_eq!(delta.nodes.len(), 1);
        assert_eq!(delta.explained, Some(vec![]));
        let json = serde_json::to_value(&full).unwrap();
        assert_eq!(json["why"][0]["values"], serde_json::json!([[true]]));
        assert!(json.get("dispatcher").is_none(), "unchanged: absent");
    }
}
