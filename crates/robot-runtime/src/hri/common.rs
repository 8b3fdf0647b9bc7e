//! The short path of the lenient reader: a JSON message as bridges and rosbridge write it
//! most of the time, read straight from its text into [`ReadIn`], without the
//! [`MessageIn`](super::read::MessageIn) of its fields and without the
//! [`Reader`](super::message) that reports problems.
//!
//! The common shape is a message of the scanner's shape ([`super::scan`]) whose fields need
//! nothing the reader would note, warn about or reject: no unknown field and no `action`;
//! an `intent` that is exactly a standard constant; `data` absent, blank, `null`, an inline
//! object (noted, [`Normalization::InlineData`], as the reader notes it) or a string holding
//! a flat object; roles the intent's table accepts; `source` and `modality` absent, `null`
//! or strings written without escapes that read without a warning (a spelling the
//! vocabulary corrects is noted here as the reader notes it); `priority` absent or an
//! integer up to 255; `confidence` absent, `null` or a number within 0..=1. Anything else
//! answers `None`, and the scanner and the reader read the message. What this path reads
//! is exactly what the reader reads from the scanner's fields (the notes in the same order,
//! the notes kept apart in the same places): held to it by the proptest below; the scanner is
//! held to serde_json by `scan.rs`'s.
//!
//! Why a second path: the reader's checks are code a message runs through whether or not
//! it has a problem, and on every request that code must be fetched into the instruction
//! cache (BENCHMARKS.md, issue 29: the HRI path's time gap is its code footprint). This path
//! is the checks a message without problems needs, made as each field is scanned, and
//! nothing else: no field is stored to be looked at again.

use super::message::{confidence_of, priority_of, Confidence, IntentIn, NotesApart, ReadIn};
use super::read::{RoleIn, RolesIn};
use super::roles;
use super::scan::{DataIn, Field, Scanner};
use super::vocab::{IntentKind, Modality, Source};
use crate::hri::Priority;
use serde_json::Value;

/// The message `text` read by the short path, its roles read onto `spare` (see
/// [`super::read::SpareRoles`]); `None` when it is not of the common shape.
pub(super) fn read_common<'a>(text: &'a str, spare: Vec<RoleIn<'a>>) -> Option<ReadIn<'a>> {
    let mut s = Scanner::onto(text, spare);
    // Texts borrowed from the message, and plain values: nothing to drop when the message
    // leaves the shape half read.
    let mut intent: Option<&'a str> = None;
    let mut data: Option<DataIn<'a>> = None;
    let mut source: Option<Option<&'a str>> = None;
    let mut modality: Option<Option<&'a str>> = None;
    let mut priority: Option<Priority> = None;
    let mut confidence: Option<Confidence> = None;
    s.open()?;
    if !s.close_if_empty() {
        loop {
            // A field given twice, `action` or an unknown key: the reader's (`field_key`
            // answers `None` for an unknown key).
            match s.field_key()? {
                Field::Intent if intent.is_none() => intent = Some(s.plain_string_value()?),
                Field::Data if data.is_none() => data = Some(s.common_data()?),
                Field::Source if source.is_none() => source = Some(s.plain_string_or_null()?),
                Field::Modality if modality.is_none() => {
                    modality = Some(s.plain_string_or_null()?);
                }
                Field::Priority if priority.is_none() => {
                    let p = match s.byte_integer() {
                        Some(p) => p,
                        None => priority_of(&s.scalar_value()?)?,
                    };
                    priority = Some(Priority(p));
                }
                Field::Confidence if confidence.is_none() => {
                    confidence = Some(match s.scalar_value()? {
                        Value::Null => Confidence::Unstated,
                        Value::Number(n) => confidence_of(n.as_f64().unwrap_or(f64::NAN))?,
                        _ => return None,
                    });
                }
                _ => return None,
            }
            if s.next_or_close()? {
                break;
            }
        }
    }
    s.end()?;
    let kind = IntentKind::from_wire_exact(intent?)?;
    let (roles, inline, blank) = match data {
        None | Some(DataIn::Blank) => (RolesIn::default(), false, true),
        Some(DataIn::Inline(roles)) => (roles, true, false),
        Some(DataIn::Text(roles)) => (roles, false, false),
    };
    // Blank `data` is the empty object, and the role table checks it too (a required role
    // is missing).
    accepted(&kind, &roles)?;
    let mut apart = NotesApart::default();
    // Past every check that can answer `None` but the vocabulary's: the notes, in the
    // reader's order (`data`'s first, kept apart, then the source's and the modality's).
    let mut notes = Vec::new();
    if inline {
        apart.inline_data_at = Some(0);
    }
    if blank {
        apart.empty_data_at = Some(0);
    }
    let source = source
        .flatten()
        .map_or(Source::Unknown, |s| Source::read(s, &mut notes));
    let modality = modality
        .flatten()
        .map_or(Modality::Other, |m| Modality::read(m, &mut notes));
    if let Modality::Unrecognized(_) = modality {
        // Warned about or rejected, as the options say: the reader's to decide.
        return None;
    }
    let priority = priority.unwrap_or_else(|| {
        apart.default_priority = true;
        Priority::DEFAULT
    });
    Some(ReadIn {
        intent: IntentIn {
            intent: kind,
            data: roles,
            source,
            modality,
            priority,
            confidence: confidence.unwrap_or(Confidence::Unstated),
        },
        notes,
        apart,
        warnings: Vec::new(),
    })
}

/// `Some` when the intent's role table takes `roles` without an error or an unexpected key.
fn accepted(kind: &IntentKind, roles: &RolesIn<'_>) -> Option<()> {
    roles::accepts(kind, roles).then_some(())
}

#[cfg(test)]
mod tests {
    use super::super::message::ReadOptions;
    use super::super::scan;
    use super::read_common;
    use proptest::prelude::*;

    /// The short path's read of `text` and the reader's (on what the scanner read), owned;
    /// `None` for the short path when it leaves the message to the reader; `None` when the
    /// scanner does not read the text (and then the short path must not either).
    fn both(text: &str, options: ReadOptions) -> Option<(Option<String>, String)> {
        let short = read_common(text, Vec::new()).map(|r| format!("{:?}", r.into_owned()));
        let Some(mut full) = scan::message(text) else {
            assert_eq!(
                short, None,
                "read by the short path, not by the scanner: {text}"
            );
            return None;
        };
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
            1 => mostly(&[r#""""#, r#""  ""#, "null"], &["5", r#""x""#, r#""	""#, "true"])
                .prop_map(str::to_owned),
        ];
        let source = mostly(
            &[
                r#""__remote_supervisor__""#,
                r#""person_1""#,
                r#""UNKNOWN_USER""#,
                r#""""#,
                "null",
            ],
            // Escapes the scanner reads, an escape it leaves to serde_json, not a string.
            &[r#""person\/1""#, r#""per"son""#, r#""p1""#, "3"],
        );
        let modality = mostly(
            &[r#""__modality_speech__""#, r#""speech""#, r#""""#, "null"],
            &[r#""telepathy""#, "1"],
        );
        let priority = mostly(
            &["0", "7", "42", "128", "200", "255"],
            &[
                "256", "-1", "1.5", r#""x""#, "null", "0200", "00", "2000", "200.0", "2e2", "-0",
                "1000", "true",
            ],
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
            // A field given twice.
            proptest::option::weighted(0.05, Just(r#""priority": 7"#)),
            // Blanks around the punctuation, or none.
            proptest::sample::select(&[", ", ",", " ,\n  "][..]),
        )
            .prop_map(|(i, d, s, m, p, c, action, unknown, again, comma)| {
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
                fields.extend(again.map(str::to_owned));
                format!("{{{}}}", fields.join(comma))
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
