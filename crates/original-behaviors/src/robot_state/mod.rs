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

use std::time::Duration;

use std::any::Any;

use robot_runtime::behavior::{Inputs, World};

use crate::inputs;

mod changes;
mod patch;
mod signals;
mod types;

pub use patch::{StateError, STATE_KEYS};

pub use signals::{
    eye_color_index, AlexaSign, Illumination, MicSample, MotionArea, MotorCalibration,
    NameSighting, Signals, UserTimer, EYE_COLORS, SIGNAL_KEYS,
};

pub use types::{
    BatteryLevel, BehaviorTimers, Emotion, Face, Habitat, LocatedObject, OffTreads, SimpleMood,
    Whiteboard, CLIFF_SENSORS,
};

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
    /// The last engine error code message (index into
    /// [`catalog::ENGINE_ERROR_CODES`](crate::catalog::ENGINE_ERROR_CODES)).
    pub fn engine_error(&self) -> Option<u8> {
        self.engine_error.map(|(c, _)| c)
    }
    /// An engine error code message arrived (latched until the next one).
    pub fn receive_engine_error(&mut self, code: u8) {
        self.engine_error = Some((code, self.tick));
    }
    /// Adds or refreshes a located object of type `object_type` (index into
    /// [`catalog::OBJECT_TYPES`](crate::catalog::OBJECT_TYPES)), observed now.
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
