//! Arbitrary and damaged bytes never panic `unpack` of any generated type (every conformance
//! schema and our edge-case schema); hostile length prefixes fail fast without allocating.
//!
//! Every successful unpack is checked by `clad_conformance::fuzz_unpack`: the value re-packs
//! to the input (bool bytes other than 0/1 normalised), and its JSON reads back.
//!
//! The corpus of valid encodings is every golden vector plus, for every type (the edge-case
//! types have no golden vectors), a few values from the round-trip strategies, packed.

mod common;

use clad_conformance::{SchemaInfo, TypeInfo};
use clad_runtime::wire::UnpackErrorKind;
use common::Gen;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

// ----- allocation counting -------------------------------------------------------------------

/// Counts the bytes allocated by the current thread (tests run on several threads).
struct Counting;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

fn count(bytes: usize) {
    let _ = ALLOCATED.try_with(|a| a.set(a.get() + bytes as u64));
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result, the bytes it allocated and the time it took.
fn measure<R>(f: impl FnOnce() -> R) -> (R, u64, Duration) {
    let before = ALLOCATED.with(Cell::get);
    let start = Instant::now();
    let r = f();
    let elapsed = start.elapsed();
    (r, ALLOCATED.with(Cell::get) - before, elapsed)
}

// ----- corpus --------------------------------------------------------------------------------

/// A valid encoding of a type.
struct Sample {
    schema: &'static SchemaInfo,
    ty: &'static TypeInfo,
    bytes: Vec<u8>,
    origin: String,
}

fn find(root: &str, schema: &str, ty: &str) -> (&'static SchemaInfo, &'static TypeInfo) {
    common::all_types()
        .find(|(s, t)| s.root == root && s.schema == schema && t.clad_name == ty)
        .unwrap_or_else(|| panic!("{root} {schema} {ty} is not generated"))
}

/// Golden vectors plus `per_type` packed random values of every type.
fn corpus(per_type: usize) -> Vec<Sample> {
    let mut out: Vec<Sample> = common::vectors()
        .into_iter()
        .map(|v| {
            let (schema, ty) = find(&v.root, &v.schema, &v.ty);
            Sample {
                schema,
                ty,
                bytes: v.bytes,
                origin: v.origin,
            }
        })
        .collect();
    let mut schemas = common::Schemas::default();
    let mut runner = TestRunner::deterministic();
    for (s, t) in common::all_types() {
        let (schema, id) = schemas.decl(s, t);
        let Some(strategy) = common::decl_strategy(schema, id, Gen::default(), None) else {
            continue;
        };
        for i in 0..per_type {
            let value = strategy.new_tree(&mut runner).unwrap().current();
            let bytes = clad_conformance::pack_json(s.root, s.schema, t.clad_name, &value)
                .expect("registered")
                .unwrap_or_else(|e| panic!("{} {value}: {e}", t.clad_name));
            out.push(Sample {
                schema: s,
                ty: t,
                bytes,
                origin: format!("random value #{i} of {}", t.clad_name),
            });
        }
    }
    out
}

fn fuzz(s: &SchemaInfo, t: &TypeInfo, bytes: &[u8]) -> Result<(), clad_runtime::wire::UnpackError> {
    clad_conformance::fuzz(s.root, s.schema, t.clad_name, bytes).expect("registered")
}

/// A small deterministic PRNG (splitmix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ----- tests ---------------------------------------------------------------------------------

/// Random bytes, and random bytes after a valid union tag, for every type.
#[test]
fn random_bytes_never_panic() {
    let cases = common::cases(64);
    let mut failures = Vec::new();
    for (s, t) in common::all_types() {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        let bytes = prop::collection::vec(any::<u8>(), 0..64);
        let result = runner.run(&bytes, |bytes| {
            let _ = fuzz(s, t, &bytes);
            Ok(())
        });
        if let Err(e) = result {
            failures.push(format!("{} {} {}: {e}", s.root, s.schema, t.clad_name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every valid encoding cut short at every length is a `Truncated` error (CLAD encodings are
/// prefix-free: decoding a prefix takes the same path until it runs out of input); with a
/// byte appended it is a `TrailingBytes` error at the end of the encoding.
#[test]
fn truncated_and_extended_encodings_are_errors() {
    let corpus = corpus(4);
    let mut failures = Vec::new();
    let mut checked = 0u64;
    for sample in &corpus {
        let n = sample.bytes.len();
        // Every length for encodings up to 512 bytes; for longer ones the first and last
        // 128 lengths and 256 random ones in between.
        let mut lengths: Vec<usize> = if n <= 512 {
            (0..n).collect()
        } else {
            let mut rng = Rng(n as u64);
            let mut l: Vec<usize> = (0..128).chain(n - 128..n).collect();
            l.extend((0..256).map(|_| 128 + rng.below(n - 256)));
            l
        };
        lengths.sort_unstable();
        lengths.dedup();
        for len in lengths {
            checked += 1;
            match fuzz(sample.schema, sample.ty, &sample.bytes[..len]) {
                Err(e)
                    if matches!(e.kind(), UnpackErrorKind::Truncated { .. })
                        && e.offset() <= len => {}
                other => failures.push(format!(
                    "{} ({}) cut to {len} of {n} bytes: {other:?}",
                    sample.ty.clad_name, sample.origin
                )),
            }
        }
        let mut longer = sample.bytes.clone();
        longer.push(0);
        match fuzz(sample.schema, sample.ty, &longer) {
            Err(e)
                if matches!(e.kind(), UnpackErrorKind::TrailingBytes { left: 1, .. })
                    && e.offset() == n => {}
            other => failures.push(format!(
                "{} ({}) with a byte appended: {other:?}",
                sample.ty.clad_name, sample.origin
            )),
        }
    }
    println!("{} encodings, {checked} truncations", corpus.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every valid encoding with one byte changed (every byte of short encodings, random bytes of
/// the others) and with a random tail spliced in never panics.
#[test]
fn damaged_encodings_never_panic() {
    let corpus = corpus(4);
    let mut rng = Rng(0xC1AD);
    let mut ok = 0u64;
    let mut err = 0u64;
    let mut tally = |r: Result<(), _>| match r {
        Ok(()) => ok += 1,
        Err(_) => err += 1,
    };
    for sample in &corpus {
        let n = sample.bytes.len();
        if n == 0 {
            continue;
        }
        let mut bytes = sample.bytes.clone();
        let flip = |bytes: &mut Vec<u8>, at: usize, xor: u8| {
            bytes[at] ^= xor;
            let r = fuzz(sample.schema, sample.ty, bytes);
            bytes[at] ^= xor;
            r
        };
        if n <= 64 {
            for at in 0..n {
                for xor in [0x01, 0xFF] {
                    tally(flip(&mut bytes, at, xor));
                }
            }
        }
        for _ in 0..32 {
            let at = rng.below(n);
            let xor = (rng.below(255) + 1) as u8;
            tally(flip(&mut bytes, at, xor));
        }
        for _ in 0..8 {
            let cut = rng.below(n + 1);
            let tail: Vec<u8> = (0..rng.below(24)).map(|_| rng.next() as u8).collect();
            let mut spliced = sample.bytes[..cut].to_vec();
            spliced.extend(tail);
            tally(fuzz(sample.schema, sample.ty, &spliced));
        }
    }
    println!("damaged encodings: {ok} unpacked, {err} rejected");
    assert!(err > 0);
}

/// A length prefix replaced by the largest value of its type (`0xFF…`): for `uint_32` and
/// `uint_64` prefixes unpacking must fail, quickly, and without allocating for the announced
/// elements (no more than decoding the valid encoding allocates). `uint_8`/`uint_16` prefixes
/// must not panic, and allocate at most in proportion to the input.
#[test]
fn hostile_length_prefixes_fail_fast_without_allocating() {
    let corpus = corpus(2);
    let mut schemas = common::Schemas::default();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut slowest = Duration::ZERO;
    for sample in &corpus {
        let (schema, id) = schemas.decl(sample.schema, sample.ty);
        let ty = common::decl_type(schema, id);
        let Some(prefixes) = common::length_prefixes(schema, &ty, &sample.bytes) else {
            failures.push(format!(
                "{} ({}): the IR walk does not decode the sample",
                sample.ty.clad_name, sample.origin
            ));
            continue;
        };
        let unpack = |bytes: &[u8]| {
            clad_conformance::try_unpack(
                sample.schema.root,
                sample.schema.schema,
                sample.ty.clad_name,
                bytes,
            )
            .expect("registered")
        };
        let (valid, valid_alloc, _) = measure(|| unpack(&sample.bytes));
        if let Err(e) = valid {
            failures.push(format!("{} ({}): {e}", sample.ty.clad_name, sample.origin));
            continue;
        }
        for p in prefixes {
            let mut bytes = sample.bytes.clone();
            bytes[p.offset..p.offset + p.width].fill(0xFF);
            if bytes == sample.bytes {
                continue;
            }
            checked += 1;
            let (result, allocated, elapsed) = measure(|| unpack(&bytes));
            slowest = slowest.max(elapsed);
            let what = format!(
                "{} ({}) with {} {} prefix at byte {} set to 0xFF..",
                sample.ty.clad_name,
                sample.origin,
                if p.string { "string" } else { "array" },
                p.width * 8,
                p.offset
            );
            if p.width >= 4 {
                // A length above the declared maximum is reported at the prefix; a count the
                // input cannot hold right after it, before anything else is read.
                let expected = match &result {
                    Err(e) => match e.kind() {
                        UnpackErrorKind::AboveMax { .. } => Some(p.offset),
                        UnpackErrorKind::Truncated { .. }
                        | UnpackErrorKind::TooManyElements { .. } => Some(p.offset + p.width),
                        _ => None,
                    },
                    Ok(()) => None,
                };
                let offset = result.as_ref().err().map(|e| e.offset());
                if expected.is_none() || offset != expected {
                    failures.push(format!("{what}: {result:?}"));
                }
            }
            // A wide hostile prefix is rejected before anything is allocated for it (the error
            // itself, a box and the field path, allocates a little). A narrow one may pass the
            // check against the remaining input and reserve up to that many elements.
            let budget = if p.width >= 4 {
                valid_alloc + 1024
            } else {
                valid_alloc + 256 * bytes.len() as u64 + 1024
            };
            if allocated > budget {
                failures.push(format!(
                    "{what}: allocated {allocated} bytes, the valid encoding {valid_alloc}"
                ));
            }
            if elapsed > Duration::from_millis(250) {
                failures.push(format!("{what}: took {elapsed:?}"));
            }
        }
    }
    println!("{checked} hostile prefixes, slowest {slowest:?}");
    if clad_conformance::REFERENCE_SUITE {
        assert!(checked > 500, "only {checked} prefixes checked");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The extreme case by hand: the largest `uint_64` count for `od434 { uint_64
/// vehiclesPlayed[uint_64] }` and the largest `uint_32` count of empty messages.
#[test]
fn largest_counts_are_rejected_before_anything_is_read() {
    let (s, t) = find(
        clad_conformance::EDGE_ROOT,
        "edge_cases.clad",
        "Edge::Hostile",
    );
    let mut bytes = vec![0xFF; 4];
    bytes.extend([0; 4 + 8]);
    let (r, allocated, elapsed) = measure(|| fuzz(s, t, &bytes));
    let e = r.unwrap_err();
    assert!(
        matches!(
            e.kind(),
            UnpackErrorKind::TooManyElements {
                count: 0xFFFF_FFFF,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.offset(), 4);
    assert_eq!(e.path().to_string(), "Edge::Hostile.empties");
    assert!(allocated < 1024 && elapsed < Duration::from_millis(250));

    let mut bytes = vec![0, 0, 0, 0];
    bytes.extend([0xFF; 4]);
    bytes.extend([0; 8]);
    let e = fuzz(s, t, &bytes).unwrap_err();
    assert!(matches!(e.kind(), UnpackErrorKind::Truncated { .. }), "{e}");
    assert_eq!(e.path().to_string(), "Edge::Hostile.text");

    let mut bytes = vec![0; 8];
    bytes.extend([0xFF; 8]);
    let (r, allocated, _) = measure(|| fuzz(s, t, &bytes));
    let e = r.unwrap_err();
    assert!(
        matches!(e.kind(), UnpackErrorKind::Truncated { need, left: 0 } if *need == u64::MAX),
        "{e}"
    );
    assert_eq!(e.offset(), 16);
    assert_eq!(e.path().to_string(), "Edge::Hostile.circles");
    assert!(allocated < 1024);

    // Names a type of the reference corpus: skipped on any other tree.
    if clad_conformance::REFERENCE_SUITE {
        let (s, t) = find(".", "SimpleTest.clad", "od434");
        let (r, allocated, _) = measure(|| fuzz(s, t, &[0xFF; 8]));
        let e = r.unwrap_err();
        assert!(matches!(e.kind(), UnpackErrorKind::Truncated { .. }), "{e}");
        assert_eq!(e.offset(), 8);
        assert!(allocated < 1024);
    }
}

/// The registry answers `None` for unknown types instead of silently passing.
#[test]
fn unknown_types_are_not_in_the_registry() {
    assert!(clad_conformance::fuzz("@edge", "edge_cases.clad", "Edge::Nope", &[]).is_none());
    assert!(clad_conformance::fuzz("nope", "edge_cases.clad", "Edge::Names", &[]).is_none());
}
