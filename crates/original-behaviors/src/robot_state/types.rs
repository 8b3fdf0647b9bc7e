//! The value types of the robot state: how it rests, battery, emotions and mood, habitat,
//! located objects and faces, the behavior timers and the whiteboard.

use std::fmt;
use std::time::Duration;

use crate::catalog;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OffTreads {
    /// On its treads (the default).
    #[default]
    OnTreads,
    /// Picked up, in the air.
    InAir,
    /// On its back.
    OnBack,
    /// On its left side.
    OnLeftSide,
    /// On its right side.
    OnRightSide,
    /// On its face.
    OnFace,
    /// Falling.
    Falling,
}

impl OffTreads {
    /// Every state, in the original's order.
    pub const ALL: [Self; 7] = [
        Self::OnTreads,
        Self::InAir,
        Self::OnBack,
        Self::OnLeftSide,
        Self::OnRightSide,
        Self::OnFace,
        Self::Falling,
    ];
    /// The original's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::OnTreads => "OnTreads",
            Self::InAir => "InAir",
            Self::OnBack => "OnBack",
            Self::OnLeftSide => "OnLeftSide",
            Self::OnRightSide => "OnRightSide",
            Self::OnFace => "OnFace",
            Self::Falling => "Falling",
        }
    }
    /// The state named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// `BatteryLevel`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BatteryLevel {
    /// Not known.
    Unknown,
    /// Low.
    Low,
    /// Nominal (the default).
    #[default]
    Nominal,
    /// Full.
    Full,
}

impl BatteryLevel {
    /// Every level.
    pub const ALL: [Self; 4] = [Self::Unknown, Self::Low, Self::Nominal, Self::Full];
    /// The original's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unknown => "Unknown",
            Self::Low => "Low",
            Self::Nominal => "Nominal",
            Self::Full => "Full",
        }
    }
    /// The level named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The five emotion dimensions of the mood manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Emotion {
    /// Happy.
    Happy,
    /// Confident.
    Confident,
    /// Social.
    Social,
    /// Stimulated.
    Stimulated,
    /// Trust.
    Trust,
}

impl Emotion {
    /// Every emotion.
    pub const ALL: [Self; 5] = [
        Self::Happy,
        Self::Confident,
        Self::Social,
        Self::Stimulated,
        Self::Trust,
    ];
    /// The original's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Happy => "Happy",
            Self::Confident => "Confident",
            Self::Social => "Social",
            Self::Stimulated => "Stimulated",
            Self::Trust => "Trust",
        }
    }
    /// The emotion named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// `SimpleMoodType`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SimpleMood {
    /// The default mood.
    #[default]
    Default,
    /// Low stimulation.
    LowStim,
    /// Medium stimulation.
    MedStim,
    /// High stimulation.
    HighStim,
    /// Frustrated.
    Frustrated,
}

impl SimpleMood {
    /// Every mood.
    pub const ALL: [Self; 5] = [
        Self::Default,
        Self::LowStim,
        Self::MedStim,
        Self::HighStim,
        Self::Frustrated,
    ];
    /// The original's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Default => "Default",
            Self::LowStim => "LowStim",
            Self::MedStim => "MedStim",
            Self::HighStim => "HighStim",
            Self::Frustrated => "Frustrated",
        }
    }
    /// The mood named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Where the robot believes it is (`RobotInHabitat` reads it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Habitat {
    /// Not known (the default).
    #[default]
    Unknown,
    /// In its habitat.
    InHabitat,
    /// Not in its habitat.
    NotInHabitat,
}

/// An object the robot has located (its pose is known).
#[derive(Clone, Debug, PartialEq)]
pub struct LocatedObject {
    /// Index into [`catalog::OBJECT_TYPES`].
    pub object_type: u8,
    /// Robot timestamp of the last observation, ms.
    pub last_observed_ms: u64,
    /// Distance from the robot, mm.
    pub distance_mm: f32,
}

impl LocatedObject {
    /// The type's name.
    pub fn type_name(&self) -> &'static str {
        catalog::OBJECT_TYPES
            .get(usize::from(self.object_type))
            .copied()
            .unwrap_or("UnknownObject")
    }
    /// A light cube (`IsValidLightCube`).
    pub fn is_light_cube(&self) -> bool {
        (1..=3).contains(&self.object_type)
    }
    /// A charger (`IsChargerType`).
    pub fn is_charger(&self) -> bool {
        self.type_name() == "Charger_Basic"
    }
}

/// A face in face memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    /// Distance from the robot's head, mm (None: its pose cannot be computed relative to
    /// the robot).
    pub distance_mm: Option<f32>,
    /// The face has a name.
    pub named: bool,
    /// Its name, when the scenario gives one (named faces' sightings are kept by name).
    pub name: Option<Box<str>>,
    /// Engine time it was last seen.
    pub last_seen: Duration,
}

/// The behavior timers (`BehaviorTimerManager`): one per [`catalog::BEHAVIOR_TIMERS`] name,
/// each with the time it was last reset (never reset: none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BehaviorTimers {
    reset_at: [Option<Duration>; 10],
}

impl BehaviorTimers {
    /// The index of timer `name`.
    pub fn index(name: &str) -> Option<usize> {
        catalog::BEHAVIOR_TIMERS.iter().position(|n| *n == name)
    }
    /// Resets timer `index` at `now`.
    pub fn reset(&mut self, index: usize, now: Duration) {
        if let Some(t) = self.reset_at.get_mut(index) {
            *t = Some(now);
        }
    }
    /// When timer `index` was last reset.
    pub fn reset_at(&self, index: usize) -> Option<Duration> {
        self.reset_at.get(index).copied().flatten()
    }
    /// "Has the cooldown expired": never reset → `never_reset`; else elapsed > `cooldown`
    /// (strictly).
    pub fn expired(
        &self,
        index: usize,
        cooldown: Duration,
        now: Duration,
        never_reset: bool,
    ) -> bool {
        match self.reset_at(index) {
            None => never_reset,
            Some(t) => now.saturating_sub(t) > cooldown,
        }
    }
}

/// The whiteboard: post-behavior suggestions (suggestion → the tick it was offered) and the
/// exploring cooldown's extra seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Whiteboard {
    suggestions: [Option<u64>; 7],
    /// Extra exploring cooldown in seconds, clamped to 0–800 (spec §3.3).
    pub exploring_extra_s: f32,
}

impl Whiteboard {
    /// The index of suggestion `name` in [`catalog::POST_BEHAVIOR_SUGGESTIONS`].
    pub fn index(name: &str) -> Option<usize> {
        catalog::POST_BEHAVIOR_SUGGESTIONS
            .iter()
            .position(|n| *n == name)
    }
    /// Offers suggestion `index` at `tick`.
    pub fn offer(&mut self, index: usize, tick: u64) {
        if let Some(s) = self.suggestions.get_mut(index) {
            *s = Some(tick);
        }
    }
    /// The tick suggestion `index` was last offered.
    pub fn offered_at(&self, index: usize) -> Option<u64> {
        self.suggestions.get(index).copied().flatten()
    }
    /// Clears every suggestion.
    pub fn clear(&mut self) {
        self.suggestions = [None; 7];
    }
}

/// The four cliff sensors.
pub const CLIFF_SENSORS: [&str; 4] = ["FL", "FR", "BL", "BR"];

impl fmt::Display for OffTreads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
