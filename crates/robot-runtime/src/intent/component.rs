//! [`IntentComponent`]: the pending/active intent state machine (spec §2), with the cloud
//! pipeline in front of it.

use std::fmt;
use std::num::NonZeroU64;
use std::ops::Deref;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::cloud::{CloudEvent, CloudQueue, CloudSender};
use super::event::{
    ActivationId, CloudErrorCause, DeactivateReason, DropReason, Flag, IntentEvent, IntentSource,
    Match, Owner, Reaction, UnmatchedReason,
};
use super::map::StaticIntentMap;
use super::matcher::IntentMatcher;
use super::params;
use super::translate::{
    CloudFast, FeatureGate, IntentTranslator, Note, Raw, TranslateConfig, TranslateError,
    Translation,
};
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
    /// Capacity of the cloud channel (default 64; senders block or fail when it is full).
    pub cloud_queue_capacity: usize,
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
            max_cloud_per_tick: 64,
            max_buffered_events: 1024,
            reaction: TranslateError::default_reaction,
        }
    }
}

/// The pending intent.
#[derive(Clone, Debug)]
pub struct PendingIntent<U: CladUnion> {
    intent: U,
    source: IntentSource,
    matched: Match<U::Tag>,
    since_tick: u64,
    /// Start of the claim window (moves while a `TimeoutHold` is alive).
    window_start: u64,
    warned: bool,
}

impl<U: CladUnion> PendingIntent<U> {
    /// The intent.
    pub fn intent(&self) -> &U {
        &self.intent
    }
    /// Its tag.
    pub fn tag(&self) -> U::Tag {
        self.intent.tag()
    }
    /// Its source.
    pub fn source(&self) -> IntentSource {
        self.source
    }
    /// How it got its tag.
    pub fn matched(&self) -> &Match<U::Tag> {
        &self.matched
    }
    /// The tick it became pending.
    pub fn since_tick(&self) -> u64 {
        self.since_tick
    }
    /// The intent, by value.
    pub fn into_intent(self) -> U {
        self.intent
    }
}

/// The active intent.
#[derive(Debug)]
pub struct ActiveIntent<U: CladUnion> {
    id: ActivationId,
    intent: U,
    source: IntentSource,
    matched: Match<U::Tag>,
    owner: Owner,
    activated_tick: u64,
}

impl<U: CladUnion> ActiveIntent<U> {
    /// The activation ID.
    pub fn id(&self) -> ActivationId {
        self.id
    }
    /// The intent.
    pub fn intent(&self) -> &U {
        &self.intent
    }
    /// Its tag.
    pub fn tag(&self) -> U::Tag {
        self.intent.tag()
    }
    /// Its source.
    pub fn source(&self) -> IntentSource {
        self.source
    }
    /// How it got its tag.
    pub fn matched(&self) -> &Match<U::Tag> {
        &self.matched
    }
    /// Who activated it (a behavior ID).
    pub fn owner(&self) -> &str {
        &self.owner
    }
    /// The tick of activation.
    pub fn activated_tick(&self) -> u64 {
        self.activated_tick
    }
}

const ACTIVE: u8 = 0;
/// The guard was dropped; the component reports `Deactivated { GuardDropped }` on its next
/// call.
const DROPPED: u8 = 1;
/// The component ended the activation (release, supersede, force).
const ENDED: u8 = 2;

#[derive(Debug)]
struct ActiveCell<U: CladUnion> {
    info: ActiveIntent<U>,
    state: AtomicU8,
}

/// Proof of an activation: the intent stays active while this guard lives.
///
/// The guard does not borrow the component: it shares a small cell with it (one `Arc` per
/// activation, no `RefCell`, no `unsafe`), so behaviors can keep it in their own state.
/// Ending the activation:
///
/// * [`ActiveIntentGuard::release`] (`guard.release(&mut component)`): deactivated now,
///   [`IntentEvent::Deactivated`] with [`DeactivateReason::Released`] emitted now;
/// * dropping it: deactivated now as far as every query is concerned (`active()`,
///   `is_active`, a new `activate` all see it at once); the event (reason
///   [`DeactivateReason::GuardDropped`]) is emitted at the component's next `&mut` call.
///
/// A guard whose activation was superseded or forced off is inert ([`is_current`] false).
///
/// [`is_current`]: ActiveIntentGuard::is_current
#[must_use = "dropping the guard deactivates the intent at once"]
pub struct ActiveIntentGuard<U: CladUnion> {
    cell: Arc<ActiveCell<U>>,
}

impl<U: CladUnion> ActiveIntentGuard<U> {
    /// False once the component ended this activation (superseded or forced off).
    pub fn is_current(&self) -> bool {
        self.cell.state.load(Ordering::Acquire) == ACTIVE
    }

    /// The activation data.
    pub fn info(&self) -> &ActiveIntent<U> {
        &self.cell.info
    }

    /// Deactivates now. Fails if `component` is not the one that activated this intent, or
    /// the activation was already ended (superseded / forced).
    pub fn release(self, component: &mut IntentComponent<U>) -> Result<(), DeactivateError>
    where
        U: Serialize + DeserializeOwned + fmt::Debug,
    {
        component.release_cell(&self.cell)
    }
}

impl<U: CladUnion> Deref for ActiveIntentGuard<U> {
    type Target = ActiveIntent<U>;
    fn deref(&self) -> &ActiveIntent<U> {
        &self.cell.info
    }
}

impl<U: CladUnion> Drop for ActiveIntentGuard<U> {
    fn drop(&mut self) {
        let _ =
            self.cell
                .state
                .compare_exchange(ACTIVE, DROPPED, Ordering::AcqRel, Ordering::Acquire);
    }
}

impl<U: CladUnion + fmt::Debug> fmt::Debug for ActiveIntentGuard<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActiveIntentGuard")
            .field("id", &self.cell.info.id)
            .field("tag", &U::tag_name(self.cell.info.tag()))
            .field("current", &self.is_current())
            .finish()
    }
}

/// While alive, pending intents do not expire; when the last hold is dropped, the pending
/// intent gets a fresh claim window. Replaces the original's global
/// `SetUserIntentTimeoutEnabled(bool)`, which could be left disabled by mistake.
#[must_use = "dropping the hold ends it at once"]
#[derive(Debug)]
pub struct TimeoutHold {
    count: Arc<AtomicUsize>,
}

impl Drop for TimeoutHold {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::AcqRel);
    }
}

/// While alive, trigger words are ignored (except from the mute button). Replaces the
/// original's named `DisableEngineResponseToTriggerWord` set.
#[must_use = "dropping the suppression ends it at once"]
#[derive(Debug)]
pub struct TriggerWordSuppression {
    count: Arc<AtomicUsize>,
}

impl Drop for TriggerWordSuppression {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Why an intent could not be activated or dropped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError<T: fmt::Debug> {
    /// What was asked for is not pending (`pending` says what is, if anything).
    #[error("the requested intent is not pending (pending: {pending:?})")]
    NotPending {
        /// The pending tag, if any.
        pending: Option<T>,
    },
    /// Another intent is active; end it first (or use `activate_replacing`).
    #[error("intent {tag:?} is already active ({id})")]
    AlreadyActive {
        /// The active activation.
        id: ActivationId,
        /// Its tag.
        tag: T,
    },
}

/// Why a guard could not be released.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeactivateError {
    /// The activation is not the component's active one (superseded, forced off, or
    /// another component).
    #[error("activation {id} is not active in this component")]
    NotActive {
        /// The guard's activation.
        id: ActivationId,
    },
}

/// What handling a cloud message or app intent did.
#[derive(Clone, Debug, PartialEq)]
pub enum CloudOutcome<T> {
    /// An intent is pending now (possibly the unmatched one).
    Pending {
        /// Its tag.
        tag: T,
        /// How it got it.
        matched: Match<T>,
    },
    /// Translation failed; `reaction` says what the component did (for
    /// [`Reaction::Unmatched`], the unmatched intent is pending).
    Failed {
        /// What went wrong.
        error: TranslateError,
        /// What was done.
        reaction: Reaction,
    },
    /// A cloud `error` / `streamTimeout`: the intent-error flag is set.
    ErrorFlagSet,
    /// `streamOpen`: the stream-open flag is set.
    StreamOpened,
    /// A message the component does not handle.
    Ignored,
}

/// Why [`IntentComponent::handle_expanded_json`] rejected a text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpandedJsonError {
    /// Not JSON.
    #[error("not valid JSON: {reason}")]
    BadJson {
        /// serde_json's message.
        reason: String,
    },
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotAnObject,
    /// No string `"intent"` key (the original's `MissingIntentKey`).
    #[error("no string \"intent\" key")]
    MissingIntentKey,
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
    holds: Arc<AtomicUsize>,
    held: bool,
    suppressions: Arc<AtomicUsize>,
    events: Vec<IntentEvent<U::Tag>>,
    lost_events: u64,
    listeners: Vec<(SubscriptionId, Listener<U::Tag>)>,
    subscriptions: u64,
    queue: CloudQueue,
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

impl<U> IntentComponent<U>
where
    U: CladUnion + Serialize + DeserializeOwned + fmt::Debug,
{
    /// A component for `map` with the default configuration.
    pub fn new(map: &'static StaticIntentMap<U::Tag>) -> Self {
        Self::with_config(map, IntentConfig::default())
    }

    /// A component with `config`.
    pub fn with_config(map: &'static StaticIntentMap<U::Tag>, config: IntentConfig) -> Self {
        Self {
            translator: IntentTranslator::with_config(map, config.translate),
            queue: CloudQueue::new(config.cloud_queue_capacity),
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
            holds: Arc::new(AtomicUsize::new(0)),
            held: false,
            suppressions: Arc::new(AtomicUsize::new(0)),
            lost_events: 0,
            listeners: Vec::new(),
            subscriptions: 0,
        }
    }

    // ----- configuration -----------------------------------------------------------------

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

    /// Restricts cloud and app intents to these tags: any other tag they map to becomes the
    /// unmatched intent ([`UnmatchedReason::NotWhitelisted`]). The unmatched tag itself is
    /// always allowed; intents set directly (`set_pending`) are not filtered.
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

    /// True when cloud/app intents may map to `tag`.
    pub fn is_whitelisted(&self, tag: U::Tag) -> bool {
        tag == self.translator.map().unmatched
            || self
                .whitelist
                .map_or(true, |w| w.contains(U::tag_value(tag)))
    }

    // ----- ticking -------------------------------------------------------------------------

    /// The current tick (0 before the first `update`).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// One tick, called before the behaviors run: starts a new event buffer, reports
    /// dropped guards, handles every queued cloud message in order (up to
    /// `max_cloud_per_tick`), then expires the trigger word and the pending intent.
    pub fn update(&mut self) {
        self.tick += 1;
        self.events.clear();
        self.sync_active();
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
            match self.queue.rx.try_recv() {
                Ok(ev) => {
                    self.handle_cloud(ev);
                }
                Err(_) => break,
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

    // ----- events --------------------------------------------------------------------------

    /// Events since the start of the current tick's `update` (the buffer is cleared there).
    /// Any number of readers may look at it during the tick.
    pub fn events(&self) -> &[IntentEvent<U::Tag>] {
        &self.events
    }

    /// Takes the buffered events.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, IntentEvent<U::Tag>> {
        self.events.drain(..)
    }

    /// Events not buffered because the buffer was full (they were still logged and given
    /// to subscribers).
    pub fn lost_events(&self) -> u64 {
        self.lost_events
    }

    /// Calls `listener` with every event, synchronously, as it happens.
    pub fn subscribe(
        &mut self,
        listener: impl FnMut(&IntentEvent<U::Tag>) + Send + 'static,
    ) -> SubscriptionId {
        self.subscriptions += 1;
        let id = SubscriptionId(self.subscriptions);
        self.listeners.push((id, Box::new(listener)));
        id
    }

    /// Removes a subscriber; false if unknown.
    pub fn unsubscribe(&mut self, id: SubscriptionId) -> bool {
        let before = self.listeners.len();
        self.listeners.retain(|(i, _)| *i != id);
        self.listeners.len() != before
    }

    #[inline(always)]
    fn emit(&mut self, ev: IntentEvent<U::Tag>) {
        self.emit_with(move || ev);
    }

    /// Records and announces the event `make` builds. Stored first, built by the buffer's
    /// own extend (which writes the item where it goes): copying an event that was just
    /// written field by field reads it back with wider loads than the stores, a
    /// store-forwarding stall per event. Logging and the listeners then see the stored
    /// event; they cannot observe the buffer, so the order is invisible.
    #[inline(always)]
    fn emit_with(&mut self, make: impl FnOnce() -> IntentEvent<U::Tag>) {
        if self.events.len() < self.config.max_buffered_events {
            self.events.extend(core::iter::once_with(make));
            self.announce_last();
        } else {
            let ev = make();
            Self::announce(&mut self.listeners, &ev);
            self.lost_events += 1;
        }
    }

    /// [`announce`](Self::announce) for the event just stored.
    #[inline(never)]
    fn announce_last(&mut self) {
        if let Some(ev) = self.events.last() {
            Self::announce(&mut self.listeners, ev);
        }
    }

    /// Logs `ev` with `tracing` at its level and hands it to every listener.
    fn announce(listeners: &mut [(SubscriptionId, Listener<U::Tag>)], ev: &IntentEvent<U::Tag>) {
        // A macro, not a local: `tracing` evaluates field values only when the level is
        // enabled, so the tag name costs nothing when nobody listens.
        macro_rules! tag {
            () => {
                event_tag(ev).map_or("", U::tag_name)
            };
        }
        match ev {
            IntentEvent::Dropped {
                reason: DropReason::Expired { .. },
                ..
            }
            | IntentEvent::TriggerWordDropped => log_at!(error, ev, tag!()),
            IntentEvent::Replaced { .. }
            | IntentEvent::ClaimDeadlineNear { .. }
            | IntentEvent::Unclaimed { .. }
            | IntentEvent::TriggerWordPending { replaced: true, .. }
            | IntentEvent::TriggerWordDeadlineNear
            | IntentEvent::TranslateFailed { .. }
            | IntentEvent::CloudError { .. }
            | IntentEvent::CloudIgnored { .. }
            | IntentEvent::FlagCleared { flag: Flag::Error } => log_at!(warn, ev, tag!()),
            IntentEvent::Pending { .. }
            | IntentEvent::Activated { .. }
            | IntentEvent::Deactivated { .. }
            | IntentEvent::TriggerWordPending { .. }
            | IntentEvent::TriggerWordSuppressed => log_at!(info, ev, tag!()),
            _ => log_at!(debug, ev, tag!()),
        }
        for (_, l) in listeners {
            l(ev);
        }
    }

    // ----- pending -------------------------------------------------------------------------

    #[inline(always)]
    fn set_pending_inner(&mut self, intent: U, source: IntentSource, matched: Match<U::Tag>) {
        let tag = intent.tag();
        self.set_pending_with(move || intent, tag, source, matched);
    }

    /// Sets pending the intent `make` returns, of member `tag`. The old one is dropped
    /// first and the new one is built in the assignment itself, so the compiler can
    /// construct it in the slot: the union can be large (its biggest payload) and copying
    /// it costs more than building a void member.
    #[inline(always)]
    fn set_pending_with(
        &mut self,
        make: impl FnOnce() -> U,
        tag: U::Tag,
        source: IntentSource,
        matched: Match<U::Tag>,
    ) {
        let old = self.pending.as_ref().map(|p| (p.tag(), p.source));
        self.pending = None;
        self.pending = Some(PendingIntent {
            intent: make(),
            source,
            matched: matched.clone(),
            since_tick: self.tick,
            window_start: self.tick,
            warned: false,
        });
        debug_assert!(self.pending.as_ref().is_some_and(|p| p.tag() == tag));
        self.report_pending(old, tag, source, matched);
    }

    /// The events of a new pending intent of member `tag`: `Replaced` (if `old`, the tag
    /// and source of the one it replaced), then `Pending`.
    ///
    /// The caller passes the tag it already knows: reading it back from the slot just
    /// written costs a store-forwarding stall when the union was written with wider
    /// stores than the load.
    #[inline(always)]
    fn report_pending(
        &mut self,
        old: Option<(U::Tag, IntentSource)>,
        tag: U::Tag,
        source: IntentSource,
        matched: Match<U::Tag>,
    ) {
        if let Some((old, old_source)) = old {
            self.emit_with(|| IntentEvent::Replaced {
                old,
                old_source,
                new: tag,
            });
        }
        self.emit_with(|| IntentEvent::Pending {
            tag,
            source,
            matched,
        });
    }

    /// Sets `intent` pending directly, bypassing the map and the whitelist (dev tools,
    /// tests, code). Replaces a pending intent (with [`IntentEvent::Replaced`]).
    pub fn set_pending(&mut self, intent: U, source: IntentSource) {
        self.sync_active();
        self.set_pending_inner(intent, source, Match::Direct);
    }

    /// Sets member `tag` with its default payload pending (`U::default_for(tag)`).
    pub fn set_pending_tag(&mut self, tag: U::Tag, source: IntentSource) {
        self.set_pending(U::default_for(tag), source);
    }

    /// The pending intent.
    pub fn pending(&self) -> Option<&PendingIntent<U>> {
        self.pending.as_ref()
    }

    /// The pending intent's tag.
    pub fn pending_tag(&self) -> Option<U::Tag> {
        self.pending.as_ref().map(PendingIntent::tag)
    }

    /// True when an intent is pending.
    pub fn is_any_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// True when an intent with `tag` is pending.
    pub fn is_pending(&self, tag: U::Tag) -> bool {
        self.pending_tag() == Some(tag)
    }

    /// Removes the pending intent if it has `tag` (else nothing changes).
    pub fn drop_pending(&mut self, tag: U::Tag) -> Result<PendingIntent<U>, ClaimError<U::Tag>> {
        self.sync_active();
        if self.pending_tag() != Some(tag) {
            let pending = self.pending_tag();
            tracing::warn!(
                requested = U::tag_name(tag),
                pending = pending.map_or("", U::tag_name),
                "UserIntentComponent.DropUserIntent.NotPending"
            );
            return Err(ClaimError::NotPending { pending });
        }
        Ok(self.take_pending_requested().expect("pending"))
    }

    /// Removes whatever is pending.
    pub fn drop_any_pending(&mut self) -> Option<PendingIntent<U>> {
        self.sync_active();
        let p = self.take_pending_requested();
        if p.is_none() {
            tracing::warn!("UserIntentComponent.DropAnyUserIntent.NothingPending");
        }
        p
    }

    fn take_pending_requested(&mut self) -> Option<PendingIntent<U>> {
        let p = self.pending.take()?;
        self.emit(IntentEvent::Dropped {
            tag: p.tag(),
            source: p.source,
            reason: DropReason::Requested,
        });
        Some(p)
    }

    /// Suspends expiry of pending intents while the returned hold lives.
    pub fn hold_timeout(&mut self) -> TimeoutHold {
        let before = self.holds.fetch_add(1, Ordering::AcqRel);
        if before == 0 && !self.held {
            self.held = true;
            self.emit(IntentEvent::TimeoutHeld);
        }
        TimeoutHold {
            count: self.holds.clone(),
        }
    }

    /// True while a [`TimeoutHold`] is alive.
    pub fn is_timeout_held(&self) -> bool {
        self.holds.load(Ordering::Acquire) > 0
    }

    // ----- active --------------------------------------------------------------------------

    fn sync_active(&mut self) {
        let dropped = self
            .active
            .as_ref()
            .is_some_and(|a| a.state.load(Ordering::Acquire) == DROPPED);
        if dropped {
            let a = self.active.take().expect("active");
            self.emit(IntentEvent::Deactivated {
                id: a.info.id,
                tag: a.info.tag(),
                reason: DeactivateReason::GuardDropped,
            });
        }
    }

    fn current_active(&self) -> Option<&ActiveCell<U>> {
        self.active
            .as_deref()
            .filter(|a| a.state.load(Ordering::Acquire) == ACTIVE)
    }

    fn end_active(&mut self, reason: DeactivateReason) -> Option<ActivationId> {
        let a = self.active.take()?;
        let _ = a
            .state
            .compare_exchange(ACTIVE, ENDED, Ordering::AcqRel, Ordering::Acquire);
        let id = a.info.id;
        self.emit(IntentEvent::Deactivated {
            id,
            tag: a.info.tag(),
            reason,
        });
        Some(id)
    }

    fn release_cell(&mut self, cell: &Arc<ActiveCell<U>>) -> Result<(), DeactivateError> {
        match &self.active {
            Some(a) if Arc::ptr_eq(a, cell) && a.state.load(Ordering::Acquire) == ACTIVE => {
                self.end_active(DeactivateReason::Released);
                Ok(())
            }
            _ => {
                tracing::error!(id = %cell.info.id, "UserIntentComponent.DeactivateUserIntent.NotActive");
                Err(DeactivateError::NotActive { id: cell.info.id })
            }
        }
    }

    fn activate_if(
        &mut self,
        check: impl FnOnce(&U) -> bool,
        owner: Owner,
        replace: bool,
    ) -> Result<ActiveIntentGuard<U>, ClaimError<U::Tag>> {
        self.sync_active();
        match &self.pending {
            Some(p) if check(&p.intent) => {}
            other => {
                let pending = other.as_ref().map(PendingIntent::tag);
                tracing::error!(
                    pending = pending.map_or("", U::tag_name),
                    %owner,
                    "UserIntentComponent.ActivateUserIntent.NoActive"
                );
                return Err(ClaimError::NotPending { pending });
            }
        }
        if let Some(a) = self.current_active() {
            if !replace {
                let (id, tag) = (a.info.id, a.info.tag());
                tracing::error!(
                    active = U::tag_name(tag),
                    %id,
                    %owner,
                    "UserIntentComponent.ActivateIntent.IntentAlreadyActive"
                );
                return Err(ClaimError::AlreadyActive { id, tag });
            }
            self.end_active(DeactivateReason::Superseded);
        }
        let p = self.pending.take().expect("pending");
        self.activations += 1;
        let id = ActivationId(NonZeroU64::new(self.activations).expect("starts at 1"));
        let tag = p.tag();
        let cell = Arc::new(ActiveCell {
            info: ActiveIntent {
                id,
                intent: p.intent,
                source: p.source,
                matched: p.matched,
                owner: owner.clone(),
                activated_tick: self.tick,
            },
            state: AtomicU8::new(ACTIVE),
        });
        self.active = Some(cell.clone());
        self.emit(IntentEvent::Activated {
            id,
            tag,
            source: p.source,
            owner,
        });
        Ok(ActiveIntentGuard { cell })
    }

    /// Moves the pending intent with `tag` to active. Errors: `tag` is not pending
    /// ([`ClaimError::NotPending`]); another intent is active ([`ClaimError::AlreadyActive`],
    /// a typed error where the original overwrote with a warning).
    pub fn activate(
        &mut self,
        tag: U::Tag,
        owner: impl Into<Owner>,
    ) -> Result<ActiveIntentGuard<U>, ClaimError<U::Tag>> {
        self.activate_if(|u| u.tag() == tag, owner.into(), false)
    }

    /// Like [`activate`](Self::activate), but ends an active intent first
    /// ([`DeactivateReason::Superseded`]; its guard becomes inert).
    pub fn activate_replacing(
        &mut self,
        tag: U::Tag,
        owner: impl Into<Owner>,
    ) -> Result<ActiveIntentGuard<U>, ClaimError<U::Tag>> {
        self.activate_if(|u| u.tag() == tag, owner.into(), true)
    }

    /// Ends the active intent, if any ([`DeactivateReason::Forced`]; its guard becomes inert).
    pub fn force_deactivate(&mut self) -> Option<ActivationId> {
        self.sync_active();
        self.end_active(DeactivateReason::Forced)
    }

    /// The active intent.
    pub fn active(&self) -> Option<&ActiveIntent<U>> {
        self.current_active().map(|a| &a.info)
    }

    /// The active intent's tag.
    pub fn active_tag(&self) -> Option<U::Tag> {
        self.active().map(ActiveIntent::tag)
    }

    /// True when an intent is active.
    pub fn is_any_active(&self) -> bool {
        self.active().is_some()
    }

    /// True when an intent with `tag` is active.
    pub fn is_active(&self, tag: U::Tag) -> bool {
        self.active_tag() == Some(tag)
    }

    /// True when something is pending or active (the `AnyUserIntent` condition).
    pub fn is_any_pending_or_active(&self) -> bool {
        self.is_any_pending() || self.is_any_active()
    }

    // ----- flags ---------------------------------------------------------------------------

    /// True once a pending intent expired unclaimed (sticky).
    pub fn was_unclaimed(&self) -> bool {
        self.unclaimed
    }

    /// Clears the unclaimed flag.
    pub fn reset_unclaimed(&mut self) {
        self.sync_active();
        if std::mem::take(&mut self.unclaimed) {
            self.emit(IntentEvent::FlagCleared {
                flag: Flag::Unclaimed,
            });
        }
    }

    /// True once the cloud reported an error or timeout (sticky; also cleared by the next
    /// result or trigger word).
    pub fn was_error(&self) -> bool {
        self.error
    }

    /// Clears the intent-error flag.
    pub fn reset_error(&mut self) {
        self.sync_active();
        self.clear_error();
    }

    fn clear_error(&mut self) {
        if std::mem::take(&mut self.error) {
            self.emit(IntentEvent::FlagCleared { flag: Flag::Error });
        }
    }

    fn set_error(&mut self, cause: CloudErrorCause) {
        self.error = true;
        self.emit(IntentEvent::CloudError { cause });
    }

    /// True between a cloud `streamOpen` and the next result/error/timeout.
    pub fn is_cloud_stream_open(&self) -> bool {
        self.stream_open
    }

    fn close_stream(&mut self) {
        if let Some(t) = &mut self.trigger {
            t.will_open_stream = false;
        }
        if std::mem::take(&mut self.stream_open) {
            self.emit(IntentEvent::FlagCleared {
                flag: Flag::StreamOpen,
            });
        }
    }

    // ----- trigger word --------------------------------------------------------------------

    /// The wake word was heard. Returns false when ignored because a
    /// [`TriggerWordSuppression`] is alive (never for `from_mute`). A pending trigger word is
    /// replaced (they don't queue); a stale error flag is cleared.
    pub fn set_trigger_word_pending(&mut self, will_open_stream: bool, from_mute: bool) -> bool {
        self.sync_active();
        if !from_mute && self.suppressions.load(Ordering::Acquire) > 0 {
            self.emit(IntentEvent::TriggerWordSuppressed);
            return false;
        }
        let replaced = self.trigger.is_some();
        let ticks = if from_mute {
            self.config.trigger_from_mute_deadline_ticks
        } else {
            self.config.trigger_deadline_ticks
        };
        self.trigger = Some(TriggerWord {
            will_open_stream,
            deadline: self.tick + ticks,
            warned: false,
        });
        self.clear_error();
        self.emit(IntentEvent::TriggerWordPending {
            will_open_stream,
            from_mute,
            replaced,
        });
        true
    }

    /// True while a trigger word is pending.
    pub fn is_trigger_word_pending(&self) -> bool {
        self.trigger.is_some()
    }

    /// True when the pending trigger word will open a cloud stream.
    pub fn will_pending_trigger_word_open_stream(&self) -> bool {
        self.trigger.is_some_and(|t| t.will_open_stream)
    }

    /// Clears the pending trigger word; false (and a warning) if none was pending.
    pub fn clear_trigger_word(&mut self) -> bool {
        self.sync_active();
        if self.trigger.take().is_some() {
            self.emit(IntentEvent::TriggerWordCleared);
            true
        } else {
            tracing::warn!("UserIntentComponent.ClearPendingTriggerWord.NothingPending");
            false
        }
    }

    /// Ignores trigger words (except from mute) while the returned guard lives.
    pub fn suppress_trigger_word(&mut self) -> TriggerWordSuppression {
        self.suppressions.fetch_add(1, Ordering::AcqRel);
        TriggerWordSuppression {
            count: self.suppressions.clone(),
        }
    }

    // ----- cloud and app -------------------------------------------------------------------

    /// A sender for the transport thread. Messages are handled in order by `update`.
    pub fn cloud_sender(&self) -> CloudSender {
        CloudSender {
            tx: self.queue.tx.clone(),
        }
    }

    /// Handles one cloud message now (what `update` does for each queued message).
    ///
    /// * `Result` → [`handle_cloud_result`](Self::handle_cloud_result);
    /// * `Error` / `StreamTimeout` → intent-error flag, stream closed, "will stream" cleared;
    /// * `StreamOpen` → stream-open flag;
    /// * `Other` → [`IntentEvent::CloudIgnored`].
    pub fn handle_cloud(&mut self, event: CloudEvent) -> CloudOutcome<U::Tag> {
        self.sync_active();
        match event {
            CloudEvent::Result {
                intent, parameters, ..
            } => self.handle_cloud_result(&intent, &parameters),
            CloudEvent::Error { error, extra } => {
                self.close_stream();
                self.set_error(CloudErrorCause::Error { error, extra });
                CloudOutcome::ErrorFlagSet
            }
            CloudEvent::StreamTimeout => {
                self.close_stream();
                self.set_error(CloudErrorCause::StreamTimeout);
                CloudOutcome::ErrorFlagSet
            }
            CloudEvent::StreamOpen { .. } => {
                if !std::mem::replace(&mut self.stream_open, true) {
                    self.emit(IntentEvent::StreamOpened);
                }
                CloudOutcome::StreamOpened
            }
            CloudEvent::Other { message } => {
                self.emit(IntentEvent::CloudIgnored { message });
                CloudOutcome::Ignored
            }
        }
    }

    /// Handles a cloud `result` now: closes the stream, clears "will stream" and a stale
    /// error flag, translates, applies the whitelist, and sets the intent pending with
    /// source `Voice` — or applies the configured [`Reaction`] to a [`TranslateError`].
    pub fn handle_cloud_result(&mut self, intent: &str, parameters: &str) -> CloudOutcome<U::Tag> {
        self.sync_active();
        self.close_stream();
        self.clear_error();
        match self.translator.cloud_fast(intent, parameters) {
            CloudFast::Void {
                tag,
                intent: map_intent,
                params_ignored,
            } if self.is_whitelisted(tag) => {
                // Void intents (most voice commands): no translation result to carry around.
                self.log_ignored_params(intent, params_ignored);
                let matched = Match::Cloud { intent: map_intent };
                self.set_pending_with(
                    || U::default_for(tag),
                    tag,
                    IntentSource::Voice,
                    matched.clone(),
                );
                CloudOutcome::Pending { tag, matched }
            }
            CloudFast::Data { tag, entry } if self.is_whitelisted(tag) => {
                self.handle_cloud_data(intent, parameters, tag, entry)
            }
            // Everything else, and intents the whitelist excludes (reported once the
            // translation succeeded, as the full path does).
            _ => {
                let result = self.translator.translate_cloud_raw(intent, parameters);
                self.apply(IntentSource::Voice, intent, result)
            }
        }
    }

    /// The data-intent path of [`handle_cloud_result`](Self::handle_cloud_result) for a
    /// whitelisted [`CloudFast::Data`] entry. Same result as `translate_cloud_raw` +
    /// `apply`, but the payload is built in this frame and moved from the build's result
    /// into the pending slot: the union is as large as its largest member, and moving it
    /// through the translator's `Result`s and `Translation` cost more than building a
    /// small payload (each move reads bytes just written: store-forwarding stalls).
    ///
    /// Out of line: its frame (slot storage, the built union) would otherwise be set up
    /// for void intents too.
    #[inline(never)]
    fn handle_cloud_data(
        &mut self,
        intent: &str,
        parameters: &str,
        tag: U::Tag,
        entry: usize,
    ) -> CloudOutcome<U::Tag> {
        // `Match::Cloud` is built where needed: cloning a `Match` is a match over all its
        // variants.
        let map_intent = self.translator.map().cloud[entry].intent;
        let mut storage = params::SlotStorage::new();
        let mut c = self.translator.data_collector(entry, &mut storage);
        if let Err(error) = self.translator.collect_data(tag, &mut c, parameters) {
            return self.apply(IntentSource::Voice, intent, Err(error));
        }
        let notes = std::mem::take(&mut c.notes);
        let slots = c.slots;
        let Some(shape) = self.translator.data_shape(tag) else {
            // `cloud_fast` only answers `Data` for members with a shape; should that ever
            // change, the full path gives the same answer.
            let result = self.translator.translate_cloud_raw(intent, parameters);
            return self.apply(IntentSource::Voice, intent, result);
        };
        // The built union goes from the build's result straight into the pending slot,
        // with no `Result`/`Translation` layers to move it through. The old intent is
        // taken out of the slot first and put back if the build fails (a failed
        // translation leaves it pending). The notes are logged afterwards: logging does
        // not observe the slot, so the order of what anyone sees is unchanged.
        let old = self.pending.take();
        match params::build_direct::<U>(tag, shape, slots) {
            Some(Ok(built)) => {
                self.pending = Some(PendingIntent {
                    intent: built,
                    source: IntentSource::Voice,
                    matched: Match::Cloud { intent: map_intent },
                    since_tick: self.tick,
                    window_start: self.tick,
                    warned: false,
                });
            }
            _ => {
                self.pending = old;
                return self.handle_cloud_data_slow(intent, parameters, tag, entry, slots, notes);
            }
        }
        // Read and dropped in place: mapping `old` by value would move it again. (Dropped
        // after the new intent is in place, where `set_pending_with` drops it before: no
        // one can tell.)
        let replaced = old.as_ref().map(|p| (p.tag(), p.source));
        drop(old);
        // `deserialize_struct_member(tag, ..)` builds member `tag`.
        debug_assert!(self.pending.as_ref().is_some_and(|p| p.tag() == tag));
        self.log_notes(intent, &notes);
        self.report_pending(
            replaced,
            tag,
            IntentSource::Voice,
            Match::Cloud { intent: map_intent },
        );
        CloudOutcome::Pending {
            tag,
            matched: Match::Cloud { intent: map_intent },
        }
    }

    /// [`handle_cloud_data`](Self::handle_cloud_data) when the direct build does not apply
    /// or fails: the general build (other routes, the field to blame), then `apply`.
    #[cold]
    #[inline(never)]
    fn handle_cloud_data_slow(
        &mut self,
        intent: &str,
        parameters: &str,
        tag: U::Tag,
        entry: usize,
        slots: &[Option<params::Slot<'_>>],
        notes: Vec<Note>,
    ) -> CloudOutcome<U::Tag> {
        let Some(shape) = self.translator.data_shape(tag) else {
            // Not reached (`handle_cloud_data` checked the shape); the full path answers.
            let result = self.translator.translate_cloud_raw(intent, parameters);
            return self.apply(IntentSource::Voice, intent, result);
        };
        let result = IntentTranslator::<U>::build_from_slots(tag, shape, slots);
        let result = result.map(|built| {
            Raw::Built(Translation {
                intent: built,
                matched: Match::Cloud {
                    intent: self.translator.map().cloud[entry].intent,
                },
                params_ignored: false,
                notes,
            })
        });
        self.apply(IntentSource::Voice, intent, result)
    }

    fn log_notes(&self, intent: &str, notes: &[Note]) {
        for note in notes {
            tracing::debug!(intent, ?note, "UserIntentComponent.Translate.Note");
        }
    }

    /// Handles a datagram from the cloud process that does not decode (the robot's decode
    /// of `CloudMic::Message` failed): like a cloud `error`, the stream is closed and the
    /// intent-error flag set (so the robot can react), with
    /// [`CloudErrorCause::Undecodable`] in the [`IntentEvent::CloudError`] event (logged).
    /// The original could not receive such a message at all; dropping it silently would
    /// leave the user without an answer.
    pub fn handle_undecodable(&mut self, error: crate::wire::UnpackError) -> CloudOutcome<U::Tag> {
        self.sync_active();
        self.close_stream();
        self.set_error(CloudErrorCause::Undecodable { error });
        CloudOutcome::ErrorFlagSet
    }

    /// Handles an app intent (`AppIntent { intent, param }`) now, with source `App`.
    pub fn handle_app_intent(&mut self, intent: &str, param: &str) -> CloudOutcome<U::Tag> {
        self.sync_active();
        let result = self.translator.translate_app_raw(intent, param);
        self.apply(IntentSource::App, intent, result)
    }

    /// The original's `SetCloudIntentPendingFromExpandedJSON` (tests, dev tools):
    /// `{"intent": "...", "params": {...}}` with real JSON parameters. Handled like a
    /// `result` whose `parameters` is the text of `params`.
    pub fn handle_expanded_json(
        &mut self,
        text: &str,
    ) -> Result<CloudOutcome<U::Tag>, ExpandedJsonError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ExpandedJsonError::BadJson {
                reason: e.to_string(),
            })?;
        let obj = value.as_object().ok_or(ExpandedJsonError::NotAnObject)?;
        let intent = obj
            .get("intent")
            .and_then(serde_json::Value::as_str)
            .ok_or(ExpandedJsonError::MissingIntentKey)?;
        let params = match obj.get("params") {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(p) => p.to_string(),
        };
        Ok(self.handle_cloud_result(intent, &params))
    }

    fn log_ignored_params(&self, intent: &str, params_ignored: bool) {
        if params_ignored {
            tracing::debug!(
                intent,
                "UserIntentComponent.SetIntentPendingFromCloudJSONValue.ExtraData"
            );
        }
    }

    /// A translated intent the whitelist excludes becomes the unmatched intent.
    #[cold]
    fn not_whitelisted(&mut self, tag: U::Tag, source: IntentSource) -> CloudOutcome<U::Tag> {
        tracing::info!(tag = U::tag_name(tag), "UserIntentComponent.NotWhitelisted");
        let matched = Match::Unmatched(UnmatchedReason::NotWhitelisted { tag });
        let unmatched = self.translator.map().unmatched;
        self.set_pending_with(
            || U::default_for(unmatched),
            unmatched,
            source,
            matched.clone(),
        );
        CloudOutcome::Pending {
            tag: unmatched,
            matched,
        }
    }

    #[inline(always)]
    fn apply(
        &mut self,
        source: IntentSource,
        intent_str: &str,
        result: Result<Raw<U>, TranslateError>,
    ) -> CloudOutcome<U::Tag> {
        match result {
            Ok(Raw::Void {
                tag,
                matched,
                params_ignored,
            }) => {
                self.log_ignored_params(intent_str, params_ignored);
                if !self.is_whitelisted(tag) {
                    return self.not_whitelisted(tag, source);
                }
                // Void members are built in the pending slot itself.
                self.set_pending_with(|| U::default_for(tag), tag, source, matched.clone());
                CloudOutcome::Pending { tag, matched }
            }
            Ok(Raw::Built(t)) => {
                self.log_notes(intent_str, &t.notes);
                self.log_ignored_params(intent_str, t.params_ignored);
                let tag = t.intent.tag();
                if !self.is_whitelisted(tag) {
                    return self.not_whitelisted(tag, source);
                }
                // Moved once, straight from the translation into the pending slot.
                let matched = t.matched;
                self.set_pending_inner(t.intent, source, matched.clone());
                CloudOutcome::Pending { tag, matched }
            }
            Err(error) => {
                let reaction = (self.config.reaction)(&error);
                self.emit(IntentEvent::TranslateFailed {
                    source,
                    intent: intent_str.into(),
                    error: error.clone(),
                    reaction,
                });
                match reaction {
                    Reaction::Unmatched => {
                        let u = U::default_for(self.translator.map().unmatched);
                        self.set_pending_inner(
                            u,
                            source,
                            Match::Unmatched(UnmatchedReason::TranslateFailed),
                        );
                    }
                    Reaction::ErrorFlag => self.set_error(CloudErrorCause::BadResult),
                    Reaction::Drop => {}
                }
                CloudOutcome::Failed { error, reaction }
            }
        }
    }
}

impl<U> IntentComponent<U>
where
    U: CladUnion + Serialize + DeserializeOwned + fmt::Debug + PartialEq,
{
    /// True when the pending intent matches `matcher`.
    pub fn pending_matches(&self, matcher: &IntentMatcher<U>) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|p| matcher.matches(&p.intent))
    }

    /// The first matcher of `list` the pending intent satisfies (pure: nothing is
    /// remembered; activate with [`activate_matching`](Self::activate_matching)).
    pub fn first_pending_match<'a>(
        &self,
        list: &'a [IntentMatcher<U>],
    ) -> Option<&'a IntentMatcher<U>> {
        let p = self.pending.as_ref()?;
        IntentMatcher::first_match(list, &p.intent)
    }

    /// True when the active intent matches `matcher`.
    pub fn active_matches(&self, matcher: &IntentMatcher<U>) -> bool {
        self.active().is_some_and(|a| matcher.matches(&a.intent))
    }

    /// Activates the pending intent if it matches `matcher` (errors as for
    /// [`activate`](Self::activate)).
    pub fn activate_matching(
        &mut self,
        matcher: &IntentMatcher<U>,
        owner: impl Into<Owner>,
    ) -> Result<ActiveIntentGuard<U>, ClaimError<U::Tag>> {
        self.activate_if(|u| matcher.matches(u), owner.into(), false)
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
        _ => None,
    }
}
