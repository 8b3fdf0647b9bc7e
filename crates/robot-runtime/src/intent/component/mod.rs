//! [`IntentComponent`]: the pending/active intent state machine (spec §2), with the cloud
//! pipeline in front of it.
//!
//! One concept per sub-module: [`state`] (the slots and the handles lent out),
//! [`outcome`] (typed results), `pending`, `active`, `trigger`, `flags`, `events` and
//! `intake` (cloud/app translation) each hold the methods of that concern.

use std::fmt;
use std::num::NonZeroU64;
use std::ops::Deref;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use super::cloud::{CloudEvent, CloudQueue, CloudSender, RankCloud};
use super::event::{
    ActivationId, CloudErrorCause, DeactivateReason, DropReason, Flag, IntentEvent, IntentSource,
    Match, Owner, Reaction, UnmatchedReason,
};
use super::map::StaticIntentMap;
use super::matcher::IntentMatcher;
use super::meta::{IntentMeta, StoredMeta};
use super::translate::{FeatureGate, IntentTranslator, Note, TranslateConfig, TranslateError};
use crate::union::CladUnion;

/// Settings of an [`IntentComponent`]. All deadlines are in ticks (`update` calls).
#[derive(Clone, Debug)]
pub struct IntentConfig {
    /// A pending intent not claimed after this many ticks is dropped and the unclaimed flag
    /// set (default 3, the original's `kMaxTicksToClear`: an intent set pending during tick
    /// T is visible to behaviors at T, T+1 and T+2). At least 1.
    pub claim_deadline_ticks: u64,
    /// Age at which [`IntentEvent::ClaimDeadlineNear`] is reported (default 2).
    pub claim_warning_ticks: u64,
    /// A pending trigger word expires after this many ticks (default 3).
    pub trigger_deadline_ticks: u64,
    /// ... or this many when it came from the mute button (default 120).
    pub trigger_from_mute_deadline_ticks: u64,
    /// Translation settings (numeric mode, strictness, size limit).
    pub translate: TranslateConfig,
    /// Capacity of the cloud channel (default 64; a full channel sheds by importance, see
    /// [`crate::intent::shed`]).
    pub cloud_queue_capacity: usize,
    /// Capacity of the queue of HRI requests waiting for the mission controller (default 64;
    /// sheds by importance like every input queue, never a stop).
    pub mission_queue_capacity: usize,
    /// The HRI intake's settings (reading, confidence bands, de-duplication, expiry).
    pub hri: crate::hri::IntakeConfig,
    /// At most this many cloud messages are handled per `update` (default 64), so a flooding
    /// sender cannot stall a tick; the rest wait for the next tick, in order.
    pub max_cloud_per_tick: usize,
    /// At most this many events are buffered between two `update`s (default 1024); more
    /// are still logged and given to subscribers, and counted by
    /// [`IntentComponent::lost_events`].
    pub max_buffered_events: usize,
    /// What to do when a translation fails (default [`TranslateError::default_reaction`]).
    pub reaction: fn(&TranslateError) -> Reaction,
}

impl Default for IntentConfig {
    fn default() -> Self {
        Self {
            claim_deadline_ticks: 3,
            claim_warning_ticks: 2,
            trigger_deadline_ticks: 3,
            trigger_from_mute_deadline_ticks: 120,
            translate: TranslateConfig::default(),
            cloud_queue_capacity: 64,
            mission_queue_capacity: 64,
            hri: crate::hri::IntakeConfig::default(),
            max_cloud_per_tick: 64,
            max_buffered_events: 1024,
            reaction: TranslateError::default_reaction,
        }
    }
}

/// Identifies a subscriber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubscriptionId(u64);

type Listener<T> = Box<dyn FnMut(&IntentEvent<T>) + Send>;

#[derive(Clone, Copy, Debug)]
struct TriggerWord {
    will_open_stream: bool,
    deadline: u64,
    warned: bool,
}

/// 256-bit tag set (by wire tag value).
#[derive(Clone, Copy, Debug, Default)]
struct TagSet([u64; 4]);

impl TagSet {
    fn insert(&mut self, v: u8) {
        self.0[usize::from(v >> 6)] |= 1 << (v & 63);
    }
    fn contains(&self, v: u8) -> bool {
        self.0[usize::from(v >> 6)] & (1 << (v & 63)) != 0
    }
}

/// The user-intent component: at most one pending and one active intent, the trigger word,
/// the sticky flags, and the cloud/app translation in front of them. See the
/// [module documentation](super) for the tick model and the event stream.
pub struct IntentComponent<U: CladUnion> {
    translator: IntentTranslator<U>,
    config: IntentConfig,
    tick: u64,
    pending: Option<PendingIntent<U>>,
    active: Option<Arc<ActiveCell<U>>>,
    activations: u64,
    trigger: Option<TriggerWord>,
    unclaimed: bool,
    error: bool,
    stream_open: bool,
    whitelist: Option<TagSet>,
    /// The members a stop or cancel request maps to (from the HRI map): always admitted.
    stops: TagSet,
    holds: Arc<AtomicUsize>,
    held: bool,
    suppressions: Arc<AtomicUsize>,
    events: Vec<IntentEvent<U::Tag>>,
    lost_events: u64,
    listeners: Vec<(SubscriptionId, Listener<U::Tag>)>,
    subscriptions: u64,
    queue: CloudQueue,
    /// The HRI intake (read, validate, envelope, expiry, confidence, de-duplication).
    hri: crate::hri::HriIntake,
    /// The HRI map (`None`: no HRI intent maps to a member).
    hri_map: Option<&'static crate::hri::StaticHriMap<U::Tag>>,
    /// Admitted HRI requests routed to the mission controller, waiting for it.
    missions: crate::intent::shed::ShedQueue<crate::hri::IntentRecord>,
}

impl<U: CladUnion> fmt::Debug for IntentComponent<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let active = self
            .active
            .as_ref()
            .filter(|a| a.state.load(Ordering::Acquire) == ACTIVE);
        f.debug_struct("IntentComponent")
            .field("union", &U::NAME)
            .field("tick", &self.tick)
            .field(
                "pending",
                &self.pending.as_ref().map(|p| U::tag_name(p.tag())),
            )
            .field("active", &active.map(|a| U::tag_name(a.info.tag())))
            .field("trigger_word", &self.trigger.is_some())
            .field("unclaimed", &self.unclaimed)
            .field("error", &self.error)
            .field("stream_open", &self.stream_open)
            .finish_non_exhaustive()
    }
}

macro_rules! log_at {
    ($lvl:ident, $ev:expr, $tag:expr) => {
        tracing::$lvl!(tag = $tag, event = ?$ev, "{}", $ev.name())
    };
}

mod active;
mod events;
mod flags;
mod intake;
mod outcome;
mod pending;
mod state;
mod trigger;

pub use outcome::{ClaimError, DeactivateError, ExpandedJsonError, IntakeOutcome, NotAdmitted};
use state::{ActiveCell, ACTIVE, DROPPED, ENDED};
pub use state::{
    ActiveIntent, ActiveIntentGuard, PendingIntent, TimeoutHold, TriggerWordSuppression,
};

impl<U> IntentComponent<U>
where
    U: super::IntentUnion,
{
    /// A component for `map` with the default configuration.
    pub fn new(map: &'static StaticIntentMap<U::Tag>) -> Self {
        Self::with_config(map, IntentConfig::default())
    }

    /// A component with `config`.
    pub fn with_config(map: &'static StaticIntentMap<U::Tag>, config: IntentConfig) -> Self {
        Self {
            translator: IntentTranslator::with_config(map, config.translate),
            queue: CloudQueue::new(config.cloud_queue_capacity, Self::cloud_rank(map, None)),
            hri: crate::hri::HriIntake::new(config.hri.clone()),
            hri_map: None,
            missions: crate::intent::shed::ShedQueue::new(config.mission_queue_capacity),
            events: Vec::with_capacity(32),
            config,
            tick: 0,
            pending: None,
            active: None,
            activations: 0,
            trigger: None,
            unclaimed: false,
            error: false,
            stream_open: false,
            whitelist: None,
            stops: TagSet::default(),
            holds: Arc::new(AtomicUsize::new(0)),
            held: false,
            suppressions: Arc::new(AtomicUsize::new(0)),
            lost_events: 0,
            listeners: Vec::new(),
            subscriptions: 0,
        }
    }

    /// How the cloud channel ranks a message: a `result` by its entry's member.
    fn cloud_rank(
        map: &'static StaticIntentMap<U::Tag>,
        hri: Option<&'static crate::hri::StaticHriMap<U::Tag>>,
    ) -> RankCloud {
        let ranker = crate::intent::Ranker::new(map, hri);
        Box::new(move |ev| match ev {
            CloudEvent::Result { intent, .. } => ranker.cloud_result(intent),
            _ => crate::intent::Importance::NORMAL,
        })
    }

    // ----- configuration -----------------------------------------------------------------

    /// Takes ROS4HRI intents through `map` (`hri_intent_map.json`, compiled by
    /// `robot-codegen`'s `HriMap`): which member each becomes, and whether it goes to the
    /// behaviors, the mission controller or both.
    pub fn set_hri_map(&mut self, map: &'static crate::hri::StaticHriMap<U::Tag>) {
        self.hri_map = Some(map);
        self.stops = TagSet::default();
        for e in map.entries {
            if map.is_stop_member(e.tag) {
                self.stops.insert(U::tag_value(e.tag));
            }
        }
        self.queue
            .set_rank(Self::cloud_rank(self.translator.map(), Some(map)));
    }

    /// The HRI map, when set.
    pub fn hri_map(&self) -> Option<&'static crate::hri::StaticHriMap<U::Tag>> {
        self.hri_map
    }

    /// Ranks requests for full input queues with this component's maps
    /// ([`crate::intent::shed`]).
    pub fn ranker(&self) -> crate::intent::Ranker<U::Tag> {
        crate::intent::Ranker::new(self.translator.map(), self.hri_map)
    }

    /// The HRI intake (its settings; [`HriIntake::note_state_change`](crate::hri::HriIntake::note_state_change)
    /// when the robot's state changed by itself).
    pub fn hri_intake_mut(&mut self) -> &mut crate::hri::HriIntake {
        &mut self.hri
    }

    /// The configuration.
    pub fn config(&self) -> &IntentConfig {
        &self.config
    }

    /// The translator (map, feature gate, translation settings).
    pub fn translator(&self) -> &IntentTranslator<U> {
        &self.translator
    }

    /// The translator, to change its feature gate or settings.
    pub fn translator_mut(&mut self) -> &mut IntentTranslator<U> {
        &mut self.translator
    }

    /// Shorthand for `translator_mut().set_feature_gate(gate)`: evaluated at every lookup.
    pub fn set_feature_gate(&mut self, gate: impl FeatureGate + 'static) {
        self.translator.set_feature_gate(gate);
    }

    /// Restricts requests to these tags: any other tag a request maps to (from any source:
    /// cloud, app, HRI, a developer tool's member) becomes the unmatched intent
    /// ([`UnmatchedReason::NotWhitelisted`]). The unmatched tag itself is always allowed;
    /// intents code sets directly (`set_pending`) are not filtered.
    pub fn set_whitelist(&mut self, tags: impl IntoIterator<Item = U::Tag>) {
        let mut set = TagSet::default();
        for t in tags {
            set.insert(U::tag_value(t));
        }
        self.whitelist = Some(set);
    }

    /// Removes the whitelist.
    pub fn clear_whitelist(&mut self) {
        self.whitelist = None;
    }

    /// True when requests may map to `tag`.
    pub fn is_whitelisted(&self, tag: U::Tag) -> bool {
        tag == self.translator.map().unmatched
            || self.whitelist.is_none_or(|w| w.contains(U::tag_value(tag)))
    }

    // ----- ticking -------------------------------------------------------------------------

    /// The current tick (0 before the first `update`).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// One tick, called before the behaviors run: starts a new event buffer, reports
    /// dropped guards and the cloud messages a full channel shed, handles every queued cloud
    /// message in order (up to `max_cloud_per_tick`), then expires the trigger word and the
    /// pending intent.
    pub fn update(&mut self) {
        self.tick += 1;
        self.events.clear();
        self.sync_active();
        let shed = self.queue.take_shed();
        if shed > 0 {
            self.emit(IntentEvent::InputsShed {
                source: IntentSource::Voice,
                count: shed,
            });
        }
        let held = self.holds.load(Ordering::Acquire) > 0;
        if self.held && !held {
            self.held = false;
            if let Some(p) = &mut self.pending {
                p.window_start = self.tick;
                p.warned = false;
            }
            self.emit(IntentEvent::TimeoutResumed);
        }
        for _ in 0..self.config.max_cloud_per_tick {
            match self.queue.try_recv() {
                Some(ev) => {
                    self.submit(ev);
                }
                None => break,
            }
        }
        self.expire_trigger_word();
        self.expire_pending();
    }

    fn expire_pending(&mut self) {
        let tick = self.tick;
        let held = self.holds.load(Ordering::Acquire) > 0;
        let Some(p) = &mut self.pending else {
            return;
        };
        if held {
            p.window_start = tick;
            p.warned = false;
            return;
        }
        let age = tick.saturating_sub(p.window_start);
        if age >= self.config.claim_deadline_ticks {
            let p = self.pending.take().expect("pending");
            let (tag, source) = (p.tag(), p.source);
            self.emit(IntentEvent::Dropped {
                tag,
                source,
                reason: DropReason::Expired { age_ticks: age },
            });
            self.unclaimed = true;
            self.emit(IntentEvent::Unclaimed { tag, source });
        } else if age >= self.config.claim_warning_ticks && !p.warned {
            p.warned = true;
            let tag = p.tag();
            self.emit(IntentEvent::ClaimDeadlineNear {
                tag,
                age_ticks: age,
            });
        }
    }

    fn expire_trigger_word(&mut self) {
        let tick = self.tick;
        let Some(t) = &mut self.trigger else {
            return;
        };
        if tick >= t.deadline {
            self.trigger = None;
            self.emit(IntentEvent::TriggerWordDropped);
        } else if tick + 1 >= t.deadline && !t.warned {
            t.warned = true;
            self.emit(IntentEvent::TriggerWordDeadlineNear);
        }
    }
}

fn event_tag<T: Copy>(ev: &IntentEvent<T>) -> Option<T> {
    match ev {
        IntentEvent::Pending { tag, .. }
        | IntentEvent::ClaimDeadlineNear { tag, .. }
        | IntentEvent::Dropped { tag, .. }
        | IntentEvent::Unclaimed { tag, .. }
        | IntentEvent::Activated { tag, .. }
        | IntentEvent::Deactivated { tag, .. } => Some(*tag),
        IntentEvent::Replaced { new, .. } => Some(*new),
        IntentEvent::ToMissions { tag, .. } => Some(*tag),
        _ => None,
    }
}
