//! Generates the message types the tests and the bench exchange over Zenoh:
//!
//! - `$OUT_DIR/clad.rs`: the project's `cloud.clad` (`CloudMic::Message`, with its borrowed
//!   view) and `userIntent.clad` with the intent map (the robot's intent component is fed
//!   from Zenoh in the tests), as `examples/robot` generates them, plus the project's `hri.clad`
//!   (the ROS4HRI intent message).
//! - `$OUT_DIR/clad_v2.rs`: `schemas/cloud_v2.clad`, a `CloudMic::Message` of another schema
//!   version (same name, other hash), to prove a mismatch is refused.
//!
//! The library itself uses none of it.

use clad_codegen::IntentMapOptions;

fn main() {
    clad_codegen::Builder::new()
        .include_dir("../../schemas")
        .include_dir("schemas")
        .file("cloud.clad")
        .file("userIntent.clad")
        .file("hri.clad")
        .view("CloudMic::Message")
        .view("Hri")
        .intent_map_with(
            "user_intent_map.json",
            IntentMapOptions::new("Anki::Vector::UserIntent")
                .feature_enum("Anki::Vector::FeatureType"),
        )
        .build();
    clad_codegen::Builder::new()
        .include_dir("schemas")
        .file("cloud_v2.clad")
        .output_file("clad_v2.rs")
        .build();
}
