//! Pack/unpack of generated code for the shapes of the original robot's wire benchmark,
//! each beside a `copy_from_slice` of the same number of bytes (the memcpy floor).
//!
//! ```sh
//! cargo bench -p robot-example --bench wire
//! ```
//!
//! Shapes (`schemas/bench.clad`, values in `src/samples.rs`):
//! `numbers_32B` (plain numbers), `union_5B` (a union holding 4 bytes),
//! `union_strings_70B` (a union holding seven short strings), `robot_state_218B` (fixed
//! arrays, a variable array of six structures, nested structures, enums), `mic_data_1292B`
//! (a fixed array of 640 `int_16` samples and three scalars), `cloud_audio_1293B` (a
//! length-prefixed array of 645 `int_16` samples in a union), `observed_face_135B` (a union
//! holding a face observation: a name string, nested structures, fixed float arrays),
//! `engine_robot_state_109B` (a union holding 108 fixed bytes of robot state) and
//! `located_objects_186B` (a union holding a variable array of four 46-byte structures;
//! both in `EngineToGame`, a union as large in memory as its largest member, the face).
//!
//! Per shape: `pack_into` (into a reused buffer, no allocation), `pack` (allocates the
//! output `Vec`), `unpack` (from a byte slice, the value is dropped inside the timing loop),
//! `unpack_into` (into a kept value, reusing its capacity),
//! `unpack_view` for the shapes with strings or variable arrays (the borrowed views
//! `EventView`, `RobotStateView`, `CloudAudioView`, `ObservationView`, `EngineToGameView`:
//! same checks, strings borrowed from the input and arrays of fixed-size structures left
//! packed in it instead of copied),
//! `memcpy` (copy the packed bytes into a reused buffer: the floor for moving that many
//! bytes) and `clone` (copy the value in memory, allocating what it owns: the floor for an
//! `unpack` that must build the same value).

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use robot_example::clad::bench::{CloudAudio, EngineToGame, Event, Observation, RobotState};
use robot_example::samples;
use robot_runtime::wire::{HasView, Wire, WireView};
use std::hint::black_box;
use std::time::Duration;

/// `unpack_view`: decoding the borrowed view of `T` (for `shape`'s `extra`).
fn unpack_view<T: HasView>(group: &mut BenchmarkGroup<'_, WallTime>, bytes: &[u8]) {
    let owned = T::unpack(bytes).expect("sample unpacks");
    assert!(T::View::unpack_view(bytes).expect("view decodes") == owned.view());
    group.bench_function("unpack_view", |b| {
        b.iter(|| {
            let view = T::View::unpack_view(black_box(bytes));
            black_box(&view);
        })
    });
}

fn shape<T: Wire + Clone>(c: &mut Criterion, name: &str, value: &T) {
    shape_with(c, name, value, |_, _| {});
}

fn shape_with<T: Wire + Clone>(
    c: &mut Criterion,
    name: &str,
    value: &T,
    extra: impl FnOnce(&mut BenchmarkGroup<'_, WallTime>, &[u8]),
) {
    let bytes = value.pack().expect("sample packs");
    assert!(T::unpack(&bytes).is_ok(), "sample unpacks");
    let n = bytes.len();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(n as u64));

    let mut buf = vec![0u8; 2048];
    group.bench_function("pack_into", |b| {
        b.iter(|| black_box(value).pack_into(black_box(&mut buf[..])).unwrap())
    });
    group.bench_function("pack", |b| b.iter(|| black_box(value).pack().unwrap()));
    group.bench_function("unpack", |b| {
        b.iter(|| {
            // Observe the value in place: moving a large union into `black_box` would add
            // a copy of its whole in-memory size that real code does not make.
            let value = T::unpack(black_box(&bytes[..]));
            black_box(&value);
        })
    });
    // Into a kept value (the same shape arrives again): its strings' and arrays' capacity
    // is reused, so nothing is allocated.
    // The result is observed as whether it succeeded (what a caller branches on), not
    // through a reference: that would store the `Result` and load it back to drop it, a
    // round trip through memory that real code does not make.
    let mut reused = value.clone();
    group.bench_function("unpack_into", |b| {
        b.iter(|| {
            let ok = reused.unpack_into(black_box(&bytes[..])).is_ok();
            black_box(ok);
            black_box(&reused);
        })
    });
    extra(&mut group, &bytes);
    group.bench_function("memcpy", |b| {
        b.iter(|| {
            let dst = black_box(&mut buf[..n]);
            dst.copy_from_slice(black_box(&bytes[..]));
        })
    });
    group.bench_function("clone", |b| {
        b.iter(|| {
            let copy = black_box(value).clone();
            black_box(&copy);
        })
    });
    group.finish();
}

fn wire(c: &mut Criterion) {
    shape(c, "numbers_32B", &samples::numbers());
    shape_with(c, "union_5B", &samples::ping(), unpack_view::<Event>);
    shape_with(
        c,
        "union_strings_70B",
        &samples::device_info(),
        unpack_view::<Event>,
    );
    shape_with(
        c,
        "robot_state_218B",
        &samples::robot_state(),
        unpack_view::<RobotState>,
    );
    shape(c, "mic_data_1292B", &samples::mic_data());
    shape_with(
        c,
        "cloud_audio_1293B",
        &samples::cloud_audio(),
        unpack_view::<CloudAudio>,
    );
    shape_with(
        c,
        "observed_face_135B",
        &samples::observed_face(),
        unpack_view::<Observation>,
    );
    shape_with(
        c,
        "engine_robot_state_109B",
        &samples::engine_robot_state(),
        unpack_view::<EngineToGame>,
    );
    shape_with(
        c,
        "located_objects_186B",
        &samples::located_objects(),
        unpack_view::<EngineToGame>,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = wire
}
criterion_main!(benches);
