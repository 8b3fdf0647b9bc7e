//! Arbitrary cloud input thrown at the intent component over the generated test union
//! (`UserIntent`) and its map (`MAP`): random and real intent strings, arbitrary parameter
//! texts and JSON objects, random and mangled `CloudMic::Message` bytes (decoded with the
//! generated message and `robot_runtime::cloud_event_from!`), app intents, ticks,
//! activations, holds and guards.
//!
//! Invariants checked after every step:
//!
//! * nothing panics;
//! * at most one pending and one active intent, at most one current guard, and it is the
//!   component's active intent;
//! * replaying the event stream (a subscriber) reproduces the component's state exactly —
//!   pending tag and source, active activation, flags, trigger word — and every event is
//!   legal where it appears (no `Dropped` of something not pending, activation IDs
//!   increase by one, ...); the per-tick buffer is the tail of that stream;
//! * every `Pending` outcome leaves `pending()` set with that tag, match and source, and a
//!   failed translation reports its error and default reaction;
//! * the pending intent's tag agrees with how it was matched in the map.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock, Mutex};

use proptest::prelude::*;
use robot_runtime::intent::{
    ActivationId, ActiveIntentGuard, CloudErrorCause, CloudEvent, DropReason, Flag, IntakeOutcome,
    IntentComponent, IntentConfig, IntentEvent, IntentSource, IntentTranslator, Match, NumericMode,
    Reaction, TimeoutHold, TranslateConfig, UnmatchedReason,
};
use robot_runtime::union::CladUnion;
use robot_runtime::wire::Wire;
use robot_runtime_tests::cloud_mic::{IntentResult, Message};
use robot_runtime_tests::{UserIntent, UserIntentTag as Tag, MAP as USER_INTENT_MAP};
use serde_json::{json, Value};

type Comp = IntentComponent<UserIntent>;

/// What a robot's wiring does with a datagram from the cloud process: strict unpack, then
/// the adapter.
fn receive(bytes: &[u8]) -> Result<CloudEvent, robot_runtime::wire::UnpackError> {
    Message::unpack(bytes).map(CloudEvent::from)
}

/// A stock robot's features: all but `GazeDirection`.
fn stock_features(feature: &str) -> bool {
    feature != "GazeDirection"
}

fn component_with(config: IntentConfig) -> Comp {
    let mut c = IntentComponent::with_config(&USER_INTENT_MAP, config);
    c.set_feature_gate(stock_features);
    c
}

fn component() -> Comp {
    component_with(IntentConfig::default())
}

// ----- strategies ------------------------------------------------------------------------------

/// Every intent string the map knows (cloud, app, simple voice).
static KNOWN_INTENTS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut v: Vec<&'static str> = USER_INTENT_MAP.cloud.iter().map(|e| e.intent).collect();
    v.extend(USER_INTENT_MAP.app.iter().map(|e| e.intent));
    v.extend(USER_INTENT_MAP.simple_voice.iter().map(|e| e.cloud_intent));
    v
});

/// Every parameter name the map renames, every payload field name, and a few reserved ones.
static KNOWN_KEYS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let t = IntentTranslator::<UserIntent>::new(&USER_INTENT_MAP);
    let mut keys: Vec<&'static str> = vec!["type", "params", "intent", "domains.0"];
    for e in USER_INTENT_MAP.cloud.iter().chain(USER_INTENT_MAP.app) {
        keys.extend(e.sanitation.iter().map(|s| s.from));
    }
    for &tag in UserIntent::TAGS {
        keys.extend(t.payload_fields(tag).unwrap_or(&[]).iter().copied());
    }
    keys.sort_unstable();
    keys.dedup();
    keys
});

fn intent_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => proptest::sample::select(KNOWN_INTENTS.clone()).prop_map(str::to_owned),
        1 => Just("intent_system_unsupported".to_owned()),
        1 => Just(String::new()),
        1 => "[a-z_]{0,24}",
        1 => any::<String>(),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => proptest::sample::select(vec![
            "20", "300", "0", "-5", "10.5", "10.0", "1e3", "4294967295", "4294967296",
            "99999999999999999999", " 7", "20abc", "", "NaN", "GROUP", "POINT", "group", "m",
            "s", "timer", "selfie", "Bob",
        ])
        .prop_map(|s| json!(s)),
        2 => any::<String>().prop_map(Value::String),
        1 => any::<i64>().prop_map(|v| json!(v)),
        1 => any::<u64>().prop_map(|v| json!(v)),
        1 => any::<f64>().prop_map(|v| json!(v)),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{1,4}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => proptest::sample::select(KNOWN_KEYS.clone()).prop_map(str::to_owned),
        1 => "[a-z_.-]{1,12}",
        1 => any::<String>(),
    ]
}

/// A JSON object text with random keys and values (duplicates possible).
fn object() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((key(), value()), 0..6),
        any::<bool>(),
    )
        .prop_map(|(kv, newline)| {
            let body: Vec<String> = kv
                .iter()
                .map(|(k, v)| format!("{}:{v}", Value::String(k.clone())))
                .collect();
            format!("{{{}}}{}", body.join(","), if newline { "\n" } else { "" })
        })
}

/// Parameter texts: objects, mangled objects, other JSON, garbage.
fn params() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => object(),
        2 => (object(), any::<usize>(), ".{0,3}").prop_map(|(s, cut, tail)| {
            let mut cut = cut % (s.len() + 1);
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}{tail}", &s[..cut])
        }),
        1 => value().prop_map(|v| v.to_string()),
        1 => any::<String>(),
        1 => proptest::sample::select(vec!["", "{}\n", "null", " ", "[]"]).prop_map(str::to_owned),
    ]
}

/// A result for a data entry of the map, with that entry's own parameter names (renamed
/// ones and field names) and plausible or random values, so that many translate.
fn targeted_result() -> impl Strategy<Value = CloudEvent> {
    proptest::sample::select(DATA_INTENTS.clone()).prop_flat_map(|intent| {
        let entry = USER_INTENT_MAP.cloud(intent).unwrap();
        let t = IntentTranslator::<UserIntent>::new(&USER_INTENT_MAP);
        let mut names: Vec<&'static str> = entry.sanitation.iter().map(|s| s.from).collect();
        names.extend(t.payload_fields(entry.tag).unwrap_or(&[]).iter().copied());
        let pair = (proptest::sample::select(names), scalar());
        (proptest::collection::vec(pair, 1..4), any::<bool>()).prop_map(move |(kv, newline)| {
            let obj: serde_json::Map<String, Value> =
                kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            let nl = if newline { "\n" } else { "" };
            CloudEvent::result(intent, format!("{}{nl}", Value::Object(obj)))
        })
    })
}

fn cloud_event() -> impl Strategy<Value = CloudEvent> {
    prop_oneof![
        5 => (intent_name(), params()).prop_map(|(i, p)| CloudEvent::result(i, p)),
        3 => targeted_result(),
        1 => ".{0,8}".prop_map(|extra| CloudEvent::Error { error: "Server", extra }),
        1 => Just(CloudEvent::StreamTimeout),
        1 => Just(CloudEvent::StreamOpen { session: "s".into() }),
        1 => Just(CloudEvent::Other { message: "debugFile" }),
    ]
}

/// Random bytes, and packed results with one byte changed, truncated or extended.
fn datagram() -> impl Strategy<Value = Vec<u8>> {
    let packed = (intent_name(), params()).prop_filter_map("intent too long", |(i, p)| {
        Message::Result(IntentResult {
            intent: i,
            parameters: p,
            metadata: String::new(),
        })
        .pack()
        .ok()
    });
    prop_oneof![
        2 => proptest::collection::vec(any::<u8>(), 0..48),
        1 => (proptest::collection::vec(0u8..12, 1..2), proptest::collection::vec(any::<u8>(), 0..32))
            .prop_map(|(tag, rest)| [tag, rest].concat()),
        3 => (packed, any::<usize>(), any::<u8>(), 0u8..3).prop_map(|(mut b, at, byte, how)| {
            let at = at % b.len();
            match how {
                0 => b[at] = byte,
                1 => b.truncate(at),
                _ => b.push(byte),
            }
            b
        }),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Update,
    /// `handle_cloud` now.
    Cloud(CloudEvent),
    /// Through the cloud channel (handled at the next update).
    Queue(CloudEvent),
    /// A packed `result` through `receive`.
    Packed(String, String),
    /// Any datagram through `receive`.
    Bytes(Vec<u8>),
    App(String, String),
    Expanded(String),
    /// Activate the pending tag (`None`) or some tag.
    Activate(Option<u8>, bool),
    Release(usize),
    DropGuard(usize),
    DropPending(u8),
    DropAny,
    SetPending(u8),
    Hold,
    Unhold,
    Trigger(bool, bool),
    ClearTrigger,
    ForceDeactivate,
    ResetFlags,
    /// All features on (true) or the stock gate (false).
    AllFeatures(bool),
}

fn op() -> impl Strategy<Value = Op> {
    let tag = 0u8..Tag::COUNT as u8;
    prop_oneof![
        5 => Just(Op::Update),
        5 => cloud_event().prop_map(Op::Cloud),
        2 => cloud_event().prop_map(Op::Queue),
        2 => (intent_name(), params()).prop_map(|(i, p)| Op::Packed(i, p)),
        2 => datagram().prop_map(Op::Bytes),
        1 => (
            prop_oneof![
                3 => proptest::sample::select(
                    USER_INTENT_MAP.app.iter().map(|e| e.intent.to_owned()).collect::<Vec<_>>()
                ),
                1 => intent_name(),
            ],
            prop_oneof![Just("90".to_owned()), ".{0,6}"],
        )
            .prop_map(|(i, p)| Op::App(i, p)),
        1 => (intent_name(), value()).prop_map(|(i, p)| {
            Op::Expanded(json!({"intent": i, "params": p}).to_string())
        }),
        1 => ".{0,12}".prop_map(Op::Expanded),
        4 => any::<bool>().prop_map(|r| Op::Activate(None, r)),
        1 => (tag.clone(), any::<bool>()).prop_map(|(t, r)| Op::Activate(Some(t), r)),
        1 => any::<usize>().prop_map(Op::Release),
        1 => any::<usize>().prop_map(Op::DropGuard),
        1 => tag.clone().prop_map(Op::DropPending),
        1 => Just(Op::DropAny),
        1 => tag.prop_map(Op::SetPending),
        1 => Just(Op::Hold),
        1 => Just(Op::Unhold),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(a, b)| Op::Trigger(a, b)),
        1 => Just(Op::ClearTrigger),
        1 => Just(Op::ForceDeactivate),
        1 => Just(Op::ResetFlags),
        1 => any::<bool>().prop_map(Op::AllFeatures),
    ]
}

// ----- the model ------------------------------------------------------------------------------

/// The component's state as the event stream describes it.
#[derive(Debug, Default)]
struct Model {
    pending: Option<(Tag, IntentSource)>,
    active: Option<(ActivationId, Tag)>,
    last_id: u64,
    unclaimed: bool,
    error: bool,
    stream: bool,
    trigger: bool,
    /// Between `TimeoutHeld` and `TimeoutResumed`.
    held: bool,
    /// `Replaced { new }` announces the next `Pending`.
    announced: Option<Tag>,
    /// `Dropped { Expired }` announces `Unclaimed`.
    expired: Option<(Tag, IntentSource)>,
}

impl Model {
    fn apply(&mut self, ev: &IntentEvent<Tag>) -> Result<(), String> {
        let ensure = |ok: bool, what: &str| {
            if ok {
                Ok(())
            } else {
                Err(format!("{what}: {ev:?}"))
            }
        };
        if self.expired.is_some() {
            ensure(
                matches!(ev, IntentEvent::Unclaimed { .. }),
                "Dropped(Expired) not followed by Unclaimed",
            )?;
        }
        match *ev {
            IntentEvent::Replaced {
                old,
                old_source,
                new,
            } => {
                ensure(
                    self.pending == Some((old, old_source)),
                    "Replaced something not pending",
                )?;
                self.announced = Some(new);
            }
            IntentEvent::Pending { tag, source, .. } => {
                ensure(
                    self.pending.is_none() || self.announced == Some(tag),
                    "Pending over a pending intent without Replaced",
                )?;
                self.announced = None;
                self.pending = Some((tag, source));
            }
            IntentEvent::ClaimDeadlineNear { tag, .. } => ensure(
                self.pending.map(|p| p.0) == Some(tag),
                "deadline warning for something not pending",
            )?,
            IntentEvent::Dropped {
                tag,
                source,
                reason,
            } => {
                ensure(
                    self.pending == Some((tag, source)),
                    "Dropped something not pending",
                )?;
                self.pending = None;
                if matches!(reason, DropReason::Expired { .. }) {
                    self.expired = Some((tag, source));
                }
            }
            IntentEvent::Unclaimed { tag, source } => {
                ensure(
                    self.expired.take() == Some((tag, source)),
                    "Unclaimed without Dropped(Expired)",
                )?;
                self.unclaimed = true;
            }
            IntentEvent::Activated {
                id, tag, source, ..
            } => {
                ensure(
                    self.pending == Some((tag, source)),
                    "Activated something not pending",
                )?;
                ensure(self.active.is_none(), "Activated over an active intent")?;
                ensure(
                    id.0.get() == self.last_id + 1,
                    "activation IDs must increase by one",
                )?;
                self.last_id = id.0.get();
                self.pending = None;
                self.active = Some((id, tag));
            }
            IntentEvent::Deactivated { id, tag, .. } => {
                ensure(
                    self.active == Some((id, tag)),
                    "Deactivated something not active",
                )?;
                self.active = None;
            }
            IntentEvent::CloudError { .. } => self.error = true,
            IntentEvent::StreamOpened => ensure(
                !std::mem::replace(&mut self.stream, true),
                "StreamOpened twice",
            )?,
            IntentEvent::FlagCleared { flag } => {
                let f = match flag {
                    Flag::Error => &mut self.error,
                    Flag::Unclaimed => &mut self.unclaimed,
                    Flag::StreamOpen => &mut self.stream,
                };
                ensure(std::mem::take(f), "cleared a flag that was not set")?;
            }
            IntentEvent::TriggerWordPending { replaced, .. } => {
                ensure(
                    replaced == self.trigger,
                    "TriggerWordPending.replaced disagrees",
                )?;
                self.trigger = true;
            }
            IntentEvent::TriggerWordCleared | IntentEvent::TriggerWordDropped => ensure(
                std::mem::take(&mut self.trigger),
                "trigger word ended without being pending",
            )?,
            IntentEvent::TriggerWordDeadlineNear => {
                ensure(self.trigger, "trigger deadline without trigger word")?
            }
            IntentEvent::TimeoutHeld => ensure(
                !std::mem::replace(&mut self.held, true),
                "TimeoutHeld twice",
            )?,
            IntentEvent::TimeoutResumed => ensure(
                std::mem::take(&mut self.held),
                "TimeoutResumed without TimeoutHeld",
            )?,
            IntentEvent::TranslateFailed {
                ref error,
                reaction,
                ..
            } => ensure(
                reaction == error.default_reaction(),
                "reaction is not the default one",
            )?,
            _ => {}
        }
        Ok(())
    }
}

struct Harness {
    c: Comp,
    log: Arc<Mutex<Vec<IntentEvent<Tag>>>>,
    seen: usize,
    /// Index in `log` where the current tick's buffer starts.
    tick_start: usize,
    model: Model,
    guards: Vec<ActiveIntentGuard<UserIntent>>,
    dropped_guards: HashSet<ActivationId>,
    holds: Vec<TimeoutHold>,
}

impl Harness {
    fn new() -> Self {
        let mut c = component_with(IntentConfig {
            cloud_queue_capacity: 4,
            ..IntentConfig::default()
        });
        let log = Arc::new(Mutex::new(Vec::new()));
        let l = log.clone();
        c.subscribe(move |e| l.lock().unwrap().push(e.clone()));
        Self {
            c,
            log,
            seen: 0,
            tick_start: 0,
            model: Model::default(),
            guards: Vec::new(),
            dropped_guards: HashSet::new(),
            holds: Vec::new(),
        }
    }

    /// Events since the last call, replayed into the model.
    fn new_events(&mut self) -> Result<Vec<IntentEvent<Tag>>, TestCaseError> {
        let log = self.log.lock().unwrap();
        let new = log[self.seen..].to_vec();
        self.seen = log.len();
        drop(log);
        for ev in &new {
            self.model.apply(ev).map_err(TestCaseError::fail)?;
        }
        Ok(new)
    }

    fn check(&self) -> Result<(), TestCaseError> {
        let c = &self.c;
        let m = &self.model;
        prop_assert_eq!(c.pending().map(|p| (p.tag(), p.source())), m.pending);
        match c.active() {
            Some(a) => prop_assert_eq!(Some((a.id(), a.tag())), m.active),
            // A dropped guard deactivates at once; its event comes at the next call.
            None => prop_assert!(
                m.active
                    .is_none_or(|(id, _)| self.dropped_guards.contains(&id)),
                "active per events: {:?}",
                m.active
            ),
        }
        prop_assert_eq!(c.was_error(), m.error);
        prop_assert_eq!(c.was_unclaimed(), m.unclaimed);
        prop_assert_eq!(c.is_cloud_stream_open(), m.stream);
        prop_assert_eq!(c.is_trigger_word_pending(), m.trigger);
        // Holds end at once; `TimeoutResumed` is reported at the next update.
        prop_assert_eq!(c.is_timeout_held(), !self.holds.is_empty());
        prop_assert!(!c.is_timeout_held() || m.held);
        prop_assert_eq!(m.announced, None);
        prop_assert_eq!(m.expired, None);

        let current: Vec<_> = self.guards.iter().filter(|g| g.is_current()).collect();
        prop_assert!(current.len() <= 1, "two current guards");
        prop_assert_eq!(current.first().map(|g| g.id()), c.active().map(|a| a.id()));

        // The per-tick buffer is the tail of the stream since the last update.
        let log = self.log.lock().unwrap();
        prop_assert_eq!(c.events(), &log[self.tick_start..]);
        drop(log);

        if let Some(p) = c.pending() {
            prop_assert_eq!(p.intent().tag(), p.tag());
            let tag = p.tag();
            match *p.matched() {
                Match::Cloud { intent } => {
                    prop_assert_eq!(USER_INTENT_MAP.cloud(intent).map(|e| e.tag), Some(tag));
                    prop_assert_eq!(p.source(), IntentSource::Voice);
                }
                Match::App { intent } => {
                    prop_assert_eq!(USER_INTENT_MAP.app(intent).map(|e| e.tag), Some(tag));
                    prop_assert_eq!(p.source(), IntentSource::App);
                }
                Match::SimpleVoice { intent } => {
                    prop_assert!(USER_INTENT_MAP.simple_voice_response(intent).is_some());
                    prop_assert_eq!(tag, Tag::SimpleVoiceResponse);
                }
                Match::Unmatched(_) => prop_assert_eq!(tag, Tag::UnmatchedIntent),
                Match::Direct => prop_assert_eq!(p.source(), IntentSource::Dev),
                Match::Hri { .. } => prop_assert!(false, "this model sends no HRI request"),
            }
        }
        Ok(())
    }

    /// Checks what a cloud result / app intent did, against the events it produced.
    fn check_outcome(
        &self,
        out: &IntakeOutcome<Tag>,
        source: IntentSource,
        intent: &str,
        pending_before: Option<Tag>,
        events: &[IntentEvent<Tag>],
    ) -> Result<(), TestCaseError> {
        match out {
            IntakeOutcome::Pending { tag, matched } => {
                let p = self
                    .c
                    .pending()
                    .expect("Pending outcome without pending intent");
                prop_assert_eq!(p.tag(), *tag);
                prop_assert_eq!(p.matched(), matched);
                prop_assert_eq!(p.source(), source);
                prop_assert_eq!(
                    events.last(),
                    Some(&IntentEvent::Pending {
                        tag: *tag,
                        source,
                        matched: matched.clone()
                    })
                );
                // A known, enabled void entry always maps, whatever its parameters.
                if source == IntentSource::Voice {
                    if let Some(e) = USER_INTENT_MAP.cloud(intent) {
                        let enabled = e.feature_gate.is_none_or(|f| self.gate(f));
                        if enabled && self.c.translator().is_void(e.tag) {
                            prop_assert_eq!(*tag, e.tag);
                        }
                    } else if USER_INTENT_MAP.simple_voice_response(intent).is_none() {
                        let reason = if intent.is_empty() {
                            UnmatchedReason::EmptyIntent
                        } else {
                            UnmatchedReason::UnknownIntent {
                                intent: intent.into(),
                            }
                        };
                        prop_assert_eq!(matched, &Match::Unmatched(reason));
                    }
                }
            }
            IntakeOutcome::Failed { error, reaction } => {
                prop_assert_eq!(*reaction, error.default_reaction());
                let failed = IntentEvent::TranslateFailed {
                    source,
                    intent: intent.into(),
                    error: error.clone(),
                    reaction: *reaction,
                };
                let at = events.iter().position(|e| *e == failed);
                prop_assert!(at.is_some(), "no TranslateFailed in {:?}", events);
                let after = &events[at.unwrap() + 1..];
                match reaction {
                    Reaction::Unmatched => {
                        let p = self.c.pending().unwrap();
                        prop_assert_eq!(p.tag(), Tag::UnmatchedIntent);
                        prop_assert_eq!(
                            p.matched(),
                            &Match::Unmatched(UnmatchedReason::TranslateFailed)
                        );
                    }
                    Reaction::ErrorFlag => {
                        prop_assert!(self.c.was_error());
                        prop_assert_eq!(
                            after,
                            &[IntentEvent::CloudError {
                                cause: CloudErrorCause::BadResult
                            }][..]
                        );
                        prop_assert_eq!(self.c.pending_tag(), pending_before);
                    }
                    Reaction::Drop => prop_assert!(false, "default reactions never drop"),
                }
            }
            other => prop_assert!(false, "a result gave {:?}", other),
        }
        Ok(())
    }

    fn gate(&self, feature: &str) -> bool {
        self.all_features() || stock_features(feature)
    }

    fn all_features(&self) -> bool {
        // The GazeDirection entry tells which gate is installed.
        self.c
            .translator()
            .translate_cloud("intent_imperative_lookoverthere", "")
            .map(|t| t.intent.tag() == Tag::ImperativeLookoverthere)
            .unwrap_or(false)
    }

    /// Handles a cloud event now and checks the outcome.
    fn handle(&mut self, ev: CloudEvent) -> Result<(), TestCaseError> {
        let before = self.c.pending_tag();
        let result = match &ev {
            CloudEvent::Result { intent, .. } => Some(intent.clone()),
            _ => None,
        };
        // The component takes fast paths for void and data intents; whatever the path, the
        // result must be the translator's (no whitelist is set here).
        let translated = match &ev {
            CloudEvent::Result {
                intent, parameters, ..
            } => Some(self.c.translator().translate_cloud(intent, parameters)),
            _ => None,
        };
        let kind = ev.clone();
        let out = self.c.handle_cloud(ev);
        let events = self.new_events()?;
        match translated {
            Some(Ok(t)) => {
                prop_assert_eq!(
                    &out,
                    &IntakeOutcome::Pending {
                        tag: t.intent.tag(),
                        matched: t.matched.clone()
                    }
                );
                prop_assert_eq!(self.c.pending().map(|p| p.intent()), Some(&t.intent));
            }
            Some(Err(e)) => prop_assert!(
                matches!(&out, IntakeOutcome::Failed { error, .. } if *error == e),
                "{:?} vs {:?}",
                out,
                e
            ),
            None => {}
        }
        match result {
            Some(intent) => {
                self.check_outcome(&out, IntentSource::Voice, &intent, before, &events)?
            }
            None => {
                let expected = match kind {
                    CloudEvent::Error { .. } | CloudEvent::StreamTimeout => {
                        IntakeOutcome::ErrorFlagSet
                    }
                    CloudEvent::StreamOpen { .. } => IntakeOutcome::StreamOpened,
                    _ => IntakeOutcome::Ignored,
                };
                prop_assert_eq!(out, expected);
                prop_assert_eq!(self.c.pending_tag(), before);
            }
        }
        Ok(())
    }

    fn step(&mut self, op: Op) -> Result<(), TestCaseError> {
        let pending_before = self.c.pending_tag();
        match op {
            Op::Update => {
                self.tick_start = self.log.lock().unwrap().len();
                self.c.update();
                self.new_events()?;
            }
            Op::Cloud(ev) => self.handle(ev)?,
            Op::Queue(ev) => {
                let _ = self.c.cloud_sender().send(ev);
            }
            Op::Packed(intent, params) => {
                let msg = Message::Result(IntentResult {
                    intent: intent.clone(),
                    parameters: params.clone(),
                    metadata: "m".into(),
                });
                match msg.pack() {
                    Ok(bytes) => {
                        let ev = receive(&bytes).unwrap();
                        prop_assert_eq!(
                            &ev,
                            &CloudEvent::Result {
                                intent,
                                parameters: params,
                                metadata: "m".into()
                            }
                        );
                        self.handle(ev)?;
                    }
                    // Only an intent above 255 bytes cannot be packed.
                    Err(_) => prop_assert!(intent.len() > 255),
                }
            }
            Op::Bytes(bytes) => match receive(&bytes) {
                Ok(ev) => self.handle(ev)?,
                Err(e) => {
                    prop_assert!(!e.to_string().is_empty());
                    prop_assert!(e.offset() <= bytes.len());
                }
            },
            Op::App(intent, param) => {
                let out = self.c.handle_app_intent(&intent, &param);
                let events = self.new_events()?;
                self.check_outcome(&out, IntentSource::App, &intent, pending_before, &events)?;
            }
            Op::Expanded(text) => {
                let intent = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|v| v.get("intent")?.as_str().map(str::to_owned));
                match self.c.handle_expanded_json(&text) {
                    Ok(out) => {
                        let events = self.new_events()?;
                        let intent = intent.expect("accepted without intent");
                        self.check_outcome(
                            &out,
                            IntentSource::Voice,
                            &intent,
                            pending_before,
                            &events,
                        )?;
                    }
                    Err(_) => {
                        prop_assert!(self.new_events()?.is_empty());
                        prop_assert_eq!(self.c.pending_tag(), pending_before);
                    }
                }
            }
            Op::Activate(t, replace) => {
                let tag = match t {
                    Some(i) => Tag::ALL[usize::from(i)],
                    None => pending_before.unwrap_or(Tag::UnmatchedIntent),
                };
                let active_before = self.c.active().map(|a| a.id());
                let owner_before = self.c.active().map(|a| a.owner().clone());
                // Two owners: an owner holding the active intent moves on to the next one;
                // another owner needs `activate_replacing`.
                let owner = if (tag as usize).is_multiple_of(2) {
                    "prop_a"
                } else {
                    "prop_b"
                };
                let r = if replace {
                    self.c.activate_replacing(tag, owner)
                } else {
                    self.c.activate(tag, owner)
                };
                match r {
                    Ok(g) => {
                        prop_assert_eq!(pending_before, Some(tag));
                        prop_assert!(
                            replace
                                || active_before.is_none()
                                || owner_before.as_ref().is_some_and(|o| *o == owner)
                        );
                        prop_assert_eq!(self.c.pending_tag(), None);
                        prop_assert_eq!(self.c.active().map(|a| a.id()), Some(g.id()));
                        self.guards.push(g);
                    }
                    Err(_) => {
                        prop_assert_eq!(self.c.pending_tag(), pending_before);
                        prop_assert_eq!(self.c.active().map(|a| a.id()), active_before);
                    }
                }
                self.new_events()?;
            }
            Op::Release(i) => {
                if !self.guards.is_empty() {
                    let g = self.guards.remove(i % self.guards.len());
                    let current = g.is_current();
                    prop_assert_eq!(g.release(&mut self.c).is_ok(), current);
                    self.new_events()?;
                }
            }
            Op::DropGuard(i) => {
                if !self.guards.is_empty() {
                    let g = self.guards.remove(i % self.guards.len());
                    if g.is_current() {
                        self.dropped_guards.insert(g.id());
                    }
                }
            }
            Op::DropPending(t) => {
                let tag = Tag::ALL[usize::from(t)];
                let r = self.c.drop_pending(tag);
                prop_assert_eq!(r.is_ok(), pending_before == Some(tag));
                self.new_events()?;
            }
            Op::DropAny => {
                let r = self.c.drop_any_pending().map(|p| p.tag());
                prop_assert_eq!(r, pending_before);
                self.new_events()?;
            }
            Op::SetPending(t) => {
                let tag = Tag::ALL[usize::from(t)];
                self.c.set_pending_tag(tag, IntentSource::Dev);
                prop_assert_eq!(self.c.pending_tag(), Some(tag));
                self.new_events()?;
            }
            Op::Hold => {
                self.holds.push(self.c.hold_timeout());
                self.new_events()?;
            }
            Op::Unhold => {
                self.holds.pop();
            }
            Op::Trigger(stream, mute) => {
                self.c.set_trigger_word_pending(stream, mute);
                self.new_events()?;
            }
            Op::ClearTrigger => {
                self.c.clear_trigger_word();
                self.new_events()?;
            }
            Op::ForceDeactivate => {
                self.c.force_deactivate();
                self.new_events()?;
            }
            Op::ResetFlags => {
                self.c.reset_error();
                self.c.reset_unclaimed();
                self.new_events()?;
            }
            Op::AllFeatures(all) => {
                if all {
                    self.c.set_feature_gate(|_: &str| true);
                } else {
                    self.c.set_feature_gate(stock_features);
                }
            }
        }
        self.check()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    // Requirement: arbitrary cloud messages, bytes, app intents, ticks and activations —
    // no panic, one pending / one active, events replay to the component's state.
    #[test]
    fn component_survives_arbitrary_input(ops in proptest::collection::vec(op(), 1..48)) {
        let mut h = Harness::new();
        for op in ops {
            h.step(op)?;
        }
        // Releasing the holds, draining the channel and expiring everything keeps the
        // invariants too: nothing outlives the 3-tick claim window.
        h.holds.clear();
        for _ in 0..4 {
            h.step(Op::Update)?;
        }
        prop_assert_eq!(h.c.pending_tag(), None);
    }

    // The translator alone, in both numeric modes: no panic; whatever it builds round-trips
    // through the union's own serde mapping; every error has a message.
    #[test]
    fn translator_never_panics(intent in intent_name(), params in params(), prefix in any::<bool>()) {
        let t = IntentTranslator::<UserIntent>::with_config(&USER_INTENT_MAP, TranslateConfig {
            numeric: if prefix { NumericMode::OriginalPrefix } else { NumericMode::Strict },
            ..TranslateConfig::default()
        });
        match t.translate_cloud(&intent, &params) {
            Ok(r) => {
                let json = serde_json::to_string(&r.intent).unwrap();
                let back: UserIntent = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(back.tag(), r.intent.tag());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        let _ = t.translate_app(&intent, &params);
    }

    // Binary path: any datagram unpacks to a typed error or a message the component
    // handles; an untouched packed result always round-trips.
    #[test]
    fn receive_never_panics(bytes in datagram(), intent in intent_name(), params in params()) {
        let mut c = component();
        match receive(&bytes) {
            Ok(ev) => { c.handle_cloud(ev); }
            Err(e) => prop_assert!(e.offset() <= bytes.len()),
        }
        let msg = Message::Result(IntentResult {
            intent: intent.clone(),
            parameters: params.clone(),
            metadata: String::new(),
        });
        if let Ok(bytes) = msg.pack() {
            prop_assert_eq!(
                receive(&bytes).unwrap(),
                CloudEvent::Result { intent, parameters: params, metadata: String::new() }
            );
        }
    }
}

// ----- the parameter scanner agrees with the full parser ------------------------------------

/// `s` as a JSON string with every UTF-16 unit escaped (`"\u0061..."`).
fn escaped(s: &str) -> String {
    let units: String = s.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
    format!("\"{units}\"")
}

/// Data members of the map (the ones whose parameters are parsed).
static DATA_INTENTS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let t = IntentTranslator::<UserIntent>::new(&USER_INTENT_MAP);
    USER_INTENT_MAP
        .cloud
        .iter()
        .filter(|e| !t.is_void(e.tag))
        .map(|e| e.intent)
        .collect()
});

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    // Flat objects of plain strings take the translator's fast scanner; the same object
    // with every string escaped takes the full JSON parser. Both must give the same result.
    #[test]
    fn fast_scanner_agrees_with_the_full_parser(
        intent in proptest::sample::select(DATA_INTENTS.clone()),
        pairs in proptest::collection::vec(
            (
                prop_oneof![
                    4 => proptest::sample::select(KNOWN_KEYS.clone()).prop_map(str::to_owned),
                    1 => "[^\"\\\\\\x00-\\x1f]{0,8}",
                ],
                prop_oneof![
                    3 => proptest::sample::select(vec![
                        "20", "-5", "10.0", "1e3", "", " 7", "GROUP", "group", "m", "timer", "é✓",
                    ]).prop_map(str::to_owned),
                    1 => "[^\"\\\\\\x00-\\x1f]{0,8}",
                ],
            ),
            1..5,
        ),
    ) {
        let plain: Vec<String> = pairs.iter().map(|(k, v)| format!("\"{k}\":\"{v}\"")).collect();
        let full: Vec<String> =
            pairs.iter().map(|(k, v)| format!("{}:{}", escaped(k), escaped(v))).collect();
        let plain = format!("{{{}}}", plain.join(","));
        let full = format!("{{{}}}", full.join(","));
        let t = IntentTranslator::<UserIntent>::new(&USER_INTENT_MAP);
        prop_assert_eq!(
            t.translate_cloud(intent, &plain),
            t.translate_cloud(intent, &full),
            "{} vs {}", plain, full
        );
    }
}
