//! The robot's timeline: one [`Entry`] per thing that happened, in order, rendered as an
//! aligned, readable text ([`render`], colour optional) or as JSON Lines ([`write_json_lines`],
//! one event per line, for tools).
//!
//! Every source of entries — scenario inputs, the intent component's events, the behaviors,
//! their actions, resources — adds variants of [`What`]; the renderer and the JSON trace know
//! nothing about where they come from.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

use anstyle::{AnsiColor, Style};
use serde::Serialize;

/// One line of the timeline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// The tick it happened on.
    pub tick: u64,
    /// The tick's start in milliseconds since the start of the run.
    pub t_ms: u64,
    /// What happened.
    #[serde(flatten)]
    pub what: What,
}

/// What happened. Serialized with an `"event"` key naming the variant.
/// The `line` of an input that did not come from a scenario file (scenario lines count from
/// 1): a message that arrived over a transport while the robot ran.
pub const LIVE_INPUT: usize = 0;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum What {
    /// A scenario line (or a live input) arrived.
    Input {
        /// Its line in the scenario; [`LIVE_INPUT`] (0) for an input that came from a
        /// transport while the robot ran (`--zenoh`), not from a scenario file.
        line: usize,
        /// The kind (`cloud`, `app_intent`, `hri`, `trigger_word`, `action_done`).
        kind: &'static str,
        /// A one-line description of what arrived.
        detail: String,
        /// What the user said, if the scenario says.
        #[serde(skip_serializing_if = "Option::is_none")]
        say: Option<String>,
    },
    /// A narration line of the scenario.
    Note {
        /// The text.
        text: String,
    },
    /// A scenario line was rejected (the run goes on).
    ScenarioError {
        /// Its line.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// An input was read but changed nothing, and why.
    InputIgnored {
        /// Why.
        reason: String,
    },
    /// The trigger word changed state (`pending`, `cleared`, `expired`, `suppressed`).
    TriggerWord {
        /// The change.
        change: &'static str,
    },
    /// A user intent is pending.
    Pending {
        /// The user-intent tag.
        intent: &'static str,
        /// Its payload in CLAD-JSON (without the `type` key; omitted when empty).
        #[serde(skip_serializing_if = "Option::is_none")]
        payload: Option<String>,
        /// Where it came from (`Voice`, `App`, ...).
        source: String,
        /// How it got its tag (`cloud intent_weather_extend`, `unmatched: unknown intent ...`).
        via: String,
        /// What it says about itself and where it came from (JSON only: the text timeline
        /// does not show it; the inspector's replay reads it).
        #[serde(skip_serializing_if = "Option::is_none")]
        meta: Option<Box<IntentInfo>>,
    },
    /// A pending intent was replaced by a newer one (intents do not queue).
    Replaced {
        /// The old tag.
        old: &'static str,
        /// The new tag.
        new: &'static str,
    },
    /// A pending intent is one tick from its claim deadline.
    DeadlineNear {
        /// The tag.
        intent: &'static str,
        /// Ticks pending.
        age_ticks: u64,
    },
    /// A behavior claimed the pending intent.
    Claimed {
        /// The tag.
        intent: &'static str,
        /// The behavior.
        behavior: String,
        /// The activation number.
        activation: u64,
        /// Ticks from the input's arrival to this claim.
        #[serde(skip_serializing_if = "Option::is_none")]
        latency_ticks: Option<u64>,
    },
    /// An active intent ended.
    Released {
        /// The tag.
        intent: &'static str,
        /// Why (`released`, `guard dropped`, `superseded`, `forced`).
        reason: &'static str,
    },
    /// Nobody claimed a pending intent within the deadline.
    Unclaimed {
        /// The tag.
        intent: &'static str,
        /// Ticks it was pending.
        age_ticks: u64,
    },
    /// A pending intent was dropped on request.
    Dropped {
        /// The tag.
        intent: &'static str,
    },
    /// A cloud result or app intent could not be translated.
    NotUnderstood {
        /// The cloud/app intent string.
        intent: String,
        /// The error.
        error: String,
        /// What the robot did about it (`unmatched`, `error flag`, `dropped`).
        reaction: &'static str,
    },
    /// The intent-error flag was set.
    CloudError {
        /// Why.
        cause: String,
    },
    /// The cloud opened its stream.
    StreamOpened,
    /// A sticky flag was cleared.
    FlagCleared {
        /// Which.
        flag: &'static str,
    },
    /// Pending intents stopped (true) or resumed (false) expiring.
    TimeoutHeld {
        /// Held or resumed.
        held: bool,
    },
    /// A behavior was activated or deactivated.
    Behavior {
        /// Its ID.
        behavior: String,
        /// `activated` or `deactivated`.
        change: &'static str,
        /// Why (for deactivation).
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The behavior stack changed (bottom to top).
    Stack {
        /// Behavior IDs, bottom first.
        stack: Vec<String>,
    },
    /// An action started or ended.
    Action {
        /// The behavior running it.
        behavior: String,
        /// The action's name.
        action: String,
        /// `started`, `succeeded`, `failed`, `cancelled`, `timed out`.
        change: &'static str,
        /// For a timed action: its length in ms.
        #[serde(skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
    },
    /// A resource was granted, queued, preempted, released or refused.
    Resource {
        /// The resource (`navigation`, `arms`, `speech`, ...).
        resource: String,
        /// The capability holding or asking for it.
        holder: String,
        /// `granted`, `queued`, `preempted`, `released`, `rejected`.
        change: &'static str,
        /// Why.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The ROS transport's defaults rule read a wire value of the intent on the line above
    /// as unstated (a ROS publisher cannot leave priority or confidence unset: it sends 0
    /// and 0.0). The input line shows the values as sent.
    RosDefaults {
        /// The priority on the wire, when it was read as unstated (the default, 128).
        #[serde(skip_serializing_if = "Option::is_none")]
        priority: Option<u8>,
        /// The confidence on the wire, when it was read as unstated.
        #[serde(skip_serializing_if = "Option::is_none")]
        confidence: Option<f32>,
    },
    /// The robot published a message to another system.
    Published {
        /// Where (`ros2 /intents`).
        to: String,
        /// What, as an input line would describe it.
        detail: String,
    },
}

/// What a pending intent says about itself ([`What::Pending`]'s `meta`), whatever its
/// origin: its ROS4HRI metadata (a cloud or app intent gets the honest defaults: unknown
/// agent, no stated confidence), the input it came from and the map entry it came through.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IntentInfo {
    /// Who expressed it (`__unknown_agent__`, `__remote_supervisor__`, a person's ID).
    pub source: String,
    /// How (`speech`, `touchscreen`, ...).
    pub modality: String,
    /// Its priority (128: the default).
    pub priority: u8,
    /// How sure its producer was (absent: unstated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f32>,
    /// The kind of the input it came from on this tick (`cloud`, `app`, `hri`, `ros2`,
    /// `user_intent`), when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<&'static str>,
    /// That input as its line says (a cloud result: `result intent_x {"param": "v"}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// What the user said (a scenario line's `say`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// The entry of the intent map it came through (cloud and app intents).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map_entry: Option<MapEntryInfo>,
}

/// An entry of the user-intent map, as the inspector shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MapEntryInfo {
    /// `cloud` or `app`.
    pub table: &'static str,
    /// The cloud or app intent string.
    pub intent: &'static str,
    /// The user intent it becomes.
    pub user_intent: &'static str,
    /// Its parameter rules (`from -> to`, `(number)`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub substitutions: Vec<String>,
    /// The feature that gates it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature_gate: Option<&'static str>,
}

/// Text that came from outside the robot (a cloud intent name, an HRI `source` or `goal`, an
/// attachment's type name, a scenario note), as every output shows it: one line, with
/// nothing a terminal or a reader could take for a line of its own or for formatting. Line
/// breaks (`\n`, `\r`, U+2028, U+2029), tabs, every other control character (C0, DEL, C1:
/// escape sequences start with ESC) and the bidirectional controls that can reorder what is
/// shown (U+202A–U+202E, U+2066–U+2069) are written as Rust escapes (`\n`, `\r`, `\t`,
/// `\u{1b}`). Borrowed (no copy) when there is nothing to escape, which is the usual case.
///
/// The one escaping helper: every [`Entry`] goes through it when the robot records it
/// ([`What::escape`]), so the text timeline, the JSON trace and the inspector's page show the
/// same escaped text; the inspector's snapshots escape what they take from the intent
/// component with it too.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// [`escape`] in place (no allocation when there is nothing to escape).
pub fn escape_in_place(text: &mut String) {
    if let Cow::Owned(escaped) = escape(text) {
        *text = escaped;
    }
}

/// How an entry is grouped in the text timeline (the coloured column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// What arrived from outside.
    Input,
    /// The intent component.
    Intent,
    /// Behaviors and the stack.
    Behavior,
    /// Actions.
    Action,
    /// Resources.
    Resource,
    /// Something went wrong (bad input, unclaimed, errors).
    Problem,
    /// Narration.
    Note,
    /// What the robot sent to other systems.
    Output,
}

impl Category {
    /// The column text.
    pub fn label(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Intent => "intent",
            Self::Behavior => "behavior",
            Self::Action => "action",
            Self::Resource => "resource",
            Self::Problem => "problem",
            Self::Note => "note",
            Self::Output => "output",
        }
    }

    fn style(self) -> Style {
        let c = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
        match self {
            Self::Input => c(AnsiColor::Cyan).bold(),
            Self::Intent => c(AnsiColor::Yellow),
            Self::Behavior => c(AnsiColor::Green).bold(),
            Self::Action => c(AnsiColor::Blue),
            Self::Resource => c(AnsiColor::Magenta),
            Self::Problem => c(AnsiColor::Red).bold(),
            Self::Note => Style::new().italic(),
            Self::Output => c(AnsiColor::Cyan),
        }
    }
}

impl What {
    /// Escapes every text of the entry ([`escape`]): what the robot records is one line per
    /// entry whatever came from outside.
    pub fn escape(&mut self) {
        let e = escape_in_place;
        match self {
            Self::Input { detail, say, .. } => {
                e(detail);
                say.as_mut().map(e);
            }
            Self::Note { text } => e(text),
            Self::ScenarioError { problem, .. } => e(problem),
            Self::InputIgnored { reason } => e(reason),
            Self::Pending {
                payload,
                source,
                via,
                meta,
                ..
            } => {
                payload.as_mut().map(e);
                e(source);
                e(via);
                if let Some(m) = meta {
                    e(&mut m.source);
                    e(&mut m.modality);
                    m.text.as_mut().map(e);
                    m.said.as_mut().map(e);
                    if let Some(entry) = &mut m.map_entry {
                        entry.substitutions.iter_mut().for_each(e);
                    }
                }
            }
            Self::Claimed { behavior, .. } => e(behavior),
            Self::NotUnderstood { intent, error, .. } => {
                e(intent);
                e(error);
            }
            Self::CloudError { cause } => e(cause),
            Self::Behavior {
                behavior, reason, ..
            } => {
                e(behavior);
                reason.as_mut().map(e);
            }
            Self::Stack { stack } => stack.iter_mut().for_each(e),
            Self::Action {
                behavior, action, ..
            } => {
                e(behavior);
                e(action);
            }
            Self::Resource {
                resource,
                holder,
                reason,
                ..
            } => {
                e(resource);
                e(holder);
                reason.as_mut().map(e);
            }
            Self::Published { to, detail } => {
                e(to);
                e(detail);
            }
            Self::TriggerWord { .. }
            | Self::Replaced { .. }
            | Self::DeadlineNear { .. }
            | Self::Released { .. }
            | Self::Unclaimed { .. }
            | Self::Dropped { .. }
            | Self::StreamOpened
            | Self::FlagCleared { .. }
            | Self::TimeoutHeld { .. }
            | Self::RosDefaults { .. } => {}
        }
    }

    /// Its group in the text timeline.
    pub fn category(&self) -> Category {
        match self {
            Self::Input { .. } => Category::Input,
            Self::Note { .. } => Category::Note,
            Self::ScenarioError { .. }
            | Self::InputIgnored { .. }
            | Self::Unclaimed { .. }
            | Self::NotUnderstood { .. }
            | Self::CloudError { .. } => Category::Problem,
            Self::TriggerWord { .. }
            | Self::Pending { .. }
            | Self::Replaced { .. }
            | Self::DeadlineNear { .. }
            | Self::Claimed { .. }
            | Self::Released { .. }
            | Self::Dropped { .. }
            | Self::StreamOpened
            | Self::FlagCleared { .. }
            | Self::TimeoutHeld { .. }
            | Self::RosDefaults { .. } => Category::Intent,
            Self::Published { .. } => Category::Output,
            Self::Behavior { .. } | Self::Stack { .. } => Category::Behavior,
            Self::Action { .. } => Category::Action,
            Self::Resource { .. } => Category::Resource,
        }
    }

    /// The text after the category column.
    pub fn text(&self) -> String {
        match self {
            Self::Input {
                line,
                kind,
                detail,
                say,
            } => {
                let said = say
                    .as_ref()
                    .map(|s| format!("  \u{201c}{s}\u{201d}"))
                    .unwrap_or_default();
                if *line == LIVE_INPUT {
                    format!("{kind} {detail}{said}  (live)")
                } else {
                    format!("{kind} {detail}{said}  (line {line})")
                }
            }
            Self::Note { text } => format!("# {text}"),
            Self::ScenarioError { line, problem } => {
                format!("scenario line {line} skipped: {problem}")
            }
            Self::InputIgnored { reason } => format!("ignored: {reason}"),
            Self::TriggerWord { change } => format!("trigger word {change}"),
            Self::Pending {
                intent,
                payload,
                source,
                via,
                ..
            } => {
                let payload = payload
                    .as_deref()
                    .map(|p| format!(" {p}"))
                    .unwrap_or_default();
                format!("pending {intent}{payload}  from {source}, {via}")
            }
            Self::Replaced { old, new } => {
                format!("{old} replaced by {new} (intents do not queue)")
            }
            Self::DeadlineNear { intent, age_ticks } => {
                format!("{intent} still unclaimed after {age_ticks} ticks")
            }
            Self::Claimed {
                intent,
                behavior,
                activation,
                latency_ticks,
            } => {
                let latency = latency_ticks
                    .map(|t| {
                        format!(
                            "  ({t} tick{} after arrival)",
                            if t == 1 { "" } else { "s" }
                        )
                    })
                    .unwrap_or_default();
                format!("{behavior} claimed {intent} (activation #{activation}){latency}")
            }
            Self::Released { intent, reason } => format!("{intent} ended ({reason})"),
            Self::Unclaimed { intent, age_ticks } => {
                format!("{intent} unclaimed: no behavior claimed it within {age_ticks} ticks")
            }
            Self::Dropped { intent } => format!("{intent} dropped on request"),
            Self::NotUnderstood {
                intent,
                error,
                reaction,
            } => format!("could not translate {intent:?}: {error} -> {reaction}"),
            Self::CloudError { cause } => format!("intent error flag set: {cause}"),
            Self::StreamOpened => "cloud stream opened".to_owned(),
            Self::FlagCleared { flag } => format!("{flag} flag cleared"),
            Self::TimeoutHeld { held: true } => "claim deadline paused".to_owned(),
            Self::TimeoutHeld { held: false } => "claim deadline resumed (fresh window)".to_owned(),
            Self::Behavior {
                behavior,
                change,
                reason,
            } => match reason {
                Some(r) => format!("{behavior} {change} ({r})"),
                None => format!("{behavior} {change}"),
            },
            Self::Stack { stack } => format!("stack: {}", stack.join(" > ")),
            Self::Action {
                behavior,
                action,
                change,
                duration_ms,
            } => match duration_ms {
                Some(ms) => format!("{behavior}: {action} {change} ({ms} ms)"),
                None => format!("{behavior}: {action} {change}"),
            },
            Self::Resource {
                resource,
                holder,
                change,
                reason,
            } => match reason {
                Some(r) => format!("{resource} {change} for {holder} ({r})"),
                None => format!("{resource} {change} for {holder}"),
            },
            Self::RosDefaults {
                priority,
                confidence,
            } => {
                let mut read = Vec::new();
                if let Some(p) = priority {
                    read.push(format!("priority {p} as unstated (128)"));
                }
                if let Some(c) = confidence {
                    read.push(format!("confidence {c:?} as unstated"));
                }
                format!("ROS defaults: read {}", read.join(", "))
            }
            Self::Published { to, detail } => format!("{to} {detail}"),
        }
    }
}

/// Renders entries as aligned text: time, tick, category, description. With `color`, the
/// category column and problems are styled with ANSI escapes (print them through
/// `anstream`, which drops them when the terminal does not support them or `NO_COLOR` is
/// set).
pub fn render(entries: &[Entry], color: bool) -> String {
    let mut out = render_header(color);
    out.push_str(&render_rows(entries, color, &mut None));
    out
}

/// The header line of [`render`].
pub fn render_header(color: bool) -> String {
    let header = Style::new().bold();
    let (h0, h1) = if color {
        (
            header.render().to_string(),
            header.render_reset().to_string(),
        )
    } else {
        (String::new(), String::new())
    };
    format!("{h0}{:>9}  {:>5}  {:<9} what{h1}\n", "time", "tick", "")
}

/// The rows of [`render`] without the header, for a timeline printed as it happens:
/// `last_tick` is the tick of the row printed before (`None` at the start) and is updated,
/// so that a tick's time is printed once even when its rows come in several calls.
pub fn render_rows(entries: &[Entry], color: bool, last_tick: &mut Option<u64>) -> String {
    let mut out = String::new();
    for e in entries {
        let time = format!("{}.{:03} s", e.t_ms / 1000, e.t_ms % 1000);
        let (time, tick) = if *last_tick == Some(e.tick) {
            (String::new(), String::new())
        } else {
            (time, e.tick.to_string())
        };
        *last_tick = Some(e.tick);
        let cat = e.what.category();
        // Entries the robot recorded are escaped already ([`What::escape`]); an entry built
        // elsewhere still prints as one line.
        let text = e.what.text();
        let text = escape(&text);
        if color {
            let s = cat.style();
            let body = if cat == Category::Problem {
                s
            } else {
                Style::new()
            };
            let _ = writeln!(
                out,
                "{time:>9}  {tick:>5}  {}{:<9}{} {}{text}{}",
                s.render(),
                cat.label(),
                s.render_reset(),
                body.render(),
                body.render_reset()
            );
        } else {
            let _ = writeln!(out, "{time:>9}  {tick:>5}  {:<9} {text}", cat.label());
        }
    }
    out
}

/// Writes entries as JSON Lines (one object per entry, `"event"` naming the kind).
pub fn write_json_lines(entries: &[Entry], mut out: impl io::Write) -> io::Result<()> {
    for e in entries {
        serde_json::to_writer(&mut out, e)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
