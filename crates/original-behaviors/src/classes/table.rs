//! [`TableClass`]: a class of the original run from its tables — its keys and modifiers
//! ([`crate::specs`]) and its predicate and outcome ([`crate::logic`]) — rather than from code
//! of its own. It decides as the original class does (the gates, the JSON condition and the
//! intent condition are the runner's; its own predicate is the table's), claims the intents
//! the class claims in code (the first pending one of the table's list, on activation) and
//! drops those it drops (while active), and once active does what the table says: plays
//! animations and speech as timed actions, runs its procedural work as one timed action
//! named after the class, delegates, waits, loops, branches on the robot state, runs while
//! its predicate holds, or stays until cancelled.
//!
//! A class whose reference keys name a global `delegateID` (the coordinators built on
//! `DispatcherPassThrough`, `SleepCycle`) passes through: the delegate is its linked scope,
//! it wants to run when the delegate does (and its own predicate holds), and with no
//! outcome of its own it delegates to it and ends with it.

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClaimSite, ClassPredicate, Continuation, Ctx,
    DelegationOutcome, IntentUnion, OperationModifiers, ProblemKind, Resolution, View, WaitFor,
    Wakeup, Watch,
};
use robot_runtime::intent::IntentMatcher;
use serde_json::{Map, Value};

use crate::does::{Op, Program};
use crate::keys::read_class_keys;
use crate::logic::ClassLogic;
use crate::predicate::{pred_cx, Compiled};
use crate::specs::{ClassData, Mods};

/// A class run from its tables (see the [module documentation](self)).
pub struct TableClass<T> {
    class: &'static str,
    mods: Mods,
    keys: Map<String, Value>,
    pred: Compiled<T>,
    program: Program,
    /// Per [`Op::Delegate`] step, the resolved behaviors.
    targets: Vec<Vec<BehaviorId>>,
    pass_through: Option<BehaviorId>,
    delegates: Vec<BehaviorId>,
    claims: Vec<T>,
    drops: Vec<T>,
    pc: usize,
    guard: bool,
}

impl<T: Copy + PartialEq + std::fmt::Debug> TableClass<T> {
    /// The class it runs.
    pub fn class(&self) -> &'static str {
        self.class
    }
}

impl<T> TableClass<T> {
    fn ops_len(&self) -> usize {
        self.program.ops.len()
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for TableClass<U::Tag> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        self.pass_through.into_iter().collect()
    }
    /// The class hook's assignments (a pass-through copies its delegate's); it ends itself
    /// when its outcome is done, so always-delegates is off.
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        delegate: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        if let Some(d) = self.pass_through {
            let dm = delegate(d);
            m.when_carrying = dm.when_carrying;
            m.when_off_treads = dm.when_off_treads;
            m.when_on_charger = dm.when_on_charger;
        }
        if let Some(v) = self.mods.carry {
            m.when_carrying = v;
        }
        if let Some(v) = self.mods.off_treads {
            m.when_off_treads = v;
        }
        if let Some(v) = self.mods.charger {
            m.when_on_charger = v;
        }
        m.always_delegates = false;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        if let Some(d) = self.pass_through {
            if !view.wants_to_activate(d) {
                return false;
            }
        }
        self.pred.is_true() || self.pred.eval(view, &pred_cx(view, &self.keys))
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let mut w = if self.pred.is_true() {
            Watch::CONSTANT
        } else {
            self.pred.watch(view, &pred_cx(view, &self.keys))
        };
        if let Some(d) = self.pass_through {
            w = w.and(view.activation_watch(d));
        }
        Some(w)
    }
    /// Its steps are actions and delegations; a guarded part may end when its predicate's
    /// window moves.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        if self.guard && !self.pred.is_true() {
            self.pred.watch(view, &pred_cx(view, &self.keys)).until
        } else {
            Wakeup::Never
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.pc = 0;
        self.guard = false;
        let me = ctx.me();
        let mine = ctx
            .intents()
            .active()
            .is_some_and(|a| a.owner().behavior() == Some(me));
        if !mine {
            if let Some(tag) = self
                .claims
                .iter()
                .copied()
                .find(|t| ctx.intents().is_pending(*t))
            {
                if let Err(e) = ctx.activate_intent(&IntentMatcher::Tag(tag)) {
                    tracing::warn!(class = self.class, error = %e, "OriginalBehaviors.ClaimFailed");
                }
            }
        }
        self.run(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        for &t in &self.drops {
            if ctx.intents().is_pending(t) {
                let _ = ctx.intents_mut().drop_pending(t);
            }
        }
        if self.guard && !self.pred.is_true() {
            let holds = {
                let view = ctx.view();
                self.pred.eval(&view, &pred_cx(&view, &self.keys))
            };
            if !holds {
                let _ = ctx.cancel_self();
            }
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        self.pc = step as usize;
        self.run(ctx);
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<U::Tag>>) {
        for &tag in &self.claims {
            out.push(ClaimSite {
                tag,
                state: None,
                owner: None,
            });
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(self.pred.describe())
    }
}

impl<T: Copy + PartialEq> TableClass<T> {
    /// Steps from `pc` until a step takes time or the program ends.
    fn run<U: IntentUnion<Tag = T>, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        // A program without an action or delegation between two jumps would spin: bounded.
        let mut budget = self.ops_len() * 2 + 2;
        while budget > 0 {
            budget -= 1;
            let Some(op) = self.program.ops.get(self.pc) else {
                let _ = ctx.cancel_self();
                return;
            };
            let next = Continuation::Call((self.pc + 1) as u32);
            match op {
                Op::Play(name) => {
                    let r = ctx.play(&ActionRequest::Animation { name, loops: 1 }, next);
                    if r.is_ok() {
                        return;
                    }
                }
                Op::Say(text) => {
                    if ctx.play(&ActionRequest::Speech { text }, next).is_ok() {
                        return;
                    }
                }
                Op::Wait(d) => {
                    if ctx
                        .delegate_action(Box::new(WaitFor::new(*d)), next)
                        .is_ok()
                    {
                        return;
                    }
                }
                Op::Delegate(_) => {
                    let pick = self.targets[self.pc]
                        .iter()
                        .copied()
                        .find(|&id| ctx.wants_to_activate(id));
                    if let Some(id) = pick {
                        if ctx.delegate_if_in_control(id, next).is_ok() {
                            return;
                        }
                    }
                }
                Op::Work => {
                    let work = ActionRequest::StandIn { class: self.class };
                    if ctx.play(&work, next).is_ok() {
                        return;
                    }
                }
                Op::Branch(check, otherwise) => {
                    let holds = {
                        let view = ctx.view();
                        (check.0.eval)(&pred_cx(&view, &self.keys))
                    };
                    if !holds {
                        self.pc = *otherwise;
                        continue;
                    }
                }
                Op::Jump(t) => {
                    self.pc = *t;
                    continue;
                }
                Op::GuardOn => self.guard = true,
                Op::GuardOff => self.guard = false,
                Op::Idle => return,
                Op::End => {
                    let _ = ctx.cancel_self();
                    return;
                }
            }
            self.pc += 1;
        }
        // Spun through its budget with nothing taking time: stay, as an idle loop would.
    }
}

/// Builds the table-driven class for `data` and `logic` (see the
/// [module documentation](self)).
pub(crate) fn build<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    data: &'static ClassData,
    logic: &'static ClassLogic,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data);
    let refs = cx.reference_keys();
    let resolved = cx.resolve_reference_keys(refs);
    let pass_through = resolved
        .iter()
        .find(|(k, _)| k.key == "delegateID" && k.resolution == Resolution::GlobalOnly)
        .map(|(_, id)| *id);
    let tag = |n: &str| U::tag_from_name(n);
    let (pred, mut missing) = Compiled::new(&logic.pred, &tag);
    for input in pred.unmodelled() {
        cx.info(ProblemKind::Unmodelled {
            class: data.name.to_owned(),
            input: input.to_owned(),
        });
    }
    let mut resolve_tags = |names: &[&'static str]| -> Vec<U::Tag> {
        names
            .iter()
            .filter_map(|n| {
                let t = U::tag_from_name(n);
                if t.is_none() && !missing.contains(n) {
                    missing.push(n);
                }
                t
            })
            .collect()
    };
    let claims = resolve_tags(data.claims);
    let drops = resolve_tags(data.drops);
    // Intents the robot's union lacks can never be pending: left out, said once each.
    for n in missing {
        cx.info(ProblemKind::BadParams {
            reason: format!(
                "class `{}` names the user intent `{n}`, which the union `{}` does not have: it can never be pending here",
                data.name,
                U::NAME
            ),
        });
    }
    let program = Program::compile(&logic.does, &keys);
    // The behaviors it delegates: a name its keys give was resolved (and any problem
    // reported) with the reference keys; an ID its code names is checked by the catalog's
    // hard-coded IDs. So a name that resolves nothing is left out quietly here (its step is
    // then skipped), and a class never delegates to itself (an older file gives the ID its
    // code names to an instance of the delegating class).
    let by_key: Vec<(String, BehaviorId)> = resolved
        .iter()
        .filter_map(|(rk, id)| Some((cx.get(rk.key)?.as_str()?.to_owned(), *id)))
        .collect();
    let me = cx.name().to_owned();
    let mut targets = Vec::with_capacity(program.ops.len());
    for op in &program.ops {
        let ids = match op {
            Op::Delegate(names) => names
                .iter()
                .filter(|n| **n != me)
                .filter_map(|n| {
                    let id = by_key
                        .iter()
                        .find(|(k, _)| k == n)
                        .map(|(_, id)| *id)
                        .or_else(|| cx.global_id(n))?;
                    cx.declare_delegate(id);
                    Some(id)
                })
                .collect(),
            _ => Vec::new(),
        };
        targets.push(ids);
    }
    let mut program = program;
    if let (Some(d), true) = (pass_through, program.ops.len() == 1) {
        // A pass-through with no outcome of its own: its delegate.
        program.ops.insert(0, Op::Delegate(Vec::new()));
        targets.insert(0, vec![d]);
    }
    Some(Box::new(TableClass {
        class: data.name,
        mods: data.mods,
        keys,
        pred,
        program,
        targets,
        pass_through,
        delegates: cx.declared_delegates().to_vec(),
        claims,
        drops,
        pc: 0,
        guard: false,
    }))
}
