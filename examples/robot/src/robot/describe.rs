//! How the timeline describes intents, matches, requests and bytes.

use robot_runtime::hri::{ConfidenceDecision, HriEvent};
use robot_runtime::intent::{
    CloudRequest, HriMessage, IntentSource, Match, Request, UnmatchedReason,
};
use robot_runtime::union::CladUnion;

use crate::intents::{self, Tag, UserIntent};

use crate::timeline::{MapEntryInfo, What};

/// A union value's payload as compact JSON without its `type` key, or `None` for a void
/// member.
pub fn payload_json(intent: &UserIntent) -> Option<String> {
    let mut v = serde_json::to_value(intent).ok()?;
    let obj = v.as_object_mut()?;
    obj.remove("type");
    (!obj.is_empty()).then(|| serde_json::Value::Object(obj.clone()).to_string())
}

/// The entry of `USER_INTENT_MAP` (cloud and app intents) or `HRI_INTENT_MAP` (HRI intents) an
/// intent of member `tag` came through.
pub fn map_entry(m: &Match<Tag>, tag: Tag) -> Option<MapEntryInfo> {
    let (table, e) = match m {
        Match::Cloud { intent } => ("cloud", intents::USER_INTENT_MAP.cloud(intent)?),
        Match::App { intent } => ("app", intents::USER_INTENT_MAP.app(intent)?),
        Match::Hri { intent } => {
            let e = crate::hri::HRI_INTENT_MAP
                .entries
                .iter()
                .find(|e| e.intent == *intent && e.tag == tag)?;
            let mut substitutions: Vec<String> = e
                .when
                .iter()
                .map(|c| format!("when {} = {}", c.role, c.value))
                .collect();
            substitutions.extend(
                e.fields
                    .iter()
                    .map(|f| format!("{} -> {}", f.role, f.field)),
            );
            substitutions.push(format!("to {}", e.route.name()));
            return Some(MapEntryInfo {
                table: "hri",
                intent: e.intent,
                user_intent: UserIntent::tag_name(e.tag),
                substitutions,
                feature_gate: e.feature_gate,
            });
        }
        _ => return None,
    };
    Some(MapEntryInfo {
        table,
        intent: e.intent,
        user_intent: UserIntent::tag_name(e.tag),
        substitutions: e
            .sanitation
            .iter()
            .map(|s| {
                let mut t = s.from.to_owned();
                if let Some(to) = s.to {
                    t.push_str(" -> ");
                    t.push_str(to);
                }
                if s.numeric {
                    t.push_str(" (number)");
                }
                t
            })
            .collect(),
        feature_gate: e.feature_gate,
    })
}

/// How a pending intent got its tag, for a person (`cloud intent intent_weather`, ...).
pub fn describe_match(m: &Match<Tag>) -> String {
    match m {
        Match::Cloud { intent } => format!("cloud intent {intent}"),
        Match::App { intent } => format!("app intent {intent}"),
        Match::SimpleVoice { intent } => format!("simple voice response to {intent}"),
        Match::Hri { intent } => format!("HRI intent {intent}"),
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

/// The timeline's input kind of a request from `source`.
pub fn input_kind(source: IntentSource) -> &'static str {
    match source {
        IntentSource::Voice => "cloud",
        IntentSource::App => "app",
        IntentSource::Hri => "hri",
        IntentSource::Ros2 => "ros2",
        IntentSource::Dev => "user_intent",
        _ => "input",
    }
}

/// The most bytes of an undecodable input a timeline line shows (as hex).
const SHOWN_BYTES: usize = 48;

/// Bytes as the timeline shows them: their count, and the first `SHOWN_BYTES` in hex.
pub fn describe_bytes(bytes: &[u8]) -> String {
    let hex = crate::scenario::encode_hex(&bytes[..bytes.len().min(SHOWN_BYTES)]);
    let more = if bytes.len() > SHOWN_BYTES { "…" } else { "" };
    format!("{} bytes {hex}{more}", bytes.len())
}

/// A one-line description of a request, as the intake decoded it (the input line's text).
pub fn describe_request(r: &Request<'_, UserIntent>) -> String {
    match r {
        Request::Cloud(CloudRequest::Result {
            intent,
            parameters: "",
        }) => format!("result {intent}"),
        Request::Cloud(CloudRequest::Result { intent, parameters }) => {
            format!("result {intent} {parameters}")
        }
        Request::Cloud(CloudRequest::Error { .. }) => "error".to_owned(),
        Request::Cloud(CloudRequest::StreamTimeout) => "streamTimeout".to_owned(),
        Request::Cloud(CloudRequest::StreamOpen) => "streamOpen".to_owned(),
        Request::Cloud(CloudRequest::Other { message }) => (*message).to_owned(),
        Request::Cloud(CloudRequest::Undecodable { bytes, .. }) => describe_bytes(bytes),
        Request::App { intent, param } => format!("{intent} {param:?}"),
        Request::Hri(h) => match &h.message {
            HriMessage::Text(text) => (*text).to_owned(),
            HriMessage::Object(m) => crate::scenario::describe_hri(m),
            HriMessage::Fields(f, _) => crate::hri::describe(f),
            HriMessage::Undecodable { bytes, .. } => describe_bytes(bytes),
        },
        Request::Direct(intent) => match payload_json(intent) {
            Some(p) => format!("{} {p}", UserIntent::tag_name(intent.tag())),
            None => UserIntent::tag_name(intent.tag()).to_owned(),
        },
    }
}

/// The timeline line of what the HRI intake reported (`None`: nothing to show, an admission).
pub(super) fn hri_event(e: HriEvent) -> Option<What> {
    Some(match e {
        HriEvent::Normalized { notes, .. } => What::Note {
            text: format!("HRI message from an older peer, read as: {notes:?}"),
        },
        HriEvent::Warning { error, .. } => What::InputIgnored {
            reason: format!("HRI warning: {error}"),
        },
        HriEvent::Rejected { intent, errors, .. } => What::NotUnderstood {
            intent: intent.unwrap_or_else(|| "(unreadable)".into()),
            error: errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            reaction: "rejected",
        },
        HriEvent::Expired {
            intent, late_by_ms, ..
        } => What::InputIgnored {
            reason: format!("{intent} arrived {late_by_ms} ms after its expiry"),
        },
        HriEvent::Duplicate { intent, of, .. } => What::InputIgnored {
            reason: format!("{intent} duplicates intent #{} received just before", of.0),
        },
        HriEvent::Admitted {
            decision: ConfidenceDecision::Ignore,
            intent,
            ..
        } => What::InputIgnored {
            reason: format!("{intent}: confidence too low, ignored"),
        },
        HriEvent::Admitted {
            decision: ConfidenceDecision::Confirm,
            intent,
            confidence,
            ..
        } => What::InputIgnored {
            reason: format!(
                "{intent} needs confirmation (confidence {}): the robot asks before acting",
                confidence.value().unwrap_or(1.0)
            ),
        },
        HriEvent::Admitted { .. } => return None,
    })
}

/// A stack entry's behavior name (without a state machine's state).
pub(super) fn base(entry: &str) -> &str {
    entry.split('(').next().unwrap_or(entry)
}
