//! The robot's user-intent wiring: the generated `UserIntent` union and `USER_INTENT_MAP`
//! (compiled from `schemas/user_intent_map.json` by `build.rs`), the adapter from the
//! generated `CloudMic::Message` to the runtime's [`CloudEvent`], and the robot's feature
//! gate.
//!
//! ```
//! use robot_example::intents::{self, Tag, UserIntent};
//! use robot_example::clad::anki::vector::UserIntentTimeInSeconds;
//! use robot_example::clad::cloud_mic::{IntentResult, Message};
//! use robot_runtime::intent::{CloudOutcome, IntentSource};
//! use robot_runtime::wire::Wire;
//!
//! let mut intents = intents::component();
//!
//! // What the cloud process sends, as bytes on the socket.
//! let bytes = Message::Result(IntentResult {
//!     intent: "intent_clock_settimer_extend".into(),
//!     parameters: r#"{"timer_duration":"300"}"#.into(),
//!     metadata: String::new(),
//! })
//! .pack()
//! .unwrap();
//!
//! let event = intents::receive(&bytes).unwrap();
//! let outcome = intents.handle_cloud(event);
//! assert!(matches!(outcome, CloudOutcome::Pending { tag: Tag::SetTimer, .. }));
//!
//! let pending = intents.pending().unwrap();
//! assert_eq!(pending.source(), IntentSource::Voice);
//! assert_eq!(
//!     pending.intent(),
//!     &UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 300 })
//! );
//! ```

use robot_runtime::intent::{CloudEvent, CloudOutcome, IntentComponent, IntentConfig};
use robot_runtime::wire::{UnpackError, Wire, WireView};

use crate::clad::cloud_mic::{Message, MessageView};

pub use crate::clad::anki::vector::{UserIntent, UserIntentTag as Tag};
pub use crate::clad::USER_INTENT_MAP;

// The generated cloud message, in the terms of the intent component.
robot_runtime::cloud_event_from!(Message);

/// Unpacks one datagram from the cloud process (strictly: truncated input, trailing bytes,
/// unknown tags and bad UTF-8 are errors) into a [`CloudEvent`].
pub fn receive(bytes: &[u8]) -> Result<CloudEvent, UnpackError> {
    Message::unpack(bytes).map(CloudEvent::from)
}

/// Handles one datagram from the cloud process right away, on the thread that owns the
/// component (the robot's tick), without copying its strings: the message is decoded as a
/// borrowed [`MessageView`] (same strict checks as [`receive`]) and a `result`'s intent and
/// parameters go to [`IntentComponent::handle_cloud_result`] as `&str`s into `bytes`. Other
/// messages are copied out and handled like [`receive`]d ones. A datagram that does not
/// decode goes to [`IntentComponent::handle_undecodable`] (error flag set, the
/// [`UnpackError`] in the event). A void intent allocates nothing on this path
/// (`tests/alloc.rs`).
///
/// Use [`receive`] and the component's channel instead when datagrams arrive on another
/// thread.
pub fn handle_datagram(
    component: &mut IntentComponent<UserIntent>,
    bytes: &[u8],
) -> CloudOutcome<Tag> {
    match MessageView::unpack_view(bytes) {
        Ok(MessageView::Result(r)) => component.handle_cloud_result(r.intent, r.parameters),
        Ok(other) => component.handle_cloud(CloudEvent::from(other.into_owned())),
        Err(error) => component.handle_undecodable(error),
    }
}

/// Parses a `CloudMic::Message` in CLAD-JSON, or a bare intent name, as the dev tools send
/// it (see [`CloudEvent::from_text`]).
pub fn receive_text(text: &str) -> Result<CloudEvent, robot_runtime::intent::CloudJsonError> {
    CloudEvent::from_text::<Message>(text)
}

/// The features a stock robot has enabled: all but messaging and "look over there"
/// (`features.json` of the original). A robot with a live feature set passes its own
/// closure to [`IntentComponent::set_feature_gate`].
pub fn stock_features(feature: &str) -> bool {
    !matches!(feature, "Messaging" | "GazeDirection")
}

/// An intent component over our map, with the stock feature gate and default settings.
pub fn component() -> IntentComponent<UserIntent> {
    component_with(IntentConfig::default())
}

/// [`component`] with other settings.
pub fn component_with(config: IntentConfig) -> IntentComponent<UserIntent> {
    let mut c = IntentComponent::with_config(&USER_INTENT_MAP, config);
    c.set_feature_gate(stock_features);
    c
}
