//! The robot: the intent component over our map, the behaviors of `behaviors/robot.json`,
//! and a tick loop that feeds them a [`Scenario`] and records a timeline.
//!
//! Each tick, in order:
//!
//! 1. the intent component's `update` (claim deadlines, trigger-word expiry);
//! 2. the scenario events due on this tick, in file order: cloud datagrams go through
//!    [`intents::handle_datagram`] (decoded on the tick thread as a borrowed view), app
//!    intents through `handle_app_intent`, HRI intents as the map's `__intent_…__` cloud
//!    intents with their `data` as parameters, trigger words, action completions;
//! 3. the behaviors ([`Dispatcher::tick`]).
//!
//! Everything the component and the behaviors report becomes a timeline [`Entry`].

use std::time::{Duration, Instant};

use robot_runtime::intent::{
    CloudErrorCause, DeactivateReason, DropReason, Flag, IntentComponent, IntentEvent, Match,
    Reaction, UnmatchedReason,
};
use robot_runtime::union::CladUnion;
use robot_runtime::wire::WireView;

use crate::behaviors::{Dispatcher, Item, Tree};
use crate::clad::cloud_mic::MessageView;
use crate::intents::{self, Tag, UserIntent};
use crate::scenario::{encode_hex, Scenario, ScenarioEvent, TimedEvent};
use crate::timeline::{Entry, What};

/// The behavior tree shipped with the robot (`behaviors/robot.json`).
pub const DEFAULT_TREE: &str = include_str!("../behaviors/robot.json");
/// The scenario `cargo run -p robot-example` plays (`scenarios/default.jsonl`).
pub const DEFAULT_SCENARIO: &str = include_str!("../scenarios/default.jsonl");

/// Run settings.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Ticks per second (the original engine ticked about every 60 ms; default 20).
    pub ticks_per_second: u32,
    /// After the last scenario event, keep ticking at most this many ticks until the robot
    /// is idle (nothing pending, only the base behavior active).
    pub settle_ticks: u64,
    /// Record the stack as it is at the end of this tick ([`Run::stack_at`]).
    pub stack_at_tick: Option<u64>,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            ticks_per_second: 20,
            settle_ticks: 400,
            stack_at_tick: None,
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
    /// CPU time spent in the robot's code from handling the input to the claim (the
    /// handling of the input and of every tick in between; sleeping between ticks is not
    /// counted). Not part of the deterministic timeline.
    pub cpu: Duration,
}

/// The result of a run.
#[derive(Debug)]
pub struct Run {
    /// The timeline.
    pub entries: Vec<Entry>,
    /// Inputs whose intent was claimed, with their latency.
    pub latencies: Vec<Latency>,
    /// The stack at [`RunConfig::stack_at_tick`], if the run reached it.
    pub stack_at: Option<Vec<String>>,
    /// The stack at the end of the run.
    pub final_stack: Vec<String>,
    /// Ticks run.
    pub ticks: u64,
}

/// The robot.
pub struct Robot {
    intents: IntentComponent<UserIntent>,
    brain: Dispatcher,
    config: RunConfig,
    entries: Vec<Entry>,
    latencies: Vec<Latency>,
    /// The input the pending intent came from: (line, tick, CPU spent so far).
    pending_from: Option<(usize, u64, Duration)>,
    stack_at: Option<Vec<String>>,
    /// The current tick (0-based; the intent component counts its `update` calls from 1).
    tick: u64,
}

impl std::fmt::Debug for Robot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Robot")
            .field("tick", &self.tick)
            .field("brain", &self.brain)
            .finish_non_exhaustive()
    }
}

impl Robot {
    /// A robot with the stock intent component and `tree`.
    pub fn new(tree: Tree, config: RunConfig) -> Self {
        let brain = Dispatcher::new(tree, config.ticks_per_second);
        Self {
            intents: intents::component(),
            brain,
            config,
            entries: Vec::new(),
            latencies: Vec::new(),
            pending_from: None,
            stack_at: None,
            tick: 0,
        }
    }

    /// The intent component.
    pub fn intents(&self) -> &IntentComponent<UserIntent> {
        &self.intents
    }

    /// The behaviors.
    pub fn brain(&self) -> &Dispatcher {
        &self.brain
    }

    fn t_ms(&self, tick: u64) -> u64 {
        tick * 1000 / u64::from(self.config.ticks_per_second.max(1))
    }

    fn push(&mut self, what: What) {
        let tick = self.tick;
        let t_ms = self.t_ms(tick);
        self.entries.push(Entry { tick, t_ms, what });
    }

    /// Runs `scenario` to its end (plus settling) and returns the timeline. The scenario's
    /// rejected lines are reported at tick 0; the rest run.
    pub fn run(mut self, scenario: &Scenario) -> Run {
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
        let mut settled = 0;
        let mut cpu = Duration::ZERO;
        loop {
            let start = Instant::now();
            self.begin_tick(tick, cpu);
            while let Some(e) = scenario.events.get(next) {
                if e.when.tick(tps) > tick {
                    break;
                }
                next += 1;
                self.input(e, cpu + start.elapsed());
            }
            self.step_brain(cpu + start.elapsed());
            cpu += start.elapsed();
            if self.config.stack_at_tick == Some(tick) {
                self.stack_at = Some(self.brain.stack());
            }
            if tick >= last && next >= scenario.events.len() {
                let idle = !self.intents.is_any_pending_or_active()
                    && !self.intents.is_trigger_word_pending()
                    && self.brain.stack().len() <= 2
                    && self
                        .brain
                        .active()
                        .and_then(|id| self.brain.tree().get(id))
                        .map_or(true, |b| b.class == crate::behaviors::Class::Wait);
                if idle || settled >= self.config.settle_ticks {
                    break;
                }
                settled += 1;
            }
            tick += 1;
        }
        Run {
            entries: self.entries,
            latencies: self.latencies,
            stack_at: self.stack_at,
            final_stack: self.brain.stack(),
            ticks: tick + 1,
        }
    }

    /// Starts tick `tick`: the intent component's `update` (claim deadlines, trigger-word
    /// expiry). `cpu` is the CPU time the run has spent so far (for [`Latency::cpu`]).
    pub fn begin_tick(&mut self, tick: u64, cpu: Duration) {
        self.tick = tick;
        self.intents.update();
        self.collect(cpu);
    }

    /// Delivers one scenario event during the current tick (between [`begin_tick`] and
    /// [`end_tick`]).
    ///
    /// [`begin_tick`]: Self::begin_tick
    /// [`end_tick`]: Self::end_tick
    pub fn deliver(&mut self, event: &TimedEvent, cpu: Duration) {
        self.input(event, cpu);
    }

    /// Ends the current tick: the behaviors run (and claim what is pending).
    pub fn end_tick(&mut self, cpu: Duration) {
        self.step_brain(cpu);
    }

    /// The timeline so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Forgets the timeline so far (a long-running robot that does not keep it).
    pub fn clear_entries(&mut self) {
        self.entries.clear();
        self.latencies.clear();
    }

    fn step_brain(&mut self, cpu: Duration) {
        let items = self.brain.tick(&mut self.intents);
        self.absorb(items, cpu);
    }

    fn absorb(&mut self, items: Vec<Item>, cpu: Duration) {
        for item in items {
            match item {
                Item::Intent(ev) => self.intent_event(ev, cpu),
                Item::What(w) => self.push(w),
            }
        }
    }

    fn input(&mut self, e: &TimedEvent, cpu: Duration) {
        let line = e.line;
        let say = e.say.clone();
        let input = |robot: &mut Self, kind: &'static str, detail: String| {
            robot.push(What::Input {
                line,
                kind,
                detail,
                say: say.clone(),
            });
        };
        match &e.event {
            ScenarioEvent::Note(text) => {
                self.push(What::Note { text: text.clone() });
                return;
            }
            ScenarioEvent::Cloud { bytes, captured } => {
                let detail = match MessageView::unpack_view(bytes) {
                    Ok(MessageView::Result(r)) if r.parameters.is_empty() => {
                        format!("result {}", r.intent)
                    }
                    Ok(MessageView::Result(r)) => format!("result {} {}", r.intent, r.parameters),
                    Ok(other) => other.name().to_owned(),
                    Err(_) if *captured => format!("{} bytes {}", bytes.len(), encode_hex(bytes)),
                    Err(_) => format!("{} bytes", bytes.len()),
                };
                input(self, "cloud", detail);
                intents::handle_datagram(&mut self.intents, bytes);
            }
            ScenarioEvent::AppIntent { intent, param } => {
                input(self, "app", format!("{intent} {param:?}"));
                self.intents.handle_app_intent(intent, param);
            }
            ScenarioEvent::Hri(h) => {
                let data = serde_json::Value::Object(h.data.clone()).to_string();
                let mut detail = format!("{} {data} priority {}", h.intent, h.priority);
                if !h.source.is_empty() {
                    detail.push_str(&format!(" from {}", h.source));
                }
                if !h.modality.is_empty() {
                    detail.push_str(&format!(" via {}", h.modality));
                }
                if h.confidence < 1.0 {
                    detail.push_str(&format!(" confidence {}", h.confidence));
                }
                input(self, "hri", detail);
                self.intents.handle_cloud_result(&h.intent, &data);
            }
            ScenarioEvent::TriggerWord {
                will_open_stream,
                from_mute,
            } => {
                let detail = match (from_mute, will_open_stream) {
                    (true, _) => "from the mute button",
                    (false, true) => "heard, stream opening",
                    (false, false) => "heard, no stream",
                };
                input(self, "trigger", detail.to_owned());
                self.intents
                    .set_trigger_word_pending(*will_open_stream, *from_mute);
            }
            ScenarioEvent::ActionDone { action, result } => {
                input(self, "action", format!("{action} {}", result.name()));
                if !self.brain.action_done(&mut self.intents, action, *result) {
                    self.push(What::InputIgnored {
                        reason: format!("no running action is named {action:?}"),
                    });
                } else {
                    let items = self.brain.take_output(&mut self.intents);
                    self.absorb(items, cpu);
                }
            }
        }
        // Mark where a pending intent came from (for latency).
        let pending_before = self
            .intents
            .events()
            .iter()
            .any(|ev| matches!(ev, IntentEvent::Pending { .. }));
        self.collect(cpu);
        if pending_before {
            self.pending_from = Some((line, self.tick, cpu));
        }
    }

    /// Turns the component's buffered events into timeline entries.
    fn collect(&mut self, cpu: Duration) {
        let events: Vec<IntentEvent<Tag>> = self.intents.drain_events().collect();
        for ev in events {
            self.intent_event(ev, cpu);
        }
    }

    fn intent_event(&mut self, ev: IntentEvent<Tag>, cpu: Duration) {
        {
            let what = match ev {
                IntentEvent::Pending {
                    tag,
                    source,
                    matched,
                } => {
                    let payload = self
                        .intents
                        .pending()
                        .filter(|p| p.tag() == tag)
                        .and_then(|p| payload_json(p.intent()));
                    What::Pending {
                        intent: UserIntent::tag_name(tag),
                        payload,
                        source: source.to_string(),
                        via: describe_match(&matched),
                    }
                }
                IntentEvent::Replaced { old, new, .. } => What::Replaced {
                    old: UserIntent::tag_name(old),
                    new: UserIntent::tag_name(new),
                },
                IntentEvent::ClaimDeadlineNear { tag, age_ticks } => What::DeadlineNear {
                    intent: UserIntent::tag_name(tag),
                    age_ticks,
                },
                IntentEvent::Dropped {
                    reason: DropReason::Expired { .. },
                    ..
                } => return, // the Unclaimed event that follows says it
                IntentEvent::Dropped { tag, .. } => What::Dropped {
                    intent: UserIntent::tag_name(tag),
                },
                IntentEvent::Unclaimed { tag, .. } => {
                    self.pending_from = None;
                    What::Unclaimed {
                        intent: UserIntent::tag_name(tag),
                        age_ticks: self.intents.config().claim_deadline_ticks,
                    }
                }
                IntentEvent::Activated { id, tag, owner, .. } => {
                    let latency = self.pending_from.take().map(|(line, tick, at)| {
                        let ticks = self.tick - tick;
                        self.latencies.push(Latency {
                            line,
                            intent: UserIntent::tag_name(tag),
                            behavior: owner.to_string(),
                            ticks,
                            cpu: cpu.saturating_sub(at),
                        });
                        ticks
                    });
                    What::Claimed {
                        intent: UserIntent::tag_name(tag),
                        behavior: owner.to_string(),
                        activation: id.0.get(),
                        latency_ticks: latency,
                    }
                }
                IntentEvent::Deactivated { tag, reason, .. } => What::Released {
                    intent: UserIntent::tag_name(tag),
                    reason: match reason {
                        DeactivateReason::Released => "released",
                        DeactivateReason::GuardDropped => "guard dropped",
                        DeactivateReason::Superseded => "superseded",
                        DeactivateReason::Forced => "forced",
                    },
                },
                IntentEvent::TimeoutHeld => What::TimeoutHeld { held: true },
                IntentEvent::TimeoutResumed => What::TimeoutHeld { held: false },
                IntentEvent::TriggerWordPending { replaced, .. } => What::TriggerWord {
                    change: if replaced {
                        "pending (replaced)"
                    } else {
                        "pending"
                    },
                },
                IntentEvent::TriggerWordSuppressed => What::TriggerWord {
                    change: "suppressed",
                },
                IntentEvent::TriggerWordCleared => What::TriggerWord { change: "cleared" },
                IntentEvent::TriggerWordDeadlineNear => return,
                IntentEvent::TriggerWordDropped => What::TriggerWord {
                    change: "expired (nobody reacted)",
                },
                IntentEvent::TranslateFailed {
                    intent,
                    error,
                    reaction,
                    ..
                } => What::NotUnderstood {
                    intent: intent.into(),
                    error: error.to_string(),
                    reaction: match reaction {
                        Reaction::Unmatched => "unmatched intent",
                        Reaction::ErrorFlag => "error flag",
                        Reaction::Drop => "dropped",
                    },
                },
                IntentEvent::CloudError { cause } => What::CloudError {
                    cause: match cause {
                        CloudErrorCause::Error { error, extra } if extra.is_empty() => {
                            format!("cloud error {error}")
                        }
                        CloudErrorCause::Error { error, extra } => {
                            format!("cloud error {error}: {extra}")
                        }
                        CloudErrorCause::StreamTimeout => "cloud stream timed out".into(),
                        CloudErrorCause::BadResult => "a result that does not translate".into(),
                        CloudErrorCause::Undecodable { error } => {
                            format!("undecodable datagram: {error}")
                        }
                    },
                },
                IntentEvent::StreamOpened => What::StreamOpened,
                IntentEvent::FlagCleared { flag } => What::FlagCleared {
                    flag: match flag {
                        Flag::Unclaimed => "unclaimed",
                        Flag::Error => "error",
                        Flag::StreamOpen => "stream-open",
                    },
                },
                IntentEvent::CloudIgnored { message } => What::InputIgnored {
                    reason: format!("the intent component does not handle {message}"),
                },
                other => What::InputIgnored {
                    reason: format!("unrecognised intent event {}", other.name()),
                },
            };
            self.push(what);
        }
    }
}

/// A union value's payload as compact JSON without its `type` key, or `None` for a void
/// member.
fn payload_json(intent: &UserIntent) -> Option<String> {
    let mut v = serde_json::to_value(intent).ok()?;
    let obj = v.as_object_mut()?;
    obj.remove("type");
    (!obj.is_empty()).then(|| serde_json::Value::Object(obj.clone()).to_string())
}

fn describe_match(m: &Match<Tag>) -> String {
    match m {
        Match::Cloud { intent } => format!("cloud intent {intent}"),
        Match::App { intent } => format!("app intent {intent}"),
        Match::SimpleVoice { intent } => format!("simple voice response to {intent}"),
        Match::Direct => "set directly".into(),
        Match::Unmatched(reason) => {
            format!(
                "unmatched: {}",
                match reason {
                    UnmatchedReason::UnknownIntent { intent } =>
                        format!("{intent:?} is not in the map"),
                    UnmatchedReason::EmptyIntent => "empty intent".into(),
                    UnmatchedReason::FeatureDisabled { intent, feature } => {
                        format!("{intent} needs feature {feature}, which is off")
                    }
                    UnmatchedReason::NoSimpleVoiceTag { intent } => {
                        format!("{intent} is a simple voice response and the union has no member for it")
                    }
                    UnmatchedReason::NotWhitelisted { tag } => {
                        format!("{} is not whitelisted", UserIntent::tag_name(*tag))
                    }
                    UnmatchedReason::TranslateFailed => "its parameters do not translate".into(),
                }
            )
        }
    }
}
