//! The robot runtime: what a robot built on CLAD schemas runs.
//!
//! * [`intent`]: the user-intent component. Cloud and app intents (strings plus stringified
//!   JSON parameters) become typed user intents (a generated union) through a map compiled at
//!   build time by `clad-codegen`; the component keeps the pending and active intent, their
//!   deadlines and guards, and reports every outcome as a typed event.
//!
//! Generated code itself depends only on [`clad_runtime`] (the wire format, CLAD-JSON, union
//! support). It is re-exported here as [`clad`], and its modules under their own names
//! ([`wire`], [`json`], [`union`], [`enums`], [`serde`]) so a robot crate can name one
//! dependency.
#![warn(missing_docs)]

pub mod intent;

/// The runtime generated code uses (the `clad-runtime` crate).
pub use clad_runtime as clad;
pub use clad_runtime::{enums, json, serde, union, wire};
