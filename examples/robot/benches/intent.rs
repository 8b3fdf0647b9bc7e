//! A cloud `result` message, binary as received from the cloud process, → a pending typed
//! user intent, with the generated `UserIntent`, `CloudMic::Message` and our
//! `USER_INTENT_MAP`.
//!
//! ```sh
//! cargo bench -p robot-example --bench intent
//! ```
//!
//! Workloads: `void` (`intent_imperative_come`, no parameters), `set_timer`
//! (`intent_clock_settimer_extend`, one numeric parameter renamed to `time_s`) and `weather`
//! (`intent_weather_extend`, seven string parameters). Parameters end with the newline Go's
//! JSON encoder writes, like the real cloud's.
//!
//! Per workload:
//! * `pipeline`: `intents::handle_datagram`, what the robot's tick does with a datagram: the
//!   message decoded as a borrowed `MessageView` (strict, strings not copied), then
//!   `IntentComponent::handle_cloud_result`: lookup, feature gate, parameter parsing,
//!   substitution, numeric conversion, building the typed payload, replacing the pending
//!   intent, recording the events (drained every iteration, as a tick does);
//! * `pipeline_owned`: the same through the owned decode and the channel's event type:
//!   `Message::unpack` → `CloudEvent` → `IntentComponent::handle_cloud` (what a datagram
//!   received on another thread costs);
//! * `naive`: the same unpack, then the straightforward port of the original: parse the
//!   parameters into a `serde_json::Value`, rename keys, convert numerics, insert `"type"`,
//!   `serde_json::from_value::<UserIntent>`, store it as the pending intent;
//! * `handle_only`: `IntentComponent::handle_cloud_result` on strings decoded once outside
//!   the loop (events drained every iteration): the post-unpack part of `pipeline`;
//! * `unpack_only`: `Message::unpack` alone, the part `pipeline_owned` and `naive` share;
//!   `unpack_view_only`: `MessageView::unpack_view` alone, the decode `pipeline` does.
//!
//! Group `intent/sources`: every other source through the one intake
//! (`IntentComponent::submit`), from what its transport decoded to the pending intent:
//! `app/set_timer`, `hri_json/{charger,say}` (JSON text, `data` inline as JSON bridges
//! write it), `hri_json/{charger,say}_canonical` (`data` a string holding the object, as
//! the message definition declares it and rosbridge writes it), `hri_envelope/charger` (a packed
//! `Hri::IntentEnvelope`), `ros2_fields/charger` (the fields a ROS 2 sample decodes to),
//! `dev/charger` (the inspector's member), `hri_mission/guide` (an HRI guide routed to the
//! mission controller and granted by the one arbiter, then stopped; `guide_canonical` with
//! `data` a string). `intent/<workload>/pipeline_claimed`: the cloud request, then its
//! pending intent activated as a behavior claims it (the cloud counterpart of a mission
//! granted). BENCHMARKS.md compares
//! them with the paths each source took before (issue 29).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use robot_example::clad::anki::vector::{UserIntentTimeInSeconds, UserIntentWeatherResponse};
use robot_example::clad::cloud_mic::{Message, MessageView};
use robot_example::intents::{self, Tag, UserIntent, USER_INTENT_MAP};
use robot_runtime::intent::{CloudEvent, IntakeOutcome, StaticIntentMap};
use robot_runtime::union::CladUnion;
use robot_runtime::wire::{Wire, WireView};
use serde_json::Value;

mod requests;
use requests::{
    charger_envelope, grant_and_stop, guide_controller, packed_result, CHARGER, CHARGER_CANONICAL,
    GUIDE, GUIDE_CANONICAL, SAY, SAY_CANONICAL, WEATHER_PARAMS,
};

/// The naive translation, as a direct port of the original would write it (same map
/// lookup; numerics: integers unless the text has a dot).
fn naive(map: &StaticIntentMap<Tag>, intent: &str, params: &str) -> Option<UserIntent> {
    let Some(entry) = map.cloud(intent) else {
        return Some(UserIntent::default_for(map.unmatched));
    };
    let mut obj = if params.trim().is_empty() {
        serde_json::Map::new()
    } else {
        match serde_json::from_str::<Value>(params).ok()? {
            Value::Object(m) => m,
            Value::Null => serde_json::Map::new(),
            _ => return None,
        }
    };
    for s in entry.sanitation {
        let Some(mut v) = obj.remove(s.from) else {
            continue;
        };
        if s.numeric {
            if let Some(text) = v.as_str() {
                v = if text.contains('.') {
                    Value::from(text.parse::<f64>().ok()?)
                } else {
                    Value::from(text.parse::<i64>().ok()?)
                };
            }
        }
        obj.insert(s.to.unwrap_or(s.from).to_owned(), v);
    }
    obj.insert(
        "type".to_owned(),
        Value::String(UserIntent::tag_name(entry.tag).to_owned()),
    );
    serde_json::from_value(Value::Object(obj)).ok()
}

fn bench(c: &mut Criterion) {
    let workloads: [(&str, &str, &str, UserIntent); 3] = [
        (
            "void",
            "intent_imperative_come",
            "",
            UserIntent::ImperativeCome(Default::default()),
        ),
        (
            "set_timer",
            "intent_clock_settimer_extend",
            "{\"timer_duration\":\"300\"}\n",
            UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 300 }),
        ),
        (
            "weather",
            "intent_weather_extend",
            WEATHER_PARAMS,
            UserIntent::WeatherResponse(UserIntentWeatherResponse {
                speakable_location_string: "San Francisco".into(),
                is_forecast: "false".into(),
                condition: "Cloudy".into(),
                temperature: "17".into(),
                temperature_unit: "C".into(),
                local_date_time: "2018-05-03T10:30:00-07:00".into(),
                day_or_night: "day".into(),
            }),
        ),
    ];
    let mut component = intents::component();
    for (name, intent, params, expected) in &workloads {
        let bytes = packed_result(intent, params);
        // Both paths must produce the expected intent before anything is timed.
        let outcome = component.handle_cloud(intents::receive(&bytes).unwrap());
        assert!(
            matches!(outcome, IntakeOutcome::Pending { tag, .. } if tag == expected.tag()),
            "{name}: {outcome:?}"
        );
        assert_eq!(component.pending().unwrap().intent(), expected);
        component.drain_events();
        let outcome = intents::handle_datagram(&mut component, &bytes);
        assert!(
            matches!(outcome, IntakeOutcome::Pending { tag, .. } if tag == expected.tag()),
            "{name}: {outcome:?}"
        );
        assert_eq!(component.pending().unwrap().intent(), expected);
        assert_eq!(
            naive(&USER_INTENT_MAP, intent, params).as_ref(),
            Some(expected)
        );
        component.drain_events();
        println!(
            "workload {name}: {} bytes on the wire, parameters {} bytes",
            bytes.len(),
            params.len()
        );

        let mut g = c.benchmark_group(format!("intent/{name}"));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(30);
        g.bench_function("pipeline", |b| {
            b.iter(|| {
                let outcome = intents::handle_datagram(&mut component, black_box(&bytes));
                black_box((&outcome, component.pending()));
                component.drain_events();
            })
        });
        // The request claimed, as a behavior claims it on its tick: the datagram, then the
        // pending intent activated (the guard dropped: deactivated) — what the HRI mission
        // path's "granted" (then stopped) is compared with.
        let tag = expected.tag();
        g.bench_function("pipeline_claimed", |b| {
            b.iter(|| {
                let outcome = intents::handle_datagram(&mut component, black_box(&bytes));
                let claimed = component.activate(tag, "bench").is_ok();
                black_box((&outcome, claimed));
                component.drain_events();
            })
        });
        g.bench_function("pipeline_owned", |b| {
            b.iter(|| {
                let event = intents::receive(black_box(&bytes)).unwrap();
                let outcome = component.handle_cloud(event);
                black_box((&outcome, component.pending()));
                component.drain_events();
            })
        });
        let mut pending: Option<UserIntent> = None;
        g.bench_function("naive", |b| {
            b.iter(|| {
                let Ok(Message::Result(r)) = Message::unpack(black_box(&bytes)) else {
                    unreachable!()
                };
                pending = naive(&USER_INTENT_MAP, &r.intent, &r.parameters);
                black_box(&pending);
            })
        });
        // The post-unpack part alone: the strings are decoded once, outside the loop.
        let Ok(Message::Result(decoded)) = Message::unpack(&bytes) else {
            unreachable!()
        };
        g.bench_function("handle_only", |b| {
            b.iter(|| {
                let outcome = component.handle_cloud_result(
                    black_box(&decoded.intent),
                    black_box(&decoded.parameters),
                );
                black_box((&outcome, component.pending()));
                component.drain_events();
            })
        });
        g.bench_function("unpack_view_only", |b| {
            b.iter(|| {
                let view = MessageView::unpack_view(black_box(&bytes)).unwrap();
                black_box(&view);
            })
        });
        g.bench_function("unpack_only", |b| {
            b.iter(|| {
                let event: CloudEvent = intents::receive(black_box(&bytes)).unwrap();
                black_box(&event);
            })
        });
        g.finish();
    }
}

/// Every other source through the one intake (`IntentComponent::submit`), from what its
/// transport decoded to the pending intent: an app intent; HRI JSON text, a packed
/// `Hri::IntentEnvelope` (`hri::HriEnvelopeBytes`) and decoded fields (what the ROS 2 path
/// hands over), each read, validated and admitted by the HRI intake, looked up in the HRI map
/// and routed; the inspector's member (`Request::Direct`). Each HRI request arrives 10 s after
/// the previous one, so none is a duplicate.
fn sources(c: &mut Criterion) {
    use robot_example::hri::{self, HriEnvelopeBytes};
    use robot_runtime::hri::Timestamp;
    use robot_runtime::intent::{IntentSource, Request};

    let mut component = intents::component();
    let pending = |o: &IntakeOutcome<Tag>| matches!(o, IntakeOutcome::Pending { .. });
    let mut g = c.benchmark_group("intent/sources");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    assert!(pending(&component.submit(Request::App {
        intent: "intent_clock_settimer",
        param: "300"
    })));
    g.bench_function("app/set_timer", |b| {
        b.iter(|| {
            let outcome = component.submit(Request::App {
                intent: black_box("intent_clock_settimer"),
                param: black_box("300"),
            });
            black_box((&outcome, component.pending()));
            component.drain_events();
        })
    });
    let mut now = 0;
    for (name, json) in [
        ("charger", CHARGER),
        ("say", SAY),
        ("charger_canonical", CHARGER_CANONICAL),
        ("say_canonical", SAY_CANONICAL),
    ] {
        now += 10_000;
        let first = component.submit(Request::hri_text(IntentSource::Hri, json, Timestamp(now)));
        assert!(pending(&first), "{name}: {first:?}");
        g.bench_function(format!("hri_json/{name}"), |b| {
            b.iter(|| {
                now += 10_000;
                let outcome = component.submit(Request::hri_text(
                    IntentSource::Hri,
                    black_box(json),
                    Timestamp(now),
                ));
                black_box((&outcome, component.pending()));
                component.drain_events();
            })
        });
    }
    let env = charger_envelope();
    let bytes = env.pack().unwrap();
    now += 10_000;
    assert!(pending(&component.submit(HriEnvelopeBytes {
        bytes: &bytes,
        arrived: Timestamp(now)
    })));
    g.bench_function("hri_envelope/charger", |b| {
        b.iter(|| {
            now += 10_000;
            let outcome = component.submit(HriEnvelopeBytes {
                bytes: black_box(&bytes),
                arrived: Timestamp(now),
            });
            black_box((&outcome, component.pending()));
            component.drain_events();
        })
    });
    g.bench_function("ros2_fields/charger", |b| {
        b.iter(|| {
            now += 10_000;
            let (fields, envelope) = hri::envelope(black_box(&env));
            let outcome = component.submit(Request::hri_fields(
                IntentSource::Ros2,
                fields,
                envelope,
                Timestamp(now),
            ));
            black_box((&outcome, component.pending()));
            component.drain_events();
        })
    });
    // An HRI guide routed to the mission controller and granted by the one arbiter: the
    // intake, then the controller's decision and start; the request is stopped (its
    // capability halts at once) so that every iteration is granted.
    {
        let (mut mc, arbiter) = guide_controller();
        let mut grant =
            |now: u64, text: &str| grant_and_stop(&mut component, &mut mc, text, Timestamp(now));
        for (name, text) in [("guide", GUIDE), ("guide_canonical", GUIDE_CANONICAL)] {
            now += 10_000;
            assert!(grant(now, text), "{name}");
            assert!(arbiter.lock().entries().is_empty());
            g.bench_function(format!("hri_mission/{name}"), |b| {
                b.iter(|| {
                    now += 10_000;
                    grant(now, text)
                })
            });
        }
    }
    g.bench_function("dev/charger", |b| {
        b.iter(|| {
            let outcome = component.submit(Request::direct(black_box(UserIntent::SystemCharger(
                Default::default(),
            ))));
            black_box((&outcome, component.pending()));
            component.drain_events();
        })
    });
    g.finish();
}

criterion_group!(benches, bench, sources);
criterion_main!(benches);
