//! [`HriIntake`]: where intents enter the robot. Reads (leniently), validates, stamps the
//! envelope, drops stale intents, applies the confidence policy, drops duplicated requests,
//! and reports every outcome as an [`HriEvent`].

use super::dedup::Deduplicator;
use super::envelope::{Envelope, IntentId, IntentRecord, Timestamp};
use super::error::HriError;
use super::message::{HriIntent, IntentFields, IntentIn, ReadIn, ReadOptions, RejectedIntent};
use super::policy::{ConfidenceDecision, ConfidencePolicy};
use super::read::SpareRoles;
use super::vocab::{Modality, Normalization, Source};
use std::borrow::Cow;

/// Configuration of an [`HriIntake`].
#[derive(Clone, Debug)]
pub struct IntakeConfig {
    /// Reader options.
    pub read: ReadOptions,
    /// Confidence bands.
    pub policy: ConfidencePolicy,
    /// Window within which a restatement of the same request, from any source, is a
    /// duplicate when nothing changed in between (default 2000 ms; the rule:
    /// [`Deduplicator`]).
    pub dedup_window_ms: u64,
    /// How many admitted intents the de-duplicator remembers (default 64).
    pub dedup_capacity: usize,
    /// Expiry given to intents whose envelope has none, counted from creation (default
    /// `None`: they never expire).
    pub default_ttl_ms: Option<u64>,
}

impl Default for IntakeConfig {
    fn default() -> Self {
        IntakeConfig {
            read: ReadOptions::default(),
            policy: ConfidencePolicy::default(),
            dedup_window_ms: 2000,
            dedup_capacity: 64,
            default_ttl_ms: None,
        }
    }
}

/// What happened to one incoming message. `R` is the admitted record: [`IntentRecord`] (the
/// default), or within the crate one whose `data` is still borrowed from what was read.
#[derive(Clone, Debug, PartialEq)]
pub enum Admission<R = IntentRecord> {
    /// Admitted: execute it.
    Execute(R),
    /// Admitted, but the confidence is in the confirm band: ask the user first.
    Confirm(R),
    /// Valid, but the confidence is in the ignore band.
    Ignored(IntentId),
    /// A restatement of a request admitted just before, with nothing changed in between
    /// (see [`crate::hri::Deduplicator`]); the id of the earlier one.
    Duplicate {
        /// This message's id.
        id: IntentId,
        /// The earlier intent's id.
        of: IntentId,
    },
    /// Stale: its expiry had passed on arrival.
    Expired(IntentId),
    /// Invalid.
    Rejected(IntentId),
}

/// An admission whose record's `data` is borrowed from the message ([`IntentIn`]).
pub(crate) type AdmissionIn<'a> = Admission<IntentRecord<IntentIn<'a>>>;

impl AdmissionIn<'_> {
    /// The admission with an owned record.
    pub(crate) fn into_owned(self) -> Admission {
        match self {
            Admission::Execute(r) => Admission::Execute(r.map(IntentIn::into_owned)),
            Admission::Confirm(r) => Admission::Confirm(r.map(IntentIn::into_owned)),
            Admission::Ignored(id) => Admission::Ignored(id),
            Admission::Duplicate { id, of } => Admission::Duplicate { id, of },
            Admission::Expired(id) => Admission::Expired(id),
            Admission::Rejected(id) => Admission::Rejected(id),
        }
    }
}

/// Everything the intake reports. Every message produces at least one event.
#[derive(Clone, Debug, PartialEq)]
pub enum HriEvent {
    /// The lenient reader corrected the message's spelling (outdated peer).
    Normalized {
        /// The message's id.
        id: IntentId,
        /// The corrections, in the order the reader made them. Borrowed from a static
        /// list when the only one is [`Normalization::InlineData`] (every message of a JSON
        /// bridge: reported without allocating).
        notes: Cow<'static, [Normalization]>,
    },
    /// A non-fatal problem (kept per [`ReadOptions`]).
    Warning {
        /// The message's id.
        id: IntentId,
        /// The problem.
        error: HriError,
    },
    /// The message was invalid; every problem found is listed.
    Rejected {
        /// The message's id.
        id: IntentId,
        /// The intent's wire value when it could be read.
        intent: Option<String>,
        /// The problems.
        errors: Vec<HriError>,
    },
    /// The intent was stale on arrival.
    Expired {
        /// The message's id.
        id: IntentId,
        /// The intent's wire value (borrowed for the standard intents).
        intent: Cow<'static, str>,
        /// How late it arrived, in ms.
        late_by_ms: u64,
    },
    /// The intent restates a request admitted just before, with nothing changed in between
    /// (see [`crate::hri::Deduplicator`]).
    Duplicate {
        /// The message's id.
        id: IntentId,
        /// The earlier intent's id.
        of: IntentId,
        /// The intent's wire value (borrowed for the standard intents).
        intent: Cow<'static, str>,
        /// Who sent the duplicate.
        source: Source,
        /// How.
        modality: Modality,
    },
    /// The intent was admitted with this confidence decision.
    Admitted {
        /// The message's id.
        id: IntentId,
        /// The intent's wire value (borrowed for the standard intents).
        intent: Cow<'static, str>,
        /// Its confidence.
        confidence: super::message::Confidence,
        /// Execute, confirm or ignore.
        decision: ConfidenceDecision,
    },
}

/// Reads, validates and admits intents. Single-threaded, like the tick loop it runs on.
///
/// ```
/// use robot_runtime::hri::{Admission, Envelope, HriIntake, IntakeConfig, Role, Timestamp};
///
/// let mut intake = HriIntake::new(IntakeConfig::default());
/// let msg = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"kitchen\"}",
///               "source": "__remote_supervisor__", "modality": "__modality_touchscreen__",
///               "priority": 200}"#;
/// let Admission::Execute(record) = intake.receive_json(msg, Envelope::new(), Timestamp(0)) else {
///     panic!("admitted");
/// };
/// assert_eq!(record.intent.role(Role::Goal), Some("kitchen"));
/// assert_eq!(intake.drain_events().len(), 1); // Admitted
/// ```
#[derive(Debug)]
pub struct HriIntake {
    config: IntakeConfig,
    dedup: Deduplicator,
    next_id: u64,
    events: Vec<HriEvent>,
    /// The vector a message's `data` roles are read onto, kept from one message to the next.
    spare: SpareRoles,
}

impl HriIntake {
    /// An intake with this configuration.
    pub fn new(config: IntakeConfig) -> HriIntake {
        HriIntake {
            dedup: Deduplicator::new(config.dedup_window_ms, config.dedup_capacity),
            config,
            next_id: 1,
            events: Vec::new(),
            spare: SpareRoles::default(),
        }
    }

    /// The vector the next message's `data` roles are read onto: lent for a read, its room
    /// kept when the read entries are dropped ([`SpareRoles`]).
    pub(crate) fn spare_roles(&mut self) -> &mut SpareRoles {
        &mut self.spare
    }

    /// The configuration.
    pub fn config(&self) -> &IntakeConfig {
        &self.config
    }

    /// Receives a JSON message (see [`HriIntent::from_json`]).
    pub fn receive_json(&mut self, text: &str, envelope: Envelope, now: Timestamp) -> Admission {
        self.with_own_events(|me, sink| me.receive_json_in(text, envelope, now, sink).into_owned())
    }

    /// [`HriIntake::receive_json`], the record's `data` borrowed from `text`.
    fn receive_json_in<'a>(
        &mut self,
        text: &'a str,
        envelope: Envelope,
        now: Timestamp,
        sink: &mut impl EventSink,
    ) -> AdmissionIn<'a> {
        let read = HriIntent::read_json(text, self.config.read, &mut self.spare);
        self.admit(read, envelope, now, sink)
    }

    /// Receives a JSON message already parsed (an object; see [`HriIntent::from_json`]).
    pub fn receive_object(
        &mut self,
        object: &serde_json::Map<String, serde_json::Value>,
        envelope: Envelope,
        now: Timestamp,
    ) -> Admission {
        self.with_own_events(|me, sink| {
            me.receive_object_in(object, envelope, now, sink)
                .into_owned()
        })
    }

    /// [`HriIntake::receive_object`], the record's `data` borrowed from `object`.
    fn receive_object_in<'a>(
        &mut self,
        object: &'a serde_json::Map<String, serde_json::Value>,
        envelope: Envelope,
        now: Timestamp,
        sink: &mut impl EventSink,
    ) -> AdmissionIn<'a> {
        let read = HriIntent::read_object(object, self.config.read);
        self.admit(read, envelope, now, sink)
    }

    /// Receives a message's fields (a decoded CLAD `Hri::Intent`, a ROS message).
    pub fn receive_fields(
        &mut self,
        fields: IntentFields<'_>,
        envelope: Envelope,
        now: Timestamp,
    ) -> Admission {
        self.with_own_events(|me, sink| {
            me.receive_fields_in(fields, envelope, now, sink)
                .into_owned()
        })
    }

    /// [`HriIntake::receive_fields`], the record's `data` borrowed from the fields.
    fn receive_fields_in<'a>(
        &mut self,
        fields: IntentFields<'a>,
        envelope: Envelope,
        now: Timestamp,
        sink: &mut impl EventSink,
    ) -> AdmissionIn<'a> {
        let read = HriIntent::read_fields(fields, self.config.read, &mut self.spare);
        self.admit(read, envelope, now, sink)
    }

    /// Receives an intent built in-process (already typed; the role table is still checked,
    /// through the canonical JSON form).
    pub fn receive_intent(
        &mut self,
        intent: &HriIntent,
        envelope: Envelope,
        now: Timestamp,
    ) -> Admission {
        let json = intent.to_json();
        let read = HriIntent::read_value(&json, self.config.read).map(|mut r| {
            // Built in-process: confidence stays as given (unstated included).
            r.intent.confidence = intent.confidence;
            r
        });
        self.with_own_events(|me, sink| me.admit(read, envelope, now, sink).into_owned())
    }

    /// Reports a message whose transport could not decode it (a truncated datagram, bad
    /// UTF-8): rejected as [`HriError::Undecodable`] with `reason`.
    pub fn receive_undecodable(&mut self, reason: impl Into<String>) -> Admission {
        let reason = reason.into();
        self.with_own_events(|me, sink| me.receive_undecodable_in(&reason, sink).into_owned())
    }

    /// [`HriIntake::receive_undecodable`] in the terms of the other `receive_*_in`.
    fn receive_undecodable_in(
        &mut self,
        reason: &str,
        sink: &mut impl EventSink,
    ) -> AdmissionIn<'static> {
        self.admit(
            Err(RejectedIntent::undecodable(reason)),
            Envelope::new(),
            Timestamp(0),
            sink,
        )
    }

    /// Tells the de-duplicator that the robot's state changed by itself (an activity ended,
    /// a capability failed): the next restatement of any request is a new request, not a
    /// duplicate (see [`Deduplicator`] for the whole rule).
    pub fn note_state_change(&mut self) {
        self.dedup.state_changed();
    }

    /// Takes the events reported since the last call, oldest first.
    pub fn drain_events(&mut self) -> Vec<HriEvent> {
        std::mem::take(&mut self.events)
    }

    /// Runs `receive` with the intake's own event buffer as the sink (the buffer taken out
    /// for the call and put back: no allocation).
    fn with_own_events<R>(
        &mut self,
        receive: impl FnOnce(&mut HriIntake, &mut Vec<HriEvent>) -> R,
    ) -> R {
        let mut events = std::mem::take(&mut self.events);
        let r = receive(self, &mut events);
        self.events = events;
        r
    }

    /// The events reported since the last drain.
    pub fn events(&self) -> &[HriEvent] {
        &self.events
    }

    /// Admits a read (or reports its rejection): [`HriIntake::admit_read`] with the intent
    /// put back into the record.
    fn admit<'a>(
        &mut self,
        read: Result<ReadIn<'a>, RejectedIntent>,
        envelope: Envelope,
        now: Timestamp,
        sink: &mut impl EventSink,
    ) -> AdmissionIn<'a> {
        let mut read = match read {
            Ok(r) => r,
            Err(rejected) => return Admission::Rejected(self.reject(rejected, envelope, sink)),
        };
        let admission = match self.admit_read(&mut read, envelope, now, sink) {
            Admission::Execute(head) => return Admission::Execute(head.map(|()| read.intent)),
            Admission::Confirm(head) => return Admission::Confirm(head.map(|()| read.intent)),
            Admission::Ignored(id) => Admission::Ignored(id),
            Admission::Duplicate { id, of } => Admission::Duplicate { id, of },
            Admission::Expired(id) => Admission::Expired(id),
            Admission::Rejected(id) => Admission::Rejected(id),
        };
        // Not admitted: the roles' room is kept for the next message.
        self.spare.keep(read.intent.data.take_entries());
        admission
    }

    /// The id of a message: its envelope's, or the next one assigned.
    fn id_of(&mut self, envelope: &Envelope) -> IntentId {
        envelope.id.unwrap_or_else(|| {
            let id = IntentId(self.next_id);
            self.next_id += 1;
            id
        })
    }

    /// Reports a message the reader rejected (its notes, then every problem); its id.
    #[cold]
    pub(crate) fn reject(
        &mut self,
        rejected: RejectedIntent,
        envelope: Envelope,
        sink: &mut impl EventSink,
    ) -> IntentId {
        let id = self.id_of(&envelope);
        if !rejected.notes.is_empty() {
            sink.put_with(|| HriEvent::Normalized {
                id,
                notes: Cow::Owned(rejected.notes),
            });
        }
        sink.put_with(|| HriEvent::Rejected {
            id,
            intent: rejected.intent,
            errors: rejected.errors,
        });
        id
    }

    /// Decides about a read message: stamps the envelope, drops it when stale, applies the
    /// confidence policy and the de-duplicator, and reports (its notes and warnings are
    /// taken out of `read`). The admitted record comes back without its intent
    /// (`IntentRecord<()>`): the intent stays where the caller read it, and is not moved
    /// to be admitted.
    pub(crate) fn admit_read(
        &mut self,
        read: &mut ReadIn<'_>,
        envelope: Envelope,
        now: Timestamp,
        sink: &mut impl EventSink,
    ) -> Admission<IntentRecord<()>> {
        let id = self.id_of(&envelope);
        // Only spelling fixes are news: a missing priority or `data`, normal on the JSON
        // path, is kept apart by the reader (`ReadIn::apart`) and not reported.
        if let Some(notes) = read.take_reported_notes() {
            sink.put_with(|| HriEvent::Normalized { id, notes });
        }
        if !read.warnings.is_empty() {
            crate::hint::cold_path();
            for error in std::mem::take(&mut read.warnings) {
                sink.put_with(|| HriEvent::Warning { id, error });
            }
        }
        let intent = &read.intent;
        let created = envelope.created.unwrap_or(now);
        let expires = envelope
            .expires
            .or_else(|| self.config.default_ttl_ms.map(|ttl| created.plus(ttl)));
        if let Some(e) = expires.filter(|e| now > *e) {
            crate::hint::cold_path();
            sink.put_with(|| HriEvent::Expired {
                id,
                intent: intent.intent.wire_cow(),
                late_by_ms: now.since(e),
            });
            return Admission::Expired(id);
        }
        // The decision first: de-duplication compares it with the earlier admission's (a
        // clearer restatement of an ignored or unconfirmed request is a new request).
        let decision = self.config.policy.decide(&intent.intent, intent.confidence);
        let key = Deduplicator::key_in(intent);
        if let Some(of) =
            self.dedup
                .check_key(key, intent.confidence, envelope.id, id, now, decision)
        {
            crate::hint::cold_path();
            sink.put_with(|| HriEvent::Duplicate {
                id,
                of,
                intent: intent.intent.wire_cow(),
                source: intent.source.clone(),
                modality: intent.modality.clone(),
            });
            return Admission::Duplicate { id, of };
        }
        sink.put_with(|| HriEvent::Admitted {
            id,
            intent: intent.intent.wire_cow(),
            confidence: intent.confidence,
            decision,
        });
        let record = IntentRecord {
            id,
            created,
            arrived: now,
            expires,
            correlation: envelope.correlation,
            intent: (),
            decision,
        };
        match decision {
            ConfidenceDecision::Execute => Admission::Execute(record),
            ConfidenceDecision::Confirm => Admission::Confirm(record),
            ConfidenceDecision::Ignore => Admission::Ignored(id),
        }
    }
}

/// Where the intake's events go: its own buffer (the public `receive_*`), or, inside the
/// intent component, straight into the component's buffer and subscribers, so an event is
/// built once, where it stays.
pub(crate) trait EventSink {
    /// Takes the event `make` builds, built where it is kept (built elsewhere, it would be
    /// copied in with wide loads of the fields just written one by one: a stall per event),
    /// and logs it.
    fn put_with(&mut self, make: impl FnOnce() -> HriEvent);
}

impl EventSink for Vec<HriEvent> {
    #[inline]
    fn put_with(&mut self, make: impl FnOnce() -> HriEvent) {
        crate::hint::push_in_place(self, make);
        if let Some(event) = self.last() {
            log_event(event);
        }
    }
}

/// Logs an intake event: a rejection or a warning at `warn`, the rest at `debug`.
fn log_event(event: &HriEvent) {
    match event {
        HriEvent::Rejected { id, intent, errors } => {
            tracing::warn!(id = id.0, ?intent, ?errors, "hri intent rejected");
        }
        HriEvent::Warning { id, error } => {
            tracing::warn!(id = id.0, %error, "hri intent warning");
        }
        other => tracing::debug!(event = ?other, "hri intake"),
    }
}
