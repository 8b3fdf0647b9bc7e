//! [`Deduplicator`]: recognises the same request arriving twice (the same utterance through two
//! recognisers, a touchscreen and a voice command for the same thing, a retransmission), so
//! that the robot does not do one thing twice — and never ignores a changed request.
//!
//! # The rule
//!
//! * **The same request**: the same intent with the same `data` (equal JSON objects, key order
//!   aside). Source, modality, priority and confidence may differ: two recognisers hearing one
//!   utterance is the case this exists for.
//! * A message is a **duplicate** of the latest earlier admission of the same request only when
//!   all of these hold:
//!   1. it arrives within the window (default 2000 ms) of that admission (the window counts
//!      from the admission, it does not slide with each duplicate);
//!   2. **nothing changed in between**: no *other* request was executed since (STOP → MOVE_TO →
//!      STOP: the second STOP is a new request, it stops the navigation; SUSPEND → WAKEUP →
//!      SUSPEND: the robot ends suspended), and the robot reported no state change of its own
//!      ([`Deduplicator::state_changed`], e.g. an activity ended);
//!   3. **it does not say more**: when the earlier admission was not executed (its confidence
//!      was in the confirm or ignore band), a restatement with a higher confidence or a
//!      stronger decision is a new request (a 0.2 or 0.5 MOVE_TO followed by the 1.0
//!      restatement: the restatement executes). A restatement of an *executed* request is a
//!      duplicate whatever its confidence: the robot is already doing it.
//! * A message whose producer id (envelope) was already admitted is a **retransmission** of
//!   that message, within the remembered capacity, whatever its time.
//!
//! Only admitted messages are remembered (with their confidence decision); rejected and
//! expired ones are not.

use super::envelope::{IntentId, Timestamp};
use super::message::{Confidence, HriIntent, IntentIn};
use super::policy::ConfidenceDecision;
use super::read::FieldIn;
use super::vocab::{IntentKind, Role};
use serde_json::Value;
use std::collections::hash_map::RandomState;
use std::collections::VecDeque;
use std::fmt::{self, Write as _};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::OnceLock;

/// A bounded memory of recently admitted requests, applying the rule of the module
/// documentation.
#[derive(Clone, Debug)]
pub struct Deduplicator {
    window_ms: u64,
    capacity: usize,
    seen: VecDeque<Seen>,
    /// Bumped by every executed request and every reported state change; a remembered
    /// admission from another epoch is history, not a duplicate candidate.
    epoch: u64,
}

#[derive(Clone, Debug)]
struct Seen {
    key: u64,
    producer_id: Option<IntentId>,
    id: IntentId,
    at: Timestamp,
    epoch: u64,
    decision: ConfidenceDecision,
    confidence: Confidence,
}

/// Execute > Confirm > Ignore.
fn strength(d: ConfidenceDecision) -> u8 {
    match d {
        ConfidenceDecision::Ignore => 0,
        ConfidenceDecision::Confirm => 1,
        ConfidenceDecision::Execute => 2,
    }
}

/// True when `new` states more confidence than `old` (an unstated confidence is neither more
/// nor less than a stated one: the decision compares those).
fn more_confident(new: Confidence, old: Confidence) -> bool {
    matches!((new, old), (Confidence::Stated(n), Confidence::Stated(o)) if n > o)
}

/// Hashes `value` as its compact JSON text tells it apart (equal texts, equal hashes;
/// numbers by their text: `1` and `1.0` differ), without writing the text.
fn hash_value(value: &Value, h: &mut KeyHasher) {
    match value {
        Value::String(s) => {
            0u8.hash(h);
            s.hash(h);
        }
        Value::Array(items) => {
            1u8.hash(h);
            items.len().hash(h);
            for item in items {
                hash_value(item, h);
            }
        }
        Value::Object(map) => {
            2u8.hash(h);
            map.len().hash(h);
            for (k, v) in map {
                k.hash(h);
                hash_value(v, h);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {
            3u8.hash(h);
            // Infallible: the writer never fails.
            let _ = write!(HashWriter(h), "{value}");
            0xffu8.hash(h);
        }
    }
}

/// [`hash_value`] of a value as read: the same hash as the value serde_json would hold.
fn hash_field(value: &FieldIn<'_>, h: &mut KeyHasher) {
    match value {
        FieldIn::Str(s) => {
            0u8.hash(h);
            s.hash(h);
        }
        FieldIn::Other(v) => hash_value(v, h),
        FieldIn::Roles(roles) => {
            2u8.hash(h);
            roles.iter().count().hash(h);
            for (k, v) in roles.iter() {
                k.hash(h);
                hash_field(v, h);
            }
        }
    }
}

/// Hashes the intent: a standard intent as its index (one byte below 18), a custom intent
/// as a marker and its text. A custom intent spelt as a standard one's wire value is that
/// intent (the same request, as when its text was hashed).
fn hash_intent(intent: &IntentKind, h: &mut KeyHasher) {
    let index = match intent {
        IntentKind::Custom(text) => IntentKind::from_wire_exact(text)
            .as_ref()
            .and_then(IntentKind::standard_index),
        standard => standard.standard_index(),
    };
    match index {
        Some(i) => h.write_u8(i),
        None => {
            h.write_u8(0xff);
            intent.wire().hash(h);
        }
    }
}

/// Hashes a key of `data`: a role's as one byte (`0x80` and the role's discriminant, its
/// place in [`Role::ALL`]), any other key as its text and `0xff`. Unambiguous: no UTF-8 text starts
/// with a byte from `0x80` to `0xbf`, and `0xff` is in none.
fn hash_role_key(key: &str, h: &mut KeyHasher) {
    match Role::from_key(key) {
        Some(role) => h.write_u8(0x80 | role as u8),
        None => key.hash(h),
    }
}

/// Feeds formatted text to a hasher.
struct HashWriter<'h>(&'h mut KeyHasher);

impl fmt::Write for HashWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// The process's de-duplication key: drawn once, at random (from the standard library's
/// per-process random hash keys), so that a remote sender cannot compute which requests
/// share a content key and make a request collide with another to have it dropped.
fn process_keys() -> (u64, u64) {
    static KEYS: OnceLock<(u64, u64)> = OnceLock::new();
    *KEYS.get_or_init(|| {
        let random = RandomState::new();
        (random.hash_one(0u64), random.hash_one(1u64))
    })
}

/// SipHash with `C` compression and `D` finalization rounds over whole 8-byte blocks
/// (SipHash-1-3, `Sip<1, 3>`, is what std's `DefaultHasher` computes; its keys here are the
/// process's). The state is small and `Copy`: finishing a copy leaves the stream going.
#[derive(Clone, Copy)]
struct Sip<const C: usize, const D: usize> {
    v: [u64; 4],
    /// The bytes compressed so far.
    length: u64,
}

impl<const C: usize, const D: usize> Sip<C, D> {
    fn new(k0: u64, k1: u64) -> Self {
        Sip {
            v: [
                k0 ^ 0x736f_6d65_7073_6575,
                k1 ^ 0x646f_7261_6e64_6f6d,
                k0 ^ 0x6c79_6765_6e65_7261,
                k1 ^ 0x7465_6462_7974_6573,
            ],
            length: 0,
        }
    }

    #[inline(always)]
    fn round(&mut self) {
        let [mut v0, mut v1, mut v2, mut v3] = self.v;
        v0 = v0.wrapping_add(v1);
        v1 = v1.rotate_left(13) ^ v0;
        v0 = v0.rotate_left(32);
        v2 = v2.wrapping_add(v3);
        v3 = v3.rotate_left(16) ^ v2;
        v0 = v0.wrapping_add(v3);
        v3 = v3.rotate_left(21) ^ v0;
        v2 = v2.wrapping_add(v1);
        v1 = v1.rotate_left(17) ^ v2;
        v2 = v2.rotate_left(32);
        self.v = [v0, v1, v2, v3];
    }

    #[inline(always)]
    fn compress(&mut self, m: u64) {
        self.v[3] ^= m;
        for _ in 0..C {
            self.round();
        }
        self.v[0] ^= m;
    }

    /// Compresses `bytes`, whose length is a multiple of 8.
    fn blocks(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut m = [0; 8];
            m.copy_from_slice(chunk);
            self.compress(u64::from_le_bytes(m));
        }
        debug_assert!(chunks.remainder().is_empty());
        self.length += bytes.len() as u64;
    }

    /// The hash of the stream: the bytes compressed, then `tail` (less than 8 bytes).
    fn finish(mut self, tail: &[u8]) -> u64 {
        let length = self.length.wrapping_add(tail.len() as u64);
        let mut last = [0; 8];
        last[..tail.len()].copy_from_slice(tail);
        last[7] = length as u8;
        self.compress(u64::from_le_bytes(last));
        self.v[2] ^= 0xff;
        for _ in 0..D {
            self.round();
        }
        self.v[0] ^ self.v[1] ^ self.v[2] ^ self.v[3]
    }
}

/// How many bytes [`KeyHasher`] gathers before compressing them: a usual request's key
/// (the intent's index, a few role keys and values) fits, and is hashed in one pass.
const KEY_BUFFER: usize = 128;

/// Keyed SipHash-1-3 fed in blocks: the input is gathered in a buffer and compressed a
/// buffer at a time, so a key's dozen small writes cost a copy each, not a hash step each.
/// The hash does not depend on how the input is cut into writes.
struct KeyHasher {
    buffer: [u8; KEY_BUFFER],
    len: usize,
    sip: Sip<1, 3>,
}

impl KeyHasher {
    /// A hasher with the process's keys.
    fn new() -> KeyHasher {
        let (k0, k1) = process_keys();
        KeyHasher::with_keys(k0, k1)
    }

    fn with_keys(k0: u64, k1: u64) -> KeyHasher {
        KeyHasher {
            buffer: [0; KEY_BUFFER],
            len: 0,
            sip: Sip::new(k0, k1),
        }
    }

    /// Fills the buffer from `bytes`, compressing it each time it is full.
    #[inline(never)]
    fn spill(&mut self, mut bytes: &[u8]) {
        loop {
            let take = (KEY_BUFFER - self.len).min(bytes.len());
            self.buffer[self.len..self.len + take].copy_from_slice(&bytes[..take]);
            self.len += take;
            bytes = &bytes[take..];
            if self.len < KEY_BUFFER {
                return;
            }
            self.sip.blocks(&self.buffer);
            self.len = 0;
        }
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        match self.buffer.get_mut(self.len..self.len + bytes.len()) {
            Some(room) => {
                room.copy_from_slice(bytes);
                self.len += bytes.len();
            }
            None => self.spill(bytes),
        }
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        match self.buffer.get_mut(self.len) {
            Some(slot) => {
                *slot = byte;
                self.len += 1;
            }
            None => self.spill(&[byte]),
        }
    }

    fn finish(&self) -> u64 {
        let whole = self.len / 8 * 8;
        let mut sip = self.sip;
        sip.blocks(&self.buffer[..whole]);
        sip.finish(&self.buffer[whole..self.len])
    }
}

impl Deduplicator {
    /// Remembers up to `capacity` admissions (at least 1); content duplicates count within
    /// `window_ms`.
    pub fn new(window_ms: u64, capacity: usize) -> Deduplicator {
        Deduplicator {
            window_ms,
            capacity: capacity.max(1),
            seen: VecDeque::new(),
            epoch: 0,
        }
    }

    /// The content key of an intent: its intent (a standard one by its index) and `data`
    /// (serde_json maps are ordered, so equal objects hash equally; each value hashed as its
    /// compact JSON text tells it apart, see `hash_value`), hashed with SipHash-1-3 under
    /// the process's random keys: equal within a process, not predictable from outside.
    pub fn key(intent: &HriIntent) -> u64 {
        let mut h = KeyHasher::new();
        hash_intent(&intent.intent, &mut h);
        for (k, v) in &intent.data {
            hash_role_key(k, &mut h);
            hash_value(v, &mut h);
        }
        h.finish()
    }

    /// [`Deduplicator::key`] of an intent whose `data` is still borrowed: the same key.
    pub(crate) fn key_in(intent: &IntentIn<'_>) -> u64 {
        let mut h = KeyHasher::new();
        hash_intent(&intent.intent, &mut h);
        for (k, v) in intent.data.iter() {
            hash_role_key(k, &mut h);
            hash_field(v, &mut h);
        }
        h.finish()
    }

    /// The robot's state changed by itself (an activity ended, a capability failed): the next
    /// restatement of any request is a new request.
    pub fn state_changed(&mut self) {
        self.epoch += 1;
    }

    /// The earlier admission `intent` duplicates, if any (see the module documentation);
    /// otherwise remembers it as `id`, admitted at `now` with `decision`, and returns `None`.
    pub fn check(
        &mut self,
        intent: &HriIntent,
        producer_id: Option<IntentId>,
        id: IntentId,
        now: Timestamp,
        decision: ConfidenceDecision,
    ) -> Option<IntentId> {
        let key = Deduplicator::key(intent);
        self.check_key(key, intent.confidence, producer_id, id, now, decision)
    }

    /// [`Deduplicator::check`] of a request whose key ([`Deduplicator::key`]) and confidence
    /// are given.
    pub(crate) fn check_key(
        &mut self,
        key: u64,
        confidence: Confidence,
        producer_id: Option<IntentId>,
        id: IntentId,
        now: Timestamp,
        decision: ConfidenceDecision,
    ) -> Option<IntentId> {
        if let Some(p) = producer_id {
            if let Some(s) = self.seen.iter().rev().find(|s| s.producer_id == Some(p)) {
                return Some(s.id);
            }
        }
        // Only the latest admission of the same request counts: an older one is superseded.
        if let Some(s) = self.seen.iter().rev().find(|s| s.key == key) {
            let unchanged = s.epoch == self.epoch && now.since(s.at) <= self.window_ms;
            let says_more = s.decision != ConfidenceDecision::Execute
                && (strength(decision) > strength(s.decision)
                    || more_confident(confidence, s.confidence));
            if unchanged && !says_more {
                return Some(s.id);
            }
        }
        if decision == ConfidenceDecision::Execute {
            self.epoch += 1;
        }
        if self.seen.len() == self.capacity {
            self.seen.pop_front();
        }
        self.seen.push_back(Seen {
            key,
            producer_id,
            id,
            at: now,
            epoch: self.epoch,
            decision,
            confidence,
        });
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hri::{IntentKind, Role};

    fn move_to(confidence: f32) -> HriIntent {
        HriIntent::new(IntentKind::MoveTo)
            .with_role(Role::Goal, "kitchen")
            .with_confidence(confidence)
    }

    #[test]
    fn a_superseded_admission_is_not_a_candidate() {
        use ConfidenceDecision::*;
        let mut d = Deduplicator::new(2000, 8);
        let stop = HriIntent::new(IntentKind::StopActivity);
        assert_eq!(
            d.check(&move_to(1.0), None, IntentId(1), Timestamp(0), Execute),
            None
        );
        assert_eq!(
            d.check(&stop, None, IntentId(2), Timestamp(10), Execute),
            None
        );
        // The MOVE_TO of id 1 happened before the stop: a new request.
        assert_eq!(
            d.check(&move_to(1.0), None, IntentId(3), Timestamp(20), Execute),
            None
        );
        // Straight after: a duplicate of id 3.
        assert_eq!(
            d.check(&move_to(0.9), None, IntentId(4), Timestamp(30), Execute),
            Some(IntentId(3))
        );
    }

    #[test]
    fn capacity_bounds_the_memory() {
        let mut d = Deduplicator::new(u64::MAX, 2);
        for (i, goal) in ["a", "b", "c"].into_iter().enumerate() {
            let m = HriIntent::new(IntentKind::MoveTo).with_role(Role::Goal, goal);
            d.check(
                &m,
                Some(IntentId(100 + i as u64)),
                IntentId(i as u64),
                Timestamp(0),
                ConfidenceDecision::Ignore,
            );
        }
        assert_eq!(d.seen.len(), 2);
        // The producer id of the forgotten one is no longer recognised.
        let a = HriIntent::new(IntentKind::MoveTo).with_role(Role::Goal, "z");
        assert_eq!(
            d.check(
                &a,
                Some(IntentId(100)),
                IntentId(9),
                Timestamp(0),
                ConfidenceDecision::Ignore
            ),
            None
        );
    }

    #[test]
    fn keys_tell_values_apart_as_their_json_text_does() {
        use serde_json::json;
        let values = [
            json!(1),
            json!(1.0),
            json!(-0.0),
            json!(0.0),
            json!("1"),
            json!(null),
            json!("null"),
            json!(true),
            json!([1]),
            json!(["1"]),
            json!([[1]]),
            json!({"a": 1}),
            json!({"a": "1"}),
            json!({"b": 1, "a": 1}),
            json!({"a": 1, "b": 1}),
            json!({"a": [1, 2]}),
            json!({"a": [1], "b": [2]}),
            json!(""),
            json!([]),
            json!({}),
        ];
        let key = |v: &serde_json::Value| {
            let mut i = HriIntent::new(IntentKind::StartActivity);
            i.data.insert("other_data".into(), v.clone());
            Deduplicator::key(&i)
        };
        for a in &values {
            for b in &values {
                // The texts, not the values: `-0.0 == 0.0` as values, not as texts.
                let (text_a, text_b) = (a.to_string(), b.to_string());
                assert_eq!(key(a) == key(b), text_a == text_b, "{a} vs {b}");
            }
        }
    }

    /// Role keys are hashed as one byte, other keys as their text: every key is still told
    /// apart from every other, whatever the values.
    #[test]
    fn keys_tell_data_keys_apart() {
        let keys = [
            "goal",
            "object",
            "other_data",
            "",
            "goals",
            "é",
            "\u{80}",
            "x",
        ];
        let key = |k: &str, v: serde_json::Value| {
            let mut i = HriIntent::new(IntentKind::StartActivity);
            i.data.insert(k.into(), v);
            Deduplicator::key(&i)
        };
        for a in keys {
            for b in keys {
                for v in [serde_json::json!("1"), serde_json::json!(1)] {
                    assert_eq!(
                        key(a, v.clone()) == key(b, v.clone()),
                        a == b,
                        "{a:?} {b:?}"
                    );
                }
            }
        }
        for role in Role::ALL {
            assert_eq!(Role::ALL[*role as usize], *role);
        }
    }

    #[test]
    fn the_key_hasher_hashes_as_sip_hash_does_however_the_input_is_cut() {
        use std::collections::hash_map::DefaultHasher;
        let long = "x".repeat(300);
        let parts: [&[u8]; 7] = [
            b"__intent_say__",
            b"",
            &[0xff; 100],
            long.as_bytes(),
            b"a",
            &[7; 128],
            b"bc",
        ];
        // std's `DefaultHasher` is SipHash-1-3 with the keys 0 and 0.
        let mut plain = DefaultHasher::new();
        let mut buffered = KeyHasher::with_keys(0, 0);
        for p in parts {
            plain.write(p);
            buffered.write(p);
            assert_eq!(plain.finish(), buffered.finish());
        }
        let mut whole = DefaultHasher::new();
        whole.write(&parts.concat());
        assert_eq!(whole.finish(), buffered.finish());
    }

    /// The keys are the process's, drawn at random: not the zero keys of `DefaultHasher`,
    /// and the same for every key computed.
    #[test]
    fn keys_are_the_process_random_keys() {
        assert_eq!(process_keys(), process_keys());
        let hash = |mut h: KeyHasher| {
            h.write(b"__intent_move_to__ goal poi_docking");
            h.finish()
        };
        assert_ne!(hash(KeyHasher::new()), hash(KeyHasher::with_keys(0, 0)));
        assert_eq!(hash(KeyHasher::new()), hash(KeyHasher::new()));
    }

    proptest::proptest! {
        /// The key hasher is SipHash-1-3 (std's `DefaultHasher`, keys 0) however its input
        /// is cut into writes (bytes and single bytes), across the buffer's edge.
        #[test]
        fn the_key_hasher_is_sip_hash_1_3(
            pieces in proptest::collection::vec(
                proptest::collection::vec(proptest::prelude::any::<u8>(), 0..150),
                0..6,
            ),
            single in proptest::prelude::any::<bool>(),
        ) {
            let mut reference = std::collections::hash_map::DefaultHasher::new();
            let mut h = KeyHasher::with_keys(0, 0);
            for piece in &pieces {
                reference.write(piece);
                if single {
                    piece.iter().for_each(|b| h.write_u8(*b));
                } else {
                    h.write(piece);
                }
            }
            proptest::prop_assert_eq!(h.finish(), reference.finish());
        }

        /// The rounds and the keys are SipHash's: `Sip<2, 4>` under any keys is std's
        /// SipHash-2-4 (`SipHasher`, deprecated as a hasher, kept as the reference).
        #[test]
        fn the_sip_rounds_and_keys_are_sip_hash(
            k0 in proptest::prelude::any::<u64>(),
            k1 in proptest::prelude::any::<u64>(),
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..70),
        ) {
            #[allow(deprecated)]
            let mut reference = std::hash::SipHasher::new_with_keys(k0, k1);
            reference.write(&bytes);
            let whole = bytes.len() / 8 * 8;
            let mut sip = Sip::<2, 4>::new(k0, k1);
            sip.blocks(&bytes[..whole]);
            proptest::prop_assert_eq!(sip.finish(&bytes[whole..]), reference.finish());
        }
    }

    #[test]
    fn a_request_read_with_borrowed_data_has_the_key_of_its_owned_intent() {
        use crate::hri::ReadOptions;
        for text in [
            r#"{"intent": "__intent_move_to__", "data": {"goal": "poi_docking"}}"#,
            r#"{"intent": "__intent_say__", "data": "{\"object\": \"hi\", \"recipient\": \"p\"}"}"#,
            r#"{"intent": "__intent_start_activity__", "data": {"object": "x", "other_data": {"b": [1, 2.5, null]}, "zz": true}}"#,
            r#"{"intent": "custom", "data": {"b": "2", "a": 1, "b": "3"}}"#,
        ] {
            let read = crate::hri::HriIntent::read_json(text, ReadOptions::default()).unwrap();
            let key = Deduplicator::key_in(&read.intent);
            assert_eq!(key, Deduplicator::key(&read.into_owned().intent), "{text}");
        }
    }
}
