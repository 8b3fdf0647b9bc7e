//! Every source's request against the cloud request it is held to, timed **interleaved**:
//! the ratios of issue 29's speed goal, on a machine whose speed drifts.
//!
//! ```sh
//! cargo bench -p robot-example --bench intent_paired
//! cargo bench -p robot-example --bench intent_paired -- --rounds 600 hri_json
//! ```
//!
//! Criterion (`--bench intent`) times one workload after the other, each for seconds. On a
//! shared virtual machine the same binary then measures the same workload up to 2× apart
//! from one run to the next, and a ratio between two workloads timed a minute apart means
//! little. Here every workload runs a short batch (`--batch`, 200 iterations: tens of
//! microseconds) in turn, round after round (`--rounds`, 300), the order rotated each round;
//! a workload's time in a round is compared with its reference's time in the *same* round,
//! and the median of those paired ratios is reported with its quartiles. Drift slower than
//! a round cancels out. The last column divides the workload's fastest batch by its
//! reference's fastest: the ratio of the two when the machine was least disturbed, which
//! moves least from run to run (about ±1.5% against about ±5% for the median).
//!
//! The workloads are `intent`'s (see `benches/intent.rs` and the shared `requests` module),
//! each on its own component: `cloud/weather` (the reference of every request),
//! `cloud/weather_claimed` (the reference of a mission: the request, then claimed as a
//! behavior claims it), `app/set_timer`, `hri_json/{charger,say}` (`data` inline),
//! `hri_json/{charger,say}_canonical` (`data` a string), `hri_envelope/charger`,
//! `ros2_fields/charger`, `hri_mission/{guide,guide_canonical}` (intake, grant, stop) and
//! `dev/charger`.
//!
//! **Spans.** A mission iteration must also stop the mission it granted (so that the next
//! one is granted too), which a cloud iteration's claim has no counterpart of; the goal is
//! the span from the request to the grant. The `span/` workloads time only that span in
//! each iteration, with a clock read before and after it: `span/weather_claimed` (the
//! datagram through the intake, then claimed; its events drained outside the span),
//! `span/guide` and `span/guide_canonical` (the HRI guide through the intake, handed to
//! the controller, granted and started; the stop outside the span). `span/clock` is the two
//! clock reads alone: its median is taken off every span before the ratio, so that the
//! clock's own cost does not pull the ratios towards 1. The code outside the span
//! still runs, and still takes its share of the caches.
//!
//! `--alone NAME` runs one workload `--rounds` × `--batch` times and reports nothing: a
//! process for a sampling profiler (`perf record -e cpu-clock`, which needs no hardware
//! counters).
//!
//! Without `--bench` (as `cargo test --benches` runs it) every workload runs twice, as a
//! smoke test.

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

use robot_example::hri::{self, HriEnvelopeBytes};
use robot_example::intents::{self, UserIntent};
use robot_runtime::hri::Timestamp;
use robot_runtime::intent::{IntakeOutcome, IntentComponent, IntentSource, Request};
use robot_runtime::wire::Wire;

mod requests;
use requests::{
    charger_envelope, grant, grant_and_stop, guide_controller, packed_result, stop_and_clear,
    CHARGER, CHARGER_CANONICAL, GUIDE, GUIDE_CANONICAL, SAY, SAY_CANONICAL, WEATHER_PARAMS,
};

/// The workloads every other is compared with (always timed, whatever the filter).
const REFERENCES: [&str; 2] = ["cloud/weather", "cloud/weather_claimed"];

/// The spans' reference and the clock's cost (timed whenever a span is).
const SPAN_REFERENCES: [&str; 2] = ["span/weather_claimed", "span/clock"];

/// One timed workload: one iteration per call, true when it did what it is timed for.
struct Workload {
    name: &'static str,
    /// The name of the workload its time is compared with.
    reference: &'static str,
    run: Box<dyn FnMut() -> bool>,
    /// A span workload's timed part: the nanoseconds its iterations spent in the span,
    /// added up by `run` (a batch's time is then this sum, not the batch's).
    span: Option<Rc<Cell<u64>>>,
}

/// A span workload: `run` is called with the accumulator it adds its span's nanoseconds to.
fn span_workload(
    name: &'static str,
    reference: &'static str,
    mut run: impl FnMut(&Cell<u64>) -> bool + 'static,
) -> Workload {
    let span = Rc::new(Cell::new(0));
    let acc = Rc::clone(&span);
    Workload {
        name,
        reference,
        run: Box::new(move || run(&acc)),
        span: Some(span),
    }
}

/// Adds the time since `start` to `acc`.
#[inline(always)]
fn add_since(acc: &Cell<u64>, start: Instant) {
    acc.set(acc.get() + start.elapsed().as_nanos() as u64);
}

/// A clock for HRI requests: each arrives 10 s after the one before (so that none is a
/// duplicate of the one before).
fn clock() -> impl FnMut() -> Timestamp {
    let mut now = 0;
    move || {
        now += 10_000;
        Timestamp(now)
    }
}

/// The cloud reference of a mission: the `weather` datagram through the intake, then
/// claimed as a behavior claims it; true when claimed. The whole `cloud/weather_claimed`
/// iteration and its span (`span/weather_claimed`) run this same code.
#[inline(always)]
fn claim_weather(c: &mut IntentComponent<UserIntent>, datagram: &[u8]) -> bool {
    let outcome = intents::handle_datagram(c, black_box(datagram));
    let claimed = c.activate(intents::Tag::WeatherResponse, "bench").is_ok();
    black_box((&outcome, claimed));
    claimed
}

fn pending(outcome: &IntakeOutcome<intents::Tag>) -> bool {
    matches!(outcome, IntakeOutcome::Pending { .. })
}

fn workloads() -> Vec<Workload> {
    let mut w: Vec<Workload> = Vec::new();
    let weather = packed_result("intent_weather_extend", WEATHER_PARAMS);
    {
        let mut c = intents::component();
        let bytes = weather.clone();
        w.push(Workload {
            name: "cloud/weather",
            reference: "cloud/weather",
            span: None,
            run: Box::new(move || {
                let outcome = intents::handle_datagram(&mut c, black_box(&bytes));
                let done = pending(&outcome);
                black_box((&outcome, c.pending()));
                c.drain_events();
                done
            }),
        });
    }
    {
        let mut c = intents::component();
        w.push(Workload {
            name: "cloud/weather_claimed",
            reference: "cloud/weather_claimed",
            span: None,
            run: Box::new(move || {
                let claimed = claim_weather(&mut c, &weather);
                c.drain_events();
                claimed
            }),
        });
    }
    {
        let mut c = intents::component();
        w.push(Workload {
            name: "app/set_timer",
            reference: "cloud/weather",
            span: None,
            run: Box::new(move || {
                let outcome = c.submit(Request::App {
                    intent: black_box("intent_clock_settimer"),
                    param: black_box("300"),
                });
                let done = pending(&outcome);
                black_box((&outcome, c.pending()));
                c.drain_events();
                done
            }),
        });
    }
    for (name, json) in [
        ("hri_json/charger", CHARGER),
        ("hri_json/say", SAY),
        ("hri_json/charger_canonical", CHARGER_CANONICAL),
        ("hri_json/say_canonical", SAY_CANONICAL),
    ] {
        let mut c = intents::component();
        let mut now = clock();
        w.push(Workload {
            name,
            reference: "cloud/weather",
            span: None,
            run: Box::new(move || {
                let outcome =
                    c.submit(Request::hri_text(IntentSource::Hri, black_box(json), now()));
                let done = pending(&outcome);
                black_box((&outcome, c.pending()));
                c.drain_events();
                done
            }),
        });
    }
    let env = charger_envelope();
    {
        let bytes = env.pack().expect("fits the wire limits");
        let mut c = intents::component();
        let mut now = clock();
        w.push(Workload {
            name: "hri_envelope/charger",
            reference: "cloud/weather",
            span: None,
            run: Box::new(move || {
                let outcome = c.submit(HriEnvelopeBytes {
                    bytes: black_box(&bytes),
                    arrived: now(),
                });
                let done = pending(&outcome);
                black_box((&outcome, c.pending()));
                c.drain_events();
                done
            }),
        });
    }
    {
        let mut c = intents::component();
        let mut now = clock();
        w.push(Workload {
            name: "ros2_fields/charger",
            reference: "cloud/weather",
            span: None,
            run: Box::new(move || {
                let (fields, envelope) = hri::envelope(black_box(&env));
                let outcome = c.submit(Request::hri_fields(
                    IntentSource::Ros2,
                    fields,
                    envelope,
                    now(),
                ));
                let done = pending(&outcome);
                black_box((&outcome, c.pending()));
                c.drain_events();
                done
            }),
        });
    }
    for (name, text) in [
        ("hri_mission/guide", GUIDE),
        ("hri_mission/guide_canonical", GUIDE_CANONICAL),
    ] {
        let mut c = intents::component();
        let (mut mc, _arbiter) = guide_controller();
        let mut now = clock();
        w.push(Workload {
            name,
            reference: "cloud/weather_claimed",
            span: None,
            run: Box::new(move || grant_and_stop(&mut c, &mut mc, text, now())),
        });
    }
    {
        let mut c = intents::component();
        let bytes = packed_result("intent_weather_extend", WEATHER_PARAMS);
        w.push(span_workload(
            "span/weather_claimed",
            "span/weather_claimed",
            move |acc| {
                let start = Instant::now();
                let claimed = claim_weather(&mut c, &bytes);
                add_since(acc, start);
                c.drain_events();
                claimed
            },
        ));
    }
    for (name, text) in [
        ("span/guide", GUIDE),
        ("span/guide_canonical", GUIDE_CANONICAL),
    ] {
        let mut c = intents::component();
        let (mut mc, _arbiter) = guide_controller();
        let mut now = clock();
        w.push(span_workload(name, "span/weather_claimed", move |acc| {
            let start = Instant::now();
            let granted = grant(&mut c, &mut mc, text, now());
            add_since(acc, start);
            stop_and_clear(&mut c, &mut mc);
            granted
        }));
    }
    w.push(span_workload("span/clock", "span/clock", |acc| {
        let start = Instant::now();
        add_since(acc, black_box(start));
        true
    }));
    {
        let mut c = intents::component();
        w.push(Workload {
            name: "dev/charger",
            reference: "cloud/weather",
            span: None,
            run: Box::new(move || {
                let outcome = c.submit(Request::direct(black_box(UserIntent::SystemCharger(
                    Default::default(),
                ))));
                let done = pending(&outcome);
                black_box((&outcome, c.pending()));
                c.drain_events();
                done
            }),
        });
    }
    w
}

/// Says what is wrong with the command line, and how it is written; exits with status 2.
fn usage(problem: &str) -> ! {
    eprintln!(
        "intent_paired: {problem}\n\
         usage: intent_paired --bench [--rounds N] [--batch N] [--alone NAME | FILTER]"
    );
    std::process::exit(2)
}

/// The value at quantile `q` (0..=1) of `sorted`.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut bench = false;
    let mut rounds = 300usize;
    let mut batch = 200usize;
    let mut filter = None;
    let mut alone = None;
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> usize {
            args.next()
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| usage(&format!("{what} needs a positive number")))
        };
        match arg.as_str() {
            "--bench" => bench = true,
            "--rounds" => rounds = number("--rounds"),
            "--batch" => batch = number("--batch"),
            "--alone" => {
                alone = Some(
                    args.next()
                        .unwrap_or_else(|| usage("--alone needs a workload name")),
                )
            }
            a if a.starts_with('-') => {} // cargo's and libtest's other flags
            a => filter = Some(a.to_owned()),
        }
    }
    if !bench {
        (rounds, batch) = (2, 2);
    }
    let mut all = workloads();
    for w in &mut all {
        assert!((w.run)(), "{} did not do what it is timed for", w.name);
    }
    let matches = |w: &Workload| filter.as_deref().is_none_or(|f| w.name.contains(f));
    let spans_wanted = all.iter().any(|w| w.span.is_some() && matches(w));
    let wanted = |w: &Workload| {
        matches(w)
            || REFERENCES.contains(&w.name)
            || (spans_wanted && SPAN_REFERENCES.contains(&w.name))
    };
    if let Some(name) = alone {
        let mut w = all
            .into_iter()
            .find(|w| w.name == name)
            .unwrap_or_else(|| usage(&format!("no workload {name}")));
        for _ in 0..rounds * batch {
            black_box((w.run)());
        }
        return;
    }
    let mut chosen: Vec<Workload> = all.into_iter().filter(wanted).collect();
    let index = |name: &str, ws: &[Workload]| ws.iter().position(|w| w.name == name);
    // Warm up: caches, branch predictors, the allocator's free lists.
    let warm = Instant::now();
    while warm.elapsed().as_millis() < if bench { 1000 } else { 0 } {
        for w in &mut chosen {
            for _ in 0..batch {
                black_box((w.run)());
            }
        }
    }
    let n = chosen.len();
    let mut times = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (k + round) % n;
            let w = &mut chosen[i];
            if let Some(span) = &w.span {
                span.set(0);
            }
            let start = Instant::now();
            for _ in 0..batch {
                black_box((w.run)());
            }
            let total = match &w.span {
                Some(span) => span.get() as f64,
                None => start.elapsed().as_nanos() as f64,
            };
            times[i].push(total / batch as f64);
        }
    }
    if !bench {
        println!("smoke run ({rounds} rounds of {batch}): `cargo bench` for figures");
    }
    println!(
        "{:<30} {:>9} {:>9}   {:<22} {:>22} {:>9}",
        "workload", "min ns", "median", "against", "paired ratio p25/p50/p75", "min/min"
    );
    // A span's time, less the clock's median (the clock itself as it is): the columns and
    // the ratios of a span are of its net time. The median, not the clock's time in the
    // same round: a round in which the clock's own batch was interrupted would otherwise
    // take that interruption off the span.
    let clock = index("span/clock", &chosen).map(|c| {
        let mut t = times[c].clone();
        t.sort_by(f64::total_cmp);
        (c, quantile(&t, 0.5))
    });
    let nets: Vec<Vec<f64>> = (0..n)
        .map(|i| match clock {
            Some((c, cost)) if chosen[i].span.is_some() && i != c => {
                times[i].iter().map(|t| t - cost).collect()
            }
            _ => times[i].clone(),
        })
        .collect();
    let sorted: Vec<Vec<f64>> = nets
        .iter()
        .map(|t| {
            let mut t = t.clone();
            t.sort_by(f64::total_cmp);
            t
        })
        .collect();
    for (i, w) in chosen.iter().enumerate() {
        let r = index(w.reference, &chosen).expect("references are always chosen");
        let mut ratios: Vec<f64> = nets[i]
            .iter()
            .zip(&nets[r])
            .map(|(t, base)| t / base)
            .collect();
        ratios.sort_by(f64::total_cmp);
        println!(
            "{:<30} {:>9.1} {:>9.1}   {:<22} {:>6.3} {:>6.3} {:>6.3}    {:>6.3}",
            w.name,
            sorted[i][0],
            quantile(&sorted[i], 0.5),
            w.reference,
            quantile(&ratios, 0.25),
            quantile(&ratios, 0.5),
            quantile(&ratios, 0.75),
            sorted[i][0] / sorted[r][0],
        );
    }
}
