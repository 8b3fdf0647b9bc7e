//! The coordinators, modes, sleep, charger and SDK classes of original-class-predicates.md
//! §2.4, natively:
//!
//! * the four pass-through coordinators ([`Coordinator`]): `CoordinateGlobalInterrupts`,
//!   `CoordinateWhileHeldInPalm`, `CoordinateWhileInAir`, `CoordinateInHabitat` — a
//!   [`PassThroughDispatcher`] (wants to run when its delegate does, has its modifiers,
//!   ends with it) that, in each update while active, tells behaviors not to activate on
//!   this tick (`Ctx::suppress_this_tick`, the original's `SetDontActivateThisTick`, §1.5).
//!   The coordinator sits below its delegate on the stack, so its update runs first and the
//!   dispatchers above it ask their children after the suppression is set. What it
//!   suppresses this tick is its [`debug_state`](Behavior::debug_state) (tools see it);
//! * `QuietModeCoordinator` ([`QuietMode`]), `SDKInterface` and `SDKLock` ([`Sdk`]),
//!   `StayOnChargerUntilCharged` ([`StayOnCharger`]), `ConfirmHabitat` ([`ConfirmHabitat`])
//!   and `SleepCycle` ([`SleepCycle`]).
//!
//! What `CoordinateGlobalInterrupts` *tells* classes of other families (skip timer antics,
//! no voice-command turn, DriveToFace interrupted by a cliff) is a pure function of the
//! stack and the intents, so those classes ask it themselves: [`timer_antics_skipped`],
//! [`voice_turn_disabled`], [`drive_to_face_interrupted`].
//!
//! Every class reads its keys with [`read_class_keys`] (strict mode accepts exactly the
//! table's keys), declares what its predicate reads (`activation_watch`) and when its
//! update may next act (`next_wakeup`), and says its predicate for tools.

use std::time::Duration;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClaimSite, ClassPredicate, Condition,
    Continuation, Ctx, DelegationOutcome, EffectId, Inputs, IntentUnion, LifecycleState,
    OperationModifiers, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentMatcher;
use serde_json::{Map, Value};

use crate::access::{RobotAccess, RobotAccessMut};
use crate::classes::dispatch::PassThroughDispatcher;
use crate::inputs;
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::robot_state::{BatteryLevel, Habitat, OffTreads, RobotState, Whiteboard};
use crate::specs::{self, ClassData};

fn data(class: &str) -> &'static ClassData {
    specs::class(class).unwrap_or_else(|| unreachable!("{class} has a table entry"))
}

fn active_since<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> Option<Duration> {
    let me = view.me();
    if view.state_of(me) != Some(LifecycleState::Active) {
        return None;
    }
    view.active_for()
        .map(|d| view.clock().now().saturating_sub(d))
}

fn id_on_stack<U: IntentUnion, E: 'static>(view: &View<'_, U, E>, ids: &[BehaviorId]) -> bool {
    !ids.is_empty() && view.stack().any(|s| ids.contains(&s))
}

fn class_on_stack<U: IntentUnion, E: 'static>(view: &View<'_, U, E>, classes: &[&str]) -> bool {
    view.stack()
        .any(|s| view.class_of(s).is_some_and(|c| classes.contains(&c)))
}

fn names_on_stack<U: IntentUnion, E: 'static>(view: &View<'_, U, E>, names: &[&str]) -> bool {
    view.stack()
        .any(|s| view.name_of(s).is_some_and(|n| names.contains(&n.as_str())))
}

fn pred(text: &str, inputs: &[&'static str]) -> ClassPredicate {
    ClassPredicate {
        text: text.to_owned(),
        inputs: inputs.to_vec(),
        unmodelled: Vec::new(),
    }
}

fn wake_at(t: Duration) -> Wakeup {
    Wakeup::At(t.saturating_add(Duration::from_nanos(1)))
}

/// The end of a window `[from, from + len]` still open at `now` (Never once closed).
fn window_end(from: Option<Duration>, len: Duration, now: Duration) -> Wakeup {
    match from {
        Some(t) if now.saturating_sub(t) <= len => wake_at(t.saturating_add(len)),
        _ => Wakeup::Never,
    }
}

fn within(from: Option<Duration>, len: Duration, now: Duration) -> bool {
    from.is_some_and(|t| now.saturating_sub(t) <= len)
}

fn secs(keys: &Map<String, Value>, key: &str) -> Option<Duration> {
    keys.get(key)
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(1.0e9)))
}

// ----- what CoordinateGlobalInterrupts tells other classes ---------------------------------

/// The classes whose activity makes the coordinator tell the timer coordinator to skip its
/// antics this tick.
const SKIP_ANTICS: &[&str] = &["BlackJack", "CoordinateWeather", "PossiblePerformance"];

/// The intents whose pending disables ReactToVoiceCommand's turn towards the speaker.
const NO_TURN_INTENTS: &[&str] = &[
    "imperative_findcube",
    "system_charger",
    "movement_backward",
    "movement_turnleft",
    "movement_turnright",
    "movement_turnaround",
];

fn global_coordinator_active<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> bool {
    class_on_stack(view, &["CoordinateGlobalInterrupts"])
}

/// True when an active `CoordinateGlobalInterrupts` tells the timer coordinator to skip
/// its antics this tick (a BlackJack, CoordinateWeather or PossiblePerformance is active).
/// Reads the stack.
pub fn timer_antics_skipped<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> bool {
    global_coordinator_active(view) && class_on_stack(view, SKIP_ANTICS)
}

/// True when an active `CoordinateGlobalInterrupts` disables ReactToVoiceCommand's turn
/// this tick: `imperative_findcube`, `system_charger`, a `movement_*` turn or a non-selfie
/// `take_a_photo` (with storage not full) is pending. Reads the stack, the intents and the
/// system facts.
pub fn voice_turn_disabled<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> bool {
    if !global_coordinator_active(view) {
        return false;
    }
    let intents = view.intents();
    if NO_TURN_INTENTS
        .iter()
        .filter_map(|n| U::tag_from_name(n))
        .any(|t| intents.is_pending(t))
    {
        return true;
    }
    let photo = U::tag_from_name("take_a_photo").filter(|t| intents.is_pending(*t));
    match (photo, intents.pending()) {
        (Some(_), Some(p)) if !view.robot().signals.storage_full => {
            let selfie = serde_json::to_value(p.intent())
                .ok()
                .and_then(|v| {
                    v.get("empty_or_selfie")
                        .and_then(Value::as_str)
                        .map(|s| !s.is_empty())
                })
                .unwrap_or(false);
            !selfie
        }
        _ => false,
    }
}

/// True when an active `CoordinateGlobalInterrupts` tells every DriveToFace it was
/// interrupted at this tick (ReactToCliff is active: DriveToFace may resume). Reads the
/// stack.
pub fn drive_to_face_interrupted<U: IntentUnion, E: 'static>(view: &View<'_, U, E>) -> bool {
    global_coordinator_active(view) && names_on_stack(view, &["ReactToCliff"])
}

// ----- the pass-through coordinators ------------------------------------------------------

/// When a suppression rule applies.
#[derive(Clone, Debug)]
enum When<T> {
    /// A behavior of this rule's set is active: the rule's bit in `Kind::Global::by_node`.
    Stack(u16),
    /// This user intent is active.
    IntentActive(T),
}

/// "When `when`, suppress `targets`."
#[derive(Clone, Debug)]
struct Rule<T> {
    when: When<T>,
    targets: Vec<BehaviorId>,
}

/// Whom a rule watches on the stack: behaviors by ID, or by class.
enum Watched {
    Ids(&'static [&'static str]),
    Classes(&'static [&'static str]),
}

/// What a coordinator does besides passing through.
#[derive(Clone, Debug)]
enum Kind<T> {
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
    /// CoordinateWhileInAir.
    InAir {
        dispatcher: Option<BehaviorId>,
        initial: Option<BehaviorId>,
        suppressing: Vec<BehaviorId>,
        /// WhileInAirDispatcher, ReactToRobotOnBack, ReactToRobotOnFace, HeldInPalmDispatcher.
        blockers: Vec<BehaviorId>,
        /// InitialPickupAnimation ran since the robot left its treads.
        played: bool,
    },
}

/// A pass-through coordinator (see the [module documentation](self)).
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

/// Time since the robot last left its treads (zero on treads).
fn air_time(robot: &RobotState) -> Duration {
    match robot.off_treads() {
        (OffTreads::OnTreads, _) => Duration::ZERO,
        (_, since) => robot.now().saturating_sub(since),
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Coordinator<U::Tag> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        Behavior::<U, E>::delegates(&self.pass)
    }
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
        if out != self.suppressing {
            self.status.clear();
            for &id in &out {
                if let Some(n) = ctx.view().name_of(id) {
                    self.status.push_str(if self.status.is_empty() {
                        "suppressing "
                    } else {
                        ", "
                    });
                    self.status.push_str(n.as_str());
                }
            }
            std::mem::swap(&mut self.suppressing, &mut out);
        }
        self.scratch = out;
        self.pass.update(ctx);
    }
    fn on_deactivated(&mut self, _ctx: &mut Ctx<'_, U, E>) {
        self.status.clear();
        self.suppressing.clear();
    }
    fn debug_state(&self) -> Option<&str> {
        (!self.status.is_empty()).then_some(self.status.as_str())
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred("its delegate wants to run", &[reads::STACK.name]))
    }
}

fn resolve_ids<U: IntentUnion, E: 'static>(
    cx: &BuildCx<'_, U, E>,
    names: &[&str],
) -> Vec<BehaviorId> {
    names.iter().filter_map(|n| cx.global_id(n)).collect()
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

fn coordinator<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    class: &'static str,
    make: impl FnOnce(&mut BuildCx<'_, U, E>, Vec<(&'static str, BehaviorId)>) -> Kind<U::Tag>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let (pass, others) = pass_through(cx, data(class))?;
    let kind = make(cx, others);
    Some(Box::new(Coordinator {
        class,
        pass,
        kind,
        suppressing: Vec::new(),
        status: String::new(),
        scratch: Vec::new(),
    }))
}

/// The rules of CoordinateGlobalInterrupts (OCP §2.4), in the spec's order: whom each
/// watches on the stack (by ID or by class; None: the active `system_charger` intent) and
/// whom it suppresses.
const GLOBAL_RULES: &[(Option<Watched>, &[&str])] = &[
    (
        Some(Watched::Ids(&["MeetVictor"])),
        &[
            "ReactToTouchPetting",
            "ReactToUnexpectedMovement",
            "ReactToSoundAwake",
            "ReactToDarkness",
        ],
    ),
    (
        Some(Watched::Ids(&["DanceToTheBeat"])),
        &["ReactToObstacle", "ReactToSoundAwake"],
    ),
    (
        Some(Watched::Ids(&[
            "PossibleIntentionalPerformance",
            "PossibleUnintentionalPerformance",
        ])),
        &[
            "DanceToTheBeatCoordinator",
            "ListenForBeats",
            "DanceToTheBeat",
            "ReactToObstacle",
            "ReactToSoundAwake",
        ],
    ),
    (
        Some(Watched::Classes(&[
            "BlackJack",
            "FistBump",
            "FindCube",
            "Keepaway",
            "InspectCube",
            "PickUpCube",
            "PopAWheelie",
            "PounceWithProx",
            "RollBlock",
            "PossiblePerformance",
        ])),
        &["ReactToObstacle"],
    ),
    (
        None,
        &[
            "DanceToTheBeatCoordinator",
            "ListenForBeats",
            "DanceToTheBeat",
            "ReactToObstacle",
        ],
    ),
    (
        Some(Watched::Classes(&[
            "BumpObject",
            "ClearChargerArea",
            "ReactToHand",
        ])),
        &["ReactToUnexpectedMovement"],
    ),
    (
        Some(Watched::Classes(&[
            "BlackJack",
            "DanceToTheBeat",
            "FetchCube",
            "FistBump",
            "Keepaway",
            "ListenForBeats",
            "InspectCube",
            "PickUpCube",
            "PopAWheelie",
            "PounceWithProx",
            "RollBlock",
            "FindCubeAndThen",
            "PossiblePerformance",
        ])),
        &["ReactToSoundAwake"],
    ),
    (
        Some(Watched::Classes(&["BlackJack", "PossiblePerformance"])),
        &["ReactToTouchPetting"],
    ),
    (
        Some(Watched::Classes(&["BlackJack", "FetchCube"])),
        &["ReactToCliff"],
    ),
];

/// [`GLOBAL_RULES`] resolved in the tree: names it does not have are left out (nothing to
/// suppress or to watch).
fn global_kind<U: IntentUnion, E: 'static>(cx: &BuildCx<'_, U, E>) -> Kind<U::Tag> {
    let mut nodes = Vec::new();
    while let Some(c) = cx.class_of(BehaviorId::from_index(nodes.len())) {
        nodes.push(c);
    }
    let mut by_node = vec![0u16; nodes.len()];
    let mut rules = Vec::new();
    for (k, (watched, targets)) in GLOBAL_RULES.iter().enumerate() {
        let targets = resolve_ids(cx, targets);
        if targets.is_empty() {
            continue;
        }
        let bit = 1u16 << k;
        let when = match watched {
            None => match U::tag_from_name("system_charger") {
                Some(t) => When::IntentActive(t),
                None => continue,
            },
            Some(Watched::Ids(names)) => {
                let ids = resolve_ids(cx, names);
                for id in &ids {
                    by_node[id.index()] |= bit;
                }
                if ids.is_empty() {
                    continue;
                }
                When::Stack(bit)
            }
            Some(Watched::Classes(classes)) => {
                for (i, c) in nodes.iter().enumerate() {
                    if classes.contains(c) {
                        by_node[i] |= bit;
                    }
                }
                When::Stack(bit)
            }
        };
        rules.push(Rule { when, targets });
    }
    Kind::Global { rules, by_node }
}

pub(crate) fn build_global_interrupts<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    coordinator(cx, "CoordinateGlobalInterrupts", |cx, _| global_kind(cx))
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
        suppressing: resolve_ids(
            cx,
            &[
                "BlackJack",
                "HeldInPalmDispatcher",
                "ReactToTouchPetting",
                "TakeAPhotoCoordinator",
                "WeatherResponses",
                "ShowWallTime",
                "SingletonCancelTimer",
                "SingletonTimerAlreadySet",
                "SingletonAnticShowClock",
                "SingletonTimerCheckTime",
                "SingletonTimerSet",
            ],
        ),
        blockers: resolve_ids(
            cx,
            &[
                "WhileInAirDispatcher",
                "ReactToRobotOnBack",
                "ReactToRobotOnFace",
                "HeldInPalmDispatcher",
            ],
        ),
        played: false,
    })
}

// ----- QuietModeCoordinator --------------------------------------------------------------

/// One entry of `behaviors`.
#[derive(Clone, Copy, Debug)]
struct QuietEntry {
    behavior: BehaviorId,
    audio_allowed: bool,
}

/// `QuietModeCoordinator` (OCP §2.4): wants to run while TriggerWordDetected is not active
/// (its instances claim `imperative_quiet` / `imperative_shutup` through their JSON). Once
/// active it puts a carried cube down, runs the first entry of `behaviors` that wants to
/// (an earlier entry interrupts a later one; an active entry stops the scan), suppresses
/// TriggerWordDetected while the user timer rings, asks for power save after
/// `timeToPowerSave_s`, and ends itself on any pending intent but `unmatched_intent`, after
/// `activeTime_s`, or when shaken (accelerometer above 16000). It always delegates: with
/// nothing to run it ends.
pub struct QuietMode<T> {
    entries: Vec<QuietEntry>,
    trigger_word: Option<BehaviorId>,
    active_time: Duration,
    power_save_after: Duration,
    unmatched: Option<T>,
    /// It turned power save on (and turns it off on deactivation).
    set_power_save: bool,
    /// The audio of the running entry is allowed.
    audio: bool,
}

/// The shake that ends quiet mode.
const SHAKE_ACCEL: f32 = 16000.0;

impl<U: IntentUnion, E: 'static> Behavior<U, E> for QuietMode<U::Tag> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.entries.iter().map(|e| e.behavior).collect()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.when_carrying = true;
        m.when_off_treads = true;
        m.when_on_charger = true;
        m.always_delegates = true;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        !self
            .trigger_word
            .is_some_and(|t| view.stack().any(|s| s == t))
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(Inputs::STACK))
    }
    /// Active: its scan may choose differently when an entry's activation watch ends (as
    /// a dispatcher's), and it acts when its active time ends, when power save is due and
    /// when the user timer rings.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        let Some(since) = active_since(view) else {
            return Wakeup::Never;
        };
        let robot = view.robot();
        let mut w = Wakeup::At(since + self.active_time);
        if !robot.signals.power_save {
            w = w.min(Wakeup::At(since + self.power_save_after));
        }
        if let Some(t) = robot.signals.timer {
            if t.rings_at > robot.now() {
                w = w.min(Wakeup::At(t.rings_at));
            }
        }
        for e in &self.entries {
            if view.stack().any(|s| s == e.behavior) {
                break;
            }
            w = w.min(view.activation_watch(e.behavior).until);
        }
        w
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.set_power_save = false;
        // Puts a carried cube down.
        ctx.robot_mut().carrying_object = false;
        self.scan(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let view = ctx.view();
        let active_for = view.active_for().unwrap_or_default();
        let other_intent = view
            .intents()
            .pending_tag()
            .is_some_and(|t| Some(t) != self.unmatched);
        let robot = view.robot();
        let shaken = robot.accel_magnitude > SHAKE_ACCEL;
        let ringing = robot
            .signals
            .timer
            .is_some_and(|t| t.rings_at <= robot.now());
        let power_save_due = active_for >= self.power_save_after && !robot.signals.power_save;
        if other_intent || shaken || active_for >= self.active_time {
            let _ = ctx.cancel_self();
            return;
        }
        if ringing {
            if let Some(t) = self.trigger_word {
                ctx.suppress_this_tick(t);
            }
        }
        if power_save_due {
            ctx.robot_mut().signals.power_save = true;
            self.set_power_save = true;
        }
        self.scan(ctx);
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let tick = ctx.clock().tick();
        let robot = ctx.robot_mut();
        if self.set_power_save {
            robot.signals.power_save = false;
        }
        if let Some(i) = Whiteboard::index("Nothing") {
            robot.whiteboard.offer(i, tick);
        }
        self.set_power_save = false;
    }
    fn debug_state(&self) -> Option<&str> {
        Some(if self.audio {
            "audio allowed"
        } else {
            "audio muted"
        })
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred(
            "TriggerWordDetected is not active",
            &[reads::STACK.name],
        ))
    }
}

impl<T> QuietMode<T> {
    fn scan<U: IntentUnion<Tag = T>, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        for e in &self.entries {
            if ctx.view().stack().any(|s| s == e.behavior) {
                return;
            }
            if ctx.wants_to_activate(e.behavior) {
                self.audio = e.audio_allowed;
                let _ = ctx.delegate_now(e.behavior, Continuation::None);
                return;
            }
        }
    }
}

pub(crate) fn build_quiet_mode<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("QuietModeCoordinator"));
    let mut entries = Vec::new();
    let mut ok = true;
    if let Some(Value::Array(list)) = keys.get("behaviors") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("behaviors[{i}]");
            let name = item.get("behavior").and_then(Value::as_str);
            let audio = item.get("audioAllowed").and_then(Value::as_bool);
            let Some(name) = name else {
                cx.bad_value(&at, "needs `behavior`: a behavior ID");
                ok = false;
                continue;
            };
            let Some(audio_allowed) = audio else {
                cx.bad_value(&at, "needs `audioAllowed`: true or false");
                ok = false;
                continue;
            };
            if let Some(extra) = item
                .as_object()
                .and_then(|o| o.keys().find(|k| *k != "behavior" && *k != "audioAllowed"))
            {
                cx.bad_value(
                    &at,
                    format!("unknown key `{extra}` (behavior, audioAllowed)"),
                );
                ok = false;
            }
            match cx.delegate_global(name, &format!("{at}.behavior")) {
                Some(behavior) => entries.push(QuietEntry {
                    behavior,
                    audio_allowed,
                }),
                None => ok = false,
            }
        }
    }
    let active_time = secs(&keys, "activeTime_s");
    let power_save_after = secs(&keys, "timeToPowerSave_s");
    let (Some(active_time), Some(power_save_after), true) = (active_time, power_save_after, ok)
    else {
        return None;
    };
    Some(Box::new(QuietMode {
        entries,
        trigger_word: cx.global_id("TriggerWordDetected"),
        active_time,
        power_save_after,
        unmatched: U::tag_from_name("unmatched_intent"),
        set_power_save: false,
        audio: true,
    }))
}

// ----- SDKInterface, SDKLock --------------------------------------------------------------

/// What the SDK class waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SdkWants {
    /// Control at this level (None: at any level, an instance without
    /// `behaviorControlLevel`).
    Control(Option<i64>),
    /// The behavior lock.
    Lock,
}

/// `SDKInterface` and `SDKLock` (OCP §2.4): want to run while the SDK wants control at
/// the instance's `behaviorControlLevel` (`sdk_control`) or wants the behavior lock
/// (`sdk_lock`); once active they hold the stack (every gate open, not always
/// delegating) and end themselves when the SDK releases it. While active, SDKInterface
/// drops the pending intents on its whitelist (the SDK gets them).
pub struct Sdk<T> {
    wants: SdkWants,
    drops: Vec<T>,
    delegates: Vec<BehaviorId>,
}

impl<T> Sdk<T> {
    fn holds(&self, robot: &RobotState) -> bool {
        match self.wants {
            SdkWants::Control(level) => match (robot.signals.sdk_control, level) {
                (Some(_), None) => true,
                (Some(have), Some(want)) => have == want,
                (None, _) => false,
            },
            SdkWants::Lock => robot.signals.sdk_lock,
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Sdk<U::Tag> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.when_carrying = true;
        m.when_off_treads = true;
        m.when_on_charger = true;
        m.always_delegates = false;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        self.holds(view.robot())
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(inputs::SDK))
    }
    /// It acts when the SDK's request or an intent changes (inputs).
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if !self.holds(ctx.robot()) {
            let _ = ctx.cancel_self();
            return;
        }
        for &t in &self.drops {
            if ctx.intents().is_pending(t) {
                let _ = ctx.intents_mut().drop_pending(t);
            }
        }
    }
    fn can_be_gently_interrupted(&self, _view: &View<'_, U, E>) -> bool {
        false
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        let text = match self.wants {
            SdkWants::Control(Some(l)) => format!("the SDK wants control at level {l}"),
            SdkWants::Control(None) => "the SDK wants control (at any level)".to_owned(),
            SdkWants::Lock => "the SDK wants the behavior lock".to_owned(),
        };
        Some(ClassPredicate {
            text,
            inputs: vec![reads::SDK.name],
            unmodelled: Vec::new(),
        })
    }
}

pub(crate) fn build_sdk_interface<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("SDKInterface");
    let keys = read_class_keys(cx, data);
    let refs = cx.reference_keys();
    let _ = cx.resolve_reference_keys(refs);
    let level = keys.get("behaviorControlLevel").and_then(Value::as_i64);
    // `simple_voice_response` is dropped only for the anim groups of a fixed table the
    // spec does not give: it is left to SimpleVoiceResponse (see the report).
    let drops = data
        .drops
        .iter()
        .filter(|n| **n != "simple_voice_response")
        .filter_map(|n| U::tag_from_name(n))
        .collect();
    Some(Box::new(Sdk {
        wants: SdkWants::Control(level),
        drops,
        delegates: cx.declared_delegates().to_vec(),
    }))
}

pub(crate) fn build_sdk_lock<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let _ = read_class_keys(cx, data("SDKLock"));
    Some(Box::new(Sdk::<U::Tag> {
        wants: SdkWants::Lock,
        drops: Vec::new(),
        delegates: Vec::new(),
    }))
}

// ----- StayOnChargerUntilCharged ----------------------------------------------------------

/// The longest stay on the charger.
const STAY_MAX: Duration = Duration::from_secs(30 * 60);
/// The cooldown after a stay hit [`STAY_MAX`].
const STAY_COOLDOWN: Duration = Duration::from_secs(20 * 60);
/// How long after the battery dropped from Full it does not start.
const LEFT_FULL: Duration = Duration::from_secs(4);

/// `StayOnChargerUntilCharged` (OCP §2.4): wants to run on the charger platform with the
/// battery not Full, for at most 30 minutes on the platform, not within 20 minutes of a
/// stay it cut at 30 minutes, not within 4 s of the battery dropping from Full, and with no
/// intent pending or active; delegates `delegate`, and ends itself on an intent, a Full
/// battery or after 30 minutes (starting the cooldown), or when its delegate ends.
pub struct StayOnCharger {
    delegate: Option<BehaviorId>,
    /// When the last stay was cut at 30 minutes.
    cooldown_from: Option<Duration>,
}

impl StayOnCharger {
    fn robot_allows(&self, robot: &RobotState) -> bool {
        let now = robot.now();
        robot.on_charger_platform
            && robot.battery_level != BatteryLevel::Full
            && !within(self.cooldown_from, STAY_COOLDOWN, now)
            && within(robot.signals.on_platform_since, STAY_MAX, now)
            && !within(robot.signals.battery_left_full, LEFT_FULL, now)
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for StayOnCharger {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegate.into_iter().collect()
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        self.robot_allows(view.robot()) && !view.intents().is_any_pending_or_active()
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let robot = view.robot();
        let now = robot.now();
        let until = window_end(self.cooldown_from, STAY_COOLDOWN, now)
            .min(window_end(robot.signals.on_platform_since, STAY_MAX, now))
            .min(window_end(robot.signals.battery_left_full, LEFT_FULL, now));
        Some(
            Watch::reads(
                inputs::ON_CHARGER_PLATFORM
                    .with(inputs::BATTERY)
                    .with(Inputs::INTENTS),
            )
            .until(until),
        )
    }
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        match active_since(view) {
            Some(_) => window_end(
                view.robot().signals.on_platform_since,
                STAY_MAX,
                view.robot().now(),
            ),
            None => Wakeup::Never,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(d) = self.delegate {
            if ctx.wants_to_activate(d) {
                let _ = ctx.delegate_if_in_control(d, Continuation::None);
            }
        }
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        let robot = ctx.robot();
        let now = robot.now();
        let too_long = robot
            .signals
            .on_platform_since
            .is_some_and(|t| now.saturating_sub(t) > STAY_MAX);
        if too_long {
            self.cooldown_from = Some(now);
        }
        if too_long
            || robot.battery_level == BatteryLevel::Full
            || ctx.intents().is_any_pending_or_active()
        {
            let _ = ctx.cancel_self();
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred(
            "on the charger platform, battery not Full, on it at most 30 min, not within 20 min of a stay cut at 30 min nor 4 s of the battery leaving Full, and no user intent pending or active",
            &[
                reads::ON_PLATFORM.name,
                reads::BATTERY.name,
                reads::INTENTS.name,
            ],
        ))
    }
}

pub(crate) fn build_stay_on_charger<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("StayOnChargerUntilCharged"));
    let delegate = keys
        .get("delegate")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate(n, "delegate"));
    Some(Box::new(StayOnCharger {
        delegate,
        cooldown_from: None,
    }))
}

// ----- ConfirmHabitat ---------------------------------------------------------------------

/// The behaviors during which ConfirmHabitat may run.
const CONFIRM_DURING: &[&str] = &["Exploring", "ExploringVoiceCommand", "Observing"];

/// `ConfirmHabitat` (OCP §2.4): wants to run off the charger platform, with no intent
/// pending or active, the habitat belief Unknown, its `onTreadsTimeCondition` true (when
/// given) and Exploring, ExploringVoiceCommand or Observing active. Once active it probes:
/// with no charger located it runs `searchForChargerBehavior` (localizing to the charger),
/// otherwise it waits for the belief; InHabitat plays ReactToHabitat and ends, NotInHabitat
/// ends. It does not always delegate.
pub struct ConfirmHabitat<U: IntentUnion, E: 'static> {
    on_treads: Option<Condition<U, E>>,
    during: Vec<BehaviorId>,
    search: Option<BehaviorId>,
    /// Playing the InHabitat reaction.
    reacting: bool,
}

impl<U: IntentUnion, E: 'static> ConfirmHabitat<U, E> {
    fn probe(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let habitat = ctx.robot().habitat;
        match habitat {
            Habitat::InHabitat if !self.reacting => {
                self.reacting = true;
                let _ = ctx.cancel_delegates(false);
                if ctx
                    .play(
                        &ActionRequest::Animation {
                            name: "ReactToHabitat",
                            loops: 1,
                        },
                        Continuation::Call(1),
                    )
                    .is_err()
                {
                    let _ = ctx.cancel_self();
                }
            }
            Habitat::NotInHabitat => {
                let _ = ctx.cancel_self();
            }
            _ => {}
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for ConfirmHabitat<U, E> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.search.into_iter().collect()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = false;
    }
    fn on_entered_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(c) = &self.on_treads {
            c.set_active(true, ctx.clock().now());
        }
    }
    fn on_left_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(c) = &self.on_treads {
            c.set_active(false, ctx.clock().now());
        }
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let robot = view.robot();
        !robot.on_charger_platform
            && !view.intents().is_any_pending_or_active()
            && robot.habitat == Habitat::Unknown
            && id_on_stack(view, &self.during)
            && self.on_treads.as_ref().is_none_or(|c| view.eval(c))
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let w = Watch::reads(
            inputs::ON_CHARGER_PLATFORM
                .with(inputs::HABITAT)
                .with(Inputs::INTENTS)
                .with(Inputs::STACK),
        );
        Some(match &self.on_treads {
            Some(c) => w.and(c.watch(&view.eval_cx())),
            None => w,
        })
    }
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.reacting = false;
        let charger_known = ctx.robot().objects.iter().any(|o| o.is_charger());
        if let (Some(s), false) = (self.search, charger_known) {
            if ctx.wants_to_activate(s) {
                let _ = ctx.delegate_if_in_control(s, Continuation::None);
            }
        }
        self.probe(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_active() {
            self.probe(ctx);
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        if step == 1 {
            let _ = ctx.cancel_self();
        }
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        if let Some(c) = &self.on_treads {
            out.push(("onTreadsTimeCondition".into(), c));
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred(
            "off the charger platform, no user intent pending or active, habitat Unknown, onTreadsTimeCondition, and Exploring / ExploringVoiceCommand / Observing active",
            &[
                reads::ON_PLATFORM.name,
                reads::INTENTS.name,
                reads::HABITAT.name,
                reads::OFF_TREADS.name,
                reads::STACK.name,
            ],
        ))
    }
}

pub(crate) fn build_confirm_habitat<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("ConfirmHabitat"));
    let on_treads = match keys.get("onTreadsTimeCondition") {
        Some(v) => Some(cx.condition(v, "onTreadsTimeCondition")?),
        None => None,
    };
    let search = keys
        .get("searchForChargerBehavior")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate_global(n, "searchForChargerBehavior"));
    Some(Box::new(ConfirmHabitat {
        on_treads,
        during: resolve_ids(cx, CONFIRM_DURING),
        search,
        reacting: false,
    }))
}

// ----- SleepCycle -------------------------------------------------------------------------

/// The sleep states of SleepCycle (the original's `SleepStateID`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SleepState {
    Awake,
    /// `system_sleep`: no wake but the always-reasons; deep sleep after 30 s.
    Comatose,
    /// After the emergency condition.
    EmergencySleep,
    DeepSleep,
    LightSleep,
    /// Held in a palm.
    HeldInPalmSleep,
}

impl SleepState {
    const NAMES: [(&'static str, SleepState); 6] = [
        ("Awake", SleepState::Awake),
        ("Comatose", SleepState::Comatose),
        ("EmergencySleep", SleepState::EmergencySleep),
        ("DeepSleep", SleepState::DeepSleep),
        ("LightSleep", SleepState::LightSleep),
        ("HeldInPalmSleep", SleepState::HeldInPalmSleep),
    ];
    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |(n, _)| n)
    }
    fn from_name(n: &str) -> Option<SleepState> {
        Self::NAMES.iter().find(|(k, _)| *k == n).map(|(_, s)| *s)
    }
}

/// The wake reasons the code adds itself (OCP §2.4), and those never configured.
const CODE_REASONS: &[&str] = &[
    "SDK",
    "TimerShouldRing",
    "VoiceCommand",
    "Sound",
    "Jolted",
    "PickedUpFromPalm",
];

/// What runs in the current sleep step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SleepStep {
    /// The awake delegate (or nothing to run).
    Awake,
    /// Going to the charger before sleeping.
    ToCharger,
    /// Going to sleep (GoToSleep).
    GoingToSleep,
    /// Asleep (the Asleep behavior).
    Asleep,
    /// Waking up (SleepingWakeUp).
    WakingUp,
}

/// `SleepCycle` (OCP §2.4): every gate open but always-delegates; awake it delegates its
/// `delegateID` and goes to sleep on, in this order, a pending `system_sleep` (claimed:
/// Comatose), a pending `greeting_goodnight` (claimed: ReactToGoodNight, the
/// `goToChargerBehavior`, then light sleep), a fresh `SleepOnPalm` suggestion (palm sleep),
/// unless it woke less than 10 minutes ago a fresh `SleepOnCharger` (to the charger, then
/// sleep) or `Sleep` suggestion (sleep in place); the `emergencyCondition` puts it in
/// emergency sleep. Going to sleep runs GoToSleep then Asleep; asleep it checks the wake
/// reasons (the always-reasons, then the state's, each a configured condition or one the
/// code adds: SDK, TimerShouldRing, VoiceCommand); Comatose turns deep after 30 s. Waking
/// releases the claimed intent, runs SleepingWakeUp and re-delegates the awake delegate.
/// Awake, it ends when the awake delegate ends (always-delegates).
pub struct SleepCycle<U: IntentUnion, E: 'static> {
    awake: Option<BehaviorId>,
    to_charger: Option<BehaviorId>,
    go_to_sleep: Option<BehaviorId>,
    asleep: Option<BehaviorId>,
    wake_up: Option<BehaviorId>,
    /// Configured wake reasons.
    conditions: Vec<(String, Condition<U, E>)>,
    always: Vec<String>,
    from_states: Vec<(SleepState, Vec<String>)>,
    emergency: Option<Condition<U, E>>,
    system_sleep: Option<U::Tag>,
    goodnight: Option<U::Tag>,
    state: SleepState,
    step: SleepStep,
    /// The state to enter after going to the charger / to sleep.
    target: SleepState,
    state_since: Duration,
    woke_at: Option<Duration>,
    claimed: Option<EffectId>,
}

/// How long suggestions stay fresh, in ticks.
const FRESH_TICKS: u64 = 5;
/// No sleep suggestion is taken this soon after waking.
const WOKE_RECENTLY: Duration = Duration::from_secs(10 * 60);
/// Comatose turns into deep sleep after this.
const COMATOSE_TO_DEEP: Duration = Duration::from_secs(30);

const STEP_TO_CHARGER: u32 = 1;
const STEP_GO_TO_SLEEP: u32 = 2;
const STEP_WAKE_UP: u32 = 3;
const STEP_AWAKE_DONE: u32 = 4;

impl<U: IntentUnion, E: 'static> SleepCycle<U, E> {
    fn fresh(robot: &RobotState, name: &str) -> bool {
        Whiteboard::index(name)
            .and_then(|i| robot.whiteboard.offered_at(i))
            .is_some_and(|t| robot.tick().saturating_sub(t) <= FRESH_TICKS)
    }

    fn run(&mut self, ctx: &mut Ctx<'_, U, E>, id: Option<BehaviorId>, step: u32) -> bool {
        let Some(id) = id else {
            return false;
        };
        if ctx.is_control_delegated() {
            let _ = ctx.cancel_delegates(false);
        }
        ctx.wants_to_activate(id)
            && ctx
                .delegate_if_in_control(id, Continuation::Call(step))
                .is_ok()
    }

    fn run_awake(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.step = SleepStep::Awake;
        self.state = SleepState::Awake;
        let awake = self.awake;
        let _ = self.run(ctx, awake, STEP_AWAKE_DONE);
    }

    /// Falls asleep in `state` (through GoToSleep when the tree has it).
    fn sleep(&mut self, ctx: &mut Ctx<'_, U, E>, state: SleepState) {
        self.target = state;
        self.step = SleepStep::GoingToSleep;
        let go = self.go_to_sleep;
        if !self.run(ctx, go, STEP_GO_TO_SLEEP) {
            self.fall_asleep(ctx);
        }
    }

    fn fall_asleep(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.state = self.target;
        self.state_since = ctx.clock().now();
        self.step = SleepStep::Asleep;
        let asleep = self.asleep;
        if !self.run(ctx, asleep, 0) && ctx.is_control_delegated() {
            let _ = ctx.cancel_delegates(false);
        }
    }

    fn charger_then_sleep(&mut self, ctx: &mut Ctx<'_, U, E>, state: SleepState) {
        self.target = state;
        self.step = SleepStep::ToCharger;
        let c = self.to_charger;
        if !self.run(ctx, c, STEP_TO_CHARGER) {
            self.sleep(ctx, state);
        }
    }

    fn claim(&mut self, ctx: &mut Ctx<'_, U, E>, tag: U::Tag) {
        match ctx.activate_intent(&IntentMatcher::Tag(tag)) {
            Ok(e) => self.claimed = Some(e),
            Err(e) => tracing::warn!(error = %e, "SleepCycle.ClaimFailed"),
        }
    }

    fn wake(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(e) = self.claimed.take() {
            ctx.release_effect(e);
        }
        self.woke_at = Some(ctx.clock().now());
        self.state = SleepState::Awake;
        self.step = SleepStep::WakingUp;
        let w = self.wake_up;
        if !self.run(ctx, w, STEP_WAKE_UP) {
            self.run_awake(ctx);
        }
    }

    /// True when wake reason `reason` holds now.
    fn reason_holds(&self, view: &View<'_, U, E>, reason: &str) -> bool {
        match reason {
            "SDK" => view.robot().signals.sdk_control.is_some(),
            "TimerShouldRing" => view
                .robot()
                .signals
                .timer
                .is_some_and(|t| t.rings_at <= view.robot().now()),
            "VoiceCommand" => {
                view.intents().is_any_pending() && !view.intents().is_trigger_word_pending()
            }
            _ => self
                .conditions
                .iter()
                .filter(|(r, _)| r == reason)
                .any(|(_, c)| view.eval(c)),
        }
    }

    fn should_wake(&self, view: &View<'_, U, E>) -> bool {
        let extra = self
            .from_states
            .iter()
            .filter(|(s, _)| *s == self.state)
            .flat_map(|(_, r)| r.iter());
        self.always
            .iter()
            .chain(extra)
            .any(|r| self.reason_holds(view, r))
    }

    fn awake_tick(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(t) = self.system_sleep.filter(|t| ctx.intents().is_pending(*t)) {
            self.claim(ctx, t);
            self.sleep(ctx, SleepState::Comatose);
            return;
        }
        if let Some(t) = self.goodnight.filter(|t| ctx.intents().is_pending(*t)) {
            self.claim(ctx, t);
            ctx.robot_mut().fire_emotion_event("RespondToGoodNight");
            self.target = SleepState::LightSleep;
            self.step = SleepStep::ToCharger;
            if ctx.is_control_delegated() {
                let _ = ctx.cancel_delegates(false);
            }
            let r = ctx.play(
                &ActionRequest::Animation {
                    name: "ReactToGoodNight",
                    loops: 1,
                },
                Continuation::Call(STEP_GO_TO_SLEEP + 100),
            );
            if r.is_err() {
                self.charger_then_sleep(ctx, SleepState::LightSleep);
            }
            return;
        }
        let robot = ctx.robot();
        let now = robot.now();
        if Self::fresh(robot, "SleepOnPalm") {
            self.sleep(ctx, SleepState::HeldInPalmSleep);
            return;
        }
        if !within(self.woke_at, WOKE_RECENTLY, now) {
            if Self::fresh(robot, "SleepOnCharger") {
                self.charger_then_sleep(ctx, SleepState::LightSleep);
                return;
            }
            if Self::fresh(robot, "Sleep") {
                self.sleep(ctx, SleepState::LightSleep);
                return;
            }
        }
        if self.emergency.as_ref().is_some_and(|c| ctx.eval(c)) {
            self.sleep(ctx, SleepState::EmergencySleep);
        }
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for SleepCycle<U, E> {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        [
            self.awake,
            self.to_charger,
            self.go_to_sleep,
            self.asleep,
            self.wake_up,
        ]
        .into_iter()
        .flatten()
        .fold(Vec::new(), |mut v, id| {
            if !v.contains(&id) {
                v.push(id);
            }
            v
        })
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        self.awake.into_iter().collect()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.when_carrying = true;
        m.when_off_treads = true;
        m.when_on_charger = true;
    }
    fn on_entered_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        for (_, c) in &self.conditions {
            c.set_active(true, now);
        }
        if let Some(c) = &self.emergency {
            c.set_active(true, now);
        }
    }
    fn on_left_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let now = ctx.clock().now();
        for (_, c) in &self.conditions {
            c.set_active(false, now);
        }
        if let Some(c) = &self.emergency {
            c.set_active(false, now);
        }
    }
    fn wants_to_be_activated(&self, _view: &View<'_, U, E>) -> bool {
        true
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Awake, it acts on inputs (a pending intent, a suggestion, the robot state its
    /// emergency condition reads) or when that condition's time comes; asleep, when a wake
    /// reason's condition's time comes, the user timer rings, or Comatose turns deep;
    /// otherwise it waits for its delegate.
    fn next_wakeup(&self, view: &View<'_, U, E>) -> Wakeup {
        if active_since(view).is_none() {
            return Wakeup::Never;
        }
        let cx = view.eval_cx();
        match self.step {
            SleepStep::Awake => self
                .emergency
                .as_ref()
                .map_or(Wakeup::Never, |c| c.next_change(&cx)),
            SleepStep::Asleep => {
                let mut w = self
                    .conditions
                    .iter()
                    .fold(Wakeup::Never, |w, (_, c)| w.min(c.next_change(&cx)));
                if self.state == SleepState::Comatose {
                    w = w.min(Wakeup::At(self.state_since + COMATOSE_TO_DEEP));
                }
                if let Some(t) = view.robot().signals.timer {
                    if t.rings_at > view.robot().now() {
                        w = w.min(Wakeup::At(t.rings_at));
                    }
                }
                w
            }
            SleepStep::ToCharger | SleepStep::GoingToSleep | SleepStep::WakingUp => Wakeup::Never,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.claimed = None;
        self.run_awake(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        match self.step {
            SleepStep::Awake => self.awake_tick(ctx),
            SleepStep::Asleep => {
                let now = ctx.clock().now();
                if self.state == SleepState::Comatose
                    && now.saturating_sub(self.state_since) >= COMATOSE_TO_DEEP
                {
                    self.state = SleepState::DeepSleep;
                    self.state_since = now;
                }
                let wake = {
                    let view = ctx.view();
                    self.should_wake(&view)
                };
                if wake {
                    self.wake(ctx);
                }
            }
            SleepStep::ToCharger | SleepStep::GoingToSleep | SleepStep::WakingUp => {}
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        match step {
            s if s == STEP_GO_TO_SLEEP + 100 => self.charger_then_sleep(ctx, self.target),
            STEP_TO_CHARGER => self.sleep(ctx, self.target),
            STEP_GO_TO_SLEEP => self.fall_asleep(ctx),
            STEP_WAKE_UP => self.run_awake(ctx),
            // The awake delegate ended while awake: always-delegates ends SleepCycle.
            _ => {}
        }
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(e) = self.claimed.take() {
            ctx.release_effect(e);
        }
        self.state = SleepState::Awake;
        self.step = SleepStep::Awake;
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<U::Tag>>) {
        for tag in [self.system_sleep, self.goodnight].into_iter().flatten() {
            out.push(ClaimSite {
                tag,
                state: None,
                owner: None,
            });
        }
    }
    fn debug_state(&self) -> Option<&str> {
        Some(self.state.name())
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        for (r, c) in &self.conditions {
            out.push((format!("wake reason {r}"), c));
        }
        if let Some(c) = &self.emergency {
            out.push(("emergencyCondition".into(), c));
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred("true", &[]))
    }
}

pub(crate) fn build_sleep_cycle<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("SleepCycle"));
    let ok = std::cell::Cell::new(true);
    let reason_name = |cx: &mut BuildCx<'_, U, E>, v: &Value, at: &str| -> Option<String> {
        match v.as_str() {
            Some(s) if !s.trim().is_empty() => Some(s.to_owned()),
            _ => {
                cx.bad_value(at, format!("expected a WakeReason name, found {v}"));
                ok.set(false);
                None
            }
        }
    };
    let mut conditions = Vec::new();
    if let Some(Value::Array(list)) = keys.get("wakeReasonConditions") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("wakeReasonConditions[{i}]");
            let reason = item
                .get("reason")
                .and_then(|r| reason_name(cx, r, &format!("{at}.reason")));
            let cond = match item.get("condition") {
                Some(c) => cx.condition(c, &format!("{at}.condition")),
                None => {
                    cx.bad_value(&at, "needs `reason` and `condition`");
                    None
                }
            };
            if let (Some(r), Some(c)) = (reason, cond) {
                conditions.push((r, c));
            }
        }
    }
    let mut always = Vec::new();
    if let Some(Value::Array(list)) = keys.get("alwaysWakeReasons") {
        for (i, r) in list.iter().enumerate() {
            if let Some(r) = reason_name(cx, r, &format!("alwaysWakeReasons[{i}]")) {
                always.push(r);
            }
        }
    }
    let mut from_states = Vec::new();
    if let Some(Value::Array(list)) = keys.get("wakeFromStates") {
        for (i, item) in list.iter().enumerate() {
            let at = format!("wakeFromStates[{i}]");
            let state = item
                .get("fromState")
                .and_then(Value::as_str)
                .and_then(SleepState::from_name);
            let Some(state) = state else {
                cx.bad_value(
                    &format!("{at}.fromState"),
                    "expected a sleep state (Awake, Comatose, EmergencySleep, DeepSleep, LightSleep, HeldInPalmSleep)",
                );
                ok.set(false);
                continue;
            };
            let mut reasons = Vec::new();
            match item.get("reasons") {
                Some(Value::Array(rs)) => {
                    for (j, r) in rs.iter().enumerate() {
                        if let Some(r) = reason_name(cx, r, &format!("{at}.reasons[{j}]")) {
                            reasons.push(r);
                        }
                    }
                }
                _ => {
                    cx.bad_value(&at, "needs `reasons`: an array of WakeReason names");
                    ok.set(false);
                }
            }
            from_states.push((state, reasons));
        }
    }
    // A reason used but neither configured nor added in code never wakes it: said at load.
    let used: Vec<&String> = always
        .iter()
        .chain(from_states.iter().flat_map(|(_, r)| r.iter()))
        .collect();
    for r in used {
        if !CODE_REASONS.contains(&r.as_str()) && !conditions.iter().any(|(c, _)| c == r) {
            cx.info(robot_runtime::behavior::ProblemKind::Unmodelled {
                class: "SleepCycle".into(),
                input: format!("wake reason `{r}` (no condition in `wakeReasonConditions`)"),
            });
        }
    }
    let emergency = match keys.get("emergencyCondition") {
        Some(v) => cx.condition(v, "emergencyCondition"),
        None => None,
    };
    let awake = keys
        .get("delegateID")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate_global(n, "delegateID"));
    let to_charger = keys
        .get("goToChargerBehavior")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate_global(n, "goToChargerBehavior"));
    let mut hard = |name: &str| {
        let id = cx.global_id(name);
        if let Some(id) = id {
            cx.declare_delegate(id);
        }
        id
    };
    let go_to_sleep = hard("GoToSleep");
    let asleep = hard("Asleep");
    let wake_up = hard("SleepingWakeUp");
    if !ok.get() {
        return None;
    }
    Some(Box::new(SleepCycle {
        awake,
        to_charger,
        go_to_sleep,
        asleep,
        wake_up,
        conditions,
        always,
        from_states,
        emergency,
        system_sleep: U::tag_from_name("system_sleep"),
        goodnight: U::tag_from_name("greeting_goodnight"),
        state: SleepState::Awake,
        step: SleepStep::Awake,
        target: SleepState::LightSleep,
        state_since: Duration::ZERO,
        woke_at: None,
        claimed: None,
    }))
}
