//! The user-intent map as compiled at build time: plain `'static` tables, looked up without
//! any start-up work (no JSON parsing, no hash map building on the robot).
//!
//! `robot-codegen` (`IntentMap`, a `clad-codegen` build extension) validates a
//! `user_intent_map.json` (the original robot's file format) against the schema's
//! user-intent union and emits one `pub static …: StaticIntentMap<Tag>` value made of these
//! types. Tables are sorted by intent
//! string (byte order) so lookups are binary searches.

/// One step applied to a cloud/app parameter before the payload is built: rename `from` to
/// `to` (when set), then convert the value to a number (when `numeric`).
///
/// Compiled from `cloud_substitutions` + `cloud_numerics` (or the `app_` pair) exactly as the
/// original does: every substitution is a step; a numerics name either marks the step with the
/// same `from` numeric or adds a numeric-only step. `from` is always the incoming
/// (pre-substitution) name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sanitation {
    /// Incoming parameter name.
    pub from: &'static str,
    /// New name (a field of the payload structure), if renamed.
    pub to: Option<&'static str>,
    /// Convert the (string) value to a JSON number.
    pub numeric: bool,
}

/// A `user_intent_map` entry for one cloud or app intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapEntry<T: 'static> {
    /// The cloud or app intent string (the lookup key).
    pub intent: &'static str,
    /// The user-intent union tag it maps to.
    pub tag: T,
    /// Parameter renames and numeric conversions, in application order.
    pub sanitation: &'static [Sanitation],
    /// A feature that must be enabled for this entry to exist (evaluated at lookup time).
    pub feature_gate: Option<&'static str>,
}

/// A `simple_voice_responses` entry: answered by playing an animation group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimpleVoiceResponse {
    /// The cloud intent string (the lookup key).
    pub cloud_intent: &'static str,
    /// Animation group to play.
    pub anim_group: &'static str,
    /// Mood-manager emotion event ("" for none).
    pub emotion_event: &'static str,
    /// `ActiveFeature` enum member name.
    pub active_feature: &'static str,
    /// Do not turn toward the speaker after the wake word.
    pub disable_wakeword_turn: bool,
    /// A feature that must be enabled for this entry to exist.
    pub feature_gate: Option<&'static str>,
}

impl SimpleVoiceResponse {
    /// The payload fields of the [`SIMPLE_VOICE_RESPONSE`](super::members::SIMPLE_VOICE_RESPONSE)
    /// member that a response fills, in this order: `anim_group`, `emotion_event` (strings),
    /// `active_feature` (a string, or an enum filled by member name) and
    /// `disable_wakeword_turn` (a bool). The map compiler checks the member's payload
    /// against them; the translator fills them.
    pub const PAYLOAD_FIELDS: [&'static str; 4] = [
        "anim_group",
        "emotion_event",
        "active_feature",
        "disable_wakeword_turn",
    ];

    /// The `active_feature` of a response that names none (the original's default).
    pub const DEFAULT_ACTIVE_FEATURE: &'static str = "BasicVoiceCommand";
}

/// The whole map, generic over the union's tag type.
#[derive(Clone, Copy, Debug)]
pub struct StaticIntentMap<T: 'static> {
    /// Cloud intents, sorted by `intent`.
    pub cloud: &'static [MapEntry<T>],
    /// App intents, sorted by `intent`.
    pub app: &'static [MapEntry<T>],
    /// Simple voice responses, sorted by `cloud_intent`.
    pub simple_voice: &'static [SimpleVoiceResponse],
    /// The tag simple voice responses become (`simple_voice_response`), if the union has it.
    pub simple_voice_tag: Option<T>,
    /// The tag for anything that does not map (`unmatched_intent`).
    pub unmatched: T,
}

impl<T: Copy> StaticIntentMap<T> {
    /// The cloud entry for `intent` (ignoring feature gates).
    pub fn cloud(&self, intent: &str) -> Option<&'static MapEntry<T>> {
        find(self.cloud, intent, |e| e.intent)
    }

    /// The app entry for `intent` (ignoring feature gates).
    pub fn app(&self, intent: &str) -> Option<&'static MapEntry<T>> {
        find(self.app, intent, |e| e.intent)
    }

    /// The simple voice response for `intent` (ignoring feature gates).
    pub fn simple_voice_response(&self, intent: &str) -> Option<&'static SimpleVoiceResponse> {
        find(self.simple_voice, intent, |e| e.cloud_intent)
    }
}

fn find<E>(
    table: &'static [E],
    key: &str,
    key_of: impl Fn(&E) -> &'static str,
) -> Option<&'static E> {
    table
        .binary_search_by(|e| key_of(e).as_bytes().cmp(key.as_bytes()))
        .ok()
        .map(|i| &table[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    static CLOUD: [MapEntry<u8>; 2] = [
        MapEntry {
            intent: "intent_a",
            tag: 1,
            sanitation: &[],
            feature_gate: None,
        },
        MapEntry {
            intent: "intent_b",
            tag: 2,
            sanitation: &[Sanitation {
                from: "x.y",
                to: Some("x"),
                numeric: true,
            }],
            feature_gate: Some("Feature"),
        },
    ];
    static MAP: StaticIntentMap<u8> = StaticIntentMap {
        cloud: &CLOUD,
        app: &[],
        simple_voice: &[],
        simple_voice_tag: None,
        unmatched: 0,
    };

    #[test]
    fn lookups_are_binary_searches_over_sorted_tables() {
        assert_eq!(MAP.cloud("intent_b").map(|e| e.tag), Some(2));
        assert_eq!(MAP.cloud("intent_a").map(|e| e.tag), Some(1));
        assert!(MAP.cloud("intent_c").is_none());
        assert!(MAP.app("intent_a").is_none());
        assert!(MAP.simple_voice_response("x").is_none());
    }
}
