//! The envelope the message lacks: id, creation time, expiry and correlation id, so that a
//! late or duplicated intent can be recognised and a reply can name what it answers.

use super::message::HriIntent;
use super::policy::ConfidenceDecision;

/// A time on the robot's monotonic clock, in milliseconds. Injected by the caller (no wall
/// clock is read), so tests run in virtual time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// Milliseconds from `earlier` to `self` (0 when `earlier` is later).
    pub fn since(self, earlier: Timestamp) -> u64 {
        self.0.saturating_sub(earlier.0)
    }

    /// `self` plus `ms` milliseconds (saturating).
    pub fn plus(self, ms: u64) -> Timestamp {
        Timestamp(self.0.saturating_add(ms))
    }
}

/// An intent's id: given by the producer, or assigned by the intake in arrival order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IntentId(pub u64);

/// What a transport knows about a message besides its fields. Every part is optional; the
/// intake fills in what is missing (id: the next arrival number; created: the arrival time;
/// expiry: [`crate::hri::IntakeConfig::default_ttl_ms`] after creation, when set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The producer's id for the message.
    pub id: Option<IntentId>,
    /// When the producer created it.
    pub created: Option<Timestamp>,
    /// After this time the intent is stale and is not executed.
    pub expires: Option<Timestamp>,
    /// Links the intent to a conversation turn or request (echoed in replies).
    pub correlation: Option<String>,
}

impl Envelope {
    /// An empty envelope.
    pub fn new() -> Envelope {
        Envelope::default()
    }

    /// Sets the id (builder style).
    pub fn id(mut self, id: u64) -> Envelope {
        self.id = Some(IntentId(id));
        self
    }

    /// Sets the creation time (builder style).
    pub fn created(mut self, at: Timestamp) -> Envelope {
        self.created = Some(at);
        self
    }

    /// Sets the expiry (builder style).
    pub fn expires(mut self, at: Timestamp) -> Envelope {
        self.expires = Some(at);
        self
    }

    /// Sets the correlation id (builder style).
    pub fn correlation(mut self, id: impl Into<String>) -> Envelope {
        self.correlation = Some(id.into());
        self
    }
}

/// An admitted intent with its complete envelope: what the mission controller and behaviors
/// receive. `I` is the intent: the owned [`HriIntent`] (the default), or within the crate
/// one whose `data` is still borrowed from what was read.
#[derive(Clone, Debug, PartialEq)]
pub struct IntentRecord<I = HriIntent> {
    /// The id (the producer's, or assigned).
    pub id: IntentId,
    /// When it was created (the producer's time, or the arrival time).
    pub created: Timestamp,
    /// When it arrived at the intake.
    pub arrived: Timestamp,
    /// When it goes stale.
    pub expires: Option<Timestamp>,
    /// The correlation id.
    pub correlation: Option<String>,
    /// The intent.
    pub intent: I,
    /// The confidence policy's decision.
    pub decision: ConfidenceDecision,
}

impl<I> IntentRecord<I> {
    /// The same record with its intent mapped by `f`.
    pub(crate) fn map<J>(self, f: impl FnOnce(I) -> J) -> IntentRecord<J> {
        IntentRecord {
            id: self.id,
            created: self.created,
            arrived: self.arrived,
            expires: self.expires,
            correlation: self.correlation,
            intent: f(self.intent),
            decision: self.decision,
        }
    }
}

impl<I> IntentRecord<I> {
    /// True when the intent is stale at `now`.
    pub fn is_expired(&self, now: Timestamp) -> bool {
        self.expires.is_some_and(|e| now > e)
    }
}
