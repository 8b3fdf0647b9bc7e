//! The four pass-through coordinators ([`Coordinator`]): `CoordinateGlobalInterrupts`,
//! `CoordinateWhileHeldInPalm`, `CoordinateWhileInAir`, `CoordinateInHabitat` (see the
//! [family's documentation](super)).

use std::time::Duration;

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, ClassPredicate, Ctx, IntentUnion, LockId, OperationModifiers,
    View, Wakeup, Watch,
};

use super::{active_since, class_on_stack, data, id_on_stack, pred, resolve_ids, wake_at};
use crate::access::RobotAccess;
use crate::classes::dispatch::PassThroughDispatcher;
use crate::classes::native::{Base, Native, NativeClass};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::robot_state::{Habitat, OffTreads, RobotState};
use crate::specs::{ClassData, Mods, IN_AIR_IDS, IN_AIR_SUPPRESSING, IN_AIR_UNLOCKING};

/// When a suppression rule applies.
#[derive(Clone, Debug)]
pub(super) enum When<T> {
    /// A behavior of this rule's set is active: the rule's bit in `Kind::Global::by_node`.
    Stack(u16),
    /// This user intent is active.
    IntentActive(T),
}

/// "When `when`, suppress `targets`."
#[derive(Clone, Debug)]
pub(super) struct Rule<T> {
    pub(super) when: When<T>,
    pub(super) targets: Vec<BehaviorId>,
}

/// What a coordinator does besides passing through.
#[derive(Clone, Debug)]
pub(super) enum Kind<T> {
    /// CoordinateGlobalInterrupts: its rules, each tick; per behavior (by index), the
    /// bits of the rules whose stack set it belongs to (one pass over the stack per tick).
    Global {
        rules: Vec<Rule<T>>,
        by_node: Vec<u16>,
    },
    /// CoordinateInHabitat: while InHabitat, these.
    InHabitat(Vec<BehaviorId>),
    /// CoordinateWhileHeldInPalm.
    Palm {
        dispatcher: Option<BehaviorId>,
        initial: Option<BehaviorId>,
        suppressing: Vec<BehaviorId>,
        sleeping_suppressed: Vec<BehaviorId>,
        /// InitialHeldInPalmReaction ran during this holding.
        played: bool,
    },
    /// CoordinateWhileInAir: its suppressions, and the hold of the treads (`BODY_TRACK`,
    /// [`Ctx::hold_tracks`]) while in the air, unless one of `unlocking` runs or the robot
    /// is in a palm.
    InAir {
        dispatcher: Option<BehaviorId>,
        initial: Option<BehaviorId>,
        suppressing: Vec<BehaviorId>,
        /// WhatsMyNameVoiceCommand, MeetVictor: the treads stay free while one runs.
        unlocking: Vec<BehaviorId>,
        /// WhileInAirDispatcher, ReactToRobotOnBack, ReactToRobotOnFace, HeldInPalmDispatcher.
        blockers: Vec<BehaviorId>,
        /// The hold of the treads, while taken.
        hold: Option<LockId>,
        /// InitialPickupAnimation ran since the robot left its treads.
        played: bool,
    },
}

/// A pass-through coordinator (see the [family's documentation](super)).
pub struct Coordinator<T> {
    class: &'static str,
    pass: PassThroughDispatcher,
    kind: Kind<T>,
    /// What it suppressed on its last update, and that in words for tools.
    suppressing: Vec<BehaviorId>,
    status: String,
    scratch: Vec<BehaviorId>,
}

impl<T> Coordinator<T> {
    /// The class it runs.
    pub fn class(&self) -> &'static str {
        self.class
    }
}

/// Time in a palm after which the initial palm reaction is suppressed.
const PALM_INITIAL: Duration = Duration::from_millis(1000);
/// Time off treads after which the initial pick-up animation is suppressed.
const AIR_INITIAL: Duration = Duration::from_secs(1);

impl<T: Copy + PartialEq> Coordinator<T> {
    /// The behaviors to suppress now (each once), updating the "played" bookkeeping.
    fn targets<U: IntentUnion<Tag = T>, E: 'static>(
        &mut self,
        view: &View<'_, U, E>,
        out: &mut Vec<BehaviorId>,
    ) {
        let robot = view.robot();
        match &mut self.kind {
            Kind::Global { rules, by_node } => {
                let mut on = 0u16;
                for s in view.stack() {
                    on |= by_node.get(s.index()).copied().unwrap_or(0);
                }
                for r in rules.iter() {
                    let holds = match r.when {
                        When::Stack(bit) => on & bit != 0,
                        When::IntentActive(t) => view.intents().is_active(t),
                    };
                    if holds {
                        for &t in &r.targets {
                            if !out.contains(&t) {
                                out.push(t);
                            }
                        }
                    }
                }
            }
            Kind::InHabitat(list) => {
                if robot.habitat == Habitat::InHabitat {
                    out.extend(list.iter().copied());
                }
            }
            Kind::Palm {
                dispatcher,
                initial,
                suppressing,
                sleeping_suppressed,
                played,
            } => {
                if !robot.held_in_palm() {
                    *played = false;
                    return;
                }
                if initial.is_some_and(|i| view.stack().any(|s| s == i)) {
                    *played = true;
                }
                if let Some(d) = *dispatcher {
                    if view.stack().any(|s| s == d) {
                        return;
                    }
                    if id_on_stack(view, suppressing) {
                        out.push(d);
                    }
                }
                if let Some(i) = *initial {
                    let (held, _) = robot.palm_durations();
                    if held > PALM_INITIAL || *played {
                        out.push(i);
                    }
                }
                // The fork's `sleepingSupressedBehaviors`: suppressed while it sleeps in the
                // palm (a `Sleeping` behavior is active).
                if class_on_stack(view, &["Sleeping"]) {
                    out.extend(sleeping_suppressed.iter().copied());
                }
            }
            Kind::InAir {
                dispatcher,
                initial,
                suppressing,
                blockers,
                played,
                ..
            } => {
                let (state, _) = robot.off_treads();
                if state == OffTreads::OnTreads {
                    *played = false;
                }
                if !matches!(state, OffTreads::InAir | OffTreads::Falling) {
                    return;
                }
                if initial.is_some_and(|i| view.stack().any(|s| s == i)) {
                    *played = true;
                }
                if id_on_stack(view, blockers) {
                    return;
                }
                if let Some(d) = *dispatcher {
                    if id_on_stack(view, suppressing) {
                        out.push(d);
                    }
                }
                if let Some(i) = *initial {
                    if air_time(robot) > AIR_INITIAL || *played {
                        out.push(i);
                    }
                }
            }
        }
    }
}

impl<T: Copy + PartialEq> Coordinator<T> {
    /// What tools show ([`debug_state`](NativeClass::debug_state)): the behaviors it
    /// suppresses, and the treads while it holds them (`suppressing A, B; holding the
    /// treads`).
    fn write_status<U: IntentUnion<Tag = T>, E: 'static>(&mut self, view: &View<'_, U, E>) {
        self.status.clear();
        for &id in &self.suppressing {
            if let Some(n) = view.name_of(id) {
                self.status.push_str(if self.status.is_empty() {
                    "suppressing "
                } else {
                    ", "
                });
                self.status.push_str(n.as_str());
            }
        }
        if matches!(self.kind, Kind::InAir { hold: Some(_), .. }) {
            if !self.status.is_empty() {
                self.status.push_str("; ");
            }
            self.status.push_str("holding the treads");
        }
    }
}

/// The original's track the in-air coordinator locks: the treads.
const AIR_HELD: &[&str] = &["BODY_TRACK"];

/// CoordinateWhileInAir's lock rule: in the air (InAir or Falling), none of the blocking
/// reactions active, none of the unlocking behaviors active, not in a palm.
fn air_hold_applies<U: IntentUnion, E: 'static>(
    view: &View<'_, U, E>,
    unlocking: &[BehaviorId],
    blockers: &[BehaviorId],
) -> bool {
    let robot = view.robot();
    matches!(robot.off_treads().0, OffTreads::InAir | OffTreads::Falling)
        && !robot.held_in_palm()
        && !id_on_stack(view, blockers)
        && !id_on_stack(view, unlocking)
}

/// Time since the robot last left its treads (zero on treads).
fn air_time(robot: &RobotState) -> Duration {
    match robot.off_treads() {
        (OffTreads::OnTreads, _) => Duration::ZERO,
        (_, since) => robot.now().saturating_sub(since),
    }
}

/// The pass-through's hooks are its own; what it adds is its suppressions.
impl<U: IntentUnion, E: 'static> NativeClass<U, E> for Coordinator<U::Tag> {
    fn linked_scope(&self) -> Vec<BehaviorId> {
        Behavior::<U, E>::linked_scope(&self.pass)
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        Behavior::<U, E>::operation_modifiers(&self.pass, m, hook);
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        self.pass.wants_to_be_activated(view)
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        self.pass.activation_watch(view)
    }
    /// Its suppressions are re-set every tick while they apply (each tick that has some is
    /// an input change, so such ticks are never skipped); the timed ones (the palm's and
    /// the air's initial reactions after 1 s) wake it when their time comes.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        let w = self.pass.next_wakeup(view);
        if active_since(view).is_none() {
            return w;
        }
        let robot = view.robot();
        let now = robot.now();
        let timed = match &self.kind {
            Kind::Palm {
                initial: Some(_),
                played: false,
                ..
            } if robot.held_in_palm() => {
                let (held, _) = robot.palm_durations();
                if held <= PALM_INITIAL {
                    wake_at(now + (PALM_INITIAL - held))
                } else {
                    Wakeup::Never
                }
            }
            Kind::InAir {
                initial: Some(_),
                played: false,
                ..
            } => {
                let t = air_time(robot);
                if matches!(robot.off_treads().0, OffTreads::InAir | OffTreads::Falling)
                    && t <= AIR_INITIAL
                {
                    wake_at(now + (AIR_INITIAL - t))
                } else {
                    Wakeup::Never
                }
            }
            _ => Wakeup::Never,
        };
        w.min(timed)
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.pass.on_activated(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        {
            let view = ctx.view();
            self.targets(&view, &mut out);
        }
        for &id in &out {
            ctx.suppress_this_tick(id);
        }
        let suppression_changed = out != self.suppressing;
        if suppression_changed {
            std::mem::swap(&mut self.suppressing, &mut out);
        }
        self.scratch = out;
        let mut hold_changed = false;
        if let Kind::InAir {
            unlocking,
            blockers,
            hold,
            ..
        } = &mut self.kind
        {
            // Takes or gives back the hold of the treads as the rule applies (the hold is
            // taken again when the previous call found no track locks to take it from).
            let applies = air_hold_applies(&ctx.view(), unlocking, blockers);
            match (applies, *hold) {
                (true, None) => {
                    *hold = ctx.hold_tracks(AIR_HELD);
                    hold_changed = hold.is_some();
                }
                (false, Some(h)) => {
                    ctx.release_hold(h);
                    *hold = None;
                    hold_changed = true;
                }
                _ => {}
            }
        }
        if suppression_changed || hold_changed {
            self.write_status(&ctx.view());
        }
        self.pass.update(ctx);
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.status.clear();
        self.suppressing.clear();
        if let Kind::InAir { hold, .. } = &mut self.kind {
            if let Some(h) = hold.take() {
                ctx.release_hold(h);
            }
        }
    }
    fn debug_state(&self) -> Option<&str> {
        (!self.status.is_empty()).then_some(self.status.as_str())
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred("its delegate wants to run", &[reads::STACK.name]))
    }
}

/// The PassThrough part: `delegateID` (global), declared delegate and linked scope.
fn pass_through<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    data: &'static ClassData,
) -> Option<(PassThroughDispatcher, Vec<(&'static str, BehaviorId)>)> {
    let keys = read_class_keys(cx, data);
    let _ = keys;
    let refs = cx.reference_keys();
    let resolved = cx.resolve_reference_keys(refs);
    let delegate = resolved
        .iter()
        .find(|(k, _)| k.key == "delegateID")
        .map(|(_, id)| *id)?;
    let others = resolved
        .iter()
        .filter(|(k, _)| k.key != "delegateID")
        .map(|(k, id)| (k.key, *id))
        .collect();
    Some((PassThroughDispatcher::new(delegate), others))
}

pub(super) fn coordinator<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    class: &'static str,
    make: impl FnOnce(&mut BuildCx<'_, U, E>, Vec<(&'static str, BehaviorId)>) -> Kind<U::Tag>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let (pass, others) = pass_through(cx, data(class))?;
    let kind = make(cx, others);
    let base = Base::new(Mods::BASE).delegates(Behavior::<U, E>::delegates(&pass));
    Some(Box::new(Native::new(
        base,
        Coordinator {
            class,
            pass,
            kind,
            suppressing: Vec::new(),
            status: String::new(),
            scratch: Vec::new(),
        },
    )))
}

pub(crate) fn build_in_habitat<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    coordinator(cx, "CoordinateInHabitat", |cx, others| {
        let list: Vec<BehaviorId> = others.iter().map(|(_, id)| *id).collect();
        if list.is_empty() {
            // The original logs a warning; the tree loads.
            cx.info(robot_runtime::behavior::ProblemKind::BadParams {
                reason: "CoordinateInHabitat suppresses nothing (`suppressedBehaviors` is empty)"
                    .into(),
            });
        }
        Kind::InHabitat(list)
    })
}

pub(crate) fn build_while_held_in_palm<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    coordinator(cx, "CoordinateWhileHeldInPalm", |cx, others| {
        let of = |key: &str| -> Vec<BehaviorId> {
            others
                .iter()
                .filter(|(k, _)| k.starts_with(key))
                .map(|(_, id)| *id)
                .collect()
        };
        Kind::Palm {
            dispatcher: cx.global_id("HeldInPalmDispatcher"),
            initial: cx.global_id("InitialHeldInPalmReaction"),
            suppressing: of("suppressingBehaviors"),
            sleeping_suppressed: of("sleepingSupressedBehaviors"),
            played: false,
        }
    })
}

pub(crate) fn build_while_in_air<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    coordinator(cx, "CoordinateWhileInAir", |cx, _| Kind::InAir {
        dispatcher: cx.global_id("WhileInAirDispatcher"),
        initial: cx.global_id("InitialPickupAnimation"),
        suppressing: resolve_ids(cx, &IN_AIR_IDS[..IN_AIR_SUPPRESSING]),
        unlocking: resolve_ids(
            cx,
            &IN_AIR_IDS[IN_AIR_SUPPRESSING..IN_AIR_SUPPRESSING + IN_AIR_UNLOCKING],
        ),
        blockers: {
            let reactions = IN_AIR_SUPPRESSING + IN_AIR_UNLOCKING..IN_AIR_IDS.len() - 1;
            let mut ids = resolve_ids(cx, &IN_AIR_IDS[reactions]);
            ids.extend(cx.global_id("HeldInPalmDispatcher"));
            ids
        },
        hold: None,
        played: false,
    })
}
