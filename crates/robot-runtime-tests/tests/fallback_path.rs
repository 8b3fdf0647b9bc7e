//! The translator's fallback path: building a member through the union's own `Deserialize`.
//!
//! Why this union is hand-written: `clad-codegen` implements
//! `CladUnion::deserialize_struct_member` for every structure member of every union it
//! generates, so the translator builds generated unions on the direct path only. A union
//! that keeps the trait's default (`None`: "not provided"), as an older emitter or a
//! hand-rolled union does, must still translate, through serde's internally tagged form.
//! `FallbackIntent` below is such a union: the payloads are the generated structures, the
//! union and its `CladUnion` impl are written here, without `deserialize_struct_member`.
//! The small map is hand-written too (the generated one is typed by the generated tag).

use robot_runtime::intent::{
    IntentComponent, IntentTranslator, MapEntry, Sanitation, StaticIntentMap, TranslateError,
};
use robot_runtime::union::CladUnion;
use robot_runtime_tests::{TestTimeWithUnits, TimeInSeconds, TimeUnits, Void};

/// A user-intent union in generated form, minus `deserialize_struct_member`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type")]
enum FallbackIntent {
    #[serde(rename = "unmatched_intent")]
    UnmatchedIntent(Void),
    #[serde(rename = "set_timer")]
    SetTimer(TimeInSeconds),
    #[serde(rename = "test_timeWithUnits")]
    TestTimeWithUnits(TestTimeWithUnits),
    /// A non-structure member (payload under `"value"`).
    #[serde(rename = "test_value", with = "::clad_runtime::json::value")]
    TestValue(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum FallbackTag {
    UnmatchedIntent,
    SetTimer,
    TestTimeWithUnits,
    TestValue,
}

const TAGS: [FallbackTag; 4] = [
    FallbackTag::UnmatchedIntent,
    FallbackTag::SetTimer,
    FallbackTag::TestTimeWithUnits,
    FallbackTag::TestValue,
];

impl CladUnion for FallbackIntent {
    type Tag = FallbackTag;
    const NAME: &'static str = "FallbackIntent";
    const TAGS: &'static [FallbackTag] = &TAGS;

    fn tag(&self) -> FallbackTag {
        match self {
            Self::UnmatchedIntent(_) => FallbackTag::UnmatchedIntent,
            Self::SetTimer(_) => FallbackTag::SetTimer,
            Self::TestTimeWithUnits(_) => FallbackTag::TestTimeWithUnits,
            Self::TestValue(_) => FallbackTag::TestValue,
        }
    }
    fn tag_name(tag: FallbackTag) -> &'static str {
        match tag {
            FallbackTag::UnmatchedIntent => "unmatched_intent",
            FallbackTag::SetTimer => "set_timer",
            FallbackTag::TestTimeWithUnits => "test_timeWithUnits",
            FallbackTag::TestValue => "test_value",
        }
    }
    fn tag_from_name(name: &str) -> Option<FallbackTag> {
        TAGS.into_iter().find(|t| Self::tag_name(*t) == name)
    }
    fn tag_value(tag: FallbackTag) -> u8 {
        tag as u8
    }
    fn default_for(tag: FallbackTag) -> Self {
        match tag {
            FallbackTag::UnmatchedIntent => Self::UnmatchedIntent(Void::default()),
            FallbackTag::SetTimer => Self::SetTimer(TimeInSeconds::default()),
            FallbackTag::TestTimeWithUnits => Self::TestTimeWithUnits(TestTimeWithUnits::default()),
            FallbackTag::TestValue => Self::TestValue(0),
        }
    }
    fn payload_is_struct(tag: FallbackTag) -> bool {
        tag != FallbackTag::TestValue
    }
    // No `deserialize_struct_member`: the trait's default (`None`) is the point of this test.
}

const fn rename(from: &'static str, to: &'static str, numeric: bool) -> Sanitation {
    Sanitation {
        from,
        to: Some(to),
        numeric,
    }
}

static CLOUD: [MapEntry<FallbackTag>; 3] = [
    MapEntry {
        intent: "intent_clock_settimer",
        tag: FallbackTag::SetTimer,
        sanitation: &[rename("timer_duration", "time_s", true)],
        feature_gate: None,
    },
    MapEntry {
        intent: "intent_test_time",
        tag: FallbackTag::TestTimeWithUnits,
        sanitation: &[
            rename("timer_duration.time", "time", true),
            rename("timer_duration.units", "units", false),
        ],
        feature_gate: None,
    },
    MapEntry {
        intent: "intent_test_value",
        tag: FallbackTag::TestValue,
        sanitation: &[rename("v", "value", true)],
        feature_gate: None,
    },
];

static MAP: StaticIntentMap<FallbackTag> = StaticIntentMap {
    cloud: &CLOUD,
    app: &[],
    simple_voice: &[],
    simple_voice_tag: None,
    unmatched: FallbackTag::UnmatchedIntent,
};

fn translator() -> IntentTranslator<FallbackIntent> {
    IntentTranslator::new(&MAP)
}

#[test]
fn the_union_does_not_provide_the_direct_path() {
    let fields = serde_json::json!({ "time_s": 1 });
    assert!(FallbackIntent::deserialize_struct_member(FallbackTag::SetTimer, &fields).is_none());
}

#[test]
fn a_data_intent_translates_through_the_fallback() {
    let r = translator()
        .translate_cloud("intent_clock_settimer", r#"{"timer_duration":"300"}"#)
        .unwrap();
    assert_eq!(
        r.intent,
        FallbackIntent::SetTimer(TimeInSeconds { time_s: 300 })
    );
}

#[test]
fn an_enum_field_and_renamed_parameters_translate_through_the_fallback() {
    let r = translator()
        .translate_cloud(
            "intent_test_time",
            r#"{"timer_duration.time":"5","timer_duration.units":"m"}"#,
        )
        .unwrap();
    assert_eq!(
        r.intent,
        FallbackIntent::TestTimeWithUnits(TestTimeWithUnits {
            time: 5,
            units: TimeUnits::M
        })
    );
}

#[test]
fn missing_fields_take_their_defaults_through_the_fallback() {
    let r = translator()
        .translate_cloud("intent_test_time", r#"{"timer_duration.time":"5"}"#)
        .unwrap();
    assert_eq!(
        r.intent,
        FallbackIntent::TestTimeWithUnits(TestTimeWithUnits {
            time: 5,
            units: TimeUnits::S
        })
    );
}

#[test]
fn a_bad_payload_names_its_field_through_the_fallback() {
    let err = translator()
        .translate_cloud(
            "intent_test_time",
            r#"{"timer_duration.time":"5","timer_duration.units":"h"}"#,
        )
        .unwrap_err();
    assert!(
        matches!(&err, TranslateError::BadPayload { tag: "test_timeWithUnits", field: Some(f), .. } if f == "units"),
        "{err:?}"
    );
}

#[test]
fn a_non_structure_member_is_filled_by_a_substitution() {
    let r = translator()
        .translate_cloud("intent_test_value", r#"{"v":"7"}"#)
        .unwrap();
    assert_eq!(r.intent, FallbackIntent::TestValue(7));
    let err = translator()
        .translate_cloud("intent_test_value", r#"{"v":"300"}"#)
        .unwrap_err();
    assert!(
        matches!(&err, TranslateError::BadPayload { tag: "test_value", field: Some(f), .. } if f == "value"),
        "{err:?}"
    );
}

#[test]
fn the_component_takes_a_data_intent_through_the_fallback() {
    let mut c = IntentComponent::<FallbackIntent>::new(&MAP);
    c.handle_cloud(robot_runtime::intent::CloudEvent::result(
        "intent_clock_settimer",
        r#"{"timer_duration":"60"}"#,
    ));
    assert_eq!(
        c.pending().map(|p| p.intent().clone()),
        Some(FallbackIntent::SetTimer(TimeInSeconds { time_s: 60 }))
    );
}
