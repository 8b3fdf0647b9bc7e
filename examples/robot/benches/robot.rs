//! Latency from a cloud message's arrival to the claiming behavior being active, on the
//! robot of `cargo run -p robot-example` (intent component + the behavior runner over
//! `behaviors/robot.json` + the mission controller + the timeline it records).
//!
//! * `datagram_to_claim/*`: the robot is idle (Observing); one tick: `update`, the datagram
//!   (decoded as a borrowed view, translated, pending), the behaviors (the claim). In ticks
//!   this is 0: the claim happens on the tick the message arrives (the timeline and
//!   `--latency` show it per input).
//! * `voice_flow`: the whole voice request as the default scenario plays it: the trigger
//!   word (TriggerWordDetected activates and listens, the claim deadline paused), an empty
//!   tick, the cloud result (listening ends), and the next tick (the handler claims: 1 tick
//!   after arrival) — the CPU of those four ticks.
//!
//! `cargo bench -p robot-example --bench robot -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::intents::Tag;
use robot_example::robot::{Robot, RunConfig};
use robot_example::scenario::{ScenarioEvent, TimedEvent, When};
use robot_runtime::wire::Wire;

fn cloud(intent: &str, parameters: &str) -> TimedEvent {
    let bytes = Message::Result(IntentResult {
        intent: intent.into(),
        parameters: parameters.into(),
        metadata: String::new(),
    })
    .pack()
    .unwrap();
    TimedEvent {
        line: 1,
        when: When::Tick(1),
        say: None,
        event: ScenarioEvent::Cloud {
            bytes,
            captured: true,
        },
    }
}

/// The robot after a few ticks: the stack is GlobalInterruptions > HighLevelAI(Observing).
fn idle_robot() -> Robot {
    let mut robot = Robot::new(RunConfig::default());
    for t in 0..3 {
        robot.begin_tick(t);
        robot.end_tick(Duration::ZERO);
    }
    robot.clear_entries();
    robot
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("datagram_to_claim");
    for (name, event, tag) in [
        (
            "set_timer",
            cloud(
                "intent_clock_settimer_extend",
                r#"{"timer_duration":"300"}"#,
            ),
            Tag::SetTimer,
        ),
        (
            "system_charger_void",
            cloud("intent_system_charger", ""),
            Tag::SystemCharger,
        ),
        (
            "weather_7_fields",
            cloud(
                "intent_weather_extend",
                r#"{"speakable_location_string":"Paris","is_forecast":"false","condition":"Cloudy","temperature":"14","temperature_unit":"C","local_datetime":"2026-11-25T09:00:00","day_or_night":"DAY"}"#,
            ),
            Tag::WeatherResponse,
        ),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched(
                idle_robot,
                |mut robot| {
                    robot.begin_tick(3);
                    robot.deliver(black_box(&event), Duration::ZERO);
                    robot.end_tick(Duration::ZERO);
                    assert_eq!(robot.intents().active_tag(), Some(tag));
                    robot
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();

    let trigger = TimedEvent {
        line: 1,
        when: When::Tick(0),
        say: None,
        event: ScenarioEvent::TriggerWord {
            will_open_stream: true,
            from_mute: false,
        },
    };
    let timer = cloud(
        "intent_clock_settimer_extend",
        r#"{"timer_duration":"300"}"#,
    );
    c.bench_function("voice_flow", |b| {
        b.iter_batched(
            idle_robot,
            |mut robot| {
                robot.begin_tick(3);
                robot.deliver(&trigger, Duration::ZERO);
                robot.end_tick(Duration::ZERO);
                robot.begin_tick(4);
                robot.end_tick(Duration::ZERO);
                robot.begin_tick(5);
                robot.deliver(black_box(&timer), Duration::ZERO);
                robot.end_tick(Duration::ZERO);
                robot.begin_tick(6);
                robot.end_tick(Duration::ZERO);
                assert_eq!(robot.intents().active_tag(), Some(Tag::SetTimer));
                robot
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
