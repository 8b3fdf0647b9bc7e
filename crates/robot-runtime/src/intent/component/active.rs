//! The active slot: activation (claims), guards, deactivation, matcher-based claims.

use super::*;

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
    /// Reports a guard dropped since the last call (every entry point calls this first).
    #[inline]
    pub(super) fn sync_active(&mut self) {
        let dropped = self
            .active
            .as_ref()
            .is_some_and(|a| a.state.load(Ordering::Acquire) == DROPPED);
        if dropped {
            self.report_dropped_guard();
        }
    }

    #[cold]
    #[inline(never)]
    fn report_dropped_guard(&mut self) {
        {
            let a = self.active.take().expect("active");
            self.emit(IntentEvent::Deactivated {
                id: a.info.id,
                tag: a.info.tag(),
                reason: DeactivateReason::GuardDropped,
            });
        }
    }

    pub(super) fn current_active(&self) -> Option<&ActiveCell<U>> {
        self.active
            .as_deref()
            .filter(|a| a.state.load(Ordering::Acquire) == ACTIVE)
    }

    pub(super) fn end_active(&mut self, reason: DeactivateReason) -> Option<ActivationId> {
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

    pub(super) fn release_cell(
        &mut self,
        cell: &Arc<ActiveCell<U>>,
    ) -> Result<(), DeactivateError> {
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

    pub(super) fn activate_if(
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
            // The owner of the active intent moves on to the next one: its old guard
            // becomes inert (`Deactivated { Superseded }`). Another owner must end it first.
            let same_owner = a.info.owner == owner;
            if !replace && !same_owner {
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
                meta: p.meta,
                arrived_tick: p.since_tick,
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
    /// ([`ClaimError::NotPending`]); another owner's intent is active
    /// ([`ClaimError::AlreadyActive`], a typed error where the original overwrote with a
    /// warning). When the active intent belongs to the same `owner`, it is superseded
    /// ([`DeactivateReason::Superseded`]; the old guard becomes inert): an owner holds at most
    /// one intent and moves on to the next (this rule holds for every activation method).
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
}

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
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
