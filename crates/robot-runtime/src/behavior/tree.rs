//! [`Tree`]: the arena of behaviors, built in code with [`TreeBuilder`] or from JSON by the
//! loader, validated whole (names, delegates, cycles) before a runner can use it.

use std::cell::Cell;
use std::collections::HashMap;
use std::time::Duration;

use super::condition::Condition;
use super::core::{
    Behavior, CubeRequirement, LifecycleState, Node, NodeDetail, OperationModifiers, Slot,
};
use super::ids::{BehaviorId, BehaviorName, NameError};
use super::world::World;
use crate::intent::{IntentMatcher, IntentUnion};

/// JSON `behaviorModifiers` values (None: not given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModifierOverrides {
    /// `wantsToBeActivatedWhenCarryingObject`.
    pub when_carrying: Option<bool>,
    /// `wantsToBeActivatedWhenOffTreads`.
    pub when_off_treads: Option<bool>,
    /// `wantsToBeActivatedWhenOnCharger`.
    pub when_on_charger: Option<bool>,
    /// `cubeConnectionRequirements`.
    pub cube: Option<CubeRequirement>,
    /// `connectToCubeInBackground`.
    pub connect_to_cube_in_background: Option<bool>,
    /// `ensuresCubeConnectionAtDelegation`.
    pub ensures_cube_connection_at_delegation: Option<bool>,
}

impl ModifierOverrides {
    /// `base` with these values applied.
    pub fn apply(&self, mut base: OperationModifiers) -> OperationModifiers {
        if let Some(v) = self.when_carrying {
            base.when_carrying = v;
        }
        if let Some(v) = self.when_off_treads {
            base.when_off_treads = v;
        }
        if let Some(v) = self.when_on_charger {
            base.when_on_charger = v;
        }
        if let Some(v) = self.cube {
            base.cube = v;
        }
        if let Some(v) = self.connect_to_cube_in_background {
            base.connect_to_cube_in_background = v;
        }
        if let Some(v) = self.ensures_cube_connection_at_delegation {
            base.ensures_cube_connection_at_delegation = v;
        }
        base
    }
}

/// The common declaration of a behavior instance (the original's base keys), beside its
/// class's own state.
pub struct Spec<U: IntentUnion, E: 'static> {
    /// The class name (for tools; `behaviorClass`).
    pub class: String,
    /// A debug label (`debugLabel`; default the name).
    pub label: Option<String>,
    /// `respondToUserIntents`: wants to activate only while a matching intent is pending,
    /// which is activated for it on activation.
    pub respond: Vec<IntentMatcher<U>>,
    /// `wantsToBeActivatedCondition`.
    pub wants: Option<Condition<U, E>>,
    /// `wantsToCancelSelfCondition` (checked after each update while active).
    pub cancel_when: Option<Condition<U, E>>,
    /// `resetTimers`: behavior timers (indices of the registry's behavior-timer vocabulary)
    /// reset on activation ([`World::reset_timer`]).
    pub reset_timers: Vec<usize>,
    /// `behaviorModifiers`.
    pub modifiers: ModifierOverrides,
    /// `postBehaviorSuggestion` (index of the registry's suggestion vocabulary), offered at
    /// every deactivation ([`World::offer_suggestion`]).
    pub post_suggestion: Option<usize>,
    /// `emotionEventOnActivated` ([`World::emotion_event`]).
    pub emotion_event: Option<String>,
    /// `associatedActiveFeature` (`NoFeature`: None).
    pub active_feature: Option<String>,
    /// `tracksToLockWhileActivated`: the track names locked while it is active, through the
    /// runner's [`TrackLocks`](super::TrackLocks) (none set: nothing is locked).
    pub tracks: Vec<String>,
    /// A stand-in for a class not run natively: its modifiers start with every activation
    /// gate open (its JSON `behaviorModifiers` still apply).
    pub stand_in: bool,
    /// Raw JSON kept for inspection (stand-ins: their class keys).
    pub raw: Option<serde_json::Value>,
}

impl<U: IntentUnion, E: 'static> Spec<U, E> {
    /// A spec with only the class name.
    pub fn new(class: impl Into<String>) -> Self {
        Self {
            class: class.into(),
            label: None,
            respond: Vec::new(),
            wants: None,
            cancel_when: None,
            reset_timers: Vec::new(),
            modifiers: ModifierOverrides::default(),
            post_suggestion: None,
            emotion_event: None,
            active_feature: None,
            tracks: Vec::new(),
            stand_in: false,
            raw: None,
        }
    }
    /// Adds `respondToUserIntents` matchers.
    pub fn respond(mut self, matchers: impl IntoIterator<Item = IntentMatcher<U>>) -> Self {
        self.respond.extend(matchers);
        self
    }
    /// Sets the `wantsToBeActivatedCondition`.
    pub fn wants(mut self, c: Condition<U, E>) -> Self {
        self.wants = Some(c);
        self
    }
    /// Sets the `wantsToCancelSelfCondition`.
    pub fn cancel_when(mut self, c: Condition<U, E>) -> Self {
        self.cancel_when = Some(c);
        self
    }
    /// Sets `tracksToLockWhileActivated`.
    pub fn tracks(mut self, tracks: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.tracks = tracks.into_iter().map(Into::into).collect();
        self
    }
    /// Sets `behaviorModifiers`.
    pub fn modifiers(mut self, m: ModifierOverrides) -> Self {
        self.modifiers = m;
        self
    }
    fn base(&self) -> OperationModifiers {
        let mut m = OperationModifiers::BASE;
        if self.stand_in {
            m.allow_everywhere();
        }
        m
    }
}

/// Why a tree could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// A bad name.
    #[error("bad behavior ID `{name}`: {error}")]
    BadName {
        /// The name.
        name: String,
        /// Why.
        error: NameError,
    },
    /// Two behaviors share a name.
    #[error("duplicate behavior ID `{0}`")]
    Duplicate(String),
    /// A delegate ID is not in the tree.
    #[error("`{from}` declares a delegate {to} that is not in the tree")]
    MissingDelegate {
        /// The behavior.
        from: String,
        /// The bad ID.
        to: BehaviorId,
    },
    /// A linked-scope behavior is not a declared delegate.
    #[error("`{from}` links {to} into its scope without declaring it a delegate")]
    LinkedNotDelegate {
        /// The behavior.
        from: String,
        /// The linked ID.
        to: BehaviorId,
    },
    /// Delegation cycle.
    #[error("delegation cycle: {}", .0.join(" -> "))]
    Cycle(Vec<String>),
    /// The base behavior is unknown.
    #[error("unknown base behavior `{0}`")]
    UnknownBase(String),
}

type Entry<U, E> = (BehaviorName, Spec<U, E>, Box<dyn Behavior<U, E>>);

/// Collects behaviors; [`build`](Self::build) validates the whole tree.
pub struct TreeBuilder<U: IntentUnion, E: 'static = ()> {
    pub(crate) entries: Vec<Entry<U, E>>,
    pub(crate) names: HashMap<BehaviorName, BehaviorId>,
    world: Option<Box<dyn World>>,
}

impl<U: IntentUnion, E: 'static> Default for TreeBuilder<U, E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<U: IntentUnion, E: 'static> TreeBuilder<U, E> {
    /// An empty builder.
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
            names: HashMap::new(),
            world: None,
        }
    }

    /// The world the tree's runner starts with ([`Runner::new`](super::Runner::new); `()`
    /// when none is set).
    pub fn set_world(&mut self, world: Box<dyn World>) -> &mut Self {
        self.world = Some(world);
        self
    }

    /// The ID the next [`add`](Self::add) will return (to declare delegates before adding
    /// them; a missing one is a build error).
    pub fn next_id(&self) -> BehaviorId {
        BehaviorId::from_index(self.entries.len())
    }

    /// The ID of an added behavior.
    pub fn id(&self, name: &str) -> Option<BehaviorId> {
        self.names.get(&BehaviorName::new(name).ok()?).copied()
    }

    /// Adds a behavior.
    pub fn add(
        &mut self,
        name: &str,
        spec: Spec<U, E>,
        behavior: impl Behavior<U, E>,
    ) -> Result<BehaviorId, TreeError> {
        self.add_boxed(name, spec, Box::new(behavior))
    }

    /// Adds a boxed behavior.
    pub fn add_boxed(
        &mut self,
        name: &str,
        spec: Spec<U, E>,
        behavior: Box<dyn Behavior<U, E>>,
    ) -> Result<BehaviorId, TreeError> {
        let n = BehaviorName::new(name).map_err(|error| TreeError::BadName {
            name: name.to_owned(),
            error,
        })?;
        if self.names.contains_key(&n) {
            return Err(TreeError::Duplicate(name.to_owned()));
        }
        let id = self.next_id();
        self.names.insert(n.clone(), id);
        self.entries.push((n, spec, behavior));
        Ok(id)
    }

    /// Validates every delegate, linked scope and the absence of cycles, computes every
    /// behavior's operation modifiers, and builds the tree with `base` as its root behavior.
    pub fn build(self, base: &str) -> Result<Tree<U, E>, TreeError> {
        let base = self
            .id(base)
            .ok_or_else(|| TreeError::UnknownBase(base.to_owned()))?;
        let len = self.entries.len();
        let mut delegates: Vec<Vec<BehaviorId>> = Vec::with_capacity(len);
        let mut declared: Vec<Vec<BehaviorId>> = Vec::with_capacity(len);
        let mut linked: Vec<Vec<BehaviorId>> = Vec::with_capacity(len);
        for (name, _, b) in &self.entries {
            let mut order = b.delegates();
            let mut d = order.clone();
            d.sort_unstable();
            d.dedup();
            // Declared order without repeats (the first mention counts).
            let mut seen: Vec<BehaviorId> = Vec::with_capacity(order.len());
            order.retain(|x| {
                let new = !seen.contains(x);
                seen.push(*x);
                new
            });
            if let Some(&bad) = d.iter().find(|x| x.index() >= len) {
                return Err(TreeError::MissingDelegate {
                    from: name.to_string(),
                    to: bad,
                });
            }
            let mut l = b.linked_scope();
            l.dedup();
            if let Some(&bad) = l.iter().find(|x| d.binary_search(x).is_err()) {
                return Err(TreeError::LinkedNotDelegate {
                    from: name.to_string(),
                    to: bad,
                });
            }
            delegates.push(d);
            declared.push(order);
            linked.push(l);
        }
        if let Some(cycle) =
            find_cycle_in(len, |i| delegates[i].iter().map(|d| d.index()).collect())
        {
            return Err(TreeError::Cycle(
                cycle
                    .iter()
                    .map(|i| self.entries[*i].0.to_string())
                    .collect(),
            ));
        }
        // Class-hook modifiers on the base defaults, children before parents (the delegate
        // graph is acyclic); then each behavior's own: base, its JSON, its class hook.
        let order = postorder(len, &delegates);
        let mut hook = vec![OperationModifiers::BASE; len];
        for &i in &order {
            let (_, spec, b) = &self.entries[i];
            let mut m = spec.base();
            let lookup = |d: BehaviorId| {
                hook.get(d.index())
                    .copied()
                    .unwrap_or(OperationModifiers::BASE)
            };
            b.operation_modifiers(&mut m, &lookup);
            hook[i] = m;
        }
        let mut nodes = Vec::with_capacity(len);
        let mut behaviors: Vec<Slot<U, E>> = Vec::with_capacity(len);
        for (i, ((name, spec, mut b), ((d, o), l))) in self
            .entries
            .into_iter()
            .zip(delegates.into_iter().zip(declared).zip(linked))
            .enumerate()
        {
            let mut m = spec.modifiers.apply(spec.base());
            let lookup = |d: BehaviorId| {
                hook.get(d.index())
                    .copied()
                    .unwrap_or(OperationModifiers::BASE)
            };
            b.operation_modifiers(&mut m, &lookup);
            b.init(BehaviorId::from_index(i));
            nodes.push(Node {
                plain: spec.respond.is_empty() && spec.wants.is_none(),
                cancel_rule: spec.cancel_when.is_some(),
                always_delegates: m.always_delegates,
                updates_inactive: b.updates_while_inactive(),
                event_scopes: b.event_scopes(),
                gate: m.gate_bits(),
                state: LifecycleState::OutOfScope,
                wants_tick: Cell::new(0),
                last_update: 0,
                stack_pos: u32::MAX,
                detail: Box::new(NodeDetail {
                    scope_count: 0,
                    scope_pos: u32::MAX,
                    work_pos: u32::MAX,
                    activated_tick: 0,
                    activated_wants_tick: 0,
                    activated_at: Duration::ZERO,
                    last_ran: None,
                    entered_scope: None,
                    starts: 0,
                    label: spec.label.unwrap_or_else(|| name.to_string()).into(),
                    name,
                    class: spec.class.into(),
                    delegates: d.into(),
                    declared: o.into(),
                    linked: l.into(),
                    respond: spec.respond.into(),
                    wants: spec.wants,
                    cancel_when: spec.cancel_when,
                    modifiers: m,
                    reset_timers: spec.reset_timers.into(),
                    post_suggestion: spec.post_suggestion,
                    emotion_event: spec.emotion_event.map(Into::into),
                    active_feature: spec.active_feature.map(Into::into),
                    tracks: spec.tracks.into_iter().map(Into::into).collect(),
                    stand_in: spec.stand_in,
                    raw: spec.raw,
                }),
            });
            behaviors.push(b);
        }
        Ok(Tree {
            nodes,
            behaviors,
            names: self.names,
            base,
            world: self.world.unwrap_or_else(|| Box::new(())),
        })
    }
}

/// Every node once, each after all its delegates (iterative, so deep chains do not grow
/// the call stack).
fn postorder(n: usize, delegates: &[Vec<BehaviorId>]) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    let mut done = vec![false; n];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if done[start] {
            continue;
        }
        done[start] = true;
        stack.push((start, 0));
        while let Some((node, k)) = stack.last_mut() {
            let node = *node;
            if let Some(d) = delegates[node].get(*k) {
                *k += 1;
                let d = d.index();
                if !done[d] {
                    done[d] = true;
                    stack.push((d, 0));
                }
            } else {
                out.push(node);
                stack.pop();
            }
        }
    }
    out
}

/// A validated tree: behaviors in an arena, delegates declared and acyclic.
pub struct Tree<U: IntentUnion, E: 'static = ()> {
    pub(crate) nodes: Vec<Node<U, E>>,
    pub(crate) behaviors: Vec<Slot<U, E>>,
    pub(crate) names: HashMap<BehaviorName, BehaviorId>,
    pub(crate) base: BehaviorId,
    /// The world its runner starts with.
    pub(crate) world: Box<dyn World>,
}

impl<U: IntentUnion, E: 'static> Tree<U, E> {
    /// Number of behaviors.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    /// True when empty (never, for a built tree).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
    /// The ID of a name.
    pub fn id(&self, name: &str) -> Option<BehaviorId> {
        self.names.get(&BehaviorName::new(name).ok()?).copied()
    }
    /// The root behavior.
    pub fn base(&self) -> BehaviorId {
        self.base
    }
    /// Name of `id`.
    pub fn name(&self, id: BehaviorId) -> Option<&BehaviorName> {
        self.nodes.get(id.index()).map(|n| &n.name)
    }
    /// Class of `id`.
    pub fn class(&self, id: BehaviorId) -> Option<&str> {
        self.nodes.get(id.index()).map(|n| &*n.class)
    }
    /// Declared delegates of `id`, in declared order (a strict-priority dispatcher's
    /// priority order), each once.
    pub fn delegates(&self, id: BehaviorId) -> &[BehaviorId] {
        self.nodes.get(id.index()).map_or(&[], |n| &n.declared)
    }
    /// True for a stand-in of a class not run natively.
    pub fn is_stand_in(&self, id: BehaviorId) -> bool {
        self.nodes.get(id.index()).is_some_and(|n| n.stand_in)
    }
    /// The operation modifiers of `id`.
    pub fn modifiers(&self, id: BehaviorId) -> Option<OperationModifiers> {
        self.nodes.get(id.index()).map(|n| n.modifiers)
    }
    /// All IDs.
    pub fn ids(&self) -> impl Iterator<Item = BehaviorId> {
        (0..self.nodes.len()).map(BehaviorId::from_index)
    }
}

pub(crate) fn find_cycle_in(n: usize, edges: impl Fn(usize) -> Vec<usize>) -> Option<Vec<usize>> {
    // 0 = unvisited, 1 = on the path, 2 = done. Iterative DFS.
    let mut color = vec![0u8; n];
    for start in 0..n {
        if color[start] != 0 {
            continue;
        }
        let mut path: Vec<(usize, Vec<usize>, usize)> = vec![(start, edges(start), 0)];
        color[start] = 1;
        while let Some((node, succ, k)) = path.last_mut() {
            if *k < succ.len() {
                let next = succ[*k];
                *k += 1;
                match color.get(next) {
                    Some(0) => {
                        color[next] = 1;
                        let e = edges(next);
                        path.push((next, e, 0));
                    }
                    Some(1) => {
                        let from = path.iter().position(|(v, _, _)| *v == next).unwrap_or(0);
                        let mut cycle: Vec<usize> =
                            path[from..].iter().map(|(v, _, _)| *v).collect();
                        cycle.push(next);
                        return Some(cycle);
                    }
                    _ => {}
                }
            } else {
                color[*node] = 2;
                path.pop();
            }
        }
    }
    None
}
