//! Breakpoints: the robot pauses after the tick on which something a person watches for
//! happens — a behavior is activated, an intent goes pending, an intent goes unclaimed, a
//! resource is preempted, a behavior's condition turns true — so the page shows the robot
//! as it is on that very tick, with why it stopped ([`Hit`]).
//!
//! Checked on the tick thread after each tick, against the tick's timeline entries (the
//! first four) or the condition's last value (nothing is evaluated: a condition "turns true"
//! when its evaluation on this tick said true and the value known before did not). Without
//! breakpoints nothing is checked.

use robot_runtime::behavior::{BehaviorId, Condition};
use robot_runtime::union::CladUnion;

use super::observe::{BreakpointInfo, Hit};
use crate::behavior_classes::Event;
use crate::intents::UserIntent;
use crate::robot::Robot;
use crate::timeline::{Entry, What};

/// What a breakpoint watches for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// A behavior is activated.
    Activation,
    /// An intent goes pending.
    Pending,
    /// A pending intent goes unclaimed.
    Unclaimed,
    /// A resource is preempted.
    Preemption,
    /// A behavior's condition turns true.
    Condition,
}

impl On {
    /// Its name in the protocol.
    pub fn name(self) -> &'static str {
        match self {
            On::Activation => "activation",
            On::Pending => "pending",
            On::Unclaimed => "unclaimed",
            On::Preemption => "preemption",
            On::Condition => "condition",
        }
    }
    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<On> {
        [
            On::Activation,
            On::Pending,
            On::Unclaimed,
            On::Preemption,
            On::Condition,
        ]
        .into_iter()
        .find(|o| o.name() == name)
    }
}

/// A breakpoint as a page asks for it (checked against the tree by [`Breakpoints::add`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// What it watches for.
    pub on: On,
    /// The behavior (activation, condition), the intent (pending, unclaimed) or the resource
    /// (preemption); `None`: any (not for a condition).
    pub target: Option<String>,
    /// For a condition: its label (`wantsToBeActivatedCondition`, a transition's
    /// `From -> To (kind)`).
    pub condition: Option<String>,
}

struct Breakpoint {
    id: u32,
    spec: Spec,
    /// A condition breakpoint: the behavior and the condition's place among its own
    /// (`wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`, then its class's).
    condition: Option<(BehaviorId, usize)>,
    /// The condition's value known at the last check.
    last: Option<bool>,
    hits: u32,
}

/// The breakpoints of a run.
#[derive(Default)]
pub struct Breakpoints {
    list: Vec<Breakpoint>,
    next: u32,
    /// As the pages list them (kept up to date: read after every tick).
    info: Vec<BreakpointInfo>,
}

/// A behavior's conditions as the inspector lists them: its `wantsToBeActivatedCondition`,
/// `wantsToCancelSelfCondition`, then its class's own, with their labels.
fn conditions_of(robot: &Robot, id: BehaviorId) -> Vec<(String, &Condition<UserIntent, Event>)> {
    let runner = robot.runner();
    let (wants, cancel) = runner.conditions(id);
    let mut out: Vec<(String, &Condition<UserIntent, Event>)> = Vec::new();
    if let Some(c) = wants {
        out.push(("wantsToBeActivatedCondition".into(), c));
    }
    if let Some(c) = cancel {
        out.push(("wantsToCancelSelfCondition".into(), c));
    }
    if let Some(b) = runner.behavior(id) {
        b.owned_conditions(&mut out);
    }
    out
}

impl Breakpoints {
    /// True when there is none (nothing to check).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Adds a breakpoint, checked against `robot`'s tree and union; its number.
    pub fn add(&mut self, spec: Spec, robot: &Robot) -> Result<u32, String> {
        let runner = robot.runner();
        let mut condition = None;
        let mut last = None;
        match (spec.on, spec.target.as_deref()) {
            (On::Activation, Some(name)) if runner.id(name).is_none() => {
                return Err(format!("break: no behavior is named {name:?}"))
            }
            (On::Pending | On::Unclaimed, Some(tag))
                if UserIntent::tag_from_name(tag).is_none() =>
            {
                return Err(format!("break: {tag:?} is not a member of UserIntent"))
            }
            (On::Preemption, Some(r)) if r.trim().is_empty() => {
                return Err("break: an empty resource name".into())
            }
            (On::Condition, None) => {
                return Err(
                    "break: a condition breakpoint needs \"behavior\" and \"condition\"".into(),
                )
            }
            (On::Condition, Some(name)) => {
                let id = runner
                    .id(name)
                    .ok_or_else(|| format!("break: no behavior is named {name:?}"))?;
                let label = spec.condition.as_deref().unwrap_or("");
                let conds = conditions_of(robot, id);
                let k = conds.iter().position(|(l, _)| l == label).ok_or_else(|| {
                    let known: Vec<&str> = conds.iter().map(|(l, _)| l.as_str()).collect();
                    if known.is_empty() {
                        format!("break: {name} has no condition")
                    } else {
                        format!(
                            "break: {name} has no condition {label:?} (it has: {})",
                            known.join(", ")
                        )
                    }
                })?;
                last = conds[k].1.last().map(|(_, v)| v);
                condition = Some((id, k));
            }
            _ => {}
        }
        self.next += 1;
        self.list.push(Breakpoint {
            id: self.next,
            spec,
            condition,
            last,
            hits: 0,
        });
        self.refresh();
        Ok(self.next)
    }

    /// Removes breakpoint `id` (`None`: every one). What was removed, for a person.
    pub fn remove(&mut self, id: Option<u32>) -> Result<String, String> {
        let r = self.remove_inner(id);
        self.refresh();
        r
    }

    fn remove_inner(&mut self, id: Option<u32>) -> Result<String, String> {
        match id {
            None => {
                let n = self.list.len();
                self.list.clear();
                Ok(format!(
                    "{n} breakpoint{} removed",
                    if n == 1 { "" } else { "s" }
                ))
            }
            Some(id) => {
                let before = self.list.len();
                self.list.retain(|b| b.id != id);
                if self.list.len() < before {
                    Ok(format!("breakpoint {id} removed"))
                } else {
                    Err(format!("unbreak: there is no breakpoint {id}"))
                }
            }
        }
    }

    /// The breakpoints, as the pages list them.
    pub fn info(&self) -> &[BreakpointInfo] {
        &self.info
    }

    fn refresh(&mut self) {
        self.info = self
            .list
            .iter()
            .map(|b| BreakpointInfo {
                id: b.id,
                on: b.spec.on.name(),
                target: match (&b.spec.target, &b.spec.condition) {
                    (Some(t), Some(c)) => format!("{t}: {c}"),
                    (Some(t), None) => t.clone(),
                    (None, _) => String::new(),
                },
                hits: b.hits,
            })
            .collect();
    }

    /// After a tick with these `entries`: the first breakpoint it hit, if any (its count goes
    /// up). Every condition breakpoint notes its value, hit or not.
    pub fn check(&mut self, robot: &Robot, entries: &[Entry]) -> Option<Hit> {
        if self.list.is_empty() {
            return None;
        }
        let tick = robot.runner().clock().tick();
        let mut hit: Option<Hit> = None;
        for b in &mut self.list {
            let what = match b.spec.on {
                On::Condition => {
                    let Some((id, k)) = b.condition else {
                        continue;
                    };
                    let conds = conditions_of(robot, id);
                    let Some((label, c)) = conds.get(k) else {
                        continue;
                    };
                    let now = c.last();
                    let turned =
                        matches!(now, Some((t, true)) if t == tick) && b.last != Some(true);
                    b.last = now.map(|(_, v)| v);
                    turned.then(|| {
                        format!(
                            "{}: {label} turned true",
                            b.spec.target.as_deref().unwrap_or("?")
                        )
                    })
                }
                on => entries
                    .iter()
                    .find(|e| matches_entry(on, b.spec.target.as_deref(), &e.what))
                    .map(|e| e.what.text()),
            };
            if let (Some(what), None) = (what, &hit) {
                b.hits += 1;
                hit = Some(Hit {
                    breakpoint: b.id,
                    tick: robot.tick(),
                    what,
                });
            }
        }
        if hit.is_some() {
            self.refresh();
        }
        hit
    }
}

fn matches_entry(on: On, target: Option<&str>, what: &What) -> bool {
    let is = |name: &str| target.is_none_or(|t| t == name);
    match (on, what) {
        (
            On::Activation,
            What::Behavior {
                behavior, change, ..
            },
        ) => *change == "activated" && is(behavior),
        (On::Pending, What::Pending { intent, .. }) => is(intent),
        (On::Unclaimed, What::Unclaimed { intent, .. }) => is(intent),
        (
            On::Preemption,
            What::Resource {
                resource, change, ..
            },
        ) => *change == "preempted" && (target.is_none() || resource.split('+').any(is)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::RunConfig;

    fn entry(what: What) -> Entry {
        Entry {
            tick: 3,
            t_ms: 150,
            what,
        }
    }

    #[test]
    fn specs_are_checked_against_the_tree_and_the_union() {
        let robot = Robot::new(RunConfig::default());
        let mut b = Breakpoints::default();
        let spec = |on, target: Option<&str>, condition: Option<&str>| Spec {
            on,
            target: target.map(str::to_owned),
            condition: condition.map(str::to_owned),
        };
        assert_eq!(
            b.add(spec(On::Activation, Some("TimerSet"), None), &robot),
            Ok(1)
        );
        assert!(b
            .add(spec(On::Activation, Some("Nope"), None), &robot)
            .unwrap_err()
            .contains("no behavior"));
        assert!(b
            .add(spec(On::Pending, Some("nope"), None), &robot)
            .unwrap_err()
            .contains("not a member"));
        assert!(b
            .add(spec(On::Condition, None, None), &robot)
            .unwrap_err()
            .contains("needs"));
        let e = b
            .add(spec(On::Condition, Some("TimerSet"), Some("x")), &robot)
            .unwrap_err();
        assert!(e.contains("TimerSet"), "{e}");
        assert_eq!(b.add(spec(On::Unclaimed, None, None), &robot), Ok(2));
        assert_eq!(b.info().len(), 2);
        assert!(b.remove(Some(9)).is_err());
        assert_eq!(b.remove(Some(1)).unwrap(), "breakpoint 1 removed");
        assert_eq!(b.remove(None).unwrap(), "1 breakpoint removed");
        assert!(b.is_empty());
    }

    #[test]
    fn entries_hit_what_they_name() {
        let robot = Robot::new(RunConfig::default());
        let mut b = Breakpoints::default();
        b.add(
            Spec {
                on: On::Preemption,
                target: Some("speech".into()),
                condition: None,
            },
            &robot,
        )
        .unwrap();
        let granted = entry(What::Resource {
            resource: "base+speech".into(),
            holder: "guide #1".into(),
            change: "granted",
            reason: None,
        });
        assert!(b.check(&robot, &[granted]).is_none());
        let preempted = entry(What::Resource {
            resource: "base+speech".into(),
            holder: "guide #1".into(),
            change: "preempted",
            reason: Some("stop".into()),
        });
        let hit = b.check(&robot, &[preempted]).unwrap();
        assert_eq!(hit.breakpoint, 1);
        assert!(hit.what.contains("preempted"), "{}", hit.what);
        assert_eq!(b.info()[0].hits, 1);
    }
}
