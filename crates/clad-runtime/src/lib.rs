//! What code generated from CLAD schemas needs, and nothing more.
//!
//! `clad-codegen` (through `build.rs`, `cladc rust` or `include_clad!`) writes Rust that
//! names this crate as `::clad_runtime`. A crate that only uses schemas depends on
//! `clad-runtime` (and nothing else: serde is re-exported); the robot's own runtime,
//! `robot-runtime`, builds on it.
//!
//! * [`wire`]: the binary CLAD wire format. Every generated message, structure, union and
//!   enum implements [`wire::Wire`] (`packed_size`, `write_to`, `read_from`, and the provided
//!   `pack`, `pack_into`, `pack_append`, `unpack`, `unpack_prefix`). Strings and arrays use
//!   the generic helpers such as [`wire::write_string`] and [`wire::read_vec`]. Failures are
//!   [`wire::PackError`] / [`wire::UnpackError`], which name the field path and byte offset.
//!   Borrowed views ([`wire::WireView`]) decode without copying. The module documentation
//!   shows the exact code a generator emits.
//! * [`json`]: CLAD-JSON helpers for serde derives (`NaN`/`Infinity` floats, union
//!   `"type"`/`"value"` objects).
//! * [`union`]: [`union::CladUnion`], implemented by every generated union, so that generic
//!   components (routers, loggers, the robot's intent component) serve any schema.
//! * [`enums`]: the error types of generated enum conversions.
//!
//! ```
//! use clad_runtime::wire::Wire;
//!
//! // Builtins implement `Wire` directly; generated types follow the same API.
//! let bytes = 0x0102_0304_u32.pack().unwrap();
//! assert_eq!(bytes, [4, 3, 2, 1]);
//! assert_eq!(u32::unpack(&bytes).unwrap(), 0x0102_0304);
//! let err = u32::unpack(&[1, 2, 3, 4, 5]).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "trailing bytes at byte 4: 1 unread bytes after a complete uint_32"
//! );
//! ```
#![warn(missing_docs)]

pub mod enums;
pub mod json;
pub mod union;
pub mod wire;

/// serde, re-exported so generated code (`#[serde(crate = "::clad_runtime::serde")]`) works
/// without a direct serde dependency.
pub use serde;
