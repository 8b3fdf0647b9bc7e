//! No needless allocation on the hot paths, proven with a counting global allocator.
//!
//! * `pack_into` never allocates, for every shape.
//! * `unpack_into` allocates nothing when the value's capacities suffice.
//! * `unpack` allocates only the values themselves: nothing for messages of numbers and
//!   unions of them, one `String` per non-empty string, one `Vec` per non-empty variable
//!   array. Errors carry no allocation until they happen, and the success path builds no
//!   field path.
//! * `pack` allocates its output exactly once.
//! * Borrowed views (`unpack_view`) allocate nothing for strings, and a void cloud intent
//!   handled from the datagram through the view allocates nothing at all.

use robot_example::clad::bench::{EventView, RobotStateView};
use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::samples;
use robot_runtime::wire::{Wire, WireView};
use std::hint::black_box;

// The counting allocator of robot-runtime's tests: one file, read by both crates.
#[path = "../../../crates/robot-runtime-tests/src/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::Counting;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` (its result is dropped outside the count).
fn allocations<R>(f: impl FnOnce() -> R) -> usize {
    let (n, result) = counting_alloc::allocations(|| black_box(f()));
    drop(result);
    n
}

fn check<T: Wire>(name: &str, value: &T, unpack_allocations: usize) {
    let bytes = value.pack().unwrap();
    let mut buf = [0u8; 2048];
    assert_eq!(
        allocations(|| value.pack_into(black_box(&mut buf)).unwrap()),
        0,
        "{name}: pack_into"
    );
    assert_eq!(allocations(|| value.pack().unwrap()), 1, "{name}: pack");
    let mut out = Vec::with_capacity(1024);
    assert_eq!(
        allocations(|| value.pack_append(&mut out).unwrap()),
        0,
        "{name}: pack_append with capacity"
    );
    assert_eq!(
        allocations(|| T::unpack(black_box(&bytes)).unwrap()),
        unpack_allocations,
        "{name}: unpack"
    );
}

// One test function: the counter is global, so nothing else may run at the same time.
#[test]
fn hot_paths_allocate_only_the_values() {
    // Warm up anything lazily initialised (stdout, thread-locals).
    let _ = samples::robot_state().pack();

    check("Numbers (32 bytes)", &samples::numbers(), 0);
    check("Event::Ping (5 bytes)", &samples::ping(), 0);
    // Exactly one allocation per string: seven `String`s.
    check("Event::DeviceInfo (70 bytes)", &samples::device_info(), 7);
    // The only allocation is the `Vec` of sightings; nested structures and fixed arrays are
    // inline.
    check("RobotState (218 bytes)", &samples::robot_state(), 1);
    // An empty string is `String::new()`: no allocation (metadata is empty here).
    let result = Message::Result(IntentResult {
        intent: "intent_weather".into(),
        parameters: "{}".into(),
        metadata: String::new(),
    });
    check("CloudMic::Message::Result", &result, 2);

    // Cloud result → pending typed intent, for a void intent: unpacking the message
    // allocates its one non-empty string (the intent name); the component (lookup,
    // translation, replacing the pending intent, events) allocates nothing.
    let mut intents = robot_example::intents::component();
    let void = Message::Result(IntentResult {
        intent: "intent_imperative_come".into(),
        parameters: String::new(),
        metadata: String::new(),
    })
    .pack()
    .unwrap();
    intents.handle_cloud(robot_example::intents::receive(&void).unwrap()); // warm-up
    intents.drain_events();
    let mut event = None;
    assert_eq!(
        allocations(|| event = Some(robot_example::intents::receive(black_box(&void)).unwrap())),
        1,
        "void intent: unpack"
    );
    let event = event.unwrap();
    assert_eq!(
        allocations(|| {
            intents.handle_cloud(event);
            intents.drain_events();
        }),
        0,
        "void intent: component"
    );
    assert_eq!(
        intents.pending().unwrap().tag(),
        robot_example::intents::Tag::ImperativeCome
    );
    // The same datagram decoded as a borrowed view on the tick thread: nothing at all.
    assert_eq!(
        allocations(|| {
            robot_example::intents::handle_datagram(&mut intents, black_box(&void));
            intents.drain_events();
        }),
        0,
        "void intent: datagram through the borrowed view"
    );
    assert_eq!(
        intents.pending().unwrap().tag(),
        robot_example::intents::Tag::ImperativeCome
    );

    // Borrowed views decode strings without allocating.
    let bytes = samples::device_info().pack().unwrap();
    assert_eq!(
        allocations(|| EventView::unpack_view(black_box(&bytes)).unwrap()),
        0,
        "EventView::DeviceInfo (70 bytes): unpack_view"
    );
    // The six sightings stay packed in the input (`ArrayView`).
    let bytes = samples::robot_state().pack().unwrap();
    let mut view = None;
    assert_eq!(
        allocations(|| view = Some(RobotStateView::unpack_view(black_box(&bytes)).unwrap())),
        0,
        "RobotStateView (218 bytes): unpack_view"
    );
    assert_eq!(view.unwrap().sightings.len(), 6);
    assert_eq!(view.unwrap(), samples::robot_state().view());

    // `unpack_into` reuses the value's capacity: nothing at all once the capacities suffice,
    // for strings (seven `String`s), variable arrays of structures and of numbers, and
    // fixed arrays; a union holding another member allocates only the new member's data.
    let mut event = samples::device_info();
    let bytes = samples::device_info().pack().unwrap();
    assert_eq!(
        allocations(|| event.unpack_into(black_box(&bytes)).unwrap()),
        0,
        "Event::DeviceInfo (70 bytes): unpack_into"
    );
    assert_eq!(event, samples::device_info());
    let mut state = samples::robot_state();
    state.sightings.truncate(2); // capacity for six stays
    let bytes = samples::robot_state().pack().unwrap();
    assert_eq!(
        allocations(|| state.unpack_into(black_box(&bytes)).unwrap()),
        0,
        "RobotState (218 bytes): unpack_into"
    );
    assert_eq!(state, samples::robot_state());
    let mut audio = samples::cloud_audio();
    let bytes = samples::cloud_audio().pack().unwrap();
    assert_eq!(
        allocations(|| audio.unpack_into(black_box(&bytes)).unwrap()),
        0,
        "CloudAudio (1,293 bytes): unpack_into"
    );
    assert_eq!(audio, samples::cloud_audio());
    let mut face = samples::observed_face();
    let bytes = samples::observed_face().pack().unwrap();
    assert_eq!(
        allocations(|| face.unpack_into(black_box(&bytes)).unwrap()),
        0,
        "Observation (135 bytes): unpack_into"
    );
    let mut mic = samples::mic_data();
    let bytes = samples::mic_data().pack().unwrap();
    assert_eq!(
        allocations(|| mic.unpack_into(black_box(&bytes)).unwrap()),
        0,
        "MicData (1,292 bytes): unpack_into"
    );
    // From another union member: the seven strings are allocated once, then reused.
    let mut event = samples::ping();
    let bytes = samples::device_info().pack().unwrap();
    assert_eq!(
        allocations(|| event.unpack_into(black_box(&bytes)).unwrap()),
        7,
        "Event::Ping -> DeviceInfo: unpack_into"
    );
    assert_eq!(
        allocations(|| event.unpack_into(black_box(&bytes)).unwrap()),
        0,
        "Event::DeviceInfo again: unpack_into"
    );

    // Errors allocate only when they happen (the boxed details and the field path).
    let bytes = samples::numbers().pack().unwrap();
    let n = allocations(|| robot_example::clad::bench::Numbers::unpack(&bytes[..31]).is_err());
    assert!(n >= 1, "an error allocates its details");
}
