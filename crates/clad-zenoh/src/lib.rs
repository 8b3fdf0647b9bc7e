//! CLAD messages across processes and machines, over [Zenoh](https://zenoh.io).
//!
//! Networking lives only in this crate: `clad-runtime`/`robot-runtime` and generated code
//! know nothing of it. Everything here works with any generated
//! [`Wire`](clad_runtime::wire::Wire) type:
//!
//! - [`Publisher`] / [`subscribe`] / [`subscribe_view`]: typed publish/subscribe. The payload
//!   is the CLAD packed encoding; every sample carries a [`TypeTag`] attachment (the type's
//!   CLAD name and schema hash, a hash over the type and every type inside it, see
//!   [`header`]). A receiver checks the tag against its own generated type *before*
//!   decoding and refuses a sample from a peer built from another schema version, even one
//!   that differs only in a nested type, with [`ReceiveError::HashMismatch`]. Refused samples are logged through
//!   `tracing` and handed to the handler as typed errors; later samples still arrive.
//! - [`serve`] / [`query`]: typed query/reply for request/response pairs.
//! - [`intake`]: bounded, order-preserving queues between Zenoh's threads and a consumer
//!   that drains on its own schedule (the robot's tick), with a reported overflow policy
//!   (shedding the least important by the consumer's rank, or dropping the newest);
//!   [`intake::subscribe_packed`] feeds the robot's one intake (`CloudDatagram`) and works
//!   for any message type (HRI intents too); a sample longer than its type can be is refused.
//! - [`key`]: key expressions derived from the CLAD name (`CloudMic::Message` →
//!   `CloudMic/Message`), overridable everywhere.
//! - [`config`]: peer-mode session configurations (explicit endpoints, multicast scouting
//!   switchable).
//! - [`ros2`]: a ROS 2 peer as `rmw_zenoh` makes one, for `hri_actions_msgs/msg/Intent`
//!   (CDR, attachment, type hash, names, liveliness tokens): ROS 2 nodes hear the robot and
//!   the robot hears them, with no ROS installed.
//!
//! ```no_run
//! use clad_zenoh::{config, Publisher};
//! # use clad_runtime::wire::Wire;
//! # fn demo<M: Wire + std::fmt::Debug + Send + 'static>(msg: M) -> Result<(), clad_zenoh::Error> {
//! let session = config::open(config::peer(&["tcp/127.0.0.1:7447"], &[], false)?)?;
//! let publisher = Publisher::<M>::declare(&session, None)?; // key `Ns/Type`
//! let _subscriber = clad_zenoh::subscribe::<M, _>(&session, None, |received| match received {
//!     Ok(msg) => println!("{msg:?}"),
//!     Err(refused) => eprintln!("refused: {refused}"),
//! })?;
//! publisher.put(&msg)?;
//! # Ok(())
//! # }
//! ```
//!
//! Delivery: publishers are reliable and use [`CongestionControl::Block`] by default, so
//! a publisher that outruns the network waits instead of dropping; Zenoh keeps the samples of
//! one publisher in order. Loss can then only happen where a consumer is slower than its
//! producer, which is what [`intake`]'s bounded queues decide and report.

#![warn(missing_docs)]

pub mod config;
pub mod header;
pub mod intake;
pub mod key;
mod query;
pub mod ros2;
mod typed;

pub use header::{AttachmentError, Hash, TypeTag};
pub use query::{query, serve, QueryError, Queryable};
pub use typed::{check_sample, subscribe, subscribe_view, Publisher, PublisherOptions, Subscriber};
pub use zenoh;
pub use zenoh::qos::CongestionControl;

use clad_runtime::wire::{PackError, UnpackError};

/// A local failure: the session, a declaration, or packing a message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Zenoh refused (bad configuration, closed session, invalid key expression, ...).
    #[error("zenoh: {0}")]
    Zenoh(#[source] zenoh::Error),
    /// The message does not pack (a string or array over its schema limit).
    #[error("cannot pack the message: {0}")]
    Pack(#[from] PackError),
    /// A type tag that cannot be encoded (empty or overlong name).
    #[error(transparent)]
    Attachment(#[from] AttachmentError),
}

impl From<zenoh::Error> for Error {
    fn from(e: zenoh::Error) -> Self {
        Error::Zenoh(e)
    }
}

/// Why a received sample, query or reply was refused. Each one is logged (`tracing`, at
/// `warn`) and handed to the handler; the subscription goes on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReceiveError {
    /// The sample has no attachment: not sent through this crate.
    #[error("sample on `{key}` has no CLAD type tag")]
    MissingAttachment {
        /// The sample's key expression.
        key: String,
    },
    /// The attachment is not a CLAD type tag.
    #[error("sample on `{key}`: bad CLAD type tag: {error}")]
    BadAttachment {
        /// The sample's key expression.
        key: String,
        /// What is wrong with it.
        error: AttachmentError,
    },
    /// The sample carries another type.
    #[error("sample on `{key}` carries `{found}`, expected `{expected}`")]
    WrongType {
        /// The sample's key expression.
        key: String,
        /// This receiver's type.
        expected: &'static str,
        /// The sample's type.
        found: String,
    },
    /// Same type name, other schema hash: the peer was built from another version of the
    /// schema (of the type itself or of any type inside it: a member added, removed,
    /// reordered, renamed or retyped, a union tag or an enum value changed). Nothing was
    /// decoded.
    #[error(
        "sample on `{key}` refused: `{type_name}` has schema hash {} on the sender, {} here: \
         the sender was built from another version of the schema (of `{type_name}` or of a \
         type inside it)",
        fmt_hash(found),
        fmt_hash(expected)
    )]
    HashMismatch {
        /// The sample's key expression.
        key: String,
        /// The type name (the same on both sides).
        type_name: &'static str,
        /// This receiver's hash.
        expected: Option<Hash>,
        /// The sample's hash.
        found: Option<Hash>,
    },
    /// The payload is longer than any value of the type can be (its schema's maximum size,
    /// `Wire::MAX_SIZE`): refused before anything is decoded or copied.
    #[error("sample on `{key}` refused: {len} bytes, but a `{type_name}` is at most {max} bytes")]
    TooLarge {
        /// The sample's key expression.
        key: String,
        /// The type name.
        type_name: &'static str,
        /// The payload's length.
        len: usize,
        /// The type's maximum encoded size.
        max: usize,
    },
    /// The tag matches but the payload does not decode as the type.
    #[error("sample on `{key}` does not decode: {error}")]
    Undecodable {
        /// The sample's key expression.
        key: String,
        /// The decoder's error (kind, offset, field path).
        error: UnpackError,
    },
}

fn fmt_hash(h: &Option<Hash>) -> String {
    h.map_or_else(|| "(none)".to_owned(), |h| h.to_string())
}

impl ReceiveError {
    /// The key expression of the refused sample.
    pub fn key(&self) -> &str {
        match self {
            Self::MissingAttachment { key }
            | Self::BadAttachment { key, .. }
            | Self::WrongType { key, .. }
            | Self::HashMismatch { key, .. }
            | Self::TooLarge { key, .. }
            | Self::Undecodable { key, .. } => key,
        }
    }
}
