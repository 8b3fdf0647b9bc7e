//! [`Tree`]: the arena of behaviors, built in code with [`TreeBuilder`] or from JSON by the
//! loader, validated whole (names, delegates, cycles) before a runner can use it.

use std::cell::Cell;
use std::collections::HashMap;
use std::time::Duration;

use super::condition::Condition;
use super::core::{Behavior, LifecycleState, Node, NodeDetail, Slot};
use super::ids::{BehaviorId, BehaviorName, NameError};
use crate::intent::{IntentMatcher, IntentUnion};

/// The common declaration of a behavior instance, beside its class's own state.
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
    /// `resetTimers`: timers reset on activation.
    pub reset_timers: Vec<String>,
    /// An opaque stand-in (never activates).
    pub opaque: bool,
    /// Raw JSON kept for inspection (opaque stand-ins).
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
            opaque: false,
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
        }
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

    /// Validates every delegate and the absence of cycles, and builds the tree with `base`
    /// as its root behavior.
    pub fn build(self, base: &str) -> Result<Tree<U, E>, TreeError> {
        let base = self
            .id(base)
            .ok_or_else(|| TreeError::UnknownBase(base.to_owned()))?;
        let mut nodes = Vec::with_capacity(self.entries.len());
        let mut behaviors: Vec<Slot<U, E>> = Vec::with_capacity(self.entries.len());
        let len = self.entries.len();
        for (name, spec, mut b) in self.entries {
            let mut delegates = b.delegates();
            delegates.sort_unstable();
            delegates.dedup();
            if let Some(&bad) = delegates.iter().find(|d| d.index() >= len) {
                return Err(TreeError::MissingDelegate {
                    from: name.to_string(),
                    to: bad,
                });
            }
            b.init(BehaviorId::from_index(nodes.len()));
            nodes.push(Node {
                plain: !spec.opaque && spec.respond.is_empty() && spec.wants.is_none(),
                cancel_rule: spec.cancel_when.is_some(),
                always_delegates: b.always_delegates(),
                updates_inactive: b.updates_while_inactive(),
                event_scopes: b.event_scopes(),
                opaque: spec.opaque,
                state: LifecycleState::OutOfScope,
                wants_tick: Cell::new(0),
                last_update: 0,
                detail: Box::new(NodeDetail {
                    scope_count: 0,
                    scope_pos: u32::MAX,
                    work_pos: u32::MAX,
                    activated_tick: 0,
                    activated_wants_tick: 0,
                    label: spec.label.unwrap_or_else(|| name.to_string()).into(),
                    name,
                    class: spec.class.into(),
                    delegates: delegates.into(),
                    respond: spec.respond.into(),
                    wants: spec.wants,
                    cancel_when: spec.cancel_when,
                    reset_timers: spec.reset_timers.into_iter().map(Into::into).collect(),
                    raw: spec.raw,
                    activated_at: Duration::ZERO,
                }),
            });
            behaviors.push(b);
        }
        if let Some(cycle) = find_cycle(&nodes) {
            return Err(TreeError::Cycle(
                cycle.iter().map(|i| nodes[*i].name.to_string()).collect(),
            ));
        }
        Ok(Tree {
            nodes,
            behaviors,
            names: self.names,
            base,
        })
    }
}

/// A validated tree: behaviors in an arena, delegates declared and acyclic.
pub struct Tree<U: IntentUnion, E: 'static = ()> {
    pub(crate) nodes: Vec<Node<U, E>>,
    pub(crate) behaviors: Vec<Slot<U, E>>,
    pub(crate) names: HashMap<BehaviorName, BehaviorId>,
    pub(crate) base: BehaviorId,
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
    /// Declared delegates of `id`.
    pub fn delegates(&self, id: BehaviorId) -> &[BehaviorId] {
        self.nodes.get(id.index()).map_or(&[], |n| &n.delegates)
    }
    /// True for an opaque stand-in.
    pub fn is_opaque(&self, id: BehaviorId) -> bool {
        self.nodes.get(id.index()).is_some_and(|n| n.opaque)
    }
    /// All IDs.
    pub fn ids(&self) -> impl Iterator<Item = BehaviorId> {
        (0..self.nodes.len()).map(BehaviorId::from_index)
    }
}

/// A cycle in the delegate graph, as node indices (first repeated at the end).
pub(crate) fn find_cycle<U: IntentUnion, E>(nodes: &[Node<U, E>]) -> Option<Vec<usize>> {
    find_cycle_in(nodes.len(), |i| {
        nodes[i].delegates.iter().map(|d| d.index()).collect()
    })
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
