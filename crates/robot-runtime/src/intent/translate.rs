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

/// Which table of the map an intent string is looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Cloud results: the cloud table, then the simple voice responses.
    Cloud,
    /// App intents: the app table.
    App,
}

/// What a cloud or app intent resolves to in the map, feature gates evaluated: the first
/// step of every translation, shared by the translator's `translate_*` and the component's
/// intake pipeline. Holds no borrow of the translator, so the component can go on to change
/// its own state.
#[derive(Clone, Debug)]
pub(crate) enum Resolved<T: 'static> {
    /// A map entry whose member has no payload fields: the intent is its tag alone and no
    /// parameter is read.
    Void {
        entry: MappedEntry<T>,
        /// Parameters were present (and are ignored).
        params_ignored: bool,
    },
    /// A map entry whose member carries payload fields: built by
    /// [`IntentTranslator::build_data`].
    Data(MappedEntry<T>),
    /// A simple voice response, to the union's simple-voice member `tag`: built by
    /// [`IntentTranslator::simple_voice`].
    SimpleVoice {
        response: &'static SimpleVoiceResponse,
        tag: T,
    },
    /// Nothing the map offers (an empty, unknown or gated-off intent, ...): the unmatched
    /// member, for `reason`.
    Unmatched {
        reason: UnmatchedReason<T>,
        /// Parameters were present (and are ignored).
        params_ignored: bool,
    },
}

/// A map entry whose feature gate is open.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MappedEntry<T: 'static> {
    /// The table it is in.
    pub side: Side,
    /// Its index in that table (its parameter routes have the same index).
    pub index: usize,
    /// The entry.
    pub entry: &'static MapEntry<T>,
}

impl<T: Copy> MappedEntry<T> {
    /// The member.
    pub fn tag(&self) -> T {
        self.entry.tag
    }

    /// How the intent was matched.
    pub fn matched(&self) -> Match<T> {
        match self.side {
            Side::Cloud => Match::Cloud {
                intent: self.entry.intent,
            },
            Side::App => Match::App {
                intent: self.entry.intent,
            },
        }
    }
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

/// The parameters of a request.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Params<'a> {
    /// A cloud result's `parameters` text.
    Json(&'a str),
    /// An app intent's single `param` string.
    App(&'a str),
}

impl Params<'_> {
    /// Present and not trivially empty (`""`, whitespace, `{}`, `null`).
    #[inline]
    pub(crate) fn present(&self) -> bool {
        match self {
            // No parameters at all is the common case of a void intent: no trimming.
            Self::Json("") => false,
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
    pub(crate) fn enabled(&self, gate: Option<&'static str>) -> Result<(), &'static str> {
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
        self.translate(Side::Cloud, intent, Params::Json(parameters))
    }

    /// Translates an app intent (`AppIntent { intent, param }`): the app table, and the
    /// payload built from `{"param": param}` with the app substitutions/numerics.
    pub fn translate_app(
        &self,
        intent: &str,
        param: &str,
    ) -> Result<Translation<U>, TranslateError> {
        self.translate(Side::App, intent, Params::App(param))
    }

    /// The whole translation, its steps as the component's intake runs them: [`resolve`],
    /// then the payload ([`build_data`], [`simple_voice`]).
    ///
    /// [`resolve`]: Self::resolve
    /// [`build_data`]: Self::build_data
    /// [`simple_voice`]: Self::simple_voice
    fn translate(
        &self,
        side: Side,
        intent: &str,
        params: Params<'_>,
    ) -> Result<Translation<U>, TranslateError> {
        match self.resolve(side, intent, params) {
            Resolved::Void {
                entry,
                params_ignored,
            } => Ok(Translation {
                intent: U::default_for(entry.tag()),
                matched: entry.matched(),
                params_ignored,
                notes: Vec::new(),
            }),
            Resolved::Unmatched {
                reason,
                params_ignored,
            } => Ok(Translation {
                intent: U::default_for(self.map.unmatched),
                matched: Match::Unmatched(reason),
                params_ignored,
                notes: Vec::new(),
            }),
            Resolved::Data(data) => {
                let (intent, notes) = self.build_data(&data, params, |built| built)?;
                Ok(Translation {
                    intent,
                    matched: data.matched(),
                    params_ignored: false,
                    notes,
                })
            }
            Resolved::SimpleVoice { response, tag } => self.simple_voice(response, tag, params),
        }
    }

    /// Step 1 of every translation: `intent` looked up in `side`'s table (cloud results
    /// then in the simple voice responses), feature gates evaluated now. An empty, unknown
    /// or gated-off intent, or a simple voice response the union has no member for,
    /// resolves to the unmatched member with the reason.
    #[inline(always)]
    pub(crate) fn resolve(&self, side: Side, intent: &str, params: Params<'_>) -> Resolved<U::Tag> {
        if intent.is_empty() {
            return self.unmatched(UnmatchedReason::EmptyIntent, params);
        }
        let (index, table) = match side {
            Side::Cloud => (&self.cloud, self.map.cloud),
            Side::App => (&self.app, self.map.app),
        };
        let mut gated = None;
        if let Some(&i) = index.get(intent) {
            let entry = &table[i];
            match self.enabled(entry.feature_gate) {
                Ok(()) => {
                    let mapped = MappedEntry {
                        side,
                        index: i,
                        entry,
                    };
                    if !self.is_void(entry.tag) {
                        return Resolved::Data(mapped);
                    }
                    return Resolved::Void {
                        entry: mapped,
                        params_ignored: params.present(),
                    };
                }
                Err(feature) => gated = Some((entry.intent, feature)),
            }
        }
        self.resolve_unlisted(side, intent, gated, params)
    }

    /// [`resolve`](Self::resolve) for an intent its table has no open entry for: a simple
    /// voice response (cloud results), else the unmatched member. `gated` is the table entry
    /// whose feature gate was closed, if any. Out of line, to keep the table path small.
    #[inline(never)]
    fn resolve_unlisted(
        &self,
        side: Side,
        intent: &str,
        mut gated: Option<(&'static str, &'static str)>,
        params: Params<'_>,
    ) -> Resolved<U::Tag> {
        if side == Side::Cloud {
            if let Some(&i) = self.simple_voice.get(intent) {
                let r = &self.map.simple_voice[i];
                match (self.enabled(r.feature_gate), self.map.simple_voice_tag) {
                    (Ok(()), Some(tag)) => return Resolved::SimpleVoice { response: r, tag },
                    (Ok(()), None) => {
                        let reason = UnmatchedReason::NoSimpleVoiceTag {
                            intent: r.cloud_intent,
                        };
                        return self.unmatched(reason, params);
                    }
                    (Err(feature), _) => gated = Some((r.cloud_intent, feature)),
                }
            }
        }
        let reason = match gated {
            Some((intent, feature)) => UnmatchedReason::FeatureDisabled { intent, feature },
            None => UnmatchedReason::UnknownIntent {
                intent: intent.into(),
            },
        };
        self.unmatched(reason, params)
    }

    #[inline]
    fn unmatched(&self, reason: UnmatchedReason<U::Tag>, params: Params<'_>) -> Resolved<U::Tag> {
        Resolved::Unmatched {
            reason,
            params_ignored: params.present(),
        }
    }

    /// Step 2 for a member with payload fields: reads the parameters (size limit, parse,
    /// substitutions, numeric conversion), applies the missing-field policy and builds the
    /// payload, which `place` receives (once, on success: the component builds it straight
    /// into its pending slot, the translator returns it). Returns what `place` returned and
    /// the notes of the translation.
    #[inline(always)]
    pub(crate) fn build_data<R>(
        &self,
        data: &MappedEntry<U::Tag>,
        params: Params<'_>,
        place: impl FnOnce(U) -> R,
    ) -> Result<(R, Vec<Note>), TranslateError> {
        let tag = data.entry.tag;
        let tag_name = U::tag_name(tag);
        let shape = self.shape(tag);
        let routes = match data.side {
            Side::Cloud => self.cloud_routes[data.index].as_ref(),
            Side::App => self.app_routes[data.index].as_ref(),
        };
        let mut storage = SlotStorage::new();
        let mut c = Collector::new(
            Ctx {
                tag: tag_name,
                sanitation: data.entry.sanitation,
                fields: shape.map(|s| s.fields.as_slice()),
                routes,
                numeric: self.config.numeric,
                extra: self.config.extra_params,
            },
            &mut storage,
        );
        match params {
            Params::Json(text) => self.collect_json_params(tag_name, &mut c, text)?,
            Params::App(param) => c.push_value(
                Cow::Borrowed("param"),
                ParamValue::Str(Cow::Borrowed(param)),
            )?,
        }
        self.check_missing(tag, shape, &mut c, self.config.missing_fields)?;
        let notes = std::mem::take(&mut c.notes);
        let built = match shape {
            Some(shape) => match params::build_direct::<U>(tag, shape, c.slots) {
                Some(Ok(built)) => built,
                _ => self.build_from_slots_cold(tag, shape, c.slots)?,
            },
            None => params::build_entries::<U>(tag_name, &c.entries)
                .map_err(|failure| bad_payload(tag_name, failure))?,
        };
        Ok((place(built), notes))
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

    /// Step 2 for a simple voice response: member `tag` (the union's simple-voice member)
    /// built from the table entry; the request's parameters are ignored.
    pub(crate) fn simple_voice(
        &self,
        r: &'static SimpleVoiceResponse,
        tag: U::Tag,
        params: Params<'_>,
    ) -> Result<Translation<U>, TranslateError> {
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
        let [anim_group, emotion_event, active_feature, disable_wakeword_turn] =
            SimpleVoiceResponse::PAYLOAD_FIELDS;
        let all: [(&'static str, ParamValue<'static>); 4] = [
            (anim_group, ParamValue::Str(Cow::Borrowed(r.anim_group))),
            (
                emotion_event,
                ParamValue::Str(Cow::Borrowed(r.emotion_event)),
            ),
            (
                active_feature,
                ParamValue::Str(Cow::Borrowed(r.active_feature)),
            ),
            (
                disable_wakeword_turn,
                ParamValue::Bool(r.disable_wakeword_turn),
            ),
        ];
        for (f, v) in all {
            if fields.is_none_or(|fs| fs.contains(&f)) {
                c.push_value(Cow::Borrowed(f), v)?;
            }
        }
        let intent = self.finish(tag, shape, &mut c, MissingFields::Default)?;
        Ok(Translation {
            intent,
            matched: Match::SimpleVoice {
                intent: r.cloud_intent,
            },
            params_ignored: params.present(),
            notes: Vec::new(),
        })
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
