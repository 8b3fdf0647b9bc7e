//! Packs a cloud intent result, unpacks it, prints it as CLAD-JSON, and shows an error.
//!
//! ```sh
//! cargo run -q -p robot-example --bin cloud_demo
//! ```

use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_runtime::wire::Wire;

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let msg = Message::Result(IntentResult {
        intent: "intent_weather".into(),
        parameters: r#"{"location":"Paris"}"#.into(),
        metadata: String::new(),
    });

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
}
