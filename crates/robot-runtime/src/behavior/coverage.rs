//! Intent coverage and the data-driven "completed intents" check (the original's
//! `completedUserIntents.json` + `testUserIntentTransitions` + LabeledExceptions, as one
//! table that a test passes to one library function).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use serde::Deserialize;

use super::core::ClaimSite;
use super::ids::BehaviorId;
use super::jsonc::strip_comments;
use super::runner::Runner;
use crate::intent::{IntentSource, IntentUnion};
use crate::union::CladUnion;

/// How a behavior claims a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimVia {
    /// Its `respondToUserIntents`.
    RespondToUserIntents,
    /// A `UserIntentPending` in its `wantsToBeActivatedCondition`.
    WantsCondition,
    /// Its own logic ([`Behavior::claim_sites`](super::Behavior::claim_sites)), e.g. a
    /// state machine transition or `activateIntent`.
    Class,
}

/// One claimer of a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The behavior (the owner of the claimed intent).
    pub behavior: BehaviorId,
    /// Its name.
    pub name: String,
    /// The state of a state machine it claims from, if any.
    pub state: Option<Box<str>>,
    /// How.
    pub via: ClaimVia,
}

/// For every tag of the union, who can claim it.
#[derive(Clone, Debug)]
pub struct Coverage<T> {
    /// Tag → claimers, in union order.
    pub tags: Vec<(T, Vec<Claim>)>,
}

/// True for test-only members, which need no production handler: the runtime's one rule,
/// [`crate::intent::members::is_test_only`] (a `test_` name). Every other member, those
/// appended below `test_SEPARATOR` included, is a real intent coverage demands a claimer for.
pub fn is_test_only<U: CladUnion>(tag: U::Tag) -> bool {
    crate::intent::members::tag_is_test_only::<U>(tag)
}

/// Computes coverage over the whole tree.
pub fn coverage<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> Coverage<U::Tag> {
    coverage_where(runner, |_| true)
}

fn coverage_where<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    keep: impl Fn(BehaviorId) -> bool,
) -> Coverage<U::Tag> {
    let mut map: HashMap<U::Tag, Vec<Claim>> = HashMap::new();
    let mut sites: Vec<ClaimSite<U::Tag>> = Vec::new();
    let mut tags = Vec::new();
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        if !keep(id) {
            continue;
        }
        let mut add = |tag, state, via, owner: Option<BehaviorId>| {
            let behavior = owner.unwrap_or(id);
            let name = runner
                .name(behavior)
                .map(ToString::to_string)
                .unwrap_or_default();
            map.entry(tag).or_default().push(Claim {
                behavior,
                name,
                state,
                via,
            })
        };
        for m in runner.respond_matchers(id) {
            add(m.target_tag(), None, ClaimVia::RespondToUserIntents, None);
        }
        tags.clear();
        if let Some(c) = runner.conditions(id).0 {
            c.pending_tags(&mut tags);
        }
        for t in tags.drain(..) {
            add(t, None, ClaimVia::WantsCondition, None);
        }
        sites.clear();
        if let Some(b) = runner.behavior(id) {
            b.claim_sites(&mut sites);
        }
        for s in sites.drain(..) {
            add(s.tag, s.state, ClaimVia::Class, s.owner);
        }
    }
    Coverage {
        tags: U::TAGS
            .iter()
            .map(|t| (*t, map.remove(t).unwrap_or_default()))
            .collect(),
    }
}

/// Coverage restricted to behaviors reachable (through declared delegates) from a
/// behavior of `stack`: what can claim an intent while that stack runs.
pub fn coverage_from_stack<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    stack: &[BehaviorId],
) -> Coverage<U::Tag> {
    let mut seen = vec![false; runner.len()];
    let mut todo: Vec<BehaviorId> = stack.to_vec();
    while let Some(id) = todo.pop() {
        if id.index() >= seen.len() || std::mem::replace(&mut seen[id.index()], true) {
            continue;
        }
        todo.extend_from_slice(runner.delegates(id));
    }
    coverage_where(runner, |id| seen[id.index()])
}

impl<T: Copy + PartialEq> Coverage<T> {
    /// Claimers of `tag`.
    pub fn claimers(&self, tag: T) -> &[Claim] {
        self.tags
            .iter()
            .find(|(t, _)| *t == tag)
            .map_or(&[], |(_, c)| c.as_slice())
    }
    /// Tags nobody claims, except test-only members.
    pub fn unclaimed<U: CladUnion<Tag = T>>(&self) -> Vec<T> {
        self.tags
            .iter()
            .filter(|(t, c)| c.is_empty() && !is_test_only::<U>(*t))
            .map(|(t, _)| *t)
            .collect()
    }
}

/// The completed-intents table.
///
/// ```json
/// {
///   // JSON with comments
///   "claimWindowTicks": 3,
///   "tickMs": 60,
///   "namedStacks": {"idle_stack": ["Root", "Interruptions", "Idle"]},
///   "intents": {"fist_bump": {"type": "play_fistbump"}, "volume_up": {"type": "imperative_volumeup"}},
///   "expectations": [
///     {"label": "fist_bump", "stack": "idle_stack", "handler": "PlayFistBump", "anywhereInStack": true}
///   ],
///   "exceptions": [
///     {"label": "volume_up", "stack": "idle_stack", "reason": "volume is handled by the app"}
///   ]
/// }
/// ```
///
/// Each expectation: the stack is set, the intent made pending, and the runner ticked at
/// most `claimWindowTicks` times (default: until the component's claim deadline); the
/// intent must have been activated and `handler` must be the top of the stack (or anywhere
/// in it with `anywhereInStack`). Each exception: the intent must *not* be claimed from that
/// stack (so a stale exception is caught too). Every label must be used by an expectation
/// or an exception, and every expectation and exception must name a label.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompletedTable {
    /// Claim window in ticks (default 3, the original's).
    #[serde(default = "default_window")]
    pub claim_window_ticks: u32,
    /// Tick length in ms (default 60).
    #[serde(default = "default_tick_ms")]
    pub tick_ms: u64,
    /// Named stacks, bottom to top.
    pub named_stacks: BTreeMap<String, Vec<String>>,
    /// Label → intent in CLAD-JSON.
    pub intents: BTreeMap<String, serde_json::Value>,
    /// Expected handlers.
    #[serde(default)]
    pub expectations: Vec<Expectation>,
    /// Documented exceptions.
    #[serde(default)]
    pub exceptions: Vec<Exception>,
}

fn default_window() -> u32 {
    3
}
fn default_tick_ms() -> u64 {
    60
}

/// One expected handler.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Expectation {
    /// The intent label.
    pub label: String,
    /// The named stack.
    pub stack: String,
    /// The behavior that must handle it.
    pub handler: String,
    /// Accept the handler anywhere in the stack (default: top).
    #[serde(default)]
    pub anywhere_in_stack: bool,
}

/// One documented exception.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exception {
    /// The intent label.
    pub label: String,
    /// The named stack.
    pub stack: String,
    /// Why it is not handled there.
    pub reason: String,
}

/// One failed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckFailure {
    /// The label (or table key) concerned.
    pub label: String,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.label, self.message)
    }
}

/// Runs the completed-intents table `text` against fresh runners from `make_runner`.
/// Returns every failure (empty: all good).
pub fn check_completed_intents<U: IntentUnion, E: 'static>(
    text: &str,
    mut make_runner: impl FnMut() -> Runner<U, E>,
) -> Vec<CheckFailure> {
    let mut fails = Vec::new();
    let mut fail = |label: &str, message: String| {
        fails.push(CheckFailure {
            label: label.to_owned(),
            message,
        })
    };
    let table: CompletedTable = match serde_json::from_str(&strip_comments(text)) {
        Ok(t) => t,
        Err(e) => {
            fail("<table>", format!("bad table: {e}"));
            return fails;
        }
    };
    let mut used: HashMap<&str, bool> = table.intents.keys().map(|k| (k.as_str(), false)).collect();
    let cases = table
        .expectations
        .iter()
        .map(|e| (&e.label, &e.stack, Some(e)))
        .chain(table.exceptions.iter().map(|x| (&x.label, &x.stack, None)));
    for (label, stack_name, expect) in cases {
        let Some(u) = used.get_mut(label.as_str()) else {
            fail(label, "no such label in `intents`".into());
            continue;
        };
        *u = true;
        let intent: U = match serde_json::from_value(table.intents[label].clone()) {
            Ok(i) => i,
            Err(e) => {
                fail(label, format!("bad intent: {e}"));
                continue;
            }
        };
        let Some(names) = table.named_stacks.get(stack_name) else {
            fail(label, format!("no named stack `{stack_name}`"));
            continue;
        };
        let mut runner = make_runner();
        let Some(ids) = names
            .iter()
            .map(|n| runner.id(n))
            .collect::<Option<Vec<_>>>()
        else {
            fail(
                label,
                format!("stack `{stack_name}` names an unknown behavior"),
            );
            continue;
        };
        if let Err(e) = runner.replace_stack(&ids) {
            fail(label, format!("stack `{stack_name}`: {e}"));
            continue;
        }
        runner.intents_mut().set_pending(intent, IntentSource::Dev);
        let dt = Duration::from_millis(table.tick_ms);
        for _ in 0..table.claim_window_ticks {
            runner.tick(dt, &[]);
            if runner.intents().pending().is_none() {
                break;
            }
        }
        let owner = runner
            .intents()
            .active()
            .map(|a| runner.owner_name(a.owner()).unwrap_or("?").to_owned());
        match expect {
            Some(e) => {
                let Some(h) = runner.id(&e.handler) else {
                    fail(label, format!("unknown handler `{}`", e.handler));
                    continue;
                };
                if owner.is_none() {
                    fail(
                        label,
                        format!(
                            "not claimed from `{stack_name}` within {} ticks (stack: {:?})",
                            table.claim_window_ticks,
                            runner.stack_names()
                        ),
                    );
                    continue;
                }
                let ok = if e.anywhere_in_stack {
                    runner.is_on_stack(h)
                } else {
                    runner.top() == Some(h)
                };
                if !ok {
                    fail(
                        label,
                        format!(
                            "expected `{}` {} from `{stack_name}`, stack is {:?} (owner {:?})",
                            e.handler,
                            if e.anywhere_in_stack {
                                "in the stack"
                            } else {
                                "on top"
                            },
                            runner.stack_names(),
                            owner
                        ),
                    );
                }
            }
            None => {
                if let Some(o) = owner {
                    fail(
                        label,
                        format!("listed as an exception for `{stack_name}` but claimed by `{o}`"),
                    );
                }
            }
        }
    }
    for (label, u) in used {
        if !u {
            fail(
                label,
                "label has neither an expectation nor an exception".into(),
            );
        }
    }
    fails.sort_by(|a, b| a.label.cmp(&b.label));
    fails
}
