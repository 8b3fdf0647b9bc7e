//! The sticky flags (unclaimed, error) and the cloud stream state.

use super::*;

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
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

    pub(super) fn clear_error(&mut self) {
        if std::mem::take(&mut self.error) {
            self.emit(IntentEvent::FlagCleared { flag: Flag::Error });
        }
    }

    pub(super) fn set_error(&mut self, cause: CloudErrorCause) {
        self.error = true;
        self.emit(IntentEvent::CloudError { cause });
    }

    /// True between a cloud `streamOpen` and the next result/error/timeout.
    pub fn is_cloud_stream_open(&self) -> bool {
        self.stream_open
    }

    pub(super) fn close_stream(&mut self) {
        if let Some(t) = &mut self.trigger {
            t.will_open_stream = false;
        }
        if std::mem::take(&mut self.stream_open) {
            self.emit(IntentEvent::FlagCleared {
                flag: Flag::StreamOpen,
            });
        }
    }
}
