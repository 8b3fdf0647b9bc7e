//! Inputs shed by importance: what a full input queue gives up, for every source.
//!
//! **The rule.** A queue of requests waiting for the robot's tick has a capacity. When a
//! request arrives at a full queue, the least important request of the queue and the
//! newcomer is shed: the lowest priority first and, among equals, the oldest (the newest
//! request is usually the one that matters: a keep-last queue, as rmw_zenoh's own). A stop
//! or cancel request and a request of the highest priority (255) are **always admitted**: the
//! newcomer is never the one shed, and when everything queued is such a request too, the
//! oldest of them goes. Every shed request is counted, and each source reports its own count.
//!
//! [`Importance`] says how important a request is (one home for "what is a stop");
//! [`Ranker`] computes it for each kind of request before it is decoded into the intake
//! (a cloud result by its map entry, an HRI intent by its kind and priority);
//! [`ShedQueue`] is the rule as a queue, for the queues inside a process (the component's
//! cloud channel, the requests waiting for the mission controller, a tool's inputs). The
//! transport queues of `clad-zenoh` (`intake::OverflowPolicy::Shed`) apply the same rule to
//! the rank ([`Importance::rank`]) the robot gives them.

use std::collections::VecDeque;

use super::map::StaticIntentMap;
use crate::hri::{IntentKind, Priority, StaticHriMap};

/// How important a request is for a full input queue (see the [module docs](self)).
///
/// Ordered: a less important request compares lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Importance {
    /// A stop or cancel request, or priority 255: always admitted.
    always: bool,
    /// The request's priority (128 when it states none).
    priority: Priority,
}

impl Importance {
    /// A request of the default priority that is no stop (a cloud or app intent, a
    /// developer's input).
    pub const NORMAL: Importance = Importance {
        always: false,
        priority: Priority::DEFAULT,
    };

    /// A request of `priority`; `stop` for a stop or cancel request.
    pub const fn new(priority: Priority, stop: bool) -> Importance {
        Importance {
            always: stop || priority.0 == u8::MAX,
            priority,
        }
    }

    /// True for a request a full queue always admits (a stop or cancel, or priority 255).
    pub const fn always_admitted(self) -> bool {
        self.always
    }

    /// Its priority.
    pub const fn priority(self) -> Priority {
        self.priority
    }

    /// The importance as one number, for queues that know nothing of requests (`clad-zenoh`'s
    /// `intake::OverflowPolicy::Shed`): the priority, or [`Importance::ALWAYS`] for a request
    /// that is always admitted.
    pub const fn rank(self) -> u16 {
        if self.always {
            Self::ALWAYS
        } else {
            self.priority.0 as u16
        }
    }

    /// The rank of a request that is always admitted.
    pub const ALWAYS: u16 = u16::MAX;
}

/// Computes the [`Importance`] of requests from the robot's maps, before they reach the
/// intake: a cloud or app intent is a stop when its entry's member is the member a stop
/// request maps to ([`StaticHriMap::is_stop_member`]); an HRI intent by its kind
/// (`STOP_ACTIVITY`, `CANCEL_ACTIVITY`) and priority.
#[derive(Clone, Copy, Debug)]
pub struct Ranker<T: 'static> {
    intents: &'static StaticIntentMap<T>,
    hri: Option<&'static StaticHriMap<T>>,
}

impl<T: Copy + PartialEq + 'static> Ranker<T> {
    /// A ranker for these maps (`hri`: `None` when the robot takes no HRI intents; then no
    /// cloud or app intent is a stop).
    pub const fn new(
        intents: &'static StaticIntentMap<T>,
        hri: Option<&'static StaticHriMap<T>>,
    ) -> Self {
        Ranker { intents, hri }
    }

    /// A user-intent member (priority 128): a stop when a stop request maps to it.
    pub fn member(&self, tag: T) -> Importance {
        let stop = self.hri.is_some_and(|m| m.is_stop_member(tag));
        Importance::new(Priority::DEFAULT, stop)
    }

    /// A cloud `result` with this intent string.
    pub fn cloud_result(&self, intent: &str) -> Importance {
        match self.intents.cloud(intent) {
            Some(e) => self.member(e.tag),
            None => Importance::NORMAL,
        }
    }

    /// An app intent with this intent string.
    pub fn app(&self, intent: &str) -> Importance {
        match self.intents.app(intent) {
            Some(e) => self.member(e.tag),
            None => Importance::NORMAL,
        }
    }

    /// An HRI intent as it arrives (its wire value, read leniently, and its priority:
    /// `None` when unstated).
    pub fn hri(&self, intent: &str, priority: Option<u8>) -> Importance {
        hri_importance(intent, priority)
    }
}

/// The importance of an HRI intent as it arrives: its wire value (any released spelling)
/// and its priority (`None`: unstated, the default 128).
pub fn hri_importance(intent: &str, priority: Option<u8>) -> Importance {
    let kind = IntentKind::read(intent, &mut Vec::new());
    hri_importance_of(&kind, priority.map_or(Priority::DEFAULT, Priority))
}

/// [`hri_importance`] of an intent already read.
pub fn hri_importance_of(kind: &IntentKind, priority: Priority) -> Importance {
    let stop = matches!(kind, IntentKind::StopActivity | IntentKind::CancelActivity);
    Importance::new(priority, stop)
}

/// What [`ShedQueue::push`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed<T> {
    /// Queued; nothing was shed.
    Queued,
    /// Queued; this older request was shed to make room.
    QueuedShedding(T),
    /// The newcomer was shed: it is less important than everything queued.
    Shed(T),
}

/// A bounded FIFO queue that sheds by [`Importance`] when full (the rule of the
/// [module docs](self)). Counts what it shed.
#[derive(Debug)]
pub struct ShedQueue<T> {
    items: VecDeque<(Importance, T)>,
    capacity: usize,
    shed: u64,
}

impl<T> ShedQueue<T> {
    /// A queue of `capacity` requests (at least 1).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        ShedQueue {
            items: VecDeque::with_capacity(capacity.min(1024)),
            capacity,
            shed: 0,
        }
    }

    /// Queues `item` of importance `importance`, shedding the least important request
    /// (the newcomer included) when the queue is full.
    #[inline]
    pub fn push(&mut self, item: T, importance: Importance) -> Pushed<T> {
        if self.items.len() < self.capacity {
            self.items.push_back((importance, item));
            return Pushed::Queued;
        }
        self.shed += 1;
        match victim(self.items.iter().map(|(i, _)| *i), importance) {
            None => Pushed::Shed(item),
            Some(at) => {
                let (_, old) = self.items.remove(at).expect("a queued index");
                self.items.push_back((importance, item));
                Pushed::QueuedShedding(old)
            }
        }
    }

    /// The oldest queued request.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.items.pop_front().map(|(_, t)| t)
    }

    /// Requests queued.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Nothing queued.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The capacity.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Requests shed since the queue was made.
    pub fn shed(&self) -> u64 {
        self.shed
    }

    /// The queued requests, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter().map(|(_, t)| t)
    }
}

/// The rule: which request a full queue sheds when `incoming` arrives. `queued` is oldest
/// first. `None`: the newcomer; `Some(i)`: the queued request at `i`.
///
/// The least important request goes, the oldest among equals (so a newcomer as important as
/// the least important queued request pushes that one out). A newcomer that is always
/// admitted is never the one shed: the least important queued request goes, which is the
/// oldest always-admitted one when everything queued is always admitted.
pub fn victim(queued: impl IntoIterator<Item = Importance>, incoming: Importance) -> Option<usize> {
    let mut least: Option<(usize, Importance)> = None;
    for (i, imp) in queued.into_iter().enumerate() {
        if least.is_none_or(|(_, l)| imp < l) {
            least = Some((i, imp));
        }
    }
    match least {
        None => None,
        Some((i, l)) if incoming.always_admitted() || l <= incoming => Some(i),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: u8) -> Importance {
        Importance::new(Priority(v), false)
    }
    const STOP: Importance = Importance::new(Priority(10), true);

    #[test]
    fn the_least_important_and_oldest_goes() {
        // Equal importance: the oldest queued goes (keep-last).
        assert_eq!(victim([p(128), p(128)], p(128)), Some(0));
        // A lower newcomer goes.
        assert_eq!(victim([p(128), p(128)], p(100)), None);
        // The lowest queued goes, the oldest of the lowest.
        assert_eq!(victim([p(200), p(50), p(50), p(128)], p(128)), Some(1));
        // A stop is always admitted, even when everything queued outranks it by priority.
        assert_eq!(victim([p(250), p(200)], STOP), Some(1));
        // Everything queued is always admitted: the oldest of them goes for a stop...
        assert_eq!(victim([STOP, p(255), STOP], STOP), Some(0));
        // ... and anything else is shed.
        assert_eq!(victim([STOP, STOP], p(254)), None);
        assert!(p(255).always_admitted() && !p(254).always_admitted());
        assert_eq!((STOP.rank(), p(7).rank()), (Importance::ALWAYS, 7));
    }

    #[test]
    fn a_stop_after_a_flood_is_taken() {
        let mut q = ShedQueue::new(256);
        for i in 0..1000u32 {
            q.push(i, p(128));
        }
        assert_eq!(q.shed(), 1000 - 256);
        assert_eq!(q.push(u32::MAX, STOP), Pushed::QueuedShedding(744));
        assert_eq!(q.len(), 256);
        let all: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(all.last(), Some(&u32::MAX));
        assert_eq!(all[0], 745, "the newest were kept, the oldest shed");
    }
}
