//! The robot's behaviors, declared in JSON (`behaviors/robot.json`) in the original engine's
//! vocabulary (`behaviorID`, `behaviorClass`, `respondToUserIntents`), and the strict-priority
//! dispatcher that runs them the way the original's `GlobalInterruptions` does: every tick,
//! the first behavior (in file order) that wants to be activated runs, interrupting a
//! lower-priority one.
//!
//! Classes:
//!
//! | `behaviorClass` | wants to be activated when | does |
//! |---|---|---|
//! | `ReactToVoiceCommand` | the trigger word is pending | clears it, pauses the claim deadline and listens (`listenTimeout_ms`) until an intent is pending, the error flag is set or time is up; claims `unmatched_intent` (the "huh?") and `silence` itself |
//! | `VoiceCommand` | the pending intent matches `respondToUserIntents` | claims it (owner = its ID), runs its `action`, releases it |
//! | `ReactToUnclaimedIntent` | the unclaimed flag is set | resets it and runs its `action` ("I can't do that") |
//! | `Wait` | always | nothing (the base of the stack) |
//!
//! An `action` is `{"name": ..., "duration_ms": N}` (ends by itself) or
//! `{"name": ..., "timeout_ms": N}` (ends when the scenario reports its completion with
//! `action_done`, or fails when the timeout passes).

use std::fmt;

use robot_runtime::intent::{
    ActiveIntentGuard, IntentComponent, IntentEvent, IntentMatcher, MatcherError, TimeoutHold,
};
use serde::Deserialize;
use serde_json::Value;

use crate::intents::{Tag, UserIntent};
use crate::scenario::ActionResult;
use crate::timeline::What;

/// A behavior tree file that does not load.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {path}: {problem}")]
pub struct TreeError {
    /// The file name given to [`Tree::from_json`].
    pub file: String,
    /// Where in the JSON (`behaviors[3].respondToUserIntents`).
    pub path: String,
    /// What is wrong.
    pub problem: String,
}

/// What ends an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ends {
    /// After this many ms.
    After(u64),
    /// When the scenario reports it done, or fails after this many ms.
    Completion {
        /// The timeout.
        timeout_ms: u64,
    },
}

/// An action a behavior runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionDef {
    /// Its name (what `action_done` names).
    pub name: String,
    /// What ends it.
    pub ends: Ends,
}

/// A behavior class (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Reacts to the trigger word.
    ReactToVoiceCommand {
        /// How long it listens, in ms.
        listen_timeout_ms: u64,
    },
    /// Claims matching user intents.
    VoiceCommand,
    /// Reacts to the unclaimed flag.
    ReactToUnclaimedIntent,
    /// Does nothing.
    Wait,
}

/// One behavior of the tree.
#[derive(Clone)]
pub struct BehaviorDef {
    /// Its ID.
    pub id: String,
    /// Its class.
    pub class: Class,
    /// `respondToUserIntents`.
    pub matchers: Vec<IntentMatcher<UserIntent>>,
    /// Its action.
    pub action: Option<ActionDef>,
}

impl fmt::Debug for BehaviorDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BehaviorDef")
            .field("id", &self.id)
            .field("class", &self.class)
            .field("matchers", &self.matchers)
            .field("action", &self.action)
            .finish()
    }
}

/// The robot's behaviors in priority order (first = highest), under a named root.
#[derive(Clone, Debug)]
pub struct Tree {
    /// The root's name (shown at the bottom of the stack).
    pub root: String,
    /// The behaviors, highest priority first.
    pub behaviors: Vec<BehaviorDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTree {
    #[serde(rename = "behaviorID")]
    id: String,
    #[serde(rename = "behaviorClass")]
    class: String,
    behaviors: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBehavior {
    #[serde(rename = "behaviorID")]
    id: String,
    #[serde(rename = "behaviorClass")]
    class: String,
    #[serde(rename = "respondToUserIntents", default)]
    respond: Option<Value>,
    #[serde(rename = "listenTimeout_ms", default)]
    listen_timeout_ms: Option<u64>,
    #[serde(default)]
    action: Option<RawAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    name: String,
    duration_ms: Option<u64>,
    timeout_ms: Option<u64>,
}

/// Removes `//` comments outside strings (the original's JSON reader accepted them).
pub(crate) fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_str = false;
        let mut escaped = false;
        let mut cut = line.len();
        let bytes = line.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                _ if escaped => escaped = false,
                b'\\' if in_str => escaped = true,
                b'"' => in_str = !in_str,
                b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => {
                    cut = i;
                    break;
                }
                _ => {}
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

impl Tree {
    /// Loads a tree. Every problem names the file and the JSON path.
    pub fn from_json(file: &str, text: &str) -> Result<Self, TreeError> {
        let err = |path: String, problem: String| TreeError {
            file: file.to_owned(),
            path,
            problem,
        };
        let raw: RawTree = serde_json::from_str(&strip_comments(text))
            .map_err(|e| err("(top level)".into(), e.to_string()))?;
        if raw.class != "DispatcherStrictPriority" {
            return Err(err(
                "behaviorClass".into(),
                format!(
                    "the root must be a DispatcherStrictPriority, not {}",
                    raw.class
                ),
            ));
        }
        let mut behaviors: Vec<BehaviorDef> = Vec::new();
        for (i, v) in raw.behaviors.into_iter().enumerate() {
            let path = |key: &str| format!("behaviors[{i}]{key}");
            let b: RawBehavior =
                serde_json::from_value(v).map_err(|e| err(path(""), e.to_string()))?;
            if b.id.is_empty() || !b.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(err(
                    path(".behaviorID"),
                    format!("{:?} is not a valid ID (letters, digits, _)", b.id),
                ));
            }
            if behaviors.iter().any(|o| o.id == b.id) {
                return Err(err(path(".behaviorID"), format!("duplicate ID {}", b.id)));
            }
            let class = match b.class.as_str() {
                "ReactToVoiceCommand" => Class::ReactToVoiceCommand {
                    listen_timeout_ms: b.listen_timeout_ms.unwrap_or(5000),
                },
                "VoiceCommand" => Class::VoiceCommand,
                "ReactToUnclaimedIntent" => Class::ReactToUnclaimedIntent,
                "Wait" => Class::Wait,
                other => {
                    return Err(err(
                        path(".behaviorClass"),
                        format!("unknown class {other}"),
                    ))
                }
            };
            if b.listen_timeout_ms.is_some() && !matches!(class, Class::ReactToVoiceCommand { .. })
            {
                return Err(err(
                    path(".listenTimeout_ms"),
                    "only ReactToVoiceCommand listens".into(),
                ));
            }
            let matchers = match &b.respond {
                None => Vec::new(),
                Some(v) => IntentMatcher::list_from_json(v, &|_| None)
                    .map_err(|e: MatcherError| err(path(".respondToUserIntents"), e.to_string()))?,
            };
            if matches!(class, Class::VoiceCommand) && matchers.is_empty() {
                return Err(err(
                    path(".respondToUserIntents"),
                    "a VoiceCommand needs at least one intent to respond to".into(),
                ));
            }
            if !matchers.is_empty() && !matches!(class, Class::VoiceCommand) {
                return Err(err(
                    path(".respondToUserIntents"),
                    format!("{} does not respond to user intents", b.class),
                ));
            }
            let action = match b.action {
                None => None,
                Some(a) => {
                    let ends = match (a.duration_ms, a.timeout_ms) {
                        (Some(d), None) => Ends::After(d),
                        (None, Some(t)) => Ends::Completion { timeout_ms: t },
                        _ => {
                            return Err(err(
                                path(".action"),
                                "give exactly one of duration_ms and timeout_ms".into(),
                            ))
                        }
                    };
                    Some(ActionDef { name: a.name, ends })
                }
            };
            behaviors.push(BehaviorDef {
                id: b.id,
                class,
                matchers,
                action,
            });
        }
        if !behaviors.last().is_some_and(|b| b.class == Class::Wait) {
            return Err(err(
                "behaviors".into(),
                "the last behavior must be a Wait (something is always active)".into(),
            ));
        }
        Ok(Self {
            root: raw.id,
            behaviors,
        })
    }

    /// The behaviors that claim `tag` (by a tag or full-data matcher).
    pub fn claimers(&self, tag: Tag) -> impl Iterator<Item = &BehaviorDef> {
        self.behaviors
            .iter()
            .filter(move |b| b.matchers.iter().any(|m| m.target_tag() == tag))
    }

    /// The behavior with this ID.
    pub fn get(&self, id: &str) -> Option<&BehaviorDef> {
        self.behaviors.iter().find(|b| b.id == id)
    }
}

/// A running action.
#[derive(Debug)]
struct RunningAction {
    name: String,
    /// Tick at which it ends by itself (timed) or times out.
    deadline: u64,
    timed: bool,
}

enum Phase {
    /// Running its action (or nothing, for Wait).
    Acting,
    /// ReactToVoiceCommand: listening.
    Listening { until: u64, _hold: TimeoutHold },
}

struct Running {
    index: usize,
    guard: Option<ActiveIntentGuard<UserIntent>>,
    action: Option<RunningAction>,
    phase: Phase,
}

/// Runs a [`Tree`]: one behavior active at a time (plus the root), strict priority.
pub struct Dispatcher {
    tree: Tree,
    running: Option<Running>,
    ticks_per_second: u32,
    out: Vec<Item>,
}

/// What a dispatcher reports, in order.
#[derive(Debug)]
pub enum Item {
    /// An event of the intent component (claims and releases happen inside behaviors).
    Intent(IntentEvent<Tag>),
    /// A timeline entry of the dispatcher (behaviors, stack, actions).
    What(What),
}

impl fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatcher")
            .field("root", &self.tree.root)
            .field(
                "running",
                &self
                    .running
                    .as_ref()
                    .map(|r| &self.tree.behaviors[r.index].id),
            )
            .finish()
    }
}

/// Why a behavior ended.
enum EndReason {
    Finished,
    Interrupted(String),
    ActionFailed(&'static str),
    HeardNothing,
    CloudError,
}

impl Dispatcher {
    /// A dispatcher over `tree`, ticking `ticks_per_second` times a second (to turn action
    /// lengths into ticks).
    pub fn new(tree: Tree, ticks_per_second: u32) -> Self {
        Self {
            tree,
            running: None,
            ticks_per_second: ticks_per_second.max(1),
            out: Vec::new(),
        }
    }

    /// The tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The stack, bottom first.
    pub fn stack(&self) -> Vec<String> {
        let mut s = vec![self.tree.root.clone()];
        if let Some(r) = &self.running {
            s.push(self.tree.behaviors[r.index].id.clone());
            if let Some(a) = &r.action {
                s.push(format!("[{}]", a.name));
            }
        }
        s
    }

    /// The running behavior's ID.
    pub fn active(&self) -> Option<&str> {
        self.running
            .as_ref()
            .map(|r| self.tree.behaviors[r.index].id.as_str())
    }

    fn ms_to_ticks(&self, ms: u64) -> u64 {
        (ms * u64::from(self.ticks_per_second))
            .div_ceil(1000)
            .max(1)
    }

    /// An action of this name ended (from the scenario). Returns false when no running
    /// action has that name.
    pub fn action_done(
        &mut self,
        intents: &mut IntentComponent<UserIntent>,
        name: &str,
        result: ActionResult,
    ) -> bool {
        let Some(r) = &self.running else {
            return false;
        };
        if !r.action.as_ref().is_some_and(|a| a.name == name) {
            return false;
        }
        let reason = match result {
            ActionResult::Succeeded => EndReason::Finished,
            ActionResult::Failed => EndReason::ActionFailed("failed"),
            ActionResult::Cancelled => EndReason::ActionFailed("cancelled"),
        };
        self.end_running(intents, reason, Some(result.name()));
        true
    }

    fn wants(&self, index: usize, intents: &IntentComponent<UserIntent>) -> bool {
        let b = &self.tree.behaviors[index];
        match b.class {
            Class::ReactToVoiceCommand { .. } => intents.is_trigger_word_pending(),
            Class::VoiceCommand => intents.first_pending_match(&b.matchers).is_some(),
            Class::ReactToUnclaimedIntent => intents.was_unclaimed(),
            Class::Wait => true,
        }
    }

    /// One tick: ends what is done, then activates the highest-priority behavior that wants
    /// to be (interrupting a lower one). Returns what happened.
    pub fn tick(&mut self, intents: &mut IntentComponent<UserIntent>) -> Vec<Item> {
        let now = intents.tick();
        self.progress(intents, now);
        // A behavior that ends lets the next one start on the same tick; bounded so that a
        // tree whose behaviors end at once cannot spin.
        for _ in 0..self.tree.behaviors.len() + 1 {
            let limit = self
                .running
                .as_ref()
                .map_or(self.tree.behaviors.len(), |r| r.index);
            let Some(best) = (0..limit).find(|&i| self.wants(i, intents)) else {
                break;
            };
            if self.running.is_some() {
                let by = self.tree.behaviors[best].id.clone();
                self.end_running(intents, EndReason::Interrupted(by), Some("cancelled"));
            }
            self.start(intents, best, now);
            if self.running.is_some() {
                break;
            }
        }
        self.take_output(intents)
    }

    fn progress(&mut self, intents: &mut IntentComponent<UserIntent>, now: u64) {
        let Some(r) = &self.running else {
            return;
        };
        match &r.phase {
            Phase::Listening { until, .. } => {
                if intents.is_any_pending() {
                    let tag = intents.pending_tag();
                    if let Some(tag @ (Tag::UnmatchedIntent | Tag::Silence)) = tag {
                        // The "huh?" and the no-intent reaction are claimed here, as the
                        // original's ReactToVoiceCommand does.
                        let id = self.tree.behaviors[r.index].id.clone();
                        let guard = intents.activate(tag, id.clone()).ok();
                        let ticks = self.ms_to_ticks(800);
                        let r = self.running.as_mut().expect("running");
                        r.guard = guard;
                        r.phase = Phase::Acting;
                        r.action = Some(RunningAction {
                            name: "anim_huh".into(),
                            deadline: now + ticks,
                            timed: true,
                        });
                        self.emit(
                            intents,
                            What::Action {
                                behavior: id,
                                action: "anim_huh".into(),
                                change: "started",
                                duration_ms: Some(800),
                            },
                        );
                        self.push_stack(intents);
                    } else {
                        self.end_running(intents, EndReason::Finished, None);
                    }
                } else if intents.was_error() {
                    intents.reset_error();
                    self.end_running(intents, EndReason::CloudError, None);
                } else if now >= *until {
                    self.end_running(intents, EndReason::HeardNothing, None);
                }
            }
            Phase::Acting => {
                if let Some(a) = &r.action {
                    if now >= a.deadline {
                        if a.timed {
                            self.end_running(intents, EndReason::Finished, Some("succeeded"));
                        } else {
                            self.end_running(
                                intents,
                                EndReason::ActionFailed("timed out"),
                                Some("timed out"),
                            );
                        }
                    }
                } else if self.tree.behaviors[r.index].class != Class::Wait {
                    // Nothing to run (no action, or the claim failed): done.
                    self.end_running(intents, EndReason::Finished, None);
                }
            }
        }
    }

    fn push_stack(&mut self, intents: &mut IntentComponent<UserIntent>) {
        let stack = self.stack();
        self.emit(intents, What::Stack { stack });
    }

    /// Queues `what` after the intent component's events so far (keeps their order).
    fn emit(&mut self, intents: &mut IntentComponent<UserIntent>, what: What) {
        self.out.extend(intents.drain_events().map(Item::Intent));
        self.out.push(Item::What(what));
    }

    /// Takes what happened since the last call, in order: the intent component's events and
    /// the dispatcher's own entries, interleaved as they occurred.
    pub fn take_output(&mut self, intents: &mut IntentComponent<UserIntent>) -> Vec<Item> {
        self.out.extend(intents.drain_events().map(Item::Intent));
        std::mem::take(&mut self.out)
    }

    fn start(&mut self, intents: &mut IntentComponent<UserIntent>, index: usize, now: u64) {
        // Cloned: `emit` borrows the dispatcher mutably (once per activation, not per tick).
        let b = self.tree.behaviors[index].clone();
        let id = b.id.clone();
        self.emit(
            intents,
            What::Behavior {
                behavior: id.clone(),
                change: "activated",
                reason: None,
            },
        );
        let mut guard = None;
        let mut phase = Phase::Acting;
        match &b.class {
            Class::ReactToVoiceCommand { listen_timeout_ms } => {
                intents.clear_trigger_word();
                let until = now + self.ms_to_ticks(*listen_timeout_ms);
                phase = Phase::Listening {
                    until,
                    _hold: intents.hold_timeout(),
                };
            }
            Class::VoiceCommand => {
                if let Some(m) = intents.first_pending_match(&b.matchers).cloned() {
                    match intents.activate_matching(&m, id.clone()) {
                        Ok(g) => guard = Some(g),
                        Err(e) => {
                            tracing::warn!(behavior = %id, error = %e, "claim failed");
                            self.emit(
                                intents,
                                What::InputIgnored {
                                    reason: format!("{id} could not claim: {e}"),
                                },
                            );
                        }
                    }
                }
            }
            Class::ReactToUnclaimedIntent => intents.reset_unclaimed(),
            Class::Wait => {}
        }
        let action = match (&phase, &b.action) {
            (Phase::Acting, Some(a)) => {
                let (deadline_ms, timed) = match a.ends {
                    Ends::After(ms) => (ms, true),
                    Ends::Completion { timeout_ms } => (timeout_ms, false),
                };
                self.emit(
                    intents,
                    What::Action {
                        behavior: id.clone(),
                        action: a.name.clone(),
                        change: "started",
                        duration_ms: timed.then_some(deadline_ms),
                    },
                );
                Some(RunningAction {
                    name: a.name.clone(),
                    deadline: now + self.ms_to_ticks(deadline_ms),
                    timed,
                })
            }
            _ => None,
        };
        self.running = Some(Running {
            index,
            guard,
            action,
            phase,
        });
        self.push_stack(intents);
    }

    fn end_running(
        &mut self,
        intents: &mut IntentComponent<UserIntent>,
        reason: EndReason,
        action_change: Option<&'static str>,
    ) {
        let Some(r) = self.running.take() else {
            return;
        };
        let id = self.tree.behaviors[r.index].id.clone();
        if let (Some(a), Some(change)) = (&r.action, action_change) {
            self.emit(
                intents,
                What::Action {
                    behavior: id.clone(),
                    action: a.name.clone(),
                    change,
                    duration_ms: None,
                },
            );
        }
        if let Some(g) = r.guard {
            if g.is_current() {
                if let Err(e) = g.release(intents) {
                    tracing::warn!(behavior = %id, error = %e, "release failed");
                }
            }
        }
        // The listening hold (if any) is dropped with `r.phase` here.
        drop(r.phase);
        let reason = match reason {
            EndReason::Finished => "finished".to_owned(),
            EndReason::Interrupted(by) => format!("interrupted by {by}"),
            EndReason::ActionFailed(why) => format!("action {why}"),
            EndReason::HeardNothing => "heard nothing".to_owned(),
            EndReason::CloudError => "the cloud reported an error".to_owned(),
        };
        self.emit(
            intents,
            What::Behavior {
                behavior: id,
                change: "deactivated",
                reason: Some(reason),
            },
        );
    }
}
