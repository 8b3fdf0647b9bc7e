//! Being a ROS 2 peer on Zenoh without ROS installed: what `rmw_zenoh_cpp` (ROS 2's tier-1
//! Zenoh middleware) puts on the wire, for `hri_actions_msgs/msg/Intent` (ROS4HRI).
//!
//! A ROS 2 node on rmw_zenoh is a Zenoh peer (connected to the `rmw_zenohd` router on
//! `tcp/localhost:7447`); a topic is a key expression, a message one `put` with a CDR payload
//! and a 33-byte attachment, and the graph (`ros2 node list`, `ros2 topic info`) is made of
//! liveliness tokens. This module speaks exactly that, so ROS 2 nodes exchange intents with a
//! program that has no ROS installation and no bridge:
//!
//! | piece | module |
//! |---|---|
//! | CDR (little-endian plain CDR, alignment from the body start) | [`cdr`] |
//! | the `Intent` message: layout, RIHS01 type hash, the "ROS defaults" rule | [`intent`] |
//! | the attachment (sequence number, source time, GID) and GIDs | [`attachment`] |
//! | names: resolution and remapping, data keys, liveliness tokens, QoS chunk | [`names`] |
//! | a node on a session: token, subscription with a bounded queue, publisher | [`Node`] |
//!
//! Decoders never panic and never allocate from a length prefix; every problem is a typed
//! error ([`CdrError`], [`AttachmentError`], [`SampleError`]) naming the field and offset.
//! Nothing here knows the robot: the robot hands the decoded fields to its own HRI intake.
//!
//! ```no_run
//! use clad_zenoh::config;
//! use clad_zenoh::intake::Intake;
//! use clad_zenoh::ros2::{DefaultsRule, Node, NodeOptions, SubscriptionOptions};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A peer connected to the ROS 2 router, as a ROS node is.
//! let session = config::open(config::peer(&["tcp/localhost:0"], &["tcp/localhost:7447"], false)?)?;
//! let node = Node::declare(&session, NodeOptions::default())?; // `/robot`, domain 0
//! let (_sub, queue) = node.subscribe_intents("/intents", SubscriptionOptions::default())?;
//! // Every tick:
//! queue.drain(|item| match item {
//!     Intake::Message(Ok(sample)) => sample.with_view(|intent| match intent {
//!         Ok(intent) => {
//!             let stated = intent.stated(DefaultsRule::Ros);
//!             println!("{} {} priority {:?}", intent.intent, intent.data, stated.priority);
//!         }
//!         Err(bad) => eprintln!("undecodable: {bad}"),
//!     }),
//!     Intake::Message(Err(refused)) => eprintln!("refused: {refused}"),
//!     Intake::Overflow { dropped } => eprintln!("{dropped} dropped"),
//!     Intake::Refused(_) => {} // never queued by an `Intent` subscription
//! });
//! # Ok(())
//! # }
//! ```

pub mod attachment;
pub mod cdr;
pub mod intent;
pub mod names;
mod node;

pub use attachment::{Attachment, AttachmentError, Gid};
pub use cdr::CdrError;
pub use intent::{DefaultsRule, Intent, IntentView, Stated};
pub use names::{NameError, Profile, Qos, Remap};
pub use node::{
    domain_from_env, Error, IntentPublisher, IntentSample, IntentSubscription, Node, NodeOptions,
    Received, SampleError, SubscriptionOptions, MAX_DOMAIN_ID,
};

/// The port `rmw_zenohd` (the ROS 2 Zenoh router) listens on. A ROS peer connects to it and
/// must never listen on it.
pub const ROUTER_PORT: u16 = 7447;

/// Where a ROS node finds the router by default.
pub const DEFAULT_ROUTER: &str = "tcp/localhost:7447";

/// Where a ROS node listens by default (any free port: other peers learn it from the router).
pub const DEFAULT_LISTEN: &str = "tcp/localhost:0";
