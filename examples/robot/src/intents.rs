//! The robot's user-intent wiring: the generated `UserIntent` union and `USER_INTENT_MAP`
//! (compiled from `schemas/user_intent_map.json` by `build.rs`), the adapter from the
//! generated `CloudMic::Message` to the runtime's [`CloudEvent`], and the robot's feature
//! gate.
//!
//! ```
//! use robot_example::intents::{self, Tag, UserIntent};
//! use robot_example::clad::anki::vector::UserIntentTimeInSeconds;
//! use robot_example::clad::cloud_mic::{IntentResult, Message};
//! use robot_runtime::intent::{IntakeOutcome, IntentSource};
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
//! assert!(matches!(outcome, IntakeOutcome::Pending { tag: Tag::SetTimer, .. }));
//!
//! let pending = intents.pending().unwrap();
//! assert_eq!(pending.source(), IntentSource::Voice);
//! assert_eq!(
//!     pending.intent(),
//!     &UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 300 })
//! );
//! ```

use robot_runtime::intent::{
    CloudEvent, CloudRequest, IntakeOutcome, IntentComponent, IntentConfig, IntentRequest, Request,
};
use robot_runtime::wire::{UnpackError, Wire, WireView};

use crate::clad::cloud_mic::{Message, MessageView};

pub use crate::clad::anki::vector::{UserIntent, UserIntentTag as Tag};
pub use crate::clad::USER_INTENT_MAP;

// The generated cloud message and its borrowed view, in the terms of the intent component.
robot_runtime::cloud_event_from!(Message, MessageView);

/// Unpacks one datagram from the cloud process (strictly: truncated input, trailing bytes,
/// unknown tags and bad UTF-8 are errors) into a [`CloudEvent`].
pub fn receive(bytes: &[u8]) -> Result<CloudEvent, UnpackError> {
    Message::unpack(bytes).map(CloudEvent::from)
}

/// A datagram from the cloud process, as bytes, for the one intake
/// ([`IntentComponent::submit`]): decoded once, on the thread that owns the component (the
/// robot's tick), as a borrowed [`MessageView`] (same strict checks as [`receive`]); a
/// `result`'s intent and parameters, an `error`'s text, reach the intake as `&str`s into the
/// bytes (nothing is copied); a datagram that does not decode is an
/// [`CloudRequest::Undecodable`] request (error flag set, the [`UnpackError`] in the event).
/// A void intent allocates nothing on this path (`tests/alloc.rs`).
#[derive(Clone, Copy, Debug)]
pub struct CloudDatagram<'a>(pub &'a [u8]);

impl IntentRequest<UserIntent> for CloudDatagram<'_> {
    #[inline]
    fn with_request<R>(self, f: impl FnOnce(Request<'_, UserIntent>) -> R) -> R {
        let request = match MessageView::unpack_view(self.0) {
            Ok(view) => CloudRequest::from(view),
            Err(error) => CloudRequest::Undecodable {
                error,
                bytes: self.0,
            },
        };
        // One call: `f` (the intake) is inlined here, and the request's kind, known here,
        // picks its steps directly.
        f(Request::Cloud(request))
    }
}

/// Shorthand: submits one datagram from the cloud process to `component` now
/// ([`CloudDatagram`]).
///
/// Use [`receive`] and the component's channel instead when datagrams arrive on another
/// thread.
pub fn handle_datagram(
    component: &mut IntentComponent<UserIntent>,
    bytes: &[u8],
) -> IntakeOutcome<Tag> {
    component.submit(CloudDatagram(bytes))
}

/// Parses a `CloudMic::Message` in CLAD-JSON, or a bare intent name, as the dev tools send
/// it (see [`CloudEvent::from_text`]).
pub fn receive_text(text: &str) -> Result<CloudEvent, robot_runtime::intent::CloudJsonError> {
    CloudEvent::from_text::<Message>(text)
}

/// How the robot ranks requests for its full input queues: by its maps (a cloud or app intent
/// whose member a stop request maps to is a stop; see [`robot_runtime::intent::shed`]).
pub const RANKER: robot_runtime::intent::Ranker<Tag> =
    robot_runtime::intent::Ranker::new(&USER_INTENT_MAP, Some(&crate::hri::HRI_INTENT_MAP));

/// The features a stock robot has off: messaging and "look over there" (`features.json` of
/// the original), and the PR demo (the original's `TimerUtilityCoordinator` runs only with
/// it off, and its `PRDemoStateMachine` takes HighLevelAI's place with it on). The robot
/// starts with them off in its state ([`Robot`](crate::robot::Robot)), for the behavior
/// tree's `FeatureGate` conditions too.
pub const STOCK_FEATURES_OFF: &[&str] = &["Messaging", "GazeDirection", "PRDemo"];

/// The features a stock robot has enabled: all but [`STOCK_FEATURES_OFF`]. A robot with a
/// live feature set passes its own closure to [`IntentComponent::set_feature_gate`].
pub fn stock_features(feature: &str) -> bool {
    !STOCK_FEATURES_OFF.contains(&feature)
}

/// An intent component over our maps (`USER_INTENT_MAP`, and `HRI_INTENT_MAP` for ROS4HRI
/// intents), with the stock feature gate and default settings.
pub fn component() -> IntentComponent<UserIntent> {
    component_with(IntentConfig::default())
}

/// [`component`] with other settings.
pub fn component_with(config: IntentConfig) -> IntentComponent<UserIntent> {
    let mut c = IntentComponent::with_config(&USER_INTENT_MAP, config);
    c.set_hri_map(&crate::hri::HRI_INTENT_MAP);
    c.set_feature_gate(stock_features);
    c
}
