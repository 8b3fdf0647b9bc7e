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

use super::data::RoleValue;
use super::envelope::{IntentId, Timestamp};
use super::message::{Confidence, HriIntent, IntentIn};
use super::policy::ConfidenceDecision;
use super::read::FieldIn;
use super::vocab::{IntentKind, Role};
use serde_json::Value;
use std::collections::hash_map::{DefaultHasher, RandomState};
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
        Value::String(s) => hash_str(s, h),
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

/// Hashes a string value: its kind's byte, then its text (as [`hash_value`] hashes a
/// `Value::String`).
#[inline]
fn hash_str(s: &str, h: &mut KeyHasher) {
    0u8.hash(h);
    s.hash(h);
}

/// [`hash_value`] of a value as read: the same hash as the value serde_json would hold.
fn hash_field(value: &FieldIn<'_>, h: &mut KeyHasher) {
    match value {
        FieldIn::Str(s) => hash_str(s, h),
        FieldIn::Other(v) => hash_value(v, h),
        FieldIn::TextRoles { raw, .. } => hash_str(&super::read::unescape_quotes(raw), h),
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
/// `role` is the key's (`Role::from_key`), found when the key was read.
fn hash_role(role: Option<Role>, key: &str, h: &mut KeyHasher) {
    match role {
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

/// The process's hasher keys for the de-duplication key: one [`RandomState`], drawn once,
/// so that keys are equal within the process and a remote sender cannot compute which
/// requests share a content key (and make a request collide with another to have it
/// dropped). `DefaultHasher::new()` would use fixed zero keys.
fn process_state() -> &'static RandomState {
    static STATE: OnceLock<RandomState> = OnceLock::new();
    STATE.get_or_init(RandomState::new)
}

/// How many bytes [`KeyHasher`] gathers before handing them to the hasher: a usual
/// request's key (the intent's index, a few role keys and values) fits, and is hashed in
/// one write.
const KEY_BUFFER: usize = 128;

/// The process's keyed `DefaultHasher` fed in blocks: the input is gathered in a buffer and
/// written a buffer at a time, so a key's dozen small writes cost a copy each, not a hash
/// step each. SipHash streams its input, so the hash does not depend on how the input is
/// cut into writes.
struct KeyHasher {
    buffer: [u8; KEY_BUFFER],
    len: usize,
    inner: DefaultHasher,
}

impl KeyHasher {
    /// A hasher with the process's keys.
    #[inline]
    fn new() -> KeyHasher {
        KeyHasher::with_hasher(process_state().build_hasher())
    }

    #[inline]
    fn with_hasher(inner: DefaultHasher) -> KeyHasher {
        KeyHasher {
            buffer: [0; KEY_BUFFER],
            len: 0,
            inner,
        }
    }

    /// Hands the gathered bytes, then `bytes`, to the hasher.
    #[inline(never)]
    fn spill(&mut self, bytes: &[u8]) {
        self.inner.write(&self.buffer[..self.len]);
        self.len = 0;
        self.inner.write(bytes);
    }

    /// The hash of everything written (what [`Hasher::finish`] answers, without copying
    /// the hasher). By reference: the hasher is too large to be passed in registers, and
    /// passed by value it was copied into the call (a wide copy of a buffer just written a
    /// byte at a time: 29 instructions and a stall in store forwarding).
    fn key(&mut self) -> u64 {
        self.inner.write(&self.buffer[..self.len]);
        self.len = 0;
        self.inner.finish()
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
        let mut inner = self.inner.clone();
        inner.write(&self.buffer[..self.len]);
        inner.finish()
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
    /// compact JSON text tells it apart, see `hash_value`), hashed with std's
    /// `DefaultHasher` under the process's random keys: equal within a process, not
    /// predictable from outside.
    pub fn key(intent: &HriIntent) -> u64 {
        let mut h = KeyHasher::new();
        hash_intent(&intent.intent, &mut h);
        for (role, k, v) in intent.data.iter_roles() {
            // The role's byte is kept: the key is not matched again.
            hash_role(role, k, &mut h);
            match v {
                RoleValue::Str(s) => hash_str(s, &mut h),
                RoleValue::Other(v) => hash_value(v, &mut h),
            }
        }
        h.key()
    }

    /// [`Deduplicator::key`] of an intent whose `data` is still borrowed: the same key.
    pub(crate) fn key_in(intent: &IntentIn<'_>) -> u64 {
        let mut h = KeyHasher::new();
        hash_intent(&intent.intent, &mut h);
        for entry in intent.data.entries() {
            hash_role(entry.role, &entry.key, &mut h);
            hash_field(&entry.value, &mut h);
        }
        h.key()
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
        let mut buffered = KeyHasher::with_hasher(DefaultHasher::new());
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
        assert!(std::ptr::eq(process_state(), process_state()));
        let hash = |mut h: KeyHasher| {
            h.write(b"__intent_move_to__ goal poi_docking");
            h.key()
        };
        assert_ne!(
            hash(KeyHasher::new()),
            hash(KeyHasher::with_hasher(DefaultHasher::new()))
        );
        assert_eq!(hash(KeyHasher::new()), hash(KeyHasher::new()));
    }

    proptest::proptest! {
        /// The key hasher is the `DefaultHasher` it wraps (here the zero keys') however its
        /// input is cut into writes (bytes and single bytes), across the buffer's edge,
        /// finished either way.
        #[test]
        fn the_key_hasher_is_sip_hash_1_3(
            pieces in proptest::collection::vec(
                proptest::collection::vec(proptest::prelude::any::<u8>(), 0..150),
                0..6,
            ),
            single in proptest::prelude::any::<bool>(),
        ) {
            let mut reference = DefaultHasher::new();
            let mut h = KeyHasher::with_hasher(DefaultHasher::new());
            for piece in &pieces {
                reference.write(piece);
                if single {
                    piece.iter().for_each(|b| h.write_u8(*b));
                } else {
                    h.write(piece);
                }
            }
            proptest::prop_assert_eq!(h.finish(), reference.finish());
            proptest::prop_assert_eq!(h.key(), reference.finish());
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
            let read = crate::hri::HriIntent::read_json(
                text,
                ReadOptions::default(),
                &mut crate::hri::read::SpareRoles::default(),
            )
            .unwrap();
            let key = Deduplicator::key_in(&read.intent);
            assert_eq!(key, Deduplicator::key(&read.into_owned().intent), "{text}");
        }
    }
}
