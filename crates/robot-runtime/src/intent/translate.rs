//! Cloud/app intent → typed user intent: [`IntentTranslator`].
//!
//! Pure (no component state): look the intent string up in the [`StaticIntentMap`] (feature
//! gates evaluated now), then
//!
//! * unknown / gated off / empty → the unmatched member (`U::default_for(unmatched)`);
//! * void member (no payload fields) → `U::default_for(tag)`: no parameter parsing, no
//!   allocation;
//! * simple voice response → the `simple_voice_response` member built from the table entry;
//! * data member → parameters parsed once, sanitized (renames, then numeric conversion),
//!   handed to the union's generated `Deserialize` as `{"type": "<tag>", field: value...}`.
//!
//! Every failure is a [`TranslateError`] naming the parameter/field and the reason; what
//! the component does with it is a [`Reaction`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use super::error::{ExtraParams, MissingFields, Note, TranslateError};
use super::event::{Match, UnmatchedReason};
use super::map::{MapEntry, SimpleVoiceResponse, StaticIntentMap};
use super::numeric::NumericMode;
use super::params::{self, Collector, Ctx, ParamValue, Routes, Slot, SlotStorage};
use super::shape::{self, Shape};
use crate::union::CladUnion;

/// Translation settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TranslateConfig {
    /// How numeric parameters are converted (default strict).
    pub numeric: NumericMode,
    /// Parameters that are not payload fields.
    pub extra_params: ExtraParams,
    /// Payload fields without a parameter.
    pub missing_fields: MissingFields,
    /// Longest accepted `parameters` text, in bytes. The default, 64 KiB, is above what the
    /// wire can carry (`string[uint_16]`: 65535 bytes), so every wire-valid result passes;
    /// nothing is ever truncated, longer text is [`TranslateError::ParametersTooLarge`].
    pub max_parameters_len: usize,
}

impl Default for TranslateConfig {
    fn default() -> Self {
        Self {
            numeric: NumericMode::Strict,
            extra_params: ExtraParams::Ignore,
            missing_fields: MissingFields::Default,
            max_parameters_len: 64 * 1024,
        }
    }
}

/// A successful translation.
#[derive(Clone, Debug, PartialEq)]
pub struct Translation<U: CladUnion> {
    /// The typed intent.
    pub intent: U,
    /// How its tag was found.
    pub matched: Match<U::Tag>,
    /// Parameters were present but not read: the member is void, a simple voice response,
    /// or unmatched (the original's `ExtraData` warning).
    pub params_ignored: bool,
    /// Details (skipped parameters, defaulted fields).
    pub notes: Vec<Note>,
}

/// A translation before a void payload is materialised: void members (and the unmatched
/// fallback) are only a tag, so the component builds the union value directly in its
/// pending slot instead of moving a union-sized value through every layer.
#[derive(Debug)]
pub(crate) enum Raw<U: CladUnion> {
    Void {
        tag: U::Tag,
        matched: Match<U::Tag>,
        params_ignored: bool,
    },
    Built(Translation<U>),
}

impl<U: CladUnion> Raw<U> {
    pub(crate) fn into_translation(self) -> Translation<U> {
        match self {
            Raw::Void {
                tag,
                matched,
                params_ignored,
            } => Translation {
                intent: U::default_for(tag),
                matched,
                params_ignored,
                notes: Vec::new(),
            },
            Raw::Built(t) => t,
        }
    }
}

/// What [`IntentTranslator::build_cloud_data_into`] did.
pub(crate) enum DataBuild {
    /// The payload was built and handed to `place`; the translation's notes.
    Placed {
        /// Notes of the translation, in order.
        notes: Vec<Note>,
    },
    /// The translation failed; nothing was placed.
    Failed(TranslateError),
    /// The member's payload shape is unknown: the general path answers.
    General,
}

/// What one lookup of a cloud intent found, for the component's fast paths. Holds no
/// borrow of the translator (the data case names its map entry by index), so the component
/// can go on to change its own state.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CloudFast<T> {
    /// Mapped, enabled, to a void member: the tag, the map's own copy of the intent string,
    /// and whether parameters were present (and ignored).
    Void {
        tag: T,
        intent: &'static str,
        params_ignored: bool,
    },
    /// Mapped, enabled, to a member with payload fields and a known shape: `entry` indexes
    /// the map's cloud table. Continue with [`IntentTranslator::data_collector`],
    /// [`IntentTranslator::collect_data`] and [`params::build_direct`].
    Data { tag: T, entry: usize },
    /// Anything else (empty, unknown, gated off, simple voice response, unknown shape):
    /// use [`IntentTranslator::translate_cloud_raw`].
    Other,
}

/// Decides whether a feature is enabled, at lookup time.
///
/// Implemented for every `Fn(&str) -> bool + Send + Sync` closure, so a robot whose
/// features change at run time passes a closure reading its live feature set.
pub trait FeatureGate: Send + Sync {
    /// True when `feature` (a `feature_gate` name of the map) is enabled.
    fn is_enabled(&self, feature: &str) -> bool;
}

impl<F: Fn(&str) -> bool + Send + Sync> FeatureGate for F {
    fn is_enabled(&self, feature: &str) -> bool {
        self(feature)
    }
}

/// FxHash-style word-at-a-time hasher for the intent-string indexes (short keys, no
/// adversarial input: the keys are the map's own strings).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let w = rest
                .iter()
                .enumerate()
                .fold(0u64, |w, (k, &byte)| w | u64::from(byte) << (8 * k));
            self.add(w);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

type Index = HashMap<&'static str, usize, FxBuild>;

fn index<E>(table: &'static [E], key: impl Fn(&E) -> &'static str) -> Index {
    let mut idx = Index::with_capacity_and_hasher(table.len(), Default::default());
    for (i, e) in table.iter().enumerate() {
        // Keep the first of duplicates, like a binary search over a sorted table may.
        idx.entry(key(e)).or_insert(i);
    }
    idx
}

/// Turns cloud results and app intents into `U` using a compiled intent map.
pub struct IntentTranslator<U: CladUnion> {
    map: &'static StaticIntentMap<U::Tag>,
    config: TranslateConfig,
    gate: Option<Box<dyn FeatureGate>>,
    /// Payload shape per wire tag value.
    shapes: Vec<Option<Shape>>,
    /// Hash indexes over the map's tables (built once; lookups cost one hash and one compare).
    cloud: Index,
    app: Index,
    simple_voice: Index,
    /// Parameter routes per cloud / app entry (same order as the tables).
    cloud_routes: Vec<Option<Routes>>,
    app_routes: Vec<Option<Routes>>,
}

impl<U: CladUnion> fmt::Debug for IntentTranslator<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntentTranslator")
            .field("union", &U::NAME)
            .field("config", &self.config)
            .field("feature_gate", &self.gate.is_some())
            .finish_non_exhaustive()
    }
}

enum Params<'a> {
    /// A cloud result's `parameters` text.
    Json(&'a str),
    /// An app intent's single `param` string.
    App(&'a str),
}

impl Params<'_> {
    /// Present and not trivially empty (`""`, whitespace, `{}`, `null`).
    fn present(&self) -> bool {
        match self {
            Self::Json(t) => !matches!(t.trim(), "" | "{}" | "null"),
            Self::App(p) => !p.is_empty(),
        }
    }
}

impl<U> IntentTranslator<U>
where
    U: CladUnion + Serialize + DeserializeOwned,
{
    /// A translator for `map` with the default configuration and every feature enabled.
    pub fn new(map: &'static StaticIntentMap<U::Tag>) -> Self {
        Self::with_config(map, TranslateConfig::default())
    }

    /// A translator with `config`. Learns each member's payload fields once.
    pub fn with_config(map: &'static StaticIntentMap<U::Tag>, config: TranslateConfig) -> Self {
        let mut shapes = shape::union_shapes::<U>();
        for &tag in U::TAGS {
            if let Some(shape) = &mut shapes[usize::from(U::tag_value(tag))] {
                shape.positional = builds_positionally::<U>(tag, shape);
            }
        }
        let routes_of = |table: &'static [MapEntry<U::Tag>]| -> Vec<Option<Routes>> {
            table
                .iter()
                .map(|e| {
                    shapes[usize::from(U::tag_value(e.tag))]
                        .as_ref()
                        .map(|s| params::routes(e.sanitation, &s.fields))
                })
                .collect()
        };
        let cloud_routes = routes_of(map.cloud);
        let app_routes = routes_of(map.app);
        Self {
            map,
            config,
            gate: None,
            shapes,
            cloud_routes,
            app_routes,
            cloud: index(map.cloud, |e| e.intent),
            app: index(map.app, |e| e.intent),
            simple_voice: index(map.simple_voice, |e| e.cloud_intent),
        }
    }

    #[inline]
    fn cloud_entry(&self, intent: &str) -> Option<(&'static MapEntry<U::Tag>, Option<&Routes>)> {
        self.cloud
            .get(intent)
            .map(|&i| (&self.map.cloud[i], self.cloud_routes[i].as_ref()))
    }

    fn app_entry(&self, intent: &str) -> Option<(&'static MapEntry<U::Tag>, Option<&Routes>)> {
        self.app
            .get(intent)
            .map(|&i| (&self.map.app[i], self.app_routes[i].as_ref()))
    }

    fn simple_voice_entry(&self, intent: &str) -> Option<&'static SimpleVoiceResponse> {
        self.simple_voice
            .get(intent)
            .map(|&i| &self.map.simple_voice[i])
    }

    #[inline]
    fn shape(&self, tag: U::Tag) -> Option<&Shape> {
        self.shapes[usize::from(U::tag_value(tag))].as_ref()
    }

    /// Features are checked with `gate` from now on (at every lookup).
    pub fn set_feature_gate(&mut self, gate: impl FeatureGate + 'static) {
        self.gate = Some(Box::new(gate));
    }

    /// Every feature counts as enabled again.
    pub fn clear_feature_gate(&mut self) {
        self.gate = None;
    }

    /// The configuration.
    pub fn config(&self) -> &TranslateConfig {
        &self.config
    }

    /// Changes the configuration.
    pub fn config_mut(&mut self) -> &mut TranslateConfig {
        &mut self.config
    }

    /// The map.
    pub fn map(&self) -> &'static StaticIntentMap<U::Tag> {
        self.map
    }

    /// The CLAD-JSON keys of `tag`'s payload (empty for void members).
    pub fn payload_fields(&self, tag: U::Tag) -> Option<&[&'static str]> {
        self.shape(tag).map(|s| s.fields.as_slice())
    }

    /// True when `tag`'s payload has no fields.
    pub fn is_void(&self, tag: U::Tag) -> bool {
        self.payload_fields(tag).is_some_and(<[_]>::is_empty)
    }

    #[inline]
    fn enabled(&self, gate: Option<&'static str>) -> Result<(), &'static str> {
        match (gate, &self.gate) {
            (Some(feature), Some(g)) if !g.is_enabled(feature) => Err(feature),
            _ => Ok(()),
        }
    }

    /// Translates a cloud `result`: `intent` and its `parameters` text (a JSON object of
    /// strings, possibly empty or with a trailing newline).
    pub fn translate_cloud(
        &self,
        intent: &str,
        parameters: &str,
    ) -> Result<Translation<U>, TranslateError> {
        self.translate_cloud_raw(intent, parameters)
            .map(Raw::into_translation)
    }

    /// One lookup for the component's fast paths (see [`CloudFast`]). Gives the same
    /// answer as the full path ([`translate_cloud_raw`](Self::translate_cloud_raw)) for the
    /// intents it accepts: an empty intent, an unknown or gated-off one, and every
    /// non-cloud-table case are left to the full path.
    #[inline]
    pub(crate) fn cloud_fast(&self, intent: &str, parameters: &str) -> CloudFast<U::Tag> {
        if intent.is_empty() {
            return CloudFast::Other;
        }
        let Some(&i) = self.cloud.get(intent) else {
            return CloudFast::Other;
        };
        let e = &self.map.cloud[i];
        if self.enabled(e.feature_gate).is_err() {
            return CloudFast::Other;
        }
        match self.shape(e.tag) {
            Some(s) if s.fields.is_empty() => CloudFast::Void {
                tag: e.tag,
                intent: e.intent,
                params_ignored: Params::Json(parameters).present(),
            },
            Some(_) => CloudFast::Data {
                tag: e.tag,
                entry: i,
            },
            None => CloudFast::Other,
        }
    }

    /// Translates cloud table entry `entry` (a [`CloudFast::Data`] one, member `tag`) with
    /// `parameters` and builds the payload straight into the caller's storage: `place`
    /// receives the built union, once, on success. Same checks, same order and same result
    /// as [`translate_cloud_raw`](Self::translate_cloud_raw) for that entry; when the
    /// direct build does not apply, the general build names the field to blame.
    #[inline(always)]
    pub(crate) fn build_cloud_data_into(
        &self,
        tag: U::Tag,
        entry: usize,
        parameters: &str,
        place: impl FnOnce(U),
    ) -> DataBuild {
        let Some(shape) = self.shape(tag) else {
            return DataBuild::General;
        };
        let mut storage = SlotStorage::new();
        let mut c = self.data_collector(entry, &mut storage);
        if let Err(error) = self.collect_data(tag, &mut c, parameters) {
            return DataBuild::Failed(error);
        }
        let notes = std::mem::take(&mut c.notes);
        match params::build_direct::<U>(tag, shape, c.slots) {
            Some(Ok(built)) => place(built),
            _ => match self.build_from_slots_cold(tag, shape, c.slots) {
                Ok(built) => place(built),
                Err(error) => return DataBuild::Failed(error),
            },
        }
        DataBuild::Placed { notes }
    }

    /// [`build_from_slots`](Self::build_from_slots) out of line, for when the direct build
    /// does not apply or fails.
    #[cold]
    #[inline(never)]
    fn build_from_slots_cold(
        &self,
        tag: U::Tag,
        shape: &Shape,
        slots: &[Option<Slot<'_>>],
    ) -> Result<U, TranslateError> {
        Self::build_from_slots(tag, shape, slots)
    }

    /// The collector for cloud table entry `entry` (a [`CloudFast::Data`] one), built in
    /// the caller's frame over the caller's slot storage.
    #[inline(always)]
    fn data_collector<'s, 'de>(
        &self,
        entry: usize,
        storage: &'s mut SlotStorage<'de>,
    ) -> Collector<'_, 's, 'de> {
        let e = &self.map.cloud[entry];
        Collector::new(
            Ctx {
                tag: U::tag_name(e.tag),
                sanitation: e.sanitation,
                fields: self.shape(e.tag).map(|s| s.fields.as_slice()),
                routes: self.cloud_routes[entry].as_ref(),
                numeric: self.config.numeric,
                extra: self.config.extra_params,
            },
            storage,
        )
    }

    /// Everything a data translation does before the payload is built, for a
    /// [`CloudFast::Data`] entry: size limit, parameter parsing, substitutions, numeric
    /// conversion, missing-field policy (same checks, same order as
    /// [`translate_cloud_raw`](Self::translate_cloud_raw)). The caller builds the payload
    /// itself ([`build_cloud_data_into`](Self::build_cloud_data_into)).
    #[inline(always)]
    fn collect_data<'de>(
        &self,
        tag: U::Tag,
        c: &mut Collector<'_, '_, 'de>,
        text: &'de str,
    ) -> Result<(), TranslateError> {
        self.collect_json_params(U::tag_name(tag), c, text)?;
        self.check_missing(tag, self.shape(tag), c, self.config.missing_fields)
    }

    #[inline(always)]
    pub(crate) fn translate_cloud_raw(
        &self,
        intent: &str,
        parameters: &str,
    ) -> Result<Raw<U>, TranslateError> {
        let params = Params::Json(parameters);
        if intent.is_empty() {
            return Ok(self.unmatched(UnmatchedReason::EmptyIntent, &params));
        }
        let mut gated = None;
        if let Some((e, routes)) = self.cloud_entry(intent) {
            match self.enabled(e.feature_gate) {
                Ok(()) => return self.mapped(e, routes, Match::Cloud { intent: e.intent }, params),
                Err(feature) => gated = Some((e.intent, feature)),
            }
        }
        if let Some(r) = self.simple_voice_entry(intent) {
            match self.enabled(r.feature_gate) {
                Ok(()) => return self.simple_voice(r, &params),
                Err(feature) => gated = Some((r.cloud_intent, feature)),
            }
        }
        let reason = match gated {
            Some((intent, feature)) => UnmatchedReason::FeatureDisabled { intent, feature },
            None => UnmatchedReason::UnknownIntent {
                intent: intent.into(),
            },
        };
        Ok(self.unmatched(reason, &params))
    }

    /// Translates an app intent (`AppIntent { intent, param }`): the app table, and the
    /// payload built from `{"param": param}` with the app substitutions/numerics.
    pub fn translate_app(
        &self,
        intent: &str,
        param: &str,
    ) -> Result<Translation<U>, TranslateError> {
        self.translate_app_raw(intent, param)
            .map(Raw::into_translation)
    }

    #[inline]
    pub(crate) fn translate_app_raw(
        &self,
        intent: &str,
        param: &str,
    ) -> Result<Raw<U>, TranslateError> {
        let params = Params::App(param);
        if intent.is_empty() {
            return Ok(self.unmatched(UnmatchedReason::EmptyIntent, &params));
        }
        let reason = match self.app_entry(intent) {
            Some((e, routes)) => match self.enabled(e.feature_gate) {
                Ok(()) => return self.mapped(e, routes, Match::App { intent: e.intent }, params),
                Err(feature) => UnmatchedReason::FeatureDisabled {
                    intent: e.intent,
                    feature,
                },
            },
            None => UnmatchedReason::UnknownIntent {
                intent: intent.into(),
            },
        };
        Ok(self.unmatched(reason, &params))
    }

    #[inline]
    fn unmatched(&self, reason: UnmatchedReason<U::Tag>, params: &Params<'_>) -> Raw<U> {
        Raw::Void {
            tag: self.map.unmatched,
            matched: Match::Unmatched(reason),
            params_ignored: params.present(),
        }
    }

    #[inline(always)]
    fn mapped(
        &self,
        entry: &'static MapEntry<U::Tag>,
        routes: Option<&Routes>,
        matched: Match<U::Tag>,
        params: Params<'_>,
    ) -> Result<Raw<U>, TranslateError> {
        let tag = entry.tag;
        let shape = self.shape(tag);
        if shape.is_some_and(|s| s.fields.is_empty()) {
            // Void: no JSON work, no allocation.
            return Ok(Raw::Void {
                tag,
                matched,
                params_ignored: params.present(),
            });
        }
        let tag_name = U::tag_name(tag);
        let mut storage = params::SlotStorage::new();
        let mut c = Collector::new(
            Ctx {
                tag: tag_name,
                sanitation: entry.sanitation,
                fields: shape.map(|s| s.fields.as_slice()),
                routes,
                numeric: self.config.numeric,
                extra: self.config.extra_params,
            },
            &mut storage,
        );
        match params {
            Params::Json(text) => self.collect_json_params(tag_name, &mut c, text)?,
            Params::App(param) => {
                c.push_value(
                    Cow::Borrowed("param"),
                    ParamValue::Str(Cow::Borrowed(param)),
                )?;
            }
        }
        let intent = self.finish(tag, shape, &mut c, self.config.missing_fields)?;
        Ok(Raw::Built(Translation {
            intent,
            matched,
            params_ignored: false,
            notes: c.notes,
        }))
    }

    /// A cloud result's `parameters` text into `c`: size limit, "no parameters" checks,
    /// then the parse with substitutions and numeric conversion.
    #[inline(always)]
    fn collect_json_params<'de>(
        &self,
        tag_name: &'static str,
        c: &mut Collector<'_, '_, 'de>,
        text: &'de str,
    ) -> Result<(), TranslateError> {
        if text.len() > self.config.max_parameters_len {
            return Err(TranslateError::ParametersTooLarge {
                len: text.len(),
                limit: self.config.max_parameters_len,
            });
        }
        // `text.trim().is_empty()`, stopping at the first non-space character (the first,
        // for every real parameter text) instead of trimming both ends.
        if text.chars().all(char::is_whitespace) {
            return Err(TranslateError::MissingParameters { tag: tag_name });
        }
        c.collect_json(text)?;
        if c.keys == 0 {
            return Err(TranslateError::MissingParameters { tag: tag_name });
        }
        Ok(())
    }

    /// The missing-field policy: with a known shape, every field no parameter filled is
    /// either an error or noted as defaulted.
    #[inline(always)]
    fn check_missing(
        &self,
        tag: U::Tag,
        shape: Option<&Shape>,
        c: &mut Collector<'_, '_, '_>,
        missing: MissingFields,
    ) -> Result<(), TranslateError> {
        let Some(shape) = shape else {
            return Ok(());
        };
        for (i, &field) in shape.fields.iter().enumerate() {
            if !c.has_field(i) {
                if missing == MissingFields::Reject {
                    return Err(TranslateError::MissingField {
                        tag: U::tag_name(tag),
                        field,
                    });
                }
                c.note(Note::FieldDefaulted { field });
            }
        }
        Ok(())
    }

    /// Missing-field policy, then the build.
    #[inline(always)]
    fn finish(
        &self,
        tag: U::Tag,
        shape: Option<&Shape>,
        c: &mut Collector<'_, '_, '_>,
        missing: MissingFields,
    ) -> Result<U, TranslateError> {
        self.check_missing(tag, shape, c, missing)?;
        let built = match shape {
            Some(shape) => params::build_slots::<U>(tag, shape, c.slots),
            None => params::build_entries::<U>(U::tag_name(tag), &c.entries),
        };
        built.map_err(|failure| bad_payload(U::tag_name(tag), failure))
    }

    /// Builds member `tag` of known `shape` from collected slots; a failure names the
    /// field to blame.
    #[inline(always)]
    fn build_from_slots(
        tag: U::Tag,
        shape: &Shape,
        slots: &[Option<Slot<'_>>],
    ) -> Result<U, TranslateError> {
        params::build_slots::<U>(tag, shape, slots)
            .map_err(|failure| bad_payload(U::tag_name(tag), failure))
    }

    fn simple_voice(
        &self,
        r: &'static SimpleVoiceResponse,
        params: &Params<'_>,
    ) -> Result<Raw<U>, TranslateError> {
        let Some(tag) = self.map.simple_voice_tag else {
            return Ok(self.unmatched(
                UnmatchedReason::NoSimpleVoiceTag {
                    intent: r.cloud_intent,
                },
                params,
            ));
        };
        let tag_name = U::tag_name(tag);
        let shape = self.shape(tag);
        let fields = shape.map(|s| s.fields.as_slice());
        let mut storage = params::SlotStorage::new();
        let mut c = Collector::new(
            Ctx {
                tag: tag_name,
                sanitation: &[],
                fields,
                routes: None,
                numeric: NumericMode::Strict,
                extra: ExtraParams::Ignore,
            },
            &mut storage,
        );
        let all: [(&'static str, ParamValue<'static>); 4] = [
            ("anim_group", ParamValue::Str(Cow::Borrowed(r.anim_group))),
            (
                "emotion_event",
                ParamValue::Str(Cow::Borrowed(r.emotion_event)),
            ),
            (
                "active_feature",
                ParamValue::Str(Cow::Borrowed(r.active_feature)),
            ),
            (
                "disable_wakeword_turn",
                ParamValue::Bool(r.disable_wakeword_turn),
            ),
        ];
        for (f, v) in all {
            if fields.is_none_or(|fs| fs.contains(&f)) {
                c.push_value(Cow::Borrowed(f), v)?;
            }
        }
        let intent = self.finish(tag, shape, &mut c, MissingFields::Default)?;
        Ok(Raw::Built(Translation {
            intent,
            matched: Match::SimpleVoice {
                intent: r.cloud_intent,
            },
            params_ignored: params.present(),
            notes: Vec::new(),
        }))
    }
}

/// [`TranslateError::BadPayload`] for a failed build of member `tag` (the field to blame,
/// when one alone fails, and serde's error).
fn bad_payload(
    tag: &'static str,
    (field, e): (Option<String>, serde_json::Error),
) -> TranslateError {
    TranslateError::BadPayload {
        tag,
        field,
        reason: e.to_string(),
    }
}

/// Whether member `tag`'s payload can be built from a `[tag, field0, field1, ...]` sequence
/// (serde's internally tagged enums and derived structs accept one): checked once by
/// building the default payload that way and comparing it with `U::default_for(tag)`.
fn builds_positionally<U: CladUnion + Serialize + DeserializeOwned>(
    tag: U::Tag,
    shape: &Shape,
) -> bool {
    let Some(defaults) = &shape.defaults else {
        return false;
    };
    let built: Option<U> =
        params::build_seq(U::tag_name(tag), defaults.iter().map(ParamValue::JsonRef)).ok();
    built.is_some_and(|b| {
        let b = serde_json::to_value(&b).ok();
        b.is_some() && b == serde_json::to_value(U::default_for(tag)).ok()
    })
}
