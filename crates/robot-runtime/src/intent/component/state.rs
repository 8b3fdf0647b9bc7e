//! What the component holds: the pending intent, the active intent (shared with its
//! guard), and the RAII handles it lends out (guard, timeout hold, trigger-word suppression).

use super::*;

/// The pending intent.
#[derive(Clone, Debug)]
pub struct PendingIntent<U: CladUnion> {
    pub(super) intent: U,
    pub(super) source: IntentSource,
    pub(super) matched: Match<U::Tag>,
    pub(super) since_tick: u64,
    /// Start of the claim window (moves while a `TimeoutHold` is alive).
    pub(super) window_start: u64,
    pub(super) warned: bool,
    /// Its metadata ([`StoredMeta::Defaults`]: the honest defaults of its source).
    pub(super) meta: StoredMeta,
}

impl<U: CladUnion> PendingIntent<U> {
    /// Its metadata: source, modality, priority, confidence, arrival tick (the defaults of
    /// [`IntentMeta::for_source`] when it came without any).
    pub fn meta(&self) -> IntentMeta {
        self.meta.get(self.source, self.since_tick)
    }

    /// Its priority (128 unless its metadata says otherwise).
    pub fn priority(&self) -> crate::hri::Priority {
        self.meta.priority()
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
    pub(super) id: ActivationId,
    pub(super) intent: U,
    pub(super) source: IntentSource,
    pub(super) matched: Match<U::Tag>,
    pub(super) owner: Owner,
    pub(super) activated_tick: u64,
    /// The pending intent's metadata.
    pub(super) meta: StoredMeta,
    /// The tick it became pending.
    pub(super) arrived_tick: u64,
}

impl<U: CladUnion> ActiveIntent<U> {
    /// Its metadata (carried over from the pending intent).
    pub fn meta(&self) -> IntentMeta {
        self.meta.get(self.source, self.arrived_tick)
    }
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
    pub fn owner(&self) -> &Owner {
        &self.owner
    }
    /// The tick of activation.
    pub fn activated_tick(&self) -> u64 {
        self.activated_tick
    }
}

pub(super) const ACTIVE: u8 = 0;
/// The guard was dropped; the component reports `Deactivated { GuardDropped }` on its next
/// call.
pub(super) const DROPPED: u8 = 1;
/// The component ended the activation (release, supersede, force).
pub(super) const ENDED: u8 = 2;

#[derive(Debug)]
pub(super) struct ActiveCell<U: CladUnion> {
    pub(super) info: ActiveIntent<U>,
    pub(super) state: AtomicU8,
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
    pub(super) cell: Arc<ActiveCell<U>>,
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
        U: super::super::IntentUnion,
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
    pub(super) count: Arc<AtomicUsize>,
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
    pub(super) count: Arc<AtomicUsize>,
}

impl Drop for TriggerWordSuppression {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::AcqRel);
    }
}
