//! ROS4HRI intents (`hri_actions_msgs/Intent`, as PAL's robots publish them on `/intents`):
//! a typed, validated model with the envelope, confidence policy and de-duplication the
//! message lacks.
//!
//! The path of a message:
//!
//! 1. [`HriIntake::receive_json`] / [`HriIntake::receive_fields`] read it leniently
//!    ([`HriIntent::from_json`]): every intent constant of every released version and fork
//!    ([`IntentKind`], custom strings kept as [`IntentKind::Custom`]), the 0.3.0 field
//!    `action`, 0.3.x quoted constants, `speech` vs `__modality_speech__`, typed [`Source`]
//!    and [`Modality`] with escape hatches. Corrections are reported
//!    ([`HriEvent::Normalized`]).
//! 2. Validation: `data` must be a JSON object; the thematic-role table
//!    ([`IntentKind::roles`]: required / optional per intent, `agent` and `other_data`
//!    everywhere) is checked and errors name the intent and the role; priority in 0..=255
//!    with the documented default 128 when omitted (never the wire default 0); confidence in
//!    0..=1, or [`Confidence::Unstated`]. Every problem is an [`HriError`], all of a message
//!    are reported ([`HriEvent::Rejected`]); nothing panics, nothing is dropped silently.
//! 3. The [`Envelope`] (id, creation time, expiry, correlation id) is completed; stale
//!    intents ([`HriEvent::Expired`]) are not executed.
//! 4. The [`ConfidencePolicy`] puts the intent in the execute, confirm or ignore band; then a
//!    restatement of a request admitted just before, with nothing changed in between and
//!    nothing more said (the rule: [`Deduplicator`]), is a duplicate
//!    ([`HriEvent::Duplicate`]) and is not executed again.
//! 5. The admitted [`IntentRecord`] goes to the mission controller
//!    ([`crate::mission::MissionController::handle_intent`]), and/or becomes a user-intent
//!    member through the build-time [`StaticHriMap`]. The owned [`HriIntent`] keeps its
//!    `data` as [`Roles`] (what a serde_json map held, in a text buffer and an entry vector).
//!
//! Writing is canonical: [`HriIntent::to_wire`] and [`HriIntent::to_json`] always use the
//! 2.x constants.

mod common;
mod data;
mod dedup;
mod envelope;
mod error;
mod intake;
pub mod map;
mod message;
mod policy;
mod read;
mod roles;
mod scan;
mod vocab;

pub use data::{RoleValue, Roles, RolesIter};
pub use dedup::Deduplicator;
pub use envelope::{Envelope, IntentId, IntentRecord, Timestamp};
pub use error::HriError;
pub(crate) use intake::EventSink;
pub use intake::{Admission, HriEvent, HriIntake, IntakeConfig};
pub use map::{HriMapEntry, HriMapError, RoleCondition, RoleField, Route, StaticHriMap};
pub(crate) use message::IntentIn;
pub use message::{
    Confidence, HriIntent, IntentFields, Priority, ReadIntent, ReadOptions, RejectedIntent,
    WireIntent,
};
pub use policy::{Bands, ConfidenceDecision, ConfidencePolicy};
pub(crate) use read::FieldIn;
pub use roles::RoleSpec;
pub use vocab::{GazeMode, IntentKind, Modality, Normalization, Role, Source};
