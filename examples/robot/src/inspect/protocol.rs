//! The messages on the inspector's WebSocket (JSON text frames).
//!
//! # Authentication
//!
//! When the server has a token, a page's socket is authenticated before anything is sent to
//! it: its first message is `{"cmd": "auth", "token": "..."}` (the page reads the token from
//! its address's fragment, `/#token=...`), or a tool gives it in the handshake's
//! `Authorization: Bearer` header. A socket that sends anything else first, a wrong token, or
//! nothing within [`Limits::head_timeout`](super::Limits::head_timeout) gets an `error` and is
//! closed. Until then it waits at the [door](super::door), not among the pages.
//!
//! # Server → page
//!
//! | `type` | when | carries |
//! |---|---|---|
//! | `hello` | first, once authenticated | `mode` (`live`/`replay`), `tree` (a [`TreeJson`](crate::trace::TreeJson), as in a trace's header: behaviors with their class, delegates in declared order, condition texts, and every condition node's label, type and parameters), `state_keys` (the robot-state keys: `name`, `numeric`, `read_by`: how many condition nodes read it), `ticks_per_second`, `commands` (whether this page may send them), `catalog` (user intents with their default payloads, cloud intents of the map, HRI intents, for the forms), `history` (the timeline so far), `history_dropped`, `state` (live: the robot's whole state) |
//! | `update` | at most once a frame ([`FRAME`](super::FRAME)) when something happened, or a heartbeat ([`HEARTBEAT`](super::HEARTBEAT)) | `entries` (new timeline entries), `dropped` (entries the queue lost), `state`: what changed in the robot (see below) |
//! | `reply` | after a command was taken | `id` (the command's), `message` |
//! | `error` | a command or message was refused | `id` (when the message had one), `error` |
//!
//! A `state` ([`Changes`](super::observe::Changes)) is the robot at the tick it names
//! (`tick`, `t_ms`, `paused`), whole (`full: true`: replace what you have) or as changes:
//! a key that is absent did not change. `nodes`: the behaviors whose state changed, each with
//! `index`, `state` (`out_of_scope` / `in_scope` / `active`), `stack_position`, `wants` (said
//! yes on the last tick), `remembered` (the answer the runner keeps), `wanted_tick`,
//! `cooling_until_ms`, `action`, `debug_state`, `active_since_ms` (times are the robot's: a
//! duration is the page's `t_ms` minus it); a behavior out of scope with nothing to show comes
//! as `{"index": i, "state": "out_of_scope"}` and is dropped. `explained`: the behaviors whose
//! "why" comes (the active dispatcher's children, what pages watch), when it changed; `why`:
//! those whose record changed, each with `index`, `closed` (the activation gates closed),
//! `intent_pending`, `values` (each condition node of the tree's `conditions`, depth first:
//! `null` never evaluated, `[value]` on this tick, `[value, tick]` last evaluated then, the
//! runner keeping it; a class's own conditions only for a watched behavior). `dispatcher`,
//! `intents` (pending and active with `since_tick`, the flags), `forced`, `breakpoints`,
//! `hit` (the breakpoint the robot paused on: `breakpoint`, `tick`, `what`; null once it
//! runs again) when they changed; `robot`: `[key, value, tick it last changed]` for the keys
//! that changed. A `state` with nothing but `tick`, `t_ms` and `paused` is the clock: nothing
//! else moved. A `--trace-why` trace's `why` lines are the same changes.
//!
//! # Page → server
//!
//! One command per message, an object with `cmd` and an optional `id` (number or string,
//! echoed in the reply):
//!
//! | `cmd` | arguments | does |
//! |---|---|---|
//! | `pause` / `resume` | | stops / restarts the tick (inputs wait for the next tick) |
//! | `step` | `ticks` (1 to 1000, default 1) | pauses, then runs that many ticks |
//! | `user_intent` | `intent`: a `UserIntent` in CLAD-JSON (`{"type": "set_timer", "time_s": 60}`) | sets it pending from developer tools (source `Dev`), bypassing the map, as the original's `DevSetUserIntentPending` |
//! | `cloud` | `text`: a `CloudMic::Message` in CLAD-JSON (`"type"` defaults to `result`), or an intent name followed by its parameters (`intent_clock_settimer_extend {"timer_duration":"60"}`) | the message, packed, as a datagram from the cloud process (the map translates it) |
//! | `hri` | `message`: a ROS4HRI intent as in a scenario's `hri` line (`data` a string holding a JSON object, as ROS4HRI carries it; the page's form writes it so) | admitted by the robot's HRI intake |
//! | `trigger_word` | `will_open_stream` (default true) | the wake word |
//! | `action_done` | `action`, `result` (`succeeded`, `failed`, `cancelled`) | a running action ended |
//! | `watch` | `behavior` (its ID, or `null`) | the page's "why" panel looks at this behavior: the states explain it and its children, even out of scope, its class's own conditions included |
//! | `force` | `behavior` (its ID), `runs` (1 to 100, default 1) | puts the behavior on the stack through its delegation path now, and again when it ends, `runs` times ([`Runner::force_behavior`](robot_runtime::behavior::Runner::force_behavior), along [`Runner::delegation_path`](robot_runtime::behavior::Runner::delegation_path)) |
//! | `break` | `on`: `activation` (`behavior`), `pending` / `unclaimed` (`intent`), `preemption` (`resource`), each target optional (any), or `condition` (`behavior` and `condition`, a label of its `conditions`) | adds a breakpoint: the robot pauses after the tick on which it happens, and the state says why (`hit`); the reply gives its number |
//! | `unbreak` | `breakpoint` (its number; absent: all) | removes breakpoints |
//! | `auth` | `token` | the socket's first message when the server has a token; later ones are answered and change nothing |
//!
//! A `token` key in a command is ignored (the socket is authenticated) and never echoed.
//!
//! Inputs are delivered at the start of the next tick, in order, as scenario lines due on
//! that tick would be (the timeline shows them as live inputs).

use serde::Deserialize;
use serde_json::{Map, Value};

use robot_runtime::union::CladUnion;
use robot_runtime::wire::Wire;

use super::breakpoints::{On, Spec};
use crate::clad::cloud_mic::{IntentResult, Message};
use crate::intents::UserIntent;
use crate::scenario::{ActionResult, ScenarioEvent};

/// A command from a page, checked and converted (ready for the tick thread).
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Stop ticking.
    Pause,
    /// Tick again.
    Resume,
    /// Pause, then run this many ticks.
    Step(u32),
    /// An input for the next tick, as a scenario line.
    Input(ScenarioEvent),
    /// A user intent set pending directly (source `Dev`).
    UserIntent(UserIntent),
    /// The page looks at this behavior (its "why" panel): it and its children are explained
    /// in the states even when they are out of scope. `None`: the active dispatcher only.
    Watch(Option<String>),
    /// Force a behavior `runs` times.
    Force {
        /// Its ID.
        behavior: String,
        /// How many times.
        runs: u32,
    },
    /// Add a breakpoint.
    Break(Spec),
    /// Remove a breakpoint (`None`: every one).
    Unbreak(Option<u32>),
    /// The token again, on a socket that is authenticated already.
    Auth,
}

/// A message from a page, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The `id` to echo in the reply.
    pub id: Option<Value>,
    /// What to do.
    pub action: Action,
}

/// A message refused, with the `id` to echo if it had one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The `id` of the message, if it could be read.
    pub id: Option<Value>,
    /// Why.
    pub error: String,
}

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Raw {
    Pause {},
    Resume {},
    Step {
        #[serde(default = "one")]
        ticks: u32,
    },
    UserIntent {
        intent: Value,
    },
    Cloud {
        text: String,
    },
    Hri {
        message: Map<String, Value>,
    },
    TriggerWord {
        #[serde(default)]
        will_open_stream: Option<bool>,
    },
    ActionDone {
        action: String,
        #[serde(default)]
        result: Option<String>,
    },
    Force {
        behavior: String,
        #[serde(default = "one")]
        runs: u32,
    },
    Watch {
        behavior: Option<String>,
    },
    Break {
        on: String,
        #[serde(default)]
        behavior: Option<String>,
        #[serde(default)]
        intent: Option<String>,
        #[serde(default)]
        resource: Option<String>,
        #[serde(default)]
        condition: Option<String>,
    },
    Unbreak {
        #[serde(default)]
        breakpoint: Option<u32>,
    },
    Auth {
        #[serde(default)]
        #[allow(dead_code)]
        token: Option<Value>,
    },
}

fn one() -> u32 {
    1
}

/// Compares in time independent of where the strings differ (the length is not secret).
pub fn token_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |diff, (x, y)| diff | (x ^ y))
            == 0
}

/// Reads one text message of an authenticated page (a `token` key is ignored: the socket
/// was authenticated before anything reached here).
pub fn parse(text: &str) -> Result<Command, Refused> {
    let refuse = |id: Option<Value>, error: String| Refused { id, error };
    let value: Value =
        serde_json::from_str(text).map_err(|e| refuse(None, format!("not a JSON message: {e}")))?;
    let Value::Object(mut obj) = value else {
        return Err(refuse(
            None,
            "a command is a JSON object with \"cmd\"".into(),
        ));
    };
    let id = match obj.remove("id") {
        None | Some(Value::Null) => None,
        Some(v @ (Value::Number(_) | Value::String(_))) => Some(v),
        Some(_) => return Err(refuse(None, "\"id\" must be a number or a string".into())),
    };
    // The socket is authenticated: a token a command carries is not needed (and never
    // echoed); the `auth` message keeps its own.
    if obj.get("cmd").and_then(Value::as_str) != Some("auth") {
        obj.remove("token");
    }
    let raw: Raw = serde_json::from_value(Value::Object(obj))
        .map_err(|e| refuse(id.clone(), format!("bad command: {e}")))?;
    let action = convert(raw).map_err(|e| refuse(id.clone(), e))?;
    Ok(Command { id, action })
}

fn convert(raw: Raw) -> Result<Action, String> {
    Ok(match raw {
        Raw::Pause {} => Action::Pause,
        Raw::Resume {} => Action::Resume,
        Raw::Step { ticks } if (1..=1000).contains(&ticks) => Action::Step(ticks),
        Raw::Step { ticks } => return Err(format!("step: ticks {ticks} is not in 1..=1000")),
        Raw::UserIntent { intent } => Action::UserIntent(user_intent(intent)?),
        Raw::Cloud { text } => Action::Input(ScenarioEvent::Cloud {
            bytes: cloud_bytes(&text)?,
            captured: false,
        }),
        Raw::Hri { message } => Action::Input(ScenarioEvent::Hri(message)),
        Raw::TriggerWord { will_open_stream } => Action::Input(ScenarioEvent::TriggerWord {
            will_open_stream: will_open_stream.unwrap_or(true),
            from_mute: false,
        }),
        Raw::ActionDone { action, result } => {
            if action.is_empty() {
                return Err("action_done: \"action\" is empty".into());
            }
            let result = match result.as_deref() {
                None | Some("succeeded") => ActionResult::Succeeded,
                Some("failed") => ActionResult::Failed,
                Some("cancelled") => ActionResult::Cancelled,
                Some(other) => {
                    return Err(format!(
                        "action_done: result {other:?} is not succeeded, failed or cancelled"
                    ))
                }
            };
            Action::Input(ScenarioEvent::ActionDone { action, result })
        }
        Raw::Force { behavior, runs } if (1..=100).contains(&runs) => {
            Action::Force { behavior, runs }
        }
        Raw::Force { runs, .. } => return Err(format!("force: runs {runs} is not in 1..=100")),
        Raw::Watch { behavior } => Action::Watch(behavior),
        Raw::Break {
            on,
            behavior,
            intent,
            resource,
            condition,
        } => {
            let kind = On::from_name(&on).ok_or_else(|| {
                format!(
                    "break: \"on\" {on:?} is not activation, pending, unclaimed, preemption or condition"
                )
            })?;
            let (target, wrong) = match kind {
                On::Activation | On::Condition => {
                    (behavior, [("intent", intent), ("resource", resource)])
                }
                On::Pending | On::Unclaimed => {
                    (intent, [("behavior", behavior), ("resource", resource)])
                }
                On::Preemption => (resource, [("behavior", behavior), ("intent", intent)]),
            };
            if let Some((key, _)) = wrong.iter().find(|(_, v)| v.is_some()) {
                return Err(format!("break: \"{key}\" does not go with \"on\": {on:?}"));
            }
            if kind != On::Condition && condition.is_some() {
                return Err("break: \"condition\" goes with \"on\": \"condition\"".into());
            }
            Action::Break(Spec {
                on: kind,
                target,
                condition,
            })
        }
        Raw::Unbreak { breakpoint } => Action::Unbreak(breakpoint),
        Raw::Auth { .. } => Action::Auth,
    })
}

/// A user intent from CLAD-JSON (`{"type": "set_timer", "time_s": 60}`, or just the tag's
/// name as a string for a member without payload fields).
pub fn user_intent(value: Value) -> Result<UserIntent, String> {
    let value = match value {
        Value::String(tag) => {
            let mut m = Map::new();
            m.insert("type".into(), Value::String(tag));
            Value::Object(m)
        }
        v => v,
    };
    let tag = value.get("type").and_then(Value::as_str).map(str::to_owned);
    match &tag {
        None => return Err("user_intent: \"intent\" needs a string \"type\"".into()),
        Some(t) if UserIntent::tag_from_name(t).is_none() => {
            return Err(format!("user_intent: {t:?} is not a member of UserIntent"))
        }
        Some(_) => {}
    }
    serde_json::from_value(value).map_err(|e| {
        format!(
            "user_intent: not a valid {}: {e}",
            tag.as_deref().unwrap_or("?")
        )
    })
}

/// A cloud message from the text a person types: a `CloudMic::Message` in CLAD-JSON (its
/// `"type"` defaults to `result`; a `result`'s `parameters` may be given as an object and
/// its missing strings are empty), or an intent name followed by its parameters as JSON
/// text. Packed, as the cloud process sends it.
pub fn cloud_bytes(text: &str) -> Result<Vec<u8>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("cloud: the text is empty (give an intent name or a CloudMic::Message)".into());
    }
    let message: Message = if t.starts_with('{') {
        let mut v: Value = serde_json::from_str(t).map_err(|e| format!("cloud: not JSON: {e}"))?;
        let Value::Object(m) = &mut v else {
            return Err("cloud: not a JSON object".into());
        };
        let kind = m
            .entry("type")
            .or_insert_with(|| Value::String("result".into()));
        if kind == "result" {
            if let Some(p @ Value::Object(_)) = m.get("parameters") {
                let text = p.to_string();
                m.insert("parameters".into(), Value::String(text));
            }
            for key in ["parameters", "metadata"] {
                m.entry(key).or_insert_with(|| Value::String(String::new()));
            }
        }
        serde_json::from_value(v).map_err(|e| format!("cloud: not a CloudMic::Message: {e}"))?
    } else {
        let (intent, parameters) = match t.split_once(char::is_whitespace) {
            Some((i, p)) => (i, p.trim()),
            None => (t, ""),
        };
        if !parameters.is_empty() {
            serde_json::from_str::<Value>(parameters)
                .map_err(|e| format!("cloud: the parameters after {intent} are not JSON: {e}"))?;
        }
        Message::Result(IntentResult {
            intent: intent.to_owned(),
            parameters: parameters.to_owned(),
            metadata: String::new(),
        })
    };
    message
        .pack()
        .map_err(|e| format!("cloud: cannot pack it: {e}"))
}

/// A reply to a command.
pub fn reply(id: Option<&Value>, message: &str) -> String {
    serde_json::json!({"type": "reply", "id": id, "message": message}).to_string()
}

/// An error reply.
pub fn error(id: Option<&Value>, error: &str) -> String {
    serde_json::json!({"type": "error", "id": id, "error": error}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        let c = parse(r#"{"id":3,"cmd":"step","ticks":5}"#).unwrap();
        assert_eq!((c.id, c.action), (Some(Value::from(3)), Action::Step(5)));
        let c =
            parse(r#"{"cmd":"user_intent","intent":{"type":"set_timer","time_s":60}}"#).unwrap();
        assert!(matches!(
            c.action,
            Action::UserIntent(UserIntent::SetTimer(_))
        ));
        let c = parse(r#"{"cmd":"user_intent","intent":"check_timer"}"#).unwrap();
        assert!(matches!(
            c.action,
            Action::UserIntent(UserIntent::CheckTimer(_))
        ));
        let c = parse(
            r#"{"cmd":"cloud","text":"intent_clock_settimer_extend {\"timer_duration\":\"60\"}"}"#,
        )
        .unwrap();
        let Action::Input(ScenarioEvent::Cloud { bytes, .. }) = c.action else {
            panic!()
        };
        assert_eq!(bytes[0], 9, "a result");
        let c = parse(r#"{"cmd":"force","behavior":"TimerSet","runs":2}"#).unwrap();
        assert_eq!(
            c.action,
            Action::Force {
                behavior: "TimerSet".into(),
                runs: 2
            }
        );
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        let cases: &[(&str, &str)] = &[
            ("", "not a JSON message"),
            ("[1,2]", "JSON object"),
            ("{\"id\":[1],\"cmd\":\"pause\"}", "\"id\""),
            ("{\"cmd\":\"explode\"}", "bad command"),
            ("{\"cmd\":\"pause\",\"extra\":1}", "bad command"),
            ("{\"cmd\":\"step\",\"ticks\":0}", "not in 1..=1000"),
            ("{\"cmd\":\"step\",\"ticks\":-1}", "bad command"),
            (
                "{\"cmd\":\"user_intent\",\"intent\":{\"type\":\"nope\"}}",
                "not a member",
            ),
            (
                "{\"cmd\":\"user_intent\",\"intent\":{\"type\":\"set_timer\",\"time_s\":\"x\"}}",
                "not a valid set_timer",
            ),
            ("{\"cmd\":\"cloud\",\"text\":\"  \"}", "empty"),
            (
                "{\"cmd\":\"cloud\",\"text\":\"intent_x {nope\"}",
                "not JSON",
            ),
            (
                "{\"cmd\":\"cloud\",\"text\":\"{\\\"type\\\":\\\"zzz\\\"}\"}",
                "CloudMic::Message",
            ),
            (
                "{\"cmd\":\"action_done\",\"action\":\"a\",\"result\":\"meh\"}",
                "not succeeded",
            ),
            (
                "{\"cmd\":\"force\",\"behavior\":\"X\",\"runs\":1000}",
                "not in 1..=100",
            ),
        ];
        for (text, want) in cases {
            let e = parse(text).unwrap_err();
            assert!(e.error.contains(want), "{text}: {}", e.error);
        }
        let e = parse("{\"id\":\"a\",\"cmd\":\"nope\"}").unwrap_err();
        assert_eq!(e.id, Some(Value::from("a")), "the id is echoed");
    }

    #[test]
    fn a_token_in_a_command_is_ignored_and_never_echoed() {
        // The socket was authenticated before any command reached here.
        assert!(parse(r#"{"cmd":"pause","token":"0123456789abcdeX"}"#).is_ok());
        let e = parse(r#"{"cmd":"nope","token":"secret-token-0123"}"#).unwrap_err();
        assert!(!e.error.contains("secret"), "{}", e.error);
        assert_eq!(
            parse(r#"{"cmd":"auth","token":"x"}"#).unwrap().action,
            Action::Auth
        );
        assert!(token_eq("abc", "abc") && !token_eq("abc", "abd") && !token_eq("abc", "ab"));
        assert!(!token_eq("", "a") && token_eq("", ""));
    }

    #[test]
    fn breakpoints_parse_and_garbage_is_refused() {
        let c = parse(r#"{"cmd":"break","on":"activation","behavior":"TimerSet"}"#).unwrap();
        assert_eq!(
            c.action,
            Action::Break(Spec {
                on: On::Activation,
                target: Some("TimerSet".into()),
                condition: None
            })
        );
        let c = parse(r#"{"cmd":"break","on":"unclaimed"}"#).unwrap();
        assert!(matches!(
            c.action,
            Action::Break(Spec {
                on: On::Unclaimed,
                target: None,
                ..
            })
        ));
        let c = parse(
            r#"{"cmd":"break","on":"condition","behavior":"X","condition":"wantsToBeActivatedCondition"}"#,
        )
        .unwrap();
        assert!(matches!(
            c.action,
            Action::Break(Spec {
                on: On::Condition,
                ..
            })
        ));
        assert_eq!(
            parse(r#"{"cmd":"unbreak","breakpoint":3}"#).unwrap().action,
            Action::Unbreak(Some(3))
        );
        assert_eq!(
            parse(r#"{"cmd":"unbreak"}"#).unwrap().action,
            Action::Unbreak(None)
        );
        for (text, want) in [
            (r#"{"cmd":"break"}"#, "bad command"),
            (r#"{"cmd":"break","on":"sneeze"}"#, "is not activation"),
            (
                r#"{"cmd":"break","on":"pending","behavior":"X"}"#,
                "does not go with",
            ),
            (
                r#"{"cmd":"break","on":"activation","condition":"c"}"#,
                "goes with",
            ),
            (
                r#"{"cmd":"break","on":"activation","behavior":7}"#,
                "bad command",
            ),
            (r#"{"cmd":"unbreak","breakpoint":-1}"#, "bad command"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.error.contains(want), "{text}: {}", e.error);
        }
    }

    #[test]
    fn cloud_text_forms() {
        let a = cloud_bytes("intent_weather").unwrap();
        let b = cloud_bytes(r#"{"intent":"intent_weather"}"#).unwrap();
        assert_eq!(a, b);
        let c = cloud_bytes(r#"{"intent":"i","parameters":{"x":"1"}}"#).unwrap();
        let Message::Result(r) = Message::unpack(&c).unwrap() else {
            panic!()
        };
        assert_eq!(r.parameters, r#"{"x":"1"}"#);
    }
}
