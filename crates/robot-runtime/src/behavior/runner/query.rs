//! The runner's read-only accessors: the stack, scope, declarations, counters and views
//! tools and tests read between ticks.

use crate::behavior::clock::VirtualClock;
use crate::behavior::core::{
    Behavior, Behaviors, LifecycleState, OperationModifiers, RunnerError, View,
};
use crate::behavior::ids::{BehaviorId, BehaviorName};
use crate::behavior::wakeup::Inputs;
use crate::intent::{IntentComponent, IntentEvent, IntentUnion};

use super::{ConditionPair, Runner};

impl<U: IntentUnion, E: 'static> Runner<U, E> {
    /// The intent component.
    pub fn intents(&self) -> &IntentComponent<U> {
        &self.core.m.intents
    }
    /// The intent component, mutably (to feed cloud results, trigger words... between
    /// ticks). Events it emits are delivered to behaviors on the next tick.
    pub fn intents_mut(&mut self) -> &mut IntentComponent<U> {
        self.core.m.changes.stamp(Inputs::INTENTS);
        &mut self.core.m.intents
    }
    /// Tick and virtual time.
    pub fn clock(&self) -> VirtualClock {
        self.core.s.clock
    }
    /// The stack, bottom to top.
    pub fn stack(&self) -> impl DoubleEndedIterator<Item = BehaviorId> + ExactSizeIterator + '_ {
        self.core.s.stack.iter().map(|f| f.id)
    }
    /// The top of the stack.
    pub fn top(&self) -> Option<BehaviorId> {
        self.core.s.stack.last().map(|f| f.id)
    }
    /// The stack as names, bottom to top (allocates; for tests and tools).
    pub fn stack_names(&self) -> Vec<&str> {
        self.stack()
            .map(|id| self.core.s.nodes[id.index()].name.as_str())
            .collect()
    }
    /// True when `id` is on the stack.
    pub fn is_on_stack(&self, id: BehaviorId) -> bool {
        self.stack_pos(id).is_some()
    }
    /// The position of `id` on the stack (0: the base).
    pub fn stack_pos(&self, id: BehaviorId) -> Option<usize> {
        let p = self.core.s.nodes.get(id.index())?.stack_pos;
        (p != u32::MAX).then_some(p as usize)
    }
    /// True when the frame of `id` runs an action.
    pub fn is_running_action(&self, id: BehaviorId) -> bool {
        self.stack_pos(id)
            .is_some_and(|p| self.core.s.stack[p].action.is_some())
    }
    /// The name of the action the frame of `id` runs.
    pub fn action_of(&self, id: BehaviorId) -> Option<&str> {
        let p = self.stack_pos(id)?;
        self.core.s.stack[p].action.as_ref().map(|a| a.name())
    }
    /// Behaviors in scope, in no particular order.
    pub fn in_scope(&self) -> &[BehaviorId] {
        &self.core.in_scope
    }
    /// Lifecycle state of `id`.
    pub fn state(&self, id: BehaviorId) -> Option<LifecycleState> {
        self.core.s.nodes.get(id.index()).map(|n| n.state)
    }
    /// Number of behaviors.
    pub fn len(&self) -> usize {
        self.core.s.nodes.len()
    }
    /// Never true for a built runner.
    pub fn is_empty(&self) -> bool {
        self.core.s.nodes.is_empty()
    }
    /// The ID of a name.
    pub fn id(&self, name: &str) -> Option<BehaviorId> {
        self.core.names.get(&BehaviorName::new(name).ok()?).copied()
    }
    /// The name of `id`.
    pub fn name(&self, id: BehaviorId) -> Option<&BehaviorName> {
        self.core.s.nodes.get(id.index()).map(|n| &n.name)
    }
    /// The class of `id`.
    pub fn class(&self, id: BehaviorId) -> Option<&str> {
        self.core.s.nodes.get(id.index()).map(|n| &*n.class)
    }
    /// The debug label of `id`.
    pub fn label(&self, id: BehaviorId) -> Option<&str> {
        self.core.s.nodes.get(id.index()).map(|n| &*n.label)
    }
    /// Declared delegates of `id`, in declared order (a strict-priority dispatcher's
    /// priority order, as its file lists them), each once.
    pub fn delegates(&self, id: BehaviorId) -> &[BehaviorId] {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(&[], |n| &n.declared)
    }
    /// The linked scope of `id`.
    pub fn linked_scope(&self, id: BehaviorId) -> &[BehaviorId] {
        self.core.s.nodes.get(id.index()).map_or(&[], |n| &n.linked)
    }
    /// The operation modifiers of `id`.
    pub fn modifiers(&self, id: BehaviorId) -> Option<OperationModifiers> {
        self.core.s.nodes.get(id.index()).map(|n| n.modifiers)
    }
    /// The base (root) behavior.
    pub fn base(&self) -> BehaviorId {
        self.core.base
    }
    /// True for a stand-in of a class not run natively.
    pub fn is_stand_in(&self, id: BehaviorId) -> bool {
        self.core
            .s
            .nodes
            .get(id.index())
            .is_some_and(|n| n.stand_in)
    }
    /// Raw JSON kept for a behavior (a stand-in's class keys).
    pub fn raw_params(&self, id: BehaviorId) -> Option<&serde_json::Value> {
        self.core
            .s
            .nodes
            .get(id.index())
            .and_then(|n| n.raw.as_ref())
    }
    /// The behavior object of `id` (for inspection; e.g. `claim_sites`).
    pub fn behavior(&self, id: BehaviorId) -> Option<&dyn Behavior<U, E>> {
        self.behaviors.get(id.index()).map(|b| &**b)
    }
    /// The name of an intent's owner: the behavior's name for [`Owner::Behavior`] of this
    /// tree, the name for [`Owner::Named`].
    ///
    /// [`Owner::Behavior`]: crate::intent::Owner::Behavior
    /// [`Owner::Named`]: crate::intent::Owner::Named
    pub fn owner_name<'a>(&'a self, owner: &'a crate::intent::Owner) -> Option<&'a str> {
        match owner {
            crate::intent::Owner::Behavior(id) => self.name(*id).map(BehaviorName::as_str),
            crate::intent::Owner::Named(n) => Some(n),
        }
    }
    /// The behavior's [`debug_state`](Behavior::debug_state) (a state machine's state).
    pub fn debug_state(&self, id: BehaviorId) -> Option<&str> {
        self.behavior(id).and_then(|b| b.debug_state())
    }
    /// `respondToUserIntents` of `id`.
    pub fn respond_matchers(&self, id: BehaviorId) -> &[crate::intent::IntentMatcher<U>] {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(&[], |n| &n.respond)
    }
    /// Conditions of `id`: (`wantsToBeActivatedCondition`, `wantsToCancelSelfCondition`).
    pub fn conditions(&self, id: BehaviorId) -> ConditionPair<'_, U, E> {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or((None, None), |n| (n.wants.as_ref(), n.cancel_when.as_ref()))
    }
    /// The active feature (spec §0): the `associatedActiveFeature` of the top-most stack
    /// entry that declares one other than `NoFeature`.
    pub fn active_feature(&self) -> Option<&str> {
        self.core
            .s
            .stack
            .iter()
            .rev()
            .find_map(|f| self.core.s.nodes[f.id.index()].active_feature.as_deref())
    }
    /// How many times `id` was activated.
    pub fn starts(&self, id: BehaviorId) -> u64 {
        self.core.s.nodes.get(id.index()).map_or(0, |n| n.starts)
    }
    /// The tick on which `id` last said it wants to be activated (0: never).
    pub fn wanted_on_tick(&self, id: BehaviorId) -> u64 {
        self.core
            .s
            .nodes
            .get(id.index())
            .map_or(0, |n| n.wants_tick.get())
    }
    /// Errors of the last tick (bounded to 64; see [`lost_errors`](Self::lost_errors)).
    pub fn errors(&self) -> &[RunnerError] {
        &self.core.m.errors.errors
    }
    /// Errors not kept because the per-tick list was full (they were logged).
    pub fn lost_errors(&self) -> u64 {
        self.core.m.errors.lost
    }
    /// The intent events delivered on the last tick.
    pub fn intent_events(&self) -> &[IntentEvent<U::Tag>] {
        &self.core.s.ievents
    }
    /// Number of stack changes since start.
    pub fn stack_changes(&self) -> u64 {
        self.core.stack_changes
    }
    /// Number of scoped effects `id` holds.
    pub fn effect_count(&self, id: BehaviorId) -> usize {
        self.core.m.effects.get(id.index()).map_or(0, Vec::len)
    }
    /// A read-only view for `id` (to evaluate conditions from tests and tools; evaluating
    /// advances stateful conditions, as it would on the robot).
    pub fn view(&self, id: BehaviorId) -> View<'_, U, E> {
        View {
            me: id,
            s: &self.core.s,
            m: &self.core.m,
            behaviors: Behaviors::all(&self.behaviors),
            events: &[],
        }
    }
}
