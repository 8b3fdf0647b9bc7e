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
