//! The robot's ROS4HRI wiring: the generated `Hri::Intent` / `Hri::IntentEnvelope`
//! (`schemas/hri.clad`) in the terms of the runtime's [`robot_runtime::hri`] layer, and
//! `HRI_INTENT_MAP` (`schemas/hri_intent_map.json`, checked at build time against the
//! user-intent union), which turns an HRI intent into the user intent a voice command would
//! have produced and says where the request goes (behaviors, mission controller, both).
//!
//! A packed envelope enters the robot through the one intake like every other request
//! ([`HriEnvelopeBytes`], submitted to the intent component):
//!
//! ```
//! use robot_example::hri::{HriEnvelopeBytes, IntentEnvelope};
//! use robot_example::intents::{self, Tag};
//! use robot_runtime::hri::{Priority, Timestamp};
//! use robot_runtime::intent::{IntakeOutcome, IntentSource, Match};
//! use robot_runtime::wire::Wire;
//!
//! // A supervisor's "dock" as bytes on the wire.
//! let mut env = IntentEnvelope::default();
//! env.intent.intent = "__intent_move_to__".into();
//! env.intent.data = r#"{"goal": "poi_docking"}"#.into();
//! env.intent.source = "__remote_supervisor__".into();
//! env.intent.priority = 255;
//! env.confidence_unstated = true;
//! let bytes = env.pack().unwrap();
//!
//! let mut component = intents::component();
//! let outcome = component.submit(HriEnvelopeBytes {
//!     bytes: &bytes,
//!     arrived: Timestamp(0),
//! });
//! // The same member as the voice command "go to your charger", for the behaviors.
//! let matched = Match::Hri { intent: "__intent_move_to__" };
//! assert_eq!(outcome, IntakeOutcome::Pending { tag: Tag::SystemCharger, matched });
//! let pending = component.pending().unwrap();
//! assert_eq!((pending.source(), pending.priority()), (IntentSource::Hri, Priority(255)));
//! ```

use robot_runtime::hri::{
    Confidence, Envelope, HriError, HriIntent, HriMapError, IntentFields, IntentId, IntentKind,
    Modality, Priority, ReadOptions, Source, Timestamp,
};
use robot_runtime::intent::{HriMessage, IntentRequest, IntentSource, Request};
use robot_runtime::union::CladUnion;
use robot_runtime::wire::WireView;

pub use crate::clad::hri::{Intent, IntentEnvelope, IntentEnvelopeView, IntentView, IntentsList};
pub use crate::clad::HRI_INTENT_MAP;
use crate::intents::UserIntent;

/// The fields of a generated [`Intent`] for the lenient reader (priority and confidence are
/// always present on this transport).
pub fn fields(intent: &Intent) -> IntentFields<'_> {
    IntentFields {
        intent: &intent.intent,
        data: &intent.data,
        source: &intent.source,
        modality: &intent.modality,
        priority: Some(intent.priority),
        confidence: Some(intent.confidence),
    }
}

/// The fields and envelope of a generated [`IntentEnvelope`] (0 / "" mean "not given";
/// `confidence_unstated` makes the confidence unstated).
pub fn envelope(env: &IntentEnvelope) -> (IntentFields<'_>, Envelope) {
    let mut f = fields(&env.intent);
    if env.confidence_unstated {
        f.confidence = None;
    }
    let e = envelope_of(env.id, env.created_ms, env.expires_ms, &env.correlation);
    (f, e)
}

/// The [`Envelope`] of a packed envelope's fields (0 and "" mean "not given").
fn envelope_of(id: u64, created_ms: u64, expires_ms: u64, correlation: &str) -> Envelope {
    let nonzero = |v: u64| (v != 0).then_some(v);
    Envelope {
        id: nonzero(id).map(IntentId),
        created: nonzero(created_ms).map(Timestamp),
        expires: nonzero(expires_ms).map(Timestamp),
        correlation: (!correlation.is_empty()).then(|| correlation.to_owned()),
    }
}

/// [`envelope`] of a borrowed view of a packed [`IntentEnvelope`] (its strings not copied).
pub fn envelope_view<'a>(env: &IntentEnvelopeView<'a>) -> (IntentFields<'a>, Envelope) {
    let i = &env.intent;
    let f = IntentFields {
        intent: i.intent,
        data: i.data,
        source: i.source,
        modality: i.modality,
        priority: Some(i.priority),
        confidence: (!env.confidence_unstated).then_some(i.confidence),
    };
    let e = envelope_of(env.id, env.created_ms, env.expires_ms, env.correlation);
    (f, e)
}

/// A one-line description of an HRI message's fields for the timeline, in the words of
/// [`describe_hri`](crate::scenario::describe_hri) (fields not given are left out).
pub fn describe(f: &IntentFields<'_>) -> String {
    let mut m = serde_json::Map::new();
    for (key, value) in [
        ("intent", f.intent),
        ("data", f.data),
        ("source", f.source),
        ("modality", f.modality),
    ] {
        if !value.is_empty() {
            m.insert(key.to_owned(), value.into());
        }
    }
    if let Some(p) = f.priority {
        m.insert("priority".to_owned(), p.into());
    }
    if let Some(c) = f.confidence {
        m.insert("confidence".to_owned(), f64::from(c).into());
    }
    crate::scenario::describe_hri(&m)
}

/// A packed `Hri::IntentEnvelope` (as it arrives over a transport) for the one intake: decoded
/// once; bytes that do not decode are an [`HriMessage::Undecodable`] request, rejected by the
/// HRI intake with a [`robot_runtime::hri::HriError::Undecodable`] event (never a panic).
#[derive(Clone, Copy, Debug)]
pub struct HriEnvelopeBytes<'a> {
    /// The bytes.
    pub bytes: &'a [u8],
    /// When they arrived (robot time).
    pub arrived: Timestamp,
}

impl IntentRequest<UserIntent> for HriEnvelopeBytes<'_> {
    fn with_request<R>(self, f: impl FnOnce(Request<'_, UserIntent>) -> R) -> R {
        // Decoded as a borrowed view: the strings are read in place, not copied.
        match IntentEnvelopeView::unpack_view(self.bytes) {
            Ok(env) => {
                let (fields, envelope) = envelope_view(&env);
                f(Request::hri_fields(
                    IntentSource::Hri,
                    fields,
                    envelope,
                    self.arrived,
                ))
            }
            Err(error) => {
                let reason = error.to_string();
                f(Request::hri(
                    IntentSource::Hri,
                    HriMessage::Undecodable {
                        reason: &reason,
                        bytes: self.bytes,
                    },
                    self.arrived,
                ))
            }
        }
    }
}

/// The canonical generated message for `intent` (2.x constants; an unstated confidence is
/// written as 0.0 — use [`to_envelope`] to keep "unstated").
pub fn to_clad(intent: &HriIntent) -> Intent {
    let w = intent.to_wire();
    Intent {
        intent: w.intent,
        data: w.data,
        source: w.source,
        modality: w.modality,
        priority: w.priority,
        confidence: w.confidence.unwrap_or(0.0),
    }
}

/// `intent` in an envelope (id 0 and times 0: not given).
pub fn to_envelope(intent: &HriIntent, id: u64, correlation: &str) -> IntentEnvelope {
    IntentEnvelope {
        id,
        created_ms: 0,
        expires_ms: 0,
        correlation: correlation.to_owned(),
        confidence_unstated: intent.confidence.value().is_none(),
        intent: to_clad(intent),
    }
}

/// The user intent `intent` maps to through `HRI_INTENT_MAP`.
pub fn to_user_intent(intent: &HriIntent) -> Result<UserIntent, HriMapError> {
    HRI_INTENT_MAP.to_user_intent(intent)
}

/// What the robot tells other systems it heard when its cloud pipeline recognised `intent` (a
/// voice command), as a ROS4HRI intent:
///
/// - a member some entry of `HRI_INTENT_MAP` maps to becomes that HRI intent: the entry's
///   `when` roles are set, and the payload fields it fills are copied back into their roles
///   (`system_charger` → `MOVE_TO` `{"goal": "poi_docking"}`, `hri_move_to {goal}` →
///   `MOVE_TO` `{"goal": …}`). When several intents map to the member, the one listed first
///   in the spec's table wins (`STOP_ACTIVITY` before the forks' `CANCEL_ACTIVITY`);
/// - any other member becomes a custom intent named after the member, with its payload as
///   `data` (`set_timer` `{"time_s": 300}`), as the message allows custom strings.
///
/// The source is `__unknown_agent__` (a person the robot does not identify), the modality
/// speech; priority 128 and confidence 1.0 are explicit (the cloud's result is final, and a
/// ROS consumer reads 0 and 0.0 literally). The intent is checked by the HRI reader (the role
/// table): one the robot could not accept itself is refused with the reader's errors.
pub fn heard(intent: &UserIntent) -> Result<HriIntent, Vec<HriError>> {
    let tag = intent.tag();
    let rank = |wire: &str| {
        IntentKind::STANDARD
            .iter()
            .position(|k| k.wire() == wire)
            .unwrap_or(usize::MAX)
    };
    let entry = HRI_INTENT_MAP
        .entries
        .iter()
        .filter(|e| e.tag == tag)
        .min_by_key(|e| rank(e.intent));
    let mut payload = serde_json::to_value(intent)
        .ok()
        .and_then(|v| match v {
            serde_json::Value::Object(m) => Some(m),
            _ => None,
        })
        .unwrap_or_default();
    payload.remove("type");
    let (kind, data) = match entry {
        Some(entry) => {
            let mut data = serde_json::Map::new();
            for c in entry.when {
                data.insert(c.role.to_owned(), c.value.into());
            }
            for f in entry.fields {
                match payload.get(f.field) {
                    None | Some(serde_json::Value::Null) => {}
                    Some(serde_json::Value::String(s)) if s.is_empty() => {}
                    Some(v) => {
                        data.insert(f.role.to_owned(), v.clone());
                    }
                }
            }
            let kind = IntentKind::from_wire_exact(entry.intent)
                .unwrap_or_else(|| IntentKind::Custom(entry.intent.to_owned()));
            (kind, data)
        }
        None => (
            IntentKind::Custom(UserIntent::tag_name(tag).to_owned()),
            payload,
        ),
    };
    let hri = HriIntent {
        intent: kind,
        data: data.into(),
        source: Source::UnknownAgent,
        modality: Modality::Speech,
        priority: Priority::DEFAULT,
        confidence: Confidence::Stated(1.0),
    };
    match HriIntent::from_json_value(&hri.to_json(), ReadOptions::default()) {
        Ok(_) => Ok(hri),
        Err(rejected) => Err(rejected.errors),
    }
}
