//! One bad intent map per diagnostic the intent-map compiler can emit, each with a snapshot of
//! the rendered output (message, `file:line:col`, caret into the JSON, notes).
//!
//! Review rule for the snapshots (as for schema diagnostics): the message says what is wrong,
//! the caret points at the offending key or value, and one mistake gives one diagnostic.

use clad_codegen::ir::Schema;
use clad_codegen::{LoadedSource, MemoryLoader};
use robot_codegen::intent_map::{self, IntentMapCompilation, IntentMapOptions};

/// A small schema shaped like the robot's (`Anki::Vector::UserIntent`), plus two unions for
/// the simple-voice-response cases.
const SCHEMA: &str = r#"namespace Anki {
namespace Vector {
enum uint_32 ActiveFeature { NoFeature, BasicVoiceCommand = 70 }
enum uint_8 FeatureType { Exploring, Messaging }
structure UserIntent_Void {}
structure UserIntent_MeetVictor { string username }
structure UserIntent_TimeInSeconds { uint_32 time_s }
structure UserIntent_GlobalStop { string what_to_stop }
structure UserIntent_KnowledgeResponse { string answer, string query_text }
structure MetaUserIntent_SimpleVoiceResponse {
  string anim_group,
  string emotion_event,
  ActiveFeature active_feature,
  bool disable_wakeword_turn,
}
union dupes_allowed UserIntent {
  UserIntent_Void unmatched_intent,
  UserIntent_MeetVictor meet_victor,
  UserIntent_TimeInSeconds set_timer,
  UserIntent_GlobalStop global_stop,
  UserIntent_KnowledgeResponse knowledge_response,
  UserIntent_Void explore_start,
  MetaUserIntent_SimpleVoiceResponse simple_voice_response,
  UserIntent_Void test_user_intent_1,
}
union dupes_allowed SmallIntent {
  UserIntent_Void unmatched_intent,
  UserIntent_Void explore_start,
}
union dupes_allowed BadMetaIntent {
  UserIntent_Void unmatched_intent,
  UserIntent_MeetVictor simple_voice_response,
}
}
}
"#;

const UNION: &str = "Anki::Vector::UserIntent";

fn schema() -> Schema {
    let mut files = MemoryLoader::new().file("intents.clad", SCHEMA);
    let out = clad_codegen::compile(&mut files, "intents.clad");
    assert!(!out.has_errors(), "{}", out.render());
    out.schema.expect("schema")
}

fn compile(json: &str, opts: &IntentMapOptions) -> IntentMapCompilation {
    let source = LoadedSource {
        name: "map.json".into(),
        path: None,
        text: json.into(),
    };
    intent_map::compile(&[schema()], source, opts)
}

fn default_options() -> IntentMapOptions {
    IntentMapOptions::new(UNION).feature_enum("Anki::Vector::FeatureType")
}

fn snapshot(name: &str, json: &str, out: &IntentMapCompilation) {
    for d in &out.diagnostics {
        assert!(!d.message.is_empty());
    }
    let rendered = out.render();
    insta::with_settings!({ description => json.to_owned(), omit_expression => true }, {
        insta::assert_snapshot!(name, rendered);
    });
}

/// `case!(name, json)` / `case!(name, json, options)`: compiles, asserts an error (no model)
/// and snapshots the rendering as `intent_map_diagnostics__<name>.snap`.
macro_rules! case {
    ($name:ident, $json:expr) => {
        case!($name, $json, default_options());
    };
    ($name:ident, $json:expr, $opts:expr) => {
        #[test]
        fn $name() {
            let json: &str = $json;
            let out = compile(json, &$opts);
            assert!(
                out.has_errors(),
                "expected an error, got:\n{}",
                out.render()
            );
            assert!(out.model.is_none(), "a model was produced despite errors");
            snapshot(stringify!($name), json, &out);
        }
    };
}

/// Like `case!`, for warnings: the map still compiles.
macro_rules! warning_case {
    ($name:ident, $json:expr, $opts:expr) => {
        #[test]
        fn $name() {
            let json: &str = $json;
            let out = compile(json, &$opts);
            assert!(!out.has_errors(), "{}", out.render());
            assert!(!out.diagnostics.is_empty(), "expected a warning");
            assert!(out.model.is_some());
            snapshot(stringify!($name), json, &out);
        }
    };
}

// ----- JSON ----------------------------------------------------------------------------------

case!(
    json_syntax_trailing_comma,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" },
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(json_syntax_single_quotes, "{\n  'user_intent_map': []\n}");
case!(
    json_duplicate_key,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start",
      "user_intent": "set_timer" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    json_root_not_an_object,
    "[\n  { \"user_intent\": \"explore_start\" }\n]"
);

// ----- top level -----------------------------------------------------------------------------

case!(
    unknown_top_level_key,
    r#"{
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intents": "unmatched_intent"
}"#
);
case!(
    missing_user_intent_map,
    r#"{
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    empty_user_intent_map,
    r#"{
  "user_intent_map": [],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    user_intent_map_not_an_array,
    r#"{
  "user_intent_map": { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" },
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    missing_unmatched_intent,
    r#"{
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ]
}"#
);
case!(
    unmatched_intent_carries_data,
    r#"{
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "meet_victor"
}"#
);
case!(
    is_test_not_a_boolean,
    r#"{
  "is_test": "yes",
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);

// ----- entries -------------------------------------------------------------------------------

case!(
    entry_not_an_object,
    r#"{
  "user_intent_map": [ "explore_start" ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    entry_without_user_intent,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    unknown_user_intent,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timr" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    unknown_entry_key,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitution": { "timer_duration": "time_s" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    unknown_entry_key_tolerated_by_the_original,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start",
      "response": { "anim_group": "ag_explore" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    intent_not_a_string,
    r#"{
  "user_intent_map": [
    { "cloud_intent": 42, "user_intent": "explore_start" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    test_parsing_not_a_boolean,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start", "test_parsing": 0 }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    empty_cloud_intent,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "", "user_intent": "explore_start" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    duplicate_cloud_intent,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" },
    { "cloud_intent": "intent_explore_start", "user_intent": "test_user_intent_1" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    duplicate_app_intent,
    r#"{
  "user_intent_map": [
    { "app_intent": "explore_start", "user_intent": "explore_start" },
    { "app_intent": "explore_start", "user_intent": "test_user_intent_1" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    duplicate_cloud_intent_across_simple_voice_responses,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_explore_start", "response": { "anim_group": "ag_explore" } }
  ],
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_as_entry_target,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_greeting_hello", "user_intent": "simple_voice_response" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    unknown_feature,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start",
      "feature_gate": "Exploringg" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);

// ----- substitutions and numerics ------------------------------------------------------------

case!(
    substitutions_not_an_object,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": [ "timer_duration", "time_s" ] }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    substitution_target_not_a_string,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": { "timer_duration": true } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    substitution_target_not_a_field,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": { "timer_duration": "time_sec" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    substitution_into_a_void_payload,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start",
      "cloud_substitutions": { "where": "location" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    empty_substitution_target,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_names_username_extend", "user_intent": "meet_victor",
      "cloud_substitutions": { "username.original": "" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    two_sources_renamed_to_the_same_target,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_names_username_extend", "user_intent": "meet_victor",
      "cloud_substitutions": { "given-name": "username", "name.original": "username" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    substitution_target_is_another_source,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_knowledge_response_extend", "user_intent": "knowledge_response",
      "cloud_substitutions": { "query": "answer", "answer": "query_text" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    numerics_not_an_array,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": { "timer_duration": "time_s" }, "cloud_numerics": "timer_duration" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    numeric_conversion_of_a_string_field,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_names_username_extend", "user_intent": "meet_victor",
      "cloud_substitutions": { "name": "username" }, "cloud_numerics": ["name"] }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    numeric_conversion_of_a_parameter_that_is_not_a_field,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_numerics": ["timer_duration"] }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    numeric_listed_under_the_substituted_name,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": { "timer_duration": "time_s" }, "cloud_numerics": ["time_s"] }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    numeric_listed_twice,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": { "timer_duration": "time_s" },
      "cloud_numerics": ["timer_duration", "timer_duration"] }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    app_substitutions_without_app_intent,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_names_username_extend", "user_intent": "meet_victor",
      "app_substitutions": { "param": "username" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#
);
warning_case!(
    substitution_to_itself,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_names_username_extend", "user_intent": "meet_victor",
      "cloud_substitutions": { "username": "username" } }
  ],
  "unmatched_intent": "unmatched_intent"
}"#,
    default_options()
);

// ----- simple voice responses ----------------------------------------------------------------

case!(
    simple_voice_responses_not_an_array,
    r#"{
  "simple_voice_responses": { "cloud_intent": "intent_greeting_hello" },
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_without_cloud_intent,
    r#"{
  "simple_voice_responses": [
    { "response": { "anim_group": "ag_greeting_hello" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_without_response,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello", "feature_gate": "Exploring" }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_without_anim_group,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello", "response": { "emotion_event": "Greeting" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_unknown_key,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello", "anim_group": "ag_greeting_hello",
      "response": { "anim_group": "ag_greeting_hello" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_unknown_response_key,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello",
      "response": { "anim_group": "ag_greeting_hello", "disable_wakeword_trun": true } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_wrong_value_type,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_imperative_forward",
      "response": { "anim_group": "ag_movement_forward_01", "disable_wakeword_turn": "yes" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_response_unknown_active_feature,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello",
      "response": { "anim_group": "ag_greeting_hello", "active_feature": "BasicVoiceComand" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#
);
case!(
    simple_voice_responses_without_meta_member,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello", "response": { "anim_group": "ag_greeting_hello" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#,
    IntentMapOptions::new("Anki::Vector::SmallIntent")
);
case!(
    simple_voice_responses_with_a_bad_meta_payload,
    r#"{
  "simple_voice_responses": [
    { "cloud_intent": "intent_greeting_hello", "response": { "anim_group": "ag_greeting_hello" } }
  ],
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "unmatched_intent" } ],
  "unmatched_intent": "unmatched_intent"
}"#,
    IntentMapOptions::new("Anki::Vector::BadMetaIntent")
);

// ----- options ------------------------------------------------------------------------------

const MINIMAL: &str = r#"{
  "user_intent_map": [ { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" } ],
  "unmatched_intent": "unmatched_intent"
}"#;

case!(
    unknown_union,
    MINIMAL,
    IntentMapOptions::new("Anki::Vector::UserIntnet")
);
case!(
    union_is_not_a_union,
    MINIMAL,
    IntentMapOptions::new("Anki::Vector::FeatureType")
);
case!(
    unknown_feature_enum,
    MINIMAL,
    IntentMapOptions::new(UNION).feature_enum("Anki::Vector::Features")
);
case!(
    unknown_feature_enum_at_the_first_gate,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start" },
    { "cloud_intent": "intent_clock_settimer", "user_intent": "set_timer",
      "feature_gate": "Exploring" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#,
    IntentMapOptions::new(UNION).feature_enum("Vector::FeatureType")
);
warning_case!(
    unmapped_members,
    MINIMAL,
    IntentMapOptions::new(UNION).warn_unmapped(true)
);

// ----- several problems ---------------------------------------------------------------------

case!(
    several_independent_errors,
    r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_substitutions": { "timer_duration": "time_sec" } },
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_strat",
      "feature_gate": "Exploring" },
    { "cloud_intent": "intent_clock_settimer_extend", "user_intent": "set_timer",
      "cloud_numerics": ["timer_duration"] }
  ],
  "unmatched_intent": "unmatched_intent",
  "version": 2
}"#
);

#[test]
fn missing_file_is_a_diagnostic() {
    let mut loader = MemoryLoader::new();
    let out =
        intent_map::compile_file(&[schema()], &mut loader, "nowhere.json", &default_options());
    assert!(out.has_errors());
    assert!(out.model.is_none());
    insta::assert_snapshot!("missing_file", out.render());
}

#[test]
fn unmapped_lint_is_off_by_default_and_for_test_maps() {
    let out = compile(MINIMAL, &default_options());
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    let test_map = MINIMAL.replacen('{', "{ \"is_test\": true,", 1);
    let out = compile(&test_map, &IntentMapOptions::new(UNION).warn_unmapped(true));
    assert!(out.diagnostics.is_empty(), "{}", out.render());
}

/// A union in one file and the feature enum in another the union's file does not include.
const SPLIT_UNION: &str = r#"namespace Anki { namespace Vector {
structure UserIntent_Void {}
union dupes_allowed UserIntent {
  UserIntent_Void unmatched_intent,
  UserIntent_Void explore_start,
  UserIntent_Void set_timer,
  UserIntent_Void test_SEPARATOR,
  UserIntent_Void test_name,
  UserIntent_Void play_keepaway,
}
} }
"#;
const SPLIT_FEATURES: &str =
    "namespace Anki { namespace Vector { enum uint_8 FeatureType { Exploring, Messaging } } }\n";

fn split_units() -> Vec<Schema> {
    let mut files = MemoryLoader::new()
        .file("userIntent.clad", SPLIT_UNION)
        .file("featureGateTypes.clad", SPLIT_FEATURES);
    ["featureGateTypes.clad", "userIntent.clad"]
        .iter()
        .map(|f| {
            let out = clad_codegen::compile(&mut files, f);
            assert!(!out.has_errors(), "{}", out.render());
            out.schema.expect("schema")
        })
        .collect()
}

fn compile_split(units: &[Schema], json: &str, opts: &IntentMapOptions) -> IntentMapCompilation {
    let source = LoadedSource {
        name: "map.json".into(),
        path: None,
        text: json.into(),
    };
    intent_map::compile(units, source, opts)
}

#[test]
fn feature_enum_is_looked_up_in_every_file_of_the_build() {
    let json = r#"{
  "user_intent_map": [
    { "cloud_intent": "intent_explore_start", "user_intent": "explore_start",
      "feature_gate": "Exploring" },
    { "cloud_intent": "intent_clock_settimer", "user_intent": "set_timer" }
  ],
  "unmatched_intent": "unmatched_intent"
}"#;
    let units = split_units();
    let out = compile_split(&units, json, &default_options());
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    let map = out.model.expect("model");
    let gated = map.cloud("intent_explore_start").expect("entry");
    assert_eq!(gated.feature_gate.as_deref(), Some("Exploring"));
    // Checked against that enum, not merely accepted.
    let typo = json.replace("\"Exploring\"", "\"Explorng\"");
    let out = compile_split(&units, &typo, &default_options());
    assert!(out.has_errors());
    assert_eq!(out.diagnostics[0].message, "unknown feature \"Explorng\"");
    // The union's file alone: the error says where it looked.
    let out = compile_split(&units[1..], json, &default_options());
    assert!(out.has_errors());
    assert!(
        out.render()
            .contains("searched: userIntent.clad (and every file they include)"),
        "{}",
        out.render()
    );
}

#[test]
fn members_after_test_separator_are_test_only() {
    // `explore_start` (before the separator) is reported; `test_name` and `play_keepaway`
    // (after it) are not, whatever their names.
    let json = r#"{
  "user_intent_map": [ { "cloud_intent": "intent_clock_settimer", "user_intent": "set_timer" } ],
  "unmatched_intent": "unmatched_intent"
}"#;
    let out = compile_split(
        &split_units(),
        json,
        &IntentMapOptions::new(UNION).warn_unmapped(true),
    );
    assert!(!out.has_errors(), "{}", out.render());
    let messages: Vec<&str> = out.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["user intent \"explore_start\" is not mapped"]);
}

#[test]
fn comments_are_accepted_like_jsoncpp() {
    let json = "// the robot's map\n{\n  /* entries */ \"user_intent_map\": [ { \"cloud_intent\": \
                \"intent_explore_start\", \"user_intent\": \"explore_start\" } ],\n  \
                \"unmatched_intent\": \"unmatched_intent\" // always this\n}\n";
    let out = compile(json, &default_options());
    assert!(out.diagnostics.is_empty(), "{}", out.render());
}

#[test]
fn arbitrary_text_never_panics() {
    // Every prefix of a valid map, and some byte soup.
    let full = r#"{"simple_voice_responses":[{"cloud_intent":"a","response":{"anim_group":"g","active_feature":"NoFeature"}}],"user_intent_map":[{"cloud_intent":"b","user_intent":"set_timer","cloud_substitutions":{"t":"time_s"},"cloud_numerics":["t"],"app_intent":"c","app_numerics":["x"]}],"unmatched_intent":"unmatched_intent","is_test":true}"#;
    let schema = schema();
    for i in 0..=full.len() {
        for text in [&full[..i], &full[i..]] {
            let source = LoadedSource {
                name: "map.json".into(),
                path: None,
                text: text.into(),
            };
            let out =
                intent_map::compile(std::slice::from_ref(&schema), source, &default_options());
            let _ = out.render();
        }
    }
}
