//! Cloud and app intake: translation of cloud results, app intents and expanded JSON into
//! pending intents, with the whitelist and the error flag.

use super::*;
use crate::intent::translate::DataBuild;

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
    /// A sender for the transport thread. Messages are handled in order by `update`.
    pub fn cloud_sender(&self) -> CloudSender {
        CloudSender {
            tx: self.queue.tx.clone(),
            queued: self.queue.queued.clone(),
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
                if !self.set_pending_with(
                    || U::default_for(tag),
                    tag,
                    IntentSource::Voice,
                    matched.clone(),
                    None,
                ) {
                    return CloudOutcome::Outranked { tag };
                }
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
    /// `apply`, but the translator builds the payload straight into the pending slot
    /// ([`IntentTranslator::build_cloud_data_into`]): the union is as large as its largest
    /// member, and moving it through the translator's `Result`s and `Translation` cost more
    /// than building a small payload (each move reads bytes just written: store-forwarding
    /// stalls).
    ///
    /// Out of line: its frame (the built union) would otherwise be set up for void intents
    /// too.
    #[inline(never)]
    pub(super) fn handle_cloud_data(
        &mut self,
        intent: &str,
        parameters: &str,
        tag: U::Tag,
        entry: usize,
    ) -> CloudOutcome<U::Tag> {
        // `Match::Cloud` is built where needed: cloning a `Match` is a match over all its
        // variants.
        let map_intent = self.translator.map().cloud[entry].intent;
        if self.refuse_lower(tag, IntentSource::Voice, crate::hri::Priority::DEFAULT) {
            return CloudOutcome::Outranked { tag };
        }
        // The old intent is taken out of the slot first and put back if the build fails (a
        // failed translation leaves it pending). The notes are logged afterwards: logging
        // does not observe the slot, so the order of what anyone sees is unchanged.
        let old = self.pending.take();
        let tick = self.tick;
        let slot = &mut self.pending;
        let build = self
            .translator
            .build_cloud_data_into(tag, entry, parameters, |built| {
                *slot = Some(PendingIntent {
                    intent: built,
                    source: IntentSource::Voice,
                    matched: Match::Cloud { intent: map_intent },
                    since_tick: tick,
                    window_start: tick,
                    warned: false,
                    meta: None,
                });
            });
        let notes = match build {
            DataBuild::Placed { notes } => notes,
            DataBuild::Failed(error) => {
                self.pending = old;
                return self.apply(IntentSource::Voice, intent, Err(error));
            }
            DataBuild::General => {
                self.pending = old;
                let result = self.translator.translate_cloud_raw(intent, parameters);
                return self.apply(IntentSource::Voice, intent, result);
            }
        };
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

    pub(super) fn log_notes(&self, intent: &str, notes: &[Note]) {
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

    pub(super) fn log_ignored_params(&self, intent: &str, params_ignored: bool) {
        if params_ignored {
            tracing::debug!(
                intent,
                "UserIntentComponent.SetIntentPendingFromCloudJSONValue.ExtraData"
            );
        }
    }

    /// A translated intent the whitelist excludes becomes the unmatched intent.
    #[cold]
    pub(super) fn not_whitelisted(
        &mut self,
        tag: U::Tag,
        source: IntentSource,
    ) -> CloudOutcome<U::Tag> {
        tracing::info!(tag = U::tag_name(tag), "UserIntentComponent.NotWhitelisted");
        let matched = Match::Unmatched(UnmatchedReason::NotWhitelisted { tag });
        let unmatched = self.translator.map().unmatched;
        if !self.set_pending_with(
            || U::default_for(unmatched),
            unmatched,
            source,
            matched.clone(),
            None,
        ) {
            return CloudOutcome::Outranked { tag: unmatched };
        }
        CloudOutcome::Pending {
            tag: unmatched,
            matched,
        }
    }

    #[inline(always)]
    pub(super) fn apply(
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
                if !self.set_pending_with(
                    || U::default_for(tag),
                    tag,
                    source,
                    matched.clone(),
                    None,
                ) {
                    return CloudOutcome::Outranked { tag };
                }
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
                if !self.set_pending_inner(t.intent, source, matched.clone()) {
                    return CloudOutcome::Outranked { tag };
                }
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
