//! The ROS 2 codec (`clad_zenoh::ros2`) on a typical `hri_actions_msgs/msg/Intent`: a
//! supervisor's "go to the kitchen" (`__intent_move_to__`, `{"goal": "kitchen"}`,
//! `__remote_supervisor__`, `__modality_touchscreen__`, priority 200, confidence 1.0: 116
//! bytes of CDR).
//!
//! ```sh
//! cargo bench -p clad-zenoh --bench ros2 -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! - `cdr/decode_view`: CDR → `IntentView` (strings borrowed: no allocation; the goal is
//!   under 100 ns).
//! - `cdr/decode_owned`: CDR → `Intent` (the four strings copied: four allocations, nothing
//!   else; `tests/ros2_alloc.rs` counts them).
//! - `cdr/encode`: `IntentView` → CDR into a reused buffer.
//! - `attachment/decode`, `attachment/encode`: the 33-byte attachment.
//! - `gid/of_token`: XXH3-128 of a 220-byte subscription token (once per publisher).

use std::hint::black_box;

use clad_zenoh::ros2::{Attachment, Gid, Intent, IntentView};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn typical() -> IntentView<'static> {
    IntentView {
        intent: "__intent_move_to__",
        data: r#"{"goal": "kitchen"}"#,
        source: "__remote_supervisor__",
        modality: "__modality_touchscreen__",
        priority: 200,
        confidence: 1.0,
    }
}

fn bench(c: &mut Criterion) {
    let payload = typical().encode().unwrap();
    assert_eq!(payload.len(), 116);
    let mut g = c.benchmark_group("cdr");
    g.throughput(Throughput::Bytes(payload.len() as u64));
    g.bench_function("decode_view", |b| {
        b.iter(|| IntentView::decode(black_box(&payload)).unwrap())
    });
    g.bench_function("decode_owned", |b| {
        b.iter(|| Intent::decode(black_box(&payload)).unwrap())
    });
    let mut buf = Vec::with_capacity(256);
    g.bench_function("encode", |b| {
        b.iter(|| {
            buf.clear();
            black_box(typical()).encode_into(&mut buf).unwrap();
            buf.len()
        })
    });
    g.finish();

    let att = Attachment {
        sequence: 42,
        source_time_ns: 1_767_225_600_000_000_000,
        gid: Gid([7; 16]),
    };
    let bytes = att.encode();
    let mut g = c.benchmark_group("attachment");
    g.bench_function("decode", |b| {
        b.iter(|| Attachment::decode(Some(black_box(&bytes[..]))).unwrap())
    });
    g.bench_function("encode", |b| b.iter(|| black_box(&att).encode()));
    g.finish();

    let token = "@ros2_lv/0/5f1e2d3c4b5a69788796a5b4c3d2e1f0/0/1/MS/%/%/robot/%intents/hri_actions_msgs::msg::dds_::Intent_/RIHS01_850d5c0a06aecf153f4cbc75f27fc655d687f93300bcc928a9d21712716fcfaa/::,10:,:,:,,";
    c.bench_function("gid/of_token", |b| {
        b.iter(|| Gid::of_token(black_box(token)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
