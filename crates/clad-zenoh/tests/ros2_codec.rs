//! Property tests of the ROS 2 codec: no input makes a decoder panic (arbitrary bytes,
//! mutated and truncated valid payloads, hostile length prefixes), and every intent without a
//! NUL inside its strings survives encode → decode unchanged, at the length `encoded_len`
//! predicts. Names, remapping rules and attachments likewise never panic.

use clad_zenoh::ros2::names::{expand_topic_name, resolve_topic_name, Remap};
use clad_zenoh::ros2::{Attachment, CdrError, IntentView};
use proptest::prelude::*;

/// Strings as a ROS publisher may send them: any UTF-8 without NUL, some long.
fn ros_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[^\u{0}]{0,40}",
        "__intent_[a-z_]{1,20}__",
        proptest::collection::vec(any::<char>(), 0..300)
            .prop_map(|cs| cs.into_iter().filter(|c| *c != '\0').collect()),
    ]
}

fn intent() -> impl Strategy<Value = (String, String, String, String, u8, f32)> {
    (
        ros_string(),
        ros_string(),
        ros_string(),
        ros_string(),
        any::<u8>(),
        any::<f32>(),
    )
}

fn view(t: &(String, String, String, String, u8, f32)) -> IntentView<'_> {
    IntentView {
        intent: &t.0,
        data: &t.1,
        source: &t.2,
        modality: &t.3,
        priority: t.4,
        confidence: t.5,
    }
}

fn same(a: &IntentView<'_>, b: &IntentView<'_>) -> bool {
    a.intent == b.intent
        && a.data == b.data
        && a.source == b.source
        && a.modality == b.modality
        && a.priority == b.priority
        && a.confidence.to_bits() == b.confidence.to_bits()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = IntentView::decode(&bytes);
        let _ = Attachment::decode(Some(&bytes));
    }

    #[test]
    fn arbitrary_bodies_behind_a_valid_header_never_panic(
        body in proptest::collection::vec(any::<u8>(), 0..200),
        options in any::<u8>(),
    ) {
        let mut bytes = vec![0, 1, 0, options];
        bytes.extend_from_slice(&body);
        let _ = IntentView::decode(&bytes);
    }

    #[test]
    fn every_intent_round_trips(t in intent()) {
        let v = view(&t);
        let bytes = v.encode().unwrap();
        prop_assert_eq!(bytes.len(), v.encoded_len());
        prop_assert_eq!(bytes.len() % 4, 0, "Intent always ends 4-aligned");
        let back = IntentView::decode(&bytes).unwrap();
        prop_assert!(same(&v, &back));
    }

    #[test]
    fn mutated_payloads_never_panic(
        t in intent(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = view(&t).encode().unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        let _ = IntentView::decode(&bytes);
        let n = cut.index(bytes.len() + 1);
        let _ = IntentView::decode(&bytes[..n]);
    }

    #[test]
    fn truncation_is_always_an_error_naming_a_field(t in intent(), cut in any::<prop::sample::Index>()) {
        let bytes = view(&t).encode().unwrap();
        // Cutting into the body (at least 4 bytes short, past the 3 padding bytes allowed).
        let n = 4 + cut.index(bytes.len() - 4 - 3);
        match IntentView::decode(&bytes[..n]) {
            Err(CdrError::Truncated { field, .. } | CdrError::LengthPastEnd { field, .. }) => {
                prop_assert!(clad_zenoh::ros2::intent::FIELDS.contains(&field));
            }
            // A cut right after a string's NUL and before the next aligned field can leave a
            // shorter but valid prefix only if the rest were padding, which it is not.
            other => prop_assert!(false, "cut at {n} of {}: {other:?}", bytes.len()),
        }
    }

    #[test]
    fn hostile_length_prefixes_are_errors(t in intent(), length in any::<u32>(), field in 0usize..4) {
        let v = view(&t);
        let mut bytes = v.encode().unwrap();
        // The offset of the `field`-th string's length prefix.
        let mut at: usize = 4;
        for s in [v.intent, v.data, v.source, v.modality].iter().take(field) {
            at = 4 + (at - 4).next_multiple_of(4) + 4 + s.len() + 1;
        }
        at = 4 + (at - 4).next_multiple_of(4);
        bytes[at..at + 4].copy_from_slice(&length.to_le_bytes());
        // Never a panic; when the length is wrong, an error or a different (valid) message.
        let _ = IntentView::decode(&bytes);
        if length as usize > bytes.len() {
            prop_assert!(IntentView::decode(&bytes).is_err());
        }
    }

    #[test]
    fn names_and_rules_never_panic(name in "\\PC{0,30}", ns in "\\PC{0,12}", node in "\\PC{0,12}", rule in "\\PC{0,30}") {
        let _ = expand_topic_name(&name, &node, &ns);
        if let Ok(r) = rule.parse::<Remap>() {
            let _ = resolve_topic_name(&name, "robot", "/", &[r]);
        }
    }
}
