//! A cloud intent result from the wire to a behavior: packs a `CloudMic::Message`, unpacks
//! it, prints it as CLAD-JSON, shows a decoding error, then hands results to the intent
//! component (our `user_intent_map.json`, compiled into the binary) and claims one the way
//! a behavior does.
//!
//! ```sh
//! cargo run -q -p robot-example --bin cloud_demo
//! ```

use robot_example::clad::cloud_mic::{IntentResult, Message, MessageView};
use robot_example::intents::{self, Tag};
use robot_runtime::intent::IntentComponent;
use robot_runtime::wire::{Wire, WireView};

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn result(intent: &str, parameters: &str) -> Message {
    Message::Result(IntentResult {
        intent: intent.into(),
        parameters: parameters.into(),
        metadata: String::new(),
    })
}

/// Events are buffered per tick (`update` starts a new one): print them before ticking.
fn print_events(component: &mut IntentComponent<intents::UserIntent>) {
    for event in component.drain_events() {
        println!("    event: {event:?}");
    }
}

fn main() {
    // --- The wire ------------------------------------------------------------------------
    let msg = result("intent_weather", r#"{"location":"Paris"}"#);
    let bytes = msg.pack().expect("fits its length prefixes");
    println!("packed {} bytes: {}", bytes.len(), hex(&bytes));

    let back = Message::unpack(&bytes).expect("valid bytes");
    assert_eq!(back, msg);
    println!(
        "unpacked {}: {}",
        back.name(),
        serde_json::to_string(&back).unwrap()
    );

    let err = Message::unpack(&bytes[..10]).unwrap_err();
    println!("first 10 bytes only: {err}");

    // The same bytes as a borrowed view: the strings point into `bytes`, nothing is copied.
    let view = MessageView::unpack_view(&bytes).expect("valid bytes");
    if let MessageView::Result(r) = view {
        println!(
            "viewed {}: intent {:?} at byte {} of the datagram",
            view.name(),
            r.intent,
            r.intent.as_ptr() as usize - bytes.as_ptr() as usize
        );
    }
    assert_eq!(view, msg.view());

    // --- Intents -------------------------------------------------------------------------
    let mut component = intents::component();
    println!("\nintent component over our map (stock features)");

    // "Set a timer for five minutes": the cloud's parameter is renamed and converted.
    let timer = result(
        "intent_clock_settimer_extend",
        "{\"timer_duration\":\"300\"}\n",
    )
    .pack()
    .unwrap();
    // On the tick thread: decoded as a borrowed view, strings handed over as `&str`.
    let outcome = intents::handle_datagram(&mut component, &timer);
    println!("  set a timer -> {outcome:?}");
    let pending = component.pending().expect("pending");
    println!(
        "    pending {:?} from {:?}: {}",
        pending.tag(),
        pending.source(),
        serde_json::to_string(pending.intent()).unwrap()
    );
    print_events(&mut component);

    // A behavior claims it; dropping the guard ends it.
    {
        let guard = component
            .activate(Tag::SetTimer, "TimerBehavior")
            .expect("set_timer is pending");
        println!(
            "  TimerBehavior activated {:?} (activation {:?})",
            guard.info().tag(),
            guard.info().id()
        );
    }
    print_events(&mut component);
    component.update();
    print_events(&mut component);

    // Bad input never stops the robot: it becomes a typed outcome and an event.
    let outcome = component.handle_cloud_result("intent_clock_settimer_extend", "{\"timer");
    println!("  malformed parameters -> {outcome:?}");
    let outcome = component.handle_cloud_result("intent_make_coffee", "");
    println!("  unknown intent -> {outcome:?}");
    print_events(&mut component);

    // Nobody claims the "huh?": it expires after the claim deadline (3 ticks).
    for tick in 1..=3 {
        component.update();
        println!("  tick {tick}: pending {:?}", component.pending_tag());
        print_events(&mut component);
    }
    println!("  unclaimed flag: {}", component.was_unclaimed());
}
