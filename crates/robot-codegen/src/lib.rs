//! `robot-codegen`: the robot's build-time compilers, plugged into `clad-codegen`'s
//! [`Builder`](clad_codegen::Builder) as build extensions (as tonic-build plugs gRPC
//! services into prost-build).
//!
//! * [`IntentMap`]: a `user_intent_map.json` (the original robot's format) checked against
//!   the user-intent union and emitted as
//!   `pub static USER_INTENT_MAP: robot_runtime::intent::StaticIntentMap<Tag>`
//!   ([`intent_map`] says what is checked);
//! * [`HriMap`]: a `hri_intent_map.json` (ROS4HRI intent + role conditions → union member +
//!   payload fields) emitted as `pub static HRI_INTENT_MAP: robot_runtime::hri::StaticHriMap<Tag>`
//!   ([`hri_map`]).
//!
//! What the maps are checked against comes from `robot-runtime` itself, so the compiler and
//! the robot cannot disagree: the member rules ([`robot_runtime::intent::members`]: which
//! members a complete map names, which are test-only), the simple-voice member and its
//! payload fields, and the ROS4HRI intents with their thematic roles
//! ([`robot_runtime::hri::IntentKind`]). `robot-runtime` itself depends on no codegen crate.
//!
//! ```no_run
//! // build.rs
//! use robot_codegen::{HriMap, IntentMap};
//!
//! clad_codegen::Builder::new()
//!     .include_dir("schemas")
//!     .file("userIntent.clad")
//!     .extension(
//!         IntentMap::new("user_intent_map.json", "Anki::Vector::UserIntent")
//!             .feature_enum("Anki::Vector::FeatureType"),
//!     )
//!     .extension(HriMap::new("hri_intent_map.json", "Anki::Vector::UserIntent"))
//!     .build();
//! ```
//!
//! Each static is appended to the file that holds the union, typed by the union's generated
//! `<Name>Tag` enum, whose path and variants come from the build's naming table. Map errors
//! fail the build like schema errors, rendered with the same snippets (the map file joins
//! the schema's source database), and cargo reruns the build script when a map changes.

#![warn(missing_docs)]

/// Writes formatted lines into a [`clad_codegen::rust::code::Code`]:
/// `emit!(code, "pub static {name}: T = {{")`.
macro_rules! emit {
    ($code:expr, $($fmt:tt)*) => {
        $code.lines(&format!($($fmt)*))
    };
}

mod compilation;
pub mod hri_map;
pub mod intent_map;
mod json;

pub use compilation::Compilation;
pub use hri_map::{HriMap, HriMapOptions};
pub use intent_map::{IntentMap, IntentMapOptions};

/// The crate whose `intent` and `hri` modules hold the statics' types, as generated code
/// names it by default.
pub const DEFAULT_RUNTIME_PATH: &str = "::robot_runtime";
