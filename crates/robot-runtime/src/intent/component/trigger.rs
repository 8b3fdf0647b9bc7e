//! The trigger word: pending state, expiry, suppression.

use super::*;

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
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
}
