//! Cloud `result` → typed user intent, for a void intent, a set_timer-like intent (one
//! numeric parameter) and a weather-like intent (seven string parameters).
//!
//! For each workload:
//! * `translate` — `IntentTranslator::translate_cloud` (lookup, parse, sanitize, build);
//! * `pending` — `IntentComponent::handle_cloud_result`: the above plus setting the intent
//!   pending (replacing the previous one) and its events;
//! * `naive` — the straightforward port: parse `parameters` into a `serde_json::Value`,
//!   rename keys, convert numerics, insert `"type"`, `serde_json::from_value::<UserIntent>`
//!   (same map lookup).
//!
//! `cargo bench -p robot-runtime --bench intent`

#[path = "../tests/intent_support.rs"]
mod support;

use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use robot_runtime::intent::{IntentComponent, IntentTranslator, StaticIntentMap};
use robot_runtime::union::CladUnion;
use serde_json::Value;
use support::*;

/// The naive pipeline, as a direct port of the original would write it.
fn naive(map: &StaticIntentMap<UserIntentTag>, intent: &str, params: &str) -> Option<UserIntent> {
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

/// Best-of-blocks time per call of `f`, interleaved with `g` so that both see the same
/// machine load; returns (f ns, g ns).
fn interleaved<A, B>(mut f: impl FnMut() -> A, mut g: impl FnMut() -> B) -> (f64, f64) {
    const BLOCK: u32 = 2_000;
    let (mut best_f, mut best_g) = (f64::MAX, f64::MAX);
    for _ in 0..200 {
        let t = Instant::now();
        for _ in 0..BLOCK {
            black_box(f());
        }
        best_f = best_f.min(t.elapsed().as_nanos() as f64 / f64::from(BLOCK));
        let t = Instant::now();
        for _ in 0..BLOCK {
            black_box(g());
        }
        best_g = best_g.min(t.elapsed().as_nanos() as f64 / f64::from(BLOCK));
    }
    (best_f, best_g)
}

fn bench(c: &mut Criterion) {
    if std::env::var("PROBE_LOOP").is_ok() {
        let t = IntentTranslator::<UserIntent>::new(&MAP);
        let mut n = 0usize;
        for _ in 0..20_000_000 {
            n += t
                .translate_cloud(
                    black_box("intent_clock_settimer"),
                    black_box("{\"timer_duration\":\"300\"}\n"),
                )
                .is_ok() as usize;
        }
        println!("{n}");
        return;
    }
    let workloads: [(&str, &str, &str, UserIntent); 3] = [
        (
            "void",
            "intent_imperative_come",
            "",
            UserIntent::ImperativeCome(Void {}),
        ),
        (
            "set_timer",
            "intent_clock_settimer",
            "{\"timer_duration\":\"300\"}\n",
            UserIntent::SetTimer(TimeInSeconds { time_s: 300 }),
        ),
        (
            "weather",
            "intent_weather_extend",
            WEATHER_PARAMS,
            weather(),
        ),
    ];
    let translator = IntentTranslator::<UserIntent>::new(&MAP);
    let mut component = IntentComponent::<UserIntent>::new(&MAP);
    for (name, intent, params, expected) in &workloads {
        // Check before timing that all three agree.
        assert_eq!(
            &translator.translate_cloud(intent, params).unwrap().intent,
            expected
        );
        assert_eq!(naive(&MAP, intent, params).as_ref(), Some(expected));
        component.handle_cloud_result(intent, params);
        assert_eq!(component.pending().unwrap().intent(), expected);
        println!(
            "workload {name}: intent {intent:?}, parameters {} bytes",
            params.len()
        );
        let (ours, base) = interleaved(
            || translator.translate_cloud(black_box(intent), black_box(params)),
            || naive(&MAP, black_box(intent), black_box(params)),
        );
        let (a, b) = interleaved(
            || translator.probe_lookup(black_box(intent)),
            || translator.probe_collect(black_box(intent), black_box(params)),
        );
        let (c2, d) = interleaved(
            || translator.probe_full_build(black_box(intent), black_box(params)),
            || translator.translate_cloud(black_box(intent), black_box(params)),
        );
        println!("  PROBE lookup {a:.0} collect {b:.0} full_build {c2:.0} translate {d:.0}");
        println!(
            "  interleaved best-of-200: translate {ours:.0} ns, naive {base:.0} ns, speedup {:.2}x",
            base / ours
        );

        let mut g = c.benchmark_group(format!("intent/{name}"));
        g.warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
            .sample_size(20);
        g.bench_function("translate", |b| {
            b.iter(|| translator.translate_cloud(black_box(intent), black_box(params)))
        });
        g.bench_function("pending", |b| {
            b.iter(|| {
                component.handle_cloud_result(black_box(intent), black_box(params));
                black_box(component.pending());
                component.drain_events();
            })
        });
        g.bench_function("naive", |b| {
            b.iter(|| naive(&MAP, black_box(intent), black_box(params)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
