//! User intents: the build-time compiled intent map ([`map`]).
//!
//! The intent component and the cloud pipeline arrive in this module too (see the project's
//! issue on user intents).

pub mod map;

pub use map::{MapEntry, Sanitation, SimpleVoiceResponse, StaticIntentMap};
