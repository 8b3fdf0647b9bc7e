//! The robot: the intent component over our map, the behavior tree of
//! `behaviors/robot.json` on `robot_runtime::behavior`, ROS4HRI intents through
//! `robot_runtime::hri` and the mission controller (`crate::mission`), and a tick loop that
//! feeds them a [`Scenario`] and records a timeline.
//!
//! Each tick, in order:
//!
//! 1. the scenario events due on this tick, in file order: every request (a cloud datagram,
//!    an app intent, an HRI message as JSON or a packed envelope) enters through the intent
//!    component's one intake ([`Robot::submit`]: lookup, feature gate, whitelist, pending
//!    slot; an HRI request goes to the behaviors, the mission controller or both as its
//!    `hri_intent_map.json` entry says, and the robot hands what the intake queued for the
//!    mission controller to it); live inputs (Zenoh, ROS 2, the inspector) are submitted the
//!    same way. Trigger words go to the component; action completions end the running action
//!    of that name;
//! 2. the behavior runner's tick (the component's `update`, then every behavior on the
//!    stack and in scope: claims happen here);
//! 3. the mission controller's tick (capabilities advance, halts progress, queued requests
//!    start).
//!
//! Everything the component, the behaviors, their actions and the controller report becomes
//! a timeline [`Entry`].

use std::time::{Duration, Instant};

use robot_runtime::arbiter::{Body, SharedArbiter, TrackLocker};
use robot_runtime::behavior::{export, LoadError, LoadOptions, LoadReport, Runner, Source, Wakeup};
use robot_runtime::hri::Timestamp;
use robot_runtime::intent::{IntakeOutcome, IntentRequest};

use crate::actions::{Completions, RobotActions};
use crate::behavior_classes::{self, Event};

use crate::intents::{self, Tag, UserIntent};
use crate::log::{Item, Log};
use crate::mission::{arbiter_what, Hri};
use crate::scenario::{Scenario, TimedEvent};
use crate::timeline::{Entry, What, LIVE_INPUT};

mod describe;
mod events;

use describe::base;
pub use describe::{
    describe_bytes, describe_match, describe_request, input_kind, map_entry, payload_json,
};

/// The behavior tree shipped with the robot (`behaviors/robot.json`).
pub const DEFAULT_TREE: &str = include_str!("../../behaviors/robot.json");
/// The ID of the tree's base behavior.
pub const ROOT: &str = "GlobalInterruptions";
/// The scenario `cargo run -p robot-example` plays (`scenarios/default.jsonl`).
pub const DEFAULT_SCENARIO: &str = include_str!("../../scenarios/default.jsonl");

/// Run settings.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Ticks per second (the original engine ticked about every 60 ms; default 20).
    pub ticks_per_second: u32,
    /// After the last scenario event, keep ticking at most this many ticks until the robot
    /// is idle (nothing pending or running, the base behaviors only).
    pub settle_ticks: u64,
    /// Record the stack, and the tree as DOT and Mermaid, as they are at the end of this
    /// tick ([`Run::snapshot`]).
    pub snapshot_at_tick: Option<u64>,
    /// Skip idle stretches (default true; see [`Robot::run_streaming`]). The timeline is the
    /// same either way (tested); off, every tick runs.
    pub skip_idle: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            ticks_per_second: 20,
            settle_ticks: 600,
            snapshot_at_tick: None,
            skip_idle: true,
        }
    }
}

/// One measured path from an input's arrival to the behavior that claimed what it asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latency {
    /// The scenario line of the input.
    pub line: usize,
    /// The claimed intent.
    pub intent: &'static str,
    /// The behavior that claimed it.
    pub behavior: String,
    /// Ticks from arrival to claim.
    pub ticks: u64,
    /// CPU time spent in the robot's code from handling the input to the claim (the input
    /// and every tick in between; the time between ticks is not counted). Not part of the
    /// deterministic timeline.
    pub cpu: Duration,
}

/// The stack and the tree at one tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The tick.
    pub tick: u64,
    /// The stack, bottom first.
    pub stack: Vec<String>,
    /// The tree as Graphviz DOT, the stack highlighted.
    pub dot: String,
    /// The tree as a Mermaid flowchart, the stack highlighted.
    pub mermaid: String,
}

/// The result of a run.
#[derive(Debug)]
pub struct Run {
    /// The timeline.
    pub entries: Vec<Entry>,
    /// Inputs whose intent was claimed, with their latency.
    pub latencies: Vec<Latency>,
    /// The snapshot of [`RunConfig::snapshot_at_tick`] if the run reached it, else of the
    /// last tick.
    pub snapshot: Snapshot,
    /// Ticks the run spans (the last tick's number plus one).
    pub ticks: u64,
    /// Ticks actually run; the others were idle and skipped.
    pub ticks_run: u64,
}

/// A user intent the robot's cloud pipeline recognised (a voice command), as
/// [`Robot::take_recognised`] hands it out (for republishing it to other systems).
#[derive(Clone, Debug, PartialEq)]
pub struct Recognised {
    /// The cloud intent string it came from.
    pub cloud_intent: &'static str,
    /// The user intent it became.
    pub intent: UserIntent,
}

/// Where a request submitted to the robot ([`Robot::submit`]) came from, for its timeline
/// line.
#[derive(Clone, Debug, Default)]
pub struct Arrival {
    /// Its scenario line, or [`LIVE_INPUT`] for a request that arrived while the robot ran.
    pub line: usize,
    /// What the user said (a scenario line's `say`).
    pub say: Option<String>,
    /// How the input line describes it, when its transport says more than the request
    /// (`None`: described from the decoded request).
    pub detail: Option<String>,
    /// Entries reported right after the input line (how the transport read it).
    pub notes: Vec<What>,
}

impl Arrival {
    /// A request that arrived while the robot ran (a transport, a tool).
    pub fn live() -> Self {
        Arrival {
            line: LIVE_INPUT,
            ..Arrival::default()
        }
    }
}

/// The robot.
pub struct Robot {
    runner: Runner<UserIntent, Event>,
    hri: Hri,
    arbiter: SharedArbiter<Body>,
    log: Log,
    completions: Completions,
    config: RunConfig,
    entries: Vec<Entry>,
    latencies: Vec<Latency>,
    /// The input the pending intent came from: (line, tick, CPU spent so far).
    pending_from: Option<(usize, u64, Duration)>,
    snapshot: Option<Snapshot>,
    last_stack: Vec<String>,
    /// The current tick (0-based).
    tick: u64,
    /// Recognised cloud intents not yet taken (`None`: not recorded).
    recognised: Option<Vec<Recognised>>,
    /// The last input line: its tick, kind, detail and `say` (a pending intent of the same
    /// tick came from it).
    last_input: Option<(u64, &'static str, String, Option<String>)>,
}

impl std::fmt::Debug for Robot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Robot")
            .field("tick", &self.tick)
            .field("stack", &self.last_stack)
            .finish_non_exhaustive()
    }
}

impl Robot {
    /// The robot with the shipped tree.
    pub fn new(config: RunConfig) -> Self {
        Self::with_tree("behaviors/robot.json", DEFAULT_TREE, config)
            .expect("the shipped tree loads (tests/coverage.rs)")
    }

    /// The robot with another tree (its base behavior must be [`ROOT`]). Every problem of
    /// the tree is in the error, with file and JSON path.
    pub fn with_tree(file: &str, text: &str, config: RunConfig) -> Result<Self, LoadError> {
        Self::with_sources(
            &[Source::new(file, text)],
            ROOT,
            &LoadOptions::default(),
            config,
        )
        .map(|(robot, _)| robot)
    }

    /// The robot with a tree of several sources (a directory of the original engine's
    /// files) and base behavior `base`; also returns what the load found (its warnings).
    pub fn with_sources(
        sources: &[Source<'_>],
        base: &str,
        options: &LoadOptions,
        config: RunConfig,
    ) -> Result<(Self, LoadReport), LoadError> {
        let log = Log::default();
        let completions = Completions::default();
        // The one arbiter of the body: the behaviors' actions and the mission controller's
        // capabilities claim through it; what happens between them goes to the timeline.
        let arbiter = SharedArbiter::<Body>::new();
        let sink = log.clone();
        arbiter
            .lock()
            .subscribe(move |e| sink.push(Item::What(arbiter_what(e))));
        let loaded =
            behavior_classes::load_sources(sources, base, options, &log, &completions, &arbiter)?;
        let (tree, report) = (loaded.tree, loaded.report);
        let mut component = intents::component();
        let sink = log.clone();
        component.subscribe(move |ev| sink.push(Item::Intent(ev.clone())));
        let mut runner = Runner::new(tree, component);
        runner.set_action_factory(Box::new(RobotActions::new(&log, &arbiter)));
        // `tracksToLockWhileActivated` claims through the same arbiter (its timeline
        // lines are the arbiter's events).
        runner.set_track_locks(Box::new(TrackLocker::body(&arbiter)));
        // A stock robot: its tree's feature gates see the stock feature set.
        for feature in intents::STOCK_FEATURES_OFF {
            original_behaviors::RobotAccessMut::robot_mut(&mut runner).set_feature(feature, false);
        }
        let tick = Duration::from_micros(1_000_000 / u64::from(config.ticks_per_second.max(1)));
        let hri = Hri::new(tick, &completions, &arbiter);
        Ok((
            Self {
                runner,
                hri,
                arbiter,
                log,
                completions,
                config,
                entries: Vec::new(),
                latencies: Vec::new(),
                pending_from: None,
                snapshot: None,
                last_stack: Vec::new(),
                tick: 0,
                recognised: None,
                last_input: None,
            },
            report,
        ))
    }

    /// The behavior runner (the tree, the stack, the intent component).
    pub fn runner(&self) -> &Runner<UserIntent, Event> {
        &self.runner
    }

    /// The behavior runner, mutably (developer tools: the inspector sets user intents and
    /// forces behaviors between ticks).
    pub fn runner_mut(&mut self) -> &mut Runner<UserIntent, Event> {
        &mut self.runner
    }

    /// The one arbiter of the body (who holds which part, for tools and tests).
    pub fn arbiter(&self) -> &SharedArbiter<Body> {
        &self.arbiter
    }

    /// The current tick (the last one begun).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Adds an entry to the timeline at the current tick (an input from a developer tool).
    pub fn record(&mut self, what: What) {
        self.push(what);
    }

    fn t_ms(&self, tick: u64) -> u64 {
        tick * 1000 / u64::from(self.config.ticks_per_second.max(1))
    }

    fn dt(&self) -> Duration {
        Duration::from_micros(1_000_000 / u64::from(self.config.ticks_per_second.max(1)))
    }

    fn push(&mut self, mut what: What) {
        // Text from outside is escaped once, here: the timeline, the trace and the
        // inspector's page show one line per entry whatever arrived.
        what.escape();
        let tick = self.tick;
        if let What::Input {
            kind, detail, say, ..
        } = &what
        {
            self.last_input = Some((tick, kind, detail.clone(), say.clone()));
        }
        let t_ms = self.t_ms(tick);
        self.entries.push(Entry { tick, t_ms, what });
    }

    /// The stack's frames, base first: each behavior's name and its state (a state machine's).
    fn frames(&self) -> impl Iterator<Item = (&str, Option<&str>)> + '_ {
        self.runner.stack().map(|id| {
            let name = self.runner.name(id).map_or("?", |n| n.as_str());
            (name, self.runner.debug_state(id))
        })
    }

    /// The stack as the timeline shows it: behavior names, a state machine with its state.
    pub fn stack(&self) -> Vec<String> {
        self.frames()
            .map(|(name, state)| match state {
                Some(state) => format!("{name}({state})"),
                None => name.to_owned(),
            })
            .collect()
    }

    /// The stack, as [`stack`](Self::stack) would write it, is still the last one recorded
    /// (compared in place: most ticks change nothing, and this runs on every tick).
    fn stack_is_last(&self) -> bool {
        let mut last = self.last_stack.iter();
        let same = self.frames().all(|(name, state)| {
            let Some(written) = last.next() else {
                return false;
            };
            match state {
                None => written == name,
                Some(state) => {
                    written
                        .strip_prefix(name)
                        .and_then(|r| r.strip_prefix('('))
                        .and_then(|r| r.strip_suffix(')'))
                        == Some(state)
                }
            }
        });
        same && last.next().is_none()
    }

    fn snapshot_now(&self) -> Snapshot {
        Snapshot {
            tick: self.tick,
            stack: self.stack(),
            dot: export::to_dot(&self.runner),
            mermaid: export::to_mermaid(&self.runner),
        }
    }

    /// Runs `scenario` to its end (plus settling) and returns the timeline. The scenario's
    /// rejected lines are reported at tick 0; the rest run. The whole timeline is kept in
    /// memory: a long run prints through [`run_streaming`](Self::run_streaming) instead.
    pub fn run(self, scenario: &Scenario) -> Run {
        let mut entries = Vec::new();
        let mut run = self.run_streaming(scenario, |tick| entries.extend_from_slice(tick));
        run.entries = entries;
        run
    }

    /// [`run`](Self::run), handing the timeline to `sink` tick by tick instead of keeping it
    /// ([`Run::entries`] is empty): memory stays bounded on a run of any length (what the
    /// binary does).
    ///
    /// Idle stretches are skipped as a discrete-event simulator does: after a tick that
    /// changed nothing, while nothing waits on a deadline of the intent component and the
    /// mission controller has nothing to poll, the robot jumps to the first tick on which
    /// something can happen — the next scenario line, or the behaviors' next wake-up
    /// ([`Runner::next_wakeup`](robot_runtime::behavior::Runner::next_wakeup): a state
    /// machine's timer, a cooldown, a condition waiting on time, the end of an animation
    /// or of a timed `Wait`) — instead of ticking through (see
    /// [`next_busy_tick`](Self::next_busy_tick)). The timeline is the same as ticking every
    /// tick; a run costs time in proportion to what happens, not to the robot time it spans.
    pub fn run_streaming(mut self, scenario: &Scenario, mut sink: impl FnMut(&[Entry])) -> Run {
        for e in &scenario.errors {
            self.push(What::ScenarioError {
                line: e.line,
                problem: e.problem.to_string(),
            });
        }
        let tps = self.config.ticks_per_second.max(1);
        let last = scenario.events.last().map_or(0, |e| e.when.tick(tps));
        let mut next = 0;
        let mut tick = 0;
        let mut cpu = Duration::ZERO;
        let mut ticks_run = 0;
        loop {
            let start = Instant::now();
            ticks_run += 1;
            self.tick = tick;
            let stack_changes = self.runner.stack_changes();
            let before = self.entries.len();
            let due = scenario.due(&mut next, tick, tps);
            let delivered = !due.is_empty();
            for e in due {
                self.deliver(e, cpu + start.elapsed());
            }
            self.end_tick(cpu + start.elapsed());
            cpu += start.elapsed();
            if self.config.snapshot_at_tick == Some(tick) {
                self.snapshot = Some(self.snapshot_now());
            }
            let changed = delivered
                || self.entries.len() != before
                || self.runner.stack_changes() != stack_changes;
            if !self.entries.is_empty() {
                sink(&self.entries);
                self.entries.clear();
            }
            if tick >= last && next >= scenario.events.len() {
                // Settling is counted in ticks (skipped ones too), from the last input.
                if self.is_idle() || tick - last >= self.config.settle_ticks {
                    break;
                }
            }
            let mut to = tick + 1;
            if !changed && self.config.skip_idle {
                let next_line = scenario.events.get(next).map(|e| e.when.tick(tps));
                let snapshot = self.config.snapshot_at_tick.filter(|t| *t > tick);
                let settled = last.saturating_add(self.config.settle_ticks);
                if let Some(busy) = self.next_busy_tick([next_line, snapshot, Some(settled)]) {
                    if busy > to {
                        self.runner.skip_idle_ticks(busy - to, self.dt());
                        to = busy;
                    }
                }
            }
            tick = to;
        }
        let snapshot = self.snapshot.take().unwrap_or_else(|| self.snapshot_now());
        if !self.entries.is_empty() {
            sink(&self.entries);
            self.entries.clear();
        }
        Run {
            entries: Vec::new(),
            latencies: self.latencies,
            snapshot,
            ticks: tick + 1,
            ticks_run,
        }
    }

    /// After a tick (the current one) that changed nothing: the first later tick on which
    /// something can happen, given the ticks of the next inputs (`None`: no such input), or
    /// `None` when the robot is not provably quiet and must tick on.
    ///
    /// Provably quiet: nothing in the intent component counts ticks (no pending intent, no
    /// trigger word; no unclaimed flag either), the mission controller has nothing running,
    /// queued or to poll, and the behaviors' next wake-up is known: the runner's, which
    /// covers its stack (actions with their ends, dispatchers with the conditions of the
    /// children they ask, state machines with their transitions) and says
    /// [`Wakeup::EveryTick`] after a tick that changed the robot state, the intents or the
    /// stack.
    pub fn next_busy_tick(&self, inputs: impl IntoIterator<Item = Option<u64>>) -> Option<u64> {
        let intents = self.runner.intents();
        if intents.is_any_pending()
            || intents.is_trigger_word_pending()
            || intents.was_unclaimed()
            || !self.hri.is_quiescent()
        {
            return None;
        }
        let after = self.tick + 1;
        let wakeup = self.runner.next_wakeup();
        if wakeup == Wakeup::EveryTick {
            return None;
        }
        // The runner's clock stands at the end of this tick; a tick advances it by one
        // period first. The first tick whose time reaches the wake-up may act.
        let wake = wakeup
            .ticks_from(self.runner.clock().now(), self.dt())
            .map(|ticks| self.tick.saturating_add(ticks.max(1)));
        let busy = inputs.into_iter().flatten().chain(wake).min();
        // Nothing will ever happen: the caller stops anyway once the inputs are done.
        Some(busy.unwrap_or(after).max(after))
    }

    /// Nothing pending, active or running; the stack is down to its idle behaviors.
    pub fn is_idle(&self) -> bool {
        let intents = self.runner.intents();
        !intents.is_any_pending_or_active()
            && !intents.is_trigger_word_pending()
            && !intents.was_unclaimed()
            && self.hri.is_idle()
            && self
                .runner
                .top()
                .and_then(|id| self.runner.class(id))
                .is_some_and(|c| c == "Wait")
    }

    /// Starts tick `tick` (inputs delivered now are handled on it).
    pub fn begin_tick(&mut self, tick: u64) {
        self.tick = tick;
    }

    /// Delivers one scenario event during the current tick. `cpu` is the CPU time the run
    /// has spent so far (for [`Latency::cpu`]).
    pub fn deliver(&mut self, event: &TimedEvent, cpu: Duration) {
        self.input(event, cpu);
    }

    /// Ends the current tick: the behaviors run (and claim what is pending), then the
    /// mission controller.
    pub fn end_tick(&mut self, cpu: Duration) {
        let dt = self.dt();
        self.runner.tick(dt, &[]);
        self.drain(cpu);
        let now = self.t_ms(self.tick);
        let whats = self.hri.tick(now);
        if self.hri.take_state_changed() {
            self.runner
                .intents_mut()
                .hri_intake_mut()
                .note_state_change();
        }
        self.drain(cpu);
        for w in whats {
            self.push(w);
        }
        if !self.stack_is_last() {
            let stack = self.stack();
            let common = stack
                .iter()
                .zip(&self.last_stack)
                .take_while(|(a, b)| base(a) == base(b))
                .count();
            let old = std::mem::take(&mut self.last_stack);
            for b in old[common..].iter().rev() {
                self.push(What::Behavior {
                    behavior: base(b).to_owned(),
                    change: "deactivated",
                    reason: None,
                });
            }
            for b in &stack[common..] {
                self.push(What::Behavior {
                    behavior: base(b).to_owned(),
                    change: "activated",
                    reason: None,
                });
            }
            self.push(What::Stack {
                stack: stack.clone(),
            });
            self.last_stack = stack;
        }
    }

    /// The timeline so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Records a problem with an input that never reached the robot as an event (a sample a
    /// transport refused, messages a full queue dropped): the timeline says it, and the
    /// robot goes on.
    pub fn report_ignored(&mut self, reason: impl Into<String>) {
        self.push(What::InputIgnored {
            reason: reason.into(),
        });
    }

    /// Records a timeline entry that comes from outside the robot's components (what a
    /// transport did: a message published, a value read by its rule).
    pub fn report(&mut self, what: What) {
        self.push(what);
    }

    /// From now on, remember every user intent the cloud pipeline recognises (a cloud
    /// intent matched by the map) until [`Robot::take_recognised`] takes it.
    pub fn record_recognised(&mut self) {
        self.recognised.get_or_insert_with(Vec::new);
    }

    /// The user intents recognised from the cloud since the last call, oldest first.
    pub fn take_recognised(&mut self) -> Vec<Recognised> {
        self.recognised
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// The robot's time of the current tick, as HRI requests are stamped with it.
    pub fn now(&self) -> Timestamp {
        Timestamp(self.t_ms(self.tick))
    }

    /// Submits `request` to the intent component's one intake during the current tick: an
    /// input line (described from the request as the intake decoded it, unless `arrival`
    /// says more), `arrival`'s notes, what the intake reported (every source alike), then the
    /// requests it routed to the mission controller, handed to it. Returns the intake's
    /// outcome.
    pub fn submit(
        &mut self,
        request: impl IntentRequest<UserIntent>,
        arrival: Arrival,
        cpu: Duration,
    ) -> IntakeOutcome<Tag> {
        let Arrival {
            line,
            say,
            detail,
            notes,
        } = arrival;
        let (outcome, (kind, detail)) = self.runner.intents_mut().submit_with(request, |r| {
            (
                input_kind(r.source()),
                detail.unwrap_or_else(|| describe_request(r)),
            )
        });
        self.push(What::Input {
            line,
            kind,
            detail,
            say,
        });
        for w in notes {
            self.push(w);
        }
        // What the intake said (its events), then what the mission controller decided.
        self.settle_input(line, true, cpu);
        let records: Vec<_> = self.runner.intents_mut().take_mission_requests().collect();
        for record in records {
            let whats = self.hri.schedule(record);
            for w in whats {
                self.push(w);
            }
            self.drain(cpu);
        }
        outcome
    }

    /// Forgets the timeline so far (a long-running robot that does not keep it).
    pub fn clear_entries(&mut self) {
        self.entries.clear();
        self.latencies.clear();
    }

    /// The intent component.
    pub fn intents(&self) -> &robot_runtime::intent::IntentComponent<UserIntent> {
        self.runner.intents()
    }

    fn drain(&mut self, cpu: Duration) {
        for item in self.log.take() {
            match item {
                Item::Intent(ev) => self.intent_event(ev, cpu),
                Item::What(w) => self.push(w),
            }
        }
    }

    fn arrival(&self, e: &TimedEvent) -> Arrival {
        Arrival {
            line: e.line,
            say: e.say.clone(),
            ..Arrival::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The in-place comparison finds exactly the ticks on which the written stack changed,
    /// on every tick of the default scenario (state machines change state there, behaviors
    /// come and go), and the recorded stack is the written one after each tick.
    #[test]
    fn stack_changes_are_found_in_place() {
        let tps = RunConfig::default().ticks_per_second.max(1);
        let scenario = Scenario::parse(DEFAULT_SCENARIO, tps);
        let mut robot = Robot::new(RunConfig::default());
        let last = scenario.events.last().map_or(0, |e| e.when.tick(tps));
        let (mut next, mut changes, mut same) = (0, 0, 0);
        for tick in 0..last + 200 {
            robot.begin_tick(tick);
            for e in scenario.due(&mut next, tick, tps) {
                robot.deliver(e, Duration::ZERO);
            }
            let before = robot.last_stack.clone();
            robot.end_tick(Duration::ZERO);
            let now = robot.stack();
            assert_eq!(robot.last_stack, now, "tick {tick}");
            assert!(robot.stack_is_last(), "tick {tick}");
            let recorded = robot
                .entries()
                .iter()
                .any(|e| matches!(e.what, What::Stack { .. }));
            assert_eq!(
                recorded,
                before != now,
                "tick {tick}: {before:?} -> {now:?}"
            );
            if recorded {
                changes += 1;
            } else {
                same += 1;
            }
            robot.clear_entries();
        }
        assert!(
            changes >= 3 && same > changes,
            "{changes} changes, {same} same"
        );
        // A state written differently is a change.
        let mut robot = Robot::new(RunConfig::default());
        robot.begin_tick(0);
        robot.end_tick(Duration::ZERO);
        let top = robot.last_stack.last_mut().unwrap();
        top.push_str("(x)");
        assert!(!robot.stack_is_last());
        robot.last_stack.pop();
        assert!(!robot.stack_is_last());
    }
}
