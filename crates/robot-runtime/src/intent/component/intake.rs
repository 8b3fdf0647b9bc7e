//! Cloud and app intake: cloud results, app intents and expanded JSON become pending
//! intents through one pipeline, each check in one place:
//!
//! 1. **resolve** ([`IntentTranslator::resolve`]): an empty or unknown intent, the map
//!    lookup, the feature gate, simple voice responses → a member, or the unmatched member
//!    with the reason;
//! 2. **payload**: nothing for a member without payload fields; for the others the
//!    translator reads the parameters and builds the payload
//!    ([`IntentTranslator::build_data`], [`IntentTranslator::simple_voice`]); a failure is
//!    reported with its [`Reaction`] (`fail`);
//! 3. **whitelist** (`is_whitelisted`): a member it excludes becomes the unmatched intent;
//! 4. **the pending-slot policy** (`refuse_lower`): an intent the pending one outranks is
//!    dropped.
//!
//! A data intent that passes steps 3 and 4 (the common case) is built straight into the
//! pending slot: the union is as large as its largest member, and building it elsewhere
//! and moving it in costs more than building a small payload.

use super::*;
use crate::intent::map::SimpleVoiceResponse;
use crate::intent::translate::{MappedEntry, Params, Resolved, Side, Translation};

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
        self.intake(
            IntentSource::Voice,
            Side::Cloud,
            intent,
            Params::Json(parameters),
        )
    }

    /// The intake pipeline of the module docs, for a request from `source` looked up in
    /// `side`'s table.
    #[inline(always)]
    fn intake(
        &mut self,
        source: IntentSource,
        side: Side,
        intent: &str,
        params: Params<'_>,
    ) -> CloudOutcome<U::Tag> {
        match self.translator.resolve(side, intent, params) {
            Resolved::Void {
                entry,
                params_ignored,
            } => {
                self.log_ignored_params(intent, params_ignored);
                // `side` is known here, so is the match's variant: its clones cost nothing
                // and the member is built in the pending slot.
                self.pend_void(source, entry.tag(), entry.matched())
            }
            Resolved::Unmatched {
                reason,
                params_ignored,
            } => {
                self.log_ignored_params(intent, params_ignored);
                self.pend_unmatched(source, reason)
            }
            Resolved::Data(data) => self.pend_data(source, intent, data, params),
            Resolved::SimpleVoice { response, tag } => {
                self.pend_simple_voice(source, intent, response, tag, params)
            }
        }
    }

    /// Steps 2 to 4 for a simple voice response. Out of line, as
    /// [`pend_data`](Self::pend_data).
    #[inline(never)]
    fn pend_simple_voice(
        &mut self,
        source: IntentSource,
        intent: &str,
        response: &'static SimpleVoiceResponse,
        tag: U::Tag,
        params: Params<'_>,
    ) -> CloudOutcome<U::Tag> {
        let result = self.translator.simple_voice(response, tag, params);
        self.pend_translation(source, intent, result)
    }

    /// Steps 3 and 4 for the unmatched member. Out of line: the reason's variants (an
    /// unknown intent's name) make its clones costly, which the mapped path should not see.
    #[inline(never)]
    fn pend_unmatched(
        &mut self,
        source: IntentSource,
        reason: UnmatchedReason<U::Tag>,
    ) -> CloudOutcome<U::Tag> {
        let unmatched = self.translator.map().unmatched;
        self.pend_void(source, unmatched, Match::Unmatched(reason))
    }

    /// Steps 3 and 4 for a member without payload fields, built in the pending slot itself.
    #[inline(always)]
    fn pend_void(
        &mut self,
        source: IntentSource,
        tag: U::Tag,
        matched: Match<U::Tag>,
    ) -> CloudOutcome<U::Tag> {
        if !self.is_whitelisted(tag) {
            return self.not_whitelisted(tag, source);
        }
        if !self.set_pending_with(|| U::default_for(tag), tag, source, matched.clone(), None) {
            return CloudOutcome::Outranked { tag };
        }
        CloudOutcome::Pending { tag, matched }
    }

    /// Steps 2 to 4 for a member with payload fields. When the member is whitelisted and
    /// the pending intent does not outrank it, the payload is built straight into the
    /// pending slot; otherwise it is built aside (its errors are reported all the same)
    /// and the later steps decide.
    ///
    /// Out of line: its frame (the built union) would otherwise be set up for void intents
    /// too.
    #[inline(never)]
    fn pend_data(
        &mut self,
        source: IntentSource,
        intent: &str,
        data: MappedEntry<U::Tag>,
        params: Params<'_>,
    ) -> CloudOutcome<U::Tag> {
        let tag = data.tag();
        if !self.is_whitelisted(tag) || self.outranked_by_pending(crate::hri::Priority::DEFAULT) {
            let result = self
                .translator
                .build_data(&data, params, |built| built)
                .map(|(intent, notes)| Translation {
                    intent,
                    matched: data.matched(),
                    params_ignored: false,
                    notes,
                });
            return self.pend_translation(source, intent, result);
        }
        // The old intent is taken out of the slot first and put back if the build fails (a
        // failed translation leaves it pending). The notes are logged afterwards: logging
        // does not observe the slot, so the order of what anyone sees is unchanged.
        let old = self.pending.take();
        let tick = self.tick;
        let slot = &mut self.pending;
        let built = self.translator.build_data(&data, params, |built| {
            *slot = Some(PendingIntent {
                intent: built,
                source,
                matched: data.matched(),
                since_tick: tick,
                window_start: tick,
                warned: false,
                meta: None,
            });
        });
        let notes = match built {
            Ok(((), notes)) => notes,
            Err(error) => {
                self.pending = old;
                return self.fail(source, intent, error);
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
        self.report_pending(replaced, tag, source, data.matched());
        CloudOutcome::Pending {
            tag,
            matched: data.matched(),
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
        self.intake(IntentSource::App, Side::App, intent, Params::App(param))
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

    /// Steps 3 and 4 for a translated intent (a simple voice response, or a data intent
    /// built aside), or its failure.
    fn pend_translation(
        &mut self,
        source: IntentSource,
        intent: &str,
        result: Result<Translation<U>, TranslateError>,
    ) -> CloudOutcome<U::Tag> {
        let t = match result {
            Ok(t) => t,
            Err(error) => return self.fail(source, intent, error),
        };
        self.log_notes(intent, &t.notes);
        self.log_ignored_params(intent, t.params_ignored);
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

    /// A failed translation: the event, then the configured [`Reaction`].
    #[cold]
    fn fail(
        &mut self,
        source: IntentSource,
        intent: &str,
        error: TranslateError,
    ) -> CloudOutcome<U::Tag> {
        let reaction = (self.config.reaction)(&error);
        self.emit(IntentEvent::TranslateFailed {
            source,
            intent: intent.into(),
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
