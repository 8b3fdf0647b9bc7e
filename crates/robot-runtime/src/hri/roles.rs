//! The thematic-role table (which `data` keys each intent requires or allows) and the check
//! of a `data` object against it.

use super::error::{push_cold, HriError};
use super::read::RolesIn;
use super::vocab::{GazeMode, IntentKind, Role};
use crate::json_kind::kind_of as json_kind;
#[cfg(test)]
use serde_json::{Map, Value};

/// The roles of one intent: `agent` and `other_data` are allowed on every intent and are not
/// listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleSpec {
    /// Roles that must be present (as non-empty strings).
    pub required: &'static [Role],
    /// Roles that may be present.
    pub optional: &'static [Role],
    /// Further keys are allowed ("any additional parameter required", `START_ACTIVITY`) and
    /// custom intents.
    pub open: bool,
}

const fn spec(required: &'static [Role], optional: &'static [Role]) -> RoleSpec {
    RoleSpec {
        required,
        optional,
        open: false,
    }
}

impl IntentKind {
    /// The intent's roles: the union of every released version and fork (spec A.3). Where
    /// versions disagree the lenient reading is taken: `BRING_OBJECT` also allows `goal`
    /// (the prose example uses it), `CANCEL_ACTIVITY` requires nothing (the forks; the docs
    /// list `object` as both required and optional). Custom intents are open.
    pub fn roles(&self) -> RoleSpec {
        use Role::*;
        match self {
            IntentKind::RawUserInput => spec(&[Input], &[Locale]),
            IntentKind::EngageWith | IntentKind::Greet => spec(&[Recipient], &[]),
            IntentKind::MoveTo => spec(&[Goal], &[]),
            IntentKind::Guide => spec(&[Goal, Recipient], &[]),
            IntentKind::GrabObject => spec(&[Object], &[]),
            IntentKind::BringObject => spec(&[Object, Recipient], &[Goal]),
            IntentKind::PlaceObject => spec(&[Recipient], &[Object]),
            IntentKind::Say | IntentKind::PresentContent | IntentKind::PerformMotion => {
                spec(&[Object], &[Recipient])
            }
            IntentKind::Gaze => spec(&[GazeMode, Target], &[]),
            IntentKind::StartActivity => RoleSpec {
                required: &[Object],
                optional: &[],
                open: true,
            },
            IntentKind::StopActivity | IntentKind::CancelActivity => spec(&[], &[Object]),
            IntentKind::ContinueActivity | IntentKind::Wakeup | IntentKind::Suspend => {
                spec(&[], &[])
            }
            IntentKind::Custom(_) => RoleSpec {
                required: &[],
                optional: &[],
                open: true,
            },
        }
    }
}

impl RoleSpec {
    /// True when `role` may appear (required, optional, or allowed everywhere).
    pub fn allows(&self, role: Role) -> bool {
        matches!(role, Role::Agent | Role::OtherData)
            || self.required.contains(&role)
            || self.optional.contains(&role)
    }
}

/// Checks `data` against `intent`'s roles. Hard errors (missing required role, a role that
/// is not a string, a bad gaze mode) are returned in `errors`; keys that are no role of the
/// intent go to `unexpected` (the caller decides, per its configuration, whether that is an
/// error).
#[cfg(test)]
pub(crate) fn check(
    intent: &IntentKind,
    data: &Map<String, Value>,
    errors: &mut Vec<HriError>,
    unexpected: &mut Vec<String>,
) {
    check_in(intent, &RolesIn::from_map(data), errors, unexpected);
}

/// [`check`] on roles as read ([`RolesIn`]: sorted by key, as a map iterates them).
// Inlined into its one caller, `Reader::finish` (the test-only `check` aside).
#[inline]
pub(crate) fn check_in(
    intent: &IntentKind,
    data: &RolesIn<'_>,
    errors: &mut Vec<HriError>,
    unexpected: &mut Vec<String>,
) {
    check_into(intent, data, &mut Reported { errors, unexpected });
}

/// True when [`check_in`] would find nothing: no error and no unexpected role. The same
/// checks, but no report is built (the reader's short path asks only this).
#[inline]
pub(crate) fn accepts(intent: &IntentKind, data: &RolesIn<'_>) -> bool {
    let mut found = Found(false);
    check_into(intent, data, &mut found);
    !found.0
}

/// Where [`check_into`] puts what it finds.
trait Problems {
    /// An error, built by `make` when it is to be kept.
    fn error(&mut self, make: impl FnOnce() -> HriError);
    /// A role the intent does not take.
    fn unexpected(&mut self, key: &str);
}

/// Every problem, reported.
struct Reported<'p> {
    errors: &'p mut Vec<HriError>,
    unexpected: &'p mut Vec<String>,
}

impl Problems for Reported<'_> {
    fn error(&mut self, make: impl FnOnce() -> HriError) {
        push_cold(self.errors, make);
    }

    fn unexpected(&mut self, key: &str) {
        push_cold(self.unexpected, || key.to_owned());
    }
}

/// Whether there was a problem, and nothing else.
struct Found(bool);

impl Problems for Found {
    fn error(&mut self, _: impl FnOnce() -> HriError) {
        self.0 = true;
    }

    fn unexpected(&mut self, _: &str) {
        self.0 = true;
    }
}

/// The role checks, written once: each problem goes to `problems`.
#[inline]
fn check_into(intent: &IntentKind, data: &RolesIn<'_>, problems: &mut impl Problems) {
    let spec = intent.roles();
    for role in spec.required {
        if !data.has_role(*role) {
            problems.error(|| HriError::MissingRole {
                intent: intent.wire().to_owned(),
                role: *role,
            });
        }
    }
    for entry in data.entries() {
        let (key, value) = (&*entry.key, &entry.value);
        match entry.role {
            Some(Role::OtherData) => {}
            Some(role) if spec.allows(role) || spec.open => match value.as_str() {
                Some(s) if s.is_empty() && spec.required.contains(&role) => {
                    problems.error(|| HriError::EmptyRole {
                        intent: intent.wire().to_owned(),
                        role,
                    });
                }
                Some(s) if role == Role::GazeMode && GazeMode::from_wire(s).is_none() => {
                    problems.error(|| HriError::BadGazeMode {
                        intent: intent.wire().to_owned(),
                        value: s.to_owned(),
                    });
                }
                Some(_) => {}
                None if intent.is_standard() => problems.error(|| HriError::RoleNotString {
                    intent: intent.wire().to_owned(),
                    role: key.to_owned(),
                    found: json_kind(&value.to_value()),
                }),
                None => {}
            },
            _ if spec.open => {}
            _ => problems.unexpected(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(intent: IntentKind, data: Value) -> (Vec<HriError>, Vec<String>) {
        let (mut e, mut u) = (Vec::new(), Vec::new());
        check(&intent, data.as_object().unwrap(), &mut e, &mut u);
        (e, u)
    }

    #[test]
    fn missing_required_role_names_intent_and_role() {
        let (e, _) = run(IntentKind::Guide, json!({"goal": "kitchen"}));
        assert_eq!(
            e,
            vec![HriError::MissingRole {
                intent: "__intent_guide__".into(),
                role: Role::Recipient
            }]
        );
        assert_eq!(
            e[0].to_string(),
            "intent __intent_guide__ requires the thematic role `recipient`"
        );
    }

    #[test]
    fn agent_and_other_data_are_allowed_everywhere() {
        let (e, u) = run(
            IntentKind::MoveTo,
            json!({"goal": "kitchen", "agent": "p1", "other_data": {"speed": 1}}),
        );
        assert!(e.is_empty() && u.is_empty(), "{e:?} {u:?}");
    }

    #[test]
    fn unexpected_keys_and_non_string_roles_are_found() {
        let (e, u) = run(IntentKind::MoveTo, json!({"goal": 3, "speed": "fast"}));
        assert!(matches!(&e[0], HriError::RoleNotString { role, .. } if role == "goal"));
        assert_eq!(u, vec!["speed".to_owned()]);
        let (e, u) = run(
            IntentKind::StartActivity,
            json!({"object": "memory_game", "level": 2}),
        );
        assert!(e.is_empty() && u.is_empty());
    }

    #[test]
    fn gaze_mode_is_checked() {
        let (e, _) = run(
            IntentKind::Gaze,
            json!({"gaze_mode": "SIDEWAYS", "target": "p1"}),
        );
        assert!(matches!(&e[0], HriError::BadGazeMode { value, .. } if value == "SIDEWAYS"));
    }

    /// `accepts` answers what `check_in` finds, for every intent and every shape of roles
    /// (each role given or not, empty, not a string, a gaze mode right or wrong, an
    /// unknown key).
    #[test]
    fn accepts_is_check_in_finding_nothing() {
        let mut intents = IntentKind::STANDARD.to_vec();
        intents.push(IntentKind::Custom("wave".into()));
        let values = [
            json!("x"),
            json!(""),
            json!(3),
            json!("LOOK_AT"),
            json!(null),
        ];
        let mut checked = 0;
        for intent in &intents {
            // Every subset of the roles in play, each with each value.
            let keys = [
                "object",
                "recipient",
                "goal",
                "gaze_mode",
                "target",
                "speed",
            ];
            for mask in 0u32..(1 << keys.len()) {
                for value in &values {
                    let data: serde_json::Map<String, Value> = keys
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, k)| ((*k).to_owned(), value.clone()))
                        .collect();
                    let (e, u) = run(intent.clone(), Value::Object(data.clone()));
                    let roles = RolesIn::from_map(&data);
                    assert_eq!(
                        accepts(intent, &roles),
                        e.is_empty() && u.is_empty(),
                        "{intent:?} {data:?}: {e:?} {u:?}"
                    );
                    checked += usize::from(e.is_empty() && u.is_empty());
                }
            }
        }
        assert!(checked > 100, "too few accepted shapes: {checked}");
    }
}
