//! [`Signals`]: what the original's class predicates read beyond the conditions' state
//! (original-class-predicates.md §1.2, §2): the events a class handles while it is in
//! activatable scope (a cliff stop, a motor calibration starting, a loud sound, a renamed
//! face, ...), the requests of other services (the SDK, the settings, Alexa), and a few
//! facts about the system (wall time known, storage full, power save).
//!
//! **Events are times.** The original hears an event only while the class is in scope, and
//! keeps a flag until the class has reacted. Here an event is the time it last happened
//! (the state's time when it was set: between two ticks, the earlier tick's); a class
//! compares it with the later of its scope entry and its last run
//! (`PredCx::heard` in [`crate::predicate`]), which gives the same answers without the class
//! running code while inactive, so its predicate stays a pure function the runner can cache.
//!
//! Every field is settable from a scenario `state` line ([`SIGNAL_KEYS`]; an event key takes
//! `true`, or an object with the event's data) and has an input bit ([`crate::inputs`]).

use std::time::Duration;

use serde_json::Value;

use robot_runtime::behavior::Inputs;

use crate::inputs;

/// One motor's calibration (head or lift).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MotorCalibration {
    /// The last "calibration started" message with "auto started" set.
    pub auto_started: Option<Duration>,
    /// The last "calibration stopped" message.
    pub stopped: Option<Duration>,
    /// The motor reports itself calibrated (default true).
    pub calibrated: bool,
    /// The motor is out of its bounds.
    pub out_of_bounds: bool,
    /// Its encoder is invalid.
    pub encoder_invalid: bool,
}

impl Default for MotorCalibration {
    fn default() -> Self {
        Self {
            auto_started: None,
            stopped: None,
            calibrated: true,
            out_of_bounds: false,
            encoder_invalid: false,
        }
    }
}

impl MotorCalibration {
    /// An auto-started calibration with no "stopped" since: when it started.
    pub fn running_since(&self) -> Option<Duration> {
        match (self.auto_started, self.stopped) {
            (Some(s), Some(t)) if t >= s => None,
            (s, _) => s,
        }
    }
    /// Out of bounds or with an invalid encoder.
    pub fn needs_calibration(&self) -> bool {
        self.out_of_bounds || self.encoder_invalid
    }
}

/// A mic-power sample that passed the microphone's own filter: where a loud sound came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MicSample {
    /// Clock direction, 0 (straight ahead) to 11.
    pub direction: u8,
    /// Power.
    pub power: f32,
    /// Confidence.
    pub confidence: u32,
    /// When it was heard.
    pub at: Duration,
}

/// The ambient-light belief (`IlluminationDetected`, ReactToDarkness).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Illumination {
    /// Not known (the default).
    #[default]
    Unknown,
    /// Lit.
    Illuminated,
    /// Dark.
    Darkened,
}

impl Illumination {
    /// Every value.
    pub const ALL: [Self; 3] = [Self::Unknown, Self::Illuminated, Self::Darkened];
    /// The original's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unknown => "Unknown",
            Self::Illuminated => "Illuminated",
            Self::Darkened => "Darkened",
        }
    }
}

/// An area of the camera image where motion is seen (ReactToMotion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MotionArea {
    /// Left.
    Left,
    /// Right.
    Right,
    /// Top.
    Top,
}

impl MotionArea {
    /// Every area, in index order.
    pub const ALL: [Self; 3] = [Self::Left, Self::Right, Self::Top];
    /// The original's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Left => "Left",
            Self::Right => "Right",
            Self::Top => "Top",
        }
    }
}

/// The robot's one user timer (the timer coordinator's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserTimer {
    /// When it was set.
    pub set_at: Duration,
    /// When it rings.
    pub rings_at: Duration,
}

/// An Alexa sign-in or sign-out request (app or intent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlexaSign {
    /// Sign in.
    In,
    /// Sign out.
    Out,
}

/// A named face's sightings: the time before the current sighting, and the current one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameSighting {
    /// The name.
    pub name: Box<str>,
    /// The previous sighting (None: first seen in this robot's memory).
    pub previous: Option<Duration>,
    /// The latest sighting.
    pub last: Duration,
}

/// What the class predicates read besides the conditions' state (see the
/// `signals` module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Signals {
    /// The last RobotStopped with reason CLIFF (`cliff_stop`).
    pub cliff_stop: Option<Duration>,
    /// The last put-down onto a cliff: the off-treads state became OnTreads while a cliff
    /// sensor detected (set by the robot state itself).
    pub put_down_on_cliff: Option<Duration>,
    /// Head motor calibration.
    pub head: MotorCalibration,
    /// Lift motor calibration.
    pub lift: MotorCalibration,
    /// The last touch-sensor change (press or release; `touched` sets it).
    pub touch_changed: Option<Duration>,
    /// Touch presses so far.
    pub touch_presses: u32,
    /// The last loud sound (`sound`).
    pub sound: Option<MicSample>,
    /// The SDK's requested control level (None: it does not want control).
    pub sdk_control: Option<i64>,
    /// The SDK wants the behavior lock.
    pub sdk_lock: bool,
    /// The master volume, 1 to 5 (0: muted).
    pub volume: u8,
    /// The last master-volume change notification.
    pub volume_changed: Option<Duration>,
    /// An eye-color settings update pending since then.
    pub eye_color_update: Option<Duration>,
    /// The ambient-light belief and since when.
    pub illumination: (Illumination, Duration),
    /// Per [`MotionArea`], the last motion seen there.
    pub motion: [Option<Duration>; 3],
    /// The last face-renamed message with a non-empty name.
    pub face_renamed: Option<Duration>,
    /// The last time a stable gaze direction was seen.
    pub gaze: Option<Duration>,
    /// Named faces and their sightings (persisted across sightings, as the original's
    /// last-seen bookkeeping is).
    pub sightings: Vec<NameSighting>,
    /// The power button held since then.
    pub power_button: Option<Duration>,
    /// The last start-shutdown-animation message.
    pub shutdown_anim: Option<Duration>,
    /// The Alexa component's UX state (`Idle` when nothing is going on).
    pub alexa_state: Box<str>,
    /// A pending Alexa sign-in/out request.
    pub alexa_sign: Option<AlexaSign>,
    /// The user timer.
    pub timer: Option<UserTimer>,
    /// The approximate local wall time is known (default true).
    pub wall_time_known: bool,
    /// Photo storage is full.
    pub storage_full: bool,
    /// The robot is in power-save.
    pub power_save: bool,
    /// An animation is playing (the animation process's own, outside the behaviors).
    pub animation_playing: bool,
    /// The fork's user-defined behavior tree is enabled (a console variable, default off).
    pub user_defined_tree: bool,
    /// A dev build (dev and self-test classes run only there; default off).
    pub dev_build: bool,
    /// The last cube tap.
    pub cube_tapped: Option<Duration>,
    /// A light cube lies in the charger's docking area.
    pub cube_in_charger_area: bool,
    /// The last time the battery dropped from Full to Nominal (set by the robot state).
    pub battery_left_full: Option<Duration>,
    /// On the charger platform since then (set by the robot state; None off it).
    pub on_platform_since: Option<Duration>,
    // --- voice family (OCP §2.3) ---
    /// The direction a parent handed the mic-direction reaction (`ReactToMicDirection`:
    /// ReactToVoiceCommand's `behaviorOnIntent`, ReactToSound): clock direction 0 to 11 and
    /// when it was set (`mic_reaction`; bit `SOUND`).
    pub mic_reaction: Option<(u8, Duration)>,
    /// The eye-color setting, an index into [`EYE_COLORS`] (`eye_color`; bit `SETTINGS`).
    pub eye_color: u8,
    /// A wifi network is configured (default true): a failed voice request then counts as a
    /// cloud error, else as a wifi error (`wifi_configured`; bit `SYSTEM`).
    pub wifi_configured: bool,
}

/// The eye-color setting's values (the original's `EyeColor` settings enum, in order), with
/// the color word a voice request names (`imperative_eyecolor_specific.eye_color` is
/// `COLOR_<word>`).
pub const EYE_COLORS: [(&str, &str); 7] = [
    ("TIP_OVER_TEAL", "TEAL"),
    ("OVERFIT_ORANGE", "ORANGE"),
    ("UNCANNY_YELLOW", "YELLOW"),
    ("NON_LINEAR_LIME", "LIME"),
    ("SINGULARITY_SAPPHIRE", "SAPPHIRE"),
    ("FALSE_POSITIVE_PURPLE", "PURPLE"),
    ("CONFUSION_MATRIX_GREEN", "GREEN"),
];

/// The index in [`EYE_COLORS`] of a setting name or color word (case-insensitive, with or
/// without `COLOR_`; `BLUE` is the sapphire).
pub fn eye_color_index(name: &str) -> Option<u8> {
    let n = name.trim().to_ascii_uppercase();
    let word = n.strip_prefix("COLOR_").unwrap_or(&n);
    let word = if word == "BLUE" { "SAPPHIRE" } else { word };
    EYE_COLORS
        .iter()
        .position(|(setting, w)| *setting == n || *w == word)
        .map(|i| i as u8)
}

impl Default for Signals {
    fn default() -> Self {
        Self {
            cliff_stop: None,
            put_down_on_cliff: None,
            head: MotorCalibration::default(),
            lift: MotorCalibration::default(),
            touch_changed: None,
            touch_presses: 0,
            sound: None,
            sdk_control: None,
            sdk_lock: false,
            volume: 3,
            volume_changed: None,
            eye_color_update: None,
            illumination: (Illumination::Unknown, Duration::ZERO),
            motion: [None; 3],
            face_renamed: None,
            gaze: None,
            sightings: Vec::new(),
            power_button: None,
            shutdown_anim: None,
            alexa_state: "Idle".into(),
            alexa_sign: None,
            timer: None,
            wall_time_known: true,
            storage_full: false,
            power_save: false,
            animation_playing: false,
            user_defined_tree: false,
            dev_build: false,
            cube_tapped: None,
            cube_in_charger_area: false,
            battery_left_full: None,
            on_platform_since: None,
            mic_reaction: None,
            eye_color: 0,
            wifi_configured: true,
        }
    }
}

/// The scenario keys of [`Signals`] (`{"state": {...}}`).
pub const SIGNAL_KEYS: &[&str] = &[
    "cliff_stop",
    "motor_calibration",
    "head_calibrated",
    "lift_calibrated",
    "head_out_of_bounds",
    "lift_out_of_bounds",
    "encoders_invalid",
    "sound",
    "sdk_control",
    "sdk_lock",
    "volume",
    "volume_changed",
    "eye_color_update",
    "illumination",
    "motion",
    "face_renamed",
    "gaze",
    "power_button_held",
    "shutdown_anim",
    "alexa_state",
    "alexa_sign",
    "timer_s",
    "timer_cleared",
    "wall_time_known",
    "storage_full",
    "power_save",
    "animation_playing",
    "user_defined_tree",
    "dev_build",
    "cube_tapped",
    "cube_in_charger_area",
    // voice family
    "mic_reaction",
    "eye_color",
    "wifi_configured",
];

fn event(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => Err(format!("expected true (the event happened now), found {v}")),
    }
}

fn boolean(v: &Value) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("expected a boolean, found {v}"))
}

fn number(v: &Value, what: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{what}: expected a number, found {v}"))
}

impl Signals {
    /// Applies scenario key `key` at `now`. `None`: not a signal key.
    pub(crate) fn apply(
        &mut self,
        key: &str,
        v: &Value,
        now: Duration,
    ) -> Option<Result<(), String>> {
        SIGNAL_KEYS
            .contains(&key)
            .then(|| self.apply_inner(key, v, now))
    }

    fn apply_inner(&mut self, key: &str, v: &Value, now: Duration) -> Result<(), String> {
        match key {
            "cliff_stop" => {
                if event(v)? {
                    self.cliff_stop = Some(now);
                }
            }
            "motor_calibration" => {
                let o = v.as_object().ok_or_else(|| {
                    format!(r#"expected {{"head"|"lift": "started"|"stopped"}}, found {v}"#)
                })?;
                for (motor, what) in o {
                    let m = match motor.as_str() {
                        "head" => &mut self.head,
                        "lift" => &mut self.lift,
                        other => return Err(format!("unknown motor `{other}` (head, lift)")),
                    };
                    match what.as_str() {
                        Some("started") => {
                            m.auto_started = Some(now);
                            m.calibrated = false;
                        }
                        Some("stopped") => {
                            m.stopped = Some(now);
                            m.calibrated = true;
                        }
                        _ => {
                            return Err(format!(
                                "{motor}: expected \"started\" or \"stopped\", found {what}"
                            ))
                        }
                    }
                }
            }
            "head_calibrated" => self.head.calibrated = boolean(v)?,
            "lift_calibrated" => self.lift.calibrated = boolean(v)?,
            "head_out_of_bounds" => self.head.out_of_bounds = boolean(v)?,
            "lift_out_of_bounds" => self.lift.out_of_bounds = boolean(v)?,
            "encoders_invalid" => {
                let b = boolean(v)?;
                self.head.encoder_invalid = b;
                self.lift.encoder_invalid = b;
            }
            "sound" => {
                let o = v.as_object().ok_or_else(|| {
                    format!(
                        r#"expected {{"direction": 0..11, "power": n, "confidence": n}}, found {v}"#
                    )
                })?;
                for k in o.keys() {
                    if !["direction", "power", "confidence"].contains(&k.as_str()) {
                        return Err(format!(
                            "unknown key `{k}` in sound (direction, power, confidence)"
                        ));
                    }
                }
                let direction = o
                    .get("direction")
                    .and_then(Value::as_u64)
                    .filter(|d| *d < 12)
                    .ok_or("direction: expected a clock direction 0 to 11")?
                    as u8;
                let power = match o.get("power") {
                    Some(p) => number(p, "power")? as f32,
                    None => f32::MAX,
                };
                let confidence = match o.get("confidence") {
                    Some(c) => c
                        .as_u64()
                        .and_then(|c| u32::try_from(c).ok())
                        .ok_or("confidence: expected a whole number >= 0")?,
                    None => u32::MAX,
                };
                self.sound = Some(MicSample {
                    direction,
                    power,
                    confidence,
                    at: now,
                });
            }
            "sdk_control" => {
                self.sdk_control = match v {
                    Value::Null => None,
                    Value::Bool(false) => None,
                    _ => Some(
                        v.get("level")
                            .and_then(Value::as_i64)
                            .or_else(|| v.as_i64())
                            .ok_or_else(|| {
                                format!(r#"expected {{"level": n}}, a level, or null, found {v}"#)
                            })?,
                    ),
                }
            }
            "sdk_lock" => self.sdk_lock = boolean(v)?,
            "volume" => {
                let n = v
                    .as_u64()
                    .filter(|n| *n <= 5)
                    .ok_or_else(|| format!("expected a level 0 (mute) to 5, found {v}"))?;
                if n as u8 != self.volume {
                    self.volume = n as u8;
                    self.volume_changed = Some(now);
                }
            }
            "volume_changed" => {
                if event(v)? {
                    self.volume_changed = Some(now);
                }
            }
            "eye_color_update" => {
                self.eye_color_update = if boolean(v)? { Some(now) } else { None };
            }
            "illumination" => {
                let s = v.as_str().unwrap_or("");
                let i = Illumination::ALL
                    .into_iter()
                    .find(|i| i.name() == s)
                    .ok_or_else(|| {
                        format!("expected one of Unknown, Illuminated, Darkened, found {v}")
                    })?;
                if i != self.illumination.0 {
                    self.illumination = (i, now);
                }
            }
            "motion" => {
                let area = v
                    .get("area")
                    .and_then(Value::as_str)
                    .or_else(|| v.as_str())
                    .ok_or_else(|| {
                        format!(r#"expected {{"area": "Left"|"Right"|"Top"}}, found {v}"#)
                    })?;
                let i = MotionArea::ALL
                    .iter()
                    .position(|a| a.name() == area)
                    .ok_or_else(|| format!("unknown motion area `{area}` (Left, Right, Top)"))?;
                self.motion[i] = Some(now);
            }
            "face_renamed" => {
                let named = match v {
                    Value::Bool(b) => *b,
                    Value::String(s) => !s.trim().is_empty(),
                    _ => return Err(format!("expected the new name (a string), found {v}")),
                };
                if named {
                    self.face_renamed = Some(now);
                }
            }
            "gaze" => {
                if event(v)? {
                    self.gaze = Some(now);
                }
            }
            "power_button_held" => {
                self.power_button = match (boolean(v)?, self.power_button) {
                    (true, Some(t)) => Some(t),
                    (true, None) => Some(now),
                    (false, _) => None,
                }
            }
            "shutdown_anim" => {
                if event(v)? {
                    self.shutdown_anim = Some(now);
                }
            }
            "alexa_state" => {
                let s = v
                    .as_str()
                    .filter(|s| !s.trim().is_empty())
                    .ok_or_else(|| format!("expected a UX state name (Idle, Listening, Thinking, Speaking, ...), found {v}"))?;
                self.alexa_state = s.into();
            }
            "alexa_sign" => {
                self.alexa_sign = match v.as_str() {
                    Some("in") => Some(AlexaSign::In),
                    Some("out") => Some(AlexaSign::Out),
                    None if v.is_null() => None,
                    _ => return Err(format!("expected \"in\", \"out\" or null, found {v}")),
                }
            }
            "timer_s" => {
                let s = number(v, "timer_s")?;
                if !(0.0..=86_400.0 * 7.0).contains(&s) {
                    return Err(format!("expected 0 to 604800 seconds, found {v}"));
                }
                self.timer = Some(UserTimer {
                    set_at: now,
                    rings_at: now.saturating_add(Duration::from_secs_f64(s)),
                });
            }
            "timer_cleared" => {
                if event(v)? {
                    self.timer = None;
                }
            }
            "wall_time_known" => self.wall_time_known = boolean(v)?,
            "storage_full" => self.storage_full = boolean(v)?,
            "power_save" => self.power_save = boolean(v)?,
            "animation_playing" => self.animation_playing = boolean(v)?,
            "user_defined_tree" => self.user_defined_tree = boolean(v)?,
            "dev_build" => self.dev_build = boolean(v)?,
            "cube_tapped" => {
                if event(v)? {
                    self.cube_tapped = Some(now);
                }
            }
            "cube_in_charger_area" => self.cube_in_charger_area = boolean(v)?,
            // voice family
            "mic_reaction" => {
                self.mic_reaction = match v {
                    Value::Null => None,
                    _ => {
                        let d = v
                            .get("direction")
                            .unwrap_or(v)
                            .as_u64()
                            .filter(|d| *d < 12)
                            .ok_or_else(|| {
                                format!(r#"expected {{"direction": 0..11}}, a direction or null, found {v}"#)
                            })?;
                        Some((d as u8, now))
                    }
                }
            }
            "eye_color" => {
                let names: Vec<&str> = EYE_COLORS.iter().map(|(s, _)| *s).collect();
                self.eye_color = v.as_str().and_then(eye_color_index).ok_or_else(|| {
                    format!(
                        "expected one of {} (or a color word), found {v}",
                        names.join(", ")
                    )
                })?;
            }
            "wifi_configured" => self.wifi_configured = boolean(v)?,
            other => return Err(format!("unknown key `{other}`")),
        }
        Ok(())
    }

    /// Records sightings of the named faces in `names` at `now`.
    pub fn sight_names<'a>(&mut self, names: impl IntoIterator<Item = &'a str>, now: Duration) {
        for name in names {
            match self.sightings.iter_mut().find(|s| &*s.name == name) {
                Some(s) if s.last == now => {}
                Some(s) => {
                    s.previous = Some(s.last);
                    s.last = now;
                }
                None => self.sightings.push(NameSighting {
                    name: name.into(),
                    previous: None,
                    last: now,
                }),
            }
        }
    }

    /// The input bits whose fields differ from `prev`.
    pub fn changed_from(&self, prev: &Signals) -> Inputs {
        let mut c = Inputs::NONE;
        let mut on = |changed: bool, i: Inputs| {
            if changed {
                c |= i;
            }
        };
        on(
            self.cliff_stop != prev.cliff_stop || self.put_down_on_cliff != prev.put_down_on_cliff,
            inputs::CLIFF_EVENTS,
        );
        on(
            self.head != prev.head || self.lift != prev.lift,
            inputs::CALIBRATION,
        );
        on(
            self.touch_changed != prev.touch_changed || self.touch_presses != prev.touch_presses,
            inputs::TOUCH,
        );
        on(
            self.sound != prev.sound || self.mic_reaction != prev.mic_reaction,
            inputs::SOUND,
        );
        on(
            self.sdk_control != prev.sdk_control || self.sdk_lock != prev.sdk_lock,
            inputs::SDK,
        );
        on(
            self.volume != prev.volume
                || self.volume_changed != prev.volume_changed
                || self.eye_color_update != prev.eye_color_update
                || self.eye_color != prev.eye_color,
            inputs::SETTINGS,
        );
        on(self.illumination != prev.illumination, inputs::ILLUMINATION);
        on(self.motion != prev.motion, inputs::MOTION);
        on(
            self.face_renamed != prev.face_renamed
                || self.gaze != prev.gaze
                || self.sightings != prev.sightings,
            inputs::FACE_EVENTS,
        );
        on(
            self.power_button != prev.power_button || self.shutdown_anim != prev.shutdown_anim,
            inputs::POWER_BUTTON,
        );
        on(
            self.alexa_state != prev.alexa_state || self.alexa_sign != prev.alexa_sign,
            inputs::ALEXA,
        );
        on(self.timer != prev.timer, inputs::USER_TIMER);
        on(
            self.wall_time_known != prev.wall_time_known
                || self.storage_full != prev.storage_full
                || self.power_save != prev.power_save
                || self.animation_playing != prev.animation_playing
                || self.user_defined_tree != prev.user_defined_tree
                || self.dev_build != prev.dev_build
                || self.wifi_configured != prev.wifi_configured,
            inputs::SYSTEM,
        );
        on(
            self.cube_tapped != prev.cube_tapped
                || self.cube_in_charger_area != prev.cube_in_charger_area,
            inputs::CUBE_EVENTS,
        );
        on(
            self.battery_left_full != prev.battery_left_full,
            inputs::BATTERY,
        );
        on(
            self.on_platform_since != prev.on_platform_since,
            inputs::ON_CHARGER_PLATFORM,
        );
        c
    }
}
