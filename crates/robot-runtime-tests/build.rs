//! Generates `$OUT_DIR/clad.rs`: the test union `UserIntent` (`schemas/test_user_intent.clad`),
//! its intent map `USER_INTENT_MAP` (`schemas/test_user_intent_map.json`) and the project's
//! `CloudMic::Message` (`../../schemas/cloud.clad`). Schema and map errors are reported as
//! `cargo::error=` lines with file:line:col.

use robot_codegen::IntentMap;

fn main() {
    clad_codegen::Builder::new()
        .include_dir("schemas")
        .include_dir("../../schemas")
        .file("test_user_intent.clad")
        .file("cloud.clad")
        .extension(
            IntentMap::new("test_user_intent_map.json", "UserIntent").feature_enum("FeatureType"),
        )
        .build();
}
