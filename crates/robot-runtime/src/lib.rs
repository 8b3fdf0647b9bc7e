//! The robot runtime: what a robot built on CLAD schemas runs.
//!
//! * [`intent`]: the user-intent component. Cloud and app intents (strings plus stringified
//!   JSON parameters) become typed user intents (a generated union) through a map compiled at
//!   build time by `robot-codegen` (a `clad-codegen` build extension); the component keeps
//!   the pending and active intent, their deadlines and guards, and reports every outcome as
//!   a typed event. [`intent::members`] holds the two rules about a union's members.
//! * [`behavior`]: the behavior system. A runner drives a tree of behaviors (declared in
//!   code or in JSON, validated whole at load) over the intent component: lifecycle rules
//!   enforced in release builds, delegation to behaviors and actions with typed outcomes,
//!   scoped effects undone on any deactivation, intent coverage and tree export.
//! * [`hri`]: ROS4HRI intents (`hri_actions_msgs/Intent`): every version's spelling read
//!   leniently and written canonically, the thematic-role table, envelope, confidence policy
//!   and de-duplication; the build-time HRI → user-intent map table.
//! * [`arbiter`]: the one arbiter of the robot's body: one resource vocabulary, one policy
//!   (priority, halt before start, grace and force-release), one table that behavior actions
//!   and mission capabilities both claim through.
//! * [`mission`]: the resource-aware mission controller: capabilities declare resources, the
//!   arbiter grants, queues, preempts (halt before start) or rejects, with a typed reason.
//! * [`suggest`] and [`json_kind`]: what every reader of names and JSON says the same way
//!   ("did you mean", "found an array").
//!
//! Generated code itself depends only on [`clad_runtime`] (the wire format, CLAD-JSON, union
//! support). It is re-exported here as [`clad`], and its modules under their own names
//! ([`wire`], [`json`], [`union`], [`enums`], [`serde`]) so a robot crate can name one
//! dependency.
#![warn(missing_docs)]

pub mod arbiter;
pub mod behavior;
mod hint;
pub mod hri;
pub mod intent;
pub mod json_kind;
pub mod mission;
pub(crate) mod spare;
pub mod suggest;

/// The runtime generated code uses (the `clad-runtime` crate).
pub use clad_runtime as clad;
pub use clad_runtime::{enums, json, serde, union, wire};
