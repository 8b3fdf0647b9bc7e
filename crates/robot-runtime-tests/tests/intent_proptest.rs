//! Arbitrary cloud messages, parameter strings and component calls: no panic, and the
//! component stays consistent (at most one pending, at most one active, guards agree).

use robot_runtime_tests as support;

use proptest::prelude::*;
use robot_runtime::intent::{
    ActiveIntentGuard, CloudEvent, CloudOutcome, IntentComponent, IntentConfig, IntentEvent,
    IntentSource, IntentTranslator, NumericMode, TranslateConfig,
};
use serde_json::{json, Value};
use support::*;

fn intent_name() -> impl Strategy<Value = String> {
    let mut known: Vec<String> = MAP.cloud.iter().map(|e| e.intent.to_owned()).collect();
    known.extend(MAP.simple_voice.iter().map(|e| e.cloud_intent.to_owned()));
    known.push("intent_system_unsupported".into());
    known.push(String::new());
    prop_oneof![
        4 => proptest::sample::select(known),
        1 => any::<String>(),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        proptest::sample::select(vec![
            "20",
            "abc",
            "-5",
            "10.5",
            "10.0",
            "1e3",
            "m",
            "s",
            "h",
            "",
            " 7",
            "20abc",
            "4294967296",
            "99999999999999999999",
            "NaN",
            "0x10",
        ])
        .prop_map(|s| json!(s)),
        any::<String>().prop_map(Value::String),
        any::<i64>().prop_map(|v| json!(v)),
        any::<f64>().prop_map(|v| json!(v)),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(vec![
            "timer_duration", "time_s", "name", "timer_duration.time", "timer_duration.units",
            "answer", "query_text", "type", "v", "ratio", "offset", "username", "param",
            "speakable_location_string", "condition",
        ])
        .prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

/// A JSON object text, possibly with duplicate keys.
fn object() -> impl Strategy<Value = String> {
    proptest::collection::vec((key(), value()), 0..6).prop_map(|kv| {
        let body: Vec<String> = kv
            .iter()
            .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), v))
            .collect();
        format!("{{{}}}", body.join(","))
    })
}

/// Parameter texts: real objects, mangled ones, garbage.
fn params() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => object(),
        2 => (object(), any::<usize>(), ".{0,3}").prop_map(|(s, cut, tail)| {
            let mut cut = cut % (s.len() + 1);
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}{}", &s[..cut], tail)
        }),
        1 => any::<String>(),
        1 => Just(String::new()),
        1 => value().prop_map(|v| v.to_string()),
    ]
}

fn cloud_event() -> impl Strategy<Value = CloudEvent> {
    prop_oneof![
        6 => (intent_name(), params()).prop_map(|(i, p)| CloudEvent::result(i, p)),
        1 => ".{0,8}".prop_map(|extra| CloudEvent::Error { error: "Server", extra }),
        1 => Just(CloudEvent::StreamTimeout),
        1 => Just(CloudEvent::StreamOpen { session: "s".into() }),
        1 => Just(CloudEvent::Other { message: "debugFile" }),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Update,
    Cloud(CloudEvent),
    Queue(CloudEvent),
    App(String, String),
    SetPending(u8),
    Activate(u8, bool),
    ReleaseGuard(usize),
    DropGuard(usize),
    DropPending(u8),
    DropAny,
    Hold,
    Unhold,
    Trigger(bool, bool),
    ClearTrigger,
    ForceDeactivate,
    ResetFlags,
}

fn op() -> impl Strategy<Value = Op> {
    let tag = 0u8..UserIntentTag::ALL.len() as u8;
    prop_oneof![
        4 => Just(Op::Update),
        4 => cloud_event().prop_map(Op::Cloud),
        2 => cloud_event().prop_map(Op::Queue),
        1 => (proptest::sample::select(vec!["intent_meet_victor", "intent_clock_settimer", "x"]), ".{0,6}")
            .prop_map(|(i, p)| Op::App(i.to_owned(), p)),
        2 => tag.clone().prop_map(Op::SetPending),
        3 => (tag.clone(), any::<bool>()).prop_map(|(t, r)| Op::Activate(t, r)),
        1 => any::<usize>().prop_map(Op::ReleaseGuard),
        1 => any::<usize>().prop_map(Op::DropGuard),
        1 => tag.prop_map(Op::DropPending),
        1 => Just(Op::DropAny),
        1 => Just(Op::Hold),
        1 => Just(Op::Unhold),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(a, b)| Op::Trigger(a, b)),
        1 => Just(Op::ClearTrigger),
        1 => Just(Op::ForceDeactivate),
        1 => Just(Op::ResetFlags),
    ]
}

fn tag(i: u8) -> UserIntentTag {
    UserIntentTag::ALL[usize::from(i)]
}

fn check(c: &IntentComponent<UserIntent>, guards: &[ActiveIntentGuard<UserIntent>]) {
    let current: Vec<_> = guards.iter().filter(|g| g.is_current()).collect();
    assert!(current.len() <= 1, "two current guards");
    match (c.active(), current.first()) {
        (Some(a), Some(g)) => assert_eq!(a.id(), g.id()),
        (None, None) => {}
        (a, g) => panic!(
            "active {:?} vs guard {:?}",
            a.map(|a| a.id()),
            g.map(|g| g.id())
        ),
    }
    if let Some(p) = c.pending() {
        assert_eq!(p.tag(), p.intent().tag());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn translator_never_panics(intent in intent_name(), params in params(), prefix in any::<bool>()) {
        let t = IntentTranslator::<UserIntent>::with_config(&MAP, TranslateConfig {
            numeric: if prefix { NumericMode::OriginalPrefix } else { NumericMode::Strict },
            ..TranslateConfig::default()
        });
        match t.translate_cloud(&intent, &params) {
            Ok(r) => {
                // Whatever came out round-trips through the union's own serde mapping.
                let json = serde_json::to_string(&r.intent).unwrap();
                let back: UserIntent = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(back.tag(), r.intent.tag());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        let _ = t.translate_app(&intent, &params);
    }

    #[test]
    fn component_stays_consistent(ops in proptest::collection::vec(op(), 1..40)) {
        let mut c = IntentComponent::<UserIntent>::with_config(&MAP, IntentConfig {
            cloud_queue_capacity: 4,
            ..IntentConfig::default()
        });
        let tx = c.cloud_sender();
        let mut guards: Vec<ActiveIntentGuard<UserIntent>> = Vec::new();
        let mut holds = Vec::new();
        for op in ops {
            let pending_before = c.pending_tag();
            match op {
                Op::Update => c.update(),
                Op::Cloud(ev) => {
                    let is_result = matches!(ev, CloudEvent::Result { .. });
                    let out = c.handle_cloud(ev);
                    if is_result {
                        match out {
                            CloudOutcome::Pending { tag, .. } => prop_assert_eq!(c.pending_tag(), Some(tag)),
                            CloudOutcome::Failed { .. } => {}
                            other => prop_assert!(false, "{:?}", other),
                        }
                    }
                }
                Op::Queue(ev) => { let _ = tx.try_send(ev); }
                Op::App(i, p) => { c.handle_app_intent(&i, &p); }
                Op::SetPending(t) => c.set_pending_tag(tag(t), IntentSource::Dev),
                Op::Activate(t, replace) => {
                    let r = if replace { c.activate_replacing(tag(t), "p") } else { c.activate(tag(t), "p") };
                    match r {
                        Ok(g) => {
                            prop_assert_eq!(pending_before, Some(tag(t)));
                            prop_assert!(!c.is_any_pending());
                            guards.push(g);
                        }
                        Err(_) => prop_assert_eq!(c.pending_tag(), pending_before),
                    }
                }
                Op::ReleaseGuard(i) => if !guards.is_empty() {
                    let g = guards.remove(i % guards.len());
                    let was_current = g.is_current();
                    prop_assert_eq!(g.release(&mut c).is_ok(), was_current);
                },
                Op::DropGuard(i) => if !guards.is_empty() {
                    drop(guards.remove(i % guards.len()));
                },
                Op::DropPending(t) => { let _ = c.drop_pending(tag(t)); }
                Op::DropAny => { c.drop_any_pending(); }
                Op::Hold => holds.push(c.hold_timeout()),
                Op::Unhold => { holds.pop(); }
                Op::Trigger(s, m) => { c.set_trigger_word_pending(s, m); }
                Op::ClearTrigger => { c.clear_trigger_word(); }
                Op::ForceDeactivate => { c.force_deactivate(); }
                Op::ResetFlags => { c.reset_error(); c.reset_unclaimed(); }
            }
            check(&c, &guards);
            // Every change of the pending slot is an event: when the last event is a
            // `Pending`, that intent is still the pending one.
            if let Some(IntentEvent::Pending { tag, .. }) = c.events().last() {
                prop_assert_eq!(c.pending_tag(), Some(*tag));
            }
            if c.pending_tag() != pending_before && !c.events().is_empty() {
                let reported = c.events().iter().any(|e| {
                    matches!(
                        e,
                        IntentEvent::Pending { .. }
                            | IntentEvent::Dropped { .. }
                            | IntentEvent::Activated { .. }
                    )
                });
                prop_assert!(reported, "pending changed without an event");
            }
        }
    }
}
