//! Generates `$OUT_DIR/clad.rs` from the project's schemas (including the ROS4HRI intent
//! message `hri.clad`), the intent map, the HRI intent map and the benchmark schema.
//!
//! Include directories are searched in order: `../../schemas` (the project's schemas and
//! `user_intent_map.json`), then this crate's `schemas/`. Every file an input includes is
//! generated too, and cargo reruns this script when any file read changes. Schema and map
//! errors are reported as `cargo::error=` lines with file:line:col.

use robot_codegen::{HriMap, IntentMap};

fn main() {
    clad_codegen::Builder::new()
        .include_dir("../../schemas")
        .include_dir("schemas")
        .file("cloud.clad")
        .file("userIntent.clad")
        .file("bench.clad")
        // The ROS4HRI intent message (`Hri::Intent`, `Hri::IntentEnvelope`).
        .file("hri.clad")
        // Borrowed views (`MessageView<'a>`, `EventView<'a>`, ...): the cloud messages are
        // decoded without copying their strings on the robot's tick thread.
        .view("CloudMic::Message")
        .view("Bench")
        // ... and a packed HRI intent envelope, read without copying its strings.
        .view("Hri::IntentEnvelope")
        // Cloud and app intents -> user-intent member + fields (`USER_INTENT_MAP`).
        .extension(
            IntentMap::new("user_intent_map.json", "Anki::Vector::UserIntent")
                .feature_enum("Anki::Vector::FeatureType"),
        )
        // ROS4HRI intent + roles -> user-intent member + fields (`HRI_INTENT_MAP`).
        // ... and where each request goes: behaviors, mission controller or both.
        .extension(
            HriMap::new("hri_intent_map.json", "Anki::Vector::UserIntent")
                .feature_enum("Anki::Vector::FeatureType"),
        )
        .build();
}
