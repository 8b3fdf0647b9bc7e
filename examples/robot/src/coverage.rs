//! Intent coverage: for every user intent of the union, which behavior claims it, and a
//! data-driven proof that it does — the original's `completedUserIntents.json` idea as a
//! table (`behaviors/completed_intents.json`):
//!
//! ```text
//! {
//!   // label -> what the user says (a cloud result or an app intent) and who must claim it
//!   "handled": {
//!     "set a timer": {"cloud_intent": "intent_clock_settimer_extend",
//!                     "parameters": {"timer_duration": "300"}, "claimedBy": "TimerSet"},
//!     "set a timer from the app": {"app_intent": "intent_clock_settimer", "param": "60",
//!                                  "claimedBy": "TimerSet"}
//!   },
//!   // user intents no behavior claims, on purpose, and why
//!   "exceptions": [ {"reason": "...", "intents": ["amazon_signin", "..."]} ]
//! }
//! ```
//!
//! [`check`] reports, as [`Problem`]s: a production intent that no behavior claims and no
//! exception lists; a claimed intent that no entry of `user_intent_map.json` produces; a
//! claimed intent without a row; a row that the robot does not hand to the expected behavior
//! (it is played through the real robot: trigger word, then the cloud result or app intent);
//! stale or unknown exceptions. Test-only members (the runtime's rule,
//! [`robot_runtime::intent::members::is_test_only`]: a `test_` name) need nothing; every
//! other member, the `hri_*` intents and `simple_voice_response` included, is a real intent.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use robot_runtime::union::CladUnion;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::intents::{Tag, UserIntent, USER_INTENT_MAP};
#[allow(unused_imports)] // for the doc link
use crate::robot::ROOT;
use crate::robot::{Robot, RunConfig};
use crate::scenario::{Scenario, ScenarioEvent, TimedEvent, When};
use crate::timeline::What;
use robot_runtime::behavior::coverage as behavior_coverage;
use robot_runtime::behavior::LoadError;

/// A completed-intents table that does not load.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {problem}")]
pub struct TableError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub problem: String,
}

/// What the user says in a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Sample {
    /// A cloud result.
    Cloud {
        /// The cloud intent.
        intent: String,
        /// Its parameters.
        parameters: Map<String, Value>,
    },
    /// An app intent.
    App {
        /// The app intent.
        intent: String,
        /// Its parameter.
        param: String,
    },
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its label.
    pub label: String,
    /// What the user says.
    pub sample: Sample,
    /// The behavior that must claim it.
    pub claimed_by: String,
}

/// The completed-intents table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompletedIntents {
    /// Its file name (for messages).
    pub file: String,
    /// `handled`, in label order.
    pub rows: Vec<Row>,
    /// `exceptions`: intent name → reason.
    pub exceptions: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    handled: BTreeMap<String, RawRow>,
    #[serde(default)]
    exceptions: Vec<RawException>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawRow {
    #[serde(rename = "cloud_intent")]
    cloud_intent: Option<String>,
    #[serde(default)]
    parameters: Map<String, Value>,
    #[serde(rename = "app_intent")]
    app_intent: Option<String>,
    #[serde(default)]
    param: String,
    claimed_by: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawException {
    reason: String,
    intents: Vec<String>,
}

impl CompletedIntents {
    /// Loads a table (`//` comments allowed).
    pub fn from_json(file: &str, text: &str) -> Result<Self, TableError> {
        let err = |problem: String| TableError {
            file: file.to_owned(),
            problem,
        };
        let raw: RawTable = serde_json::from_str(&robot_runtime::behavior::strip_comments(text))
            .map_err(|e| err(e.to_string()))?;
        let mut rows = Vec::new();
        for (label, r) in raw.handled {
            let sample = match (r.cloud_intent, r.app_intent) {
                (Some(intent), None) if r.param.is_empty() => Sample::Cloud {
                    intent,
                    parameters: r.parameters,
                },
                (None, Some(intent)) if r.parameters.is_empty() => Sample::App {
                    intent,
                    param: r.param,
                },
                _ => {
                    return Err(err(format!(
                        "handled.{label:?}: give either cloud_intent (+ parameters) or app_intent (+ param)"
                    )))
                }
            };
            rows.push(Row {
                label,
                sample,
                claimed_by: r.claimed_by,
            });
        }
        let mut exceptions = BTreeMap::new();
        for e in raw.exceptions {
            if e.reason.trim().is_empty() {
                return Err(err("an exception needs a reason".into()));
            }
            for i in e.intents {
                if exceptions.insert(i.clone(), e.reason.clone()).is_some() {
                    return Err(err(format!("exceptions: {i} is listed twice")));
                }
            }
        }
        Ok(Self {
            file: file.to_owned(),
            rows,
            exceptions,
        })
    }
}

/// A coverage problem; its text says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// No behavior claims a production intent and no exception lists it.
    Unhandled {
        /// The member.
        intent: &'static str,
    },
    /// A behavior claims an intent that nothing in the map produces.
    Unreachable {
        /// The member.
        intent: &'static str,
        /// The behavior.
        behavior: String,
    },
    /// A claimed intent has no row.
    NoRow {
        /// The member.
        intent: &'static str,
        /// The behavior.
        behavior: String,
    },
    /// A row names a behavior the tree does not have.
    UnknownBehavior {
        /// The row.
        label: String,
        /// The name.
        behavior: String,
    },
    /// A row is not claimed by the expected behavior.
    RowFailed {
        /// The row.
        label: String,
        /// The expected behavior.
        expected: String,
        /// What happened instead.
        got: String,
    },
    /// An exception names no member.
    UnknownException {
        /// The name.
        intent: String,
    },
    /// An exception is claimed after all.
    StaleException {
        /// The member.
        intent: &'static str,
        /// Who claims it.
        behavior: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unhandled { intent } => write!(
                f,
                "user intent `{intent}` is claimed by no behavior: add a behavior whose \
                 respondToUserIntents has {{\"type\": \"{intent}\"}} to behaviors/robot.json, \
                 or list it under \"exceptions\" with a reason"
            ),
            Self::Unreachable { intent, behavior } => write!(
                f,
                "`{intent}` is claimed by {behavior}, but no entry of user_intent_map.json \
                 produces it: add one with \"user_intent\": \"{intent}\""
            ),
            Self::NoRow { intent, behavior } => write!(
                f,
                "`{intent}` is claimed by {behavior} but has no row in \"handled\": add one \
                 that proves it (a cloud_intent or app_intent and \"claimedBy\": \"{behavior}\")"
            ),
            Self::UnknownBehavior { label, behavior } => write!(
                f,
                "row {label:?}: claimedBy {behavior:?} is not a behavior of the tree"
            ),
            Self::RowFailed {
                label,
                expected,
                got,
            } => write!(
                f,
                "row {label:?}: expected {expected} to claim it, but {got}"
            ),
            Self::UnknownException { intent } => {
                write!(f, "exception `{intent}` is not a member of UserIntent")
            }
            Self::StaleException { intent, behavior } => write!(
                f,
                "`{intent}` is listed as an exception but {behavior} claims it: remove it \
                 from \"exceptions\""
            ),
        }
    }
}

/// One line of the coverage table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The member.
    pub intent: &'static str,
    /// The behaviors that claim it.
    pub claimed_by: Vec<String>,
    /// The rows that prove it (label, passed).
    pub rows: Vec<(String, bool)>,
    /// Its exception reason.
    pub exception: Option<String>,
}

/// The result of [`check`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// One line per production member, in tag order.
    pub lines: Vec<Line>,
    /// Test-only members (not checked).
    pub test_only: Vec<&'static str>,
    /// What is wrong.
    pub problems: Vec<Problem>,
}

impl Report {
    /// The report as text: claimed intents with their proof, exceptions counted, then the
    /// problems.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<30} {:<26} completed-intents rows",
            "user intent", "claimed by"
        );
        for l in self.lines.iter().filter(|l| !l.claimed_by.is_empty()) {
            let rows = l
                .rows
                .iter()
                .map(|(label, ok)| format!("{label:?} {}", if *ok { "ok" } else { "FAILED" }))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(
                out,
                "{:<30} {:<26} {}",
                l.intent,
                l.claimed_by.join(", "),
                if rows.is_empty() { "-" } else { &rows }
            );
        }
        let exceptions = self.lines.iter().filter(|l| l.exception.is_some()).count();
        let _ = writeln!(
            out,
            "\n{} intents claimed, {exceptions} documented exceptions, {} test-only members",
            self.lines
                .iter()
                .filter(|l| !l.claimed_by.is_empty())
                .count(),
            self.test_only.len()
        );
        if self.problems.is_empty() {
            let _ = writeln!(out, "coverage: ok");
        } else {
            let _ = writeln!(out, "\n{} coverage problem(s):", self.problems.len());
            for p in &self.problems {
                let _ = writeln!(out, "  error: {p}");
            }
        }
        out
    }
}

/// True for the union's test-only members: the runtime's rule
/// ([`robot_runtime::intent::members::is_test_only`], a `test_` name), the one behavior
/// coverage and the map compiler use too.
pub fn is_test_only(tag: Tag) -> bool {
    robot_runtime::intent::members::tag_is_test_only::<UserIntent>(tag)
}

/// The members some entry of the compiled map can produce.
pub fn reachable(tag: Tag) -> bool {
    let map = &USER_INTENT_MAP;
    tag == map.unmatched
        || (map.simple_voice_tag == Some(tag) && !map.simple_voice.is_empty())
        || map.cloud.iter().chain(map.app.iter()).any(|e| e.tag == tag)
}

/// Checks a behavior tree (`tree_file`, `tree_text`; base behavior [`ROOT`]) and the table
/// against the union and the map (see the module docs). Claimers come from
/// `robot_runtime::behavior::coverage` (`respondToUserIntents`, `UserIntentPending`
/// conditions, and what classes report: the trigger-word reaction's "huh?", a state
/// machine's intent transitions). Fails only when the tree does not load.
pub fn check(
    tree_file: &str,
    tree_text: &str,
    table: &CompletedIntents,
    ticks_per_second: u32,
) -> Result<Report, LoadError> {
    let config = RunConfig {
        ticks_per_second,
        ..RunConfig::default()
    };
    let robot = Robot::with_tree(tree_file, tree_text, config.clone())?;
    let coverage = behavior_coverage::coverage(robot.runner());
    let mut report = Report::default();
    for name in table.exceptions.keys() {
        if UserIntent::tag_from_name(name).is_none() {
            report.problems.push(Problem::UnknownException {
                intent: name.clone(),
            });
        }
    }
    let mut results: Vec<(String, bool)> = Vec::new();
    for row in &table.rows {
        if robot.runner().id(&row.claimed_by).is_none() {
            report.problems.push(Problem::UnknownBehavior {
                label: row.label.clone(),
                behavior: row.claimed_by.clone(),
            });
            results.push((row.label.clone(), false));
            continue;
        }
        let outcome = play_row(tree_file, tree_text, row, &config);
        let ok = outcome.as_ref().is_ok_and(|(b, _)| *b == row.claimed_by);
        if !ok {
            report.problems.push(Problem::RowFailed {
                label: row.label.clone(),
                expected: row.claimed_by.clone(),
                got: match outcome {
                    Ok((b, intent)) => format!("{b} claimed {intent}"),
                    Err(why) => why,
                },
            });
        }
        results.push((row.label.clone(), ok));
    }
    for (tag, claims) in &coverage.tags {
        let tag = *tag;
        if is_test_only(tag) {
            report.test_only.push(UserIntent::tag_name(tag));
            continue;
        }
        let name = UserIntent::tag_name(tag);
        let mut claimed_by: Vec<String> = Vec::new();
        for c in claims {
            if !claimed_by.contains(&c.name) {
                claimed_by.push(c.name.clone());
            }
        }
        let exception = table.exceptions.get(name).cloned();
        let rows: Vec<(String, bool)> = table
            .rows
            .iter()
            .zip(&results)
            .filter(|(r, _)| claimed_by.contains(&r.claimed_by) && row_tag(r) == Some(tag))
            .map(|(_, res)| res.clone())
            .collect();
        // The unmatched intent and silence are the trigger-word reaction's own business.
        let own = tag == USER_INTENT_MAP.unmatched || tag == Tag::Silence;
        match (claimed_by.first(), &exception) {
            (None, None) => report.problems.push(Problem::Unhandled { intent: name }),
            (Some(b), Some(_)) if !own => report.problems.push(Problem::StaleException {
                intent: name,
                behavior: b.clone(),
            }),
            (Some(b), None) if !own => {
                if !reachable(tag) {
                    report.problems.push(Problem::Unreachable {
                        intent: name,
                        behavior: b.clone(),
                    });
                }
                if rows.is_empty() {
                    report.problems.push(Problem::NoRow {
                        intent: name,
                        behavior: b.clone(),
                    });
                }
            }
            _ => {}
        }
        report.lines.push(Line {
            intent: name,
            claimed_by,
            rows,
            exception,
        });
    }
    Ok(report)
}

/// The tag a row's sample translates to, without running the robot.
fn row_tag(row: &Row) -> Option<Tag> {
    match &row.sample {
        Sample::Cloud { intent, .. } => {
            USER_INTENT_MAP.cloud(intent).map(|e| e.tag).or_else(|| {
                USER_INTENT_MAP
                    .simple_voice_response(intent)
                    .and(USER_INTENT_MAP.simple_voice_tag)
            })
        }
        Sample::App { intent, .. } => USER_INTENT_MAP.app(intent).map(|e| e.tag),
    }
}

/// Plays a row on a fresh robot (trigger word at tick 0, the sample at tick 2) and returns
/// who claimed what first after the sample, or what happened instead.
fn play_row(
    tree_file: &str,
    tree_text: &str,
    row: &Row,
    config: &RunConfig,
) -> Result<(String, &'static str), String> {
    let event = match &row.sample {
        Sample::Cloud { intent, parameters } => {
            use robot_runtime::wire::Wire;
            let message =
                crate::clad::cloud_mic::Message::Result(crate::clad::cloud_mic::IntentResult {
                    intent: intent.clone(),
                    parameters: Value::Object(parameters.clone()).to_string(),
                    metadata: String::new(),
                });
            ScenarioEvent::Cloud {
                bytes: message
                    .pack()
                    .map_err(|e| format!("the sample does not pack: {e}"))?,
                captured: false,
            }
        }
        Sample::App { intent, param } => ScenarioEvent::AppIntent {
            intent: intent.clone(),
            param: param.clone(),
        },
    };
    let at = |tick: u64, event: ScenarioEvent| TimedEvent {
        line: 0,
        when: When::Tick(tick),
        say: None,
        event,
    };
    let scenario = Scenario {
        events: vec![
            at(
                0,
                ScenarioEvent::TriggerWord {
                    will_open_stream: true,
                    from_mute: false,
                },
            ),
            at(2, event),
        ],
        errors: Vec::new(),
    };
    let run = Robot::with_tree(tree_file, tree_text, config.clone())
        .map_err(|e| e.to_string())?
        .run(&scenario);
    let mut seen_input = false;
    let mut last_problem = None;
    for e in &run.entries {
        match &e.what {
            What::Input { .. } => seen_input = true,
            What::Claimed {
                intent, behavior, ..
            } if seen_input => return Ok((behavior.clone(), intent)),
            What::Unclaimed { intent, .. } if seen_input => {
                return Err(format!("nobody claimed {intent}"))
            }
            What::NotUnderstood { .. } | What::CloudError { .. } | What::InputIgnored { .. }
                if seen_input =>
            {
                last_problem = Some(e.what.text())
            }
            What::Pending { intent, via, .. } if seen_input && via.starts_with("unmatched") => {
                last_problem = Some(format!("it became {intent} ({via})"))
            }
            _ => {}
        }
    }
    Err(last_problem.unwrap_or_else(|| "nothing claimed it".into()))
}
