//! [`Vocabulary`]: the closed sets of names base keys and conditions are checked against,
//! which a node library gives the [`Registry`](super::Registry) (the original engine's
//! behavior timers, suggestions, stats, tracks, stream effects, condition types; the
//! robot's features). A leaf.

/// A closed set of names a base key (or a framework condition) is checked against; the
/// registry's node library sets each ([`Registry::set_vocabulary`](super::Registry::set_vocabulary)).
///
/// **Without a vocabulary**, a key whose names are only checked accepts any name (nothing
/// is done with it); a key whose names the world acts on (`resetTimers`,
/// `postBehaviorSuggestion`, which reach [`World::reset_timer`](super::World::reset_timer) and
/// [`World::offer_suggestion`](super::World::offer_suggestion) by index) is a load error: the robot's world has no such
/// things, and a key that silently did nothing would mislead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vocabulary {
    /// Behavior timers: `resetTimers` (acted on: [`World::reset_timer`](super::World::reset_timer) gets the index).
    Timers,
    /// Post-behavior suggestions: `postBehaviorSuggestion` (acted on:
    /// [`World::offer_suggestion`](super::World::offer_suggestion) gets the index).
    Suggestions,
    /// Behavior stats: `behaviorStatToIncrement` (checked).
    Stats,
    /// Animation tracks: `tracksToLockWhileActivated` (checked).
    AnimTracks,
    /// Stream-and-light effects: `alterStreamAfterWakeword`,
    /// `pushTriggerWordResponse.streamAndLightEffect` (checked).
    StreamEffects,
    /// Feature names (the robot's `FeatureType`): what a node library's feature conditions
    /// may name (checked).
    Features,
    /// Active features (the robot's `ActiveFeature`): `associatedActiveFeature` (checked).
    ActiveFeatures,
    /// Every condition type of the node library's family, in its order: a name here that
    /// no parser handles is known but not run natively (an opaque stand-in when the load
    /// allows stand-ins, else an error), and an unknown type's suggestions come from here.
    ConditionTypes,
}

impl Vocabulary {
    /// Every vocabulary.
    pub const ALL: [Vocabulary; 8] = [
        Self::Timers,
        Self::Suggestions,
        Self::Stats,
        Self::AnimTracks,
        Self::StreamEffects,
        Self::Features,
        Self::ActiveFeatures,
        Self::ConditionTypes,
    ];
    /// A name for messages (`behavior timers`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Timers => "behavior timers",
            Self::Suggestions => "post-behavior suggestions",
            Self::Stats => "behavior stats",
            Self::AnimTracks => "animation tracks",
            Self::StreamEffects => "stream effects",
            Self::Features => "features",
            Self::ActiveFeatures => "active features",
            Self::ConditionTypes => "condition types",
        }
    }
}

/// The registry's vocabularies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Vocabularies([Option<Vec<String>>; Vocabulary::ALL.len()]);

impl Vocabularies {
    pub fn set(&mut self, v: Vocabulary, names: Vec<String>) {
        self.0[v as usize] = Some(names);
    }
    pub fn get(&self, v: Vocabulary) -> Option<&[String]> {
        self.0[v as usize].as_deref()
    }
}
