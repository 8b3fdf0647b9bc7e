//! The robot ticking in real time with the inspector: scenario events when due, live
//! inputs (Zenoh, ROS 2: any source, through the `inputs` callback), the pages' commands
//! (inputs for the next tick, user intents, forcing, pause / step / resume, breakpoints),
//! and, for a trace recorded with `--trace-why`, what changed in the robot on each tick.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use robot_runtime::behavior::BehaviorId;
use robot_runtime::intent::shed::{hri_importance, Pushed, ShedQueue};
use robot_runtime::intent::{Importance, Request as IntentRequest};
use robot_runtime::wire::WireView;

use super::breakpoints::Breakpoints;
use super::hub::Request;
use super::observe::{Changes, Detail, Hit, Observer};
use super::protocol::{self, Action};
use super::session::{Inspector, Progress};
use crate::clad::cloud_mic::MessageView;
use crate::intents::{UserIntent, RANKER};
use crate::robot::{describe_request, Arrival, Robot};
use crate::scenario::{Scenario, ScenarioEvent, TimedEvent, When};
use crate::timeline::{Entry, What, LIVE_INPUT};

/// Inputs from pages waiting for the next tick, at most; more shed the least important and
/// oldest (never a stop: [`robot_runtime::intent::shed`]).
pub const QUEUED_INPUTS: usize = 64;

/// How the loop runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Ticks per second.
    pub ticks_per_second: u32,
    /// Stop after this much wall time (`None`: run until the process is stopped).
    pub run_for: Option<Duration>,
    /// Start paused (a page resumes or steps it).
    pub start_paused: bool,
    /// Hand `out` what changed in the robot on each tick (`--trace-why`): each behavior's
    /// state, every condition's value, the robot-state keys.
    pub why: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Ticks run.
    pub ticks: u64,
    /// Requests the `inputs` callback submitted (live sources; their own statistics say what
    /// arrived).
    pub submitted: usize,
    /// Commands taken from pages.
    pub commands: usize,
    /// Commands the full command queue shed (the hub's [`Commands`](super::hub::Commands)).
    pub commands_shed: u64,
    /// The run ended because `stop` was set, not because its time was up.
    pub interrupted: bool,
}

enum Queued {
    Event(ScenarioEvent),
    User(UserIntent),
}

impl Queued {
    /// How important it is for a full queue.
    fn importance(&self) -> Importance {
        match self {
            Queued::User(intent) => RANKER.member(intent.tag()),
            Queued::Event(e) => event_importance(e),
        }
    }

    /// What it is, for the timeline.
    fn describe(&self) -> String {
        match self {
            Queued::User(intent) => describe_request(&IntentRequest::direct(intent.clone())),
            Queued::Event(e) => format!("{e:?}").chars().take(120).collect(),
        }
    }
}

/// How important a page's input is for a full queue (the rule of
/// [`robot_runtime::intent::shed`]): a cloud result by its map entry, an HRI message by its
/// kind and priority; anything else is of the default importance.
pub(crate) fn event_importance(e: &ScenarioEvent) -> Importance {
    match e {
        ScenarioEvent::Cloud { bytes, .. } => match MessageView::unpack_view(bytes) {
            Ok(MessageView::Result(r)) => RANKER.cloud_result(r.intent),
            _ => Importance::NORMAL,
        },
        ScenarioEvent::Hri(message) => {
            let text = |k: &str| message.get(k).and_then(serde_json::Value::as_str);
            let intent = text("intent")
                .or_else(|| text("action"))
                .unwrap_or_default();
            let priority = message
                .get("priority")
                .and_then(serde_json::Value::as_u64)
                .and_then(|p| u8::try_from(p).ok());
            hri_importance(intent, priority)
        }
        _ => Importance::NORMAL,
    }
}

/// How important a page's command is for the hub's full command queue: an input as
/// [`event_importance`] says, a user intent by its member (the stop member is always
/// admitted), `pause` always admitted (it stops the robot), anything else of the default
/// importance.
pub(crate) fn command_importance(action: &protocol::Action) -> Importance {
    match action {
        protocol::Action::Pause => Importance::new(robot_runtime::hri::Priority::MAX, true),
        protocol::Action::Input(e) => event_importance(e),
        protocol::Action::UserIntent(u) => RANKER.member(u.tag()),
        _ => Importance::NORMAL,
    }
}

struct Forcing {
    name: String,
    id: BehaviorId,
    left: u32,
    total: u32,
}

struct Loop<'a> {
    robot: Robot,
    inspector: &'a mut Inspector,
    breakpoints: Breakpoints,
    /// The breakpoint the robot paused on, until it runs again.
    hit: Option<Hit>,
    /// For `--trace-why`, and `ticks_run` at its last look.
    why: Option<Observer>,
    why_at: u64,
    tps: u32,
    paused: bool,
    steps: u32,
    queued: ShedQueue<Queued>,
    forcing: Option<Forcing>,
    commands: usize,
    resumed: bool,
    ticks_run: u64,
}

/// Runs `robot` in real time with `inspector` until `options.run_for` has passed (or
/// forever). Each tick: the scenario events due (scenario time runs with the ticks, so it
/// stops while paused), then the inputs pages sent since the last tick, then `inputs`
/// (live sources deliver what arrived into the tick: `|robot, tick, cpu| n delivered`);
/// the robot's tick; the breakpoints (a hit pauses the robot after this tick); `out` gets
/// the tick's timeline entries (print them, trace them) and, with `options.why`, what changed
/// in the robot on it; the inspector gets the entries. Commands are taken between ticks,
/// also while paused. Once `stop` is set (by a Ctrl-C handler, another thread) the run ends
/// after the tick in progress.
pub fn run(
    robot: Robot,
    scenario: &Scenario,
    options: &RunOptions,
    stop: Option<&AtomicBool>,
    inspector: &mut Inspector,
    mut inputs: impl FnMut(&mut Robot, u64, Duration) -> usize,
    mut out: impl FnMut(&[Entry], Option<&Changes>),
) -> Summary {
    let tps = options.ticks_per_second.max(1);
    let period = Duration::from_secs(1) / tps;
    let started = Instant::now();
    let why = options.why.then(|| Observer::new(&robot, Detail::Trace));
    let mut l = Loop {
        robot,
        inspector,
        breakpoints: Breakpoints::default(),
        hit: None,
        why,
        why_at: u64::MAX,
        tps,
        paused: options.start_paused,
        steps: 0,
        queued: ShedQueue::new(QUEUED_INPUTS),
        forcing: None,
        commands: 0,
        resumed: false,
        ticks_run: 0,
    };
    let mut summary = Summary::default();
    let mut due = Instant::now();
    let mut next = 0;
    let mut tick: u64 = 0;
    loop {
        while let Some(request) = l.inspector.next_request() {
            l.handle(request, &mut out);
        }
        if options.run_for.is_some_and(|d| started.elapsed() >= d) {
            break;
        }
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            summary.interrupted = true;
            break;
        }
        if l.paused && l.steps == 0 {
            l.publish(&mut out);
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        if std::mem::take(&mut l.resumed) {
            due = Instant::now();
        }
        if !l.paused {
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                // Sleep in slices, so that commands are taken while waiting.
                std::thread::sleep(wait.min(Duration::from_millis(20)));
                continue;
            }
        }
        let began = Instant::now();
        l.robot.begin_tick(tick);
        for e in scenario.due(&mut next, tick, tps) {
            l.robot.deliver(e, began.elapsed());
        }
        while let Some(q) = l.queued.pop() {
            l.deliver(q, tick, began.elapsed());
        }
        summary.submitted += inputs(&mut l.robot, tick, began.elapsed());
        l.robot.end_tick(began.elapsed());
        l.ticks_run = tick + 1;
        l.force_again();
        l.check_breakpoints();
        l.publish(&mut out);
        summary.ticks = tick + 1;
        tick += 1;
        if l.paused {
            l.steps = l.steps.saturating_sub(1);
            l.inspector.mark_dirty();
        } else {
            due += period;
            // A tick that ran late is followed at once; a robot far behind (a debugger, a
            // suspended laptop) does not race to catch up.
            let now = Instant::now();
            if now.saturating_duration_since(due) > period * 10 {
                due = now;
            }
        }
    }
    summary.commands = l.commands;
    summary.commands_shed = l.inspector.commands_shed();
    summary
}

impl Loop<'_> {
    fn publish(&mut self, out: &mut impl FnMut(&[Entry], Option<&Changes>)) {
        let progress = Progress {
            ticks_run: self.ticks_run,
            paused: self.paused,
            forced: self.forcing.as_ref().map(|f| (f.name.as_str(), f.left)),
            breakpoints: self.breakpoints.info(),
            hit: self.hit.as_ref(),
        };
        // On each tick, and when something happened between ticks (a forced behavior).
        let look = self.why_at != self.ticks_run || !self.robot.entries().is_empty();
        let why = self.why.as_mut().filter(|_| look).and_then(|o| {
            o.note_tick(&self.robot);
            let c = o.look(&self.robot, &[], self.ticks_run, self.tps);
            (!c.only_clock()).then_some(c)
        });
        self.why_at = self.ticks_run;
        out(self.robot.entries(), why.as_ref());
        self.inspector
            .publish(&self.robot, self.robot.entries(), &progress);
        self.robot.clear_entries();
    }

    /// After a tick: a breakpoint hit pauses the robot here (stepping stops too).
    fn check_breakpoints(&mut self) {
        if self.breakpoints.is_empty() {
            return;
        }
        if let Some(hit) = self.breakpoints.check(&self.robot, self.robot.entries()) {
            self.paused = true;
            self.steps = 0;
            self.hit = Some(hit);
            self.inspector.mark_dirty();
        }
    }

    fn input(&mut self, kind: &'static str, detail: String) {
        self.robot.record(What::Input {
            line: LIVE_INPUT,
            kind,
            detail,
            say: None,
        });
    }

    fn deliver(&mut self, q: Queued, tick: u64, cpu: Duration) {
        match q {
            Queued::Event(event) => {
                let e = TimedEvent {
                    line: LIVE_INPUT,
                    when: When::Tick(tick),
                    say: None,
                    event,
                };
                self.robot.deliver(&e, cpu);
            }
            Queued::User(intent) => {
                self.robot
                    .submit(IntentRequest::direct(intent), Arrival::live(), cpu);
            }
        }
    }

    fn handle(&mut self, request: Request, out: &mut impl FnMut(&[Entry], Option<&Changes>)) {
        self.commands += 1;
        let Request {
            page,
            command,
            reply,
        } = request;
        let id = command.id.as_ref();
        let next = self.ticks_run;
        let answer = match command.action {
            Action::Pause => {
                let was = std::mem::replace(&mut self.paused, true);
                self.steps = 0;
                self.inspector.mark_dirty();
                Ok(if was {
                    "already paused".to_owned()
                } else {
                    match self.ticks_run {
                        0 => "paused before the first tick".to_owned(),
                        n => format!("paused after tick {}", n - 1),
                    }
                })
            }
            Action::Resume => {
                let was = std::mem::replace(&mut self.paused, false);
                self.steps = 0;
                self.resumed = was;
                self.hit = None;
                self.inspector.mark_dirty();
                Ok(if was { "resumed" } else { "already running" }.to_owned())
            }
            Action::Step(n) => {
                self.paused = true;
                self.hit = None;
                self.inspector.mark_dirty();
                self.steps = self.steps.saturating_add(n);
                Ok(format!(
                    "stepping {n} tick{}",
                    if n == 1 { "" } else { "s" }
                ))
            }
            Action::Input(event) => self.enqueue(Queued::Event(event), next),
            Action::UserIntent(intent) => self.enqueue(Queued::User(intent), next),
            Action::Watch(None) => {
                self.inspector.watch(page, None);
                Ok("watching the active dispatcher".to_owned())
            }
            Action::Watch(Some(name)) => match self.robot.runner().id(&name) {
                Some(id) => {
                    self.inspector.watch(page, Some(id));
                    self.publish(out);
                    Ok(format!("watching {name}"))
                }
                None => Err(format!("watch: no behavior is named {name:?}")),
            },
            Action::Force { behavior, runs } => {
                let r = self.force(&behavior, 1, runs);
                self.publish(out);
                r
            }
            Action::Break(spec) => match self.breakpoints.add(spec, &self.robot) {
                Ok(n) => {
                    self.inspector.mark_dirty();
                    Ok(format!("breakpoint {n} set"))
                }
                Err(e) => Err(e),
            },
            Action::Unbreak(id) => {
                let r = self.breakpoints.remove(id);
                self.inspector.mark_dirty();
                r
            }
            Action::Auth => Ok("already authenticated".to_owned()),
        };
        match answer {
            Ok(message) => reply.send(protocol::reply(id, &message)),
            Err(error) => reply.send(protocol::error(id, &error)),
        }
    }

    fn enqueue(&mut self, q: Queued, next: u64) -> Result<String, String> {
        let importance = q.importance();
        match self.queued.push(q, importance) {
            Pushed::Queued => {}
            Pushed::QueuedShedding(old) => self.robot.report_ignored(format!(
                "an input from a page was shed: {QUEUED_INPUTS} inputs waited for the next tick \
                 (the least important and oldest go first, never a stop): {}",
                old.describe()
            )),
            Pushed::Shed(_) => {
                return Err(format!(
                    "shed: {QUEUED_INPUTS} more important inputs already wait for the next tick{}",
                    if self.paused {
                        " (the robot is paused)"
                    } else {
                        ""
                    }
                ))
            }
        }
        Ok(if self.paused {
            format!("queued for tick {next} (paused: step or resume to deliver it)")
        } else {
            format!("queued for tick {next}")
        })
    }

    /// Forces `name` (run `run` of `total`) through
    /// [`Runner::force_behavior`](robot_runtime::behavior::Runner::force_behavior), recording
    /// it in the timeline.
    fn force(&mut self, name: &str, run: u32, total: u32) -> Result<String, String> {
        let runner = self.robot.runner();
        let Some(id) = runner.id(name) else {
            return Err(format!("force: no behavior is named {name:?}"));
        };
        if runner.delegation_path(id).is_none() {
            self.forcing = None;
            return Err(format!(
                "force: {name} cannot be reached from the base behavior through declared delegates"
            ));
        }
        match self.robot.runner_mut().force_behavior(id) {
            Ok(()) => {
                let stack = self.robot.runner().stack_names().join(" > ");
                let detail = format!("{name} (run {run} of {total}): stack {stack}");
                self.input("force", detail.clone());
                self.forcing = (run < total).then(|| Forcing {
                    name: name.to_owned(),
                    id,
                    left: total - run,
                    total,
                });
                self.inspector.mark_dirty();
                Ok(format!("forced {detail}"))
            }
            Err(e) => {
                self.forcing = None;
                Err(format!("force: {e}"))
            }
        }
    }

    /// A forced behavior with runs left that is no longer on the stack runs again.
    fn force_again(&mut self) {
        let Some(f) = &self.forcing else {
            return;
        };
        if self.robot.runner().is_on_stack(f.id) {
            return;
        }
        let (name, run, total) = (f.name.clone(), f.total - f.left + 1, f.total);
        if let Err(e) = self.force(&name, run, total) {
            self.robot.report_ignored(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clad::cloud_mic::{IntentResult, Message};
    use robot_runtime::wire::Wire;

    fn cloud(intent: &str, parameters: &str) -> Queued {
        let bytes = Message::Result(IntentResult {
            intent: intent.into(),
            parameters: parameters.into(),
            metadata: String::new(),
        })
        .pack()
        .unwrap();
        Queued::Event(ScenarioEvent::Cloud {
            bytes,
            captured: false,
        })
    }

    /// A page's inputs wait for the next tick in a queue that sheds like every input queue: a
    /// stop sent after a flood of 1,000 is taken, whether a voice stop, an HRI stop or the
    /// member itself.
    #[test]
    fn a_stop_after_a_flood_of_page_inputs_is_taken() {
        let stops = [
            cloud(
                "intent_global_stop_extend",
                r#"{"what_to_stop": "everything"}"#,
            ),
            Queued::Event(ScenarioEvent::Hri(
                serde_json::json!({"intent": "__intent_stop_activity__", "priority": 10})
                    .as_object()
                    .unwrap()
                    .clone(),
            )),
            Queued::User(UserIntent::GlobalStop(Default::default())),
        ];
        for stop in stops {
            let mut q = ShedQueue::new(QUEUED_INPUTS);
            for _ in 0..1000 {
                let flood = Queued::Event(ScenarioEvent::Hri(
                    serde_json::json!({"intent": "__intent_greet__", "priority": 200})
                        .as_object()
                        .unwrap()
                        .clone(),
                ));
                let importance = flood.importance();
                q.push(flood, importance);
            }
            let importance = stop.importance();
            assert!(importance.always_admitted(), "{}", stop.describe());
            assert!(matches!(
                q.push(stop, importance),
                Pushed::QueuedShedding(_)
            ));
            assert_eq!(q.shed(), 1001 - QUEUED_INPUTS as u64);
            let last = q.iter().last().unwrap();
            assert!(last.importance().always_admitted(), "the stop is queued");
        }
        // A voice command is not a stop; as important as the flood, the oldest goes.
        assert!(!cloud("intent_imperative_come", "")
            .importance()
            .always_admitted());
    }
}
