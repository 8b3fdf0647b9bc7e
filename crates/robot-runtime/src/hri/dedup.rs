//! [`Deduplicator`]: recognises the same intent arriving twice (the same utterance through two
//! recognisers, a touchscreen and a voice command for the same thing, a retransmission).

use super::envelope::{IntentId, Timestamp};
use super::message::HriIntent;
use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

/// A bounded memory of recently admitted intents. Two intents are the same when they have
/// the same intent and the same `data` (source and modality may differ: that is the point),
/// and arrive within the window; an intent whose producer id was already seen is a
/// retransmission, within the remembered capacity.
#[derive(Clone, Debug)]
pub struct Deduplicator {
    window_ms: u64,
    capacity: usize,
    seen: VecDeque<Seen>,
}

#[derive(Clone, Debug)]
struct Seen {
    key: u64,
    producer_id: Option<IntentId>,
    id: IntentId,
    at: Timestamp,
}

impl Deduplicator {
    /// Remembers up to `capacity` intents (at least 1); content duplicates count within
    /// `window_ms`.
    pub fn new(window_ms: u64, capacity: usize) -> Deduplicator {
        Deduplicator {
            window_ms,
            capacity: capacity.max(1),
            seen: VecDeque::new(),
        }
    }

    /// The content key of an intent: its canonical intent value and `data` (serde_json maps
    /// are ordered, so equal objects hash equally).
    pub fn key(intent: &HriIntent) -> u64 {
        let mut h = DefaultHasher::new();
        intent.intent.wire().hash(&mut h);
        for (k, v) in &intent.data {
            k.hash(&mut h);
            v.to_string().hash(&mut h);
        }
        h.finish()
    }

    /// The earlier intent `intent` duplicates, if any; otherwise remembers it as `id` and
    /// returns `None`.
    pub fn check(
        &mut self,
        intent: &HriIntent,
        producer_id: Option<IntentId>,
        id: IntentId,
        now: Timestamp,
    ) -> Option<IntentId> {
        let key = Deduplicator::key(intent);
        let window = self.window_ms;
        if let Some(s) = self.seen.iter().rev().find(|s| {
            (producer_id.is_some() && s.producer_id == producer_id)
                || (s.key == key && now.since(s.at) <= window)
        }) {
            return Some(s.id);
        }
        if self.seen.len() == self.capacity {
            self.seen.pop_front();
        }
        self.seen.push_back(Seen {
            key,
            producer_id,
            id,
            at: now,
        });
        None
    }
}
