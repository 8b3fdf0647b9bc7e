//! The pending slot: setting, querying, dropping, expiry holds.

use super::*;

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
    #[inline(always)]
    pub(super) fn set_pending_inner(
        &mut self,
        intent: U,
        source: IntentSource,
        matched: Match<U::Tag>,
    ) -> bool {
        let tag = intent.tag();
        self.set_pending_with(move || intent, tag, source, matched, StoredMeta::Defaults)
    }

    /// How important a request for member `tag` of `priority` is (the rule of
    /// [`crate::intent::shed`]: a stop first, then the priority).
    #[inline(always)]
    fn importance(&self, tag: U::Tag, priority: crate::hri::Priority) -> crate::intent::Importance {
        crate::intent::Importance::new(priority, self.stops.contains(U::tag_value(tag)))
    }

    /// The pending-slot policy: the pending intent outranks an incoming one for member `tag`
    /// of `priority` when its own priority is higher (an equal one is replaced: among voice
    /// commands the newest wins, as in the original), unless the incoming one is always
    /// admitted (a stop or cancel, or priority 255: the rule of the input queues,
    /// [`crate::intent::shed`]). Returns the pending intent's priority in that case.
    #[inline(always)]
    fn outranking_priority(
        &self,
        tag: U::Tag,
        priority: crate::hri::Priority,
    ) -> Option<crate::hri::Priority> {
        let pending = self.pending.as_ref()?.priority();
        (pending > priority && !self.importance(tag, priority).always_admitted()).then_some(pending)
    }

    /// True when the pending intent outranks an incoming one for `tag` of `priority` (no
    /// event).
    #[inline(always)]
    pub(super) fn outranked_by_pending(&self, tag: U::Tag, priority: crate::hri::Priority) -> bool {
        self.outranking_priority(tag, priority).is_some()
    }

    /// The pending-slot policy applied: true (and a [`DropReason::LowerPriority`] event for
    /// the incoming intent) when the pending intent outranks an incoming one of `priority`.
    #[inline(always)]
    pub(super) fn refuse_lower(
        &mut self,
        tag: U::Tag,
        source: IntentSource,
        priority: crate::hri::Priority,
    ) -> bool {
        let Some(pending) = self.outranking_priority(tag, priority) else {
            return false;
        };
        tracing::info!(?tag, %priority, %pending, "intent dropped: a higher-priority intent is pending");
        self.emit_with(|| IntentEvent::Dropped {
            tag,
            source,
            reason: DropReason::LowerPriority { priority, pending },
        });
        true
    }

    /// Sets pending the intent `make` returns, of member `tag`. The old one is dropped
    /// first and the new one is built in the assignment itself, so the compiler can
    /// construct it in the slot: the union can be large (its biggest payload) and copying
    /// it costs more than building a void member.
    #[inline(always)]
    pub(super) fn set_pending_with(
        &mut self,
        make: impl FnOnce() -> U,
        tag: U::Tag,
        source: IntentSource,
        matched: Match<U::Tag>,
        meta: StoredMeta,
    ) -> bool {
        let priority = meta.priority();
        if self.refuse_lower(tag, source, priority) {
            return false;
        }
        let old = self.pending.as_ref().map(|p| (p.tag(), p.source));
        self.pending = None;
        self.pending = Some(PendingIntent {
            intent: make(),
            source,
            matched: matched.clone(),
            since_tick: self.tick,
            window_start: self.tick,
            warned: false,
            meta,
        });
        debug_assert!(self.pending.as_ref().is_some_and(|p| p.tag() == tag));
        self.report_pending(old, tag, source, matched);
        true
    }

    /// The events of a new pending intent of member `tag`: `Replaced` (if `old`, the tag
    /// and source of the one it replaced), then `Pending`.
    ///
    /// The caller passes the tag it already knows rather than reading it back from the slot
    /// it has just written: the union is written with wider stores than the tag's load,
    /// and that load would have to wait for them.
    #[inline(always)]
    pub(super) fn report_pending(
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

    /// Sets `intent` pending directly from code, bypassing the maps and the whitelist
    /// (tests, code that decides by itself). Requests from outside the robot, developer tools
    /// included, go through [`submit`](Self::submit) instead. Replaces a pending intent (with
    /// [`IntentEvent::Replaced`]) of equal or lower priority.
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

    pub(super) fn take_pending_requested(&mut self) -> Option<PendingIntent<U>> {
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
}
