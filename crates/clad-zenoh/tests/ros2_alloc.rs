//! The ROS 2 codec's allocations, counted: decoding a typical `Intent` as a view allocates
//! nothing; as owned values, exactly one allocation per non-empty string (the intent's own
//! strings, nothing else); encoding into a reused buffer and the attachment allocate nothing.
//!
//! One test function: the counting allocator counts per thread, and each measurement runs on
//! the test's own thread.

use clad_zenoh::ros2::{Attachment, Gid, Intent, IntentView};

// The workspace's per-thread counting allocator (one file, also read by robot-runtime's and
// the robot example's allocation tests).
#[path = "../../robot-runtime-tests/src/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::Counting;

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (n, r) = counting_alloc::allocations(f);
    (r, n)
}

#[test]
fn decoding_allocates_only_the_intents_own_strings() {
    // The bench's typical intent.
    let typical = IntentView {
        intent: "__intent_move_to__",
        data: r#"{"goal": "kitchen"}"#,
        source: "__remote_supervisor__",
        modality: "__modality_touchscreen__",
        priority: 200,
        confidence: 1.0,
    };
    let payload = typical.encode().unwrap();

    let (view, n) = count(|| IntentView::decode(&payload).unwrap());
    assert_eq!(view, typical);
    assert_eq!(n, 0, "a view borrows its strings");

    let (owned, n) = count(|| Intent::decode(&payload).unwrap());
    assert_eq!(owned.view(), typical);
    assert_eq!(n, 4, "one allocation per string");

    let mut sparse = typical;
    sparse.source = "";
    sparse.modality = "";
    let payload = sparse.encode().unwrap();
    let (_, n) = count(|| Intent::decode(&payload).unwrap());
    assert_eq!(n, 2, "empty strings allocate nothing");

    // A hostile length prefix: an error, and nothing allocated for it.
    let mut hostile = payload.clone();
    hostile[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let (r, n) = count(|| IntentView::decode(&hostile));
    assert!(r.is_err());
    assert_eq!(n, 0);

    let mut buf = Vec::with_capacity(256);
    let (_, n) = count(|| {
        for _ in 0..10 {
            buf.clear();
            typical.encode_into(&mut buf).unwrap();
        }
    });
    assert_eq!(n, 0, "encoding into a reused buffer");

    let att = Attachment {
        sequence: 1,
        source_time_ns: 2,
        gid: Gid([3; 16]),
    };
    let (bytes, n) = count(|| att.encode());
    assert_eq!(n, 0);
    let (back, n) = count(|| Attachment::decode(Some(&bytes)).unwrap());
    assert_eq!((back, n), (att, 0));
}
