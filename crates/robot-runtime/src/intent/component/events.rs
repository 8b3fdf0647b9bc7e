//! The tick's event buffer, subscribers and tracing.

use super::*;
use crate::hri::{EventSink, HriEvent};

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
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
    pub(super) fn emit(&mut self, ev: IntentEvent<U::Tag>) {
        self.emit_with(move || ev);
    }

    /// Records and announces the event `make` builds. The event is built in the buffer
    /// itself (by the buffer's own `extend`, which writes the item where it goes), then
    /// logged and handed to the listeners by reference: built elsewhere, it would be
    /// copied in with wide loads of the fields just written one by one. Logging and the
    /// listeners cannot observe the buffer, so the order is invisible.
    ///
    /// [`Events`] takes the same steps over the fields it borrows; written over `self`
    /// here, not through it, because the cloud path measured the difference (a request
    /// through `Events` or a shared function over the fields: +33 to +40 instructions, and
    /// two small callers no longer inlined).
    #[inline(always)]
    pub(super) fn emit_with(&mut self, make: impl FnOnce() -> IntentEvent<U::Tag>) {
        if self.events.len() < self.config.max_buffered_events {
            crate::hint::push_in_place(&mut self.events, make);
            self.announce_last();
        } else {
            crate::hint::cold_path();
            let ev = make();
            Self::announce(&mut self.listeners, &ev);
            self.lost_events += 1;
        }
    }

    /// [`announce`](Self::announce) for the event just stored.
    #[inline(never)]
    pub(super) fn announce_last(&mut self) {
        if let Some(ev) = self.events.last() {
            Self::announce(&mut self.listeners, ev);
        }
    }

    /// Logs `ev` with `tracing` at its level and hands it to every listener.
    pub(super) fn announce(
        listeners: &mut [(SubscriptionId, Listener<U::Tag>)],
        ev: &IntentEvent<U::Tag>,
    ) {
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
            | IntentEvent::FlagCleared { flag: Flag::Error }
            | IntentEvent::Hri(HriEvent::Rejected { .. } | HriEvent::Warning { .. }) => {
                log_at!(warn, ev, tag!())
            }
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
}

/// The component's event buffer, subscribers and lost count, borrowed apart from the rest
/// of it: the HRI intake reports into them ([`EventSink`]) while the component lends it
/// the request, so an HRI event is built once, where it stays.
pub(super) struct Events<'c, U: super::super::IntentUnion> {
    pub(super) buffer: &'c mut Vec<IntentEvent<U::Tag>>,
    pub(super) listeners: &'c mut Vec<(SubscriptionId, Listener<U::Tag>)>,
    pub(super) lost: &'c mut u64,
    pub(super) max: usize,
}

impl<U: super::super::IntentUnion> EventSink for Events<'_, U> {
    /// [`IntentComponent::emit_with`]'s steps, over the borrowed fields: the event is
    /// logged once, by [`IntentComponent::announce`] (an HRI rejection or warning at
    /// `warn`), not also as the intake's own buffer logs it.
    #[inline]
    fn put_with(&mut self, make: impl FnOnce() -> HriEvent) {
        if self.buffer.len() < self.max {
            crate::hint::push_in_place(self.buffer, || IntentEvent::Hri(make()));
            if let Some(ev) = self.buffer.last() {
                IntentComponent::<U>::announce(self.listeners, ev);
            }
        } else {
            crate::hint::cold_path();
            IntentComponent::<U>::announce(self.listeners, &IntentEvent::Hri(make()));
            *self.lost += 1;
        }
    }
}
