//! Bounded, order-preserving queues from Zenoh's receive threads to a consumer that drains
//! on its own schedule — the robot's tick thread.
//!
//! ```text
//!  Zenoh thread ──callback──▶ IntakeSender ──(bounded queue)──▶ IntakeReceiver ──▶ tick
//!   (tag checked; decoded       policy decides when full         try_recv() per tick
//!    or kept packed)
//! ```
//!
//! # Order and loss
//!
//! Zenoh hands the samples of one publisher to the callback in order, one at a time; the
//! queue is FIFO, so the consumer sees every publisher's samples in publication order.
//! Nothing is lost while the queue has room. When it is full, the [`OverflowPolicy`]
//! decides, and a loss is **never silent**: the lost samples are counted, a `warn` is
//! logged when a gap starts, and the consumer receives an [`Intake::Overflow`] item with the
//! number of samples lost: with [`OverflowPolicy::DropNewest`] and `Block`, at the exact
//! place of the gap (after everything queued before it, before everything queued after it);
//! with [`OverflowPolicy::Shed`], which sheds the least important sample wherever it is, one
//! marker counting every loss since the consumer took the last one. [`IntakeReceiver::dropped`]
//! is the running total.
//!
//! # Capacity
//!
//! `capacity` counts messages and refusals; the overflow markers come on top (at most one
//! per gap, and two gaps are always separated by a queued item; at most one in a shedding
//! queue).
//!
//! # Feeding the robot
//!
//! [`subscribe_packed`] checks each sample's type tag and length on the Zenoh thread and
//! queues the sample still packed; the tick decodes it in place. For the robot's one intake
//! that is exactly `intents::CloudDatagram`'s input (the borrowed `MessageView` path, strings
//! not copied). [`subscribe_packed_ranked`] ranks each sample there too, so that a full queue
//! sheds the least important (the robot's rule: a stop ranks [`RANK_ALWAYS`]):
//!
//! ```ignore
//! use clad_zenoh::intake::{self, Intake};
//! use robot_example::clad::cloud_mic::Message;
//!
//! // Once, at start-up (`None`: the key `CloudMic/Message`).
//! let (_subscription, cloud_rx) =
//!     intake::subscribe_packed_ranked::<Message>(&session, None, 64, rank)?;
//!
//! // Every tick, before the component's own update:
//! cloud_rx.drain(|item| match item {
//!     Intake::Message(sample) => {
//!         component.submit(intents::CloudDatagram(&sample.bytes()));
//!     }
//!     // Already logged by clad-zenoh; a robot may also count or surface them.
//!     Intake::Refused(e) => robot_status.cloud_refused(e),
//!     Intake::Overflow { dropped } => robot_status.cloud_overflow(dropped),
//! });
//! ```
//!
//! [`subscribe_decoded`] decodes on the Zenoh thread instead and queues owned values (for
//! `IntentComponent::handle_cloud(msg.into())`, or an HRI intent stream: any `Wire` type).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use clad_runtime::wire::{HasView, Wire, WireView};
use zenoh::sample::Sample;
use zenoh::Session;

use crate::typed::{check_sample, decode_owned, undecodable};
use crate::{key, Error, ReceiveError, Subscriber};

/// What a full queue does with a new arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverflowPolicy {
    /// Shed the least important sample, the newcomer included: the lowest rank first and,
    /// among equals, the oldest (keep-last, as rmw_zenoh's own queues). A sample of rank
    /// [`RANK_ALWAYS`] is always admitted: it is never the one shed (when everything queued
    /// has that rank too, the oldest of them goes). Never blocks. The consumer gives the
    /// rank ([`bounded_ranked`], [`subscribe_packed_ranked`]); without one every sample has
    /// rank 0 and the oldest goes. Each loss is reported with [`Intake::Overflow`] where it
    /// happened (after everything queued before it).
    Shed,
    /// Drop the new arrival at once (never blocks Zenoh's threads; other subscriptions of
    /// the session are not held up). The gap is reported with [`Intake::Overflow`].
    DropNewest,
    /// Wait up to this long for room, then drop like [`OverflowPolicy::DropNewest`]. While it
    /// waits, Zenoh's receive thread for that link stalls, TCP flow control pushes back and a
    /// publisher using [`CongestionControl::Block`](crate::CongestionControl::Block) (the
    /// default) slows down instead of losing samples: backpressure for bursts shorter than
    /// the wait. Other traffic on the same link waits too.
    Block(Duration),
}

/// One item of an intake queue.
#[derive(Debug)]
pub enum Intake<T> {
    /// A message.
    Message(T),
    /// A sample that was refused (its reason); later samples still arrive.
    Refused(ReceiveError),
    /// The queue was full and this many samples were dropped here, between the item before
    /// and the item after.
    Overflow {
        /// Samples dropped in this gap.
        dropped: u64,
    },
}

/// The rank of a sample a [`OverflowPolicy::Shed`] queue always admits (a stop request).
pub const RANK_ALWAYS: u16 = u16::MAX;

/// How a [`OverflowPolicy::Shed`] queue ranks what arrives (computed on the receiving thread,
/// once per sample).
pub type Rank<T> = Arc<dyn Fn(&Intake<T>) -> u16 + Send + Sync>;

struct State<T> {
    /// Items with their rank (0 for overflow markers, which are never shed).
    queue: VecDeque<(u16, Intake<T>)>,
    /// Queued items that count against the capacity (everything but overflow markers).
    counted: usize,
    dropped_total: u64,
    receiver_alive: bool,
    senders: usize,
}

struct Shared<T> {
    state: Mutex<State<T>>,
    not_empty: Condvar,
    not_full: Condvar,
    capacity: usize,
    policy: OverflowPolicy,
    rank: Option<Rank<T>>,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A bounded intake queue (`capacity` ≥ 1; 0 is taken as 1) with the given policy.
pub fn bounded<T>(capacity: usize, policy: OverflowPolicy) -> (IntakeSender<T>, IntakeReceiver<T>) {
    make(capacity, policy, None)
}

/// A bounded intake queue that sheds by `rank` when full ([`OverflowPolicy::Shed`]).
pub fn bounded_ranked<T>(
    capacity: usize,
    rank: impl Fn(&Intake<T>) -> u16 + Send + Sync + 'static,
) -> (IntakeSender<T>, IntakeReceiver<T>) {
    make(capacity, OverflowPolicy::Shed, Some(Arc::new(rank)))
}

fn make<T>(
    capacity: usize,
    policy: OverflowPolicy,
    rank: Option<Rank<T>>,
) -> (IntakeSender<T>, IntakeReceiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            queue: VecDeque::with_capacity(capacity.clamp(1, 1024)),
            counted: 0,
            dropped_total: 0,
            receiver_alive: true,
            senders: 1,
        }),
        not_empty: Condvar::new(),
        not_full: Condvar::new(),
        capacity: capacity.max(1),
        policy,
        rank,
    });
    (
        IntakeSender {
            shared: shared.clone(),
        },
        IntakeReceiver { shared },
    )
}

/// The producing end (cheap to clone; `Send` when `T` is).
pub struct IntakeSender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Clone for IntakeSender<T> {
    fn clone(&self) -> Self {
        self.shared.lock().senders += 1;
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<T> Drop for IntakeSender<T> {
    fn drop(&mut self) {
        self.shared.lock().senders -= 1;
        self.shared.not_empty.notify_all();
    }
}

/// What [`IntakeSender::push`] did with an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushOutcome {
    /// Queued.
    Queued,
    /// Queued; a less important (or as important and older) sample was shed for it
    /// ([`OverflowPolicy::Shed`]; counted and reported to the consumer).
    QueuedShedding,
    /// Dropped because the queue was full (counted and reported to the consumer).
    Dropped,
    /// Dropped because the receiver is gone.
    Closed,
}

impl<T> IntakeSender<T> {
    /// Queues `item`, applying the overflow policy when the queue is full.
    pub fn push(&self, item: Intake<T>) -> PushOutcome {
        let shared = &*self.shared;
        // Ranked before the lock is taken: ranking may decode the sample.
        let rank = shared.rank.as_ref().map_or(0, |r| r(&item));
        let mut state = shared.lock();
        if let OverflowPolicy::Block(wait) = shared.policy {
            let deadline = Instant::now() + wait;
            while state.receiver_alive && state.counted >= shared.capacity {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                state = shared
                    .not_full
                    .wait_timeout(state, deadline - now)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
        }
        if !state.receiver_alive {
            return PushOutcome::Closed;
        }
        let mut outcome = PushOutcome::Queued;
        if state.counted >= shared.capacity {
            if shared.policy != OverflowPolicy::Shed {
                Self::lost(shared, &mut state);
                return PushOutcome::Dropped;
            }
            match victim(&state.queue, rank) {
                None => {
                    Self::shed(shared, &mut state);
                    return PushOutcome::Dropped;
                }
                Some(at) => {
                    state.queue.remove(at);
                    state.counted -= 1;
                    Self::shed(shared, &mut state);
                    outcome = PushOutcome::QueuedShedding;
                }
            }
        }
        state.queue.push_back((rank, item));
        state.counted += 1;
        drop(state);
        shared.not_empty.notify_one();
        outcome
    }

    /// Counts one sample a shedding queue gave up: a shed sample may be anywhere in the
    /// queue, so the queue's one overflow marker grows (where the first loss since the
    /// consumer last took one happened), or a new one is queued.
    fn shed(shared: &Shared<T>, state: &mut State<T>) {
        let marker = state.queue.iter_mut().find_map(|(_, item)| match item {
            Intake::Overflow { dropped } => Some(dropped),
            _ => None,
        });
        match marker {
            Some(dropped) => {
                *dropped += 1;
                state.dropped_total += 1;
            }
            None => Self::lost(shared, state),
        }
    }

    /// Counts one lost sample and reports it where it happened: the overflow marker at the
    /// back of the queue grows, or a new one is queued.
    fn lost(shared: &Shared<T>, state: &mut State<T>) {
        state.dropped_total += 1;
        match state.queue.back_mut() {
            Some((_, Intake::Overflow { dropped })) => *dropped += 1,
            _ => {
                tracing::warn!(
                    target: "clad_zenoh",
                    capacity = shared.capacity,
                    policy = ?shared.policy,
                    "intake queue full: samples are being lost until the consumer catches up"
                );
                state.queue.push_back((0, Intake::Overflow { dropped: 1 }));
            }
        }
    }
}

/// The queued sample a full [`OverflowPolicy::Shed`] queue sheds for a newcomer of rank
/// `incoming` (`None`: the newcomer itself): the lowest rank, the oldest among equals, where a
/// newcomer as low as the lowest pushes that one out; a newcomer of [`RANK_ALWAYS`] always
/// gets in. Overflow markers are never shed.
fn victim<T>(queue: &VecDeque<(u16, Intake<T>)>, incoming: u16) -> Option<usize> {
    let mut least: Option<(usize, u16)> = None;
    for (i, (rank, item)) in queue.iter().enumerate() {
        if matches!(item, Intake::Overflow { .. }) {
            continue;
        }
        if least.is_none_or(|(_, l)| *rank < l) {
            least = Some((i, *rank));
        }
    }
    match least {
        Some((i, l)) if incoming == RANK_ALWAYS || l <= incoming => Some(i),
        _ => None,
    }
}

/// The consuming end.
pub struct IntakeReceiver<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Drop for IntakeReceiver<T> {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.receiver_alive = false;
        state.queue.clear();
        drop(state);
        self.shared.not_full.notify_all();
    }
}

impl<T> std::fmt::Debug for IntakeReceiver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntakeReceiver")
            .field("capacity", &self.shared.capacity)
            .field("policy", &self.shared.policy)
            .finish_non_exhaustive()
    }
}

impl<T> IntakeReceiver<T> {
    fn pop(&self, state: &mut State<T>) -> Option<Intake<T>> {
        let (_, item) = state.queue.pop_front()?;
        if !matches!(item, Intake::Overflow { .. }) {
            state.counted -= 1;
            self.shared.not_full.notify_one();
        }
        Some(item)
    }

    /// The next item, if one is queued (never blocks: the tick's call).
    pub fn try_recv(&self) -> Option<Intake<T>> {
        let mut state = self.shared.lock();
        self.pop(&mut state)
    }

    /// The next item, waiting up to `timeout`. `None` on timeout, or at once when the queue
    /// is empty and every sender (the subscription) is gone.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Intake<T>> {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        loop {
            if let Some(item) = self.pop(&mut state) {
                return Some(item);
            }
            let now = Instant::now();
            if state.senders == 0 || now >= deadline {
                return None;
            }
            state = self
                .shared
                .not_empty
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// Hands every item queued at the time of the call to `f`, in order, and returns how
    /// many there were (items arriving meanwhile wait for the next call, so a tick never
    /// spins on a busy stream). The tick's one-liner.
    pub fn drain(&self, mut f: impl FnMut(Intake<T>)) -> usize {
        let n = self.len();
        for _ in 0..n {
            // Popped one at a time: `f` runs without the lock held.
            let Some(item) = self.try_recv() else { break };
            f(item);
        }
        n
    }

    /// Items queued now (overflow markers included).
    pub fn len(&self) -> usize {
        self.shared.lock().queue.len()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Samples dropped by the overflow policy since the queue was made.
    pub fn dropped(&self) -> u64 {
        self.shared.lock().dropped_total
    }

    /// The capacity.
    pub fn capacity(&self) -> usize {
        self.shared.capacity
    }
}

/// A sample whose type tag matched `T`, still packed. Holds Zenoh's sample (no copy).
pub struct Packed<T> {
    sample: Sample,
    _type: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Packed<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Packed")
            .field("key", &self.sample.key_expr().as_str())
            .field("len", &self.sample.payload().len())
            .finish()
    }
}

impl<T: Wire> Packed<T> {
    /// The packed bytes as one slice (borrowed unless Zenoh fragmented the sample).
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        self.sample.payload().to_bytes()
    }

    /// The key expression it was published on.
    pub fn key(&self) -> &str {
        self.sample.key_expr().as_str()
    }

    /// Decodes it (strictly, as [`Wire::unpack`]).
    pub fn decode(&self) -> Result<T, ReceiveError> {
        decode_owned(self.key(), &self.bytes())
    }

    /// Decodes it as `T`'s borrowed view and calls `f` with it (the view borrows the
    /// payload, which may have to be gathered into one slice first).
    pub fn with_view<R>(&self, f: impl for<'v> FnOnce(Result<T::View<'v>, ReceiveError>) -> R) -> R
    where
        T: HasView,
    {
        let bytes = self.bytes();
        let view = T::View::unpack_view(&bytes).map_err(|e| undecodable(self.key(), e));
        f(view)
    }
}

/// Subscribes to `key` (`None`: [`key::of::<T>()`](key::of)) and queues every sample whose
/// type tag matches `T` and whose length fits `T` (`Wire::MAX_SIZE`), still packed (the
/// consumer decodes it, e.g. as a borrowed view); refused samples are queued as
/// [`Intake::Refused`]. See the [module docs](self).
pub fn subscribe_packed<T: Wire + 'static>(
    session: &Session,
    key: Option<&str>,
    capacity: usize,
    policy: OverflowPolicy,
) -> Result<(Subscriber, IntakeReceiver<Packed<T>>), Error> {
    packed_into(session, key, bounded(capacity, policy))
}

/// [`subscribe_packed`] into a queue that sheds by `rank` when full
/// ([`OverflowPolicy::Shed`]): `rank` sees each item on Zenoh's thread (a sample may be
/// decoded as a view there to find what it asks for).
pub fn subscribe_packed_ranked<T: Wire + 'static>(
    session: &Session,
    key: Option<&str>,
    capacity: usize,
    rank: impl Fn(&Intake<Packed<T>>) -> u16 + Send + Sync + 'static,
) -> Result<(Subscriber, IntakeReceiver<Packed<T>>), Error> {
    packed_into(session, key, bounded_ranked(capacity, rank))
}

fn packed_into<T: Wire + 'static>(
    session: &Session,
    key: Option<&str>,
    (tx, rx): (IntakeSender<Packed<T>>, IntakeReceiver<Packed<T>>),
) -> Result<(Subscriber, IntakeReceiver<Packed<T>>), Error> {
    let sub = Subscriber::raw(session, &key::resolve::<T>(key), move |sample| {
        let item = match check_sample::<T>(&sample) {
            Ok(_) => Intake::Message(Packed {
                sample,
                _type: PhantomData,
            }),
            Err(e) => Intake::Refused(e),
        };
        tx.push(item);
    })?;
    Ok((sub, rx))
}

/// Subscribes to `key` (`None`: [`key::of::<T>()`](key::of)) and queues every sample decoded
/// as `T` on Zenoh's thread; refused and undecodable samples are queued as
/// [`Intake::Refused`]. See the [module docs](self).
pub fn subscribe_decoded<T: Wire + Send + 'static>(
    session: &Session,
    key: Option<&str>,
    capacity: usize,
    policy: OverflowPolicy,
) -> Result<(Subscriber, IntakeReceiver<T>), Error> {
    let (tx, rx) = bounded(capacity, policy);
    let sub = Subscriber::raw(session, &key::resolve::<T>(key), move |sample| {
        let item = match check_sample::<T>(&sample)
            .and_then(|bytes| decode_owned::<T>(sample.key_expr().as_str(), &bytes))
        {
            Ok(v) => Intake::Message(v),
            Err(e) => Intake::Refused(e),
        };
        tx.push(item);
    })?;
    Ok((sub, rx))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(i: &Intake<u32>) -> Option<u32> {
        match i {
            Intake::Message(v) => Some(*v),
            _ => None,
        }
    }

    #[test]
    fn drop_newest_reports_the_gap_in_place() {
        let (tx, rx) = bounded::<u32>(3, OverflowPolicy::DropNewest);
        for i in 0..5 {
            tx.push(Intake::Message(i));
        }
        assert_eq!(rx.dropped(), 2);
        assert_eq!(rx.try_recv().as_ref().and_then(msg), Some(0));
        tx.push(Intake::Message(5)); // room for one again
        tx.push(Intake::Message(6)); // dropped: second gap
        let rest: Vec<_> = std::iter::from_fn(|| rx.try_recv()).collect();
        let shape: Vec<String> = rest
            .iter()
            .map(|i| match i {
                Intake::Message(v) => v.to_string(),
                Intake::Overflow { dropped } => format!("gap{dropped}"),
                Intake::Refused(_) => "refused".into(),
            })
            .collect();
        assert_eq!(shape, ["1", "2", "gap2", "5", "gap1"]);
        assert_eq!(rx.dropped(), 3);
        tx.push(Intake::Message(7));
        tx.push(Intake::Message(8));
        let mut drained = Vec::new();
        assert_eq!(rx.drain(|i| drained.extend(msg(&i))), 2);
        assert_eq!(drained, [7, 8]);
        assert_eq!(rx.drain(|_| unreachable!()), 0);
    }

    #[test]
    fn block_waits_for_room_then_drops() {
        let (tx, rx) = bounded::<u32>(1, OverflowPolicy::Block(Duration::from_millis(20)));
        assert_eq!(tx.push(Intake::Message(1)), PushOutcome::Queued);
        assert_eq!(tx.push(Intake::Message(2)), PushOutcome::Dropped);
        let consumer = std::thread::spawn(move || {
            let mut got = Vec::new();
            while let Some(item) = rx.recv_timeout(Duration::from_secs(5)) {
                got.extend(msg(&item));
            }
            got
        });
        let (tx2, rx2) = bounded::<u32>(1, OverflowPolicy::Block(Duration::from_secs(5)));
        let consumer2 = std::thread::spawn(move || {
            let mut got = Vec::new();
            while let Some(item) = rx2.recv_timeout(Duration::from_secs(5)) {
                got.extend(msg(&item));
            }
            (got, rx2.dropped())
        });
        for i in 0..1000 {
            assert_eq!(tx2.push(Intake::Message(i)), PushOutcome::Queued);
        }
        drop(tx2);
        drop(tx);
        assert_eq!(consumer.join().unwrap(), [1]);
        let (got, dropped) = consumer2.join().unwrap();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
        assert_eq!(dropped, 0);
    }

    #[test]
    fn shed_keeps_the_important_and_the_newest_and_always_admits_the_top_rank() {
        // Rank: the message's value / 10; 99 is a stop.
        let rank = |i: &Intake<u32>| match i {
            Intake::Message(99) => RANK_ALWAYS,
            Intake::Message(v) => (*v / 10) as u16,
            _ => 0,
        };
        let (tx, rx) = bounded_ranked::<u32>(3, rank);
        for v in [50, 10, 11] {
            assert_eq!(tx.push(Intake::Message(v)), PushOutcome::Queued);
        }
        // As low as the lowest (10 and 11 rank 1): the oldest of them goes.
        assert_eq!(tx.push(Intake::Message(12)), PushOutcome::QueuedShedding);
        // Lower than everything queued: the newcomer goes.
        assert_eq!(tx.push(Intake::Message(5)), PushOutcome::Dropped);
        // A flood, then a stop: the stop is taken.
        for v in 0..1000 {
            tx.push(Intake::Message(60 + v % 30));
        }
        assert_eq!(tx.push(Intake::Message(99)), PushOutcome::QueuedShedding);
        let items: Vec<_> = std::iter::from_fn(|| rx.try_recv()).collect();
        let messages: Vec<u32> = items.iter().filter_map(msg).collect();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages.last(), Some(&99));
        let lost: u64 = items
            .iter()
            .map(|i| match i {
                Intake::Overflow { dropped } => *dropped,
                _ => 0,
            })
            .sum();
        assert_eq!(lost, rx.dropped());
        assert_eq!(lost, 2 + 1000 + 1, "every loss reported");
        assert_eq!(
            items
                .iter()
                .filter(|i| matches!(i, Intake::Overflow { .. }))
                .count(),
            1,
            "in one marker"
        );
        // Stops fill the queue: the oldest stop goes, the newest is taken.
        let (tx, rx) = bounded_ranked::<u32>(2, rank);
        for _ in 0..3 {
            tx.push(Intake::Message(99));
        }
        assert_eq!(rx.dropped(), 1);
        assert_eq!(rx.drain(|_| {}), 3, "two stops and the marker");
        // Without a rank, a shedding queue keeps the newest.
        let (tx, rx) = bounded::<u32>(2, OverflowPolicy::Shed);
        for v in 0..5 {
            tx.push(Intake::Message(v));
        }
        let kept: Vec<u32> = std::iter::from_fn(|| rx.try_recv())
            .filter_map(|i| msg(&i))
            .collect();
        assert_eq!(kept, [3, 4]);
    }

    #[test]
    fn closed_receiver_is_reported_to_the_sender() {
        let (tx, rx) = bounded::<u32>(1, OverflowPolicy::Block(Duration::from_secs(5)));
        tx.push(Intake::Message(1));
        drop(rx);
        assert_eq!(tx.push(Intake::Message(2)), PushOutcome::Closed);
    }
}
