//! [`RobotState`]: the simulated robot the original's conditions read (spec §5.5): body and
//! sensors (treads, held, palm, charger, cliffs, battery, temperatures, prox, pitch, roll),
//! the world (located objects, faces), mood (emotions, simple mood), feature flags, the
//! behavior timers and the whiteboard's post-behavior suggestions. It is the runner's
//! [`World`] (the registry's world factory makes one per loaded tree); the robot sets it
//! (typed setters, or [`RobotState::apply_json`] for scenario lines such as
//! `{"on_charger": true}`); conditions and classes read it ([`RobotAccess`](crate::RobotAccess)).
//!
//! Times are the runner's virtual engine time (`Duration` since start). A setter stamps a
//! change with the state's current time: the runner sets it at the start of every tick, so a
//! change made between two ticks carries the time of the last one.

use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value};

use std::any::Any;

use robot_runtime::behavior::{Inputs, World};

use crate::catalog;
use crate::inputs;

mod signals;

pub use signals::{
    eye_color_index, AlexaSign, Illumination, MicSample, MotionArea, MotorCalibration,
    NameSighting, Signals, UserTimer, EYE_COLORS, SIGNAL_KEYS,
};

/// `OffTreadsState`: how the robot rests.
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

/// The simulated robot (see the [module documentation](self)). Plain fields are read as
/// they are; fields whose change time a condition reads have setters.
#[derive(Clone, Debug)]
pub struct RobotState {
    now: Duration,
    tick: u64,
    off_treads: OffTreads,
    off_treads_changed: Duration,
    /// The battery level at the last clock update (to notice Full → Nominal).
    last_battery: BatteryLevel,
    being_held: bool,
    being_held_changed: Duration,
    held_in_palm: bool,
    palm_since: Duration,
    last_in_palm: Option<Duration>,
    cliffs: u8,
    /// Per count 0–4: since when the count has been at least that (count 0: since it last
    /// dropped to 0).
    cliff_since: [Option<Duration>; 5],
    simple_mood: SimpleMood,
    mood_transition: Option<(SimpleMood, SimpleMood, u64)>,
    last_poked: Option<Duration>,
    touched_since: Option<Duration>,
    engine_error: Option<(u8, u64)>,
    /// Features set explicitly (few: a list is faster to search than a hash map).
    features: Vec<(Box<str>, bool)>,
    emotion_events: Vec<Box<str>>,
    /// Picked up (the robot's pick-up detection).
    pub picked_up: bool,
    /// On the charger's electrical contacts.
    pub on_charger: bool,
    /// Physically on the charger platform (contacts not required).
    pub on_charger_platform: bool,
    /// Carrying an object (a cube on the lift).
    pub carrying_object: bool,
    /// The battery level.
    pub battery_level: BatteryLevel,
    /// CPU temperature, °C.
    pub cpu_temp_c: f32,
    /// Battery temperature, °C.
    pub battery_temp_c: f32,
    /// Charging stalled because too hot.
    pub too_hot_to_charge: bool,
    /// Habitat belief.
    pub habitat: Habitat,
    /// The cube-interaction tracker believes the user holds a cube.
    pub user_holding_cube: bool,
    /// Proximity sensor reading, mm (None: nothing sensed).
    pub prox_mm: Option<f32>,
    /// Pitch, degrees.
    pub pitch_deg: f32,
    /// Roll, degrees.
    pub roll_deg: f32,
    /// Filtered head-accelerometer magnitude (`RobotShaken`).
    pub accel_magnitude: f32,
    /// Objects with a known pose.
    pub objects: Vec<LocatedObject>,
    /// Robot timestamp of the latest robot message, ms.
    pub latest_message_ms: u64,
    /// Face memory.
    pub faces: Vec<Face>,
    /// Eye contact with a tracked face (updated within 500 ms).
    pub eye_contact: bool,
    /// Emotion values (index: [`Emotion`] order), each −1 to 1.
    pub emotions: [f32; 5],
    /// A cube connection is active.
    pub cube_connected: bool,
    /// Unexpected movement detected.
    pub unexpected_movement: bool,
    /// Hours since the robot was first switched on (exploring cooldown base).
    pub hours_alive: f32,
    /// Night time.
    pub night_time: bool,
    /// This boot is a maintenance reboot.
    pub maintenance_reboot: bool,
    /// An Alexa interaction is going on.
    pub alexa_active: bool,
    /// Placed on a slope.
    pub placed_on_slope: bool,
    /// An obstacle is detected.
    pub obstacle_detected: bool,
    /// A salient point is detected.
    pub salient_point_detected: bool,
    /// Motion observed (within one tick).
    pub motion_detected: bool,
    /// A beat is detected.
    pub beat_detected: bool,
    /// A possible beat is detected.
    pub potential_beat_detected: bool,
    /// Engine time of the robot's first activation (`ExploringCooldownMet` counts from it).
    pub behavior_timers: BehaviorTimers,
    /// Post-behavior suggestions and the exploring cooldown.
    pub whiteboard: Whiteboard,
    /// What the class predicates read besides the conditions' state (events, service
    /// requests, system facts): see [`Signals`].
    pub signals: Signals,
    /// A feature not set in the table is enabled when this is true (the default: a robot
    /// state that lets every feature through).
    pub features_default: bool,
}

impl Default for RobotState {
    fn default() -> Self {
        Self {
            now: Duration::ZERO,
            tick: 0,
            off_treads: OffTreads::OnTreads,
            off_treads_changed: Duration::ZERO,
            being_held: false,
            being_held_changed: Duration::ZERO,
            held_in_palm: false,
            palm_since: Duration::ZERO,
            last_in_palm: None,
            cliffs: 0,
            cliff_since: [Some(Duration::ZERO), None, None, None, None],
            simple_mood: SimpleMood::Default,
            mood_transition: None,
            last_poked: None,
            touched_since: None,
            engine_error: None,
            features: Vec::new(),
            emotion_events: Vec::new(),
            picked_up: false,
            on_charger: false,
            on_charger_platform: false,
            carrying_object: false,
            battery_level: BatteryLevel::Nominal,
            cpu_temp_c: 45.0,
            battery_temp_c: 30.0,
            too_hot_to_charge: false,
            habitat: Habitat::Unknown,
            user_holding_cube: false,
            prox_mm: None,
            pitch_deg: 0.0,
            roll_deg: 0.0,
            accel_magnitude: 0.0,
            objects: Vec::new(),
            latest_message_ms: 0,
            faces: Vec::new(),
            eye_contact: false,
            emotions: [0.0; 5],
            cube_connected: false,
            unexpected_movement: false,
            hours_alive: 0.0,
            night_time: false,
            maintenance_reboot: false,
            alexa_active: false,
            placed_on_slope: false,
            obstacle_detected: false,
            salient_point_detected: false,
            motion_detected: false,
            beat_detected: false,
            potential_beat_detected: false,
            behavior_timers: BehaviorTimers::default(),
            whiteboard: Whiteboard::default(),
            features_default: true,
            signals: Signals::default(),
            last_battery: BatteryLevel::Nominal,
        }
    }
}

impl RobotState {
    /// The state's current engine time (set by the runner every tick).
    pub fn now(&self) -> Duration {
        self.now
    }
    /// The state's current tick.
    pub fn tick(&self) -> u64 {
        self.tick
    }
    fn set_robot_clock(&mut self, now: Duration, tick: u64) {
        self.now = now;
        self.tick = tick;
        self.latest_message_ms = u64::try_from(now.as_millis()).unwrap_or(u64::MAX);
        self.derive_signals();
    }

    /// The signals the robot state derives from its plain fields (they are set directly,
    /// so the change is noticed at the next clock update, as the original's battery and
    /// charger components report it on their next message).
    fn derive_signals(&mut self) {
        if self.last_battery != self.battery_level {
            if self.last_battery == BatteryLevel::Full
                && self.battery_level == BatteryLevel::Nominal
            {
                self.signals.battery_left_full = Some(self.now);
            }
            self.last_battery = self.battery_level;
        }
        match (self.on_charger_platform, self.signals.on_platform_since) {
            (true, None) => self.signals.on_platform_since = Some(self.now),
            (false, Some(_)) => self.signals.on_platform_since = None,
            _ => {}
        }
    }

    /// The off-treads state and when it last changed.
    pub fn off_treads(&self) -> (OffTreads, Duration) {
        (self.off_treads, self.off_treads_changed)
    }
    /// Sets the off-treads state (stamped when it changes).
    pub fn set_off_treads(&mut self, s: OffTreads) {
        if s != self.off_treads {
            self.off_treads = s;
            self.off_treads_changed = self.now;
            // Put down onto a cliff: back on its treads while a sensor sees one
            // (ReactToCliff's putDownOnCliff).
            if s == OffTreads::OnTreads && self.cliffs != 0 {
                self.signals.put_down_on_cliff = Some(self.now);
            }
        }
    }
    /// Being held, and when that last changed.
    pub fn being_held(&self) -> (bool, Duration) {
        (self.being_held, self.being_held_changed)
    }
    /// Sets "being held" (stamped when it changes).
    pub fn set_being_held(&mut self, held: bool) {
        if held != self.being_held {
            self.being_held = held;
            self.being_held_changed = self.now;
        }
    }
    /// Held in a palm.
    pub fn held_in_palm(&self) -> bool {
        self.held_in_palm
    }
    /// Sets "held in a palm".
    pub fn set_held_in_palm(&mut self, held: bool) {
        if held == self.held_in_palm {
            return;
        }
        if held {
            self.palm_since = self.now;
        } else {
            self.last_in_palm = Some(self.now);
        }
        self.held_in_palm = held;
    }
    /// While held in a palm: time since it started; otherwise time since it last was (0
    /// while held; never held: the time since start).
    pub fn palm_durations(&self) -> (Duration, Duration) {
        if self.held_in_palm {
            (self.now.saturating_sub(self.palm_since), Duration::ZERO)
        } else {
            let since = self.last_in_palm.unwrap_or(Duration::ZERO);
            (Duration::ZERO, self.now.saturating_sub(since))
        }
    }
    /// The cliff sensors detecting (bit i = [`CLIFF_SENSORS`]`[i]`).
    pub fn cliffs(&self) -> u8 {
        self.cliffs
    }
    /// Sets the cliff sensors detecting (bits as [`cliffs`](Self::cliffs)); the per-count
    /// start times follow.
    pub fn set_cliffs(&mut self, bits: u8) {
        let bits = bits & 0b1111;
        let old = self.cliffs.count_ones() as usize;
        let new = bits.count_ones() as usize;
        self.cliffs = bits;
        if new > old {
            for level in old + 1..=new {
                self.cliff_since[level] = Some(self.now);
            }
        } else if new < old {
            for level in new + 1..=old {
                self.cliff_since[level] = None;
            }
            if new == 0 {
                self.cliff_since[0] = Some(self.now);
            }
        }
    }
    /// Since when the detecting count has continuously been at least `level` (level 0:
    /// since it last dropped to 0).
    pub fn cliff_level_since(&self, level: usize) -> Option<Duration> {
        self.cliff_since.get(level).copied().flatten()
    }
    /// The simple mood.
    pub fn simple_mood(&self) -> SimpleMood {
        self.simple_mood
    }
    /// Sets the simple mood; a change is recorded as this tick's transition.
    pub fn set_simple_mood(&mut self, m: SimpleMood) {
        if m != self.simple_mood {
            self.mood_transition = Some((self.simple_mood, m, self.tick));
            self.simple_mood = m;
        }
    }
    /// The simple-mood transition of this tick, if any.
    pub fn mood_transition_this_tick(&self) -> Option<(SimpleMood, SimpleMood)> {
        self.mood_transition
            .filter(|(_, _, t)| *t == self.tick)
            .map(|(a, b, _)| (a, b))
    }
    /// The value of `e`.
    pub fn emotion(&self, e: Emotion) -> f32 {
        self.emotions[e as usize]
    }
    /// Raises `e` to at least `value` (`ensureMinStimValue`).
    pub fn ensure_emotion_at_least(&mut self, e: Emotion, value: f32) {
        let v = &mut self.emotions[e as usize];
        if *v < value {
            *v = value.min(1.0);
        }
    }
    /// Records a mood event (`emotionEventOnActivated`, a transition's `emotionEvent`). The
    /// emotion-event table of the original is not modelled: events are only recorded
    /// ([`emotion_events`](Self::emotion_events)).
    pub fn fire_emotion_event(&mut self, name: &str) {
        if self.emotion_events.len() >= 64 {
            self.emotion_events.remove(0);
        }
        self.emotion_events.push(name.into());
    }
    /// The last mood events fired (at most 64, oldest first).
    pub fn emotion_events(&self) -> &[Box<str>] {
        &self.emotion_events
    }
    /// Whether feature `name` is enabled (a feature not set: [`features_default`](Self::features_default)).
    pub fn feature_enabled(&self, name: &str) -> bool {
        self.features
            .iter()
            .find(|(n, _)| &**n == name)
            .map_or(self.features_default, |(_, on)| *on)
    }
    /// Enables or disables feature `name`.
    pub fn set_feature(&mut self, name: &str, enabled: bool) {
        match self.features.iter_mut().find(|(n, _)| &**n == name) {
            Some((_, on)) => *on = enabled,
            None => self.features.push((name.into(), enabled)),
        }
    }
    /// Records a poke now.
    pub fn poke(&mut self) {
        self.last_poked = Some(self.now);
    }
    /// Time since the last poke.
    pub fn since_poked(&self) -> Option<Duration> {
        self.last_poked.map(|t| self.now.saturating_sub(t))
    }
    /// Sets "touched" (the touch sensor).
    pub fn set_touched(&mut self, touched: bool) {
        match (touched, self.touched_since) {
            (true, None) => {
                self.touched_since = Some(self.now);
                self.signals.touch_changed = Some(self.now);
                self.signals.touch_presses = self.signals.touch_presses.saturating_add(1);
            }
            (false, Some(_)) => {
                self.touched_since = None;
                self.signals.touch_changed = Some(self.now);
            }
            _ => {}
        }
    }
    /// How long the robot has been touched.
    pub fn touched_for(&self) -> Option<Duration> {
        self.touched_since.map(|t| self.now.saturating_sub(t))
    }
    /// The last engine error code message (index into [`catalog::ENGINE_ERROR_CODES`]).
    pub fn engine_error(&self) -> Option<u8> {
        self.engine_error.map(|(c, _)| c)
    }
    /// An engine error code message arrived (latched until the next one).
    pub fn receive_engine_error(&mut self, code: u8) {
        self.engine_error = Some((code, self.tick));
    }
    /// Adds or refreshes a located object of type `object_type` (index into
    /// [`catalog::OBJECT_TYPES`]), observed now.
    pub fn observe_object(&mut self, object_type: u8, distance_mm: f32) {
        let ms = self.latest_message_ms;
        match self
            .objects
            .iter_mut()
            .find(|o| o.object_type == object_type)
        {
            Some(o) => {
                o.last_observed_ms = ms;
                o.distance_mm = distance_mm;
            }
            None => self.objects.push(LocatedObject {
                object_type,
                last_observed_ms: ms,
                distance_mm,
            }),
        }
    }
    /// The exploring cooldown of the whiteboard (spec §3.3): a base from hours alive plus
    /// the extra from recent intents.
    pub fn exploring_cooldown(&self) -> Duration {
        let h = self.hours_alive;
        let base = match h {
            h if h < 2.0 => 10.0,
            h if h < 24.0 => 20.0,
            h if h < 48.0 => 40.0,
            h if h < 72.0 => 90.0,
            h if h < 120.0 => 120.0,
            h if h < 168.0 => 240.0,
            _ => 300.0,
        };
        let extra = self.whiteboard.exploring_extra_s.clamp(0.0, 800.0);
        Duration::from_secs_f32(base + extra)
    }
    /// Adds the whiteboard's exploring-cooldown change for a new pending intent (spec §3.3).
    pub fn note_pending_intent(&mut self, tag_name: &str) {
        let delta: f32 = match tag_name {
            "imperative_quiet" | "imperative_shutup" => 600.0,
            "global_stop" | "greeting_goodnight" | "imperative_scold" | "system_charger"
            | "system_sleep" => 300.0,
            "imperative_lookatme" => 120.0,
            "explore_start" => {
                self.whiteboard.exploring_extra_s = 0.0;
                return;
            }
            t if t.starts_with("play_") || t.starts_with("game_") || t == "imperative_come" => {
                -60.0
            }
            "blackjack_hit"
            | "blackjack_stand"
            | "blackjack_playagain"
            | "imperative_affirmative"
            | "imperative_praise"
            | "global_delete"
            | "set_timer" => 0.0,
            _ => 30.0,
        };
        let e = &mut self.whiteboard.exploring_extra_s;
        *e = (*e + delta).clamp(0.0, 800.0);
    }

    /// Applies a JSON patch (scenario `state` lines): every valid key is applied, every bad
    /// one reported (the others still apply). Keys: see [`STATE_KEYS`].
    pub fn apply_json(&mut self, patch: &Map<String, Value>) -> Vec<StateError> {
        let mut errors = Vec::new();
        for (key, v) in patch {
            if let Err(reason) = self.apply_key(key, v) {
                errors.push(StateError {
                    key: key.clone(),
                    reason,
                });
            }
        }
        errors
    }

    fn apply_key(&mut self, key: &str, v: &Value) -> Result<(), String> {
        let b = || {
            v.as_bool()
                .ok_or_else(|| format!("expected a boolean, found {v}"))
        };
        let f = || {
            v.as_f64()
                .filter(|x| x.is_finite())
                .map(|x| x as f32)
                .ok_or_else(|| format!("expected a number, found {v}"))
        };
        let s = || {
            v.as_str()
                .ok_or_else(|| format!("expected a string, found {v}"))
        };
        let one_of = |names: &[&str]| format!("expected one of {}, found {v}", names.join(", "));
        match key {
            "on_charger" => self.on_charger = b()?,
            "on_charger_platform" => self.on_charger_platform = b()?,
            "off_treads" => {
                let names: Vec<&str> = OffTreads::ALL.iter().map(|s| s.name()).collect();
                let st = OffTreads::from_name(s()?).ok_or_else(|| one_of(&names))?;
                self.set_off_treads(st);
            }
            "picked_up" => self.picked_up = b()?,
            "being_held" => self.set_being_held(b()?),
            "held_in_palm" => self.set_held_in_palm(b()?),
            "carrying_object" => self.carrying_object = b()?,
            "cliffs" => {
                let bits = match v {
                    Value::Number(_) => match v.as_u64() {
                        Some(n @ 0..=4) => ((1u16 << n) - 1) as u8,
                        _ => return Err(format!("expected 0 to 4 sensors, found {v}")),
                    },
                    Value::Array(a) => {
                        let mut bits = 0u8;
                        for x in a {
                            let i = x
                                .as_str()
                                .and_then(|n| CLIFF_SENSORS.iter().position(|c| *c == n))
                                .ok_or_else(|| {
                                    format!(
                                        "expected sensors of {}, found {x}",
                                        CLIFF_SENSORS.join(", ")
                                    )
                                })?;
                            bits |= 1 << i;
                        }
                        bits
                    }
                    _ => return Err(format!("expected a count or a list of sensors, found {v}")),
                };
                self.set_cliffs(bits);
            }
            "battery_level" => {
                let names: Vec<&str> = BatteryLevel::ALL.iter().map(|s| s.name()).collect();
                self.battery_level = BatteryLevel::from_name(s()?).ok_or_else(|| one_of(&names))?;
            }
            "cpu_temp_c" => self.cpu_temp_c = f()?,
            "battery_temp_c" => self.battery_temp_c = f()?,
            "too_hot_to_charge" => self.too_hot_to_charge = b()?,
            "in_habitat" => {
                self.habitat = match v {
                    Value::Bool(true) => Habitat::InHabitat,
                    Value::Bool(false) => Habitat::NotInHabitat,
                    Value::Null => Habitat::Unknown,
                    _ => return Err(format!("expected a boolean or null, found {v}")),
                }
            }
            "user_holding_cube" => self.user_holding_cube = b()?,
            "prox_mm" => {
                self.prox_mm = match v {
                    Value::Null => None,
                    _ => Some(f()?),
                }
            }
            "pitch_deg" => self.pitch_deg = f()?,
            "roll_deg" => self.roll_deg = f()?,
            "accel_magnitude" => self.accel_magnitude = f()?,
            "features" => {
                let o = v
                    .as_object()
                    .ok_or_else(|| format!("expected an object of feature: bool, found {v}"))?;
                let mut bad = Vec::new();
                for (name, on) in o {
                    match on.as_bool() {
                        Some(on) => self.set_feature(name, on),
                        None => bad.push(name.clone()),
                    }
                }
                if !bad.is_empty() {
                    return Err(format!("features {} must be booleans", bad.join(", ")));
                }
            }
            "emotions" => {
                let o = v
                    .as_object()
                    .ok_or_else(|| format!("expected an object of emotion: value, found {v}"))?;
                for (name, x) in o {
                    let e = Emotion::from_name(name).ok_or_else(|| {
                        let names: Vec<&str> = Emotion::ALL.iter().map(|e| e.name()).collect();
                        format!(
                            "unknown emotion {name:?} (expected one of {})",
                            names.join(", ")
                        )
                    })?;
                    let x = x
                        .as_f64()
                        .filter(|x| (-1.0..=1.0).contains(x))
                        .ok_or_else(|| format!("emotion {name} must be a number from -1 to 1"))?;
                    self.emotions[e as usize] = x as f32;
                }
            }
            "simple_mood" => {
                let names: Vec<&str> = SimpleMood::ALL.iter().map(|s| s.name()).collect();
                let m = SimpleMood::from_name(s()?).ok_or_else(|| one_of(&names))?;
                self.set_simple_mood(m);
            }
            "objects" => {
                let a = v
                    .as_array()
                    .ok_or_else(|| format!("expected an array of objects, found {v}"))?;
                let mut list = Vec::with_capacity(a.len());
                for o in a {
                    let ty = o
                        .get("type")
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("each object needs a string \"type\", found {o}"))?;
                    let i = catalog::OBJECT_TYPES
                        .iter()
                        .position(|n| *n == ty)
                        .ok_or_else(|| format!("unknown object type {ty:?}"))?;
                    let d = match o.get("distance_mm") {
                        None => 300.0,
                        Some(d) => d
                            .as_f64()
                            .filter(|d| d.is_finite() && *d >= 0.0)
                            .ok_or_else(|| {
                                format!("distance_mm must be a number >= 0, found {d}")
                            })? as f32,
                    };
                    list.push((i as u8, d));
                }
                self.objects.clear();
                for (i, d) in list {
                    self.observe_object(i, d);
                }
            }
            "faces" => {
                let a = v
                    .as_array()
                    .ok_or_else(|| format!("expected an array of faces, found {v}"))?;
                let mut faces = Vec::with_capacity(a.len());
                for o in a {
                    let d = match o.get("distance_mm") {
                        None | Some(Value::Null) => None,
                        Some(d) => Some(
                            d.as_f64()
                                .filter(|d| d.is_finite() && *d >= 0.0)
                                .ok_or_else(|| {
                                    format!("distance_mm must be a number >= 0, found {d}")
                                })? as f32,
                        ),
                    };
                    let name: Option<Box<str>> = match o.get("name") {
                        None | Some(Value::Null) => None,
                        Some(n) => Some(
                            n.as_str()
                                .map(str::trim)
                                .filter(|n| !n.is_empty())
                                .ok_or_else(|| {
                                    format!("name must be a non-empty string, found {n}")
                                })?
                                .into(),
                        ),
                    };
                    let named = match o.get("named") {
                        None => name.is_some(),
                        Some(n) => n
                            .as_bool()
                            .ok_or_else(|| format!("named must be a boolean, found {n}"))?,
                    };
                    if let Some(k) = o.as_object().and_then(|m| {
                        m.keys()
                            .find(|k| !["distance_mm", "named", "name"].contains(&k.as_str()))
                    }) {
                        return Err(format!(
                            "unknown key `{k}` in a face (distance_mm, named, name)"
                        ));
                    }
                    faces.push(Face {
                        distance_mm: d,
                        named,
                        name,
                        last_seen: self.now,
                    });
                }
                let now = self.now;
                self.signals
                    .sight_names(faces.iter().filter_map(|f| f.name.as_deref()), now);
                self.faces = faces;
            }
            "eye_contact" => self.eye_contact = b()?,
            "cube_connected" => self.cube_connected = b()?,
            "unexpected_movement" => self.unexpected_movement = b()?,
            "poked" => {
                if b()? {
                    self.poke();
                }
            }
            "touched" => self.set_touched(b()?),
            "engine_error" => {
                let name = s()?;
                let i = catalog::ENGINE_ERROR_CODES
                    .iter()
                    .position(|n| *n == name)
                    .ok_or_else(|| one_of(catalog::ENGINE_ERROR_CODES))?;
                self.receive_engine_error(i as u8);
            }
            "hours_alive" => self.hours_alive = f()?.max(0.0),
            "night_time" => self.night_time = b()?,
            "maintenance_reboot" => self.maintenance_reboot = b()?,
            "alexa_active" => self.alexa_active = b()?,
            "placed_on_slope" => self.placed_on_slope = b()?,
            "obstacle_detected" => self.obstacle_detected = b()?,
            "salient_point_detected" => self.salient_point_detected = b()?,
            "motion_detected" => self.motion_detected = b()?,
            "beat_detected" => self.beat_detected = b()?,
            "reset_timers" => {
                let a = v
                    .as_array()
                    .ok_or_else(|| format!("expected an array of timer names, found {v}"))?;
                for t in a {
                    let i = t
                        .as_str()
                        .and_then(BehaviorTimers::index)
                        .ok_or_else(|| one_of(catalog::BEHAVIOR_TIMERS))?;
                    let now = self.now;
                    self.behavior_timers.reset(i, now);
                }
            }
            "suggestion" => {
                let i = Whiteboard::index(s()?)
                    .ok_or_else(|| one_of(catalog::POST_BEHAVIOR_SUGGESTIONS))?;
                let tick = self.tick;
                self.whiteboard.offer(i, tick);
            }
            other => {
                let now = self.now;
                return match self.signals.apply(other, v, now) {
                    Some(r) => r,
                    None => Err(format!(
                        "unknown key (expected one of {}, {})",
                        STATE_KEYS.join(", "),
                        SIGNAL_KEYS.join(", ")
                    )),
                };
            }
        }
        Ok(())
    }

    /// The inputs (see [`inputs`]) whose fields differ between this state and `prev`. The
    /// clock (`now`, `tick`, `latest_message_ms`) is time, not an input; the mood-event log
    /// is read by no condition.
    pub fn changed_from(&self, prev: &RobotState) -> Inputs {
        let mut c = Inputs::NONE;
        let mut on = |changed: bool, i: Inputs| {
            if changed {
                c |= i;
            }
        };
        on(
            self.off_treads != prev.off_treads
                || self.off_treads_changed != prev.off_treads_changed,
            inputs::OFF_TREADS,
        );
        on(
            self.being_held != prev.being_held
                || self.being_held_changed != prev.being_held_changed,
            inputs::BEING_HELD,
        );
        on(
            self.held_in_palm != prev.held_in_palm
                || self.palm_since != prev.palm_since
                || self.last_in_palm != prev.last_in_palm,
            inputs::PALM,
        );
        on(
            self.cliffs != prev.cliffs || self.cliff_since != prev.cliff_since,
            inputs::CLIFFS,
        );
        on(
            self.simple_mood != prev.simple_mood || self.mood_transition != prev.mood_transition,
            inputs::MOOD,
        );
        on(self.last_poked != prev.last_poked, inputs::POKE);
        on(self.touched_since != prev.touched_since, inputs::TOUCH);
        on(self.engine_error != prev.engine_error, inputs::ENGINE_ERROR);
        on(
            self.features != prev.features || self.features_default != prev.features_default,
            inputs::FEATURES,
        );
        on(self.picked_up != prev.picked_up, inputs::PICKED_UP);
        on(self.on_charger != prev.on_charger, inputs::ON_CHARGER);
        on(
            self.on_charger_platform != prev.on_charger_platform,
            inputs::ON_CHARGER_PLATFORM,
        );
        on(
            self.carrying_object != prev.carrying_object,
            inputs::CARRYING,
        );
        on(self.battery_level != prev.battery_level, inputs::BATTERY);
        on(
            self.cpu_temp_c != prev.cpu_temp_c || self.battery_temp_c != prev.battery_temp_c,
            inputs::TEMPERATURES,
        );
        on(
            self.too_hot_to_charge != prev.too_hot_to_charge,
            inputs::TOO_HOT,
        );
        on(self.habitat != prev.habitat, inputs::HABITAT);
        on(
            self.user_holding_cube != prev.user_holding_cube,
            inputs::USER_HOLDING_CUBE,
        );
        on(self.prox_mm != prev.prox_mm, inputs::PROX);
        on(
            self.pitch_deg != prev.pitch_deg || self.roll_deg != prev.roll_deg,
            inputs::POSE,
        );
        on(self.accel_magnitude != prev.accel_magnitude, inputs::ACCEL);
        on(self.objects != prev.objects, inputs::OBJECTS);
        on(self.faces != prev.faces, inputs::FACES);
        on(self.eye_contact != prev.eye_contact, inputs::EYE_CONTACT);
        on(self.emotions != prev.emotions, inputs::EMOTIONS);
        on(
            self.cube_connected != prev.cube_connected,
            inputs::CUBE_CONNECTED,
        );
        on(
            self.unexpected_movement != prev.unexpected_movement,
            inputs::UNEXPECTED_MOVEMENT,
        );
        on(self.hours_alive != prev.hours_alive, inputs::HOURS_ALIVE);
        on(self.night_time != prev.night_time, inputs::NIGHT_TIME);
        on(
            self.maintenance_reboot != prev.maintenance_reboot,
            inputs::MAINTENANCE_REBOOT,
        );
        on(self.alexa_active != prev.alexa_active, inputs::ALEXA);
        on(self.placed_on_slope != prev.placed_on_slope, inputs::SLOPE);
        on(
            self.obstacle_detected != prev.obstacle_detected,
            inputs::OBSTACLE,
        );
        on(
            self.salient_point_detected != prev.salient_point_detected,
            inputs::SALIENT_POINT,
        );
        on(self.motion_detected != prev.motion_detected, inputs::MOTION);
        on(
            self.beat_detected != prev.beat_detected
                || self.potential_beat_detected != prev.potential_beat_detected,
            inputs::BEAT,
        );
        on(self.behavior_timers != prev.behavior_timers, inputs::TIMERS);
        on(self.whiteboard != prev.whiteboard, inputs::WHITEBOARD);
        c | self.signals.changed_from(&prev.signals)
    }

    /// The bits of the activation gates this state blocks (spec §0 steps 2–5): 1 off its
    /// treads, 2 on the charger's contacts, 4 carrying, 8 no cube connection (see
    /// [`World::blocking`]).
    pub fn blocking_gates(&self) -> u8 {
        let mut bits = 0;
        if self.off_treads != OffTreads::OnTreads {
            bits |= 1;
        }
        if self.on_charger {
            bits |= 2;
        }
        if self.carrying_object {
            bits |= 4;
        }
        if !self.cube_connected {
            bits |= 8;
        }
        bits
    }
}

/// The original robot's state is the runner's world.
impl World for RobotState {
    fn set_clock(&mut self, now: Duration, tick: u64) {
        self.set_robot_clock(now, tick);
    }
    fn blocking(&self) -> u8 {
        self.blocking_gates()
    }
    fn blocking_inputs(&self, gates: u8) -> Inputs {
        let mut i = Inputs::NONE;
        for (bit, input) in [
            (1, inputs::OFF_TREADS),
            (2, inputs::ON_CHARGER),
            (4, inputs::CARRYING),
            (8, inputs::CUBE_CONNECTED),
        ] {
            if gates & bit != 0 {
                i |= input;
            }
        }
        i
    }
    fn clone_world(&self) -> Box<dyn World> {
        Box::new(self.clone())
    }
    fn clone_into_world(&self, target: &mut Box<dyn World>) {
        match (&mut **target as &mut dyn Any).downcast_mut::<RobotState>() {
            // Overwritten in place: no new box.
            Some(copy) => copy.clone_from(self),
            None => *target = self.clone_world(),
        }
    }
    fn changed_inputs(&self, before: &dyn World) -> Inputs {
        match (before as &dyn Any).downcast_ref::<RobotState>() {
            Some(prev) => self.changed_from(prev),
            None => Inputs::WORLD,
        }
    }
    fn reset_timer(&mut self, index: usize) {
        let now = self.now;
        self.behavior_timers.reset(index, now);
    }
    fn offer_suggestion(&mut self, index: usize, tick: u64) {
        self.whiteboard.offer(index, tick);
    }
    fn emotion_event(&mut self, name: &str) {
        self.fire_emotion_event(name);
    }
    fn intent_pending(&mut self, tag: &str) {
        self.note_pending_intent(tag);
    }
}

/// The keys of [`RobotState::apply_json`].
pub const STATE_KEYS: &[&str] = &[
    "on_charger",
    "on_charger_platform",
    "off_treads",
    "picked_up",
    "being_held",
    "held_in_palm",
    "carrying_object",
    "cliffs",
    "battery_level",
    "cpu_temp_c",
    "battery_temp_c",
    "too_hot_to_charge",
    "in_habitat",
    "user_holding_cube",
    "prox_mm",
    "pitch_deg",
    "roll_deg",
    "accel_magnitude",
    "features",
    "emotions",
    "simple_mood",
    "objects",
    "faces",
    "eye_contact",
    "cube_connected",
    "unexpected_movement",
    "poked",
    "touched",
    "engine_error",
    "hours_alive",
    "night_time",
    "maintenance_reboot",
    "alexa_active",
    "placed_on_slope",
    "obstacle_detected",
    "salient_point_detected",
    "motion_detected",
    "beat_detected",
    "reset_timers",
    "suggestion",
];

/// A bad key of a robot-state patch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("robot state `{key}`: {reason}")]
pub struct StateError {
    /// The key.
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for OffTreads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
