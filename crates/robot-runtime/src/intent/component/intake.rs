//! The one intake: every request, whatever its source ([`Request`]: a cloud message, an
//! app intent, a ROS4HRI message as JSON, fields or an undecodable transport message, a
//! developer tool's member), enters through [`IntentComponent::submit`] and gets one
//! [`IntakeOutcome`]. Each check is written once, here:
//!
//! 1. **read** (HRI requests only): the [`HriIntake`](crate::hri::HriIntake) reads,
//!    validates, stamps the envelope, drops stale, low-confidence and duplicated requests
//!    (each an [`IntentEvent::Hri`]; the outcome [`IntakeOutcome::NotAdmitted`]);
//! 2. **resolve** — the lookup and the feature gate: a cloud or app intent through
//!    [`IntentTranslator::resolve`] (the map's tables, simple voice responses), an HRI intent
//!    through the HRI map ([`StaticHriMap::lookup`](crate::hri::StaticHriMap::lookup)) and
//!    the same gate ([`IntentTranslator::enabled`]); an unknown intent or a gated entry
//!    becomes the unmatched member with the reason, from every source alike;
//! 3. **payload**: nothing for a member without payload fields; for the others the
//!    translator reads the parameters ([`IntentTranslator::build_data`],
//!    [`IntentTranslator::simple_voice`]) or the HRI entry copies the roles
//!    ([`HriMapEntry::build`](crate::hri::HriMapEntry::build)); a failure is reported with
//!    its [`Reaction`] (`fail`);
//! 4. **whitelist** (`is_whitelisted`): a member it excludes becomes the unmatched intent;
//! 5. **route** (HRI requests): the map entry says whether the request goes to the
//!    behaviors, the mission controller or both; a request for the mission controller waits
//!    for it in a queue that sheds by importance ([`IntentComponent::take_mission_requests`]:
//!    the seam where the arbiter of the robot's body takes it);
//! 6. **the pending-slot policy** (`refuse_lower`): an intent of lower priority than the
//!    pending one is dropped, unless it is a stop (always admitted, as in the input queues:
//!    [`crate::intent::shed`]); an HRI request carries its priority ([`IntentMeta`]), the
//!    others 128.
//!
//! A data intent that passes steps 4 and 6 (the common case) is built straight into the
//! pending slot: the union is as large as its largest member, and building it elsewhere
//! and moving it in costs more than building a small payload.

use super::*;
use crate::hri::{Admission, Envelope, FieldIn, HriIntent, IntentIn, IntentRecord, RejectedIntent};
use crate::intent::map::SimpleVoiceResponse;
use crate::intent::request::{CloudRequest, HriMessage, HriRequest, IntentRequest, Request};
use crate::intent::translate::{MappedEntry, Params, Resolved, Side, Translation};

impl<U> IntentComponent<U>
where
    U: super::super::IntentUnion,
{
    /// A sender for the transport thread. Messages are handled in order by `update`.
    pub fn cloud_sender(&self) -> CloudSender {
        CloudSender {
            shared: self.queue.shared.clone(),
        }
    }

    /// The one intake: takes `request` from any source now and says what became of it. The
    /// steps, each written once for every source: read (an HRI request: validation, envelope,
    /// expiry, confidence, de-duplication), lookup and feature gate (the user-intent map, or
    /// the HRI map), payload, whitelist, route (an HRI request: behaviors, mission controller
    /// or both), pending-slot policy.
    #[inline]
    pub fn submit(&mut self, request: impl IntentRequest<U>) -> IntakeOutcome<U::Tag> {
        request.with_request(|r| self.take(r))
    }

    /// [`submit`](Self::submit), showing the decoded request to `seen` first (a robot
    /// describes the input from the same decode: nothing is decoded twice).
    #[inline]
    pub fn submit_with<R>(
        &mut self,
        request: impl IntentRequest<U>,
        seen: impl FnOnce(&Request<'_, U>) -> R,
    ) -> (IntakeOutcome<U::Tag>, R) {
        request.with_request(|r| {
            let said = seen(&r);
            (self.take(r), said)
        })
    }

    /// The dispatch to each kind's steps, each out of line: this stays small enough to be
    /// inlined into every caller, and each kind's steps are compiled as one function with
    /// the pipeline inlined in it.
    #[inline(always)]
    fn take(&mut self, request: Request<'_, U>) -> IntakeOutcome<U::Tag> {
        match request {
            Request::Cloud(CloudRequest::Result { intent, parameters }) => {
                self.take_cloud_result(intent, parameters)
            }
            Request::Cloud(other) => self.take_cloud_message(other),
            Request::App { intent, param } => self.take_app(intent, param),
            Request::Hri(hri) => self.take_hri(hri),
            Request::Direct(intent) => self.take_direct(intent),
        }
    }

    /// A cloud `result`: closes the stream, clears "will stream" and a stale error flag,
    /// then steps 2 to 6.
    #[inline(never)]
    fn take_cloud_result(&mut self, intent: &str, parameters: &str) -> IntakeOutcome<U::Tag> {
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

    /// An app intent: steps 2 to 6.
    #[inline(never)]
    fn take_app(&mut self, intent: &str, param: &str) -> IntakeOutcome<U::Tag> {
        self.sync_active();
        self.intake(IntentSource::App, Side::App, intent, Params::App(param))
    }

    /// A cloud message that is no `result`:
    ///
    /// * `error` / `streamTimeout` → intent-error flag, stream closed, "will stream" cleared;
    /// * `streamOpen` → stream-open flag;
    /// * any other member → [`IntentEvent::CloudIgnored`];
    /// * a datagram that does not decode → like an `error`, with
    ///   [`CloudErrorCause::Undecodable`] in the event: the original could not receive such a
    ///   message at all; dropping it silently would leave the user without an answer.
    #[inline(never)]
    fn take_cloud_message(&mut self, message: CloudRequest<'_>) -> IntakeOutcome<U::Tag> {
        self.sync_active();
        match message {
            CloudRequest::Result { .. } => unreachable!("taken by `take`"),
            CloudRequest::Error { error, extra } => {
                self.close_stream();
                self.set_error(CloudErrorCause::Error {
                    error,
                    extra: extra.to_owned(),
                });
                IntakeOutcome::ErrorFlagSet
            }
            CloudRequest::StreamTimeout => {
                self.close_stream();
                self.set_error(CloudErrorCause::StreamTimeout);
                IntakeOutcome::ErrorFlagSet
            }
            CloudRequest::StreamOpen => {
                if !std::mem::replace(&mut self.stream_open, true) {
                    self.emit(IntentEvent::StreamOpened);
                }
                IntakeOutcome::StreamOpened
            }
            CloudRequest::Other { message } => {
                self.emit(IntentEvent::CloudIgnored { message });
                IntakeOutcome::Ignored
            }
            CloudRequest::Undecodable { error, .. } => {
                self.close_stream();
                self.set_error(CloudErrorCause::Undecodable { error });
                IntakeOutcome::ErrorFlagSet
            }
        }
    }

    /// Shorthand for [`submit`](Self::submit) of a cloud message.
    pub fn handle_cloud(&mut self, event: CloudEvent) -> IntakeOutcome<U::Tag> {
        self.submit(event)
    }

    /// Shorthand for [`submit`](Self::submit) of a cloud `result` ([`Request::cloud_result`]):
    /// closes the stream, clears "will stream" and a stale error flag, translates, applies
    /// the whitelist, and sets the intent pending with source `Voice` — or applies the
    /// configured [`Reaction`] to a [`TranslateError`].
    pub fn handle_cloud_result(&mut self, intent: &str, parameters: &str) -> IntakeOutcome<U::Tag> {
        self.submit(Request::cloud_result(intent, parameters))
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
    ) -> IntakeOutcome<U::Tag> {
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
    ) -> IntakeOutcome<U::Tag> {
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
    ) -> IntakeOutcome<U::Tag> {
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
    ) -> IntakeOutcome<U::Tag> {
        if !self.is_whitelisted(tag) {
            return self.not_whitelisted(tag, source, StoredMeta::Defaults);
        }
        if !self.set_pending_with(
            || U::default_for(tag),
            tag,
            source,
            matched.clone(),
            StoredMeta::Defaults,
        ) {
            return IntakeOutcome::Outranked { tag };
        }
        IntakeOutcome::Pending { tag, matched }
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
    ) -> IntakeOutcome<U::Tag> {
        let tag = data.tag();
        if !self.is_whitelisted(tag)
            || self.outranked_by_pending(tag, crate::hri::Priority::DEFAULT)
        {
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
                meta: StoredMeta::Defaults,
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
        IntakeOutcome::Pending {
            tag,
            matched: data.matched(),
        }
    }

    /// Logs a translation's notes (no call when there are none, the usual case).
    #[inline]
    pub(super) fn log_notes(&self, intent: &str, notes: &[Note]) {
        if !notes.is_empty() {
            Self::log_each_note(intent, notes);
        }
    }

    #[inline(never)]
    fn log_each_note(intent: &str, notes: &[Note]) {
        for note in notes {
            tracing::debug!(intent, ?note, "UserIntentComponent.Translate.Note");
        }
    }

    /// Shorthand for [`submit`](Self::submit) of a datagram from the cloud process that does
    /// not decode (the robot's decode of `CloudMic::Message` failed): the stream is closed
    /// and the intent-error flag set, with [`CloudErrorCause::Undecodable`] in the event.
    pub fn handle_undecodable(&mut self, error: crate::wire::UnpackError) -> IntakeOutcome<U::Tag> {
        self.submit(Request::Cloud(CloudRequest::Undecodable {
            error,
            bytes: &[],
        }))
    }

    /// Shorthand for [`submit`](Self::submit) of an app intent (`AppIntent { intent, param
    /// }`), with source `App`.
    pub fn handle_app_intent(&mut self, intent: &str, param: &str) -> IntakeOutcome<U::Tag> {
        self.submit(Request::App { intent, param })
    }

    /// The original's `SetCloudIntentPendingFromExpandedJSON` (tests, dev tools):
    /// `{"intent": "...", "params": {...}}` with real JSON parameters. Handled like a
    /// `result` whose `parameters` is the text of `params`.
    pub fn handle_expanded_json(
        &mut self,
        text: &str,
    ) -> Result<IntakeOutcome<U::Tag>, ExpandedJsonError> {
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
        meta: StoredMeta,
    ) -> IntakeOutcome<U::Tag> {
        tracing::info!(tag = U::tag_name(tag), "UserIntentComponent.NotWhitelisted");
        self.pend_unmatched_with(source, UnmatchedReason::NotWhitelisted { tag }, meta)
    }

    /// The unmatched member pending for `reason`, with the request's metadata.
    #[cold]
    fn pend_unmatched_with(
        &mut self,
        source: IntentSource,
        reason: UnmatchedReason<U::Tag>,
        meta: StoredMeta,
    ) -> IntakeOutcome<U::Tag> {
        let matched = Match::Unmatched(reason);
        let unmatched = self.translator.map().unmatched;
        if !self.set_pending_with(
            || U::default_for(unmatched),
            unmatched,
            source,
            matched.clone(),
            meta,
        ) {
            return IntakeOutcome::Outranked { tag: unmatched };
        }
        IntakeOutcome::Pending {
            tag: unmatched,
            matched,
        }
    }

    // ----- HRI requests and developer tools' members ------------------------------------

    /// Step 1 for an HRI request, then [`route_hri`](Self::route_hri).
    #[inline(never)]
    fn take_hri(&mut self, request: HriRequest<'_>) -> IntakeOutcome<U::Tag> {
        self.sync_active();
        let HriRequest {
            source,
            message,
            arrived,
        } = request;
        // Read with `data` borrowed from the message: a request for the behaviors needs its
        // roles only to build its member; the owned intent is built for the mission
        // controller alone. The intake reports straight into the component's events, taken
        // apart from `self.hri` (each event built once, where it stays).
        let mut sink = events::Events::<U> {
            buffer: &mut self.events,
            listeners: &mut self.listeners,
            lost: &mut self.lost_events,
            max: self.config.max_buffered_events,
        };
        // Read into this frame, and admitted here: the read intent is not moved to be
        // admitted, only its record's head (`IntentRecord<()>`) comes back.
        let options = self.hri.config().read;
        let mut envelope = Envelope::new();
        let mut read = match message {
            HriMessage::Text(text) => HriIntent::read_json(text, options, self.hri.spare_roles()),
            HriMessage::Object(object) => HriIntent::read_object(object, options),
            HriMessage::Fields(fields, given) => {
                envelope = given;
                HriIntent::read_fields(fields, options, self.hri.spare_roles())
            }
            HriMessage::Undecodable { reason, .. } => Err(RejectedIntent::undecodable(reason)),
        };
        let read = match &mut read {
            Ok(read) => read,
            Err(rejected) => {
                crate::hint::cold_path();
                let rejected = std::mem::take(rejected);
                let id = self.hri.reject(rejected, envelope, &mut sink);
                return IntakeOutcome::NotAdmitted(NotAdmitted::Rejected(id));
            }
        };
        let outcome = match self.hri.admit_read(read, envelope, arrived, &mut sink) {
            Admission::Execute(head) => self.route_hri(source, head, &mut read.intent),
            // Each other answer is the unusual request's: laid out apart (`cold_path`).
            Admission::Confirm(head) => {
                crate::hint::cold_path();
                IntakeOutcome::NotAdmitted(NotAdmitted::NeedsConfirmation(head.id))
            }
            Admission::Ignored(id) => {
                crate::hint::cold_path();
                IntakeOutcome::NotAdmitted(NotAdmitted::LowConfidence(id))
            }
            Admission::Duplicate { id, of } => {
                crate::hint::cold_path();
                IntakeOutcome::NotAdmitted(NotAdmitted::Duplicate { id, of })
            }
            Admission::Expired(id) => {
                crate::hint::cold_path();
                IntakeOutcome::NotAdmitted(NotAdmitted::Expired(id))
            }
            Admission::Rejected(id) => {
                crate::hint::cold_path();
                IntakeOutcome::NotAdmitted(NotAdmitted::Rejected(id))
            }
        };
        // The roles' room is kept for the next message (their entries dropped).
        let entries = read.intent.data.take_entries();
        self.hri.spare_roles().keep(entries);
        outcome
    }

    /// Steps 2 to 6 for an admitted HRI request: the HRI map's entry (lookup), its feature
    /// gate, the whitelist, the route, the member built from the roles, the pending slot.
    fn route_hri(
        &mut self,
        source: IntentSource,
        head: IntentRecord<()>,
        intent: &mut IntentIn<'_>,
    ) -> IntakeOutcome<U::Tag> {
        // The metadata the pending slot keeps, built only for a request that may pend.
        let tick = self.tick;
        let meta = |intent: &IntentIn<'_>| {
            StoredMeta::keep_parts(
                &intent.source,
                &intent.modality,
                intent.priority,
                intent.confidence,
                tick,
            )
        };
        let wire = intent.intent.wire();
        let role = |key: &str| intent.data.get(key);
        let entry = self
            .hri_map
            .and_then(|m| m.lookup_with(wire, |key| role(key).and_then(FieldIn::as_str)));
        let Some(entry) = entry else {
            let name = wire.into();
            let meta = meta(intent);
            return self.pend_unmatched_with(
                source,
                UnmatchedReason::UnknownIntent { intent: name },
                meta,
            );
        };
        if let Err(feature) = self.translator.enabled(entry.feature_gate) {
            let reason = UnmatchedReason::FeatureDisabled {
                intent: entry.intent,
                feature,
            };
            return self.pend_unmatched_with(source, reason, meta(intent));
        }
        let tag = entry.tag;
        if !self.is_whitelisted(tag) {
            return self.not_whitelisted(tag, source, meta(intent));
        }
        if !entry.route.to_behaviors() {
            self.queue_for_missions(tag, source, head.map(|()| intent.take_owned()));
            return IntakeOutcome::ToMissions { tag };
        }
        let built = entry.deserialize_member::<U>(|key| role(key).map(FieldIn::to_text));
        let meta = meta(intent);
        if entry.route.to_missions() {
            self.queue_for_missions(tag, source, head.map(|()| intent.take_owned()));
        }
        match built {
            Some(Ok(intent)) => {
                let matched = Match::Hri {
                    intent: entry.intent,
                };
                if !self.set_pending_with(move || intent, tag, source, matched.clone(), meta) {
                    crate::hint::cold_path();
                    return IntakeOutcome::Outranked { tag };
                }
                IntakeOutcome::Pending { tag, matched }
            }
            other => {
                let reason = match other {
                    Some(Err(e)) => e.to_string(),
                    _ => crate::hri::map::NOT_IMPLEMENTED.to_owned(),
                };
                let error = TranslateError::BadPayload {
                    tag: U::tag_name(tag),
                    field: None,
                    reason,
                };
                self.fail(source, entry.intent, error)
            }
        }
    }

    /// Queues `record` for the mission controller (shedding by importance when the queue is
    /// full).
    fn queue_for_missions(&mut self, tag: U::Tag, source: IntentSource, record: IntentRecord) {
        let id = record.id;
        let importance =
            crate::intent::shed::hri_importance_of(&record.intent.intent, record.intent.priority);
        self.emit(IntentEvent::ToMissions { tag, source, id });
        if !matches!(
            self.missions.push(record, importance),
            crate::intent::shed::Pushed::Queued
        ) {
            tracing::warn!(
                capacity = self.missions.capacity(),
                "UserIntentComponent.ToMissions.Shed"
            );
            self.emit(IntentEvent::InputsShed { source, count: 1 });
        }
    }

    /// The admitted HRI requests the map routes to the mission controller, oldest first,
    /// taken out of the component: the robot hands each to its controller (or, one day, to
    /// the one arbiter of its body) right after the request was submitted.
    pub fn take_mission_requests(&mut self) -> impl Iterator<Item = IntentRecord> + '_ {
        std::iter::from_fn(|| self.missions.pop())
    }

    /// HRI requests waiting for the mission controller.
    pub fn mission_requests_waiting(&self) -> usize {
        self.missions.len()
    }

    /// A developer tool's member: steps 4 and 6 (it needs no lookup and has no feature gate).
    #[inline(never)]
    fn take_direct(&mut self, intent: U) -> IntakeOutcome<U::Tag> {
        self.sync_active();
        let tag = intent.tag();
        if !self.is_whitelisted(tag) {
            return self.not_whitelisted(tag, IntentSource::Dev, StoredMeta::Defaults);
        }
        if !self.set_pending_with(
            move || intent,
            tag,
            IntentSource::Dev,
            Match::Direct,
            StoredMeta::Defaults,
        ) {
            return IntakeOutcome::Outranked { tag };
        }
        IntakeOutcome::Pending {
            tag,
            matched: Match::Direct,
        }
    }

    /// Steps 3 and 4 for a translated intent (a simple voice response, or a data intent
    /// built aside), or its failure.
    fn pend_translation(
        &mut self,
        source: IntentSource,
        intent: &str,
        result: Result<Translation<U>, TranslateError>,
    ) -> IntakeOutcome<U::Tag> {
        let t = match result {
            Ok(t) => t,
            Err(error) => return self.fail(source, intent, error),
        };
        self.log_notes(intent, &t.notes);
        self.log_ignored_params(intent, t.params_ignored);
        let tag = t.intent.tag();
        if !self.is_whitelisted(tag) {
            return self.not_whitelisted(tag, source, StoredMeta::Defaults);
        }
        // Moved once, straight from the translation into the pending slot.
        let matched = t.matched;
        if !self.set_pending_inner(t.intent, source, matched.clone()) {
            return IntakeOutcome::Outranked { tag };
        }
        IntakeOutcome::Pending { tag, matched }
    }

    /// A failed translation: the event, then the configured [`Reaction`].
    #[cold]
    fn fail(
        &mut self,
        source: IntentSource,
        intent: &str,
        error: TranslateError,
    ) -> IntakeOutcome<U::Tag> {
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
        IntakeOutcome::Failed { error, reaction }
    }
}
