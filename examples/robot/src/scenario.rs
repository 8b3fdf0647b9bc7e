//! Scenarios: what happens to the robot, when. A scenario is a text file in **JSON Lines**:
//! one event per line, in time order.
//!
//! ```text
//! # Comments start with `#` (or `//`); blank lines are skipped.
//! {"t": 0,    "note": "the user walks up to the robot"}
//! {"t": 100,  "trigger_word": {}, "say": "Hey Vector"}
//! {"t": 600,  "cloud": {"type": "result", "intent": "intent_weather_extend", "parameters": "{}", "metadata": ""}}
//! {"t": 900,  "cloud_hex": "090e696e74656e745f776561746865720200"}
//! {"t": 1500, "app_intent": {"intent": "intent_clock_settimer", "param": "60"}}
//! {"t": 2000, "hri": {"intent": "__intent_move_to__", "data": {"goal": "kitchen"}, "priority": 200}}
//! {"tick": 50, "action_done": {"action": "drive_to_charger", "result": "succeeded"}}
//! {"tick": 60, "state": {"on_charger": true, "off_treads": "InAir"}}
//! ```
//!
//! Every line is an object with:
//!
//! * its time: `"t"` in milliseconds since the start, **or** `"tick"` (a tick number): a
//!   non-negative integer (`1e3` is 1000; `2.5` is an error); times never go back, and none
//!   is past the [horizon](HORIZON_MS) (one day of robot time);
//! * exactly one event:
//!
//!   | key | value | what the robot gets |
//!   |---|---|---|
//!   | `cloud` | a `CloudMic::Message` in CLAD-JSON | the message, packed to bytes, as a datagram from the cloud process |
//!   | `cloud_hex` | captured bytes in hex (spaces allowed) | those bytes as a datagram, as they are (bytes that do not decode are an input too) |
//!   | `app_intent` | `{"intent": name, "param": text}` (`param` optional) | an intent from the companion app |
//!   | `hri` | a ROS4HRI intent message as JSON: `{"intent", "data" (object or JSON text), "source", "modality", "priority", "confidence"}`, any released version's spelling | an HRI intent (a touchscreen, a chatbot, a supervisor), validated by the robot's HRI intake (a bad one is reported, with every problem) |
//!   | `hri_hex` | a packed `Hri::IntentEnvelope` (`schemas/hri.clad`) in hex | an HRI intent as it arrives over a transport (bytes that do not decode are reported by the intake) |
//!   | `trigger_word` | `{}` or `{"will_open_stream": bool, "from_mute": bool}` | the wake word was heard |
//!   | `action_done` | `{"action": name, "result": "succeeded" \| "failed" \| "cancelled"}` (`result` optional) | a running action of that name ended (a robot whose actions run on hardware reports completions this way) |
//!   | `note` | text | nothing: a line in the timeline for the reader |
//!   | `state` | an object of robot-state keys (`original_behaviors::STATE_KEYS`: `on_charger`, `off_treads`, `features`, `objects`, ...) | the robot's state changes; the conditions of the behavior tree read it (a bad key is reported, the others apply) |
//!
//! * optionally `"say"`: what the user said, shown in the timeline beside the event.
//!
//! Unknown keys are errors at every level: beside the time and the event, inside `cloud` (the
//! fields of the `CloudMic::Message` member), inside `hri` (the fields of the ROS4HRI message,
//! [`HriIntent::FIELDS`](robot_runtime::hri::HriIntent::FIELDS)) and inside the other events.
//!
//! A line that breaks these rules is a [`ScenarioError`] naming the line and the problem; the
//! other lines still run. Lines are decoded one by one: a line that is not UTF-8 is one such
//! error ([`Scenario::parse_bytes`]).
//!
//! # Horizon
//!
//! A scenario spans at most [`HORIZON_MS`] (24 hours) of robot time and at most
//! [`HORIZON_TICKS`] ticks ([`horizon_tick`]): a line timed later is refused with
//! [`Problem::PastHorizon`] (and the rest runs). The robot runs idle stretches
//! as a discrete-event simulation (it jumps to its next wake-up or the next line instead of
//! ticking through them), so the horizon bounds what a run can cost, not what it usually
//! costs: a hostile `{"tick": 1e15}` or `{"t": 18446744073709551615}` is refused at once.

use std::fmt;

use robot_runtime::json_kind::kind_of;
use robot_runtime::wire::Wire;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::clad::cloud_mic::Message;

/// The scenario horizon in robot time: no line may be timed later than this many
/// milliseconds (24 hours).
pub const HORIZON_MS: u64 = 24 * 60 * 60 * 1000;

/// The scenario horizon in ticks: no line may fall on a later tick (2^24, about 16.8 million:
/// 9.7 days at 20 ticks a second, but 28 minutes at 10,000). What the robot does while busy
/// (an animation playing, a capability running) runs tick by tick; this bounds that cost.
pub const HORIZON_TICKS: u64 = 1 << 24;

/// The last tick within the horizon at `ticks_per_second`: the tick of [`HORIZON_MS`], or
/// [`HORIZON_TICKS`], whichever comes first.
pub fn horizon_tick(ticks_per_second: u32) -> u64 {
    When::Ms(HORIZON_MS)
        .tick(ticks_per_second)
        .min(HORIZON_TICKS)
}

/// One parsed scenario: its events in time order and the lines that were rejected.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    /// The events, in file order (which is time order).
    pub events: Vec<TimedEvent>,
    /// One error per rejected line; those lines are skipped.
    pub errors: Vec<ScenarioError>,
}

/// When an event happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Milliseconds since the start (`"t"`).
    Ms(u64),
    /// A tick number (`"tick"`).
    Tick(u64),
}

impl When {
    /// The tick this happens on at `ticks_per_second` (a time in ms falls on the tick whose
    /// period contains it).
    pub fn tick(self, ticks_per_second: u32) -> u64 {
        match self {
            Self::Ms(ms) => ms.saturating_mul(u64::from(ticks_per_second)) / 1000,
            Self::Tick(t) => t,
        }
    }
}

/// An event of a scenario, with its time and its source line.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedEvent {
    /// 1-based line number in the scenario text.
    pub line: usize,
    /// When.
    pub when: When,
    /// What the user said, if the line has `"say"`.
    pub say: Option<String>,
    /// What happens.
    pub event: ScenarioEvent,
}

/// What happens at one line of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum ScenarioEvent {
    /// A datagram from the cloud process (`cloud`, packed from CLAD-JSON, or `cloud_hex`).
    Cloud {
        /// The bytes.
        bytes: Vec<u8>,
        /// True when given as hex (captured bytes), false when packed from CLAD-JSON.
        captured: bool,
    },
    /// An intent from the companion app.
    AppIntent {
        /// The app intent name.
        intent: String,
        /// Its parameter.
        param: String,
    },
    /// A ROS4HRI intent message (`hri_actions_msgs/Intent` as JSON, rosbridge style; read
    /// leniently and validated by the robot's HRI intake, which reports every problem).
    Hri(Map<String, Value>),
    /// A packed `Hri::IntentEnvelope` (`hri_hex`, or a sample from a transport), admitted by
    /// the same intake; bytes that do not decode are a reported input too.
    HriPacked(Vec<u8>),
    /// The wake word.
    TriggerWord {
        /// The cloud stream will open.
        will_open_stream: bool,
        /// From the mute button.
        from_mute: bool,
    },
    /// A running action ended.
    ActionDone {
        /// The action's name.
        action: String,
        /// How it ended.
        result: ActionResult,
    },
    /// A line for the reader.
    Note(String),
    /// A change of the robot's state (`state`): robot-state keys, applied by the robot
    /// (`RobotState::apply_json`, which reports each bad key).
    State(Map<String, Value>),
}

/// A short description of a ROS4HRI message for the timeline: intent, roles, priority,
/// source and modality as given.
pub fn describe_hri(message: &Map<String, Value>) -> String {
    let text = |key: &str| match message.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    let mut out = text("intent")
        .or_else(|| text("action"))
        .unwrap_or_else(|| "(no intent)".into());
    if let Some(d) = text("data").filter(|d| !d.is_empty() && d != "{}") {
        out.push(' ');
        out.push_str(&d);
    }
    for (key, label) in [
        ("priority", "priority"),
        ("source", "from"),
        ("modality", "via"),
        ("confidence", "confidence"),
    ] {
        if let Some(v) = text(key) {
            out.push_str(&format!(" {label} {v}"));
        }
    }
    out
}

/// How an action ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionResult {
    /// It did what it should.
    Succeeded,
    /// It could not.
    Failed,
    /// It was stopped before the end.
    Cancelled,
}

impl ActionResult {
    /// `"succeeded"`, `"failed"`, `"cancelled"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// A rejected scenario line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("scenario line {line}: {problem}")]
pub struct ScenarioError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with a scenario line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// Not JSON.
    #[error("not valid JSON: {0}")]
    NotJson(String),
    /// JSON, but not an object.
    #[error("expected a JSON object, found {0}")]
    NotAnObject(&'static str),
    /// Neither `t` nor `tick`.
    #[error("no time: add \"t\" (milliseconds) or \"tick\"")]
    NoTime,
    /// Both `t` and `tick`.
    #[error("both \"t\" and \"tick\": give one")]
    TwoTimes,
    /// The time is not a non-negative integer.
    #[error("\"{key}\" must be a non-negative integer, found {found}")]
    BadTime {
        /// `t` or `tick`.
        key: &'static str,
        /// The JSON given.
        found: String,
    },
    /// Longer than [`MAX_LINE_BYTES`].
    #[error("longer than {max} bytes, more than any event needs (skipped unread)")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// Captured bytes longer than the type they are for can be.
    #[error("{len} bytes, but a `{type_name}` is at most {max} bytes")]
    TooLarge {
        /// The type.
        type_name: &'static str,
        /// The bytes given.
        len: usize,
        /// The type's maximum encoded size.
        max: usize,
    },
    /// Not UTF-8 text.
    #[error("not valid UTF-8 (byte {at} of the line is not)")]
    NotUtf8 {
        /// 1-based byte position in the line of the first invalid byte.
        at: usize,
    },
    /// Later than the scenario horizon ([`horizon_tick`]).
    #[error(
        "{this} is past the scenario horizon (24 h of robot time and at most {} ticks: the last \
         tick is {last_tick})",
        HORIZON_TICKS
    )]
    PastHorizon {
        /// This line's time, as written.
        this: String,
        /// The last tick within the horizon at the scenario's ticks per second.
        last_tick: u64,
    },
    /// A key inside an event that the event does not have.
    #[error(
        "unknown key \"{key}\" in {kind} ({}expected {expected})",
        meant.map(|m| format!("did you mean \"{m}\"? ")).unwrap_or_default()
    )]
    UnknownField {
        /// The event key.
        kind: &'static str,
        /// The key, with its path inside the event (`"intent"`, `"params.x"`).
        key: String,
        /// The key it most likely misspells.
        meant: Option<&'static str>,
        /// The keys the event has.
        expected: String,
    },
    /// Earlier than the previous event.
    #[error(
        "{this} is before the previous event ({previous}); scenario lines must be in time order"
    )]
    TimeGoesBack {
        /// This line's time.
        this: String,
        /// The previous event's time.
        previous: String,
    },
    /// No event key.
    #[error("no event: add one of {}", EVENT_KEYS.join(", "))]
    NoEvent,
    /// More than one event key.
    #[error("more than one event ({0}): one per line")]
    SeveralEvents(String),
    /// A key that is neither a time, an event nor `say`.
    #[error("unknown key \"{0}\" (expected t or tick, say, and one of {events})", events = EVENT_KEYS.join(", "))]
    UnknownKey(String),
    /// `say` is not a string.
    #[error("\"say\" must be a string")]
    BadSay,
    /// The event's value is malformed.
    #[error("bad {kind}: {reason}")]
    BadEvent {
        /// The event key.
        kind: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// The event keys a line may have (exactly one).
pub const EVENT_KEYS: &[&str] = &[
    "cloud",
    "cloud_hex",
    "app_intent",
    "hri",
    "hri_hex",
    "trigger_word",
    "action_done",
    "note",
    "state",
];

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ms(ms) => write!(f, "t {ms} ms"),
            Self::Tick(t) => write!(f, "tick {t}"),
        }
    }
}

impl Scenario {
    /// The events due by `tick`, from `*next` on, in order; moves `*next` past them. A run
    /// loop starts each tick by delivering these (the events are in time order).
    pub fn due(&self, next: &mut usize, tick: u64, ticks_per_second: u32) -> &[TimedEvent] {
        let rest = self.events.get(*next..).unwrap_or_default();
        let n = rest
            .iter()
            .take_while(|e| e.when.tick(ticks_per_second) <= tick)
            .count();
        *next += n;
        &rest[..n]
    }

    /// Parses a scenario. Never fails as a whole: each bad line becomes a [`ScenarioError`]
    /// (also logged with `tracing`) and the other lines are kept.
    ///
    /// Time order and the horizon are checked with `ticks_per_second` (`t` and `tick` lines
    /// may be mixed).
    pub fn parse(text: &str, ticks_per_second: u32) -> Self {
        Self::parse_bytes(text.as_bytes(), ticks_per_second)
    }

    /// [`parse`](Self::parse) on raw bytes, as read from a file: each line is decoded on its
    /// own, so a line that is not UTF-8 is one error ([`Problem::NotUtf8`]) and the others
    /// run; a line longer than [`MAX_LINE_BYTES`] is one error too ([`Problem::TooLong`]).
    /// Lines end with `\n` (a `\r` before it is blank space).
    pub fn parse_bytes(bytes: &[u8], ticks_per_second: u32) -> Self {
        let mut lines = Lines::new(ticks_per_second);
        for raw in bytes.split(|b| *b == b'\n') {
            if raw.len() > MAX_LINE_BYTES {
                lines.too_long();
            } else {
                lines.line(raw);
            }
        }
        lines.scenario
    }

    /// Reads a scenario from `input` (a file, standard input), line by line, keeping at most
    /// one line of [`MAX_LINE_BYTES`] in memory: a line longer than that, which no event
    /// needs, ends the reading with [`ReadError::TooLong`] (reading `/dev/zero` stops there
    /// instead of filling the memory). Otherwise as [`parse_bytes`](Self::parse_bytes).
    pub fn read(input: impl std::io::BufRead, ticks_per_second: u32) -> Result<Self, ReadError> {
        use std::io::BufRead;
        let mut lines = Lines::new(ticks_per_second);
        let mut input = input.take(0);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            // One byte over the limit tells a line at the limit from a longer one.
            input.set_limit(MAX_LINE_BYTES as u64 + 2);
            let n = input
                .read_until(b'\n', &mut buf)
                .map_err(|e| ReadError::Io(e.to_string()))?;
            if n == 0 {
                return Ok(lines.scenario);
            }
            let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
            if line.len() > MAX_LINE_BYTES {
                return Err(ReadError::TooLong {
                    line: lines.number + 1,
                    max: MAX_LINE_BYTES,
                });
            }
            lines.line(line);
        }
    }

    fn reject(&mut self, line: usize, problem: Problem) {
        let error = ScenarioError { line, problem };
        tracing::warn!(%error, "scenario line skipped");
        self.errors.push(error);
    }
}

/// The longest scenario line, in bytes: what the largest event needs (a captured
/// `CloudMic::Message` or `Hri::IntentEnvelope` of the largest size its type allows, every
/// byte written as a JSON `\u00XX` escape, 6 characters), plus 64 KiB for the rest of the
/// line. 852,370 bytes with our schemas. A longer line is refused: no input of ours needs it.
pub const MAX_LINE_BYTES: usize = {
    let cloud = match Message::MAX_SIZE {
        Some(n) => n,
        None => 0,
    };
    let hri = match crate::hri::IntentEnvelope::MAX_SIZE {
        Some(n) => n,
        None => 0,
    };
    let largest = if cloud > hri { cloud } else { hri };
    largest * 6 + 64 * 1024
};

/// Why a scenario could not be read at all (a bad line is a [`ScenarioError`], not this).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// A line longer than [`MAX_LINE_BYTES`]: not a scenario (reading stopped there).
    #[error(
        "line {line} is longer than {max} bytes, more than any scenario event needs: not a \
         scenario (reading stopped there)"
    )]
    TooLong {
        /// Its number.
        line: usize,
        /// The limit.
        max: usize,
    },
    /// The input could not be read.
    #[error("cannot read it: {0}")]
    Io(String),
}

/// A scenario being built line by line.
struct Lines {
    scenario: Scenario,
    number: usize,
    last: Option<When>,
    ticks_per_second: u32,
    horizon: u64,
    horizon_ms: u64,
}

impl Lines {
    fn new(ticks_per_second: u32) -> Self {
        let horizon = horizon_tick(ticks_per_second);
        // The last millisecond whose tick is within the horizon.
        let horizon_ms = HORIZON_MS
            .min((horizon + 1).saturating_mul(1000) / u64::from(ticks_per_second.max(1)) - 1);
        Lines {
            scenario: Scenario::default(),
            number: 0,
            last: None,
            ticks_per_second,
            horizon,
            horizon_ms,
        }
    }

    /// A line longer than [`MAX_LINE_BYTES`], not kept.
    fn too_long(&mut self) {
        self.number += 1;
        self.scenario.reject(
            self.number,
            Problem::TooLong {
                max: MAX_LINE_BYTES,
            },
        );
    }

    fn line(&mut self, raw: &[u8]) {
        self.number += 1;
        let line = self.number;
        let tps = self.ticks_per_second;
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                self.scenario.reject(
                    line,
                    Problem::NotUtf8 {
                        at: e.valid_up_to() + 1,
                    },
                );
                return;
            }
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            return;
        }
        match parse_line(trimmed, self.horizon, self.horizon_ms) {
            Ok((when, say, event)) => {
                if let Some(prev) = self.last {
                    if when.tick(tps) < prev.tick(tps)
                        || matches!((when, prev), (When::Ms(a), When::Ms(b)) if a < b)
                    {
                        self.scenario.reject(
                            line,
                            Problem::TimeGoesBack {
                                this: when.to_string(),
                                previous: prev.to_string(),
                            },
                        );
                        return;
                    }
                }
                self.last = Some(when);
                self.scenario.events.push(TimedEvent {
                    line,
                    when,
                    say,
                    event,
                });
            }
            Err(problem) => self.scenario.reject(line, problem),
        }
    }
}

/// A time value: a non-negative integer, also written as a float without fraction (`1e3`).
/// `Err(None)`: not such a number; `Err(Some(text))`: one past `u64` (so past any horizon).
fn time_value(v: &Value) -> Result<u64, Option<String>> {
    if let Some(t) = v.as_u64() {
        return Ok(t);
    }
    match v.as_f64() {
        Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 18_446_744_073_709_551_616.0 => Ok(f as u64),
        Some(f) if f >= 0.0 && f.is_finite() && f.fract() == 0.0 => Err(Some(v.to_string())),
        _ => Err(None),
    }
}

fn parse_line(
    text: &str,
    horizon_tick: u64,
    horizon_ms: u64,
) -> Result<(When, Option<String>, ScenarioEvent), Problem> {
    let value: Value = serde_json::from_str(text).map_err(|e| Problem::NotJson(e.to_string()))?;
    let Value::Object(mut obj) = value else {
        return Err(Problem::NotAnObject(kind_of(&value)));
    };
    if let Some(key) = obj
        .keys()
        .find(|k| !matches!(k.as_str(), "t" | "tick" | "say") && !EVENT_KEYS.contains(&k.as_str()))
    {
        return Err(Problem::UnknownKey(key.clone()));
    }
    let time = |key: &'static str, v: &Value, limit: u64| match time_value(v) {
        Ok(t) if t <= limit => Ok(t),
        Ok(t) => Err(Problem::PastHorizon {
            this: format!("{key} {t}"),
            last_tick: horizon_tick,
        }),
        Err(Some(text)) => Err(Problem::PastHorizon {
            this: format!("{key} {text}"),
            last_tick: horizon_tick,
        }),
        Err(None) => Err(Problem::BadTime {
            key,
            found: v.to_string(),
        }),
    };
    let when = match (obj.remove("t"), obj.remove("tick")) {
        (Some(_), Some(_)) => return Err(Problem::TwoTimes),
        (Some(t), None) => When::Ms(time("t", &t, horizon_ms)?),
        (None, Some(t)) => When::Tick(time("tick", &t, horizon_tick)?),
        (None, None) => return Err(Problem::NoTime),
    };
    let say = match obj.remove("say") {
        None => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return Err(Problem::BadSay),
    };
    let mut events = obj.into_iter();
    let (key, body) = events.next().ok_or(Problem::NoEvent)?;
    if events.len() > 0 {
        let mut keys: Vec<String> = std::iter::once(key).chain(events.map(|(k, _)| k)).collect();
        keys.sort();
        return Err(Problem::SeveralEvents(keys.join(", ")));
    }
    let kind = EVENT_KEYS
        .iter()
        .copied()
        .find(|k| *k == key)
        .expect("checked above");
    let bad = |reason: String| Problem::BadEvent { kind, reason };
    let event = match kind {
        "cloud" => {
            let message: Message = serde_json::from_value(body.clone())
                .map_err(|e| bad(format!("not a CloudMic::Message: {e}")))?;
            // The generated deserializer skips keys it does not know: compare with what the
            // message writes back (every field, defaults included).
            let canonical = serde_json::to_value(&message)
                .map_err(|e| bad(format!("does not write back as CLAD-JSON: {e}")))?;
            if let Some((key, expected)) = first_unknown_key(&body, &canonical, "") {
                return Err(Problem::UnknownField {
                    kind,
                    key,
                    meant: None,
                    expected,
                });
            }
            let bytes = message
                .pack()
                .map_err(|e| bad(format!("does not pack: {e}")))?;
            ScenarioEvent::Cloud {
                bytes,
                captured: false,
            }
        }
        "cloud_hex" => {
            let hex = body
                .as_str()
                .ok_or_else(|| bad(format!("expected a hex string, found {}", kind_of(&body))))?;
            ScenarioEvent::Cloud {
                bytes: captured::<Message>(hex).map_err(|e| e.or_bad(kind))?,
                captured: true,
            }
        }
        "hri_hex" => {
            let hex = body
                .as_str()
                .ok_or_else(|| bad(format!("expected a hex string, found {}", kind_of(&body))))?;
            ScenarioEvent::HriPacked(
                captured::<crate::hri::IntentEnvelope>(hex).map_err(|e| e.or_bad(kind))?,
            )
        }
        "app_intent" => {
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct App {
                intent: String,
                #[serde(default)]
                param: String,
            }
            let app: App = serde_json::from_value(body).map_err(|e| bad(e.to_string()))?;
            ScenarioEvent::AppIntent {
                intent: app.intent,
                param: app.param,
            }
        }
        "hri" => match body {
            Value::Object(m) => {
                let fields = robot_runtime::hri::HriIntent::FIELDS;
                if let Some(key) = m.keys().find(|k| !fields.contains(&k.as_str())) {
                    // The intake's own diagnosis names the field meant.
                    let meant = robot_runtime::hri::HriIntent::closest_field(key);
                    return Err(Problem::UnknownField {
                        kind,
                        key: key.clone(),
                        meant,
                        expected: fields.join(", "),
                    });
                }
                ScenarioEvent::Hri(m)
            }
            other => {
                return Err(bad(format!(
                    "expected an object, found {}",
                    kind_of(&other)
                )))
            }
        },
        "trigger_word" => {
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct Trigger {
                #[serde(default = "yes")]
                will_open_stream: bool,
                #[serde(default)]
                from_mute: bool,
            }
            fn yes() -> bool {
                true
            }
            let t: Trigger = match body {
                Value::Bool(true) => Trigger {
                    will_open_stream: true,
                    from_mute: false,
                },
                other => serde_json::from_value(other).map_err(|e| bad(e.to_string()))?,
            };
            ScenarioEvent::TriggerWord {
                will_open_stream: t.will_open_stream,
                from_mute: t.from_mute,
            }
        }
        "action_done" => {
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct Done {
                action: String,
                #[serde(default = "succeeded")]
                result: ActionResult,
            }
            fn succeeded() -> ActionResult {
                ActionResult::Succeeded
            }
            let d: Done = serde_json::from_value(body).map_err(|e| bad(e.to_string()))?;
            ScenarioEvent::ActionDone {
                action: d.action,
                result: d.result,
            }
        }
        "note" => match body {
            Value::String(s) => ScenarioEvent::Note(s),
            other => return Err(bad(format!("expected a string, found {}", kind_of(&other)))),
        },
        "state" => parse_state(body).map_err(bad)?,
        _ => unreachable!("EVENT_KEYS are all handled"),
    };
    Ok((when, say, event))
}

/// The first key of `input` (an event's JSON) that `canonical` (the same value written back)
/// does not have, with its path, and the keys expected there.
fn first_unknown_key(input: &Value, canonical: &Value, path: &str) -> Option<(String, String)> {
    match (input, canonical) {
        (Value::Object(i), Value::Object(c)) => {
            for (k, v) in i {
                let here = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match c.get(k) {
                    None => {
                        let expected = c.keys().cloned().collect::<Vec<_>>().join(", ");
                        return Some((here, expected));
                    }
                    Some(cv) => {
                        if let Some(found) = first_unknown_key(v, cv, &here) {
                            return Some(found);
                        }
                    }
                }
            }
            None
        }
        (Value::Array(i), Value::Array(c)) => i
            .iter()
            .zip(c)
            .enumerate()
            .find_map(|(n, (iv, cv))| first_unknown_key(iv, cv, &format!("{path}[{n}]"))),
        _ => None,
    }
}

/// Why captured bytes were refused: not hex, or more than their type can hold.
enum Captured {
    Hex(String),
    TooLarge(Problem),
}

impl Captured {
    fn or_bad(self, kind: &'static str) -> Problem {
        match self {
            Captured::Hex(reason) => Problem::BadEvent { kind, reason },
            Captured::TooLarge(p) => p,
        }
    }
}

/// Captured bytes of a `T` in hex: refused when more than a `T` can be
/// (`Wire::MAX_SIZE`), before they are decoded.
fn captured<T: Wire>(hex: &str) -> Result<Vec<u8>, Captured> {
    let digits = hex
        .bytes()
        .filter(|b| !matches!(b, b' ' | b'\t' | b':'))
        .count();
    if let Some(max) = T::MAX_SIZE {
        let len = digits / 2;
        if len > max {
            return Err(Captured::TooLarge(Problem::TooLarge {
                type_name: T::TYPE_NAME,
                len,
                max,
            }));
        }
    }
    decode_hex(hex).map_err(Captured::Hex)
}

/// Hex digits to bytes; spaces, tabs and `:` between bytes are allowed.
pub fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<(usize, u8)> = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| !matches!(b, b' ' | b'\t' | b':'))
        .collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", digits.len()));
    }
    digits
        .chunks(2)
        .map(|pair| {
            let nibble = |(at, b): (usize, u8)| {
                (b as char).to_digit(16).map(|d| d as u8).ok_or_else(|| {
                    format!("'{}' at character {} is not a hex digit", b as char, at + 1)
                })
            };
            Ok(nibble(pair[0])? << 4 | nibble(pair[1])?)
        })
        .collect()
}

/// Bytes as lowercase hex without separators.
pub fn encode_hex(bytes: &[u8]) -> String {
    use fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// A `state` line's value: an object (its keys are checked when the robot applies it).
fn parse_state(body: Value) -> Result<ScenarioEvent, String> {
    match body {
        Value::Object(m) => Ok(ScenarioEvent::State(m)),
        other => Err(format!(
            "expected an object of robot-state keys, found {}",
            kind_of(&other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_hands_out_each_event_once_on_its_tick() {
        let s = Scenario::parse(
            "{\"tick\": 0, \"note\": \"a\"}\n{\"t\": 0, \"note\": \"b\"}\n{\"tick\": 5, \"note\": \"c\"}\n",
            20,
        );
        let notes = |d: &[TimedEvent]| d.iter().map(|e| e.line).collect::<Vec<_>>();
        let mut next = 0;
        assert_eq!(notes(s.due(&mut next, 0, 20)), [1, 2]);
        assert_eq!(notes(s.due(&mut next, 0, 20)), Vec::<usize>::new());
        assert_eq!(notes(s.due(&mut next, 4, 20)), Vec::<usize>::new());
        // A tick skipped past an event still delivers it (idle skipping).
        assert_eq!(notes(s.due(&mut next, 9, 20)), [3]);
        assert_eq!((next, s.due(&mut next, 100, 20).len()), (3, 0));
        let mut past = 7;
        assert!(
            s.due(&mut past, 100, 20).is_empty(),
            "a cursor past the end"
        );
    }
}
