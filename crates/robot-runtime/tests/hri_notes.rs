//! The intake reports what the lenient reader corrected (`HriEvent::Normalized`) in the
//! reader's order, and the usual correction of a JSON bridge's message (`data` written as an
//! inline object) without allocating a list for it. A counting global allocator.

#[path = "../../robot-runtime-tests/src/counting_alloc.rs"]
mod counting_alloc;

use std::borrow::Cow;

use counting_alloc::{allocations, Counting};
use robot_runtime::hri::{
    Admission, Envelope, HriEvent, HriIntake, HriIntent, IntakeConfig, Normalization, ReadOptions,
    Timestamp,
};

#[global_allocator]
static GLOBAL: Counting = Counting;

const INLINE: &str = r#"{"intent": "__intent_say__", "data": {"object": "hello there", "recipient": "person_1"}, "source": "__remote_supervisor__", "priority": 200}"#;
const CANONICAL: &str = r#"{"intent": "__intent_say__", "data": "{\"object\": \"hello there\", \"recipient\": \"person_1\"}", "source": "__remote_supervisor__", "priority": 200}"#;

/// The notes of the one `Normalized` event the intake reported since the last drain.
fn reported(intake: &mut HriIntake) -> Option<Cow<'static, [Normalization]>> {
    let events = intake.drain_events();
    let mut notes = events.into_iter().filter_map(|e| match e {
        HriEvent::Normalized { notes, .. } => Some(notes),
        _ => None,
    });
    let first = notes.next();
    assert!(notes.next().is_none(), "one Normalized event per message");
    first
}

#[test]
fn an_inline_data_note_is_reported_without_allocating() {
    let mut intake = HriIntake::new(IntakeConfig::default());
    let mut t = 0;
    let mut receive = |intake: &mut HriIntake, text: &str| {
        t += 10_000;
        let (n, admission) =
            allocations(|| intake.receive_json(text, Envelope::new(), Timestamp(t)));
        assert!(matches!(admission, Admission::Execute(_)), "{admission:?}");
        n
    };
    // Warm: the intake's kept buffers have grown.
    for _ in 0..3 {
        receive(&mut intake, INLINE);
        receive(&mut intake, CANONICAL);
        intake.drain_events();
    }
    let inline = receive(&mut intake, INLINE);
    let notes = reported(&mut intake).expect("inline data is reported");
    assert_eq!(*notes, [Normalization::InlineData]);
    assert!(
        matches!(notes, Cow::Borrowed(_)),
        "a static list: {notes:?}"
    );
    let canonical = receive(&mut intake, CANONICAL);
    assert_eq!(reported(&mut intake), None, "nothing to report");
    assert_eq!(
        inline, canonical,
        "the same request, inline or canonical, takes as many allocations"
    );
}

#[test]
fn the_reported_notes_keep_the_readers_order() {
    // An intent in 0.3.x quotes, `data` inline, a source alias and a 0.3.x modality: the
    // inline note stands where the reader found it (it reads `data` before it reads the
    // intent's value, after the 0.3.0 `action`).
    let cases = [
        r#"{"intent": "\"__intent_move_to__\"", "data": {"goal": "kitchen"}, "source": "UNKNOWN_USER", "modality": "speech"}"#,
        r#"{"data": {"goal": "kitchen"}, "action": "__intent_move_to__", "modality": "\"speech\""}"#,
        r#"{"intent": "__intent_move_to__", "data": {"goal": "kitchen"}, "modality": "speech"}"#,
        r#"{"intent": "\"__intent_move_to__\"", "data": {"goal": "kitchen"}}"#,
        r#"{"intent": "__intent_move_to__", "data": {"goal": "kitchen"}}"#,
        r#"{"intent": "__intent_wakeup__", "data": "", "modality": "speech"}"#,
    ];
    let mut intake = HriIntake::new(IntakeConfig::default());
    for (i, text) in cases.into_iter().enumerate() {
        let read = HriIntent::from_json(text, ReadOptions::default())
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let admission =
            intake.receive_json(text, Envelope::new(), Timestamp(10_000 * (i as u64 + 1)));
        assert!(matches!(admission, Admission::Execute(_)), "{admission:?}");
        // The reader's notes but the quiet ones (a missing priority, blank `data`).
        let expected: Vec<Normalization> = read
            .notes
            .into_iter()
            .filter(|n| !matches!(n, Normalization::DefaultPriority | Normalization::EmptyData))
            .collect();
        let got = reported(&mut intake)
            .map(Cow::into_owned)
            .unwrap_or_default();
        assert_eq!(got, expected, "{text}");
        if text.contains("{\"goal") {
            assert!(got.contains(&Normalization::InlineData), "{text}");
        }
    }
    // The first case, spelled out.
    let read = HriIntent::from_json(cases[0], ReadOptions::default()).unwrap();
    assert_eq!(
        read.notes,
        [
            Normalization::InlineData,
            Normalization::QuotedConstant { field: "intent" },
            Normalization::SourceAlias {
                received: "UNKNOWN_USER".into()
            },
            Normalization::LegacyModality {
                received: "speech".into()
            },
            Normalization::DefaultPriority,
        ]
    );
    let read = HriIntent::from_json(cases[1], ReadOptions::default()).unwrap();
    assert_eq!(
        read.notes,
        [
            Normalization::LegacyActionField,
            Normalization::InlineData,
            Normalization::QuotedConstant { field: "modality" },
            Normalization::LegacyModality {
                received: "speech".into()
            },
            Normalization::DefaultPriority,
        ]
    );
}
