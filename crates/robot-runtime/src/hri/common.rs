//! The short path of the lenient reader: a JSON message as bridges and rosbridge write it
//! most of the time, read without the [`Reader`](super::message) that reports problems.
//!
//! The common shape is a message the scanner read ([`super::scan`]) whose fields need
//! nothing the reader would note, warn about or reject: no unknown field and no `action`; an
//! `intent` that is exactly a standard constant; `data` absent, blank, an inline object
//! (noted, [`Normalization::InlineData`], as the reader notes it) or a string holding a flat
//! object; roles the intent's table accepts; `source` and `modality` absent, `null` or
//! strings that read without a warning (a spelling the vocabulary corrects is noted here as
//! the reader notes it); `priority` absent or an integer up to 255; `confidence` absent,
//! `null` or a number within 0..=1. Anything else answers `None`, and the reader reads the
//! message. What this path reads is exactly what the reader reads (the notes in the same
//! order, the quiet notes in the same places): held to it by the proptests of `scan.rs`,
//! which compare every message through here with the `serde_json::Value` path.
//!
//! Why a second path: the reader's checks are code a message runs through whether or not
//! it has a problem, and on every request that code must be fetched into the instruction
//! cache (BENCHMARKS.md, issue 29: the HRI path's time gap is its code footprint). This path
//! is the checks a message without problems needs, and nothing else.

use super::error::HriError;
use super::message::{confidence_of, priority_of, Confidence, IntentIn, QuietNotes, ReadIn};
use super::read::{FieldIn, MessageIn, RolesIn};
use super::roles;
use super::vocab::{IntentKind, Modality, Normalization, Source};
use crate::hri::Priority;
use serde_json::Value;

impl<'a> MessageIn<'a> {
    /// The message read by the short path, or `None` when it is not of the common shape
    /// (the message is then as it was: nothing is taken out of it).
    pub(super) fn read_common(&mut self) -> Option<ReadIn<'a>> {
        if !self.unknown.is_empty() || self.action.is_some() {
            return None;
        }
        let Some(FieldIn::Str(intent)) = &self.intent else {
            return None;
        };
        let kind = IntentKind::from_wire_exact(intent)?;
        let mut quiet = QuietNotes::default();
        let empty = RolesIn::default();
        let (roles, inline, blank) = match &self.data {
            None => (&empty, false, true),
            Some(FieldIn::Roles(r)) => (r, true, false),
            Some(FieldIn::TextRoles { roles, .. }) => (roles, false, false),
            Some(FieldIn::Str(t)) if t.trim().is_empty() => (&empty, false, true),
            Some(v) if v.is_null() => (&empty, false, true),
            Some(_) => return None,
        };
        // Blank `data` is the empty object, and the role table checks it too (a required
        // role is missing).
        accepted(&kind, roles)?;
        let priority = match &self.priority {
            None => None,
            Some(FieldIn::Other(v)) => Some(Priority(priority_of(v)?)),
            Some(_) => return None,
        };
        let confidence = match &self.confidence {
            None => Confidence::Unstated,
            Some(FieldIn::Other(v)) => match &**v {
                Value::Null => Confidence::Unstated,
                Value::Number(n) => confidence_of(n.as_f64().unwrap_or(f64::NAN))?,
                _ => return None,
            },
            Some(_) => return None,
        };
        let source = text_of(&self.source)?;
        let modality = text_of(&self.modality)?;
        // Past every check that can answer `None` but the vocabulary's: the notes, in the
        // reader's order (inline `data` first, then the source's and the modality's).
        let mut notes = Vec::new();
        if inline {
            notes.reserve_exact(4);
            notes.push(Normalization::InlineData);
        }
        if blank {
            quiet.empty_data_at = Some(notes.len());
        }
        let source = source.map_or(Source::Unknown, |s| Source::read(s, &mut notes));
        let modality = modality.map_or(Modality::Other, |m| Modality::read(m, &mut notes));
        if let Modality::Unrecognized(_) = modality {
            // Warned about or rejected, as the options say: the reader's to decide.
            return None;
        }
        let priority = priority.unwrap_or_else(|| {
            quiet.default_priority = true;
            Priority::DEFAULT
        });
        let data = match self.data.take() {
            Some(FieldIn::Roles(r) | FieldIn::TextRoles { roles: r, .. }) => r,
            _ => RolesIn::default(),
        };
        Some(ReadIn {
            intent: IntentIn {
                intent: kind,
                data,
                source,
                modality,
                priority,
                confidence,
            },
            notes,
            quiet,
            warnings: Vec::new(),
        })
    }
}

/// `Some` when the intent's role table takes `roles` without an error or an unexpected key.
fn accepted(kind: &IntentKind, roles: &RolesIn<'_>) -> Option<()> {
    let mut errors: Vec<HriError> = Vec::new();
    let mut unexpected: Vec<String> = Vec::new();
    roles::check_in(kind, roles, &mut errors, &mut unexpected);
    (errors.is_empty() && unexpected.is_empty()).then_some(())
}

/// A string field's text (`Some(None)` when absent or `null`); `None` for any other value
/// (the reader reports it).
fn text_of<'v>(field: &'v Option<FieldIn<'_>>) -> Option<Option<&'v str>> {
    match field {
        None => Some(None),
        Some(FieldIn::Str(s)) => Some(Some(s)),
        Some(v) if v.is_null() => Some(None),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::message::ReadOptions;
    use super::super::scan;
    use proptest::prelude::*;

    /// The short path's read of `text` and the reader's (both on what the scanner read),
    /// owned; `None` for the short path when it leaves the message to the reader, or when
    /// the scanner does not read the text.
    fn both(text: &str, options: ReadOptions) -> Option<(Option<String>, String)> {
        let mut common = scan::message(text)?;
        let mut full = scan::message(text)?;
        let short = common
            .read_common()
            .map(|r| format!("{:?}", r.into_owned()));
        let read = match full.read(options) {
            Ok(r) => format!("{:?}", r.into_owned()),
            Err(e) => format!("rejected {e:?}"),
        };
        Some((short, read))
    }

    const SAY: &str = r#"{"intent": "__intent_say__", "data": {"object": "hello there", "recipient": "person_1"}, "source": "__remote_supervisor__", "priority": 200}"#;
    const SAY_CANONICAL: &str = r#"{"intent": "__intent_say__", "data": "{\"object\": \"hello there\", \"recipient\": \"person_1\"}", "source": "__remote_supervisor__", "priority": 200}"#;
    const GUIDE: &str = r#"{"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "person_1"}, "source": "person_1", "modality": "__modality_speech__", "priority": 128, "confidence": 0.9}"#;

    #[test]
    fn the_messages_bridges_write_take_the_short_path_and_read_as_the_reader_reads_them() {
        for text in [
            SAY,
            SAY_CANONICAL,
            GUIDE,
            r#"{"intent": "__intent_stop_activity__"}"#,
        ] {
            let (short, read) = both(text, ReadOptions::default()).expect("scanned");
            assert_eq!(short.as_deref(), Some(read.as_str()), "{text}");
        }
    }

    #[test]
    fn what_the_reader_corrects_or_reports_is_left_to_it() {
        for text in [
            // A quoted constant, an alias, a custom intent, the 0.3.0 field.
            r#"{"intent": "\"__intent_say__\"", "data": {"object": "hi"}}"#,
            r#"{"intent": "__start_activity__"}"#,
            r#"{"intent": "wave"}"#,
            r#"{"action": "__intent_say__", "data": {"object": "hi"}}"#,
            // A missing required role, an unexpected role, an unknown field.
            r#"{"intent": "__intent_say__"}"#,
            r#"{"intent": "__intent_say__", "data": {"object": "hi", "speed": 2}}"#,
            r#"{"intent": "__intent_say__", "data": {"object": "hi"}, "priorty": 3}"#,
            // Out of range, of another type, an unknown modality.
            r#"{"intent": "__intent_stop_activity__", "priority": 256}"#,
            r#"{"intent": "__intent_stop_activity__", "confidence": 1.5}"#,
            r#"{"intent": "__intent_stop_activity__", "source": 3}"#,
            r#"{"intent": "__intent_stop_activity__", "modality": "telepathy"}"#,
        ] {
            // Not scanned (an unknown field) or scanned and left to the reader.
            let short = both(text, ReadOptions::default()).and_then(|(short, _)| short);
            assert_eq!(short, None, "{text}");
        }
    }

    /// One of `usual` four times in five, else one of `unusual`.
    fn mostly(
        usual: &'static [&'static str],
        unusual: &'static [&'static str],
    ) -> impl Strategy<Value = &'static str> + Clone {
        prop_oneof![
            4 => proptest::sample::select(usual),
            1 => proptest::sample::select(unusual),
        ]
    }

    /// A message of the common shape, or a few fields away from it: each field mostly of the
    /// shape, sometimes not.
    fn near_common() -> impl Strategy<Value = String> {
        let intent = mostly(
            &[
                r#""__intent_say__""#,
                r#""__intent_move_to__""#,
                r#""__intent_guide__""#,
                r#""__intent_stop_activity__""#,
                r#""__intent_engage_with__""#,
            ],
            &[
                r#""\"__intent_say__\"""#,
                r#"" __intent_say__""#,
                r#""__start_activity__""#,
                r#""wave""#,
                r#""""#,
                "null",
                "3",
            ],
        );
        let role = proptest::sample::select(
            &[
                "object",
                "recipient",
                "goal",
                "agent",
                "other_data",
                "speed",
                "gaze_mode",
            ][..],
        );
        let leaf = mostly(
            &[r#""hello""#, r#""person_1""#, r#""kitchen""#],
            &[r#""""#, "2", "1.5", "true", "null", r#""look_at""#],
        );
        let roles = proptest::collection::vec((role, leaf), 0..4).prop_map(|entries| {
            let body: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("\"{k}\": {v}"))
                .collect();
            format!("{{{}}}", body.join(", "))
        });
        let data = prop_oneof![
            3 => roles.clone(),
            2 => roles.prop_map(|r| serde_json::to_string(&r).unwrap_or_default()),
            1 => mostly(&[r#""""#, r#""  ""#, "null"], &["5", r#""x""#]).prop_map(str::to_owned),
        ];
        let source = mostly(
            &[
                r#""__remote_supervisor__""#,
                r#""person_1""#,
                r#""UNKNOWN_USER""#,
                r#""""#,
                "null",
            ],
            &["3"],
        );
        let modality = mostly(
            &[r#""__modality_speech__""#, r#""speech""#, r#""""#, "null"],
            &[r#""telepathy""#, "1"],
        );
        let priority = mostly(
            &["0", "128", "255"],
            &["256", "-1", "1.5", r#""x""#, "null"],
        );
        let confidence = mostly(
            &["0", "0.5", "1", "1.0", "null"],
            &["1.5", "-0.1", r#""x""#],
        );
        (
            intent,
            proptest::option::of(data),
            proptest::option::of(source),
            proptest::option::of(modality),
            proptest::option::of(priority),
            proptest::option::of(confidence),
            proptest::option::weighted(0.05, Just(r#""action": "__intent_say__""#)),
            proptest::option::weighted(0.05, Just(r#""priorty": 1"#)),
        )
            .prop_map(|(i, d, s, m, p, c, action, unknown)| {
                let mut fields = vec![format!("\"intent\": {i}")];
                let named = [
                    ("data", d),
                    ("source", s.map(str::to_owned)),
                    ("modality", m.map(str::to_owned)),
                    ("priority", p.map(str::to_owned)),
                    ("confidence", c.map(str::to_owned)),
                ];
                for (name, value) in named {
                    if let Some(v) = value {
                        fields.push(format!("\"{name}\": {v}"));
                    }
                }
                fields.extend(action.map(str::to_owned));
                fields.extend(unknown.map(str::to_owned));
                format!("{{{}}}", fields.join(", "))
            })
    }

    proptest! {
        // About one message in thirteen takes the short path (the role tables turn most of
        // the random `data` away): some 1,200 compared per run.
        #![proptest_config(ProptestConfig::with_cases(16384))]

        /// Whatever the short path reads, the reader reads the same, under any options.
        #[test]
        fn the_short_path_reads_as_the_reader(
            text in near_common(),
            strict in any::<bool>(),
        ) {
            let options = ReadOptions {
                reject_unknown_modality: strict,
                reject_unexpected_roles: strict,
                reject_unknown_fields: strict,
            };
            if let Some((Some(short), read)) = both(&text, options) {
                prop_assert_eq!(short, read, "{}", text);
            }
        }
    }
}
