//! Read-only introspection for tools (a live inspector, a debugger): each behavior's state
//! ([`status`]), and why a behavior does or does not run ([`why`]): its activation gates
//! against the robot state, its conditions with the value each had at its last evaluation
//! (nothing is evaluated here, so stateful conditions do not advance), whether a listed
//! intent is pending, and its cooldown in the dispatcher that keeps one.
//! [`Runner::force_behavior`](super::runner::Runner::force_behavior) forces one to run.

use std::time::Duration;

use super::condition::Condition;
use super::core::LifecycleState;
use super::ids::BehaviorId;
use super::robot_state::OffTreads;
use super::runner::Runner;
use crate::intent::IntentUnion;

/// A behavior's state (see [`status`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviorStatus {
    /// The behavior.
    pub id: BehaviorId,
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: String,
    /// Out of scope, in scope or active.
    pub state: LifecycleState,
    /// Its position on the stack, when active.
    pub stack_pos: Option<usize>,
    /// It said it wants to be activated on the last tick.
    pub wants: bool,
    /// Time left on its cooldown in an active dispatcher that keeps one.
    pub cooling_down: Option<Duration>,
    /// A stand-in for a class not run natively.
    pub stand_in: bool,
    /// The action its frame runs.
    pub action: Option<String>,
    /// Its debug state (a state machine's state).
    pub debug_state: Option<String>,
}

/// One condition node and the value it had at its last evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionReport {
    /// Where it is (`wantsToBeActivatedCondition`, a transition, ...).
    pub label: String,
    /// Its type (or custom condition) name.
    pub type_name: String,
    /// The tick of its last evaluation and the value (None: never evaluated). With the
    /// runner's caching on, an answer that cannot have changed is reused rather than
    /// evaluated again: the tick is when the value was computed, and it still holds.
    pub last: Option<(u64, bool)>,
    /// Its sub-conditions.
    pub children: Vec<ConditionReport>,
}

/// One activation gate (spec §0 steps 2–5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gate {
    /// `off treads`, `on charger`, `carrying`, `cube connection`.
    pub name: &'static str,
    /// True when the gate lets the behavior through in the current robot state.
    pub open: bool,
}

/// Why a behavior does or does not run (see [`why`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationReport {
    /// Its state.
    pub status: BehaviorStatus,
    /// The activation gates.
    pub gates: Vec<Gate>,
    /// Its conditions: `wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`, and the
    /// ones its class owns.
    pub conditions: Vec<ConditionReport>,
    /// With `respondToUserIntents`: whether a listed intent is pending now.
    pub intent_pending: Option<bool>,
}

/// The state of behavior `id` (None for an unknown ID).
pub fn status<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Option<BehaviorStatus> {
    let state = runner.state(id)?;
    let now = runner.clock().now();
    let cooling_down = runner
        .stack()
        .filter(|p| runner.delegates(*p).contains(&id))
        .find_map(|p| {
            runner
                .behavior(p)
                .and_then(|b| b.cooldown_remaining(id, now))
        });
    Some(BehaviorStatus {
        id,
        name: runner.name(id).map(|n| n.to_string()).unwrap_or_default(),
        class: runner.class(id).unwrap_or("").to_owned(),
        state,
        stack_pos: runner.stack_pos(id),
        wants: runner.wanted_on_tick(id) == runner.clock().tick() && runner.clock().tick() > 0,
        cooling_down,
        stand_in: runner.is_stand_in(id),
        action: runner.action_of(id).map(str::to_owned),
        debug_state: runner.debug_state(id).map(str::to_owned),
    })
}

/// The state of every behavior, in arena order.
pub fn statuses<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> Vec<BehaviorStatus> {
    (0..runner.len())
        .filter_map(|i| status(runner, BehaviorId::from_index(i)))
        .collect()
}

fn report<U: IntentUnion, E: 'static>(label: &str, c: &Condition<U, E>) -> ConditionReport {
    ConditionReport {
        label: label.to_owned(),
        type_name: c.type_name().to_owned(),
        last: c.last(),
        children: c.children().iter().map(|s| report("", s)).collect(),
    }
}

/// Why `id` does or does not run (None for an unknown ID).
pub fn why<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Option<ActivationReport> {
    let status = status(runner, id)?;
    let m = runner.modifiers(id)?;
    let r = runner.robot();
    let gates = vec![
        Gate {
            name: "off treads",
            open: m.when_off_treads || r.off_treads().0 == OffTreads::OnTreads,
        },
        Gate {
            name: "on charger",
            open: m.when_on_charger || !r.on_charger,
        },
        Gate {
            name: "carrying",
            open: m.when_carrying || !r.carrying_object,
        },
        Gate {
            name: "cube connection",
            open: !m.cube.required() || r.cube_connected,
        },
    ];
    let (wants, cancel) = runner.conditions(id);
    let mut conditions = Vec::new();
    if let Some(c) = wants {
        conditions.push(report("wantsToBeActivatedCondition", c));
    }
    if let Some(c) = cancel {
        conditions.push(report("wantsToCancelSelfCondition", c));
    }
    if let Some(b) = runner.behavior(id) {
        let mut owned = Vec::new();
        b.owned_conditions(&mut owned);
        conditions.extend(owned.iter().map(|(l, c)| report(l, c)));
    }
    let respond = runner.respond_matchers(id);
    let intent_pending = (!respond.is_empty()).then(|| {
        runner
            .intents()
            .pending()
            .is_some_and(|p| respond.iter().any(|m| m.matches(p.intent())))
    });
    Some(ActivationReport {
        status,
        gates,
        conditions,
        intent_pending,
    })
}

/// [`why`] for every declared delegate of `id` (a dispatcher's children, in its order).
pub fn children<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    id: BehaviorId,
) -> Vec<ActivationReport> {
    runner
        .delegates(id)
        .iter()
        .filter_map(|&c| why(runner, c))
        .collect()
}
