//! `ReactToVoiceCommand` (original-class-predicates.md §2.3): the trigger-word reaction.
//!
//! Wants to run while the trigger word is pending. On activation it clears it, holds the
//! claim deadline (the original disables the intent timeout), fires the mood event
//! `ReactToTriggerWord`, plays `animListeningGetIn`, then loops `animListeningLoop` while it
//! listens, until an intent is pending, the cloud reports an error, or `listenTimeout_s`
//! (default 5 s, the original's timeout when no stream began) has passed. The result:
//!
//! * an intent outside `whiteListedIntents` (when given) is dropped: unknown;
//!   `unmatched_intent` is claimed: unknown; `silence` is claimed: silence; any other intent
//!   is *heard* and stays pending for the tree;
//! * an error or the timeout is an error, counted as a cloud error when a wifi network is
//!   configured (`wifi_configured`), else as a wifi error; with
//!   `exitAfterListeningIfNotStreaming` and a trigger word that opened no stream, the end of
//!   listening is neutral instead.
//!
//! Then it plays `animListeningGetOut` and reacts: heard → resets both error counts, hands
//! the mic-direction reaction the last sound's direction (`mic_reaction`) and delegates
//! `behaviorOnIntent`; unknown → mood `NoValidVoiceIntent`, `IntentUnmatched`; silence →
//! `TriggerWordWithoutIntent`; error → mood `NoValidVoiceIntent`, and when the count of
//! `notifyOnCloudErrors` / `notifyOnWifiErrors` is met, `behaviorOnIntent` then `NoCloud` /
//! `NoWifi`, else `VC_IntentNeutral`. It ends when that is done.
//!
//! Not modelled: the ear-con audio events, the backpack lights and the WakeWordBegin/End
//! broadcasts (the robot has no audio, light or app channel here); they are accepted keys.

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, Continuation, Ctx, DelegationOutcome,
    IntentUnion, View, Wakeup,
};
use robot_runtime::intent::IntentMatcher;
use serde_json::Value;

use super::native::{Base, Decide, Native, NativeClass, EVERYWHERE};
use super::steps::{Step, Steps};
use super::voice::{claim, tag};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::logic::voice as logic;

const C: &str = "ReactToVoiceCommand";
/// Continuation: the get-in ended.
const GOT_IN: u32 = 1;
/// Continuation: one listening loop ended.
const LOOPED: u32 = 2;

/// What listening gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// An intent, left pending for the tree.
    Intent,
    /// Nothing usable (`unmatched_intent`, or an intent outside the whitelist).
    Unknown,
    /// The user said nothing.
    Silence,
    /// A cloud error or the timeout.
    Error,
    /// No stream was opened and `exitAfterListeningIfNotStreaming` is set.
    NotStreaming,
}

/// How many errors within how long before notifying (`recentOccurrence`).
#[derive(Clone, Debug, PartialEq)]
struct Notify {
    times: usize,
    within: Option<Duration>,
}

/// Errors of one kind, and when to notify.
#[derive(Clone, Debug, Default)]
struct Errors {
    notify: Option<Notify>,
    at: Vec<Duration>,
}

impl Errors {
    /// Records an error at `now`; true when the notification threshold is met (the count
    /// then starts again).
    fn record(&mut self, now: Duration) -> bool {
        self.at.push(now);
        let Some(n) = &self.notify else {
            self.at.clear();
            return false;
        };
        if let Some(w) = n.within {
            self.at.retain(|t| now.saturating_sub(*t) <= w);
        }
        if self.at.len() >= n.times.max(1) {
            self.at.clear();
            true
        } else {
            false
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    GetIn,
    Listening,
    Reacting,
}

/// `ReactToVoiceCommand` (see the [module documentation](self)).
pub struct ReactToVoiceCommand<U: IntentUnion> {
    listen: Duration,
    get_in: Option<String>,
    listening: Option<String>,
    get_out: Option<String>,
    exit_after_get_in: bool,
    exit_if_not_streaming: bool,
    whitelist: Option<Vec<IntentMatcher<U>>>,
    unmatched: Option<U::Tag>,
    silence: Option<U::Tag>,
    on_intent: Option<BehaviorId>,
    unmatched_id: Option<BehaviorId>,
    no_intent_id: Option<BehaviorId>,
    no_cloud_id: Option<BehaviorId>,
    no_wifi_id: Option<BehaviorId>,
    cloud_errors: Errors,
    wifi_errors: Errors,
    phase: Phase,
    streaming: bool,
    listening_since: Duration,
    steps: Steps,
    heard: Option<Heard>,
}

impl<U: IntentUnion> ReactToVoiceCommand<U> {
    /// What the last activation heard (None: still listening, or never ran).
    pub fn heard(&self) -> Option<Heard> {
        self.heard
    }

    fn listen_loop<E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(name) = &self.listening {
            let _ = ctx.play(
                &ActionRequest::Animation { name, loops: 1 },
                Continuation::Call(LOOPED),
            );
        }
    }

    fn start_listening<E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if self.exit_after_get_in {
            let _ = ctx.cancel_self();
            return;
        }
        self.phase = Phase::Listening;
        self.listening_since = ctx.clock().now();
        self.listen_loop(ctx);
        self.check(ctx);
    }

    /// Listening: the result if there is one.
    fn result<E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) -> Option<Heard> {
        if let Some(p) = ctx.intents().pending() {
            let t = p.tag();
            let listed = self
                .whitelist
                .as_ref()
                .is_none_or(|w| w.iter().any(|m| m.matches(p.intent())));
            return Some(if Some(t) == self.unmatched {
                claim(ctx, C, t);
                Heard::Unknown
            } else if Some(t) == self.silence {
                claim(ctx, C, t);
                Heard::Silence
            } else if !listed {
                let _ = ctx.intents_mut().drop_pending(t);
                Heard::Unknown
            } else {
                Heard::Intent
            });
        }
        if ctx.intents().was_error() {
            ctx.intents_mut().reset_error();
            return Some(Heard::Error);
        }
        let waited = ctx.clock().now().saturating_sub(self.listening_since);
        (waited >= self.listen).then_some(if self.exit_if_not_streaming && !self.streaming {
            Heard::NotStreaming
        } else {
            Heard::Error
        })
    }

    fn check<E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if self.phase != Phase::Listening || !ctx.is_active() {
            return;
        }
        let Some(heard) = self.result(ctx) else {
            return;
        };
        self.heard = Some(heard);
        self.phase = Phase::Reacting;
        let _ = ctx.cancel_delegates(false);
        let now = ctx.clock().now();
        let mut steps: Vec<Step> = self.get_out.clone().map(Step::Play).into_iter().collect();
        match heard {
            Heard::Intent => {
                self.cloud_errors.at.clear();
                self.wifi_errors.at.clear();
                if let Some(id) = self.on_intent {
                    let direction = ctx.robot().signals.sound.map_or(0, |s| s.direction);
                    ctx.robot_mut().signals.mic_reaction = Some((direction, now));
                    steps.push(Step::Delegate(id));
                }
            }
            Heard::Unknown => {
                ctx.robot_mut().fire_emotion_event("NoValidVoiceIntent");
                steps.extend(self.unmatched_id.map(Step::Delegate));
            }
            Heard::Silence => steps.extend(self.no_intent_id.map(Step::Delegate)),
            Heard::Error => {
                ctx.robot_mut().fire_emotion_event("NoValidVoiceIntent");
                let (notify, id) = if ctx.robot().signals.wifi_configured {
                    (self.cloud_errors.record(now), self.no_cloud_id)
                } else {
                    (self.wifi_errors.record(now), self.no_wifi_id)
                };
                if notify {
                    if let Some(turn) = self.on_intent {
                        let direction = ctx.robot().signals.sound.map_or(0, |s| s.direction);
                        ctx.robot_mut().signals.mic_reaction = Some((direction, now));
                        steps.push(Step::Delegate(turn));
                    }
                    steps.extend(id.map(Step::Delegate));
                } else {
                    steps.push(Step::Play("VC_IntentNeutral".into()));
                }
            }
            Heard::NotStreaming => steps.push(Step::Play("VC_IntentNeutral".into())),
        }
        self.steps.start(steps, ctx);
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ReactToVoiceCommand<U> {
    /// Listening: its timeout (an intent or an error is an input); otherwise its actions
    /// and delegates.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match self.phase {
            Phase::Listening => {
                let now = view.clock().now();
                let end = self.listening_since.saturating_add(self.listen);
                Wakeup::after(now, end.saturating_sub(now))
            }
            _ => Wakeup::Never,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.heard = None;
        self.steps.clear();
        self.streaming = ctx.intents().will_pending_trigger_word_open_stream();
        ctx.intents_mut().clear_trigger_word();
        ctx.hold_timeout();
        ctx.robot_mut().fire_emotion_event("ReactToTriggerWord");
        self.phase = Phase::GetIn;
        match &self.get_in {
            Some(name) => {
                if ctx
                    .play(
                        &ActionRequest::Animation { name, loops: 1 },
                        Continuation::Call(GOT_IN),
                    )
                    .is_err()
                {
                    self.start_listening(ctx);
                }
            }
            None => self.start_listening(ctx),
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.check(ctx);
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match (step, self.phase) {
            (GOT_IN, Phase::GetIn) => self.start_listening(ctx),
            (LOOPED, Phase::Listening) => {
                self.check(ctx);
                if self.phase == Phase::Listening {
                    self.listen_loop(ctx);
                }
            }
            (super::steps::STEP, Phase::Reacting) => self.steps.next(ctx),
            _ => {}
        }
    }
}

/// A trigger name key: absent or empty = none.
fn trigger(keys: &serde_json::Map<String, Value>, key: &str) -> Option<String> {
    keys.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// `notifyOnWifiErrors` / `notifyOnCloudErrors`: `{recentOccurrence: {numberOfTimes,
/// amountOfSeconds}}`.
fn notify<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    keys: &serde_json::Map<String, Value>,
    key: &str,
) -> Option<Notify> {
    let v = keys.get(key)?;
    let recent = v.get("recentOccurrence").unwrap_or(v);
    let times = match recent.get("numberOfTimes") {
        None => Some(1),
        Some(n) => n.as_u64().map(|n| n as usize),
    };
    let within = match recent.get("amountOfSeconds") {
        None => Some(None),
        Some(s) => s
            .as_f64()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| Some(Duration::from_secs_f64(s.min(1.0e9)))),
    };
    match (times, within) {
        (Some(times), Some(within)) => Some(Notify { times, within }),
        _ => {
            cx.bad_value(
                key,
                format!("expected {{\"recentOccurrence\": {{\"numberOfTimes\": a whole number, \"amountOfSeconds\": seconds}}}}, found {v}"),
            );
            None
        }
    }
}

pub(crate) fn build_react_to_voice_command<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let before = cx.problem_count();
    let decide = Decide::build(cx, C, &logic::REACT_TO_VOICE_COMMAND);
    let keys_ok = cx.problem_count() == before;
    let keys = decide.keys.clone();
    // The project's listening timeout (the original: 5 s when no stream began).
    let listen = cx.seconds("listenTimeout_s");
    if cx.has("listenTimeout_s") && listen.is_none() {
        return None;
    }
    // Checked (and any problem reported) with the keys; parsed again only when valid.
    let whitelist = match keys.get("whiteListedIntents") {
        Some(v) if keys_ok => Some(cx.matchers(v, "whiteListedIntents")?),
        Some(_) => return None,
        None => None,
    };
    let on_intent = match keys.get("behaviorOnIntent").and_then(Value::as_str) {
        Some(name) => {
            let id = cx.delegate(name, "behaviorOnIntent")?;
            cx.require_class(id, name, "behaviorOnIntent", "ReactToMicDirection");
            Some(id)
        }
        None => None,
    };
    let bool_key = |k: &str| keys.get(k).and_then(Value::as_bool).unwrap_or(false);
    let cloud = notify(cx, &keys, "notifyOnCloudErrors");
    let wifi = notify(cx, &keys, "notifyOnWifiErrors");
    // The hard-coded delegates (the loader checks that the tree has them).
    let id = |cx: &mut BuildCx<'_, U, E>, name: &str| {
        let found = cx.global_id(name);
        if let Some(f) = found {
            cx.declare_delegate(f);
        }
        found
    };
    let class = ReactToVoiceCommand {
        listen: listen.unwrap_or(Duration::from_secs(5)),
        get_in: trigger(&keys, "animListeningGetIn"),
        listening: trigger(&keys, "animListeningLoop"),
        get_out: trigger(&keys, "animListeningGetOut"),
        exit_after_get_in: bool_key("exitAfterGetIn"),
        exit_if_not_streaming: bool_key("exitAfterListeningIfNotStreaming"),
        whitelist,
        unmatched: tag(cx, C, "unmatched_intent"),
        silence: tag(cx, C, "silence"),
        on_intent,
        unmatched_id: id(cx, "IntentUnmatched"),
        no_intent_id: id(cx, "TriggerWordWithoutIntent"),
        no_cloud_id: id(cx, "NoCloud"),
        no_wifi_id: id(cx, "NoWifi"),
        cloud_errors: Errors {
            notify: cloud,
            at: Vec::new(),
        },
        wifi_errors: Errors {
            notify: wifi,
            at: Vec::new(),
        },
        phase: Phase::Reacting,
        streaming: true,
        listening_since: Duration::ZERO,
        steps: Steps::default(),
        heard: None,
    };
    let delegates = [
        class.on_intent,
        class.unmatched_id,
        class.no_intent_id,
        class.no_cloud_id,
        class.no_wifi_id,
    ];
    // "+carry +offTreads +charger −AD": it reacts anywhere and ends itself.
    let base = Base::new(EVERYWHERE.always_delegates(false))
        .decide(decide)
        .delegates(delegates.into_iter().flatten())
        .claims([class.unmatched, class.silence]);
    Some(Box::new(Native::new(base, class)))
}
