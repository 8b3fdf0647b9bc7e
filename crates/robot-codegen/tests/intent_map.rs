//! The intent-map compiler on real data: our `schemas/user_intent_map.json`, a map in the
//! original robot's file format (`tests/fixtures/original_user_intent_map.json`), the
//! generated static (parses, names real tag variants, deterministic) and the builder API.

use clad_codegen::ir::Schema;
use clad_codegen::rust::{Emitter, RustOptions};
use clad_codegen::{Builder, FsLoader, LoadedSource};
use robot_codegen::intent_map::{
    self, CloudMatch, IntentMapCompilation, IntentMapModel, IntentMapOptions, SanitationStep,
};
use robot_codegen::{HriMap, IntentMap};
use std::path::{Path, PathBuf};

const UNION: &str = "Anki::Vector::UserIntent";
const FEATURES: &str = "Anki::Vector::FeatureType";

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn user_intent_schema() -> Schema {
    let mut loader = FsLoader::new([schemas_dir()]);
    let out = clad_codegen::compile(&mut loader, "userIntent.clad");
    assert!(!out.has_errors(), "{}", out.render());
    out.schema.expect("schema")
}

/// `userIntent.clad` and the files it includes, each compiled on its own (what the builder
/// emits together).
fn units() -> Vec<Schema> {
    [
        "userIntent.clad",
        "activeFeatures.clad",
        "featureTypes.clad",
    ]
    .iter()
    .map(|f| {
        let mut loader = FsLoader::new([schemas_dir()]);
        clad_codegen::compile(&mut loader, f)
            .schema
            .expect("schema")
    })
    .collect()
}

fn options() -> IntentMapOptions {
    IntentMapOptions::new(UNION).feature_enum(FEATURES)
}

fn compile_path(
    schema: &Schema,
    dir: PathBuf,
    file: &str,
    opts: &IntentMapOptions,
) -> IntentMapCompilation {
    let mut loader = FsLoader::new([dir]);
    intent_map::compile_file(std::slice::from_ref(schema), &mut loader, file, opts)
}

fn compile_text(schema: &Schema, text: &str, opts: &IntentMapOptions) -> IntentMapCompilation {
    let source = LoadedSource {
        name: "user_intent_map.json".into(),
        path: None,
        text: text.into(),
    };
    intent_map::compile(std::slice::from_ref(schema), source, opts)
}

fn model(out: IntentMapCompilation) -> IntentMapModel {
    assert!(!out.has_errors(), "{}", out.render());
    out.model.expect("model")
}

fn step(from: &str, to: Option<&str>, numeric: bool) -> SanitationStep {
    SanitationStep {
        from: from.into(),
        to: to.map(Into::into),
        numeric,
    }
}

/// Every feature on except the two the stock robot disables (§1.5).
fn stock_features(name: &str) -> bool {
    !matches!(name, "Messaging" | "GazeDirection")
}

// ----- the schema ---------------------------------------------------------------------------

#[test]
fn user_intent_tags_and_bytes_are_the_originals() {
    // The worked vectors of clad-language.md §4.3 (the original's generated code): adding
    // members must never shift these.
    let schema = user_intent_schema();
    let cases = [
        (
            serde_json::json!({"type": "set_timer", "time_s": 300}),
            "362c010000",
        ),
        (
            serde_json::json!({"type": "knowledge_response", "answer": "Paris",
                               "query_text": "capital of France"}),
            "27055061726973116361706974616c206f66204672616e6365",
        ),
        (
            serde_json::json!({"type": "simple_voice_response", "anim_group": "ag",
                               "emotion_event": "", "active_feature": "BasicVoiceCommand",
                               "disable_wakeword_turn": true}),
            "3f026167004600000001",
        ),
        (
            serde_json::json!({"type": "test_timeWithUnits", "time": 0x01020304, "units": "m"}),
            "430403020101",
        ),
    ];
    for (value, hex) in cases {
        let bytes = clad_codegen::dynamic::encode(&schema, UNION, &value).expect("encodes");
        let got: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, hex, "{value}");
    }
    let union = schema.decl(schema.lookup(UNION).expect("union"));
    let clad_codegen::ir::DeclKind::Union(u) = &union.kind else {
        panic!("not a union")
    };
    let tag = |name: &str| u.members.iter().find(|m| m.name == name).map(|m| m.tag);
    assert_eq!(tag("unmatched_intent"), Some(0));
    assert_eq!(tag("weather_response"), Some(61));
    assert_eq!(tag("test_SEPARATOR"), Some(62));
    assert_eq!(tag("knowledge_response_bypass"), Some(68));
    assert_eq!(tag("play_keepaway"), Some(69));
    assert_eq!(tag("test_wire"), Some(70));
    assert_eq!(tag("hri_raw_user_input"), Some(71));
    assert_eq!(tag("hri_suspend"), Some(88));
    assert_eq!(u.members.len(), 89);
}

// ----- (c) our map ------------------------------------------------------------------------

#[test]
fn our_map_validates_without_any_diagnostic() {
    let schema = user_intent_schema();
    let out = compile_path(
        &schema,
        schemas_dir(),
        "user_intent_map.json",
        &options().warn_unmapped(true),
    );
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    let map = out.model.expect("model");
    // Every production member is mapped (the unmapped lint is on and silent), including the
    // wire-os additions and the ROS4HRI intents.
    assert_eq!(map.cloud.len(), 81);
    assert_eq!(map.app.len(), 3);
    assert_eq!(map.simple_voice.len(), 2);
    assert_eq!(map.unmatched.name, "unmatched_intent");
    assert_eq!(map.unmatched.value, 0);
    assert_eq!(map.simple_voice_tag.as_ref().map(|t| t.value), Some(63));
    assert_eq!(map.static_name, "USER_INTENT_MAP");
}

#[test]
fn our_map_lookups() {
    let schema = user_intent_schema();
    let map = model(compile_path(
        &schema,
        schemas_dir(),
        "user_intent_map.json",
        &options(),
    ));

    let timer = map
        .cloud("intent_clock_settimer_extend")
        .expect("set_timer");
    assert_eq!(
        (timer.tag.name.as_str(), timer.tag.value),
        ("set_timer", 54)
    );
    assert_eq!(
        timer.sanitation,
        [step("timer_duration", Some("time_s"), true)]
    );
    let app_timer = map.app("intent_clock_settimer").expect("app set_timer");
    assert_eq!(app_timer.sanitation, [step("param", Some("time_s"), true)]);

    let weather = map.cloud("intent_weather_extend").expect("weather");
    assert_eq!(weather.tag.value, 61);
    let renames: Vec<(&str, &str)> = weather
        .sanitation
        .iter()
        .map(|s| (s.from.as_str(), s.to.as_deref().unwrap_or("")))
        .collect();
    // Sorted by incoming name, as the original applies them.
    assert_eq!(
        renames,
        [
            ("day_or_night", "dayOrNight"),
            ("is_forecast", "isForecast"),
            ("local_datetime", "localDateTime"),
            ("speakable_location_string", "speakableLocationString"),
            ("temperature_unit", "temperatureUnit"),
        ]
    );

    let kg = map
        .cloud("intent_knowledge_response_extend")
        .expect("knowledge");
    assert_eq!(
        (kg.tag.value, kg.feature_gate.as_deref()),
        (39, Some("KnowledgeGraph"))
    );
    let bypass = map
        .cloud("intent_knowledge_response_extend_bypass")
        .expect("bypass");
    assert_eq!(bypass.tag.value, 68);

    let meet = map
        .app("intent_meet_victor")
        .expect("meet_victor app intent");
    assert_eq!(meet.tag.name, "meet_victor");
    assert_eq!(meet.sanitation, [step("param", Some("username"), false)]);

    let say = map.cloud("__intent_say__").expect("ROS4HRI say");
    assert_eq!(say.tag.name, "hri_say");
    assert_eq!(say.sanitation, [step("object", Some("object_name"), false)]);

    let hello = map
        .simple_voice_response("intent_greeting_hello")
        .expect("hello");
    assert_eq!(hello.anim_group, "ag_greeting_hello");
    assert_eq!(hello.active_feature, "BasicVoiceCommand");
    assert_eq!(hello.emotion_event, "");
    assert!(!hello.disable_wakeword_turn);
    let forward = map
        .simple_voice_response("intent_imperative_forward")
        .expect("forward");
    assert!(forward.disable_wakeword_turn);

    // The pipeline's step 2, with the stock robot's features.
    assert!(matches!(
        map.match_cloud("intent_clock_settimer_extend", stock_features),
        CloudMatch::Entry(e) if e.tag.name == "set_timer"
    ));
    assert!(matches!(
        map.match_cloud("intent_greeting_hello", stock_features),
        CloudMatch::SimpleVoice(s) if s.anim_group == "ag_greeting_hello"
    ));
    assert_eq!(
        map.match_cloud("intent_message_playmessage_extend", stock_features),
        CloudMatch::Unmatched
    );
    assert_eq!(
        map.match_cloud("intent_system_unsupported", stock_features),
        CloudMatch::Unmatched
    );
    assert_eq!(
        map.match_cloud("intent_greeting_hello", |f| f != "ReactToHello"),
        CloudMatch::Unmatched
    );
    assert!(map
        .match_app("intent_meet_victor", stock_features)
        .is_some());
    assert!(map
        .match_app("explore_start", |f| f != "Exploring")
        .is_none());
}

#[test]
fn tables_are_sorted_by_intent_bytes() {
    let schema = user_intent_schema();
    let map = model(compile_path(
        &schema,
        schemas_dir(),
        "user_intent_map.json",
        &options(),
    ));
    assert!(map
        .cloud
        .windows(2)
        .all(|w| w[0].intent.as_bytes() < w[1].intent.as_bytes()));
    assert!(map
        .app
        .windows(2)
        .all(|w| w[0].intent.as_bytes() < w[1].intent.as_bytes()));
    // `__intent_…` sorts before `intent_…` in byte order.
    assert_eq!(map.cloud[0].intent, "__intent_bring_object__");
}

// ----- (a) the original robot's file format ------------------------------------------------

#[test]
fn original_format_compiles_and_resolves() {
    let schema = user_intent_schema();
    let out = compile_path(
        &schema,
        fixtures_dir(),
        "original_user_intent_map.json",
        &options(),
    );
    let map = model(out);
    assert!(!map.is_test);
    // Many cloud intents may map to one user intent.
    assert_eq!(
        map.cloud("intent_imperative_quiet").map(|e| e.tag.value),
        Some(30)
    );
    assert_eq!(
        map.cloud("intent_imperative_silence").map(|e| e.tag.value),
        Some(30)
    );
    // `test_parsing` is carried (no runtime effect).
    assert!(
        !map.cloud("intent_imperative_silence")
            .expect("entry")
            .test_parsing
    );
    assert!(
        map.cloud("intent_imperative_quiet")
            .expect("entry")
            .test_parsing
    );
    // An entry with only a user intent is in no table but counts as mapped.
    assert!(map.mapped.iter().any(|t| t.name == "silence"));
    assert!(map.cloud.iter().all(|e| e.tag.name != "silence"));
    // App intents: a separate namespace ("explore_start" is also a tag name).
    assert_eq!(map.app("explore_start").map(|e| e.tag.value), Some(10));
    assert!(map.cloud("explore_start").is_none());
    let stop = map.app("global_stop").expect("app global_stop");
    assert_eq!(
        stop.sanitation,
        [step("param", Some("what_to_stop"), false)]
    );
    assert_eq!(
        map.match_cloud("intent_imperative_lookoverthere", stock_features),
        CloudMatch::Unmatched
    );
    assert!(matches!(
        map.match_cloud("intent_imperative_lookoverthere", |_| true),
        CloudMatch::Entry(e) if e.tag.name == "imperative_lookoverthere"
    ));
}

#[test]
fn original_format_maps_every_original_member() {
    // With the completeness lint on, nothing is reported: the original map covers every
    // member before `test_SEPARATOR`, and the members after it (test members, then our
    // additions) are test-only by the original's convention.
    let schema = user_intent_schema();
    let out = compile_path(
        &schema,
        fixtures_dir(),
        "original_user_intent_map.json",
        &options().warn_unmapped(true),
    );
    assert!(out.diagnostics.is_empty(), "{}", out.render());
}

/// A tree laid out like the original robot's: `userIntent.clad` does not include the file of
/// the feature-gate enum, which is named `featureGateTypes.clad` and given to the build as an
/// input of its own. Made from our schemas (the include line removed, the file renamed) in a
/// fresh directory.
fn original_layout(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "clad-original-layout-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let user_intent =
        std::fs::read_to_string(schemas_dir().join("userIntent.clad")).expect("userIntent.clad");
    let without = user_intent.replace("#include \"featureTypes.clad\"", "");
    assert_ne!(without, user_intent, "the include line is gone");
    std::fs::write(dir.join("userIntent.clad"), without).expect("write");
    for (from, to) in [
        ("activeFeatures.clad", "activeFeatures.clad"),
        ("featureTypes.clad", "featureGateTypes.clad"),
    ] {
        std::fs::copy(schemas_dir().join(from), dir.join(to)).expect("copy");
    }
    dir
}

#[test]
fn feature_enum_from_a_file_the_union_does_not_include() {
    // §5 of issue 11: the original's own layout, as a new user would build it.
    let dir = original_layout("ok");
    let map = fixtures_dir().join("original_user_intent_map.json");
    let generated = Builder::new()
        .include_dir(&dir)
        .file("userIntent.clad")
        .file("featureGateTypes.clad")
        .extension(IntentMap::with_options(
            map.to_str().expect("utf-8 path"),
            IntentMapOptions::new(UNION)
                .feature_enum("Anki::Vector::FeatureType")
                .warn_unmapped(true),
        ))
        .emit_cargo_directives(false)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(generated.warnings.is_empty(), "{}", generated.warnings);
    let code: String = generated.code.split_whitespace().collect();
    assert!(
        code.contains("pubstaticUSER_INTENT_MAP:::robot_runtime::intent::StaticIntentMap<self::anki::vector::UserIntentTag>"),
        "{}",
        generated.code
    );
    // The gates are checked against the enum of the other file: a wrong one is an error.
    let text = std::fs::read_to_string(&map).expect("map").replacen(
        "\"feature_gate\": \"Messaging\"",
        "\"feature_gate\": \"Mesaging\"",
        1,
    );
    assert!(
        text.contains("Mesaging"),
        "the fixture gates an entry by Messaging"
    );
    std::fs::write(dir.join("typo_map.json"), text).expect("write");
    let err = Builder::new()
        .include_dir(&dir)
        .file("userIntent.clad")
        .file("featureGateTypes.clad")
        .extension(IntentMap::with_options(
            "typo_map.json",
            IntentMapOptions::new(UNION).feature_enum("Anki::Vector::FeatureType"),
        ))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("unknown feature");
    assert!(
        err.rendered.contains("unknown feature \"Mesaging\""),
        "{}",
        err.rendered
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_feature_enum_has_a_place_and_a_hint() {
    // The same layout without the feature file: the error points at the first feature gate
    // of the map, names the files searched and the enum the name is closest to.
    let dir = original_layout("missing");
    let map = fixtures_dir().join("original_user_intent_map.json");
    let err = Builder::new()
        .include_dir(&dir)
        .file("userIntent.clad")
        .extension(IntentMap::with_options(
            map.to_str().expect("utf-8 path"),
            IntentMapOptions::new(UNION).feature_enum("Anki::Vector::FeatureType"),
        ))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("no feature enum");
    assert_eq!(err.diagnostics.len(), 1, "{}", err.rendered);
    let d = &err.diagnostics[0];
    assert_eq!(
        d.message,
        "no schema of this build declares the enum `Anki::Vector::FeatureType` for the intent map's feature gates"
    );
    assert!(d.span.is_some(), "the error has a location");
    assert!(
        err.rendered.contains("original_user_intent_map.json:"),
        "{}",
        err.rendered
    );
    assert!(err.rendered.contains("a feature gate to check against it"));
    assert!(
        err.rendered.contains(
            "searched: userIntent.clad, activeFeatures.clad (and every file they include)"
        ),
        "{}",
        err.rendered
    );
    // Misspelled: the hint names the enum it is closest to.
    let err = Builder::new()
        .include_dir(&dir)
        .file("userIntent.clad")
        .file("featureGateTypes.clad")
        .extension(IntentMap::with_options(
            map.to_str().expect("utf-8 path"),
            IntentMapOptions::new(UNION).feature_enum("Anki::Vector::FeatureTypes"),
        ))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("misspelled feature enum");
    assert!(
        err.rendered
            .contains("did you mean `Anki::Vector::FeatureType`?"),
        "{}",
        err.rendered
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn is_test_maps_skip_the_completeness_lint() {
    // Unit tests of the original use small inline maps with "is_test": true.
    let schema = user_intent_schema();
    let text = r#"{
      "is_test": true,
      "user_intent_map": [
        { "cloud_intent": "intent_test_name", "user_intent": "test_name" },
        { "cloud_intent": "intent_test_time", "user_intent": "test_timeWithUnits",
          "cloud_numerics": ["time"] }
      ],
      "unmatched_intent": "unmatched_intent"
    }"#;
    let out = compile_text(&schema, text, &options().warn_unmapped(true));
    assert!(out.diagnostics.is_empty(), "{}", out.render());
    let map = out.model.expect("model");
    assert!(map.is_test);
    assert_eq!(
        map.cloud("intent_test_time").expect("entry").sanitation,
        [step("time", None, true)]
    );
    assert_eq!(map.cloud("intent_test_time").expect("entry").tag.value, 67);
}

// ----- generated Rust ----------------------------------------------------------------------

/// Generates the whole file for our schemas and map through the builder.
fn generated_file() -> clad_codegen::Generated {
    Builder::new()
        .include_dir(schemas_dir())
        .file("userIntent.clad")
        .extension(IntentMap::with_options(
            "user_intent_map.json",
            options().warn_unmapped(true),
        ))
        .emit_cargo_directives(false)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn builder_emits_the_static_next_to_the_union() {
    let generated = generated_file();
    assert!(generated.warnings.is_empty(), "{}", generated.warnings);
    assert!(generated
        .files_read
        .iter()
        .any(|p| p.ends_with("user_intent_map.json")));
    let file: syn::File = syn::parse_file(&generated.code).expect("generated code parses");

    // The static's type names the union's tag enum.
    let stat = file
        .items
        .iter()
        .find_map(|i| match i {
            syn::Item::Static(s) if s.ident == "USER_INTENT_MAP" => Some(s),
            _ => None,
        })
        .expect("pub static USER_INTENT_MAP at the root");
    let ty = quote::quote!(#stat).to_string();
    assert!(
        ty.contains(
            "pub static USER_INTENT_MAP : :: robot_runtime :: intent :: StaticIntentMap < self :: \
             anki :: vector :: UserIntentTag"
        ),
        "{ty}"
    );
    assert!(ty.contains("compiled from `user_intent_map.json` for `Anki::Vector::UserIntent`"));

    // Every `Tag::X` the static uses is a variant of the generated tag enum.
    let tag_enum = find_enum(&file.items, &["anki", "vector"], "UserIntentTag").expect("tag enum");
    let variants: Vec<String> = tag_enum
        .variants
        .iter()
        .map(|v| v.ident.to_string())
        .collect();
    let body = quote::quote!(#stat).to_string();
    let used: Vec<&str> = body
        .split("Tag :: ")
        .skip(1)
        .map(|s| {
            s.split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                .unwrap_or("")
        })
        .collect();
    assert!(used.len() > 80, "{used:?}");
    for v in used {
        assert!(variants.iter().any(|x| x == v), "unknown tag variant {v}");
    }
    assert!(generated.code.contains("tag: Tag::SetTimer"));
    assert!(generated.code.contains("unmatched: Tag::UnmatchedIntent"));
}

fn find_enum<'a>(items: &'a [syn::Item], path: &[&str], name: &str) -> Option<&'a syn::ItemEnum> {
    match path.split_first() {
        None => items.iter().find_map(|i| match i {
            syn::Item::Enum(e) if e.ident == name => Some(e),
            _ => None,
        }),
        Some((first, rest)) => items.iter().find_map(|i| match i {
            syn::Item::Mod(m) if m.ident == first => m
                .content
                .as_ref()
                .and_then(|(_, items)| find_enum(items, rest, name)),
            _ => None,
        }),
    }
}

#[test]
fn builder_tokens_hold_the_static_too() {
    let (tokens, files) = Builder::new()
        .include_dir(schemas_dir())
        .file("userIntent.clad")
        .extension(IntentMap::new("user_intent_map.json", UNION))
        .emit_cargo_directives(false)
        .generate_tokens()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(tokens.to_string().contains("pub static USER_INTENT_MAP"));
    assert!(files.iter().any(|p| p.ends_with("user_intent_map.json")));
}

#[test]
fn builder_runtime_paths_and_static_name() {
    // The wire runtime (the builder's) and the intent runtime (the map's) are separate
    // settings.
    let generate = |builder: Builder, map: IntentMap| {
        builder
            .include_dir(schemas_dir())
            .file("userIntent.clad")
            .extension(map.static_name("INTENTS"))
            .emit_cargo_directives(false)
            .generate()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let map = IntentMap::new("user_intent_map.json", UNION);
    let wire_only = generate(Builder::new().runtime_path("crate::rt"), map.clone());
    let code: String = wire_only.code.split_whitespace().collect();
    assert!(
        code.contains("pubstaticINTENTS:::robot_runtime::intent::StaticIntentMap<self::anki::vector::UserIntentTag>"),
        "{}",
        wire_only.code
    );
    assert!(code.contains("crate::rt::wire::Wire"));

    let both = generate(
        Builder::new().runtime_path("crate::rt"),
        map.clone().runtime_path("crate::robot"),
    );
    let code: String = both.code.split_whitespace().collect();
    assert!(
        code.contains("pubstaticINTENTS:crate::robot::intent::StaticIntentMap<self::anki::vector::UserIntentTag>"),
        "{}",
        both.code
    );
    assert!(both.code.contains("use crate::robot::intent::{"));
    assert!(!both.code.contains("crate::rt::intent"));

    let err = Builder::new()
        .include_dir(schemas_dir())
        .file("userIntent.clad")
        .extension(map.runtime_path("not a path"))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("invalid path");
    assert!(
        err.rendered
            .contains("invalid intent-map runtime path `not a path`"),
        "{err}"
    );
}

#[test]
fn two_maps_with_one_name_or_a_name_the_schema_uses_are_errors() {
    let build = |first: IntentMap, second: Option<HriMap>| {
        let mut b = Builder::new()
            .include_dir(schemas_dir())
            .file("userIntent.clad")
            .extension(first);
        if let Some(second) = second {
            b = b.extension(second);
        }
        b.emit_cargo_directives(false).generate()
    };
    let map = IntentMap::new("user_intent_map.json", UNION);
    let err = build(
        map.clone().static_name("MAPS"),
        Some(HriMap::new("hri_intent_map.json", UNION).static_name("MAPS")),
    )
    .expect_err("one name twice");
    assert!(
        err.rendered.contains(
            "two items of this build are named `MAPS`: the intent map \"user_intent_map.json\" \
             and the HRI intent map \"hri_intent_map.json\""
        ),
        "{}",
        err.rendered
    );
    // `anki` is the root module of the generated types.
    let err = build(map.static_name("anki"), None).expect_err("a module's name");
    assert!(
        err.rendered
            .contains("would be named `anki`, the name of the generated module of `Anki::"),
        "{}",
        err.rendered
    );
    // Both maps under their default names, in one build.
    let both = build(
        IntentMap::new("user_intent_map.json", UNION),
        Some(HriMap::new("hri_intent_map.json", UNION)),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(both.code.contains("pub static USER_INTENT_MAP:"));
    assert!(both.code.contains("pub static HRI_INTENT_MAP:"));
    assert!(both
        .files_read
        .iter()
        .any(|p| p.ends_with("hri_intent_map.json")));
}

#[test]
fn builder_reports_map_errors_like_schema_errors() {
    let dir = std::env::temp_dir().join(format!("clad-intent-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("bad_map.json"),
        "{\n  \"user_intent_map\": [\n    { \"cloud_intent\": \"intent_x\", \"user_intent\": \"set_timr\" }\n  ],\n  \"unmatched_intent\": \"unmatched_intent\"\n}\n",
    )
    .expect("write");
    let err = Builder::new()
        .include_dir(schemas_dir())
        .include_dir(&dir)
        .file("userIntent.clad")
        .extension(IntentMap::new("bad_map.json", UNION))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("bad map");
    assert!(
        err.rendered
            .contains("error: unknown user intent \"set_timr\""),
        "{}",
        err.rendered
    );
    assert!(err.rendered.contains("bad_map.json:3:"), "{}", err.rendered);
    assert!(
        err.rendered.contains("did you mean \"set_timer\"?"),
        "{}",
        err.rendered
    );

    let missing = Builder::new()
        .include_dir(schemas_dir())
        .file("userIntent.clad")
        .extension(IntentMap::new("no_such_map.json", UNION))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("missing map");
    assert!(
        missing
            .rendered
            .contains("could not find intent map \"no_such_map.json\""),
        "{}",
        missing.rendered
    );

    let no_union = Builder::new()
        .include_dir(schemas_dir())
        .file("cloud.clad")
        .extension(IntentMap::new("user_intent_map.json", UNION))
        .emit_cargo_directives(false)
        .generate()
        .expect_err("union not in the build");
    assert!(
        no_union
            .rendered
            .contains("no schema of this build declares the union"),
        "{}",
        no_union.rendered
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- (d) determinism ---------------------------------------------------------------------

#[test]
fn generation_is_deterministic() {
    let a = generated_file().code;
    let b = generated_file().code;
    assert_eq!(a, b);
}

#[test]
fn entry_order_in_the_file_does_not_change_the_output() {
    let schema = user_intent_schema();
    let path = schemas_dir().join("user_intent_map.json");
    let text = std::fs::read_to_string(path).expect("map");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("json");
    json["user_intent_map"]
        .as_array_mut()
        .expect("array")
        .reverse();
    json["simple_voice_responses"]
        .as_array_mut()
        .expect("array")
        .reverse();
    let shuffled = serde_json::to_string(&json).expect("text");
    let a = model(compile_text(&schema, &text, &options()));
    let b = model(compile_text(&schema, &shuffled, &options()));
    assert_eq!(a, b);
    let units = units();
    let opts = RustOptions::default();
    let emitter = Emitter::new(&units, &opts).expect("emitter");
    let code_a = intent_map::generate(&a, emitter.names()).expect("code");
    let code_b = intent_map::generate(&b, emitter.names()).expect("code");
    assert_eq!(code_a, code_b);
}

#[test]
fn generated_static_for_a_small_map() {
    // A readable sample of the output, reviewed as a snapshot.
    let schema = user_intent_schema();
    let text = r#"{
      "simple_voice_responses": [
        { "cloud_intent": "intent_greeting_hello", "feature_gate": "ReactToHello",
          "response": { "anim_group": "ag_greeting_hello" } }
      ],
      "user_intent_map": [
        { "cloud_intent": "intent_weather_extend", "user_intent": "weather_response",
          "cloud_substitutions": { "temperature_unit": "temperatureUnit", "is_forecast": "isForecast" } },
        { "cloud_intent": "intent_clock_settimer_extend", "app_intent": "intent_clock_settimer",
          "user_intent": "set_timer",
          "cloud_substitutions": { "timer_duration": "time_s" }, "cloud_numerics": ["timer_duration"] },
        { "cloud_intent": "intent_message_playmessage_extend", "user_intent": "message_playback",
          "cloud_substitutions": { "given-name": "given_name" }, "feature_gate": "Messaging" }
      ],
      "unmatched_intent": "unmatched_intent"
    }"#;
    let map = model(compile_text(&schema, text, &options()));
    let units = units();
    let opts = RustOptions::default();
    let emitter = Emitter::new(&units, &opts).expect("emitter");
    let code = intent_map::generate(&map, emitter.names()).expect("code");
    insta::assert_snapshot!(code);
}

// ----- robustness --------------------------------------------------------------------------

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Mutations of our real map (a character deleted, replaced or inserted) never panic and
    /// either compile or report at least one error.
    #[test]
    fn mutated_maps_never_panic(at in 0usize..10_000, op in 0u8..3, c in proptest::char::any()) {
        static SCHEMA: std::sync::OnceLock<Schema> = std::sync::OnceLock::new();
        let schema = SCHEMA.get_or_init(user_intent_schema);
        let mut text = std::fs::read_to_string(schemas_dir().join("user_intent_map.json")).expect("map");
        let mut at = at % text.len();
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        match op {
            0 => {
                text.remove(at);
            }
            1 => {
                text.remove(at);
                text.insert(at, c);
            }
            _ => text.insert(at, c),
        }
        let out = compile_text(schema, &text, &options().warn_unmapped(true));
        let _ = out.render();
        proptest::prop_assert!(out.model.is_some() || out.has_errors());
    }
}

// ----- the member rules ----------------------------------------------------------------------

#[test]
fn the_completeness_lint_follows_the_runtimes_member_rules() {
    // Above the separator: demanded (except the unmatched intent and `test_` members). Below
    // it: real intents (`hri_move_to`) and test intents alike are not the map's business.
    let mut files = clad_codegen::MemoryLoader::new().file(
        "u.clad",
        "structure Void {}\n\
         union UserIntent { Void unmatched_intent, Void set_timer, Void show_clock,\n\
           Void test_early, Void test_SEPARATOR, Void hri_move_to, Void test_name }\n",
    );
    let schema = clad_codegen::compile(&mut files, "u.clad")
        .schema
        .expect("schema");
    let text = r#"{"user_intent_map": [{"cloud_intent": "a", "user_intent": "set_timer"}],
                   "unmatched_intent": "unmatched_intent"}"#;
    let out = compile_text(
        &schema,
        text,
        &IntentMapOptions::new("UserIntent").warn_unmapped(true),
    );
    let warned: Vec<&str> = out.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(warned, ["user intent \"show_clock\" is not mapped"]);
}
