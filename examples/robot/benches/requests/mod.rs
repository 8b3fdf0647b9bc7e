//! The requests the intake benchmarks send, shared by `intent` (criterion, one workload at a
//! time) and `intent_paired` (every workload interleaved, for ratios on a machine whose
//! speed drifts).

use std::hint::black_box;

use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::hri::IntentEnvelope;
use robot_example::intents::UserIntent;
use robot_runtime::arbiter::{Body, SharedArbiter};
use robot_runtime::hri::{IntentKind, Priority, Timestamp};
use robot_runtime::intent::{IntentComponent, IntentSource, Request};
use robot_runtime::mission::{
    Capability, HaltProgress, Handling, MissionConfig, MissionController, Progress, ResourceSet,
};
use robot_runtime::wire::Wire;

/// The cloud's `intent_weather_extend` parameters (seven strings), ending with the newline
/// Go's JSON encoder writes, like the real cloud's.
pub const WEATHER_PARAMS: &str = "{\"condition\":\"Cloudy\",\"day_or_night\":\"day\",\
\"is_forecast\":\"false\",\"local_datetime\":\"2018-05-03T10:30:00-07:00\",\
\"speakable_location_string\":\"San Francisco\",\"temperature\":\"17\",\
\"temperature_unit\":\"C\"}\n";

/// An HRI move-to the docking station, `data` inline as JSON bridges write it.
pub const CHARGER: &str = r#"{"intent": "__intent_move_to__", "data": {"goal": "poi_docking"}, "source": "__remote_supervisor__", "priority": 200}"#;
/// An HRI say with two roles, `data` inline.
pub const SAY: &str = r#"{"intent": "__intent_say__", "data": {"object": "hello there", "recipient": "person_1"}, "source": "__remote_supervisor__", "priority": 200}"#;
/// [`CHARGER`] as the message definition declares it (`data` a string holding the JSON
/// object), as rosbridge writes an `hri_actions_msgs/Intent`.
pub const CHARGER_CANONICAL: &str = r#"{"intent": "__intent_move_to__", "data": "{\"goal\": \"poi_docking\"}", "source": "__remote_supervisor__", "priority": 200}"#;
/// [`SAY`] with `data` a string.
pub const SAY_CANONICAL: &str = r#"{"intent": "__intent_say__", "data": "{\"object\": \"hello there\", \"recipient\": \"person_1\"}", "source": "__remote_supervisor__", "priority": 200}"#;
/// An HRI guide, which the robot routes to its mission controller; `data` inline.
pub const GUIDE: &str = r#"{"intent": "__intent_guide__", "data": {"goal": "kitchen", "recipient": "person_1"}, "source": "person_1", "priority": 128}"#;
/// [`GUIDE`] with `data` a string.
pub const GUIDE_CANONICAL: &str = r#"{"intent": "__intent_guide__", "data": "{\"goal\": \"kitchen\", \"recipient\": \"person_1\"}", "source": "person_1", "priority": 128}"#;

/// A cloud `result` message, packed as the cloud process sends it.
pub fn packed_result(intent: &str, parameters: &str) -> Vec<u8> {
    Message::Result(IntentResult {
        intent: intent.into(),
        parameters: parameters.into(),
        metadata: String::new(),
    })
    .pack()
    .expect("fits the wire limits")
}

/// [`CHARGER`] as a packed `Hri::IntentEnvelope` carries it (confidence unstated).
pub fn charger_envelope() -> IntentEnvelope {
    let mut env = IntentEnvelope::default();
    env.intent.intent = "__intent_move_to__".into();
    env.intent.data = r#"{"goal": "poi_docking"}"#.into();
    env.intent.source = "__remote_supervisor__".into();
    env.intent.priority = 200;
    env.confidence_unstated = true;
    env
}

/// A guide capability that starts at once and halts at once (base and speech).
struct Guide;

impl Capability<Body> for Guide {
    fn name(&self) -> &str {
        "guide"
    }
    fn resources(&self) -> ResourceSet<Body> {
        ResourceSet::of(&[Body::Base, Body::Speech])
    }
    fn start(&mut self, _: &robot_runtime::mission::Request) -> Result<(), String> {
        Ok(())
    }
    fn tick(&mut self) -> Progress {
        Progress::Running
    }
    fn halt(&mut self) -> HaltProgress {
        HaltProgress::Halted
    }
}

/// A mission controller with the guide capability, routed `__intent_guide__`, on its own
/// arbiter (returned to check that nothing stays held).
pub fn guide_controller() -> (MissionController<Body>, SharedArbiter<Body>) {
    let arbiter = SharedArbiter::<Body>::new();
    let mut mc = MissionController::with_arbiter(MissionConfig::default(), arbiter.clone());
    let guide = mc.register(Guide);
    mc.route(IntentKind::Guide, guide);
    (mc, arbiter)
}

/// One mission iteration: the HRI guide `text` through the intake to `mc`, granted and
/// started ([`grant`]), then stopped (its capability halts at once) and every event
/// drained ([`stop_and_clear`]); true when it was granted.
#[inline(always)]
pub fn grant_and_stop(
    c: &mut IntentComponent<UserIntent>,
    mc: &mut MissionController<Body>,
    text: &str,
    now: Timestamp,
) -> bool {
    let granted = grant(c, mc, text, now);
    stop_and_clear(c, mc);
    granted
}

/// The span of issue 29's goal for a mission: the HRI guide `text` submitted to the one
/// intake, handed to `mc`, granted and started; true when it was granted.
#[inline(always)]
pub fn grant(
    c: &mut IntentComponent<UserIntent>,
    mc: &mut MissionController<Body>,
    text: &str,
    now: Timestamp,
) -> bool {
    let outcome = c.submit(Request::hri_text(IntentSource::Hri, black_box(text), now));
    let mut granted = false;
    for record in c.take_mission_requests() {
        granted |= matches!(mc.handle_intent(record), Handling::Request(_));
    }
    black_box(&outcome);
    granted
}

/// What a mission iteration does after [`grant`], so that the next one starts where this
/// one did: the guide stopped (its capability halts at once), the events cleared as the
/// robot clears them (it hears them through its subscription).
#[inline(always)]
pub fn stop_and_clear(c: &mut IntentComponent<UserIntent>, mc: &mut MissionController<Body>) {
    mc.stop(Some("guide"), Priority::MAX);
    mc.discard_events();
    c.drain_events();
}
