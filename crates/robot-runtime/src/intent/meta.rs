//! [`IntentMeta`]: what every pending and active intent says about itself — who expressed it,
//! how, how urgent, how sure — whatever its origin (cloud, app, developer tools, ROS4HRI).

use super::event::IntentSource;
use crate::hri::{Confidence, IntentRecord, Modality, Priority, Source};

/// The metadata of a pending or active intent.
///
/// Honest defaults for intents whose origin does not say ([`IntentMeta::for_source`]): the
/// cloud does not identify the speaker ([`Source::Unknown`]) nor state a confidence
/// ([`Confidence::Unstated`]); its modality is speech; the app's is the touchscreen; the
/// priority is the ROS4HRI default 128.
#[derive(Clone, Debug, PartialEq)]
pub struct IntentMeta {
    /// Who expressed it.
    pub source: Source,
    /// How.
    pub modality: Modality,
    /// Its priority (decides the pending slot, where a stop is always admitted; see
    /// [`crate::intent::shed`]).
    pub priority: Priority,
    /// How sure its producer was.
    pub confidence: Confidence,
    /// The component tick it arrived at.
    pub arrived_tick: u64,
}

impl IntentMeta {
    /// The honest defaults for an intent from `source` arriving at `tick` (no allocation).
    #[inline]
    pub fn for_source(source: IntentSource, tick: u64) -> IntentMeta {
        let modality = match source {
            IntentSource::Voice => Modality::Speech,
            IntentSource::App => Modality::Touchscreen,
            IntentSource::Dev | IntentSource::Hri | IntentSource::Ros2 | IntentSource::Unknown => {
                Modality::Other
            }
        };
        IntentMeta {
            source: Source::Unknown,
            modality,
            priority: Priority::DEFAULT,
            confidence: Confidence::Unstated,
            arrived_tick: tick,
        }
    }

    /// The metadata of an admitted ROS4HRI intent (`arrived_tick` is the component's tick,
    /// set when it becomes pending).
    pub fn from_record(record: &IntentRecord) -> IntentMeta {
        IntentMeta {
            source: record.intent.source.clone(),
            modality: record.intent.modality.clone(),
            priority: record.intent.priority,
            confidence: record.intent.confidence,
            arrived_tick: 0,
        }
    }
}

/// How the pending and the active intent keep their metadata: nothing for a request whose
/// source says nothing (the cloud's, the app's: [`IntentMeta::for_source`] answers), inline
/// when its source and modality are standard constants (an HRI request from a supervisor,
/// a robot, an unknown agent: no allocation), boxed when either is free text (a person's
/// id, an unrecognized modality). The inline form holds no heap data, so the cloud path's
/// slot stays small and is dropped without looking further than the variant.
#[derive(Clone, Debug, Default)]
pub(crate) enum StoredMeta {
    /// The defaults of the intent's source.
    #[default]
    Defaults,
    /// Standard source and modality, kept inline.
    Standard(StandardMeta),
    /// Free-text source or modality.
    Boxed(Box<IntentMeta>),
}

/// [`IntentMeta`] whose source and modality are standard constants, without heap data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StandardMeta {
    source: StandardSource,
    modality: StandardModality,
    priority: Priority,
    confidence: Confidence,
    arrived_tick: u64,
}

/// The sources that are constants (not a person's id).
#[derive(Clone, Copy, Debug)]
enum StandardSource {
    Myself,
    RemoteSupervisor,
    UnknownAgent,
    Unknown,
}

/// The modalities that are constants (not an unrecognized text).
#[derive(Clone, Copy, Debug)]
enum StandardModality {
    Speech,
    Motion,
    Touchscreen,
    Other,
    Internal,
}

impl StoredMeta {
    /// Keeps an intent's metadata: inline when `source` and `modality` are constants,
    /// else boxed (`source` and `modality` copied only then).
    pub(crate) fn keep_parts(
        source: &Source,
        modality: &Modality,
        priority: Priority,
        confidence: Confidence,
        arrived_tick: u64,
    ) -> StoredMeta {
        let standard_source = match source {
            Source::Myself => Some(StandardSource::Myself),
            Source::RemoteSupervisor => Some(StandardSource::RemoteSupervisor),
            Source::UnknownAgent => Some(StandardSource::UnknownAgent),
            Source::Unknown => Some(StandardSource::Unknown),
            Source::Person(_) => None,
        };
        let standard_modality = match modality {
            Modality::Speech => Some(StandardModality::Speech),
            Modality::Motion => Some(StandardModality::Motion),
            Modality::Touchscreen => Some(StandardModality::Touchscreen),
            Modality::Other => Some(StandardModality::Other),
            Modality::Internal => Some(StandardModality::Internal),
            Modality::Unrecognized(_) => None,
        };
        match (standard_source, standard_modality) {
            (Some(source), Some(modality)) => StoredMeta::Standard(StandardMeta {
                source,
                modality,
                priority,
                confidence,
                arrived_tick,
            }),
            _ => StoredMeta::Boxed(Box::new(IntentMeta {
                source: source.clone(),
                modality: modality.clone(),
                priority,
                confidence,
                arrived_tick,
            })),
        }
    }

    /// The metadata (`source` and `tick`: the intent's, for the defaults).
    pub(crate) fn get(&self, source: IntentSource, tick: u64) -> IntentMeta {
        match self {
            StoredMeta::Defaults => IntentMeta::for_source(source, tick),
            StoredMeta::Standard(m) => IntentMeta {
                source: match m.source {
                    StandardSource::Myself => Source::Myself,
                    StandardSource::RemoteSupervisor => Source::RemoteSupervisor,
                    StandardSource::UnknownAgent => Source::UnknownAgent,
                    StandardSource::Unknown => Source::Unknown,
                },
                modality: match m.modality {
                    StandardModality::Speech => Modality::Speech,
                    StandardModality::Motion => Modality::Motion,
                    StandardModality::Touchscreen => Modality::Touchscreen,
                    StandardModality::Other => Modality::Other,
                    StandardModality::Internal => Modality::Internal,
                },
                priority: m.priority,
                confidence: m.confidence,
                arrived_tick: m.arrived_tick,
            },
            StoredMeta::Boxed(m) => (**m).clone(),
        }
    }

    /// The priority (the ROS4HRI default 128 for the defaults).
    pub(crate) fn priority(&self) -> Priority {
        match self {
            StoredMeta::Defaults => Priority::DEFAULT,
            StoredMeta::Standard(m) => m.priority,
            StoredMeta::Boxed(m) => m.priority,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every source and modality, standard or free text, comes back as it was kept.
    #[test]
    fn kept_metadata_reads_back_unchanged() {
        let sources = [
            Source::Myself,
            Source::RemoteSupervisor,
            Source::UnknownAgent,
            Source::Unknown,
            Source::Person("person_1".into()),
        ];
        let modalities = [
            Modality::Speech,
            Modality::Motion,
            Modality::Touchscreen,
            Modality::Other,
            Modality::Internal,
            Modality::Unrecognized("telepathy".into()),
        ];
        for source in &sources {
            for modality in &modalities {
                let meta = IntentMeta {
                    source: source.clone(),
                    modality: modality.clone(),
                    priority: Priority(200),
                    confidence: Confidence::Stated(0.75),
                    arrived_tick: 42,
                };
                let kept =
                    StoredMeta::keep_parts(source, modality, meta.priority, meta.confidence, 42);
                let free_text = matches!(source, Source::Person(_))
                    || matches!(modality, Modality::Unrecognized(_));
                assert_eq!(matches!(kept, StoredMeta::Boxed(_)), free_text, "{meta:?}");
                assert_eq!(kept.get(IntentSource::Voice, 0), meta);
                assert_eq!(kept.priority(), Priority(200));
            }
        }
        let defaults = StoredMeta::Defaults;
        assert_eq!(
            defaults.get(IntentSource::App, 7),
            IntentMeta::for_source(IntentSource::App, 7)
        );
        assert_eq!(defaults.priority(), Priority::DEFAULT);
    }
}
