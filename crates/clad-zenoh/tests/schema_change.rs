//! A peer built from a changed copy of the schema, even changed only inside a nested type,
//! is refused across a Zenoh link and nothing of its message is decoded: the schema hash in
//! the attachment covers the type and everything inside it.
//!
//! The changed peer is the schema-driven codec (what `cladz pub` runs) compiling an edited
//! copy of the project's `cloud.clad` in memory; the receiver is the generated
//! `CloudMic::Message`, as the robot has it. The other direction (generated sender,
//! schema-driven receiver) is `cladz echo`'s, in `cladz.rs`.

mod common;

use std::sync::mpsc;

use clad_codegen::ir::Schema;
use clad_codegen::{compile, dynamic, MemoryLoader};
use clad_runtime::wire::Wire;
use clad_zenoh::intake::{self, Intake, OverflowPolicy};
use clad_zenoh::zenoh::{Session, Wait};
use clad_zenoh::{Hash, Publisher, ReceiveError, TypeTag};
use common::clad::cloud_mic::{IntentResult, Message};
use common::{pair, WAIT};
use serde_json::{json, Value};

const SCHEMAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{SCHEMAS}/{name}")).expect("the project's schemas")
}

/// `cloud.clad` after `edit`, compiled as `cladz` would compile it.
fn cloud_schema(edit: impl Fn(&str) -> String) -> Schema {
    let original = read("cloud.clad");
    let edited = edit(&original);
    let mut loader = MemoryLoader::new()
        .file("cloud.clad", edited)
        .file("common.clad", read("common.clad"));
    let out = compile(&mut loader, "cloud.clad");
    let rendered = out.render();
    out.schema.unwrap_or_else(|| panic!("{rendered}"))
}

fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} in cloud.clad");
    text.replace(from, to)
}

fn schema_hash(schema: &Schema, fqn: &str) -> [u8; 16] {
    let hex = schema
        .decl(schema.lookup(fqn).expect("declared"))
        .schema_hash
        .as_deref()
        .expect("every type has a schema hash");
    Hash::from_hex(hex).expect("32 hex digits").0
}

/// Publishes `value` (CLAD-JSON of `CloudMic::Message` under `schema`) as `cladz pub` does:
/// packed by the schema-driven codec, tagged with that schema's hash.
fn publish_as(session: &Session, schema: &Schema, value: &Value) {
    let bytes = dynamic::encode_strict(schema, "CloudMic::Message", value).expect("encodes");
    let tag = TypeTag {
        name: "CloudMic::Message",
        hash: Some(schema_hash(schema, "CloudMic::Message")),
    };
    session
        .put("CloudMic/Message", bytes)
        .attachment(tag.encode().unwrap())
        .wait()
        .unwrap();
}

/// Waits until `session` sees a subscriber on the cloud key.
fn wait_for_subscriber(session: &Session) {
    let p = Publisher::<Message>::declare(session, None).unwrap();
    assert!(p.wait_for_subscribers(WAIT).unwrap(), "no subscriber");
}

/// The changes, each with a message of the changed schema that uses what changed.
fn changes() -> Vec<(&'static str, Schema, Value)> {
    let timer = json!({"type": "result", "intent": "intent_clock_settimer_extend",
                       "parameters": "{\"timer_duration\":\"60\"}",
                       "metadata": "{\"timer_duration\":\"999\"}"});
    vec![
        (
            "IntentResult's parameters and metadata swapped (the issue)",
            cloud_schema(|t| {
                replace_once(
                    t,
                    "  string[uint_16] parameters,\n  string[uint_16] metadata,",
                    "  string[uint_16] metadata,\n  string[uint_16] parameters,",
                )
            }),
            timer.clone(),
        ),
        (
            "nested members reordered (same wire types)",
            cloud_schema(|t| {
                replace_once(
                    t,
                    "  uint_8 numPackets,\n  uint_8 expectedPackets,",
                    "  uint_8 expectedPackets,\n  uint_8 numPackets,",
                )
            }),
            json!({"type": "connectionResult", "code": "Tls", "status": "ok",
                   "numPackets": 1, "expectedPackets": 2}),
        ),
        (
            "nested member added",
            cloud_schema(|t| {
                replace_once(
                    t,
                    "  string[uint_16] metadata,\n}",
                    "  string[uint_16] metadata,\n  uint_8 confidence,\n}",
                )
            }),
            json!({"type": "result", "intent": "i", "parameters": "{}", "metadata": "",
                   "confidence": 3}),
        ),
        (
            "nested member retyped",
            cloud_schema(|t| replace_once(t, "  uint_8 numPackets,", "  uint_16 numPackets,")),
            json!({"type": "connectionResult", "code": "Tls", "status": "ok",
                   "numPackets": 1, "expectedPackets": 2}),
        ),
        (
            "enum value changed",
            cloud_schema(|t| replace_once(t, "  KnowledgeGraph,\n", "  KnowledgeGraph = 7,\n")),
            json!({"type": "hotword", "mode": "KnowledgeGraph", "locale": "en-US",
                   "timezone": "UTC", "noLogging": false}),
        ),
    ]
}

#[test]
fn the_project_schema_gives_cladz_and_the_generated_code_the_same_hashes() {
    let schema = cloud_schema(str::to_owned);
    assert_eq!(
        Some(schema_hash(&schema, "CloudMic::Message")),
        Message::SCHEMA_HASH
    );
    assert_eq!(
        Message::SCHEMA_HASH_STR,
        hex(&schema_hash(&schema, "CloudMic::Message"))
    );
    assert_eq!(
        Some(schema_hash(&schema, "CloudMic::IntentResult")),
        <IntentResult as Wire>::SCHEMA_HASH
    );
    // And the original's per-declaration hash is still the original's.
    let d = schema.decl(schema.lookup("CloudMic::Message").unwrap());
    assert_eq!(d.hash.as_deref(), Some(Message::VERSION_HASH_STR));
    assert_ne!(Some(Message::VERSION_HASH), Message::SCHEMA_HASH);
}

fn hex(h: &[u8; 16]) -> String {
    Hash(*h).to_string()
}

#[test]
fn a_nested_change_is_refused_by_a_typed_subscriber_and_never_decoded() {
    let (robot, sender) = pair();
    let (tx, rx) = mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Message, _>(&robot, None, move |r| {
        tx.send(r).unwrap();
    })
    .unwrap();
    wait_for_subscriber(&sender);
    let original = cloud_schema(str::to_owned);
    for (what, schema, value) in changes() {
        // The original compiler's hash of the message itself does not change ...
        let d = schema.decl(schema.lookup("CloudMic::Message").unwrap());
        assert_eq!(
            d.hash.as_deref(),
            Some(Message::VERSION_HASH_STR),
            "{what}: the version hash of the message moved"
        );
        // ... the schema hash does, and the receiver refuses the sample, naming the type.
        let sent_hash = schema_hash(&schema, "CloudMic::Message");
        assert_ne!(Some(sent_hash), Message::SCHEMA_HASH, "{what}");
        publish_as(&sender, &schema, &value);
        match rx.recv_timeout(WAIT).expect("an event for the sample") {
            Err(e @ ReceiveError::HashMismatch { .. }) => {
                let ReceiveError::HashMismatch {
                    type_name,
                    expected,
                    found,
                    ..
                } = &e
                else {
                    unreachable!()
                };
                assert_eq!(*type_name, "CloudMic::Message", "{what}");
                assert_eq!(expected.map(|h| h.0), Message::SCHEMA_HASH, "{what}");
                assert_eq!(found.map(|h| h.0), Some(sent_hash), "{what}");
                let text = e.to_string();
                assert!(text.contains("`CloudMic::Message`"), "{what}: {text}");
                assert!(text.contains(&hex(&sent_hash)), "{what}: {text}");
            }
            other => panic!("{what}: expected a refusal, got {other:?}"),
        }
        // The same value from an unchanged peer still arrives, decoded.
        publish_as(&sender, &original, &adapt_to_original(&value));
        let got = rx.recv_timeout(WAIT).expect("the good sample");
        assert!(got.is_ok(), "{what}: the unchanged peer's sample: {got:?}");
    }
}

/// `value` as the unchanged schema reads it (drops the member only the changed one has).
fn adapt_to_original(value: &Value) -> Value {
    let mut v = value.clone();
    v.as_object_mut().unwrap().remove("confidence");
    v
}

#[test]
fn the_robots_intake_refuses_the_swapped_intent_result_the_issue_reported() {
    // The robot's path: `subscribe_packed` queues tag-checked samples for the tick.
    let (robot, sender) = pair();
    let (_sub, queue) =
        intake::subscribe_packed::<Message>(&robot, None, 8, OverflowPolicy::DropNewest).unwrap();
    wait_for_subscriber(&sender);
    let (what, swapped, timer) = changes().remove(0);
    publish_as(&sender, &swapped, &timer);
    match queue.recv_timeout(WAIT) {
        Some(Intake::Refused(ReceiveError::HashMismatch { type_name, .. })) => {
            assert_eq!(type_name, "CloudMic::Message");
        }
        Some(Intake::Message(m)) => panic!(
            "{what}: accepted, decodes as {:?} (the 999 s timer of the issue)",
            m.decode()
        ),
        other => panic!("{what}: {other:?}"),
    }
    // What the robot would have read had it decoded the bytes: the wrong field.
    let bytes = dynamic::encode_strict(&swapped, "CloudMic::Message", &timer).unwrap();
    let misread = Message::unpack(&bytes).expect("same wire layout");
    let Message::Result(r) = misread else {
        panic!("{misread:?}")
    };
    assert_eq!(r.parameters, r#"{"timer_duration":"999"}"#);
}
